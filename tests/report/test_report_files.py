"""The one writer of report files (``outfiles.write_reports``), driven by the reporter registry."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.cli import main
from citecheck_tex.config import Settings
from citecheck_tex.outfiles import file_formats, write_reports
from citecheck_tex.report.annotated_bib import PREFIX, copy_name
from citecheck_tex.report.base import FileReporter, make_reporter, reporter_names

TEX = r"""\documentclass{article}
\begin{document}
\cite{alpha} and \cite{beta}.
\bibliographystyle{plain}
\bibliography{a/refs,b/refs}
\end{document}
"""
A_BIB = """@article{alpha,
  author = {Ann Author},
  title = {A First Study of Things},
  journal = {Journal of Tests},
  year = {2001},
}
"""
B_BIB = """@article{beta,
  author = {Bob Writer},
  title = {A Second Study of Other Things},
  journal = {Journal of Tests},
  year = {2002},
}
"""


def _two_refs_project(tmp_path: Path) -> Path:
    paper = tmp_path / "paper"
    (paper / "a").mkdir(parents=True)
    (paper / "b").mkdir()
    (paper / "main.tex").write_text(TEX, encoding="utf-8")
    (paper / "a" / "refs.bib").write_text(A_BIB, encoding="utf-8")
    (paper / "b" / "refs.bib").write_text(B_BIB, encoding="utf-8")
    return paper


def _strip(text: str) -> str:
    return "".join(ln for ln in text.splitlines(keepends=True) if not ln.startswith(PREFIX))


def test_two_bib_files_with_one_name_get_two_annotated_copies(tmp_path: Path) -> None:
    """``\\bibliography{a/refs,b/refs}``: before, b's copy overwrote a's (one
    ``refs.annotated.bib``); each copy now sits at its .bib's path in the report folder."""
    paper, out = _two_refs_project(tmp_path), tmp_path / "out"
    main([str(paper / "main.tex"), "--offline", "--cache", "none", "--index",
          str(tmp_path / "none.sqlite"), "--out", str(out), "--format", "json,bib",
          "--emit-fixed", "--quiet"])
    a, b = out / "a" / "refs.annotated.bib", out / "b" / "refs.annotated.bib"
    assert _strip(a.read_text(encoding="utf-8")) == A_BIB
    assert _strip(b.read_text(encoding="utf-8")) == B_BIB
    assert "alpha" in a.read_text(encoding="utf-8") and "beta" not in a.read_text(encoding="utf-8")
    assert (out / "a" / "refs.fixed.bib").read_text(encoding="utf-8") == A_BIB
    assert (out / "b" / "refs.fixed.bib").read_text(encoding="utf-8") == B_BIB
    assert not (out / "refs.annotated.bib").exists()
    # the user's files are untouched
    assert (paper / "a" / "refs.bib").read_text(encoding="utf-8") == A_BIB


@pytest.mark.parametrize(("file", "name"), [
    ("refs.bib", "refs.annotated.bib"),
    ("a/refs.bib", "a/refs.annotated.bib"),
    ("./b/refs.bib", "b/refs.annotated.bib"),
    ("../shared/refs.bib", "_up/shared/refs.annotated.bib"),
    ("/abs/where/refs.bib", "refs.annotated.bib"),
    ("sub\\win.bib", "sub/win.annotated.bib"),
])
def test_copy_names_keep_the_path_inside_the_report_folder(file: str, name: str) -> None:
    assert copy_name(file, "annotated") == name


def test_file_formats_come_from_the_registry() -> None:
    files = {n for n in reporter_names() if isinstance(make_reporter(n), FileReporter)}
    assert {"json", "html", "sarif", "bib"} <= files
    assert not {"terminal", "github"} & files
    assert file_formats(Settings(formats=("terminal", "github"))) == []
    assert file_formats(Settings(formats=("terminal",), emit_fixed=True)) == ["bib"]
    assert file_formats(Settings(formats=("sarif", "json"))) == ["sarif", "json"]


def test_the_writer_writes_what_the_reporters_render(tmp_path: Path) -> None:
    """One writer: the file on disk is the registry reporter's own rendering."""
    from tests.report.factories import run_result

    result, settings = run_result(), Settings(formats=("json", "html", "sarif"))
    written = write_reports(result, settings, tmp_path)
    assert [p.name for p in written] == ["report.json", "report.html", "report.sarif"]
    for name, path in zip(("json", "html", "sarif"), written, strict=True):
        assert path.read_text(encoding="utf-8") == make_reporter(name).render(result, settings)
