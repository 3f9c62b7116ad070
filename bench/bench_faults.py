"""Network faults: a 40-reference paper through every fault mode, shipped defaults.

    python -m bench.bench_faults            # the quick modes (what `make bench` runs)
    python -m bench.bench_faults --all      # every mode (stalls and drips run to the deadline)
    python -m bench.bench_faults --modes stall,drip-1B/s [--jobs 4]

A loopback server plays every scholarly API (:class:`bench.bench_online.FakeApis`, real
INSPIRE records from ``shared/corpus/dumps/inspire_literature.jsonl``) for a paper of 40
real references (40% cite an arXiv id, 40% a DOI, 20% only title and journal), and
answers badly in one way per mode (issue 12): HTTP 200 with an HTML gateway page, an
error JSON or an ``<error>`` XML document; arXiv's "Rate exceeded."; 429 with
Retry-After 120 s, 3600 s or an HTTP date in 2099; only Semantic Scholar, only DBLP or
only INSPIRE throttling, Semantic Scholar throttling while Crossref is down (so that it
is asked); every source throttling without Retry-After; connection resets; stalls;
a drip of one byte per second; 60 MB bodies. Each mode runs the real CLI in-process
(``citecheck-tex refs.bib --format json``) with the SHIPPED defaults (only the base URLs
point at the server; no cache), and the table gives per mode: wall time, the run's
deadline, false MAJORs (every reference is real), lost references (missing from
report.json), whether report.json was written, the peak memory of the run's process
(client and loopback server together), and the labels. Modes run in separate
processes, ``--jobs`` at a time (they mostly wait: time-outs, back-off).

Done when every mode has 0 false MAJOR, 0 lost references, a report, and a wall time
within the deadline (120 s + 3 s per reference = 240 s for 40 references).
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from citecheck_tex.config import Settings
from tests.replay import DROP, ReplayServer, Reply, Request, _Drop

ROOT = Path(__file__).resolve().parent.parent
REFS = 40

GATEWAY = ("<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>"
           "<body><center><h1>502 Bad Gateway</h1></center><hr><center>nginx</center>"
           "</body></html>")


def shared_dir() -> Path:
    """``shared/`` beside the repository (CI), else /work/shared."""
    beside = ROOT.parent / "shared"
    # the folder that holds the corpus: a sibling work tree named "shared" is not it
    return beside if (beside / "corpus").is_dir() else Path("/work/shared")


def source_of(req: Request) -> str:
    """Which API a request to a loopback API server is for (bench_faults, bench_batch)."""
    p = req.path
    if p.startswith("/api/query"):
        return "arxiv"
    if p.startswith("/api/literature"):
        return "inspire"
    if p.startswith("/graph/v1"):
        return "semanticscholar"
    if p.startswith("/dois/"):
        return "datacite"
    if p.startswith("/search/publ"):
        return "dblp"
    if p == "/works" and (req.param("per-page") or req.param("search")):
        return "openalex"
    return "crossref"


def _megabytes(n: int) -> Iterator[bytes]:
    chunk = b" " * 1_000_000
    for _ in range(n):
        yield chunk


Fault = Callable[[Request], "Reply | _Drop | None"]


def _every(reply: Callable[[], Reply | _Drop]) -> Fault:
    return lambda req: reply()


def _only(source: str, reply: Callable[[], Reply | _Drop]) -> Fault:
    return lambda req: reply() if source_of(req) == source else None


def _both(first: Fault, second: Fault) -> Fault:
    return lambda req: first(req) or second(req)


def _stall(req: Request) -> Reply:
    time.sleep(45.0)  # longer than a request's time budget (timeout_s = 20 s)
    return Reply.make(503, "busy")


#: mode -> (fault handler consulted before the healthy APIs, in the quick subset)
MODES: dict[str, tuple[Fault | None, bool]] = {
    "healthy": (None, True),
    "200+html": (_every(lambda: Reply.make(200, GATEWAY, content_type="text/html")), True),
    "200+error-json": (_every(lambda: Reply.make(
        200, '{"status": "error", "message": "upstream unavailable"}',
        content_type="application/json")), True),
    "200+error-xml": (_every(lambda: Reply.make(200, "<error>maintenance</error>",
                                                content_type="application/xml")), False),
    "arxiv-rate-exceeded": (_only("arxiv", lambda: Reply.make(200, "Rate exceeded.\n")), True),
    "429-retry-120": (_every(lambda: Reply.make(429, "Too Many Requests",
                                                headers={"Retry-After": "120"})), True),
    "429-retry-3600": (_every(lambda: Reply.make(429, "Too Many Requests",
                                                 headers={"Retry-After": "3600"})), False),
    "429-date-2099": (_every(lambda: Reply.make(
        429, "Too Many Requests", headers={"Retry-After": "Thu, 01 Jan 2099 00:00:00 GMT"})),
        True),
    "only-s2-429": (_only("semanticscholar", lambda: Reply.make(
        429, '{"message": "Too Many Requests"}', content_type="application/json")), True),
    "only-dblp-429": (_only("dblp", lambda: Reply.make(429, "Too Many Requests")), False),
    # Semantic Scholar stands in for a general source that failed (sources/plan.py
    # FALLBACK): with Crossref down it is asked, and it throttles
    "crossref-down+s2-429": (_both(_only("crossref", lambda: DROP),
                                   _only("semanticscholar", lambda: Reply.make(
                                       429, '{"message": "Too Many Requests"}',
                                       content_type="application/json"))), True),
    "only-inspire-429": (_only("inspire", lambda: Reply.make(429, "Too Many Requests")), True),
    "all-429": (_every(lambda: Reply.make(429, "Too Many Requests")), False),
    "resets": (_every(lambda: DROP), True),
    "stall": (_stall, False),
    "drip-1B/s": (_every(lambda: Reply(200, GATEWAY.encode(), {"Content-Type": "text/html"},
                                       drip_s=1.0)), False),
    "60MB-body": (_every(lambda: Reply(200, b"", {"Content-Type": "application/json"},
                                       stream=lambda: _megabytes(60))), False),
}


def write_paper(folder: Path, hits: Sequence[dict[str, Any]]) -> Path:
    """``refs.bib`` citing the hits as bench_online's bibliography does."""
    from bench.bench_online import make_entries

    lines = []
    for e in make_entries(hits):
        fields = {"author": " and ".join(p.display() for p in e.authors),
                  "title": "{" + e.title + "}", "journal": e.venue, "volume": e.volume,
                  "pages": e.pages, "year": e.year, "doi": e.doi, "eprint": e.arxiv}
        body = ",\n".join(f"  {k} = {{{v}}}" for k, v in fields.items() if v)
        lines.append(f"@article{{{e.key},\n{body}\n}}\n")
    path = folder / "refs.bib"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def run_mode(name: str, hits: Sequence[dict[str, Any]], workdir: Path) -> dict[str, Any]:
    """One run of the CLI through fault ``name``; returns the table row."""
    from bench.bench_online import FakeApis
    from citecheck_tex.cli import main as cli_main

    fault, _ = MODES[name]
    folder = workdir / name.replace("/", "_")
    folder.mkdir(parents=True)
    bib = write_paper(folder, hits)
    out = folder / "out"
    healthy = FakeApis(list(hits))
    with ReplayServer() as server:
        if fault is not None:
            server.add_handler(fault)
        server.add_handler(healthy)
        urls = "\n".join(f'{k} = "{v}"' for k, v in server.base_urls().items())
        # shipped defaults: only the base URLs point at the loopback server
        (folder / "citecheck.toml").write_text(f"[base_urls]\n{urls}\n", encoding="utf-8")
        t0 = time.perf_counter()
        code = cli_main([str(bib), "--out", str(out), "--cache", "none", "--format", "json"])
        wall = time.perf_counter() - t0
        requests = server.count()
    row: dict[str, Any] = {"mode": name, "wall": wall, "exit": code, "requests": requests,
                           "deadline": Settings().run_deadline(len(hits)) or 0.0}
    try:
        report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        row.update(written=False, major=-1, lost=len(hits), labels="", partial="")
        return row
    labels: dict[str, int] = {}
    for e in report["entries"]:
        labels[e["label"]] = labels.get(e["label"], 0) + 1
    keys = {e["key"] for e in report["entries"]}
    row.update(written=True, major=labels.get("MAJOR", 0),
               lost=sum(1 for i in range(len(hits)) if f"ref{i}" not in keys),
               labels=" ".join(f"{k}={v}" for k, v in sorted(labels.items())),
               partial=(report.get("partial") or {}).get("reason", ""))
    return row


def run_in_process(mode: str) -> dict[str, Any]:
    """Run one mode in a fresh Python process (its own memory, its own arXiv slot)."""
    proc = subprocess.run([sys.executable, "-m", "bench.bench_faults", "--row", mode],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    for line in reversed(proc.stdout.splitlines()):
        if line.startswith("{"):
            return json.loads(line)  # type: ignore[no-any-return]
    tail = (proc.stderr or proc.stdout).strip().splitlines()[-1:]
    return {"mode": mode, "wall": 0.0, "exit": proc.returncode, "requests": 0, "deadline": 0.0,
            "written": False, "major": -1, "lost": REFS, "labels": f"crashed: {tail}",
            "partial": "", "peak_mib": 0.0}


def main(argv: Sequence[str] | None = None) -> int:
    """Run the fault modes and print the table; exit 1 when a mode misses the goal."""
    from bench.bench_online import load_records

    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--all", action="store_true", help="every mode, also the slow ones")
    ap.add_argument("--modes", help="comma-separated modes: " + ", ".join(MODES))
    ap.add_argument("--jobs", type=int, default=4, help="modes run at the same time")
    ap.add_argument("--row", metavar="MODE", help=argparse.SUPPRESS)  # one mode, a JSON row
    args = ap.parse_args(argv)
    dump = shared_dir() / "corpus" / "dumps" / "inspire_literature.jsonl"
    if not dump.is_file():
        print(f"(skipped: {dump} not found)")
        return 0
    if args.modes:
        modes = [m.strip() for m in args.modes.split(",") if m.strip()]
        unknown = [m for m in modes if m not in MODES]
        if unknown:
            raise SystemExit(f"unknown mode {unknown[0]!r}; valid: {', '.join(MODES)}")
    else:
        modes = [m for m, (_, quick) in MODES.items() if quick or args.all]
    if args.row:
        hits = load_records(REFS, dump)
        with tempfile.TemporaryDirectory() as tmp:
            row = run_mode(args.row, hits, Path(tmp))
        row["peak_mib"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(json.dumps(row))
        return 0
    rows: list[dict[str, Any]] = []
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        for r in pool.map(run_in_process, modes):
            rows.append(r)
            print(f"  {r['mode']}: {r['wall']:.1f} s, {r['labels']}", flush=True)
    deadline = Settings().run_deadline(REFS) or 0.0
    print(f"\nNetwork faults, {REFS} real references, shipped defaults "
          f"(deadline {deadline:.0f} s), loopback APIs, {args.jobs} modes at a time\n")
    print("| mode | wall s | false MAJOR | lost refs | report written | partial | "
          "requests | peak MiB | labels |")
    print("|---|---:|---:|---:|---|---|---:|---:|---|")
    ok = True
    for r in rows:
        good = r["major"] == 0 and r["lost"] == 0 and r["written"] \
            and r["wall"] <= r["deadline"] + 15
        ok = ok and good
        print(f"| {r['mode']} | {r['wall']:.1f} | {r['major']} | {r['lost']} | "
              f"{'yes' if r['written'] else 'NO'} | {r['partial'] or '-'} | {r['requests']} | "
              f"{r['peak_mib']:.0f} | {r['labels']} |")
    slow = ", ".join(m for m, (_, quick) in MODES.items() if not quick)
    print("modes run: " + ("all" if args.all else args.modes or f"quick subset (--all adds "
                                                                  f"{slow})"))
    print("goal met (0 false MAJOR, 0 lost, report written, within the deadline): "
          + ("yes" if ok else "NO"))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
