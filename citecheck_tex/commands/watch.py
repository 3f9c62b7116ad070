"""Watch mode: re-check a paper on save, retrieving only new or changed entries.

The core is :class:`WatchSession`, a plain object whose :meth:`WatchSession.run_once`
re-loads the project, checks only the entries whose ``(key, content_hash)`` it
has not seen (previous verdicts of unchanged entries are kept), rewrites the
report files in place and returns a :class:`Diff` of what changed. The file
watching (watchdog, debounced, editor rename-saves included) is a separate loop,
:func:`watch_loop`, that a test can stop with an event or a cycle count.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import logging
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import IO, Any

from watchdog.events import FileSystemEvent, FileSystemEventHandler

from citecheck_tex.commands.options import (
    Parser,
    add_check_options,
    exit_status,
    out_dir_of,
    overrides,
)
from citecheck_tex.config import Settings
from citecheck_tex.ignore import (
    IgnoreList,
    apply_ignores,
    load_ignores,
    project_paths,
)
from citecheck_tex.model import Entry, Label, Problem, Project, RunResult, Verdict
from citecheck_tex.pipeline import Known, check_project
from citecheck_tex.tex.project import project_folder as _project_folder

logger = logging.getLogger(__name__)

#: Checks a batch of entries: (verdicts in order, run-level problems, HTTP requests).
CheckFn = Callable[[Sequence[Entry], Settings], tuple[list[Verdict], list[Problem], int]]
#: Loads a project from a path.
LoadFn = Callable[[Path], Project]

_CacheKey = tuple[str, str, str]

#: Quiet time after an atomic (rename) save: editors emit a burst of events around it.
_ATOMIC_SETTLE = 0.03


def default_check(entries: Sequence[Entry], settings: Settings) -> tuple[
    list[Verdict], list[Problem], int
]:
    """Verify ``entries`` with the pipeline (a fresh event loop per batch)."""
    from citecheck_tex.pipeline import check_entries_async

    return asyncio.run(check_entries_async(entries, settings))


def _default_load(path: Path, *, project_root: Path | None = None) -> Project:
    from citecheck_tex.tex.project import load_project

    return load_project(path, project_root=project_root)


@dataclass(frozen=True, slots=True)
class LabelChange:
    """An entry whose label changed between two runs."""

    key: str
    old: Label
    new: Label


@dataclass(frozen=True, slots=True)
class Diff:
    """What one cycle changed compared with the previous one."""

    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[str, ...] = ()  # same key, new content
    rechecked: tuple[str, ...] = ()  # keys retrieved again in this cycle
    label_changes: tuple[LabelChange, ...] = ()
    new_problems: tuple[Problem, ...] = ()
    elapsed_s: float = 0.0
    first: bool = False
    error: str = ""  # the project could not be loaded; previous results kept

    @property
    def empty(self) -> bool:
        """True when nothing a user would want to see changed."""
        return not (self.added or self.removed or self.changed or self.label_changes
                    or self.new_problems or self.error)

    def render(self) -> str:
        """A few lines for the terminal."""
        stamp = time.strftime("%H:%M:%S")
        if self.error:
            return f"[{stamp}] cannot re-check: {self.error} (keeping the previous results)\n"
        lines = []
        if self.first:
            lines.append(f"[{stamp}] checked {len(self.rechecked)} entries "
                         f"in {self.elapsed_s:.2f}s")
        else:
            lines.append(f"[{stamp}] re-checked {len(self.rechecked)} changed or new "
                         f"entr{'y' if len(self.rechecked) == 1 else 'ies'} "
                         f"in {self.elapsed_s:.2f}s")
            if self.added:
                lines.append("  + new: " + ", ".join(self.added))
            if self.removed:
                lines.append("  - removed: " + ", ".join(self.removed))
            if self.changed:
                lines.append("  ~ edited: " + ", ".join(self.changed))
            for ch in self.label_changes:
                lines.append(f"  {ch.key}: {ch.old.value} -> {ch.new.value}")
            if self.empty:
                lines.append("  no change in the references")
        for p in self.new_problems:
            where = f"{p.file}:{p.line}: " if p.file and p.line else ""
            lines.append(f"  ! {where}{p.code}: {p.message}")
        return "\n".join(lines) + "\n"


def _digest(path: Path) -> str:
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


class WatchSession:
    """State kept between re-checks of one paper.

    ``check`` and ``load`` are injectable for tests; ``out_dir`` None writes no
    report files.
    """

    def __init__(
        self,
        input_path: Path,
        settings: Settings,
        *,
        out_dir: Path | None = None,
        check: CheckFn | None = None,
        load: LoadFn | None = None,
    ) -> None:
        self.input_path = input_path
        self.settings = settings
        self.out_dir = out_dir
        self._check = check  # None: the pipeline's own cascade
        root = settings.resolved_project_root()
        self._load = load or (lambda path: _default_load(path, project_root=root))
        self._known: Known | None = None  # what the last cycle settled, for the next
        self._seen: set[_CacheKey] = set()  # entries (and their ignore reasons) checked
        self._digests: dict[Path, str] = {}
        self.result: RunResult | None = None
        self.cycles = 0
        self.http_requests = 0
        self._settings_used = settings

    # ------------------------------------------------------------------ files

    def watched_paths(self) -> frozenset[Path]:
        """Every file whose change should trigger a re-check (absolute paths)."""
        paths: set[Path] = {self.input_path.resolve()}
        if self.result is not None:
            proj = self.result.project
            paths.update(project_paths(proj))
            # a bibliography missing in this cycle (a git stash, a branch switch): its
            # return is a change too
            paths.update((_project_folder(proj) / name).resolve() for name in proj.missing)
            paths.add((_project_folder(proj) / ".citecheck-ignore").resolve())
        if self.input_path.is_dir():
            paths.discard(self.input_path.resolve())
        return frozenset(paths)

    def inputs_changed(self) -> bool:
        """True when a watched file's content differs from the last cycle's."""
        current = {p: _digest(p) for p in self.watched_paths()}
        return current != self._digests

    # ------------------------------------------------------------------ cycle

    def run_once(self, *, write: bool = True) -> Diff:
        """Re-load, re-check new or changed entries, write reports; return what changed.

        With ``write=False`` the report files are left for :meth:`write_reports`
        (the watch loop shows the new verdicts first, then writes the files).
        """
        t0 = time.perf_counter()
        first = self.result is None
        try:
            project = self._load(self.input_path)
        except Exception as exc:  # a half-written file must not end the session
            logger.debug("reload failed", exc_info=True)
            return Diff(error=str(exc) or type(exc).__name__, first=first)
        settings, _ = apply_ignores(project, self.settings)
        ignores = load_ignores(_project_folder(project))

        previous = {v.entry.key: v for v in self.result.verdicts} if self.result else {}
        old_hashes = {v.entry.key: v.entry.content_hash for v in previous.values()}
        keys_now = [e.key for e in project.entries]
        # what this cycle checks again: entries (with their ignore reason) not seen before
        todo = [e for e in project.entries
                if settings.refresh or self._cache_key(e, ignores) not in self._seen]
        # the check itself is the pipeline's (LLM parsing, texkey hints, ignore reasons,
        # sites), with the verdicts of unchanged entries handed in
        checked = check_project(project, self.settings, known=self._known, verify=self._check)
        self._known = checked.known
        self._seen = {self._cache_key(e, ignores) for e in project.entries}
        result = replace(checked.result, http_requests=self.http_requests
                         + checked.result.http_requests,
                         elapsed_s=time.perf_counter() - t0)
        self.http_requests = result.http_requests
        ordered = result.verdicts
        problems = result.problems
        old_problems = set(self.result.problems) if self.result else set()
        self.result = result
        self.cycles += 1
        self._digests = {p: _digest(p) for p in self.watched_paths()}
        self._settings_used = settings
        if write:
            self.write_reports()

        added = tuple(k for k in dict.fromkeys(keys_now) if k not in previous) if not first else ()
        removed = tuple(k for k in previous if k not in set(keys_now))
        changed = tuple(
            e.key for e in project.entries
            if e.key in old_hashes and old_hashes[e.key] != e.content_hash
        )
        label_changes = tuple(
            LabelChange(v.entry.key, previous[v.entry.key].label, v.label)
            for v in ordered
            if v.entry.key in previous and previous[v.entry.key].label is not v.label
        )
        return Diff(
            added=added,
            removed=removed,
            changed=tuple(dict.fromkeys(changed)),
            rechecked=tuple(e.key for e in todo),
            label_changes=label_changes,
            new_problems=tuple(p for p in problems if p not in old_problems),
            elapsed_s=time.perf_counter() - t0,
            first=first,
        )

    def write_reports(self) -> list[Path]:
        """Rewrite the report files of the last result in place (none without ``out_dir``)."""
        if self.out_dir is None or self.result is None:
            return []
        from citecheck_tex.outfiles import write_reports

        return write_reports(self.result, self._settings_used, self.out_dir)

    @staticmethod
    def _cache_key(entry: Entry, ignores: IgnoreList) -> _CacheKey:
        return (entry.key, entry.content_hash, ignores.reason_for(entry) or "")


# ---------------------------------------------------------------------- watching


class _Trigger(FileSystemEventHandler):
    """watchdog handler: sets ``event`` when a watched file is touched."""

    def __init__(self, session: WatchSession, event: threading.Event) -> None:
        super().__init__()
        self.session = session
        self.event = event
        self._lock = threading.Lock()
        self._watched: frozenset[Path] = session.watched_paths()
        self.atomic = False

    def refresh(self) -> None:
        """Re-read the watched set after a cycle (new includes, new bibliographies)."""
        with self._lock:
            self._watched = self.session.watched_paths()

    def dispatch(self, event: FileSystemEvent) -> None:  # noqa: D102
        """watchdog entry point: look at source and destination (rename-saves)."""
        if event.is_directory:
            return
        names = [event.src_path, getattr(event, "dest_path", "")]
        with self._lock:
            watched = self._watched
        for name in names:
            if not name:
                continue
            text = name.decode() if isinstance(name, bytes) else str(name)
            try:
                path = Path(text).resolve()
            except OSError:
                continue
            if path in watched:
                # a rename onto a watched file is an atomic save: the file is complete
                self.atomic = name == names[1] and event.event_type == "moved"
                self.event.set()
                return


def watch_loop(
    session: WatchSession,
    *,
    debounce: float = 0.2,
    stop: threading.Event | None = None,
    max_cycles: int | None = None,
    on_cycle: Callable[[Diff], None] | None = None,
    out: IO[str] | None = None,
) -> None:
    """Run the session once, then again after each (debounced) change of a watched file.

    Ends when ``stop`` is set or after ``max_cycles`` re-checks (not counting the
    first run). Every cycle's :class:`Diff` goes to ``on_cycle`` and is printed to
    ``out`` (nothing printed when ``out`` is None).
    """
    from watchdog.observers import Observer

    stop = stop or threading.Event()
    changed = threading.Event()

    def report(diff: Diff) -> None:
        if out is not None:
            out.write(diff.render())
            if session.result is not None and not diff.error:
                counts = session.result.summary()
                out.write("  " + "  ".join(f"{k} {n}" for k, n in counts.items() if n) + "\n")
            out.flush()
        if on_cycle is not None:
            on_cycle(diff)

    if session.result is None:
        report(session.run_once())
    trigger = _Trigger(session, changed)
    observer = Observer()
    scheduled: set[Path] = set()

    def schedule() -> None:
        for path in session.watched_paths():
            folder = path.parent
            if folder not in scheduled and folder.is_dir():
                observer.schedule(trigger, str(folder), recursive=False)
                scheduled.add(folder)

    schedule()
    observer.start()
    cycles = 0
    try:
        while not stop.is_set() and (max_cycles is None or cycles < max_cycles):
            if not changed.wait(timeout=0.05):
                continue
            # debounce: wait until the files have been quiet for `debounce` seconds; a
            # rename-save is complete at once, so it only waits out its burst of events
            while True:
                quiet = min(debounce, _ATOMIC_SETTLE) if trigger.atomic else debounce
                changed.clear()
                if stop.wait(timeout=quiet):
                    return
                if not changed.is_set():
                    break
            trigger.atomic = False
            if not session.inputs_changed():
                continue  # an event without a content change (touch, editor backup)
            diff = session.run_once(write=False)
            cycles += 1
            report(diff)
            session.write_reports()
            trigger.refresh()
            schedule()
    finally:
        observer.stop()
        observer.join(timeout=5)


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``citecheck-tex watch`` (also for completion and the man page)."""
    p = Parser(prog="citecheck-tex watch",
                description="Re-check the references each time the paper or a bibliography "
                "is saved; only new or changed entries are retrieved again.")
    p.add_argument("input", metavar="INPUT", help="a .tex file (or its folder), .bib or .bbl")
    p.add_argument("--debounce", type=float, default=0.2, metavar="SECONDS",
                   help="wait until files are quiet this long before re-checking (default 0.2)")
    p.add_argument("--once", action="store_true", help="check once and exit (for scripts)")
    add_check_options(p)
    return p


def run(input_path: Path, settings: Settings) -> WatchSession:
    """Check once and write the reports: the session, ready for :func:`watch_loop`."""
    from citecheck_tex.errors import UsageError

    if not input_path.exists():
        raise UsageError(f"{input_path}: no such file or folder",
                         hint="give a .tex, .bib or .bbl file, or a folder")
    session = WatchSession(input_path, settings, out_dir=out_dir_of(input_path, settings))
    first = session.run_once()
    if first.error:
        raise UsageError(f"{input_path}: {first.error}")
    return session


def cli(argv: Sequence[str]) -> int:
    """``citecheck-tex watch INPUT [check options] [--debounce S] [--once]``."""
    from citecheck_tex.config import load_settings
    from citecheck_tex.errors import UsageError

    ns = parser().parse_args(list(argv))
    input_path = Path(ns.input)
    if not input_path.exists():
        raise UsageError(f"{input_path}: no such file or folder",
                         hint="give a .tex, .bib or .bbl file, or a folder")
    if ns.debounce < 0:
        raise UsageError("--debounce must be >= 0")
    settings = load_settings(input_path, overrides(ns))
    session = run(input_path, settings)
    out_dir = out_dir_of(input_path, settings)
    _print_first(session, settings, out_dir, sys.stdout)
    if ns.once and session.result is not None:
        return exit_status(session.result, settings.fail_on)
    print(f"Watching {len(session.watched_paths())} files; reports in {out_dir}. "
          "Press Ctrl-C to stop.", flush=True)
    try:
        watch_loop(session, debounce=ns.debounce, out=sys.stdout)
    except KeyboardInterrupt:
        print("stopped", flush=True)
    return exit_status(session.result, settings.fail_on) if session.result else 0


def _print_first(session: WatchSession, settings: Settings, out_dir: Path, out: IO[str]) -> None:
    result = session.result
    if result is None:
        return
    if "terminal" in settings.formats:
        try:
            from citecheck_tex.report.terminal import render_terminal, wants_color

            out.write(render_terminal(result, color=wants_color(out), verbose=settings.verbose,
                                      quiet=settings.quiet))
        except ImportError:  # pragma: no cover - the reporter ships with the package
            pass
    from citecheck_tex.outfiles import print_stream_reports

    print_stream_reports(result, settings, out)
    counts: dict[str, Any] = result.summary()
    out.write("summary: " + ", ".join(f"{k} {n}" for k, n in counts.items()) + "\n")
    out.flush()
