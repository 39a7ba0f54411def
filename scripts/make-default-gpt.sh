#!/usr/bin/env bash
# Trains lumen's default small GPT-2 on the default corpus (BUILD_DIR/default/brown.txt, made by
# make-default-table.sh) into BUILD_DIR/default/gpt/ (default BUILD_DIR: build): a Hugging Face GPT-2 directory
# (config.json, model.safetensors, tokenizer.json of the corpus's words) that `lumen gpt` and `lumen drift` open.
# Made on demand only (scripts/build.sh does not call it); prints its wall time. Skips the work if the model is
# already there (FORCE=1 retrains). Extra arguments go to `lumen train gpt` (e.g. --steps 3000).
set -euo pipefail
cd "$(dirname "$0")/.."
BUILD_DIR="${1:-build}"
shift || true
OUT="$BUILD_DIR/default/gpt"
CORPUS="$BUILD_DIR/default/brown.txt"
if [[ -s "$OUT/model.safetensors" && -z "${FORCE:-}" ]]; then
  echo "default GPT already built: $OUT (FORCE=1 to retrain)"
  exit 0
fi
if [[ ! -x "$BUILD_DIR/lumen" ]]; then
  echo "error: $BUILD_DIR/lumen not found: build lumen first (bash scripts/build.sh)" >&2
  exit 1
fi
if [[ ! -s "$CORPUS" ]]; then
  echo "error: $CORPUS not found: make the default table first (bash scripts/make-default-table.sh $BUILD_DIR)" >&2
  exit 1
fi
# Written beside, then moved into place: an interrupted run never leaves a half model at $OUT.
tmp="$OUT.tmp.$$"
trap 'rm -rf "$tmp" "$tmp.ckpt"' EXIT
THREADS="${THREADS:-$(nproc)}"
start=$SECONDS
# Trained into the temporary folder, whose name `lumen train gpt` would print as the place to open: its lines
# say $OUT instead, where the model is once moved.
"$BUILD_DIR/lumen" train gpt "$CORPUS" -o "$tmp" --tokenizer words --max-words 4000 \
  --layers 4 --d-model 128 --heads 4 --context 64 --batch 8 --steps 500 --lr 1e-3 --seed 1 \
  --eval-every 100 --threads "$THREADS" "$@" | sed -u "s#$tmp#$OUT#g"
elapsed=$((SECONDS - start))
# A text to measure perplexity on (`lumen gpt $OUT --perplexity $OUT/held-out.txt`): the corpus's last lines, in
# the part training holds out.
tail -n 200 "$CORPUS" > "$tmp/held-out.txt"
rm -rf "$OUT"
mv "$tmp" "$OUT"
trap - EXIT
echo "default GPT written to $OUT in $elapsed s ($THREADS threads); try: $BUILD_DIR/lumen gpt $OUT \"The jury said\" --top 5"
