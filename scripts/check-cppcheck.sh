#!/usr/bin/env bash
# cppcheck over the library and the CLI (warning, performance and portability checks); any finding fails.
# Suppressions, each with its reason, live in .cppcheck (one `id:file:line` or `id:file` per line).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=${LUMEN_JOBS:-$(nproc)}
args=(--enable=warning,performance,portability --error-exitcode=1 --inline-suppr --std=c++20 --language=c++
      -I include -I src -I apps/lumen --suppress=missingIncludeSystem --quiet -j "$jobs"
      --template='{file}:{line}: {severity} ({id}): {message}')
[ -f .cppcheck ] && args+=(--suppressions-list=.cppcheck)
cppcheck "${args[@]}" src apps python  # python/: the pybind11 module (its headers are system includes)
echo "check-cppcheck: clean (src/, apps/, python/)"
