#!/usr/bin/python3
"""lumen probe vs scikit-learn's LogisticRegression (Debian's python3-sklearn), side by side, same thread count.

  /usr/bin/python3 bench/compare_probe.py [--lumen build/lumen] [--threads 2] [--words 10000] [--dim 300]

A table of WORDS x DIM (classes as mean directions plus noise, like a label a table half encodes) and a label
file of all its words in 4 classes. lumen probe --json runs 5-fold cross-validation for the probe and for the
control task (10 fits); scikit-learn then fits LogisticRegression(multi_class="multinomial", C=1, lbfgs,
max_iter=1000) on exactly the same folds and the same control labels (read from lumen's JSON), 10 fits.
Prints both times (lumen: its own `seconds`, the table already loaded; sklearn: the wall time of its 10 fits and
predictions), the ratio, and the accuracy of each (parity: within 0.01).
"""
import argparse
import json
import os
import resource
import subprocess
import tempfile
import time
import warnings

import numpy as np

import machine  # bench/machine.py


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lumen", default=os.path.join(os.path.dirname(__file__), "..", "build", "lumen"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--words", type=int, default=10000)
    ap.add_argument("--dim", type=int, default=300)
    ap.add_argument("--classes", type=int, default=4)
    a = ap.parse_args()
    print(machine.describe())  # every figure names the CPU that produced it
    for var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[var] = str(a.threads)
    import sklearn
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression

    rng = np.random.default_rng(5)
    n, d, K = a.words, a.dim, a.classes
    y = rng.integers(0, K, size=n)
    X = (0.02 * rng.normal(size=(K, d))[y] + rng.normal(size=(n, d)) / np.sqrt(d) * 3).astype(np.float32)
    names = [f"w{i}" for i in range(n)]
    with tempfile.TemporaryDirectory() as tmp:
        table, labels = os.path.join(tmp, "t.vec"), os.path.join(tmp, "labels.tsv")
        with open(table, "w") as f:
            f.write(f"{n} {d}\n")
            for w, row in zip(names, X):
                f.write(w + " " + " ".join(f"{v:.9g}" for v in row) + "\n")
        with open(labels, "w") as f:
            for w, c in zip(names, y):
                f.write(f"{w}\tclass{c}\n")
        cpu0 = resource.getrusage(resource.RUSAGE_CHILDREN)
        out = subprocess.run([a.lumen, "--threads", str(a.threads), "probe", table, labels, "--tol", "1e-4", "--json"], check=True,
                             capture_output=True, text=True).stdout
        cpu1 = resource.getrusage(resource.RUSAGE_CHILDREN)
        lumen_cpu = (cpu1.ru_utime - cpu0.ru_utime) + (cpu1.ru_stime - cpu0.ru_stime)  # the table's load included
        r = json.loads(out)
        X = np.array([[float(v) for v in l.split()[1:]] for l in open(table).readlines()[1:]])  # as lumen read it
    index = {w: i for i, w in enumerate(names)}
    rows = np.array([index[w["word"]] for w in r["words"]])
    classes = r["classes"]
    Xr = X[rows]
    fold = np.array([w["fold"] for w in r["words"]])
    start, start_cpu = time.perf_counter(), time.process_time()
    acc = {}
    for task in ("label", "control"):
        t = np.array([classes.index(w[task]) for w in r["words"]])
        per_fold = []
        for f in range(r["folds"]):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", ConvergenceWarning)
                clf = LogisticRegression(multi_class="multinomial", C=r["C"], tol=r["tol"], max_iter=1000)
                clf.fit(Xr[fold != f], t[fold != f])
            per_fold.append(float((clf.predict(Xr[fold == f]) == t[fold == f]).mean()))
        acc[task] = float(np.mean(per_fold))
    sk, sk_cpu = time.perf_counter() - start, time.process_time() - start_cpu
    print(f"# lumen probe vs scikit-learn {sklearn.__version__}: {n} words x {d}, {K} classes, {r['folds']} folds, "
          f"probe + control (10 fits), {a.threads} threads")
    print(f"lumen    {r['seconds']:.3f} s  accuracy {r['accuracy']:.4f}  control {r['control_accuracy']:.4f}  "
          f"(L-BFGS, at most {r['iterations']} iterations)")
    print(f"sklearn  {sk:.3f} s  accuracy {acc['label']:.4f}  control {acc['control']:.4f}")
    print(f"ratio    {sk / r['seconds']:.2f}x  |accuracy difference| {abs(acc['label'] - r['accuracy']):.4f} "
          f"(parity: <= 0.01), control {abs(acc['control'] - r['control_accuracy']):.4f}")
    print(f"cpu      lumen {lumen_cpu:.3f} s (process, table load included)  sklearn {sk_cpu:.3f} s  "
          f"ratio {sk_cpu / lumen_cpu:.2f}x  (CPU seconds, all threads: less sensitive to a loaded machine)")


if __name__ == "__main__":
    main()
