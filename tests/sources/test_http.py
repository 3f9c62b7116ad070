"""The HTTP stack: retry, Retry-After, adaptive slow-down, circuit breaker, counters."""

from __future__ import annotations

import asyncio
import socket
from dataclasses import replace

import httpx
import pytest

from citecheck_tex.config import Settings
from citecheck_tex.errors import RateLimited, SourceError
from citecheck_tex.model import Query, QueryKind, SourceStatus
from citecheck_tex.sources.base import make_source
from citecheck_tex.sources.http import HostLimit, Http, TokenBucket, open_http, parse_retry_after
from tests.replay import DROP, ReplayServer
from tests.sources.conftest import FAST, settings_for


def test_parse_retry_after() -> None:
    assert parse_retry_after("7") == 7.0
    assert parse_retry_after(None) == 0.0
    assert parse_retry_after("garbage") == 0.0
    assert parse_retry_after("Wed, 21 Oct 2015 07:28:10 GMT", now=1445412480.0) == 10.0


def test_bucket_slows_down_after_429_and_relaxes() -> None:
    async def go() -> TokenBucket:
        b = TokenBucket(10, 1.0)
        b.penalise(0.0)
        b.penalise(0.0)
        return b
    b = asyncio.run(go())
    assert b.slow == 4.0
    for _ in range(30):
        b.relax()
    assert 1.0 <= b.slow < 4.0


def test_429_retry_after_then_success(server: ReplayServer) -> None:
    server.add("GET", "/x", status=429, headers={"Retry-After": "0"})
    server.add("GET", "/x", status=200, body="ok")

    async def go() -> tuple[str, Http]:
        async with open_http(settings_for(server), limits=FAST) as http:
            resp = await http.request("crossref", "GET", server.url + "/x")
            return resp.text, http
    text, http = asyncio.run(go())
    assert text == "ok"
    assert http.requests == 2 and http.requests_by_source == {"crossref": 2}
    assert http.stats()["crossref"]["rate_limited"] == 1


def test_persistent_429_raises_rate_limited(server: ReplayServer) -> None:
    server.add("GET", "/x", status=429, headers={"Retry-After": "0"})

    async def go() -> None:
        async with open_http(settings_for(server, max_retries=1), limits=FAST) as http:
            await http.request("crossref", "GET", server.url + "/x")
    with pytest.raises(RateLimited):
        asyncio.run(go())
    assert server.count() == 2


def test_long_retry_after_is_not_waited_for(server: ReplayServer) -> None:
    server.add("GET", "/x", status=429, headers={"Retry-After": "3600"})

    async def go() -> None:
        async with open_http(settings_for(server), limits=FAST) as http:
            await http.request("crossref", "GET", server.url + "/x")
    with pytest.raises(RateLimited) as info:
        asyncio.run(go())
    assert info.value.retry_after == 3600 and server.count() == 1


def test_dropped_connections_are_retried_a_bounded_number_of_times(server: ReplayServer) -> None:
    server.add_handler(lambda req: DROP)

    async def go() -> None:
        async with open_http(settings_for(server, max_retries=2), limits=FAST) as http:
            await http.request("crossref", "GET", server.url + "/x")
    with pytest.raises(SourceError) as info:
        asyncio.run(go())
    assert "3 attempt" in str(info.value)
    assert server.count() == 3


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
    return port


def test_circuit_breaker_fails_fast_after_a_connect_error() -> None:
    url = f"http://127.0.0.1:{_closed_port()}"
    settings = replace(Settings(), base_urls={"crossref": url}, max_retries=3)

    async def go() -> tuple[list[SourceStatus], Http, str]:
        async with open_http(settings, limits=FAST) as http:
            src = make_source("crossref", http, settings)
            answers = await asyncio.gather(*(src.fetch(Query(QueryKind.DOI, f"10.1000/{i}"))
                                             for i in range(50)))
            return [a.status for a in answers], http, answers[-1].message
    statuses, http, message = asyncio.run(go())
    assert statuses == [SourceStatus.ERROR] * 50
    # a few connection attempts (retries and requests already in flight), not 50 x 4
    assert http.requests <= 3 + FAST["crossref"].concurrency
    assert list(http.down_hosts) == [url.removeprefix("http://")]
    assert "127.0.0.1" in http.network_message()
    assert "unreachable" in message or "cannot connect" in message


def test_crossref_rate_limit_headers_lower_the_rate(server: ReplayServer) -> None:
    server.add("GET", "/x", body="ok", headers={"X-Rate-Limit-Limit": "5",
                                                 "X-Rate-Limit-Interval": "1s"})

    async def go() -> float:
        limits = {"crossref": HostLimit(50, 1.0, concurrency=5)}
        async with open_http(settings_for(server), limits=limits) as http:
            await http.request("crossref", "GET", server.url + "/x")
            return http.limiter.rate_per_s("crossref", http.limit_for("crossref"))
    assert asyncio.run(go()) == 5.0


def test_user_agent_and_mock_transport() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, text="fine")

    settings = replace(Settings(), mailto="me@example.org")

    async def go() -> None:
        async with open_http(settings, transport=httpx.MockTransport(handler),
                             limits=FAST) as http:
            await http.request("openalex", "GET", "https://api.openalex.org/works")
    asyncio.run(go())
    assert "citecheck-tex" in seen[0].headers["user-agent"]
    assert "mailto:me@example.org" in seen[0].headers["user-agent"]


def test_503_then_200(server: ReplayServer) -> None:
    server.add("GET", "/x", status=503, body="<html>busy</html>")
    server.add("GET", "/x", body="ok")

    async def go() -> str:
        async with open_http(settings_for(server), limits=FAST) as http:
            return (await http.request("inspire", "GET", server.url + "/x")).text
    assert asyncio.run(go()) == "ok"
    assert server.count() == 2


def test_reply_404_for_unknown_requests(server: ReplayServer) -> None:
    async def go() -> int:
        async with open_http(settings_for(server), limits=FAST) as http:
            return (await http.request("dblp", "GET", server.url + "/nothing?a=1")).status_code
    assert asyncio.run(go()) == 404


def test_process_wide_slots_are_spaced_by_the_interval() -> None:
    from citecheck_tex.sources.http import reserve_process_slot

    first = reserve_process_slot("test-src", 3.0)
    second = reserve_process_slot("test-src", 3.0)
    third = reserve_process_slot("test-src", 3.0)
    assert first <= 0.0 < second
    assert 2.5 < third - second <= 3.0
    assert reserve_process_slot("other-src", 3.0) <= 0.0
