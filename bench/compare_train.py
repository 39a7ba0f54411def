#!/usr/bin/python3
"""lumen train word2vec against Debian's fastText (skip-gram), side by side, same corpus and hyper-parameters.

Run with Debian's Python (gensim scores the tables exactly as lumen's eval reproduces it):
    /usr/bin/python3 bench/compare_train.py [--lumen build/lumen] [--threads 2] [--seeds 1]

Corpus: the Brown corpus as scripts/make-default-table.sh writes it (BUILD/default/brown.txt), lower-cased here so
both tools see identical tokens (fastText does not lower-case). Hyper-parameters (the issue's): skip-gram, dim 100,
window 5, 5 negatives, 5 epochs, min-count 5, lr 0.05, t = 1e-4, no subwords (fastText -minn 0 -maxn 0).
Speed: each tool's own words/s/thread figure (in-vocabulary tokens before subsampling, per second of wall time,
per thread), and words per CPU-second (user+sys of the child), which is steadier on a shared machine.
Quality: questions-words accuracy and WordSim-353 Spearman (gensim's evaluate_word_analogies / evaluate_word_pairs,
restrict_vocab 300000, case-insensitive).
"""
import argparse
import json
import os
import re
import resource
import subprocess
import sys
import time
import machine  # bench/machine.py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def timed(cmd):
    c0, t0 = child_cpu(), time.time()
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"failed ({p.returncode}): {' '.join(cmd)}\n{p.stderr[-2000:]}")
    return p, time.time() - t0, child_cpu() - c0


def score(path):
    from gensim.models import KeyedVectors
    import logging
    logging.disable(logging.WARNING)
    kv = KeyedVectors.load_word2vec_format(path, binary=False, unicode_errors="ignore")
    acc, _ = kv.evaluate_word_analogies(os.path.join(DATA, "questions-words.txt"))
    ws = kv.evaluate_word_pairs(os.path.join(DATA, "wordsim353.tsv"))
    return acc, ws[1][0]


def main():
    print(machine.describe())  # every figure names the CPU that produced it
    global DATA
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lumen", default=os.path.join(ROOT, "build", "lumen"))
    ap.add_argument("--corpus", default=None, help="default: <lumen's dir>/default/brown.txt")
    ap.add_argument("--data", default=os.path.join(ROOT, "..", "shared", "data"))
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--seeds", type=int, default=1, help="runs per tool (quality is averaged)")
    ap.add_argument("--out", default=os.path.join(ROOT, "bench", "out", "train"))
    args = ap.parse_args()
    DATA = args.data
    os.makedirs(args.out, exist_ok=True)
    corpus = args.corpus or os.path.join(os.path.dirname(os.path.abspath(args.lumen)), "default", "brown.txt")
    if not os.path.exists(corpus):
        sys.exit(f"{corpus} missing: run scripts/make-default-table.sh first")
    lower = os.path.join(args.out, "brown.lower.txt")
    with open(corpus, encoding="utf-8", errors="surrogateescape") as f, \
            open(lower, "w", encoding="utf-8", errors="surrogateescape") as g:
        for line in f:
            g.write(line.lower())
    hp = dict(dim=100, ws=5, neg=5, epoch=5, minCount=5, lr=0.05, t=1e-4)
    res = {"fasttext": [], "lumen": []}
    for seed in range(1, args.seeds + 1):
        out = os.path.join(args.out, f"ft{seed}")
        p, wall, cpu = timed(["fasttext", "skipgram", "-input", lower, "-output", out, "-dim", "100", "-ws", "5",
                              "-neg", "5", "-epoch", "5", "-minCount", "5", "-minn", "0", "-maxn", "0", "-lr", "0.05",
                              "-t", "1e-4", "-thread", str(args.threads), "-seed", str(seed), "-verbose", "2"])
        rates = re.findall(r"words/sec/thread:\s*(\d+)", p.stderr + p.stdout)
        words = re.findall(r"Number of words:\s*(\d+)", p.stderr + p.stdout)
        ft_rate = float(rates[-1]) if rates else float("nan")
        acc, ws = score(out + ".vec")
        res["fasttext"].append(dict(rate=ft_rate, wall=wall, cpu=cpu, acc=acc, ws=ws))

        out = os.path.join(args.out, f"lumen{seed}.vec")
        p, wall, cpu = timed([args.lumen, "train", "word2vec", lower, "-o", out, "--dim", "100", "--window", "5",
                              "--negative", "5", "--epochs", "5", "--min-count", "5", "--lr", "0.05", "--sample", "1e-4",
                              "--threads", str(args.threads), "--seed", str(seed), "--json"])
        j = json.loads(p.stdout)
        acc, ws = score(out)
        res["lumen"].append(dict(rate=j["words_per_sec_per_thread"], wall=wall, cpu=cpu, acc=acc, ws=ws,
                                 words=j["words"]))

    def mean(tool, k):
        v = [r[k] for r in res[tool]]
        return sum(v) / len(v)

    words = res["lumen"][0]["words"]
    print(f"# corpus {corpus} (lower-cased), {args.threads} threads, {args.seeds} seed(s); lumen words per run {words}")
    f, l = mean("fasttext", "rate"), mean("lumen", "rate")
    print(f"speed words/s/thread        fastText {f:12.0f}  lumen {l:12.0f}  ratio {l / f:5.2f}x")
    f, l = words / mean("fasttext", "cpu"), words / mean("lumen", "cpu")
    print(f"speed words/CPU-second      fastText {f:12.0f}  lumen {l:12.0f}  ratio {l / f:5.2f}x")
    f, l = mean("fasttext", "wall"), mean("lumen", "wall")
    print(f"wall seconds per run        fastText {f:12.2f}  lumen {l:12.2f}  ratio {f / l:5.2f}x")
    f, l = mean("fasttext", "acc"), mean("lumen", "acc")
    print(f"questions-words accuracy    fastText {f:12.4f}  lumen {l:12.4f}  diff {l - f:+.4f}")
    f, l = mean("fasttext", "ws"), mean("lumen", "ws")
    print(f"WordSim-353 Spearman        fastText {f:12.4f}  lumen {l:12.4f}  diff {l - f:+.4f}")


if __name__ == "__main__":
    main()
