#!/usr/bin/python3
"""Writes the compare fixtures and the values lumen must reproduce (tests/eval/test_compare.cpp):

  a.vec   60 words x 8 (word2vec text)
  b.vec   50 words x 8: 45 of a's words (another order) as a rotation of a's rows plus noise, and 5 of its own
  c.vec   40 of a's words x 5 (another d: no Procrustes; overlap and CKA still defined)
  expected.json  overlap@5 per shared word (A's order), its mean, Procrustes (scipy.linalg.orthogonal_procrustes)
                 residual and scale, linear CKA, for (a, b) and (a, c), computed in float64 from the float32 values.

Deterministic (seed 17):  /usr/bin/python3 tests/data/eval/compare/make_compare.py
"""
import json
import os

import numpy as np
from scipy.linalg import orthogonal_procrustes

here = os.path.dirname(os.path.abspath(__file__))
rng = np.random.RandomState(17)
K = 5


def write(name, words, X):
    with open(os.path.join(here, name), "w", encoding="utf8") as f:
        f.write(f"{len(words)} {X.shape[1]}\n")
        for w, row in zip(words, X):
            f.write(w + " " + " ".join(f"{v:.9g}" for v in row) + "\n")


def cosine_knn(X, k):
    U = X / np.linalg.norm(X, axis=1, keepdims=True)
    S = U @ U.T
    np.fill_diagonal(S, -np.inf)
    n = len(X)
    # nearest first; ties to the lower row (lexsort: last key is primary)
    return [list(np.lexsort((np.arange(n), -S[i]))[:k]) for i in range(n)]


def compare(words_a, A, words_b, B):
    index_b = {w: i for i, w in enumerate(words_b)}
    shared = [w for w in words_a if w in index_b]
    ra = [words_a.index(w) for w in shared]
    rb = [index_b[w] for w in shared]
    X, Y = A[ra].astype(np.float64), B[rb].astype(np.float64)
    na, nb = cosine_knn(X, K), cosine_knn(Y, K)
    overlap = [len(set(p) & set(q)) / K for p, q in zip(na, nb)]
    Xc, Yc = X - X.mean(0), Y - Y.mean(0)
    cka = np.linalg.norm(Xc.T @ Yc) ** 2 / (np.linalg.norm(Xc.T @ Xc) * np.linalg.norm(Yc.T @ Yc))
    out = {"shared": shared, "overlap": overlap, "mean_overlap": float(np.mean(overlap)),
           "median_overlap": float(np.median(overlap)), "cka": float(cka)}
    if X.shape[1] == Y.shape[1]:
        R, scale = orthogonal_procrustes(X, Y)
        out["procrustes"] = {"residual": float(np.linalg.norm(X @ R - Y)), "scale": float(scale),
                             "reflection": bool(np.linalg.det(R) < 0), "R": R.ravel().tolist()}
    return out


words_a = [f"w{i:02d}" for i in range(60)]
A = rng.normal(size=(60, 8)).astype(np.float32)
Q, _ = np.linalg.qr(rng.normal(size=(8, 8)))
keep = rng.permutation(60)[:45]
words_b = [words_a[i] for i in keep] + [f"b{i}" for i in range(5)]
B = np.vstack([A[keep] @ Q + 0.35 * rng.normal(size=(45, 8)), rng.normal(size=(5, 8))]).astype(np.float32)
keep_c = rng.permutation(60)[:40]
words_c = [words_a[i] for i in keep_c]
C = (A[keep_c] @ rng.normal(size=(8, 5)) + 0.5 * rng.normal(size=(40, 5))).astype(np.float32)

write("a.vec", words_a, A)
write("b.vec", words_b, B)
write("c.vec", words_c, C)
# Compare what was written (the float32 values as read back), as lumen does.
A, B, C = (np.array([[float(v) for v in l.split()[1:]] for l in open(os.path.join(here, n)).readlines()[1:]],
                    dtype=np.float32) for n in ("a.vec", "b.vec", "c.vec"))
expected = {"k": K, "ab": compare(words_a, A, words_b, B), "ac": compare(words_a, A, words_c, C)}
with open(os.path.join(here, "expected.json"), "w") as f:
    json.dump(expected, f, indent=1)
    f.write("\n")
