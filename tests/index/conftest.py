"""Fixtures of the local-index tests: the real excerpts in tests/index/data/."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from citecheck_tex.sources.local_index import LocalIndex

DATA = Path(__file__).resolve().parent / "data"

DUMPS = (
    "inspire_literature.jsonl",
    "arxiv_metadata_snapshot.jsonl",
    "inspire_hep_records.jsonl",
    "arxiv_abs_records.jsonl",
    "openalex_works.jsonl",
    "crossref_works.jsonl",
    "HEPML_excerpt.bib",
    "lsst_refs_ads_excerpt.bib",
)


@pytest.fixture(scope="session")
def built_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index holding every excerpt, built once per session."""
    path = tmp_path_factory.mktemp("index") / "index.sqlite"
    index = LocalIndex.open(path)
    for name in DUMPS:
        index.add_file(DATA / name)
    index.close()
    return path


@pytest.fixture()
def index(built_index: Path) -> Iterator[LocalIndex]:
    """The session index, opened read-only for one test."""
    idx = LocalIndex.open(built_index, create=False, readonly=True)
    yield idx
    idx.close()
