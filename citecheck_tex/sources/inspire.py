"""INSPIRE-HEP literature API: arXiv ids, DOIs, texkeys, journal references,
first author + year, titles.

Most physics citations carry no title, only (journal, volume, page): INSPIRE
indexes exactly that (``j "Phys.Rev.Lett.,95,251302"``). Identifier queries of
one kind are OR-ed into one search (``arxiv:a or arxiv:b``) to save requests
under the 15 requests / 5 s limit; ``fields=`` keeps responses small.

The search syntax we send, and where it is confirmed (read, not copied):

* ``j TITLE,VOLUME,PAGE``: the value is split on commas into journal title,
  volume and a third part matched against *both* ``page_start`` and ``artid``;
  a quoted value (``j "Phys.Lett.B,351,123"``) gives the same query as the bare
  one (inspirehep/inspire-query-parser ``tests/test_elastic_search_visitor.py``:
  ``..._journal_title_and_vol_and_artid_or_start_page...``,
  ``..._exact_journal_query_is_the_same_as_simple_value``). We quote it, so a
  title with ``and`` in it ("Astron. and Astrophys.") cannot be read as a
  boolean operator, and we drop commas from the title (they would shift the
  parts). Titles are sent in INSPIRE's compact form, no space after a dot
  (``Phys.Rev.D``, as in the parser tests and ``publication_info.journal_title``).
* Series letters: the old form ``j Phys.Rev.,D50,1140`` is converted by INSPIRE
  to title ``Phys.Rev.D``, volume ``50`` (inspirehep/inspire-schemas
  ``inspire_schemas/utils.py`` ``convert_old_publication_info_to_new``, also the
  ``..._old_style_vol_simple_value`` parser test and the example
  ``find j phys.rev.,D50,1140`` of inspirehep's UI), so a letter in the volume is
  sent as written, except when the title already ends with it
  (``Phys. Rev. D`` + ``D50`` -> ``Phys.Rev.D,50``: INSPIRE would append it again).
* ``or`` between keyword queries, ``and`` to combine them, ``fa`` (first author),
  ``date YEAR`` (earliest date, imprint, preprint date, publication year): the
  parser tests (``tests/test_parser_functionality.py``: ``f a appelquist and date
  1983``, ``au ellis | title 'boson'``, ``Find fa "ellis"``) and the search help
  (inspirehep.net/help/knowledge-base/inspire-paper-search).
* ``size`` (at most 1000 per page) and ``fields`` (comma-separated metadata
  paths): inspirehep/rest-api-doc ``README.md``. httpx form-encodes the query
  (space as ``+``, comma as ``%2C``), which INSPIRE's Flask backend decodes.
"""

from __future__ import annotations

import asyncio
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
from citecheck_tex.sources.importers import (
    first_page,
    inspire_venue,
    pub_key,
    report_numbers_of,
)
from citecheck_tex.vocab.ids import normalize_report_number
from citecheck_tex.vocab.latex_text import decode_value

logger = logging.getLogger(__name__)

BATCH = 20
JREF_BATCH = 10
#: Titles OR-ed per search (``t "a" or t "b"``): keeps the URL near 2 kB.
TITLE_BATCH = 10
#: Share of a batched title's words a hit's title must hold to be its answer.
TITLE_OVERLAP = 0.6
_COALESCED = frozenset({QueryKind.ARXIV, QueryKind.DOI, QueryKind.TEXKEY, QueryKind.REPORT,
                        QueryKind.JOURNAL_REF, QueryKind.TITLE})
TITLE_ROWS = 5
#: Candidates of an author+year search: with the journal, and without it (fallback).
AUTHOR_YEAR_ROWS = 10
AUTHOR_YEAR_ROWS_ANY_JOURNAL = 25
FIELDS = ("titles,authors.full_name,author_count,collaborations,arxiv_eprints,dois,"
          "publication_info,texkeys,control_number,document_type,earliest_date,preprint_date,"
          "imprints,report_numbers")

#: An answer is a search result, ``{"hits": {"hits": [...], "total": n}}``.
EXPECT = expect_json(lambda b: has(b, "hits", "hits", kind=list), "hits.hits")

_DOC_TYPES = {"article": "article", "conference paper": "inproceedings", "book": "book",
              "book chapter": "incollection", "thesis": "phdthesis", "proceedings": "proceedings",
              "report": "techreport", "note": "misc"}


def _escape(value: str) -> str:
    return value.replace('"', " ").strip()


class InspireSource:
    """The INSPIRE-HEP literature API."""

    name = "inspire"
    kinds = frozenset({QueryKind.ARXIV, QueryKind.DOI, QueryKind.TEXKEY, QueryKind.REPORT,
                       QueryKind.JOURNAL_REF, QueryKind.AUTHOR_YEAR, QueryKind.TITLE})
    # 2: quoted, compact journal terms; author+year searches; 3: report numbers;
    # 4: titles LaTeX decoded, names by citecheck_tex.names; 5: titles OR-ed in batches
    version = "5"
    #: Kinds whose :meth:`fetch_batch` OR-s many queries into one search: the pipeline
    #: hands them over in one call (through the cache too) instead of one by one.
    batch_kinds = _COALESCED

    def __init__(self, http: Http, settings: Settings) -> None:
        self._http = http
        self._url = settings.base_url("inspire") + "/literature"
        self._pending: dict[QueryKind, list[tuple[Query, asyncio.Future[Answer]]]] = {}
        self._flushers: set[asyncio.Task[None]] = set()

    async def _search(self, q: str, size: int) -> list[dict[str, Any]]:
        return (await self._search_total(q, size))[0]

    async def _search_total(self, q: str, size: int) -> tuple[list[dict[str, Any]], int]:
        """The hits of one search and the total number of hits INSPIRE reports."""
        resp = await self._http.request(
            self.name, "GET", self._url, params={"q": q, "size": str(size), "fields": FIELDS},
            expect=EXPECT,
        )
        if resp.status_code != 200:
            raise SourceError(f"inspire: HTTP {resp.status_code}", source=self.name,
                              url=str(resp.url), status=resp.status_code)
        found = as_dict(as_dict(json_body(resp, self.name)).get("hits"))
        hits = [h for h in as_list(found.get("hits"))
                if isinstance(h, dict) and isinstance(h.get("metadata"), dict)]
        total = found.get("total")
        if isinstance(total, dict):  # Elasticsearch 7 style {"value": n}
            total = total.get("value")
        if isinstance(total, int) and total > 0 and not hits and size > 0:
            # a count with nothing listed is an answer cut short or broken, not "none"
            raise SourceError(f"inspire: the answer counts {total} hits and lists none",
                              source=self.name, url=str(resp.url))
        return hits, total if isinstance(total, int) else len(hits)

    async def fetch(self, query: Query) -> Answer:
        """Answer one query.

        Identifier and journal-reference queries asked concurrently (the
        pipeline gathers one ``fetch`` per entry) are coalesced into OR-ed
        batch searches: 15 requests per 5 s go a long way that way.
        """
        if query.kind not in _COALESCED:
            return (await self.fetch_batch([query]))[0]
        loop = asyncio.get_running_loop()
        fut: asyncio.Future[Answer] = loop.create_future()
        pending = self._pending.setdefault(query.kind, [])
        pending.append((query, fut))
        if len(pending) == 1:
            task = loop.create_task(self._flush(query.kind))
            self._flushers.add(task)
            task.add_done_callback(self._flushers.discard)
        return await fut

    async def _flush(self, kind: QueryKind) -> None:
        for _ in range(3):  # let every fetch gathered with this one register first
            await asyncio.sleep(0)
        items = self._pending.pop(kind, [])
        queries = [q for q, _ in items]
        try:
            answers = await self.fetch_batch(queries)
        except Exception as exc:  # never leave a caller waiting
            logger.exception("inspire: batch of %d %s queries failed", len(queries), kind.value)
            answers = [Answer(self.name, q, SourceStatus.ERROR, message=f"inspire: {exc}")
                       for q in queries]
        for (_, fut), ans in zip(items, answers, strict=True):
            if not fut.done():
                fut.set_result(ans)

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """Identifier and journal-reference queries OR-ed in batches per kind;
        titles one by one."""
        out: list[Answer | None] = [None] * len(queries)
        for kind in (QueryKind.ARXIV, QueryKind.DOI, QueryKind.TEXKEY, QueryKind.REPORT):
            idx = [i for i, q in enumerate(queries) if q.kind is kind]
            if idx:
                answers = await self._fetch_ids(kind, [queries[i] for i in idx])
                for i, a in zip(idx, answers, strict=True):
                    out[i] = a
        idx = [i for i, q in enumerate(queries) if q.kind is QueryKind.JOURNAL_REF]
        if len(idx) > 1:
            answers = await self._fetch_journal_refs([queries[i] for i in idx])
            for i, a in zip(idx, answers, strict=True):
                out[i] = a
        idx = [i for i, q in enumerate(queries) if q.kind is QueryKind.TITLE]
        if len(idx) > 1:
            answers = await self._fetch_titles([queries[i] for i in idx])
            for i, a in zip(idx, answers, strict=True):
                out[i] = a
        for i, q in enumerate(queries):
            if out[i] is None:
                out[i] = await self._fetch_search(q)
        return [a for a in out if a is not None]

    async def _fetch_ids(self, kind: QueryKind, queries: Sequence[Query]) -> list[Answer]:
        started = time.perf_counter()
        if kind is QueryKind.ARXIV:
            norm = [clean_arxiv(q.value).lower() for q in queries]
            field = "arxiv"
        elif kind is QueryKind.DOI:
            norm = [clean_doi(q.value) for q in queries]
            field = "doi"
        elif kind is QueryKind.REPORT:
            norm = [normalize_report_number(q.value) for q in queries]
            field = "reportnumber"
        else:
            norm = [q.value.strip() for q in queries]
            field = "texkeys"
        unique = list(dict.fromkeys(n for n in norm if n))
        found: dict[str, Record] = {}
        failure: SourceError | None = None
        requests = 0
        for chunk in chunked(unique, BATCH):
            search = " or ".join(f'{field}:"{_escape(v)}"' if field in ("doi", "reportnumber")
                                 else f"{field}:{v}" for v in chunk)
            try:
                requests += 1
                hits = await self._search(search, len(chunk) * 2)
            except SourceError as exc:
                failure = exc
                continue
            for hit in hits:
                parsed = parse_each(parse_hit, [hit], self.name)
                if not parsed:
                    continue
                rec = parsed[0]
                keys: tuple[str, ...]
                if kind is QueryKind.ARXIV:
                    keys = (rec.arxiv.lower(),)
                elif kind is QueryKind.DOI:
                    keys = tuple(clean_doi(d.get("value", "")) for d in
                                 (hit.get("metadata") or {}).get("dois") or [])
                elif kind is QueryKind.REPORT:
                    keys = rec.report_numbers
                else:
                    keys = rec.texkeys
                for k in keys:
                    found.setdefault(k, rec)
        out = []
        for n, (q, v) in enumerate(zip(queries, norm, strict=True)):
            reqs = requests if n == 0 else 0
            if v in found:
                out.append(Answer(self.name, q, SourceStatus.FOUND, (found[v],),
                                  latency_ms=elapsed_ms(started), http_requests=reqs))
            elif failure is not None:
                out.append(failed_answer(self.name, q, failure, started))
            else:
                out.append(Answer(self.name, q, SourceStatus.NOT_FOUND,
                                  message=f"inspire: no record with {field} {v}",
                                  latency_ms=elapsed_ms(started), http_requests=reqs))
        return out

    async def _fetch_journal_refs(self, queries: Sequence[Query]) -> list[Answer]:
        """``j A,1,2 or j B,3,4`` searches; a query no hit of its batch matches is
        asked alone (so an unusual journal spelling never becomes NOT_FOUND by
        batching), unless the batch answer was complete (every hit INSPIRE counted was
        returned) and every hit matched some query of the batch: then nothing else sits
        at that journal reference, and it is NOT_FOUND without a second request."""
        started = time.perf_counter()
        out: list[Answer | None] = [None] * len(queries)
        terms = [journal_term(q) for q in queries]
        todo = [i for i, t in enumerate(terms) if t]
        requests = 0
        for chunk in chunked([str(i) for i in todo], JREF_BATCH):
            idx = [int(i) for i in chunk]
            try:
                requests += 1
                hits, total = await self._search_total(
                    " or ".join(terms[i] for i in idx), len(idx) * 3)
            except SourceError as exc:
                for i in idx:
                    out[i] = failed_answer(self.name, queries[i], exc, started)
                continue
            records = [(r, h) for h in hits for r in parse_each(parse_hit, [h], self.name)]
            complete = total <= len(hits) and all(
                any(_cites(h, queries[i]) for i in idx) for h in hits)
            for i in idx:
                match = [r for r, h in records if _cites(h, queries[i])]
                out[i] = self._batched_answer(
                    queries[i], tuple(match[:1]), complete, f"nothing at {terms[i]}",
                    requests if i == idx[0] else 0, started)
        return await self._ask_rest_alone(queries, out)

    def _batched_answer(self, query: Query, records: tuple[Record, ...], complete: bool,
                        missing: str, requests: int, started: float) -> Answer | None:
        """One query's answer from a batched search: FOUND with its records, NOT_FOUND
        when the batch answer was complete, else None (the query is asked alone)."""
        if records:
            return Answer(self.name, query, SourceStatus.FOUND, records,
                          latency_ms=elapsed_ms(started), http_requests=requests)
        if complete:
            return Answer(self.name, query, SourceStatus.NOT_FOUND,
                          message=f"inspire: {missing}",
                          latency_ms=elapsed_ms(started), http_requests=requests)
        return None

    async def _ask_rest_alone(self, queries: Sequence[Query],
                              out: list[Answer | None]) -> list[Answer]:
        """Ask every query its batch did not settle on its own search."""
        for i, q in enumerate(queries):
            if out[i] is None:
                out[i] = await self._fetch_search(q)
        return [a for a in out if a is not None]

    async def _fetch_titles(self, queries: Sequence[Query]) -> list[Answer]:
        """``t "A" or t "B"`` searches, :data:`TITLE_BATCH` titles per request. Each hit
        goes to the batched title whose words it holds best (at least
        :data:`TITLE_OVERLAP` of them); a title no hit matches is NOT_FOUND when the
        search returned every hit, and asked alone when the answer was cut at ``size``."""
        started = time.perf_counter()
        out: list[Answer | None] = [None] * len(queries)
        terms = [title_term(q.value) for q in queries]
        words = [_title_words(q.value) for q in queries]
        todo = [i for i, t in enumerate(terms) if t]
        requests = 0
        for chunk in chunked([str(i) for i in todo], TITLE_BATCH):
            idx = [int(i) for i in chunk]
            size = TITLE_ROWS * len(idx)
            try:
                requests += 1
                hits, total = await self._search_total(" or ".join(terms[i] for i in idx), size)
            except SourceError as exc:
                for i in idx:
                    out[i] = failed_answer(self.name, queries[i], exc, started)
                continue
            mine: dict[int, list[tuple[float, Record]]] = {i: [] for i in idx}
            for rec in (r for h in hits for r in parse_each(parse_hit, [h], self.name)):
                have = _title_words(rec.title)
                best = max(idx, key=lambda i: _overlap(words[i], have))
                share = _overlap(words[best], have)
                if share >= TITLE_OVERLAP:
                    mine[best].append((share, rec))
            complete = total <= len(hits)
            for i in idx:
                recs = tuple(r for _, r in sorted(mine[i], key=lambda x: -x[0])[:TITLE_ROWS])
                out[i] = self._batched_answer(
                    queries[i], recs, complete, f"no record with title {queries[i].value!r}",
                    requests if i == idx[0] else 0, started)
        return await self._ask_rest_alone(queries, out)

    async def _fetch_author_year(self, query: Query) -> Answer:
        """``fa NAME and date YEAR and j "TITLE"``; without the journal when that finds
        nothing (the journal may be what the citation got wrong)."""
        started = time.perf_counter()
        terms = [(author_year_term(query), AUTHOR_YEAR_ROWS)]
        if query.journal:
            terms.append((author_year_term(query, journal=False), AUTHOR_YEAR_ROWS_ANY_JOURNAL))
        if not terms[0][0]:
            return Answer(self.name, query, SourceStatus.NOT_FOUND,
                          message="inspire: author+year query without a family name or year")
        records: tuple[Record, ...] = ()
        requests = 0
        for q, size in terms:
            try:
                requests += 1
                hits = await self._search(q, size)
            except SourceError as exc:
                return failed_answer(self.name, query, exc, started)
            records = tuple(parse_each(parse_hit, hits, self.name))
            if records:
                break
        status = SourceStatus.FOUND if records else SourceStatus.NOT_FOUND
        return Answer(self.name, query, status, records, latency_ms=elapsed_ms(started),
                      http_requests=requests,
                      message="" if records else f"inspire: nothing for {terms[-1][0]}")

    async def _fetch_search(self, query: Query) -> Answer:
        started = time.perf_counter()
        if query.kind is QueryKind.AUTHOR_YEAR:
            return await self._fetch_author_year(query)
        if query.kind is QueryKind.JOURNAL_REF:
            q = journal_term(query)
            if not q:
                return Answer(self.name, query, SourceStatus.NOT_FOUND,
                              message="inspire: journal reference without journal or volume")
        elif query.kind is QueryKind.TITLE:
            q = title_term(query.value)
            if not q:
                return Answer(self.name, query, SourceStatus.NOT_FOUND, message="empty title")
        else:
            return Answer(self.name, query, SourceStatus.SKIPPED,
                          message=f"inspire cannot answer {query.kind.value} queries")
        try:
            hits = await self._search(q, TITLE_ROWS)
        except SourceError as exc:
            return failed_answer(self.name, query, exc, started)
        records = tuple(parse_each(parse_hit, hits, self.name))
        status = SourceStatus.FOUND if records else SourceStatus.NOT_FOUND
        return Answer(self.name, query, status, records, latency_ms=elapsed_ms(started),
                      http_requests=1)


def title_term(title: str) -> str:
    """``t "TITLE"`` for a title search, TeX markup and double quotes removed ("" when
    nothing is left)."""
    text = " ".join(_escape(re.sub(r"[{}$\\]", " ", title)).split())
    return f't "{text}"' if text else ""


_WORD = re.compile(r"[^\W_]+")


def _title_words(title: str) -> frozenset[str]:
    return frozenset(w for w in _WORD.findall(title.lower()) if len(w) > 1)


def _overlap(want: frozenset[str], have: frozenset[str]) -> float:
    """Share of the words of ``want`` that ``have`` holds."""
    return len(want & have) / len(want) if want else 0.0


def inspire_journal(name: str) -> str:
    """A journal title as sent in a ``j`` search: compact (``Phys. Rev. D`` ->
    ``Phys.Rev.D``), without commas or double quotes ("" when nothing is left)."""
    text = " ".join(name.replace('"', " ").replace(",", " ").split())
    return re.sub(r"\.\s+", ".", text)


_LETTER_VOLUME = re.compile(r"([A-Za-z])(\d+)|(\d+)([A-Za-z])")


def journal_term(query: Query) -> str:
    """``j "Phys.Rev.Lett.,95,251302"`` for a JOURNAL_REF query ("" without title or
    volume). See the module docstring for the syntax and where it is confirmed."""
    journal, volume = inspire_journal(query.journal), query.volume.strip().replace('"', "")
    page = query.page.strip().replace('"', "").replace(",", "")
    volume = volume.replace(",", "")
    if not journal or not volume:
        return ""
    m = _LETTER_VOLUME.fullmatch(volume)
    if m:
        letter, number = m.group(1) or m.group(4), m.group(2) or m.group(3)
        if re.search(rf"[.\s]{letter}$", journal, re.IGNORECASE):
            volume = number  # "Phys.Rev.D" + "D50": INSPIRE would add the letter again
    return 'j "' + ",".join(p for p in (journal, volume, page) if p) + '"'


_NAME_CHARS = re.compile(r"[^\w\s.'\-]")
_COLLABORATION = re.compile(r"\b(collaborations?|collab\.?)(?!\w)", re.IGNORECASE)


def author_year_term(query: Query, *, journal: bool = True) -> str:
    """``fa Maldacena and date 1998 and j "Adv.Theor.Math.Phys."`` for an AUTHOR_YEAR
    query ("" without a family name or a year).

    The first cited family name goes to ``fa`` (first author: citations name the
    first author), bare when it is one plain word and double-quoted otherwise
    (``fa "van der Waals"``: a phrase, so no word is read as a keyword). A
    collaboration goes to ``cn`` (``cn ATLAS``). ``journal=False`` leaves the
    journal out.
    """
    name = " ".join(_NAME_CHARS.sub(" ", query.authors[0]).split()) if query.authors else ""
    year = query.year.strip()
    if not name or not (len(year) == 4 and year.isdigit()):
        return ""
    if _COLLABORATION.search(name):
        name = " ".join(_COLLABORATION.sub(" ", name).split())
        if not name:
            return ""
        who = f"cn {name}" if re.fullmatch(r"[\w\-]+", name) else f'cn "{name}"'
    else:
        who = f"fa {name}" if re.fullmatch(r"\w[\w\-]*", name) else f'fa "{name}"'
    parts = [who, f"date {year}"]
    title = inspire_journal(query.journal) if journal else ""
    if title:
        parts.append(f'j "{title}"')
    return " and ".join(parts)


def _cites(hit: dict[str, Any], query: Query) -> bool:
    """Does one of the hit's publications have the query's journal, volume and page?

    Journals are compared by their canonical key (every spelling of one journal,
    series letters moved from the volume: :func:`split_volume_letter`)."""
    want_journal, want_volume, want_page = pub_key(query.journal, query.volume, query.page)
    for pub in (hit.get("metadata") or {}).get("publication_info") or []:
        if not isinstance(pub, dict) or not pub.get("journal_title"):
            continue
        journal, volume, _ = pub_key(str(pub.get("journal_title") or ""),
                                     str(pub.get("journal_volume") or ""), "")
        pages = {first_page(str(pub.get(k) or "")) for k in ("page_start", "artid")} - {""}
        if (journal == want_journal and volume == want_volume
                and (not want_page or want_page in pages)):
            return True
    return False


def parse_hit(hit: dict[str, Any]) -> Record:
    """A Record from an INSPIRE literature hit (``{id, metadata, ...}``)."""
    md = hit.get("metadata") or {}
    # INSPIRE titles carry TeX math ("$B_s^0$"): decoded as the dump importer does
    titles = [decode_value(clean_text(t.get("title"))) for t in md.get("titles") or []
              if isinstance(t, dict)]
    authors = tuple(person_from_name(str(a.get("full_name") or ""))
                    for a in md.get("authors") or [] if isinstance(a, dict))
    count = md.get("author_count")
    truncated = isinstance(count, int) and count > len(authors)
    eprints = [clean_arxiv(str(e.get("value") or "")) for e in md.get("arxiv_eprints") or []
               if isinstance(e, dict)]
    dois = [clean_doi(str(d.get("value") or "")) for d in md.get("dois") or []
            if isinstance(d, dict)]
    pubs = [p for p in md.get("publication_info") or []
            if isinstance(p, dict) and p.get("journal_title")]
    main = pubs[0] if pubs else {}
    page = str(main.get("page_start") or main.get("artid") or "")
    end = str(main.get("page_end") or "")
    pages = f"{page}-{end}" if page and end and end != page else page
    earliest = year_of(str(md.get("preprint_date") or md.get("earliest_date") or ""))
    year = year_of(main.get("year")) if main else ""
    if not year:
        year = earliest or year_of(str((md.get("imprints") or [{}])[0].get("date") or ""))
    others = tuple(dict.fromkeys(y for y in [earliest, *(year_of(p.get("year")) for p in pubs)]
                                 if y and y != year))
    extra = tuple(
        (clean_text(inspire_venue(p.get("journal_title"))), str(p.get("journal_volume") or ""),
         str(p.get("page_start") or p.get("artid") or ""), year_of(p.get("year")))
        for p in pubs[1:]
    )
    doc = [str(d) for d in md.get("document_type") or []]
    recid = str(md.get("control_number") or hit.get("id") or "")
    return Record(
        source="inspire",
        id=recid,
        url=f"https://inspirehep.net/literature/{recid}" if recid else "",
        title=titles[0] if titles else "",
        authors=authors,
        authors_truncated=truncated,
        collaborations=tuple(clean_text(c.get("value")) for c in md.get("collaborations") or []
                             if isinstance(c, dict)),
        year=year,
        other_years=others,
        venue=(clean_text(inspire_venue(main.get("journal_title"))) if main
               else ("arXiv" if eprints else "")),
        volume=str(main.get("journal_volume") or ""),
        pages=pages,
        doi=dois[0] if dois else "",
        arxiv=eprints[0] if eprints else "",
        texkeys=tuple(str(t) for t in md.get("texkeys") or []),
        entry_type=_DOC_TYPES.get(doc[0], doc[0]) if doc else "",
        extra_pubs=extra,
        score=1.0,
        report_numbers=report_numbers_of(md.get("report_numbers")),
    )


@register("inspire")
def make_inspire(http: Http, settings: Settings) -> InspireSource:
    """Factory registered as "inspire"."""
    return InspireSource(http, settings)
