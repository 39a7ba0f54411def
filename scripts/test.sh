#!/usr/bin/env bash
# The test command: installs, builds and runs every check. CI runs exactly this (through .ci/run).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh
ctest --test-dir build --output-on-failure -j"$(nproc)" --timeout 600
