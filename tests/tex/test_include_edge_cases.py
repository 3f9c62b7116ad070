"""Include forms found by feeding the frontend unusual papers (2026-12-02)."""

from __future__ import annotations

from pathlib import Path

from citecheck_tex.tex.project import load_project

BIB = ("@article{K1, author = {Alpha, A.}, title = {First paper}, journal = {Phys. Rev. D},"
       " volume = {1}, pages = {1}, year = {2001}}\n")


def test_a_quoted_file_name_is_followed(tmp_path: Path) -> None:
    # pdfTeX, XeTeX and LuaTeX accept \input{"my section"} (a name with a space)
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\begin{document}\n\\input{\"my section\"}\n"
        "\\bibliography{refs}\\end{document}\n")
    (tmp_path / "my section.tex").write_text("Text \\cite{K1}.\n")
    (tmp_path / "refs.bib").write_text(BIB)
    project = load_project(tmp_path / "paper.tex")
    assert [(s.key, s.file) for s in project.sites] == [("K1", "my section.tex")]
    assert not project.problems


def test_files_that_include_the_next_one_twice_end(tmp_path: Path) -> None:
    # 25 levels of \input{f(n+1)}\input{f(n+1)}: 2**25 reads, a run that never ended
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\begin{document}\\input{f1}\\input{f1}"
        "\\bibliography{refs}\\end{document}\n")
    for n in range(1, 25):
        (tmp_path / f"f{n}.tex").write_text(f"\\input{{f{n + 1}}}\\input{{f{n + 1}}}\n")
    (tmp_path / "f25.tex").write_text("\\cite{K1}\n")
    (tmp_path / "refs.bib").write_text(BIB)
    project = load_project(tmp_path / "paper.tex")
    (problem,) = [p for p in project.problems if p.code == "include-cycle"]
    assert "over 5,000 files read" in problem.message
    assert [e.key for e in project.entries] == ["K1"]  # what was read is still checked


def test_a_remote_bibliography_is_a_warning_not_a_missing_file(tmp_path: Path) -> None:
    # \addbibresource[location=remote]{https://...} was "error missing-file ... did you
    # mean 'refs.bib'?" (2026-12-02): biblatex fetches it, nothing is missing
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\usepackage{biblatex}\\addbibresource{refs.bib}\n"
        "\\addbibresource[location=remote]{https://example.org/refs.bib}\n"
        "\\begin{document}\\cite{K1}\\printbibliography\\end{document}\n")
    (tmp_path / "refs.bib").write_text(BIB)
    project = load_project(tmp_path / "paper.tex")
    (problem,) = project.problems
    assert (problem.level, problem.line) == ("warning", 2)
    assert "remote bibliography is not fetched" in problem.message
    assert [e.key for e in project.entries] == ["K1"]


def test_keys_that_differ_only_in_case(tmp_path: Path) -> None:
    # a crossref in another case made its parent "unused", and Smith2020/smith2020 went
    # unreported though BibTeX stops on them ("Repeated entry"; 2026-12-02)
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\begin{document}\\cite{talk1,smith2020}"
        "\\bibliography{refs}\\end{document}\n")
    (tmp_path / "refs.bib").write_text(
        "@proceedings{Conf2019, title = {Proceedings of Conf 2019}, year = {2019}}\n"
        "@inproceedings{talk1, author = {Beta, B.}, title = {A talk}, crossref = {conf2019}}\n"
        + BIB.replace("K1", "Smith2020") + BIB.replace("K1", "smith2020"))
    project = load_project(tmp_path / "paper.tex")
    unused = {p.key for p in project.problems if p.code == "unused-entry"}
    assert "Conf2019" not in unused
    (case,) = [p for p in project.problems if p.code == "duplicate-key"]
    assert (case.key, case.line) == ("smith2020", 4) and "only in case" in case.message


def test_a_key_only_an_included_aux_cites_is_reported_there(tmp_path: Path) -> None:
    # "undefined-key 'K9' is cited (0 times)" with no file: chap.aux, read through
    # paper.aux's \@input, was the one citing it (2026-12-02)
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\begin{document}\\include{chap}"
        "\\bibliography{refs}\\end{document}\n")
    (tmp_path / "chap.tex").write_text("\\cite{K1}\n")
    (tmp_path / "refs.bib").write_text(BIB)
    (tmp_path / "paper.aux").write_text("\\relax\n\\@input{chap.aux}\n\\bibdata{refs}\n")
    (tmp_path / "chap.aux").write_text("\\relax\n\\citation{K1}\n\\citation{K9}\n")
    project = load_project(tmp_path / "paper.tex")
    (undefined,) = [p for p in project.problems if p.code == "undefined-key"]
    assert (undefined.key, undefined.file) == ("K9", "chap.aux")
    assert "build file chap.aux" in undefined.message and "0 time" not in undefined.message
