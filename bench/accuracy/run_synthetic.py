"""Synthetic HEP benchmark: .bib and revtex .bbl renderings through the real pipeline.

    python -m bench.accuracy.run_synthetic [--per-class 300] [--write-thresholds]

Builds (or reuses) the world index from the shared corpus, renders the cases
of :mod:`bench.accuracy.dataset`, parses them with the frontend parsers, checks
them offline with :func:`citecheck_tex.pipeline.check_entries`, calibrates
(tau_minor, tau_exact) on the dev split of the .bib rendering only (written to
``citecheck_tex/data/thresholds.json`` with ``--write-thresholds``: that is where
the shipped defaults come from), and reports the validation split with the
shipped defaults, as every benchmark does.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path

from bench.accuracy import dataset
from bench.accuracy.metrics import Row, calibrate, report
from bench.paths import code_stamp
from citecheck_tex.config import Settings
from citecheck_tex.model import Entry

CACHE_DIR = Path(__file__).resolve().parent.parent / "_work" / "accuracy"
WORLD = CACHE_DIR / "world.sqlite"
THRESHOLDS = Path(__file__).resolve().parents[2] / "citecheck_tex" / "data" / "thresholds.json"


def build_world(path: Path = WORLD) -> float:
    """Import the INSPIRE dump, the arXiv snapshot and HEPML.bib; returns seconds (0 if cached)."""
    from citecheck_tex.sources.local_index import LocalIndex

    sources = (dataset.INSPIRE_DUMP, dataset.ARXIV_DUMP, dataset.HEPML)
    stamp = path.with_suffix(".stamp")
    from citecheck_tex.sources.local_index import SCHEMA_VERSION

    want = json.dumps([str(p) for p in sources] + [f"schema {SCHEMA_VERSION}",
                                                   f"code {code_stamp()}"])
    if path.exists() and stamp.exists() and stamp.read_text() == want:
        return 0.0
    path.parent.mkdir(parents=True, exist_ok=True)
    if path.exists():
        path.unlink()
    t0 = time.perf_counter()
    idx = LocalIndex.open(path)
    try:
        for p in sources:
            idx.add_file(p)
    finally:
        idx.close()
    stamp.write_text(want)
    return time.perf_counter() - t0


def offline_settings(index: Path, **kw: float) -> Settings:
    """Settings of an offline run against ``index``, without cache."""
    return replace(Settings(), offline=True, index_path=str(index), cache_path="none",
                   index_complete=True,  # the world index holds every cited work
                   sources=("local",), **kw)  # type: ignore[arg-type]


def parse(kind: str, text: str) -> list[Entry]:
    """Parse a rendered benchmark file with the frontend parser of ``kind``."""
    if kind == "bib":
        from citecheck_tex.tex.bib import parse_bib_text

        entries, _ = parse_bib_text(text, "bench.bib")
    else:
        from citecheck_tex.tex.bbl import parse_bbl_text

        entries, _ = parse_bbl_text(text, "bench.bbl")
    return list(entries)


def run(cases: list[dataset.Case], kind: str, settings: Settings) -> tuple[list[Row], float]:
    """Render, parse and check ``cases``; rows aligned by key, and seconds for the check."""
    from citecheck_tex.pipeline import check_entries

    text = dataset.render_bib(cases) if kind == "bib" else dataset.render_bbl(cases)
    entries = parse(kind, text)
    t0 = time.perf_counter()
    verdicts = check_entries(entries, settings)
    seconds = time.perf_counter() - t0
    by_key = {v.entry.key: v for v in verdicts}
    rows = []
    for c in cases:
        v = by_key.get(c.case_id)
        if v is None:
            print(f"warning: {kind}: case {c.case_id} was not parsed", file=sys.stderr)
            continue
        rows.append(Row(c.case_id, c.split, c.label, c.kind, v, c.expected, c.style))
    return rows, seconds


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print the tables."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--per-class", type=int, default=300)
    ap.add_argument("--write-thresholds", action="store_true")
    args = ap.parse_args(argv)
    secs = build_world()
    print(f"world index: {WORLD} ({f'built in {secs:.1f} s' if secs else 'cached'})")
    cases = dataset.build_cases(args.per_class)
    dev = [c for c in cases if c.split == "dev"]
    val = [c for c in cases if c.split == "validation"]
    base = offline_settings(WORLD)
    dev_rows, _ = run(dev, "bib", base)
    best, tm, te = calibrate(dev_rows)
    print(f"calibrated on dev (.bib, n={len(dev_rows)}): tau_minor={tm} tau_exact={te} "
          f"(dev macro-F1 {best:.3f})\n")
    if args.write_thresholds:
        THRESHOLDS.write_text(json.dumps({
            "tau_minor": tm, "tau_exact": te,
            "benchmark": "bench/accuracy synthetic HEP benchmark (dataset.SEED="
                         f"{dataset.SEED}, per_class={args.per_class})",
            "split": "dev", "input": ".bib", "dev_macro_f1": round(best, 4),
            "command": "python -m bench.accuracy.run_synthetic --write-thresholds",
        }, indent=2) + "\n")
        print(f"wrote {THRESHOLDS}")
    shipped = offline_settings(WORLD)
    if args.write_thresholds:
        shipped = offline_settings(WORLD, tau_minor=tm, tau_exact=te)
    for kind in ("bib", "bbl"):
        rows, seconds = run(val, kind, shipped)
        print(report(f"Synthetic HEP benchmark, validation split, .{kind} input (shipped "
                     f"defaults tau_minor={shipped.tau_minor:g}, tau_exact="
                     f"{shipped.tau_exact:g})", rows, None, seconds))
    speed_cases = dataset.build_cases(334)
    rows, seconds = run(speed_cases, "bib", shipped)
    print(f"### Speed\n\n{len(rows)} references (.bib, offline, world index): "
          f"{seconds:.2f} s for pipeline.check_entries (target < 10 s)\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
