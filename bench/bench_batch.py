"""``citecheck-tex batch`` on Dask: throughput, overhead, and global rate limits.

    python -m bench.bench_batch [--papers 1000] [--workers 1,2] [--refs-per-paper K]
                                [--online-papers 12]
                                [--online-workers 3] [--skip-online] [--skip-offline]
                                [--repeat 3]

**Papers.** Real reference lists: ``corpus/inspire_hep_reference_strings.jsonl`` grouped
by citing INSPIRE record; the ``--papers`` minus 2 records with the most references
(ties by record id), each rendered from its stored fields as the real_judged benchmark
renders them (:func:`bench.accuracy.real_judged.render_bib` for even positions, a
numbered plain-text list by :func:`bench.accuracy.real_judged.render_text` for odd ones:
both parsers run), plus the two sample papers (LaTeX folders). Written once to
``bench/_work/batch/papers-N/``. The corpus samples about 8 references per citing record
where a physics paper cites about 40; ``--refs-per-paper 40`` joins consecutive records'
lists into papers of at least 40 references (``papers-N-40``: about 900 papers, the
whole corpus), to show how Dask's fixed cost per task weighs on papers of a real size.

**Offline.** Checked with the shipped defaults against the benchmark world index
(:func:`bench.accuracy.run_synthetic.build_world`: INSPIRE dump, arXiv snapshot,
HEPML.bib; not declared complete, as a general index is used), no answer cache:

1. *single process*: the product's own steps per paper in one new process, in order
   (``load_project`` -> ``pipeline.check`` -> ``write_reports`` of ``report.json``): what
   a loop over the papers costs without Dask;
2. *batch*: ``run_batch`` on a LocalCluster of 1 and of 2 worker processes (fresh output
   folder, no resumption), in a new process each time, as the command runs (imports not
   timed, as in 1), wall time from the call to the last output file, cluster start
   included; and the same without the start (from the first worker's readiness).

Overhead = batch (1 worker) / single process - 1. The labels of every reference are
compared between the runs (they must be equal). A resumed run (nothing changed) is
timed as well. The batch's CPU is also split: the worker processes with their check
processes (reaped children of this process and theirs, from their start to their end)
and this process (client, scheduler, nannies), which tells where Dask's cost lands when
wall times swing with the load.

**Online.** ``--online-papers`` of the papers checked online through the real HTTP stack
with the shipped sources and published rate limits, against one loopback server
(:class:`bench.accuracy.online_vs_offline.World`: every API answered from the real
INSPIRE records of the shared corpus) with ``--online-workers`` worker processes sharing
one fresh SQLite answer cache and the global limiter. The server counts the requests of
each source; the table gives the peak number in any window of the source's published
period and the mean rate while the source was asked, against the limit.

The machine has 2 cores shared with other work: times vary from run to run, and with 2
workers the scheduler, the client and both workers share those 2 cores.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import tempfile
import time
from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from statistics import median
from typing import Any

from bench.bench_faults import source_of
from bench.paths import CORPUS, REPO, code_stamp

WORK = Path(__file__).resolve().parent / "_work" / "batch"
REFS = CORPUS / "inspire_hep_reference_strings.jsonl"
SAMPLES = REPO / "sample_papers"
COMMAND = "python -m bench.bench_batch"


# ----------------------------------------------------------------------------- papers


def citing_groups() -> dict[str, list[dict[str, Any]]]:
    """The corpus's references grouped by citing record, in reference order."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with REFS.open(encoding="utf-8") as fh:
        for line in fh:
            d = json.loads(line)
            if d.get("citing_recid"):
                groups[str(d["citing_recid"])].append(d)
    for refs in groups.values():
        refs.sort(key=lambda d: int(d.get("ref_index") or 0))
    return groups


def make_papers(n: int, per_paper: int = 0) -> Path:
    """``bench/_work/batch/papers-N``: N papers (N - 2 real reference lists + the 2 sample
    papers), made once (a stamp records the corpus size and the renderers' code).

    The corpus holds a sample of about 8 references per citing record; a physics paper
    cites about 40. With ``per_paper`` > 0 (``papers-N-K``) the reference lists of
    consecutive citing records (by record id) are joined until a paper has at least
    ``per_paper`` references: the same real references in papers of a real size (as many
    papers as the corpus fills, at most N - 2, plus the 2 sample papers)."""
    from bench.accuracy.real_judged import render_bib, render_text

    folder = WORK / (f"papers-{n}-{per_paper}" if per_paper else f"papers-{n}")
    stamp = folder / ".stamp"
    want = json.dumps({"n": n, "per_paper": per_paper, "corpus": REFS.stat().st_size,
                       "code": code_stamp()})
    if stamp.is_file() and stamp.read_text() == want:
        return folder
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    groups = citing_groups()
    lists: list[tuple[str, list[dict[str, Any]]]] = []
    if per_paper:
        joined: list[dict[str, Any]] = []
        first = ""
        for recid in sorted(groups, key=int):
            first = first or recid
            joined += groups[recid]
            if len(joined) >= per_paper:
                lists.append((first, joined))
                joined, first = [], ""
                if len(lists) == n - 2:
                    break
    else:
        chosen = sorted(groups, key=lambda r: (-len(groups[r]), int(r)))[: n - 2]
        lists = [(recid, groups[recid]) for recid in chosen]
    for pos, (name, refs) in enumerate(lists):
        if pos % 2 == 0:
            text = "".join(render_bib(f"{name}_{i}", d) for i, d in enumerate(refs))
            (folder / f"{name}.bib").write_text(text, encoding="utf-8")
        else:
            text = "".join(f"[{i}] {render_text(d)}\n" for i, d in enumerate(refs, 1))
            (folder / f"{name}.txt").write_text(text, encoding="utf-8")
    for sample in ("dark_matter_axions", "holography_qcd"):
        shutil.copytree(SAMPLES / sample, folder / sample,
                        ignore=shutil.ignore_patterns("citecheck.toml", "citecheck-report"))
    stamp.write_text(want)
    return folder


# ----------------------------------------------------------------------------- offline


def cpu_seconds(children: bool) -> float:
    """User + system CPU seconds of this process (and of its ended children)."""
    own, ended = cpu_split()
    return own + ended if children else own


def cpu_split() -> tuple[float, float]:
    """User + system CPU seconds of this process, and of its ended (reaped) children: a
    LocalCluster's worker processes once it is closed (its scheduler and nannies run in
    this process)."""
    import resource

    own = resource.getrusage(resource.RUSAGE_SELF)
    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, ch.ru_utime + ch.ru_stime


def single_process(papers: Sequence[Any], settings: Any, out: Path) -> tuple[float, float, dict[
        tuple[str, str], str], int]:
    """The product's steps per paper in this process; wall seconds, CPU seconds, labels,
    references."""
    from citecheck_tex import pipeline
    from citecheck_tex.outfiles import write_reports
    from citecheck_tex.tex.project import load_project

    labels: dict[tuple[str, str], str] = {}
    refs = 0
    t0, c0 = time.perf_counter(), cpu_seconds(False)
    for p in papers:
        path = Path(p.path)
        root = path if path.is_dir() else path.parent
        project = load_project(path, project_root=root)
        result = pipeline.check(project, replace(settings, project_root=str(root)))
        write_reports(result, settings, out / p.name)
        for v in result.verdicts:
            labels[(p.name, v.entry.key)] = v.label.value
        refs += len(result.verdicts)
    return time.perf_counter() - t0, cpu_seconds(False) - c0, labels, refs


def fresh_single_process(papers: Sequence[Any], settings: Any, out: Path) -> tuple[
        float, float, dict[tuple[str, str], str], int]:
    """:func:`single_process` in a new process (as cold as a batch's new worker: no
    cache of an earlier run; its imports are not timed)."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(single_process, papers, settings, out).result()


def fresh_batch(papers: Sequence[Any], settings: Any, out: Path, workers: int, *,
                resume: bool = False) -> tuple[float, float, float, Any, float]:
    """:func:`batch` in a new process, as ``citecheck-tex batch`` runs: not in this one,
    which holds whatever ran before (``make bench`` runs every benchmark in one process:
    its heap, threads and caches slowed the cluster's start and the scheduler here by
    half a second). Its imports (Dask's among them) are not timed, as the single
    process's are not."""
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor

    with ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")) as pool:
        return pool.submit(batch, papers, settings, out, workers, resume=resume).result()


def batch(papers: Sequence[Any], settings: Any, out: Path, workers: int, *,
          resume: bool = False) -> tuple[float, float, float, Any, float]:
    """``run_batch`` on a LocalCluster of ``workers`` processes; (wall seconds, seconds
    after the cluster was up, CPU seconds of every process of the batch: this one with
    the scheduler and the nannies, and the workers; the run; the workers' CPU seconds
    alone, from their start to their end)."""
    import distributed  # noqa: F401  (imported before the clock starts)

    from citecheck_tex.batch.runner import BatchOptions, run_batch

    up: list[float] = []
    t0, (own0, ended0) = time.perf_counter(), cpu_split()
    run = run_batch(papers, settings, out, BatchOptions(workers=workers, dashboard=False,
                                                        resume=resume),
                    started=lambda n, link: up.append(time.perf_counter()))
    end = time.perf_counter()
    own1, ended1 = cpu_split()
    workers_cpu = ended1 - ended0
    return (end - t0, end - (up[0] if up else t0), own1 - own0 + workers_cpu, run,
            workers_cpu)


def batch_labels(out: Path) -> dict[tuple[str, str], str]:
    """(paper, key) -> label from a batch's references.jsonl."""
    labels = {}
    for line in (out / "references.jsonl").read_text(encoding="utf-8").splitlines():
        r = json.loads(line)
        labels[(r["paper"], r["key"])] = r["label"]
    return labels


def offline(args: argparse.Namespace) -> list[str]:
    """The offline measurements; the table's lines."""
    from bench.accuracy.run_synthetic import WORLD, build_world, offline_settings
    from citecheck_tex.batch.inputs import discover
    from citecheck_tex.batch.runner import batch_settings

    secs = build_world()
    folder = make_papers(args.papers, args.refs_per_paper)
    papers = discover([folder])
    args.papers_made, args.refs_made = len(papers), 0  # the heading's (filled below)
    settings = batch_settings(replace(offline_settings(WORLD), index_complete=False,
                                      formats=("json",)))
    print(f"world index {WORLD} ({f'built in {secs:.0f} s' if secs else 'cached'}); "
          f"{len(papers)} papers in {folder}", flush=True)
    lines = ["| run | workers | wall s | wall s after cluster start | CPU s (all processes) "
             "| CPU s workers / client+scheduler "
             "| papers/s | references/s | wall overhead vs single process | CPU overhead |",
             "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|"]
    with tempfile.TemporaryDirectory(prefix="bench-batch-") as tmp:
        # the runs of one repetition follow each other (same machine load); medians over
        # the repetitions
        singles: list[tuple[float, float]] = []
        batches: dict[int, list[tuple[float, float, float, float]]] = defaultdict(list)
        equal: dict[int, int] = {}
        single_labels: dict[tuple[str, str], str] = {}
        refs = 0
        batch_refs = 0
        for rep in range(args.repeat):
            single_s, single_cpu, single_labels, refs = fresh_single_process(
                papers, settings, Path(tmp) / f"single-{rep}")
            singles.append((single_s, single_cpu))
            args.refs_made = refs
            print(f"[{rep + 1}/{args.repeat}] single process: {single_s:.2f} s "
                  f"({single_cpu:.2f} s CPU), {refs} references", flush=True)
            for workers in args.workers:
                out = Path(tmp) / f"batch-{workers}-{rep}"
                wall, steady, cpu, run, wcpu = fresh_batch(papers, settings, out, workers)
                got = batch_labels(out)
                same = sum(got.get(k) == v for k, v in single_labels.items())
                equal[workers] = min(equal.get(workers, same), same)
                batch_refs = run.references
                batches[workers].append((wall, steady, cpu, wcpu))
                print(f"[{rep + 1}/{args.repeat}] batch {workers} worker(s): {wall:.2f} s "
                      f"({steady:.2f} s after start, {cpu:.2f} s CPU: workers {wcpu:.2f}, "
                      f"client+scheduler {cpu - wcpu:.2f}), {run.references} "
                      f"references, labels equal to single process: "
                      f"{same}/{len(single_labels)}; papers "
                      f"{dict(Counter(o.status for o in run.outcomes))}", flush=True)
        single_s = median(s for s, _ in singles)
        single_cpu = median(c for _, c in singles)
        lines.append(f"| single process (load, check, report.json per paper) | - | "
                     f"{single_s:.1f} | - | {single_cpu:.1f} | - | "
                     f"{len(papers) / single_s:.1f} | "
                     f"{refs / single_s:.0f} | - | - |")
        for workers in args.workers:
            wall = median(b[0] for b in batches[workers])
            steady = median(b[1] for b in batches[workers])
            cpu = median(b[2] for b in batches[workers])
            wcpu = median(b[3] for b in batches[workers])
            ccpu = median(b[2] - b[3] for b in batches[workers])
            lines.append(f"| batch, LocalCluster (labels equal: {equal[workers]}/"
                         f"{len(single_labels)}) | "
                         f"{workers} | {wall:.1f} | {steady:.1f} | {cpu:.1f} | "
                         f"{wcpu:.1f} / {ccpu:.1f} | "
                         f"{len(papers) / wall:.1f} | {batch_refs / wall:.0f} | "
                         f"{100 * (wall / single_s - 1):+.1f}% (after start "
                         f"{100 * (steady / single_s - 1):+.1f}%) | "
                         f"{100 * (cpu / single_cpu - 1):+.1f}% |")
        out = Path(tmp) / f"batch-{args.workers[-1]}-0"
        wall, steady, cpu, run, _ = fresh_batch(papers, settings, out, args.workers[-1],
                                          resume=True)
        unchanged = sum(o.status == "unchanged" for o in run.outcomes)
        lines.append(f"| resumed, nothing changed ({unchanged} unchanged) | "
                     f"{args.workers[-1]} | {wall:.1f} | - | {cpu:.1f} | - | - | - | - | - |")
        lines += ["", f"Medians of {args.repeat} repetitions (each: single process, then the "
                  "batch with each worker count, one after the other). Every run: single "
                  + ", ".join(f"{s:.1f}" for s, _ in singles) + " s; "
                  + "; ".join(f"{w} worker(s) " + ", ".join(f"{x[0]:.1f}" for x in batches[w])
                              + " s" for w in args.workers) + ". CPU: single "
                  + ", ".join(f"{c:.1f}" for _, c in singles) + " s; "
                  + "; ".join(f"{w} worker(s) " + ", ".join(
                      f"{x[2]:.1f} (workers {x[3]:.1f})" for x in batches[w]) + " s"
                      for w in args.workers) + "."]
    return lines


# ----------------------------------------------------------------------------- online


#: Published limits (requests, per seconds) of the shipped defaults.
def _published() -> dict[str, tuple[float, float]]:
    from citecheck_tex.sources.http import DEFAULT_LIMITS

    return {name: (lim.rate, lim.per) for name, lim in DEFAULT_LIMITS.items()}


def peak_in_window(times: Sequence[float], window: float) -> int:
    """The largest number of ``times`` in any half-open window of ``window`` seconds."""
    ts = sorted(times)
    best = lo = 0
    for hi, t in enumerate(ts):
        while ts[lo] <= t - window:
            lo += 1
        best = max(best, hi - lo + 1)
    return best


def _online_run(papers: Sequence[Any], workers: int, latency: float,
                shared: bool) -> tuple[Any, float, list[tuple[float, str]]]:
    """One online batch against a fresh loopback world and a fresh answer cache; (the run,
    seconds, (arrival time, source) of every request the server saw)."""
    from bench.accuracy.online_vs_offline import ONLINE, World, load_hits
    from citecheck_tex.batch.runner import BatchOptions, run_batch
    from citecheck_tex.config import Settings
    from tests.replay import ReplayServer, Request

    world = World(load_hits())
    seen: list[tuple[float, str]] = []

    def count(req: Request) -> None:
        seen.append((time.monotonic(), source_of(req)))

    with ReplayServer(latency=latency) as server, \
            tempfile.TemporaryDirectory(prefix="bench-batch-online-") as tmp:
        server.add_handler(count)  # type: ignore[arg-type]  # counts, answers nothing
        server.add_handler(world)
        settings = replace(Settings(), base_urls=server.base_urls(), sources=ONLINE,
                           cache_path=str(Path(tmp) / "cache.sqlite"),
                           mailto="bench@example.org", formats=("json",))
        t0 = time.perf_counter()
        run = run_batch(papers, settings, Path(tmp) / "out",
                        BatchOptions(workers=workers, dashboard=False, resume=False,
                                     global_rate_limits=shared))
        return run, time.perf_counter() - t0, seen


def _rate_rows(seen: Sequence[tuple[float, str]]) -> list[str]:
    """Per source: requests, the limit, the peak in windows of 1 and 10 periods against
    the token bucket's bound (burst = rate, then rate per period: at most burst + rate x
    windows), the mean rate and the smallest spacing."""
    published = _published()
    by_source: dict[str, list[float]] = defaultdict(list)
    for t, src in seen:
        by_source[src].append(t)
    rows = []
    for src in sorted(by_source):
        ts = sorted(by_source[src])
        rate, per = published.get(src, (1.0, 1.0))
        span = ts[-1] - ts[0] if len(ts) > 1 else 0.0
        mean = (len(ts) - 1) / span if span > 0 else 0.0
        gap = min((b - a for a, b in zip(ts, ts[1:], strict=False)), default=0.0)
        rows.append(f"| {src} | {len(ts)} | {rate:g} per {per:g} s | "
                    f"{peak_in_window(ts, per)} (<= {2 * rate:g}) | "
                    f"{peak_in_window(ts, 10 * per)} (<= {11 * rate:g}) | "
                    f"{mean:.2f} (limit {rate / per:.2f}) | {gap:.2f} |")
    return rows


def online(args: argparse.Namespace) -> list[str]:
    """The online runs (with the global rate board, then without it); the tables."""
    from citecheck_tex.batch.inputs import discover

    folder = make_papers(args.papers)
    papers = [p for p in discover([folder]) if p.kind == "file"][: args.online_papers]
    head = ("| source | requests | published limit | peak in any period (bound) "
            "| peak in any 10 periods (bound) | mean req/s while asked | smallest gap s |")
    out: list[str] = []
    for shared in (True, False):
        run, wall, seen = _online_run(papers, args.online_workers, args.latency, shared)
        what = ("one rate board shared by the workers (as shipped)" if shared
                else "for comparison: each worker with its own per-process limits")
        print(f"online ({what}): {len(papers)} papers, {run.references} references, "
              f"{wall:.1f} s, {len(seen)} requests; papers "
              f"{dict(Counter(o.status for o in run.outcomes))}", flush=True)
        labels = Counter()
        for o in run.outcomes:
            labels.update(o.counts)
        out += [f"#### {what}", "",
                f"{len(papers)} papers ({run.references} references) on "
                f"{args.online_workers} worker processes in {wall:.1f} s, {len(seen)} "
                f"requests, loopback latency {args.latency * 1000:.0f} ms; labels "
                + ", ".join(f"{k} {v}" for k, v in sorted(labels.items()) if v)
                + " (not an accuracy measure: the loopback world holds only the INSPIRE "
                "dump's records, most of these references are not among them)", "",
                head, "|---|---:|---|---:|---:|---:|---:|", *_rate_rows(seen), ""]
        if not args.compare:
            break
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Run the offline and online measurements and print the tables."""
    ap = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    ap.add_argument("--papers", type=int, default=1000)
    ap.add_argument("--workers", default="1,2", help="comma-separated worker counts")
    ap.add_argument("--refs-per-paper", type=int, default=0, metavar="K",
                    help="offline: join the corpus's reference lists into papers of at "
                    "least K references (a real paper's size; default: one citing "
                    "record's list per paper, about 10)")
    ap.add_argument("--online-papers", type=int, default=12)
    ap.add_argument("--online-workers", type=int, default=3)
    ap.add_argument("--latency", type=float, default=0.05,
                    help="seconds every loopback answer is delayed")
    ap.add_argument("--skip-online", action="store_true")
    ap.add_argument("--compare", action=argparse.BooleanOptionalAction, default=True,
                    help="also run online without the shared rate board (the contrast)")
    ap.add_argument("--skip-offline", action="store_true")
    ap.add_argument("--repeat", type=int, default=3,
                    help="offline: repetitions of every run (medians are reported)")
    args = ap.parse_args(argv)
    args.workers = [int(w) for w in str(args.workers).split(",") if w.strip()]
    if not REFS.is_file():
        raise SystemExit(f"{REFS} not found (the shared corpus)")
    command = " ".join([COMMAND, *(sys.argv[1:] if argv is None else argv)])
    out = [f"## Batch on Dask (`{command}`)", ""]
    if not args.skip_offline:
        lines = offline(args)
        out += [f"### Offline, {args.papers_made} papers ({args.refs_made:,} references), "
                "world index, shipped defaults", "", *lines]
        out.append("")
    if not args.skip_online:
        out += ["### Online, global rate limits (published limits, loopback world)", ""]
        out += online(args)
    print("\n".join(out))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
