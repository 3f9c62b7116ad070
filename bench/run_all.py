"""Everything ``make bench`` runs: accuracy benchmarks, then the other bench modules.

    python -m bench.run_all

Each module's ``main()`` prints its own tables; a missing or failing module is
reported and the run goes on. The exit status is 1 when any module failed.
"""

from __future__ import annotations

import importlib
import sys
import time
import traceback

MODULES = (
    "bench.accuracy.run_synthetic",
    "bench.accuracy.citecheck_paper",
    "bench.accuracy.independent",
    "bench.accuracy.real_references",
    "bench.accuracy.freetext_parse",
    "bench.accuracy.bst_styles",  # real bibtex with every TeX Live style (skipped without it)
    "bench.accuracy.biber_styles",  # real biber with common biblatex styles (skipped without it)
    "bench.accuracy.pdf_paste",  # reference lists pasted from real PDFs (pdflatex, pdftotext)
    "bench.accuracy.grey_literature",  # grey documents in real bibliographies, and the cost
    "bench.accuracy.real_judged",
    "bench.accuracy.self_check",
    "bench.accuracy.online_vs_offline",
    "bench.bench_frontend",
    "bench.bench_index",
    "bench.bench_scale",  # the 15k point; the 1M and 10M points: --points 1m,10m
    "bench.bench_online",
    "bench.bench_faults",
    "bench.bench_watch",
    "bench.bench_batch",  # 1,000 papers on Dask (offline, 1 and 2 workers) and an online run
)


def main() -> int:
    """Run every benchmark module in turn and print a summary."""
    summary: list[tuple[str, str, float]] = []
    for name in MODULES:
        print(f"\n## {name}\n", flush=True)
        t0 = time.perf_counter()
        try:
            mod = importlib.import_module(name)
        except ModuleNotFoundError as exc:
            if exc.name and name.startswith(exc.name):
                summary.append((name, "missing", 0.0))
                print(f"(module {name} not found: skipped)")
                continue
            raise
        try:
            takes_argv = name.startswith("bench.accuracy") or name == "bench.bench_scale"
            rc = mod.main([]) if takes_argv else mod.main()
            status = "ok" if not rc else f"exit {rc}"
        except Exception:  # one broken benchmark must not hide the others
            traceback.print_exc()
            status = "failed"
        summary.append((name, status, time.perf_counter() - t0))
    print("\n## Summary\n\n| module | status | seconds |\n|---|---|---:|")
    for name, status, secs in summary:
        print(f"| {name} | {status} | {secs:.1f} |")
    return 1 if any(s not in ("ok", "missing") for _, s, _ in summary) else 0


if __name__ == "__main__":
    sys.exit(main())
