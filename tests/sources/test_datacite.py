"""DataCite REST adapter against recorded api.datacite.org answers (fixtures/api/datacite.jsonl).

The recordings asked ``/dois/{doi}?include=media,client``; the adapter asks
``/dois/{doi}``, so each recorded body is served at the adapter's path.
"""

from __future__ import annotations

import copy
from typing import Any

from citecheck_tex.model import Answer, Query, QueryKind, SourceStatus
from citecheck_tex.sources.datacite import parse_doi
from tests.replay import ReplayServer
from tests.sources.conftest import ask, recorded

ARXIV = "10.48550/arxiv.2311.16162"
FIGSHARE = "10.6084/m9.figshare.1449060"
ZENODO = "10.5281/zenodo.48440"
MISSING = "10.4124/05f6c379-dd68-4cdb-880d-33d3e9576d52/1"


def run(server: ReplayServer, queries: list[Query], name: str = "datacite",
        **kw: object) -> list[Answer]:
    return ask(server, name, queries, **kw)


def doi(value: str) -> Query:
    return Query(QueryKind.DOI, value)


def serve(server: ReplayServer, name: str, **kw: Any) -> dict[str, Any]:
    """Serve the recording of DOI ``name`` at ``/dois/{name}``; return it."""
    rec = recorded("datacite.jsonl", f"/dois/{name}?")
    server.add_recorded(rec, url=f"/dois/{name}", **kw)
    return rec


def test_arxiv_doi_record(server: ReplayServer) -> None:
    serve(server, ARXIV)
    [ans] = run(server, [doi("https://doi.org/10.48550/arXiv.2311.16162")])
    assert ans.status is SourceStatus.FOUND and ans.http_requests == 1
    rec = ans.records[0]
    assert rec.title == ("Leveraging Artificial Intelligence Technology for Mapping Research "
                         "to Sustainable Development Goals: A Case Study")
    assert [a.family for a in rec.authors][:5] == ["Yin", "Aryani", "Lambert", "White",
                                                   "Salvador-Carulla"]
    assert len(rec.authors) == 10 and rec.authors[-1].given == "Wing Wah"
    assert rec.year == "2023" and rec.arxiv == "2311.16162" and rec.doi == ARXIV
    assert rec.venue == "arXiv" and rec.entry_type == "preprint"
    assert rec.url == "https://arxiv.org/abs/2311.16162"


def test_figshare_dataset_with_created_year(server: ReplayServer) -> None:
    serve(server, FIGSHARE)
    [ans] = run(server, [doi(FIGSHARE.upper())])
    rec = ans.records[0]
    assert rec.title.startswith("Drosophila melanogaster wing images")
    assert [a.family for a in rec.authors] == ["Dworkin", "Pool", "Pitchers", "Pesevski"]
    assert rec.year == "2020" and rec.other_years == ("2015",)  # dates[]: Created 2015-06-14
    assert rec.entry_type == "dataset" and rec.venue == "" and rec.arxiv == ""


def test_zenodo_software_supplement_is_not_an_arxiv_link(server: ReplayServer) -> None:
    serve(server, ZENODO)
    [ans] = run(server, [doi(ZENODO)])
    rec = ans.records[0]
    assert rec.title == "Analysis Tools for Crossover Experiment of UI using Choice Architecture"
    assert rec.authors[0].family == "Garza" and rec.authors[0].given == "Kristian"
    assert rec.year == "2016" and rec.entry_type == "software" and rec.arxiv == ""


def test_recorded_404_is_not_found(server: ReplayServer) -> None:
    rec = serve(server, MISSING)
    assert rec["status"] == 404
    [ans] = run(server, [doi(MISSING)])
    assert ans.status is SourceStatus.NOT_FOUND and not ans.records
    assert MISSING in ans.message


def test_other_http_error_is_an_error_answer_with_the_api_text(server: ReplayServer) -> None:
    # the recorded JSON:API error body, served with a status the adapter cannot read
    serve(server, MISSING, status=403)
    [ans] = run(server, [doi(MISSING)])
    assert ans.status is SourceStatus.ERROR
    assert "403" in ans.message and "doesn't exist" in ans.message


def test_5xx_is_retried_then_error(server: ReplayServer) -> None:
    server.add("GET", f"/dois/{ZENODO}", status=503, body="Service Unavailable")
    [ans] = run(server, [doi(ZENODO)], max_retries=1)
    assert ans.status is SourceStatus.ERROR and "503" in ans.message
    assert server.count("GET", f"/dois/{ZENODO}") == 2


def test_429_with_retry_after_then_recorded_200(server: ReplayServer) -> None:
    server.add("GET", f"/dois/{ARXIV}", status=429, body="", headers={"Retry-After": "0"})
    serve(server, ARXIV)  # served second
    [ans] = run(server, [doi(ARXIV)])
    assert ans.status is SourceStatus.FOUND
    assert server.count("GET", f"/dois/{ARXIV}") == 2


def test_persistent_429_is_rate_limited(server: ReplayServer) -> None:
    server.add("GET", f"/dois/{ARXIV}", status=429, body="", headers={"Retry-After": "0"})
    [ans] = run(server, [doi(ARXIV)], max_retries=1)
    assert ans.status is SourceStatus.RATE_LIMITED and "429" in ans.message


def test_crossref_sends_datacite_prefixes_straight_to_datacite(server: ReplayServer) -> None:
    serve(server, ARXIV)
    serve(server, ZENODO)
    answers = run(server, [doi(ARXIV), doi(ZENODO)], name="crossref")
    assert [a.status for a in answers] == [SourceStatus.FOUND, SourceStatus.FOUND]
    assert [a.records[0].source for a in answers] == ["datacite", "datacite"]
    assert answers[0].records[0].arxiv == "2311.16162"
    assert server.count("GET", f"/works/{ARXIV}") == 0 and server.count("GET", "/works") == 0


def test_crossref_agency_route_reaches_the_recorded_datacite_404(server: ReplayServer) -> None:
    # Crossref's recorded 404 text body and its recorded "agency: datacite" answer (recorded
    # for 10.5284/1011335) are served for this unprefixed DataCite DOI; DataCite's recorded
    # 404 for it ends the route.
    server.add_recorded(recorded("crossref.jsonl", "notarealdoi", status=404),
                        url=f"/works/{MISSING}")
    server.add_recorded(recorded("crossref.jsonl", "10.5284/1011335/agency"),
                        url=f"/works/{MISSING}/agency")
    serve(server, MISSING)
    [ans] = run(server, [doi(MISSING)], name="crossref")
    assert server.count("GET", f"/dois/{MISSING}") == 1
    assert ans.status is SourceStatus.NOT_FOUND and "agency: DataCite" in ans.message


# -- shapes the recordings show only in part ---------------------------------
# Each test edits a copy of a recorded ``data`` object the way DataCite documents
# the field (schema 4.x), and says so.

def _zenodo() -> dict[str, Any]:
    return copy.deepcopy(recorded("datacite.jsonl", f"/dois/{ZENODO}?")["body_json"]["data"])


def test_main_title_wins_over_subtitle_and_translation() -> None:
    data = _zenodo()
    data["attributes"]["titles"] = [
        {"title": "Outils d'analyse", "titleType": "TranslatedTitle", "lang": "fr"},
        *data["attributes"]["titles"],
        {"title": "Version 1.0", "titleType": "Subtitle"},
    ]
    assert parse_doi(data).title.startswith("Analysis Tools for Crossover Experiment")


def test_organizational_creator_and_name_only_creator() -> None:
    data = _zenodo()
    data["attributes"]["creators"] = [
        {"name": "Zenodo", "nameType": "Organizational"},
        {"name": "Garza, Kristian", "affiliation": []},  # no nameType, no split name parts
    ]
    authors = parse_doi(data).authors
    assert authors[0].literal and authors[0].family == "Zenodo"
    assert (authors[1].family, authors[1].given) == ("Garza", "Kristian")


def test_is_version_of_an_arxiv_preprint_gives_the_arxiv_id() -> None:
    data = _zenodo()
    data["attributes"]["relatedIdentifiers"].append(
        {"relationType": "IsVersionOf", "relatedIdentifier": "arXiv:2311.16162v2",
         "relatedIdentifierType": "arXiv"})
    assert parse_doi(data).arxiv == "2311.16162"
    data["attributes"]["relatedIdentifiers"][-1]["relationType"] = "Cites"
    assert parse_doi(data).arxiv == ""


def test_string_year_container_and_related_item_venue() -> None:
    data = _zenodo()
    attrs = data["attributes"]
    attrs["publicationYear"] = "2017"
    attrs["container"] = {"type": "Journal", "title": "Journal of Open Source Software",
                          "volume": "2", "firstPage": "11", "lastPage": "14"}
    rec = parse_doi(data)
    assert (rec.year, rec.venue, rec.volume, rec.pages) == (
        "2017", "Journal of Open Source Software", "2", "11-14")
    attrs["container"] = {}
    attrs["relatedItems"] = [{"relationType": "IsPublishedIn", "relatedItemType": "Journal",
                              "titles": [{"title": "Journal of Open Source Software"}],
                              "volume": "2", "firstPage": "11"}]
    rec = parse_doi(data)
    assert (rec.venue, rec.volume, rec.pages) == ("Journal of Open Source Software", "2", "11")
