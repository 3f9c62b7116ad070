"""Online retrieval benchmark: HTTP requests and wall time per reference.

``python -m bench.bench_online [--refs 200] [--latency 0.1]``

A loopback server plays every scholarly API (arXiv Atom, Crossref, DataCite,
INSPIRE, Semantic Scholar, OpenAlex, DBLP) for a bibliography of real records
from ``/work/shared/corpus/dumps/inspire_literature.jsonl``, each answer shaped
like the real API's and delayed by ``--latency`` seconds. The run uses each
API's real published rate limits (:data:`citecheck_tex.sources.http.DEFAULT_LIMITS`)
and goes through the real pipeline (``check_entries_async``), or through the
sources directly with ``--sources-only``. It prints a table compared with the
figure other tools publish (2 requests and 3.4 s per reference).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from citecheck_tex.config import Settings
from citecheck_tex.model import Entry, Person, Query, QueryKind, SourceStatus
from citecheck_tex.sources.base import make_source, person_from_name
from citecheck_tex.sources.http import Http, open_http
from tests.replay import ReplayServer, Reply, Request

DUMP = Path("/work/shared/corpus/dumps/inspire_literature.jsonl")
PUBLISHED = (2.0, 3.4)  # requests and seconds per reference published by other tools
ONLINE = ("arxiv", "crossref", "datacite", "inspire", "semanticscholar", "openalex", "dblp")



def _jkey(journal: str, volume: str) -> tuple[str, str]:
    """(journal, volume) as INSPIRE matches them: compact title, the series letter of an
    old-style volume ("Phys.Rev." + "D50") moved to the title ("Phys.Rev.D" + "50")."""
    from citecheck_tex.sources.inspire import inspire_journal

    j, v = inspire_journal(journal).lower(), volume.strip()
    m = re.fullmatch(r"([A-Za-z])(\d+)", v)
    if m:
        v = m.group(2)
        if not j.endswith(m.group(1).lower()):
            j += m.group(1).lower()
    return j, v

def _norm(title: str) -> str:
    return " ".join(re.sub(r"[^\w\s]", " ", title.lower()).split())


def load_records(n: int, dump: Path = DUMP) -> list[dict[str, Any]]:
    """``n`` real INSPIRE hits with a title, authors, a year and a DOI or arXiv id."""
    out = []
    with dump.open(encoding="utf-8") as fh:
        for line in fh:
            hit = json.loads(line)
            md = hit["metadata"]
            pubs = [p for p in md.get("publication_info", []) if p.get("journal_title")]
            if md.get("titles") and md.get("authors") and (md.get("dois") or
                                                            md.get("arxiv_eprints")) and pubs:
                out.append(hit)
                if len(out) == n:
                    break
    return out


class FakeApis:
    """Answers every source's endpoints from the records, shaped like the real APIs."""

    def __init__(self, hits: list[dict[str, Any]]) -> None:
        self.hits = hits
        self.by_arxiv = {e["value"].lower(): h for h in hits
                         for e in h["metadata"].get("arxiv_eprints", [])}
        self.by_doi = {d["value"].lower(): h for h in hits for d in h["metadata"].get("dois", [])}
        self.by_title = {_norm(h["metadata"]["titles"][0]["title"]): h for h in hits}
        self.by_texkey = {t: h for h in hits for t in h["metadata"].get("texkeys", [])}

    # -- record views -------------------------------------------------------

    @staticmethod
    def _md(hit: dict[str, Any]) -> dict[str, Any]:
        return hit["metadata"]  # type: ignore[no-any-return]

    def _pub(self, hit: dict[str, Any]) -> dict[str, Any]:
        return next((p for p in self._md(hit).get("publication_info", [])
                     if p.get("journal_title")), {})

    def _names(self, hit: dict[str, Any]) -> list[Person]:
        return [person_from_name(a["full_name"]) for a in self._md(hit).get("authors", [])]

    def _year(self, hit: dict[str, Any]) -> int:
        pub = self._pub(hit)
        return int(pub.get("year") or str(self._md(hit).get("earliest_date", "2000"))[:4])

    def crossref_work(self, hit: dict[str, Any]) -> dict[str, Any]:
        """A Crossref work message."""
        md, pub = self._md(hit), self._pub(hit)
        return {
            "DOI": md["dois"][0]["value"], "type": "journal-article",
            "title": [md["titles"][0]["title"]],
            "author": [{"given": p.given, "family": p.full_family, "sequence": "additional"}
                       for p in self._names(hit)],
            "container-title": [pub.get("journal_title", "")],
            "short-container-title": [pub.get("journal_title", "")],
            "volume": pub.get("journal_volume", ""),
            "page": "-".join(x for x in (pub.get("page_start"), pub.get("page_end")) if x),
            "issued": {"date-parts": [[self._year(hit)]]},
            "URL": f"https://doi.org/{md['dois'][0]['value']}", "score": 50.0,
        }

    def s2_paper(self, hit: dict[str, Any]) -> dict[str, Any]:
        """A Semantic Scholar paper object."""
        md, pub = self._md(hit), self._pub(hit)
        ext: dict[str, Any] = {}
        if md.get("dois"):
            ext["DOI"] = md["dois"][0]["value"]
        if md.get("arxiv_eprints"):
            ext["ArXiv"] = md["arxiv_eprints"][0]["value"]
        return {"paperId": f"{md['control_number']:040d}", "externalIds": ext,
                "title": md["titles"][0]["title"], "year": self._year(hit),
                "authors": [{"authorId": None, "name": p.display()} for p in self._names(hit)],
                "journal": {"name": pub.get("journal_title", ""),
                            "volume": pub.get("journal_volume", ""),
                            "pages": pub.get("page_start", "")},
                "venue": pub.get("journal_title", "")}

    def openalex_work(self, hit: dict[str, Any]) -> dict[str, Any]:
        """An OpenAlex work object."""
        md, pub = self._md(hit), self._pub(hit)
        doi = md["dois"][0]["value"] if md.get("dois") else None
        return {"id": f"https://openalex.org/W{md['control_number']}",
                "doi": f"https://doi.org/{doi}" if doi else None,
                "title": md["titles"][0]["title"], "publication_year": self._year(hit),
                "authorships": [{"author": {"display_name": p.display()}}
                                for p in self._names(hit)],
                "primary_location": {"source": {"display_name": pub.get("journal_title", "")}},
                "biblio": {"volume": pub.get("journal_volume"),
                           "first_page": pub.get("page_start"), "last_page": pub.get("page_end")}}

    def atom_entry(self, hit: dict[str, Any]) -> str:
        """An arXiv Atom <entry>."""
        md, pub = self._md(hit), self._pub(hit)
        aid = md["arxiv_eprints"][0]["value"]
        year = str(md.get("preprint_date") or md.get("earliest_date") or self._year(hit))[:4]
        authors = "".join(f"<author><name>{escape(p.display())}</name></author>"
                          for p in self._names(hit))
        jref = (f"<arxiv:journal_ref>{escape(pub.get('journal_title', ''))} "
                f"{pub.get('journal_volume', '')} ({self._year(hit)}) "
                f"{pub.get('page_start', '')}</arxiv:journal_ref>") if pub else ""
        doi = f"<arxiv:doi>{md['dois'][0]['value']}</arxiv:doi>" if md.get("dois") else ""
        return (f"<entry><id>http://arxiv.org/abs/{aid}v1</id>"
                f"<title>{escape(md['titles'][0]['title'])}</title>"
                f"<published>{year}-01-15T00:00:00Z</published>{authors}{doi}{jref}</entry>")

    def dblp_hit(self, hit: dict[str, Any]) -> dict[str, Any]:
        """A DBLP search hit."""
        md, pub = self._md(hit), self._pub(hit)
        return {"@score": "10", "info": {
            "authors": {"author": [{"text": p.display()} for p in self._names(hit)]},
            "title": md["titles"][0]["title"] + ".", "venue": pub.get("journal_title", ""),
            "volume": pub.get("journal_volume", ""), "pages": pub.get("page_start", ""),
            "year": str(self._year(hit)), "type": "Journal Articles",
            "key": f"journals/x/{md['control_number']}",
            "doi": md["dois"][0]["value"].upper() if md.get("dois") else ""}}

    def search(self, text: str) -> list[dict[str, Any]]:
        """Hits whose title matches ``text``."""
        key = _norm(text)
        hit = self.by_title.get(key)
        if hit is None:
            hit = next((h for t, h in self.by_title.items() if key and key in t), None)
        return [hit] if hit else []

    # -- endpoints ------------------------------------------------------------

    def __call__(self, req: Request) -> Reply | None:
        """Answer one request like the API at its path would."""
        p = req.path
        if p == "/api/query":
            ids = [i for i in req.param("id_list").split(",") if i]
            hits = [self.by_arxiv[i.lower()] for i in ids if i.lower() in self.by_arxiv]
            if not ids:
                m = re.search(r'ti:"([^"]*)"', req.param("search_query"))
                hits = [h for h in self.search(m.group(1) if m else "")
                        if self._md(h).get("arxiv_eprints")]
            feed = ('<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/'
                    'Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">'
                    + "".join(self.atom_entry(h) for h in hits) + "</feed>")
            return Reply.make(200, feed, content_type="application/atom+xml")
        if p.startswith("/works/") and p.endswith("/agency"):
            return Reply.make(404, "Resource not found.")
        if p.startswith("/works/"):
            hit = self.by_doi.get(p.removeprefix("/works/").lower())
            if hit is None:
                return Reply.make(404, "Resource not found.")
            return Reply.make(200, {"status": "ok", "message": self.crossref_work(hit)},
                              headers={"X-Rate-Limit-Limit": "50", "X-Rate-Limit-Interval": "1s"})
        if p == "/works":
            flt = req.param("filter")
            if flt.startswith("doi:") and not req.param("per-page"):  # Crossref
                dois = [d.removeprefix("doi:").lower() for d in flt.split(",")]
                items = [self.crossref_work(self.by_doi[d]) for d in dois if d in self.by_doi]
                return Reply.make(200, {"status": "ok", "message": {"items": items}})
            if flt.startswith("doi:"):  # OpenAlex
                dois = flt.removeprefix("doi:").split("|")
                return Reply.make(200, {"meta": {}, "results": [
                    self.openalex_work(self.by_doi[d]) for d in dois if d in self.by_doi]})
            if req.param("query.bibliographic"):
                hits = [h for h in self.hits if _norm(self._md(h)["titles"][0]["title"])
                        in _norm(req.param("query.bibliographic"))][:5]
                return Reply.make(200, {"status": "ok", "message": {
                    "items": [self.crossref_work(h) for h in hits if self._md(h).get("dois")]}})
            if req.param("search"):
                return Reply.make(200, {"meta": {}, "results": [
                    self.openalex_work(h) for h in self.search(req.param("search"))]})
            if flt.startswith("biblio."):  # OpenAlex: biblio.volume:V,biblio.first_page:P
                want = dict(part.partition(":")[::2] for part in flt.split(","))
                return Reply.make(200, {"meta": {}, "results": [
                    self.openalex_work(h) for h in self.hits
                    if str(self._pub(h).get("journal_volume", "")) == want.get("biblio.volume")
                    and want.get("biblio.first_page") in (self._pub(h).get("page_start"),
                                                          self._pub(h).get("artid"))]})
        if p.startswith("/dois/"):
            return Reply.make(404, {"errors": [{"status": "404", "title": "not found"}]})
        if p == "/api/literature":
            q = req.param("q")
            if q.startswith("t "):  # t "a" or t "b": OR-ed title searches
                hits = [h for term in re.split(r'"\s+or\s+t\s+"', q[2:].strip('"'))
                        for h in self.search(term)]
            elif q.startswith("j "):
                hits = []
                for term in re.split(r"\s+or\s+", q):
                    # INSPIRE's compact pubnote form, quoted: j "Phys.Rev.D,50,1140"
                    j, v, pg = (term.removeprefix("j ").strip('"').split(",") + ["", ""])[:3]
                    want = _jkey(j, v)
                    hits += [h for h in self.hits if (
                        _jkey(self._pub(h).get("journal_title", ""),
                              self._pub(h).get("journal_volume", "")) == want
                        and pg in (self._pub(h).get("page_start"), self._pub(h).get("artid")))]
            else:
                hits = []
                for term in re.split(r"\s+or\s+", q):
                    field, _, value = term.partition(":")
                    value = value.strip('"').lower()
                    table = {"arxiv": self.by_arxiv, "doi": self.by_doi}.get(field)
                    h = table.get(value) if table is not None else self.by_texkey.get(
                        term.partition(":")[2])
                    if h:
                        hits.append(h)
            return Reply.make(200, {"hits": {"total": len(hits), "hits": hits}})
        if p == "/graph/v1/paper/batch":
            out: list[dict[str, Any] | None] = []
            for ident in req.json()["ids"]:
                kind, _, value = ident.partition(":")
                table = self.by_doi if kind == "DOI" else self.by_arxiv
                h = table.get(value.lower())
                out.append(self.s2_paper(h) if h else None)
            return Reply.make(200, out)
        if p == "/graph/v1/paper/search/match":
            hits = self.search(req.param("query"))
            if not hits:
                return Reply.make(404, {"error": "Title match not found"})
            return Reply.make(200, {"data": [self.s2_paper(hits[0])]})
        if p == "/search/publ/api":
            return Reply.make(200, {"result": {"hits": {
                "hit": [self.dblp_hit(h) for h in self.search(req.param("q"))]}}})
        return None


def make_entries(hits: Sequence[dict[str, Any]], fabricated: float = 0.0) -> list[Entry]:
    """A bibliography: 40% cite an arXiv id, 40% a DOI, 20% only journal and title.

    A ``fabricated`` fraction is made unfindable, as a hallucinated reference
    is: title words reversed, DOI and page altered, no arXiv id. Those travel
    the whole cascade (every title source, DBLP included).
    """
    entries = []
    every = round(1 / fabricated) if fabricated > 0 else 0
    for i, hit in enumerate(hits):
        md = hit["metadata"]
        pub = next(p for p in md["publication_info"] if p.get("journal_title"))
        arxiv = md["arxiv_eprints"][0]["value"] if md.get("arxiv_eprints") else ""
        doi = md["dois"][0]["value"].lower() if md.get("dois") else ""
        mode = i % 5
        use_arxiv = arxiv if mode in (0, 1) else ""
        use_doi = doi if mode in (2, 3) or not use_arxiv and mode != 4 else ""
        authors = tuple(person_from_name(a["full_name"]) for a in md["authors"])
        fields = {"title": md["titles"][0]["title"], "journal": pub["journal_title"],
                  "volume": pub.get("journal_volume", ""),
                  "pages": pub.get("page_start", "") or pub.get("artid", ""),
                  "year": str(pub.get("year", ""))}
        if every and i % every == every - 1:
            fields["title"] = " ".join(reversed(fields["title"].split()))
            fields["pages"] = fields["pages"] + "7"
            use_doi, use_arxiv = (use_doi + "x" if use_doi else ""), ""
        entries.append(Entry(
            key=f"ref{i}", entry_type="article", file="bench.bib", line=1 + 8 * i,
            fields=fields, authors=authors, title=fields["title"], year=fields["year"],
            venue=fields["journal"], volume=fields["volume"], pages=fields["pages"],
            doi=use_doi, arxiv=use_arxiv,
        ))
    return entries


async def run_pipeline(entries: list[Entry], settings: Settings) -> tuple[int, dict[str, int],
                                                                          dict[str, int]]:
    """Run the real cascade; returns requests, per-source requests and label counts."""
    from citecheck_tex.pipeline import check_entries_async

    async with open_http(settings) as http:
        verdicts, _, _ = await check_entries_async(entries, settings, http=http)
        labels: dict[str, int] = {}
        for v in verdicts:
            labels[v.label.value] = labels.get(v.label.value, 0) + 1
        return http.requests, dict(http.requests_by_source), labels


async def run_sources(entries: list[Entry], settings: Settings) -> tuple[int, dict[str, int],
                                                                         dict[str, int]]:
    """Source-level fallback: identifiers first, then a title search for the rest."""
    async with open_http(settings) as http:
        done: set[int] = set()
        plan: list[tuple[QueryKind, str, Any]] = [
            (QueryKind.ARXIV, "arxiv", lambda e: e.arxiv),
            (QueryKind.DOI, "crossref", lambda e: e.doi),
            (QueryKind.TITLE, "crossref", lambda e: e.title),
        ]
        for kind, name, value in plan:
            idx = [i for i, e in enumerate(entries) if i not in done and value(e)]
            src = make_source(name, http, settings)
            answers = await _ask(http, src, kind, [Query(kind, value(entries[i])) for i in idx])
            done.update(i for i, a in zip(idx, answers, strict=True)
                        if a.status is SourceStatus.FOUND)
        return http.requests, dict(http.requests_by_source), {"FOUND": len(done)}


async def _ask(http: Http, src: Any, kind: QueryKind, queries: list[Query]) -> list[Any]:
    if kind is QueryKind.TITLE:
        return list(await asyncio.gather(*(src.fetch(q) for q in queries)))
    return list(await src.fetch_batch(queries))


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark and print the table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else "")
    ap.add_argument("--refs", type=int, default=200)
    ap.add_argument("--latency", type=float, default=0.1)
    ap.add_argument("--fabricated", type=float, default=0.0,
                    help="fraction of references made unfindable (hallucinated)")
    ap.add_argument("--sources-only", action="store_true",
                    help="drive the sources directly instead of the pipeline")
    ap.add_argument("--dump", type=Path, default=DUMP,
                    help="INSPIRE literature dump (JSON lines of API hits)")
    args = ap.parse_args(argv)
    if not args.dump.is_file():
        raise SystemExit(f"{args.dump} not found; pass --dump PATH (INSPIRE literature hits)")
    hits = load_records(args.refs, args.dump)
    entries = make_entries(hits, args.fabricated)
    with ReplayServer(latency=args.latency) as server:
        server.add_handler(FakeApis(hits))
        settings = replace(Settings(), base_urls=server.base_urls(), sources=ONLINE,
                           cache_path="none", mailto="bench@example.org")
        t0 = time.perf_counter()
        mode = "sources"
        if args.sources_only:
            requests, per_source, labels = asyncio.run(run_sources(entries, settings))
        else:
            try:
                requests, per_source, labels = asyncio.run(run_pipeline(entries, settings))
                mode = "pipeline"
            except ImportError as exc:
                print(f"pipeline unavailable ({exc}); measuring at the source level")
                requests, per_source, labels = asyncio.run(run_sources(entries, settings))
        wall = time.perf_counter() - t0
    n = len(entries)
    print(f"\nOnline retrieval, {n} references, {args.latency * 1000:.0f} ms latency per request, "
          f"real rate limits, {args.fabricated:.0%} fabricated, mode: {mode}\n")
    print(f"| {'tool':<28} | {'requests/ref':>12} | {'s/ref':>7} | {'wall s':>7} |")
    print(f"|{'-' * 30}|{'-' * 14}|{'-' * 9}|{'-' * 9}|")
    print(f"| {'citecheck-tex':<28} | {requests / n:>12.2f} | {wall / n:>7.3f} | {wall:>7.1f} |")
    print(f"| {'published figure (others)':<28} | {PUBLISHED[0]:>12.2f} | {PUBLISHED[1]:>7.3f} | "
          f"{PUBLISHED[1] * n:>7.1f} |")
    print("\nrequests per source: " + ", ".join(f"{k}={v}" for k, v in sorted(per_source.items())))
    print("outcome: " + ", ".join(f"{k}={v}" for k, v in sorted(labels.items())))


if __name__ == "__main__":
    main()
