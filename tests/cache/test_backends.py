"""Both answer-cache backends (SQLite file, real Redis server) keep the same rules.

TTLs and negative answers, errors never stored, claims (who fetches a missing
answer), a backend that is down or goes away (one warning, the run goes on) and
secrets in a redis:// URL never printed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Iterator, Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from citecheck_tex.cache import (
    AnswerCache,
    Cache,
    CachedSource,
    RedisCache,
    describe_cache,
    is_cache_url,
    open_cache,
)
from citecheck_tex.config import Settings
from citecheck_tex.model import Answer, Person, Query, QueryKind, Record, SourceStatus
from tests.redis_server import RedisServer, redis_server  # noqa: F401 - the fixture

REC = Record(source="crossref", id="10.1/x", title="A title", authors=(
    Person("Waals", "Johannes", von="van der"),), year="2012", doi="10.1/x")
Q = Query(QueryKind.DOI, "10.1/X")
Q2 = Query(QueryKind.DOI, "10.1/none")


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture(params=["sqlite", "redis"])
def backend(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[AnswerCache, Clock]]:
    clock = Clock()
    if request.param == "sqlite":
        cache: AnswerCache = Cache.open(tmp_path / "c.sqlite", clock=clock)
        yield cache, clock
        cache.close()
        return
    with RedisServer(tmp_path / "redis") as server:
        cache = RedisCache.open(server.url, clock=clock)
        yield cache, clock
        cache.close()


def test_found_lives_long_not_found_short_errors_never(
        backend: tuple[AnswerCache, Clock]) -> None:
    cache, clock = backend
    found = Answer("crossref", Q, SourceStatus.FOUND, (REC,))
    missing = Answer("crossref", Q2, SourceStatus.NOT_FOUND)
    errors = [Answer("crossref", Query(QueryKind.DOI, f"10.1/e{n}"), status, message="boom")
              for n, status in enumerate((SourceStatus.ERROR, SourceStatus.RATE_LIMITED,
                                          SourceStatus.SKIPPED))]
    assert cache.put_many_sync([found, missing, *errors], "1") == 2
    hit, miss = cache.get_many_sync("crossref", "1", [Q, Q2])
    assert hit is not None and hit.cached and hit.records == (REC,)
    assert miss is not None and miss.status is SourceStatus.NOT_FOUND
    assert cache.get_many_sync("crossref", "1", [e.query for e in errors]) == [None] * 3
    assert cache.get_many_sync("crossref", "2", [Q]) == [None]  # the adapter version is keyed
    assert cache.get_many_sync("openalex", "1", [Q]) == [None]  # and the source
    clock.now += 2 * 24 * 3600  # two days: the negative answer expired, the found one not
    assert cache.get_many_sync("crossref", "1", [Q, Q2])[1] is None
    assert cache.get_many_sync("crossref", "1", [Q])[0] is not None
    clock.now += 29 * 24 * 3600
    assert cache.get_many_sync("crossref", "1", [Q]) == [None]


def test_a_claim_is_held_by_one_owner_until_answered_released_or_expired(
        backend: tuple[AnswerCache, Clock]) -> None:
    cache, clock = backend
    assert cache.claim_sync("crossref", "1", [Q, Q2], "alice", 60.0) == [True, True]
    assert cache.claim_sync("crossref", "1", [Q, Q2], "bob", 60.0) == [False, False]
    assert cache.claim_sync("crossref", "1", [Q], "alice", 60.0) == [True]  # her own
    cache.put_many_sync([Answer("crossref", Q, SourceStatus.FOUND, (REC,))], "1")
    stored, waiting = cache.claim_sync("crossref", "1", [Q, Q2], "bob", 60.0)
    assert isinstance(stored, Answer) and stored.records == (REC,) and waiting is False
    cache.release_sync("crossref", "1", [Q2], "bob")  # not his: nothing happens
    assert cache.claim_sync("crossref", "1", [Q2], "bob", 60.0) == [False]
    cache.renew_sync("crossref", "1", [Q2], "bob", 60.0)  # renews only what one holds
    assert cache.claim_sync("crossref", "1", [Q2], "bob", 60.0) == [False]
    cache.release_sync("crossref", "1", [Q2], "alice")  # her fetch failed: free again
    cache.renew_sync("crossref", "1", [Q2], "alice", 60.0)  # a late renewal claims nothing
    assert cache.claim_sync("crossref", "1", [Q2], "bob", 0.2) == [True]
    if isinstance(cache, Cache):
        clock.now += 1.0  # bob died: his lease runs out
    else:
        import time

        time.sleep(0.3)  # the server's own clock expires the lease
    assert cache.claim_sync("crossref", "1", [Q2], "carol", 60.0) == [True]


class FakeSource:
    name = "crossref"
    kinds = frozenset({QueryKind.DOI})
    version = "1"

    def __init__(self, status: SourceStatus = SourceStatus.FOUND, delay: float = 0.2) -> None:
        self.status = status
        self.delay = delay
        self.asked: list[Query] = []

    async def fetch(self, query: Query) -> Answer:
        return (await self.fetch_batch([query]))[0]

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        self.asked.extend(queries)
        await asyncio.sleep(self.delay)
        recs = (REC,) if self.status is SourceStatus.FOUND else ()
        return [Answer(self.name, q, self.status, recs) for q in queries]


def test_two_askers_at_the_same_moment_fetch_once(backend: tuple[AnswerCache, Clock]) -> None:
    cache, _ = backend
    inner = FakeSource()
    a, b = CachedSource(inner, cache), CachedSource(inner, cache)

    async def both() -> tuple[list[Answer], list[Answer]]:
        return await asyncio.gather(a.fetch_batch([Q, Q2]), b.fetch_batch([Q2, Q]))

    first, second = asyncio.run(both())
    assert sorted(q.value for q in inner.asked) == sorted([Q.value, Q2.value])  # once each
    assert [x.status for x in first + second] == [SourceStatus.FOUND] * 4
    assert sum(x.cached for x in first + second) == 2  # one side waited for the other


def test_a_slow_fetch_keeps_its_claim_beyond_the_lease(
        backend: tuple[AnswerCache, Clock]) -> None:
    cache, _ = backend
    if isinstance(cache, Cache):
        import time

        cache.clock = time.time  # leases run out in real time here
    inner = FakeSource(delay=1.0)  # three leases long
    slow = CachedSource(inner, cache, lease_s=0.3)
    other = CachedSource(inner, cache, lease_s=0.3)

    async def both() -> list[Answer]:
        first = asyncio.create_task(slow.fetch(Q))
        await asyncio.sleep(0.6)  # the first lease ran out long ago: renewed since
        return [await other.fetch(Q), await first]

    later, first = asyncio.run(both())
    assert inner.asked == [Q]
    assert later.cached and not first.cached


def test_a_failed_fetch_frees_the_claim_for_the_next_asker(
        backend: tuple[AnswerCache, Clock]) -> None:
    cache, _ = backend
    failing = FakeSource(SourceStatus.ERROR)
    assert asyncio.run(CachedSource(failing, cache).fetch(Q)).status is SourceStatus.ERROR
    working = FakeSource()
    assert asyncio.run(CachedSource(working, cache).fetch(Q)).status is SourceStatus.FOUND
    assert working.asked == [Q]  # asked at once: the failed fetch released its claim


def test_a_cancelled_fetch_releases_its_claim(backend: tuple[AnswerCache, Clock]) -> None:
    cache, _ = backend

    async def cancelled() -> None:
        task = asyncio.create_task(CachedSource(FakeSource(), cache).fetch(Q))
        await asyncio.sleep(0.05)
        task.cancel()
        with pytest.raises(asyncio.CancelledError):
            await task

    asyncio.run(cancelled())
    assert cache.claim_sync("crossref", "1", [Q], "next", 60.0) == [True]


# ---------------------------------------------------------------------------
# Opening from the setting; failures


def test_the_setting_picks_the_backend(tmp_path: Path, redis_server: RedisServer) -> None:  # noqa: F811
    assert open_cache(replace(Settings(), cache_path="none")) is None
    sqlite = open_cache(replace(Settings(), cache_path=str(tmp_path / "x.sqlite")))
    assert isinstance(sqlite, Cache)
    sqlite.close()
    red = open_cache(replace(Settings(), cache_path=redis_server.url))
    assert isinstance(red, RedisCache)
    red.close()
    assert is_cache_url("redis://h:1/0") and is_cache_url(" REDISS://h:1/0")
    assert not is_cache_url(str(tmp_path / "redis.sqlite"))
    assert replace(Settings(), cache_path=redis_server.url).resolved_cache_path() is None


def _closed_port() -> int:
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_a_redis_that_is_down_is_one_warning_and_no_password_is_shown(
        caplog: pytest.LogCaptureFixture) -> None:
    pytest.importorskip("redis", reason="redis-py is not installed (the batch extra)")
    url = f"redis://:hunter2secret@127.0.0.1:{_closed_port()}/0"
    with caplog.at_level(logging.WARNING):
        assert open_cache(replace(Settings(), cache_path=url)) is None
    assert len(caplog.records) == 1
    text = caplog.records[0].getMessage()
    assert "hunter2secret" not in text and ":***@127.0.0.1" in text and "without it" in text
    assert describe_cache(url) == url.replace("hunter2secret", "***")


def test_a_wrong_password_is_a_warning_that_does_not_repeat_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    with RedisServer(tmp_path / "redis", password="right-secret") as server:
        good = RedisCache.open(server.url)
        good.put_sync(Answer("crossref", Q, SourceStatus.FOUND, (REC,)), "1")
        good.close()
        wrong = server.url.replace("right-secret", "wrong-secret")
        with caplog.at_level(logging.WARNING):
            assert RedisCache.open_or_none(wrong) is None
    text = " ".join(r.getMessage() for r in caplog.records)
    assert "wrong-secret" not in text and "right-secret" not in text and "***" in text


def test_a_redis_that_goes_away_mid_run_is_one_warning_and_the_answers_still_come(
        tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    server = RedisServer(tmp_path / "redis").start()
    try:
        cache = RedisCache.open(server.url)
        inner = FakeSource()
        src = CachedSource(inner, cache)
        assert asyncio.run(src.fetch(Q)).status is SourceStatus.FOUND
    finally:
        server.stop()
    with caplog.at_level(logging.WARNING):
        answers = asyncio.run(src.fetch_batch([Q, Q2]))
        more = asyncio.run(src.fetch(Query(QueryKind.DOI, "10.1/third")))
    assert [a.status for a in answers + [more]] == [SourceStatus.FOUND] * 3
    assert not any(a.cached for a in answers)  # asked the source: nothing lost, nothing wrong
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1 and "goes on without it" in warnings[0].getMessage()
    assert cache.failure
    cache.close()
