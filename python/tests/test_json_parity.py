"""Python's dicts against the CLI's --json: the same library builder behind both, so the same keys and (on one
thread, with the same seed) the same figures. The server's side is tests/serve/test_json_parity.cpp."""
import json
import os
import pathlib
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


@pytest.fixture
def table_and_labels(tmp_path):
    rng = np.random.default_rng(3)
    words = [f"w{i}" for i in range(60)]
    E = rng.normal(size=(60, 6)).astype(np.float32)
    E[:30, 0] += 2.5  # the first half is class "a", readable off column 0
    path = tmp_path / "t.vec"
    with open(path, "w") as f:
        f.write("60 6\n")
        for w, row in zip(words, E):
            f.write(w + " " + " ".join(f"{x:.6f}" for x in row) + "\n")
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


def test_lm_training_is_the_clis_train_lm_json(tmp_path):
    corpus = tmp_path / "corpus.txt"
    rng = np.random.default_rng(4)
    words = [f"w{i}" for i in range(20)]
    corpus.write_text("\n".join(" ".join(rng.choice(words, 12)) for _ in range(200)))
    r = lumen.train.lm(corpus, context=2, dim=8, hidden=8, epochs=1, min_count=1, threads=1,
                       output=tmp_path / "py.vec")
    c = cli("train", "lm", corpus, "-o", tmp_path / "cli.vec", "--context", 2, "--dim", 8, "--hidden", 8,
            "--epochs", 1, "--min-count", 1, "--threads", 1)
    # Python adds the trained tables as objects; the rest is train::lm_result_json on both sides.
    py = without(r, "table", "head")
    assert sorted(c) == sorted(py)
    assert c["heldout_perplexity"] == py["heldout_perplexity"] and c["V"] == py["V"]
