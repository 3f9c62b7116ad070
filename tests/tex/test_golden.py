"""Golden cases: each folder of tests/tex/cases holds an input and expected.json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck_tex.errors import InputError
from citecheck_tex.tex.project import load_project
from tests.tex.golden import project_summary

CASES = Path(__file__).parent / "cases"
CASE_DIRS = sorted(p for p in CASES.iterdir() if (p / "expected.json").is_file())


@pytest.mark.parametrize("case", CASE_DIRS, ids=[p.name for p in CASE_DIRS])
def test_golden_case(case: Path) -> None:
    expected = json.loads((case / "expected.json").read_text(encoding="utf-8"))
    project = load_project(case / expected["input"])
    got = project_summary(project)
    for key, value in expected["expect"].items():
        assert got[key] == value, f"{case.name}: {key}"


def test_every_case_folder_has_expectations() -> None:
    folders = [p for p in CASES.iterdir() if p.is_dir()]
    missing = [p.name for p in folders if not (p / "expected.json").is_file()
               and p.name != "folder_ambiguous"]
    assert missing == []


def test_ambiguous_folder_lists_candidates() -> None:
    with pytest.raises(InputError) as err:
        load_project(CASES / "folder_ambiguous")
    assert "one.tex" in str(err.value) and "two.tex" in str(err.value)


def test_missing_input_raises_input_error(tmp_path: Path) -> None:
    with pytest.raises(InputError):
        load_project(tmp_path / "nope.tex")
    (tmp_path / "x.docx").write_text("x")
    with pytest.raises(InputError, match="unsupported"):
        load_project(tmp_path / "x.docx")


def test_no_bibliography_is_a_problem(tmp_path: Path) -> None:
    (tmp_path / "m.tex").write_text("\\documentclass{article}\\cite{a}\n")
    project = load_project(tmp_path / "m.tex")
    assert "no-bibliography" in {p.code for p in project.problems}
    assert project.entries == ()
