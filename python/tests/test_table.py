"""lumen.load and lumen.Table: the vectors without a copy, lookups, neighbours, analogies, saving every format."""
import numpy as np
import pytest

import lumen


@pytest.fixture
def toy():
    return lumen.load("toy")


def test_vectors_are_a_view_of_the_table(toy):
    v = toy.vectors
    assert v.shape == (len(toy), toy.d) == toy.shape
    assert v.dtype == np.float32
    assert not v.flags.writeable
    assert np.shares_memory(v, toy["king"])
    assert np.shares_memory(toy.vectors, v)  # a second view, the same memory
    assert toy.words[toy.id("king")] == "king"
    assert np.array_equal(toy["king"], v[toy.id("king")])
    assert np.array_equal(toy[-1], v[-1])
    assert "king" in toy and "kingg" not in toy


def test_the_view_keeps_the_table_alive():
    v = lumen.load("toy").vectors
    import gc

    gc.collect()
    assert v.base is not None and np.isfinite(v).all() and v.shape[0] == 30


def test_neighbours_word_list_and_vectors_agree(toy):
    one = toy.neighbours("king", k=5)
    assert len(one) == 5 and all(w != "king" for w, _ in one)
    assert one[0][0] == "princess"
    kept = toy.neighbours("king", k=1, exclude=False)
    assert kept[0][0] == "king" and kept[0][1] == pytest.approx(1.0)
    batch = toy.neighbours(["king", "cat"] * 6, k=5)  # 12 queries: through GEMM, each leaving itself out
    assert batch[0] == one
    assert batch[1] == toy.neighbours("cat", k=5)
    by_vector = toy.neighbours(toy["king"], k=6, exclude=False)
    assert [w for w, _ in by_vector[1:]] == [w for w, _ in one]
    D, I = toy.search(np.stack([toy["king"], toy["cat"]]), k=6)
    assert D.shape == I.shape == (2, 6) and I.dtype == np.int64
    assert [toy.words[i] for i in I[0][1:]] == [w for w, _ in one]
    assert toy.neighbours("king", k=1000)[-1][0]  # k beyond the rows: all of them
    assert len(toy.neighbours("king", k=1000)) == len(toy) - 1


def test_analogy_similarity_doesnt_match(toy):
    assert toy.analogy("man", "king", "woman", k=1)[0][0] == "queen"
    assert len(toy.analogy("man", "king", "woman", k=3, method="mul")) == 3
    assert toy.similarity("cat", "dog") > toy.similarity("cat", "parliament")
    assert toy.doesnt_match(["cat", "dog", "puppy", "parliament"]) == "parliament"


@pytest.mark.parametrize("fmt,name", [("word2vec-text", "t.vec"), ("word2vec-binary", "t.bin"), ("glove", "t.glove"),
                                      ("safetensors", "t.safetensors"), ("npy", "t.npy"),
                                      ("projector-tsv", "vectors.tsv")])
def test_from_array_save_load_every_format(tmp_path, fmt, name):
    rng = np.random.default_rng(1)
    a = rng.standard_normal((50, 7)).astype(np.float32)
    words = [f"w{i}" for i in range(50)]
    t = lumen.Table.from_array(a, words)
    assert np.array_equal(t.vectors, a) and not np.shares_memory(t.vectors, a)  # a copy, owned by the table
    path = tmp_path / name
    t.save(path, format=fmt)
    back = lumen.load(path)
    assert back.words == words
    assert np.array_equal(back.vectors, a)


def test_errors_are_python_exceptions(toy, tmp_path):
    with pytest.raises(KeyError) as e:
        toy["kingg"]
    assert isinstance(e.value, lumen.UnknownWordError) and "king" in e.value.suggestions and e.value.word == "kingg"
    with pytest.raises(KeyError):
        toy.neighbours("qeen")
    with pytest.raises(ValueError, match="k must be at least 1"):
        toy.neighbours("king", k=0)
    with pytest.raises(ValueError, match="metric"):
        toy.neighbours("king", metric="manhattan")
    with pytest.raises(ValueError, match="dimensions"):
        toy.neighbours(np.zeros(5, dtype=np.float32))
    with pytest.raises(ValueError):
        lumen.Table.from_array(np.zeros((2, 3)), ["a", "a"])
    with pytest.raises(IndexError):
        toy[30]
    bad = tmp_path / "bad.vec"
    bad.write_text("2 3\nking 1 2 3\nqueen 1 x 3\n")
    with pytest.raises(lumen.ParseError) as e:
        lumen.load(bad)
    assert isinstance(e.value, ValueError)
    assert e.value.file == str(bad) and e.value.line == 3
    with pytest.raises(OSError):
        lumen.load(tmp_path / "missing.vec")
    with pytest.raises(ValueError):
        lumen.load("toy", dtype="f64")
    with pytest.raises(TypeError):
        toy.neighbours(3.5)


def test_dtype_and_limit():
    t = lumen.load("toy", dtype="f16", limit=10)
    assert len(t) == 10 and t.dtype == "f16" and t.vectors.dtype == np.float16
    assert t.neighbours("man", k=2)[0][0] in t.words


def test_threads():
    before = lumen.get_threads()
    lumen.set_threads(1)
    try:
        assert lumen.get_threads() == 1
        assert lumen.load("toy").neighbours("king", k=3, threads=2)
    finally:
        lumen.set_threads(0)
    assert lumen.get_threads() == before or before > 0


def test_threads_past_the_bound_are_a_value_error():
    with pytest.raises(ValueError, match="at most 4096"):
        lumen.load("toy", threads=40000)
    before = lumen.get_threads()
    with pytest.raises(ValueError, match="at most 4096"):
        lumen.set_threads(10**9)
    assert lumen.get_threads() == before


def test_python_threads_share_a_table():
    import threading

    t = lumen.Table.from_array(np.random.default_rng(2).standard_normal((60000, 32), dtype=np.float32))
    results = []
    threads = [threading.Thread(target=lambda: results.append(t.neighbours(t[7], k=3, exclude=False)))
               for _ in range(4)]
    for th in threads:
        th.start()
    for th in threads:
        th.join(timeout=60)
    assert not any(th.is_alive() for th in threads), "deadlock: a thread never returned"
    assert len(results) == 4 and all(r == results[0] for r in results) and results[0][0][0] == "7"


def test_info_is_the_clis_info_json(tmp_path, data):
    import json
    import os
    import pathlib
    import subprocess
    path = data / "formats" / next(p.name for p in (data / "formats").iterdir() if p.suffix == ".txt")
    t = lumen.load(path)
    info = t.info()
    assert info["V"] == t.V and info["d"] == t.d and info["source"] == str(path)
    assert info["norm"]["min"] <= info["norm"]["median"] <= info["norm"]["max"]
    cli = pathlib.Path(os.environ.get("LUMEN_BINARY_DIR", "")) / "lumen"
    if not cli.exists():
        pytest.skip("the CLI is not built beside the module (LUMEN_BINARY_DIR)")
    c = json.loads(subprocess.run([str(cli), "info", str(path), "--json"], check=True, capture_output=True,
                                  text=True).stdout)
    assert c == info  # one builder (io::table_info_json): the same keys and the same numbers


def test_anisotropy_equals_numpy_on_the_same_pairs(data):
    t = lumen.load(data / "formats" / "lee_fasttext.vec")
    a = t.anisotropy(pairs=3000, seed=4, keep_pairs=True)
    ids = a["pair_ids"]
    assert ids.shape == (3000, 2) and (ids[:, 0] != ids[:, 1]).all()
    E = t.vectors.astype(np.float64)
    x, y = E[ids[:, 0]], E[ids[:, 1]]
    cos = (x * y).sum(1) / (np.linalg.norm(x, axis=1) * np.linalg.norm(y, axis=1))
    assert a["mean_cosine"] == pytest.approx(cos.mean(), abs=1e-9)
    assert a["std_cosine"] == pytest.approx(cos.std(), abs=1e-9)
    # The top direction's share of the variance, from NumPy's eigenvalues (every row: V is below max_rows).
    assert a["pca_rows"] == t.V
    w = np.linalg.eigvalsh(np.cov(E, rowvar=False))
    assert a["top_direction"] == pytest.approx(w[-1] / w.sum(), rel=1e-5)
    assert t.anisotropy(pairs=3000, seed=4)["mean_cosine"] == a["mean_cosine"]  # deterministic for a seed
    info = t.info()["anisotropy"]
    assert set(info) == {"rows", "pairs", "all_pairs", "mean_cosine", "std_cosine", "pca_rows", "top_direction"}
    assert info == t.anisotropy()  # info reports the defaults
