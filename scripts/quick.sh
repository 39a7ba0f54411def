#!/usr/bin/env bash
# The developers' quick loop: rebuilds build/ incrementally and runs the unit tests of the modules a change
# touches, nothing else (the test command, scripts/test.sh, runs every gate).
# Usage: scripts/quick.sh [MODULE ...]   e.g. scripts/quick.sh io search
# With no module named, the touched ones come from git: files changed against HEAD (staged, unstaged or new)
# under src/M/, include/lumen/M/, tests/M/ or fuzz/fuzz_M_*; apps/ and python/ count as `cli` and `python`.
# Each module's tests carry the ctest label M (tests/CMakeLists.txt). build/ must have been configured once
# (scripts/build.sh does it).
set -euo pipefail
cd "$(dirname "$0")/.."
[ -f build/CMakeCache.txt ] || { echo "quick.sh: no build/ yet: run scripts/build.sh once first" >&2; exit 2; }
modules=("$@")
if [ ${#modules[@]} -eq 0 ]; then
  mapfile -t modules < <({ git diff --name-only HEAD; git ls-files --others --exclude-standard; } |
    sed -nE 's#^(src|tests)/([a-z]+)/.*#\2#p; s#^include/lumen/([a-z]+)/.*#\1#p; s#^fuzz/fuzz_([a-z]+)_.*#\1#p;
             s#^apps/.*#cli#p; s#^python/.*#python#p' | sort -u)
fi
[ ${#modules[@]} -gt 0 ] || { echo "quick.sh: nothing changed against HEAD; name modules to test" >&2; exit 0; }
targets=()
for m in "${modules[@]}"; do
  case $m in
    python) targets+=(lumen_python) ;;
    *) targets+=("test_$m") ;;
  esac
done
echo "quick.sh: modules ${modules[*]}"
cmake --build build -j"$(nproc)" --target "${targets[@]}"
labels=$(IFS='|'; echo "${modules[*]}")
ctest --test-dir build -j"$(nproc)" --output-on-failure --timeout 600 -L "^($labels)\$"
