#!/usr/bin/python3
"""lumen project vs scikit-learn (Debian's python3-sklearn), side by side, same data, same thread count.

  /usr/bin/python3 bench/compare_project.py [--lumen build/lumen] [--threads 2] [--quick]

Cases (one line each: both times and the ratio):
  pca   50257 x 768 f32 -> 2 components: sklearn PCA(n_components=2) with its default solver vs lumen
        (fit + coordinates both); the coordinates must agree up to sign (|corr| of each axis).
  tsne  5000 x 50 -> 2 (Barnes-Hut, perplexity 30, 1000 iterations, PCA init, learning rate auto, Euclidean):
        sklearn TSNE vs lumen; final KL of each (sklearn's kl_divergence_, lumen's exact KL).
lumen's time is its own measurement of the computation (`seconds` in --json, table already loaded);
sklearn's is fit_transform's wall time. Honesty numbers are turned off (--sample 0) to time the projection alone.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

import numpy as np
import machine  # bench/machine.py


def table(n, d, seed, clusters):
    """Rows with a decaying spectrum and some clusters, like an embedding table."""
    rng = np.random.default_rng(seed)
    centres = rng.normal(size=(clusters, d)) * 2.0 / np.sqrt(1.0 + np.arange(d))
    labels = rng.integers(0, clusters, size=n)
    X = centres[labels] + 0.5 * rng.normal(size=(n, d)) / np.sqrt(1.0 + 0.05 * np.arange(d))
    return X.astype(np.float32)


def saved_table(tmp, name, n, d, seed, clusters):
    """table(n, d, seed, clusters) and the .npy in tmp that lumen reads it from."""
    X = table(n, d, seed, clusters)
    path = os.path.join(tmp, name + ".npy")
    np.save(path, X)
    return X, path


def run_lumen(lumen, threads, path, args):
    cmd = [lumen, "--threads", str(threads), "-q", "project", path, "--sample", "0", "--json"] + args
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def main():
    print(machine.describe())  # every figure names the CPU that produced it
    ap = argparse.ArgumentParser()
    ap.add_argument("--lumen", default=os.path.join(os.path.dirname(__file__), "..", "build", "lumen"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--quick", action="store_true", help="smaller cases (a smoke test of the script)")
    ap.add_argument("--case", choices=("all", "pca", "tsne"), default="all")
    a = ap.parse_args()
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(a.threads)
    # Imported after the thread variables are set, so that BLAS and OpenMP pick them up.
    import sklearn
    from sklearn.decomposition import PCA
    from sklearn.manifold import TSNE

    print(f"# lumen vs scikit-learn {sklearn.__version__}, {a.threads} threads")
    with tempfile.TemporaryDirectory() as tmp:
        if a.case in ("all", "pca"):
            compare_pca(a, tmp, PCA)
        if a.case in ("all", "tsne"):
            compare_tsne(a, tmp, TSNE)
    return 0


def compare_pca(a, tmp, PCA):
    n, d = (5000, 768) if a.quick else (50257, 768)
    X, path = saved_table(tmp, "pca", n, d, 1, 50)
    out = os.path.join(tmp, "pca.csv")
    t_lumen = min(run_lumen(a.lumen, a.threads, path, ["--method", "pca", "-o", out])["seconds"] for _ in range(3))
    Y_lumen = np.loadtxt(out, delimiter=",", skiprows=1, usecols=(1, 2))
    t_sk = []
    for _ in range(3):
        t0 = time.perf_counter()
        Y_sk = PCA(n_components=2).fit_transform(X)
        t_sk.append(time.perf_counter() - t0)
    corr = [abs(np.corrcoef(Y_lumen[:, c], Y_sk[:, c])[0, 1]) for c in range(2)]
    print(f"pca {n}x{d}->2: sklearn {min(t_sk):.3f} s, lumen {t_lumen:.3f} s, ratio {min(t_sk) / t_lumen:.2f}x; "
          f"|corr| of axes {corr[0]:.6f} {corr[1]:.6f}")


def compare_tsne(a, tmp, TSNE):
    n, d = (1000, 50) if a.quick else (5000, 50)
    X, path = saved_table(tmp, "tsne", n, d, 2, 20)
    j = run_lumen(a.lumen, a.threads, path, ["--method", "tsne", "--metric", "euclidean", "--seed", "0",
                                              "-o", os.path.join(tmp, "tsne.csv")])
    t0 = time.perf_counter()
    ts = TSNE(n_components=2, perplexity=30.0, init="pca", learning_rate="auto", method="barnes_hut",
              angle=0.5, random_state=0, n_jobs=a.threads)
    ts.fit_transform(X)
    t_sk = time.perf_counter() - t0
    kl_l, kl_s = j["kl"][0], float(ts.kl_divergence_)
    print(f"tsne {n}x{d}->2: sklearn {t_sk:.2f} s, lumen {j['seconds']:.2f} s, ratio {t_sk / j['seconds']:.2f}x; "
          f"KL sklearn {kl_s:.4f}, lumen {kl_l:.4f} (lumen - sklearn {kl_l - kl_s:+.4f}, target <= +0.05)")


if __name__ == "__main__":
    sys.exit(main())
