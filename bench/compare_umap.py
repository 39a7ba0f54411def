#!/usr/bin/python3
"""lumen project --method umap vs umap-learn (Debian's umap-learn 0.5.3), side by side, same thread count.

  /usr/bin/python3 bench/compare_umap.py [--lumen build/lumen] [--table build/default/brown.vec] [--top 5000]
                                         [--threads 2] [--neighbors 15] [--min-dist 0.1]

The first TOP rows of a real table (the default: word2vec on the Brown corpus, 100 dimensions), Euclidean on both
sides. umap-learn is called twice in one process (its first call compiles with numba; both times are reported);
lumen's time is its own `seconds` (table loaded, honesty numbers off with --sample 0). Quality: scikit-learn's
trustworthiness (k = 10) of each map against the same rows. Parity target: lumen >= umap-learn - 0.01.

  /usr/bin/python3 bench/compare_umap.py --synthetic 50000     # lumen alone on a 50,000 x 100 table (under a minute?)
  /usr/bin/python3 bench/compare_umap.py --top 0 --knn-both    # lumen alone, the whole table, exact kNN graph vs HNSW's:
                                                               # time and trustworthiness@10 of each
"""
import argparse
import json
import os
import subprocess
import tempfile
import time

import numpy as np

import machine  # bench/machine.py


def main():
    ap = argparse.ArgumentParser()
    here = os.path.dirname(os.path.abspath(__file__))
    ap.add_argument("--lumen", default=os.path.join(here, "..", "build", "lumen"))
    ap.add_argument("--table", default=os.path.join(here, "..", "build", "default", "brown.vec"))
    ap.add_argument("--top", type=int, default=5000)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--neighbors", type=int, default=15)
    ap.add_argument("--min-dist", type=float, default=0.1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--synthetic", type=int, default=0, help="time lumen alone on N x 100 synthetic rows")
    ap.add_argument("--knn", default="auto", help="lumen's kNN graph: auto, exact or hnsw")
    ap.add_argument("--knn-both", action="store_true", help="lumen alone, exact kNN graph against HNSW's")
    a = ap.parse_args()
    print(machine.describe())  # every figure names the CPU that produced it
    if a.synthetic:
        return synthetic(a)
    if a.knn_both:
        return knn_both(a)
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS", "NUMBA_NUM_THREADS"):
        os.environ[var] = str(a.threads)
    import umap
    from sklearn.manifold import trustworthiness

    with open(a.table, encoding="utf8") as f:
        f.readline()
        X = np.array([[float(v) for v in next(f).rstrip().split(" ")[1:]] for _ in range(a.top)], dtype=np.float32)
    out = subprocess.run([a.lumen, "--threads", str(a.threads), "project", a.table, "--method", "umap", "--top",
                          str(a.top), "--metric", "euclidean", "--neighbors", str(a.neighbors), "--min-dist",
                          str(a.min_dist), "--seed", str(a.seed), "--sample", "0", "--json"],
                         check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    Y = np.array([[p["x"], p["y"]] for p in r["points"]])
    times, maps = [], []
    for call in range(2):
        start = time.perf_counter()
        m = umap.UMAP(n_neighbors=a.neighbors, min_dist=a.min_dist, random_state=None, n_jobs=a.threads)
        maps.append(m.fit_transform(X))
        times.append(time.perf_counter() - start)
    t_lumen = trustworthiness(X, Y, n_neighbors=10)
    t_peer = trustworthiness(X, maps[1], n_neighbors=10)
    print(f"# lumen UMAP vs umap-learn {umap.__version__}: {a.top} x {X.shape[1]} ({os.path.basename(a.table)}), "
          f"n_neighbors {a.neighbors}, min_dist {a.min_dist}, Euclidean, {a.threads} threads")
    print(f"lumen       {r['seconds']:.3f} s  trustworthiness@10 {t_lumen:.4f}")
    print(f"umap-learn  {times[0]:.3f} s (first call, numba compiles)  {times[1]:.3f} s (second call)  "
          f"trustworthiness@10 {t_peer:.4f}")
    print(f"ratio       {times[1] / r['seconds']:.2f}x (second call / lumen)  trustworthiness difference "
          f"{t_lumen - t_peer:+.4f} (parity: >= -0.01)")


def read_rows(path, top):
    with open(path, encoding="utf8") as f:
        n, _ = map(int, f.readline().split())
        top = n if top <= 0 else min(top, n)
        return np.array([[float(v) for v in next(f).rstrip().split(" ")[1:]] for _ in range(top)], dtype=np.float32)


def knn_both(a):
    """The same map from the exact kNN graph and from HNSW's: lumen's time and trustworthiness@10 of each."""
    from sklearn.manifold import trustworthiness
    X = read_rows(a.table, a.top)
    print(f"# lumen UMAP, exact kNN graph vs HNSW's: {X.shape[0]} x {X.shape[1]} ({os.path.basename(a.table)}), "
          f"n_neighbors {a.neighbors}, min_dist {a.min_dist}, Euclidean, {a.threads} threads")
    for knn in ("exact", "hnsw"):
        out = subprocess.run([a.lumen, "--threads", str(a.threads), "project", a.table, "--method", "umap", "--top",
                              str(X.shape[0]), "--metric", "euclidean", "--neighbors", str(a.neighbors), "--min-dist",
                              str(a.min_dist), "--seed", str(a.seed), "--sample", "0", "--knn", knn, "--json"],
                             check=True, capture_output=True, text=True).stdout
        r = json.loads(out)
        Y = np.array([[p["x"], p["y"]] for p in r["points"]])
        print(f"{knn:6} {r['seconds']:.3f} s  trustworthiness@10 {trustworthiness(X, Y, n_neighbors=10):.4f}")


def synthetic(a):
    """N x 100 rows in 300 clusters with a decaying spectrum, as .npy + vocabulary; lumen's own time."""
    rng = np.random.default_rng(1)
    n, d = a.synthetic, 100
    centres = rng.normal(size=(300, d)) * 2 / np.sqrt(1 + np.arange(d))
    X = centres[rng.integers(0, 300, size=n)] + 0.5 * rng.normal(size=(n, d)) / np.sqrt(1 + 0.05 * np.arange(d))
    with tempfile.TemporaryDirectory() as tmp:
        path, vocab = os.path.join(tmp, "big.npy"), os.path.join(tmp, "big.vocab")
        np.save(path, X.astype(np.float32))
        with open(vocab, "w") as f:
            f.write("".join(f"w{i}\n" for i in range(n)))
        out = subprocess.run([a.lumen, "--threads", str(a.threads), "project", path, "--vocab", vocab, "--method",
                              "umap", "--neighbors", str(a.neighbors), "--min-dist", str(a.min_dist), "--sample", "0",
                              "--knn", a.knn, "--json"], check=True, capture_output=True, text=True).stdout
    r = json.loads(out)
    print(f"# lumen UMAP alone: {n} x {d} synthetic, n_neighbors {a.neighbors}, {a.threads} threads")
    print(f"lumen  {r['seconds']:.3f} s ({len(r['points'])} points, {r['epochs']} epochs)")


if __name__ == "__main__":
    main()
