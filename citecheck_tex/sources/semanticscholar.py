"""Semantic Scholar Graph API: DOIs and arXiv ids by ``POST /paper/batch``
(up to 500 ids, ``null`` for unknown ones), titles by ``/paper/search/match``.

Without an API key the limit is about one request per second; the key is read
from the environment variable named by ``settings.semanticscholar_api_key_env``
and sent as ``x-api-key``.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from typing import Any

from citecheck_tex.config import Settings
from citecheck_tex.errors import SourceError
from citecheck_tex.model import Answer, Query, QueryKind, Record, SourceStatus
from citecheck_tex.sources.base import (
    as_dict,
    chunked,
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

BATCH = 500
FIELDS = "title,authors,year,venue,journal,externalIds,publicationDate,publicationVenue"
#: ``/paper/batch`` answers a list (``null`` for unknown ids); ``/paper/search/match``
#: an object with a ``data`` list, or a 404 ``{"error": "Title match not found"}``.
EXPECT_BATCH = expect_json(lambda b: isinstance(b, list), "a list of papers")
EXPECT_MATCH = expect_json(lambda b: has(b, "data", kind=list), "a data list",
                           not_found=frozenset({404}))
_TYPES = {"JournalArticle": "article", "Conference": "inproceedings", "Book": "book",
          "BookSection": "incollection", "Dataset": "dataset"}


class SemanticScholarSource:
    """The Semantic Scholar Graph API."""

    name = "semanticscholar"
    kinds = frozenset({QueryKind.DOI, QueryKind.ARXIV, QueryKind.TITLE})
    version = "1"

    def __init__(self, http: Http, settings: Settings) -> None:
        self._http = http
        self._base = settings.base_url("semanticscholar")
        key = settings.api_key(settings.semanticscholar_api_key_env)
        self._headers = {"x-api-key": key} if key else {}

    async def fetch(self, query: Query) -> Answer:
        """Answer one query."""
        return (await self.fetch_batch([query]))[0]

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """DOI and arXiv queries together in ``/paper/batch``; titles one by one."""
        out: list[Answer | None] = [None] * len(queries)
        idx = [i for i, q in enumerate(queries) if q.kind in (QueryKind.DOI, QueryKind.ARXIV)]
        if idx:
            for i, a in zip(idx, await self._fetch_ids([queries[i] for i in idx]), strict=True):
                out[i] = a
        for i, q in enumerate(queries):
            if q.kind is QueryKind.TITLE:
                out[i] = await self._fetch_title(q)
            elif out[i] is None:
                out[i] = Answer(self.name, q, SourceStatus.SKIPPED,
                                message=f"semanticscholar cannot answer {q.kind.value} queries")
        return [a for a in out if a is not None]

    async def _fetch_ids(self, queries: Sequence[Query]) -> list[Answer]:
        started = time.perf_counter()
        ids = [f"DOI:{clean_doi(q.value)}" if q.kind is QueryKind.DOI
               else f"ARXIV:{clean_arxiv(q.value)}" for q in queries]
        unique = list(dict.fromkeys(ids))
        results: dict[str, Record | None] = {}
        failure: SourceError | None = None
        requests = 0
        url = f"{self._base}/paper/batch"
        for chunk in chunked(unique, BATCH):
            try:
                requests += 1
                resp = await self._http.request(self.name, "POST", url, params={"fields": FIELDS},
                                                headers=self._headers, json={"ids": chunk},
                                                expect=EXPECT_BATCH)
                if resp.status_code != 200:
                    raise SourceError(f"semanticscholar: HTTP {resp.status_code} "
                                      f"{error_detail(resp)}".strip(), source=self.name, url=url,
                                      status=resp.status_code)
                body = json_body(resp, self.name)
                if not isinstance(body, list) or len(body) != len(chunk):
                    raise SourceError("semanticscholar: batch answer does not match the ids",
                                      source=self.name, url=url)
            except SourceError as exc:
                failure = exc
                continue
            for ident, paper in zip(chunk, body, strict=True):
                parsed = parse_each(parse_paper, [paper], self.name)
                results[ident] = parsed[0] if parsed else None
        out = []
        for n, (q, ident) in enumerate(zip(queries, ids, strict=True)):
            reqs = requests if n == 0 else 0
            if ident in results:
                rec = results[ident]
                if rec is None:
                    out.append(Answer(self.name, q, SourceStatus.NOT_FOUND,
                                      message=f"semanticscholar: unknown id {ident}",
                                      latency_ms=elapsed_ms(started), http_requests=reqs))
                else:
                    out.append(Answer(self.name, q, SourceStatus.FOUND, (rec,),
                                      latency_ms=elapsed_ms(started), http_requests=reqs))
            else:
                err = failure or SourceError("semanticscholar: no answer", source=self.name)
                out.append(failed_answer(self.name, q, err, started))
        return out

    async def _fetch_title(self, query: Query) -> Answer:
        started = time.perf_counter()
        if not query.value.strip():
            return Answer(self.name, query, SourceStatus.NOT_FOUND, message="empty title")
        url = f"{self._base}/paper/search/match"
        try:
            resp = await self._http.request(self.name, "GET", url,
                                            params={"query": query.value, "fields": FIELDS},
                                            headers=self._headers, expect=EXPECT_MATCH)
            if resp.status_code == 404:
                return Answer(self.name, query, SourceStatus.NOT_FOUND,
                              message=f"semanticscholar: {error_detail(resp) or 'no match'}",
                              latency_ms=elapsed_ms(started), http_requests=1)
            if resp.status_code != 200:
                raise SourceError(f"semanticscholar: HTTP {resp.status_code} {error_detail(resp)}"
                                  .strip(), source=self.name, url=url, status=resp.status_code)
            data = as_dict(json_body(resp, self.name)).get("data")
        except SourceError as exc:
            return failed_answer(self.name, query, exc, started)
        records = tuple(parse_each(parse_paper, data, self.name))
        status = SourceStatus.FOUND if records else SourceStatus.NOT_FOUND
        return Answer(self.name, query, status, records, latency_ms=elapsed_ms(started),
                      http_requests=1)


def parse_paper(paper: dict[str, Any]) -> Record:
    """A Record from a Semantic Scholar paper object."""
    ext = as_dict(paper.get("externalIds"))
    journal = as_dict(paper.get("journal"))
    pvenue = as_dict(paper.get("publicationVenue"))
    venue = clean_text(journal.get("name")) or clean_text(paper.get("venue")) \
        or clean_text(pvenue.get("name"))
    aliases = [clean_text(paper.get("venue")), clean_text(pvenue.get("name")),
               *(clean_text(a) for a in pvenue.get("alternate_names") or [])]
    arxiv = clean_arxiv(str(ext.get("ArXiv") or ""))
    volume = clean_text(journal.get("volume"))
    if volume.startswith("abs/"):  # arXiv copies: "abs/2505.12081"
        volume = ""
    year = year_of(paper.get("year"))
    date_year = year_of(str(paper.get("publicationDate") or ""))
    types = paper.get("publicationTypes") or []
    pid = str(paper.get("paperId") or "")
    return Record(
        source="semanticscholar",
        id=pid,
        url=str(paper.get("url") or (f"https://www.semanticscholar.org/paper/{pid}" if pid
                                      else "")),
        title=clean_text(paper.get("title")),
        authors=tuple(person_from_name(str(a.get("name") or ""))
                      for a in paper.get("authors") or [] if isinstance(a, dict)),
        year=year or date_year,
        other_years=(date_year,) if date_year and year and date_year != year else (),
        venue=venue,
        venue_aliases=tuple(dict.fromkeys(a for a in aliases if a and a != venue)),
        volume=volume,
        pages=clean_text(journal.get("pages")).replace("\u2013", "-").strip(" -"),
        doi=clean_doi(str(ext.get("DOI") or "")),
        arxiv=arxiv,
        entry_type=_TYPES.get(str(types[0]), "") if types else "",
        score=min(1.0, float(paper.get("matchScore") or 0.0) / 100.0) if "matchScore" in paper
        else 1.0,
    )


@register("semanticscholar")
def make_semanticscholar(http: Http, settings: Settings) -> SemanticScholarSource:
    """Factory registered as "semanticscholar"."""
    return SemanticScholarSource(http, settings)
