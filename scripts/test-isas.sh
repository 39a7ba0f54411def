#!/usr/bin/env bash
# Runs the unit tests of every module with run-time-dispatched kernels (core, nn, io, search, eval, project, train)
# once more for each kernel variant this CPU runs besides its best one, which the normal ctest run already
# covers: LUMEN_ISA forces the variant, so a machine's CPU cannot hide a kernel-dependent result.
# Usage: scripts/test-isas.sh [BUILD_DIR] (default: build)
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${1:-build}"
isas=$("$BUILD_DIR/lumen" --version | sed -n 's/.*(kernels: \(.*\))$/\1/p')
[ -n "$isas" ] || { echo "error: could not read the kernel variants from $BUILD_DIR/lumen --version" >&2; exit 1; }
best=${isas##* }
echo "kernel variants on this CPU: $isas (the normal run used $best)"
for isa in $isas; do
  [ "$isa" = "$best" ] && continue
  echo "=== LUMEN_ISA=$isa: dispatched modules' unit tests"
  LUMEN_ISA=$isa ctest --test-dir "$BUILD_DIR" --output-on-failure -j"$(nproc)" --timeout 600 \
    -L '^(core|nn|io|search|eval|project|train)$'
done
