"""Python's dicts against the CLI's --json: the same library builder behind both, so the same keys and (on one
thread, with the same seed) the same figures. The server's side is tests/serve/test_json_parity.cpp.

Every dict-returning function that has a CLI twin is here: eval.probe, eval.analogies, eval.similarity, project,
compare (two tables, and a model's two heads), drift, params, train.word2vec, train.lm and train.gpt, and the
json=True answers of Table.neighbours, analogy, similarity, doesnt_match and Tokenizer.encode (Table.info() is
checked against `lumen info --json` in test_table.py)."""
import json
import os
import pathlib
import shutil
import struct
import subprocess

import numpy as np
import pytest

import lumen


def cli(*args):
    exe = pathlib.Path(os.environ.get("LUMEN_BINARY_DIR", "")) / "lumen"
    if not exe.exists():
        pytest.skip("the CLI is not built beside the module (LUMEN_BINARY_DIR)")
    out = subprocess.run([str(exe), *map(str, args), "--json"], check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def without(d, *keys):
    return {k: v for k, v in d.items() if k not in keys}


TIMES = ("seconds", "tokens_per_second", "words_per_sec_per_thread")


def timeless(x):
    """x with the time spent (the one thing that differs from run to run) left out at every depth."""
    if isinstance(x, dict):
        return {k: timeless(v) for k, v in x.items() if k not in TIMES}
    if isinstance(x, list):
        return [timeless(v) for v in x]
    return x


def nan_as_null(x):
    """x as JSON carries it: JSON has no NaN, so the CLI prints null where Python's dict keeps float("nan")
    (python/bindings.hpp, to_python; docs/python.md)."""
    if isinstance(x, dict):
        return {k: nan_as_null(v) for k, v in x.items()}
    if isinstance(x, list):
        return [nan_as_null(v) for v in x]
    return None if isinstance(x, float) and x != x else x


CHECKPOINTS = pathlib.Path(__file__).resolve().parents[2] / "tests" / "data" / "model"


def write_vec(path, words, E):
    with open(path, "w") as f:
        f.write(f"{len(words)} {E.shape[1]}\n")
        for w, row in zip(words, E):
            f.write(w + " " + " ".join(f"{x:.6f}" for x in row) + "\n")


@pytest.fixture
def table_and_labels(tmp_path):
    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(60)]
    E = rng.normal(size=(60, 6)).astype(np.float32)
    E[:30, 0] += 2.5  # the first half is class "a", readable off column 0
    path = tmp_path / "t.vec"
    write_vec(path, words, E)
    labels = tmp_path / "labels.tsv"
    labels.write_text("".join(f"{w}\t{'a' if i < 30 else 'b'}\n" for i, w in enumerate(words)) + "nosuchword\ta\n")
    return path, labels


def test_probe_is_the_clis_probe_json(table_and_labels):
    path, labels = table_and_labels
    r = lumen.eval.probe(lumen.load(path), labels, folds=4, seed=2, threads=1)
    assert r["accuracy"] > 0.8 and r["missing"] == ["nosuchword"] and r["n"] == 60
    c = cli("probe", path, labels, "--folds", 4, "--seed", 2, "--threads", 1)
    assert without(c, "seconds") == without(r, "seconds")


def test_probe_built_in_set_needs_the_benchmark(table_and_labels):
    path, _ = table_and_labels
    with pytest.raises(ValueError, match="analogies="):
        lumen.eval.probe(lumen.load(path), "gender")


def test_project_is_the_clis_project_json(table_and_labels):
    path, _ = table_and_labels
    r = lumen.project(lumen.load(path), "pca", threads=1)
    c = cli("project", path, "--method", "pca", "--threads", 1)
    # The CLI lists the points; Python gives them as arrays (xy, rows, words) and "points" as their count.
    assert [p["token"] for p in c["points"]] == r["words"]
    assert np.allclose([[p["x"], p["y"]] for p in c["points"]], r["xy"], atol=1e-6)
    assert r["points"] == len(c["points"])
    assert without(c, "seconds", "points") == without(r, "seconds", "points", "xy", "rows", "words")
    toy = lumen.project(lumen.load("toy"), "identity")
    assert toy["method"] == "identity" and np.array_equal(toy["xy"], lumen.load("toy").vectors)


def test_lm_training_is_the_clis_train_lm_json(tmp_path, random_corpus):
    corpus = random_corpus(4, lines=200)
    r = lumen.train.lm(corpus, context=2, dim=8, hidden=8, epochs=1, min_count=1, threads=1,
                       output=tmp_path / "py.vec")
    c = cli("train", "lm", corpus, "-o", tmp_path / "cli.vec", "--context", 2, "--dim", 8, "--hidden", 8,
            "--epochs", 1, "--min-count", 1, "--threads", 1)
    # Python adds the trained tables as objects; the rest is train::lm_result_json on both sides, the files each
    # wrote (named apart) and the time spent aside.
    py = without(r, "table", "head")
    assert sorted(c) == sorted(py)
    assert c["output"] == str(tmp_path / "cli.vec") and py["output"] == str(tmp_path / "py.vec")
    files = ("output", "output_head", "vocab_file")
    assert timeless(without(c, *files)) == timeless(without(py, *files))
    assert len(py["epochs"]) == 1 and py["heldout_perplexity"] > 1


def test_word2vec_training_is_the_clis_train_word2vec_json(tmp_path, random_corpus):
    corpus = random_corpus(5, lines=200)
    r = lumen.train.word2vec(corpus, dim=8, epochs=1, min_count=1, seed=4, threads=1, output=tmp_path / "py.vec")
    c = cli("train", "word2vec", corpus, "-o", tmp_path / "cli.vec", "--dim", 8, "--epochs", 1, "--min-count", 1,
            "--seed", 4, "--threads", 1)
    py = without(r, "table")
    assert r["table"].V == py["V"] and py["output"] == str(tmp_path / "py.vec")
    files = ("output", "vocab_file")
    assert timeless(without(c, *files)) == timeless(without(py, *files))
    assert np.array_equal(lumen.load(tmp_path / "cli.vec").vectors, lumen.load(tmp_path / "py.vec").vectors)


# The questions asked of a table: search::*_json on both sides, with json=True.
def test_search_answers_are_the_clis_json(table_and_labels):
    path, _ = table_and_labels
    t = lumen.load(path)
    assert t.neighbours("w1", k=3, json=True) == cli("neighbours", path, "w1", "-k", 3)
    assert t.neighbours("w1", k=99, metric="dot", json=True) == cli("neighbours", path, "w1", "-k", 99, "--metric", "dot")
    both = t.neighbours(["w1", "w2"], k=2, json=True)
    assert [b["query"] for b in both] == ["w1", "w2"] and both[1] == cli("neighbours", path, "w2", "-k", 2)
    assert t.analogy("w1", "w2", "w3", k=4, json=True) == cli("analogy", path, "w1", "w2", "w3", "-k", 4)
    assert t.analogy("w1", "w2", "w3", method="mul", exclude=False, json=True) == cli(
        "analogy", path, "w1", "w2", "w3", "--method", "mul", "--no-exclude")
    assert t.similarity("w1", "w5", json=True) == cli("similarity", path, "w1", "w5")
    assert t.similarity("w1", "w5", json=True)["score"] == pytest.approx(t.similarity("w1", "w5"), abs=0)
    assert t.doesnt_match(["w1", "w2", "w40"], json=True) == cli("doesnt-match", path, "w1", "w2", "w40")
    with pytest.raises(TypeError):
        t.neighbours(t.vectors[:2], json=True)


def test_encode_is_the_clis_tokenize_json():
    tok = lumen.Tokenizer("gpt2")
    c = cli("tokenize", "The cat sat, naïvely.")
    assert tok.encode("The cat sat, naïvely.", json=True) == c["texts"][0]
    assert tok.encode("The cat sat", json=True)["ids"] == tok.encode("The cat sat") == [464, 3797, 3332]


# A small GPT trained by the CLI's session: model::gpt_session_json on both sides, every figure alike on one thread
# (each eval's losses included), but the directory each wrote and the time spent.
def test_gpt_training_is_the_clis_train_gpt_json(tmp_path, random_corpus):
    corpus = random_corpus(2)
    opts = dict(tokenizer="words", max_words=30, layers=1, d_model=16, heads=2, context=8, steps=6, batch=4,
                eval_every=3, eval_batches=2, seed=3, threads=1)
    r = lumen.train.gpt(corpus, output=tmp_path / "py", **opts)
    args = ["train", "gpt", corpus, "-o", tmp_path / "cli"]
    for k, v in opts.items():
        args += [f"--{k.replace('_', '-')}", v]
    c = cli(*args)
    assert r["output"] == str(tmp_path / "py") and c["output"] == str(tmp_path / "cli")
    assert len(r["evals"]) == 2 and r["seed"] == 3
    assert timeless(without(c, "output")) == timeless(without(r, "output"))


# Two tables over their shared words: eval::comparison_json on both sides.
def test_compare_is_the_clis_compare_json(tmp_path):
    rng = np.random.default_rng(5)
    words = [f"w{i}" for i in range(50)]
    E = rng.normal(size=(50, 6)).astype(np.float32)
    write_vec(tmp_path / "a.vec", words, E)
    write_vec(tmp_path / "b.vec", words[5:] + ["x1", "x2"], np.vstack([E[5:] + 0.3 * rng.normal(size=(45, 6)),
                                                                         rng.normal(size=(2, 6))]))
    a, b = lumen.load(tmp_path / "a.vec"), lumen.load(tmp_path / "b.vec")
    r = lumen.compare(a, b, k=4, moved=3, threads=1)
    assert r["shared"] == 45 and r["k"] == 4 and len(r["moved"]) == 3 and r["procrustes"] is not None
    c = cli("compare", tmp_path / "a.vec", tmp_path / "b.vec", "-k", 4, "--moved", 3, "--threads", 1)
    assert without(c, "seconds") == without(r, "seconds")
    # The defaults are the CLI's, and a sample (with its seed) and --top pass through alike.
    assert without(lumen.compare(a, b, threads=1), "seconds") == \
        without(cli("compare", tmp_path / "a.vec", tmp_path / "b.vec", "--threads", 1), "seconds")
    s = lumen.compare(a, b, k=3, top=30, sample=10, seed=7, threads=1)
    assert s["overlap"]["sampled"] is True and s["overlap"]["words"] == 10 and s["n"] == 30
    c = cli("compare", tmp_path / "a.vec", tmp_path / "b.vec", "-k", 3, "--top", 30, "--sample", 10, "--seed", 7,
            "--threads", 1)
    assert without(c, "seconds") == without(s, "seconds")
    # Bad combinations and values are ValueErrors (lumen.UsageError), as the CLI's are usage errors.
    with pytest.raises(ValueError, match="second table"):
        lumen.compare(a)
    with pytest.raises(ValueError, match="give one table"):
        lumen.compare(a, b, heads=True)
    with pytest.raises(ValueError, match="head= goes with heads=True"):
        lumen.compare(a, b, head=tmp_path / "b.vec")
    with pytest.raises(lumen.UsageError):
        lumen.compare(a, b, k=0)
    with pytest.raises(TypeError):
        lumen.compare(a, "b.vec")


def write_safetensors(path, tensors):
    header, data = {}, b""
    for name, array in tensors.items():
        raw = np.ascontiguousarray(array, dtype="<f4").tobytes()
        header[name] = {"dtype": "F32", "shape": list(array.shape), "data_offsets": [len(data), len(data) + len(raw)]}
        data += raw
    h = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(h)) + h + data)


# A model's input table E against its output head W (--heads): the head found as the CLI finds it, beside the file
# (TABLE.out) or in the same safetensors checkpoint (lm_head.weight, named in b's source), or named (head=).
def test_compare_heads_is_the_clis_compare_heads_json(tmp_path):
    rng = np.random.default_rng(6)
    words = [f"w{i}" for i in range(40)]
    E, W = rng.normal(size=(40, 5)).astype(np.float32), rng.normal(size=(40, 5)).astype(np.float32)
    write_vec(tmp_path / "lm.vec", words, E)
    write_vec(tmp_path / "lm.vec.out", words, W)
    lm = lumen.load(tmp_path / "lm.vec")
    r = lumen.compare(lm, heads=True, k=3, threads=1)
    assert r["b"]["source"] == str(tmp_path / "lm.vec.out") and r["shared"] == 40
    c = cli("compare", tmp_path / "lm.vec", "--heads", "-k", 3, "--threads", 1)
    assert without(c, "seconds") == without(r, "seconds")
    write_vec(tmp_path / "w.vec", words, W)
    named = lumen.compare(lm, heads=True, head=tmp_path / "w.vec", k=3, threads=1)
    c = cli("compare", tmp_path / "lm.vec", "--heads", "--head", tmp_path / "w.vec", "-k", 3, "--threads", 1)
    assert without(c, "seconds") == without(named, "seconds")
    assert without(named, "seconds", "b") == without(r, "seconds", "b")  # the same W, found or named

    write_safetensors(tmp_path / "untied.safetensors", {"model.embed_tokens.weight": E, "lm_head.weight": W})
    st = lumen.compare(lumen.load(tmp_path / "untied.safetensors"), heads=True, k=3, threads=1)
    assert st["b"]["source"] == str(tmp_path / "untied.safetensors") + " [lm_head.weight]"
    c = cli("compare", tmp_path / "untied.safetensors", "--heads", "-k", 3, "--threads", 1)
    assert without(c, "seconds") == without(st, "seconds")

    write_safetensors(tmp_path / "tied.safetensors", {"model.embed_tokens.weight": E})
    with pytest.raises(lumen.InputError, match="no output head tensor"):
        lumen.compare(lumen.load(tmp_path / "tied.safetensors"), heads=True)
    write_vec(tmp_path / "alone.vec", words, E)
    with pytest.raises(lumen.InputError, match="alone.vec.out is missing"):
        lumen.compare(lumen.load(tmp_path / "alone.vec"), heads=True)
    # A table made in Python has no file to find a head beside: it is named, or the two tables are compared.
    made = lumen.Table.from_array(lm.vectors, words)
    with pytest.raises(ValueError, match="not read from one"):
        lumen.compare(made, heads=True)
    from_head = lumen.compare(made, heads=True, head=tmp_path / "w.vec", k=3, threads=1)
    assert from_head["a"]["source"] == "<array>"
    assert without(from_head, "seconds", "a") == without(named, "seconds", "a")


# Figure 3 on the tiny GPT-2 fixture: model::run_drift and model::drift_json on both sides, the picture too.
def test_drift_is_the_clis_drift_json(tmp_path):
    ckpt = CHECKPOINTS / "gpt2"
    contexts = ["the river bank was muddy", "the bank approved the loan"]
    r = lumen.drift(ckpt, "bank", contexts, k=3, threads=1)
    assert len(r["layers"]) == 3 and len(r["layers"][0]["contexts"][1]["nearest"]) == 3
    assert [x["text"] for x in r["contexts"]] == contexts
    c = cli("drift", ckpt, *contexts, "--token", "bank", "-k", 3, "--threads", 1)
    assert c == r
    # The default k is the CLI's; a k past V shows all V rows, as the CLI does (with a note there).
    assert lumen.drift(ckpt, "bank", contexts, threads=1) == cli("drift", ckpt, *contexts, "--token", "bank",
                                                                 "--threads", 1)
    V = lumen.params(str(ckpt))["shape"]["vocab"]
    big = lumen.drift(ckpt, "bank", contexts, k=10**6, threads=1)
    assert len(big["layers"][1]["contexts"][0]["lens"]) == V
    assert big == cli("drift", ckpt, *contexts, "--token", "bank", "-k", 10**6, "--threads", 1)
    # output= writes the picture as -o does: the same bytes.
    assert lumen.drift(ckpt, "bank", contexts, k=3, output=tmp_path / "py.svg", threads=1) == r
    cli("drift", ckpt, *contexts, "--token", "bank", "-k", 3, "-o", tmp_path / "cli.svg", "--threads", 1)
    assert (tmp_path / "py.svg").read_bytes() == (tmp_path / "cli.svg").read_bytes()
    with pytest.raises(ValueError, match=r"output= .*x\.gif: expected a \.png or \.svg file"):
        lumen.drift(ckpt, "bank", contexts, output=tmp_path / "x.gif")
    assert not (tmp_path / "x.gif").exists()
    # Never over the checkpoint's own files: a picture named by a link to its weights is refused, the weights kept.
    shutil.copytree(ckpt, tmp_path / "m")
    weights = (tmp_path / "m" / "model.safetensors").read_bytes()
    (tmp_path / "over.svg").symlink_to(tmp_path / "m" / "model.safetensors")
    with pytest.raises(lumen.UsageError, match="model.safetensors"):
        lumen.drift(tmp_path / "m", "bank", contexts, output=tmp_path / "over.svg")
    assert (tmp_path / "m" / "model.safetensors").read_bytes() == weights
    with pytest.raises(lumen.InputError):
        lumen.drift(ckpt, "money", contexts)
    with pytest.raises(ValueError, match="two contexts"):
        lumen.drift(ckpt, "bank", contexts[:1])
    with pytest.raises(TypeError):
        lumen.drift(ckpt, "bank", "the bank")


# The benchmarks: eval::analogy_result_json and eval::similarity_result_json on both sides.
def test_eval_analogies_is_the_clis_eval_analogies_json(data):
    table, questions = data / "formats" / "lee_fasttext.vec", data / "questions-words.txt"
    r = lumen.eval.analogies(lumen.load(table), questions, threads=1)
    assert r["answered"] > 0 and r["table"] == str(table) and r["file"] == str(questions)
    c = cli("eval", "analogies", table, questions, "--threads", 1)
    assert without(c, "seconds") == nan_as_null(without(r, "seconds"))
    # A section with no question answered has no accuracy: NaN in Python, null in JSON.
    empty = [i for i, x in enumerate(c["sections"]) if x["answered"] == 0]
    assert empty and all(np.isnan(r["sections"][i]["accuracy"]) and c["sections"][i]["accuracy"] is None
                         for i in empty)
    r = lumen.eval.analogies(lumen.load(table), questions, restrict=500, method="mul", exclude=False, threads=1)
    c = cli("eval", "analogies", table, questions, "--restrict", 500, "--method", "mul", "--no-exclude",
            "--threads", 1)
    assert without(c, "seconds") == nan_as_null(without(r, "seconds"))


def test_eval_similarity_is_the_clis_eval_similarity_json(data):
    table = data / "formats" / "lee_fasttext.vec"
    for bench in ("wordsim353.tsv", "simlex999.txt"):
        r = lumen.eval.similarity(lumen.load(table), data / bench)
        assert r["pairs"] > 0 and r["file"] == str(data / bench)
        c = cli("eval", "similarity", table, data / bench)
        assert without(c, "seconds") == nan_as_null(without(r, "seconds"))
    r = lumen.eval.similarity(lumen.load(table), data / "wordsim353.tsv", restrict=300, case_sensitive=True)
    c = cli("eval", "similarity", table, data / "wordsim353.tsv", "--restrict", 300, "--case-sensitive")
    assert without(c, "seconds") == nan_as_null(without(r, "seconds"))


# The calculator: nn::params_json (and sweep_json) on both sides, for presets and a checkpoint's config.json.
def test_params_is_the_clis_params_json():
    for name in ("gpt2", "llama-3-8b", str(CHECKPOINTS / "gpt2"), str(CHECKPOINTS / "llama-tied-f16")):
        assert lumen.params(name) == cli("params", name)
    assert lumen.params() == cli("params")
    assert lumen.params("gpt2-medium", sweep=True) == cli("params", "gpt2-medium", "--sweep")


def test_probe_by_layer_is_the_clis_probe_layers_json(tmp_path):
    ckpt = CHECKPOINTS / "gpt2"
    words = ["river", "bank", "money", "loan", "water", "stone", "tree", "house", "road", "rain"]
    labels = tmp_path / "labels.tsv"
    labels.write_text("".join(f"{w}\t{'odd' if i % 2 else 'even'}\n" for i, w in enumerate(words)))
    r = lumen.probe(ckpt, labels, layers=True, folds=2, threads=1, context="the {}")
    assert len(r["layers"]) == 3 and r["n"] == 10 and r["context"] == "the {}" and not r["alone"]
    c = cli("probe", ckpt, labels, "--layers", "--folds", 2, "--threads", 1, "--context", "the {}")

    def timeless(d):
        return {**without(d, "seconds"), "layers": [without(layer, "seconds") for layer in d["layers"]]}

    assert timeless(c) == timeless(r)
    with pytest.raises(lumen.UsageError, match="layers=True"):
        lumen.probe(ckpt, labels)
