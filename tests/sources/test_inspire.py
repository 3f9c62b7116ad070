"""INSPIRE-HEP adapter: real hits served at the searches the adapter sends."""

from __future__ import annotations

import asyncio
import re
from typing import Any

from citecheck_tex.model import Answer, Query, QueryKind, SourceStatus
from citecheck_tex.sources.base import make_source
from citecheck_tex.sources.http import open_http
from citecheck_tex.sources.inspire import parse_hit
from tests.replay import ReplayServer, Reply, Request
from tests.sources.conftest import FAST, load, settings_for

HITS = load("inspire_hits.jsonl")


def envelope(hits: list[dict[str, Any]]) -> dict[str, Any]:
    """The recorded search envelope (shared inspire.jsonl) around real hits."""
    return {"hits": {"total": len(hits), "hits": hits}, "links": {}}


def matches(hit: dict[str, Any], term: str) -> bool:
    md = hit["metadata"]
    field, _, value = term.partition(":")
    value = value.strip('"').lower()
    if field == "arxiv":
        return any(e["value"].lower() == value for e in md.get("arxiv_eprints", []))
    if field == "doi":
        return any(d["value"].lower() == value for d in md.get("dois", []))
    if field == "texkeys":
        return value in [t.lower() for t in md.get("texkeys", [])]
    return False


def literature(req: Request) -> Reply | None:
    """Answer identifier searches ("x:a or x:b") and journal references from HITS."""
    if req.path != "/api/literature":
        return None
    q = req.param("q")
    if q.startswith("j "):
        hits = []
        for term in re.split(r"\s+or\s+", q):
            journal, volume, page = term.removeprefix("j ").split(",")
            hits += [h for h in HITS for p in h["metadata"].get("publication_info", [])
                     if p.get("journal_title") == journal and p.get("journal_volume") == volume
                     and page in (p.get("page_start"), p.get("artid"))]
    elif q.startswith("t "):
        return None
    else:
        terms = re.split(r"\s+or\s+", q)
        hits = [h for h in HITS if any(matches(h, t) for t in terms)]
    assert "titles" in req.param("fields")
    return Reply.make(200, envelope(hits))


def run(server: ReplayServer, queries: list[Query]) -> list[Answer]:
    async def go() -> list[Answer]:
        settings = settings_for(server)
        async with open_http(settings, limits=FAST) as http:
            return await make_source("inspire", http, settings).fetch_batch(queries)
    return asyncio.run(go())


def test_arxiv_ids_are_or_ed_into_one_search(server: ReplayServer) -> None:
    server.add_handler(literature)
    answers = run(server, [Query(QueryKind.ARXIV, "1112.4285v2"),
                           Query(QueryKind.ARXIV, "1201.3673"),
                           Query(QueryKind.ARXIV, "1999.99999")])
    assert server.count() == 1
    assert [a.status for a in answers] == [SourceStatus.FOUND, SourceStatus.FOUND,
                                           SourceStatus.NOT_FOUND]
    rec = answers[0].records[0]
    assert rec.venue == "J.Phys.A" and rec.volume == "46" and rec.pages == "214006"
    assert rec.year == "2013" and "2011" in rec.other_years
    assert rec.texkeys == ("Sagnotti:2011qp",) and rec.doi == "10.1088/1751-8113/46/21/214006"


def test_doi_texkey_and_journal_reference(server: ReplayServer) -> None:
    server.add_handler(literature)
    answers = run(server, [
        Query(QueryKind.DOI, "10.1103/PhysRevC.86.015504"),
        Query(QueryKind.TEXKEY, "Kimura:2012nx"),
        Query(QueryKind.JOURNAL_REF, "Pisma Zh.Eksp.Teor.Fiz.,96,226",
              journal="Pisma Zh.Eksp.Teor.Fiz.", volume="96", page="226"),
    ])
    assert all(a.status is SourceStatus.FOUND for a in answers), answers
    assert answers[0].records[0].arxiv == "1201.3673"
    assert answers[1].records[0].arxiv == "1201.1794"
    assert answers[2].records[0].pages == "226-230"
    assert any(r.param("q") == "j Pisma Zh.Eksp.Teor.Fiz.,96,226" for r in server.requests)


def test_title_search_recorded_response(server: ReplayServer) -> None:
    rec = load("inspire.jsonl")[0]
    server.add_handler(lambda req: Reply.make(200, rec["body_json"])
                       if req.param("q").startswith('t "') else None)
    [ans] = run(server, [Query(QueryKind.TITLE,
                               "Systematics of electric dipole excitations for odd-mass U")])
    assert ans.status is SourceStatus.FOUND
    r = ans.records[0]
    assert r.texkeys == ("Tabar:2021rrw",) and r.venue == "Nucl.Phys.A" and r.pages == "122138"
    assert r.year == "2021" and len(r.authors) == 7 and not r.authors_truncated


def test_server_error_is_error_not_not_found(server: ReplayServer) -> None:
    server.add_handler(lambda req: Reply.make(502, "<html>bad gateway</html>"))
    answers = run(server, [Query(QueryKind.ARXIV, "1112.4285"),
                           Query(QueryKind.TITLE, "anything")])
    assert [a.status for a in answers] == [SourceStatus.ERROR, SourceStatus.ERROR]


def test_parse_hit_author_count_marks_truncation() -> None:
    hit = dict(HITS[0])
    hit["metadata"] = {**hit["metadata"], "author_count": 3000}
    assert parse_hit(hit).authors_truncated


def jref(journal: str, volume: str, page: str) -> Query:
    return Query(QueryKind.JOURNAL_REF, f"{journal},{volume},{page}", journal=journal,
                 volume=volume, page=page)


def test_concurrent_journal_refs_are_coalesced_into_one_search(server: ReplayServer) -> None:
    server.add_handler(literature)

    async def go() -> list[Answer]:
        settings = settings_for(server)
        async with open_http(settings, limits=FAST) as http:
            src = make_source("inspire", http, settings)
            return list(await asyncio.gather(
                src.fetch(jref("J.Phys.A", "46", "214006")),
                src.fetch(jref("Phys.Rev.C", "86", "015504")),
                src.fetch(jref("Phys.Rev.C", "99", "1"))))
    answers = asyncio.run(go())
    assert [a.status for a in answers] == [SourceStatus.FOUND, SourceStatus.FOUND,
                                           SourceStatus.NOT_FOUND]
    assert answers[0].records[0].texkeys == ("Sagnotti:2011qp",)
    assert answers[1].records[0].texkeys == ("Sobczyk:2012ms",)
    qs = [r.param("q") for r in server.requests]
    # one OR-ed search, then the unmatched reference alone (never NOT_FOUND by batching)
    assert qs == ["j J.Phys.A,46,214006 or j Phys.Rev.C,86,015504 or j Phys.Rev.C,99,1",
                  "j Phys.Rev.C,99,1"]
