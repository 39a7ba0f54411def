#!/usr/bin/python3
"""lumen eval against gensim, side by side in one run, at the same thread count.

    /usr/bin/python3 bench/compare_eval.py [--lumen build/lumen] [--threads 1 2] [--rows 25000] [--dim 100]

The table: no real 25,000-row table is on this machine, so one is generated (seed 6): every word of
questions-words.txt gets a vector in which each section's relation is a shared offset plus noise (so the
answers are a mix of right and near misses, as with a trained table), then filler words with random vectors
up to --rows rows, written as word2vec text. gensim loads it with load_word2vec_format (not timed) and
scores it with evaluate_word_analogies (timed); lumen runs `lumen eval analogies TABLE questions-words.txt
--json`, which reports the evaluation's own time (`seconds`, loading excluded, as for gensim) beside the
process's wall time. The same is done for evaluate_word_pairs on wordsim353.tsv. The counts must agree:
the script says so on each line.
"""
import argparse
import json
import os
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np
import machine  # bench/machine.py
from analogy_vectors import relation_vectors  # bench/analogy_vectors.py

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
DATA = os.path.normpath(os.environ.get("LUMEN_DATA_DIR", os.path.join(ROOT, "..", "shared", "data")))


def make_table(path, rows, dim, seed=6):
    rng = np.random.RandomState(seed)
    vec, order = relation_vectors(os.path.join(DATA, "questions-words.txt"), rng, dim, noise=1.6)
    words = list(order) + ["filler%05d" % i for i in range(rows - len(order))]
    E = np.concatenate([np.array([vec[w] for w in order]), rng.normal(size=(rows - len(order), dim)) * 1.3])
    perm = rng.permutation(rows)  # real words spread over the table
    with open(path, "w", encoding="utf8") as out:
        out.write("%d %d\n" % (rows, dim))
        for i in perm:
            out.write(words[i] + " " + " ".join("%.5f" % x for x in E[i]) + "\n")


def find_lumen(arg):
    for p in ([arg] if arg else []) + [os.path.join(ROOT, d, "lumen") for d in ("build", "build-eval", "build-release")]:
        if p and os.path.exists(p):
            return p
    sys.exit("no lumen binary: build lumen_cli and pass --lumen PATH")


def children_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_lumen(lumen, threads, args):
    """lumen's JSON and the whole process's CPU seconds (loading the table included)."""
    c0 = children_cpu()
    out = subprocess.run([lumen, "--threads", str(threads), "eval"] + args + ["--json"], check=True,
                         capture_output=True, text=True).stdout
    return json.loads(out), children_cpu() - c0


def main():
    print(machine.describe())  # every figure names the CPU that produced it
    ap = argparse.ArgumentParser()
    ap.add_argument("--lumen")
    ap.add_argument("--threads", type=int, nargs="+", default=sorted({1, os.cpu_count()}),
                    help="thread counts to compare at (each side gets the same)")
    ap.add_argument("--rows", type=int, default=25000)
    ap.add_argument("--dim", type=int, default=100)
    ap.add_argument("--repeat", type=int, default=3, help="best of N runs for each side")
    a = ap.parse_args()
    lumen = find_lumen(a.lumen)
    from gensim.models import KeyedVectors
    from threadpoolctl import threadpool_limits  # numpy's BLAS on the same thread count as lumen
    import logging
    logging.disable(logging.CRITICAL)

    qw = os.path.join(DATA, "questions-words.txt")
    ws = os.path.join(DATA, "wordsim353.tsv")
    with tempfile.TemporaryDirectory() as tmp:
        table = os.path.join(tmp, "bench_%dx%d.vec" % (a.rows, a.dim))
        make_table(table, a.rows, a.dim)
        kv = KeyedVectors.load_word2vec_format(table)
        print("table: %d x %d generated (question words with noisy relations + random fillers); best of %d"
              % (a.rows, a.dim, a.repeat))
        for threads in a.threads:
            with threadpool_limits(limits=threads, user_api="blas"):
                compare(a, lumen, kv, table, qw, ws, threads)


def compare(a, lumen, kv, table, qw, ws, threads):
    # Wall time of the evaluation on each side (loading excluded); on a shared, loaded machine also CPU time
    # (gensim: this process's; lumen: the whole lumen process's, loading the table included: an upper bound).
    g_best, g_cpu, l_best, l_cpu = (float("inf"),) * 4
    for _ in range(a.repeat):
        t0, c0 = time.perf_counter(), time.process_time()
        score, sections = kv.evaluate_word_analogies(qw)
        g_best, g_cpu = min(g_best, time.perf_counter() - t0), min(g_cpu, time.process_time() - c0)
        correct = len(sections[-1]["correct"])
        answered = correct + len(sections[-1]["incorrect"])
        res, cpu = run_lumen(lumen, threads, ["analogies", table, qw])
        l_best, l_cpu = min(l_best, res["seconds"]), min(l_cpu, cpu)
    same = "equal" if (res["correct"], res["answered"]) == (correct, answered) else \
        "DIFFER: gensim %d/%d" % (correct, answered)
    print("threads %d  analogies 3CosAdd questions-words  wall: gensim %.3f s  lumen %.3f s  ratio %.1fx  |  "
          "cpu: gensim %.3f s  lumen %.3f s (whole process)  ratio %.1fx  [lumen %d/%d correct, counts %s]"
          % (threads, g_best, l_best, g_best / l_best, g_cpu, l_cpu, g_cpu / l_cpu, res["correct"],
             res["answered"], same))

    res, cpu = run_lumen(lumen, threads, ["analogies", table, qw, "--method", "mul"])
    print("threads %d  analogies 3CosMul questions-words  wall: lumen %.3f s  cpu %.3f s (whole process)  "
          "[%d/%d correct; gensim's evaluate_word_analogies has no 3CosMul]"
          % (threads, res["seconds"], cpu, res["correct"], res["answered"]))

    g_best, l_best = float("inf"), float("inf")
    for _ in range(a.repeat):
        t0 = time.perf_counter()
        pearson, spearman, oov = kv.evaluate_word_pairs(ws)
        g_best = min(g_best, time.perf_counter() - t0)
        res, cpu = run_lumen(lumen, threads, ["similarity", table, ws])
        l_best = min(l_best, res["seconds"])
    same = abs(res["spearman"] - spearman[0]) < 1e-6 and abs(res["pearson"] - pearson[0]) < 1e-6
    print("threads %d  similarity wordsim353              wall: gensim %.4f s  lumen %.4f s  ratio %.1fx  "
          "[spearman %.4f, %s]" % (threads, g_best, l_best, g_best / l_best, res["spearman"],
                                   "equal" if same else "DIFFER"))


if __name__ == "__main__":
    main()
