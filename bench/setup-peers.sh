#!/usr/bin/env bash
# Installs the peers the benchmarks compare lumen against (never a build dependency): Debian's packages, and
# llama.cpp through node-llama-cpp's prebuilt CPU binaries (npm) into bench/.peers/llama-cpp, a folder the
# benchmarks own (not the repository's package.json). --omit=optional leaves out the CUDA and Vulkan builds
# (hundreds of MB); @node-llama-cpp/linux-x64 carries the CPU ones (AVX-512 variants too): no compile, no
# download at run time. Used by bench/compare_gpt.py (through bench/llama_cpp_eval.mjs).
set -euo pipefail
HERE="$(cd "$(dirname "$0")" && pwd)"
PKGS=(python3 python3-numpy python3-scipy python3-torch python3-gensim python3-sklearn python3-faiss fasttext umap-learn time)
bash "$HERE/../scripts/apt-install.sh" "${PKGS[@]}"
# Node.js usually ships with the machine (as for scripts/install-deps.sh); Debian's only if absent.
command -v npm >/dev/null 2>&1 || bash "$HERE/../scripts/apt-install.sh" nodejs npm
LLAMA="$HERE/.peers/llama-cpp"
mkdir -p "$LLAMA"
[ -f "$LLAMA/package.json" ] || echo '{"name": "lumen-bench-llama-cpp", "private": true}' > "$LLAMA/package.json"
# --ignore-scripts: node-llama-cpp's postinstall would only check for (or fetch, or build) a binary; the prebuilt one
# is loaded at run time with build: "never" (npm 11 skips the script anyway, with a warning).
npm install --prefix "$LLAMA" --omit=optional --ignore-scripts --no-audit --no-fund --save-exact \
  node-llama-cpp@3.21.1 @node-llama-cpp/linux-x64@3.21.1
