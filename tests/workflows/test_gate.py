"""arXiv gate on a clean and on broken submission folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.commands import gate
from citecheck_tex.commands.gate import FAIL, PASS, WARN, parse_readme_toplevel, run_gate
from citecheck_tex.config import Settings

from .conftest import FAKE_AUTHORS, bib_entry, load_records, tex_source

WRONG_TITLE = "Quantum error correction with topological codes in six dimensions"


def _bibitem(meta: dict[str, object], *, arxiv: str = "") -> str:
    m: dict = meta  # type: ignore[type-arg]
    pub = m["publication_info"][0]
    names = ", ".join(a["full_name"] for a in m["authors"])
    eprint = arxiv or f"arXiv:{m['arxiv_eprints'][0]['value']}"
    return (f"\\bibitem{{{m['texkeys'][0]}}}\n{names}.\n\\newblock {m['titles'][0]['title']}.\n"
            f"\\newblock {{\\em {pub['journal_title']}}}, {pub['journal_volume']}:"
            f"{pub['page_start']}, {pub['year']}.\n\\newblock {eprint}.\n\n")


def _bibtex_bbl(recs: list[dict[str, object]], *, split_first: bool = False) -> str:
    items = []
    for i, r in enumerate(recs):
        arxiv = ""
        if split_first and i == 0:
            num = r["arxiv_eprints"][0]["value"]  # type: ignore[index]
            arxiv = "arXiv:" + num.replace(".", ". ")
        items.append(_bibitem(r, arxiv=arxiv))
    head = "\\begin{thebibliography}{" + str(len(recs)) + "}\n\n"
    return head + "".join(items) + "\\end{thebibliography}\n"


def _submission(folder: Path, *, main: str = "main", bbl_name: str | None = "main",
                corrupt: bool = False, split: bool = False, readme: str = "") -> Path:
    recs = load_records()
    folder.mkdir(parents=True, exist_ok=True)
    keys = [r["texkeys"][0] for r in recs]  # type: ignore[index]
    (folder / f"{main}.tex").write_text(tex_source(keys), encoding="utf-8")
    bib = [bib_entry(r, title=WRONG_TITLE, authors=FAKE_AUTHORS) if corrupt and i == 0
           else bib_entry(r)
           for i, r in enumerate(recs)]
    (folder / "refs.bib").write_text("\n".join(bib), encoding="utf-8")
    if bbl_name:
        (folder / f"{bbl_name}.bbl").write_text(_bibtex_bbl(recs, split_first=split),
                                                encoding="utf-8")
    if readme:
        (folder / "00README").write_text(readme, encoding="utf-8")
    return folder


def _status(report: gate.GateReport, name: str) -> str:
    return next(c.status for c in report.checks if c.name == name)


def test_clean_submission_passes(tmp_path: Path, settings: Settings) -> None:
    folder = _submission(tmp_path / "clean")
    report = run_gate(folder, settings)
    assert report.passed, report.render()
    assert {c.name for c in report.checks} >= {"main-file", "bbl-file", "bbl-keys",
                                               "arxiv-ids", "references"}
    text = report.render()
    assert "gate: PASS" in text
    assert all(line.split()[0] in ("PASS", "SKIP") for line in text.splitlines()[1:-1])


def test_missing_bbl_with_bib_is_a_warning(tmp_path: Path, settings: Settings) -> None:
    report = run_gate(_submission(tmp_path / "s", bbl_name=None), settings, verify=False)
    assert _status(report, "bbl-file") == WARN
    assert report.passed


def test_bbl_named_after_another_file_fails(tmp_path: Path, settings: Settings) -> None:
    report = run_gate(_submission(tmp_path / "s", bbl_name="paper"), settings, verify=False)
    check = next(c for c in report.checks if c.name == "bbl-file")
    assert check.status == FAIL and "paper.bbl" in check.message and "main.bbl" in check.message
    assert not report.passed


def test_biblatex_without_bbl_fails(tmp_path: Path, settings: Settings) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage[backend=biber]{biblatex}\n"
        "\\addbibresource{refs.bib}\n\\begin{document}\\cite{a}\\printbibliography"
        "\\end{document}\n", encoding="utf-8")
    (folder / "refs.bib").write_text("@article{a, title={A}, author={B, C}, year={2000}}\n",
                                     encoding="utf-8")
    report = run_gate(folder, settings, verify=False)
    check = next(c for c in report.checks if c.name == "bbl-file")
    assert check.status == FAIL and "Biber" in check.message


@pytest.mark.parametrize(("version", "expected"), [("3.3", PASS), ("3.2", FAIL)])
def test_biblatex_bbl_format_version(tmp_path: Path, settings: Settings, version: str,
                                     expected: str) -> None:
    folder = tmp_path / "s"
    folder.mkdir()
    (folder / "main.tex").write_text(
        "\\documentclass{article}\n\\usepackage{biblatex}\n\\addbibresource{refs.bib}\n"
        "\\begin{document}\\cite{a}\\printbibliography\\end{document}\n", encoding="utf-8")
    (folder / "refs.bib").write_text("@article{a, title={A}, author={B, C}, year={2000}}\n",
                                     encoding="utf-8")
    (folder / "main.bbl").write_text(
        "% $ biblatex auxiliary file $\n"
        f"% $ biblatex bbl format version {version} $\n"
        "% Do not modify the above lines!\n\\begingroup\n\\makeatletter\n"
        "\\@ifundefined{ver@biblatex.sty}{}{}\n\\endgroup\n\\refsection{0}\n"
        "  \\datalist[entry]{nty/global//global/global/global}\n"
        "    \\entry{a}{article}{}{}\n      \\field{title}{A}\n    \\endentry\n"
        "  \\enddatalist\n\\endrefsection\n\\endinput\n", encoding="utf-8")
    report = run_gate(folder, settings, verify=False)
    check = next(c for c in report.checks if c.name == "bbl-format")
    assert check.status == expected
    if expected == FAIL:
        assert check.line == 2 and "3.3" in check.message


def test_split_arxiv_id_fails_with_line(tmp_path: Path, settings: Settings) -> None:
    report = run_gate(_submission(tmp_path / "s", split=True), settings, verify=False)
    check = next(c for c in report.checks if c.name == "arxiv-ids")
    assert check.status == FAIL
    assert check.file.endswith("main.bbl") and check.line > 0


def test_stale_bbl_fails(tmp_path: Path, settings: Settings) -> None:
    folder = _submission(tmp_path / "s")
    tex = folder / "main.tex"
    tex.write_text(tex.read_text().replace("\\bibliographystyle", "\\cite{Witten:1998qj}\n"
                                           "\\bibliographystyle"), encoding="utf-8")
    report = run_gate(folder, settings, verify=False)
    check = next(c for c in report.checks if c.name == "bbl-keys")
    assert check.status == FAIL and "Witten:1998qj" in check.message


def test_major_reference_fails_and_fail_on_never_passes(tmp_path: Path,
                                                        settings: Settings) -> None:
    folder = _submission(tmp_path / "s", corrupt=True)
    report = run_gate(folder, settings)
    check = next(c for c in report.checks if c.name == "references")
    assert check.status == FAIL and "MAJOR" in check.message
    first_key = load_records()[0]["texkeys"][0]  # type: ignore[index]
    assert first_key in check.message
    from dataclasses import replace

    relaxed = run_gate(folder, replace(settings, fail_on="never"))
    assert relaxed.passed


def test_readme_toplevel_picks_the_main_file(tmp_path: Path, settings: Settings) -> None:
    folder = _submission(tmp_path / "s", main="paper", bbl_name="paper",
                         readme="paper.tex toplevel\nfigs/old.tex ignore\n")
    (folder / "supplement.tex").write_text("\\documentclass{article}\n\\begin{document}x"
                                           "\\end{document}\n", encoding="utf-8")
    report = run_gate(folder, settings, verify=False)
    assert report.main_file.endswith("paper.tex")
    assert "00README" in report.checks[0].message


def test_two_candidates_without_readme_fail(tmp_path: Path, settings: Settings) -> None:
    folder = _submission(tmp_path / "s")
    (folder / "other.tex").write_text("\\documentclass{article}\n\\begin{document}x"
                                      "\\end{document}\n", encoding="utf-8")
    report = run_gate(folder, settings)
    assert report.checks[0].status == FAIL and "00README" in report.checks[0].message
    assert not report.passed


def test_readme_formats() -> None:
    assert parse_readme_toplevel("main.tex toplevel\nfig.tex ignore\nnohypertex\n",
                                 "00README.XXX") == ["main.tex"]
    yaml = ("process:\n  compiler: pdflatex\nsources:\n  - filename: intro.tex\n"
            "    usage: include\n  - filename: \"ms.tex\"\n    usage: toplevel\n")
    assert parse_readme_toplevel(yaml, "00README.yaml") == ["ms.tex"]
    js = '{"sources": [{"filename": "ms.tex", "usage": "toplevel"}]}'
    assert parse_readme_toplevel(js, "00README.json") == ["ms.tex"]
    assert parse_readme_toplevel("{not json", "00README.json") == []


def test_main_exit_codes_and_summary(tmp_path: Path, index_path: Path,
                                     capsys: pytest.CaptureFixture[str]) -> None:
    opts = ["--offline", "--index-complete", "--index", str(index_path), "--cache", "none"]
    clean = _submission(tmp_path / "clean")
    assert gate.cli([str(clean), *opts]) == 0
    out = capsys.readouterr().out
    assert out.strip().endswith("checks)") and "gate: PASS" in out
    broken = _submission(tmp_path / "broken", bbl_name="paper", split=True, corrupt=True)
    assert gate.cli([str(broken), *opts]) == 1
    out = capsys.readouterr().out
    assert "gate: FAIL" in out
    assert sum(line.startswith("FAIL") for line in out.splitlines()) >= 2


# --------------------------------------------------- one walker and main-file rule (tex/project)


def test_gate_and_check_pick_the_same_main_file(tmp_path: Path, settings: Settings) -> None:
    """A ``standalone`` figure beside the paper is no second main file, for the gate as for
    ``check`` on the folder (the gate's own rule once called both candidates)."""
    from citecheck_tex.tex.project import load_project

    folder = _submission(tmp_path / "s")
    (folder / "figure.tex").write_text("\\documentclass[tikz]{standalone}\n\\begin{document}"
                                       "x\\end{document}\n", encoding="utf-8")
    report = run_gate(folder, settings, verify=False)
    assert _status(report, "main-file") == PASS
    assert Path(report.main_file) == folder / "main.tex"
    assert Path(load_project(folder).main_file) == Path(report.main_file)


def test_commented_biblatex_is_not_biblatex(tmp_path: Path, settings: Settings) -> None:
    """``% \\usepackage{biblatex}`` is a comment: the paper uses BibTeX, so a missing .bbl
    with the .bib present is a warning, not "arXiv does not run Biber"."""
    folder = _submission(tmp_path / "s", bbl_name=None)
    main = folder / "main.tex"
    main.write_text(main.read_text(encoding="utf-8").replace(
        "\\begin{document}", "% \\usepackage[backend=biber]{biblatex}\n\\begin{document}", 1),
        encoding="utf-8")
    assert "% \\usepackage[backend=biber]{biblatex}" in main.read_text(encoding="utf-8")
    report = run_gate(folder, settings, verify=False)
    assert _status(report, "bbl-file") == WARN


def test_gate_follows_includes_as_the_project_loader_does(tmp_path: Path,
                                                          settings: Settings) -> None:
    """``\\subimport`` resolves from the including file's folder: a citation there is seen
    by the gate (a key missing from the .bbl fails bbl-keys) as by ``check``."""
    from citecheck_tex.tex.project import load_project

    folder = _submission(tmp_path / "s")
    (folder / "parts" / "deep").mkdir(parents=True)
    (folder / "parts" / "one.tex").write_text("\\subimport{deep/}{two}\n", encoding="utf-8")
    (folder / "parts" / "deep" / "two.tex").write_text("See \\cite{NotInBbl:2020}.\n",
                                                       encoding="utf-8")
    main = folder / "main.tex"
    main.write_text(main.read_text(encoding="utf-8").replace(
        "\\begin{document}", "\\begin{document}\n\\import{parts/}{one}", 1), encoding="utf-8")
    assert "NotInBbl:2020" in {s.key for s in load_project(main).sites}
    check = next(c for c in run_gate(folder, settings, verify=False).checks
                 if c.name == "bbl-keys")
    assert check.status == FAIL and "NotInBbl:2020" in check.message
    assert check.file == "parts/deep/two.tex"


def test_the_references_line_names_input_errors_beside_majors(tmp_path: Path,
                                                              settings: Settings) -> None:
    # with MAJORs present the one line said only "1 at or above MAJOR", hiding an
    # undefined key (2026-12-02)
    folder = _submission(tmp_path / "s", corrupt=True)
    main = folder / "main.tex"
    main.write_text(main.read_text(encoding="utf-8").replace(
        "\\end{document}", "\\cite{Nowhere:2099xx}\n\\end{document}"), encoding="utf-8")
    check = next(c for c in run_gate(folder, settings).checks if c.name == "references")
    assert check.status == FAIL and "at or above MAJOR" in check.message
    assert "input error(s): undefined-key" in check.message
    assert "Nowhere:2099xx" in check.message
