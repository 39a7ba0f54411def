"""Shared fixtures: the test data directory (LUMEN_DATA_DIR, set by ctest) and a random training corpus."""
import os
import pathlib

import numpy as np
import pytest

DATA = pathlib.Path(os.environ.get("LUMEN_DATA_DIR", pathlib.Path(__file__).resolve().parents[2] / "../shared/data"))


@pytest.fixture
def data():
    if not DATA.is_dir():
        pytest.skip(f"no test data at {DATA} (LUMEN_DATA_DIR)")
    return DATA


@pytest.fixture
def random_corpus(tmp_path):
    """Writes tmp_path/corpus.txt: `lines` lines of `per_line` words drawn from w0..w{vocab-1} with
    numpy's default_rng(seed), and returns its path."""
    def make(seed, *, lines=300, per_line=12, vocab=20):
        rng = np.random.default_rng(seed)
        words = [f"w{i}" for i in range(vocab)]
        path = tmp_path / "corpus.txt"
        path.write_text("\n".join(" ".join(rng.choice(words, per_line)) for _ in range(lines)))
        return path
    return make
