"""One paper's check, as a Dask task runs it on a worker: :func:`check_paper`.

It never raises: whatever goes wrong with the paper (an unsafe or broken archive, no
main file, no bibliography, a parse failure, the time limit) becomes a FAILED
:class:`PaperOutcome` with the error, so one paper never stops the batch. A checked
paper's reports are written by the product's one report writer
(:func:`citecheck_tex.outfiles.write_reports`) into ``<out>/papers/<name>/``, followed by
its state file (``batch.json``: what was checked with which settings), which a resumed
batch reads to skip the paper when neither changed.
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import os
import queue
import socket
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from citecheck_tex.batch.inputs import IGNORED, Paper, opened
from citecheck_tex.batch.table import RefRow, label_counts, rows_from_report
from citecheck_tex.config import FAIL_ON_CHOICES, Settings
from citecheck_tex.errors import CitecheckError

if TYPE_CHECKING:
    from citecheck_tex.batch.limiter import GlobalLimiterHandle

logger = logging.getLogger(__name__)

#: Outcomes of a paper in a batch.
CHECKED = "checked"        # checked in this run
UNCHANGED = "unchanged"    # checked by an earlier run; neither the paper nor the settings changed
FAILED = "failed"          # could not be checked: ``error`` says why
SKIPPED = "ignored"        # no paper (an unknown file in a collection folder)
NOT_RUN = "not-run"        # the batch was interrupted before it ran

STATE_FILE = "batch.json"
STATE_VERSION = 1
PAPERS_DIR = "papers"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class PaperOutcome:
    """What became of one paper.

    ``fails`` says, for each ``--fail-on`` level, whether the paper fails it (so the
    batch's exit status needs no second look at the report). ``rows`` are its corpus
    table rows; ``partial`` is "deadline" when retrieval stopped early (the paper is
    checked again by the next run).
    """

    paper: Paper
    status: str
    error: str = ""
    counts: Mapping[str, int] = field(default_factory=dict)
    fails: Mapping[str, bool] = field(default_factory=dict)
    rows: tuple[RefRow, ...] = ()
    partial: str = ""
    #: codes of the paper's error problems (undefined-key, parse-error, ...): broken input
    errors: tuple[str, ...] = ()
    elapsed_s: float = 0.0
    http_requests: int = 0
    worker: str = ""

    @property
    def references(self) -> int:
        """How many references the paper has in the table."""
        return len(self.rows)


def paper_dir(out_dir: Path, paper: Paper) -> Path:
    """Where one paper's reports and state go."""
    return out_dir / PAPERS_DIR / paper.name


class _CheckThread:
    """A daemon thread that runs the checks handed to it, one at a time."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], dict[str, Any],
                                            threading.Event]] = queue.SimpleQueue()
        threading.Thread(target=self._serve, name="citecheck check", daemon=True).start()

    def _serve(self) -> None:
        while True:
            fn, box, done = self._jobs.get()
            try:
                box["value"] = fn()
            except BaseException as exc:  # handed to the caller's thread
                box["error"] = exc
            done.set()

    def run(self, fn: Callable[[], Any], timeout_s: float) -> dict[str, Any] | None:
        """``fn``'s outcome (``value`` or ``error``), or None after ``timeout_s``."""
        box: dict[str, Any] = {}
        done = threading.Event()
        self._jobs.put((fn, box, done))
        return box if done.wait(timeout_s) else None


#: Per calling thread (a Dask worker's task thread), the thread that runs its checks:
#: made once and reused (a new thread per paper cost about 1 ms of CPU on a 10 ms paper),
#: and replaced when a check overruns its time limit (the stuck one is left behind).
_runners = threading.local()


def _call_with_timeout(fn: Callable[[], T], timeout_s: float, what: str) -> T:
    """``fn()`` in this thread's check thread, given up after ``timeout_s`` seconds (0: no
    limit, ``fn`` runs in this thread).

    A thread cannot be killed: a check that overruns is left to finish in the
    background and its result dropped (its reports are written only by the caller, so
    nothing of it reaches the output), and the next paper gets a new check thread. The
    check's own deadline (``deadline_s``) ends retrieval long before in all but
    pathological cases.
    """
    if timeout_s <= 0:
        return fn()
    runner: _CheckThread | None = getattr(_runners, "runner", None)
    if runner is None:
        runner = _runners.runner = _CheckThread()
    box = runner.run(fn, timeout_s)
    if box is None:
        _runners.runner = None  # busy with the overrun: the next paper gets another
        logger.debug("%s: left running after the time limit", what)
        raise _over_time(timeout_s)
    if "error" in box:
        raise box["error"]
    value: T = box["value"]
    return value


def _no_bibliography(problems: tuple[Any, ...]) -> str:
    """The error of a paper without any readable bibliography (``check`` exits 2)."""
    lines = [f"{p.file}:{p.line}: {p.code}: {p.message}" if p.file and p.line
             else f"{p.code}: {p.message}" for p in problems
             if p.code in ("missing-file", "no-bibliography", "parse-error", "empty-bib")]
    detail = "; ".join(lines[:3])
    return "no bibliography could be read" + (f" ({detail})" if detail else "")


def check_paper(paper: Paper, settings: Settings, *, out_dir: str, content: str,
                settings_key: str, timeout_s: float = 0.0,
                limiter: GlobalLimiterHandle | None = None) -> PaperOutcome:
    """Check one paper and write its reports and state; never raises.

    ``content`` and ``settings_key`` are stored in the state file so that a later batch
    can tell whether the paper or the settings changed. ``limiter`` is the batch's
    global rate limiter handle (:mod:`citecheck_tex.batch.limiter`), entered around
    the check so that every request of this worker waits for a global slot.
    """
    t0 = time.perf_counter()
    worker = socket.gethostname() + f":{os.getpid()}"
    target = paper_dir(Path(out_dir), paper)
    if paper.kind == IGNORED:
        return PaperOutcome(paper, SKIPPED, error=paper.error, worker=worker)
    try:
        if paper.error:
            raise CitecheckError(paper.error)
        outcome = _check(paper, settings, target, content, settings_key, timeout_s, limiter)
    except CitecheckError as exc:
        outcome = PaperOutcome(paper, FAILED, error=str(exc))
    except Exception as exc:  # a bug must cost one paper, not the batch
        logger.exception("internal error on %s", paper.path)
        outcome = PaperOutcome(paper, FAILED, error=f"internal error: {type(exc).__name__}: "
                               f"{exc} (please report it)")
    if outcome.status == FAILED:
        _forget(target)
    return replace(outcome, elapsed_s=time.perf_counter() - t0, worker=worker)


def check_paper_task(paper: Paper, content: str, *, settings: Settings, out_dir: str,
                     settings_key: str, timeout_s: float = 0.0,
                     limiter: GlobalLimiterHandle | None = None,
                     isolated: bool = False) -> PaperOutcome:
    """:func:`check_paper` with the paper and its content hash first (what
    ``Client.map`` maps over); ``isolated``: in a check process of this worker
    (:mod:`citecheck_tex.batch.checker`), else on this thread."""
    if isolated:
        return _check_isolated(paper, content, settings=settings, out_dir=out_dir,
                               settings_key=settings_key, timeout_s=timeout_s, limiter=limiter)
    return check_paper(paper, settings, out_dir=out_dir, content=content,
                       settings_key=settings_key, timeout_s=timeout_s, limiter=limiter)


def _check_isolated(paper: Paper, content: str, *, settings: Settings, out_dir: str,
                    settings_key: str, timeout_s: float,
                    limiter: GlobalLimiterHandle | None) -> PaperOutcome:
    """:func:`check_paper` in a check process of this worker; never raises. Over the
    time limit the process is killed (and nothing of the paper kept)."""
    from citecheck_tex.batch.checker import ProcessLostError, pool_for_worker

    t0 = time.perf_counter()
    board = None
    if limiter is not None:
        from citecheck_tex.batch.limiter import board_call

        board = board_call(limiter)  # the actor is reached through this task's worker
    kwargs = {"out_dir": out_dir, "content": content, "settings_key": settings_key}
    try:
        outcome: PaperOutcome = pool_for_worker().run(
            check_paper, (paper, settings), kwargs, timeout_s=timeout_s, board=board)
        return outcome
    except TimeoutError:
        error = str(_over_time(timeout_s))
    except ProcessLostError as lost:
        error = (f"its check process ended while checking it: {lost}" if lost.started
                 else f"it could not be checked: {lost}")
    except Exception as exc:  # a bug must cost one paper, not the batch
        logger.exception("internal error on %s", paper.path)
        error = f"internal error: {type(exc).__name__}: {exc} (please report it)"
    _forget(paper_dir(Path(out_dir), paper))
    return PaperOutcome(paper, FAILED, error=error, elapsed_s=time.perf_counter() - t0,
                        worker=socket.gethostname() + f":{os.getpid()}")


def _over_time(timeout_s: float) -> CitecheckError:
    return CitecheckError(f"not finished within {timeout_s:g} s (the time limit per paper)",
                          hint="raise --paper-timeout, or check this paper alone")


def _check(paper: Paper, settings: Settings, target: Path, content: str, settings_key: str,
           timeout_s: float, limiter: GlobalLimiterHandle | None) -> PaperOutcome:
    from citecheck_tex import pipeline
    from citecheck_tex.model import RunResult
    from citecheck_tex.outfiles import write_reports
    from citecheck_tex.report.json import build_report
    from citecheck_tex.sources import index_pool
    from citecheck_tex.tex.project import load_project
    from citecheck_tex.verify.policy import fails

    with opened(paper) as (path, root):
        paper_settings = replace(settings, project_root=str(root), out_dir=str(target))

        def run() -> RunResult | str:
            project = load_project(path, project_root=root)
            if not project.all_entries and not project.entries:
                return _no_bibliography(project.problems)
            # the local index stays open in this (check) thread from one paper to the
            # next: opening it and warming its page cache again cost more per paper
            # than Dask's whole task (sources/index_pool.py)
            with index_pool.kept_open():
                return pipeline.check(project, paper_settings)

        try:
            # the limiter is entered on the task's own thread (where the Dask worker is
            # known) and reaches the check's thread with the context it set
            with _limited(limiter):
                context = contextvars.copy_context()
                got = _call_with_timeout(lambda: context.run(run), timeout_s, paper.name)
        except CitecheckError as exc:
            if path == Path(paper.path):
                raise
            # name the archive, not the temporary folder it was unpacked in
            raise CitecheckError(str(exc).replace(str(path), paper.path)) from exc
        if isinstance(got, str):
            got = got.replace(str(path), paper.path)
    if isinstance(got, str):
        raise CitecheckError(got)
    result = replace(got, input=paper.path)  # not the temporary folder it was unpacked in
    written = write_reports(result, paper_settings, target)
    report = build_report(result)
    rows = tuple(rows_from_report(paper.name, report))
    verdict = {level: fails(result, level) for level in FAIL_ON_CHOICES}
    counts = label_counts(rows)
    _write_state(target, {
        "version": STATE_VERSION, "input": paper.path, "content": content,
        "settings": settings_key, "status": "partial" if result.partial else CHECKED,
        "fails": verdict, "counts": counts,
        "files": [str(p.relative_to(target)) for p in written],
    })
    return PaperOutcome(paper, CHECKED, counts=counts, fails=verdict, rows=rows,
                        partial=result.partial, errors=error_codes(report),
                        http_requests=result.http_requests)


def error_codes(report: Mapping[str, Any]) -> tuple[str, ...]:
    """The codes of a report's error problems, each once, sorted."""
    return tuple(sorted({str(p.get("code", "")) for p in report.get("problems", [])
                         if p.get("severity") == "error"}))


@contextlib.contextmanager
def _limited(limiter: GlobalLimiterHandle | None) -> Iterator[None]:
    """The global rate limiter's context (none offline)."""
    if limiter is None:
        yield
        return
    from citecheck_tex.batch.limiter import use_global_limiter

    with use_global_limiter(limiter):
        yield


def _write_state(target: Path, state: Mapping[str, Any]) -> None:
    """Replace the state file atomically, without waiting for the disk (no fsync, unlike
    the reports): a state lost in a crash only means the paper is checked again."""
    import tempfile

    fd, tmp = tempfile.mkstemp(dir=target, prefix=f".{STATE_FILE}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(json.dumps(state, indent=1, sort_keys=True) + "\n")
        os.replace(tmp, target / STATE_FILE)
    except OSError:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


def read_state(target: Path) -> dict[str, Any] | None:
    """A paper's state file, or None when it is missing or unreadable."""
    try:
        data = json.loads((target / STATE_FILE).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return data if isinstance(data, dict) and data.get("version") == STATE_VERSION else None


def _forget(target: Path) -> None:
    """A paper that failed now keeps no report of an earlier version of it."""
    state = read_state(target)
    for name in (state or {}).get("files", []) + [STATE_FILE]:
        path = target / str(name)
        if ".." not in Path(str(name)).parts:
            with contextlib.suppress(OSError):
                path.unlink()


def resumed(paper: Paper, out_dir: Path, content: str, settings_key: str) -> PaperOutcome | None:
    """The outcome of a paper an earlier batch checked, when neither the paper (its
    ``content`` hash) nor the settings changed and its report is still there."""
    target = paper_dir(out_dir, paper)
    state = read_state(target)
    if (state is None or state.get("status") != CHECKED or state.get("content") != content
            or state.get("settings") != settings_key):
        return None
    try:
        report = json.loads((target / "report.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    rows = tuple(rows_from_report(paper.name, report))
    fails_by_level = state.get("fails", {})
    return PaperOutcome(paper, UNCHANGED, counts=label_counts(rows),
                        fails={k: bool(v) for k, v in fails_by_level.items()}, rows=rows,
                        errors=error_codes(report))
