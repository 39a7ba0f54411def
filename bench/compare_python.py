#!/usr/bin/python3
"""`import lumen` against lumen in C++ and against FAISS (Debian's python3-faiss), same table shape, same threads.

    PYTHONPATH=build/python /usr/bin/python3 bench/compare_python.py [--bench build/bench/bench_search] [--threads N]

Table: 50257 x 768 f32 (GPT-2 small's E), standard normal entries, written to a .npy and opened with lumen.load
(memory-mapped). Two cases, one run:
  1. one neighbours query (top-10 cosine, a vector) through Python, table.neighbours(v, exclude=False), against the
     same call in C++ (bench_search's BM_Query/f32_cosine, the median of its repetitions); target: at most 5% more.
     Twice: on the mapped .npy, and on the same table in memory (bench_search's table is in memory).
  2. a batch of 1024 queries from a NumPy array, table.search(Q, k=10) (one GEMM pass, the GIL released, results
     as two arrays), against FAISS IndexFlatIP.search on the same queries over normalised rows; target: >= 1x.
"""
import argparse
import glob
import os
import sys
import tempfile

import numpy as np

import machine  # bench/machine.py
from timing import benchmark_medians, median_time  # bench/timing.py

V, D, K = 50257, 768, 10


def cpp_query_seconds(bench, threads, repetitions):
    medians = benchmark_medians(bench, threads, repetitions, "BM_Query/f32_cosine/")
    run = medians.get(f"BM_Query/f32_cosine/{threads}")
    if run is None:
        sys.exit("bench_search gave no BM_Query/f32_cosine median")
    return run["seconds"]


def main():
    print(machine.describe())
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--bench", default=None, help="bench_search binary (default: build*/bench/bench_search)")
    ap.add_argument("--threads", type=int, default=os.cpu_count())
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--queries", type=int, default=200, help="single queries timed through Python (median)")
    args = ap.parse_args()
    import lumen

    bench = args.bench or next(iter(sorted(glob.glob("build*/bench/bench_search"))), None)
    if not bench or not os.path.exists(bench):
        sys.exit("bench_search not found: build it (cmake --build build --target bench_search) or pass --bench")
    t = args.threads
    lumen.set_threads(t)

    rng = np.random.default_rng(1)
    E = rng.standard_normal((V, D), dtype=np.float32)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "gpt2-shaped.npy")
        np.save(path, E)
        table = lumen.load(path)
        assert table.mapped
        v = np.array(table[123])
        table.neighbours(v, k=K, exclude=False)  # warm up (the row norms are computed once, here)
        py_single = median_time(lambda: table.neighbours(v, k=K, exclude=False), args.queries)
        cpp_single = cpp_query_seconds(bench, t, args.repetitions)
        # The same table in memory (bench_search's table is owned memory, not a mapped file): Table.from_array.
        owned = lumen.Table.from_array(E)
        owned.neighbours(v, k=K, exclude=False)
        py_owned = median_time(lambda: owned.neighbours(v, k=K, exclude=False), args.queries)
        del owned

        En = E / np.linalg.norm(E, axis=1, keepdims=True)
        Q = np.ascontiguousarray(En[::37][:1024])
        table.search(Q, k=K)
        py_batch = median_time(lambda: table.search(Q, k=K), args.repetitions)
        try:
            import faiss
        except ImportError:
            faiss = None
        if faiss is not None:
            faiss.omp_set_num_threads(t)
            index = faiss.IndexFlatIP(D)
            index.add(En)
            index.search(Q, K)
            faiss_batch = median_time(lambda: index.search(Q, K), args.repetitions)
            D_l, I_l = table.search(Q, k=K)
            D_f, I_f = index.search(Q, K)
            agree = float(np.mean([len(set(a) & set(b)) / K for a, b in zip(I_l, I_f)]))
        del table

    print(f"lumen from Python, {V} x {D} f32 (mapped .npy), top-{K} cosine, {t} threads")
    print(f"{'case':52} {'python':>10} {'peer':>10} {'ratio':>7}  target")
    print(f"{'1 query (peer: the same call in C++, bench_search)':52} {py_single*1e3:>7.3f} ms {cpp_single*1e3:>7.3f} ms "
          f"{py_single / cpp_single:>6.3f}x  <= 1.05x (overhead {100 * (py_single / cpp_single - 1):+.1f}%)")
    print(f"{'1 query, table in memory (Table.from_array) (peer: C++)':52} {py_owned*1e3:>7.3f} ms "
          f"{cpp_single*1e3:>7.3f} ms {py_owned / cpp_single:>6.3f}x  <= 1.05x "
          f"(overhead {100 * (py_owned / cpp_single - 1):+.1f}%)")
    if faiss is not None:
        print(f"{'1024 queries, table.search (peer: faiss IndexFlatIP)':52} {1024/py_batch:>6.0f} q/s "
              f"{1024/faiss_batch:>6.0f} q/s {faiss_batch / py_batch:>6.2f}x  >= 1.0x (same top-10: {agree:.3f})")
    else:
        print(f"{'1024 queries, table.search':52} {1024/py_batch:>6.0f} q/s  (faiss not installed: bench/setup-peers.sh)")


if __name__ == "__main__":
    main()
