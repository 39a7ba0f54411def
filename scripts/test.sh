#!/usr/bin/env bash
# The test command: installs, builds and runs every check. CI runs exactly this (through .ci/run).
# Steps, cheapest first, stopping at the first failure: what a user runs (scripts/build.sh); the tests and
# benchmarks over it and the whole suite in Release; the dispatched modules' tests again under every other kernel
# variant the CPU runs (LUMEN_ISA); formatting; the library's rules (scripts/check_rules.py); cppcheck; clang-tidy; then one clang ASan+UBSan build (build-asan/)
# for both the bounded fuzz runs and the whole suite again under the sanitizers. Each step's time is printed at the
# end (docs/quality.md has the figures).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc)

times=()
step() {
  local name=$1 t0=$SECONDS
  shift
  echo "=== $name: $*"
  "$@"
  times+=("$(printf '%-12s %4ds' "$name" $((SECONDS - t0)))")
}
step build bash scripts/build.sh
step build-tests cmake --build build -j"$jobs"
step tests ctest --test-dir build --output-on-failure -j"$jobs" --timeout 600
step isas bash scripts/test-isas.sh build
step format bash scripts/check-format.sh
step rules bash scripts/check-rules.sh  # no flag named in the library, one case folding, every BLAS call guarded
step cppcheck bash scripts/check-cppcheck.sh
step tidy bash scripts/check-tidy.sh
step fuzz bash scripts/test-fuzz.sh  # builds the library under ASan+UBSan in build-asan/, then the fuzz targets
step sanitize bash scripts/test-sanitize.sh  # the rest of build-asan/ (CLI, tests), then every test
echo "=== every check passed; step times:"
printf '  %s\n' "${times[@]}"
echo "  total        ${SECONDS}s"
