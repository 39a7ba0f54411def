import os
from typing import Any

from . import Table

def analogies(table: Table, path: str | os.PathLike[str], *, restrict: int = 300000, case_sensitive: bool = False,
              method: str = "add", exclude: bool = True, semantic: int = 5, strict: bool = False,
              threads: int | None = None) -> dict[str, Any]: ...
def similarity(table: Table, path: str | os.PathLike[str], *, restrict: int = 300000, case_sensitive: bool = False,
               strict: bool = False) -> dict[str, Any]: ...
def probe(table: Table, labels: str | os.PathLike[str], *, analogies: str | os.PathLike[str] | None = None,
          folds: int = 5, C: float = 1.0, max_iter: int = 1000, tol: float = 1e-4, seed: int = 1,
          threads: int | None = None) -> dict[str, Any]: ...
