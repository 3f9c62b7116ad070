"""latexmk integration: the printed snippet, the stamped hook command, and real latexmk."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from citecheck_tex.commands import latexmk
from citecheck_tex.commands.latexmk import STAMP_NAME, render_rc

from .conftest import FAKE_AUTHORS, bib_entry, load_records

WRONG_TITLE = "Quantum error correction with topological codes in six dimensions"
HAVE_TEX = all(shutil.which(t) for t in ("latexmk", "pdflatex", "bibtex", "perl"))


def _corrupt_bib(paper: Path) -> None:
    recs = load_records()
    (paper.parent / "refs.bib").write_text(
        "\n".join(bib_entry(r, title=WRONG_TITLE, authors=FAKE_AUTHORS) if i == 0
                  else bib_entry(r) for i, r in enumerate(recs)), encoding="utf-8")


def test_report_only_snippet_uses_success_cmd() -> None:
    rc = render_rc(options=["--offline", "--index", "/tmp/my index.sqlite"])
    assert "$success_cmd" in rc and "add_hook" not in rc
    # shell-quoted, then escaped for a Perl single-quoted string
    assert "latexmk-rc --run %T --offline --index \\'/tmp/my index.sqlite\\'" in rc


def test_failing_snippet_hooks_after_main_pdf_with_fallback() -> None:
    rc = render_rc(fail=True, options=["--fail-on", "minor"])
    assert "add_hook('after_main_pdf'" in rc
    assert "$citecheck_ver >= 4.84" in rc
    assert "$success_cmd = 'internal citecheck_tex_check %T'" in rc
    assert "END {" in rc and "--fail-on minor" in rc


@pytest.mark.skipif(shutil.which("perl") is None, reason="needs perl")
@pytest.mark.parametrize("fail", [False, True])
def test_snippets_compile_as_perl(tmp_path: Path, fail: bool) -> None:
    rc = tmp_path / "latexmkrc"
    rc.write_text(render_rc(fail=fail, options=["--offline"]), encoding="utf-8")
    proc = subprocess.run(["perl", "-c", str(rc)], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr


def test_main_prints_the_snippet(capsys: pytest.CaptureFixture[str]) -> None:
    assert latexmk.cli(["--fail", "--offline", "--command", "python -m citecheck_tex"]) == 0
    out = capsys.readouterr().out
    assert "'python -m citecheck_tex latexmk-rc --run '" in out
    assert "--offline" in out and "--command" not in out.split("# ----")[-2]


def test_hook_command_skips_unchanged_inputs(paper: Path, index_path: Path, tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "rep"
    argv = ["--run", str(paper), "--offline", "--index-complete", "--index", str(index_path), "--cache", "none",
            "--format", "json", "--out", str(out)]
    _corrupt_bib(paper)
    assert latexmk.cli(argv) == 1
    assert (out / STAMP_NAME).is_file() and (out / "report.json").is_file()
    capsys.readouterr()

    from citecheck_tex.commands import check

    def boom(*args: object, **kwargs: object) -> int:
        raise AssertionError("the check ran although nothing changed")

    monkeypatch.setattr(check, "run", boom)
    assert latexmk.cli(argv) == 1  # the recorded status, without a check
    assert "unchanged since the last check" in capsys.readouterr().out
    monkeypatch.undo()

    # a report deleted since (by hand, `latexmk -C`): the check runs to write it again
    (out / "report.json").unlink()
    assert latexmk.cli(argv) == 1
    assert "unchanged" not in capsys.readouterr().out and (out / "report.json").is_file()

    bib = paper.parent / "refs.bib"
    bib.write_text("\n".join(bib_entry(r) for r in load_records()),  # the entry corrected
                   encoding="utf-8")
    assert latexmk.cli(argv) == 0  # the edit is seen: checked again, now clean


def test_hook_command_needs_the_file_first() -> None:
    from citecheck_tex.errors import UsageError

    with pytest.raises(UsageError):
        latexmk.cli(["--run", "--offline"])


def _latexmk(folder: Path, rc_text: str) -> subprocess.CompletedProcess[str]:
    (folder / "latexmkrc").write_text(rc_text, encoding="utf-8")
    env = dict(os.environ)
    env["PYTHONPATH"] = str(Path(latexmk.__file__).resolve().parents[2])
    return subprocess.run(
        ["latexmk", "-pdf", "-interaction=nonstopmode", "-r", "latexmkrc", "paper.tex"],
        cwd=folder, capture_output=True, text=True, env=env, timeout=240, check=False,
    )


@pytest.mark.skipif(not HAVE_TEX, reason="needs latexmk, pdflatex, bibtex and perl")
def test_real_latexmk_report_only_and_failing(paper: Path, index_path: Path,
                                              tmp_path: Path) -> None:
    out = tmp_path / "rep"
    command = f"{sys.executable} -m citecheck_tex"
    opts = ["--offline", "--index-complete", "--index", str(index_path), "--cache", "none", "--format", "json",
            "--out", str(out)]
    _corrupt_bib(paper)
    folder = paper.parent

    proc = _latexmk(folder, render_rc(options=opts, command=command))
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert (folder / "paper.pdf").is_file()
    assert (out / "report.json").is_file()  # the report-only check ran after the build

    (folder / "paper.pdf").unlink()  # force a rebuild
    proc = _latexmk(folder, render_rc(fail=True, options=opts, command=command))
    assert proc.returncode != 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "references need attention" in proc.stderr


def _console_script() -> Path:
    script = Path(sys.executable).parent / "citecheck-tex"
    if not script.is_file():
        pytest.skip("the citecheck-tex console script is not installed beside this python")
    return script


def test_snippet_names_the_running_executable_not_a_bare_command(tmp_path: Path) -> None:
    """Issue 14: after the README install citecheck-tex is only in .venv/bin; a snippet
    calling bare `citecheck-tex` made latexmk print `not found` and pass silently."""
    script = _console_script()
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    proc = subprocess.run([str(script), "latexmk-rc", "--offline"], capture_output=True,
                          text=True, env=env, cwd=tmp_path, check=True)
    assert f"'{script} latexmk-rc --run %T --offline'" in proc.stdout
    proc = subprocess.run([sys.executable, "-m", "citecheck_tex", "latexmk-rc"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, check=True)
    assert f"'{sys.executable} -m citecheck_tex latexmk-rc --run %T'" in proc.stdout


@pytest.mark.skipif(not HAVE_TEX, reason="needs latexmk, pdflatex, bibtex and perl")
def test_real_latexmk_runs_the_snippet_without_citecheck_on_path(
        paper: Path, index_path: Path, tmp_path: Path) -> None:
    script = _console_script()
    out = tmp_path / "rep"
    opts = ["--offline", "--index", str(index_path), "--cache", "none", "--format", "json",
            "--out", str(out)]
    env = {"PATH": "/usr/bin:/bin", "HOME": str(tmp_path)}
    rc_text = subprocess.run([str(script), "latexmk-rc", *opts], capture_output=True, text=True,
                             env=env, check=True).stdout
    (paper.parent / "latexmkrc").write_text(rc_text, encoding="utf-8")
    proc = subprocess.run(
        ["latexmk", "-pdf", "-interaction=nonstopmode", "-r", "latexmkrc", "paper.tex"],
        cwd=paper.parent, capture_output=True, text=True, env=env, timeout=240, check=False)
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    assert "not found" not in proc.stdout + proc.stderr
    assert (out / "report.json").is_file()  # the hook really ran the check
