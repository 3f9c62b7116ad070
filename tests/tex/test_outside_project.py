"""Issue 12 row 13: files outside the project folder are read but never shown.

``\\input{../../../../etc/hostname}`` and ``\\addbibresource{/etc/passwd}`` were
followed silently and their keys and fields appeared in the reports. Now such a
file is still read (TeX reads it too, so its citation keys count), but it is
reported as ``outside-project`` at the line that reads it, its entries keep only
key, file and line, are SKIPPED (never sent to a source), and no report embeds
anything from it beyond the key.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from citecheck_tex.cli import main
from citecheck_tex.errors import InputError
from citecheck_tex.tex.project import load_project

ROOT = Path(__file__).resolve().parents[2]
PAPER = ROOT / "sample_papers" / "dark_matter_axions"
SECRET = "TOP-SECRET-PAYLOAD"


def _project(tmp_path: Path) -> tuple[Path, Path]:
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "hostname.tex").write_text(f"{SECRET}-host \\cite{{Secret2020}}\n",
                                          encoding="utf-8")
    secret_bib = outside / "secret.bib"
    secret_bib.write_text(
        "@article{Secret2020,\n"
        f"  title = {{{SECRET} title}},\n  author = {{{SECRET}, Author}},\n"
        "  journal = {Phys. Rev. Lett.}, volume = {116}, pages = {161804}, year = {2016}\n}\n"
        f"@article{{broken{SECRET}\n  title = {{x}},\n}}\n", encoding="utf-8")
    paper = tmp_path / "project" / "paper"
    paper.mkdir(parents=True)
    (paper / "refs.bib").write_text((PAPER / "refs.bib").read_text(encoding="utf-8"),
                                    encoding="utf-8")
    (paper / "main.tex").write_text(
        "\\documentclass{article}\n"
        "\\addbibresource{refs.bib}\n"
        f"\\addbibresource{{{secret_bib}}}\n"
        "\\begin{document}\n"
        "Axions \\cite{McAllister:2015zcz,Hui2017}.\n"
        "\\input{../../outside/hostname}\n"
        "\\end{document}\n", encoding="utf-8")
    return paper / "main.tex", outside


def test_outside_files_are_reported_and_redacted(tmp_path: Path) -> None:
    main_tex, _ = _project(tmp_path)
    project = load_project(main_tex)
    outside = [p for p in project.problems if p.code == "outside-project"]
    assert sorted((p.file, p.line) for p in outside) == [("main.tex", 3), ("main.tex", 6)]
    secret = next(e for e in project.entries if e.key == "Secret2020")  # cited there: counts
    assert secret.outside_project and not secret.fields and not secret.title
    assert not any(p.code == "undefined-key" for p in project.problems)
    assert not any(SECRET in p.message for p in project.problems if p.code != "outside-project")
    inside = next(e for e in project.entries if e.key == "Hui2017")
    assert inside.title and not inside.outside_project


def test_reports_carry_nothing_from_outside_files(tmp_path: Path) -> None:
    main_tex, _ = _project(tmp_path)
    out = tmp_path / "out"
    code = main([str(main_tex), "--offline", "--index", str(tmp_path / "none.sqlite"),
                 "--cache", "none", "--out", str(out), "--format", "json,html,bib,sarif",
                 "--emit-fixed", "--fail-on", "never"])
    assert code == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    by_key = {e["key"]: e for e in report["entries"]}
    assert by_key["Secret2020"]["label"] == "SKIPPED"
    assert "outside the project" in by_key["Secret2020"]["reason"]
    assert by_key["Hui2017"]["label"] == "UNVERIFIED"  # the paper's own entries are checked
    assert {p["code"] for p in report["problems"]} >= {"outside-project"}
    written = sorted(p.name for p in out.iterdir())
    assert "secret.annotated.bib" not in written and "refs.annotated.bib" in written
    for f in out.iterdir():
        assert SECRET not in f.read_text(encoding="utf-8", errors="replace"), f.name


def _shared_bib_repo(tmp_path: Path, cites: str) -> tuple[Path, Path]:
    """A git repository ``repo`` holding ``refs.bib`` and ``papers/a/main.tex``, which cites
    ``cites`` from ``\\bibliography{../../refs}``: (repository, paper folder)."""
    import subprocess

    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    paper = repo / "papers" / "a"
    paper.mkdir(parents=True)
    (repo / "refs.bib").write_text((PAPER / "refs.bib").read_text(encoding="utf-8"),
                                   encoding="utf-8")
    (paper / "main.tex").write_text(
        f"\\documentclass{{article}}\\begin{{document}}\\cite{{{cites}}}"
        "\\bibliography{../../refs}\\end{document}\n", encoding="utf-8")
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return repo, paper


def test_project_root_widens_the_project(tmp_path: Path) -> None:
    main_tex, _ = _project(tmp_path)
    project = load_project(main_tex, project_root=tmp_path)
    assert not any(p.code == "outside-project" for p in project.problems)
    secret = next(e for e in project.entries if e.key == "Secret2020")
    assert SECRET in secret.title and not secret.outside_project


@pytest.mark.skipif(not Path("/etc/passwd").is_file(), reason="no /etc/passwd here")
def test_system_files_by_absolute_and_climbing_paths(tmp_path: Path) -> None:
    climb = "../" * 40
    (tmp_path / "main.tex").write_text(
        "\\documentclass{article}\n\\addbibresource{/etc/passwd}\n"
        f"\\input{{{climb}etc/passwd}}\n\\begin{{document}}\\cite{{x}}\\end{{document}}\n",
        encoding="utf-8")
    project = load_project(tmp_path / "main.tex")
    assert sorted((p.file, p.line) for p in project.problems if p.code == "outside-project") \
        == [("main.tex", 2), ("main.tex", 3)]


def test_project_root_option_of_the_cli(tmp_path: Path) -> None:
    main_tex, _ = _project(tmp_path)
    out = tmp_path / "out"
    assert main([str(main_tex), "--offline", "--index", str(tmp_path / "none.sqlite"),
                 "--cache", "none", "--out", str(out), "--format", "json",
                 "--fail-on", "never", "--project-root", str(tmp_path)]) == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert "outside-project" not in {p["code"] for p in report["problems"]}
    secret = next(e for e in report["entries"] if e["key"] == "Secret2020")
    assert secret["label"] != "SKIPPED" and SECRET in secret["cited"]["title"]


def test_a_shared_bibliography_in_the_same_git_repository_is_inside(tmp_path: Path) -> None:
    """``papers/a/main.tex`` with ``\\bibliography{../../refs}`` in one repository: the
    repository is the project, so the shared .bib is checked like any other."""
    repo, paper = _shared_bib_repo(tmp_path, "Hui2017")
    project = load_project(paper / "main.tex")
    assert not [p for p in project.problems if p.code == "outside-project"]
    hui = next(e for e in project.entries if e.key == "Hui2017")
    assert hui.title and not hui.outside_project
    # outside git, the paper's own folder is the project: the same layout is reported
    shutil.rmtree(repo / ".git")
    project = load_project(paper / "main.tex")
    assert [p for p in project.problems if p.code == "outside-project"]


@pytest.mark.parametrize("root", ["missing", "elsewhere"])
def test_a_project_root_that_misses_the_paper_is_refused(tmp_path: Path, root: str) -> None:
    # a typo in --project-root made every file "outside" and every entry SKIPPED: a
    # paper with a fabricated reference passed, exit 0 (found 2026-12-02)
    main_tex, _ = _project(tmp_path)
    (tmp_path / "elsewhere").mkdir()
    with pytest.raises(InputError, match="project root"):
        load_project(main_tex, project_root=tmp_path / root)
    out = tmp_path / "out"
    assert main([str(main_tex), "--offline", "--cache", "none", "--index",
                 str(tmp_path / "i.sqlite"), "--out", str(out), "--format", "json",
                 "--project-root", str(tmp_path / root)]) == 2
    assert not (out / "report.json").exists()


def test_a_shared_bibliography_is_named_alike_from_any_folder(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``\\bibliography{../../refs}`` in one repository, run from the folder above it: the
    reports named the .bib by a path from the current folder joined to the paper's
    ("a/b/a/b/../../refs.bib"), so no annotated copy was written and SARIF and GitHub
    annotations pointed nowhere (found 2026-12-02)."""
    _shared_bib_repo(tmp_path, "Hui2017,McAllister:2015zcz")
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    assert {e.file for e in load_project(Path("repo/papers/a/main.tex")).entries} == {
        "../../refs.bib"}
    out = tmp_path / "out"
    main(["repo/papers/a/main.tex", "--offline", "--cache", "none", "--index",
          str(tmp_path / "i.sqlite"), "--out", str(out), "--format", "json,sarif,bib",
          "--fail-on", "never"])
    report = json.loads((out / "report.json").read_text())
    assert {e["file"] for e in report["entries"]} == {"../../refs.bib"}
    sarif = json.loads((out / "report.sarif").read_text())
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for result in sarif["runs"][0]["results"] for loc in result["locations"]}
    assert "refs.bib" in uris and not [u for u in uris if ".." in u]  # from the repo root
    (annotated,) = out.rglob("refs.annotated.bib")
    assert "Hui2017" in annotated.read_text()
