"""Shared fixtures: the test data directory (LUMEN_DATA_DIR, set by ctest) and a per-process temporary directory."""
import os
import pathlib

import pytest

DATA = pathlib.Path(os.environ.get("LUMEN_DATA_DIR", pathlib.Path(__file__).resolve().parents[2] / "../shared/data"))


@pytest.fixture
def data():
    if not DATA.is_dir():
        pytest.skip(f"no test data at {DATA} (LUMEN_DATA_DIR)")
    return DATA
