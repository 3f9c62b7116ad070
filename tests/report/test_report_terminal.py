"""Terminal table and progress line."""

from __future__ import annotations

import io
import re

from citecheck_tex.model import Label
from citecheck_tex.report.terminal import Progress, render_terminal
from tests.report.factories import run_result

ANSI = re.compile(r"\x1b\[[0-9;]*m")


def test_rows_sorted_by_severity_and_rest_collapsed() -> None:
    out = render_terminal(run_result(), color=False)
    rows = [ln.split()[0] for ln in out.splitlines()
            if ln.split() and ln.split()[0] in ("MAJOR", "MINOR", "UNVERIFIED", "EXACT")]
    assert rows == ["MAJOR", "MINOR", "MINOR", "UNVERIFIED"]
    assert "+ 1 EXACT, 1 SKIPPED" in out
    assert "Larkoski" not in out


def test_row_has_key_location_wrong_fields_and_suggestion() -> None:
    out = render_terminal(run_result(), color=False)
    row = next(ln for ln in out.splitlines() if "deOliveira:2015xxd" in ln)
    assert "paper/refs.bib:4" in row
    assert "year: 2015 → 2016" in row and "pages: 69 → 069" in row
    assert "doi: + 10.1007/JHEP07(2016)069" in row


def test_summary_and_problems() -> None:
    out = render_terminal(run_result(), color=False)
    assert "Summary: 1 MAJOR · 2 MINOR · 1 UNVERIFIED · 1 EXACT · 1 SKIPPED" in out
    assert "undefined-key paper/main.tex:44:" in out
    assert "network semanticscholar: HTTP 429" in out


def test_colour_only_when_asked() -> None:
    plain = render_terminal(run_result(), color=False)
    coloured = render_terminal(run_result(), color=True)
    assert "\x1b[" not in plain
    assert "\x1b[1;31mMAJOR" in coloured
    assert ANSI.sub("", coloured) == plain


def test_quiet_and_verbose() -> None:
    quiet = render_terminal(run_result(), color=False, quiet=True)
    assert "Problems" not in quiet and "citecheck-tex 0.1.0" not in quiet
    assert "Smith:2021qgj" in quiet and quiet.rstrip().splitlines()[-1].startswith("Summary:")
    verbose = render_terminal(run_result(), color=False, verbose=True)
    assert "Larkoski:2017jix" in verbose and "numpy" in verbose
    assert "asked semanticscholar by title: rate_limited" in verbose
    assert "+ 1 EXACT" not in verbose


def test_progress_redraws_in_place_on_a_tty() -> None:
    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Tty()
    progress = Progress(stream)
    progress.update(1, 4, {Label.EXACT: 1}, ("crossref", 1500.0))
    progress.update(2, 4, {"EXACT": 1, "MAJOR": 1}, "inspire")
    progress.finish()
    text = stream.getvalue()
    assert text.count("\r") == 2 and text.endswith("\n") and text.count("\n") == 1
    assert "1/4  1 EXACT  slowest: crossref 1.5 s" in text
    assert "2/4  1 MAJOR · 1 EXACT  slowest: inspire" in text


def test_progress_writes_plain_lines_elsewhere() -> None:
    stream = io.StringIO()
    progress = Progress(stream)
    for done in range(1, 101):
        progress.update(done, 100, {"EXACT": done})
    progress.finish()
    text = stream.getvalue()
    assert "\r" not in text
    lines = text.splitlines()
    assert 5 <= len(lines) <= 11
    assert lines[-1].startswith("[" + "█" * 24 + "] 100/100")


def test_progress_with_nothing_to_do() -> None:
    stream = io.StringIO()
    Progress(stream).update(0, 0, {})
    assert "0/0" in stream.getvalue()


def test_a_warning_logged_during_the_run_gets_a_line_of_its_own() -> None:
    # "[███░░░] 3/10  slowest: localWARNING citecheck_tex.sources.http: ..." (2026-12-02)
    import logging

    class Tty(io.StringIO):
        def isatty(self) -> bool:
            return True

    stream = Tty()
    handler = logging.StreamHandler(stream)
    handler.setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    root = logging.getLogger()
    root.addHandler(handler)
    progress = Progress(stream)
    try:
        with progress.logging_cleared():
            progress.update(1, 4, {"EXACT": 1}, "local")
            logging.getLogger("citecheck_tex.sources.http").warning("a source is slow")
            progress.update(2, 4, {"EXACT": 2}, "local")
        logging.getLogger("citecheck_tex.sources.http").warning("after the block")
    finally:
        root.removeHandler(handler)
    progress.finish()
    screen = []  # what the terminal shows: \r returns to the line's start
    for line in stream.getvalue().split("\n"):
        screen.append(line.rsplit("\r", 1)[-1] if "\r" in line else line)
    assert "WARNING a source is slow" in screen
    assert any(line.startswith("[") and "2/4" in line for line in screen)
    assert not handler.filters  # the filter goes with the block
