import os
from typing import Any

from . import Table

def analogies(table: Table, path: str | os.PathLike[str], *, restrict: int = 300000, case_sensitive: bool = False,
              method: str = "add", exclude: bool = True, semantic: int = 5, strict: bool = False,
              threads: int | None = None) -> dict[str, Any]: ...
def similarity(table: Table, path: str | os.PathLike[str], *, restrict: int = 300000, case_sensitive: bool = False,
               strict: bool = False) -> dict[str, Any]: ...
