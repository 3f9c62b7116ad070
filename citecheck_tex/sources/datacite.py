"""DataCite REST API: DOIs that Crossref does not register.

arXiv's own DOIs (``10.48550/arXiv.*``), Zenodo, figshare and most datasets
live here. ``GET /dois/{doi}`` answers a JSON:API document
(``data.attributes.{titles, creators, publicationYear, container, types}``);
an unknown DOI is a 404 with ``{"errors": [{"status": "404", "title": ...}]}``.

The parsing follows recorded answers (``tests/fixtures/api/datacite.jsonl``):

* ``titles[]`` may hold a ``Subtitle``, ``AlternativeTitle`` or
  ``TranslatedTitle`` besides the main title (the one without ``titleType``);
* ``creators[]`` have ``nameType`` Personal (``familyName``/``givenName``,
  ``name`` as "Family, Given") or Organizational (a literal name);
* ``publicationYear`` is an int or a string; ``dates[]`` carry other years
  (Submitted, Available, Created ...);
* arXiv ids appear bare in ``identifiers[]``/``alternateIdentifiers[]``
  (``identifierType: arXiv``), in the DOI itself, or in ``relatedIdentifiers[]``
  when a deposit is a version of an arXiv preprint;
* the venue is ``container`` or, in schema 4.4+, a ``relatedItems[]`` entry
  with ``relationType: IsPublishedIn``.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from citecheck_tex.config import Settings
from citecheck_tex.errors import SourceError
from citecheck_tex.model import Answer, Person, Query, QueryKind, Record, SourceStatus
from citecheck_tex.names import corporate_person
from citecheck_tex.sources.base import (
    as_dict,
    as_list,
    clean_arxiv,
    clean_doi,
    clean_text,
    elapsed_ms,
    error_detail,
    expect_json,
    failed_answer,
    has,
    json_body,
    parse_each,
    person_from_name,
    person_from_parts,
    register,
    year_of,
)
from citecheck_tex.sources.http import Http

logger = logging.getLogger(__name__)

#: DOI prefixes registered with DataCite, asked here directly (no Crossref detour).
DATACITE_PREFIXES = ("10.48550/", "10.5281/", "10.6084/", "10.5061/", "10.17632/")

_ARXIV_DOI = "10.48550/arxiv."

#: An answer is a JSON:API document with a ``data`` object; an unknown DOI is a 404.
EXPECT = expect_json(lambda b: has(b, "data"), "a data object", not_found=frozenset({404}))

#: DataCite ``resourceTypeGeneral`` -> BibTeX-like entry type.
_TYPES = {
    "JournalArticle": "article", "DataPaper": "article", "ConferencePaper": "inproceedings",
    "ConferenceProceeding": "proceedings", "Preprint": "preprint", "Dataset": "dataset",
    "Software": "software", "ComputationalNotebook": "software", "Book": "book",
    "BookChapter": "incollection", "Dissertation": "phdthesis", "Report": "techreport",
    "Text": "misc",
}

#: Relations under which a related arXiv id names the same work (another version of it).
_SAME_WORK = frozenset({"isidenticalto", "isvariantformof", "isversionof", "hasversion",
                        "ispreviousversionof", "isnewversionof", "isoriginalformof"})

#: ``dates[].dateType`` values whose year is a legitimate year to cite the work by.
_OTHER_YEAR_DATES = frozenset({"issued", "available", "submitted", "accepted", "created"})

_ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf)/(.+?)(?:\.pdf)?$", re.IGNORECASE)


class DataCiteSource:
    """The DataCite REST API."""

    name = "datacite"
    kinds = frozenset({QueryKind.DOI})
    version = "2"

    def __init__(self, http: Http, settings: Settings) -> None:
        self._http = http
        self._base = settings.base_url("datacite")

    async def fetch(self, query: Query) -> Answer:
        """Answer one DOI query (never raises: faults become ERROR/RATE_LIMITED answers)."""
        started = time.perf_counter()
        if query.kind is not QueryKind.DOI:
            return Answer(self.name, query, SourceStatus.SKIPPED,
                          message=f"datacite cannot answer {query.kind.value} queries")
        doi = clean_doi(query.value)
        if not doi:
            return Answer(self.name, query, SourceStatus.NOT_FOUND, message="datacite: empty DOI")
        url = f"{self._base}/dois/{quote(doi, safe='/:;()[]')}"
        try:
            resp = await self._http.request(self.name, "GET", url, expect=EXPECT)
            if resp.status_code == 404:
                return Answer(self.name, query, SourceStatus.NOT_FOUND,
                              message=f"datacite: no DOI {doi}", latency_ms=elapsed_ms(started),
                              http_requests=1)
            if resp.status_code != 200:
                detail = error_detail(resp)
                raise SourceError(f"datacite: HTTP {resp.status_code}"
                                  + (f" ({detail})" if detail else ""),
                                  source=self.name, url=url, status=resp.status_code)
            data = as_dict(json_body(resp, self.name)).get("data")
            records = parse_each(parse_doi, [data], self.name)
            if not records:
                raise SourceError("datacite: no readable record in the response",
                                  source=self.name, url=url)
        except SourceError as exc:
            return failed_answer(self.name, query, exc, started)
        return Answer(self.name, query, SourceStatus.FOUND, tuple(records),
                      latency_ms=elapsed_ms(started), http_requests=1)

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """One request per DOI (the REST API has no batch lookup by DOI)."""
        return [await self.fetch(q) for q in queries]


def _creator(c: dict[str, Any]) -> Person:
    name = clean_text(c.get("name"))
    if c.get("nameType") == "Organizational":
        return corporate_person(name)
    family = clean_text(c.get("familyName"))
    if family:
        return person_from_parts(family, clean_text(c.get("givenName")))
    return person_from_name(name)


def _main_title(titles: list[Any]) -> str:
    """The title without ``titleType`` (the main one), else the first non-translated one."""
    items = [t for t in titles if isinstance(t, dict) and clean_text(t.get("title"))]
    for t in items:
        if not t.get("titleType"):
            return clean_text(t.get("title"))
    for t in items:
        if t.get("titleType") not in ("TranslatedTitle", "Subtitle"):
            return clean_text(t.get("title"))
    return clean_text(items[0].get("title")) if items else ""


def _arxiv_of(doi: str, attrs: dict[str, Any]) -> str:
    """The arXiv id of the work: its own DOI, an identifier, or a same-work relation."""
    if doi.startswith(_ARXIV_DOI):
        return clean_arxiv(doi.removeprefix(_ARXIV_DOI))
    for ident in as_list(attrs.get("identifiers")):
        ident = as_dict(ident)
        if str(ident.get("identifierType", "")).lower() == "arxiv":
            return clean_arxiv(str(ident.get("identifier") or ""))
    for ident in as_list(attrs.get("alternateIdentifiers")):
        ident = as_dict(ident)
        if str(ident.get("alternateIdentifierType", "")).lower() == "arxiv":
            return clean_arxiv(str(ident.get("alternateIdentifier") or ""))
    for rel in as_list(attrs.get("relatedIdentifiers")):
        rel = as_dict(rel)
        if str(rel.get("relationType", "")).lower() not in _SAME_WORK:
            continue
        kind = str(rel.get("relatedIdentifierType", "")).lower()
        value = str(rel.get("relatedIdentifier") or "").strip()
        if kind == "arxiv":
            return clean_arxiv(value)
        if kind == "doi" and clean_doi(value).startswith(_ARXIV_DOI):
            return clean_arxiv(clean_doi(value).removeprefix(_ARXIV_DOI))
        if kind == "url":
            m = _ARXIV_URL.search(value)
            if m:
                return clean_arxiv(m.group(1))
    return ""


def _published_in(attrs: dict[str, Any]) -> dict[str, Any]:
    """Venue fields from ``container``, else from a ``relatedItems`` IsPublishedIn entry."""
    container = as_dict(attrs.get("container"))
    if clean_text(container.get("title")):
        return container
    for item in as_list(attrs.get("relatedItems")):
        item = as_dict(item)
        if str(item.get("relationType", "")) == "IsPublishedIn":
            return {"title": _main_title(as_list(item.get("titles"))),
                    "volume": item.get("volume"), "firstPage": item.get("firstPage"),
                    "lastPage": item.get("lastPage")}
    return container


def _other_years(attrs: dict[str, Any], year: str) -> tuple[str, ...]:
    years: list[str] = []
    for d in as_list(attrs.get("dates")):
        d = as_dict(d)
        if str(d.get("dateType", "")).lower() in _OTHER_YEAR_DATES:
            y = year_of(str(d.get("date") or ""))
            if y and y != year and y not in years:
                years.append(y)
    return tuple(sorted(years))


def parse_doi(data: dict[str, Any]) -> Record:
    """A Record from a DataCite ``data`` object."""
    attrs = as_dict(data.get("attributes"))
    if not attrs:
        raise ValueError("no attributes")
    doi = clean_doi(str(attrs.get("doi") or data.get("id") or ""))
    if not doi:
        raise ValueError("no DOI")
    types = as_dict(attrs.get("types"))
    venue_fields = _published_in(attrs)
    arxiv = _arxiv_of(doi, attrs)
    first = clean_text(str(venue_fields.get("firstPage") or ""))
    last = clean_text(str(venue_fields.get("lastPage") or ""))
    pages = f"{first}-{last}" if first and last and last != first else first
    own_arxiv_doi = doi.startswith(_ARXIV_DOI)
    venue = clean_text(venue_fields.get("title")) or ("arXiv" if own_arxiv_doi else "")
    # publicationYear is an int (REST API) or a string (older records, MDS JSON)
    year = year_of(attrs.get("publicationYear")) or year_of(str(attrs.get("published") or ""))
    entry_type = _TYPES.get(str(types.get("resourceTypeGeneral") or ""), "misc")
    if own_arxiv_doi:
        entry_type = "preprint"  # older arXiv DOIs say "Text"
    return Record(
        source="datacite",
        id=doi,
        url=str(attrs.get("url") or f"https://doi.org/{doi}"),
        title=_main_title(as_list(attrs.get("titles"))),
        authors=tuple(_creator(c) for c in as_list(attrs.get("creators"))
                      if isinstance(c, dict) and (c.get("name") or c.get("familyName"))),
        year=year,
        other_years=_other_years(attrs, year),
        venue=venue,
        volume=clean_text(str(venue_fields.get("volume") or "")),
        pages=pages,
        doi=doi,
        arxiv=arxiv,
        entry_type=entry_type,
        score=1.0,
    )


@register("datacite")
def make_datacite(http: Http, settings: Settings) -> DataCiteSource:
    """Factory registered as "datacite"."""
    return DataCiteSource(http, settings)
