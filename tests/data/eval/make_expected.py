#!/usr/bin/python3
"""Expected benchmark scores for tests/eval: what gensim reports on the sample tables.

Run once with Debian's Python (python3-gensim 4.2), from the repository root:
    /usr/bin/python3 tests/data/eval/make_expected.py [DATA_DIR] > tests/data/eval/expected.json
DATA_DIR defaults to ../shared/data. The tests read the JSON and compare lumen's numbers to it.

analogies: KeyedVectors.evaluate_word_analogies (3CosAdd); for --method mul the same loop with
most_similar_cosmul on the first `restrict` rows (gensim 4.2's evaluate_word_analogies always uses 3CosAdd).
similarity: KeyedVectors.evaluate_word_pairs (oov_ratio there is a percentage).
"""
import itertools
import json
import logging
import os
import sys
import warnings

import gensim
from gensim.models import KeyedVectors
from gensim.models.fasttext import load_facebook_vectors

warnings.filterwarnings("ignore")
logging.disable(logging.CRITICAL)

data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "data")
data = os.path.normpath(data)

HERE = os.path.dirname(os.path.abspath(__file__))
TABLES = {
    "analogy_table.vec": lambda p: KeyedVectors.load_word2vec_format(p),  # made by make_table.py, beside this
    "test_glove.txt": lambda p: KeyedVectors.load_word2vec_format(p, no_header=True),
    "lee_fasttext.vec": lambda p: KeyedVectors.load_word2vec_format(p),
    "crime-and-punishment.vec": lambda p: KeyedVectors.load_word2vec_format(p),
    "word2vec_pre_kv_c": lambda p: KeyedVectors.load_word2vec_format(p),
    "euclidean_vectors.bin": lambda p: KeyedVectors.load_word2vec_format(p, binary=True),
    "crime-and-punishment.bin": load_facebook_vectors,
}
ANALOGY_FILES = ["questions-words.txt"]
PAIR_FILES = ["wordsim353.tsv", "simlex999.txt"]
# (restrict, case_insensitive) settings to check
SETTINGS = [(300000, True), (300000, False), (500, True), (500, False)]


def cosmul_analogies(kv, path, restrict, case_insensitive):
    """evaluate_word_analogies' loop with most_similar_cosmul over the first `restrict` rows."""
    ok_keys = kv.index_to_key[:restrict]
    small = KeyedVectors(kv.vector_size, count=len(ok_keys), dtype=kv.vectors.dtype)
    small.add_vectors(ok_keys, kv.vectors[: len(ok_keys)])
    if case_insensitive:
        ok_vocab = {k.upper(): small.get_index(k) for k in reversed(ok_keys)}
    else:
        ok_vocab = {k: small.get_index(k) for k in reversed(ok_keys)}
    sections, section, oov = [], None, 0
    with open(path, "rb") as fin:
        for line in fin:
            line = line.decode("utf8")
            if line.startswith(": "):
                if section:
                    sections.append(section)
                section = {"section": line.lstrip(": ").strip(), "correct": [], "incorrect": []}
                continue
            try:
                words = [w.upper() for w in line.split()] if case_insensitive else line.split()
                a, b, c, expected = words
            except ValueError:
                continue
            if a not in ok_vocab or b not in ok_vocab or c not in ok_vocab or expected not in ok_vocab:
                oov += 1
                continue
            original, small.key_to_index = small.key_to_index, ok_vocab
            sims = small.most_similar_cosmul(positive=[b, c], negative=[a], topn=5)
            small.key_to_index = original
            ignore, predicted = {a, b, c}, None
            for element in sims:
                predicted = element[0].upper() if case_insensitive else element[0]
                if predicted in ok_vocab and predicted not in ignore:
                    break
            (section["correct"] if predicted == expected else section["incorrect"]).append((a, b, c, expected))
    if section:
        sections.append(section)
    correct = sum(len(s["correct"]) for s in sections)
    incorrect = sum(len(s["incorrect"]) for s in sections)
    total = {"section": "Total accuracy", "correct": [None] * correct, "incorrect": [None] * incorrect}
    score = correct / (correct + incorrect) if correct + incorrect else 0.0
    return score, sections + [total], oov


def count_oov(kv, path, restrict, case_insensitive):
    ok = {k.upper() if case_insensitive else k for k in kv.index_to_key[:restrict]}
    n = 0
    with open(path, "rb") as fin:
        for line in fin:
            line = line.decode("utf8")
            if line.startswith(": "):
                continue
            words = line.split()
            if len(words) != 4:
                continue
            if any((w.upper() if case_insensitive else w) not in ok for w in words):
                n += 1
    return n


def analogy_entry(score, sections, oov):
    total = sections[-1]
    return {
        "accuracy": score,
        "correct": len(total["correct"]),
        "answered": len(total["correct"]) + len(total["incorrect"]),
        "skipped": oov,
        "sections": [
            {"name": s["section"], "correct": len(s["correct"]), "answered": len(s["correct"]) + len(s["incorrect"])}
            for s in sections[:-1]
        ],
    }


def main():
    out = {"gensim": gensim.__version__, "analogies": [], "similarity": []}
    for name, load in TABLES.items():
        kv = load(os.path.join(HERE, name) if name == "analogy_table.vec" else os.path.join(data, "formats", name))
        for restrict, ci in SETTINGS:
            for f in ANALOGY_FILES:
                path = os.path.join(data, f)
                score, sections = kv.evaluate_word_analogies(path, restrict_vocab=restrict, case_insensitive=ci)
                oov = count_oov(kv, path, restrict, ci)
                entry = {"table": name, "file": f, "restrict": restrict, "case_insensitive": ci, "method": "add"}
                entry.update(analogy_entry(score, sections, oov))
                out["analogies"].append(entry)
                if entry["answered"] == 0:
                    continue
                score, sections, oov = cosmul_analogies(kv, path, restrict, ci)
                entry = {"table": name, "file": f, "restrict": restrict, "case_insensitive": ci, "method": "mul"}
                entry.update(analogy_entry(score, sections, oov))
                out["analogies"].append(entry)
            for f in PAIR_FILES:
                path = os.path.join(data, f)
                entry = {"table": name, "file": f, "restrict": restrict, "case_insensitive": ci}
                try:
                    pearson, spearman, oov_ratio = kv.evaluate_word_pairs(
                        path, restrict_vocab=restrict, case_insensitive=ci)
                except ValueError:  # no pair in the vocabulary: lumen reports an error too
                    entry["error"] = "no pairs"
                    out["similarity"].append(entry)
                    continue
                entry.update({"pearson": float(pearson[0]), "spearman": float(spearman[0]),
                              "oov_percent": float(oov_ratio)})
                out["similarity"].append(entry)
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
