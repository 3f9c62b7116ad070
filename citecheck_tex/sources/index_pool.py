"""Read-only local indexes kept open from one check to the next on a thread (batch workers).

A batch worker checks thousands of papers one after the other. Opening the local index
for each paper (connect, schema check, PRAGMAs, the index size query) and starting each
paper with SQLite's page cache cold cost about 1.1-1.6 ms of CPU per paper on the
benchmark's index, more than Dask's own cost per task (bench/RESULTS.md, "Batch on
Dask"). Inside :func:`kept_open`, the ``local`` source
(:class:`~citecheck_tex.sources.local_index.LocalIndexSource`) borrows its index from a
pool of this thread instead, and its ``close`` leaves the index open for the next check.

The pool belongs to one thread (an SQLite connection must stay on the thread that opened
it) and is keyed by the index file's resolved path, so runs with other settings (another
index) get their own entry. An entry is reused only while the index file and its
write-ahead log are unchanged (inode, size, modification time): an index that was
written to, rebuilt or replaced since is opened afresh and the old connection closed,
so a kept index never answers from an old snapshot nor with an old record count.
Outside :func:`kept_open` (a ``check``, ``watch``, ...) nothing is kept.
"""

from __future__ import annotations

import contextlib
import contextvars
import threading
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Protocol, TypeVar

#: Indexes kept per thread; the oldest is closed beyond this (a worker usually checks
#: every paper of a batch against one index).
MAX_KEPT = 2

_KEEP: contextvars.ContextVar[bool] = contextvars.ContextVar("citecheck_keep_index_open",
                                                              default=False)
_pool = threading.local()

FileState = tuple[tuple[int, int, int] | None, ...]


class _Closable(Protocol):
    def close(self) -> None: ...


T = TypeVar("T", bound=_Closable)


@contextlib.contextmanager
def kept_open() -> Iterator[None]:
    """Within the block (and the asyncio tasks started in it), the local source keeps its
    index open in this thread's pool between runs."""
    token = _KEEP.set(True)
    try:
        yield
    finally:
        _KEEP.reset(token)


def enabled() -> bool:
    """Whether the caller runs inside :func:`kept_open`."""
    return _KEEP.get()


def file_state(path: Path) -> FileState:
    """What tells whether the index changed: (inode, size, modification time) of the file
    and of its write-ahead log (None for a missing or empty log: opening a reader
    creates an empty one, which changes nothing)."""
    out: list[tuple[int, int, int] | None] = []
    for p in (path, path.with_name(path.name + "-wal")):
        try:
            st = p.stat()
        except OSError:
            out.append(None)
            continue
        out.append((st.st_ino, st.st_size, st.st_mtime_ns) if st.st_size or p == path
                   else None)
    return tuple(out)


def _entries() -> dict[str, tuple[FileState, _Closable]]:
    entries: dict[str, tuple[FileState, _Closable]] | None = getattr(_pool, "entries", None)
    if entries is None:
        entries = _pool.entries = {}
    return entries


def borrow(path: Path, opener: Callable[[Path], T]) -> T:
    """This thread's open index at ``path``, opened with ``opener`` when there is none or
    the file changed since it was opened. The caller must not close it."""
    key = str(Path(path).resolve())
    entries = _entries()
    got = entries.pop(key, None)
    if got is not None:
        if got[0] == file_state(Path(key)):
            entries[key] = got  # most recently used last
            return got[1]  # type: ignore[return-value]  # stored by this function as T
        _close(got[1])
    index = opener(path)
    # taken after opening (which may touch the log); the connection reads the file's
    # current content in each query, only what an index caches (its record count) is
    # computed later, so a change after this point is seen at the next borrow
    state = file_state(Path(key))
    while len(entries) >= MAX_KEPT:
        _close(entries.pop(next(iter(entries)))[1])
    entries[key] = (state, index)
    return index


def kept() -> int:
    """How many indexes this thread keeps open."""
    return len(_entries())


def close_all() -> None:
    """Close every index this thread keeps open."""
    entries = _entries()
    while entries:
        _close(entries.popitem()[1][1])


def _close(index: _Closable) -> None:
    with contextlib.suppress(Exception):  # closing a read-only connection: nothing to lose
        index.close()
