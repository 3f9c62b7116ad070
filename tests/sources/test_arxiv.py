"""arXiv adapter against recorded Atom feeds."""

from __future__ import annotations

import asyncio

from citecheck_tex.model import Answer, Query, QueryKind, SourceStatus
from citecheck_tex.sources.arxiv import parse_feed
from citecheck_tex.sources.base import make_source
from citecheck_tex.sources.http import open_http
from tests.replay import ReplayServer, Reply, Request
from tests.sources.conftest import FAST, FIXTURES, load, recorded, settings_for


def run(server: ReplayServer, queries: list[Query], **kw: object) -> list[Answer]:
    async def go() -> list[Answer]:
        settings = settings_for(server, **kw)
        async with open_http(settings, limits=FAST) as http:
            return await make_source("arxiv", http, settings).fetch_batch(queries)
    return asyncio.run(go())


def q(value: str) -> Query:
    return Query(QueryKind.ARXIV, value)


def test_batch_strips_versions_and_reports_missing_ids(server: ReplayServer) -> None:
    server.add_file(FIXTURES / "arxiv.jsonl")
    answers = run(server, [q("0808.05394"), q("arXiv:1707.08567v1")])
    assert server.count("GET", "/api/query") == 1  # one id_list request for both
    assert answers[0].status is SourceStatus.NOT_FOUND
    assert answers[1].status is SourceStatus.FOUND
    rec = answers[1].records[0]
    assert rec.arxiv == "1707.08567"
    assert rec.title.startswith("Proceedings of Workshop AEW10")
    assert rec.authors[0].family == "Immink" and rec.authors[0].given == "Kees A. Schouhamer"
    assert rec.year == "2017"
    assert answers[0].http_requests + answers[1].http_requests == 1


def test_old_style_id_with_journal_ref(server: ReplayServer) -> None:
    server.add_file(FIXTURES / "arxiv.jsonl")
    [ans] = run(server, [q("astro-ph/0601001v1")])
    assert ans.status is SourceStatus.FOUND
    rec = ans.records[0]
    assert rec.arxiv == "astro-ph/0601001"
    assert rec.year == "2006"
    assert rec.title.startswith("Frequency of Hot Jupiters")
    assert "  " not in rec.title
    assert rec.entry_type == "article"
    # <arxiv:journal_ref>ActaAstron.56:1-50,2006</arxiv:journal_ref>
    assert rec.extra_pubs == (("ActaAstron.", "56", "1", "2006"),)


def test_unknown_id_empty_feed_is_not_found(server: ReplayServer) -> None:
    server.add_file(FIXTURES / "arxiv.jsonl")
    [ans] = run(server, [q("0000.0000")])
    assert ans.status is SourceStatus.NOT_FOUND


def test_malformed_id_error_entry_is_not_found_and_rest_of_batch_is_asked(
    server: ReplayServer,
) -> None:
    server.add_file(FIXTURES / "arxiv.jsonl")
    bad = recorded("arxiv.jsonl", "id_list=abc")
    assert bad["status"] == 400

    def error_feed(req: Request) -> Reply | None:
        # the real 400 feed, for any batch that contains the malformed id
        if "abc" in req.param("id_list").split(","):
            return Reply.make(400, bad["body_text"], content_type="application/atom+xml")
        return None

    server.add_handler(error_feed)
    answers = run(server, [q("abc"), q("1605.08386")])
    assert answers[0].status is SourceStatus.NOT_FOUND
    assert "incorrect id format" in answers[0].message
    assert answers[1].status is SourceStatus.FOUND
    assert answers[1].records[0].arxiv == "1605.08386"


def test_rate_exceeded_with_http_200_is_rate_limited(server: ReplayServer) -> None:
    server.add_handler(lambda req: Reply.make(200, "Rate exceeded."))
    answers = run(server, [q("1605.08386"), q("1707.08567")], max_retries=1)
    assert [a.status for a in answers] == [SourceStatus.RATE_LIMITED] * 2
    assert server.count() == 2  # one retry, then give up


def test_title_search_uses_ti_field(server: ReplayServer) -> None:
    body = recorded("arxiv.jsonl", "id_list=1605.08386")["body_text"]
    server.add_handler(lambda req: Reply.make(200, body) if req.param("search_query") else None)
    [ans] = run(server, [Query(QueryKind.TITLE, "Some: title (with) punctuation")])
    assert server.requests[0].param("search_query") == 'ti:"Some title with punctuation"'
    assert ans.status is SourceStatus.FOUND


def test_parse_feed_of_every_recording() -> None:
    for rec in load("arxiv.jsonl"):
        records, errors = parse_feed(rec["body_text"])
        if rec["status"] == 400:
            assert errors == ["abc"] and not records
        for r in records:
            assert r.title and r.authors and r.year and "v" not in r.arxiv[-3:]
