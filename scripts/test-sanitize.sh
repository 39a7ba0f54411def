#!/usr/bin/env bash
# The whole test suite under AddressSanitizer + UndefinedBehaviorSanitizer (clang 14, -O1 -g1, leaks checked, any
# UB aborts): configure preset `asan` (build-asan/, the same build the fuzz targets use: scripts/test-fuzz.sh),
# build everything in it but the benchmarks, run ctest over every test but the fuzz runs.
# Extra ctest arguments pass through, e.g. scripts/test-sanitize.sh -L core
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${LUMEN_JOBS:-$(nproc)}
cmake --preset asan >/dev/null
cmake --build build-asan -j"$jobs"
# Tests labelled `asan-skip` are too slow under ASan; each such label is justified in docs/quality.md.
ctest --preset asan -j"$jobs" -LE '^(asan-skip|fuzz)$' "$@"
