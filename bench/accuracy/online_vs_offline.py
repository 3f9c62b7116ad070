"""Online vs offline on the mixed synthetic HEP set: labels, requests, wall time.

    python -m bench.accuracy.online_vs_offline [--per-class 300] [--latency 0.05]

The cases are those of :mod:`bench.accuracy.dataset` (one third correct, one
third with one wrong field, one third fabricated), rendered as one .bib and
parsed by the frontend. They are checked twice with the shipped defaults:

- **offline**: the world index of :mod:`bench.accuracy.run_synthetic` (INSPIRE
  dump + arXiv snapshot + HEPML.bib), declared complete;
- **online**: every online source of the default configuration, through the
  real HTTP stack and a fresh answer cache (a first run as shipped) at the
  published rate limits
  (:data:`citecheck_tex.sources.http.DEFAULT_LIMITS`), against one loopback
  server (:class:`World`) that answers like arXiv, Crossref, DataCite,
  INSPIRE, Semantic Scholar, OpenAlex and DBLP from the same real records, each
  answer delayed by ``--latency`` seconds.

What each service knows, as in reality: INSPIRE only the records that carry a
real INSPIRE id (the dump's publisher-feed records, control numbers from
90000001, are the ones the INSPIRE matcher benchmark lists as having no INSPIRE
match: Rev. Bras. Ens. Fis., MNRAS, condensed matter, ...); arXiv the records
with an eprint; Crossref every record with a DOI, without arXiv ids (Crossref
works carry none); OpenAlex and Semantic Scholar everything; DataCite and DBLP
nothing (no DataCite DOIs, no computer science in a HEP world). Searches are
ranked like search engines rank: Crossref's ``query.bibliographic`` and
OpenAlex's ``search`` return the best token-overlap matches (so a fabricated
reference gets look-alikes, never silence), INSPIRE ``t``, arXiv ``ti:`` and
DBLP need every title word.

It prints the labels against the truth for both runs, the agreement of online
with offline labels, correct citations labelled MAJOR online, requests per
reference per source and the wall time; then the same for the correct third
alone (a paper whose references are all real).
"""

from __future__ import annotations

import argparse
import asyncio
import math
import re
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

from bench.accuracy import dataset
from bench.accuracy.run_synthetic import WORLD, build_world, offline_settings, parse
from citecheck_tex.config import Settings
from citecheck_tex.model import Entry, Verdict
from tests.replay import ReplayServer, Reply, Request

#: The online sources of the shipped defaults (the local index is left out: a new
#: user has none).
ONLINE = ("arxiv", "crossref", "datacite", "inspire", "semanticscholar", "openalex", "dblp")
FIRST_PUBLISHER_RECID = 90000001
_WORD = re.compile(r"[^\W_]+")
_OR_OUTSIDE_QUOTES = re.compile(r'\s+or\s+(?=(?:[^"]*"[^"]*")*[^"]*$)')
_STOP = frozenset("a an and at by for from in of on or the to with via".split())


def _tokens(text: str) -> list[str]:
    return [t for t in _WORD.findall(text.lower()) if t not in _STOP]


@dataclass
class Rec:
    """One real record of the world, with the views the fake services need."""

    hit: dict[str, Any]
    recid: int
    title: str
    authors: list[str]  # "Family, Given" as INSPIRE writes them
    families: list[str]
    year: int
    preprint_year: int
    journal: str
    volume: str
    page_start: str
    page_end: str
    artid: str
    doi: str
    arxiv: str
    in_inspire: bool


def _rec(hit: dict[str, Any]) -> Rec | None:
    md = hit["metadata"]
    titles = md.get("titles") or []
    title = titles[0].get("title", "") if titles else ""
    if not title:
        return None
    pubs = [p for p in md.get("publication_info") or [] if p.get("journal_title")]
    pub = pubs[0] if pubs else {}
    pre = str(md.get("preprint_date") or md.get("earliest_date") or "")[:4]
    year = str(pub.get("year") or pre or "2000")
    authors = [str(a.get("full_name") or "") for a in md.get("authors") or []]
    return Rec(
        hit=hit, recid=int(md["control_number"]), title=title, authors=authors,
        families=[a.split(",")[0].strip() for a in authors if a],
        year=int(year) if year.isdigit() else 2000,
        preprint_year=int(pre) if pre.isdigit() else 0,
        journal=str(pub.get("journal_title") or ""), volume=str(pub.get("journal_volume") or ""),
        page_start=str(pub.get("page_start") or ""), page_end=str(pub.get("page_end") or ""),
        artid=str(pub.get("artid") or ""),
        doi=str((md.get("dois") or [{}])[0].get("value") or "").lower(),
        arxiv=str((md.get("arxiv_eprints") or [{}])[0].get("value") or ""),
        in_inspire=int(md["control_number"]) < FIRST_PUBLISHER_RECID)


def _display(full_name: str) -> str:
    fam, _, giv = full_name.partition(",")
    return f"{giv.strip()} {fam.strip()}".strip()


class World:
    """A loopback handler answering every scholarly API from one set of real records."""

    def __init__(self, hits: Sequence[dict[str, Any]]) -> None:
        self.recs = [r for r in (_rec(h) for h in hits) if r is not None]
        self.by_doi = {r.doi: r for r in self.recs if r.doi}
        self.by_arxiv = {r.arxiv.lower(): r for r in self.recs if r.arxiv}
        self.by_texkey = {t: r for r in self.recs for t in r.hit["metadata"].get("texkeys") or []}
        # inverted indexes: title words, and every bibliographic field
        self.title_words: dict[str, set[int]] = {}
        self.biblio_words: dict[str, set[int]] = {}
        self.biblio_docs: list[set[str]] = []
        for i, r in enumerate(self.recs):
            tw = set(_tokens(r.title))
            for t in tw:
                self.title_words.setdefault(t, set()).add(i)
            doc = tw | {t for f in r.families for t in _tokens(f)} | set(_tokens(
                " ".join((r.journal, r.volume, r.page_start, r.artid, str(r.year)))))
            self.biblio_docs.append(doc)
            for t in doc:
                self.biblio_words.setdefault(t, set()).add(i)
        n = len(self.recs)
        self.idf = {t: math.log(1 + n / len(ids)) for t, ids in self.biblio_words.items()}

    # -- search semantics ---------------------------------------------------

    def all_words(self, text: str, pool: Sequence[int] | None = None) -> list[Rec]:
        """Records whose title holds every word of ``text`` (INSPIRE t, arXiv ti:, DBLP)."""
        words = _tokens(text)
        if not words:
            return []
        sets = [self.title_words.get(w, set()) for w in words]
        ids = set.intersection(*sets) if sets else set()
        return [self.recs[i] for i in sorted(ids)][:25]

    def ranked(self, text: str, *, title_only: bool = False, rows: int = 5,
               floor: float = 0.25) -> list[tuple[float, Rec]]:
        """Best token-overlap matches of ``text`` (Crossref bibliographic, OpenAlex search)."""
        words = set(_tokens(text))
        if not words:
            return []
        total = sum(self.idf.get(w, math.log(1 + len(self.recs))) for w in words)
        index = self.title_words if title_only else self.biblio_words
        cand: Counter[int] = Counter()
        for w in words:
            ids = index.get(w, set())
            if len(ids) > 3000:
                continue
            for i in ids:
                cand[i] += 1
        scored = []
        for i, _ in cand.most_common(400):
            doc = set(_tokens(self.recs[i].title)) if title_only else self.biblio_docs[i]
            s = sum(self.idf.get(w, 0.0) for w in words & doc) / total
            if s >= floor:
                scored.append((s, self.recs[i]))
        scored.sort(key=lambda x: -x[0])
        return scored[:rows]

    # -- record views ---------------------------------------------------------

    @staticmethod
    def _full_journal(r: Rec) -> str:
        return dataset._FULL_JOURNAL.get(r.journal, dataset._spaced(r.journal))

    def crossref_work(self, r: Rec, score: float = 1.0) -> dict[str, Any]:
        """A Crossref work (no arXiv id: Crossref works carry none)."""
        work: dict[str, Any] = {
            "DOI": r.doi, "type": "journal-article", "title": [r.title],
            "author": [{"given": a.partition(",")[2].strip(), "family": a.partition(",")[0],
                        "sequence": "additional"} for a in r.authors[:100]],
            "container-title": [self._full_journal(r)] if r.journal else [],
            "short-container-title": [dataset._spaced(r.journal)] if r.journal else [],
            "volume": r.volume, "issued": {"date-parts": [[r.year]]},
            "URL": f"https://doi.org/{r.doi}", "score": round(100 * score, 3)}
        if r.page_start:
            work["page"] = "-".join(p for p in (r.page_start, r.page_end) if p)
        elif r.artid:
            work["article-number"] = r.artid
        return work

    def s2_paper(self, r: Rec, score: float | None = None) -> dict[str, Any]:
        """A Semantic Scholar paper."""
        ext: dict[str, Any] = {}
        if r.doi:
            ext["DOI"] = r.doi
        if r.arxiv:
            ext["ArXiv"] = r.arxiv
        paper: dict[str, Any] = {
            "paperId": f"{r.recid:040d}", "externalIds": ext, "title": r.title,
            "year": r.year, "authors": [{"authorId": None, "name": _display(a)}
                                        for a in r.authors],
            "journal": {"name": self._full_journal(r), "volume": r.volume,
                        "pages": r.page_start or r.artid} if r.journal else None,
            "venue": self._full_journal(r) if r.journal else ""}
        if score is not None:
            paper["matchScore"] = round(100 * score, 2)
        return paper

    def openalex_work(self, r: Rec) -> dict[str, Any]:
        """An OpenAlex work (the arXiv copy as a location when there is one)."""
        locations = [{"landing_page_url": f"https://arxiv.org/abs/{r.arxiv}"}] if r.arxiv else []
        return {"id": f"https://openalex.org/W{r.recid}",
                "doi": f"https://doi.org/{r.doi}" if r.doi else None, "title": r.title,
                "display_name": r.title, "publication_year": r.year,
                "authorships": [{"author": {"display_name": _display(a)}} for a in r.authors],
                "primary_location": {"source": {"display_name": self._full_journal(r)}
                                     if r.journal else None},
                "locations": locations,
                "biblio": {"volume": r.volume or None, "first_page": r.page_start or r.artid
                           or None, "last_page": r.page_end or None}}

    def atom_entry(self, r: Rec) -> str:
        """An arXiv Atom entry."""
        year = r.preprint_year or r.year
        authors = "".join(f"<author><name>{escape(_display(a))}</name></author>"
                          for a in r.authors)
        jref = (f"<arxiv:journal_ref>{escape(dataset._spaced(r.journal))} {r.volume} ({r.year}) "
                f"{r.page_start or r.artid}</arxiv:journal_ref>") if r.journal else ""
        doi = f"<arxiv:doi>{r.doi}</arxiv:doi>" if r.doi else ""
        return (f"<entry><id>http://arxiv.org/abs/{r.arxiv}v1</id>"
                f"<title>{escape(r.title)}</title>"
                f"<published>{year}-01-15T00:00:00Z</published>{authors}{doi}{jref}</entry>")

    # -- INSPIRE ------------------------------------------------------------

    def _pub_matches(self, r: Rec, term: str) -> bool:
        from citecheck_tex.sources.importers import pub_key

        parts = (term.split(",") + ["", ""])[:3]
        want = pub_key(*parts)
        got = pub_key(r.journal, r.volume, "")
        pages = {r.page_start, r.artid} - {""}
        if not r.journal or got[0] != want[0] or (parts[1] and got[1] != want[1]):
            return False
        return not parts[2] or want[2] in {pub_key(r.journal, r.volume, p)[2] for p in pages}

    def inspire(self, q: str) -> list[Rec]:
        """Hits of an INSPIRE search (the syntax the adapter sends)."""
        pool = [r for r in self.recs if r.in_inspire]
        out: list[Rec] = []
        for term in _OR_OUTSIDE_QUOTES.split(q):
            term = term.strip()
            m = re.fullmatch(r'(arxiv|doi|texkeys|reportnumber):"?([^"]*)"?', term)
            if m:
                field, value = m.group(1), m.group(2).lower()
                r = (self.by_arxiv.get(value) if field == "arxiv" else self.by_doi.get(value)
                     if field == "doi" else self.by_texkey.get(m.group(2)) if field == "texkeys"
                     else None)
                if r is not None and r.in_inspire:
                    out.append(r)
                continue
            if term.startswith("j "):
                value = term[2:].strip().strip('"')
                out += [r for r in pool if self._pub_matches(r, value)]
                continue
            if term.startswith("t "):
                out += [r for r in self.all_words(term[2:].strip().strip('"')) if r.in_inspire]
                continue
            if term.startswith(("fa ", "cn ")):
                parts = dict((p.split(" ", 1) + [""])[:2] for p in re.split(r"\s+and\s+", term))
                name = parts.get("fa", parts.get("cn", "")).strip('"').lower()
                year = parts.get("date", "")
                j = parts.get("j", "").strip('"')
                out += [r for r in pool if r.families and r.families[0].lower().endswith(name)
                        and year in (str(r.year), str(r.preprint_year))
                        and (not j or self._pub_matches(r, j + ","))]
        return out

    # -- endpoints ----------------------------------------------------------

    def __call__(self, req: Request) -> Reply | None:
        """Answer one request like the API at its path would."""
        p = req.path
        if p == "/api/query":
            return self._arxiv(req)
        if p.startswith("/works/") and p.endswith("/agency"):
            doi = p.removeprefix("/works/").removesuffix("/agency").lower()
            if doi in self.by_doi:
                return Reply.make(200, {"status": "ok", "message": {
                    "DOI": doi, "agency": {"id": "crossref", "label": "Crossref"}}})
            return Reply.make(404, "Resource not found.")
        if p.startswith("/works/"):
            r = self.by_doi.get(p.removeprefix("/works/").lower())
            if r is None:
                return Reply.make(404, "Resource not found.")
            return Reply.make(200, {"status": "ok", "message-type": "work",
                                    "message": self.crossref_work(r)})
        if p == "/works":
            return self._works(req)
        if p.startswith("/dois/"):
            return Reply.make(404, {"errors": [{"status": "404", "title":
                                                "The resource you are looking for doesn't exist."}]})
        if p == "/api/literature":
            hits = self.inspire(req.param("q"))
            size = int(req.param("size") or 10)
            return Reply.make(200, {"hits": {"total": len(hits),
                                             "hits": [r.hit for r in hits[:size]]}})
        if p == "/graph/v1/paper/batch":
            out: list[dict[str, Any] | None] = []
            for ident in req.json()["ids"]:
                kind, _, value = ident.partition(":")
                r = (self.by_doi if kind == "DOI" else self.by_arxiv).get(value.lower())
                out.append(self.s2_paper(r) if r else None)
            return Reply.make(200, out)
        if p == "/graph/v1/paper/search/match":
            best = self.ranked(req.param("query"), title_only=True, rows=1, floor=0.8)
            if not best:
                return Reply.make(404, {"error": "Title match not found"})
            return Reply.make(200, {"data": [self.s2_paper(best[0][1], best[0][0])]})
        if p == "/search/publ/api":
            return Reply.make(200, {"result": {"hits": {"@total": "0", "hit": []}}})
        return None

    def _arxiv(self, req: Request) -> Reply:
        ids = [i for i in req.param("id_list").split(",") if i]
        if ids:
            hits = [self.by_arxiv[i.lower()] for i in ids if i.lower() in self.by_arxiv]
        else:
            hits = []
            for m in re.finditer(r'ti:"([^"]*)"', req.param("search_query")):
                hits += [r for r in self.all_words(m.group(1)) if r.arxiv]
            hits = hits[: int(req.param("max_results") or 10)]
        feed = ('<?xml version="1.0" encoding="UTF-8"?><feed xmlns="http://www.w3.org/2005/'
                'Atom" xmlns:arxiv="http://arxiv.org/schemas/atom">'
                + "".join(self.atom_entry(h) for h in hits) + "</feed>")
        return Reply.make(200, feed, content_type="application/atom+xml")

    def _works(self, req: Request) -> Reply | None:
        flt = req.param("filter")
        crossref = not req.param("per-page")  # OpenAlex pages with per-page, Crossref rows
        if crossref:
            if flt.startswith("doi:"):
                dois = [d.removeprefix("doi:").lower() for d in flt.split(",")]
                items = [self.crossref_work(self.by_doi[d]) for d in dois if d in self.by_doi]
                return Reply.make(200, {"status": "ok", "message": {"items": items}})
            text = req.param("query.bibliographic")
            rows = int(req.param("rows") or 20)
            items = [self.crossref_work(r, s) for s, r in self.ranked(text, rows=rows)
                     if r.doi]
            return Reply.make(200, {"status": "ok", "message-type": "work-list",
                                    "message": {"items": items}})
        per_page = int(req.param("per-page") or 25)
        if flt.startswith("doi:"):
            dois = flt.removeprefix("doi:").split("|")
            return Reply.make(200, {"meta": {}, "results": [
                self.openalex_work(self.by_doi[d]) for d in dois if d in self.by_doi]})
        if flt:
            return Reply.make(200, {"meta": {}, "results": [
                self.openalex_work(r) for r in self._openalex_filter(flt)][:per_page]})
        return Reply.make(200, {"meta": {}, "results": [
            self.openalex_work(r) for _, r in self.ranked(req.param("search"), title_only=True,
                                                          rows=per_page)]})

    def _openalex_filter(self, flt: str) -> list[Rec]:
        """``biblio.volume:76,biblio.first_page:052319|1,publication_year:2007|2008`` ..."""
        conds: dict[str, set[str]] = {}
        for part in flt.split(","):
            key, _, value = part.partition(":")
            conds[key] = {v.lower() for v in value.split("|")}
        out = []
        for r in self.recs:
            values = {"biblio.volume": {r.volume.lower()},
                      "biblio.first_page": {(r.page_start or r.artid).lower()},
                      "publication_year": {str(r.year)}}
            if all(values.get(k, set()) & v for k, v in conds.items() if k in values):
                out.append(r)
        return out


# ---------------------------------------------------------------------- runs


def load_hits() -> list[dict[str, Any]]:
    """Every hit of the INSPIRE literature dump (the world)."""
    import json

    with dataset.INSPIRE_DUMP.open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


async def _online(entries: list[Entry], settings: Settings) -> tuple[list[Verdict],
                                                                       dict[str, int]]:
    from citecheck_tex.pipeline import check_entries_async
    from citecheck_tex.sources.http import open_http

    async with open_http(settings) as http:
        verdicts, _, _ = await check_entries_async(entries, settings, http=http)
        return verdicts, dict(http.requests_by_source)


def run_online(entries: list[Entry], world: World, latency: float) -> tuple[
        list[Verdict], dict[str, int], float]:
    """Check ``entries`` online against the world; verdicts, requests per source, seconds."""
    import tempfile

    with ReplayServer(latency=latency) as server, tempfile.TemporaryDirectory() as tmp:
        server.add_handler(world)
        # as shipped: the answer cache on (a fresh one: a first run), published limits
        settings = replace(Settings(), base_urls=server.base_urls(), sources=ONLINE,
                           cache_path=str(Path(tmp) / "cache.sqlite"),
                           mailto="bench@example.org")
        t0 = time.perf_counter()
        verdicts, per_source = asyncio.run(_online(entries, settings))
        return verdicts, per_source, time.perf_counter() - t0


def _table(title: str, cases: Sequence[dataset.Case], labels: dict[str, str]) -> str:
    rows = ["EXACT", "MINOR", "MAJOR"]
    cols = ["EXACT", "MINOR", "MAJOR", "UNVERIFIED", "SKIPPED"]
    out = [f"{title}\n", "| truth \\ label | " + " | ".join(cols) + " |",
           "|---|" + "---:|" * len(cols)]
    for t in rows:
        cnt = Counter(labels.get(c.case_id, "NOT-PARSED") for c in cases if c.label == t)
        out.append(f"| {t} | " + " | ".join(str(cnt.get(c, 0)) for c in cols) + " |")
    return "\n".join(out) + "\n"


def _corrected(cases: Sequence[dataset.Case], verdicts: dict[str, Verdict]) -> str:
    """MINOR cases labelled MINOR whose wrong field is named with the right value (any
    spelling of the right journal; for authors, the author field named)."""
    minor = [c for c in cases if c.label == "MINOR" and c.expected]
    right = 0
    for c in minor:
        v = verdicts.get(c.case_id)
        sug = (v.suggested or {}) if v is not None and v.label.value == "MINOR" else {}
        fld, want = next(iter(c.expected.items()))
        got = sug.get(fld, "")
        if fld == "author":
            right += v is not None and any(d.field == "author" for d in v.discrepancies)
        elif fld == "journal":
            from citecheck_tex.vocab.journals import same_journal

            right += bool(got) and same_journal(got, want)
        else:
            right += got.lower().replace("arxiv:", "") == want.lower()
    return f"{right}/{len(minor)}"


def report(name: str, cases: Sequence[dataset.Case], off: dict[str, str], on: dict[str, str],
           per_source: dict[str, int], seconds: float, online: dict[str, Verdict],
           offline: dict[str, Verdict] | None = None) -> str:
    """The comparison tables of one set."""
    n = len(cases)
    same = sum(off.get(c.case_id) == on.get(c.case_id) for c in cases)
    correct_major = [c.case_id for c in cases
                     if c.label == "EXACT" and on.get(c.case_id) == "MAJOR"]
    total = sum(per_source.values())
    arx = [c for c in cases if c.kind == "arxiv_wrong" and c.work.doi]
    lines = [f"## {name}: {n} references\n",
             _table("offline (world index, declared complete)", cases, off),
             _table("online (loopback services, published rate limits)", cases, on),
             f"- online labels equal offline labels: {same}/{n} = {100 * same / max(1, n):.1f}%",
             *([f"- wrong field named with the right value (author: named): offline "
                f"{_corrected(cases, offline)}, online {_corrected(cases, online)}; wrong "
                f"arXiv id beside a DOI: offline {_corrected(arx, offline)}, online "
                f"{_corrected(arx, online)}"] if offline is not None else []),
             f"- correct citations labelled MAJOR online: {len(correct_major)}"
             + (f" ({', '.join(correct_major[:10])})" if correct_major else ""),
             f"- HTTP requests: {total} = {total / max(1, n):.3f} per reference; per source: "
             + ", ".join(f"{k} {v} ({v / max(1, n):.3f}/ref)"
                         for k, v in sorted(per_source.items())),
             f"- wall time online: {seconds:.1f} s ({seconds / max(1, n):.3f} s/ref)"]
    asked: dict[str, Counter[str]] = {}
    for c in cases:
        v = online.get(c.case_id)
        if v is not None:
            key = f"{c.label} {c.kind}"
            asked.setdefault(key, Counter())["refs"] += 1
            for a in v.attempts:
                asked[key][a.source] += 1
    lines.append("- answers per reference by case kind (a batched request answers many): "
                 + "; ".join(f"{k} (n={cnt.pop('refs')}): " + ", ".join(
                     f"{s} {n}" for s, n in sorted(cnt.items())) for k, cnt in sorted(asked.items())))
    diffs = [c for c in cases if off.get(c.case_id) != on.get(c.case_id)]
    if diffs:
        lines.append("- disagreements (case, truth, offline -> online, online reason):")
        for c in diffs[:60]:
            v = online.get(c.case_id)
            lines.append(f"  - {c.case_id} {c.kind}/{c.style}: {c.label}, "
                         f"{off.get(c.case_id)} -> {on.get(c.case_id)}: "
                         f"{v.reason[:140] if v else ''}")
    return "\n".join(lines) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    """Run both checks on the mixed set, then on its correct third, and print the tables."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--per-class", type=int, default=300)
    ap.add_argument("--latency", type=float, default=0.05,
                    help="seconds every loopback answer is delayed")
    ap.add_argument("--skip-real", action="store_true", help="skip the all-real paper run")
    ap.add_argument("--only", default="", help="comma-separated case ids (debugging)")
    ap.add_argument("--explain", action="store_true",
                    help="print every online attempt of the disagreeing cases")
    args = ap.parse_args(argv)
    if not dataset.INSPIRE_DUMP.is_file():
        raise SystemExit(f"{dataset.INSPIRE_DUMP} not found (the shared corpus)")
    build_world()
    cases = dataset.build_cases(args.per_class)
    if args.only:
        keep = set(args.only.split(","))
        cases = [c for c in cases if c.case_id in keep]
    entries = parse("bib", dataset.render_bib(cases))
    from citecheck_tex.pipeline import check_entries

    t0 = time.perf_counter()
    off_v = check_entries(entries, offline_settings(WORLD))
    off_s = time.perf_counter() - t0
    off = {v.entry.key: v.label.value for v in off_v}
    world = World(load_hits())
    print(f"world: {len(world.recs)} records, {sum(r.in_inspire for r in world.recs)} known to "
          f"INSPIRE; offline check {off_s:.1f} s; latency {args.latency * 1000:.0f} ms\n")
    on_v, per_source, secs = run_online(entries, world, args.latency)
    on = {v.entry.key: v.label.value for v in on_v}
    print(report("Mixed set (1/3 correct, 1/3 one wrong field, 1/3 fabricated)", cases, off, on,
                 per_source, secs, {v.entry.key: v for v in on_v},
                 {v.entry.key: v for v in off_v}))
    if args.explain:
        for v in on_v:
            if off.get(v.entry.key) != v.label.value:
                print(f"\n{v.entry.key} {dict(v.entry.fields)}\n  {v.label.value}: {v.reason}")
                for a in v.attempts:
                    print(f"  - {a.source} {a.kind} {a.status.value} {a.message[:100]}")
                for d in v.discrepancies:
                    print(f"  ! {d.field}: cited {d.cited!r} found {d.found!r}")
    if not args.skip_real:
        real = [c for c in cases if c.label == "EXACT"]
        keys = {c.case_id for c in real}
        r_v, r_src, r_secs = run_online([e for e in entries if e.key in keys], world,
                                        args.latency)
        r_on = {v.entry.key: v.label.value for v in r_v}
        print(report("All-real paper (the correct third alone)", real, off, r_on, r_src,
                     r_secs, {v.entry.key: v for v in r_v}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
