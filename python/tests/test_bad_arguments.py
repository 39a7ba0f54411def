"""Bad arguments raise the documented Python exceptions (ValueError, TypeError, IndexError, KeyError), never a
pybind11 cast RuntimeError, and never answer something else: a NUL in a path, a huge int, a float id, one word."""
import os
import shutil

import numpy as np
import pytest

import lumen


@pytest.fixture
def toy():
    return lumen.load("toy")


def test_ints_past_int64_are_index_or_value_errors(toy):
    for key in (2**63, -(2**63) - 1, 10**30):
        with pytest.raises(IndexError, match=f"row {key} outside a table of {len(toy)} rows"):
            toy[key]
    assert np.array_equal(toy[-1], toy[len(toy) - 1])
    with pytest.raises(ValueError, match=r"exclude: id 9223372036854775808 at position 0 is out of range"):
        toy.neighbours("king", exclude=[2**63])
    with pytest.raises(ValueError, match="out of range"):
        toy.neighbours("king", exclude=[len(toy)])
    with pytest.raises(ValueError, match="threads must be 0"):
        toy.neighbours("king", threads=2**64)
    with pytest.raises(ValueError, match="out of range"):
        lumen.project(toy, "pca", words=["king", 2**70])
    with pytest.raises(TypeError, match="not a single str"):
        toy.neighbours("king", exclude="queen")


def test_a_nul_byte_in_a_path_is_a_value_error(tmp_path):
    table = tmp_path / "t.vec"
    table.write_text("1 2\nking 1 2\n")
    (tmp_path / "t").write_text("1 2\nqueen 3 4\n")  # the prefix a cut name would open instead
    for path in (str(table).replace("t.vec", "t\x00.vec"), str(tmp_path / "t") + "\x00.vec"):
        with pytest.raises(ValueError, match="embedded null byte"):
            lumen.load(path)
    with pytest.raises(ValueError, match="embedded null byte"):
        lumen.load(table).save(str(tmp_path / "out\x00.vec"))
    assert not list(tmp_path.glob("out*"))


def test_a_surrogate_escaped_path_opens_the_file_it_names(tmp_path):
    raw = os.fsencode(str(tmp_path)) + b"/caf\xe9.vec"  # Latin-1 bytes: not UTF-8
    with open(raw, "wb") as f:
        f.write(b"1 2\nking 1 2\n")
    name = os.fsdecode(raw)  # what os.listdir gives: a str with a lone surrogate
    assert "\udce9" in name
    t = lumen.load(name)
    assert t.words == ["king"]
    t.save(name + ".out.vec")
    assert lumen.load(raw + b".out.vec").words == ["king"]
    shutil.rmtree(tmp_path)


def test_doesnt_match_needs_two_words_as_the_cli_does(toy):
    with pytest.raises(ValueError, match="at least two words, got 1"):
        toy.doesnt_match(["king"])
    with pytest.raises(ValueError, match="got 0"):
        toy.doesnt_match([])
    assert toy.doesnt_match(["king", "queen", "man", "apple"]) in ("king", "queen", "man", "apple")


def test_float_ids_are_refused_not_truncated():
    emb = lumen.nn.Embedding(5, 4, seed=1)
    for ids in (np.array([1.7]), [1.0, 2.0], np.array([[0.5]], dtype=np.float32)):
        with pytest.raises(TypeError, match="an integer array, not dtype float"):
            emb.forward(ids)
        with pytest.raises(TypeError, match="an integer array"):
            emb.backward(ids, np.zeros((1, 4), dtype=np.float32))
    assert emb.forward([1, 2]).shape == (2, 4)
    assert emb.forward(np.array([3], dtype=np.uint8)).shape == (1, 4)
    assert emb.forward(np.zeros((0,), dtype=np.int64)).shape == (0, 4)


def test_errors_that_suggest_an_option_name_its_keyword(tmp_path):
    """The library names options as {name}; Python spells them as its keywords, never as the CLI's flags."""
    import json
    import struct

    header = json.dumps({n: {"dtype": "F32", "shape": [2, 2], "data_offsets": [16 * i, 16 * i + 16]}
                         for i, n in enumerate(["a", "b"])}).encode()
    path = tmp_path / "two.safetensors"
    path.write_bytes(struct.pack("<Q", len(header)) + header + np.arange(8, dtype="<f4").tobytes())
    with pytest.raises(ValueError, match="choose one with tensor= from: a, b") as e:
        lumen.load(path)
    assert "--" not in str(e.value)
    assert lumen.load(path, tensor="b").d == 2
    vec = tmp_path / "bad.vec"
    vec.write_bytes(b"2 2\n\xff\xfe 1 0\nb 0 1\n")
    with pytest.raises(ValueError, match=r"use unicode_errors= replace or ignore") as e:
        lumen.load(vec)
    assert "--" not in str(e.value)
    with pytest.raises(ValueError, match="unknown unicode_errors= 'sometimes'"):
        lumen.load(vec, unicode_errors="sometimes")
