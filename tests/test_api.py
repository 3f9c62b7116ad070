"""The library API (``import citecheck_tex``; docs/api.md): a cheap import, ``check`` with
configuration keys as keywords, the command line's messages for bad input, the result
types exported, reports rendered and written from a result.

The sample papers (sample_papers/, with their real index records) are checked offline;
their expected labels are ``expected.json`` beside each paper.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import citecheck_tex
from citecheck_tex.cli import main
from citecheck_tex.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_papers" / "dark_matter_axions"
EXPECTED = json.loads((SAMPLE / "expected.json").read_text(encoding="utf-8"))["labels"]


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local index of the real records shipped with the sample papers (as `make demo`)."""
    from citecheck_tex.sources.local_index import import_files

    path = tmp_path_factory.mktemp("api") / "index.sqlite"
    import_files(path, sorted((ROOT / "sample_papers").glob("*/index_records*")))
    return path


def _python(code: str, home: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -c code`` from the repository root, as a user with an empty home runs it."""
    environ = {k: v for k, v in os.environ.items()
               if not k.startswith("CITECHECK_") and k not in ("PYTHONPATH",)}
    environ.update({"HOME": str(home), "XDG_DATA_HOME": str(home / "data"),
                    "XDG_CACHE_HOME": str(home / "cache"), **env})
    return subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                          text=True, env=environ, timeout=300, check=False)


def test_import_is_cheap(tmp_path: Path) -> None:
    """``import citecheck_tex`` loads the facade only: no HTTP client, parser, templates."""
    proc = _python("import sys, citecheck_tex; "
                   "print(sorted(m for m in sys.modules if m.split('.')[0] in "
                   "('citecheck_tex', 'httpx', 'jinja2', 'bibtexparser', 'pylatexenc')))",
                   tmp_path)
    assert proc.returncode == 0, proc.stderr
    assert eval(proc.stdout) == ["citecheck_tex", "citecheck_tex.version"]  # noqa: S307


def test_every_exported_name_resolves_and_all_is_complete() -> None:
    from citecheck_tex import _EXPORTS  # the facade's own table

    assert set(citecheck_tex.__all__) == {"__version__", *_EXPORTS}
    for name in citecheck_tex.__all__:
        value = getattr(citecheck_tex, name)
        assert value is not None, name
        if name != "__version__":
            assert getattr(value, "__module__", _EXPORTS[name]) == _EXPORTS[name], name
    assert citecheck_tex.Label.MAJOR.value == "MAJOR"
    assert citecheck_tex.VerdictCode("chimera").label is citecheck_tex.Label.MAJOR
    assert citecheck_tex.DiscrepancyCode("year-off-by-one").meaning
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        citecheck_tex.nothing  # type: ignore[attr-defined]  # noqa: B018


def test_the_documented_one_liner_works_from_a_clean_checkout(tmp_path: Path) -> None:
    """README / docs/api.md: with an empty user index every reference is UNVERIFIED
    (offline, nothing to consult), and the run says why; no traceback."""
    proc = _python("import citecheck_tex; "
                   "r = citecheck_tex.check('sample_papers/dark_matter_axions/paper.tex', "
                   "offline=True); print(r.summary()); "
                   "print(sorted({p.code for p in r.problems}))", tmp_path)
    assert proc.returncode == 0, proc.stderr
    summary_line, codes_line = proc.stdout.splitlines()
    summary = eval(summary_line)  # noqa: S307
    assert sum(summary.values()) == len(EXPECTED)
    assert summary["EXACT"] == summary["MINOR"] == summary["MAJOR"] == 0
    assert summary["UNVERIFIED"] == sum(1 for lab in EXPECTED.values() if lab != "SKIPPED")
    assert "index-empty" in eval(codes_line)  # noqa: S307
    assert "Traceback" not in proc.stderr


def test_the_one_liner_with_an_index_from_the_environment(tmp_path: Path,
                                                          sample_index: Path) -> None:
    """CITECHECK_INDEX applies to the library as to the command line."""
    proc = _python("import json, citecheck_tex; "
                   "r = citecheck_tex.check('sample_papers/dark_matter_axions/paper.tex', "
                   "offline=True, cache='none'); "
                   "print(json.dumps({v.entry.key: v.label.value for v in r.verdicts}))",
                   tmp_path, CITECHECK_INDEX=str(sample_index))
    assert proc.returncode == 0, proc.stderr
    assert json.loads(proc.stdout) == EXPECTED


def test_check_returns_the_typed_result(sample_index: Path) -> None:
    result = citecheck_tex.check(SAMPLE / "paper.tex", offline=True, index=str(sample_index),
                                 cache="none")
    assert isinstance(result, citecheck_tex.RunResult)
    assert {v.entry.key: v.label.value for v in result.verdicts} == EXPECTED
    for v in result.verdicts:
        assert isinstance(v.code, citecheck_tex.VerdictCode) and v.code.label is v.label
        for d in v.discrepancies:
            assert isinstance(d, citecheck_tex.Discrepancy)
            assert isinstance(d.code, citecheck_tex.DiscrepancyCode)
    minor = [v for v in result.verdicts if v.label is citecheck_tex.Label.MINOR]
    assert minor and all(v.discrepancies and v.suggested for v in minor)
    # the paper's citecheck.toml (index_complete = true) applied: nothing is UNVERIFIED
    assert not any(v.label is citecheck_tex.Label.UNVERIFIED for v in result.verdicts)
    assert citecheck_tex.fails(result, "minor") is True
    assert citecheck_tex.fails(result, "never") is False


def test_keywords_override_the_config_file(sample_index: Path) -> None:
    """index_complete = true in the paper's citecheck.toml; the keyword turns it off."""
    result = citecheck_tex.check(SAMPLE / "paper.tex", offline=True, index=str(sample_index),
                                 cache="none", index_complete=False, sources=["local"])
    by_key = {v.entry.key: v for v in result.verdicts}
    expected_major = [k for k, lab in EXPECTED.items() if lab == "MAJOR"]
    assert expected_major
    # without the declaration an index's silence is no evidence: never MAJOR by absence
    assert any(by_key[k].label is citecheck_tex.Label.UNVERIFIED for k in expected_major)


def test_an_unknown_keyword_names_the_closest_and_lists_the_valid_ones() -> None:
    with pytest.raises(UsageError) as info:
        citecheck_tex.check(SAMPLE / "paper.tex", ofline=True)
    text = str(info.value)
    assert "unknown setting 'ofline'" in text and "did you mean 'offline'?" in text
    for key in ("offline", "index", "cache", "sources", "tau_minor", "tau_exact"):
        assert f" {key}," in text or text.endswith(f" {key})")


def test_a_bad_value_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="'offline' has an invalid value 'maybe'"):
        citecheck_tex.check(SAMPLE / "paper.tex", offline="maybe")
    with pytest.raises(UsageError, match="unknown source 'nosuchdb'"):
        citecheck_tex.check(SAMPLE / "paper.tex", sources=["local", "nosuchdb"])


def test_a_missing_input_gives_the_command_lines_message(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nope.tex"
    with pytest.raises(UsageError) as info:
        citecheck_tex.check(missing, offline=True)
    assert main([str(missing), "--offline"]) == 2
    err = capsys.readouterr().err
    assert err == f"citecheck-tex: error: {info.value}\n"
    assert f"{missing}: no such file or folder" in err


def test_no_bibliography_is_one_error_holding_the_problem_and_nothing_printed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    paper = tmp_path / "paper.tex"
    paper.write_text("\\documentclass{article}\\begin{document}\\cite{a}\n"
                     "\\bibliography{ref}\\end{document}\n", encoding="utf-8")
    (tmp_path / "refs.bib").write_text("@article{a, title={A}, year={2001}}\n",
                                       encoding="utf-8")
    with pytest.raises(UsageError) as info:
        citecheck_tex.check(paper, offline=True, cache="none")
    assert capsys.readouterr() == ("", "")  # a library prints nothing
    text = str(info.value)
    assert "no bibliography could be read" in text
    assert "missing-file" in text and "refs.bib" in text  # the problem, in the message


def test_a_zip_is_refused_with_what_to_do(tmp_path: Path) -> None:
    archive = tmp_path / "paper.zip"
    archive.write_bytes(b"PK\x05\x06" + b"\x00" * 18)  # an empty zip
    with pytest.raises(UsageError, match="unpack it"):
        citecheck_tex.check(archive)


def test_render_and_write_reports(sample_index: Path, tmp_path: Path) -> None:
    result = citecheck_tex.check(SAMPLE / "paper.tex", offline=True, index=str(sample_index),
                                 cache="none")
    report = json.loads(citecheck_tex.render(result, "json"))
    assert report["schema"] == 2
    assert {e["key"]: e["label"] for e in report["entries"]} == EXPECTED
    sarif = json.loads(citecheck_tex.render(result, "sarif"))
    assert sarif["version"] == "2.1.0"
    with pytest.raises(UsageError, match="valid formats"):
        citecheck_tex.render(result, "pdf")
    with pytest.raises(UsageError, match="several files"):
        citecheck_tex.render(result, "bib")
    written = citecheck_tex.write_reports(result, tmp_path / "out", "json,html,bib")
    names = sorted(p.relative_to(tmp_path / "out").as_posix() for p in written)
    assert names == ["refs.annotated.bib", "report.html", "report.json"]
    on_disk = json.loads((tmp_path / "out" / "report.json").read_text("utf-8"))
    assert on_disk["entries"] == report["entries"]


def test_fails_rejects_an_unknown_level(sample_index: Path) -> None:
    result = citecheck_tex.check(SAMPLE / "refs.bib", offline=True, index=str(sample_index),
                                 cache="none")
    with pytest.raises(UsageError, match="valid levels: never, error"):
        citecheck_tex.fails(result, "severe")
