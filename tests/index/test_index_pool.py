"""The pool of kept-open local indexes (batch workers, ``sources/index_pool.py``): one
index per thread and file, reused only while the file is unchanged, closed when
replaced; nothing kept outside ``kept_open``."""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from citecheck_tex.model import Query, QueryKind, SourceStatus
from citecheck_tex.sources import index_pool
from citecheck_tex.sources.local_index import LocalIndex, LocalIndexSource
from tests.index.conftest import DATA

ARXIV_ONLY = Query(QueryKind.ARXIV, "hep-th/9108002")  # in arxiv_metadata_snapshot.jsonl only


@pytest.fixture(autouse=True)
def _empty_pool() -> Iterator[None]:
    index_pool.close_all()
    yield
    index_pool.close_all()


def _build(path: Path, *dumps: str) -> Path:
    with LocalIndex.open(path) as index:
        for name in dumps:
            index.add_file(DATA / name)
    return path


def _ask(path: Path, query: Query) -> tuple[SourceStatus, LocalIndex | None]:
    """One run of the local source (open, ask, close); the index it used."""
    source = LocalIndexSource(path)
    answer = asyncio.run(source.fetch(query))
    used = source._index
    source.close()
    return answer.status, used


def _is_open(index: LocalIndex | None) -> bool:
    assert index is not None
    try:
        index._conn.execute("SELECT 1").fetchone()
    except sqlite3.ProgrammingError:  # "Cannot operate on a closed database"
        return False
    return True


def test_outside_kept_open_every_run_opens_and_closes(tmp_path: Path) -> None:
    path = _build(tmp_path / "i.sqlite", "arxiv_metadata_snapshot.jsonl")
    status, used = _ask(path, ARXIV_ONLY)
    assert status is SourceStatus.FOUND
    assert not _is_open(used)
    assert index_pool.kept() == 0


def test_inside_kept_open_runs_share_one_open_index(tmp_path: Path) -> None:
    path = _build(tmp_path / "i.sqlite", "arxiv_metadata_snapshot.jsonl")
    with index_pool.kept_open():
        first = _ask(path, ARXIV_ONLY)
        second = _ask(path, ARXIV_ONLY)
    assert first[0] is second[0] is SourceStatus.FOUND
    assert first[1] is second[1]
    assert _is_open(first[1])  # the source's close left it to the pool
    assert index_pool.kept() == 1
    index_pool.close_all()
    assert not _is_open(first[1])


def test_a_changed_index_is_opened_afresh(tmp_path: Path) -> None:
    """Records added after the first run are found by the next one (no old snapshot,
    no old record count), and the old connection is closed."""
    path = _build(tmp_path / "i.sqlite", "inspire_literature.jsonl")
    with index_pool.kept_open():
        before, old = _ask(path, ARXIV_ONLY)
        _build(path, "arxiv_metadata_snapshot.jsonl")  # the same file, written to
        after, new = _ask(path, ARXIV_ONLY)
    assert before is SourceStatus.NOT_FOUND
    assert after is SourceStatus.FOUND
    assert new is not old and not _is_open(old)
    assert index_pool.kept() == 1


def test_a_replaced_index_file_is_opened_afresh(tmp_path: Path) -> None:
    path = _build(tmp_path / "i.sqlite", "inspire_literature.jsonl")
    other = _build(tmp_path / "other.sqlite", "arxiv_metadata_snapshot.jsonl")
    with index_pool.kept_open():
        before, old = _ask(path, ARXIV_ONLY)
        for suffix in ("-wal", "-shm"):
            Path(str(path) + suffix).unlink(missing_ok=True)
        shutil.copyfile(other, tmp_path / "new.sqlite")
        (tmp_path / "new.sqlite").replace(path)  # another file under the same name
        after, new = _ask(path, ARXIV_ONLY)
    assert (before, after) == (SourceStatus.NOT_FOUND, SourceStatus.FOUND)
    assert new is not old


def test_other_indexes_get_their_own_entry_and_the_oldest_is_closed(tmp_path: Path) -> None:
    paths = [_build(tmp_path / f"i{n}.sqlite", "arxiv_metadata_snapshot.jsonl")
             for n in range(index_pool.MAX_KEPT + 1)]
    with index_pool.kept_open():
        used = [_ask(p, ARXIV_ONLY)[1] for p in paths]
        again = _ask(paths[-1], ARXIV_ONLY)[1]
    assert len({id(u) for u in used}) == len(paths)
    assert again is used[-1]
    assert index_pool.kept() == index_pool.MAX_KEPT
    assert not _is_open(used[0]) and _is_open(used[-1])


def test_each_thread_has_its_own_pool(tmp_path: Path) -> None:
    """An SQLite connection stays on the thread that opened it."""
    path = _build(tmp_path / "i.sqlite", "arxiv_metadata_snapshot.jsonl")
    got: dict[str, object] = {}

    def other() -> None:
        with index_pool.kept_open():
            got["status"], got["index"] = _ask(path, ARXIV_ONLY)
            got["kept"] = index_pool.kept()
        index_pool.close_all()

    with index_pool.kept_open():
        mine = _ask(path, ARXIV_ONLY)[1]
        thread = threading.Thread(target=other)
        thread.start()
        thread.join()
    assert got["status"] is SourceStatus.FOUND and got["kept"] == 1
    assert got["index"] is not mine
    assert index_pool.kept() == 1 and _is_open(mine)
