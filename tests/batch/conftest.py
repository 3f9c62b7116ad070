"""The batch tests' local index: the sample papers' real records, built once per module."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.batch.samples import SAMPLES


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local index of the sample papers' real records."""
    from citecheck_tex.sources.local_index import import_files

    path = tmp_path_factory.mktemp("index") / "index.sqlite"
    import_files(path, sorted(SAMPLES.glob("*/index_records*.jsonl")))
    return path
