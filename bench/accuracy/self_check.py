"""A .bib checked offline against an index built from that same .bib.

    python -m bench.accuracy.self_check [--show N] [FILE.bib ...]

Every entry's own record is in the index, built by the same importer a user runs
(``citecheck-tex index add``): the index holds what the ``.bib`` reader sees, so
every entry must come out EXACT. Anything else is a tool error (the importer and
the frontend decoding or splitting a field differently: ``Rom\\~{a}o``, ``1\\%``,
``Jr.``, particles ...) unless the entry itself is broken; each one is listed
with its reason. Default files: ``HEPML.bib``, ``lsst_refs_ads.bib`` and
``lsst_refs.bib`` of the shared corpus (``<repo>/../shared``, else
``/work/shared``). Shipped defaults; the index is declared complete.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

from bench.paths import CORPUS, SHARED
from citecheck_tex.config import Settings
from citecheck_tex.model import Label
from citecheck_tex.pipeline import check_entries
from citecheck_tex.sources.local_index import LocalIndex
from citecheck_tex.tex.bib import parse_bib_text

DEFAULT_FILES = tuple(CORPUS / "bib" / name
                      for name in ("HEPML.bib", "lsst_refs_ads.bib", "lsst_refs.bib"))


def self_check(bib: Path, index_dir: Path) -> tuple[Counter[str], list[str], float]:
    """Label counts of ``bib`` checked against an index of itself, the non-EXACT
    lines, and the seconds the check took."""
    index_path = index_dir / f"{bib.stem}.sqlite"
    idx = LocalIndex.open(index_path)
    try:
        idx.add_file(bib)
    finally:
        idx.close()
    entries, _ = parse_bib_text(bib.read_text(encoding="utf-8", errors="replace"), bib.name)
    settings = replace(Settings(), offline=True, index_path=str(index_path), cache_path="none",
                       index_complete=True, sources=("local",))
    t0 = time.perf_counter()
    verdicts = check_entries(entries, settings)
    seconds = time.perf_counter() - t0
    counts: Counter[str] = Counter(v.label.value for v in verdicts)
    odd = [f"  {v.entry.key} ({bib.name}:{v.entry.line}) -> {v.label.value}: {v.reason}"
           for v in verdicts if v.label is not Label.EXACT]
    return counts, odd, seconds


def main(argv: list[str] | None = None) -> int:
    """Run the self-check on the given (or default) files and print a table."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--show", type=int, default=30, help="non-EXACT entries listed per file")
    args = ap.parse_args(argv)
    files = args.files or [p for p in DEFAULT_FILES if p.exists()]
    if not files:
        print(f"no .bib files: the shared corpus is not at {SHARED}")
        return 1
    labels = [label.value for label in Label]
    print("## .bib checked against an index built from itself (offline, shipped defaults)\n")
    print("| file | entries | " + " | ".join(labels) + " |")
    print("|---|---:|" + "---:|" * len(labels))
    details: list[str] = []
    with tempfile.TemporaryDirectory(prefix="citecheck-selfcheck-") as tmp:
        for bib in files:
            counts, odd, seconds = self_check(bib, Path(tmp))
            total = sum(counts.values())
            print(f"| {bib.name} | {total} | "
                  + " | ".join(str(counts.get(label, 0)) for label in labels) + " |")
            if odd:
                details.append(f"\n{bib.name}: {len(odd)} not EXACT ({seconds:.1f} s)")
                details.extend(odd[:args.show])
                if len(odd) > args.show:
                    details.append(f"  ... and {len(odd) - args.show} more")
    print("\n".join(details))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
