#!/usr/bin/python3
"""Expected search results from gensim, for tests/search/test_parity.cpp and tests/cli/test_search_cli.cpp.

Run once with Debian's Python (python3-gensim), from the repository root:
    /usr/bin/python3 tests/data/search/make_expected.py [DATA_DIR]
DATA_DIR defaults to ../shared/data. Writes tests/data/search/gensim_expected.json (committed).
For each sample table: most_similar (neighbours of a word, top 10), most_similar(positive=[b, c], negative=[a])
(3CosAdd) and most_similar_cosmul (3CosMul) for a few analogies, similarity, and doesnt_match.
Query words are chosen by position in the vocabulary (deterministic), so no word list is hard-coded.
"""
import json
import os
import sys

import gensim
from gensim.models import KeyedVectors

here = os.path.dirname(os.path.abspath(__file__))
data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "..", "shared", "data")
formats = os.path.join(data, "formats")

TABLES = [
    # (file, loader keyword arguments)
    ("test_glove.txt", dict(binary=False, no_header=True)),
    ("lee_fasttext.vec", dict(binary=False)),
    ("crime-and-punishment.vec", dict(binary=False)),
    ("word2vec_pre_kv_c", dict(binary=False)),
    ("euclidean_vectors.bin", dict(binary=True)),
]


def pairs(result):
    return [[w, float(s)] for w, s in result]


out = {"gensim": gensim.__version__, "topn": 10, "tables": []}
for name, kw in TABLES:
    kv = KeyedVectors.load_word2vec_format(os.path.join(formats, name), **kw)
    V = len(kv.index_to_key)
    words = kv.index_to_key
    picks = sorted({0, 1, 2, 5, V // 3, V // 2, V - 1})
    entry = {"file": name, "V": V, "d": kv.vector_size, "neighbours": [], "analogies": [], "similarity": [],
             "doesnt_match": []}
    for i in picks:
        entry["neighbours"].append({"query": words[i], "neighbours": pairs(kv.most_similar(words[i], topn=10))})
    for (a, b, c) in [(0, 1, 2), (3, 7, 11), (V // 4, V // 3, V // 2), (V - 3, V - 2, V - 1)]:
        a, b, c = words[a], words[b], words[c]
        entry["analogies"].append({
            "a": a, "b": b, "c": c,
            "add": pairs(kv.most_similar(positive=[b, c], negative=[a], topn=10)),
            "mul": pairs(kv.most_similar_cosmul(positive=[b, c], negative=[a], topn=10)),
        })
    for (i, j) in [(0, 1), (2, V // 2), (V // 3, V - 1)]:
        entry["similarity"].append({"w1": words[i], "w2": words[j], "score": float(kv.similarity(words[i], words[j]))})
    for group in [[0, 1, 2, V - 1], [V // 5, V // 4, V // 3, V // 2, 4]]:
        ws = [words[i] for i in group]
        entry["doesnt_match"].append({"words": ws, "answer": kv.doesnt_match(ws)})
    out["tables"].append(entry)

path = os.path.join(here, "gensim_expected.json")
with open(path + ".tmp", "w", encoding="utf-8") as f:
    json.dump(out, f, ensure_ascii=False, indent=1)
    f.write("\n")
os.replace(path + ".tmp", path)
print(f"wrote {path}")
