"""Fault injection at the HTTP layer (issue 12, rows 1-4, 10, 11): loopback servers that
answer like the real APIs, badly. Every case asserts the outcome (status, message,
what reached the server), never a duration; time limits are set small so that the
tests are quick.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from citecheck_tex.config import Settings
from citecheck_tex.errors import RateLimited, SourceError
from citecheck_tex.model import Answer, Query, QueryKind, SourceStatus
from citecheck_tex.redact import redact
from citecheck_tex.sources.base import make_source
from citecheck_tex.sources.http import HostLimit, open_http
from tests.replay import DROP, ReplayServer, Reply, Request, _Drop
from tests.sources.conftest import FAST, recorded, settings_for

#: The queries each adapter answers (ads needs a token in the environment).
KINDS: dict[str, tuple[QueryKind, ...]] = {
    "arxiv": (QueryKind.ARXIV, QueryKind.TITLE),
    "crossref": (QueryKind.DOI, QueryKind.TITLE),
    "datacite": (QueryKind.DOI,),
    "inspire": (QueryKind.ARXIV, QueryKind.DOI, QueryKind.TEXKEY, QueryKind.JOURNAL_REF,
                QueryKind.AUTHOR_YEAR, QueryKind.TITLE),
    "semanticscholar": (QueryKind.DOI, QueryKind.ARXIV, QueryKind.TITLE),
    "openalex": (QueryKind.DOI, QueryKind.TITLE),
    "dblp": (QueryKind.TITLE,),
    "ads": (QueryKind.DOI, QueryKind.ARXIV, QueryKind.TITLE),
}

GATEWAY = ("<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>"
           "<body><h1>502 Bad Gateway</h1><hr>nginx</body></html>")
#: Bodies sent with HTTP 200 that are not answers, and the word the message must contain.
NON_ANSWERS = {
    "html": (GATEWAY, "text/html", "HTML page (502 Bad Gateway)"),
    "error-json": ('{"status": "error", "message": "backend unavailable"}', "application/json",
                   "error message"),
    "error-xml": ("<error>maintenance</error>", "application/xml", ""),
}


def _queries(name: str) -> list[Query]:
    out = []
    for kind in KINDS[name]:
        out.append(Query(kind, "10.1000/x1" if kind is QueryKind.DOI else "1234.5678",
                         authors=("Smith",), year="2001", journal="Phys.Rev.D", volume="1",
                         page="2"))
        if kind is QueryKind.TITLE:
            out[-1] = replace(out[-1], value="A real title of a real paper")
    return out


def _ask(server: ReplayServer, name: str, queries: list[Query], **overrides: Any) -> list[Answer]:
    async def go() -> list[Answer]:
        settings = settings_for(server, **overrides)
        async with open_http(settings, limits=FAST) as http:
            return list(await make_source(name, http, settings).fetch_batch(queries))
    return asyncio.run(go())


@pytest.mark.parametrize("mode", sorted(NON_ANSWERS))
@pytest.mark.parametrize("name", sorted(KINDS))
def test_http_200_without_an_answer_is_a_source_failure(
    name: str, mode: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Row 1: an error with HTTP 200 was read as "no results" (real papers became MAJOR)."""
    monkeypatch.setenv("ADS_API_TOKEN", "ads-token-for-tests")
    body, ctype, word = NON_ANSWERS[mode]
    if name == "arxiv" and mode == "error-json":
        word = "backend unavailable"  # quoted: not a feed
    with ReplayServer() as server:
        server.add_handler(lambda req: Reply.make(200, body, content_type=ctype))
        answers = _ask(server, name, _queries(name), max_retries=0)
    assert answers, name
    for ans in answers:
        assert ans.status is SourceStatus.ERROR, (name, mode, ans)
        # the source's own failure, or the source given up after repeating it
        assert ans.message.startswith(f"{name}: "), ans
        assert "HTTP 200 but not an answer of the API" in ans.message, ans
        assert word in ans.message, ans.message


def test_arxiv_rate_exceeded_with_http_200_is_rate_limited() -> None:
    with ReplayServer() as server:
        server.add_handler(lambda req: Reply.make(200, "Rate exceeded.\n"))
        answers = _ask(server, "arxiv", _queries("arxiv"), max_retries=1)
        asked = server.count()
    assert {a.status for a in answers} == {SourceStatus.RATE_LIMITED}
    assert "rate-limit message" in answers[0].message
    assert asked <= 2 * len(answers)


def test_an_html_404_is_not_a_not_found() -> None:
    """A 404 read as "not found" (Crossref, DataCite, S2 match) must come from the API,
    not from a proxy's HTML page."""
    with ReplayServer() as server:
        server.add_handler(lambda req: Reply.make(404, GATEWAY, content_type="text/html"))
        [ans] = _ask(server, "crossref", [Query(QueryKind.DOI, "10.1000/x1")], max_retries=0)
    assert ans.status is SourceStatus.ERROR and "HTML page" in ans.message


def test_recorded_real_answers_still_pass_the_shape_checks(server: ReplayServer) -> None:
    """The shape checks accept what the APIs really send: a recorded Crossref 404 is
    NOT_FOUND, a recorded work is FOUND."""
    server.add_recorded(recorded("crossref.jsonl", "/works/10.1371/notarealdoi"))
    server.add_recorded(recorded("crossref.jsonl", "/works/10.1371/journal.pone.0033693",
                                 status=200))
    answers = [_ask(server, "crossref", [Query(QueryKind.DOI, doi)], max_retries=0)[0]
               for doi in ("10.1371/notarealdoi", "10.1371/journal.pone.0033693")]
    assert [a.status for a in answers] == [SourceStatus.NOT_FOUND, SourceStatus.FOUND]


# -- Retry-After -------------------------------------------------------------------

PATIENT = {"crossref": HostLimit(1000, 1.0, concurrency=4, backoff_base=0.01, backoff_max=0.05,
                                 max_retry_after=1e9)}


@pytest.mark.parametrize("status", [429, 503])
@pytest.mark.parametrize("retry_after", ["120", "3600", "Thu, 01 Jan 2099 00:00:00 GMT"])
def test_a_long_retry_after_gives_the_source_up_instead_of_waiting(
    retry_after: str, status: int
) -> None:
    """Row 2: every later request to the source waited the Retry-After out (an hour,
    or until 2099)."""
    with ReplayServer() as server:
        server.add_handler(lambda req: Reply.make(status, "slow down",
                                                  headers={"Retry-After": retry_after}))
        settings = settings_for(server, max_retry_after_s=60.0)

        async def go() -> list[BaseException | Any]:
            async with asyncio.timeout(60):  # a guard: before the fix this waited the hour out
                async with open_http(settings, limits=PATIENT) as http:
                    out: list[BaseException | Any] = []
                    for i in range(3):
                        try:
                            out.append(await http.request("crossref", "GET",
                                                          f"{server.url}/works/{i}"))
                        except SourceError as exc:
                            out.append(exc)
                    return out
        errors = asyncio.run(go())
        asked = server.count()
    assert all(isinstance(e, RateLimited) for e in errors), errors
    assert asked == 1  # given up after the first answer: nobody waited, nobody asked again
    message = str(errors[0])
    assert "not asked again in this run" in message and "Retry after" in message
    assert "longer than the 60 s we wait" in message
    if retry_after.startswith("Thu"):
        assert "2099-01-01" in message


def test_a_short_retry_after_is_honoured() -> None:
    with ReplayServer() as server:
        server.add("GET", "/x", status=429, headers={"Retry-After": "0.05"})
        server.add("GET", "/x", status=200, body="ok")

        async def go() -> str:
            async with open_http(settings_for(server), limits=PATIENT) as http:
                return (await http.request("crossref", "GET", server.url + "/x")).text
        assert asyncio.run(go()) == "ok"


# -- a source that keeps throttling or failing is dropped for the run -------------------

def _hammer(server: ReplayServer, source: str, n: int, **overrides: Any) -> list[Any]:
    from citecheck_tex.sources.dblp import EXPECT

    settings = settings_for(server, **overrides)

    async def go() -> list[Any]:
        async with open_http(settings, limits=FAST) as http:
            out = []
            for i in range(n):  # one after the other, as a serialised source is asked
                try:
                    out.append(await http.request(source, "GET", f"{server.url}/q/{i}",
                                                  expect=EXPECT if source == "dblp" else None))
                except SourceError as exc:
                    out.append(exc)
            return out
    return asyncio.run(go())


def test_only_semantic_scholar_throttling_is_dropped_after_a_few_tries() -> None:
    """Row 3: one source answering 429 to everything kept 40 references unfinished for
    25 minutes."""
    with ReplayServer() as server:
        server.add_handler(lambda req: Reply.make(429, '{"message": "Too Many Requests"}',
                                                  content_type="application/json"))
        results = _hammer(server, "semanticscholar", 20, max_retries=3, give_up_after=6)
        asked = server.count()
    assert all(isinstance(r, RateLimited) for r in results)
    assert asked == 6  # then not asked again
    assert "throttled us 6 times in a row" in str(results[-1])


@pytest.mark.parametrize("fault", ["reset", "stall", "html"])
def test_a_source_failing_again_and_again_is_dropped(fault: str) -> None:
    """Row 3: resets or stalls everywhere made a run take 785 s with max_retries=1."""
    def handler(req: Request) -> Reply | _Drop:
        if fault == "reset":
            return DROP
        if fault == "stall":
            time.sleep(0.5)  # longer than the time budget below
        return Reply.make(200, GATEWAY, content_type="text/html")

    with ReplayServer() as server:
        server.add_handler(handler)
        results = _hammer(server, "dblp", 10, max_retries=1, give_up_after=4, timeout_s=0.2)
        asked = server.count()
    assert all(isinstance(r, SourceError) for r in results)
    assert asked == 4
    assert "not asked again in this run" in str(results[-1])


def test_one_success_resets_the_count() -> None:
    flip = iter(range(1000))

    def handler(req: Request) -> Reply:
        return Reply.make(200, {"result": {"hits": {}}}) if next(flip) % 3 == 2 \
            else Reply.make(502, "bad")

    with ReplayServer() as server:
        server.add_handler(handler)
        results = _hammer(server, "dblp", 10, max_retries=2, give_up_after=3)
    assert all(getattr(r, "status_code", 0) == 200 for r in results)


# -- a request has a total time budget; bodies are capped ------------------------------

def test_a_server_that_drips_cannot_hold_a_request() -> None:
    """Row 4: a server sending one byte at a time never timed out (each byte arrived
    within the read time-out)."""
    body = b'{"status": "ok", "message": {"items": []}}' * 3
    with ReplayServer() as server:
        server.add_handler(lambda req: Reply(200, body, {"Content-Type": "application/json"},
                                             drip_s=0.05))
        [ans] = _ask(server, "crossref", [Query(QueryKind.TITLE, "A title")], timeout_s=0.3,
                     max_retries=0)
    assert ans.status is SourceStatus.ERROR
    assert "no complete answer within 0.3 s" in ans.message


def _megabytes(n: int) -> Iterator[bytes]:
    chunk = b"x" * 1_000_000
    for _ in range(n):
        yield chunk


@pytest.mark.parametrize("declared", [True, False])
def test_a_60_mb_body_is_refused_without_being_read_whole(declared: bool) -> None:
    """Row 11: 60 MB answers took 3.9 GB of memory. With the shipped 20 MB cap the
    client stops reading (the server could not send the rest) and the answer is an
    error, not a parse of 60 MB."""
    assert Settings().max_response_bytes == 20_000_000
    with ReplayServer() as server:
        server.add_handler(lambda req: Reply(
            200, b"", {"Content-Type": "application/json"}, stream=lambda: _megabytes(60),
            declared_length=60_000_000 if declared else None))
        [ans] = _ask(server, "openalex", [Query(QueryKind.TITLE, "A title")], max_retries=0,
                     max_response_bytes=Settings().max_response_bytes, timeout_s=20.0)
        sent = server.sent
    assert ans.status is SourceStatus.ERROR
    assert "more than 20 MB" in ans.message and "refused" in ans.message
    assert sent < 60_000_000


def test_a_body_under_the_cap_is_read() -> None:
    with ReplayServer() as server:
        server.add_handler(lambda req: Reply.make(200, {"meta": {}, "results": []}))
        [ans] = _ask(server, "openalex", [Query(QueryKind.TITLE, "A title")],
                     max_response_bytes=1000)
    assert ans.status is SourceStatus.NOT_FOUND


# -- secrets -----------------------------------------------------------------------------

def test_redact_masks_keys_in_urls_and_headers_but_not_mailto() -> None:
    text = ("GET https://api.openalex.org/works?search=x&api_key=S3CRET-KEY&mailto=a@b.org "
            "{'x-api-key': 'S2SECRET'} Authorization: Bearer ADSTOKEN123456")
    out = redact(text)
    for secret in ("S3CRET-KEY", "S2SECRET", "ADSTOKEN123456"):
        assert secret not in out
    assert "mailto=a@b.org" in out and "api_key=***" in out


def test_the_request_log_never_holds_the_openalex_key(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Row 10: --verbose printed OpenAlex's ``api_key=`` in every request URL (httpx
    logs each request at INFO)."""
    monkeypatch.setenv("OPENALEX_API_KEY", "oa-secret-4711")
    with ReplayServer() as server:
        server.add_handler(lambda req: Reply.make(200, {"meta": {}, "results": []}))
        with caplog.at_level(logging.DEBUG):
            [ans] = _ask(server, "openalex", [Query(QueryKind.TITLE, "A title")])
        seen = server.requests[0].param("api_key")
    assert ans.status is SourceStatus.NOT_FOUND
    assert seen == "oa-secret-4711"  # the key is sent...
    logged = "\n".join(r.getMessage() for r in caplog.records)
    assert "HTTP Request" in logged  # ...the request was logged...
    assert "oa-secret-4711" not in logged  # ...without it
