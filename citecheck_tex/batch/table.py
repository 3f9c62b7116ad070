"""The batch's corpus table (one row per reference) and its per-paper summary.

A row is made from a paper's ``report.json`` data (:func:`rows_from_report`), the same
way for a paper checked now and for one a resumed batch finds unchanged, so the table
cannot depend on which run checked the paper. :class:`CorpusTable` writes the rows as
JSON lines and as Parquet while papers finish (never the whole corpus in memory), each
file replaced atomically when the batch ends.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from pathlib import Path
from types import TracebackType
from typing import Any

from citecheck_tex.errors import OutputError
from citecheck_tex.outfiles import new_file_mode

#: Labels in the order reports show them.
LABELS = ("EXACT", "MINOR", "MAJOR", "UNVERIFIED", "SKIPPED")


@dataclass(frozen=True, slots=True)
class RefRow:
    """One reference of the corpus: which paper, its verdict, what it matched.

    ``discrepancies`` are the discrepancy codes (``year-off-by-one``, ...);
    ``sources`` the sources asked as ``name:status`` (``local:found``).
    """

    paper: str
    key: str
    label: str
    code: str
    score: float
    confidence: float
    discrepancies: tuple[str, ...]
    match_id: str
    match_source: str
    sources: tuple[str, ...]
    file: str
    line: int


COLUMNS = tuple(f.name for f in fields(RefRow))


def rows_from_report(paper: str, report: Mapping[str, Any]) -> list[RefRow]:
    """The rows of one paper from its ``report.json`` data (schema 2)."""
    rows = []
    for e in report.get("entries", []):
        match = e.get("match") or {}
        rows.append(RefRow(
            paper=paper,
            key=str(e.get("key", "")),
            label=str(e.get("label", "")),
            code=str(e.get("code", "")),
            score=float(e.get("score") or 0.0),
            confidence=float(e.get("confidence") or 0.0),
            discrepancies=tuple(str(d.get("code", "")) for d in e.get("discrepancies", [])),
            match_id=str(match.get("id", "") or ""),
            match_source=str(match.get("source", "") or ""),
            sources=tuple(f"{a.get('source', '')}:{a.get('status', '')}"
                          for a in e.get("sources", [])),
            file=str(e.get("file", "") or ""),
            line=int(e.get("line") or 0),
        ))
    return rows


def _schema() -> Any:
    import pyarrow as pa

    return pa.schema([
        ("paper", pa.string()), ("key", pa.string()), ("label", pa.string()),
        ("code", pa.string()), ("score", pa.float64()), ("confidence", pa.float64()),
        ("discrepancies", pa.list_(pa.string())), ("match_id", pa.string()),
        ("match_source", pa.string()), ("sources", pa.list_(pa.string())),
        ("file", pa.string()), ("line", pa.int32()),
    ])


class CorpusTable:
    """Writes ``references.jsonl`` and ``references.parquet`` in ``out_dir`` as rows come.

    Use as a context manager: the files appear (atomically) when the block ends, also
    when it ends by an exception (the rows of the papers finished so far).
    """

    JSONL = "references.jsonl"
    PARQUET = "references.parquet"

    def __init__(self, out_dir: Path, *, chunk_rows: int = 20_000) -> None:
        """Open temporary files in ``out_dir``; ``chunk_rows`` rows make a Parquet row group."""
        import pyarrow.parquet as pq

        self.out_dir = out_dir
        self.rows = 0
        self._chunk_rows = chunk_rows
        self._buffer: list[RefRow] = []
        try:
            fd, self._jsonl_tmp = tempfile.mkstemp(dir=out_dir, prefix=f".{self.JSONL}.")
            self._jsonl = os.fdopen(fd, "w", encoding="utf-8")
            fd, self._parquet_tmp = tempfile.mkstemp(dir=out_dir, prefix=f".{self.PARQUET}.")
            os.close(fd)
        except OSError as exc:
            raise OutputError(f"cannot write the corpus table in {out_dir}: "
                              f"{exc.strerror or exc}", hint="pass --out DIR with a folder "
                              "you can write to") from exc
        self._parquet = pq.ParquetWriter(self._parquet_tmp, _schema())
        self.paths: tuple[Path, ...] = ()

    def add(self, rows: Iterable[RefRow]) -> None:
        """Append rows (one paper's, usually)."""
        for row in rows:
            self._jsonl.write(json.dumps(asdict(row), ensure_ascii=False) + "\n")
            self._buffer.append(row)
            self.rows += 1
        if len(self._buffer) >= self._chunk_rows:
            self._flush()

    def _flush(self) -> None:
        if not self._buffer:
            return
        import pyarrow as pa

        columns = {name: [getattr(r, name) for r in self._buffer] for name in COLUMNS}
        columns["discrepancies"] = [list(v) for v in columns["discrepancies"]]
        columns["sources"] = [list(v) for v in columns["sources"]]
        self._parquet.write_table(pa.table(columns, schema=_schema()))
        self._buffer.clear()

    def close(self) -> tuple[Path, ...]:
        """Write what is buffered and move both files into place; returns their paths."""
        if self.paths:
            return self.paths
        jsonl, parquet = self.out_dir / self.JSONL, self.out_dir / self.PARQUET
        try:
            self._flush()
            self._parquet.close()
            self._jsonl.close()
            mode = new_file_mode()  # mkstemp makes 0600; reports are readable as usual
            os.chmod(self._jsonl_tmp, mode)
            os.chmod(self._parquet_tmp, mode)
            os.replace(self._jsonl_tmp, jsonl)
            os.replace(self._parquet_tmp, parquet)
        except OSError as exc:
            for tmp in (self._jsonl_tmp, self._parquet_tmp):
                with contextlib.suppress(OSError):
                    os.unlink(tmp)
            raise OutputError(f"cannot write the corpus table in {self.out_dir}: "
                              f"{exc.strerror or exc}", hint="free some disk space") from exc
        self.paths = (parquet, jsonl)
        return self.paths

    def __enter__(self) -> CorpusTable:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def label_counts(rows: Sequence[RefRow]) -> dict[str, int]:
    """Counts per label, every label present."""
    counts = dict.fromkeys(LABELS, 0)
    for r in rows:
        counts[r.label] = counts.get(r.label, 0) + 1
    return counts
