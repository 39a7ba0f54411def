"""Timing shared by the comparisons: the median wall time of a Python call, and the medians a Google Benchmark
binary (bench/bench_*.cpp) reports, so that both sides of a comparison are summarised the same way.
"""
import json
import os
import statistics
import subprocess
import time

_UNIT_SECONDS = {"s": 1.0, "ms": 1e-3, "us": 1e-6, "ns": 1e-9}


def median_time(fn, repeats):
    """The median wall time of fn() over `repeats` calls, in seconds."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def benchmark_medians(binary, threads, repetitions, pattern):
    """Runs the benchmarks of `binary` that match the regex `pattern`, `repetitions` times each, with
    LUMEN_BENCH_THREADS=threads; returns {run_name: its median's JSON record, with "seconds" added (real time)}."""
    env = dict(os.environ, LUMEN_BENCH_THREADS=str(threads))
    cmd = [binary, "--benchmark_format=json", f"--benchmark_repetitions={repetitions}",
           "--benchmark_report_aggregates_only=true", f"--benchmark_filter={pattern}"]
    out = subprocess.run(cmd, env=env, check=True, capture_output=True, text=True).stdout
    return {b["run_name"]: dict(b, seconds=b["real_time"] * _UNIT_SECONDS[b["time_unit"]])
            for b in json.loads(out)["benchmarks"] if b.get("aggregate_name") == "median"}
