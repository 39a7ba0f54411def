#!/usr/bin/env bash
# The test command: installs, builds and runs every check. CI runs exactly this (through .ci/run).
# Steps, cheapest first, stopping at the first failure: the normal build and its tests; the dispatched modules'
# tests again under every other kernel variant the CPU runs (LUMEN_ISA); formatting; cppcheck;
# clang-tidy; bounded fuzz runs; the same tests again under ASan+UBSan. Each step's time is printed at the end
# (docs/quality.md has the figures).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 600

times=()
step() {
  local name=$1 t0=$SECONDS
  shift
  echo "=== $name: $*"
  "$@"
  times+=("$(printf '%-10s %4ds' "$name" $((SECONDS - t0)))")
}
step isas bash scripts/test-isas.sh build
step format bash scripts/check-format.sh
step cppcheck bash scripts/check-cppcheck.sh
step tidy bash scripts/check-tidy.sh
step fuzz bash scripts/test-fuzz.sh
step sanitize bash scripts/test-sanitize.sh
echo "=== every check passed; step times:"
printf '  %s\n' "${times[@]}"
echo "  total      ${SECONDS}s"
