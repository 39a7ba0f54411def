"""lumen.nn.Embedding, lumen.params, lumen.Tokenizer, lumen.project, lumen.train.word2vec through Python."""
import pathlib

import numpy as np
import pytest

import lumen


def test_embedding_forward_backward_are_gather_and_scatter_add():
    emb = lumen.nn.Embedding(50, 8, std=0.5, seed=3)
    E = emb.weight.copy()
    ids = np.array([[1, 2, 1], [49, 0, 1]])
    Y = emb.forward(ids)
    assert Y.shape == (2, 3, 8) and np.array_equal(Y, E[ids])
    dY = np.random.default_rng(0).standard_normal(Y.shape).astype(np.float32)
    emb.backward(ids, dY)
    want = np.zeros_like(E)
    for i, row in zip(ids.ravel(), dY.reshape(-1, 8)):
        want[i] += row  # ascending positions, as the layer adds them
    assert np.array_equal(emb.grad, want)
    emb.zero_grad()
    assert not emb.grad.any()
    with pytest.raises(ValueError):
        emb.forward(np.array([50]))
    same = lumen.nn.Embedding(50, 8, std=0.5, seed=3)
    assert np.array_equal(same.weight, E)  # lumen's Rng: the same table for a seed
    scaled = lumen.nn.Embedding.from_array(E, scale_sqrt_d=True, padding_idx=0)
    assert np.allclose(scaled(np.array([2])), E[2] * np.sqrt(8))


def test_params():
    p = lumen.params("gpt2")
    assert p["token_embedding"] == 50257 * 768 and p["shape"]["d_model"] == 768 and p["total"] > 124_000_000
    assert lumen.params("gpt2", sweep=True)["sweep"]
    with pytest.raises(ValueError, match="neither a preset"):
        lumen.params("gpt5")


def test_params_of_a_checkpoint_as_the_cli_counts_it():
    # A checkpoint directory, or any file in it, counts its config.json (as `lumen params DIR`), not "unknown preset".
    ckpt = pathlib.Path(__file__).resolve().parents[2] / "tests/data/model/gpt2"
    assert lumen.params(str(ckpt))["total"] == 36096
    assert lumen.params(str(ckpt / "model.safetensors"))["shape"]["vocab"] == 300


def test_tokenizer():
    try:
        tok = lumen.Tokenizer("gpt2")
    except ValueError as e:
        pytest.skip(str(e))
    assert tok.encode("The cat sat") == [464, 3797, 3332]
    assert tok.decode(tok.encode("héllo <|endoftext|>")) == "héllo <|endoftext|>"
    assert tok.label(3797) == "␣cat" and tok.find(" cat") == 3797 and len(tok) == 50257


def test_project_pca():
    m = lumen.project(lumen.load("toy"), "pca")
    assert m["xy"].shape == (30, 2) and m["xy"].dtype == np.float32
    assert sum(m["variance_ratio"]) == pytest.approx(1.0)
    assert 0 <= m["knn_preservation"][0] <= 1 and m["words"][0] == "man"
    with pytest.raises(ValueError):
        lumen.project(lumen.load("toy"), "mds")


def test_project_leaves_non_finite_rows_out_and_says_which():
    rng = np.random.default_rng(1)
    E = rng.normal(size=(12, 4)).astype(np.float32)
    E[2, 1], E[5, 3] = np.nan, np.inf
    t = lumen.Table.from_array(E, [f"w{i}" for i in range(12)])
    for method in ("pca", "tsne"):
        m = lumen.project(t, method, perplexity=3)
        assert list(m["left_out"]) == [2, 5] and len(m["words"]) == 10 and "w2" not in m["words"]
        assert np.isfinite(m["xy"]).all()
        assert any("left out" in line for line in m["caption"])


def test_word2vec_trains_and_reports(tmp_path, random_corpus):
    corpus = random_corpus(0, per_line=20, vocab=30)
    seen = []
    r = lumen.train.word2vec(corpus, dim=8, epochs=2, min_count=1, threads=1, progress=seen.append)
    t = r["table"]
    assert r["V"] == 30 and r["d"] == 8 and r["output"] is None and r["epochs"] == 2
    assert len(t) == 30 and t.d == 8 and np.isfinite(t.vectors).all()
    assert all("words_done" in s for s in seen)
    with pytest.raises(OSError):
        lumen.train.word2vec(tmp_path / "missing.txt")


def test_lm_and_word2vec_write_outputs_as_the_cli_does(tmp_path, random_corpus):
    corpus = random_corpus(1)
    r = lumen.train.lm(corpus, context=2, dim=8, hidden=8, epochs=2, tie=False, min_count=1, threads=1,
                       output=tmp_path / "lm.vec")
    assert r["tied"] is False and len(r["epochs"]) == 2 and r["heldout_perplexity"] == r["epochs"][-1]["heldout_perplexity"]
    assert r["table"].d == 8 and r["head"].d == 8 and len(r["table"]) == r["V"] == 22  # </s>, <unk>
    assert r["output_head"] == str(tmp_path / "lm.vec.out")
    assert lumen.load(tmp_path / "lm.vec.out").d == 8 and (tmp_path / "lm.vec.vocab").exists()
    tied = lumen.train.lm(corpus, context=2, dim=8, hidden=8, min_count=1, threads=1)
    assert tied["head"] is None and tied["output"] is None
    w = lumen.train.word2vec(corpus, dim=8, epochs=1, min_count=1, threads=1, output=tmp_path / "w.bin")
    assert w["output"] == str(tmp_path / "w.bin") and w["vocab_file"] == str(tmp_path / "w.bin.vocab")
    assert lumen.load(tmp_path / "w.bin").d == 8 and len(w["table"]) == 20 and (tmp_path / "w.bin.vocab").exists()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["corpus.txt", "lm.vec", "lm.vec.out", "lm.vec.vocab",
                                                          "w.bin", "w.bin.vocab"]
    with pytest.raises(ValueError):
        lumen.train.lm(corpus, context=0)


def test_gpt_trains_on_the_cli_session_and_gives_its_json(tmp_path, random_corpus):
    corpus = random_corpus(2)
    opts = dict(tokenizer="words", max_words=30, layers=1, d_model=16, heads=2, context=8, steps=6, batch=4,
                eval_every=3, eval_batches=2, threads=1)
    seen = []
    r = lumen.train.gpt(corpus, output=tmp_path / "m", progress=seen.append, **opts)
    assert [s["step"] for s in seen] == [1, 2, 3, 4, 5, 6] and all(s["steps"] == 6 for s in seen)
    assert r["output"] == str(tmp_path / "m") and len(r["evals"]) == 2 and r["tied"] is True
    assert r["heldout_loss"] == r["evals"][-1]["heldout_loss"]
    assert lumen.load(tmp_path / "m" / "model.safetensors").V == r["V"]
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == ["config.json", "model.safetensors",
                                                                  "tokenizer.json"]
    with pytest.raises(ValueError, match="tokenizer="):
        lumen.train.gpt(corpus, output=tmp_path / "x", tokenizer="bytes")
    # The CLI's `train gpt --json` is the same session: python/tests/test_json_parity.py.
