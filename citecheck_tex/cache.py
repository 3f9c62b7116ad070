"""SQLite cache of source answers, and the :class:`CachedSource` wrapper.

Key: (source, adapter version, ``query.cache_key()``). FOUND answers live 30
days, NOT_FOUND one day, ERROR / RATE_LIMITED / SKIPPED are never stored (a
failure must be retried next run). The database uses WAL mode and a busy
timeout so that concurrent runs (watch mode and a latexmk hook) share it.
SQLite calls run in a worker thread (``asyncio.to_thread``), off the event loop.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sqlite3
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from pathlib import Path
from typing import Any

from citecheck_tex.llm.cache import (
    LLM_RESPONSES_SCHEMA,
    insert_response,
    select_response,
)
from citecheck_tex.model import Answer, Person, Query, QueryKind, Record, SourceStatus
from citecheck_tex.sources.base import Source

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
"""


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


#: Expired answers are deleted when the cache is opened, at most this often.
PURGE_INTERVAL_S = 86400.0


class Cache:
    """The answer cache. Thread-safe; use :meth:`open` to create one.

    ``clock`` returns the current time in seconds (tests inject one).
    """

    def __init__(self, conn: sqlite3.Connection, path: str,
                 clock: Callable[[], float] = time.time) -> None:
        self._conn = conn
        self._lock = threading.Lock()
        self.path = path
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
                           self.path, self.failure)

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
        :meth:`open_or_none`).
        """
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(p), timeout=busy_timeout_s, check_same_thread=False,
                               isolation_level=None)
        try:
            conn.execute(f"PRAGMA busy_timeout = {int(busy_timeout_s * 1000)}")
            try:
                conn.execute("PRAGMA journal_mode = WAL")
            except sqlite3.OperationalError as exc:  # e.g. a network file system
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
        with self._lock:
            row = self._conn.execute(
                "SELECT status, records, message, expires_at FROM answers "
                "WHERE source = ? AND version = ? AND qkey = ?",
                (source, version, query.cache_key()),
            ).fetchone()
        if row is None or row[3] <= self.clock():
            return None
        try:
            records = tuple(record_from_json(r) for r in json.loads(row[1]))
            status = SourceStatus(row[0])
        except (ValueError, TypeError, KeyError) as exc:
            logger.debug("cache: unreadable row for %s %s: %s", source, query.cache_key(), exc)
            return None
        return Answer(source, query, status, records, message=row[2], cached=True)

    def put_sync(self, answer: Answer, version: str) -> bool:
        """Store ``answer`` if its status is cacheable; True when stored."""
        if answer.status is SourceStatus.FOUND:
            ttl = self.found_ttl_s
        elif answer.status is SourceStatus.NOT_FOUND:
            ttl = self.not_found_ttl_s
        else:
            return False
        now = self.clock()
        payload = json.dumps([record_to_json(r) for r in answer.records], ensure_ascii=False)
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO answers VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (answer.source, version, answer.query.cache_key(), answer.status.value,
                 payload, answer.message, now, now + ttl),
            )
        return True

    def purge_expired(self) -> int:
        """Delete expired rows; returns how many."""
        with self._lock:
            cur = self._conn.execute("DELETE FROM answers WHERE expires_at <= ?", (self.clock(),))
        return cur.rowcount

    # -- LLM responses (llm.ResponseStore: the run's LLM session keeps its answers here)

    def get_response(self, model: str, version: str, input_hash: str) -> dict[str, Any] | None:
        """A stored LLM response, or None (see :mod:`citecheck_tex.llm.cache`)."""
        with self._lock:
            return select_response(self._conn, model, version, input_hash)

    def put_response(self, model: str, version: str, input_hash: str,
                     response: Mapping[str, Any]) -> None:
        """Store a validated LLM response."""
        with self._lock:
            insert_response(self._conn, model, version, input_hash, response)

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
    """Wrap a source with the cache; exposes the same :class:`Source` protocol.

    ``refresh`` bypasses reads but still writes; ``offline`` answers from the
    cache only, SKIPPED ("offline") otherwise. With ``cache=None`` only the
    offline behaviour remains.
    """

    def __init__(self, inner: Source, cache: Cache | None, *, refresh: bool = False,
                 offline: bool = False) -> None:
        self.inner = inner
        self.cache = cache
        self.refresh = refresh
        self.offline = offline
        self.name = inner.name
        self.kinds = inner.kinds
        self.version = inner.version
        self.last_resort: bool = getattr(inner, "last_resort", False)
        self.batch_kinds: frozenset[QueryKind] = getattr(inner, "batch_kinds", frozenset())

    async def _lookup(self, query: Query) -> Answer | None:
        cache = self.cache
        if cache is None or cache.failure or (self.refresh and not self.offline):
            return None
        try:
            return await cache.get(self.name, self.version, query)
        except (sqlite3.Error, OSError, MemoryError) as exc:  # corrupt, vanished, unreadable
            cache.fail(exc)
            return None

    async def _store(self, answer: Answer) -> None:
        cache = self.cache
        if cache is None or cache.failure:
            return
        try:
            await cache.put(answer, self.version)
        except (sqlite3.Error, OSError) as exc:  # read-only, full disk, corrupt
            cache.fail(exc)

    async def fetch(self, query: Query) -> Answer:
        """Answer from the cache, or ask the inner source and remember its answer."""
        return (await self.fetch_batch([query]))[0]

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """Serve cached answers; send only the misses to the inner source, in one batch."""
        out: list[Answer | None] = []
        for q in queries:
            out.append(await self._lookup(q))
        missing = [i for i, a in enumerate(out) if a is None]
        if missing:
            if self.offline:
                for i in missing:
                    out[i] = Answer(self.name, queries[i], SourceStatus.SKIPPED, message="offline")
            else:
                fresh = await self.inner.fetch_batch([queries[i] for i in missing])
                for i, ans in zip(missing, fresh, strict=True):
                    out[i] = ans
                    await self._store(ans)
        return [a for a in out if a is not None]


__all__ = ["Cache", "CachedSource", "record_from_json", "record_to_json"]
