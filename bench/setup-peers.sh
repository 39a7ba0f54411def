#!/usr/bin/env bash
# Installs the peers the benchmarks compare lumen against (never a build dependency), from Debian.
set -euo pipefail
PKGS=(python3 python3-numpy python3-scipy python3-torch python3-gensim python3-sklearn python3-faiss fasttext umap-learn time)
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  SUDO=""
  [ "$(id -u)" -eq 0 ] || SUDO="sudo"
  export DEBIAN_FRONTEND=noninteractive
  $SUDO apt-get update -q
  $SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
