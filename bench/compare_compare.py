#!/usr/bin/python3
"""lumen compare vs the same numbers in NumPy/SciPy (float64), side by side, same thread count.

  /usr/bin/python3 bench/compare_compare.py [--lumen build/lumen] [--threads 2] [--words 50000] [--dim 300] [-k 10]
      [--skip-exact] [--lumen-only]

Two tables of WORDS x DIM over the same words (B = A rotated, plus noise; rows with a decaying spectrum and
clusters, like an embedding table), as .npy with one vocabulary file. lumen compare --json against NumPy/SciPy:
exact cosine k-NN of every word in each table (blocked matmul + argpartition, float32 like lumen), overlap@k,
scipy.linalg.orthogonal_procrustes residual, linear CKA (float64). Prints both times (lumen: its own `seconds`,
tables loaded, and the process's CPU seconds; NumPy: the wall time of the computation) and the differences of the
three numbers.

lumen runs twice: as a user runs it (above 10,000 words the overlap is estimated from a random 2,000 words' lists,
searched among all words; Procrustes and CKA from every word) and with `--sample 0` (every word's lists, exact),
which is checked against NumPy's exact numbers; the estimate is checked against the exact mean in units of its
standard error. NumPy also does the sampled amount of work (the same number of random query words), for a ratio at
equal work.
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

import numpy as np

import machine  # bench/machine.py


def table(n, d, seed):
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(200, d)) * 2.0 / np.sqrt(1.0 + np.arange(d))
    labels = rng.integers(0, 200, size=n)
    return centres[labels] + 0.5 * rng.normal(size=(n, d)) / np.sqrt(1.0 + 0.05 * np.arange(d))


def knn(X, k, block=2048, rows=None):
    """The k nearest rows (cosine) of each of `rows` (default: every row), itself excluded."""
    U = (X / np.linalg.norm(X, axis=1, keepdims=True)).astype(np.float32)
    rows = np.arange(len(X)) if rows is None else rows
    out = np.empty((len(rows), k), dtype=np.int64)
    for b in range(0, len(rows), block):
        q = rows[b:b + block]
        S = U[q] @ U.T
        S[np.arange(len(q)), q] = -np.inf
        out[b:b + block] = np.argpartition(-S, k, axis=1)[:, :k]
    return out


def run_lumen(a, pa, pb, pv, k, extra):
    """lumen compare --json, with its CPU seconds (user + system) from the child's rusage."""
    proc = subprocess.Popen([a.lumen, "--threads", str(a.threads), "compare", pa, pb, "--vocab", pv, "-k", str(k),
                             "--json"] + extra, stdout=subprocess.PIPE, text=True)
    out = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    if status != 0:
        raise SystemExit(f"lumen compare failed: status {status}")
    r = json.loads(out)
    r["cpu"] = usage.ru_utime + usage.ru_stime
    return r


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lumen", default=os.path.join(os.path.dirname(__file__), "..", "build", "lumen"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--words", type=int, default=50000)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("-k", type=int, default=10)
    ap.add_argument("--lumen-only", action="store_true", help="time lumen alone (no NumPy/SciPy run)")
    ap.add_argument("--skip-exact", action="store_true", help="skip the runs over every word's lists (slow)")
    a = ap.parse_args()
    print(machine.describe())  # every figure names the CPU that produced it
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
        r = run_lumen(a, pa, pb, pv, k, [])
        exact = None if a.skip_exact else run_lumen(a, pa, pb, pv, k, ["--sample", "0"])
    ov = r["overlap"]
    what = (f"overlap over a sample of {ov['words']} words: {ov['mean']:.6f} ± {ov['stderr']:.6f}"
            if ov["sampled"] else f"overlap (every word) {ov['mean']:.6f}")
    print(f"# lumen compare: two {n} x {d} tables, k = {k}, {a.threads} threads")
    print(f"lumen (default)   {r['seconds']:.3f} s wall, {r['cpu']:.3f} s CPU  {what}  "
          f"residual {r['procrustes']['residual']:.6f}  CKA {r['cka']:.6f}")
    if exact:
        print(f"lumen --sample 0  {exact['seconds']:.3f} s wall, {exact['cpu']:.3f} s CPU  overlap (every word) "
              f"{exact['overlap']['mean']:.6f}")
        if ov["sampled"]:
            z = abs(ov["mean"] - exact["overlap"]["mean"]) / ov["stderr"] if ov["stderr"] > 0 else float("nan")
            print(f"the sample's estimate is {z:.2f} standard errors from the exact mean")
    if a.lumen_only:
        return
    X, Y = A.astype(np.float64), B.astype(np.float64)
    start = time.perf_counter()
    R, _ = orthogonal_procrustes(X, Y)
    residual = np.linalg.norm(X @ R - Y)
    Xc, Yc = X - X.mean(0), Y - Y.mean(0)
    cka = np.linalg.norm(Xc.T @ Yc) ** 2 / (np.linalg.norm(Xc.T @ Xc) * np.linalg.norm(Yc.T @ Yc))
    products = time.perf_counter() - start
    m = ov["words"]
    rows = np.sort(np.random.default_rng(0).choice(n, size=m, replace=False))
    start = time.perf_counter()
    sa, sb = knn(A, k, rows=rows), knn(B, k, rows=rows)
    sampled_overlap = np.mean([len(set(p) & set(q)) / k for p, q in zip(sa, sb)])
    peer_sampled = time.perf_counter() - start + products
    print(f"# peer: NumPy {np.__version__} / SciPy {scipy.__version__}")
    print(f"numpy, {m} query words  {peer_sampled:.3f} s  overlap {sampled_overlap:.6f}  residual {residual:.6f}  "
          f"CKA {cka:.6f}")
    print(f"ratio at equal work (default)  {peer_sampled / r['seconds']:.2f}x wall  |differences| residual "
          f"{abs(residual - r['procrustes']['residual']):.2e}  CKA {abs(cka - r['cka']):.2e}")
    if exact:
        start = time.perf_counter()
        na, nb = knn(A, k), knn(B, k)
        overlap = np.mean([len(set(p) & set(q)) / k for p, q in zip(na, nb)])
        peer = time.perf_counter() - start + products
        print(f"numpy, every word  {peer:.3f} s  overlap {overlap:.6f}")
        print(f"ratio (--sample 0)  {peer / exact['seconds']:.2f}x wall  |differences| overlap "
              f"{abs(overlap - exact['overlap']['mean']):.2e}")

if __name__ == "__main__":
    main()
