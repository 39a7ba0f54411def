#!/usr/bin/env bash
# Installs the dependencies and builds what a user runs (Release) into build/: the CLI build/lumen, build/lumen-serve
# beside it (which `lumen serve` runs) and the Python module; no tests, benchmarks or fuzzers (scripts/test.sh builds
# those).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)" --target lumen_apps
# `import lumen` for Debian's /usr/bin/python3: the module goes into its site directory
# (/usr/local/lib/python3.11/dist-packages; docs/python.md).
if [ -f build/python/cmake_install.cmake ] && ls build/python/lumen/_lumen*.so >/dev/null 2>&1; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  $SUDO cmake --install build --component python >/dev/null
fi
# The default word table (Brown corpus, word2vec): commands use it when no table is given. About a minute.
bash scripts/make-default-table.sh build
