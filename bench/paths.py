"""Paths the benchmarks share.

``SHARED`` is the shared data folder (corpus, fixtures, benchmarks). CI runs a fresh
clone with ``shared/`` beside it (``<repo>/../shared``); on the development machine it
is ``/work/shared``. The first that exists wins.
"""

from __future__ import annotations

import hashlib
from functools import cache
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "bench" / "data"


def _shared() -> Path:
    beside = REPO.parent / "shared"
    # the folder that holds the corpus: a sibling work tree named "shared" is not it
    return beside if (beside / "corpus").is_dir() else Path("/work/shared")


SHARED = _shared()
CORPUS = SHARED / "corpus"


@cache
def code_stamp() -> str:
    """A hash of the package's code and data: a cached benchmark index built by other
    code (another importer, name splitter or TeX decoder) is stale and must be rebuilt."""
    digest = hashlib.sha256()
    package = REPO / "citecheck_tex"
    for path in sorted(package.rglob("*")):
        if path.suffix in (".py", ".csv", ".gz", ".json") and "__pycache__" not in path.parts:
            digest.update(str(path.relative_to(package)).encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]
