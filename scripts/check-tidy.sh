#!/usr/bin/env bash
# clang-tidy (the checked-in .clang-tidy) over the library and the CLI: src/ and apps/, not tests/ (too slow on
# 2 cores, and tests are exercised under the sanitizers instead). Every finding is an error.
# Usage: scripts/check-tidy.sh [FILE_REGEX]   e.g. scripts/check-tidy.sh 'src/io/'
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${LUMEN_JOBS:-$(nproc)}
RUN_CLANG_TIDY=${RUN_CLANG_TIDY:-run-clang-tidy-14}
command -v "$RUN_CLANG_TIDY" >/dev/null || RUN_CLANG_TIDY=run-clang-tidy
# compile_commands.json from a clang configure (nothing is built).
cmake --preset tidy >/dev/null
filter=${1:-"$PWD/(src|apps)/.*\\.cpp$"}
"$RUN_CLANG_TIDY" -p build-tidy -j "$jobs" -quiet "$filter" > build-tidy/tidy.log 2>&1 || {
  grep -E "(error|warning):" build-tidy/tidy.log | sort -u >&2 || true
  echo "check-tidy: findings above (full log: build-tidy/tidy.log)" >&2
  exit 1
}
echo "check-tidy: clean ($(grep -c '"file"' build-tidy/compile_commands.json) files in the database; filter $filter)"
