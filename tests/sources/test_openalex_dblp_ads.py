"""OpenAlex and DBLP adapters (payload-only recordings, wrapped).

The NASA ADS tests moved to ``test_ads.py``."""

from __future__ import annotations

import pytest

from citecheck_tex.model import Answer, Query, QueryKind, SourceStatus
from tests.replay import ReplayServer, Reply, Request
from tests.sources.conftest import ask, load


def run(server: ReplayServer, name: str, queries: list[Query], **kw: object) -> list[Answer]:
    return ask(server, name, queries, **kw)


def test_openalex_doi_batch_filter(server: ReplayServer, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENALEX_API_KEY", "k123")
    works = load("openalex_payloads.jsonl")[0]["body_json"]
    seen: list[Request] = []

    def handler(req: Request) -> Reply:
        seen.append(req)
        # documented envelope around the recorded results[]
        return Reply.make(200, {"meta": {"count": len(works)}, "results": works,
                                "group_by": []}, headers={"X-RateLimit-Remaining": "99"})

    server.add_handler(handler)
    answers = run(server, "openalex", [Query(QueryKind.DOI, "10.1184/R1/13194722.v1"),
                                       Query(QueryKind.DOI, "10.1000/absent")])
    assert len(seen) == 1
    assert seen[0].param("filter") == "doi:10.1184/r1/13194722.v1|10.1000/absent"
    assert seen[0].param("api_key") == "k123"
    assert [a.status for a in answers] == [SourceStatus.FOUND, SourceStatus.NOT_FOUND]
    rec = answers[0].records[0]
    assert rec.title.startswith("GPU Algorithms for Large-Scale Optimization")
    assert rec.authors and rec.year


def test_openalex_title_search(server: ReplayServer) -> None:
    works = load("openalex_payloads.jsonl")[0]["body_json"]
    server.add_handler(lambda req: Reply.make(200, {"meta": {}, "results": works})
                       if req.param("search") else None)
    [ans] = run(server, "openalex", [Query(QueryKind.TITLE, "GPU Algorithms: large scale")])
    assert server.requests[0].param("search") == "GPU Algorithms  large scale"
    assert ans.status is SourceStatus.FOUND


def test_dblp_single_author_object_homonyms_and_case(server: ReplayServer) -> None:
    hits = load("dblp_payloads.jsonl")[1]["body_json"]
    single = next(h for h in hits if isinstance(h["info"]["authors"]["author"], dict))
    seen: list[Request] = []

    def handler(req: Request) -> Reply:
        seen.append(req)
        return Reply.make(200, {"result": {"hits": {"@total": str(len(hits)),
                                                     "@sent": str(len(hits)), "hit": hits}}})

    server.add_handler(handler)
    [ans] = run(server, "dblp", [Query(QueryKind.TITLE, single["info"]["title"])])
    assert seen[0].param("format") == "json" and seen[0].param("h") == "5"
    assert ans.status is SourceStatus.FOUND
    rec = next(r for r in ans.records if r.id == single["info"]["key"])
    assert len(rec.authors) == 1
    assert not rec.title.endswith(".")
    assert rec.doi == rec.doi.lower()


def test_dblp_corr_entry_becomes_arxiv(server: ReplayServer) -> None:
    hits = load("dblp_payloads.jsonl")[0]["body_json"]
    server.add_handler(lambda req: Reply.make(200, {"result": {"hits": {"hit": hits}}}))
    [ans] = run(server, "dblp", [Query(QueryKind.TITLE, "Large Language Models on Tabular Data")])
    rec = ans.records[0]
    assert rec.arxiv == "2402.17944" and rec.volume == "" and rec.entry_type == "preprint"
    assert all(not a.family.isdigit() for a in rec.authors)
    assert rec.authors[3].family == "Zhang"  # "Jiani Zhang 0003"


def test_dblp_empty_result_is_not_found(server: ReplayServer) -> None:
    server.add_handler(lambda req: Reply.make(200, {"result": {"hits": {"@total": "0"}}}))
    [ans] = run(server, "dblp", [Query(QueryKind.TITLE, "nothing at all")])
    assert ans.status is SourceStatus.NOT_FOUND
