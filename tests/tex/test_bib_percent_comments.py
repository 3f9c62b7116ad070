"""``%`` lines of a .bib: comments for biber (biblatex projects), text for BibTeX.

Found 2026-12-02: in a biblatex project, a commented-out old version of an entry above
the real one was read as the entry ("duplicate key", its fields named ``%  author``, the
real entry never checked), and a ``% TODO`` line between two fields broke the entry.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.tex.bib import blank_percent_comments, parse_bib_text
from citecheck_tex.tex.project import load_project

OLD_ABOVE = """% Old version, kept for reference:
%@article{K1,
%  author = {Alpha, A.},
%  title = {Old title},
%  year = {1999}
%}
@article{K1,
  author = {Alpha, A.},
  % TODO: check the title, it may be wrong
  title = {First {paper}, with a comma},
  journal = {Phys. Rev. D}, volume = {1}, pages = {1}, year = {2001}
}
"""
PREAMBLE = {"biblatex": "\\usepackage[backend=biber]{biblatex}\\addbibresource{refs.bib}",
            "bibtex": ""}
BIBLIOGRAPHY = {"biblatex": "\\printbibliography", "bibtex": "\\bibliography{refs}"}


@pytest.mark.parametrize("system", ["biblatex", "bibtex"])
def test_percent_lines_are_comments_for_biber_only(tmp_path: Path, system: str) -> None:
    (tmp_path / "refs.bib").write_text(OLD_ABOVE)
    (tmp_path / "paper.tex").write_text(
        f"\\documentclass{{article}}{PREAMBLE[system]}\\begin{{document}}\\cite{{K1}}"
        f"{BIBLIOGRAPHY[system]}\\end{{document}}\n")
    project = load_project(tmp_path / "paper.tex")
    (k1,) = [e for e in project.entries if e.key == "K1"]
    if system == "biblatex":
        assert (k1.line, k1.title) == (7, "First paper, with a comma")
        assert not project.problems
    else:  # BibTeX reads "%@article{K1," as an entry (the file's first K1), and the
        # "% TODO" line as text where a field must be: as BibTeX itself would say
        assert k1.line == 2
        assert {p.code for p in project.problems} >= {"parse-error"}


def test_blanking_keeps_lines_and_percent_signs_inside_values() -> None:
    text = ("@article{A,\n  title = {Power spectra\n% to 1% accuracy},\n"
            "  % a comment between fields\n  year = {2020}\n}\n% after\n")
    out = blank_percent_comments(text)
    assert out.count("\n") == text.count("\n")
    assert "% to 1% accuracy}" in out  # inside a value: text
    assert "a comment" not in out and "after" not in out
    (entry,), problems = parse_bib_text(text, "x.bib", percent_comments=True)
    assert entry.year == "2020" and not [p for p in problems if p.code == "parse-error"]
