#!/usr/bin/python3
"""Loading tables: lumen against gensim (word2vec text) and NumPy (.npy open), in one run.

Cases (one line each: both times and the ratio peer/lumen, > 1 means lumen is faster):
  parse word2vec text, 24,310 x 100 and 100,000 x 100 (random values written as gensim writes them,
  "%.6f"-like), gensim KeyedVectors.load_word2vec_format vs lumen io::open_table at the same thread count
  (1 by default; gensim is single-threaded) and, as an extra line, lumen with every core;
  open .safetensors / .npy: 10,000 x 128 (5 MB), 10,000 x 5,120 (205 MB) and 50,000 x 1,024 (205 MB): lumen maps
  the file (time independent of the bytes; the rows, labelled "0".."V-1", cost a vocabulary of V strings),
  NumPy np.load(mmap_mode="r") / a JSON header + np.memmap (no labels at all).

lumen's times come from build/bench/bench_load (Google Benchmark, real time, median of repetitions) over the same
files the peers read.

Run with Debian's Python (gensim, numpy): /usr/bin/python3 bench/compare_load.py --build build
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

import numpy as np
import machine  # bench/machine.py


def write_text(path, V, d, seed):
    rng = np.random.default_rng(seed)
    E = rng.normal(0, 0.3, size=(V, d)).astype(np.float32)
    with open(path, "w") as f:
        f.write(f"{V} {d}\n")
        for i in range(V):
            f.write(f"w{i} " + " ".join(f"{x:.6f}" for x in E[i]) + "\n")


# small and large share V (only d, hence the bytes, grows 40x); tall has 5x the rows of both.
BINARY_TABLES = {"small": (10000, 128), "large": (10000, 5120), "tall": (50000, 1024)}


def write_binary_tables(directory):
    rng = np.random.default_rng(2)
    for name, (V, d) in BINARY_TABLES.items():
        E = rng.normal(0, 0.3, size=(V, d)).astype(np.float32)
        np.save(os.path.join(directory, f"{name}.npy"), E)
        header = json.dumps({"wte.weight": {"dtype": "F32", "shape": [V, d], "data_offsets": [0, E.nbytes]}}).encode()
        header += b" " * ((8 - (8 + len(header)) % 8) % 8)
        with open(os.path.join(directory, f"{name}.safetensors"), "wb") as f:
            f.write(len(header).to_bytes(8, "little"))
            f.write(header)
            f.write(E.tobytes())


def median_time(fn, repetitions):
    fn()  # warm the page cache
    times = []
    for _ in range(repetitions):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def lumen_times(build, directory, threads, repetitions):
    exe = next((p for p in (os.path.join(build, "bench", "bench_load"), os.path.join(build, "bench_load"))
                if os.path.exists(p)), os.path.join(build, "bench", "bench_load"))
    if not os.path.exists(exe):
        sys.exit(f"{exe} not found: build it first (cmake --build {build} --target bench_load)")
    env = dict(os.environ, LUMEN_LOAD_DIR=directory, LUMEN_BENCH_THREADS=str(threads))
    out = subprocess.run([exe, "--benchmark_format=json", f"--benchmark_repetitions={repetitions}",
                          "--benchmark_report_aggregates_only=true"],
                         env=env, check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name") != "median":
            continue
        assert b["time_unit"] == "ms"
        times[b["run_name"].split("/", 1)[1].split("/")[0]] = b["real_time"] / 1e3
    return times


def main():
    print(machine.describe())  # every figure names the CPU that produced it
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--repetitions", type=int, default=5)
    args = ap.parse_args()
    from gensim.models import KeyedVectors

    with tempfile.TemporaryDirectory(prefix="lumen-compare-load-") as d:
        texts = {"text_24310x100.txt": (24310, 100), "text_100000x100.txt": (100000, 100)}
        for name, (V, dim) in texts.items():
            write_text(os.path.join(d, name), V, dim, seed=V)
        write_binary_tables(d)
        lumen = lumen_times(args.build, d, args.threads, args.repetitions)
        lumen_all = lumen_times(args.build, d, os.cpu_count(), args.repetitions)
        print(f"# threads {args.threads} (gensim is single-threaded); times are medians; ratio = peer / lumen")
        for name in texts:
            path = os.path.join(d, name)
            g = median_time(lambda: KeyedVectors.load_word2vec_format(path, binary=False), min(args.repetitions, 3))
            print(f"parse {name[5:-4]:>12} word2vec text  gensim {g * 1e3:9.1f} ms  lumen {lumen[name] * 1e3:8.1f} ms"
                  f"  ratio {g / lumen[name]:6.1f}x   (lumen {os.cpu_count()} threads {lumen_all[name] * 1e3:.1f} ms,"
                  f" {g / lumen_all[name]:.1f}x)")
        for name in [f"{t}.{ext}" for ext in ("npy", "safetensors") for t in BINARY_TABLES]:
            path = os.path.join(d, name)
            size = os.path.getsize(path)
            if name.endswith(".npy"):
                peer = median_time(lambda: np.load(path, mmap_mode="r"), args.repetitions)
                peer_name = "numpy mmap"
            else:
                def st_open():
                    with open(path, "rb") as f:
                        n = int.from_bytes(f.read(8), "little")
                        h = json.loads(f.read(n))
                    t = h["wte.weight"]
                    return np.memmap(path, dtype="<f4", mode="r", offset=8 + n + t["data_offsets"][0], shape=tuple(t["shape"]))
                peer = median_time(st_open, args.repetitions)
                peer_name = "json+memmap"
            V, dim = BINARY_TABLES[name.split(".")[0]]
            print(f"open  {name:>18} {V:>6} x {dim:<5} ({size / 1e6:6.1f} MB)  {peer_name} {peer * 1e3:7.3f} ms  lumen "
                  f"{lumen[name] * 1e3:7.3f} ms  ratio {peer / lumen[name]:5.2f}x")


if __name__ == "__main__":
    main()
