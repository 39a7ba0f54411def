#!/usr/bin/env bash
# A compiler launcher that logs each compilation's wall time, to find the translation units that cost the build
# the most. Usage (a scratch build; no ccache, so every object is really compiled):
#   LUMEN_TIME_LOG=/tmp/asan-times.log cmake --preset asan -DCMAKE_CXX_COMPILER_LAUNCHER=$PWD/scripts/time-compile.sh
#   LUMEN_TIME_LOG=/tmp/asan-times.log cmake --build build-asan -j2
#   sort -rn /tmp/asan-times.log | head -30
# Each line: seconds, then the object file (a precompiled header shows as cmake_pch.hxx.gch).
log=${LUMEN_TIME_LOG:-/tmp/lumen-compile-times.log}
t0=$EPOCHREALTIME
"$@"
rc=$?
t1=$EPOCHREALTIME
out=?
prev=
for a in "$@"; do
  [ "$prev" = -o ] && out=$a
  prev=$a
done
printf '%.2f %s\n' "$(echo "$t1 - $t0" | bc -l)" "$out" >>"$log"
exit $rc
