"""The same answers as gensim's KeyedVectors, through the Python API, on the sample tables (skipped without
gensim: bench/setup-peers.sh installs it)."""
import numpy as np
import pytest

import lumen

gensim_models = pytest.importorskip("gensim.models", reason="gensim is not installed (bench/setup-peers.sh)")
KeyedVectors = gensim_models.KeyedVectors

TABLES = [("lee_fasttext.vec", dict(binary=False)), ("crime-and-punishment.vec", dict(binary=False)),
("test_glove.txt", dict(binary=False, no_header=True))]


@pytest.mark.parametrize("name,kw", TABLES)
def test_same_as_gensim(data, name, kw):
    path = data / "formats" / name
    kv = KeyedVectors.load_word2vec_format(str(path), **kw)
    t = lumen.load(path)
    assert t.words == list(kv.index_to_key)
    assert np.array_equal(t.vectors, kv.vectors)
    words = t.words[:40:4]
    for w in words:
        ours = t.neighbours(w, k=10)
        theirs = kv.most_similar(w, topn=10)
        assert [x for x, _ in ours] == [x for x, _ in theirs], w
        np.testing.assert_allclose([s for _, s in ours], [s for _, s in theirs], rtol=1e-5, atol=1e-6)
    batch = t.neighbours(words, k=10)
    assert batch == [t.neighbours(w, k=10) for w in words]
    a, b, c = t.words[3], t.words[5], t.words[8]
    ours = t.analogy(a, b, c, k=5)
    theirs = kv.most_similar(positive=[b, c], negative=[a], topn=5)
    assert [x for x, _ in ours] == [x for x, _ in theirs]
    np.testing.assert_allclose([s for _, s in ours], [s for _, s in theirs], rtol=1e-5, atol=1e-6)
    assert t.similarity(a, b) == pytest.approx(float(kv.similarity(a, b)), rel=1e-5, abs=1e-6)
    assert t.doesnt_match(words[:5]) == kv.doesnt_match(words[:5])


def test_exchange_with_gensim(data):
    t = lumen.load(data / "formats" / "lee_fasttext.vec")
    kv = t.to_gensim()
    assert list(kv.index_to_key) == t.words and np.array_equal(kv.vectors, t.vectors)
    back = lumen.Table.from_gensim(kv)
    assert back.words == t.words and np.array_equal(back.vectors, t.vectors)


def test_eval_same_fields_as_cli(data):
    t = lumen.load(data / "formats" / "lee_fasttext.vec")
    r = lumen.eval.similarity(t, data / "wordsim353.tsv")
    for key in ("pearson", "spearman", "pairs", "oov", "oov_ratio", "oov_percent", "restrict", "malformed", "table",
                "file", "case_insensitive", "seconds"):
        assert key in r
    kv = KeyedVectors.load_word2vec_format(str(data / "formats" / "lee_fasttext.vec"))
    (pearson, _), (spearman, _), oov = kv.evaluate_word_pairs(str(data / "wordsim353.tsv"))
    assert r["pearson"] == pytest.approx(pearson, abs=1e-6)
    assert r["spearman"] == pytest.approx(spearman, abs=1e-6)
    assert r["oov_percent"] == pytest.approx(oov, abs=1e-9)
