"""Watch mode: only new or changed entries are checked again; reports update in place."""

from __future__ import annotations

import io
import json
import os
import queue
import sys
import threading
from collections.abc import Sequence
from pathlib import Path

import pytest

from citecheck_tex.commands import watch
from citecheck_tex.commands.watch import Diff, WatchSession, watch_loop
from citecheck_tex.config import Settings
from citecheck_tex.model import Entry, Label, Problem, Verdict

from .conftest import FAKE_AUTHORS, bib_entry, load_records

WRONG_TITLE = "Quantum error correction with topological codes in six dimensions"


class SpyCheck:
    """Wraps the real check and records which keys each call received."""

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def __call__(self, entries: Sequence[Entry], settings: Settings) -> tuple[
        list[Verdict], list[Problem], int
    ]:
        self.calls.append([e.key for e in entries])
        return watch.default_check(entries, settings)


def _rewrite_bib(paper: Path, *, corrupt: int | None = None, drop: int | None = None,
                 extra: str = "") -> None:
    recs = load_records()
    parts = []
    for i, r in enumerate(recs):
        if i == drop:
            continue
        parts.append(bib_entry(r, title=WRONG_TITLE, authors=FAKE_AUTHORS) if i == corrupt else bib_entry(r))
    (paper.parent / "refs.bib").write_text("\n".join(parts) + extra, encoding="utf-8")


def _labels(session: WatchSession) -> dict[str, Label]:
    assert session.result is not None
    return {v.entry.key: v.label for v in session.result.verdicts}


def test_edit_one_entry_rechecks_exactly_that_entry(paper: Path, settings: Settings,
                                                     tmp_path: Path) -> None:
    spy = SpyCheck()
    out = tmp_path / "out"
    session = WatchSession(paper, settings, out_dir=out, check=spy)
    first = session.run_once()
    keys = [r["texkeys"][0] for r in load_records()]  # type: ignore[index]
    assert first.first and list(first.rechecked) == keys
    assert set(_labels(session).values()) == {Label.EXACT}

    again = session.run_once()
    assert again.rechecked == () and again.empty
    assert len(spy.calls) == 1  # nothing retrieved when nothing changed

    _rewrite_bib(paper, corrupt=2)
    diff = session.run_once()
    assert diff.rechecked == (keys[2],)
    assert diff.changed == (keys[2],)
    assert spy.calls[-1] == [keys[2]]
    assert [(c.key, c.old, c.new) for c in diff.label_changes] == [
        (keys[2], Label.EXACT, Label.MAJOR)
    ]
    assert "EXACT -> MAJOR" in diff.render()
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert "MAJOR" in json.dumps(report)


def test_added_and_removed_entries_are_reported(paper: Path, settings: Settings) -> None:
    spy = SpyCheck()
    session = WatchSession(paper, settings, check=spy)
    session.run_once()
    keys = [r["texkeys"][0] for r in load_records()]  # type: ignore[index]
    # drop the last entry from the .bib and the citation of it
    (paper).write_text(paper.read_text().replace(f"\\cite{{{keys[-1]}}}", ""), encoding="utf-8")
    _rewrite_bib(paper, drop=len(keys) - 1)
    diff = session.run_once()
    assert diff.removed == (keys[-1],)
    assert diff.rechecked == ()
    # cite it again: it is new, and retrieved again
    (paper).write_text(paper.read_text().replace("\\bibliographystyle",
                                                 f"\\cite{{{keys[-1]}}}\n\\bibliographystyle"),
                       encoding="utf-8")
    _rewrite_bib(paper)
    diff = session.run_once()
    assert diff.added == (keys[-1],)
    assert diff.rechecked == (keys[-1],)


def test_unparsable_input_keeps_previous_results(paper: Path, settings: Settings) -> None:
    session = WatchSession(paper, settings)
    session.run_once()
    before = session.result
    paper.unlink()
    diff = session.run_once()
    assert diff.error
    assert session.result is before
    assert "cannot re-check" in diff.render()


def test_watch_loop_sees_editor_rename_save(paper: Path, settings: Settings) -> None:
    spy = SpyCheck()
    session = WatchSession(paper, settings, check=spy)
    session.run_once()
    diffs: queue.Queue[Diff] = queue.Queue()
    stop = threading.Event()
    thread = threading.Thread(
        target=watch_loop, args=(session,),
        kwargs={"debounce": 0.05, "stop": stop, "max_cycles": 1, "on_cycle": diffs.put},
    )
    thread.start()
    try:
        # wait until the observer runs: the loop reports nothing before the first change,
        # so poke the file until a cycle arrives (an editor saving via temp file + rename)
        keys = [r["texkeys"][0] for r in load_records()]  # type: ignore[index]
        bib = paper.parent / "refs.bib"
        recs = load_records()
        text = "\n".join(bib_entry(r, title=WRONG_TITLE, authors=FAKE_AUTHORS) if i == 0 else bib_entry(r)
                         for i, r in enumerate(recs))
        got: Diff | None = None
        for _ in range(50):
            tmp = bib.with_name(".refs.bib.swp~")
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, bib)
            try:
                got = diffs.get(timeout=0.5)
                break
            except queue.Empty:
                continue
        assert got is not None, "the watch loop never reported a cycle"
        assert got.rechecked == (keys[0],)
    finally:
        stop.set()
        thread.join(timeout=10)
    assert not thread.is_alive()


def test_main_once_exit_status(paper: Path, settings: Settings, index_path: Path,
                               tmp_path: Path, capsys: object) -> None:
    _rewrite_bib(paper, corrupt=0)
    out = tmp_path / "r"
    argv = [str(paper), "--once", "--offline", "--index-complete", "--index", str(index_path), "--cache", "none",
            "--format", "json", "--out", str(out)]
    assert watch.cli(argv) == 1
    assert (out / "report.json").is_file()
    assert watch.cli([*argv, "--fail-on", "never"]) == 0


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_once_colours_a_terminal_unless_no_color(paper: Path, index_path: Path,
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    # watch coloured its first report whatever NO_COLOR said (found 2026-12-02)
    argv = [str(paper), "--once", "--offline", "--index", str(index_path), "--cache", "none",
            "--format", "terminal", "--fail-on", "never"]
    for no_color, coloured in ((None, True), ("1", False)):
        if no_color is None:
            monkeypatch.delenv("NO_COLOR", raising=False)
        else:
            monkeypatch.setenv("NO_COLOR", no_color)
        terminal = _Terminal()
        monkeypatch.setattr(sys, "stdout", terminal)
        assert watch.cli(argv) == 0
        assert ("\x1b[" in terminal.getvalue()) is coloured


def test_a_bibliography_that_comes_back_is_a_change(paper: Path, settings: Settings) -> None:
    # found 2026-12-02: after a cycle without refs.bib (git stash, a branch switch) its
    # return triggered nothing, and the reports kept saying 0 references
    session = WatchSession(paper, settings)
    session.run_once()
    bib = paper.parent / "refs.bib"
    text = bib.read_bytes()
    count = len(_labels(session))
    bib.unlink()
    assert session.inputs_changed()
    session.run_once()
    assert not _labels(session) and not session.inputs_changed()
    assert bib.resolve() in session.watched_paths()
    bib.write_bytes(text)
    assert session.inputs_changed()
    session.run_once()
    assert len(_labels(session)) == count
