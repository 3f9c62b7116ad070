"""The ``local`` source: answers from the index, NOT_FOUND when there is none."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

import pytest

from citecheck_tex.config import Settings
from citecheck_tex.model import Query, QueryKind, SourceStatus
from citecheck_tex.sources import base
from citecheck_tex.sources.local_index import LocalIndexSource, make_local_source

QUERIES = [
    Query(QueryKind.DOI, "10.1016/0550-3213(76)90173-5"),
    Query(QueryKind.ARXIV, "hep-th/9108002v1"),
    Query(QueryKind.TEXKEY, "Corrigan:1975hd"),
    Query(QueryKind.JOURNAL_REF, journal="Nucl. Phys.", volume="B106", page="475"),
    Query(QueryKind.TITLE, "Magnetik monopoles in SU(3) gauge theory", authors=("Olive",),
          year="1976"),
]


def test_registered_under_local() -> None:
    assert base._REGISTRY["local"] is make_local_source
    source = make_local_source(None, Settings(index_path="/nonexistent/index.sqlite"))
    assert isinstance(source, base.Source)
    assert source.name == "local" and source.version == "1"
    assert source.kinds == frozenset(QueryKind)


def test_answers_every_kind(built_index: Path) -> None:
    source = make_local_source(None, Settings(index_path=str(built_index)))
    answers = asyncio.run(source.fetch_batch(QUERIES))
    assert [a.query for a in answers] == QUERIES
    for answer in answers:
        assert answer.status is SourceStatus.FOUND, answer
        assert answer.source == "local"
        assert 1 <= len(answer.records) <= 5
        assert answer.latency_ms >= 0
    assert answers[0].records[0].id == "inspire:100761"
    assert answers[1].records[0].id == "arxiv:hep-th/9108002"
    assert answers[4].records[0].id == "inspire:100761"
    assert 0.6 < answers[4].records[0].score < 1.0
    source.close()


def test_unknown_identifiers_are_not_found(built_index: Path) -> None:
    source = LocalIndexSource(built_index)
    for query in (Query(QueryKind.DOI, "10.1234/nothing"), Query(QueryKind.ARXIV, "9999.99999"),
                  Query(QueryKind.TITLE, "completely unrelated words nobody wrote"),
                  Query(QueryKind.JOURNAL_REF, journal="Phys. Rev. D", volume="1", page="1")):
        answer = asyncio.run(source.fetch(query))
        assert answer.status is SourceStatus.NOT_FOUND and answer.records == ()
    source.close()


def test_missing_index_gives_not_found_and_one_warning(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    missing = tmp_path / "no" / "index.sqlite"
    source = make_local_source(None, Settings(index_path=str(missing)))
    with caplog.at_level(logging.WARNING, logger="citecheck_tex.sources.local_index"):
        answers = asyncio.run(source.fetch_batch(QUERIES))
    assert [a.status for a in answers] == [SourceStatus.NOT_FOUND] * len(QUERIES)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and str(missing) in warnings[0].getMessage()
    assert not missing.exists()


def test_corrupt_index_is_an_error_not_a_crash(tmp_path: Path) -> None:
    junk = tmp_path / "index.sqlite"
    junk.write_bytes(b"garbage" * 100)
    source = LocalIndexSource(junk)
    answer = asyncio.run(source.fetch(QUERIES[0]))
    assert answer.status is SourceStatus.ERROR and answer.status.failed
    assert str(junk) in answer.message
