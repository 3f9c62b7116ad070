"""Answers of a misbehaving server that had become verdicts, stalls or tracebacks.

Found 2026-12-02 with fake servers on 127.0.0.1 answering every source: an arXiv error
entry other than "incorrect id format", or a feed that counts results and lists none,
made two correct references MAJOR (arXiv, the authority for arXiv ids, said "no such
paper"); an INSPIRE answer counting 5,000 hits and listing none made twenty MAJOR; one
``X-Rate-Limit-Interval: 100000s`` held a run until its deadline, ``infs`` divided by
zero; a redirect loop, a body that does not gunzip, JSON nested 200,000 deep and a wrong
charset each printed a traceback.
"""

from __future__ import annotations

import asyncio
import gzip

import pytest

from citecheck_tex.model import Answer, Query, QueryKind, SourceStatus
from citecheck_tex.sources.base import make_source
from citecheck_tex.sources.http import HostLimit, open_http
from tests.replay import ReplayServer, Reply
from tests.sources.conftest import FAST, settings_for

ARXIV_ERROR = ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/'
               'Atom" xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">'
               '<opensearch:totalResults>1</opensearch:totalResults><entry><id>'
               'http://arxiv.org/api/errors#unknown</id><title>Error</title><summary>'
               'internal error</summary></entry></feed>')
ARXIV_CUT = ('<?xml version="1.0" encoding="UTF-8"?>\n<feed xmlns="http://www.w3.org/2005/Atom"'
             ' xmlns:opensearch="http://a9.com/-/spec/opensearch/1.1/">'
             '<opensearch:totalResults>5</opensearch:totalResults></feed>')
ARXIV_NONE = ARXIV_CUT.replace(">5<", ">0<")  # what arXiv says for an id it lacks


def _answers(name: str, queries: list[Query], reply: Reply, **settings: object) -> list[Answer]:
    with ReplayServer() as server:
        server.add_handler(lambda req: reply)
        config = settings_for(server, max_retries=0, **settings)

        async def go() -> list[Answer]:
            async with open_http(config, limits=FAST) as http:
                return list(await make_source(name, http, config).fetch_batch(queries))

        return asyncio.run(go())


@pytest.mark.parametrize(("body", "status"), [
    (ARXIV_ERROR, SourceStatus.ERROR),
    (ARXIV_CUT, SourceStatus.ERROR),
    (ARXIV_NONE, SourceStatus.NOT_FOUND),  # the real "no such paper" stays one
])
def test_arxiv_errors_and_cut_feeds_are_no_answer(body: str, status: SourceStatus) -> None:
    queries = [Query(QueryKind.ARXIV, "1709.01234"), Query(QueryKind.TITLE, "Axion strings")]
    answers = _answers("arxiv", queries,
                       Reply.make(200, body, content_type="application/atom+xml"))
    assert [a.status for a in answers] == [status, status]


def test_inspire_counting_hits_it_does_not_list_is_no_answer() -> None:
    answers = _answers("inspire", [Query(QueryKind.TITLE, "Axion strings")],
                       Reply.make(200, '{"hits": {"hits": [], "total": 5000}}',
                                  content_type="application/json"))
    assert [a.status for a in answers] == [SourceStatus.ERROR]
    assert "counts 5000 hits and lists none" in answers[0].message
    real_none = _answers("inspire", [Query(QueryKind.TITLE, "Axion strings")],
                         Reply.make(200, '{"hits": {"hits": [], "total": 0}}',
                                    content_type="application/json"))
    assert [a.status for a in real_none] == [SourceStatus.NOT_FOUND]


@pytest.mark.parametrize("interval", ["100000s", "infs", "nans"])
def test_an_absurd_announced_rate_is_left_aside(interval: str) -> None:
    with ReplayServer() as server:
        server.add("GET", "/x", body="ok", headers={"X-Rate-Limit-Limit": "1",
                                                     "X-Rate-Limit-Interval": interval})

        async def go() -> float:
            limits = {"crossref": HostLimit(50, 1.0, concurrency=5)}
            async with open_http(settings_for(server), limits=limits) as http:
                for _ in range(3):  # the second and third are not held back
                    await http.request("crossref", "GET", server.url + "/x")
                return http.limiter.rate_per_s("crossref", http.limit_for("crossref"))

        assert asyncio.run(asyncio.wait_for(go(), 30)) == 50.0


@pytest.mark.parametrize("reply", [
    Reply.make(302, "", headers={"Location": "/crossref/works/10.1000/x"}),  # to itself
    Reply.make(200, gzip.compress(b"{}")[:-8] + b"garbage", content_type="application/json",
               headers={"Content-Encoding": "gzip"}),
    Reply.make(200, "[" * 200_000 + "]" * 200_000, content_type="application/json"),
], ids=["redirect-loop", "bad-gzip", "deep-json"])
def test_broken_transport_and_bodies_are_source_errors(reply: Reply) -> None:
    answers = _answers("crossref", [Query(QueryKind.DOI, "10.1000/x")], reply)
    assert [a.status for a in answers] == [SourceStatus.ERROR]


def test_an_arxiv_feed_in_a_wrong_charset_is_read() -> None:
    feed = ARXIV_NONE
    answers = _answers("arxiv", [Query(QueryKind.ARXIV, "1709.01234")],
                       Reply.make(200, feed.encode(),
                                  content_type="application/atom+xml; charset=utf-16"))
    assert [a.status for a in answers] == [SourceStatus.NOT_FOUND]
