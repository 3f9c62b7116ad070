"""Several references in one bibliography item, separated by semicolons.

Found 2026-12-02: ``\\bibitem{b} L. Hui et al., Phys. Rev. D 95, 043541 (2017); M.
Kawasaki et al., Phys. Lett. B 999, 677 (2016).`` was one reference, so the wrong volume
(753) of the second passed as EXACT. Real papers merge items like this: INSPIRE splits
them into several references under one label (paper 1112684 of the corpus: items 5, 10,
15, 25). The references are the sample papers' real records.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citecheck_tex.cli import main
from citecheck_tex.tex.bbl import parse_bbl_text
from citecheck_tex.tex.project import load_project
from citecheck_tex.tex.textlist import parse_text_list
from tests.tex.conftest import checked as _checked

HUI = "L. Hui, J. P. Ostriker, S. Tremaine, and E. Witten, Phys. Rev. D \\textbf{95}, 043541 (2017)"
KAWASAKI = "M. Kawasaki, F. Takahashi, and M. Yamada, Phys. Lett. B \\textbf{{{volume}}}, 677 (2016)"


def _bbl(*items: str) -> str:
    body = "".join(f"\\bibitem{{{k}}} {text}\n" for k, text in
                   (item.split(" ", 1) for item in items))
    return f"\\begin{{thebibliography}}{{9}}\n{body}\\end{{thebibliography}}\n"


def test_each_reference_of_an_item_is_checked(tmp_path: Path, index: Path) -> None:
    text = _bbl(f"a {HUI}; {KAWASAKI.format(volume=753)}.",
                f"b {HUI};\n  {KAWASAKI.format(volume=999)}.")
    by_key = {e["key"]: e for e in _checked(tmp_path, index, "refs.bbl", text)}
    assert sorted(by_key) == ["a", "a#2", "b", "b#2"]
    assert [by_key[k]["label"] for k in ("a", "a#2", "b")] == ["EXACT"] * 3
    assert by_key["b#2"]["label"] == "MINOR"
    assert any(d["field"] == "volume" for d in by_key["b#2"]["discrepancies"])
    assert (by_key["b"]["line"], by_key["b#2"]["line"]) == (3, 4)  # the second on its line


def test_a_fabricated_second_reference_is_not_hidden(tmp_path: Path, index: Path) -> None:
    text = _bbl(f"a {HUI}; A. Nobody and B. Noone, Phys. Rev. Lett. \\textbf{{131}}, 181601 "
                "(2023).")
    by_key = {e["key"]: e for e in _checked(tmp_path, index, "refs.bbl", text)}
    assert by_key["a"]["label"] == "EXACT"
    assert by_key["a#2"]["label"] in ("MAJOR", "UNVERIFIED")  # not in the sample index
    assert by_key["a#2"]["label"] != "EXACT"


@pytest.mark.parametrize("text", [
    # the same work's eprint, an erratum, "ibid.": no authors after the semicolon
    f"{HUI}; arXiv:1610.08297.",
    f"{HUI}; Erratum: Phys. Rev. D \\textbf{{96}}, 049901 (2017).",
    f"{HUI}; ibid. \\textbf{{96}}, 1 (2017).",
    # ACS names, Vancouver's year;volume, LaTeX's thin space: no reference before it
    "Hui, L.; Ostriker, J. P.; Tremaine, S.; Witten, E. Ultralight Scalars as Cosmological "
    "Dark Matter. Phys. Rev. D 2017, 95, 043541.",
    "Hui L, Ostriker JP, Tremaine S, Witten E. Ultralight scalars as cosmological dark "
    "matter. Phys Rev D. 2017; 95(4): 043541.",
    f"{HUI}, with $m\\; \\sim 10^{{-22}}$; see the text.",
    # a book after the semicolon is not found by itself: stays with the reference
    f"{HUI}; S. Weinberg, The Quantum Theory of Fields (Cambridge University Press, 1995).",
])
def test_one_reference_with_semicolons_stays_one(text: str) -> None:
    entries, _ = parse_bbl_text(_bbl(f"k {text}"), "refs.bbl")
    assert [e.key for e in entries] == ["k"]
    lines = parse_text_list(f"[1] {text}\n", "refs.txt")[0]
    assert [e.key for e in lines] == ["1"]


def test_see_also_starts_the_next_reference() -> None:
    plain = re.sub(r"\\textbf\{(\d+)\}", r"\1", f"{HUI}; see also {KAWASAKI.format(volume=753)}.")
    entries, _ = parse_text_list(f"[7] {plain}\n", "refs.txt")
    assert [(e.key, e.part_of, e.volume) for e in entries] == [("7", "", "95"),
                                                               ("7#2", "7", "753")]
    assert entries[1].authors[0].family == "Kawasaki"


def test_parts_of_a_cited_item_are_cited_and_an_unused_item_is_told_once(
        tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\begin{document}\\cite{a}\n"
        + _bbl(f"a {HUI}; {KAWASAKI.format(volume=753)}.",
               f"u {HUI}; {KAWASAKI.format(volume=753)}.")
        + "\\end{document}\n", encoding="utf-8")
    project = load_project(tmp_path / "paper.tex")
    assert [e.key for e in project.entries] == ["a", "a#2"]
    unused = [p.key for p in project.problems if p.code == "unused-entry"]
    assert unused == ["u"]


def test_the_second_reference_shows_where_its_item_is_cited(tmp_path: Path,
                                                             index: Path) -> None:
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\begin{document}\nSee \\cite{a}.\n"
        + _bbl(f"a {HUI}; {KAWASAKI.format(volume=999)}.") + "\\end{document}\n",
        encoding="utf-8")
    out = tmp_path / "out"
    code = main([str(tmp_path / "paper.tex"), "--offline", "--index", str(index), "--cache",
                 "none", "--format", "sarif", "--out", str(out), "--fail-on", "minor"])
    assert code == 1
    sarif = (out / "report.sarif").read_text(encoding="utf-8")
    assert "a#2" in sarif and "volume" in sarif
