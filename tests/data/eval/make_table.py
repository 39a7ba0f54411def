#!/usr/bin/python3
"""Writes tests/data/eval/analogy_table.vec: a small word2vec text table on which questions-words is a real test.

The sample tables in ../shared/data/formats answer few questions, so parity with gensim needs a table that
answers thousands: every word of questions-words.txt gets a vector in which each section's relation is a
shared offset plus noise (so some answers are right and many are near misses), some words get a second casing
(some before the original row, some after: "first casing wins" matters), fillers are added, and the rows are
shuffled (so --restrict cuts a real subset). Deterministic (seed 6).
    /usr/bin/python3 tests/data/eval/make_table.py [DATA_DIR] > tests/data/eval/analogy_table.vec
"""
import os
import sys

import numpy as np

ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..")
sys.path.insert(0, os.path.join(ROOT, "bench"))
from analogy_vectors import relation_vectors  # noqa: E402  bench/analogy_vectors.py

data = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "..", "shared", "data")
rng = np.random.RandomState(6)
d = 16
vec, order = relation_vectors(os.path.join(data, "questions-words.txt"), rng, d, noise=0.7)
rows = []
for i, w in enumerate(order):
    if i % 11 == 3 and w.lower() != w:
        rows.append((w.lower(), rng.normal(size=d)))  # another casing before the original: it wins
    rows.append((w, vec[w]))
    if i % 7 == 2 and w.upper() != w:
        rows.append((w.upper(), vec[w] + rng.normal(scale=0.3, size=d)))  # after: a near duplicate that loses
for i in range(400):
    rows.append(("filler%03d" % i, rng.normal(size=d) * 1.5))
perm = rng.permutation(len(rows))
rows = [rows[i] for i in perm]
out = sys.stdout
out.write("%d %d\n" % (len(rows), d))
for w, v in rows:
    out.write(w + " " + " ".join("%.4f" % x for x in v) + "\n")
