"""OpenAlex works API: DOIs in ``filter=doi:a|b|c`` batches, titles by ``search=``,
title-less journal references by ``filter=biblio.volume:V,biblio.first_page:P`` (the
journal is left to the comparison: its name is spelt a hundred ways, and filtering by
source would need one more request to find the source's id).

OpenAlex requires an ``api_key`` since 2026 (read from the environment
variable named by ``settings.openalex_api_key_env``); ``mailto`` is sent too.
Each response's cost/rate headers are logged at debug level by
:class:`~citecheck_tex.sources.http.Http`.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import Sequence
from typing import Any

from citecheck_tex.config import Settings
from citecheck_tex.errors import SourceError
from citecheck_tex.model import Answer, Query, QueryKind, Record, SourceStatus
from citecheck_tex.sources.base import (
    as_dict,
    as_list,
    chunked,
    clean_arxiv,
    clean_doi,
    clean_text,
    elapsed_ms,
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
from citecheck_tex.sources.importers import first_page
from citecheck_tex.vocab.latex_text import strip_markup

logger = logging.getLogger(__name__)

BATCH = 50
TITLE_ROWS = 5
JREF_ROWS = 25
_VOLUME_LETTER = re.compile(r"^[A-Za-z]+(?=\d)")  # INSPIRE's "B106": OpenAlex has "106"
SELECT = ("id,doi,title,display_name,publication_year,publication_date,authorships,type,"
          "primary_location,locations,ids,biblio")
_ARXIV_URL = re.compile(r"arxiv\.org/(?:abs|pdf)/([^\s?#]+?)(?:\.pdf)?$", re.IGNORECASE)
#: An answer is ``{"meta": {...}, "results": [...]}``.
EXPECT = expect_json(lambda b: has(b, "results", kind=list), "a results list")
_TYPES = {"article": "article", "book": "book", "book-chapter": "incollection",
          "dataset": "dataset", "preprint": "preprint", "dissertation": "phdthesis",
          "proceedings-article": "inproceedings"}


class OpenAlexSource:
    """The OpenAlex works API."""

    name = "openalex"
    kinds = frozenset({QueryKind.DOI, QueryKind.TITLE, QueryKind.JOURNAL_REF})
    version = "3"  # 2: titles without publishers' inline markup; 3: journal references by
    # biblio filters

    def __init__(self, http: Http, settings: Settings) -> None:
        self._http = http
        self._url = settings.base_url("openalex") + "/works"
        self._extra: dict[str, str] = {}
        key = settings.api_key(settings.openalex_api_key_env)
        if key:
            self._extra["api_key"] = key
        if settings.mailto:
            self._extra["mailto"] = settings.mailto

    async def _get(self, params: dict[str, str]) -> list[dict[str, Any]]:
        resp = await self._http.request(self.name, "GET", self._url,
                                        params={**params, **self._extra}, expect=EXPECT)
        if resp.status_code != 200:
            raise SourceError(f"openalex: HTTP {resp.status_code}", source=self.name,
                              url=self._url, status=resp.status_code)
        results = as_list(as_dict(json_body(resp, self.name)).get("results"))
        return [r for r in results if isinstance(r, dict)]

    async def fetch(self, query: Query) -> Answer:
        """Answer one query."""
        return (await self.fetch_batch([query]))[0]

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """DOIs OR-ed 50 per request; titles one by one."""
        out: list[Answer | None] = [None] * len(queries)
        idx = [i for i, q in enumerate(queries) if q.kind is QueryKind.DOI]
        if idx:
            for i, a in zip(idx, await self._fetch_dois([queries[i] for i in idx]), strict=True):
                out[i] = a
        for i, q in enumerate(queries):
            if q.kind is QueryKind.TITLE:
                out[i] = await self._fetch_title(q)
            elif q.kind is QueryKind.JOURNAL_REF:
                out[i] = await self._fetch_journal_ref(q)
            elif out[i] is None:
                out[i] = Answer(self.name, q, SourceStatus.SKIPPED,
                                message=f"openalex cannot answer {q.kind.value} queries")
        return [a for a in out if a is not None]

    async def _fetch_dois(self, queries: Sequence[Query]) -> list[Answer]:
        started = time.perf_counter()
        dois = [clean_doi(q.value) for q in queries]
        unique = list(dict.fromkeys(d for d in dois if d and "|" not in d and "," not in d))
        found: dict[str, Record] = {}
        failure: SourceError | None = None
        requests = 0
        for chunk in chunked(unique, BATCH):
            try:
                requests += 1
                works = await self._get({"filter": "doi:" + "|".join(chunk),
                                         "per-page": str(len(chunk)), "select": SELECT})
            except SourceError as exc:
                failure = exc
                continue
            for rec in parse_each(parse_work, works, self.name):
                if rec.doi:
                    found[rec.doi] = rec
        out = []
        for n, (q, d) in enumerate(zip(queries, dois, strict=True)):
            reqs = requests if n == 0 else 0
            if d in found:
                out.append(Answer(self.name, q, SourceStatus.FOUND, (found[d],),
                                  latency_ms=elapsed_ms(started), http_requests=reqs))
            elif failure is not None:
                out.append(failed_answer(self.name, q, failure, started))
            else:
                out.append(Answer(self.name, q, SourceStatus.NOT_FOUND,
                                  message=f"openalex: no work with DOI {d}",
                                  latency_ms=elapsed_ms(started), http_requests=reqs))
        return out

    async def _fetch_journal_ref(self, query: Query) -> Answer:
        """Works with the cited volume and first page (any journal, any year: either may be
        the field the citation got wrong); the comparison picks the one that fits."""
        started = time.perf_counter()
        volume = _filter_value(_VOLUME_LETTER.sub("", query.volume))
        page = _filter_value(first_page(query.page))
        if not volume or not page:
            return Answer(self.name, query, SourceStatus.NOT_FOUND,
                          message="openalex: journal reference without volume or page")
        try:
            works = await self._get({"filter": f"biblio.volume:{volume},biblio.first_page:{page}",
                                     "per-page": str(JREF_ROWS), "select": SELECT})
        except SourceError as exc:
            return failed_answer(self.name, query, exc, started)
        records = tuple(parse_each(parse_work, works, self.name))
        status = SourceStatus.FOUND if records else SourceStatus.NOT_FOUND
        return Answer(self.name, query, status, records, latency_ms=elapsed_ms(started),
                      http_requests=1)

    async def _fetch_title(self, query: Query) -> Answer:
        started = time.perf_counter()
        text = re.sub(r"[,|:]", " ", query.value).strip()
        if not text:
            return Answer(self.name, query, SourceStatus.NOT_FOUND, message="empty title")
        try:
            works = await self._get({"search": text, "per-page": str(TITLE_ROWS),
                                     "select": SELECT})
        except SourceError as exc:
            return failed_answer(self.name, query, exc, started)
        records = tuple(parse_each(parse_work, works, self.name))
        status = SourceStatus.FOUND if records else SourceStatus.NOT_FOUND
        return Answer(self.name, query, status, records, latency_ms=elapsed_ms(started),
                      http_requests=1)


def _filter_value(value: str) -> str:
    """``value`` without the characters of the filter syntax (``,`` ``|`` ``:``)."""
    return re.sub(r"[,|:\s]", "", value)


def parse_work(work: dict[str, Any]) -> Record:
    """A Record from an OpenAlex work object."""
    primary = as_dict(work.get("primary_location"))
    source = as_dict(primary.get("source"))
    biblio = as_dict(work.get("biblio"))
    first, last = str(biblio.get("first_page") or ""), str(biblio.get("last_page") or "")
    arxiv = ""
    for loc in [primary, *(work.get("locations") or [])]:
        if isinstance(loc, dict):
            m = _ARXIV_URL.search(str(loc.get("landing_page_url") or ""))
            if m:
                arxiv = clean_arxiv(m.group(1))
                break
    doi = clean_doi(str(work.get("doi") or ""))
    if not arxiv and doi.startswith("10.48550/arxiv."):
        arxiv = doi.removeprefix("10.48550/arxiv.")
    wid = str(work.get("id") or "").rsplit("/", 1)[-1]
    year = year_of(work.get("publication_year"))
    date_year = year_of(str(work.get("publication_date") or ""))
    venue = clean_text(source.get("display_name"))
    abbrev = clean_text(source.get("abbreviated_title"))
    return Record(
        source="openalex",
        id=wid,
        url=str(work.get("id") or ""),
        title=" ".join(strip_markup(clean_text(work.get("title") or work.get("display_name")))
                       .split()),  # OpenAlex keeps the publishers' "<i>...</i>"
        authors=tuple(
            person_from_name(str((a.get("author") or {}).get("display_name")
                                 or a.get("raw_author_name") or ""))
            for a in work.get("authorships") or [] if isinstance(a, dict)
        ),
        authors_truncated=bool(work.get("is_authors_truncated")),
        year=year or date_year,
        other_years=(date_year,) if date_year and year and date_year != year else (),
        venue=venue,
        venue_aliases=(abbrev,) if abbrev and abbrev != venue else (),
        volume=str(biblio.get("volume") or ""),
        pages=f"{first}-{last}" if first and last and first != last else first,
        doi=doi,
        arxiv=arxiv,
        entry_type=_TYPES.get(str(work.get("type") or ""), str(work.get("type") or "")),
        score=1.0,
    )


@register("openalex")
def make_openalex(http: Http, settings: Settings) -> OpenAlexSource:
    """Factory registered as "openalex"."""
    return OpenAlexSource(http, settings)
