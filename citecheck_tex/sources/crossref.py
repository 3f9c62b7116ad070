"""Crossref REST API: DOIs (``/works/{doi}``, batches with ``filter=doi:a,doi:b``)
and bibliographic search (``query.bibliographic``, 5 rows, re-ranked locally) for
titles and for title-less journal references (``Phys. Rev. A 76 052319 2007 Bravyi``:
Crossref matches structured citations against journal, volume, page, year and authors).

A DOI Crossref does not know (404, body "Resource not found.") may be
registered elsewhere: ``/works/{doi}/agency`` says which agency, and DataCite
DOIs are answered through :class:`~citecheck_tex.sources.datacite.DataCiteSource`.
Known DataCite prefixes (arXiv's ``10.48550``) go there directly. ``mailto``
puts us in the polite pool; :class:`~citecheck_tex.sources.http.Http` obeys
the ``X-Rate-Limit-*`` headers.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from dataclasses import replace
from typing import Any
from urllib.parse import quote

from citecheck_tex.config import Settings
from citecheck_tex.errors import SourceError
from citecheck_tex.model import Answer, Person, Query, QueryKind, Record, SourceStatus
from citecheck_tex.names import corporate_person
from citecheck_tex.sources.base import (
    as_dict,
    as_list,
    chunked,
    clean_doi,
    clean_text,
    elapsed_ms,
    expect_json,
    failed_answer,
    has,
    json_body,
    parse_each,
    person_from_parts,
    register,
    year_of,
)
from citecheck_tex.sources.datacite import DATACITE_PREFIXES, DataCiteSource
from citecheck_tex.sources.http import Http
from citecheck_tex.sources.importers import first_page
from citecheck_tex.vocab.latex_text import strip_markup

logger = logging.getLogger(__name__)

BATCH = 40  # DOIs per filter request: keeps the URL short
TITLE_ROWS = 5
#: Fields asked for in searches and batches (keeps responses small).
SELECT = ("DOI,title,subtitle,author,container-title,short-container-title,issued,"
          "published-print,published-online,volume,page,article-number,type,score,URL")

#: Answers: ``{"status": "ok", "message": {...}}``; a list answer's message holds
#: ``items``. An unknown DOI is a 404 with the text "Resource not found.".
EXPECT_WORK = expect_json(lambda b: _ok(b) and has(b, "message"), "a work message",
                          not_found=frozenset({404}))
EXPECT_LIST = expect_json(lambda b: _ok(b) and has(b, "message", "items", kind=list),
                          "message.items")


def _ok(body: Any) -> bool:
    return isinstance(body, dict) and body.get("status", "ok") == "ok"


_TYPES = {
    "journal-article": "article", "proceedings-article": "inproceedings",
    "book-chapter": "incollection", "book": "book", "monograph": "book",
    "edited-book": "book", "posted-content": "preprint", "dataset": "dataset",
    "report": "techreport", "dissertation": "phdthesis", "reference-entry": "incollection",
}


class CrossrefSource:
    """The Crossref REST API."""

    name = "crossref"
    kinds = frozenset({QueryKind.DOI, QueryKind.TITLE, QueryKind.JOURNAL_REF})
    version = "4"  # 2: titles without publishers' inline markup; 3: journal references,
    # DOIs missing from a batch go to the agency check; 4: the subtitle joins the title

    def __init__(self, http: Http, settings: Settings) -> None:
        self._http = http
        self._base = settings.base_url("crossref")
        self._mailto = settings.mailto
        self._datacite = DataCiteSource(http, settings)

    def _params(self, **extra: str) -> dict[str, str]:
        params = dict(extra)
        if self._mailto:
            params["mailto"] = self._mailto
        return params

    async def fetch(self, query: Query) -> Answer:
        """Answer one query."""
        if query.kind is QueryKind.DOI:
            return await self._fetch_doi(query)
        if query.kind is QueryKind.TITLE:
            return await self._fetch_title(query)
        if query.kind is QueryKind.JOURNAL_REF:
            return await self._fetch_journal_ref(query)
        return Answer(self.name, query, SourceStatus.SKIPPED,
                      message=f"crossref cannot answer {query.kind.value} queries")

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """DOIs in ``filter=doi:`` batches, the rest one by one, answers in order."""
        out: list[Answer | None] = [None] * len(queries)
        doi_idx = [i for i, q in enumerate(queries) if q.kind is QueryKind.DOI]
        if len(doi_idx) > 1:
            for i, a in zip(doi_idx, await self._fetch_dois([queries[i] for i in doi_idx]),
                            strict=True):
                out[i] = a
        for i, q in enumerate(queries):
            if out[i] is None:
                out[i] = await self.fetch(q)
        return [a for a in out if a is not None]

    # -- DOIs ---------------------------------------------------------------

    async def _fetch_doi(self, query: Query) -> Answer:
        started = time.perf_counter()
        doi = clean_doi(query.value)
        if doi.startswith(DATACITE_PREFIXES):
            return await self._via_datacite(query, started, 0, "DataCite prefix")
        url = f"{self._base}/works/{quote(doi, safe='/:;()[]<>')}"
        try:
            resp = await self._http.request(self.name, "GET", url, params=self._params(),
                                            expect=EXPECT_WORK)
            if resp.status_code == 404:
                return await self._not_in_crossref(query, doi, started, 1)
            if resp.status_code == 400:
                detail = _error_text(json_body(resp, self.name))
                raise SourceError(f"crossref: bad request for {doi}: {detail}",
                                  source=self.name, url=url, status=400)
            if resp.status_code != 200:
                raise SourceError(f"crossref: HTTP {resp.status_code}", source=self.name,
                                  url=url, status=resp.status_code)
            message = as_dict(json_body(resp, self.name)).get("message")
            if not isinstance(message, dict) or not message.get("DOI"):
                raise SourceError("crossref: no message in the response", source=self.name,
                                  url=url)
        except SourceError as exc:
            return failed_answer(self.name, query, exc, started)
        records = parse_each(lambda m: parse_work(m, 1.0), [message], self.name)
        if not records:
            return failed_answer(self.name, query, SourceError(
                "crossref: unreadable work record", source=self.name, url=url), started)
        return Answer(self.name, query, SourceStatus.FOUND, tuple(records),
                      latency_ms=elapsed_ms(started), http_requests=1)

    async def _not_in_crossref(self, query: Query, doi: str, started: float,
                               requests: int) -> Answer:
        """Ask which agency registered the DOI; follow DataCite ones."""
        url = f"{self._base}/works/{quote(doi, safe='/:;()[]<>')}/agency"
        try:
            resp = await self._http.request(self.name, "GET", url, params=self._params(),
                                            expect=EXPECT_WORK)
            requests += 1
            agency = ""
            if resp.status_code == 200:
                msg = as_dict(as_dict(json_body(resp, self.name)).get("message"))
                agency = str(as_dict(msg.get("agency")).get("id") or "").lower()
        except SourceError:
            agency = ""  # the DOI itself was a clean 404: not found, whoever registered it
        if agency == "datacite":
            return await self._via_datacite(query, started, requests, "agency: DataCite")
        note = f" (registered with {agency})" if agency and agency != "crossref" else ""
        return Answer(self.name, query, SourceStatus.NOT_FOUND,
                      message=f"crossref: Resource not found: {doi}{note}",
                      latency_ms=elapsed_ms(started), http_requests=requests)

    async def _via_datacite(self, query: Query, started: float, requests: int,
                            why: str) -> Answer:
        ans = await self._datacite.fetch(query)
        return Answer(self.name, query, ans.status, ans.records,
                      message=f"{ans.message} ({why})".strip() if ans.message else why,
                      latency_ms=elapsed_ms(started),
                      http_requests=requests + ans.http_requests)

    async def _fetch_dois(self, queries: Sequence[Query]) -> list[Answer]:
        """Batch lookup; DOIs absent from the batch answer are looked up one by one
        (a 404 there leads to the agency check)."""
        started = time.perf_counter()
        dois = [clean_doi(q.value) for q in queries]
        batchable = list(dict.fromkeys(
            d for d in dois if d and "," not in d and not d.startswith(DATACITE_PREFIXES)))
        found: dict[str, Record] = {}
        failure: SourceError | None = None
        requests = 0
        for chunk in chunked(batchable, BATCH):
            url = f"{self._base}/works"
            params = self._params(filter=",".join(f"doi:{d}" for d in chunk),
                                  rows=str(len(chunk) * 2), select=SELECT)
            try:
                requests += 1
                resp = await self._http.request(self.name, "GET", url, params=params,
                                                expect=EXPECT_LIST)
                if resp.status_code != 200:
                    raise SourceError(f"crossref: HTTP {resp.status_code} for a DOI batch",
                                      source=self.name, url=url, status=resp.status_code)
                items = as_dict(as_dict(json_body(resp, self.name)).get("message")).get("items")
            except SourceError as exc:
                failure = exc
                continue
            for rec in parse_each(lambda m: parse_work(m, 1.0), items, self.name):
                if rec.doi:
                    found[rec.doi] = rec
        out: list[Answer] = []
        for n, (q, d) in enumerate(zip(queries, dois, strict=True)):
            reqs = requests if n == 0 else 0
            if d in found:
                out.append(Answer(self.name, q, SourceStatus.FOUND, (found[d],),
                                  latency_ms=elapsed_ms(started), http_requests=reqs))
            elif failure is not None and d in batchable:
                out.append(failed_answer(self.name, q, failure, started))
            elif d in batchable:
                # the filter matches DOIs exactly: one absent from the answer is not a
                # Crossref DOI; the agency says whether DataCite has it
                single = await self._not_in_crossref(q, d, started, 0)
                out.append(Answer(single.source, q, single.status, single.records,
                                  single.message, single.latency_ms, False,
                                  single.http_requests + reqs))
            else:
                single = await self._fetch_doi(q)
                out.append(Answer(single.source, q, single.status, single.records,
                                  single.message, single.latency_ms, False,
                                  single.http_requests + reqs))
        return out

    # -- titles -------------------------------------------------------------

    async def _fetch_title(self, query: Query) -> Answer:
        if not query.value.strip():
            return Answer(self.name, query, SourceStatus.NOT_FOUND, message="empty title")
        return await self._bibliographic(
            query, " ".join([query.value, *query.authors[:3], query.year]).strip())

    async def _fetch_journal_ref(self, query: Query) -> Answer:
        """A title-less citation: journal, volume, page, year and authors as one
        structured-citation query."""
        text = " ".join(" ".join(p.split()) for p in (
            query.journal, query.volume, query.page, query.year, *query.authors[:3]) if p)
        if not (query.journal.strip() and query.volume.strip()):
            return Answer(self.name, query, SourceStatus.NOT_FOUND,
                          message="crossref: journal reference without journal or volume")
        ans = await self._bibliographic(query, text)
        # a search ranks look-alikes too; the answer to "which work is at this journal
        # reference?" is only a work at the cited volume and first page (as INSPIRE's
        # ``j`` search and OpenAlex's biblio filters answer)
        at = tuple(r for r in ans.records if _at_pubnote(r, query))
        if ans.status is not SourceStatus.FOUND or at:
            return replace(ans, records=at) if ans.status is SourceStatus.FOUND else ans
        return replace(ans, status=SourceStatus.NOT_FOUND, records=(),
                       message=f"crossref: no work at {query.value}")

    async def _bibliographic(self, query: Query, text: str) -> Answer:
        started = time.perf_counter()
        url = f"{self._base}/works"
        params = self._params(**{"query.bibliographic": text, "rows": str(TITLE_ROWS),
                                 "select": SELECT})
        try:
            resp = await self._http.request(self.name, "GET", url, params=params,
                                            expect=EXPECT_LIST)
            if resp.status_code != 200:
                detail = _error_text(json_body(resp, self.name)) if resp.status_code == 400 else ""
                raise SourceError(f"crossref: HTTP {resp.status_code} {detail}".strip(),
                                  source=self.name, url=url, status=resp.status_code)
            items = as_list(as_dict(as_dict(json_body(resp, self.name)).get("message"))
                            .get("items"))
        except SourceError as exc:
            return failed_answer(self.name, query, exc, started)
        top = max((_score(i) for i in items), default=0.0) or 1.0
        records = tuple(parse_each(lambda i: parse_work(i, _score(i) / top), items, self.name))
        status = SourceStatus.FOUND if records else SourceStatus.NOT_FOUND
        return Answer(self.name, query, status, records, latency_ms=elapsed_ms(started),
                      http_requests=1)


def _digits(value: str) -> str:
    return re.sub(r"\D", "", value)


def _at_pubnote(record: Record, query: Query) -> bool:
    """Is ``record`` at the query's volume and first page (series letters ignored)?"""
    return (bool(_digits(query.volume)) and _digits(record.volume) == _digits(query.volume)
            and bool(query.page) and first_page(record.pages) == first_page(query.page))


def _score(item: Any) -> float:
    try:
        return float(as_dict(item).get("score") or 0.0)
    except (TypeError, ValueError):
        return 0.0


def _error_text(body: Any) -> str:
    """The message of a Crossref validation failure (400 JSON)."""
    if isinstance(body, dict) and isinstance(body.get("message"), list):
        return "; ".join(str(m.get("message", "")) for m in body["message"]
                         if isinstance(m, dict))
    return ""


def _first(value: Any) -> str:
    if isinstance(value, list):
        return clean_text(value[0]) if value else ""
    return clean_text(value)


def _date_year(work: dict[str, Any], key: str) -> str:
    parts = as_list(as_dict(work.get(key)).get("date-parts"))
    if parts and as_list(parts[0]) and parts[0][0] is not None:
        return year_of(str(parts[0][0]))
    return ""


def _author(a: dict[str, Any]) -> Person:
    if a.get("family"):
        return person_from_parts(str(a["family"]), str(a.get("given") or ""))
    return corporate_person(clean_text(a.get("name")))


def parse_work(work: dict[str, Any], score: float = 0.0) -> Record:
    """A Record from a Crossref work message (``/works/{doi}`` or a list item)."""
    years = [y for y in (_date_year(work, k) for k in
                         ("issued", "published-print", "published-online", "published")) if y]
    year = years[0] if years else ""
    other = tuple(dict.fromkeys(y for y in years if y != year))
    containers = [clean_text(c) for c in work.get("container-title") or [] if c]
    shorts = [clean_text(c) for c in work.get("short-container-title") or [] if c]
    venue = containers[0] if containers else ""
    aliases = tuple(dict.fromkeys(a for a in (*containers[1:], *shorts) if a and a != venue))
    pages = clean_text(work.get("page")) or clean_text(work.get("article-number"))
    doi = clean_doi(str(work.get("DOI") or ""))
    # Crossref titles carry JATS/HTML markup ("<scp>T</scp>reebase", "<i>p</i>-...")
    title = " ".join(strip_markup(_first(work.get("title"))).split())
    subtitle = " ".join(strip_markup(_first(work.get("subtitle"))).split())
    if title and re.search(r"[^\W\d_]{3}", subtitle) and subtitle.lower() not in title.lower():
        title = f"{title}: {subtitle}"  # Crossref keeps the subtitle apart; citations don't
    return Record(
        source="crossref",
        id=doi,
        url=str(work.get("URL") or (f"https://doi.org/{doi}" if doi else "")),
        title=title,
        authors=tuple(_author(a) for a in work.get("author") or [] if isinstance(a, dict)),
        year=year,
        other_years=other,
        venue=venue,
        venue_aliases=aliases,
        volume=clean_text(work.get("volume")),
        pages=pages.replace("\u2013", "-"),
        doi=doi,
        entry_type=_TYPES.get(str(work.get("type") or ""), str(work.get("type") or "")),
        score=round(score, 4),
    )


@register("crossref")
def make_crossref(http: Http, settings: Settings) -> CrossrefSource:
    """Factory registered as "crossref"."""
    return CrossrefSource(http, settings)
