"""Speed of the local index: importing the real corpus, then 1,000 lookups.

Run: ``python -m bench.bench_index``. (1) imports ../shared/corpus/dumps/inspire_literature.jsonl,
dumps/arxiv_metadata_snapshot.jsonl and bib/*.bib into a temporary index and reports
records/s, the index size and peak memory (resident set size, ``resource.getrusage``); (2) runs 1,000
lookups built from the same corpus with a fixed seed (DOI, arXiv id with a version,
journal reference in a different spelling, title with typos) and reports p50/p95 latency
per kind (target p95 under 5 ms) and the hit rate (the expected record is among the first
five answers; for titles, first).
Prints markdown tables.
"""

from __future__ import annotations

import json
import random
import resource
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from bench import paths
from citecheck_tex.model import Record
from citecheck_tex.sources.importers import inspire_row, normalize_arxiv
from citecheck_tex.sources.local_index import LocalIndex
from citecheck_tex.vocab.journals import journal_display

CORPUS = paths.CORPUS
SEED = 20261129
PER_KIND = 250


def _rss_mib() -> float:
    # ru_maxrss is in KiB on Linux.
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def corpus_files() -> list[Path]:
    """The files of the shared corpus the benchmark imports."""
    return [CORPUS / "dumps" / "inspire_literature.jsonl",
            CORPUS / "dumps" / "arxiv_metadata_snapshot.jsonl",
            *sorted((CORPUS / "bib").glob("*.bib"))]


def bench_import(index: LocalIndex) -> None:
    """Import the corpus and print one row per file."""
    print("## Import of the shared corpus\n")
    print("| file | format | records | bad | seconds | records/s |")
    print("|---|---|---:|---:|---:|---:|")
    rss0 = _rss_mib()
    total, t_all = 0, time.perf_counter()
    for path in corpus_files():
        s = index.add_file(path)
        total += s.records
        rate = s.records / s.elapsed_s if s.elapsed_s else 0.0
        print(f"| {path.name} | {s.format} | {s.records} | {s.bad} | {s.elapsed_s:.2f} "
              f"| {rate:,.0f} |")
    elapsed = time.perf_counter() - t_all
    print(f"| **all** | | {total} | | {elapsed:.2f} | {total / elapsed:,.0f} |")
    size = sum(p.stat().st_size for p in index.path.parent.glob(index.path.name + "*"))
    print(f"\nIndex size: {size / 2**20:.1f} MiB (database and write-ahead log).")
    print(f"Peak resident memory: {_rss_mib():.0f} MiB "
          f"(before the import: {rss0:.0f} MiB).\n")


def _typo(title: str, rng: random.Random, edits: int = 2) -> str:
    chars = list(title)
    for _ in range(edits):
        letters = [i for i, c in enumerate(chars) if c.isalpha()]
        if len(letters) < 10:
            break
        i = rng.choice(letters)
        op = rng.choice(("drop", "swap", "sub"))
        if op == "drop":
            del chars[i]
        elif op == "swap" and i + 1 < len(chars):
            chars[i], chars[i + 1] = chars[i + 1], chars[i]
        else:
            chars[i] = rng.choice("aeioustnr")
    return "".join(chars)


@dataclass(frozen=True, slots=True)
class Probe:
    """One benchmark lookup and the record id expected first."""

    kind: str
    call: Callable[[LocalIndex], list[Record]]
    expected: str


def build_probes(rng: random.Random) -> list[Probe]:
    """1,000 lookups from the INSPIRE and arXiv dumps (fixed seed)."""
    inspire = [inspire_row(json.loads(line)) for line in
               (CORPUS / "dumps" / "inspire_literature.jsonl").open(encoding="utf-8")]
    rows = [r for r in inspire if r is not None]
    arxiv = [json.loads(line) for line in
             (CORPUS / "dumps" / "arxiv_metadata_snapshot.jsonl").open(encoding="utf-8")]
    probes: list[Probe] = []
    with_doi = [r for r in rows if r.dois]
    for r in rng.sample(with_doi, PER_KIND):
        doi = rng.choice([r.record.doi, r.record.doi.upper(), "https://doi.org/" + r.record.doi])
        probes.append(Probe("doi", partial(LocalIndex.by_doi, doi=doi), r.record.id))
    for a in rng.sample(arxiv, PER_KIND):
        ident = a["id"] + rng.choice(("", "v1", "v2")) if rng.random() < 0.5 else "arXiv:" + a["id"]
        probes.append(Probe("arxiv", partial(LocalIndex.by_arxiv, arxiv_id=ident),
                            "arxiv:" + normalize_arxiv(a["id"])))
    with_ref = [r for r in rows if r.record.venue and r.record.volume and r.record.pages]
    for r in rng.sample(with_ref, PER_KIND):
        rec = r.record
        journal = rng.choice((rec.venue, journal_display(rec.venue)))
        page = rec.pages.split("-")[0]
        probes.append(Probe("journal_ref", partial(LocalIndex.by_journal_ref, journal=journal,
                                                   volume=rec.volume, page=page), rec.id))
    titled = [r for r in rows if len(r.record.title) > 30]
    for r in rng.sample(titled, PER_KIND):
        typo = _typo(r.record.title, rng)
        surnames = tuple(p.family for p in r.record.authors[:3])
        probes.append(Probe("title", partial(LocalIndex.search_title, title=typo,
                                             authors=surnames, year=r.record.year),
                            r.record.id))
    rng.shuffle(probes)
    return probes


def bench_lookups(index: LocalIndex) -> None:
    """Run the probes and print latency and hit rate per kind."""
    probes = build_probes(random.Random(SEED))
    times: dict[str, list[float]] = {}
    hits: dict[str, int] = {}
    for probe in probes:
        t0 = time.perf_counter()
        found = probe.call(index)
        times.setdefault(probe.kind, []).append((time.perf_counter() - t0) * 1000)
        # Identifiers: the expected record is among the answers (another dump's record
        # of the same work may come first); titles: it comes first.
        ids = [r.id for r in found[:5]] if probe.kind != "title" else [r.id for r in found[:1]]
        hits[probe.kind] = hits.get(probe.kind, 0) + (probe.expected in ids)
    print(f"## {len(probes)} lookups (seed {SEED})\n")
    print("| kind | lookups | p50 ms | p95 ms | max ms | hit rate | p95 < 5 ms |")
    print("|---|---:|---:|---:|---:|---:|---|")
    for kind, ms in times.items():
        q = statistics.quantiles(ms, n=20)
        print(f"| {kind} | {len(ms)} | {statistics.median(ms):.3f} | {q[18]:.3f} | "
              f"{max(ms):.3f} | {hits[kind] / len(ms):.1%} | {'yes' if q[18] < 5 else 'NO'} |")
    print()


def main() -> int:
    """Build a temporary index from the corpus, then time the lookups."""
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        index = LocalIndex.open(Path(tmp) / "bench-index.sqlite")
        try:
            bench_import(index)
            bench_lookups(index)
        finally:
            index.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
