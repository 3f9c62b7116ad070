"""Crossref (and its DataCite detour) against recorded responses."""

from __future__ import annotations

import json

from citecheck_tex.model import Answer, Query, QueryKind, SourceStatus
from citecheck_tex.sources.crossref import SELECT
from tests.replay import ReplayServer, Reply, Request
from tests.sources.conftest import FIXTURES, ask, load, recorded

PONE = "10.1371/journal.pone.0033693"
SREP = "10.1038/srep16696"


def run(server: ReplayServer, queries: list[Query], name: str = "crossref",
        **kw: object) -> list[Answer]:
    return ask(server, name, queries, **kw)


def doi(value: str) -> Query:
    return Query(QueryKind.DOI, value)


def test_work_by_doi(server: ReplayServer) -> None:
    server.add_file(FIXTURES / "crossref.jsonl")
    [ans] = run(server, [doi("https://doi.org/10.1371/JOURNAL.PONE.0033693")])
    assert ans.status is SourceStatus.FOUND
    rec = ans.records[0]
    assert rec.doi == PONE
    assert rec.title.startswith("Methylphenidate Exposure Induces Dopamine Neuron Loss")
    assert rec.venue == "PLoS ONE" and rec.volume == "7" and rec.pages == "e33693"
    assert rec.year == "2012" and rec.entry_type == "article"
    assert [a.family for a in rec.authors][:2] == ["Sadasivan", "Pond"]


def test_article_number_and_short_container_title(server: ReplayServer) -> None:
    server.add_file(FIXTURES / "crossref.jsonl")
    [ans] = run(server, [doi(SREP)])
    rec = ans.records[0]
    assert rec.pages == "16696" and rec.volume == "5"
    assert rec.venue == "Scientific Reports" and "Sci Rep" in rec.venue_aliases


def test_404_text_body_then_agency_not_found(server: ReplayServer) -> None:
    server.add_file(FIXTURES / "crossref.jsonl")
    [ans] = run(server, [doi("10.1371/notarealdoi")])
    assert ans.status is SourceStatus.NOT_FOUND
    assert server.count("GET", "/works/10.1371/notarealdoi/agency") == 1


def test_404_with_datacite_agency_goes_to_datacite(server: ReplayServer) -> None:
    server.add_file(FIXTURES / "crossref.jsonl")
    not_found = recorded("crossref.jsonl", "notarealdoi", status=404)
    server.add_recorded(not_found, url="/works/10.5284/1011335")
    [ans] = run(server, [doi("10.5284/1011335")])
    # the agency recording says DataCite; DataCite (not recorded) answers 404 here
    assert server.count("GET", "/dois/10.5284/1011335") == 1
    assert ans.status is SourceStatus.NOT_FOUND and "agency: DataCite" in ans.message


def test_arxiv_doi_goes_straight_to_datacite(server: ReplayServer) -> None:
    body = json.loads((FIXTURES / "datacite_constructed.json").read_text())
    server.add("GET", "/dois/10.48550/arxiv.acc-phys/9411001", body=body)
    [ans] = run(server, [doi("10.48550/arXiv.acc-phys/9411001")])
    assert server.count("GET", "/works/10.48550/arxiv.acc-phys/9411001") == 0
    assert ans.status is SourceStatus.FOUND
    rec = ans.records[0]
    assert rec.source == "datacite" and rec.arxiv == "acc-phys/9411001"
    assert rec.year == "1994" and [a.family for a in rec.authors] == ["Habib", "Ryne"]
    assert rec.entry_type == "preprint"


def test_400_json_is_an_error_with_the_message(server: ReplayServer) -> None:
    bad = recorded("crossref.jsonl", "query.author", status=400)
    server.add_recorded(bad, url="/works/10.1000/bad")
    [ans] = run(server, [doi("10.1000/bad")])
    assert ans.status is SourceStatus.ERROR
    assert "does not support field query parameters" in ans.message


def test_500_is_retried_then_error(server: ReplayServer) -> None:
    boom = recorded("crossref.jsonl", "cursor=5", status=500)
    server.add_recorded(boom, url="/works/10.1000/boom")
    [ans] = run(server, [doi("10.1000/boom")], max_retries=2)
    assert ans.status is SourceStatus.ERROR and "500" in ans.message
    assert server.count("GET", "/works/10.1000/boom") == 3


def test_429_with_retry_after_then_recorded_200(server: ReplayServer) -> None:
    server.add("GET", f"/works/{PONE}", status=429, body="Too Many Requests",
               headers={"Retry-After": "0"})
    server.add_file(FIXTURES / "crossref.jsonl")  # the recorded 200 comes second
    [ans] = run(server, [doi(PONE)])
    assert ans.status is SourceStatus.FOUND
    assert server.count("GET", f"/works/{PONE}") == 2


def test_doi_batch_uses_filter_and_asks_the_agency_for_missing(server: ReplayServer) -> None:
    """The filter matches DOIs exactly: a DOI absent from the batch answer is not looked
    up again one by one; only its registration agency is asked (DataCite DOIs are then
    followed), one request instead of two. The agency answer for a DOI nobody registered
    is Crossref's 404 (no recording: the replay server's 404)."""
    works = [recorded("crossref.jsonl", f"/works/{d}", status=200)["body_json"]["message"]
             for d in (PONE, SREP)]
    server.add_file(FIXTURES / "crossref.jsonl")
    missing = "10.1371/notarealdoi"
    server.add("GET", f"/works?filter=doi:{PONE},doi:{SREP},doi:{missing}&rows=6"
               f"&select={SELECT}",
               body={"status": "ok", "message-type": "work-list", "message": {"items": works}})
    answers = run(server, [doi(PONE), doi(SREP), doi(missing)])
    assert [a.status for a in answers] == [SourceStatus.FOUND, SourceStatus.FOUND,
                                           SourceStatus.NOT_FOUND]
    assert server.count("GET", "/works") == 1
    assert server.count("GET", f"/works/{PONE}") == 0
    assert server.count("GET", f"/works/{missing}") == 0
    assert server.count("GET", f"/works/{missing}/agency") == 1


def test_title_search_uses_query_bibliographic_rows_5(server: ReplayServer) -> None:
    items = load("crossref_payloads.jsonl")[0]["body_json"]
    seen: list[Request] = []

    def search(req: Request) -> Reply | None:
        if req.path == "/works" and req.param("query.bibliographic"):
            seen.append(req)
            return Reply.make(200, {"status": "ok", "message-type": "work-list",
                                    "message": {"items": items}})
        return None

    server.add_handler(search)
    title = "Evaluation of a multispectral diffuse optical spectroscopy device"
    [ans] = run(server, [Query(QueryKind.TITLE, title, authors=("Marcinkevics",), year="2013")],
                mailto="team@example.org")
    assert ans.status is SourceStatus.FOUND and len(ans.records) == len(items)
    assert seen[0].param("rows") == "5"
    assert seen[0].param("mailto") == "team@example.org"
    assert "Marcinkevics" in seen[0].param("query.bibliographic")
    assert "mailto:team@example.org" in seen[0].headers["user-agent"]
    assert ans.records[0].doi == "10.1117/12.2044685"
    assert ans.records[0].entry_type == "inproceedings"


def test_agency_answers_recorded() -> None:
    agencies = [r for r in load("crossref.jsonl") if r["request_url"].endswith("/agency")]
    assert {r["body_json"]["message"]["agency"]["id"] for r in agencies} == {
        "crossref", "datacite", "medra"}


def test_the_subtitle_joins_the_title_unless_it_repeats_it_or_is_no_text() -> None:
    """Crossref keeps subtitles apart; a citation writes "Title: Subtitle"."""
    from citecheck_tex.sources.crossref import parse_work
    items = {rec["item"]["DOI"]: rec["item"] for rec in load("crossref_subtitles.jsonl")}
    assert parse_work(items["10.1111/geb.12517"]).title == (
        "Mapping the global state of invasive alien species: patterns of invasion and "
        "policy responses")  # the subtitle is already in the title
    assert parse_work(items["10.5744/florida/9780813056371.003.0001"]).title == (
        "Andean Ontologies: An Introduction to Substance")
    assert parse_work(items["10.1111/jiec.12093"]).title == (
        "Fit for Purpose? Rethinking Modeling in Industrial Ecology")
    assert parse_work(items["10.1037/e718982007-001"]).title == (
        "Aloha blossoms at state hospital")  # "(718982007-001)" is a number, not words
