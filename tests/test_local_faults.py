"""Issue 12, the local faults: output folder, atomic reports, the cache, a read-only index.

Each test runs the real CLI on a sample paper, offline against its shipped index
records; faults that need file permissions or a full disk run in a child process
(:mod:`tests.fault_child`).
"""

from __future__ import annotations

import json
import logging
import shutil
import sqlite3
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from citecheck_tex.cli import main
from tests.fault_child import permissions_bind, run_cli

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT / "sample_papers" / "dark_matter_axions"


@pytest.fixture(scope="module")
def demo_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    index = tmp_path_factory.mktemp("idx") / "index.sqlite"
    files = sorted(str(f) for f in (ROOT / "sample_papers").glob("*/index_records*"))
    assert main(["index", "add", *files, "--index", str(index)]) == 0
    return index


@pytest.fixture
def readonly(tmp_path: Path) -> Iterator[list[Path]]:
    """Paths appended here are made read-only; restored afterwards so pytest can clean up."""
    why = permissions_bind(tmp_path)
    if why:
        pytest.skip(why)
    paths: list[Path] = []
    yield paths
    for p in paths:
        for q in [p, *p.rglob("*")] if p.is_dir() else [p]:
            q.chmod(q.stat().st_mode | stat.S_IWUSR)


def _lock(paths: list[Path], *targets: Path) -> None:
    for t in targets:
        for q in sorted([t, *t.rglob("*")] if t.is_dir() else [t], reverse=True):
            q.chmod(q.stat().st_mode & ~(stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH))
        paths.append(t)


def _args(index: Path, out: Path, *extra: str, paper: Path = PAPER,
          cache: str = "none") -> list[str]:
    return [str(paper / "paper.tex"), "--offline", "--index", str(index), "--cache", cache,
            "--out", str(out), "--format", "json,html,bib", *extra]


def _warnings(err: str) -> list[str]:
    return [ln for ln in err.splitlines() if ln.startswith("WARNING")]


def _cache_warnings(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records
            if r.levelno >= logging.WARNING and "cache" in r.getMessage()]


# ------------------------------------------------------------------ row 7: the cache


def test_a_cache_file_that_is_not_sqlite_is_one_warning(
        demo_index: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        caplog: pytest.LogCaptureFixture) -> None:
    cache = tmp_path / "cache.sqlite"
    cache.write_text("this is a text file, not a database\n" * 200, encoding="utf-8")
    code = main(_args(demo_index, tmp_path / "out", cache=str(cache)))
    err = capsys.readouterr().err
    assert code in (0, 1), err
    assert "internal error" not in err
    assert len(_cache_warnings(caplog)) == 1
    assert (tmp_path / "out" / "report.json").is_file()
    assert cache.read_text(encoding="utf-8").startswith("this is a text file")


def test_a_corrupt_cache_is_one_warning(demo_index: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str],
                                        caplog: pytest.LogCaptureFixture) -> None:
    from citecheck_tex.cache import Cache

    cache = tmp_path / "cache.sqlite"
    Cache.open(cache).close()
    data = bytearray(cache.read_bytes())
    data[100:len(data)] = b"\xff" * (len(data) - 100)  # keep the header, wreck the pages
    cache.write_bytes(bytes(data))
    code = main(_args(demo_index, tmp_path / "out", cache=str(cache)))
    err = capsys.readouterr().err
    assert code in (0, 1), err
    assert "internal error" not in err
    assert len(_cache_warnings(caplog)) == 1
    assert json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))["entries"]


def test_a_read_only_cache_is_one_warning(demo_index: Path, tmp_path: Path,
                                          readonly: list[Path]) -> None:
    from citecheck_tex.cache import Cache

    folder = tmp_path / "cachedir"
    folder.mkdir()
    Cache.open(folder / "cache.sqlite").close()
    _lock(readonly, folder)
    done = run_cli(_args(demo_index, tmp_path / "out", cache=str(folder / "cache.sqlite")))
    assert done.returncode in (0, 1), done.stderr
    assert "internal error" not in done.stderr
    assert len([w for w in _warnings(done.stderr) if "cache" in w]) == 1
    assert (tmp_path / "out" / "report.json").is_file()


def test_a_cache_on_a_full_disk_is_one_warning(demo_index: Path, tmp_path: Path) -> None:
    # writes past 2,000 bytes fail (EFBIG, as ENOSPC would): SQLite's first page cannot be
    # written; no report files, so only the cache meets the full disk
    done = run_cli([str(PAPER / "paper.tex"), "--offline", "--index", str(demo_index),
                    "--cache", str(tmp_path / "cache.sqlite"), "--format", "terminal"],
                   fsize=2000)
    assert done.returncode in (0, 1), done.stderr
    assert "internal error" not in done.stderr
    assert len([w for w in _warnings(done.stderr) if "cache" in w]) == 1
    assert "Summary:" in done.stdout


def test_a_cache_failing_mid_run_warns_once_and_lookups_go_on(
        demo_index: Path, tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    import asyncio

    from citecheck_tex.cache import Cache, CachedSource
    from citecheck_tex.model import Query, QueryKind, SourceStatus
    from citecheck_tex.sources.local_index import LocalIndexSource

    cache = Cache.open(tmp_path / "cache.sqlite")
    cache._conn.close()  # every later read and write fails with sqlite3.Error
    inner = LocalIndexSource(demo_index)
    src = CachedSource(inner, cache)
    queries = [Query(QueryKind.TITLE, t) for t in ("Dark matter", "Axion", "Cosmology")]
    with caplog.at_level(logging.WARNING):
        answers = asyncio.run(src.fetch_batch(queries))
    inner.close()
    assert [a.status for a in answers] != [SourceStatus.ERROR] * 3
    assert all(a.status in (SourceStatus.FOUND, SourceStatus.NOT_FOUND) for a in answers)
    assert len([r for r in caplog.records if r.levelno >= logging.WARNING]) == 1
    assert cache.failure
    with pytest.raises(sqlite3.ProgrammingError):
        cache._conn.execute("SELECT 1")


# ------------------------------------------------------------------ row 6: output


def test_an_out_folder_that_cannot_be_created_is_exit_2_before_the_run(
        demo_index: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    blocker = tmp_path / "afile"
    blocker.write_text("not a folder\n", encoding="utf-8")
    cache = tmp_path / "cache.sqlite"
    code = main(_args(demo_index, blocker / "reports", cache=str(cache)))
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1 and "internal error" not in err
    assert str(blocker / "reports") in err and "--out" in err
    assert not cache.exists()  # the run (which opens the cache) never started


def test_a_read_only_out_folder_is_exit_2_before_the_run(
        demo_index: Path, tmp_path: Path, readonly: list[Path]) -> None:
    out = tmp_path / "out"
    out.mkdir()
    _lock(readonly, out)
    cache = tmp_path / "cache.sqlite"
    done = run_cli(_args(demo_index, out, cache=str(cache)))
    assert done.returncode == 2, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and str(out) in lines[0] and "internal error" not in lines[0]
    assert not cache.exists()
    assert list(out.iterdir()) == []


def test_a_read_only_input_folder_works_with_out_elsewhere(
        demo_index: Path, tmp_path: Path, readonly: list[Path]) -> None:
    paper = tmp_path / "paper"
    shutil.copytree(PAPER, paper)
    before = {p: p.read_bytes() for p in paper.rglob("*") if p.is_file()}
    _lock(readonly, paper)
    done = run_cli(_args(demo_index, tmp_path / "out", paper=paper))
    assert done.returncode in (0, 1), done.stderr
    report = json.loads((tmp_path / "out" / "report.json").read_text(encoding="utf-8"))
    assert report["entries"]
    assert list((tmp_path / "out").glob("*.annotated.bib"))
    assert {p: p.read_bytes() for p in paper.rglob("*") if p.is_file()} == before
    # without --out the default folder would be inside it: said at once, exit 2
    done = run_cli([str(paper / "paper.tex"), "--offline", "--index", str(demo_index),
                    "--cache", "none"])
    assert done.returncode == 2
    assert "citecheck-report" in done.stderr and "--out" in done.stderr
    assert len(done.stderr.strip().splitlines()) == 1


def test_a_full_disk_never_leaves_a_truncated_report(demo_index: Path, tmp_path: Path) -> None:
    out = tmp_path / "out"
    assert main(_args(demo_index, out)) in (0, 1)
    old = {p.name: p.read_bytes() for p in out.iterdir()}
    assert min(len(b) for b in old.values()) > 2000  # every report is bigger than the cap
    # every write past 2,000 bytes fails as on a full disk (EFBIG, like ENOSPC)
    done = run_cli(_args(demo_index, out, "--fail-on", "never"), fsize=2000)
    assert done.returncode == 2, done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    assert "report" in done.stderr.strip().splitlines()[-1]
    now = {p.name: p.read_bytes() for p in out.iterdir()}
    assert now == old  # the previous reports intact, no temporary files left behind


def test_reports_keep_the_usual_file_mode(demo_index: Path, tmp_path: Path) -> None:
    import os

    mask = os.umask(0o022)
    try:
        assert main(_args(demo_index, tmp_path / "out")) in (0, 1)
    finally:
        os.umask(mask)
    modes = {p.name: p.stat().st_mode & 0o777 for p in (tmp_path / "out").iterdir()}
    assert modes and set(modes.values()) == {0o644}, modes


# ------------------------------------------------------------------ row 9: a read-only index


def test_a_valid_index_on_read_only_storage_is_used(
        demo_index: Path, tmp_path: Path, readonly: list[Path]) -> None:
    folder = tmp_path / "idx"
    folder.mkdir()
    shutil.copy(demo_index, folder / "index.sqlite")
    _lock(readonly, folder)
    before = sorted(p.name for p in folder.iterdir())
    done = run_cli(_args(folder / "index.sqlite", tmp_path / "ro"))
    assert done.returncode in (0, 1), done.stderr
    assert main(_args(demo_index, tmp_path / "rw")) in (0, 1)
    got = json.loads((tmp_path / "ro" / "report.json").read_text(encoding="utf-8"))
    want = json.loads((tmp_path / "rw" / "report.json").read_text(encoding="utf-8"))
    assert got["summary"] == want["summary"]
    assert {e["key"]: e["label"] for e in got["entries"]} == \
        {e["key"]: e["label"] for e in want["entries"]}
    codes = {p["code"] for p in got["problems"]}
    assert "network" not in codes and "index-unusable" not in codes
    assert sorted(p.name for p in folder.iterdir()) == before  # no -wal, no -shm
    stats = run_cli(["index", "stats", "--index", str(folder / "index.sqlite")])
    assert stats.returncode == 0, stats.stderr


def test_an_unusable_index_is_an_index_problem_not_network(
        demo_index: Path, tmp_path: Path) -> None:
    broken = tmp_path / "index.sqlite"
    data = bytearray(demo_index.read_bytes())
    data[100:] = b"\x00\xff" * ((len(data) - 100) // 2) + b"\x00" * ((len(data) - 100) % 2)
    broken.write_bytes(bytes(data))
    out = tmp_path / "out"
    assert main(_args(broken, out)) in (0, 1)
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    codes = {p["code"] for p in report["problems"]}
    assert "network" not in codes
    assert "index-unusable" in codes
    assert {e["label"] for e in report["entries"]} <= {"UNVERIFIED", "SKIPPED"}


def test_the_early_check_leaves_no_folder_behind(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    tex = tmp_path / "p.tex"
    tex.write_text("\\documentclass{article}\\begin{document}Hi \\cite{x}.\\end{document}\n",
                   encoding="utf-8")
    out = tmp_path / "a" / "b" / "out"
    code = main([str(tex), "--offline", "--cache", "none", "--index",
                 str(tmp_path / "i.sqlite"), "--out", str(out)])
    assert code == 2 and "bibliography" in capsys.readouterr().err
    assert not (tmp_path / "a").exists()
