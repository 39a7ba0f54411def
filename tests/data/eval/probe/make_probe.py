#!/usr/bin/python3
"""Writes the probe fixtures and scikit-learn's accuracies that lumen must match (tests/eval/test_probe.cpp):

  table.vec    400 words x 20 (word2vec text): three classes, each a mean direction plus wide noise, so that a
               linear probe is right often but not always
  labels.tsv   word<TAB>label for 300 of them (the others are fillers)
  expected.json  per-fold accuracy of LogisticRegression(multi_class="multinomial", C, lbfgs to convergence) with
               folds fold[i] = i % 5 (i: the line of labels.tsv), for C = 1 and C = 0.01

Deterministic (seed 23):  /usr/bin/python3 tests/data/eval/probe/make_probe.py
"""
import json
import os

import numpy as np
from sklearn.linear_model import LogisticRegression

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.RandomState(23)
n, d, K, folds = 400, 20, 3, 5
classes = ["noun", "verb", "adj"]
means = rng.normal(size=(K, d))
y_all = rng.randint(0, K, size=n)
X = (means[y_all] * 0.6 + rng.normal(size=(n, d))).astype(np.float32)
words = [f"w{i:03d}" for i in range(n)]
with open(os.path.join(here, "table.vec"), "w") as f:
    f.write(f"{n} {d}\n")
    for w, row in zip(words, X):
        f.write(w + " " + " ".join(f"{v:.9g}" for v in row) + "\n")
X = np.array([[float(v) for v in l.split()[1:]] for l in open(os.path.join(here, "table.vec")).readlines()[1:]])
labelled = rng.permutation(n)[:300]
with open(os.path.join(here, "labels.tsv"), "w") as f:
    for i in labelled:
        f.write(f"{words[i]}\t{classes[y_all[i]]}\n")
# lumen numbers classes in order of first appearance in the label file
order = []
for i in labelled:
    if classes[y_all[i]] not in order:
        order.append(classes[y_all[i]])
y = np.array([order.index(classes[y_all[i]]) for i in labelled])
Xl = X[labelled]
fold = np.arange(len(labelled)) % folds
expected = {"folds": folds, "classes": order}
for C in (1.0, 0.01):
    acc = []
    for f in range(folds):
        clf = LogisticRegression(multi_class="multinomial", C=C, max_iter=10000, tol=1e-10)
        clf.fit(Xl[fold != f], y[fold != f])
        acc.append(float((clf.predict(Xl[fold == f]) == y[fold == f]).mean()))
    expected[f"C={C:g}"] = acc
with open(os.path.join(here, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
    f.write("\n")
