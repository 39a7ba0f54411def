#!/usr/bin/python3
"""lumen compare vs the same numbers in NumPy/SciPy (float64), side by side, same thread count.

  /usr/bin/python3 bench/compare_compare.py [--lumen build/lumen] [--threads 2] [--words 50000] [--dim 300] [-k 10]

Two tables of WORDS x DIM over the same words (B = A rotated, plus noise; rows with a decaying spectrum and
clusters, like an embedding table), as .npy with one vocabulary file. lumen compare --json against NumPy/SciPy:
exact cosine k-NN of every word in each table (blocked matmul + argpartition, float32 like lumen), overlap@k,
scipy.linalg.orthogonal_procrustes residual, linear CKA (float64). Prints both times (lumen: its own `seconds`,
tables loaded; NumPy: the wall time of the computation) and the differences of the three numbers.
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

import numpy as np


def table(n, d, seed):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(200, d)) * 2.0 / np.sqrt(1.0 + np.arange(d))
    labels = rng.integers(0, 200, size=n)
    return centres[labels] + 0.5 * rng.normal(size=(n, d)) / np.sqrt(1.0 + 0.05 * np.arange(d))


def knn(X, k, block=2048):
    U = (X / np.linalg.norm(X, axis=1, keepdims=True)).astype(np.float32)
    out = np.empty((len(X), k), dtype=np.int64)
    for b in range(0, len(X), block):
        S = U[b:b + block] @ U.T
        S[np.arange(len(S)), np.arange(b, b + len(S))] = -np.inf
        out[b:b + block] = np.argpartition(-S, k, axis=1)[:, :k]
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lumen", default=os.path.join(os.path.dirname(__file__), "..", "build", "lumen"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--words", type=int, default=50000)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("-k", type=int, default=10)
    ap.add_argument("--lumen-only", action="store_true", help="time lumen alone (no NumPy/SciPy run)")
    a = ap.parse_args()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(a.threads)
    import scipy
    from scipy.linalg import orthogonal_procrustes

    n, d, k = a.words, a.dim, a.k
    A = table(n, d, 1).astype(np.float32)
    Q, _ = np.linalg.qr(np.random.default_rng(2).normal(size=(d, d)))
    B = (A @ Q + 0.3 * np.random.default_rng(3).normal(size=(n, d)) * A.std()).astype(np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        pa, pb, pv = (os.path.join(tmp, x) for x in ("a.npy", "b.npy", "vocab.txt"))
        np.save(pa, A)
        np.save(pb, B)
        with open(pv, "w") as f:
            f.write("".join(f"w{i}\n" for i in range(n)))
        out = subprocess.run([a.lumen, "--threads", str(a.threads), "compare", pa, pb, "--vocab", pv, "-k", str(k),
                              "--json"], check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    if a.lumen_only:
        print(f"# lumen compare alone: two {n} x {d} tables, k = {k}, {a.threads} threads")
        print(f"lumen  {r['seconds']:.3f} s  overlap {r['overlap']['mean']:.6f}  "
              f"residual {r['procrustes']['residual']:.6f}  CKA {r['cka']:.6f}")
        return
    start = time.perf_counter()
    na, nb = knn(A, k), knn(B, k)
    overlap = np.mean([len(set(p) & set(q)) / k for p, q in zip(na, nb)])
    X, Y = A.astype(np.float64), B.astype(np.float64)
    R, _ = orthogonal_procrustes(X, Y)
    residual = np.linalg.norm(X @ R - Y)
    Xc, Yc = X - X.mean(0), Y - Y.mean(0)
    cka = np.linalg.norm(Xc.T @ Yc) ** 2 / (np.linalg.norm(Xc.T @ Xc) * np.linalg.norm(Yc.T @ Yc))
    peer = time.perf_counter() - start
    print(f"# lumen compare vs NumPy {np.__version__} / SciPy {scipy.__version__}: two {n} x {d} tables, k = {k}, "
          f"{a.threads} threads")
    print(f"lumen  {r['seconds']:.3f} s  overlap {r['overlap']['mean']:.6f}  residual {r['procrustes']['residual']:.6f}  "
          f"CKA {r['cka']:.6f}")
    print(f"numpy  {peer:.3f} s  overlap {overlap:.6f}  residual {residual:.6f}  CKA {cka:.6f}")
    print(f"ratio  {peer / r['seconds']:.2f}x  |differences| overlap {abs(overlap - r['overlap']['mean']):.2e}  "
          f"residual {abs(residual - r['procrustes']['residual']):.2e}  CKA {abs(cka - r['cka']):.2e}")


if __name__ == "__main__":
    main()
