"""``citecheck-tex batch``: a submitter's ``.citecheck-ignore``, Ctrl-C on a running batch,
and Dask's dashboard link.

The papers are the repository's sample papers (real references, real records in their
``index_records*.jsonl``), as in tests/batch/test_batch.py.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the batch extra is not installed "
                    "(pip install -e '.[batch]')")
pytest.importorskip("pyarrow.parquet", reason="the batch extra is not installed")

from citecheck_tex.batch.inputs import discover  # noqa: E402
from citecheck_tex.batch.runner import BatchOptions, run_batch  # noqa: E402
from citecheck_tex.ignore import add_ignore  # noqa: E402
from citecheck_tex.pipeline import check  # noqa: E402
from citecheck_tex.tex.project import load_project  # noqa: E402
from tests.batch.samples import AXIONS, FAST, HOLO, ROOT, offline  # noqa: E402

# ----------------------------------------------------------------- a paper's ignore file


def test_a_papers_own_ignore_file_hides_nothing_unless_honoured(index: Path,
                                                               tmp_path: Path) -> None:
    """The submitter ignores the reference the check finds MAJOR: the batch still shows
    it MAJOR; with honour_paper_ignores (a group checking its own papers) it is SKIPPED
    with the code ``ignored``, as ``check`` shows it."""
    papers = tmp_path / "papers"
    paper = papers / "axions"
    shutil.copytree(AXIONS, paper, ignore=shutil.ignore_patterns("citecheck.toml",
                                                                 "citecheck-report"))
    project = load_project(paper, project_root=paper)
    verdicts = check(project, offline(index)).verdicts
    major = next(v.entry for v in verdicts if v.label.value == "MAJOR")
    add_ignore(paper, major, "the referee will not notice")

    def label_of(run_out: Path) -> tuple[str, str]:
        report = json.loads((run_out / "papers" / "axions" / "report.json").read_text())
        (entry,) = [e for e in report["entries"] if e["key"] == major.key]
        return entry["label"], entry["code"]

    run = run_batch(discover([papers]), offline(index), tmp_path / "out", FAST)
    assert run.outcomes[0].status == "checked"
    alone = next(v for v in verdicts if v.entry.key == major.key)
    assert label_of(tmp_path / "out") == ("MAJOR", alone.code.value)
    assert run.outcomes[0].counts["MAJOR"] >= 1

    honoured = run_batch(discover([papers]), offline(index), tmp_path / "out",
                         replace(FAST, honour_paper_ignores=True))
    # another way of checking: the paper is checked again, not taken as unchanged
    assert honoured.outcomes[0].status == "checked"
    assert label_of(tmp_path / "out") == ("SKIPPED", "ignored")
    assert honoured.outcomes[0].counts["MAJOR"] == run.outcomes[0].counts["MAJOR"] - 1


def test_cli_honour_paper_ignores_option(index: Path, tmp_path: Path) -> None:
    from citecheck_tex.cli import main

    papers = tmp_path / "papers"
    paper = papers / "axions"
    shutil.copytree(AXIONS, paper, ignore=shutil.ignore_patterns("citecheck.toml",
                                                                 "citecheck-report"))
    project = load_project(paper, project_root=paper)
    major = next(v.entry for v in check(project, offline(index)).verdicts
                 if v.label.value == "MAJOR")
    add_ignore(paper, major, "not ours")
    args = ["batch", str(papers), "--offline", "--index", str(index), "--cache", "none",
            "--index-complete", "--workers", "1", "--no-dashboard", "--fail-on", "never",
            "-q"]
    rows: dict[str, list[str]] = {}
    for extra in ([], ["--honour-paper-ignores"]):
        out = tmp_path / ("out" + "".join(extra))
        assert main([*args, "--out", str(out), *extra]) == 0
        rows[" ".join(extra)] = [json.loads(x)["label"] for x in
                                 (out / "references.jsonl").read_text().splitlines()
                                 if json.loads(x)["key"] == major.key]
    assert rows == {"": ["MAJOR"], "--honour-paper-ignores": ["SKIPPED"]}


# ----------------------------------------------------------------- Ctrl-C


def test_ctrl_c_lists_unchecked_papers_as_not_run_and_writes_what_was_done(
        index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The command in its own process group, Ctrl-C (SIGINT to the whole group, as a
    terminal sends it) once the first paper's reports are written: exit 130, every paper
    in the summary (the finished ones checked, the rest not-run), the corpus table with
    the finished papers' rows, and the next run checks only what is left."""
    papers = tmp_path / "papers"
    papers.mkdir()
    bib = (HOLO / "refs.bib").read_text(encoding="utf-8")
    n = 400  # far more than can finish between the first report and the signal
    for i in range(n):
        (papers / f"p{i:03d}.bib").write_text(bib, encoding="utf-8")
    out = tmp_path / "out"
    cmd = [sys.executable, "-m", "citecheck_tex", "batch", str(papers), "--out", str(out),
           "--offline", "--index", str(index), "--cache", "none", "--index-complete",
           "--workers", "1", "--no-dashboard", "--fail-on", "never"]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    proc = subprocess.Popen(cmd, cwd=tmp_path, env=env, start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        deadline = time.monotonic() + 120
        while not list((out / "papers").glob("*/batch.json")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "no paper finished within 120 s"
            time.sleep(0.01)
        os.killpg(proc.pid, signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=120)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    assert proc.returncode == 130, stderr.decode()
    assert b"Traceback" not in stderr, stderr.decode()
    summary = json.loads((out / "summary.json").read_text())
    assert summary["interrupted"] is True and summary["status"] == 130
    status = {e["paper"]: e["status"] for e in summary["entries"]}
    assert len(status) == n
    checked = {p for p, s in status.items() if s == "checked"}
    assert checked and set(status.values()) == {"checked", "not-run"}
    # a paper is checked exactly when its reports and state were written (also one
    # whose worker finished it just before the signal, before the client heard of it)
    on_disk = {p.parent.name for p in (out / "papers").glob("*/batch.json")}
    assert checked == on_disk
    assert all((out / "papers" / p / "report.json").is_file() for p in checked)
    rows = [json.loads(x) for x in (out / "references.jsonl").read_text().splitlines()]
    assert {r["paper"] for r in rows} == checked
    import pyarrow.parquet as pq

    assert pq.read_table(out / "references.parquet").num_rows == len(rows)
    assert "interrupted" in stdout.decode() + stderr.decode()

    # the same command again: the checked papers are unchanged, the others checked now
    from citecheck_tex.cli import main

    monkeypatch.chdir(tmp_path)
    assert main(cmd[3:] + ["-q"]) == 0
    summary = json.loads((out / "summary.json").read_text())
    got = {e["paper"]: e["status"] for e in summary["entries"]}
    assert {p for p, s in got.items() if s == "unchanged"} == checked
    assert {p for p, s in got.items() if s == "checked"} == set(status) - checked
    again = (out / "references.jsonl").read_text().splitlines()
    assert len(again) == n * len(rows) // len(checked)


# ----------------------------------------------------------------- the dashboard


def test_the_dashboard_link_serves_a_page(tmp_path: Path) -> None:
    """With bokeh installed (the batch extra) the local cluster's dashboard runs, and the
    link the batch prints answers an HTTP GET on loopback."""
    pytest.importorskip("bokeh", reason="bokeh is not installed (the batch extra has it)")
    from citecheck_tex.batch.runner import _open_client, dashboard_of

    client, cluster = _open_client(BatchOptions(workers=1, dashboard=True,
                                                dashboard_address="127.0.0.1:0"))
    try:
        link = dashboard_of(client)
        assert link.startswith("http://127.0.0.1:") and link.endswith("/status")
        with urllib.request.urlopen(link, timeout=30) as page:  # noqa: S310 - loopback
            assert page.status == 200
            assert b"Dask" in page.read()
    finally:
        client.close()  # type: ignore[no-untyped-call]
        cluster.close()


def test_ctrl_c_while_a_papers_rows_are_written_keeps_paper_and_rows_together(
        index: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The unluckiest moment for Ctrl-C: while the client adds a finished paper's rows to
    the corpus table (a real SIGINT to this process, sent from inside ``add``). The
    paper's rows are written whole and it counts as checked; the batch then stops as on
    any Ctrl-C: every other paper is listed, the summary written, status 130."""
    from citecheck_tex.batch.table import CorpusTable

    papers = tmp_path / "papers"
    papers.mkdir()
    bib = (HOLO / "refs.bib").read_text(encoding="utf-8")
    n = 40
    for i in range(n):
        (papers / f"p{i:03d}.bib").write_text(bib, encoding="utf-8")
    add = CorpusTable.add
    calls = {"n": 0}

    def add_interrupted(self: CorpusTable, rows: object) -> None:
        calls["n"] += 1
        if calls["n"] == 3:  # the third paper: a signal arrives in the middle of it
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(0.05)  # Python runs the handler here, before the rows are added
        add(self, rows)  # type: ignore[arg-type]

    monkeypatch.setattr(CorpusTable, "add", add_interrupted)
    out = tmp_path / "out"
    run = run_batch(discover([papers]), offline(index), out,
                    BatchOptions(workers=1, processes=False, dashboard=False,
                                 paper_timeout_s=120))
    assert run.interrupted and run.status == 130
    summary = json.loads((out / "summary.json").read_text())
    status = {e["paper"]: e["status"] for e in summary["entries"]}
    assert len(status) == n and set(status.values()) <= {"checked", "not-run"}
    checked = {p for p, s in status.items() if s == "checked"}
    assert len(checked) >= 3
    rows = [json.loads(x) for x in (out / "references.jsonl").read_text().splitlines()]
    assert {r["paper"] for r in rows} == checked
    per_paper = {p: sum(r["paper"] == p for r in rows) for p in checked}
    assert len(set(per_paper.values())) == 1, per_paper  # every paper's rows whole
