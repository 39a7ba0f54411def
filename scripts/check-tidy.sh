#!/usr/bin/env bash
# clang-tidy (the checked-in .clang-tidy) over the library, the CLI and the Python module: src/, apps/ and python/, not tests/ (too slow on
# 2 cores, and tests are exercised under the sanitizers instead). Every finding is an error.
# Usage: scripts/check-tidy.sh [FILE_REGEX]   e.g. scripts/check-tidy.sh 'src/io/'
# LUMEN_TIDY_DEEP=1 adds the path-sensitive static analyser (clang-analyzer-*, ~2.5x slower).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${LUMEN_JOBS:-$(nproc)}
RUN_CLANG_TIDY=${RUN_CLANG_TIDY:-run-clang-tidy-14}
command -v "$RUN_CLANG_TIDY" >/dev/null || RUN_CLANG_TIDY=run-clang-tidy
# compile_commands.json from a clang configure (nothing is built).
cmake --preset tidy >/dev/null
filter=${1:-"$PWD/(src|apps|python)/.*\\.cpp$"}  # python/: the module (configured when pybind11 is found)
extra=()
[ "${LUMEN_TIDY_DEEP:-0}" = 1 ] && extra+=(-checks='clang-analyzer-*,-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling,-clang-analyzer-optin.performance.Padding')
"$RUN_CLANG_TIDY" -p build-tidy -j "$jobs" -quiet "${extra[@]}" "$filter" > build-tidy/tidy.log 2>&1 || {
  grep -E "(error|warning):" build-tidy/tidy.log | sort -u >&2 || true
  echo "check-tidy: findings above (full log: build-tidy/tidy.log)" >&2
  exit 1
}
echo "check-tidy: clean ($(grep -c "^clang-tidy" build-tidy/tidy.log || true) files matching $filter)"
