#!/usr/bin/env bash
# clang-tidy (the checked-in .clang-tidy) over the library, the CLI and the Python module: src/, apps/ and python/, not tests/ (too slow on
# 2 cores, and tests are exercised under the sanitizers instead). Every finding is an error.
# Usage: scripts/check-tidy.sh [FILE_REGEX]   e.g. scripts/check-tidy.sh 'src/io/'
# With no argument it runs over the unity build's translation units (CMakeLists.txt: batches of 8 files), the way
# they are compiled, so each batch's headers are parsed and checked once, not once per file (3x less time); the
# files compiled alone (the dispatched kernels) on their own. The same files and checks as file by file: a finding
# in a batched file is reported at that file's line (HeaderFilterRegex names src/, apps/ and python/). The one
# finding ignored is bugprone-suspicious-include on CMake's generated unity sources, which #include .cpp files by
# design. With a FILE_REGEX it runs file by file over the matching sources (build-tidy-files/, no unity).
# LUMEN_TIDY_DEEP=1 adds the path-sensitive static analyser (clang-analyzer-*, ~2.5x slower).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${LUMEN_JOBS:-$(nproc)}
RUN_CLANG_TIDY=${RUN_CLANG_TIDY:-run-clang-tidy-14}
command -v "$RUN_CLANG_TIDY" >/dev/null || RUN_CLANG_TIDY=run-clang-tidy
# compile_commands.json from a clang configure (nothing is built).
if [ $# -gt 0 ]; then
  dir=build-tidy-files
  cmake --preset tidy -B "$dir" -DCMAKE_UNITY_BUILD=OFF >/dev/null
  filter=$1
else
  dir=build-tidy
  cmake --preset tidy >/dev/null
  # the library's, the CLI's and the module's batches (not the tests'), and the sources compiled alone
  filter="$PWD/((src|apps|python)/.*\\.cpp|$dir/(python/)?CMakeFiles/lumen_[a-z_]+\\.dir/Unity/unity_[0-9]+_cxx\\.cxx)$"
fi
extra=()
[ "${LUMEN_TIDY_DEEP:-0}" = 1 ] && extra+=(-checks='clang-analyzer-*,-clang-analyzer-security.insecureAPI.DeprecatedOrUnsafeBufferHandling,-clang-analyzer-optin.performance.Padding')
rc=0
"$RUN_CLANG_TIDY" -p "$dir" -j "$jobs" -quiet "${extra[@]}" "$filter" > "$dir/tidy.raw.log" 2>&1 || rc=$?
sed 's/\x1b\[[0-9;]*m//g' "$dir/tidy.raw.log" > "$dir/tidy.log" && rm -f "$dir/tidy.raw.log"  # colours off, to match
findings=$(grep -E "(error|warning):" "$dir/tidy.log" |
           grep -vE "/Unity/unity_[0-9]+_cxx\\.cxx:[0-9]+:[0-9]+: error: suspicious #include of file with '\\.cpp' extension \\[bugprone-suspicious-include" |
           sort -u || true)
crashed=$(grep -E "^(Stack dump|PLEASE submit a bug report)|Segmentation fault|clang-tidy.*(not found|No such file)" "$dir/tidy.log" || true)
if [ -n "$findings" ] || [ -n "$crashed" ] || { [ "$rc" -ne 0 ] && ! grep -q "suspicious-include" "$dir/tidy.log"; }; then
  [ -n "$findings" ] && echo "$findings" >&2
  [ -n "$crashed" ] && echo "$crashed" >&2
  echo "check-tidy: findings above (full log: $dir/tidy.log)" >&2
  exit 1
fi
echo "check-tidy: clean ($(grep -c "^clang-tidy" "$dir/tidy.log" || true) translation units matching $filter)"
