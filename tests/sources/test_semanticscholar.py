"""Semantic Scholar adapter against recorded batch / match responses."""

from __future__ import annotations

import asyncio

import pytest

from citecheck_tex.model import Answer, Query, QueryKind, SourceStatus
from citecheck_tex.sources.base import make_source
from citecheck_tex.sources.http import open_http
from citecheck_tex.sources.semanticscholar import FIELDS
from tests.replay import ReplayServer, Reply, Request
from tests.sources.conftest import FAST, load, recorded, settings_for


def run(server: ReplayServer, queries: list[Query]) -> list[Answer]:
    async def go() -> list[Answer]:
        settings = settings_for(server)
        async with open_http(settings, limits=FAST) as http:
            return await make_source("semanticscholar", http, settings).fetch_batch(queries)
    return asyncio.run(go())


def test_batch_post_with_nulls(server: ReplayServer) -> None:
    batch = recorded("semantic_scholar.jsonl", "/paper/batch")
    assert batch["body_json"][0] is None
    bodies: list[Request] = []

    def handler(req: Request) -> Reply | None:
        if req.method == "POST" and req.path == "/graph/v1/paper/batch":
            bodies.append(req)
            # the recorded answer (4 entries, the first null), for our 4 ids
            return Reply.make(200, batch["body_json"])
        return None

    server.add_handler(handler)
    queries = [Query(QueryKind.DOI, "10.9999/unknown"),
               Query(QueryKind.DOI, "10.2139/SSRN.288970"),
               Query(QueryKind.DOI, "10.2139/ssrn.2250500"),
               Query(QueryKind.ARXIV, "arXiv:2101.00001v2")]
    answers = run(server, queries)
    assert len(bodies) == 1
    assert bodies[0].json() == {"ids": ["DOI:10.9999/unknown", "DOI:10.2139/ssrn.288970",
                                        "DOI:10.2139/ssrn.2250500", "ARXIV:2101.00001"]}
    assert bodies[0].param("fields") == FIELDS
    assert [a.status for a in answers] == [SourceStatus.NOT_FOUND] + [SourceStatus.FOUND] * 3
    rec = answers[1].records[0]
    assert rec.title == "How Much Should We Trust Differences-in-Differences Estimates?"
    assert rec.doi == "10.2139/ssrn.288970" and rec.year == "2001"
    assert [a.family for a in rec.authors] == ["Bertrand", "Duflo", "Mullainathan"]


def test_match_found_and_404_not_found(server: ReplayServer) -> None:
    paper = load("semantic_scholar_payloads.jsonl")[0]["body_json"]
    missing = recorded("semantic_scholar.jsonl", "/paper/0?", status=404)
    title = "XGBoost: A Scalable Tree Boosting System"
    server.add("GET", f"/graph/v1/paper/search/match?query={title}&fields={FIELDS}",
               body={"data": [paper]})
    server.add_recorded(missing, url=f"/graph/v1/paper/search/match?query=No such paper"
                                     f"&fields={FIELDS}")
    answers = run(server, [Query(QueryKind.TITLE, title), Query(QueryKind.TITLE, "No such paper")])
    assert answers[0].status is SourceStatus.FOUND
    rec = answers[0].records[0]
    assert rec.arxiv == "1603.02754" and rec.doi == "10.1145/2939672.2939785"
    assert 0 < rec.score <= 1
    assert answers[1].status is SourceStatus.NOT_FOUND


def test_api_key_header(server: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("S2_API_KEY", "secret-key")
    match = recorded("semantic_scholar.jsonl", "/paper/search/match")
    seen: list[Request] = []

    def handler(req: Request) -> Reply:
        seen.append(req)
        return Reply.make(200, match["body_json"])

    server.add_handler(handler)
    [ans] = run(server, [Query(QueryKind.TITLE, "Mining association rules between sets")])
    assert seen[0].headers.get("x-api-key") == "secret-key"
    assert ans.status is SourceStatus.FOUND
    assert ans.records[0].title == "Mining association rules between sets of items in large databases"


def test_no_key_no_header(server: ReplayServer) -> None:
    server.add_handler(lambda req: Reply.make(200, {"data": []}))
    [ans] = run(server, [Query(QueryKind.TITLE, "x")])
    assert "x-api-key" not in server.requests[0].headers
    assert ans.status is SourceStatus.NOT_FOUND
