"""Compare what two local indexes store, table by table (an import-speed change must not
change a stored row).

    python -m bench.dump_index A.sqlite B.sqlite          # per table: rows, equal or not
    python -m bench.dump_index A.sqlite --out a.txt       # every row, sorted, as text

Every table of the index is read in full and sorted: ``records`` (all columns, ``file``
included), the lookup tables, ``title_terms``, ``meta`` and ``files`` (without the
import time and with the path's name only). The title index is compared by its
content, not its pages: every (term, rowid, column, offset) instance of the FTS5
index (an ``fts5vocab`` instance table) and the ``title_fts_docsize`` rows; its
segment layout (``title_fts_data``, ``title_fts_idx``) depends on when FTS5 flushed
and merged, and is reported as "same pages" or "other pages" only.
"""

from __future__ import annotations

import argparse
import hashlib
import sqlite3
import sys
from collections.abc import Iterator
from pathlib import Path

#: Tables compared row by row (ORDER BY every column).
_TABLES = ("records", "doi", "arxiv", "texkey", "report", "jref", "author_year",
           "title_terms", "title_fts_docsize")
#: FTS5 pages: compared for information only (the layout may differ for one content).
_LAYOUT = ("title_fts_data", "title_fts_idx")


def _connect(path: Path) -> sqlite3.Connection:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    conn.execute("CREATE VIRTUAL TABLE temp.dump_instance USING"
                 " fts5vocab(main, 'title_fts', 'instance')")
    return conn


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [row[1] for row in conn.execute(f"PRAGMA main.table_info({table})")]


def table_rows(conn: sqlite3.Connection) -> Iterator[tuple[str, Iterator[tuple[object, ...]]]]:
    """(name, sorted rows) of every compared table of an open index."""
    for table in _TABLES:
        cols = ", ".join(_columns(conn, table))
        yield table, conn.execute(f"SELECT {cols} FROM main.{table} ORDER BY {cols}")
    yield "meta", conn.execute("SELECT key, value FROM meta ORDER BY key")
    yield "files", ((Path(p).name, *rest) for p, *rest in conn.execute(
        "SELECT path, format, records, bad FROM files ORDER BY path"))
    yield "title_fts (instances)", conn.execute(
        "SELECT term, doc, col, offset FROM temp.dump_instance ORDER BY term, doc, col, offset")


def digest(path: Path) -> dict[str, tuple[int, str]]:
    """table -> (rows, sha256 of its sorted rows); the FTS pages as a hash too."""
    conn = _connect(path)
    out: dict[str, tuple[int, str]] = {}
    try:
        for table, rows in table_rows(conn):
            h = hashlib.sha256()
            n = 0
            for row in rows:
                h.update(repr(row).encode("utf-8", "surrogatepass"))
                h.update(b"\n")
                n += 1
            out[table] = (n, h.hexdigest())
        for table in _LAYOUT:
            h = hashlib.sha256()
            rows = conn.execute(f"SELECT * FROM {table} ORDER BY 1, 2")
            count = 0
            for row in rows:
                h.update(repr(row).encode())
                count += 1
            out[f"({table} pages)"] = (count, h.hexdigest())
    finally:
        conn.close()
    return out


def main(argv: list[str] | None = None) -> int:
    """Print the per-table comparison of two indexes (or dump one); 1 when a table differs."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("index", type=Path)
    ap.add_argument("other", type=Path, nargs="?")
    ap.add_argument("--out", type=Path, help="write every sorted row of INDEX here")
    args = ap.parse_args(argv)
    if args.out:
        conn = _connect(args.index)
        with args.out.open("w", encoding="utf-8", errors="surrogatepass") as fh:
            for table, rows in table_rows(conn):
                for row in rows:
                    fh.write(f"{table}\t{row!r}\n")
        conn.close()
    if args.other is None:
        for table, (n, h) in digest(args.index).items():
            print(f"{table:28} {n:>12,} rows  {h[:16]}")
        return 0
    a, b = digest(args.index), digest(args.other)
    differ = 0
    print(f"{'table':28} {'rows A':>12} {'rows B':>12}  result")
    for table in a:
        (na, ha), (nb, hb) = a[table], b.get(table, (0, ""))
        same = ha == hb
        if table.startswith("("):
            result = "same pages" if same else "other pages (layout only, not compared)"
        else:
            result = "identical" if same else "DIFFERENT"
            differ += not same
        print(f"{table:28} {na:>12,} {nb:>12,}  {result}")
    print("every compared table identical" if not differ else f"{differ} table(s) differ")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
