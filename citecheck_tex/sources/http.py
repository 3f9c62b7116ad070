"""The HTTP stack every online source shares: one client, polite limits, retry.

One :class:`Http` lives for one run (:func:`open_http`). Per source it keeps a
token bucket at the API's published rate, a concurrency cap, an adaptive
slow-down after 429s, and a "not before" time set by ``Retry-After``. Faults
are retried a bounded number of times with exponential back-off and jitter.
Per host it keeps a circuit breaker: once a host cannot be reached at all
(DNS or connect failure), every later request to it fails at once, so a run
without network finishes quickly with one clear message.

Bounded by construction (issue 12): one attempt has ``timeout_s`` in total
(connect + headers + body: a drip cannot hold it); bodies are streamed and
refused past ``max_response_bytes``; a ``Retry-After`` beyond
``max_retry_after_s`` gives the source up for the run instead of being waited
out, and so do ``give_up_after`` failed or throttled attempts in a row. Each
adapter declares what a real answer looks like (:class:`Expect`); a response
without that shape (an HTML page or an error document with HTTP 200) is a fault
here, in one place, never an empty answer in nine.

Who enforces the rates is a :class:`HostLimiter`: by default a
:class:`LocalLimiter` (this process's token buckets); ``citecheck-tex batch``
installs one that every Dask worker shares (:func:`use_limiter`,
:mod:`citecheck_tex.batch.limiter`), so that many processes together stay
within each host's published limit.

Published limits (defaults of :data:`DEFAULT_LIMITS`):

- arXiv: one request every 3 s for the whole process, one at a time.
- INSPIRE-HEP: 15 requests per 5 s.
- Crossref polite pool: 50/s, concurrency 5; updated from ``X-Rate-Limit-*``.
- Semantic Scholar: 1/s without a key.
- OpenAlex: 10/s.
- DBLP: serialised, generous back-off (it blocks aggressive clients).
- DataCite, NASA ADS: modest.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import email.utils
import functools
import logging
import math
import random
import ssl
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Protocol, runtime_checkable
from urllib.parse import urlsplit

import httpx

from citecheck_tex.bounded import TooLarge, read_capped
from citecheck_tex.config import Settings
from citecheck_tex.errors import RateLimited, SourceError
from citecheck_tex.redact import install_filter

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class HostLimit:
    """Politeness parameters of one source.

    ``rate`` requests per ``per`` seconds (token bucket, burst ``rate``),
    at most ``concurrency`` requests in flight, back-off ``backoff_base`` *
    2**attempt seconds (with jitter) capped at ``backoff_max``, and a
    ``Retry-After`` longer than ``max_retry_after`` is not waited for (the
    request fails as RATE_LIMITED instead).
    """

    rate: float
    per: float = 1.0
    concurrency: int = 4
    backoff_base: float = 1.0
    backoff_max: float = 30.0
    max_retry_after: float = 60.0
    process_wide: bool = False  # the rate binds every Http of the process (arXiv)


DEFAULT_LIMITS: Mapping[str, HostLimit] = {
    "arxiv": HostLimit(1, 3.0, concurrency=1, backoff_base=3.0, process_wide=True),
    "inspire": HostLimit(15, 5.0, concurrency=3),
    "crossref": HostLimit(50, 1.0, concurrency=5),
    "datacite": HostLimit(5, 1.0, concurrency=2),
    "semanticscholar": HostLimit(1, 1.0, concurrency=1, backoff_base=2.0),
    "openalex": HostLimit(10, 1.0, concurrency=5),
    "dblp": HostLimit(1, 1.0, concurrency=1, backoff_base=10.0, backoff_max=60.0),
    "ads": HostLimit(5, 1.0, concurrency=2),
}

#: Used for a source without an entry in the limits.
FALLBACK_LIMIT = HostLimit(2, 1.0, concurrency=2)

#: Server faults, retried (a 503's Retry-After is honoured up to the cap).
_RETRY_STATUSES = frozenset({500, 502, 503, 504})
#: "Slow down": waited for (Retry-After up to the cap), reported as RATE_LIMITED.
_THROTTLE_STATUSES = frozenset({429})

# arXiv asks for one request every 3 s *per process*, and a process may run
# several checks (watch mode): this is the one deliberate piece of
# process-level state. Plain floats under a thread lock, so that it works
# across event loops.
_PROCESS_SLOTS: dict[str, float] = {}
_PROCESS_LOCK = threading.Lock()


def reserve_process_slot(source: str, interval: float) -> float:
    """Reserve the next process-wide slot of ``source``; returns seconds to wait for it."""
    with _PROCESS_LOCK:
        now = time.monotonic()
        slot = max(now, _PROCESS_SLOTS.get(source, 0.0))
        _PROCESS_SLOTS[source] = slot + interval
        return slot - now


class TokenBucket:
    """An async token bucket with an adaptive slow-down factor.

    ``slow`` multiplies the interval between tokens; it doubles after a 429
    and decays back to 1 after successful requests.
    """

    def __init__(self, rate: float, per: float) -> None:
        self._lock = asyncio.Lock()
        self.set_rate(rate, per)
        self._tokens = self.capacity
        self._updated = time.monotonic()
        self.slow = 1.0
        self.not_before = 0.0

    def set_rate(self, rate: float, per: float) -> None:
        """Change the rate (Crossref announces its limit in response headers)."""
        self.capacity = max(1.0, float(rate))
        self.fill_per_s = max(rate, 1e-6) / max(per, 1e-6)

    async def acquire(self) -> None:
        """Wait until a request may start."""
        async with self._lock:
            while True:
                now = time.monotonic()
                if now < self.not_before:
                    await asyncio.sleep(self.not_before - now)
                    continue
                rate = self.fill_per_s / self.slow
                self._tokens = min(self.capacity, self._tokens + (now - self._updated) * rate)
                self._updated = now
                if self._tokens >= 1.0:
                    self._tokens -= 1.0
                    return
                await asyncio.sleep((1.0 - self._tokens) / rate)

    def penalise(self, retry_after: float) -> None:
        """Slow down after a 429 and hold every request until ``retry_after`` has passed."""
        self.slow = min(self.slow * 2.0, 16.0)
        self._tokens = 0.0
        if retry_after > 0:
            self.not_before = max(self.not_before, time.monotonic() + retry_after)

    def relax(self) -> None:
        """A success: let the slow-down decay towards the published rate."""
        if self.slow > 1.0:
            self.slow = max(1.0, self.slow * 0.9)


@runtime_checkable
class HostLimiter(Protocol):
    """Who decides when a request to a source may start (the rate, not the concurrency).

    :class:`Http` calls :meth:`acquire` before every attempt that reaches a
    server, :meth:`penalise` when the server throttled (429, a rate-limit text,
    ``Retry-After``), :meth:`relax` after a real answer and :meth:`announce`
    when the server announces a lower limit than configured (Crossref's
    ``X-Rate-Limit-*``). The default is :class:`LocalLimiter` (this process);
    :mod:`citecheck_tex.batch.limiter` has one that every Dask worker shares.
    Implementations must never raise from these methods for a fault of their
    own: a limiter that cannot do its job falls back to a local one and says so.
    """

    async def acquire(self, source: str, limit: HostLimit) -> None:
        """Wait until a request to ``source`` may start."""

    async def penalise(self, source: str, limit: HostLimit, retry_after: float) -> None:
        """The server throttled: slow down and hold requests for ``retry_after`` seconds."""

    def relax(self, source: str) -> None:
        """A real answer arrived: let the slow-down decay towards the configured rate."""

    def announce(self, source: str, limit: HostLimit, rate: float, per: float) -> None:
        """The server announced ``rate`` requests per ``per`` s, lower than configured."""

    def rate_per_s(self, source: str, limit: HostLimit) -> float:
        """The rate in force for ``source`` (requests per second, before any slow-down)."""

    def slow(self, source: str) -> float:
        """The current slow-down factor of ``source`` (1: the configured rate)."""


class LocalLimiter:
    """The in-process limiter: one :class:`TokenBucket` per source.

    A limit marked ``process_wide`` (arXiv) also takes a slot of
    :func:`reserve_process_slot`, shared by every :class:`Http` of the process.
    One instance per :class:`Http` unless one is installed with :func:`use_limiter`.
    """

    def __init__(self) -> None:
        self._buckets: dict[str, TokenBucket] = {}

    def bucket(self, source: str, limit: HostLimit) -> TokenBucket:
        """The token bucket of ``source`` (created at ``limit``'s rate on first use)."""
        b = self._buckets.get(source)
        if b is None:
            b = self._buckets[source] = TokenBucket(limit.rate, limit.per)
        return b

    async def acquire(self, source: str, limit: HostLimit) -> None:
        """Take a token, and the process-wide slot for a ``process_wide`` limit."""
        await self.bucket(source, limit).acquire()
        if limit.process_wide:
            wait = reserve_process_slot(source, limit.per / max(limit.rate, 1e-6))
            if wait > 0:
                await asyncio.sleep(wait)

    async def penalise(self, source: str, limit: HostLimit, retry_after: float) -> None:
        """See :meth:`TokenBucket.penalise`."""
        self.bucket(source, limit).penalise(retry_after)

    def relax(self, source: str) -> None:
        """See :meth:`TokenBucket.relax`."""
        b = self._buckets.get(source)
        if b is not None:
            b.relax()

    def announce(self, source: str, limit: HostLimit, rate: float, per: float) -> None:
        """Lower the bucket's rate to the announced one."""
        self.bucket(source, limit).set_rate(rate, per)

    def rate_per_s(self, source: str, limit: HostLimit) -> float:
        """The bucket's fill rate (the configured or announced rate)."""
        return self.bucket(source, limit).fill_per_s

    def slow(self, source: str) -> float:
        """The bucket's slow-down factor."""
        b = self._buckets.get(source)
        return b.slow if b is not None else 1.0


# The limiter new Http stacks use (contextvar: visible in the asyncio.run and the
# worker threads started inside the ``with use_limiter(...)`` block, nowhere else).
_CURRENT_LIMITER: contextvars.ContextVar[HostLimiter | None] = contextvars.ContextVar(
    "citecheck_limiter", default=None)


@contextlib.contextmanager
def use_limiter(limiter: HostLimiter) -> Iterator[None]:
    """Make every :class:`Http` created inside the block use ``limiter``.

    For batch runs: wrap a paper's check (synchronous code that calls
    ``asyncio.run``) so that all of its requests wait for a shared slot.
    """
    token = _CURRENT_LIMITER.set(limiter)
    try:
        yield
    finally:
        _CURRENT_LIMITER.reset(token)


def current_limiter() -> HostLimiter | None:
    """The limiter installed by :func:`use_limiter` here, or None."""
    return _CURRENT_LIMITER.get()


@dataclass(slots=True)
class _SourceState:
    limit: HostLimit
    sem: asyncio.Semaphore
    requests: int = 0
    rate_limited: int = 0
    failures_in_row: int = 0  # failed or throttled attempts since the last real answer
    costs: list[str] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Expect:
    """What a real answer of one endpoint looks like (built by the helpers in
    :mod:`citecheck_tex.sources.base`, declared by each adapter).

    ``problem(resp)`` returns "" when the body has the API's shape, else what
    came instead ("an HTML page (502 Bad Gateway)"); it is consulted for the
    ``statuses`` the adapter reads as answers (200, and a 404 read as "not
    found"). ``throttled(resp)`` recognises a rate-limit message sent with HTTP
    200 (arXiv's "Rate exceeded."), handled like a 429.
    """

    problem: Callable[[httpx.Response], str]
    statuses: frozenset[int] = frozenset({200})
    throttled: Callable[[httpx.Response], bool] | None = None


def _human(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:g} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    if seconds < 172800:
        return f"{seconds / 3600:.0f} h"
    return f"{seconds / 86400:.0f} days"


def parse_retry_after(value: str | None, *, now: float | None = None) -> float:
    """Seconds to wait from a ``Retry-After`` header (delta-seconds or HTTP date); 0 if absent."""
    if not value:
        return 0.0
    value = value.strip()
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = email.utils.parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return 0.0
    current = time.time() if now is None else now
    return max(0.0, when.timestamp() - current)


def _parse_interval(value: str) -> float:
    """Crossref's ``X-Rate-Limit-Interval`` ("1s", "60s", "1m") in seconds."""
    value = value.strip().lower()
    scale = 1.0
    if value.endswith("ms"):
        value, scale = value[:-2], 0.001
    elif value.endswith("s"):
        value = value[:-1]
    elif value.endswith("m"):
        value, scale = value[:-1], 60.0
    try:
        return float(value) * scale
    except ValueError:
        return 0.0


class Http:
    """The run's HTTP stack: shared client, per-source limits, retry, circuit breaker.

    ``requests`` counts every HTTP request sent (retries included);
    ``requests_by_source`` splits it per source. ``down_hosts`` maps each host
    the circuit breaker has opened to the reason. ``limiter`` decides when a
    request may start (default: the one of :func:`use_limiter`, else a new
    :class:`LocalLimiter`).
    """

    def __init__(
        self,
        client: httpx.AsyncClient,
        settings: Settings,
        limits: Mapping[str, HostLimit] | None = None,
        limiter: HostLimiter | None = None,
    ) -> None:
        self.client = client
        self.limiter: HostLimiter = limiter or current_limiter() or LocalLimiter()
        self.settings = settings
        self.mailto = settings.mailto
        self._limits = dict(DEFAULT_LIMITS)
        for name, rate in settings.rate_limits.items():  # the user's (key, mirror)
            base = self._limits.get(name, FALLBACK_LIMIT)
            self._limits[name] = replace(base, rate=rate * base.per)
        if limits:
            self._limits.update(limits)
        self._states: dict[str, _SourceState] = {}
        self.down_hosts: dict[str, str] = {}
        #: sources given up for the run (too long a Retry-After, throttling or failing
        #: again and again): the message, and whether it was throttling
        self.given_up: dict[str, tuple[str, bool]] = {}
        self._connect_failures: dict[str, int] = {}
        self.requests = 0
        self.requests_by_source: dict[str, int] = {}

    def limit_for(self, source: str) -> HostLimit:
        """The limit in force for ``source``."""
        return self._limits.get(source, FALLBACK_LIMIT)

    def _state(self, source: str) -> _SourceState:
        state = self._states.get(source)
        if state is None:
            limit = self.limit_for(source)
            state = _SourceState(limit, asyncio.Semaphore(limit.concurrency))
            self._states[source] = state
        return state

    def backoff(self, source: str, attempt: int) -> float:
        """Seconds to wait before retry ``attempt`` (0-based): exponential with jitter."""
        limit = self.limit_for(source)
        base = min(limit.backoff_max, limit.backoff_base * (2.0**attempt))
        return base * random.uniform(0.5, 1.0)

    def network_message(self) -> str:
        """One sentence about unreachable hosts, or "" when every host answered."""
        if not self.down_hosts:
            return ""
        hosts = ", ".join(sorted(self.down_hosts))
        return (
            f"could not connect to {hosts}; references that needed them are UNVERIFIED. "
            "Check the network, or run with --offline and a local index."
        )

    def give_up(self, source: str, message: str, *, rate_limited: bool) -> None:
        """Ask ``source`` nothing more in this run; later requests fail at once with ``message``."""
        if source not in self.given_up:
            logger.warning("%s", message)
            self.given_up[source] = (message, rate_limited)

    def _check_given_up(self, source: str, url: str) -> None:
        if source in self.given_up:
            message, rate_limited = self.given_up[source]
            if rate_limited:
                raise RateLimited(message, source=source, url=url)
            raise SourceError(message, source=source, url=url)

    def _note_failure(self, source: str, state: _SourceState, what: str, url: str, *,
                      throttled: bool) -> None:
        """Count one failed or throttled attempt; give the source up after too many in a row."""
        state.failures_in_row += 1
        limit = self.settings.give_up_after
        if limit and state.failures_in_row >= limit:
            if throttled:
                message = (f"{source}: throttled us {state.failures_in_row} times in a row "
                           f"({what}); not asked again in this run. Re-run later (answers "
                           "already received are cached).")
            else:
                message = (f"{source}: {state.failures_in_row} failed attempts in a row "
                           f"(last: {what}); not asked again in this run. Re-run when it "
                           "answers again (answers already received are cached).")
            self.give_up(source, message, rate_limited=throttled)
            self._check_given_up(source, url)

    def _retry_after_cap(self, state: _SourceState) -> float:
        return min(state.limit.max_retry_after, self.settings.max_retry_after_s)

    def _too_long_a_wait(self, source: str, wait: float, cap: float, what: str,
                         url: str) -> RateLimited:
        """Give ``source`` up for the run: it asked us to wait ``wait`` s, beyond the cap."""
        when = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime(min(time.time() + wait,
                                                                     253402300799.0)))
        message = (f"{source}: {what} with Retry-After {_human(wait)}, longer than the "
                   f"{cap:g} s we wait; not asked again in this "
                   f"run. Retry after {when}.")
        self.give_up(source, message, rate_limited=True)
        return RateLimited(message, source=source, url=url, retry_after=wait)

    async def _send(
        self, method: str, url: str, *, params: Mapping[str, str] | None,
        headers: Mapping[str, str] | None, json: Any,
    ) -> httpx.Response:
        """One attempt within the total time budget, the body read up to the size cap.

        ``timeout_s`` bounds the whole attempt (connect, headers and body), so a
        server that drips its answer cannot hold it; a body over
        ``max_response_bytes`` (declared or counted while streaming) is refused
        without being held in memory.
        """
        async with asyncio.timeout(self.settings.timeout_s):
            async with self.client.stream(method, url, params=params, headers=headers,
                                          json=json) as resp:
                return await read_capped(resp, self.settings.max_response_bytes)

    async def request(
        self,
        source: str,
        method: str,
        url: str,
        *,
        params: Mapping[str, str] | None = None,
        headers: Mapping[str, str] | None = None,
        json: Any = None,
        expect: Expect | None = None,
    ) -> httpx.Response:
        """Send one request politely; return a response that is an answer of the API.

        ``expect`` says what a real answer looks like: a response of one of its
        statuses that does not have that shape (an HTML gateway page, an error
        document, a rate-limit text with HTTP 200) is a fault, retried like a 5xx,
        never returned. Raises :class:`RateLimited` when the source keeps
        throttling, asks for a ``Retry-After`` beyond ``max_retry_after_s`` or was
        given up earlier in the run, and :class:`SourceError` for connection
        failures, time-outs, 5xx, non-answers and oversized bodies after
        ``settings.max_retries`` retries, or at once when the host is down.
        """
        host = urlsplit(url).netloc
        state = self._state(source)
        retries = max(0, self.settings.max_retries)
        attempt = 0
        free_retry = False  # a failed connect reached no server: its retry costs no token
        while True:
            self._check_given_up(source, url)
            if host in self.down_hosts:
                raise SourceError(
                    f"{source}: {host} is unreachable ({self.down_hosts[host]})",
                    source=source, url=url,
                )
            async with state.sem:
                self._check_given_up(source, url)  # given up while we queued: fail at once
                if not free_retry:
                    await self.limiter.acquire(source, state.limit)
                free_retry = False
                self._check_given_up(source, url)  # given up while we waited for a slot
                if host in self.down_hosts:
                    continue
                self.requests += 1
                self.requests_by_source[source] = self.requests_by_source.get(source, 0) + 1
                state.requests += 1
                try:
                    resp = await self._send(method, url, params=params, headers=headers,
                                            json=json)
                except (httpx.ConnectError, httpx.ConnectTimeout) as exc:
                    reason = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                    # consecutive connect failures of the host, whichever request saw them
                    fails = self._connect_failures.get(host, 0) + 1
                    self._connect_failures[host] = fails
                    if attempt >= retries or fails > min(retries, 2) or host in self.down_hosts:
                        if host not in self.down_hosts:
                            logger.warning("%s: cannot connect to %s (%s); not asking it again "
                                           "in this run", source, host, reason)
                        self.down_hosts[host] = reason
                        raise SourceError(
                            f"{source}: cannot connect to {host} ({reason})",
                            source=source, url=url,
                        ) from exc
                    delay = min(0.25 * (2.0**attempt), 1.0)
                    error: str = reason
                    free_retry = True
                except TooLarge as exc:
                    error = str(exc)
                    self._note_failure(source, state, error, url, throttled=False)
                    raise SourceError(f"{source}: {error}", source=source, url=url) from exc
                # read errors, drops, the time budget; also a redirect loop and a body that
                # does not decode (RequestError: TooManyRedirects, DecodingError)
                except (httpx.RequestError, TimeoutError) as exc:
                    if isinstance(exc, TimeoutError):
                        error = (f"no complete answer within {self.settings.timeout_s:g} s "
                                 "(time budget of one request)")
                    else:
                        error = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
                    self._note_failure(source, state, error, url, throttled=False)
                    if attempt >= retries:
                        raise SourceError(
                            f"{source}: {error} after {attempt + 1} attempt(s)",
                            source=source, url=url,
                        ) from exc
                    delay = self.backoff(source, attempt)
                else:
                    self._connect_failures.pop(host, None)
                    self._observe(source, state, resp)
                    status = resp.status_code
                    answer_text = status == 200 and expect is not None \
                        and expect.throttled is not None and expect.throttled(resp)
                    if status in _THROTTLE_STATUSES or answer_text:
                        what = f"HTTP {status}" + (" with a rate-limit message" if answer_text
                                                   else "")
                        wait = parse_retry_after(resp.headers.get("Retry-After"))
                        state.rate_limited += 1
                        cap = self._retry_after_cap(state)
                        if wait > cap:
                            raise self._too_long_a_wait(source, wait, cap, what, url)
                        self._note_failure(source, state, what, url, throttled=True)
                        await self.limiter.penalise(source, state.limit,
                                                    wait or self.backoff(source, attempt))
                        if attempt >= retries:
                            raise RateLimited(
                                f"{source}: rate limited ({what}"
                                + (f", Retry-After {wait:g} s)" if wait else ")"),
                                source=source, url=url, retry_after=wait,
                            )
                        logger.info("%s: %s, waiting %.1f s", source, what, wait)
                        attempt += 1
                        continue
                    problem = ""
                    if status in _RETRY_STATUSES:
                        problem = f"HTTP {status}"
                    elif expect is not None and status in expect.statuses:
                        shape = expect.problem(resp)
                        if shape:
                            problem = f"HTTP {status} but not an answer of the API: {shape}"
                    if problem:
                        wait = parse_retry_after(resp.headers.get("Retry-After"))
                        cap = self._retry_after_cap(state)
                        if wait > cap:
                            raise self._too_long_a_wait(source, wait, cap, f"HTTP {status}", url)
                        self._note_failure(source, state, problem, url, throttled=False)
                        if attempt >= retries:
                            raise SourceError(
                                f"{source}: {problem} after {attempt + 1} attempt(s)",
                                source=source, url=url, status=status,
                            )
                        delay = max(wait, self.backoff(source, attempt))
                        error = problem
                    else:
                        state.failures_in_row = 0
                        self.limiter.relax(source)
                        return resp
            logger.debug("%s: %s, retry %d in %.2f s", source, error, attempt + 1, delay)
            await asyncio.sleep(delay)
            attempt += 1

    def _observe(self, source: str, state: _SourceState, resp: httpx.Response) -> None:
        """Learn from response headers: Crossref's announced limit, OpenAlex's cost."""
        limit = resp.headers.get("X-Rate-Limit-Limit")
        interval = resp.headers.get("X-Rate-Limit-Interval")
        if limit and interval:
            try:
                n = float(limit)
            except ValueError:
                n = 0.0
            secs = _parse_interval(interval)
            if not (math.isfinite(n) and math.isfinite(secs)):  # "infs": a rate of 0
                n = secs = 0.0
            if n > 0 and secs > 0 and secs / n > self.settings.max_retry_after_s:
                # one request per day is no pace to keep: waits that long are not waited
                # (a Retry-After as long gives the source up); the announcement is left
                # aside and the server's own 429s still count (one header had held a
                # whole run until its deadline)
                logger.debug("%s: ignoring an announced %g requests per %g s", source, n, secs)
                n = 0.0
            if n > 0 and secs > 0:
                current = self.limiter.rate_per_s(source, state.limit)
                announced = n / secs
                if abs(current - announced) > 1e-9:
                    logger.debug("%s: server announces %g requests per %g s", source, n, secs)
                    # never exceed what we were configured with (tests and politeness)
                    if announced < current:
                        self.limiter.announce(source, state.limit, n, secs)
        costs = [f"{k}={v}" for k, v in resp.headers.items()
                 if k.lower().startswith(("x-ratelimit", "x-api-cost", "x-cost"))]
        if costs:
            state.costs = costs
            logger.debug("%s: %s", source, " ".join(costs))

    def stats(self) -> dict[str, dict[str, float]]:
        """Per-source counters for benchmarks: requests, 429s, current slow-down factor."""
        return {
            name: {
                "requests": float(st.requests),
                "rate_limited": float(st.rate_limited),
                "slow": self.limiter.slow(name),
            }
            for name, st in self._states.items()
        }


@functools.cache
def tls_context() -> ssl.SSLContext:
    """The TLS settings every client of this process uses (httpx's defaults: the certifi
    CA bundle, ``SSL_CERT_FILE``/``SSL_CERT_DIR``), made once per process.

    Making them reads the whole CA bundle: about 20 ms of CPU, more than checking a
    paper's references against the local index takes; a batch worker opens one client
    per paper, thousands of times. The context is only read once made, so sharing it is
    safe.
    """
    return httpx.create_ssl_context()


@contextlib.asynccontextmanager
async def open_http(
    settings: Settings,
    *,
    transport: httpx.AsyncBaseTransport | None = None,
    limits: Mapping[str, HostLimit] | None = None,
    limiter: HostLimiter | None = None,
) -> AsyncIterator[Http]:
    """Open the run's HTTP stack and close the client at the end.

    ``transport`` lets tests pass ``httpx.MockTransport``; ``limits``
    overrides the rate limits of some sources (tests and benchmarks);
    ``limiter`` replaces the default :class:`HostLimiter` (see :class:`Http`).
    """
    install_filter(logging.getLogger("httpx"))  # httpx logs every request URL at INFO
    timeout = httpx.Timeout(settings.timeout_s, connect=min(settings.timeout_s, 10.0))
    client = httpx.AsyncClient(
        headers={"User-Agent": settings.user_agent()},
        timeout=timeout,
        verify=tls_context(),
        transport=transport,
        follow_redirects=True,
        limits=httpx.Limits(max_connections=32, max_keepalive_connections=16),
    )
    try:
        yield Http(client, settings, limits, limiter)
    finally:
        await client.aclose()


def scaled_limits(factor: float, base: Mapping[str, HostLimit] | None = None) -> dict[str, HostLimit]:
    """Every default limit with its period and back-off divided by ``factor`` (tests)."""
    src = base or DEFAULT_LIMITS
    return {
        name: replace(
            lim,
            per=lim.per / factor,
            backoff_base=lim.backoff_base / factor,
            backoff_max=lim.backoff_max / factor,
        )
        for name, lim in src.items()
    }
