#!/usr/bin/env bash
# Installs the named Debian packages that are not installed yet (apt-get update first, only when something is
# missing). Run as root, or with sudo available. Used by install-deps.sh (the build's) and bench/setup-peers.sh
# (the benchmarks' peers).
set -euo pipefail
missing=()
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
