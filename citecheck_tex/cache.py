"""The answer cache of the sources (SQLite or Redis), and the :class:`CachedSource` wrapper.

Key: (source, adapter version, ``query.cache_key()``). FOUND answers live 30
days, NOT_FOUND one day, ERROR / RATE_LIMITED / SKIPPED are never stored (a
failure must be retried next run).

Backends (:func:`open_cache` picks one from the ``cache`` setting):

- a file path: :class:`Cache`, SQLite in WAL mode with a busy timeout, every
  write transaction retried while another process holds the lock, so that many
  processes on one machine (watch mode and a latexmk hook, the workers of
  ``citecheck-tex batch``) share one file without losing a write;
- ``redis://[[user]:password@]host:port/db`` (or ``rediss://``):
  :class:`RedisCache`, one cache for the workers of a
  cluster. Same keys, lifetimes and rules.

A cache that cannot be used, or that fails during the run, is one warning and
the run goes on without it: it only saves requests. Calls run in a worker
thread (``asyncio.to_thread``), off the event loop.

Claims: before a missing answer is fetched, :class:`CachedSource` claims it
(a lease of :data:`CLAIM_LEASE_S`); whoever asks for the same answer while the
claim is held waits for the answer instead of sending the same request. See
:class:`CachedSource` for what that guarantees.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import random
import sqlite3
import threading
import time
import uuid
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from citecheck_tex.llm.cache import (
    LLM_RESPONSES_SCHEMA,
    insert_response,
    select_response,
)
from citecheck_tex.model import Answer, Person, Query, QueryKind, Record, SourceStatus
from citecheck_tex.redact import redact
from citecheck_tex.sources.base import Source

if TYPE_CHECKING:
    from citecheck_tex.config import Settings

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 1
FOUND_TTL_S = 30 * 24 * 3600.0
NOT_FOUND_TTL_S = 24 * 3600.0

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS answers (
    source TEXT NOT NULL,
    version TEXT NOT NULL,
    qkey TEXT NOT NULL,
    status TEXT NOT NULL,
    records TEXT NOT NULL,
    message TEXT NOT NULL,
    stored_at REAL NOT NULL,
    expires_at REAL NOT NULL,
    PRIMARY KEY (source, version, qkey)
);
CREATE TABLE IF NOT EXISTS claims (
    source TEXT NOT NULL,
    version TEXT NOT NULL,
    qkey TEXT NOT NULL,
    owner TEXT NOT NULL,
    expires_at REAL NOT NULL,
    PRIMARY KEY (source, version, qkey)
);
"""

#: How long a claim on a missing answer holds (seconds) unless renewed. The
#: claimer renews it every third of this while its fetch runs (a fetch may wait
#: long for a rate-limit slot); if the claimer dies (killed, its machine lost),
#: the others wait at most this long before asking themselves.
CLAIM_LEASE_S = 15.0

#: What a cache backend raises when it cannot serve (SQLite, file system, Redis
#: errors are turned into :class:`CacheError`, an ``OSError``).
CACHE_ERRORS: tuple[type[BaseException], ...] = (sqlite3.Error, OSError, MemoryError)


class CacheError(OSError):
    """A cache backend could not serve (its own exception is the ``__cause__``)."""


#: A claim's outcome per query: the answer someone stored meanwhile, True (ours
#: now: fetch it) or False (someone else is fetching it: wait).
Claim = Answer | bool


class AnswerCache(Protocol):
    """What :class:`CachedSource` needs of a cache backend (SQLite :class:`Cache`, Redis).

    The ``*_sync`` methods block (they run in a worker thread); each may raise
    one of :data:`CACHE_ERRORS`. ``location`` is printable (secrets masked).
    """

    location: str
    failure: str

    def fail(self, exc: BaseException) -> None:
        """Stop using the cache for this run after ``exc``; warn once."""

    def get_many_sync(self, source: str, version: str,
                      queries: Sequence[Query]) -> list[Answer | None]:
        """The stored, unexpired answer of each query (``cached=True``), None when absent."""

    def put_many_sync(self, answers: Sequence[Answer], version: str) -> int:
        """Store the cacheable answers (releasing their claims); returns how many were stored."""

    def claim_sync(self, source: str, version: str, queries: Sequence[Query], owner: str,
                   lease_s: float) -> list[Claim]:
        """Claim each missing answer for ``owner`` (see :data:`Claim`), atomically per query."""

    def renew_sync(self, source: str, version: str, queries: Sequence[Query], owner: str,
                   lease_s: float) -> None:
        """Extend ``owner``'s claims on ``queries`` that it still holds (never makes new ones)."""

    def release_sync(self, source: str, version: str, queries: Sequence[Query],
                     owner: str) -> None:
        """Drop ``owner``'s claims on ``queries`` (a fetch that gave no cacheable answer)."""

    def close(self) -> None:
        """Let go of the connection."""


def is_cache_url(setting: str) -> bool:
    """True when the cache setting names a Redis server rather than a file."""
    return setting.strip().lower().startswith(("redis://", "rediss://"))


def describe_cache(setting: str | Path) -> str:
    """The cache setting as it may be printed or logged (a URL's password masked)."""
    return redact(str(setting))


def open_cache(settings: Settings, *, warn: bool = True) -> AnswerCache | None:
    """The answer cache the ``cache`` setting names; None when disabled or unusable.

    ``"none"``: no cache; a ``redis://`` URL: :class:`RedisCache`;
    otherwise the SQLite file (default: the user cache folder's ``cache.sqlite``).
    An unusable cache is one warning (``warn``) and None: the run goes on without it.
    """
    if is_cache_url(settings.cache_path):
        return RedisCache.open_or_none(settings.cache_path.strip(), warn=warn)
    path = settings.resolved_cache_path()
    if path is None:
        return None
    return Cache.open_or_none(path, warn=warn)


_T = TypeVar("_T")

#: How long a write keeps being retried while other processes hold the database.
LOCKED_RETRY_S = 60.0


def _locked(exc: sqlite3.Error) -> bool:
    """True for "database is locked" / "busy": another process is writing, try again."""
    code = getattr(exc, "sqlite_errorcode", None)
    if code is not None:
        return (code & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED)
    text = str(exc).lower()
    return "locked" in text or "busy" in text


def _retry_locked(fn: Callable[[], _T], *, for_s: float = LOCKED_RETRY_S) -> _T:
    """Run ``fn``, again after a short random pause while the database is locked.

    The busy timeout already waits inside SQLite; this covers the cases it does
    not (a lock met while opening or switching to WAL, a busy snapshot), so that
    a write is only given up after ``for_s`` seconds of contention, never at once.
    """
    deadline = time.monotonic() + for_s
    pause = 0.005
    while True:
        try:
            return fn()
        except sqlite3.OperationalError as exc:
            if not _locked(exc) or time.monotonic() >= deadline:
                raise
        time.sleep(pause * random.uniform(0.5, 1.5))
        pause = min(pause * 2, 0.25)


# ---------------------------------------------------------------------------
# Record <-> JSON


def record_to_json(record: Record) -> dict[str, Any]:
    """A JSON-able dict of a Record (Persons as dicts, tuples as lists)."""
    out: dict[str, Any] = {}
    for f in fields(Record):
        value = getattr(record, f.name)
        if f.name == "authors":
            value = [
                {"family": p.family, "given": p.given, "von": p.von, "jr": p.jr,
                 "literal": p.literal}
                for p in value
            ]
        elif f.name == "extra_pubs":
            value = [list(t) for t in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def record_from_json(data: dict[str, Any]) -> Record:
    """The inverse of :func:`record_to_json`; unknown keys are ignored."""
    kwargs: dict[str, Any] = {}
    for f in fields(Record):
        if f.name not in data:
            continue
        value = data[f.name]
        if f.name == "authors":
            value = tuple(Person(**p) for p in value)
        elif f.name == "extra_pubs":
            value = tuple(tuple(str(x) for x in t) for t in value)
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[f.name] = value
    return Record(**kwargs)


def query_to_json(query: Query) -> dict[str, Any]:
    """A JSON-able dict of a Query."""
    return {"kind": query.kind.value, "value": query.value, "authors": list(query.authors),
            "year": query.year, "journal": query.journal, "volume": query.volume,
            "page": query.page}


def query_from_json(data: dict[str, Any]) -> Query:
    """The inverse of :func:`query_to_json`."""
    return Query(QueryKind(data["kind"]), data.get("value", ""), tuple(data.get("authors", ())),
                 data.get("year", ""), data.get("journal", ""), data.get("volume", ""),
                 data.get("page", ""))


def answer_ttl(answer: Answer, found_ttl_s: float, not_found_ttl_s: float) -> float | None:
    """Seconds ``answer`` may be kept: FOUND long, NOT_FOUND short, anything else never (None)."""
    if answer.status is SourceStatus.FOUND:
        return found_ttl_s
    if answer.status is SourceStatus.NOT_FOUND:
        return not_found_ttl_s
    return None


def answer_from_row(source: str, query: Query, status: str, records: str, message: str,
                    expires_at: float, now: float) -> Answer | None:
    """A stored answer (``cached=True``); None when expired or unreadable."""
    if expires_at <= now:
        return None
    try:
        recs = tuple(record_from_json(r) for r in json.loads(records))
        state = SourceStatus(status)
    except (ValueError, TypeError, KeyError) as exc:
        logger.debug("cache: unreadable answer for %s %s: %s", source, query.cache_key(), exc)
        return None
    return Answer(source, query, state, recs, message=message, cached=True)


#: Expired answers are deleted when the cache is opened, at most this often.
PURGE_INTERVAL_S = 86400.0


class Cache:
    """The SQLite answer cache (:class:`AnswerCache`). Thread-safe; use :meth:`open` to create one.

    ``clock`` returns the current time in seconds (tests inject one).
    """

    def __init__(self, conn: sqlite3.Connection, path: str,
                 clock: Callable[[], float] = time.time) -> None:
        self._conn = conn
        self._lock = threading.Lock()
        self.path = path
        self.location = path
        self.clock = clock
        self.found_ttl_s = FOUND_TTL_S
        self.not_found_ttl_s = NOT_FOUND_TTL_S
        #: Set at the first failing read or write: the cache is then left alone for
        #: the rest of the run (it is an optimisation, never a reason to stop).
        self.failure = ""

    def fail(self, exc: BaseException) -> None:
        """Stop using the cache for this run after ``exc``; warn once."""
        if not self.failure:
            self.failure = str(exc) or type(exc).__name__
            logger.warning("answer cache %s failed (%s); the run goes on without it",
                           self.location, redact(self.failure))

    @classmethod
    def open_or_none(cls, path: str | Path, *, warn: bool = True) -> Cache | None:
        """:meth:`open`, or None with one warning when the file cannot serve as a cache.

        A read-only or corrupt file, a file that is not SQLite, a full disk: the
        cache only saves requests, so the run goes on without it.
        """
        try:
            return cls.open(path)
        except (sqlite3.Error, OSError) as exc:
            logger.log(logging.WARNING if warn else logging.DEBUG,
                       "answer cache %s unusable (%s); the run goes on without it "
                       "(delete the file, or pass --cache none or another --cache PATH)",
                       path, exc)
            return None

    @classmethod
    def open(cls, path: str | Path, *, clock: Callable[[], float] = time.time,
             busy_timeout_s: float = 30.0) -> Cache:
        """Open (creating if needed) the cache at ``path``.

        A database of another schema version is cleared, not trusted. Raises
        ``sqlite3.Error`` or ``OSError`` when the file cannot be used (see
        :meth:`open_or_none`). Several processes may open the same file at the
        same moment: a lock met on the way is waited out (:func:`_retry_locked`).
        """
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        return _retry_locked(lambda: cls._open(p, clock, busy_timeout_s))

    @classmethod
    def _open(cls, p: Path, clock: Callable[[], float], busy_timeout_s: float) -> Cache:
        conn = sqlite3.connect(str(p), timeout=busy_timeout_s, check_same_thread=False,
                               isolation_level=None)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
            try:
                conn.execute("PRAGMA journal_mode = WAL")
            except sqlite3.OperationalError as exc:  # e.g. a network file system
                if _locked(exc):  # another process is switching it: open again
                    raise
                logger.debug("cache: WAL unavailable (%s)", exc)
            conn.execute("PRAGMA synchronous = NORMAL")
            conn.execute("BEGIN IMMEDIATE")
        except BaseException:
            conn.close()
            raise
        try:
            for stmt in (*_SCHEMA.strip().split(";"), LLM_RESPONSES_SCHEMA):
                if stmt.strip():
                    conn.execute(stmt)
            row = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
            if row is None:
                conn.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
            elif row[0] != str(SCHEMA_VERSION):
                logger.info("cache %s: schema %s != %s, clearing it", p, row[0], SCHEMA_VERSION)
                conn.execute("DELETE FROM answers")
                conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'",
                             (str(SCHEMA_VERSION),))
            # expired answers (and those of older adapter versions, once expired) are
            # deleted at most once a day, so the file does not grow run after run
            now = clock()
            row = conn.execute("SELECT value FROM meta WHERE key = 'last_purge'").fetchone()
            if row is None or float(row[0]) <= now - PURGE_INTERVAL_S:
                gone = conn.execute("DELETE FROM answers WHERE expires_at <= ?", (now,)).rowcount
                conn.execute("DELETE FROM claims WHERE expires_at <= ?", (now,))
                conn.execute("INSERT OR REPLACE INTO meta VALUES ('last_purge', ?)", (str(now),))
                if gone:
                    logger.debug("cache %s: %d expired answers deleted", p, gone)
            conn.execute("COMMIT")
        except BaseException:
            try:
                conn.execute("ROLLBACK")
            except sqlite3.Error:  # the failure may have ended the transaction already
                pass
            conn.close()
            raise
        return cls(conn, str(p), clock)

    # -- synchronous core (runs in a worker thread) --------------------------

    def get_sync(self, source: str, version: str, query: Query) -> Answer | None:
        """The stored, unexpired answer, marked ``cached=True``; None when absent."""
        return self.get_many_sync(source, version, [query])[0]

    def _row(self, source: str, version: str, query: Query) -> Answer | None:
        row = self._conn.execute(
            "SELECT status, records, message, expires_at FROM answers "
            "WHERE source = ? AND version = ? AND qkey = ?",
            (source, version, query.cache_key()),
        ).fetchone()
        if row is None:
            return None
        return answer_from_row(source, query, row[0], row[1], row[2], row[3], self.clock())

    def get_many_sync(self, source: str, version: str,
                      queries: Sequence[Query]) -> list[Answer | None]:
        """:meth:`get_sync` of several queries, in one read transaction."""
        with self._lock:
            def read() -> list[Answer | None]:
                if len(queries) == 1:
                    return [self._row(source, version, queries[0])]
                self._conn.execute("BEGIN")
                try:
                    return [self._row(source, version, q) for q in queries]
                finally:
                    self._conn.execute("COMMIT")
            return _retry_locked(read)

    def put_sync(self, answer: Answer, version: str) -> bool:
        """Store ``answer`` if its status is cacheable; True when stored."""
        return self.put_many_sync([answer], version) == 1

    def put_many_sync(self, answers: Sequence[Answer], version: str) -> int:
        """Store the cacheable ``answers`` in one transaction and drop their claims.

        Answers that are not cacheable (errors) only lose their claims, so that
        whoever waits for them asks the source itself. Returns how many were stored.
        """
        now = self.clock()
        rows = []
        for answer in answers:
            ttl = answer_ttl(answer, self.found_ttl_s, self.not_found_ttl_s)
            if ttl is not None:
                payload = json.dumps([record_to_json(r) for r in answer.records],
                                     ensure_ascii=False)
                rows.append((answer.source, version, answer.query.cache_key(),
                             answer.status.value, payload, answer.message, now, now + ttl))
        keys = [(a.source, version, a.query.cache_key()) for a in answers]

        def write() -> None:
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                self._conn.executemany(
                    "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?)", rows)
                self._conn.executemany(
                    "DELETE FROM claims WHERE source = ? AND version = ? AND qkey = ?", keys)
                self._conn.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise

        if answers:
            with self._lock:
                _retry_locked(write)
        return len(rows)

    def claim_sync(self, source: str, version: str, queries: Sequence[Query], owner: str,
                   lease_s: float = CLAIM_LEASE_S) -> list[Claim]:
        """Claim each missing answer for ``owner``, in one write transaction.

        Per query: the answer if one is stored (someone fetched it meanwhile),
        True when the claim is ``owner``'s now (no claim, an expired one, or its
        own), False when another owner holds an unexpired claim.
        """
        def write() -> list[Claim]:
            now = self.clock()
            out: list[Claim] = []
            self._conn.execute("BEGIN IMMEDIATE")
            try:
                for q in queries:
                    stored = self._row(source, version, q)
                    if stored is not None:
                        out.append(stored)
                        continue
                    row = self._conn.execute(
                        "SELECT owner, expires_at FROM claims "
                        "WHERE source = ? AND version = ? AND qkey = ?",
                        (source, version, q.cache_key())).fetchone()
                    if row is None or row[0] == owner or row[1] <= now:
                        self._conn.execute(
                            "INSERT OR REPLACE INTO claims VALUES (?, ?, ?, ?, ?)",
                            (source, version, q.cache_key(), owner, now + lease_s))
                        out.append(True)
                    else:
                        out.append(False)
                self._conn.execute("COMMIT")
            except BaseException:
                self._rollback()
                raise
            return out

        with self._lock:
            return _retry_locked(write)

    def renew_sync(self, source: str, version: str, queries: Sequence[Query], owner: str,
                   lease_s: float = CLAIM_LEASE_S) -> None:
        """Extend ``owner``'s claims on ``queries`` that it still holds."""
        until = self.clock() + lease_s
        with self._lock:
            _retry_locked(lambda: self._conn.executemany(
                "UPDATE claims SET expires_at = ? "
                "WHERE source = ? AND version = ? AND qkey = ? AND owner = ?",
                [(until, source, version, q.cache_key(), owner) for q in queries]))

    def release_sync(self, source: str, version: str, queries: Sequence[Query],
                     owner: str) -> None:
        """Drop ``owner``'s claims on ``queries``."""
        with self._lock:
            _retry_locked(lambda: self._conn.executemany(
                "DELETE FROM claims WHERE source = ? AND version = ? AND qkey = ? AND owner = ?",
                [(source, version, q.cache_key(), owner) for q in queries]))

    def _rollback(self) -> None:
        try:
            self._conn.execute("ROLLBACK")
        except sqlite3.Error:  # the failure may have ended the transaction already
            pass

    def purge_expired(self) -> int:
        """Delete expired rows; returns how many."""
        with self._lock:
            cur = _retry_locked(lambda: self._conn.execute(
                "DELETE FROM answers WHERE expires_at <= ?", (self.clock(),)))
            _retry_locked(lambda: self._conn.execute(
                "DELETE FROM claims WHERE expires_at <= ?", (self.clock(),)))
        return cur.rowcount

    # -- LLM responses (llm.ResponseStore: the run's LLM session keeps its answers here)

    def get_response(self, model: str, version: str, input_hash: str) -> dict[str, Any] | None:
        """A stored LLM response, or None (see :mod:`citecheck_tex.llm.cache`)."""
        with self._lock:
            return select_response(self._conn, model, version, input_hash)

    def put_response(self, model: str, version: str, input_hash: str,
                     response: Mapping[str, Any]) -> None:
        """Store a validated LLM response (retried while another process holds the lock)."""
        with self._lock:
            _retry_locked(lambda: insert_response(self._conn, model, version, input_hash,
                                                  response))

    # -- async API -----------------------------------------------------------

    async def get(self, source: str, version: str, query: Query) -> Answer | None:
        """Async :meth:`get_sync`, off the event loop."""
        return await asyncio.to_thread(self.get_sync, source, version, query)

    async def put(self, answer: Answer, version: str) -> bool:
        """Async :meth:`put_sync`, off the event loop."""
        return await asyncio.to_thread(self.put_sync, answer, version)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._conn.close()


class CachedSource:
    """Wrap a source with the answer cache; exposes the same :class:`Source` protocol.

    ``refresh`` bypasses reads but still writes; ``offline`` answers from the
    cache only, SKIPPED ("offline") otherwise. With ``cache=None`` only the
    offline behaviour remains.

    What is guaranteed when several processes (batch workers) share one cache:

    - a fresh answer in the cache is never asked for again;
    - a missing answer is *claimed* before it is asked for, and "is it stored?"
      and "claim it" are one atomic step per query (an SQLite write transaction,
      a Redis script). So when two workers miss the same query at the same
      moment, exactly one sends the request; the other polls the cache (every
      ``poll_s``, backing off to 0.5 s) and takes the stored answer;
    - a worker fetches the answers it claimed before it waits for the others',
      so workers waiting on each other's claims cannot deadlock.

    Not guaranteed, on purpose: a fetch that ends without a cacheable answer
    (errors and throttling are never cached) releases its claims, and whoever
    waited asks the source itself; a claimer that dies or takes longer than
    ``lease_s`` without renewing it (every third of the lease while its fetch
    runs) loses its claim, and the waiter asks too (a duplicate request rather
    than a stalled batch); ``refresh`` neither reads nor claims; a cache that
    failed during the run is no longer consulted at all.
    """

    def __init__(self, inner: Source, cache: AnswerCache | None, *, refresh: bool = False,
                 offline: bool = False, lease_s: float = CLAIM_LEASE_S,
                 poll_s: float = 0.05) -> None:
        self.inner = inner
        self.cache = cache
        self.refresh = refresh
        self.offline = offline
        self.lease_s = lease_s
        self.poll_s = poll_s
        self.name = inner.name
        self.kinds = inner.kinds
        self.version = inner.version
        self.last_resort: bool = getattr(inner, "last_resort", False)
        self.batch_kinds: frozenset[QueryKind] = getattr(inner, "batch_kinds", frozenset())

    async def _call(self, fn: Callable[..., _T], *args: Any) -> _T | None:
        """Run a blocking cache call off the loop; None (and the cache given up) on failure."""
        cache = self.cache
        if cache is None or cache.failure:
            return None
        try:
            return await asyncio.to_thread(fn, *args)
        except CACHE_ERRORS as exc:  # corrupt, vanished, read-only, full, server gone
            cache.fail(exc)
            return None

    async def fetch(self, query: Query) -> Answer:
        """Answer from the cache, or ask the inner source and remember its answer."""
        return (await self.fetch_batch([query]))[0]

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """Serve cached answers; send only the misses to the inner source, in one batch."""
        queries = list(queries)
        out: list[Answer | None] = [None] * len(queries)
        cache = self.cache
        if cache is not None and not (self.refresh and not self.offline):
            got = await self._call(cache.get_many_sync, self.name, self.version, queries)
            if got is not None:
                out = got
        missing = [i for i, a in enumerate(out) if a is None]
        if missing and self.offline:
            for i in missing:
                out[i] = Answer(self.name, queries[i], SourceStatus.SKIPPED, message="offline")
        elif missing and (cache is None or self.refresh):
            await self._fetch_and_store(queries, missing, out, owner="")
        elif missing:
            await self._fetch_claimed(queries, missing, out)
        return [a for a in out if a is not None]

    async def _fetch_claimed(self, queries: list[Query], todo: list[int],
                             out: list[Answer | None]) -> None:
        """Claim the misses; fetch ours, wait for the others' (see the class docstring)."""
        assert self.cache is not None
        owner = uuid.uuid4().hex  # per call: two tasks of one process must not share a claim
        delay = self.poll_s
        while todo:
            claims = await self._call(self.cache.claim_sync, self.name, self.version,
                                      [queries[i] for i in todo], owner, self.lease_s)
            if claims is None:  # no cache any more: ask for all that is left
                mine, theirs = todo, list[int]()
            else:
                mine = []
                theirs = []
                for i, claim in zip(todo, claims, strict=True):
                    if isinstance(claim, Answer):
                        out[i] = claim
                    elif claim:
                        mine.append(i)
                    else:
                        theirs.append(i)
            if mine:
                await self._fetch_and_store(queries, mine, out, owner=owner)
            todo = theirs
            if todo:
                await asyncio.sleep(delay)
                delay = min(delay * 2.0, 0.5)

    async def _renew(self, asked: list[Query], owner: str) -> None:
        """Keep ``owner``'s claims on ``asked`` alive while the fetch runs."""
        cache = self.cache
        while cache is not None:
            await asyncio.sleep(self.lease_s / 3.0)
            # only extends claims still held: a renewal that runs late, after the answers
            # were stored and the claims dropped, must not claim them again
            await self._call(cache.renew_sync, self.name, self.version, asked, owner,
                             self.lease_s)

    async def _fetch_and_store(self, queries: list[Query], idx: list[int],
                               out: list[Answer | None], *, owner: str) -> None:
        """Ask the inner source for ``queries[idx]``; store the answers (releasing the claims)."""
        asked = [queries[i] for i in idx]
        done = False
        renew = asyncio.create_task(self._renew(asked, owner)) if owner else None
        try:
            fresh = await self.inner.fetch_batch(asked)
            done = True
        finally:
            if renew is not None:
                renew.cancel()
            cache = self.cache
            if not done and owner and cache is not None and not cache.failure:
                # cancelled or crashed mid-fetch: let the waiters ask at once, not after the
                # lease (synchronous: an awaited call may not run in a cancelled task)
                try:
                    cache.release_sync(self.name, self.version, asked, owner)
                except CACHE_ERRORS as exc:
                    cache.fail(exc)
        for i, ans in zip(idx, fresh, strict=True):
            out[i] = ans
        if renew is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await renew
        if self.cache is not None:
            await self._call(self.cache.put_many_sync, fresh, self.version)


# ---------------------------------------------------------------------------
# Redis
#
# The answer cache on a Redis server (``cache = "redis://host:6379/0"``): one cache
# for many machines. Same keys, lifetimes and rules as the SQLite :class:`Cache`:
# an answer is stored under ``citecheck:<schema>:a:<source>:<version>:<sha256 of
# the query key>`` as JSON with its expiry, and given the same lifetime as a
# Redis TTL (FOUND 30 days, NOT_FOUND one day; errors never), so the server
# forgets it by itself. Claims (see :class:`~citecheck_tex.cache.CachedSource`)
# are keys ``...:c:...`` set with ``NX`` and a lease as TTL; "stored or claim it"
# is one Lua script, atomic on the server. One Redis server (not Redis Cluster).
# Uses redis-py (the ``batch`` extra). A server that cannot be reached when the
# run starts, or that goes away during it, is one warning and the run goes on
# without the cache; the URL's password never appears in a message.

#: Seconds to connect and to wait for one reply before the server counts as gone.
SOCKET_TIMEOUT_S = 5.0

# KEYS: answer1, claim1, answer2, claim2, ...; ARGV: owner, lease in ms.
# Per pair: the stored answer, or 1 (claimed by ARGV[1] now), or 0 (someone else's).
_CLAIM = """
local out = {}
for i = 1, #KEYS, 2 do
  local stored = redis.call('GET', KEYS[i])
  if stored then
    out[#out + 1] = stored
  elseif redis.call('SET', KEYS[i + 1], ARGV[1], 'NX', 'PX', ARGV[2]) then
    out[#out + 1] = 1
  elseif redis.call('GET', KEYS[i + 1]) == ARGV[1] then
    redis.call('PEXPIRE', KEYS[i + 1], ARGV[2])
    out[#out + 1] = 1
  else
    out[#out + 1] = 0
  end
end
return out
"""

# KEYS: claims; ARGV: owner, lease in ms. Extends those that are still the owner's.
_RENEW = """
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('PEXPIRE', KEYS[i], ARGV[2]) end
end
return 0
"""

# KEYS: claims; ARGV: owner. Deletes those that are still the owner's.
_RELEASE = """
for i = 1, #KEYS do
  if redis.call('GET', KEYS[i]) == ARGV[1] then redis.call('DEL', KEYS[i]) end
end
return 0
"""


class RedisCache:
    """The answer cache on one Redis server (:class:`~citecheck_tex.cache.AnswerCache`).

    Thread-safe (redis-py's connection pool). ``clock`` returns the current time
    in seconds: expiry is checked against it as well as kept by the server.
    """

    def __init__(self, client: Any, url: str, clock: Callable[[], float] = time.time) -> None:
        self._client = client
        self.location = describe_cache(url)
        self.clock = clock
        self.found_ttl_s = FOUND_TTL_S
        self.not_found_ttl_s = NOT_FOUND_TTL_S
        self.prefix = f"citecheck:{SCHEMA_VERSION}:"
        self.failure = ""
        self._claim = client.register_script(_CLAIM)
        self._release = client.register_script(_RELEASE)
        self._renew = client.register_script(_RENEW)

    @classmethod
    def open(cls, url: str, *, clock: Callable[[], float] = time.time) -> RedisCache:
        """Connect to the server of ``url`` and check that it answers.

        Raises :class:`CacheError` when redis-py is not
        installed, the URL is not valid or the server does not answer.
        """
        try:
            import redis
        except ImportError as exc:
            raise CacheError("a redis:// cache needs the redis package: "
                               "pip install 'citecheck-tex[batch]'") from exc
        try:
            client = redis.Redis.from_url(url, socket_timeout=SOCKET_TIMEOUT_S,
                                          socket_connect_timeout=SOCKET_TIMEOUT_S,
                                          health_check_interval=30)
            client.ping()
        except (redis.RedisError, ValueError) as exc:
            raise CacheError(redact(str(exc)) or type(exc).__name__) from exc
        return cls(client, url, clock)

    @classmethod
    def open_or_none(cls, url: str, *, warn: bool = True) -> RedisCache | None:
        """:meth:`open`, or None with one warning: the run goes on without the cache."""
        try:
            return cls.open(url)
        except CacheError as exc:
            logger.log(logging.WARNING if warn else logging.DEBUG,
                       "answer cache %s unusable (%s); the run goes on without it "
                       "(start the server, or pass --cache none or --cache PATH)",
                       describe_cache(url), exc)
            return None

    def fail(self, exc: BaseException) -> None:
        """Stop using the cache for this run after ``exc``; warn once."""
        if not self.failure:
            self.failure = redact(str(exc)) or type(exc).__name__
            logger.warning("answer cache %s failed (%s); the run goes on without it",
                           self.location, self.failure)

    # -- keys ----------------------------------------------------------------

    def _key(self, kind: str, source: str, version: str, query: Query) -> str:
        digest = hashlib.sha256(query.cache_key().encode("utf-8")).hexdigest()[:40]
        return f"{self.prefix}{kind}:{source}:{version}:{digest}"

    def _decode(self, source: str, query: Query, raw: bytes | str | None) -> Answer | None:
        if raw is None:
            return None
        try:
            data = json.loads(raw)
            if data.get("q") != query.cache_key():  # a hash collision, however unlikely
                return None
            return answer_from_row(source, query, str(data["s"]), json.dumps(data["r"]),
                                   str(data["m"]), float(data["e"]), self.clock())
        except (ValueError, TypeError, KeyError, AttributeError) as exc:
            logger.debug("cache: unreadable answer for %s %s: %s", source, query.cache_key(), exc)
            return None

    def _redis(self, fn: Callable[[], Any]) -> Any:
        """Run one server call; a Redis error becomes :class:`CacheError`."""
        import redis

        try:
            return fn()
        except redis.RedisError as exc:
            raise CacheError(redact(str(exc)) or type(exc).__name__) from exc

    # -- AnswerCache -----------------------------------------------------------

    def get_sync(self, source: str, version: str, query: Query) -> Answer | None:
        """The stored, unexpired answer, marked ``cached=True``; None when absent."""
        return self.get_many_sync(source, version, [query])[0]

    def get_many_sync(self, source: str, version: str,
                      queries: Sequence[Query]) -> list[Answer | None]:
        """:meth:`get_sync` of several queries, one round trip (MGET)."""
        if not queries:
            return []
        keys = [self._key("a", source, version, q) for q in queries]
        raws = self._redis(lambda: self._client.mget(keys))
        return [self._decode(source, q, raw) for q, raw in zip(queries, raws, strict=True)]

    def put_sync(self, answer: Answer, version: str) -> bool:
        """Store ``answer`` if its status is cacheable; True when stored."""
        return self.put_many_sync([answer], version) == 1

    def put_many_sync(self, answers: Sequence[Answer], version: str) -> int:
        """Store the cacheable ``answers`` and drop their claims, one round trip."""
        now = self.clock()
        stored = 0
        pipe = self._client.pipeline(transaction=True)
        for answer in answers:
            ttl = answer_ttl(answer, self.found_ttl_s, self.not_found_ttl_s)
            if ttl is not None:
                payload = json.dumps({
                    "q": answer.query.cache_key(), "s": answer.status.value,
                    "r": [record_to_json(r) for r in answer.records], "m": answer.message,
                    "t": now, "e": now + ttl}, ensure_ascii=False)
                pipe.set(self._key("a", answer.source, version, answer.query), payload,
                         px=max(1, int(ttl * 1000)))
                stored += 1
            pipe.delete(self._key("c", answer.source, version, answer.query))
        if answers:
            self._redis(pipe.execute)
        return stored

    def claim_sync(self, source: str, version: str, queries: Sequence[Query], owner: str,
                   lease_s: float = CLAIM_LEASE_S) -> list[Claim]:
        """Claim each missing answer for ``owner`` (one atomic script on the server)."""
        if not queries:
            return []
        keys: list[str] = []
        for q in queries:
            keys += [self._key("a", source, version, q), self._key("c", source, version, q)]
        replies = self._redis(lambda: self._claim(keys=keys,
                                                  args=[owner, max(1, int(lease_s * 1000))]))
        out: list[Claim] = []
        for q, reply in zip(queries, replies, strict=True):
            if isinstance(reply, int):
                out.append(bool(reply))
            else:
                # stored; one the injected clock says has expired counts as absent: ours
                out.append(self._decode(source, q, reply) or True)
        return out

    def renew_sync(self, source: str, version: str, queries: Sequence[Query], owner: str,
                   lease_s: float = CLAIM_LEASE_S) -> None:
        """Extend ``owner``'s claims on ``queries`` that it still holds."""
        if queries:
            keys = [self._key("c", source, version, q) for q in queries]
            self._redis(lambda: self._renew(keys=keys,
                                            args=[owner, max(1, int(lease_s * 1000))]))

    def release_sync(self, source: str, version: str, queries: Sequence[Query],
                     owner: str) -> None:
        """Drop ``owner``'s claims on ``queries``."""
        if queries:
            keys = [self._key("c", source, version, q) for q in queries]
            self._redis(lambda: self._release(keys=keys, args=[owner]))

    def close(self) -> None:
        """Close the connection pool."""
        try:
            self._client.close()
        except Exception:  # closing a pool whose server went away  # noqa: BLE001
            logger.debug("closing the Redis cache failed", exc_info=True)


__all__ = ["AnswerCache", "Cache", "CacheError", "CachedSource", "RedisCache", "describe_cache",
           "is_cache_url", "open_cache", "record_from_json", "record_to_json"]
