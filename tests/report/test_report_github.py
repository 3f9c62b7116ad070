"""GitHub workflow commands: one per finding, escaped as the runner expects."""

from __future__ import annotations

from dataclasses import replace

from citecheck_tex.model import Problem
from citecheck_tex.report.github import escape_data, escape_property, render_github
from tests.report.factories import run_result


def test_commands_per_label_and_problem() -> None:
    lines = render_github(run_result()).splitlines()
    assert lines[0].startswith("::error file=paper/refs.bib,line=43,title=MAJOR reference Smith")
    kinds = [line.split(" ", 1)[0] for line in lines]
    # problems: the undefined key is broken input (an error), the others warnings
    assert kinds == ["::error", "::warning", "::warning", "::notice",
                     "::error", "::warning", "::warning"]
    assert not any("Larkoski" in line or "numpy" in line for line in lines)  # EXACT, SKIPPED
    assert lines[-1] == "::warning title=network::semanticscholar: HTTP 429, retried 3 times"


def test_escaping() -> None:
    assert escape_data("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert escape_property("a:b,c%") == "a%3Ab%2Cc%25"
    result = replace(run_result(), verdicts=(), problems=(
        Problem("parse-error", "line one\nline two 100%", file="dir,1/x:y.bib", line=3),))
    (line,) = render_github(result).splitlines()
    assert line == ("::error file=dir%2C1/x%3Ay.bib,line=3,title=parse-error"
                    "::line one%0Aline two 100%25")


def test_every_command_is_one_line() -> None:
    out = render_github(run_result())
    assert out.endswith("\n")
    assert all(line.startswith("::") for line in out.splitlines())


def test_titles_carry_the_reason_code_and_messages_the_discrepancy_codes() -> None:
    result = run_result()
    lines = render_github(result).splitlines()
    for v in result.verdicts:
        line = next((ln for ln in lines if f"title={v.label.value} reference " in ln
                     and f"::{v.entry.key}: " in ln), None)
        if line is None:  # EXACT and SKIPPED are not annotated
            assert v.label.value in ("EXACT", "SKIPPED")
            continue
        title = line.split("title=", 1)[1].split("::", 1)[0]
        assert title.endswith(f" [{v.code.value}]")
        if v.label.value == "MINOR":
            for d in v.discrepancies:
                assert f"{d.field} ({', '.join(c.value for c in d.codes)}): cited " in line


def test_a_partial_run_starts_with_a_warning_saying_so() -> None:
    from citecheck_tex.model import Label, VerdictCode

    base = run_result()
    assert not render_github(base).startswith("::warning title=citecheck-tex: partial")
    verdicts = tuple(replace(v, unsettled=True, code=VerdictCode.UNSETTLED_INTERRUPTED,
                             match=None, discrepancies=(), suggested=None)
                     if v.label is Label.UNVERIFIED else v for v in base.verdicts)
    first = render_github(replace(base, verdicts=verdicts, partial="interrupted")).splitlines()[0]
    assert first.startswith("::warning title=citecheck-tex%3A partial report (interrupted)::")
    assert "PARTIAL REPORT: the run was interrupted" in first
    assert "1 reference not yet settled is UNVERIFIED" in first
