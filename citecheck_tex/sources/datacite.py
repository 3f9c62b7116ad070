"""DataCite REST API: DOIs that Crossref does not register.

arXiv's own DOIs (``10.48550/arXiv.*``), Zenodo, figshare and most datasets
live here. ``GET /dois/{doi}`` answers a JSON:API document
(``data.attributes.{titles, creators, publicationYear, container, types}``);
an unknown DOI is a 404.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any
from urllib.parse import quote

from citecheck_tex.config import Settings
from citecheck_tex.errors import SourceError
from citecheck_tex.model import Answer, Person, Query, QueryKind, Record, SourceStatus
from citecheck_tex.sources.base import (
    as_dict,
    clean_doi,
    clean_text,
    elapsed_ms,
    failed_answer,
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

_TYPES = {
    "JournalArticle": "article", "ConferencePaper": "inproceedings", "Preprint": "preprint",
    "Dataset": "dataset", "Software": "software", "Book": "book", "BookChapter": "incollection",
    "Dissertation": "phdthesis", "Report": "techreport", "Text": "misc",
}


class DataCiteSource:
    """The DataCite REST API."""

    name = "datacite"
    kinds = frozenset({QueryKind.DOI})
    version = "1"

    def __init__(self, http: Http, settings: Settings) -> None:
        self._http = http
        self._base = settings.base_url("datacite")

    async def fetch(self, query: Query) -> Answer:
        """Answer one DOI query."""
        started = time.perf_counter()
        if query.kind is not QueryKind.DOI:
            return Answer(self.name, query, SourceStatus.SKIPPED,
                          message=f"datacite cannot answer {query.kind.value} queries")
        doi = clean_doi(query.value)
        url = f"{self._base}/dois/{quote(doi, safe='/:;()[]')}"
        try:
            resp = await self._http.request(self.name, "GET", url)
            if resp.status_code == 404:
                return Answer(self.name, query, SourceStatus.NOT_FOUND,
                              message=f"datacite: no DOI {doi}", latency_ms=elapsed_ms(started),
                              http_requests=1)
            if resp.status_code != 200:
                raise SourceError(f"datacite: HTTP {resp.status_code}", source=self.name,
                                  url=url, status=resp.status_code)
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
    if c.get("nameType") == "Organizational":
        return Person(family=clean_text(c.get("name")), literal=True)
    if c.get("familyName"):
        return person_from_parts(str(c["familyName"]), str(c.get("givenName") or ""))
    return person_from_name(str(c.get("name") or ""))


def parse_doi(data: dict[str, Any]) -> Record:
    """A Record from a DataCite ``data`` object."""
    attrs = as_dict(data.get("attributes"))
    if not attrs:
        raise ValueError("no attributes")
    titles = [clean_text(t.get("title")) for t in attrs.get("titles") or [] if isinstance(t, dict)]
    container = as_dict(attrs.get("container"))
    types = as_dict(attrs.get("types"))
    doi = clean_doi(str(attrs.get("doi") or data.get("id") or ""))
    arxiv = ""
    if doi.startswith("10.48550/arxiv."):
        arxiv = doi.removeprefix("10.48550/arxiv.")
    for rel in attrs.get("identifiers") or []:
        if isinstance(rel, dict) and str(rel.get("identifierType", "")).lower() == "arxiv":
            arxiv = str(rel.get("identifier", "")).removeprefix("arXiv:")
    first, last = str(container.get("firstPage") or ""), str(container.get("lastPage") or "")
    pages = f"{first}-{last}" if first and last and last != first else first
    venue = clean_text(container.get("title")) or ("arXiv" if arxiv else "")
    return Record(
        source="datacite",
        id=doi,
        url=str(attrs.get("url") or f"https://doi.org/{doi}"),
        title=titles[0] if titles else "",
        authors=tuple(_creator(c) for c in attrs.get("creators") or [] if isinstance(c, dict)),
        year=year_of(attrs.get("publicationYear")) or year_of(str(attrs.get("published") or "")),
        venue=venue,
        volume=str(container.get("volume") or ""),
        pages=pages,
        doi=doi,
        arxiv=arxiv,
        entry_type=_TYPES.get(str(types.get("resourceTypeGeneral") or ""), "misc"),
        score=1.0,
    )


@register("datacite")
def make_datacite(http: Http, settings: Settings) -> DataCiteSource:
    """Factory registered as "datacite"."""
    return DataCiteSource(http, settings)
