"""Opening a GPT-2-sized .npy (50257 x 768 f32, 154 MB) maps it: no V x d allocation, the vectors are the file."""
import os
import pathlib

import numpy as np

import lumen


def rss_bytes():
    for line in pathlib.Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


def test_npy_is_mapped_not_copied(tmp_path):
    path = tmp_path / f"gpt2-{os.getpid()}.npy"
    V, d = 50257, 768
    m = np.lib.format.open_memmap(path, mode="w+", dtype=np.float32, shape=(V, d))  # sparse: nothing allocated
    m[123] = np.arange(d, dtype=np.float32)
    m.flush()
    del m
    before = rss_bytes()
    t = lumen.load(path)
    v = t.vectors
    row = t["123"]
    grown = rss_bytes() - before
    assert t.mapped
    assert v.shape == (V, d) and v.dtype == np.float32
    assert np.shares_memory(v, row) and np.array_equal(row, np.arange(d, dtype=np.float32))
    assert grown < V * d * 4 // 4, f"opening grew RSS by {grown} bytes"  # a copy would be 154 MB
    # A copy elsewhere (the words list) is not E: V strings only.
    assert len(t.words) == V


def test_safetensors_is_mapped(tmp_path):
    a = np.random.default_rng(0).standard_normal((1000, 16)).astype(np.float32)
    path = tmp_path / f"t-{os.getpid()}.safetensors"
    lumen.Table.from_array(a).save(path)
    t = lumen.load(path)
    assert t.mapped and np.array_equal(t.vectors, a)
    v = t.vectors
    del t
    assert np.array_equal(v, a)  # the view keeps the mapping alive
