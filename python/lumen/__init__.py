"""lumen: the embedding layer of language models, from Python.

Tables in any format (word2vec, GloVe, fastText, safetensors, .npy), their vectors as NumPy views without a copy,
exact neighbours and analogies, the standard benchmarks, maps with the numbers that say how far to trust them,
training, the embedding layer's forward and backward. The same library as the `lumen` command.

Example:
    >>> import lumen
    >>> t = lumen.load("toy")
    >>> t.analogy("man", "king", "woman", k=1)
    [('queen', ...)]
"""
import sys as _sys

from ._lumen import *  # noqa: F401,F403
from ._lumen import Error, ParseError, UnknownWordError, InputError, UsageError, IoError  # noqa: F401
from ._lumen import Table, eval, nn, train, __version__  # noqa: F401
from . import _lumen

# `import lumen.eval` (and nn, train) as well as lumen.eval.
for _name in ("eval", "nn", "train"):
    _sys.modules[__name__ + "." + _name] = getattr(_lumen, _name)


def _to_gensim(self):
    """The table as gensim's KeyedVectors (a copy, f32). Needs gensim (bench/setup-peers.sh installs it).

    Example:
        >>> kv = lumen.load("toy").to_gensim()
        >>> kv.most_similar("king", topn=3)
    """
    import numpy as np
    from gensim.models import KeyedVectors

    kv = KeyedVectors(self.d, count=0, dtype=np.float32)
    kv.add_vectors(self.words, np.asarray(self.vectors, dtype=np.float32))
    return kv


def _from_gensim(kv, *, dtype="f32"):
    """A table from gensim's KeyedVectors (its vectors and index_to_key, copied).

    Example:
        >>> t = lumen.Table.from_gensim(KeyedVectors.load_word2vec_format("glove.txt", no_header=True))
    """
    return Table.from_array(kv.vectors, list(kv.index_to_key), dtype=dtype)


Table.to_gensim = _to_gensim
Table.from_gensim = staticmethod(_from_gensim)
del _to_gensim, _from_gensim
