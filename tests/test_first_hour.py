"""Issue 14, the author's first hour: safe advice, broken input that fails, CI paths,
a quiet terminal. Real inputs: the shipped sample papers and their real index records."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest

from citecheck_tex.cli import main
from citecheck_tex.commands.options import exit_status
from citecheck_tex.config import FAIL_ON_CHOICES
from citecheck_tex.model import Label, Problem
from citecheck_tex.report.terminal import render_terminal
from citecheck_tex.tex.project import load_project
from tests.report.factories import run_result

ROOT = Path(__file__).resolve().parent.parent
AXIONS = ROOT / "sample_papers" / "dark_matter_axions"
HOLO = ROOT / "sample_papers" / "holography_qcd"


@pytest.fixture(scope="module")
def holo_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An index built for the holography paper only: it lacks the axion paper's works."""
    index = tmp_path_factory.mktemp("idx") / "holo.sqlite"
    assert main(["index", "add", *map(str, sorted(HOLO.glob("index_records*"))),
                 "--index", str(index)]) == 0
    return index


@pytest.fixture(scope="module")
def axions_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    index = tmp_path_factory.mktemp("idx") / "axions.sqlite"
    assert main(["index", "add", *map(str, sorted(AXIONS.glob("index_records*"))),
                 "--index", str(index)]) == 0
    return index


def _report(out: Path) -> dict[str, object]:
    return json.loads((out / "report.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


# ------------------------------------------------------------- 1. advice and a false index


def test_index_complete_for_another_paper_gives_no_false_major(
        holo_index: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Following the old advice (--index-complete with an index built for another paper)
    labelled every missing real work MAJOR; now the run refuses the declaration."""
    code = main([str(AXIONS / "paper.tex"), "--offline", "--index-complete", "--index",
                 str(holo_index), "--cache", "none", "--out", str(tmp_path), "--format",
                 "terminal,json"])
    report = _report(tmp_path)
    labels = [e["label"] for e in report["entries"]]  # type: ignore[attr-defined]
    assert "MAJOR" not in labels
    assert labels.count("UNVERIFIED") > len(labels) // 2
    (problem,) = [p for p in report["problems"] if p["code"] == "index-incomplete"]  # type: ignore[attr-defined]
    assert "not built for this paper" in problem["message"]
    assert code == 1
    out = capsys.readouterr().out
    assert "index-incomplete" in out and "--index-complete`" not in out


def test_index_built_for_the_paper_keeps_its_majors(axions_index: Path, tmp_path: Path) -> None:
    expected = json.loads((AXIONS / "expected.json").read_text(encoding="utf-8"))["labels"]
    main([str(AXIONS / "paper.tex"), "--offline", "--index-complete", "--index",
          str(axions_index), "--cache", "none", "--out", str(tmp_path), "--format", "json"])
    report = _report(tmp_path)
    got = {e["key"]: e["label"] for e in report["entries"]}  # type: ignore[attr-defined]
    assert got == expected
    assert not [p for p in report["problems"] if p["code"] == "index-incomplete"]  # type: ignore[attr-defined]


def test_offline_advice_never_suggests_index_complete(holo_index: Path, tmp_path: Path,
                                                       capsys: pytest.CaptureFixture[str]) -> None:
    paper = tmp_path / "paper"
    shutil.copytree(AXIONS, paper)
    (paper / "citecheck.toml").unlink()
    main([str(paper / "paper.tex"), "--offline", "--index", str(holo_index),
          "--cache", "none", "--out", str(tmp_path / "o"), "--format", "terminal,json,html"])
    out = capsys.readouterr().out
    assert "re-run online" in out
    html = (tmp_path / "o" / "report.html").read_text(encoding="utf-8")
    for text in (out, html, (tmp_path / "o" / "report.json").read_text(encoding="utf-8")):
        assert "--index-complete" not in text


# ------------------------------------------------------------- 3. broken input fails


def test_fail_on_levels_are_ordered_and_errors_fail_by_default() -> None:
    assert FAIL_ON_CHOICES == ("never", "error", "major", "minor", "unverified", "warning")
    from citecheck_tex.verify.policy import FAIL_LABELS

    assert tuple(FAIL_LABELS) == FAIL_ON_CHOICES  # one level list: settings and policy agree
    clean = replace(run_result(), verdicts=tuple(
        v for v in run_result().verdicts if v.label in (Label.EXACT, Label.SKIPPED)),
        problems=())
    broken = replace(clean, problems=(Problem("undefined-key", "x", key="k"),))
    hygiene = replace(clean, problems=(Problem("unused-entry", "y", key="k"),))
    got = {level: (exit_status(clean, level), exit_status(broken, level),
                   exit_status(hygiene, level)) for level in FAIL_ON_CHOICES}
    assert got == {"never": (0, 0, 0), "error": (0, 1, 0), "major": (0, 1, 0),
                   "minor": (0, 1, 0), "unverified": (0, 1, 0), "warning": (0, 1, 1)}


def test_empty_bib_is_an_error(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("% nothing here yet\n", encoding="utf-8")
    code = main([str(bib), "--offline", "--cache", "none", "--out", str(tmp_path / "o"),
                 "--format", "json"])
    problems = _report(tmp_path / "o")["problems"]
    assert [p["code"] for p in problems if p["code"] == "empty-bib"] == ["empty-bib"]  # type: ignore[attr-defined]
    assert code == 1
    assert main([str(bib), "--offline", "--cache", "none", "--out", str(tmp_path / "p"),
                 "--format", "json", "--fail-on", "never"]) == 0


def test_unparsable_bib_fails(tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    bib.write_text("@article{broken, title = {Unclosed, year = 2020\n", encoding="utf-8")
    code = main([str(bib), "--offline", "--cache", "none", "--out", str(tmp_path / "o"),
                 "--format", "json"])
    codes = {p["code"] for p in _report(tmp_path / "o")["problems"]}  # type: ignore[attr-defined]
    assert "parse-error" in codes and code == 1


def test_missing_bibliography_names_the_candidate_and_collapses_undefined_keys(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    paper = tmp_path / "paper"
    shutil.copytree(AXIONS, paper)
    tex = (paper / "paper.tex").read_text(encoding="utf-8")
    assert "\\bibliography{refs}" in tex
    (paper / "paper.tex").write_text(tex.replace("\\bibliography{refs}", "\\bibliography{ref}"),
                                     encoding="utf-8")
    project = load_project(paper / "paper.tex")
    missing = [p for p in project.problems if p.code == "missing-file"]
    assert len(missing) == 1
    assert "ref.bib" in missing[0].message and "did you mean 'refs.bib'" in missing[0].message
    undefined = [p for p in project.problems if p.code == "undefined-key"]
    assert len(undefined) == 1 and "because bibliography 'ref.bib' was not found" in \
        undefined[0].message
    assert main([str(paper / "paper.tex"), "--offline", "--cache", "none"]) == 2
    err = capsys.readouterr().err
    assert len([ln for ln in err.splitlines() if "undefined-key" in ln]) == 1


# ------------------------------------------------------------- 2. CI paths from the repo root


def _git_repo_with_paper(tmp_path: Path) -> Path:
    if shutil.which("git") is None:
        pytest.skip("git is not installed")
    repo = tmp_path / "repo"
    paper = repo / "papers" / "axions"
    shutil.copytree(AXIONS, paper)
    subprocess.run(["git", "init", "-q", str(repo)], check=True)
    return paper


def test_sarif_and_github_paths_are_relative_to_the_repository_root(
        axions_index: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    paper = _git_repo_with_paper(tmp_path)
    monkeypatch.delenv("GITHUB_WORKSPACE", raising=False)
    monkeypatch.chdir(tmp_path)
    main([str(paper / "paper.tex"), "--offline", "--index", str(axions_index), "--cache",
          "none", "--out", str(tmp_path / "o"), "--format", "sarif,github"])
    out = capsys.readouterr().out
    files = {part.split(",")[0] for part in out.split("file=")[1:]}
    assert files and files <= {"papers/axions/refs.bib", "papers/axions/paper.tex",
                               "papers/axions/sections/results.tex",
                               "papers/axions/sections/intro.tex"}, files
    assert "papers/axions/refs.bib" in files
    sarif = json.loads((tmp_path / "o" / "report.sarif").read_text(encoding="utf-8"))
    uris = {loc["physicalLocation"]["artifactLocation"]["uri"]
            for r in sarif["runs"][0]["results"] for loc in r["locations"]}
    assert uris and all(u.startswith("papers/axions/") for u in uris), uris
    for uri in uris:  # every location names a real file of the repository
        assert (tmp_path / "repo" / uri).is_file(), uri


def test_path_root_and_github_workspace(axions_index: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    paper = _git_repo_with_paper(tmp_path)
    args = [str(paper / "paper.tex"), "--offline", "--index", str(axions_index), "--cache",
            "none", "--out", str(tmp_path / "o"), "--format", "github"]
    main([*args, "--path-root", str(paper.parent)])
    assert "file=axions/refs.bib," in capsys.readouterr().out
    monkeypatch.setenv("GITHUB_WORKSPACE", str(paper))
    main(args)
    assert "file=refs.bib," in capsys.readouterr().out


# ------------------------------------------------------------- 8. quiet where tools read us


def test_unused_entries_are_summarised_unless_verbose() -> None:
    unused = tuple(Problem("unused-entry", f"'k{i}' is defined but never cited", key=f"k{i}",
                           file="refs.bib", line=i) for i in range(1, 18))
    res = replace(run_result(), problems=unused)
    out = render_terminal(res, color=False)
    assert "17 unused entries in refs.bib; --verbose lists them" in out
    assert "'k3'" not in out
    assert render_terminal(res, color=False, verbose=True).count("never cited") == 17


def test_failed_source_is_one_line_not_one_per_reference() -> None:
    from citecheck_tex.model import Attempt, SourceStatus, VerdictCode

    base = run_result()
    failed = Attempt("inspire", "texkey", SourceStatus.ERROR, message="HTTP 503")
    vs = tuple(replace(v, label=Label.UNVERIFIED, attempts=(failed,), discrepancies=(),
                       suggested=None, code=VerdictCode.SOURCE_FAILED,
                       facts={"sources": "inspire"})
               for v in base.verdicts[:4])
    assert vs[0].reason == "No record found and inspire could not be consulted."
    out = render_terminal(replace(base, verdicts=vs), color=False)
    assert "could not be consulted" not in out
    assert "4 UNVERIFIED because a source failed" in out


def test_no_progress_bar_when_stdout_is_not_a_terminal(axions_index: Path, tmp_path: Path) -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "citecheck_tex", str(AXIONS / "paper.tex"),
         "--offline", "--index", str(axions_index), "--cache", "none", "--out",
         str(tmp_path / "o"), "--format", "terminal"],
        capture_output=True, text=True, check=False)
    assert "Summary:" in proc.stdout
    assert "█" not in proc.stderr + proc.stdout and "░" not in proc.stderr


def test_top_level_help_lists_every_subcommand(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    for sub in ("index", "watch", "gate", "latexmk-rc", "ignore"):
        assert sub in out.split("positional arguments")[0], sub


def test_ci_messages_never_offer_a_majors_closest_record_as_a_correction() -> None:
    from citecheck_tex.report.github import render_github
    from citecheck_tex.report.sarif import render_sarif

    res = run_result()
    major = next(v for v in res.verdicts if v.label is Label.MAJOR and v.match is None)
    assert major.discrepancies  # the closest record differs in these fields
    line = next(ln for ln in render_github(res).splitlines() if major.entry.key in ln)
    # (the reason itself says "the closest one found differs in title": no value given)
    assert 'found "' not in line and major.discrepancies[0].found not in line
    sarif = json.loads(render_sarif(res))
    text = next(r["message"]["text"] for r in sarif["runs"][0]["results"]
                if r.get("properties", {}).get("key") == major.entry.key)
    assert 'found "' not in text and major.reason.rstrip(".") in text


# ------------------------------------------------------------- 9. a project .zip as INPUT


def _zip_folder(folder: Path, archive: Path, top: str = "") -> None:
    import zipfile

    with zipfile.ZipFile(archive, "w") as zf:
        for f in sorted(folder.rglob("*")):
            if f.is_file() and "citecheck-report" not in f.parts:
                zf.write(f, (f"{top}/" if top else "") + f.relative_to(folder).as_posix())


@pytest.mark.parametrize("top", ["", "dark_matter_axions"])
def test_a_project_zip_is_checked_like_its_folder(axions_index: Path, tmp_path: Path,
                                                  top: str) -> None:
    """Overleaf's "Download source" is a zip of the project, files at the top."""
    archive = tmp_path / "project.zip"
    _zip_folder(AXIONS, archive, top)
    code = main([str(archive), "--offline", "--index", str(axions_index), "--cache", "none",
                 "--format", "json,bib"])
    report = _report(tmp_path / "citecheck-report")  # beside the archive
    expected = json.loads((AXIONS / "expected.json").read_text(encoding="utf-8"))
    assert {e["key"]: e["label"] for e in report["entries"]} == expected["labels"]  # type: ignore[attr-defined]
    assert (tmp_path / "citecheck-report" / "refs.annotated.bib").is_file()
    assert report["input"] == str(archive)  # not the temporary folder
    assert code == 1  # the planted MAJOR references


def test_a_zip_that_escapes_its_folder_is_refused(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    import zipfile

    archive = tmp_path / "evil.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("paper.tex", "\\documentclass{article}\\begin{document}\\end{document}")
        zf.writestr("../escaped.tex", "x")
    assert main([str(archive), "--offline", "--cache", "none"]) == 2
    assert "points outside the archive" in capsys.readouterr().err
    assert not (tmp_path.parent / "escaped.tex").exists()
    (tmp_path / "broken.zip").write_bytes(b"PK\x03\x04 not really")
    assert main([str(tmp_path / "broken.zip"), "--offline", "--cache", "none"]) == 2
    assert "not a readable .zip" in capsys.readouterr().err
