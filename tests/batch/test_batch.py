"""``citecheck-tex batch`` on real Dask clusters: a LocalCluster (threads, to stay quick)
and a separately started ``dask scheduler`` + ``dask worker``.

The papers are the repository's sample papers (real references, real records in their
``index_records*.jsonl``) in the forms a batch meets: a paper folder, an arXiv source
tarball, a bare .bib, a reference list named in a manifest, plus a broken tarball, a
manifest line naming nothing and a stray file. Every verdict is compared with the
single-process check of the same input, so the batch is shown to change nothing.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import socket
import subprocess
import sys
import tarfile
import time
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the batch extra is not installed "
                    "(pip install -e '.[batch]')")
pq = pytest.importorskip("pyarrow.parquet", reason="the batch extra is not installed")

from citecheck_tex.batch.inputs import discover  # noqa: E402
from citecheck_tex.batch.runner import BatchOptions, run_batch  # noqa: E402
from citecheck_tex.batch.table import COLUMNS  # noqa: E402
from citecheck_tex.cli import main  # noqa: E402
from citecheck_tex.config import Settings  # noqa: E402
from citecheck_tex.pipeline import check  # noqa: E402
from citecheck_tex.tex.project import load_project  # noqa: E402
from tests.batch.samples import AXIONS, FAST, HOLO, offline  # noqa: E402
from tests.redis_server import RedisServer, redis_server  # noqa: E402, F401 - the fixture
from tests.replay import ARXIV_BIB  # noqa: E402

#: Three real references of the holography sample, as a plain-text list (from its refs.bib).
REFLIST = (
    "[1] J. M. Maldacena, The Large N limit of superconformal field theories and "
    "supergravity, Adv. Theor. Math. Phys. 2 (1998) 231, arXiv:hep-th/9711200.\n"
    "[2] E. Witten, Anti de Sitter space and holography, Adv. Theor. Math. Phys. 2 (1998) "
    "253, arXiv:hep-th/9802150.\n"
)


def make_tarball(path: Path, folder: Path) -> Path:
    """``folder``'s .tex and .bib files as arXiv serves a submission: a gzipped tar."""
    with tarfile.open(path, "w:gz") as tf:
        for f in sorted(folder.rglob("*")):
            if f.is_file() and f.suffix in (".tex", ".bib"):
                tf.add(f, arcname=str(f.relative_to(folder)))
    return path


@pytest.fixture
def papers(tmp_path: Path) -> Path:
    """A folder of papers in every form, some broken."""
    root = tmp_path / "papers"
    root.mkdir()
    shutil.copytree(AXIONS, root / "axions", ignore=shutil.ignore_patterns("citecheck.toml"))
    make_tarball(root / "2101.00001v1.tar.gz", HOLO)
    shutil.copy(HOLO / "refs.bib", root / "holography.bib")
    (root / "broken.tar.gz").write_bytes(make_tarball(tmp_path / "t.tar.gz", HOLO)
                                         .read_bytes()[:200])
    (root / "notes.pdf").write_bytes(b"%PDF-1.4")
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (elsewhere / "list.txt").write_text(REFLIST, encoding="utf-8")
    (root / "more.manifest").write_text(
        f"# papers kept elsewhere\n{elsewhere / 'list.txt'}\n../elsewhere/missing.tar.gz\n",
        encoding="utf-8")
    return root


def by_name(run: object) -> dict[str, object]:
    return {o.paper.name: o for o in run.outcomes}  # type: ignore[attr-defined]


def single_process_labels(path: Path, settings: Settings) -> dict[str, str]:
    """The labels ``check`` gives the same input in this process."""
    project = load_project(path, project_root=path if path.is_dir() else path.parent)
    return {v.entry.key: v.label.value for v in check(project, settings).verdicts}


def test_local_cluster_batch_lists_every_input_and_agrees_with_check(
        papers: Path, index: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    settings = offline(index)
    listed = discover([papers])
    run = run_batch(listed, settings, out, FAST)
    got = by_name(run)

    assert set(got) == {"axions", "2101.00001v1", "holography.bib", "broken", "notes.pdf",
                        "list.txt", "missing"}
    status = {name: o.status for name, o in got.items()}  # type: ignore[attr-defined]
    assert status == {"axions": "checked", "2101.00001v1": "checked",
                      "holography.bib": "checked", "list.txt": "checked",
                      "broken": "failed", "missing": "failed", "notes.pdf": "ignored"}
    assert "broken.tar.gz" in got["broken"].error  # type: ignore[attr-defined]
    assert "more.manifest:3" in got["missing"].error  # type: ignore[attr-defined]
    assert run.status == 1  # a paper could not be checked (and the samples have MAJORs)

    # each paper's report.json as `check` writes it, with the verdicts `check` gives
    for name, source in (("axions", AXIONS), ("holography.bib", HOLO / "refs.bib")):
        report = json.loads((out / "papers" / name / "report.json").read_text())
        assert {e["key"]: e["label"] for e in report["entries"]} == \
            single_process_labels(source, settings)
    tar_report = json.loads((out / "papers" / "2101.00001v1" / "report.json").read_text())
    assert tar_report["input"].endswith("2101.00001v1.tar.gz")
    assert {e["key"]: e["label"] for e in tar_report["entries"]} == \
        single_process_labels(HOLO, settings)

    # the corpus table: one row per reference, in both formats, agreeing with the reports
    from citecheck_tex.outfiles import new_file_mode

    for name in ("references.parquet", "references.jsonl", "summary.json"):
        assert (out / name).stat().st_mode & 0o777 == new_file_mode()
    table = pq.read_table(out / "references.parquet")
    assert tuple(table.column_names) == COLUMNS
    rows = table.to_pylist()
    lines = [json.loads(x) for x in (out / "references.jsonl").read_text().splitlines()]
    assert len(rows) == len(lines) == run.references > 0
    assert sorted((r["paper"], r["key"], r["label"]) for r in rows) == \
        sorted((r["paper"], r["key"], r["label"]) for r in lines)
    axion_rows = {r["key"]: r for r in rows if r["paper"] == "axions"}
    report = json.loads((out / "papers" / "axions" / "report.json").read_text())
    for e in report["entries"]:
        row = axion_rows[e["key"]]
        assert row["label"] == e["label"] and row["score"] == e["score"]
        assert row["discrepancies"] == [d["code"] for d in e["discrepancies"]]
        assert row["match_id"] == ((e["match"] or {}).get("id") or "")
        assert row["sources"] == [f"{a['source']}:{a['status']}" for a in e["sources"]]

    # the summary: every input, with its labels
    summary = json.loads((out / "summary.json").read_text())
    assert {e["paper"] for e in summary["entries"]} == set(got)
    assert summary["papers"] == {"checked": 4, "unchanged": 0, "failed": 2, "ignored": 1,
                                 "not-run": 0}
    total = {k: sum(e[k] for e in summary["entries"]) for k in summary["references"]}
    assert total == summary["references"]
    assert (papers / "axions" / "refs.bib").read_bytes() == (AXIONS / "refs.bib").read_bytes()


def test_resumed_batch_checks_only_what_changed(papers: Path, index: Path,
                                                tmp_path: Path) -> None:
    out = tmp_path / "out"
    settings = offline(index)
    first = run_batch(discover([papers]), settings, out, FAST)
    report = out / "papers" / "holography.bib" / "report.json"
    stamp = report.stat().st_mtime_ns
    rows_before = (out / "references.jsonl").read_text().splitlines()

    again = run_batch(discover([papers]), settings, out, FAST)
    status = {o.paper.name: o.status for o in again.outcomes}
    assert status["axions"] == status["holography.bib"] == status["2101.00001v1"] \
        == status["list.txt"] == "unchanged"
    assert status["broken"] == "failed"  # a failed paper is tried again
    assert report.stat().st_mtime_ns == stamp  # not written again
    assert sorted((out / "references.jsonl").read_text().splitlines()) == sorted(rows_before)
    assert again.status == first.status

    # a changed paper is checked again; the others stay unchanged
    bib = papers / "holography.bib"
    bib.write_text(bib.read_text(encoding="utf-8").replace("2017", "2016", 1),
                   encoding="utf-8")
    third = by_name(run_batch(discover([papers]), settings, out, FAST))
    assert third["holography.bib"].status == "checked"  # type: ignore[attr-defined]
    assert third["axions"].status == "unchanged"  # type: ignore[attr-defined]

    # other settings: everything is checked again
    fourth = by_name(run_batch(discover([papers]), replace(settings, index_complete=False),
                               out, FAST))
    assert fourth["axions"].status == "checked"  # type: ignore[attr-defined]


def test_a_paper_over_the_time_limit_is_listed_as_failed(papers: Path, index: Path,
                                                        tmp_path: Path) -> None:
    """A limit no check can meet: every paper fails with the time-out, the batch ends,
    and a paper that timed out is checked again by the next batch (nothing was kept)."""
    out = tmp_path / "out"
    listed = [p for p in discover([papers]) if p.name in ("axions", "holography.bib")]
    run = run_batch(listed, offline(index), out,
                    replace(FAST, paper_timeout_s=1e-6))
    assert [o.status for o in run.outcomes] == ["failed", "failed"]
    assert all("time limit per paper" in o.error for o in run.outcomes)
    assert not (out / "papers" / "axions" / "report.json").exists()
    again = run_batch(listed, offline(index), out, FAST)
    assert [o.status for o in again.outcomes] == ["checked", "checked"]


def test_cli_batch_exit_status_and_summary(papers: Path, index: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The command line on a LocalCluster of one worker process, as a user runs it."""
    out = tmp_path / "out"
    (papers / "broken.tar.gz").unlink()
    (papers / "more.manifest").unlink()
    args = ["batch", str(papers), "--out", str(out), "--offline", "--index", str(index),
            "--cache", "none", "--index-complete", "--workers", "1", "--no-dashboard"]
    assert main([*args, "--fail-on", "never"]) == 0
    shown = capsys.readouterr().out
    assert "Batch: 4 papers (3 checked, 1 ignored)" in shown
    assert "2101.00001v1" in shown and "MAJOR" in shown
    assert "errors: undefined-key" in shown  # why the sample paper fails (a planted error)
    assert main([*args, "--fail-on", "major"]) == 1  # resumed: the MAJORs still count
    assert "3 unchanged" in capsys.readouterr().out


def test_nothing_to_check_is_a_usage_error(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["batch", str(empty), "--out", str(tmp_path / "out"), "--offline"]) == 2
    assert "no papers found" in capsys.readouterr().err


# ----------------------------------------------------------------- an external cluster


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _wait_for_port(port: int, proc: subprocess.Popen[bytes], timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"dask scheduler exited with {proc.returncode}")
        with socket.socket() as s:
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.1)
    raise RuntimeError(f"dask scheduler did not listen on {port} within {timeout} s")


def _stop(proc: subprocess.Popen[bytes]) -> None:
    if proc.poll() is None:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@pytest.fixture
def dask_cluster(tmp_path: Path) -> Iterator[str]:
    """``dask scheduler`` and ``dask worker`` (two processes) started as a user starts them, on free
    loopback ports; both stopped afterwards, also when the test fails."""
    dask = Path(sys.executable).parent / "dask"
    if not dask.exists():
        pytest.skip(f"no dask command beside {sys.executable} (install the batch extra)")
    port = _free_port()
    address = f"tcp://127.0.0.1:{port}"
    env = {**os.environ, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"}
    logs = tmp_path / "dask-logs"
    logs.mkdir()
    procs: list[subprocess.Popen[bytes]] = []

    def log(name: str) -> int:
        """A file descriptor for the process's log (the child keeps its own copy)."""
        fd = os.open(logs / f"{name}.log", os.O_WRONLY | os.O_CREAT, 0o644)
        opened.append(fd)
        return fd

    opened: list[int] = []
    try:
        procs.append(subprocess.Popen(
            [str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port),
             "--dashboard-address", ":0", "--no-show"],
            stdout=subprocess.DEVNULL, stderr=log("scheduler"), env=env))
        _wait_for_port(port, procs[0])
        procs.append(subprocess.Popen(
            [str(dask), "worker", address, "--nworkers", "2", "--nthreads", "1",
             "--host", "127.0.0.1", "--no-dashboard", "--local-directory",
             str(tmp_path / "dask-worker")],
            stdout=subprocess.DEVNULL, stderr=log("worker"), env=env))
        yield address
    finally:
        for proc in reversed(procs):
            _stop(proc)
        for fd in opened:
            os.close(fd)


def test_batch_on_a_separately_started_scheduler_and_worker(
        dask_cluster: str, papers: Path, index: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    settings = offline(index)
    run = run_batch(discover([papers]), settings, out,
                    BatchOptions(scheduler=dask_cluster, paper_timeout_s=120))
    status = {o.paper.name: o.status for o in run.outcomes}
    assert status["axions"] == status["2101.00001v1"] == "checked"
    assert status["broken"] == "failed"
    assert run.workers >= 1  # the batch starts once one worker is there
    # the worker is another process: it wrote the reports
    workers = {o.worker for o in run.outcomes if o.status == "checked"}
    assert all(not w.endswith(f":{os.getpid()}") for w in workers)
    report = json.loads((out / "papers" / "axions" / "report.json").read_text())
    assert {e["key"]: e["label"] for e in report["entries"]} == \
        single_process_labels(AXIONS, settings)
    # a cluster the batch did not start keeps its workers' own settings
    from distributed import Client

    with Client(dask_cluster) as client:  # (a lambda: its workers cannot import tests/)
        assert set(client.run(lambda dask_worker: dask_worker.batched_stream.interval)
                   .values()) == {0.002}


def test_unreachable_scheduler_is_a_usage_error(tmp_path: Path, index: Path,
                                                papers: Path) -> None:
    from citecheck_tex.errors import UsageError

    with pytest.raises(UsageError, match="cannot connect to the Dask scheduler"):
        run_batch(discover([papers]), offline(index), tmp_path / "out",
                  BatchOptions(scheduler=f"tcp://127.0.0.1:{_free_port()}",
                               connect_timeout_s=1))


def test_gzipped_single_tex_paper_is_read_and_named_by_its_archive(
        tmp_path: Path, index: Path) -> None:
    """A one-file arXiv submission (the gzipped .tex alone): its main file is found;
    without a bibliography beside it, it fails with check's message, naming the archive
    rather than the temporary folder it was unpacked in."""
    tex = (HOLO / "paper.tex").read_bytes()
    root = tmp_path / "in"
    root.mkdir()
    (root / "2101.00009").write_bytes(gzip.compress(tex))  # as saved from /e-print/
    run = run_batch(discover([root]), offline(index), tmp_path / "out", FAST)
    (only,) = run.outcomes
    assert only.paper.kind == "archive"
    assert only.status == "failed"
    assert "no bibliography could be read" in only.error
    assert "refs.bib" in only.error and "citecheck-batch-" not in only.error


# ----------------------------------------------------------------- online, global limits


def online_batch(tmp_path: Path, cache: str, options: BatchOptions) -> tuple[object, object,
                                                                          int, int]:
    """Four papers citing the same works, checked online (recorded arXiv answers from
    tests/fixtures/api/arxiv.jsonl): first one paper alone with a fresh SQLite cache, then
    all four with ``cache``. Returns (the one-paper run, the batch, the requests of each)."""
    from tests.replay import ReplayServer
    from tests.test_pipeline_online import _serve_arxiv

    root = tmp_path / "in"
    root.mkdir()
    for n in range(4):
        (root / f"paper{n}.bib").write_text(ARXIV_BIB, encoding="utf-8")
    with ReplayServer() as server:
        _serve_arxiv(server)
        base = replace(Settings(), base_urls=server.base_urls(), sources=("arxiv",),
                       rate_limits={"arxiv": 20.0}, timeout_s=5.0, max_retries=1,
                       formats=("json",))
        alone = run_batch(discover([root / "paper0.bib"]),
                          replace(base, cache_path=str(tmp_path / "alone.sqlite")),
                          tmp_path / "alone", FAST)
        one_paper = len(server.requests)
        run = run_batch(discover([root]), replace(base, cache_path=cache), tmp_path / "out",
                        options)
        return alone, run, one_paper, len(server.requests) - one_paper


def check_online(alone: object, run: object, one_paper: int, batch_requests: int) -> None:
    """Every paper checked with the labels of the one-paper run; the shared cache made the
    four papers cost the requests of one; each request was reserved on the rate board."""
    first = alone.outcomes[0]  # type: ignore[attr-defined]
    assert one_paper >= 1
    assert first.counts["MAJOR"] == 1 and first.counts["MINOR"] == 1
    assert [o.status for o in run.outcomes] == ["checked"] * 4  # type: ignore[attr-defined]
    assert all(o.counts == first.counts for o in run.outcomes)  # type: ignore[attr-defined]
    assert batch_requests == one_paper  # the same answer is never fetched twice
    assert run.rate_stats["arxiv"]["reserved"] == batch_requests  # type: ignore[attr-defined]


def test_online_batch_shares_the_sqlite_cache_and_the_rate_board(tmp_path: Path) -> None:
    check_online(*online_batch(tmp_path, str(tmp_path / "shared.sqlite"), FAST))


def test_online_batch_on_a_separate_cluster_with_redis_as_the_cache(
        tmp_path: Path, dask_cluster: str, redis_server: RedisServer) -> None:  # noqa: F811
    """The cluster a site runs: `dask scheduler` + `dask worker` processes, the answer
    cache on a real redis-server, the rate board on the cluster."""
    check_online(*online_batch(tmp_path, redis_server.url,
                               BatchOptions(scheduler=dask_cluster, paper_timeout_s=120)))


def test_settings_key_names_the_index_by_its_file_not_by_how_it_was_written(
        index: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A batch resumed from another folder (relative vs absolute --index, another cache)
    is the same batch; another index file or another threshold is not."""
    from citecheck_tex.batch.runner import settings_key

    monkeypatch.chdir(index.parent.parent)
    relative = offline(index.parent.parent / "x")  # any settings object
    rel = replace(relative, index_path=str(Path(index.parent.name) / index.name))
    absolute = replace(relative, index_path=str(index), cache_path="/elsewhere/cache.sqlite")
    assert settings_key(rel) == settings_key(absolute)
    assert settings_key(replace(absolute, tau_exact=9.5)) != settings_key(absolute)
    other = index.parent / "other.sqlite"
    shutil.copy(index, other)
    os.utime(other, ns=(1, 1))
    assert settings_key(replace(absolute, index_path=str(other))) != settings_key(absolute)
