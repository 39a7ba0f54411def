#!/usr/bin/python3
"""Loading tables: lumen against gensim (word2vec text) and NumPy (.npy open), in one run.

Cases (one line each: both times and the ratio peer/lumen, > 1 means lumen is faster; the text parses in rounds,
one gensim load then one lumen run at each thread count; times are medians over --repetitions rounds, ratios
the median of the rounds' ratios):
  parse word2vec text, 24,310 x 100, 100,000 x 100 and 50,000 x 300 (about 140 MB; random values written
  "%.6f"), gensim KeyedVectors.load_word2vec_format vs lumen io::open_table at the same thread count
  (1 by default; gensim is single-threaded) and, as an extra column, lumen at --threads2 (default 2), with the
  targets of issue #18 (>= 40x gensim at 1 thread, >= 70x at 2) and lumen's MB/s;
  peak memory of loading the 50,000 x 300 table: the peak RSS (ru_maxrss) of a process that only loads it,
  gensim (python3 + import gensim + load) against `lumen --threads N info` (lumen reads the text through copies
  of 256 kB per thread, so its figure is the table, the words and those copies);
  open .safetensors / .npy: 10,000 x 128 (5 MB), 10,000 x 5,120 (205 MB) and 50,000 x 1,024 (205 MB): lumen maps
  the file (time independent of the bytes; the rows, labelled "0".."V-1", cost a vocabulary of V strings),
  NumPy np.load(mmap_mode="r") / a JSON header + np.memmap (no labels at all).

lumen's times come from build/bench/bench_load (Google Benchmark, real time, median of repetitions) over the same
files the peers read. The 1-thread runs of both (gensim's loads and lumen's --threads run) are pinned to one CPU
(--cpu, default the first this process may use; -1: not pinned): the cores of a VM can differ in speed by a third,
and a ratio of two runs on different cores would measure the cores. lumen's --threads2 run is not pinned.

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
    # A GPT-2-sized table without a vocabulary (rows labelled "0".."50256"): open plus one query.
    np.save(os.path.join(directory, "gpt2.npy"), rng.normal(0, 0.3, size=(50257, 768)).astype(np.float32))


def peak_rss(cmd):
    """Peak resident set (MB) of a command run to completion, by GNU time (/usr/bin/time -f %M, in KB).

    Not this process's wait4 rusage: on Linux a child's ru_maxrss starts at its parent's size at fork (this
    Python, with gensim and the tables it loaded), which would hide the figure being measured."""
    proc = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                          text=True)
    if proc.returncode != 0:
        sys.exit(f"{cmd[0]} failed (exit {proc.returncode}): {' '.join(cmd)}\n{proc.stderr}")
    return int(proc.stderr.strip().splitlines()[-1]) / 1024


def timed(fn):
    """Wall and CPU seconds (this process, user+sys) of one call of fn."""
    start, start_cpu = time.perf_counter(), time.process_time()
    fn()
    return time.perf_counter() - start, time.process_time() - start_cpu


def median_time(fn, repetitions, cpu=None):
    """Median wall time of fn; with a list `cpu`, the median CPU time of this process (user+sys) is appended."""
    fn()  # warm the page cache
    times, cpus = [], []
    for _ in range(repetitions):
        wall, used = timed(fn)
        times.append(wall)
        cpus.append(used)
    if cpu is not None:
        cpu.append(statistics.median(cpus))
    return statistics.median(times)


def child_time(cmd, repetitions):
    """Median wall and CPU (user+sys of the child) seconds of a command run to completion."""
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)  # warm
    walls, cpus = [], []
    for _ in range(repetitions):
        before = os.times()
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        walls.append(time.perf_counter() - start)
        after = os.times()
        cpus.append(after.children_user - before.children_user + after.children_system - before.children_system)
    return statistics.median(walls), statistics.median(cpus)


def lumen_times(build, directory, threads, repetitions, text_only=False, only=None):
    """lumen's times by name from one bench_load run; `only`: that text file's parse alone (after the 24,310 x 100
    one: a 143 MB parse that is a process's first benchmark runs 20-30% slower)."""
    exe = next((p for p in (os.path.join(build, "bench", "bench_load"), os.path.join(build, "bench_load"))
                if os.path.exists(p)), os.path.join(build, "bench", "bench_load"))
    if not os.path.exists(exe):
        sys.exit(f"{exe} not found: build it first (cmake --build {build} --target bench_load)")
    env = dict(os.environ, LUMEN_LOAD_DIR=directory, LUMEN_BENCH_THREADS=str(threads))
    out = subprocess.run([exe, "--benchmark_format=json", f"--benchmark_repetitions={repetitions}",
                          "--benchmark_report_aggregates_only=true"] +
                         (["--benchmark_filter=Text/"] if text_only and only is None else []) +
                         ([f"--benchmark_filter=ParseText/(text_24310x100.txt|{only})/"] if only else []),
                         env=env, check=True, capture_output=True, text=True).stdout
    times = {}  # name -> real seconds; "cpu " + name -> CPU seconds of the whole process (all threads)
    for b in json.loads(out)["benchmarks"]:
        if b.get("aggregate_name", "median" if repetitions == 1 else None) != "median":
            continue  # (one repetition reports no aggregates: its one run is the median)
        assert b["time_unit"] == "ms"
        kind, name = b["run_name"].split("/")[:2]
        if kind == "OpenQuery":  # paired in each iteration: its counters, not its own time
            for key in ("open_query_ms", "query_ms", "ratio", "open_query_cpu_ms", "query_cpu_ms", "ratio_cpu",
                        "plain_fresh_ms", "plain_warm_ms", "plain_ratio"):
                times[f"{key} {name}"] = b[key]
            continue
        prefix = {"CachedText": "cached "}.get(kind, "")
        times[prefix + name] = b["real_time"] / 1e3
        times["cpu " + prefix + name] = b["cpu_time"] / 1e3
        if kind == "CachedText":
            times["first " + name] = b["first_ms"] / 1e3
    return times


def main():
    print(machine.describe())  # every figure names the CPU that produced it
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build")
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--threads2", type=int, default=2, help="the second thread count lumen runs at")
    ap.add_argument("--repetitions", type=int, default=5)
    ap.add_argument("--text-only", action="store_true", help="only the text cases (no .npy/.safetensors opens)")
    ap.add_argument("--cpu", type=int, default=min(os.sched_getaffinity(0)),
                    help="the CPU both 1-thread runs are pinned to (-1: not pinned)")
    args = ap.parse_args()
    allowed = os.sched_getaffinity(0)
    pinned = {args.cpu} if args.cpu >= 0 and args.threads == 1 else allowed
    from gensim.models import KeyedVectors

    with tempfile.TemporaryDirectory(prefix="lumen-compare-load-") as d:
        texts = {"text_24310x100.txt": (24310, 100), "text_100000x100.txt": (100000, 100),
                 "text_50000x300.txt": (50000, 300)}
        for name, (V, dim) in texts.items():
            write_text(os.path.join(d, name), V, dim, seed=V)
        if not args.text_only:
            write_binary_tables(d)
        lumen = lumen_times(args.build, d, args.threads, args.repetitions, args.text_only)
        print(f"# threads {args.threads} (gensim is single-threaded); times are medians; ratio = peer / lumen "
              "(text: the median of the rounds' ratios)"
              + (f"; gensim and lumen's {args.threads}-thread runs on CPU {args.cpu}" if pinned != allowed else ""))
        # Each text's parse in rounds, gensim then lumen (pinned) then lumen at threads2 (not pinned), so that the
        # VM's slow minutes (its speed moves by up to 40%) fall on both sides of a ratio alike.
        for name in texts:
            path = os.path.join(d, name)
            KeyedVectors.load_word2vec_format(path, binary=False)  # warm the page cache
            gs, gcs, ls, lcs, l2s, l2cs = [], [], [], [], [], []
            for _ in range(args.repetitions):
                os.sched_setaffinity(0, pinned)  # (inherited by bench_load)
                wall, used = timed(lambda: KeyedVectors.load_word2vec_format(path, binary=False))
                gs.append(wall), gcs.append(used)
                one = lumen_times(args.build, d, args.threads, 1, only=name)
                os.sched_setaffinity(0, allowed)
                two = lumen_times(args.build, d, args.threads2, 1, only=name)
                ls.append(one[name]), lcs.append(one["cpu " + name]), l2s.append(two[name]), l2cs.append(two["cpu " + name])
            g, gc, l1, c1, l2, c2 = (statistics.median(v) for v in (gs, gcs, ls, lcs, l2s, l2cs))
            # Ratios: the median of the rounds' own ratios (a slow minute inside one round counts once).
            r1 = statistics.median(a / b for a, b in zip(gs, ls))
            r2 = statistics.median(a / b for a, b in zip(gs, l2s))
            mb = os.path.getsize(path) / 1e6
            print(f"parse {name[5:-4]:>12} word2vec text  gensim {g * 1e3:9.1f} ms  lumen {l1 * 1e3:8.1f} ms"
                  f"  ratio {r1:6.1f}x  ({mb / l1:.0f} MB/s)   (lumen {args.threads2} threads "
                  f"{l2 * 1e3:.1f} ms, {r2:.1f}x, {l1 / l2:.2f}x its {args.threads}-thread time)")
            print(f"      CPU seconds (user+sys)  gensim {gc * 1e3:9.1f} ms  lumen {c1 * 1e3:8.1f} ms  ratio "
                  f"{gc / c1:6.1f}x  ({mb / c1:.0f} MB per CPU-second)   (lumen {args.threads2} threads "
                  f"{c2 * 1e3:.1f} ms CPU)")
            print(f"      by round, ms: gensim {' '.join(f'{x * 1e3:.0f}' for x in gs)}; lumen "
                  f"{' '.join(f'{x * 1e3:.1f}' for x in ls)}; lumen {args.threads2} threads "
                  f"{' '.join(f'{x * 1e3:.1f}' for x in l2s)}")
        os.sched_setaffinity(0, allowed)
        big = os.path.join(d, "text_50000x300.txt")
        lumen_exe = os.path.join(args.build, "lumen")
        gensim_rss = peak_rss([sys.executable, "-c", "import sys; from gensim.models import KeyedVectors; "
                               "KeyedVectors.load_word2vec_format(sys.argv[1], binary=False)", big])
        gensim_base = peak_rss([sys.executable, "-c", "from gensim.models import KeyedVectors"])
        table_mb = 50000 * 300 * 4 / 1e6
        print(f"peak RSS loading 50000x300 ({os.path.getsize(big) / 1e6:.0f} MB text, table {table_mb:.0f} MB f32):"
              f"  gensim {gensim_rss:.0f} MB (python + gensim alone {gensim_base:.0f} MB)", end="")
        for t in sorted({args.threads, args.threads2}):
            print(f"  lumen {t} thread(s) {peak_rss([lumen_exe, '--threads', str(t), 'info', big, '--json']):.0f} MB",
                  end="")
        print(f"  (lumen with no table: {peak_rss([lumen_exe, 'params', 'gpt2', '--json']):.0f} MB)")
        name = "text_50000x300.txt"
        print(f"cache 50000x300 text, CPU (all threads): parse {lumen['cpu ' + name] * 1e3:.1f} ms, later opens "
              f"{lumen['cpu cached ' + name] * 1e3:.2f} ms: {lumen['cpu ' + name] / lumen['cpu cached ' + name]:.0f}x")
        print(f"cache 50000x300 text ({args.threads} thread(s)): first open (parse + write the entry) "
              f"{lumen['first ' + name] * 1e3:.1f} ms, parse alone {lumen[name] * 1e3:.1f} ms, later opens (map the "
              f"entry) {lumen['cached ' + name] * 1e3:.2f} ms: {lumen[name] / lumen['cached ' + name]:.0f}x the parse"
              f" (target >= 100x)")
        if args.text_only:
            return
        g = {k.split(" ")[0]: v for k, v in lumen.items() if k.endswith(" gpt2.npy")}
        print(f"open + one query, 50257 x 768 .npy (no vocabulary; read once through lumen's map, then in the page "
              f"cache): open+query {g['open_query_ms']:.2f} ms, query alone {g['query_ms']:.2f} ms: "
              f"{g['ratio']:.2f}x (target <= 1.2x; the median of paired iterations' ratios)")
        gpt2 = os.path.join(d, "gpt2.npy")
        print(f"  (CPU, all threads: open+query {g['open_query_cpu_ms']:.2f} ms, query alone {g['query_cpu_ms']:.2f} "
              f"ms: {g['ratio_cpu']:.2f}x)")
        print(f"  (the machine's floor, no lumen code: one plain pass over a fresh map of the file "
              f"{g['plain_fresh_ms']:.2f} ms, over a warm one {g['plain_warm_ms']:.2f} ms: {g['plain_ratio']:.2f}x)")

        # The whole-process times first: NumPy's BLAS threads spin in this process for a while after each call,
        # on the cores the child would use.
        cli, cli_cpu = child_time([lumen_exe, "neighbours", gpt2, "123", "--json"], args.repetitions)
        start, start_cpu = child_time([lumen_exe, "--version"], max(args.repetitions, 11))

        def numpy_open_query():  # the same job in NumPy: map, row norms, cosine scores, the top 11
            E = np.load(gpt2, mmap_mode="r")
            q = np.array(E[123])
            scores = (E @ q) / (np.linalg.norm(E, axis=1) * np.linalg.norm(q))
            top = np.argpartition(-scores, 11)[:11]
            return top[np.argsort(-scores[top])]
        peer = median_time(numpy_open_query, args.repetitions)
        print(f"  NumPy (np.load mmap, norms, E @ q, argpartition; its BLAS on every core): {peer * 1e3:.2f} ms: "
              f"lumen's open+query {peer * 1e3 / g['open_query_ms']:.1f}x faster")
        print(f"`lumen neighbours gpt2.npy 123 --json` (a whole process: start, open, norms, search, print): "
              f"{cli * 1e3:.1f} ms wall, {cli_cpu * 1e3:.1f} ms CPU; of which start-up (`lumen --version`: load, "
              f"link, set up, exit) {start * 1e3:.1f} ms wall, {start_cpu * 1e3:.1f} ms CPU")
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
