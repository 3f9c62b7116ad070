"""Run a batch on Dask distributed: :func:`run_batch`.

One paper is one task (:func:`citecheck_tex.batch.task.check_paper_task`). By default
the tasks run on a ``LocalCluster`` of this machine (one worker process per core, each
with one check process that its two task threads hand their papers to:
:mod:`citecheck_tex.batch.checker`); with ``scheduler`` they go to an existing cluster
(``dask scheduler`` + ``dask worker``, or dask-jobqueue on SLURM/HTCondor).

Before anything is submitted, each paper's content is hashed and compared with the
state an earlier batch left in the output folder: a paper checked before with the same
content and the same settings (:func:`settings_key`) is not checked again, its rows come
from its ``report.json``. Every paper appears in the outcome, whatever happened to it
(checked, unchanged, failed with its error, ignored, or not run when interrupted).
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck_tex import __version__
from citecheck_tex.batch.checker import THREADS_PER_PROCESS, close_check_processes
from citecheck_tex.batch.inputs import IGNORED, Paper, content_hash
from citecheck_tex.batch.table import LABELS, CorpusTable
from citecheck_tex.batch.task import (
    CHECKED,
    FAILED,
    NOT_RUN,
    PAPERS_DIR,
    SKIPPED,
    UNCHANGED,
    PaperOutcome,
    check_paper_task,
    resumed,
)
from citecheck_tex.config import Settings
from citecheck_tex.errors import UsageError

if TYPE_CHECKING:
    from distributed import Client

logger = logging.getLogger(__name__)

#: Settings that change neither a verdict nor a report file: not part of the key (the
#: index is in it by its resolved path, size and time; where answers are cached does not
#: change them).
_NOT_IN_KEY = frozenset({"quiet", "verbose", "out_dir", "project_root", "path_root", "refresh",
                         "fail_on", "index_path", "cache_path"})
SUMMARY_FILE = "summary.json"
#: Papers per worker thread the local scheduler keeps queued on the worker
#: (``distributed.scheduler.worker-saturation``; see docs/batch.md for a cluster's): all
#: of them (Dask's pre-2023 behaviour; work stealing balances the workers). Measured here
#: on 1,000 no-op tasks and one worker: 0.6 s at inf, 1.5 s at 4, 2.9 s at Dask's 1.1.
WORKER_SATURATION = float("inf")
#: The client fetches finished papers' outcomes at most this often (seconds).
GATHER_INTERVAL_S = 0.2
#: How long a LocalCluster worker collects its messages to the scheduler ("task
#: finished", ...) before sending them in one write (Dask: 2 ms, so each paper's goes
#: alone). Measured on 1,000 papers, 1 worker: the worker's event loop thread 1.25-1.36 s
#: -> 1.12-1.13 s of CPU, the client and scheduler 1.45-1.56 s -> 1.19-1.24 s. Papers
#: are all queued on the workers, so the delay idles nobody.
WORKER_SEND_INTERVAL_S = 0.05
#: Dask settings of the LocalCluster's own processes: its event-loop health check and
#: system monitor run less often (an idle 1-worker cluster: worker 13 -> 5 ms, client and
#: scheduler 23 -> 10 ms of CPU per second). The memory monitor keeps Dask's interval
#: (it is what stops a worker before the machine runs out of memory).
LOCAL_CLUSTER_CONFIG = {"distributed.admin.tick.interval": "1s",
                        "distributed.admin.system-monitor.interval": "2s"}
EXIT_OK, EXIT_FOUND, EXIT_INTERRUPTED = 0, 1, 130


@dataclass(frozen=True, slots=True)
class BatchOptions:
    """How the batch runs (not what it checks: that is the :class:`Settings`).

    ``workers``: LocalCluster worker processes (0: one per core); ``scheduler``: the
    address of an existing Dask scheduler instead (``tcp://host:8786``);
    ``paper_timeout_s``: a paper still running after this long fails (0: no limit);
    ``resume``: skip papers an earlier batch checked with the same content and
    settings; ``processes``: LocalCluster workers are processes (False: threads of
    this process, for tests); ``dashboard``: start Dask's dashboard (when bokeh is
    installed); ``connect_timeout_s``: how long to try reaching ``scheduler``;
    ``global_rate_limits``: online, every request takes its slot from one rate board on
    the cluster (False: each worker process keeps its own per-process limits, so N
    workers send up to N times the published rates; for benchmarks that show the
    difference, never for a real run); ``honour_paper_ignores``: apply each paper's
    ``.citecheck-ignore``; ``check_processes``: each worker checks its papers in check
    processes of its own (:mod:`citecheck_tex.batch.checker`; False: on its task
    threads, where a paper over its time limit cannot be stopped).
    """

    workers: int = 0
    scheduler: str = ""
    paper_timeout_s: float = 600.0
    resume: bool = True
    processes: bool = True
    dashboard: bool = True
    connect_timeout_s: float = 20.0
    global_rate_limits: bool = True
    #: apply each paper's own ``.citecheck-ignore`` (a group checking its own papers);
    #: off by default: a submitter's ignore file must not hide references from the check
    honour_paper_ignores: bool = False
    #: where the LocalCluster's dashboard listens (another free port when it is taken)
    dashboard_address: str = ":8787"
    #: (POSIX only: the check processes inherit their pipes)
    check_processes: bool = os.name == "posix"


@dataclass(slots=True)
class BatchProgress:
    """What a progress display needs; :func:`run_batch` updates it in place."""

    total: int
    done: int = 0
    checked: int = 0
    failed: int = 0
    references: int = 0
    started: float = field(default_factory=time.perf_counter)
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(LABELS, 0))
    #: papers and references done before the cluster started (unchanged, ignored): not
    #: part of the rates
    done_before: int = 0
    references_before: int = 0

    def start(self) -> None:
        """The cluster is up: rates count from now."""
        self.started = time.perf_counter()
        self.done_before, self.references_before = self.done, self.references

    def rates(self) -> tuple[float, float]:
        """Papers and references per second checked since the cluster started."""
        secs = max(1e-9, time.perf_counter() - self.started)
        return ((self.done - self.done_before) / secs,
                (self.references - self.references_before) / secs)


@dataclass(frozen=True, slots=True)
class BatchRun:
    """What a batch did: every paper's outcome, the files written, how long it took,
    where Dask's dashboard was, and the exit status (as ``check``'s)."""

    outcomes: tuple[PaperOutcome, ...]
    out_dir: Path
    written: tuple[Path, ...]
    elapsed_s: float
    status: int
    workers: int = 0
    dashboard: str = ""
    interrupted: bool = False
    #: the global rate board's counters per source (online runs): requests reserved,
    #: throttled, slow-down factor
    rate_stats: Mapping[str, Mapping[str, float]] = field(default_factory=dict)

    def count(self, status: str) -> int:
        """How many papers ended with ``status`` (checked, unchanged, failed, ...)."""
        return sum(1 for o in self.outcomes if o.status == status)

    @property
    def references(self) -> int:
        """References in the corpus table."""
        return sum(o.references for o in self.outcomes)


def settings_key(settings: Settings) -> str:
    """A hash of everything in ``settings`` that can change a paper's report, the tool's
    version and the local index's size and time (a rebuilt index gives other answers)."""
    values: dict[str, Any] = {}
    for f in fields(Settings):
        if f.name not in _NOT_IN_KEY:
            value = getattr(settings, f.name)
            values[f.name] = dict(value) if hasattr(value, "items") else value
    index = settings.resolved_index_path().resolve()
    try:
        st = index.stat()
        values["_index"] = [str(index), st.st_size, st.st_mtime_ns]
    except OSError:
        values["_index"] = [str(index), 0, 0]
    values["_version"] = __version__
    text = json.dumps(values, sort_keys=True, default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:24]


def batch_settings(settings: Settings, *, honour_paper_ignores: bool = False) -> Settings:
    """The settings a paper is checked with: the JSON report always (the corpus table and
    resumption read it), the file formats chosen, no terminal output per paper, and a
    paper's own ``.citecheck-ignore`` applied only with ``honour_paper_ignores`` (as its
    own ``citecheck.toml`` never is: a submission does not choose how it is checked)."""
    from dataclasses import replace

    formats = tuple(dict.fromkeys(("json", *(f for f in settings.formats
                                             if f not in ("terminal", "github")))))
    return replace(settings, formats=formats, ignore_file=honour_paper_ignores)


def exit_status(outcomes: Sequence[PaperOutcome], fail_on: str, *, interrupted: bool) -> int:
    """``check``'s exit status over a batch: 130 interrupted; 1 when a paper fails at
    ``fail_on`` or could not be checked (broken input fails every level but ``never``);
    else 0."""
    if interrupted:
        return EXIT_INTERRUPTED
    if fail_on != "never" and any(o.status == FAILED for o in outcomes):
        return EXIT_FOUND
    return EXIT_FOUND if any(o.fails.get(fail_on, False) for o in outcomes) else EXIT_OK


def _open_client(options: BatchOptions) -> tuple[Client, Any]:
    """A client of the scheduler at ``options.scheduler``, else of a new LocalCluster."""
    try:
        from distributed import Client, LocalCluster
    except ImportError as exc:
        raise UsageError("batch needs Dask distributed",
                         hint="pip install 'citecheck-tex[batch]'") from exc
    if options.scheduler:
        try:
            client = Client(options.scheduler, timeout=f"{options.connect_timeout_s}s")  # type: ignore[no-untyped-call]
        except (OSError, TimeoutError) as exc:
            raise UsageError(f"cannot connect to the Dask scheduler at {options.scheduler} "
                             f"({exc})", hint="start one with `dask scheduler`, or leave out "
                             "--scheduler to run on this machine") from exc
        return client, None
    import dask

    workers = options.workers or os.cpu_count() or 1
    # Dask's default (1.1) hands a single-threaded worker its next paper only when the
    # last one is done: a scheduler round trip of idle time per paper. Every paper
    # queued on the workers at once hides it (work stealing still balances the load).
    # Dask's statistical profiler samples every thread's stack every 10 ms: on a check
    # that takes milliseconds per paper it is a cost of its own (and holds the GIL).
    # The event-loop health tick (every 20 ms) and the system monitor (every 0.5 s, the
    # dashboard's CPU and memory plots) run less often (LOCAL_CLUSTER_CONFIG)
    with dask.config.set({"distributed.scheduler.worker-saturation": WORKER_SATURATION,
                          "distributed.worker.profile.enabled": False,
                          **LOCAL_CLUSTER_CONFIG}), _sigint_ignored():
        # with check processes, two task threads per worker keep its check process busy
        # and the check processes start with their worker (checker.dask_setup)
        threads = THREADS_PER_PROCESS if options.check_processes else 1
        preload = ["citecheck_tex.batch.checker"] if options.check_processes else []
        cluster = LocalCluster(n_workers=workers, threads_per_worker=threads,  # type: ignore[no-untyped-call]
                               processes=options.processes, preload=preload,
                               # the scheduler's HTTP server always starts: without a
                               # dashboard, on a free loopback port (8787 may be
                               # another's) and without the dashboard's pages, whose
                               # imports (bokeh) took 0.4 s of the cluster's 0.8 s start
                               dashboard_address=options.dashboard_address if options.dashboard
                               else "127.0.0.1:0",
                               scheduler_kwargs=None if options.dashboard
                               else {"dashboard": False},
                               silence_logs=logging.ERROR)
    try:
        return Client(cluster), cluster  # type: ignore[no-untyped-call]
    except BaseException:  # e.g. Ctrl-C right after the start: no worker left behind
        cluster.close()
        raise


class _Interrupts:
    """Ctrl-C (SIGINT) on the main thread during a batch.

    Where the client waits for the cluster, a SIGINT raises ``KeyboardInterrupt`` at
    once, as Python's own handler does (it ends the wait). While the client does its
    bookkeeping (:meth:`deferred`: an outcome recorded, its rows added to the corpus
    table) it is held and raised when that step is complete, so a paper is never
    counted without its rows nor written half; once the batch writes its summary
    (:meth:`hold`) it is only noted. Off the main thread nothing is changed.
    """

    def __init__(self) -> None:
        self.depth = 0
        self.pending = False

    def _handler(self, signum: int, frame: object) -> None:
        if self.depth:
            self.pending = True
            return
        raise KeyboardInterrupt

    def installed(self) -> contextlib.AbstractContextManager[None]:
        """The handler in force within the block (the previous one restored after)."""
        return _sigint_as(self._handler)

    @contextlib.contextmanager
    def deferred(self) -> Iterator[None]:
        """A SIGINT within the block is raised when the block ends."""
        self.depth += 1
        try:
            yield
        finally:
            self.depth -= 1
            if not self.depth and self.pending:
                self.pending = False
                raise KeyboardInterrupt

    def hold(self) -> None:
        """From now on a SIGINT is only noted: the batch is writing its summary of what
        was done (interrupted or not), which takes milliseconds."""
        self.depth += 1


@contextlib.contextmanager
def _sigint_as(handler: Any) -> Iterator[None]:
    """``handler`` (a function or ``signal.SIG_IGN``) answers SIGINT within the block, the
    previous one after it. Nothing changes off the main thread (only it has handlers)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = signal.signal(signal.SIGINT, handler)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, before)


def _sigint_ignored() -> contextlib.AbstractContextManager[None]:
    """SIGINT ignored while the LocalCluster starts its worker processes, which inherit
    it: Ctrl-C in a terminal goes to every process of the group, and only this one
    should act on it (it stops the cluster and writes what was done; a worker that got
    it would die with a traceback of its own)."""
    return _sigint_as(signal.SIG_IGN)


def coalesce_worker_messages(dask_worker: Any, interval_s: float = WORKER_SEND_INTERVAL_S
                              ) -> float:
    """Make a worker send its messages to the scheduler at most every ``interval_s``
    seconds (run on each worker by ``Client.run``); returns the interval now in force
    (0 when this Dask has no such stream: nothing changed). Dask has no setting for it."""
    stream = getattr(dask_worker, "batched_stream", None)
    if stream is None or not isinstance(getattr(stream, "interval", None), float):
        return 0.0
    stream.interval = max(stream.interval, interval_s)
    return float(stream.interval)


def dashboard_of(client: Client) -> str:
    """Dask's dashboard link when the scheduler runs one (bokeh installed), else ""."""
    try:
        services = client.scheduler_info().get("services", {})
    except Exception:  # the link is a convenience
        return ""
    return str(client.dashboard_link) if "dashboard" in services else ""


def run_batch(
    papers: Sequence[Paper],
    settings: Settings,
    out_dir: Path,
    options: BatchOptions | None = None,
    *,
    progress: Callable[[BatchProgress], None] | None = None,
    started: Callable[[int, str], None] | None = None,
) -> BatchRun:
    """Check ``papers`` on Dask and write every output into ``out_dir``.

    ``progress`` is called after each paper; ``started(workers, dashboard_link)`` once the
    cluster is up. Raises :class:`~citecheck_tex.errors.UsageError` when Dask is
    missing or the scheduler cannot be reached and
    :class:`~citecheck_tex.errors.OutputError` when ``out_dir`` cannot be written;
    nothing a single paper does raises.
    """
    from citecheck_tex.outfiles import check_out_dir

    options = options or BatchOptions()
    t0 = time.perf_counter()
    settings = batch_settings(settings, honour_paper_ignores=options.honour_paper_ignores)
    check_out_dir(out_dir)
    check_out_dir(out_dir / PAPERS_DIR)
    key = settings_key(settings)
    state = BatchProgress(total=len(papers))
    outcomes: dict[str, PaperOutcome] = {}
    todo: list[tuple[Paper, str]] = []
    rate_stats: dict[str, Mapping[str, float]] = {}
    interrupted = False
    workers, dashboard = 0, ""

    guard = _Interrupts()
    with guard.installed():
        with CorpusTable(out_dir) as table:

            def finished(outcome: PaperOutcome) -> None:
                with guard.deferred():  # the outcome, its rows and the counts: all or none
                    outcomes[outcome.paper.name] = outcome
                    table.add(outcome.rows)
                    state.done += 1
                    state.references += outcome.references
                    state.checked += outcome.status == CHECKED
                    state.failed += outcome.status == FAILED
                    for label, n in outcome.counts.items():
                        state.counts[label] = state.counts.get(label, 0) + n
                if progress is not None and (cluster_up or state.done == state.total):
                    progress(state)

            cluster_up = False

            def on_start(workers: int, dashboard: str) -> None:
                nonlocal cluster_up
                cluster_up = True
                state.start()
                if started is not None:
                    started(workers, dashboard)

            try:
                for paper in papers:
                    if paper.kind == IGNORED:
                        finished(PaperOutcome(paper, SKIPPED, error=paper.error))
                        continue
                    if paper.error:
                        finished(PaperOutcome(paper, FAILED, error=paper.error))
                        continue
                    try:
                        content = content_hash(paper)
                    except OSError as exc:
                        what = exc.filename or paper.path  # (the file of a folder)
                        finished(PaperOutcome(paper, FAILED, error=f"{what}: cannot read "
                                              f"it ({exc.strerror or exc})"))
                        continue
                    done = resumed(paper, out_dir, content, key) if options.resume else None
                    if done is not None:
                        finished(done)
                    else:
                        todo.append((paper, content))
                if todo:
                    workers, dashboard = _run_on_dask(todo, settings, out_dir, key, options,
                                                      finished, on_start, rate_stats)
            except KeyboardInterrupt:
                interrupted = True
            guard.hold()
            for paper, content in todo:
                if paper.name in outcomes:
                    continue
                # interrupted (the cluster is closed by now): a paper whose worker finished
                # it before the client heard of it has its reports and state on disk
                done = resumed(paper, out_dir, content, key) if interrupted else None
                if done is not None:
                    finished(replace(done, status=CHECKED))
            for paper in papers:  # interrupted: not checked (or not even looked at yet)
                if paper.name not in outcomes:
                    outcomes[paper.name] = PaperOutcome(
                        paper, NOT_RUN, error="the batch was interrupted before this paper "
                        "was checked")
            ordered = tuple(outcomes[p.name] for p in papers)
            status = exit_status(ordered, settings.fail_on, interrupted=interrupted)
            elapsed = time.perf_counter() - t0
            run = BatchRun(ordered, out_dir, (), elapsed, status, workers, dashboard, interrupted)
        summary = write_summary(run, settings)
    return BatchRun(ordered, out_dir, (*table.paths, summary), elapsed, status, workers,
                    dashboard, interrupted, rate_stats)


def _run_on_dask(todo: Sequence[tuple[Paper, str]], settings: Settings, out_dir: Path,
                 key: str, options: BatchOptions, finished: Callable[[PaperOutcome], None],
                 started: Callable[[int, str], None] | None,
                 rate_stats: dict[str, Mapping[str, float]]) -> tuple[int, str]:
    """Submit one task per paper, hand each outcome to ``finished`` as it arrives;
    ``rate_stats`` receives the global rate board's counters."""
    from distributed import as_completed

    client, cluster = _open_client(options)
    futures: list[Any] = []
    limiter: Any = None
    try:
        if options.scheduler:
            try:
                client.wait_for_workers(1, timeout=60)
            except TimeoutError as exc:
                raise UsageError(f"the Dask scheduler at {options.scheduler} has no workers",
                                 hint="start some with `dask worker "
                                 f"{options.scheduler}`") from exc
        if cluster is not None:  # our own workers only, never a shared cluster's
            with contextlib.suppress(Exception):  # a speed-up, never a reason to fail
                client.run(coalesce_worker_messages)
        info = client.scheduler_info().get("workers", {})
        workers = len(info)
        dashboard = dashboard_of(client) if options.dashboard or options.scheduler else ""
        if started is not None:
            started(workers, dashboard)
        if not settings.offline and options.global_rate_limits:
            from citecheck_tex.batch.limiter import start_global_limiter

            limiter = start_global_limiter(client)
        # two maps (two messages to the scheduler), results collected in batches: Dask's
        # cost per paper stays a few milliseconds. The first map holds a paper per
        # worker thread, so the workers start on them while the scheduler takes in the
        # rest (1,000 papers: about 0.1 s of its time)
        threads = sum(int(w.get("nthreads", 1)) for w in info.values())
        futures = []
        for part in _split(todo, max(1, threads)):
            futures += client.map(
                check_paper_task, [p for p, _ in part], [c for _, c in part],
                settings=settings, out_dir=str(out_dir), settings_key=key,
                timeout_s=options.paper_timeout_s, limiter=limiter,
                isolated=options.check_processes,
                key=[f"citecheck-{p.name}-{c[:12]}" for p, c in part], pure=False)
        by_key = {fut.key: paper for fut, (paper, _) in zip(futures, todo, strict=True)}
        done = as_completed(futures)  # type: ignore[no-untyped-call]
        last = 0.0
        while True:
            try:
                chunk = done.next_batch(block=True)  # type: ignore[no-untyped-call]
            except StopIteration:
                break
            # one gather per GATHER_INTERVAL_S, of every paper finished meanwhile: a
            # gather per paper (papers finish milliseconds apart) costs the worker a
            # request to answer while it checks the next paper, and the client and
            # the scheduler a round trip: together more than the Dask task itself
            pause = last + GATHER_INTERVAL_S - time.perf_counter()
            if pause > 0 and done.count():  # type: ignore[no-untyped-call]
                time.sleep(pause)
                chunk += done.next_batch(block=False)  # type: ignore[no-untyped-call]
            last = time.perf_counter()
            ok = [f for f in chunk if f.status == "finished"]
            for got in client.gather(ok):  # type: ignore[no-untyped-call]
                finished(got)
            for fut in chunk:
                if fut.status != "finished":  # error, cancelled: the worker was lost
                    finished(_lost(by_key[fut.key], fut))
                fut.release()
        if options.check_processes:
            with contextlib.suppress(Exception):  # a worker that is gone took them along
                client.run(close_check_processes)
        return workers, dashboard
    finally:
        pending = [fut for fut in futures if not fut.done()]
        if pending:  # interrupted: one message for all of them
            with contextlib.suppress(Exception):
                client.cancel(pending)  # type: ignore[no-untyped-call]
        if limiter is not None:
            try:
                rate_stats.update(limiter.stats())
            except Exception:  # counters are a report, never a reason to fail
                logger.debug("rate board statistics unavailable", exc_info=True)
            limiter.close()
        client.close()  # type: ignore[no-untyped-call]
        if cluster is not None:
            cluster.close()


def _split(todo: Sequence[tuple[Paper, str]],
           first: int) -> list[Sequence[tuple[Paper, str]]]:
    """``todo`` as its first ``first`` items and the rest (the empty parts left out)."""
    return [part for part in (todo[:first], todo[first:]) if part]


def _lost(paper: Paper, future: Any) -> PaperOutcome:
    """The outcome of a paper whose task raised instead of returning (its worker died:
    memory, killed), with the reason Dask gives."""
    try:
        exc = future.exception(timeout=5)
    except Exception as err:  # the reason is lost with the worker
        exc = err
    return PaperOutcome(paper, FAILED, error=f"the worker running it was lost "
                        f"({type(exc).__name__}: {exc})")


def summary_data(run: BatchRun, settings: Settings) -> dict[str, Any]:
    """The summary file's content: totals and one record per paper."""
    totals = dict.fromkeys(LABELS, 0)
    for o in run.outcomes:
        for label, n in o.counts.items():
            totals[label] = totals.get(label, 0) + n
    return {
        "tool": {"name": "citecheck-tex", "version": __version__},
        "offline": settings.offline,
        "fail_on": settings.fail_on,
        "status": run.status,
        "interrupted": run.interrupted,
        "elapsed_s": round(run.elapsed_s, 3),
        "workers": run.workers,
        "papers": {s: run.count(s) for s in (CHECKED, UNCHANGED, FAILED, SKIPPED, NOT_RUN)},
        "references": totals,
        "entries": [
            {"paper": o.paper.name, "input": o.paper.path, "origin": o.paper.origin,
             "status": o.status, "error": o.error, "partial": o.partial or None,
             "fails": bool(o.fails.get(settings.fail_on, False)) or o.status == FAILED,
             "references": o.references, **{label: o.counts.get(label, 0) for label in LABELS},
             "errors": list(o.errors),
             "report": f"{PAPERS_DIR}/{o.paper.name}/report.json"
             if o.status in (CHECKED, UNCHANGED) else None,
             "elapsed_s": round(o.elapsed_s, 3)}
            for o in run.outcomes
        ],
    }


def write_summary(run: BatchRun, settings: Settings) -> Path:
    """Write ``summary.json`` into the batch's output folder; returns its path."""
    from citecheck_tex.outfiles import write_text_atomic

    path = run.out_dir / SUMMARY_FILE
    write_text_atomic(path, json.dumps(summary_data(run, settings), indent=1,
                                       ensure_ascii=False) + "\n")
    return path
