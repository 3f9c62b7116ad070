"""The local index at scale: 15 thousand, 1 million and 10 million records.

    python -m bench.bench_scale                       # the 15k point (make bench)
    python -m bench.bench_scale --points 15k,1m       # + 1 million records
    python -m bench.bench_scale --points 10m --dir /tmp/citecheck-scale

Each point is an index of the real "world" records of the synthetic accuracy
benchmark (INSPIRE literature dump, arXiv snapshot, HEPML.bib: about 15,000
records, :func:`bench.accuracy.run_synthetic.build_world`) plus realistic
distractors made by :mod:`bench.gen_index_records` (fixed seed), up to the point's
size. For each point it reports:

* import: records/s wall clock (every core parses, see ``LocalIndex.add_file``)
  and records per CPU-second (all processes; the machine is shared, so the wall
  rate depends on the load), the file size and bytes per record;
* lookups: p50/p95 ms per query kind (arXiv id, DOI, journal reference, title with
  two typos, author+year), 200 of each built from the world records, and the hit
  rate (the expected record among the answers; first for titles);
* checking: 1,002 references (``dataset.build_cases(334)``, .bib) through
  ``pipeline.check_entries`` offline against the index in a fresh process, after a
  warm-up check of 4 of them (module imports and journal tables, about 1.5 s, are
  the same at every size): wall and CPU seconds, and that process's peak resident
  memory (memory-mapped index pages included); then macro-F1 of
  run_synthetic's validation split (.bib, ``build_cases(300)``) with the shipped
  thresholds, which must not drop as distractors are added.

Generated files and indexes go under ``--dir`` (default a temporary folder,
deleted afterwards unless ``--keep``); they are reused when present with ``--keep``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path

from bench import gen_index_records as gen
from bench import paths
from bench.bench_index import Probe, build_probes
from citecheck_tex.model import Record
from citecheck_tex.sources.importers import inspire_row
from citecheck_tex.sources.local_index import LocalIndex

SEED = 20261201
PER_KIND = 200
POINTS = {"15k": 0, "100k": 100_000, "1m": 1_000_000, "3m": 3_000_000, "10m": 10_000_000}
HEPML = paths.CORPUS / "bib" / "HEPML.bib"


def _cpu_s() -> tuple[float, float]:
    """CPU seconds of this process (the writer) and of its ended children (parsers)."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


def _index_bytes(path: Path) -> int:
    return sum(p.stat().st_size for p in path.parent.glob(path.name + "*"))


def build_index(folder: Path, size: int, jobs: int, keep: bool) -> dict[str, float]:
    """Generate (or reuse) the records and import them; timings and sizes."""
    source = folder / f"records-{size}-{SEED}.jsonl"
    index = folder / f"index-{size}.sqlite"
    stamp = folder / f"index-{size}.json"
    if keep and stamp.exists() and index.exists():
        return dict(json.loads(stamp.read_text()))  # built by an earlier --keep run
    gen_s = 0.0
    if not (keep and source.exists()):
        t0 = time.perf_counter()
        gen.generate(source, size, seed=SEED, world=True, jobs=jobs)
        gen_s = time.perf_counter() - t0
    for old in folder.glob(index.name + "*"):
        old.unlink()
    cpu0, t0 = _cpu_s(), time.perf_counter()
    idx = LocalIndex.open(index)
    records = 0
    try:
        for path in (source, HEPML):
            records += idx.add_file(path, jobs=jobs).records
    finally:
        idx.close()
    wall, cpu1 = time.perf_counter() - t0, _cpu_s()
    writer, parsers = cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]
    # The import hands its pages to the kernel, which writes gigabytes of them back
    # for a minute afterwards: the lookups and the check are timed on a machine that
    # has finished writing (right after a 10M import the check took 3.2 s; run alone
    # on the same index, 2.3-2.5 s)
    os.sync()
    size_b = _index_bytes(index)
    built = {"records": records, "gen_s": gen_s, "import_s": wall,
             "import_cpu_s": writer + parsers, "writer_cpu_s": writer,
             "parsers_cpu_s": parsers, "bytes": size_b, "index": str(index)}
    stamp.write_text(json.dumps(built))
    return built  # type: ignore[return-value]


def author_year_probes(rng: random.Random) -> list[Probe]:
    """Author+year lookups (first author's family name, year, journal) of world records."""
    lines = (paths.CORPUS / "dumps" / "inspire_literature.jsonl").open(encoding="utf-8")
    rows = [r for r in (inspire_row(json.loads(line)) for line in lines) if r is not None]
    usable = [r for r in rows if r.record.authors and r.record.year and r.record.venue]
    probes = []
    for r in rng.sample(usable, PER_KIND):
        rec = r.record
        call = partial(LocalIndex.by_author_year, authors=[p.family for p in rec.authors[:2]],
                       year=rec.year, journal=rec.venue, volume=rec.volume,
                       page=rec.pages.split("-")[0])
        probes.append(Probe("author_year", call, rec.id))
    return probes


def bench_lookups(index_path: Path) -> dict[str, tuple[float, float, float]]:
    """kind -> (p50 ms, p95 ms, hit rate) over the probes."""
    rng = random.Random(SEED)
    probes = build_probes(rng)
    per_kind: dict[str, list[Probe]] = {}
    for p in probes:
        per_kind.setdefault(p.kind, []).append(p)
    chosen = [p for ps in per_kind.values() for p in ps[:PER_KIND]] + author_year_probes(rng)
    rng.shuffle(chosen)
    times: dict[str, list[float]] = {}
    hits: dict[str, int] = {}
    with LocalIndex.open(index_path, create=False, readonly=True) as index:
        for probe in chosen[:50]:  # warm the page cache as a check run would
            probe.call(index)
        for probe in chosen:
            t0 = time.perf_counter()
            found: list[Record] = probe.call(index)
            times.setdefault(probe.kind, []).append((time.perf_counter() - t0) * 1000)
            ids = [r.id for r in found[:1]] if probe.kind == "title" else [r.id for r in found[:5]]
            hits[probe.kind] = hits.get(probe.kind, 0) + (probe.expected in ids)
    out = {}
    for kind, ms in times.items():
        q = statistics.quantiles(ms, n=20)
        out[kind] = (statistics.median(ms), q[18], hits[kind] / len(ms))
    return out


def _peak_mib() -> float:
    """This process's peak resident memory in MiB.

    Linux's ``ru_maxrss`` survives ``execve``: a child started by a big parent (this
    benchmark after an import holds a few hundred MiB) reports the parent's size at
    fork. ``VmHWM`` of ``/proc/self/status`` belongs to the new program's memory.
    """
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def check_in_child(index_path: Path) -> dict[str, float]:
    """Run :func:`check_main` in a fresh interpreter (its own peak memory)."""
    proc = subprocess.run([sys.executable, "-m", "bench.bench_scale", "--check", str(index_path)],
                          capture_output=True, text=True, check=True,
                          cwd=paths.REPO)
    return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


def check_main(index_path: Path) -> int:
    """Child: check 1,002 references, then the validation split; print JSON."""
    from bench.accuracy import dataset
    from bench.accuracy.metrics import macro_f1, pred_of
    from bench.accuracy.run_synthetic import offline_settings, run

    settings = offline_settings(index_path)
    speed_cases = dataset.build_cases(334)
    run(speed_cases[:4], "bib", settings)  # warm-up: modules, journal tables, index pages

    cpu0 = time.process_time()
    rows, seconds = run(speed_cases, "bib", settings)
    cpu = time.process_time() - cpu0
    peak = _peak_mib()
    val = [c for c in dataset.build_cases(300) if c.split == "validation"]
    val_rows, _ = run(val, "bib", settings)
    f1 = macro_f1([r.gold for r in val_rows], [pred_of(r, None) for r in val_rows])
    print(json.dumps({"refs": len(rows), "check_s": seconds, "check_cpu_s": cpu,
                      "peak_mib": peak,
                      "macro_f1": f1, "val_n": len(val_rows)}))
    return 0


def _fmt(kind: str, lookups: dict[str, tuple[float, float, float]]) -> str:
    p50, p95, hit = lookups.get(kind, (0.0, 0.0, 0.0))
    return f"{p50:.2f} / {p95:.2f} ({hit:.0%})"


def main(argv: list[str] | None = None) -> int:
    """Run the points and print the table."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--points", default="15k", help=f"comma-separated: {', '.join(POINTS)}")
    ap.add_argument("--dir", type=Path, default=None, help="where files go (default: temporary)")
    ap.add_argument("--keep", action="store_true",
                    help="keep generated files and indexes; reuse them when present (the "
                         "import figures are then those of the run that built the index)")
    ap.add_argument("--jobs", type=int, default=0, help="import processes (default: all cores)")
    ap.add_argument("--check", type=Path, help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.check:
        return check_main(args.check)
    if not paths.CORPUS.is_dir():
        print(f"corpus not found at {paths.CORPUS}", file=sys.stderr)
        return 2
    points = [p.strip() for p in args.points.split(",") if p.strip()]
    unknown = [p for p in points if p not in POINTS]
    if unknown:
        print(f"unknown point(s) {', '.join(unknown)}; valid: {', '.join(POINTS)}",
              file=sys.stderr)
        return 2
    jobs = args.jobs or os.cpu_count() or 1
    folder = args.dir or Path(tempfile.mkdtemp(prefix="citecheck-scale-"))
    folder.mkdir(parents=True, exist_ok=True)
    results: list[tuple[str, dict[str, float], dict[str, tuple[float, float, float]],
                        dict[str, float]]] = []
    try:
        for point in points:
            built = build_index(folder, POINTS[point], jobs, args.keep)
            index = Path(str(built["index"]))
            lookups = bench_lookups(index)
            checked = check_in_child(index)
            results.append((point, built, lookups, checked))
            print(f"# {point}: {json.dumps({**built, **checked})}", file=sys.stderr)
            if not args.keep:
                size = POINTS[point]
                for f in [*folder.glob(f"records-{size}-*"), *folder.glob(f"index-{size}.*")]:
                    f.unlink()
    finally:
        if not args.keep and args.dir is None:
            shutil.rmtree(folder, ignore_errors=True)
    print(f"## Local index at scale ({jobs} import processes, {os.cpu_count()} cores)\n")
    print("| records | import rec/s (wall) | rec per CPU-s | file MiB | bytes/record "
          "| arXiv p50/p95 ms (hit) | DOI | journal ref | title | author+year "
          "| check 1,002 refs: s wall (CPU) | peak MiB | macro-F1 (val) |")
    print("|---:|---:|---:|---:|---:|---|---|---|---|---|---:|---:|---:|")
    for _point, b, lk, c in results:
        print(f"| {int(b['records']):,} | {b['records'] / b['import_s']:,.0f} "
              f"| {b['records'] / b['import_cpu_s']:,.0f} | {b['bytes'] / 2**20:,.0f} "
              f"| {b['bytes'] / b['records']:,.0f} | {_fmt('arxiv', lk)} | {_fmt('doi', lk)} "
              f"| {_fmt('journal_ref', lk)} | {_fmt('title', lk)} | {_fmt('author_year', lk)} "
              f"| {c['check_s']:.2f} ({c.get('check_cpu_s', 0.0):.2f}) | {c['peak_mib']:.0f} "
              f"| {c['macro_f1']:.3f} |")
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
