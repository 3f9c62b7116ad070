"""``\\iffalse`` blocks that hold macros named ``\\if...`` which are no TeX conditionals.

Found on a real habit (2026-12-02): a paragraph commented out with ``\\iffalse`` that
used etoolbox's ``\\iftoggle{arxiv}{..}{..}`` hid the rest of the paper, its
bibliography too ("no bibliography found"), because every ``\\if...`` word was counted
as a conditional that a ``\\fi`` must close.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.tex.project import load_project
from citecheck_tex.vocab.latex_text import blank_ignored

BIB = ("@article{K1, author = {Alpha, A.}, title = {First paper}, journal = {Phys. Rev. D},"
       " volume = {1}, pages = {1}, year = {2001}}\n")


@pytest.mark.parametrize("macro", [
    r"\iftoggle{arxiv}{long}{short}",                      # etoolbox
    r"\ifbool{draft}{a}{b}",
    r"\ifdef{\foo}{a}{b}",
    r"\ifstrequal{a}{b}{c}{d}",
    r"\ifthenelse{\boolean{x}}{a}{b}",                     # ifthen
    r"\iffieldundef {title}{a}{b}",                        # biblatex, a space before {
])
def test_a_macro_with_arguments_in_an_iffalse_block_hides_nothing_after_it(
        tmp_path: Path, macro: str) -> None:
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n"
        f"\\iffalse\n  Old paragraph {macro} \\cite{{Old}}\n\\fi\n"
        "New text \\cite{K1}.\n\\bibliography{refs}\n\\end{document}\n")
    (tmp_path / "refs.bib").write_text(BIB)
    project = load_project(tmp_path / "paper.tex")
    assert {s.key for s in project.sites} == {"K1"}
    assert [e.key for e in project.entries] == ["K1"]
    assert not project.problems


@pytest.mark.parametrize(("text", "shown"), [
    # real conditionals inside the block are closed by their own \fi
    (r"\iffalse \ifx\a\b x\fi hidden \fi shown", "shown"),
    (r"\iffalse \ifnum1=1 a\fi hidden \fi shown", "shown"),
    (r"\iffalse \ifx{\a x\fi hidden \fi shown", "shown"),  # a primitive's token may be {
    # a conditional \newif made is one even before a brace
    (r"\newif\ifdraft \iffalse \ifdraft{\bf x}\fi hidden \fi shown", "\\newif\\ifdraft shown"),
    # the \newif line inside a block defines a name: no conditional opens there
    (r"\iffalse \newif\ifdraft hidden \fi shown", "shown"),
])
def test_conditionals_in_an_iffalse_block_are_counted(text: str, shown: str) -> None:
    out = blank_ignored(text)
    assert len(out) == len(text)
    assert " ".join(out.split()) == shown
