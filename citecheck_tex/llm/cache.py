"""Validated LLM responses by (model, prompt version, input hash).

A :class:`ResponseStore` is what :class:`~citecheck_tex.llm.session.LlmSession` reads
and writes; a check passes its answer cache (:class:`citecheck_tex.cache.Cache`, one
connection for source answers and LLM responses). :class:`LlmCache` is the store of
a session used on its own: the table :data:`LLM_RESPONSES_SCHEMA` in a SQLite file
(the same table the answer cache keeps, so either reads what the other wrote).
"""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

#: The table of LLM responses (in the run's cache file).
LLM_RESPONSES_SCHEMA = """
CREATE TABLE IF NOT EXISTS llm_responses (
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    input_hash TEXT NOT NULL,
    response TEXT NOT NULL,
    stored_at REAL NOT NULL,
    PRIMARY KEY (model, prompt_version, input_hash)
)
"""


@runtime_checkable
class ResponseStore(Protocol):
    """Where a session keeps validated responses; may raise ``sqlite3.Error``/``OSError``
    (the session then goes on without it). Called from a worker thread."""

    def get_response(self, model: str, version: str, input_hash: str) -> dict[str, Any] | None:
        """The stored response, or None."""

    def put_response(self, model: str, version: str, input_hash: str,
                     response: Mapping[str, Any]) -> None:
        """Store a validated response."""


def decode_response(text: str) -> dict[str, Any] | None:
    """A stored response's JSON object, or None when the row is unreadable."""
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def select_response(conn: sqlite3.Connection, model: str, version: str,
                    input_hash: str) -> dict[str, Any] | None:
    """Read one response from :data:`LLM_RESPONSES_SCHEMA`'s table on ``conn``."""
    row = conn.execute(
        "SELECT response FROM llm_responses WHERE model = ? AND prompt_version = ? "
        "AND input_hash = ?", (model, version, input_hash)).fetchone()
    return None if row is None else decode_response(row[0])


def insert_response(conn: sqlite3.Connection, model: str, version: str, input_hash: str,
                    response: Mapping[str, Any]) -> None:
    """Write one response into :data:`LLM_RESPONSES_SCHEMA`'s table on ``conn``."""
    conn.execute("INSERT OR REPLACE INTO llm_responses VALUES (?, ?, ?, ?, ?)",
                 (model, version, input_hash, json.dumps(response, ensure_ascii=False),
                  time.time()))


class LlmCache:
    """A :class:`ResponseStore` in its own SQLite connection. Thread-safe."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._lock = threading.Lock()

    @classmethod
    def open(cls, path: str | Path) -> LlmCache:
        """Open (creating if needed) the table in the SQLite file at ``path``."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(p), timeout=30.0, check_same_thread=False,
                               isolation_level=None)
        try:
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.execute(LLM_RESPONSES_SCHEMA)
        except sqlite3.Error:
            conn.close()
            raise
        return cls(conn)

    def get_response(self, model: str, version: str, input_hash: str) -> dict[str, Any] | None:
        """The stored response, or None."""
        with self._lock:
            return select_response(self._conn, model, version, input_hash)

    def put_response(self, model: str, version: str, input_hash: str,
                     response: Mapping[str, Any]) -> None:
        """Store a validated response."""
        with self._lock:
            insert_response(self._conn, model, version, input_hash, response)

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._conn.close()
