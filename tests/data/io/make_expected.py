#!/usr/bin/python3
"""Expected values for lumen's reader tests, produced once by the reference tools and committed.

Run with Debian's Python (gensim, numpy) and the `fasttext` CLI:
    /usr/bin/python3 tests/data/io/make_expected.py [DATA_DIR]    (default: ../shared/data)

gensim.json: for each sample table, what gensim's KeyedVectors.load_word2vec_format reads: V, d, a 64-bit
FNV-1a hash of the tokens (UTF-8, each followed by '\\n') and of the float32 values (little-endian bytes, row
order), and a few rows in full (float32 bit patterns) so a mismatch can be located.
fasttext.tsv: `fasttext print-word-vectors crime-and-punishment.bin` for every dictionary word and for
out-of-vocabulary words (the words after the dictionary ones), one `word<TAB>v1 v2 ...` per line.
"""
import json
import os
import subprocess
import sys

import numpy as np
from gensim.models import KeyedVectors

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "..", "..", "..", "..", "shared", "data")
FORMATS = os.path.join(DATA, "formats")

SAMPLES = {  # file: load_word2vec_format keyword arguments
    "test_glove.txt": dict(binary=False, no_header=True),
    "lee_fasttext.vec": dict(binary=False),
    "crime-and-punishment.vec": dict(binary=False),
    "word2vec_pre_kv_c": dict(binary=False),
    "euclidean_vectors.bin": dict(binary=True),
}
OOV = ["привет", "hello", "преступление", "раскольниковъ", "x", "мир", "наказаниe", "Петербург", "zzzz", "a-b"]


def fnv64(data: bytes) -> int:
    h = 0xCBF29CE484222325
    for b in data:
        h ^= b
        h = (h * 0x100000001B3) & 0xFFFFFFFFFFFFFFFF
    return h


def describe(kv):
    E = np.ascontiguousarray(kv.vectors, dtype="<f4")
    words = "".join(w + "\n" for w in kv.index_to_key).encode("utf-8")
    V = len(kv.index_to_key)
    rows = sorted({0, 1, V // 2, V - 1})
    return {
        "V": V,
        "d": int(E.shape[1]),
        "tokens_fnv64": f"{fnv64(words):016x}",
        "values_fnv64": f"{fnv64(E.tobytes()):016x}",
        "rows": [{"id": r, "token": kv.index_to_key[r], "bits": [int(x) for x in E[r].view("<u4")]} for r in rows],
    }


def main():
    out = {}
    for name, kw in SAMPLES.items():
        kv = KeyedVectors.load_word2vec_format(os.path.join(FORMATS, name), **kw)
        out[name] = describe(kv)
        limited = KeyedVectors.load_word2vec_format(os.path.join(FORMATS, name), limit=10, **kw)
        out[name]["limit10"] = describe(limited)
    with open(os.path.join(HERE, "gensim.json"), "w") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")

    model = os.path.join(FORMATS, "crime-and-punishment.bin")
    dump = subprocess.run(["fasttext", "dump", model, "dict"], check=True, capture_output=True).stdout.decode("utf-8")
    words = [line.split(" ")[0] for line in dump.splitlines()[1:] if line.endswith(" word")]
    queries = words + OOV
    res = subprocess.run(["fasttext", "print-word-vectors", model], input="\n".join(queries).encode("utf-8") + b"\n",
                         check=True, capture_output=True).stdout.decode("utf-8").splitlines()
    assert len(res) == len(queries), (len(res), len(queries))
    with open(os.path.join(HERE, "fasttext.tsv"), "w", encoding="utf-8") as f:
        f.write(f"# fasttext print-word-vectors crime-and-punishment.bin: {len(words)} dictionary words, then OOV\n")
        for q, line in zip(queries, res):
            values = line.rstrip().split(" ")[1:]
            f.write(q + "\t" + " ".join(values) + "\n")


if __name__ == "__main__":
    main()
