"""A report never replaces a file of the paper.

Found 2026-12-02: a paper whose bibliographies are ``refs.bib`` and ``refs.annotated.bib``
(an annotated copy once adopted), checked with ``--out`` its own folder: the annotated
copy of ``refs.bib`` replaced the author's ``refs.annotated.bib``, its entries lost.
"""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from citecheck_tex.cli import main

ENTRY = ("@article{{{key}, author = {{Gamma, C.}}, title = {{Paper {key}}},"
         " journal = {{Phys. Rev. D}}, volume = {{3}}, pages = {{3}}, year = {{2003}}}}\n")


@pytest.mark.parametrize(("second", "formats"), [
    ("refs.annotated", "json,bib"),
    ("refs.fixed", "json,bib"),  # with --emit-fixed, refs.fixed.bib is a report name too
])
def test_a_report_named_like_an_input_bib_is_not_written_over_it(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, second: str, formats: str) -> None:
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\begin{document}\\cite{A,C}"
        f"\\bibliography{{refs,{second}}}\\end{{document}}\n")
    (tmp_path / "refs.bib").write_text(ENTRY.format(key="A"))
    (tmp_path / f"{second}.bib").write_text(ENTRY.format(key="C"))
    before = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    with caplog.at_level(logging.WARNING):
        main([str(tmp_path / "paper.tex"), "--offline", "--cache", "none", "--index",
              str(tmp_path / "i.sqlite"), "--out", str(tmp_path), "--format", formats,
              "--emit-fixed", "--fail-on", "never"])
    for name, data in before.items():
        assert (tmp_path / name).read_bytes() == data, name
    assert (tmp_path / "report.json").is_file()
    assert f"{second}.bib is not written: it is a file of the paper" in caplog.text


def test_terminal_and_github_reports_need_no_report_folder(tmp_path: Path) -> None:
    # a read-only checkout (a pre-commit hook, a CI job) printed its report and then
    # failed with exit 2: "cannot write reports to .../citecheck-report" (2026-12-02)
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\begin{document}\\cite{A}\\bibliography{refs}"
        "\\end{document}\n")
    (tmp_path / "refs.bib").write_text(ENTRY.format(key="A"))
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    for formats in ("terminal", "github", "terminal,github"):
        assert main([str(tmp_path / "paper.tex"), "--offline", "--cache", "none", "--index",
                     str(tmp_path / "i.sqlite"), "--format", formats, "--fail-on", "never",
                     "--out", str(blocked / "reports")]) == 0
    assert not (tmp_path / "citecheck-report").exists()
    assert main([str(tmp_path / "paper.tex"), "--offline", "--cache", "none", "--index",
                 str(tmp_path / "i.sqlite"), "--format", "terminal,json", "--fail-on", "never",
                 "--out", str(blocked / "reports")]) == 2
