"""Fault injection: drops, 429s, 503s and stalls; 100 queries, none lost."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from dataclasses import replace

from citecheck_tex.model import Answer, Query, QueryKind, SourceStatus
from citecheck_tex.sources.base import make_source
from citecheck_tex.sources.http import HostLimit, open_http
from tests.replay import DROP, ReplayServer, Reply, Request, _Drop
from tests.sources.conftest import recorded, settings_for

WORK = recorded("crossref.jsonl", "/works/10.1371/journal.pone.0033693", status=200)["body_json"]


def faulty(seen: Counter[str]) -> object:
    def handler(req: Request) -> Reply | _Drop:
        # DOIs 10.5555/<i>: i % 5 picks the fault, deterministically
        i = int(req.path.rsplit("/", 1)[-1])
        seen[req.path] += 1
        kind = i % 5
        if kind == 0:
            return DROP
        if kind == 1:
            return Reply.make(429, "slow down", headers={"Retry-After": "0"})
        if kind == 2 and seen[req.path] == 1:
            return Reply.make(503, "<html>busy</html>")
        if kind == 3:
            time.sleep(2.0)  # longer than the client's time budget (with room for a loaded machine)
            return Reply.make(200, WORK)
        body = {**WORK, "message": {**WORK["message"], "DOI": f"10.5555/{i}"}}
        return Reply.make(200, body)
    return handler


def test_hundred_queries_through_faults_none_lost() -> None:
    seen: Counter[str] = Counter()
    with ReplayServer() as server:
        server.add_handler(faulty(seen))  # type: ignore[arg-type]
        # give_up_after=0: this test is about each query's own outcome; giving a source
        # up after repeated faults is tested in test_network_faults.py
        settings = replace(settings_for(server), timeout_s=0.8, max_retries=1, give_up_after=0)
        limits = {"crossref": HostLimit(1000, 1.0, concurrency=20, backoff_base=0.01,
                                        backoff_max=0.02)}

        async def go() -> list[Answer]:
            async with open_http(settings, limits=limits) as http:
                src = make_source("crossref", http, settings)
                return list(await asyncio.gather(
                    *(src.fetch(Query(QueryKind.DOI, f"10.5555/{i}")) for i in range(100))))

        answers = asyncio.run(go())
    assert len(answers) == 100
    for i, ans in enumerate(answers):
        assert ans.query.value == f"10.5555/{i}"
        expected = {0: SourceStatus.ERROR, 1: SourceStatus.RATE_LIMITED, 2: SourceStatus.FOUND,
                    3: SourceStatus.ERROR, 4: SourceStatus.FOUND}[i % 5]
        assert ans.status is expected, (i, ans)
        if expected is SourceStatus.FOUND:
            assert ans.records[0].doi == f"10.5555/{i}"
        else:
            assert ans.message
    # bounded retries: each faulty DOI was tried at most 1 + max_retries times
    assert max(seen.values()) <= 2
