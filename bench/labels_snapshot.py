"""Per-reference labels of the sample papers and the quick offline benchmarks, as JSONL.

    python -m bench.labels_snapshot OUT.jsonl [--sets samples,synthetic,real_judged,...]
    python -m bench.labels_snapshot OUT.jsonl --compare BEFORE.jsonl

A refactoring that must not change behaviour (issue #11) is shown to keep every verdict:
write a snapshot before the change, one after, and compare them. Each line is one
verdict: the set it came from, the call's number within the set, the reference key,
label, score, confidence, reason code, matched record id and discrepancy codes.

The verdicts are collected where every benchmark gets them, at the pipeline's public
entry points (``check_project``, ``check_entries``, ``check_entries_async``: only the
outermost call counts); the benchmarks themselves run unchanged (their tables go to
stderr). ``--compare`` prints the differences and exits 1 when there are any.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import json
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from citecheck_tex import pipeline
from citecheck_tex.model import Verdict

ROOT = Path(__file__).resolve().parents[1]
SETS = ("samples", "synthetic", "real_judged", "citecheck_paper", "online_vs_offline")


class Recorder:
    """Collects the verdicts of the outermost pipeline calls, by set."""

    def __init__(self) -> None:
        self.rows: list[dict[str, Any]] = []
        self.set = ""
        self.calls = 0
        self.depth = 0

    def add(self, verdicts: Sequence[Verdict]) -> None:
        """Record one call's verdicts."""
        self.calls += 1
        for v in verdicts:
            self.rows.append({
                "set": self.set, "call": self.calls, "key": v.entry.key,
                "label": v.label.value, "score": round(v.score, 6),
                "confidence": round(v.confidence, 6), "code": v.code.value,
                "match": v.match.id if v.match else "",
                "discrepancies": [[d.field, d.code.value] for d in v.discrepancies],
            })

    @contextlib.contextmanager
    def outer(self) -> Iterator[bool]:
        """True for the outermost call (the one whose verdicts are recorded)."""
        self.depth += 1
        try:
            yield self.depth == 1
        finally:
            self.depth -= 1


def install(rec: Recorder) -> None:
    """Wrap the pipeline's public entry points (before any benchmark imports them)."""
    check_project = pipeline.check_project
    check_entries = pipeline.check_entries
    check_entries_async = pipeline.check_entries_async

    @functools.wraps(check_project)
    def project(*a: Any, **kw: Any) -> Any:
        with rec.outer() as first:
            out = check_project(*a, **kw)
            if first:
                rec.add(out.result.verdicts)
            return out

    @functools.wraps(check_entries)
    def entries(*a: Any, **kw: Any) -> Any:
        with rec.outer() as first:
            out = check_entries(*a, **kw)
            if first:
                rec.add(out)
            return out

    @functools.wraps(check_entries_async)
    async def entries_async(*a: Any, **kw: Any) -> Any:
        with rec.outer() as first:
            out = await check_entries_async(*a, **kw)
            if first:
                rec.add(out[0])
            return out

    pipeline.check_project = project
    pipeline.check_entries = entries
    pipeline.check_entries_async = entries_async


def run_samples() -> None:
    """Check every sample paper offline against its bundled index (as ``make demo``)."""
    from citecheck_tex.commands import check
    from citecheck_tex.config import load_settings
    from citecheck_tex.sources.local_index import import_files

    with tempfile.TemporaryDirectory() as tmp:
        index = Path(tmp) / "index.sqlite"
        import_files(index, sorted((ROOT / "sample_papers").glob("*/index_records*")))
        for paper in sorted((ROOT / "sample_papers").glob("*/paper.tex")):
            folder = Path(tmp) / paper.parent.name
            shutil.copytree(paper.parent, folder,
                            ignore=shutil.ignore_patterns("citecheck-report"))
            settings = load_settings(folder, {
                "offline": True, "index_path": str(index), "cache_path": "none",
                "out_dir": str(Path(tmp) / "out" / folder.name), "formats": "json"})
            check.run(folder / "paper.tex", settings)


def _bench(module: str) -> Callable[[], None]:
    def run() -> None:
        import importlib

        main = importlib.import_module(module).main
        main([])
    return run


RUNNERS: dict[str, Callable[[], None]] = {
    "samples": run_samples,
    "synthetic": _bench("bench.accuracy.run_synthetic"),
    "real_judged": _bench("bench.accuracy.real_judged"),
    "citecheck_paper": _bench("bench.accuracy.citecheck_paper"),
    # the HTTP path: every online source against a loopback world (about 90 s)
    "online_vs_offline": _bench("bench.accuracy.online_vs_offline"),
}


def compare(before: Path, after: Path) -> int:
    """Print the verdicts that differ between two snapshots; 1 when any does."""
    def load(p: Path) -> dict[tuple[str, int, str], dict[str, Any]]:
        rows = [json.loads(line) for line in p.read_text(encoding="utf-8").splitlines() if line]
        return {(r["set"], r["call"], r["key"]): r for r in rows}

    old, new = load(before), load(after)
    diffs = 0
    for k in sorted(old.keys() | new.keys()):
        if old.get(k) != new.get(k):
            diffs += 1
            if diffs <= 50:
                print(f"{k}:\n  before {old.get(k)}\n  after  {new.get(k)}")
    sets = sorted({k[0] for k in old} | {k[0] for k in new})
    for s in sets:
        print(f"{s}: {sum(1 for k in old if k[0] == s)} verdicts before, "
              f"{sum(1 for k in new if k[0] == s)} after")
    print(f"{diffs} verdicts differ" if diffs else "identical: every verdict is the same")
    return 1 if diffs else 0


def main(argv: list[str] | None = None) -> int:
    """Write the snapshot (and compare it with an earlier one)."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", type=Path)
    ap.add_argument("--sets", default=",".join(SETS),
                    help=f"comma-separated, of {', '.join(SETS)}")
    ap.add_argument("--compare", type=Path, metavar="BEFORE")
    args = ap.parse_args(argv)
    chosen = [s.strip() for s in args.sets.split(",") if s.strip()]
    unknown = [s for s in chosen if s not in RUNNERS]
    if unknown:
        ap.error(f"unknown set(s) {', '.join(unknown)}; valid: {', '.join(SETS)}")
    rec = Recorder()
    install(rec)
    for name in chosen:
        rec.set, rec.calls = name, 0
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            RUNNERS[name]()
        sys.stderr.write(out.getvalue())
        print(f"{name}: {sum(1 for r in rec.rows if r['set'] == name)} verdicts", file=sys.stderr)
    args.out.write_text("".join(json.dumps(r, sort_keys=True) + "\n" for r in rec.rows),
                        encoding="utf-8")
    print(f"wrote {len(rec.rows)} verdicts to {args.out}")
    return compare(args.compare, args.out) if args.compare else 0


if __name__ == "__main__":
    raise SystemExit(main())
