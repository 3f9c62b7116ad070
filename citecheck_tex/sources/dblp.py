"""DBLP publication search (computer science): titles only.

``/search/publ/api?q=...&format=json&h=5``. DBLP blocks aggressive clients,
so :class:`~citecheck_tex.sources.http.Http` serialises its requests with a
generous back-off. Quirks: ``authors.author`` is an object (not a list) for a
single author; homonyms carry a numeric suffix ("Jing Yuan 0001"); titles end
with a period; DOIs are upper-case; arXiv copies live under ``journals/corr``.
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

logger = logging.getLogger(__name__)

TITLE_ROWS = 5
_TYPES = {"Journal Articles": "article", "Conference and Workshop Papers": "inproceedings",
          "Informal and Other Publications": "preprint", "Books and Theses": "book",
          "Parts in Books or Collections": "incollection"}
#: An answer is ``{"result": {"hits": {"@total": n, "hit": [...]}}}`` (no ``hit``
#: when there are none).
EXPECT = expect_json(lambda b: has(b, "result", "hits"), "result.hits")
_CORR = re.compile(r"abs/(\d{4}\.\d{4,5})")


class DblpSource:
    """The DBLP search API."""

    name = "dblp"
    kinds = frozenset({QueryKind.TITLE})
    version = "1"

    def __init__(self, http: Http, settings: Settings) -> None:
        self._http = http
        self._url = settings.base_url("dblp") + "/search/publ/api"

    async def fetch(self, query: Query) -> Answer:
        """Answer one title query."""
        started = time.perf_counter()
        if query.kind is not QueryKind.TITLE:
            return Answer(self.name, query, SourceStatus.SKIPPED,
                          message=f"dblp cannot answer {query.kind.value} queries")
        text = " ".join(re.sub(r"[^\w\s-]", " ", query.value).split())
        if not text:
            return Answer(self.name, query, SourceStatus.NOT_FOUND, message="empty title")
        try:
            resp = await self._http.request(self.name, "GET", self._url, params={
                "q": text, "format": "json", "h": str(TITLE_ROWS)}, expect=EXPECT)
            if resp.status_code != 200:
                raise SourceError(f"dblp: HTTP {resp.status_code}", source=self.name,
                                  url=self._url, status=resp.status_code)
            result = as_dict(as_dict(json_body(resp, self.name)).get("result"))
            hits = as_dict(result.get("hits")).get("hit")
        except SourceError as exc:
            return failed_answer(self.name, query, exc, started)
        records = tuple(parse_each(parse_hit, hits, self.name))
        status = SourceStatus.FOUND if records else SourceStatus.NOT_FOUND
        return Answer(self.name, query, status, records, latency_ms=elapsed_ms(started),
                      http_requests=1)

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """One request per title (DBLP has no batch search)."""
        return [await self.fetch(q) for q in queries]


def parse_hit(hit: dict[str, Any]) -> Record:
    """A Record from a DBLP search hit."""
    info = as_dict(hit.get("info"))
    authors = as_dict(info.get("authors")).get("author") or []
    if isinstance(authors, dict):
        authors = [authors]
    venue = info.get("venue") or ""
    venues = [clean_text(v) for v in venue] if isinstance(venue, list) else [clean_text(venue)]
    volume = clean_text(info.get("volume"))
    arxiv = ""
    m = _CORR.search(volume)
    if m and info.get("key", "").startswith("journals/corr"):
        arxiv, volume = clean_arxiv(m.group(1)), ""
    try:
        score = min(1.0, float(hit.get("@score") or 0) / 20.0)
    except ValueError:
        score = 0.0
    return Record(
        source="dblp",
        id=str(info.get("key") or hit.get("@id") or ""),
        url=str(info.get("url") or ""),
        title=clean_text(info.get("title")).removesuffix("."),
        authors=tuple(person_from_name(str(a.get("text") or "") if isinstance(a, dict) else str(a))
                      for a in authors),
        year=year_of(str(info.get("year") or "")),
        venue=venues[0] if venues else "",
        venue_aliases=tuple(v for v in venues[1:] if v),
        volume=volume,
        pages=clean_text(info.get("pages")).replace("\u2013", "-"),
        doi=clean_doi(str(info.get("doi") or "")),
        arxiv=arxiv,
        entry_type=_TYPES.get(str(info.get("type") or ""), ""),
        score=score,
    )


@register("dblp")
def make_dblp(http: Http, settings: Settings) -> DblpSource:
    """Factory registered as "dblp"."""
    return DblpSource(http, settings)
