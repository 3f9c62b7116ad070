"""Per-source rate limits that every Dask worker of a batch shares.

Each worker process has its own :class:`~citecheck_tex.sources.http.Http`
stacks, and their in-process token buckets only see that process: 50 workers
would send 50 times arXiv's one request per 3 s. Here one :class:`RateBoard`
lives on the cluster as a Dask actor; before every request each worker asks
it for the next free slot of the source (one small RPC), so the rate is
global. A 429 or ``Retry-After`` seen by one worker is told to the board and
holds every worker.

Client side, once per batch::

    handle = start_global_limiter(client)     # picklable; pass it to each task
    ...
    handle.close()

Inside a task, around one paper's check::

    with use_global_limiter(handle):
        check(...)                             # every Http opened inside uses it

The board schedules with a generic cell-rate algorithm (a token bucket
expressed as "theoretical arrival time"): ``burst`` requests may start at once,
then one per ``interval``; the interval is multiplied by a slow-down factor
that doubles after each throttling (up to 16) and decays by 0.9 per real
answer, as in :class:`~citecheck_tex.sources.http.TokenBucket`. The
concurrency cap of a source stays per process. When the board cannot be
reached (its worker died), the worker says so once and falls back to its
in-process limiter: the batch goes on, polite per process.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from citecheck_tex.sources.http import HostLimit, LocalLimiter, use_limiter

logger = logging.getLogger(__name__)

#: Seconds one call to the board may take before the worker falls back to local limits.
BOARD_CALL_TIMEOUT_S = 30.0
#: The largest slow-down factor (as TokenBucket).
MAX_SLOW = 16.0


@dataclass(slots=True)
class _Lane:
    tat: float = 0.0  # theoretical arrival time of the next request at the full rate
    not_before: float = 0.0  # Retry-After: nothing starts before this
    slow: float = 1.0
    interval: float = 1.0
    burst: float = 1.0
    reserved: int = 0
    throttled: int = 0


class RateBoard:
    """The cluster-wide schedule of requests per source (runs as one Dask actor).

    Plain Python, no Dask: the actor's methods run one at a time on its
    worker, and tests drive it directly with an injected ``clock``.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._lanes: dict[str, _Lane] = {}
        self._lock = threading.Lock()  # callers outside an actor (tests, threads)

    def reserve(self, source: str, interval: float, burst: float,
                relaxed: int = 0) -> tuple[float, float]:
        """Reserve the next slot of ``source``; returns (seconds to wait, slow-down factor).

        ``interval`` is the seconds between requests at the configured rate,
        ``burst`` how many may start at once; ``relaxed`` counts the real answers
        the caller received since its last call (each lets the slow-down decay).
        """
        with self._lock:
            now = self._clock()
            lane = self._lanes.setdefault(source, _Lane())
            if relaxed and lane.slow > 1.0:
                lane.slow = max(1.0, lane.slow * 0.9 ** relaxed)
            lane.interval = max(interval, 1e-6)
            lane.burst = max(1.0, burst)
            step = lane.interval * lane.slow
            tau = (lane.burst - 1.0) * step
            start = max(now, lane.not_before, lane.tat - tau)
            lane.tat = max(lane.tat, start) + step
            lane.reserved += 1
            return start - now, lane.slow

    def penalise(self, source: str, retry_after: float) -> float:
        """A server throttled ``source``: double the slow-down, hold everyone ``retry_after`` s.

        The burst is used up as well, so that after the hold requests start one
        interval apart. Returns the new slow-down factor.
        """
        with self._lock:
            now = self._clock()
            lane = self._lanes.setdefault(source, _Lane())
            lane.slow = min(lane.slow * 2.0, MAX_SLOW)
            lane.throttled += 1
            lane.not_before = max(lane.not_before, now + max(0.0, retry_after))
            step = lane.interval * lane.slow
            lane.tat = max(lane.tat, lane.not_before + (lane.burst - 1.0) * step)
            return lane.slow

    def stats(self) -> dict[str, dict[str, float]]:
        """Per source: slots reserved, throttlings reported, current slow-down."""
        with self._lock:
            return {name: {"reserved": float(lane.reserved), "throttled": float(lane.throttled),
                           "slow": lane.slow}
                    for name, lane in self._lanes.items()}


BoardCall = Callable[..., Any]
"""Calls a method of the board by name and returns its result (blocking)."""


class BoardLimiter:
    """A :class:`~citecheck_tex.sources.http.HostLimiter` that asks a :class:`RateBoard`.

    ``call(method, *args)`` runs a board method and returns its result; it
    blocks (an RPC to the actor), so it runs in a thread, off the event loop.
    The first failing call is logged once; from then on this limiter is a
    :class:`~citecheck_tex.sources.http.LocalLimiter`.
    """

    def __init__(self, call: BoardCall) -> None:
        self._call = call
        self._relaxed: dict[str, int] = {}
        self._announced: dict[str, float] = {}  # source -> interval announced by the server
        self._slow: dict[str, float] = {}
        self.fallback: LocalLimiter | None = None
        self.failure = ""

    def _fail(self, exc: BaseException) -> LocalLimiter:
        if self.fallback is None:
            self.failure = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            logger.warning("the batch's shared rate limiter cannot be reached (%s); this "
                           "worker goes on with its own per-process limits", self.failure)
            self.fallback = LocalLimiter()
        return self.fallback

    def _interval(self, source: str, limit: HostLimit) -> float:
        own = limit.per / max(limit.rate, 1e-6)
        return max(own, self._announced.get(source, 0.0))

    async def acquire(self, source: str, limit: HostLimit) -> None:
        """Reserve a slot on the board and wait for it."""
        if self.fallback is not None:
            return await self.fallback.acquire(source, limit)
        relaxed = self._relaxed.pop(source, 0)
        try:
            wait, slow = await asyncio.to_thread(
                self._call, "reserve", source, self._interval(source, limit),
                max(1.0, float(limit.rate)), relaxed)
        except Exception as exc:  # the actor's worker died, the cluster is gone
            return await self._fail(exc).acquire(source, limit)
        self._slow[source] = float(slow)
        if wait > 0:
            await asyncio.sleep(float(wait))

    async def penalise(self, source: str, limit: HostLimit, retry_after: float) -> None:
        """Tell the board: every worker holds ``retry_after`` s and slows down."""
        if self.fallback is not None:
            return await self.fallback.penalise(source, limit, retry_after)
        try:
            self._slow[source] = float(await asyncio.to_thread(
                self._call, "penalise", source, retry_after))
        except Exception as exc:
            await self._fail(exc).penalise(source, limit, retry_after)

    def relax(self, source: str) -> None:
        """Counted here, told to the board with the next reservation (no extra RPC)."""
        if self.fallback is not None:
            self.fallback.relax(source)
            return
        self._relaxed[source] = self._relaxed.get(source, 0) + 1

    def announce(self, source: str, limit: HostLimit, rate: float, per: float) -> None:
        """Use the server's lower limit in this worker's next reservations."""
        if self.fallback is not None:
            self.fallback.announce(source, limit, rate, per)
        self._announced[source] = per / max(rate, 1e-6)

    def rate_per_s(self, source: str, limit: HostLimit) -> float:
        """The configured rate, or the lower one the server announced."""
        if self.fallback is not None:
            return self.fallback.rate_per_s(source, limit)
        return 1.0 / self._interval(source, limit)

    def slow(self, source: str) -> float:
        """The board's slow-down factor as of this worker's last call."""
        if self.fallback is not None:
            return self.fallback.slow(source)
        return self._slow.get(source, 1.0)


@dataclass(frozen=True)
class GlobalLimiterHandle:
    """Where the batch's :class:`RateBoard` actor lives; picklable, pass it to every task.

    Only the client that started it holds the actor's future (``close`` releases it).
    """

    key: str
    address: str
    _future: Any = field(default=None, compare=False, repr=False)

    def __reduce__(self) -> tuple[Any, ...]:
        return (GlobalLimiterHandle, (self.key, self.address))

    def _actor(self) -> Any:
        from distributed.actor import Actor

        try:
            from distributed import get_worker

            worker = get_worker()
        except ValueError:  # not inside a task: the default client's connection
            worker = None
        return Actor(RateBoard, self.address, self.key, worker=worker)  # type: ignore[no-untyped-call]

    def stats(self) -> dict[str, dict[str, float]]:
        """The board's counters per source (see :meth:`RateBoard.stats`)."""
        result: dict[str, dict[str, float]] = self._actor().stats().result(BOARD_CALL_TIMEOUT_S)
        return result

    def close(self) -> None:
        """Release the actor (client side, when the batch is over)."""
        if self._future is not None:
            self._future.release()


def start_global_limiter(client: Any) -> GlobalLimiterHandle:
    """Start the batch's :class:`RateBoard` on the cluster of ``client`` (a ``distributed.Client``)."""
    future = client.submit(RateBoard, actor=True, pure=False)
    actor = future.result()
    return GlobalLimiterHandle(str(actor.key), str(actor._address), future)


def board_call(handle: GlobalLimiterHandle) -> BoardCall:
    """Calls of the board of ``handle`` (made inside a Dask task: the actor is reached
    through the task's worker; the calls may then come from any thread)."""
    actor = handle._actor()

    def call(method: str, *args: Any) -> Any:
        return getattr(actor, method)(*args).result(BOARD_CALL_TIMEOUT_S)
    return call


@contextlib.contextmanager
def use_global_limiter(handle: GlobalLimiterHandle) -> Iterator[None]:
    """Inside a Dask task: every Http opened in the block takes its slots from the board."""
    with use_limiter(BoardLimiter(board_call(handle))):
        yield


__all__ = ["BoardLimiter", "GlobalLimiterHandle", "RateBoard", "board_call",
           "start_global_limiter", "use_global_limiter"]
