import os
from typing import Any, Callable, Iterable


_Path = str | os.PathLike[str]

def word2vec(corpus: _Path | Iterable[_Path], *, model: str = "skipgram",
             dim: int = 100, window: int = 5, negative: int = 5, epochs: int = 5, lr: float = 0.0,
             sample: float = 1e-4, seed: int = 1, min_count: int = 5, max_vocab: int = 0, lower: bool = False,
             split_punct: bool = False, threads: int | None = None,
             progress: Callable[[dict[str, Any]], object] | None = None, output: _Path | None = None,
             to: str | None = None, checkpoint: _Path | None = None, checkpoint_every: int = 0,
             resume: _Path | None = None) -> dict[str, Any]: ...
def lm(corpus: _Path | Iterable[_Path], *, context: int = 3, dim: int = 64, hidden: int = 128, tie: bool = True,
       init_std: float = 0.05, scale_sqrt_d: bool = False, optimizer: str = "adam", lr: float = 0.0, batch: int = 64,
       epochs: int = 1, holdout: float = 0.05, max_train_tokens: int = 0, seed: int = 1, min_count: int = 2,
       max_vocab: int = 0, lower: bool = False, split_punct: bool = False, threads: int | None = None,
       progress: Callable[[dict[str, Any]], object] | None = None, output: _Path | None = None,
       output_head: _Path | None = None, to: str | None = None, checkpoint: _Path | None = None,
       checkpoint_every: int = 0, resume: _Path | None = None) -> dict[str, Any]: ...
def gpt(corpus: _Path | Iterable[_Path], *, output: _Path, layers: int = 4, d_model: int = 128, heads: int = 4,
        context: int = 128, tie: bool = True, tokenizer: str = "gpt2", max_words: int = 8192, steps: int = 1000,
        batch: int = 8, lr: float = 1e-3, min_lr: float = 1e-4, warmup: int = 0, weight_decay: float = 0.1,
        grad_clip: float = 1.0, holdout: float = 0.05, eval_every: int = 100, eval_batches: int = 4, seed: int = 1,
        threads: int | None = None, progress: Callable[[dict[str, Any]], object] | None = None,
        checkpoint: _Path | None = None, checkpoint_every: int = 0, resume: _Path | None = None) -> dict[str, Any]: ...
