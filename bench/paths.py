"""Paths the benchmarks share.

``SHARED`` is the shared data folder (corpus, fixtures, benchmarks). CI runs a fresh
clone with ``shared/`` beside it (``<repo>/../shared``); on the development machine it
is ``/work/shared``. The first that exists wins.
"""

from __future__ import annotations

from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
DATA = REPO / "bench" / "data"


def _shared() -> Path:
    beside = REPO.parent / "shared"
    return beside if beside.is_dir() else Path("/work/shared")


SHARED = _shared()
CORPUS = SHARED / "corpus"
