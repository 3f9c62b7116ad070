"""Import speed of the local index, with the CPU split between parsers and writer.

    python -m bench.bench_import FILE[,FILE...] --index /tmp/imp/i.sqlite [--jobs 2]

Imports the files (comma-separated) into a fresh index at ``--index`` (deleted first)
with ``LocalIndex.add_file(path, jobs=JOBS)``, as ``bench.bench_scale`` does, and
prints records/s wall clock and CPU microseconds per record: the parsing processes
(children), the writer (this process) and, within the writer, the streaming writes
(``_write``), the merge of the staged keys at the end (``_merge_staged``) and the
title-word refresh, and the wall seconds of those last two (the parsers have finished
by then: what they take is not spread over the cores). On a shared machine the wall
rate depends on the load (printed); the CPU figures much less. To compare with other
code, run the same command from a checkout of that code, or with ``PYTHONPATH``
pointing at a copy of its ``citecheck_tex`` package from a directory that holds none
(``python -m`` puts the current directory before ``PYTHONPATH``: run from a checkout,
the checkout's package is the one measured).
"""

from __future__ import annotations

import argparse
import collections
import functools
import os
import resource
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from citecheck_tex.sources import local_index as li


def _cpu() -> tuple[float, float]:
    own = resource.getrusage(resource.RUSAGE_SELF)
    kids = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


def _timed(acc: collections.Counter[str], name: str,
           func: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        t0, w0 = time.process_time(), time.perf_counter()
        try:
            return func(*args, **kwargs)
        finally:
            acc[name] += time.process_time() - t0
            acc[name + "_wall"] += time.perf_counter() - w0
    return wrapper


def run(files: list[Path], index: Path, jobs: int) -> dict[str, float]:
    """Import ``files`` into a new index at ``index``; rates and CPU per record (us)."""
    for old in index.parent.glob(index.name + "*"):
        old.unlink()
    acc: collections.Counter[str] = collections.Counter()
    saved = (li.LocalIndex._write, li.LocalIndex._merge_staged, li._refresh_title_terms)
    li.LocalIndex._write = _timed(acc, "stream", li.LocalIndex._write)  # type: ignore[method-assign]
    li.LocalIndex._merge_staged = _timed(  # type: ignore[method-assign]
        acc, "merge", li.LocalIndex._merge_staged)
    li._refresh_title_terms = _timed(acc, "terms", li._refresh_title_terms)
    try:
        cpu0, t0 = _cpu(), time.perf_counter()
        with li.LocalIndex.open(index) as idx:
            records = sum(idx.add_file(path, jobs=jobs).records for path in files)
        wall, cpu1 = time.perf_counter() - t0, _cpu()
    finally:
        li.LocalIndex._write, li.LocalIndex._merge_staged, li._refresh_title_terms = saved  # type: ignore[method-assign]
    writer, parsers = cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]
    per = 1e6 / max(records, 1)
    return {"records": records, "wall_s": wall, "rec_per_s": records / wall,
            "rec_per_cpu_s": records / (writer + parsers), "cpu_us": (writer + parsers) * per,
            "parsers_us": parsers * per, "writer_us": writer * per,
            "stream_us": acc["stream"] * per, "merge_us": acc["merge"] * per,
            "terms_us": acc["terms"] * per, "merge_wall_s": acc["merge_wall"],
            "terms_wall_s": acc["terms_wall"], "load": os.getloadavg()[0]}


def main(argv: list[str] | None = None) -> int:
    """Print one line of import figures."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("files", help="files to import, comma-separated")
    ap.add_argument("--index", type=Path, required=True, help="index to (re)create")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args(argv)
    r = run([Path(f) for f in args.files.split(",")], args.index, args.jobs)
    print(f"{r['records']:,.0f} records  wall {r['wall_s']:.1f} s  {r['rec_per_s']:,.0f} rec/s  "
          f"{r['rec_per_cpu_s']:,.0f} rec per CPU-s  CPU/record {r['cpu_us']:.1f} us = parsers "
          f"{r['parsers_us']:.1f} + writer {r['writer_us']:.1f} (streaming {r['stream_us']:.1f}, "
          f"merge {r['merge_us']:.1f}, title words {r['terms_us']:.1f}); wall of the merge "
          f"{r['merge_wall_s']:.1f} s, of the title words {r['terms_wall_s']:.1f} s  "
          f"load {r['load']:.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
