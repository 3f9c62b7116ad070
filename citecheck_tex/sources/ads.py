"""NASA ADS search API (astronomy), only when a token is configured.

Without the token (environment variable named by ``settings.ads_token_env``)
every answer is SKIPPED and no request is made. With it:
``/search/query?q=doi:"..."`` / ``arxiv:...`` / ``title:"..."`` with ``fl=``
to keep responses small, authenticated by ``Authorization: Bearer``.

The answer is a Solr document list, ``response.docs[]`` (see the recordings in
``tests/fixtures/api/ads.jsonl``): ``title``, ``doi`` and ``page`` are lists;
``author`` is a list of "Family, Given" strings, with collaborations and teams
written without a comma ("ADS Team"); ``year`` is a string that may differ from
the year in the ``bibcode`` (lectures posted to arXiv years later);
``identifier`` mixes bibcodes, DOIs and ``arXiv:`` ids; an e-print has
``pub`` "arXiv e-prints" and its arXiv id in ``page``; ``page_range`` holds
first-last pages when known.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from typing import Any

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
    register,
    year_of,
)
from citecheck_tex.sources.http import Http

logger = logging.getLogger(__name__)

FIELDS = ("bibcode,title,author,year,pub,volume,page,page_range,doi,identifier,doctype,"
          "bibstem")
ROWS = 5
_ARXIV_IDENT = re.compile(r"^arXiv:(.+)$", re.IGNORECASE)
_BIBCODE_YEAR = re.compile(r"^(1[5-9]\d\d|20\d\d)")
#: An answer is a Solr result, ``{"responseHeader": ..., "response": {"docs": [...]}}``.
EXPECT = expect_json(lambda b: has(b, "response", "docs", kind=list), "response.docs")
_ARXIV_PUBS = frozenset({"arxiv e-prints", "arxiv"})

#: ADS ``doctype`` -> BibTeX-like entry type (unknown doctypes stay "").
_DOCTYPES = {
    "article": "article", "erratum": "article", "editorial": "article", "bookreview": "article",
    "obituary": "article", "eprint": "preprint", "inproceedings": "inproceedings",
    "proceedings": "proceedings", "abstract": "misc", "book": "book", "inbook": "incollection",
    "phdthesis": "phdthesis", "mastersthesis": "mastersthesis", "techreport": "techreport",
    "intechreport": "techreport", "software": "software", "catalog": "dataset", "misc": "misc",
}


class AdsSource:
    """The NASA ADS search API."""

    name = "ads"
    kinds = frozenset({QueryKind.DOI, QueryKind.ARXIV, QueryKind.TITLE})
    version = "2"

    def __init__(self, http: Http, settings: Settings) -> None:
        self._http = http
        self._url = settings.base_url("ads") + "/search/query"
        self._token = settings.api_key(settings.ads_token_env)
        self._token_env = settings.ads_token_env

    async def fetch(self, query: Query) -> Answer:
        """Answer one query (SKIPPED without a token; never raises for network faults)."""
        started = time.perf_counter()
        if not self._token:
            return Answer(self.name, query, SourceStatus.SKIPPED,
                          message=f"ads: no token (set {self._token_env})")
        if query.kind is QueryKind.DOI:
            q = f'doi:"{clean_doi(query.value)}"'
        elif query.kind is QueryKind.ARXIV:
            q = f"arxiv:{clean_arxiv(query.value)}"
        elif query.kind is QueryKind.TITLE:
            title = " ".join(re.sub(r'["{}$\\]', " ", query.value).split())
            if not title:
                return Answer(self.name, query, SourceStatus.NOT_FOUND, message="empty title")
            q = f'title:"{title}"'
        else:
            return Answer(self.name, query, SourceStatus.SKIPPED,
                          message=f"ads cannot answer {query.kind.value} queries")
        try:
            resp = await self._http.request(
                self.name, "GET", self._url, params={"q": q, "fl": FIELDS, "rows": str(ROWS)},
                headers={"Authorization": f"Bearer {self._token}"}, expect=EXPECT)
            if resp.status_code != 200:
                raise SourceError(_http_message(resp), source=self.name, url=self._url,
                                  status=resp.status_code)
            docs = as_dict(as_dict(json_body(resp, self.name)).get("response")).get("docs")
        except SourceError as exc:
            return failed_answer(self.name, query, exc, started)
        records = tuple(parse_each(parse_doc, docs, self.name))
        status = SourceStatus.FOUND if records else SourceStatus.NOT_FOUND
        return Answer(self.name, query, status, records, latency_ms=elapsed_ms(started),
                      http_requests=1)

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """One request per query."""
        return [await self.fetch(q) for q in queries]


def _http_message(resp: Any) -> str:
    """``ads: HTTP 401 (...)`` with the error text ADS put in the body, if any."""
    status = resp.status_code
    detail = error_detail(resp)
    hint = " - check the ADS token" if status in (401, 403) else ""
    return f"ads: HTTP {status}" + (f" ({detail})" if detail else "") + hint


def _author(name: str) -> Person:
    # ADS writes people "Family, Given"; a name without a comma is a team or a
    # collaboration ("ADS Team", "Gaia Collaboration"): keep it whole.
    text = clean_text(name)
    if text and "," not in text:
        return corporate_person(text)
    return person_from_name(text)


def parse_doc(doc: dict[str, Any]) -> Record:
    """A Record from an ADS search document."""
    def first(key: str) -> str:
        value = doc.get(key)
        if isinstance(value, list):
            return clean_text(value[0]) if value else ""
        return clean_text(value)

    bibcode = clean_text(doc.get("bibcode"))
    title = first("title")
    if not bibcode and not title:
        raise ValueError("neither bibcode nor title")
    idents = [str(i) for i in as_list(doc.get("identifier"))]
    arxiv = ""
    for ident in idents:
        m = _ARXIV_IDENT.match(ident)
        if m:
            arxiv = clean_arxiv(m.group(1))
            break
    doi = clean_doi(first("doi"))
    if not doi:
        doi = next((clean_doi(i) for i in idents if i.startswith("10.")), "")
    doctype = clean_text(doc.get("doctype"))
    pub = clean_text(doc.get("pub"))
    page = first("page")
    if arxiv and clean_arxiv(page) == arxiv:
        page = ""  # an e-print's "page" is its arXiv id
    page_range = clean_text(doc.get("page_range"))
    pages = page_range if page_range and "-" in page_range else page
    venue, aliases = pub, [clean_text(s) for s in as_list(doc.get("bibstem"))[:1]
                           if isinstance(s, str) and clean_text(s) and clean_text(s) != pub]
    if pub.lower() in _ARXIV_PUBS:
        venue, aliases = "arXiv", [pub] if pub != "arXiv" else []
    m = _BIBCODE_YEAR.match(bibcode)
    bib_year = m.group(1) if m else ""
    year = (year_of(str(doc.get("year") or "")) or year_of(str(doc.get("pubdate") or ""))
            or bib_year)
    # the bibcode year is when ADS dated the record (an e-print's posting year):
    # a legitimate year to cite it by when it differs from "year"
    other = (bib_year,) if bib_year and bib_year != year else ()
    authors = tuple(_author(str(a)) for a in as_list(doc.get("author")) if str(a).strip())
    return Record(
        source="ads",
        id=bibcode or doi or arxiv,
        url=f"https://ui.adsabs.harvard.edu/abs/{bibcode}" if bibcode else "",
        title=title,
        authors=authors,
        collaborations=tuple(p.family for p in authors
                             if p.literal and "collaboration" in p.family.lower()),
        year=year,
        other_years=other,
        venue=venue,
        venue_aliases=tuple(aliases),
        volume=clean_text(doc.get("volume")),
        pages=pages,
        doi=doi,
        arxiv=arxiv,
        entry_type="preprint" if doctype == "eprint" or (arxiv and pub.lower() in _ARXIV_PUBS)
        else _DOCTYPES.get(doctype, ""),
        score=1.0,
    )


@register("ads")
def make_ads(http: Http, settings: Settings) -> AdsSource:
    """Factory registered as "ads"."""
    return AdsSource(http, settings)
