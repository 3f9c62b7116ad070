"""The answer cache: TTLs, errors never stored, concurrency, the CachedSource wrapper."""

from __future__ import annotations

import asyncio
import subprocess
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

from citecheck_tex.cache import Cache, CachedSource, record_from_json, record_to_json
from citecheck_tex.model import Answer, Person, Query, QueryKind, Record, SourceStatus
from citecheck_tex.sources.base import Source

REC = Record(source="crossref", id="10.1/x", title="A title", authors=(
    Person("Waals", "Johannes", von="van der"), Person("ATLAS Collaboration", literal=True)),
    year="2012", other_years=("2011",), venue="Phys. Rev.", venue_aliases=("PR",),
    doi="10.1/x", texkeys=("A:2012ab",), extra_pubs=(("J", "1", "2", "2013"),), score=0.5)
Q = Query(QueryKind.DOI, "10.1/X")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


class FakeSource:
    name = "fake"
    kinds = frozenset({QueryKind.DOI})
    version = "7"

    def __init__(self, status: SourceStatus = SourceStatus.FOUND) -> None:
        self.status = status
        self.asked: list[Query] = []

    async def fetch(self, query: Query) -> Answer:
        return (await self.fetch_batch([query]))[0]

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        self.asked.extend(queries)
        recs = (REC,) if self.status is SourceStatus.FOUND else ()
        return [Answer(self.name, q, self.status, recs, http_requests=1) for q in queries]


def test_record_json_round_trip() -> None:
    assert record_from_json(record_to_json(REC)) == REC


def test_ttls_with_injected_clock(tmp_path: Path) -> None:
    clock = Clock()
    cache = Cache.open(tmp_path / "c.sqlite", clock=clock)
    found = Answer("crossref", Q, SourceStatus.FOUND, (REC,))
    missing = Answer("crossref", Query(QueryKind.DOI, "10.1/none"), SourceStatus.NOT_FOUND)
    assert cache.put_sync(found, "1") and cache.put_sync(missing, "1")
    hit = cache.get_sync("crossref", "1", Q)
    assert hit is not None and hit.cached and hit.records == (REC,)
    assert cache.get_sync("crossref", "2", Q) is None  # adapter version is part of the key
    clock.now += 2 * 24 * 3600  # two days: not-found expired, found kept
    assert cache.get_sync("crossref", "1", missing.query) is None
    assert cache.get_sync("crossref", "1", Q) is not None
    clock.now += 29 * 24 * 3600  # 31 days
    assert cache.get_sync("crossref", "1", Q) is None
    assert cache.purge_expired() == 2
    cache.close()


def test_expired_answers_are_purged_when_opened_at_most_daily(tmp_path: Path) -> None:
    import sqlite3

    def rows() -> int:
        with sqlite3.connect(tmp_path / "c.sqlite") as conn:
            return int(conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0])

    clock = Clock()
    cache = Cache.open(tmp_path / "c.sqlite", clock=clock)
    missing = Answer("crossref", Query(QueryKind.DOI, "10.1/none"), SourceStatus.NOT_FOUND)
    assert cache.put_sync(missing, "1") and cache.put_sync(
        Answer("crossref", Q, SourceStatus.FOUND, (REC,)), "1")
    cache.close()
    clock.now += 2 * 3600  # two hours: nothing expired, and purged less than a day ago
    Cache.open(tmp_path / "c.sqlite", clock=clock).close()
    assert rows() == 2
    clock.now += 2 * 24 * 3600  # the not-found answer expired; a day since the last purge
    Cache.open(tmp_path / "c.sqlite", clock=clock).close()
    assert rows() == 1


def test_errors_are_never_cached(tmp_path: Path) -> None:
    cache = Cache.open(tmp_path / "c.sqlite")
    for status in (SourceStatus.ERROR, SourceStatus.RATE_LIMITED, SourceStatus.SKIPPED):
        assert not cache.put_sync(Answer("x", Q, status, message="boom"), "1")
        assert cache.get_sync("x", "1", Q) is None
    cache.close()


def test_schema_version_mismatch_clears(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    cache = Cache.open(path)
    cache.put_sync(Answer("x", Q, SourceStatus.FOUND, (REC,)), "1")
    cache._conn.execute("UPDATE meta SET value = '0' WHERE key = 'schema_version'")
    cache.close()
    cache = Cache.open(path)
    assert cache.get_sync("x", "1", Q) is None
    cache.close()


def test_concurrent_writers_threads_and_processes(tmp_path: Path) -> None:
    path = tmp_path / "shared.sqlite"
    Cache.open(path).close()
    script = (
        "import sys\n"
        "from citecheck_tex.cache import Cache\n"
        "from citecheck_tex.model import Answer, Query, QueryKind, Record, SourceStatus\n"
        "c = Cache.open(sys.argv[1])\n"
        "for i in range(150):\n"
        "    q = Query(QueryKind.DOI, f'10.9/{sys.argv[2]}-{i}')\n"
        "    c.put_sync(Answer('p', q, SourceStatus.FOUND, (Record('p', str(i)),)), '1')\n"
        "    assert c.get_sync('p', '1', q) is not None\n"
        "c.close()\n"
    )
    procs = [subprocess.Popen([sys.executable, "-c", script, str(path), f"proc{n}"])
             for n in range(2)]
    errors: list[BaseException] = []

    def writer(tag: str) -> None:
        try:
            c = Cache.open(path)
            for i in range(150):
                c.put_sync(Answer("t", Query(QueryKind.DOI, f"10.9/{tag}-{i}"),
                                  SourceStatus.FOUND, (REC,)), "1")
            c.close()
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(f"t{n}",)) for n in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [p.wait(timeout=60) for p in procs] == [0, 0]
    assert not errors
    cache = Cache.open(path)
    n = cache._conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
    mode = cache._conn.execute("PRAGMA journal_mode").fetchone()[0]
    cache.close()
    assert n == 600 and mode == "wal"


def test_cached_source_reads_writes_and_batches_misses(tmp_path: Path) -> None:
    cache = Cache.open(tmp_path / "c.sqlite")
    inner = FakeSource()
    src: Source = CachedSource(inner, cache)
    q2 = Query(QueryKind.DOI, "10.1/y")
    first = asyncio.run(src.fetch(Q))
    assert first.status is SourceStatus.FOUND and not first.cached
    both = asyncio.run(src.fetch_batch([Q, q2]))
    assert [a.cached for a in both] == [True, False]
    assert inner.asked == [Q, q2]  # the batch only asked for the miss
    assert src.name == "fake" and src.version == "7"
    refreshed = CachedSource(inner, cache, refresh=True)
    assert not asyncio.run(refreshed.fetch(Q)).cached
    assert inner.asked[-1] == Q
    cache.close()


def test_cached_source_does_not_store_errors(tmp_path: Path) -> None:
    cache = Cache.open(tmp_path / "c.sqlite")
    inner = FakeSource(SourceStatus.ERROR)
    src = CachedSource(inner, cache)
    asyncio.run(src.fetch(Q))
    asyncio.run(src.fetch(Q))
    assert len(inner.asked) == 2
    cache.close()


def test_offline_answers_from_cache_or_skipped(tmp_path: Path) -> None:
    cache = Cache.open(tmp_path / "c.sqlite")
    cache.put_sync(Answer("fake", Q, SourceStatus.FOUND, (REC,)), "7")
    inner = FakeSource()
    src = CachedSource(inner, cache, offline=True)
    hit, miss = asyncio.run(src.fetch_batch([Q, Query(QueryKind.DOI, "10.1/other")]))
    assert hit.cached and hit.status is SourceStatus.FOUND
    assert miss.status is SourceStatus.SKIPPED and miss.message == "offline"
    assert inner.asked == []
    no_cache = CachedSource(inner, None, offline=True)
    assert asyncio.run(no_cache.fetch(Q)).status is SourceStatus.SKIPPED
    cache.close()
