#!/usr/bin/python3
"""lumen's embedding layer against PyTorch, in one run, at one thread count.

GPT-2 small's shape: V = 50257, d = 768, ids (8, 1024). Cases: forward (F.embedding), backward
(aten::embedding_dense_backward, what autograd of nn.Embedding calls), the one-hot path (one-hot matrix
then matmul), and logits for 1024 hidden vectors (h @ E^T). One line per case: both times and the ratio
(torch time / lumen time: > 1 means lumen is faster). Each side's best time over alternating rounds.

Run with Debian's Python (python3-torch): /usr/bin/python3 bench/compare_embedding.py --build build
"""
import argparse
import json
import os
import subprocess
import sys
import time
import machine  # bench/machine.py

V, D, B, T, HIDDEN = 50257, 768, 8, 1024, 1024


def lumen_times(build, threads, onehot_b, repetitions):
    exe = next((p for p in (os.path.join(build, "bench", "bench_embedding"), os.path.join(build, "bench_embedding"))
                if os.path.exists(p)), None)
    if exe is None:
        sys.exit(f"bench_embedding not found in {build}/bench: build it first (cmake --build {build} --target bench_embedding)")
    env = dict(os.environ, LUMEN_BENCH_THREADS=str(threads), LUMEN_BENCH_ONEHOT_B=str(onehot_b),
               OPENBLAS_NUM_THREADS=str(threads))
    out = subprocess.run([exe, "--benchmark_format=json", f"--benchmark_repetitions={repetitions}"],
                         env=env, check=True, capture_output=True, text=True).stdout
    times = {}
    for b in json.loads(out)["benchmarks"]:
        if b.get("run_type") == "aggregate":
            continue
        assert b["time_unit"] == "ms"
        name = b["run_name"].split("/")[0]
        times[name] = min(times.get(name, float("inf")), b["real_time"] / 1e3)
    return times


def best_of(fn, repetitions, min_time=0.5):
    """Minimum over `repetitions` of the mean time per call, each repetition running >= min_time."""
    fn()  # warm up
    results = []
    for _ in range(repetitions):
        n, start = 0, time.perf_counter()
        while True:
            fn()
            n += 1
            elapsed = time.perf_counter() - start
            if elapsed >= min_time:
                break
        results.append(elapsed / n)
    return min(results)


def torch_times(threads, onehot_b, repetitions):
    import torch
    import torch.nn.functional as F
    torch.set_num_threads(threads)
    g = torch.Generator().manual_seed(1)
    E = torch.randn(V, D, generator=g) * 0.02
    ids = torch.randint(0, V, (B, T), generator=g)
    dY = torch.full((B, T, D), 1e-3)
    h = torch.randn(HIDDEN, D, generator=g)
    oh_ids = ids[:onehot_b].reshape(-1, 1)
    t = {}
    with torch.no_grad():
        t["BM_Forward"] = best_of(lambda: F.embedding(ids, E), repetitions)
        t["BM_Backward"] = best_of(lambda: torch.ops.aten.embedding_dense_backward(dY, ids, V, -1, False), repetitions)

        def onehot():
            x = torch.zeros(oh_ids.shape[0], V).scatter_(1, oh_ids, 1.0)  # the (N, V) one-hot matrix
            return x @ E
        t["BM_OneHot"] = best_of(onehot, 3, min_time=0.0)
        t["BM_Logits"] = best_of(lambda: torch.matmul(h, E.t()), repetitions)
    return t, torch.__version__


def main():
    print(machine.describe())  # every figure names the CPU that produced it
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", default="build", help="build directory holding bench_embedding")
    ap.add_argument("--threads", type=int, default=os.cpu_count(), help="threads for both (default: all cores)")
    ap.add_argument("--repetitions", type=int, default=3, help="repetitions per round (each side keeps its best)")
    ap.add_argument("--rounds", type=int, default=2, help="alternating lumen/torch rounds")
    ap.add_argument("--onehot-batch", type=int, default=B,
                    help="rows of ids (of 1024) in the one-hot case (default 8: a 1.6 GB one-hot matrix)")
    a = ap.parse_args()

    # Rounds alternate lumen and torch, and each side keeps its best time: on a shared machine, load that
    # comes and goes then hits both sides alike instead of whichever ran during a busy spell.
    lt, tt = {}, {}
    for _ in range(a.rounds):
        for k, v in lumen_times(a.build, a.threads, a.onehot_batch, a.repetitions).items():
            lt[k] = min(lt.get(k, float("inf")), v)
        t, version = torch_times(a.threads, a.onehot_batch, a.repetitions)
        for k, v in t.items():
            tt[k] = min(tt.get(k, float("inf")), v)
    print(f"V={V} d={D} ids {B}x{T}, {a.threads} threads (lumen, OpenBLAS and torch {version}); "
          f"best of {a.rounds} alternating rounds x {a.repetitions} repetitions")
    cases = [
        ("forward (gather)", "BM_Forward", "F.embedding", 4.0),
        ("backward", "BM_Backward", "embedding_dense_backward", 2.0),
        ("backward + zero_grad", "BM_ZeroGradBackward", "embedding_dense_backward", None),
        (f"one-hot path ({a.onehot_batch}x{T})", "BM_OneHot", "one-hot @ E", None),
        (f"logits ({HIDDEN} x V)", "BM_Logits", "h @ E.T", 0.9),
    ]
    for label, key, peer, target in cases:
        ours, theirs = lt[key], tt[key.replace("ZeroGrad", "")]
        ratio = theirs / ours
        verdict = "" if target is None else (f"  target >= {target}x: " + ("met" if ratio >= target else "MISSED"))
        print(f"{label:<26} lumen {ours * 1e3:9.3f} ms   torch {peer:<25} {theirs * 1e3:9.3f} ms   "
              f"ratio {ratio:6.2f}x{verdict}")
    # The forward pass's floor: copying the same bytes (memcpy, same threads) in the same run. A gather cannot
    # beat it, so torch time / memcpy time is the largest forward ratio this machine allows.
    if "BM_Memcpy" in lt:
        mc, fw, tf = lt["BM_Memcpy"], lt["BM_Forward"], tt["BM_Forward"]
        print(f"{'memcpy, same bytes':<26} lumen {mc * 1e3:9.3f} ms   (the forward's floor: lumen's forward at "
              f"{fw / mc:.2f}x memcpy time; torch's F.embedding at {tf / mc:.2f}x, the largest forward ratio possible here)")


if __name__ == "__main__":
    main()
