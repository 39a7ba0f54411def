"""Synthetic vectors on which an analogy question file is a real test, for bench/compare_eval.py and for
tests/data/eval/make_table.py (which writes the small table the eval tests use).
"""


def relation_vectors(questions_path, rng, dim, noise):
    """Vectors for every word of a questions-words.txt-style file: each section (": name" line) draws a relation
    offset, a question's first and third words a random vector each, and its second and fourth words the first's
    (or third's) vector plus the offset plus N(0, noise^2) noise, so that answers are a mix of right and near misses,
    as with a trained table. Draws from `rng` (a numpy RandomState) in file order; returns (vectors by word, the
    words in the order first seen)."""
    vec, order, relation = {}, [], None
    with open(questions_path, encoding="utf8") as f:
        for line in f:
            if line.startswith(": "):
                relation = rng.normal(size=dim)
                continue
            a, b, c, e = line.split()
            for x, y in ((a, b), (c, e)):
                if x not in vec:
                    vec[x] = rng.normal(size=dim)
                    order.append(x)
                if y not in vec:
                    vec[y] = vec[x] + relation + rng.normal(scale=noise, size=dim)
                    order.append(y)
    return vec, order
