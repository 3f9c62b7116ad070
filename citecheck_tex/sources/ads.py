"""NASA ADS search API (astronomy), only when a token is configured.

Without the token (environment variable named by ``settings.ads_token_env``)
every answer is SKIPPED and no request is made. With it:
``/search/query?q=doi:"..."`` / ``arxiv:...`` / ``title:"..."`` with ``fl=``
to keep responses small, authenticated by ``Authorization: Bearer``.
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
    failed_answer,
    json_body,
    parse_each,
    person_from_name,
    register,
    year_of,
)
from citecheck_tex.sources.http import Http

logger = logging.getLogger(__name__)

FIELDS = "bibcode,title,author,year,pub,volume,page,doi,identifier,doctype"
ROWS = 5
_ARXIV_IDENT = re.compile(r"^arXiv:(.+)$", re.IGNORECASE)


class AdsSource:
    """The NASA ADS search API."""

    name = "ads"
    kinds = frozenset({QueryKind.DOI, QueryKind.ARXIV, QueryKind.TITLE})
    version = "1"

    def __init__(self, http: Http, settings: Settings) -> None:
        self._http = http
        self._url = settings.base_url("ads") + "/search/query"
        self._token = settings.api_key(settings.ads_token_env)
        self._token_env = settings.ads_token_env

    async def fetch(self, query: Query) -> Answer:
        """Answer one query (SKIPPED without a token)."""
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
                headers={"Authorization": f"Bearer {self._token}"})
            if resp.status_code != 200:
                raise SourceError(f"ads: HTTP {resp.status_code}", source=self.name,
                                  url=self._url, status=resp.status_code)
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


def parse_doc(doc: dict[str, Any]) -> Record:
    """A Record from an ADS search document."""
    def first(key: str) -> str:
        value = doc.get(key)
        if isinstance(value, list):
            return clean_text(value[0]) if value else ""
        return clean_text(value)

    arxiv = ""
    for ident in doc.get("identifier") or []:
        m = _ARXIV_IDENT.match(str(ident))
        if m:
            arxiv = clean_arxiv(m.group(1))
    bibcode = str(doc.get("bibcode") or "")
    return Record(
        source="ads",
        id=bibcode,
        url=f"https://ui.adsabs.harvard.edu/abs/{bibcode}" if bibcode else "",
        title=first("title"),
        authors=tuple(person_from_name(str(a)) for a in doc.get("author") or []),
        year=year_of(str(doc.get("year") or "")),
        venue=clean_text(doc.get("pub")),
        volume=clean_text(doc.get("volume")),
        pages=first("page"),
        doi=clean_doi(first("doi")),
        arxiv=arxiv,
        entry_type={"article": "article", "inproceedings": "inproceedings",
                    "eprint": "preprint"}.get(str(doc.get("doctype") or ""), ""),
        score=1.0,
    )


@register("ads")
def make_ads(http: Http, settings: Settings) -> AdsSource:
    """Factory registered as "ads"."""
    return AdsSource(http, settings)
