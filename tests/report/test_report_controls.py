"""Issue 12 row 8: escape sequences in keys, fields and records never reach a terminal.

The .bib below is a real entry of the dark_matter_axions sample paper (its
refs.bib, INSPIRE export of arXiv:1512.05547) with control sequences planted in
the key, title, journal and note: a screen clear (``ESC[2J``), an OSC window
title, an OSC 8 hyperlink, a C1 CSI, a bell and a right-to-left override.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path

import pytest

from citecheck_tex.cli import main
from citecheck_tex.model import Label, Problem, Record, RunResult
from citecheck_tex.report.controls import strip_controls, without_controls
from citecheck_tex.report.github import render_github
from citecheck_tex.report.terminal import render_terminal
from tests.report.factories import run_result as sample_result

ROOT = Path(__file__).resolve().parents[2]
PAPER = ROOT / "sample_papers" / "dark_matter_axions"

CLEAR = "\x1b[2J\x1b[H"
TITLE = "\x1b]0;pwned\x07"
LINK = "\x1b]8;;https://evil.example/\x1b\\click\x1b]8;;\x1b\\"
C1 = "\x9b31m"
RLO = "\u202e"
EVIL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")

BIB = f"""@article{{McAllister:2015zcz{CLEAR},
    author = "McAllister, Ben T. and Parker, Stephen R. and Tobar, Michael E.",
    title = "{{Axion Dark Matter {TITLE}Coupling to Resonant {LINK} Photons via Magnetic Field}}",
    eprint = "1512.05547",
    archivePrefix = "arXiv",
    doi = "10.1103/PhysRevLett.116.161804",
    journal = "Phys. Rev. Lett.{C1}{RLO}",
    volume = "116",
    pages = "161804",
    note = "bell\x07 and {RLO}override",
    year = "2015"
}}
"""


@pytest.fixture(scope="module")
def demo_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    index = tmp_path_factory.mktemp("idx") / "index.sqlite"
    files = sorted(str(f) for f in (ROOT / "sample_papers").glob("*/index_records*"))
    assert main(["index", "add", *files, "--index", str(index)]) == 0
    return index


def test_strip_controls_drops_whole_sequences() -> None:
    assert strip_controls(f"a{CLEAR}b{TITLE}c{LINK}d{C1}e{RLO}f\x07g") == "abcclickdefg"
    assert strip_controls("tab\tand\nnewline") == "tab and newline"
    assert strip_controls("two\nlines", keep_newlines=True) == "two\nlines"
    assert strip_controls("Jet-images — deep learning, Zürich") == \
        "Jet-images — deep learning, Zürich"


@pytest.mark.parametrize("verbose", [False, True])
def test_terminal_and_github_output_carry_no_control_characters(
        demo_index: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        verbose: bool) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    out = tmp_path / "out"
    code = main([str(bib), "--offline", "--index", str(demo_index), "--cache", "none",
                 "--out", str(out), "--format", "terminal,github,json,sarif,html",
                 "--fail-on", "never", *(["--verbose"] if verbose else [])])
    assert code == 0
    stdout = capsys.readouterr().out
    # the entry is listed (a MINOR: year, title) with its key and fields
    assert "McAllister:2015zcz" in stdout and "::warning" in stdout
    assert "Coupling to Resonant" in stdout
    assert not EVIL.search(stdout), repr(EVIL.findall(stdout))
    # JSON and SARIF stay valid and keep the values, escaped
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert report["entries"][0]["key"] == f"McAllister:2015zcz{CLEAR}"
    sarif = json.loads((out / "report.sarif").read_text(encoding="utf-8"))
    assert sarif["runs"][0]["results"]
    html = (out / "report.html").read_text(encoding="utf-8")
    assert "McAllister:2015zcz" in html and not EVIL.search(html)


def test_records_and_problems_are_cleaned_too() -> None:
    result = sample_result()
    evil_title = f"Real title{TITLE}{CLEAR}"
    verdicts = []
    for v in result.verdicts:
        if v.match is not None:
            # the reason is rendered from the record id and the facts: both carry controls
            v = replace(v, match=replace(v.match, title=evil_title, id=f"{v.match.id}{C1}",
                                         url=f"https://doi.org/x{LINK}"),
                        facts={**v.facts, "other_work": f"other{C1}"})
            assert C1 in v.reason
        verdicts.append(v)
    problem = Problem("parse-error", f"bad{CLEAR}entry", key=f"k{RLO}", file=f"f{TITLE}.bib",
                      line=3)
    evil = replace(result, verdicts=tuple(verdicts), problems=(problem,),
                   input=f"paper{CLEAR}.tex")
    assert any(v.label is not Label.EXACT for v in evil.verdicts)
    assert "Real title" in render_terminal(evil, color=True, verbose=True)
    for text in (render_terminal(evil, color=True, verbose=True),
                 render_terminal(evil, color=False), render_github(evil)):
        assert "badentry" in text
        # only our own colour codes (SGR) remain
        assert not EVIL.search(re.sub(r"\x1b\[[0-9;]*m", "", text))
        assert "pwned" not in text and "evil.example" not in text


def test_without_controls_keeps_unchanged_objects() -> None:
    plain = Record(source="x", id="1", title="Plain title", authors=())
    assert without_controls(plain) is plain
    assert without_controls((plain, {"k": "v"}))[0] is plain
    rec = Record(source="x", id="1", title=f"a{CLEAR}b")
    assert without_controls(rec).title == "ab"
    assert isinstance(without_controls(rec), Record)
    assert isinstance(without_controls(sample_result()), RunResult)


def test_gate_log_lines_carry_no_control_characters() -> None:
    from citecheck_tex.commands.gate import FAIL, GateCheck, GateReport

    report = GateReport(folder=f"sub{CLEAR}mission", main_file="main.tex",
                        checks=(GateCheck("bbl-file", FAIL, f"missing {TITLE}x.bbl",
                                          file=f"a{RLO}.tex", line=2),))
    text = report.render()
    assert "submission" in text and "missing x.bbl" in text
    assert not EVIL.search(text)
