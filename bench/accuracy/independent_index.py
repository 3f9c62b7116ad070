"""The record index of the independent benchmark: only what real APIs returned.

Every record comes from a recorded real API payload in ``/work/shared/fixtures/api``
(see its PROVENANCE.md), plus the "correct" metadata of refchecker's regression refs
(the truth record refchecker verified for each error entry):

* Crossref works (``crossref.jsonl`` envelopes of ``work``/``work-list`` answers,
  ``crossref_payloads.jsonl`` items/messages) and OpenAlex works are written as JSON
  lines in the shapes the product importer reads (:mod:`citecheck_tex.sources.importers`).
* INSPIRE search hits and records: the recorded bodies, as JSON lines.
* Semantic Scholar papers (any object with ``paperId`` inside a recorded body: search,
  match, batch, by id, and the citing papers of citation answers), DBLP hits and arXiv
  Atom feeds are turned into :class:`~citecheck_tex.model.Record` by the adapters' own
  ``parse_paper`` / ``parse_hit`` / ``parse_feed``, then serialised as BibTeX and imported
  as a trusted library (the importer has no S2/DBLP/Atom format). BibTeX keeps title,
  authors, year, venue, volume, pages, DOI and arXiv id; other years, other
  publications (the arXiv journal-ref) and venue aliases become sibling entries of the
  same work, which the policy merges back (:func:`record_to_bibtex_family`).
* refchecker's regression refs: ``ref_title`` + ``ref_authors_correct`` + the "actual"
  year/venue of ``error_details`` (the cited value where no mismatch is stated), as BibTeX.

Nothing of HALLMARK (not even its VALID entries) is imported.
"""

from __future__ import annotations

import hashlib
import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bench.paths import SHARED
from citecheck_tex.model import Person, Record

logger = logging.getLogger(__name__)

API = SHARED / "fixtures" / "api"
REGRESSION = SHARED / "benchmarks" / "refchecker" / "hallucination_regression_refs.json"

_YEAR_FIX = re.compile(r"Year mismatch: cited (\S+) actual (\S+)")
_VENUE_FIX = re.compile(r"Venue mismatch: cited (.+?) actual (.+)")
_ARXIV_URL = re.compile(r"arxiv\.org/abs/([^\s/?#]+(?:/\d{7})?)", re.IGNORECASE)


@dataclass(frozen=True, slots=True)
class BuildReport:
    """What went into the index: staged files and their import outcome."""

    rows: tuple[tuple[str, str, int, int, int], ...]  # file, format, payload objects, records, bad
    records: int
    by_source: dict[str, int]


def _lines(name: str) -> Iterator[dict[str, Any]]:
    with (API / name).open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def _bib_text(value: str) -> str:
    """A field value safe inside BibTeX braces (no markup: API text is plain Unicode)."""
    return " ".join(value.replace("{", "").replace("}", "").replace("\\", "").split())


def _bib_person(p: Person) -> str:
    if p.literal or not p.family:
        return "{" + _bib_text(p.family or p.given) + "}"
    family = _bib_text(f"{p.von} {p.family}".strip())
    parts = [family]
    if p.jr:
        parts.append(_bib_text(p.jr))
    if p.given:
        parts.append(_bib_text(p.given))
    elif p.jr:
        parts.append("")
    return ", ".join(parts)


def record_to_bibtex(rec: Record, key: str) -> str:
    """One BibTeX entry carrying the fields of ``rec`` that BibTeX can hold."""
    etype = rec.entry_type if rec.entry_type in (
        "article", "inproceedings", "book", "incollection", "phdthesis", "techreport",
        "proceedings") else ("article" if rec.venue else "misc")
    venue_field = "booktitle" if etype in ("inproceedings", "incollection") else "journal"
    fields = [("title", rec.title),
              ("author", " and ".join(_bib_person(p) for p in rec.authors)
               + (" and others" if rec.authors_truncated and rec.authors else "")),
              ("year", rec.year), (venue_field, rec.venue), ("volume", rec.volume),
              ("pages", rec.pages), ("doi", rec.doi)]
    if rec.arxiv:
        fields += [("eprint", rec.arxiv), ("archiveprefix", "arXiv")]
    body = ",\n".join(f"  {k} = {{{v if k == 'author' else _bib_text(v)}}}"
                      for k, v in fields if v)
    return f"@{etype}{{{key},\n{body}\n}}\n"


def record_to_bibtex_family(rec: Record, key: str) -> str:
    """``rec`` as BibTeX plus one sibling entry per thing BibTeX cannot hold.

    A sibling is the same work (same title, authors and identifiers) with one other
    year (``other_years``), another publication (``extra_pubs``: venue, volume,
    pages, year) or another venue name (``venue_aliases``). The product's policy
    merges records of one work (``verify.policy._merge``), so the merged candidate
    carries these alternates as the adapter's Record did.
    """
    out = [record_to_bibtex(rec, key)]
    out += [record_to_bibtex(replace(rec, year=y), f"{key}-y{i}")
            for i, y in enumerate(rec.other_years) if y and y != rec.year]
    out += [record_to_bibtex(replace(rec, venue=v, volume=vol, pages=pg, year=y or rec.year,
                                     entry_type="article"), f"{key}-p{i}")
            for i, (v, vol, pg, y) in enumerate(rec.extra_pubs) if v]
    out += [record_to_bibtex(replace(rec, venue=a), f"{key}-a{i}")
            for i, a in enumerate(rec.venue_aliases) if a and a != rec.venue]
    return "".join(out)


def _richness(rec: Record) -> int:
    return sum(bool(x) for x in (rec.title, rec.authors, rec.year, rec.venue, rec.volume,
                                 rec.pages, rec.doi, rec.arxiv))


def _s2_papers(obj: Any) -> Iterator[dict[str, Any]]:
    """Every Semantic Scholar paper object inside a recorded body."""
    if isinstance(obj, dict):
        if "paperId" in obj and obj.get("title"):
            yield obj
        for v in obj.values():
            if isinstance(v, (dict, list)):
                yield from _s2_papers(v)
    elif isinstance(obj, list):
        for v in obj:
            yield from _s2_papers(v)


def adapter_records() -> dict[str, list[Record]]:
    """S2, DBLP and arXiv payloads as Records, parsed by the product's adapters."""
    from citecheck_tex.sources.arxiv import parse_feed
    from citecheck_tex.sources.dblp import parse_hit
    from citecheck_tex.sources.semanticscholar import parse_paper

    out: dict[str, list[Record]] = {"semanticscholar": [], "dblp": [], "arxiv": []}
    for name in ("semantic_scholar.jsonl", "semantic_scholar_payloads.jsonl"):
        for ex in _lines(name):
            if ex.get("status") not in (None, 200):
                continue
            out["semanticscholar"] += [parse_paper(p) for p in _s2_papers(ex.get("body_json"))]
    for ex in _lines("dblp_payloads.jsonl"):
        hits = ex.get("body_json")
        for hit in hits if isinstance(hits, list) else [hits]:
            if isinstance(hit, dict) and isinstance(hit.get("info"), dict):
                out["dblp"].append(parse_hit(hit))
    for ex in _lines("arxiv.jsonl"):
        if ex.get("status") == 200 and ex.get("body_text"):
            records, _errors = parse_feed(ex["body_text"])
            out["arxiv"] += records
    return out


def _dedupe(records: list[Record]) -> list[Record]:
    best: dict[str, Record] = {}
    for r in records:
        k = r.id or r.doi or r.title.lower()
        if k not in best or _richness(r) > _richness(best[k]):
            best[k] = r
    return list(best.values())


def _regression_truth() -> list[tuple[str, Record]]:
    """(case id, truth record) of every regression ref that names a verified record."""
    from citecheck_tex.sources.base import person_from_name

    out = []
    for case in json.loads(REGRESSION.read_text(encoding="utf-8")):
        e = case["error_entry"]
        if not e.get("ref_verified_url"):
            continue  # "could not be verified by any source": no truth record exists
        details = e.get("error_details", "")
        ym = _YEAR_FIX.search(details)
        vm = _VENUE_FIX.search(details)
        authors = e.get("ref_authors_correct") or e.get("ref_authors_cited", "")
        am = _ARXIV_URL.search(e["ref_verified_url"])
        venue = vm.group(2).strip() if vm else e.get("ref_venue_cited", "")
        out.append((case["id"], Record(
            source="refchecker", id=case["id"], url=e["ref_verified_url"],
            title=e["ref_title"],
            authors=tuple(person_from_name(a.strip()) for a in authors.split(",")
                          if a.strip()),
            year=ym.group(2) if ym else str(e.get("ref_year_cited", "")),
            venue="" if venue.lower().startswith("arxiv") else venue,
            arxiv=am.group(1) if am else "",
            entry_type="article")))
    return out


def stage(work: Path) -> list[tuple[Path, int]]:
    """Write the files to import into ``work``; (file, payload objects) each."""
    work.mkdir(parents=True, exist_ok=True)
    staged: list[tuple[Path, int]] = []

    def write_jsonl(name: str, objs: list[Any]) -> None:
        path = work / name
        path.write_text("".join(json.dumps(o, ensure_ascii=False) + "\n" for o in objs),
                        encoding="utf-8")
        staged.append((path, len(objs)))

    crossref: list[Any] = []
    for ex in _lines("crossref.jsonl"):
        body = ex.get("body_json")
        if ex.get("status") == 200 and isinstance(body, dict) \
                and body.get("message-type") in ("work", "work-list"):
            crossref.append(body)
    for ex in _lines("crossref_payloads.jsonl"):
        body = ex.get("body_json")
        if isinstance(body, list):
            crossref.append({"message": {"items": [b for b in body if isinstance(b, dict)]}})
        elif isinstance(body, dict):
            crossref.append(body if isinstance(body.get("message"), dict)
                            else {"message": body})
    write_jsonl("crossref.jsonl", crossref)

    openalex: list[Any] = []
    for ex in _lines("openalex_payloads.jsonl"):
        body = ex.get("body_json")
        openalex += [w for w in (body if isinstance(body, list) else [body])
                     if isinstance(w, dict)]
    write_jsonl("openalex.jsonl", openalex)

    inspire = [ex["body_json"] for ex in _lines("inspire.jsonl")
               if ex.get("status") in (200, 201) and isinstance(ex.get("body_json"), dict)]
    write_jsonl("inspire.jsonl", inspire)

    for source, records in adapter_records().items():
        unique = _dedupe(records)
        text = "".join(record_to_bibtex_family(
            r, f"{source}-{hashlib.sha1((r.id or r.title).encode()).hexdigest()[:12]}")
            for r in unique)
        path = work / f"{source}.bib"
        path.write_text(text, encoding="utf-8")
        staged.append((path, len(records)))

    truth = _regression_truth()
    path = work / "refchecker_truth.bib"
    path.write_text("".join(record_to_bibtex(r, f"truth-{cid}") for cid, r in truth),
                    encoding="utf-8")
    staged.append((path, len(truth)))
    return staged


def build(index: Path, work: Path) -> BuildReport:
    """Build the index at ``index`` from scratch with the product's importer."""
    from citecheck_tex.sources.local_index import LocalIndex

    for p in (index, index.with_name(index.name + "-wal"), index.with_name(index.name + "-shm")):
        if p.exists():
            p.unlink()
    rows = []
    idx = LocalIndex.open(index, create=True)
    try:
        for path, objs in stage(work):
            st = idx.add_file(path)
            rows.append((path.name, st.format, objs, st.records, st.bad))
        stats = idx.stats()
    finally:
        idx.close()
    return BuildReport(tuple(rows), stats.records, dict(stats.by_source))
