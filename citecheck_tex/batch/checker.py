"""The check processes of a batch worker: :class:`CheckProcess`, :func:`run_isolated`.

A Dask worker does not check its papers on its own threads: each task hands its paper
to a check process the worker started (``python -m citecheck_tex.batch.checker``) and
waits for the outcome. Why (bench/RESULTS.md, "Batch on Dask"):

- the check has a process to itself: the worker's event loop (heartbeats, messages,
  the outcome's transfer) runs beside it on another core instead of taking turns with
  it for the GIL;
- a check process serves two task threads (:data:`THREADS_PER_PROCESS`): the next
  paper is queued in its pipe when one ends, so no round trip through Dask is idle time
  between papers;
- the time limit per paper is kept by killing the process (a thread cannot be killed:
  an overrun used to run on in the background, holding the GIL), and a paper that
  crashes its process or runs it out of memory takes only that process with it.

Messages are pickled over two pipes (:mod:`multiprocessing.connection`):

- to the child: ``("call", job, fn, args, kwargs, board)`` (run ``fn``; ``board``:
  the job's requests take their slots from the batch's global rate board) and
  ``("board", call, ok, value)``, the answer to a board request;
- from the child: ``("started", job)``, ``("done", job, ok, payload)`` (the pickled
  value or exception) and ``("board", call, job, method, args)``: a call of the
  batch's :class:`~citecheck_tex.batch.limiter.RateBoard`, which the parent (a Dask
  worker, connected to the cluster) makes for it.

A child reads its jobs one at a time, in order; it exits as soon as its pipe closes
(the worker closed it at the end of the batch, or the worker is gone), and ignores the
terminal's Ctrl-C (its worker decides when it stops).
"""

from __future__ import annotations

import contextlib
import itertools
import logging
import os
import pickle
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from multiprocessing.connection import Connection
from typing import Any

logger = logging.getLogger(__name__)

#: Task threads a check process serves: while it checks one task's paper, the next
#: task's paper waits in its pipe.
THREADS_PER_PROCESS = 2
#: Seconds a closed check process gets to exit before it is killed.
CLOSE_WAIT_S = 10.0
#: How often a job is sent again when its process died before starting it (killed for
#: another job's overrun, or crashed on another job).
MAX_RESENDS = 3
#: The smallest address-space limit a check process gets (its threads' stacks and
#: malloc arenas reserve far more address space than they use).
MIN_MEMORY_LIMIT = 1 << 30


class ProcessLostError(Exception):
    """The check process ended before the job's answer came; ``started``: it had begun
    the job."""

    def __init__(self, reason: str, *, started: bool) -> None:
        super().__init__(reason)
        self.started = started


class _Job:
    __slots__ = ("board", "done", "id", "lost", "ok", "payload", "started", "started_at")

    def __init__(self, job_id: int, board: Callable[..., Any] | None) -> None:
        self.id = job_id
        self.board = board
        self.started = threading.Event()
        self.done = threading.Event()
        self.started_at = 0.0
        self.ok = False
        self.payload = b""
        self.lost = False


class CheckProcess:
    """One child process that runs the functions sent to it, one at a time, in order.

    ``memory_limit`` (bytes, 0: none) caps its address space (``RLIMIT_AS``, at least
    :data:`MIN_MEMORY_LIMIT`): a job that needs more gets a ``MemoryError`` instead of
    growing until the system runs out (a Dask worker's own memory limit does not see
    its child processes).
    """

    def __init__(self, memory_limit: int = 0) -> None:
        to_child_r, to_child_w = os.pipe()
        from_child_r, from_child_w = os.pipe()
        env = dict(os.environ)
        # the child imports what this process imports (an uninstalled checkout, tests)
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        try:
            # -P: the working directory is not put first on the child's sys.path
            self.proc = subprocess.Popen(  # noqa: S603 - our own interpreter and module
                [sys.executable, "-P", "-m", __name__, str(to_child_r), str(from_child_w),
                 str(max(memory_limit, MIN_MEMORY_LIMIT) if memory_limit > 0 else 0)],
                pass_fds=(to_child_r, from_child_w), env=env, stdin=subprocess.DEVNULL)
        except BaseException:
            os.close(to_child_w)
            os.close(from_child_r)
            raise
        finally:
            os.close(to_child_r)
            os.close(from_child_w)
        self._out = Connection(to_child_w, readable=False)
        self._in = Connection(from_child_r, writable=False)
        self._send_lock = threading.Lock()
        self._jobs: dict[int, _Job] = {}
        self._ids = itertools.count()
        self._lock = threading.Lock()
        self._boards: ThreadPoolExecutor | None = None
        self.dead = ""  # why it ended, once it has
        self._reader = threading.Thread(target=self._read, daemon=True,
                                        name=f"citecheck check process {self.proc.pid}")
        self._reader.start()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def in_flight(self) -> int:
        """Jobs sent and not answered."""
        return len(self._jobs)

    def submit(self, fn: Callable[..., Any], args: Sequence[Any] = (),
               kwargs: Mapping[str, Any] | None = None, *,
               board: Callable[..., Any] | None = None) -> _Job:
        """Send ``fn(*args, **kwargs)``; ``board(method, *args)`` answers the job's rate
        board requests (None: the job has no global rate board). Raises
        :class:`ProcessLostError` when the process has ended."""
        with self._lock:
            if self.dead:
                raise ProcessLostError(self.dead, started=False)
            job = _Job(next(self._ids), board)
            self._jobs[job.id] = job
        try:
            self._send(("call", job.id, fn, tuple(args), dict(kwargs or {}), board is not None))
        except OSError as exc:  # the child is gone: say why, as the reader would
            code = None
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.proc.wait(1.0)
            self._lost(_exit_reason(code) if code is not None else f"its pipe broke ({exc})")
            raise ProcessLostError(self.dead, started=False) from exc
        return job

    def result(self, job: _Job, timeout_s: float = 0.0) -> Any:
        """The job's value (its exception is raised), counting ``timeout_s`` (0: no limit)
        from when the process began it; past it the process is killed and
        :class:`TimeoutError` raised. :class:`ProcessLostError` when the process ended first."""
        job.started.wait()  # the job ahead of it is bounded by its own waiter's limit
        if job.lost:
            raise ProcessLostError(self.dead, started=job.started_at > 0)
        if timeout_s > 0:
            left = job.started_at + timeout_s - time.monotonic()
            if not job.done.wait(max(0.0, left)):
                self.kill()
                raise TimeoutError(f"not finished within {timeout_s:g} s")
        else:
            job.done.wait()
        if job.lost:
            raise ProcessLostError(self.dead, started=job.started_at > 0)
        try:
            value = pickle.loads(job.payload)  # noqa: S301 - our own child's answer
        except Exception as exc:
            raise RuntimeError(f"the check process's answer could not be read ({exc})") from exc
        if job.ok:
            return value
        raise value

    def kill(self) -> None:
        """End the process now (its jobs are lost)."""
        with contextlib.suppress(OSError):
            self.proc.kill()
        self._lost("it was stopped")

    def close(self, wait_s: float = CLOSE_WAIT_S) -> None:
        """Close its pipe: the process exits at once (a job it is running is dropped;
        a batch closes its processes when every paper is done); killed if it is still
        there after ``wait_s`` seconds."""
        with contextlib.suppress(OSError):
            self._out.close()
        try:
            self.proc.wait(wait_s)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
        self._reader.join(wait_s)
        with contextlib.suppress(OSError):
            self._in.close()
        if self._boards is not None:
            self._boards.shutdown(wait=False)

    def _send(self, msg: tuple[Any, ...]) -> None:
        with self._send_lock:
            self._out.send(msg)

    def _read(self) -> None:
        while True:
            try:
                msg = self._in.recv()
            except (EOFError, OSError):
                break
            except Exception:  # not one of our messages: nothing after it can be trusted
                logger.exception("unreadable message from check process %s", self.pid)
                with contextlib.suppress(OSError):
                    self.proc.kill()
                break
            kind = msg[0]
            if kind == "started":
                job = self._jobs.get(msg[1])
                if job is not None:
                    job.started_at = time.monotonic()
                    job.started.set()
            elif kind == "done":
                with self._lock:
                    job = self._jobs.pop(msg[1], None)
                if job is not None:
                    job.ok, job.payload = msg[2], msg[3]
                    job.started.set()
                    job.done.set()
            elif kind == "board":
                self._board_request(*msg[1:])
        code = self.proc.poll()
        if code is None:
            with contextlib.suppress(subprocess.TimeoutExpired):
                code = self.proc.wait(1.0)
        self._lost(_exit_reason(code))

    def _board_request(self, call_id: int, job_id: int, method: str,
                       args: tuple[Any, ...]) -> None:
        """Make a rate board call for the child (on a thread: it waits for the cluster)."""
        job = self._jobs.get(job_id)

        def answer() -> None:
            try:
                if job is None or job.board is None:
                    raise RuntimeError("no rate board for this job")
                reply: tuple[Any, ...] = ("board", call_id, True, job.board(method, *args))
            except Exception as exc:
                reply = ("board", call_id, False, f"{type(exc).__name__}: {exc}")
            with contextlib.suppress(OSError):
                self._send(reply)

        if self._boards is None:
            self._boards = ThreadPoolExecutor(2, thread_name_prefix="citecheck board")
        self._boards.submit(answer)

    def _lost(self, reason: str) -> None:
        with self._lock:
            self.dead = self.dead or reason
            jobs, self._jobs = list(self._jobs.values()), {}
        for job in jobs:
            job.lost = True
            job.started.set()
            job.done.set()


def _exit_reason(code: int | None) -> str:
    if code is None:
        return "its pipe closed"
    if code < 0:
        with contextlib.suppress(ValueError):
            name = signal.Signals(-code).name
            return f"it was killed by {name}" + (" (out of memory?)" if name == "SIGKILL" else "")
        return f"it was killed by signal {-code}"
    return f"it exited with status {code}"


class CheckPool:
    """The check processes of one Dask worker: up to ``size``, started when needed; a job
    goes to the one with the fewest jobs waiting."""

    def __init__(self, size: int = 1, memory_limit: int = 0) -> None:
        self.size = max(1, size)
        self.memory_limit = memory_limit
        self._procs: list[CheckProcess] = []
        self._lock = threading.Lock()

    def processes(self) -> list[CheckProcess]:
        """The live processes."""
        with self._lock:
            return [p for p in self._procs if not p.dead]

    def _pick(self) -> CheckProcess:
        with self._lock:
            self._procs = [p for p in self._procs if not p.dead]
            idle = [p for p in self._procs if not p.in_flight()]
            if idle:
                return idle[0]
            if len(self._procs) < self.size:
                self._procs.append(CheckProcess(self.memory_limit))
                return self._procs[-1]
            return min(self._procs, key=CheckProcess.in_flight)

    def start(self) -> None:
        """Start every process now (they are otherwise started by the first jobs)."""
        with self._lock:
            self._procs = [p for p in self._procs if not p.dead]
            while len(self._procs) < self.size:
                self._procs.append(CheckProcess(self.memory_limit))

    def run(self, fn: Callable[..., Any], args: Sequence[Any] = (),
            kwargs: Mapping[str, Any] | None = None, *, timeout_s: float = 0.0,
            board: Callable[..., Any] | None = None) -> Any:
        """``fn(*args, **kwargs)`` in a check process. A job whose process ended before
        beginning it is sent again (to a new one); :class:`ProcessLostError` when it ended
        during the job; :class:`TimeoutError` after ``timeout_s`` seconds of running."""
        reason = ""
        for _ in range(MAX_RESENDS):
            proc = self._pick()
            try:
                job = proc.submit(fn, args, kwargs, board=board)
                return proc.result(job, timeout_s)
            except ProcessLostError as lost:
                if lost.started:
                    raise
                reason = str(lost)
                logger.debug("check process %s ended before a job began (%s): sent again",
                             proc.pid, lost)
        raise ProcessLostError(f"{MAX_RESENDS} check processes in a row ended before beginning "
                               f"it, the last because {reason}", started=False)

    def close(self) -> None:
        """Close every process (see :meth:`CheckProcess.close`)."""
        with self._lock:
            procs, self._procs = self._procs, []
        for p in procs:
            p.close()


#: The pool of checks run outside a Dask worker (tests, a plain loop).
_own_pool: CheckPool | None = None
_pools_lock = threading.Lock()
#: Where a Dask worker keeps its pool (an attribute of the ``Worker`` object).
POOL_ATTRIBUTE = "_citecheck_check_pool"


def pool_of(worker: Any) -> CheckPool:
    """The pool of the Dask ``worker`` (one process per :data:`THREADS_PER_PROCESS` of its
    threads, each limited to the worker's memory limit), made on first use; None: the
    pool of this process outside a worker."""
    global _own_pool
    with _pools_lock:
        if worker is None:
            if _own_pool is None:
                _own_pool = CheckPool(1)
            return _own_pool
        pool: CheckPool | None = getattr(worker, POOL_ATTRIBUTE, None)
        if pool is None:
            limit = getattr(getattr(worker, "memory_manager", None), "memory_limit", None)
            pool = CheckPool(-(-int(worker.state.nthreads) // THREADS_PER_PROCESS),
                             int(limit or 0))
            setattr(worker, POOL_ATTRIBUTE, pool)
        return pool


def pool_for_worker() -> CheckPool:
    """The pool of the Dask worker running the calling task (else of this process)."""
    try:
        from distributed import get_worker

        worker = get_worker()
    except (ImportError, ValueError):
        worker = None
    return pool_of(worker)


def close_check_processes(dask_worker: Any = None) -> int:
    """Close the check processes of ``dask_worker`` (run on each worker by
    ``Client.run`` when a batch ends; None: the pool of this process outside a worker);
    returns how many were closed."""
    global _own_pool
    with _pools_lock:
        if dask_worker is None:
            pool, _own_pool = _own_pool, None
        else:
            pool = getattr(dask_worker, POOL_ATTRIBUTE, None)
            if pool is not None:
                delattr(dask_worker, POOL_ATTRIBUTE)
    if pool is None:
        return 0
    closed = len(pool.processes())
    pool.close()
    return closed


def dask_setup(worker: Any) -> None:
    """Dask's preload hook (``dask worker --preload citecheck_tex.batch.checker``; the
    batch's LocalCluster sets it): the worker's check processes start with the worker,
    and import what a check needs while the cluster comes up, not at the first paper."""
    pool_of(worker).start()


# ----------------------------------------------------------------------------- child


class _ChildBoard:
    """The child's side of the rate board: each call goes to the parent and waits."""

    def __init__(self, post: Callable[[tuple[Any, ...]], None]) -> None:
        self._post = post
        self._ids = itertools.count()
        self._waiting: dict[int, tuple[threading.Event, list[Any]]] = {}
        self._lock = threading.Lock()

    def call_for(self, job_id: int) -> Callable[..., Any]:
        def call(method: str, *args: Any) -> Any:
            from citecheck_tex.batch.limiter import BOARD_CALL_TIMEOUT_S

            event, box = threading.Event(), list[Any]()
            with self._lock:
                call_id = next(self._ids)
                self._waiting[call_id] = (event, box)
            self._post(("board", call_id, job_id, method, args))
            if not event.wait(BOARD_CALL_TIMEOUT_S):
                with self._lock:
                    self._waiting.pop(call_id, None)
                raise TimeoutError("no answer from the rate board")
            ok, value = box
            if not ok:
                raise ConnectionError(value)
            return value
        return call

    def answer(self, call_id: int, ok: bool, value: Any) -> None:
        with self._lock:
            waiting = self._waiting.pop(call_id, None)
        if waiting is not None:
            waiting[1][:] = [ok, value]
            waiting[0].set()



def serve(read_fd: int, write_fd: int) -> None:
    """The child: run the jobs read from ``read_fd``, answer on ``write_fd``, until the
    pipe closes."""
    inbox = Connection(read_fd, writable=False)
    outbox = Connection(write_fd, readable=False)
    send_lock = threading.Lock()
    jobs: queue.SimpleQueue[tuple[Any, ...]] = queue.SimpleQueue()

    def post(msg: tuple[Any, ...]) -> None:
        with send_lock:
            outbox.send(msg)

    board = _ChildBoard(post)

    def read() -> None:
        while True:
            try:
                msg = inbox.recv()
            except (EOFError, OSError):
                break
            if msg[0] == "call":
                jobs.put(msg[1:])
            elif msg[0] == "board":
                board.answer(*msg[1:])
        # the worker closed the pipe (the batch is over: nothing is running) or is gone
        # (stopped, Ctrl-C, killed): nobody waits for the job running now, stop it too
        _exit_now()

    threading.Thread(target=read, daemon=True, name="citecheck check pipe").start()
    _warm_up()
    while True:  # until the pipe closes (the reader ends the process) or breaks
        job_id, fn, args, kwargs, with_board = jobs.get()
        try:
            post(("started", job_id))
        except OSError:
            break
        try:
            if with_board:
                from citecheck_tex.batch.limiter import BoardLimiter
                from citecheck_tex.sources.http import use_limiter

                with use_limiter(BoardLimiter(board.call_for(job_id))):
                    value, ok = fn(*args, **kwargs), True
            else:
                value, ok = fn(*args, **kwargs), True
        except BaseException as exc:  # the parent raises it
            value, ok = exc, False
        try:
            payload = pickle.dumps(value)
        except Exception as exc:
            ok, payload = False, pickle.dumps(RuntimeError(
                f"{'the answer' if ok else type(value).__name__} cannot be sent back: {exc}"))
        try:
            post(("done", job_id, ok, payload))
        except OSError:
            break


#: What a paper's check imports on its first paper (pipeline, parsers, sources,
#: verifier, report writers): imported before the first job arrives, while the cluster
#: starts. A module missing here costs only its import time at the first paper.
WARM_MODULES = ("citecheck_tex.batch.task", "citecheck_tex.pipeline",
                "citecheck_tex.tex.project", "citecheck_tex.tex.bib",
                "citecheck_tex.tex.textlist", "citecheck_tex.tex.refstring",
                "citecheck_tex.sources.local_index", "citecheck_tex.sources.http",
                "citecheck_tex.verify.compare", "citecheck_tex.verify.policy",
                "citecheck_tex.outfiles", "citecheck_tex.report.json")


def _warm_up() -> None:
    """Import :data:`WARM_MODULES` and load what a first check loads once per process
    (the sources, the journal abbreviation tables, the TLS settings: 0.3 s of a first
    paper)."""
    import importlib

    try:
        for name in WARM_MODULES:
            importlib.import_module(name)
        from citecheck_tex.sources.base import source_names
        from citecheck_tex.sources.http import tls_context
        from citecheck_tex.vocab.journals import is_known_journal

        source_names()  # imports every shipped source's module
        is_known_journal("Phys. Rev. Lett.")
        tls_context()
    except Exception:  # the job that needs it reports the error
        logger.debug("warm-up failed", exc_info=True)


def main(argv: Sequence[str] | None = None) -> int:
    """The check process's entry point: ``python -m citecheck_tex.batch.checker R W
    [LIMIT]`` (the pipe's file descriptors, the address-space limit in bytes)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # its worker decides when it stops
    args = list(sys.argv[1:] if argv is None else argv)
    limit = int(args[2]) if len(args) > 2 else 0
    if limit > 0:
        import resource

        _, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard != resource.RLIM_INFINITY:
            limit = min(limit, hard)
        resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    serve(int(args[0]), int(args[1]))
    return 0


def _exit_now() -> None:
    """Exit without the interpreter's teardown of the check's modules and caches (a
    tenth of a second at each batch's end): every report was written by its job, with
    atomic replaces (one cut short leaves at most a temporary file)."""
    logging.shutdown()
    with contextlib.suppress(Exception):
        sys.stdout.flush()
        sys.stderr.flush()
    os._exit(0)


if __name__ == "__main__":
    main()
    _exit_now()
