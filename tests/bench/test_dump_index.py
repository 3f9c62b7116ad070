"""The table-by-table comparison of two indexes (bench/dump_index.py)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bench import dump_index
from citecheck_tex.sources import local_index
from citecheck_tex.sources.local_index import LocalIndex

DATA = Path(__file__).resolve().parents[1] / "index" / "data"


def _build(path: Path, jobs: int) -> Path:
    with LocalIndex.open(path) as index:
        for name in ("inspire_literature.jsonl", "arxiv_metadata_snapshot.jsonl",
                     "HEPML_excerpt.bib"):
            index.add_file(DATA / name, jobs=jobs)
    return path


def test_same_imports_compare_identical_and_a_changed_row_does_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(local_index, "CHUNK_BYTES", 5000)  # several parsed chunks
    one = _build(tmp_path / "one.sqlite", jobs=1)
    two = _build(tmp_path / "two.sqlite", jobs=2)
    assert dump_index.main([str(one), str(two)]) == 0
    assert "every compared table identical" in capsys.readouterr().out
    conn = sqlite3.connect(two)
    with conn:
        conn.execute("UPDATE records SET surnames = surnames || ' x' WHERE rid = 3")
        rid, title = conn.execute("SELECT rid, norm_title FROM records WHERE norm_title != ''"
                                  " ORDER BY rid LIMIT 1").fetchone()
        conn.execute("INSERT INTO title_fts(title_fts, rowid, norm_title)"
                     " VALUES('delete', ?, ?)", (rid, title))
    conn.close()
    assert dump_index.main([str(one), str(two)]) == 1
    out = capsys.readouterr().out
    lines = {line.split()[0]: line for line in out.splitlines() if line.strip()}
    assert "DIFFERENT" in lines["records"] and "DIFFERENT" in lines["title_fts_docsize"]
    assert "identical" in lines["doi"]
    assert "DIFFERENT" in out.split("title_fts (instances)")[1].splitlines()[0]
