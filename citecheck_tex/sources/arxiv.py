"""arXiv export API (Atom): ids in ``id_list`` batches, titles by ``ti:`` search.

arXiv allows one request every 3 s for the whole process (see
:mod:`citecheck_tex.sources.http`), so ids are asked 100 at a time. Quirks:

- a malformed id makes the whole request fail with HTTP 400 and an error
  ``<entry>`` whose id ends ``#incorrect_id_format_for_<id>``: that id is
  NOT_FOUND and the rest of the batch is asked again without it;
- a well-formed id that does not exist is simply absent from the feed;
- a throttled client gets "Rate exceeded." with HTTP 200: RATE_LIMITED, not
  "no results".
"""

from __future__ import annotations

import logging
import re
import time
import xml.etree.ElementTree as ET
from collections.abc import Sequence

from citecheck_tex.config import Settings
from citecheck_tex.errors import SourceError
from citecheck_tex.model import Answer, Query, QueryKind, Record, SourceStatus
from citecheck_tex.names import authors_from_names
from citecheck_tex.sources.base import (
    chunked,
    clean_arxiv,
    clean_doi,
    clean_text,
    elapsed_ms,
    expect_atom,
    failed_answer,
    register,
    year_of,
)
from citecheck_tex.sources.http import Http
from citecheck_tex.sources.importers import parse_journal_ref
from citecheck_tex.vocab.latex_text import decode_value

logger = logging.getLogger(__name__)

_NS = {
    "a": "http://www.w3.org/2005/Atom",
    "arxiv": "http://arxiv.org/schemas/atom",
    "os": "http://a9.com/-/spec/opensearch/1.1/",
}
_ERROR_ID = re.compile(r"errors#incorrect_id_format_for_(.+)$")
_ABS_ID = re.compile(r"arxiv\.org/abs/(.+)$")
BATCH = 100
TITLE_ROWS = 5
#: An answer is an Atom feed; "Rate exceeded." with HTTP 200 is throttling.
EXPECT = expect_atom(throttle_text=b"Rate exceeded")


class ArxivSource:
    """The arXiv export API."""

    name = "arxiv"
    kinds = frozenset({QueryKind.ARXIV, QueryKind.TITLE})
    # 2: journal_ref parsed by importers.parse_journal_ref (with pages)
    # 3: title LaTeX decoded, collaborations apart from the authors (citecheck_tex.names)
    version = "3"

    def __init__(self, http: Http, settings: Settings) -> None:
        self._http = http
        self._url = settings.base_url("arxiv") + "/query"

    async def fetch(self, query: Query) -> Answer:
        """Answer one query."""
        return (await self.fetch_batch([query]))[0]

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """Answer queries in order; arXiv ids go 100 per request."""
        out: list[Answer | None] = [None] * len(queries)
        id_idx = [i for i, q in enumerate(queries) if q.kind is QueryKind.ARXIV]
        if id_idx:
            answers = await self._fetch_ids([queries[i] for i in id_idx])
            for i, a in zip(id_idx, answers, strict=True):
                out[i] = a
        for i, q in enumerate(queries):
            if q.kind is QueryKind.TITLE:
                out[i] = await self._fetch_title(q)
            elif q.kind is not QueryKind.ARXIV:
                out[i] = Answer(self.name, q, SourceStatus.SKIPPED,
                                message=f"arxiv cannot answer {q.kind.value} queries")
        return [a for a in out if a is not None]

    async def _get(self, params: dict[str, str]) -> tuple[int, str]:
        """GET the query endpoint: an Atom feed (200, or 400 naming malformed ids).

        The shared HTTP layer turns "Rate exceeded." (HTTP 200) into a rate limit
        and any other body that is not a feed into a fault (:data:`EXPECT`).
        """
        resp = await self._http.request(self.name, "GET", self._url, params=params,
                                        expect=EXPECT)
        if resp.status_code not in (200, 400):
            raise SourceError(f"arxiv: HTTP {resp.status_code}", source=self.name,
                              url=str(resp.url), status=resp.status_code)
        try:
            text = resp.text
        except (UnicodeError, LookupError):  # a charset the body is not in: read as UTF-8
            text = resp.content.decode("utf-8", errors="replace")
        return resp.status_code, text

    async def _fetch_ids(self, queries: Sequence[Query]) -> list[Answer]:
        started = time.perf_counter()
        wanted = [clean_arxiv(q.value) for q in queries]
        unique = list(dict.fromkeys(w for w in wanted if w))
        found: dict[str, Record] = {}
        bad: dict[str, str] = {}
        failed: Exception | None = None
        requests = 0
        for chunk in chunked(unique, BATCH):
            todo = list(chunk)
            while todo:
                try:
                    requests += 1
                    status, text = await self._get({
                        "search_query": "", "id_list": ",".join(todo),
                        "sortBy": "relevance", "sortOrder": "descending",
                        "start": "0", "max_results": str(BATCH),
                    })
                    records, errors = parse_feed(text)
                except (SourceError, ET.ParseError) as exc:
                    failed = exc if isinstance(exc, SourceError) else SourceError(
                        f"arxiv: unreadable feed ({exc})", source=self.name)
                    break
                if status == 400 or errors:
                    named = [e for e in errors if e in todo]
                    if not named:  # an error we cannot pin on one id: give up on the batch
                        failed = SourceError("arxiv: HTTP 400 for the batch", source=self.name,
                                             status=400)
                        break
                    for e in named:
                        bad[e] = f"arxiv: incorrect id format for {e}"
                    todo = [t for t in todo if t not in named]
                    continue
                for rec in records:
                    found[rec.arxiv.lower()] = rec
                break
        out = []
        for n, (q, w) in enumerate(zip(queries, wanted, strict=True)):
            reqs = requests if n == 0 else 0
            latency = elapsed_ms(started)
            if w.lower() in found:
                out.append(Answer(self.name, q, SourceStatus.FOUND, (found[w.lower()],),
                                  latency_ms=latency, http_requests=reqs))
            elif w in bad or not w:
                out.append(Answer(self.name, q, SourceStatus.NOT_FOUND,
                                  message=bad.get(w, "empty arXiv id"), latency_ms=latency,
                                  http_requests=reqs))
            elif failed is not None:
                ans = failed_answer(self.name, q, failed, started)
                out.append(Answer(ans.source, q, ans.status, message=ans.message,
                                  latency_ms=latency, http_requests=reqs))
            else:
                out.append(Answer(self.name, q, SourceStatus.NOT_FOUND,
                                  message=f"arxiv: no paper {w}", latency_ms=latency,
                                  http_requests=reqs))
        return out

    async def _fetch_title(self, query: Query) -> Answer:
        started = time.perf_counter()
        words = re.sub(r"[^\w\s]", " ", query.value).split()
        if not words:
            return Answer(self.name, query, SourceStatus.NOT_FOUND, message="empty title")
        search = "ti:\"" + " ".join(words) + "\""
        if query.authors:
            search += " AND au:" + re.sub(r"[^\w]", "_", query.authors[0])
        try:
            _, text = await self._get({"search_query": search, "start": "0",
                                       "max_results": str(TITLE_ROWS)})
            records, _ = parse_feed(text)
        except SourceError as exc:
            return failed_answer(self.name, query, exc, started)
        except ET.ParseError as exc:
            return Answer(self.name, query, SourceStatus.ERROR,
                          message=f"arxiv: unreadable feed ({exc})", latency_ms=elapsed_ms(started))
        status = SourceStatus.FOUND if records else SourceStatus.NOT_FOUND
        return Answer(self.name, query, status, tuple(records), latency_ms=elapsed_ms(started),
                      http_requests=1)


def parse_feed(text: str) -> tuple[list[Record], list[str]]:
    """Records of an Atom feed, and the ids its error entries name."""
    root = ET.fromstring(text)
    records: list[Record] = []
    errors: list[str] = []
    for entry in root.findall("a:entry", _NS):
        ident = entry.findtext("a:id", "", _NS).strip()
        m = _ERROR_ID.search(ident)
        if m:
            errors.append(m.group(1))
            continue
        if "/api/errors" in ident:  # an error of the API itself, with HTTP 200: no answer
            what = clean_text(entry.findtext("a:summary", "", _NS)
                              or entry.findtext("a:title", "", _NS))
            raise SourceError(f"arxiv: the API answered with an error ({what or ident})",
                              source="arxiv")
        m = _ABS_ID.search(ident)
        if not m:
            continue
        records.append(_record(entry, clean_arxiv(m.group(1))))
    total = (root.findtext("os:totalResults", "", _NS) or "").strip()
    if total.isdigit() and int(total) > 0 and not records and not errors:
        # arXiv says 0 for an id it does not have; a count with nothing listed is an
        # answer cut short (a proxy), not "no such paper"
        raise SourceError(f"arxiv: the feed counts {total} results and lists none",
                          source="arxiv")
    return records, errors


def _record(entry: ET.Element, arxiv_id: str) -> Record:
    # arXiv titles are TeX ("Order $\\hbar$ Corrections"): decoded as the arXiv dump
    # importers and the citation's reader decode them; a bare % is a percent sign
    title = decode_value(clean_text(entry.findtext("a:title", "", _NS)))
    authors = authors_from_names(a.findtext("a:name", "", _NS)
                                 for a in entry.findall("a:author", _NS))
    published = entry.findtext("a:published", "", _NS)
    year = year_of(published)
    doi = clean_doi(entry.findtext("arxiv:doi", "", _NS))
    jref = clean_text(entry.findtext("arxiv:journal_ref", "", _NS))
    other_years: tuple[str, ...] = ()
    extra: tuple[tuple[str, str, str, str], ...] = ()
    entry_type = "preprint"
    if jref:
        journal, volume, page, jyear = parse_journal_ref(jref)
        if jyear and jyear != year:
            other_years = (jyear,)
        if journal and volume:
            extra = ((journal, volume, page, jyear),)
        entry_type = "article"
    return Record(
        source="arxiv",
        id=arxiv_id,
        url=f"https://arxiv.org/abs/{arxiv_id}",
        title=title,
        authors=authors.persons,
        authors_truncated=authors.truncated,
        collaborations=authors.collaborations,
        year=year,
        other_years=other_years,
        venue="arXiv",
        doi=doi,
        arxiv=arxiv_id,
        entry_type=entry_type,
        extra_pubs=extra,
        score=1.0,
    )


@register("arxiv")
def make_arxiv(http: Http, settings: Settings) -> ArxivSource:
    """Factory registered as "arxiv"."""
    return ArxivSource(http, settings)
