#!/usr/bin/python3
"""lumen's search against FAISS (Debian's python3-faiss), same table shape, same thread count, one run.

    /usr/bin/python3 bench/compare_search.py [--bench build-search/bench/bench_search] [--threads N]

Table: 50257 x 768 (GPT-2 small's E), standard normal entries. FAISS: IndexFlatIP on normalised rows (its
usual cosine set-up; lumen instead divides by cached norms and keeps no normalised copy). Prints one line per
case: lumen's time, the peer's time and the ratio, with the issue's target. The approximate case reports
lumen's HNSW time per query and recall@10 against exact search (FAISS exact as the time reference).
"""
import argparse
import glob
import os
import sys

import numpy as np
import faiss
import machine  # bench/machine.py
from timing import benchmark_medians, median_time  # bench/timing.py

V, D, K = 50257, 768, 10


def lumen_bench(path, threads, repetitions):
    pattern = "BM_Query/(f32|f16|bf16)_cosine/|BM_Batch1024/f32|BM_HnswQuery"
    return {name: {"s": b["seconds"], **{k: v for k, v in b.items() if k == "recall@10"}}
            for name, b in benchmark_medians(path, threads, repetitions, pattern).items()}


def main():
    print(machine.describe())  # every figure names the CPU that produced it
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=None, help="bench_search binary (default: build*/bench/bench_search)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--repetitions", type=int, default=5)
    args = ap.parse_args()
    bench = args.bench or next(iter(sorted(glob.glob("build-search/bench/bench_search") + glob.glob("build*/bench/bench_search"))), None)
    if not bench or not os.path.exists(bench):
        sys.exit("bench_search not found: build it (cmake --build BUILD --target bench_search) or pass --bench")

    faiss.omp_set_num_threads(args.threads)
    rng = np.random.default_rng(1)
    E = rng.standard_normal((V, D), dtype=np.float32)
    En = E / np.linalg.norm(E, axis=1, keepdims=True)
    index = faiss.IndexFlatIP(D)
    index.add(En)
    q1 = En[123:124].copy()
    Q = np.ascontiguousarray(En[::37][:1024])
    index.search(q1, K)  # warm up
    faiss_single = median_time(lambda: index.search(q1, K), 50)
    faiss_batch = median_time(lambda: index.search(Q, K), args.repetitions)

    lumen = lumen_bench(bench, args.threads, args.repetitions)
    t = args.threads
    l32 = lumen[f"BM_Query/f32_cosine/{t}"]["s"]
    l16 = lumen[f"BM_Query/f16_cosine/{t}"]["s"]
    lbf = lumen[f"BM_Query/bf16_cosine/{t}"]["s"]
    lb = lumen[f"BM_Batch1024/f32/{t}"]["s"]
    print(f"search, {V} x {D}, top-{K}, {t} threads (faiss {faiss.__version__}, IndexFlatIP on normalised rows)")
    print(f"{'case':44} {'lumen':>10} {'peer':>10} {'ratio':>7}  target")
    def line(case, a, b, ratio, target):
        print(f"{case:44} {a:>10} {b:>10} {ratio:>6.2f}x  {target}")
    line("1 query f32 (peer: faiss)", f"{l32*1e3:.2f} ms", f"{faiss_single*1e3:.2f} ms", faiss_single / l32, ">= 4x")
    line("1 query f16 (peer: lumen f32)", f"{l16*1e3:.2f} ms", f"{l32*1e3:.2f} ms", l32 / l16, ">= 1.6x")
    line("1 query bf16 (peer: lumen f32)", f"{lbf*1e3:.2f} ms", f"{l32*1e3:.2f} ms", l32 / lbf, "(info)")
    line("1024 queries f32 (peer: faiss), throughput", f"{1024/lb:.0f} q/s", f"{1024/faiss_batch:.0f} q/s",
         faiss_batch / lb, ">= 1.0x")
    for name, r in sorted(lumen.items()):
        if name.startswith("BM_HnswQuery"):
            ef = name.split("/")[-1]
            line(f"1 query --approx HNSW ef={ef} (peer: faiss flat)", f"{r['s']*1e3:.3f} ms",
                 f"{faiss_single*1e3:.2f} ms", faiss_single / r["s"], f"recall@10 {r.get('recall@10', float('nan')):.3f}")


if __name__ == "__main__":
    main()
