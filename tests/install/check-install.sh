#!/usr/bin/env bash
# `cmake --install BUILD --component cli` into a fresh prefix, then the installed lumen run from elsewhere: it finds
# its data in PREFIX/share/lumen (GPT-2's tokenizer; the default table where BUILD made one) and lumen-serve beside
# it, with nothing of the source or build tree on any path it reads.
set -euo pipefail
build=$1
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix" --component cli >/dev/null
fail() { echo "check-install: $*" >&2; exit 1; }
[ -x "$prefix/bin/lumen" ] && [ -x "$prefix/bin/lumen-serve" ] || fail "bin/lumen or bin/lumen-serve not installed"
cd "$prefix"
unset LUMEN_DEFAULT_TABLE LUMEN_GPT2_DIR
out=$("$prefix/bin/lumen" tokenize "The cat sat" --json) || fail "tokenize failed: $out"
grep -q "\"tokenizer\":\"$prefix/share/lumen/gpt2" <<<"$out" || fail "tokenize did not use PREFIX/share/lumen/gpt2: $out"
"$prefix/bin/lumen" serve --help >/dev/null || fail "lumen serve --help (lumen-serve beside lumen) failed"
if [ -s "$build/default/brown.vec" ]; then
  out=$("$prefix/bin/lumen" info default --json) || fail "info default failed: $out"
  grep -q '"V":' <<<"$out" || fail "info default gave no V: $out"
  # Without the installed copy it must fail naming PREFIX's path: it never reads the build tree's.
  rm "$prefix/share/lumen/default/brown.vec"
  if out=$("$prefix/bin/lumen" info default --json 2>&1); then fail "info default ran without PREFIX's table: $out"; fi
  grep -q "$prefix/share/lumen/default/brown.vec" <<<"$out" || fail "the error does not name PREFIX's table: $out"
else
  echo "check-install: $build/default/brown.vec not made (scripts/make-default-table.sh): the default table unchecked"
fi
echo "check-install: $prefix/bin/lumen finds its data in $prefix/share/lumen"
