"""NASA ADS search adapter against recorded ADS search answers (tests/fixtures/api/ads.jsonl).

The recordings kept the answer bodies but not the request URLs (their parameters
are echoed in ``responseHeader.params``), so each body is served at the URL the
adapter requests, for the query that the recording answers.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from citecheck_tex.model import Answer, Query, QueryKind, SourceStatus
from citecheck_tex.sources.ads import FIELDS, parse_doc
from citecheck_tex.sources.base import make_source
from citecheck_tex.sources.http import open_http
from tests.replay import ReplayServer, Reply, Request
from tests.sources.conftest import FAST, load, settings_for

PATH = "/v1/search/query"
TITLE_ANSWER, BIBCODE_ANSWER, DOCTYPES_ANSWER = (r["body_json"] for r in load("ads.jsonl"))


def run(server: ReplayServer, queries: list[Query], **kw: object) -> list[Answer]:
    async def go() -> list[Answer]:
        settings = settings_for(server, **kw)
        async with open_http(settings, limits=FAST) as http:
            return await make_source("ads", http, settings).fetch_batch(queries)
    return asyncio.run(go())


def answer_for(q: str, body: Any) -> Any:
    """A handler serving ``body`` to the search whose ``q`` is ``q``."""
    def handler(req: Request) -> Reply | None:
        return Reply.make(200, body) if req.path == PATH and req.param("q") == q else None
    return handler


@pytest.fixture
def token(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("ADS_API_TOKEN", "tok")
    return "tok"


def test_without_token_is_skipped_naming_the_variable(server: ReplayServer,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("ADS_API_TOKEN", raising=False)
    answers = run(server, [Query(QueryKind.DOI, "10.1086/312592"),
                           Query(QueryKind.TITLE, "The Galactic Worm")])
    assert [a.status for a in answers] == [SourceStatus.SKIPPED] * 2
    assert "ADS_API_TOKEN" in answers[0].message
    assert server.count() == 0


def test_token_env_name_comes_from_settings(server: ReplayServer,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MY_ADS", "other")
    server.add_handler(answer_for('doi:"10.1086/312592"', BIBCODE_ANSWER))
    [ans] = run(server, [Query(QueryKind.DOI, "10.1086/312592")], ads_token_env="MY_ADS")
    assert ans.status is SourceStatus.FOUND
    assert server.requests[0].headers["authorization"] == "Bearer other"


def test_doi_query_recorded_article(server: ReplayServer, token: str) -> None:
    server.add_handler(answer_for('doi:"10.1086/312592"', BIBCODE_ANSWER))
    [ans] = run(server, [Query(QueryKind.DOI, "https://doi.org/10.1086/312592")])
    req = server.requests[0]
    assert req.headers["authorization"] == f"Bearer {token}"
    assert req.param("fl") == FIELDS and req.param("rows") == "5"
    assert ans.status is SourceStatus.FOUND
    rec = ans.records[0]
    assert rec.id == "2000ApJ...533L..25E"
    assert rec.url == "https://ui.adsabs.harvard.edu/abs/2000ApJ...533L..25E"
    assert rec.title == "The Galactic Worm GW 123.4-1.5: A Mushroom-shaped H I Cloud"
    assert [a.family for a in rec.authors] == ["English", "Taylor", "Mashchenko", "Irwin",
                                               "Basu", "Johnstone"]
    assert rec.authors[3].given == "Judith A."
    assert (rec.year, rec.volume, rec.pages) == ("2000", "533", "L25-L28")  # page_range
    assert rec.venue == "The Astrophysical Journal" and rec.venue_aliases == ("ApJL",)
    assert rec.doi == "10.1086/312592" and rec.entry_type == "article" and rec.arxiv == ""


def test_arxiv_query_recorded_eprint(server: ReplayServer, token: str) -> None:
    eprint = DOCTYPES_ANSWER["response"]["docs"][2]
    server.add_handler(answer_for("arxiv:hep-th/9108028",
                                  {"responseHeader": DOCTYPES_ANSWER["responseHeader"],
                                   "response": {"numFound": 1, "start": 0, "docs": [eprint]}}))
    [ans] = run(server, [Query(QueryKind.ARXIV, "arXiv:hep-th/9108028v1")])
    rec = ans.records[0]
    assert rec.title == "Applied Conformal Field Theory"
    assert rec.authors[0].family == "Ginsparg" and rec.authors[0].given == "Paul"
    assert rec.arxiv == "hep-th/9108028" and rec.entry_type == "preprint"
    assert rec.pages == ""  # ADS puts the arXiv id in "page"
    assert rec.venue == "arXiv" and "arXiv e-prints" in rec.venue_aliases
    # ADS says 1988 (the lectures); the bibcode says 1991 (the posting)
    assert rec.year == "1988" and rec.other_years == ("1991",)


def test_title_query_recorded_answer_without_year_field(server: ReplayServer,
                                                        token: str) -> None:
    title = "Origin of water around deeply embedded low-mass protostars"
    server.add_handler(answer_for(f'title:"{title}"', TITLE_ANSWER))
    [ans] = run(server, [Query(QueryKind.TITLE, "{Origin} of water around deeply embedded "
                                                "low-mass protostars")])
    rec = ans.records[0]
    assert rec.id == "2011IAUS..280P.295P" and rec.title == title
    assert [a.full_family for a in rec.authors] == ["Persson", "Jorgensen", "van Dishoeck"]
    assert rec.authors[2].von == "van" and rec.authors[2].given == "E. F."
    assert rec.year == "2011" and rec.other_years == ()  # from the bibcode
    assert (rec.venue, rec.volume, rec.pages) == ("The Molecular Universe", "280", "295")


def test_several_docs_in_recorded_order(server: ReplayServer, token: str) -> None:
    server.add_handler(lambda req: Reply.make(200, DOCTYPES_ANSWER))
    [ans] = run(server, [Query(QueryKind.TITLE, "anything")])
    assert [r.id for r in ans.records] == ["2018PhRvL.120b9901P", "2017PhDT........14C",
                                           "1991hep.th....8028G"]
    erratum, thesis, _ = ans.records
    assert erratum.authors[1].von == "van" and erratum.authors[1].family == "Heck"
    assert erratum.doi == "10.1103/physrevlett.120.029901" and erratum.pages == "029901"
    assert thesis.entry_type == "phdthesis" and thesis.doi == "10.5281/zenodo.581221"


def test_team_author_is_kept_whole() -> None:
    # the recorded author list of 2018AAS...23221409A (export_service stubdata data_2)
    rec = parse_doc({"bibcode": "2018AAS...23221409A", "year": "2018",
                     "title": ["The NASA Astrophysics Data System: Capabilities and Roadmap "
                               "for the 2020s"],
                     "author": ["Accomazzi, Alberto", "ADS Team"], "doctype": "abstract"})
    assert rec.authors[1].literal and rec.authors[1].family == "ADS Team"
    assert rec.entry_type == "misc"


def test_no_docs_is_not_found(server: ReplayServer, token: str) -> None:
    # no empty ADS answer was recorded: the recorded envelope with numFound 0
    empty = {"responseHeader": TITLE_ANSWER["responseHeader"],
             "response": {"numFound": 0, "start": 0, "docs": []}}
    server.add_handler(lambda req: Reply.make(200, empty))
    [ans] = run(server, [Query(QueryKind.DOI, "10.1000/absent")])
    assert ans.status is SourceStatus.NOT_FOUND and not ans.records


@pytest.mark.parametrize("status", [400, 401, 403, 404])
def test_client_errors_are_error_answers(server: ReplayServer, token: str, status: int) -> None:
    server.add_handler(lambda req: Reply.make(status, {"error": "Unauthorized"}))
    [ans] = run(server, [Query(QueryKind.ARXIV, "hep-th/9108028")])
    assert ans.status is SourceStatus.ERROR and str(status) in ans.message
    assert ("check the ADS token" in ans.message) is (status in (401, 403))


def test_5xx_is_retried_then_error(server: ReplayServer, token: str) -> None:
    server.add_handler(lambda req: Reply.make(502, "Bad Gateway"))
    [ans] = run(server, [Query(QueryKind.ARXIV, "hep-th/9108028")], max_retries=1)
    assert ans.status is SourceStatus.ERROR and "502" in ans.message
    assert server.count("GET", PATH) == 2


def test_429_retry_after_then_answer(server: ReplayServer, token: str) -> None:
    served: list[int] = []

    def handler(req: Request) -> Reply:
        served.append(1)
        if len(served) == 1:
            return Reply.make(429, "", headers={"Retry-After": "0"})
        return Reply.make(200, BIBCODE_ANSWER)

    server.add_handler(handler)
    [ans] = run(server, [Query(QueryKind.DOI, "10.1086/312592")])
    assert ans.status is SourceStatus.FOUND and len(served) == 2


def test_persistent_429_is_rate_limited(server: ReplayServer, token: str) -> None:
    server.add_handler(lambda req: Reply.make(429, "", headers={"Retry-After": "0"}))
    [ans] = run(server, [Query(QueryKind.DOI, "10.1086/312592")], max_retries=1)
    assert ans.status is SourceStatus.RATE_LIMITED and "429" in ans.message


@pytest.mark.parametrize("body", ["", "null", "[]", "{}", '{"response": []}',
                                  '{"response": {"docs": {"a": 1}}}',
                                  '{"response": {"docs": [1, {"title": 5}, {"author": 3}]}}'])
def test_garbage_bodies_become_answers(server: ReplayServer, token: str, body: str) -> None:
    server.add_handler(lambda req: Reply.make(200, body, content_type="application/json"))
    [ans] = run(server, [Query(QueryKind.TITLE, "x")], max_retries=0)
    assert ans.status in (SourceStatus.NOT_FOUND, SourceStatus.ERROR)
