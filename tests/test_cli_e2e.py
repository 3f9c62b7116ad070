"""End to end: the CLI on the sample papers, offline, against their shipped real records."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from citecheck_tex.cli import main

ROOT = Path(__file__).resolve().parent.parent
PAPERS = sorted(p for p in (ROOT / "sample_papers").iterdir() if (p / "expected.json").is_file())


@pytest.fixture(scope="module")
def demo_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    index = tmp_path_factory.mktemp("idx") / "index.sqlite"
    files = sorted(str(f) for f in (ROOT / "sample_papers").glob("*/index_records*"))
    assert files, "sample papers ship their index records"
    assert main(["index", "add", *files, "--index", str(index)]) == 0
    return index


def _run(paper: Path, index: Path, out: Path, *extra: str) -> tuple[int, dict[str, object]]:
    code = main([str(paper / "paper.tex"), "--offline", "--index", str(index), "--cache", "none",
                 "--out", str(out), "--format", "json,html,bib,sarif", *extra])
    return code, json.loads((out / "report.json").read_text(encoding="utf-8"))


@pytest.mark.parametrize("paper", PAPERS, ids=lambda p: p.name)
def test_sample_paper_labels_match_what_was_planted(paper: Path, demo_index: Path, tmp_path: Path) -> None:
    expected = json.loads((paper / "expected.json").read_text(encoding="utf-8"))
    code, report = _run(paper, demo_index, tmp_path)
    got = {e["key"]: e["label"] for e in report["entries"]}  # type: ignore[index, union-attr]
    assert got == expected["labels"]
    # MAJOR planted -> exit 1 with the default --fail-on major
    assert code == (1 if "MAJOR" in expected["labels"].values() else 0)
    problems = {(p["code"], p["key"]) for p in report["problems"]}  # type: ignore[index, union-attr]
    for p in expected["problems"]:
        assert (p["code"], p["key"]) in problems
    # the wrong fields of MINOR entries are named, with a suggestion
    for e in report["entries"]:  # type: ignore[union-attr]
        if e["label"] == "MINOR":
            fields = {d["field"] for d in e["discrepancies"]}
            assert set(expected["minor_fields"].get(e["key"], [])) <= fields, e["key"]
            assert e["suggested"]
    assert (tmp_path / "report.html").is_file()
    assert (tmp_path / "report.sarif").is_file()
    assert list(tmp_path.glob("*.annotated.bib"))


def test_offline_with_an_index_not_declared_complete_never_says_major(
        demo_index: Path, tmp_path: Path) -> None:
    """The same paper without its citecheck.toml (index_complete = true): what the local
    index cannot match offline is UNVERIFIED, never MAJOR, and the run does not fail."""
    import shutil

    paper = tmp_path / "paper"
    shutil.copytree(PAPERS[0], paper)
    (paper / "citecheck.toml").unlink()
    expected = json.loads((PAPERS[0] / "expected.json").read_text(encoding="utf-8"))["labels"]
    code, report = _run(paper, demo_index, tmp_path / "out")
    got = {e["key"]: e for e in report["entries"]}  # type: ignore[union-attr]
    planted_major = [k for k, label in expected.items() if label == "MAJOR"]
    assert planted_major
    for key in planted_major:
        assert got[key]["label"] == "UNVERIFIED", key
        assert "re-run online" in got[key]["reason"]
        assert "--index-complete" not in got[key]["reason"]
    assert not [k for k, e in got.items() if e["label"] == "MAJOR"]
    # what the index does hold is still confirmed or corrected
    for key, label in expected.items():
        if label in ("EXACT", "MINOR"):
            assert got[key]["label"] == label, key
    # no MAJOR fails the run; the planted undefined key (broken input, issue 14) still does
    assert code == 1
    assert {p["code"] for p in report["problems"]} >= {"undefined-key"}  # type: ignore[index, union-attr]


def test_summary_and_contract_keys(demo_index: Path, tmp_path: Path) -> None:
    _, report = _run(PAPERS[0], demo_index, tmp_path)
    assert report["schema"] == 2
    from citecheck_tex.model import VerdictCode

    for e in report["entries"]:  # type: ignore[union-attr]
        assert VerdictCode(e["code"]).label.value == e["label"]  # type: ignore[call-arg, index]
    assert set(report) >= {"schema", "tool", "input", "offline", "summary", "entries", "problems"}
    assert report["offline"] is True
    summary = report["summary"]
    assert set(summary) == {"EXACT", "MINOR", "MAJOR", "UNVERIFIED", "SKIPPED"}  # type: ignore[arg-type]
    assert sum(summary.values()) == len(report["entries"])  # type: ignore[union-attr, arg-type]


def test_user_files_are_never_modified(demo_index: Path, tmp_path: Path) -> None:
    before = {p: p.read_bytes() for p in PAPERS[0].rglob("*") if p.is_file()}
    _run(PAPERS[0], demo_index, tmp_path, "--emit-fixed")
    after = {p: p.read_bytes() for p in PAPERS[0].rglob("*") if p.is_file()}
    assert before == after


def test_fail_on_never_and_minor(demo_index: Path, tmp_path: Path) -> None:
    code, _ = _run(PAPERS[0], demo_index, tmp_path / "a", "--fail-on", "never")
    assert code == 0
    code, _ = _run(PAPERS[0], demo_index, tmp_path / "b", "--fail-on", "minor")
    assert code == 1


def test_offline_with_empty_index_is_unverified_not_major(tmp_path: Path) -> None:
    paper = PAPERS[0]
    code = main([str(paper / "paper.tex"), "--offline", "--index", str(tmp_path / "none.sqlite"),
                 "--cache", "none", "--out", str(tmp_path / "o"), "--format", "json"])
    report = json.loads((tmp_path / "o" / "report.json").read_text(encoding="utf-8"))
    labels = {e["label"] for e in report["entries"]}
    assert "MAJOR" not in labels and "EXACT" not in labels and "MINOR" not in labels
    assert "UNVERIFIED" in labels
    # no reference fails the run; only the planted undefined key (broken input) does
    assert code == 1
    assert {p["code"] for p in report["problems"] if p["severity"] == "error"} == {"undefined-key"}
    assert any(p["code"] == "index-empty" for p in report["problems"])


def test_missing_input_is_exit_2_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code = main([str(tmp_path / "nope.tex"), "--offline"])
    err = capsys.readouterr().err
    assert code == 2
    assert "nope.tex" in err and "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_tex_without_bibliography_is_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    tex = tmp_path / "p.tex"
    tex.write_text("\\documentclass{article}\\begin{document}Hello \\cite{x}.\\end{document}\n")
    code = main([str(tex), "--offline", "--cache", "none", "--index", str(tmp_path / "i.sqlite")])
    err = capsys.readouterr().err
    assert code == 2
    assert "bibliography" in err and "Traceback" not in err


def test_broken_bib_entry_does_not_stop_the_run(demo_index: Path, tmp_path: Path) -> None:
    bib = tmp_path / "refs.bib"
    good = (PAPERS[0] / "refs.bib").read_text(encoding="utf-8")
    bib.write_text("@article{broken\n  title = {A},\n}\n\n" + good, encoding="utf-8")
    out = tmp_path / "o"
    code = main([str(bib), "--offline", "--index", str(demo_index), "--cache", "none",
                 "--out", str(out), "--format", "json"])
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    assert code in (0, 1)
    assert any(p["code"] == "parse-error" and p["line"] >= 1 for p in report["problems"])
    assert len(report["entries"]) >= 10


def test_unknown_option_is_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["x.tex", "--fail-on", "sometimes"]) == 2
    assert "Traceback" not in capsys.readouterr().err


def test_python_dash_m_entry_point() -> None:
    out = subprocess.run([sys.executable, "-m", "citecheck_tex", "--version"],
                         capture_output=True, text=True, check=True)
    assert out.stdout.startswith("citecheck-tex ")


def test_index_add_of_an_unreadable_dump_fails_after_importing_the_rest(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    unknown = tmp_path / "unknown.jsonl"
    unknown.write_text('{"foo": 1}\n', encoding="utf-8")
    good = sorted((ROOT / "sample_papers").glob("*/index_records.jsonl"))[0]
    index = tmp_path / "i.sqlite"
    assert main(["index", "add", str(unknown), str(good), "--index", str(index)]) == 2
    out, err = capsys.readouterr()
    assert "nothing imported from" in err and "unknown.jsonl" in err
    assert err.count("not a record of a known dump format") == 0  # listed once, on stdout
    assert out.count("not a record of a known dump format") == 1
    assert main(["index", "stats", "--index", str(index)]) == 0
    assert "records" in capsys.readouterr().out  # the good file was imported


def test_an_undefined_texkey_is_told_which_paper_it_is(
        demo_index: Path, tmp_path: Path) -> None:
    """\\cite{Scardina:2012hy} with no .bib entry: the index knows that INSPIRE texkey
    (a real record of the sample index), so the problem names the paper."""
    (tmp_path / "paper.tex").write_text(
        "\\documentclass{article}\\begin{document}\n"
        "See \\cite{Scardina:2012hy} and \\cite{Nobody:2099xyz}.\n"
        "\\bibliography{refs}\\end{document}\n", encoding="utf-8")
    (tmp_path / "refs.bib").write_text(
        "@article{other, title={A title}, author={A. Author}, year={2001}}\n",
        encoding="utf-8")
    code, report = _run(tmp_path, demo_index, tmp_path / "out")
    problems = {p["key"]: p["message"] for p in report["problems"]  # type: ignore[index]
                if p["code"] == "undefined-key"}
    assert "INSPIRE texkey of" in problems["Scardina:2012hy"]
    assert "Quark-Gluon Plasma" in problems["Scardina:2012hy"]
    assert "INSPIRE texkey of" not in problems["Nobody:2099xyz"]


def test_a_closed_output_pipe_is_no_internal_error(tmp_path: Path) -> None:
    # `citecheck-tex index stats | head -3` ended with "internal error: BrokenPipeError"
    # (2026-12-02): the reader leaving is no fault of the run
    code = ("import sys\n"
            "from citecheck_tex.cli import main\n"
            "from citecheck_tex.commands import index\n"
            "def stats(argv):\n"
            "    while True:\n"
            "        print('index ... records ' * 100)\n"
            "index.cli = stats\n"
            "sys.exit(main(['index', 'stats']))\n")
    proc = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stdout.read(100)
    proc.stdout.close()  # as `head` does once it has its lines
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == 141
    assert b"internal error" not in err and b"Traceback" not in err


def test_index_add_says_what_is_wrong_with_its_paths(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    dump = tmp_path / "dump.jsonl"
    dump.write_text("")
    cases = [([str(tmp_path), "--index", str(tmp_path / "i.sqlite")], "is a folder"),
             ([str(tmp_path / "nope.jsonl"), "--index", str(tmp_path / "i.sqlite")],
              "no such file"),
             # the index's folder would be a file: it was "internal error: FileExistsError"
             ([str(dump), "--index", str(dump / "i.sqlite")], "cannot make the index's folder")]
    for args, message in cases:
        assert main(["index", "add", *args]) == 2
        err = capsys.readouterr().err
        assert message in err and "internal error" not in err
