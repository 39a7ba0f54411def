#!/usr/bin/env bash
# Installs the dependencies and builds lumen (Release) into build/. The CLI ends up at build/lumen.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
cmake -S . -B build -DCMAKE_BUILD_TYPE=Release
cmake --build build -j"$(nproc)"
# The default word table (Brown corpus, word2vec): commands use it when no table is given. About a minute.
bash scripts/make-default-table.sh build
