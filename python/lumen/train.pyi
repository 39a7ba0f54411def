import os
from typing import Any, Callable, Iterable

from . import Table

def word2vec(corpus: str | os.PathLike[str] | Iterable[str | os.PathLike[str]], *, model: str = "skipgram",
             dim: int = 100, window: int = 5, negative: int = 5, epochs: int = 5, lr: float = 0.0,
             sample: float = 1e-4, seed: int = 1, min_count: int = 5, max_vocab: int = 0, lower: bool = False,
             split_punct: bool = False, threads: int | None = None,
             progress: Callable[[dict[str, Any]], object] | None = None) -> Table: ...
