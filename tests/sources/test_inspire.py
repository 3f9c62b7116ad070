"""INSPIRE-HEP adapter: real hits served at the searches the adapter sends."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import httpx

from citecheck_tex.model import Answer, Query, QueryKind, SourceStatus
from citecheck_tex.sources.base import make_source
from citecheck_tex.sources.http import open_http
from citecheck_tex.sources.inspire import parse_hit
from tests.replay import ReplayServer, Reply, Request
from tests.sources.conftest import FAST, ask, load, settings_for

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
    if field == "reportnumber":
        return value in [r["value"].lower() for r in md.get("report_numbers", [])]
    return False


def literature(req: Request) -> Reply | None:
    """Answer identifier searches ("x:a or x:b") and journal references from HITS."""
    if req.path != "/api/literature":
        return None
    q = req.param("q")
    if q.startswith("j "):
        hits = []
        for term in re.split(r"\s+or\s+", q):
            journal, volume, page = term.removeprefix("j ").strip('"').split(",")
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
    assert any(r.param("q") == 'j "Pisma Zh.Eksp.Teor.Fiz.,96,226"' for r in server.requests)


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
    # one OR-ed search; its answer was complete (total = hits returned) and every hit
    # matched a reference of the batch, so nothing sits at the third: no second search
    assert qs == ['j "J.Phys.A,46,214006" or j "Phys.Rev.C,86,015504" or j "Phys.Rev.C,99,1"']


def test_a_batch_hit_no_reference_matches_sends_the_unmatched_one_alone(
        server: ReplayServer) -> None:
    """A hit of the batch that no cited journal reference matches (an unusual journal
    spelling on either side): the unmatched reference is asked alone, never NOT_FOUND
    by batching."""
    def odd(req: Request) -> Reply | None:
        if req.path == "/api/literature" and " or " in req.param("q"):
            got = literature(req)
            assert got is not None
            body = json.loads(got.body)
            body["hits"]["hits"].append(HITS[3])  # matches neither reference
            body["hits"]["total"] += 1
            return Reply.make(200, body)
        return literature(req)

    server.add_handler(odd)
    answers = ask(server, "inspire", [jref("J.Phys.A", "46", "214006"),
                                      jref("Phys.Rev.C", "99", "1")])
    assert [a.status for a in answers] == [SourceStatus.FOUND, SourceStatus.NOT_FOUND]
    assert [r.param("q") for r in server.requests][1:] == ['j "Phys.Rev.C,99,1"']


# --------------------------------------------------------------------------- query strings
# The syntax is INSPIRE's own, read in (never copied from):
# - inspirehep/inspire-query-parser tests/test_elastic_search_visitor.py:
#   "j Phys.Lett.B,351,123" -> journal title + volume + (page_start OR artid);
#   'j "Phys.Lett.B,351,123"' gives the same query as the bare value;
#   "j Phys.Lett.,B351" (old style) -> title Phys.Lett.B, volume 351.
# - inspirehep/inspire-schemas inspire_schemas/utils.py convert_old_publication_info_to_new:
#   a letter at the start or end of the volume is appended to the title.
# - inspirehep/inspire-query-parser tests/test_parser_functionality.py:
#   "f a appelquist and date 1983", "au ellis | title 'boson'", 'Find fa "ellis"'.
# - inspirehep/rest-api-doc README.md: size (<= 1000) and comma-separated fields.


def test_journal_term_golden() -> None:
    from citecheck_tex.sources.inspire import inspire_journal, journal_term

    assert journal_term(jref("Phys. Rev. D", "50", "1140")) == 'j "Phys.Rev.D,50,1140"'
    # old style is INSPIRE's own example ("find j phys.rev.,D50,1140"): sent as written
    assert journal_term(jref("Phys. Rev.", "D50", "1140")) == 'j "Phys.Rev.,D50,1140"'
    assert journal_term(jref("Phys. Lett.", "47B", "365")) == 'j "Phys.Lett.,47B,365"'
    # the letter already in the title would be appended a second time by INSPIRE
    assert journal_term(jref("Phys. Rev. D", "D50", "1140")) == 'j "Phys.Rev.D,50,1140"'
    assert journal_term(jref("Nucl.Phys.B", "B106", "475")) == 'j "Nucl.Phys.B,106,475"'
    # quoted: "and" in a title is not an operator; commas would shift the parts
    assert journal_term(jref("Astronomy and Astrophysics", "500", "L1")) == (
        'j "Astronomy and Astrophysics,500,L1"')
    assert journal_term(jref("Nucl. Instrum. Methods Phys. Res., A", "600", "1")) == (
        'j "Nucl.Instrum.Methods Phys.Res.A,600,1"')
    assert journal_term(jref("JHEP", "08", "045")) == 'j "JHEP,08,045"'
    assert journal_term(jref("Phys. Rev. D", "50", "")) == 'j "Phys.Rev.D,50"'
    assert journal_term(jref("", "50", "1140")) == ""
    assert journal_term(jref("Phys. Rev. D", "", "1140")) == ""
    assert inspire_journal(' Phys.  Rev. "D" ') == "Phys.Rev.D"


def ay(authors: tuple[str, ...], year: str, journal: str = "") -> Query:
    return Query(QueryKind.AUTHOR_YEAR, f"{authors[0] if authors else ''} {year}",
                 authors=authors, year=year, journal=journal)


def test_author_year_term_golden() -> None:
    from citecheck_tex.sources.inspire import author_year_term

    q = ay(("Maldacena", "Witten"), "1998", "Adv. Theor. Math. Phys.")
    assert author_year_term(q) == 'fa Maldacena and date 1998 and j "Adv.Theor.Math.Phys."'
    assert author_year_term(q, journal=False) == "fa Maldacena and date 1998"
    assert author_year_term(ay(("van der Waals",), "1873")) == 'fa "van der Waals" and date 1873'
    assert author_year_term(ay(("'t Hooft",), "1974")) == "fa \"'t Hooft\" and date 1974"
    assert author_year_term(ay(("Hosseini-Nejad",), "2020")) == "fa Hosseini-Nejad and date 2020"
    assert author_year_term(ay(("ATLAS Collaboration",), "2012", "Phys. Lett. B")) == (
        'cn ATLAS and date 2012 and j "Phys.Lett.B"')
    assert author_year_term(ay(("Maldacena",), "")) == ""
    assert author_year_term(ay(("Maldacena",), "98")) == ""
    assert author_year_term(ay((), "1998")) == ""


def test_batched_journal_refs_match_any_spelling_of_the_journal(server: ReplayServer) -> None:
    """A hit of the OR-ed search is recognised under another spelling of its journal
    (INSPIRE matches title variants), so the reference is not asked again alone."""
    wanted = {("J.Phys.A", "46"), ("Phys.Rev.C", "86")}
    hits = [h for h in HITS if any((p.get("journal_title"), p.get("journal_volume")) in wanted
                                   for p in h["metadata"].get("publication_info", []))]
    server.add_handler(lambda req: Reply.make(200, envelope(hits))
                       if req.path == "/api/literature" else None)

    async def go() -> list[Answer]:
        settings = settings_for(server)
        async with open_http(settings, limits=FAST) as http:
            src = make_source("inspire", http, settings)
            return list(await asyncio.gather(
                src.fetch(jref("J.Phys.A", "46", "214006")),
                src.fetch(jref("Physical Review C", "86", "015504"))))
    answers = asyncio.run(go())
    assert [a.status for a in answers] == [SourceStatus.FOUND, SourceStatus.FOUND]
    assert answers[0].records[0].texkeys == ("Sagnotti:2011qp",)
    assert answers[1].records[0].texkeys == ("Sobczyk:2012ms",)
    assert [r.param("q") for r in server.requests] == [
        'j "J.Phys.A,46,214006" or j "Physical Review C,86,015504"']


RECORDED = load("inspire.jsonl")[0]  # a real /api/literature search response (1 hit, 2021)


def test_author_year_search_replays_a_recorded_response(server: ReplayServer) -> None:
    """The recorded response was recorded for another query (a title search); it is
    served here for the author+year URL, which is what this test pins."""
    from urllib.parse import urlencode

    from citecheck_tex.sources.inspire import FIELDS

    query = {"q": 'fa Tabar and date 2021 and j "Nucl.Phys.A"', "size": "10", "fields": FIELDS}
    server.add_recorded(RECORDED, url="https://inspirehep.net/api/literature?" + urlencode(query))
    [ans] = run(server, [ay(("Tabar", "Yakut"), "2021", "Nucl. Phys. A")])
    assert ans.status is SourceStatus.FOUND and ans.http_requests == 1
    rec = ans.records[0]
    assert (rec.venue, rec.volume, rec.pages, rec.year) == ("Nucl.Phys.A", "1008", "122138",
                                                            "2021")
    # on the wire the search is form-encoded (space "+", quote "%22", comma "%2C")
    wire = httpx.Request("GET", "https://inspirehep.net/api/literature", params=query).url
    assert wire.query.startswith(b"q=fa+Tabar+and+date+2021+and+j+%22Nucl.Phys.A%22&size=10")


def test_author_year_search_drops_the_journal_when_nothing_is_found(
        server: ReplayServer) -> None:
    def handler(req: Request) -> Reply | None:
        if req.param("q") == 'fa Tabar and date 2021 and j "Nucl.Phys.B"':
            return Reply.make(200, {"hits": {"total": 0, "hits": []}, "links": {}})
        if req.param("q") == "fa Tabar and date 2021":
            assert req.param("size") == "25"
            return Reply.make(200, RECORDED["body_json"])
        return None
    server.add_handler(handler)
    [ans] = run(server, [ay(("Tabar",), "2021", "Nucl. Phys. B")])
    assert ans.status is SourceStatus.FOUND and ans.http_requests == 2
    assert [r.param("q") for r in server.requests] == [
        'fa Tabar and date 2021 and j "Nucl.Phys.B"', "fa Tabar and date 2021"]
    server.requests.clear()
    [none] = run(server, [ay(("Nobody",), "2021")])
    assert none.status is SourceStatus.ERROR  # the replay server 404s unknown searches


def test_report_numbers_are_or_ed_and_parsed(server: ReplayServer) -> None:
    """Real hit 1084938 carries FERMILAB-PUB-12-892-PPD; the query is INSPIRE's
    ``reportnumber:"..."`` (Invenio keyword, see inspire-next's SEARCH_TYPEAHEAD keywords)."""
    server.add_handler(literature)
    answers = run(server, [Query(QueryKind.REPORT, "FERMILAB-PUB-12-892-PPD"),
                           Query(QueryKind.REPORT, "CMS-PAS-XXX-99-999")])
    assert server.count() == 1
    q = server.requests[0].param("q")
    assert q == 'reportnumber:"FERMILAB-PUB-12-892-PPD" or reportnumber:"CMS-PAS-XXX-99-999"'
    assert [a.status for a in answers] == [SourceStatus.FOUND, SourceStatus.NOT_FOUND]
    rec = answers[0].records[0]
    assert rec.report_numbers == ("FERMILAB-PUB-12-892-PPD",)
    assert rec.title.startswith("Multinucleon ejection model")
