#!/usr/bin/env bash
# Installs the peers the benchmarks compare lumen against (never a build dependency), from Debian.
set -euo pipefail
PKGS=(python3 python3-numpy python3-scipy python3-torch python3-gensim python3-sklearn python3-faiss fasttext umap-learn time)
bash "$(dirname "$0")/../scripts/apt-install.sh" "${PKGS[@]}"
