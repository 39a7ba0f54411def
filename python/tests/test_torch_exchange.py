"""A Table's vectors go to PyTorch without a copy: torch.from_numpy(table.vectors) is a tensor over the table's own
memory (a mapped file's pages too). DLPack cannot carry them: NumPy's __dlpack__ refuses read-only arrays (DLPack
has no read-only flag), and the views are read-only, so torch.from_dlpack(table.vectors) raises; it takes only a
writable copy. bf16 tables give uint16 bits, which PyTorch 1.13 cannot take from NumPy either. Skipped where
PyTorch (Debian's python3-torch) is not installed."""
import gc
import os
import warnings

import numpy as np
import pytest

import lumen

torch = pytest.importorskip("torch")


def shared(table):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # PyTorch warns that the array is read-only
        return torch.from_numpy(table.vectors)


def test_from_numpy_shares_the_table():
    t = lumen.load("toy")
    x = shared(t)
    assert tuple(x.shape) == t.shape and x.dtype == torch.float32
    assert x.data_ptr() == t.vectors.__array_interface__["data"][0]
    assert np.shares_memory(x.numpy(), t.vectors)
    assert np.shares_memory(x.numpy(), t["king"])
    assert torch.equal(x[t.id("king")], torch.tensor(t["king"]))
    want = np.array(t.vectors)
    del t
    gc.collect()
    assert np.array_equal(x.numpy(), want)  # the tensor keeps the table alive


def test_a_mapped_file_is_shared_not_read(tmp_path):
    a = np.random.default_rng(1).standard_normal((500, 12)).astype(np.float32)
    path = tmp_path / f"t-{os.getpid()}.safetensors"
    lumen.Table.from_array(a).save(path)
    t = lumen.load(path)
    assert t.mapped
    x = shared(t)
    assert np.shares_memory(x.numpy(), t.vectors) and np.array_equal(x.numpy(), a)


def test_dlpack_refuses_the_read_only_view():
    t = lumen.load("toy")
    with pytest.raises((BufferError, RuntimeError, TypeError)):
        torch.utils.dlpack.from_dlpack(t.vectors)
    copy = np.array(t.vectors)  # writable: DLPack shares the copy, not the table
    y = torch.utils.dlpack.from_dlpack(copy)
    assert np.shares_memory(y.numpy(), copy) and not np.shares_memory(y.numpy(), t.vectors)
