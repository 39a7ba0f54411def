#!/usr/bin/env bash
# The test command: installs, builds and runs every check. CI runs exactly this (through .ci/run).
# Steps: the normal build and its tests; the same tests under ASan+UBSan; bounded fuzz runs; formatting;
# clang-tidy; cppcheck. Each step's time is printed at the end (see docs/quality.md for the figures).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 600

times=()
advisory_failed=()
step() {
  local name=$1 t0=$SECONDS
  shift
  echo "=== $name: $*"
  "$@"
  times+=("$(printf '%-10s %4ds' "$name" $((SECONDS - t0)))")
}
# A gate that has not yet had a clean full run on a fresh machine runs and reports, but does not fail the
# command (see docs/quality.md). LUMEN_STRICT_GATES=1 makes every gate fail the command.
advisory() {
  local name=$1 t0=$SECONDS
  shift
  echo "=== $name (advisory): $*"
  if "$@"; then
    times+=("$(printf '%-10s %4ds' "$name" $((SECONDS - t0)))")
  else
    [ "${LUMEN_STRICT_GATES:-0}" = 1 ] && exit 1
    advisory_failed+=("$name")
    times+=("$(printf '%-10s %4ds  FAILED (advisory)' "$name" $((SECONDS - t0)))")
  fi
}
step format bash scripts/check-format.sh
step cppcheck bash scripts/check-cppcheck.sh
advisory sanitize bash scripts/test-sanitize.sh
advisory fuzz bash scripts/test-fuzz.sh
advisory tidy bash scripts/check-tidy.sh
if [ ${#advisory_failed[@]} -gt 0 ]; then
  echo "=== advisory gates that FAILED (to fix; they do not fail this command yet): ${advisory_failed[*]}"
fi
echo "=== required checks passed; step times:"
printf '  %s\n' "${times[@]}"
echo "  total      ${SECONDS}s"
