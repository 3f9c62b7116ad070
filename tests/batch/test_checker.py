"""The check processes of a batch worker (``citecheck_tex/batch/checker.py``): real child
processes, killed over the time limit, replaced when they die, relaying the global rate
board, gone when the batch ends."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("distributed", reason="the batch extra is not installed "
                    "(pip install -e '.[batch]')")
pytest.importorskip("pyarrow.parquet", reason="the batch extra is not installed")

from citecheck_tex.batch.checker import (  # noqa: E402
    MIN_MEMORY_LIMIT,
    CheckPool,
    CheckProcess,
    ProcessLostError,
    close_check_processes,
)
from citecheck_tex.batch.inputs import discover  # noqa: E402
from citecheck_tex.batch.runner import run_batch  # noqa: E402
from citecheck_tex.sources.http import HostLimit, current_limiter  # noqa: E402
from tests.batch.samples import AXIONS, FAST, HOLO, offline  # noqa: E402


@pytest.fixture
def pool() -> Iterator[CheckPool]:
    p = CheckPool(1)
    yield p
    p.close()


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def _gone(pid: int, within_s: float = 10.0) -> bool:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.02)
    return False


def _fail(message: str) -> None:
    raise KeyError(message)


def _acquire_twice() -> list[float]:
    """In the child: the limiter in force is the relay to the parent's board."""
    limiter = current_limiter()
    assert limiter is not None
    limit = HostLimit(rate=2.0, per=1.0)

    async def go() -> None:
        await limiter.acquire("arxiv", limit)
        await limiter.acquire("arxiv", limit)

    asyncio.run(go())
    return [limiter.slow("arxiv")]


def test_a_job_runs_in_another_process_and_its_error_comes_back(pool: CheckPool) -> None:
    assert pool.run(os.getpid) != os.getpid()
    child = pool.processes()[0].pid
    assert pool.run(os.getpid) == child  # the same process serves the next job
    with pytest.raises(KeyError, match="no such thing"):
        pool.run(_fail, ("no such thing",))
    assert pool.run(os.getpid) == child  # an exception does not cost the process


def test_over_the_time_limit_the_process_is_killed_and_the_next_job_gets_a_new_one(
        pool: CheckPool) -> None:
    old = pool.run(os.getpid)
    t0 = time.monotonic()
    with pytest.raises(TimeoutError, match="within 0.5 s"):
        pool.run(time.sleep, (60,), timeout_s=0.5)
    assert time.monotonic() - t0 < 20
    assert _gone(old)  # killed, not left running in the background
    new = pool.run(os.getpid, timeout_s=30)
    assert new not in (old, os.getpid())


def test_the_limit_counts_from_when_the_job_begins_and_a_job_behind_an_overrun_is_sent_again(
        pool: CheckPool) -> None:
    """Two jobs in one process: the first overruns and its process is killed; the second,
    queued behind it, had not begun: it runs on the next process, with its own limit."""
    old = pool.run(os.getpid)
    got: dict[str, Any] = {}

    def second() -> None:
        time.sleep(0.2)  # queued behind the sleeper
        try:
            got["pid"] = pool.run(os.getpid, timeout_s=30)
        except BaseException as exc:  # the assertion below shows it
            got["error"] = exc

    t = threading.Thread(target=second)
    t.start()
    with pytest.raises(TimeoutError):
        pool.run(time.sleep, (60,), timeout_s=1.0)
    t.join(30)
    assert "error" not in got, got
    assert got["pid"] not in (old, os.getpid())


@pytest.mark.parametrize(("job", "reason"), [
    ((os._exit, (3,)), "exited with status 3"),
    ((os.kill, "self-SIGKILL"), "killed by SIGKILL (out of memory?)"),
])
def test_a_process_that_dies_during_a_job_loses_only_that_job(
        pool: CheckPool, job: tuple[Any, Any], reason: str) -> None:
    fn, args = job
    first = pool.run(os.getpid)
    if args == "self-SIGKILL":
        args = (first, signal.SIGKILL)
    with pytest.raises(ProcessLostError, match=re.escape(reason)) as lost:
        pool.run(fn, args)
    assert lost.value.started
    assert pool.run(os.getpid) != first  # the next job: a new process


def test_rate_board_calls_of_the_child_are_made_by_the_parent() -> None:
    calls: list[tuple[str, tuple[Any, ...]]] = []

    def board(method: str, *args: Any) -> Any:
        calls.append((method, args))
        return (0.0, 1.5) if method == "reserve" else 1.0

    proc = CheckProcess()
    try:
        slow = proc.result(proc.submit(_acquire_twice, board=board), timeout_s=60)
    finally:
        proc.close()
    assert [m for m, _ in calls] == ["reserve", "reserve"]
    assert calls[0][1][0] == "arxiv" and calls[0][1][1] == pytest.approx(0.5)
    assert slow == [1.5]  # the board's slow-down factor reached the child's limiter


def test_a_job_without_a_board_has_no_limiter_and_a_closed_process_exits(tmp_path: Path) -> None:
    proc = CheckProcess()
    assert proc.result(proc.submit(current_limiter)) is None
    proc.close()
    assert proc.proc.returncode == 0
    with pytest.raises(ProcessLostError):
        proc.submit(os.getpid)


def test_a_batch_checks_in_check_processes_and_leaves_none_behind(index: Path,
                                                                  tmp_path: Path) -> None:
    run = run_batch(discover([AXIONS, HOLO / "refs.bib"]), offline(index), tmp_path / "out",
                    FAST)
    assert [o.status for o in run.outcomes] == ["checked", "checked"]
    pids = {int(o.worker.rsplit(":", 1)[1]) for o in run.outcomes}
    assert os.getpid() not in pids  # checked in check processes, not on the worker threads
    assert all(_gone(pid) for pid in pids)  # closed when the batch ended
    assert close_check_processes() == 0


def test_a_job_over_the_memory_limit_gets_a_memory_error_and_the_process_goes_on() -> None:
    pool = CheckPool(1, memory_limit=MIN_MEMORY_LIMIT)
    try:
        with pytest.raises(MemoryError):
            pool.run(bytearray, (4 * MIN_MEMORY_LIMIT,))
        assert len(pool.run(bytearray, (1 << 20,))) == 1 << 20  # the same process, alive
        assert len(pool.processes()) == 1
    finally:
        pool.close()
    limited, unlimited = CheckPool(1, memory_limit=MIN_MEMORY_LIMIT), CheckPool(1)
    try:  # 4 GiB of address space (never touched): refused under the limit only
        with pytest.raises(OSError, match="Cannot allocate memory"):
            limited.run(_big_len, (4 * MIN_MEMORY_LIMIT,))
        assert unlimited.run(_big_len, (4 * MIN_MEMORY_LIMIT,)) == 4 * MIN_MEMORY_LIMIT
    finally:
        limited.close()
        unlimited.close()


def _big_len(n: int) -> int:
    import mmap

    with mmap.mmap(-1, n) as m:  # address space only: the pages are never touched
        return len(m)


def test_a_check_process_that_cannot_start_is_a_clear_error(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sys, "executable", shutil.which("false"))  # exits 1 at once
    pool = CheckPool(1)
    try:
        with pytest.raises(ProcessLostError, match=re.escape(
                "3 check processes in a row ended before beginning it, the last because "
                "it exited with status 1")) as lost:
            pool.run(os.getpid, timeout_s=30)
        assert not lost.value.started
    finally:
        pool.close()
