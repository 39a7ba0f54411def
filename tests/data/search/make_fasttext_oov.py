#!/usr/bin/python3
"""Expected results for words outside a fastText model's vocabulary, from gensim, for
tests/search/test_query_word.cpp and tests/cli/test_fasttext_oov.cpp.

Run once with Debian's Python (python3-gensim), from the repository root:
    /usr/bin/python3 tests/data/search/make_fasttext_oov.py [DATA_DIR]
DATA_DIR defaults to ../shared/data. Writes tests/data/search/fasttext_oov_gensim.json (committed).
gensim's load_facebook_vectors builds an out-of-vocabulary word's vector from its character n-grams, as
`fasttext print-word-vectors` does; most_similar / most_similar_cosmul / similarity then use it like any other
vector, and leave out of the answers only the inputs that are in the vocabulary.
"""
import json
import os
import sys

import gensim
from gensim.models.fasttext import load_facebook_vectors

here = os.path.dirname(os.path.abspath(__file__))
data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "..", "shared", "data")
model = os.path.join(data, "formats", "crime-and-punishment.bin")

OOV = ["раскольниковъ", "преступление", "hello", "Петербург", "a-b"]
IN_VOCAB = ["и", "man", "young", "he", "landlady"]


def pairs(lst):
    return [[w, float(s)] for w, s in lst]


def main():
    kv = load_facebook_vectors(model)
    for w in OOV:
        assert w not in kv.key_to_index, w
    for w in IN_VOCAB:
        assert w in kv.key_to_index, w
    out = {
        "generator": f"gensim {gensim.__version__}: load_facebook_vectors('crime-and-punishment.bin')",
        "file": "crime-and-punishment.bin",
        "vectors": {w: [float(x) for x in kv[w]] for w in OOV},
        "neighbours": [{"query": w, "neighbours": pairs(kv.most_similar(w, topn=5))} for w in OOV[:3]],
        "similarity": [
            {"w1": a, "w2": b, "cosine": float(kv.similarity(a, b))}
            for a, b in [(OOV[0], IN_VOCAB[0]), (OOV[1], OOV[2]), (IN_VOCAB[1], OOV[3])]
        ],
        "analogy": [],
    }
    # a : b :: c : ?, with out-of-vocabulary words among the inputs.
    for a, b, c in [("man", "hello", "he"), ("преступление", "young", "landlady")]:
        out["analogy"].append({
            "a": a, "b": b, "c": c,
            "add": pairs(kv.most_similar(positive=[b, c], negative=[a], topn=5)),
            "mul": pairs(kv.most_similar_cosmul(positive=[b, c], negative=[a], topn=5)),
        })
    path = os.path.join(here, "fasttext_oov_gensim.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, ensure_ascii=False, indent=1)
        f.write("\n")
    print("wrote", path)


if __name__ == "__main__":
    main()
