"""Parallel import, compact records, key replacement and the upgrade to schema 4."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from citecheck_tex.model import Person, Record
from citecheck_tex.sources import local_index
from citecheck_tex.sources.importers import IndexRow, classify_json, rows_from_json
from citecheck_tex.sources.local_index import (
    SCHEMA_VERSION,
    LocalIndex,
    _record_from_json,
    _record_to_json,
)

DATA = Path(__file__).resolve().parent / "data"
FILES = ("inspire_literature.jsonl", "arxiv_metadata_snapshot.jsonl", "HEPML_excerpt.bib",
         "dblp_sample.xml")


def _dump(path: Path) -> list[tuple[object, ...]]:
    """Everything an index answers from, independent of rid numbering."""
    conn = sqlite3.connect(path)
    try:
        uid = dict(conn.execute("SELECT rid, uid FROM records"))
        rows: list[tuple[object, ...]] = sorted(conn.execute(
            "SELECT uid, origin, format, year, norm_title, surnames, data FROM records"))
        for table in ("doi", "arxiv", "texkey", "report", "author_year", "jref"):
            rows += sorted((table, *r[:-1], uid[r[-1]]) for r in conn.execute(
                f"SELECT * FROM {table}"))
        rows += sorted(("fts", uid[r]) for (r,) in conn.execute(
            "SELECT rowid FROM title_fts WHERE title_fts MATCH 'the'"))
        rows += sorted(conn.execute("SELECT * FROM title_terms"))
        return rows
    finally:
        conn.close()


def test_parallel_import_equals_the_serial_one(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_index, "CHUNK_ROWS", 7)  # many tasks in flight, in order
    monkeypatch.setattr(local_index, "CHUNK_BYTES", 5000)  # JSON lines: byte ranges
    monkeypatch.setattr(local_index, "BIB_CHUNK_ENTRIES", 4)
    stats = {}
    for jobs in (1, 3):
        with LocalIndex.open(tmp_path / f"{jobs}.sqlite") as index:
            stats[jobs] = [(s.records, s.bad, s.skipped, s.lines, s.format)
                           for s in (index.add_file(DATA / f, jobs=jobs) for f in FILES)]
    assert stats[1] == stats[3] and all(s[0] for s in stats[1])
    assert _dump(tmp_path / "1.sqlite") == _dump(tmp_path / "3.sqlite")


def test_reimport_of_changed_records_replaces_their_keys(tmp_path: Path) -> None:
    first = tmp_path / "dump.jsonl"
    lines = (DATA / "inspire_literature.jsonl").read_text(encoding="utf-8").splitlines()
    first.write_text("\n".join(lines[:5]) + "\n", encoding="utf-8")
    with LocalIndex.open(tmp_path / "i.sqlite") as index:
        index.add_file(first)
        before = _dump(tmp_path / "i.sqlite")
        # The same records, changed: another DOI, title, texkey and first author.
        changed = [line.replace("10.1016/0550-3213(76)90173-5", "10.9999/changed")
                   .replace("Magnetic Monopoles", "Electric Dipoles")
                   .replace("Corrigan:1975hd", "Other:1975xx")
                   .replace('"last_name": "Corrigan"', '"last_name": "Zweig"')
                   for line in lines[:5]]
        first.write_text("\n".join(changed) + "\n", encoding="utf-8")
        index.add_file(first)
        assert index.by_doi("10.1016/0550-3213(76)90173-5") == []
        assert [r.id for r in index.by_doi("10.9999/changed")] == ["inspire:100761"]
        assert index.by_texkey("Corrigan:1975hd") == []
        assert index.by_author_year(["Corrigan"], "1976") == []
        assert [r.id for r in index.by_author_year(["Zweig"], "1976")] == ["inspire:100761"]
        assert index._conn.execute(
            "SELECT rowid FROM title_fts WHERE title_fts MATCH 'monopoles'").fetchall() == []
        assert index.search_title("Electric Dipoles in SU(3) Gauge Theories")[0].id == \
            "inspire:100761"
        # Back to the original: exactly the first index again.
        first.write_text("\n".join(lines[:5]) + "\n", encoding="utf-8")
        index.add_file(first)
    assert _dump(tmp_path / "i.sqlite") == before


def test_compact_record_json_round_trips() -> None:
    full = Record(source="local", id="inspire:42", url="https://inspirehep.net/literature/42",
                  title="T", authors=(Person("Family", "G."), Person("ATLAS", literal=True),
                                      Person("Waals", "J.", von="van der", jr="Jr.")),
                  year="2001", other_years=("2000",), venue="Phys.Rev.D", volume="64",
                  pages="1-2", doi="10.1/x", arxiv="hep-ph/0101001", texkeys=("A:2001b",),
                  entry_type="article", extra_pubs=(("J", "1", "2", "2002"),),
                  report_numbers=("CERN-TH-1",), collaborations=("ATLAS",),
                  authors_truncated=True, venue_aliases=("Phys. Rev. D",), catalogue_dates=True)
    bare = Record(source="local", id="bib:x.bib:key", url="")
    other_url = Record(source="local", id="arxiv:1234.5678", url="https://example.org/p")
    for rec in (full, bare, other_url):
        assert _record_from_json(_record_to_json(rec)) == rec
    assert '"url"' not in _record_to_json(full)  # implied by the id


def _stored_person(p: Person) -> list[object]:
    """A person as schema 4 stores it, written out plainly: trailing empty parts go."""
    fields: list[object] = [p.family, p.given, p.von, p.jr, p.literal]
    while len(fields) > 1 and not fields[-1]:
        fields.pop()
    return fields


def test_prepared_rows_hold_what_the_record_functions_give() -> None:
    # _prepare works the surnames, the author+year keys and the JSON out in one pass
    # over the authors, with each person's part cached: it must give what the
    # functions the rest of the index uses give, for every row of the test dumps and
    # for names with particles, suffixes, corporate and empty parts, past the 50th
    rows = []
    for name in ("inspire_literature.jsonl", "arxiv_metadata_snapshot.jsonl",
                 "arxiv_abs_records.jsonl", "inspire_hep_records.jsonl", "crossref_works.jsonl",
                 "openalex_works.jsonl", "inspire_author_year.jsonl"):
        for line in (DATA / name).read_text(encoding="utf-8").splitlines():
            obj = json.loads(line)
            rows += [r for r in rows_from_json(obj, classify_json(obj)) if r is not None]
    people = [Person("Waals", "J.", von="van der", jr="Jr."), Person("ATLAS", literal=True),
              Person("", "Only Given"), Person("Garcia", "L.", von="de"),
              Person("-", "Dash"), *(Person(f"Name{k}", "A.") for k in range(60)),
              Person("Andrade", "L. C.", von="Garcia de")]
    rec = Record(source="local", id="inspire:1", url="", title="T", authors=tuple(people),
                 year="2001", other_years=("2000", "20xx"), collaborations=("CMS Collaboration",),
                 extra_pubs=(("J", "1", "2", "2002"),))
    rows.append(IndexRow(uid="inspire:1", origin="inspire", format="inspire", record=rec,
                         norm_title="t", texkeys=("Waals:2001ab",)))
    assert len(rows) > 100
    for row in rows:
        prepared = local_index._prepare(row)
        rec = row.record
        assert prepared[5] == local_index._surnames(rec)
        assert prepared[12] == tuple(sorted(local_index.author_year_keys(rec)))
        assert json.loads(prepared[6]) == json.loads(_record_to_json(rec))
        assert json.loads(prepared[6]).get("authors", []) == [_stored_person(p)
                                                              for p in rec.authors]
        assert prepared[9] == tuple(t.lower() for t in row.texkeys)


def test_schema_3_index_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite"
    with LocalIndex.open(path) as index:
        index.add_file(DATA / "inspire_literature.jsonl")
    # Turn it into the schema-3 layout: a title index with its own copy of the titles,
    # and the rid indexes version 4 dropped.
    conn = sqlite3.connect(path)
    conn.executescript("""
        DROP TABLE title_vocab; DROP TABLE title_fts;
        CREATE VIRTUAL TABLE title_fts USING fts5(norm_title,
            tokenize = 'unicode61 remove_diacritics 2', prefix = '4');
        CREATE VIRTUAL TABLE title_vocab USING fts5vocab(title_fts, row);
        INSERT INTO title_fts(rowid, norm_title) SELECT rid, norm_title FROM records
            WHERE norm_title != '';
        CREATE INDEX author_year_rid ON author_year(rid);
        CREATE INDEX texkey_rid ON texkey(rid);
        CREATE INDEX report_rid ON report(rid);
        UPDATE meta SET value='3' WHERE key='schema_version';
    """)
    conn.commit()
    conn.close()
    with LocalIndex.open(path, create=False, readonly=True) as index:
        assert index.stats().schema_version == SCHEMA_VERSION == "4"
        assert index.search_title("Magnetic Monopoles in SU(3) Gauge Theories")[0].id == \
            "inspire:100761"
    conn = sqlite3.connect(path)
    names = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    sql = conn.execute("SELECT sql FROM sqlite_master WHERE name='title_fts'").fetchone()[0]
    conn.close()
    assert not names & {"author_year_rid", "texkey_rid", "report_rid", "title_fts_content"}
    assert "content='records'" in sql


def test_common_author_and_year_narrowed_by_the_second_author(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    bib = tmp_path / "doe.bib"
    bib.write_text("".join(
        f"@article{{k{i},\n  title = {{Paper number {i}}},\n"
        f"  author = {{Doe, J. and Other{i}, A.}},\n  year = {{2001}}\n}}\n" for i in range(12)),
        encoding="utf-8")
    with LocalIndex.open(tmp_path / "i.sqlite") as index:
        assert index.add_file(bib).records == 12
        monkeypatch.setattr(local_index, "MAX_AUTHOR_YEAR_SCAN", 3)
        found = index.by_author_year(["J. Doe", "A. Other9"], "2001")
        assert found[0].id == "bib:doe.bib:k9"
        # Without a second author the scan stays bounded: some three of the twelve.
        assert len(index.by_author_year(["Doe"], "2001", limit=10)) == 3
        # The journal version (2002) of one of these preprints: of a crowded first
        # author's preprints, those that list the second cited author too.
        found = index.by_author_year(["J. Doe", "A. Other7"], "2002", journal="Phys. Rev. D",
                                     volume="66", page="1", limit=10)
        assert [r.id for r in found] == ["bib:doe.bib:k7"]


@pytest.mark.parametrize("chunk", [4, 20])
def test_record_repeated_later_in_a_file_replaces_its_staged_keys(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, chunk: int) -> None:
    # The keys of new records are staged and merged at the end of an import; a record
    # that comes again in a later chunk forces a merge first, so its first keys can be
    # deleted like those of any replaced record. Chunks of 4: the third holds two new
    # records and two repeated ones (taken out again after the insert that found
    # them); of 20: one chunk holds both copies.
    monkeypatch.setattr(local_index, "CHUNK_ROWS", chunk)
    lines = (DATA / "inspire_literature.jsonl").read_text(encoding="utf-8").splitlines()
    changed = [line.replace("10.1016/0550-3213(76)90173-5", "10.9999/changed")
               .replace("Magnetic Monopoles", "Electric Dipoles")
               .replace('"last_name": "Corrigan"', '"last_name": "Zweig"') for line in lines[:5]]
    twice = tmp_path / "twice.jsonl"
    twice.write_text("\n".join(lines[:10] + changed) + "\n", encoding="utf-8")
    once = tmp_path / "once.jsonl"
    once.write_text("\n".join(changed + lines[5:10]) + "\n", encoding="utf-8")
    for name, path in (("twice", twice), ("once", once)):
        with LocalIndex.open(tmp_path / f"{name}.sqlite") as index:
            # (rows written: a record twice in one chunk is written once)
            written = 15 if name == "twice" and chunk == 4 else 10
            assert index.add_file(path, jobs=1).records == written
            assert index.by_doi("10.1016/0550-3213(76)90173-5") == []
            assert index.by_author_year(["Corrigan"], "1976") == []
            assert [r.id for r in index.by_doi("10.9999/changed")] == ["inspire:100761"]
    assert _dump(tmp_path / "twice.sqlite") == _dump(tmp_path / "once.sqlite")


def test_failed_import_leaves_the_index_as_it_was(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_index, "CHUNK_ROWS", 3)
    monkeypatch.setattr(local_index, "COMMIT_ROWS", 3)  # some rows are committed first
    path = tmp_path / "i.sqlite"
    with LocalIndex.open(path) as index:
        index.add_file(DATA / "HEPML_excerpt.bib")
    before = _dump(path)
    real_write = LocalIndex._write
    calls = []

    def failing_write(self: LocalIndex, rows: object, file_id: int) -> int:
        calls.append(1)
        if len(calls) == 3:
            raise KeyboardInterrupt
        return real_write(self, rows, file_id)  # type: ignore[arg-type]

    monkeypatch.setattr(LocalIndex, "_write", failing_write)
    with LocalIndex.open(path) as index, pytest.raises(KeyboardInterrupt):
        index.add_file(DATA / "inspire_literature.jsonl", jobs=1)
    assert _dump(path) == before
    monkeypatch.setattr(LocalIndex, "_write", real_write)
    with LocalIndex.open(path) as index:  # and it imports again
        assert index.add_file(DATA / "inspire_literature.jsonl", jobs=1).records > 3


def test_killed_import_is_removed_or_refused_when_next_opened(tmp_path: Path) -> None:
    path = tmp_path / "i.sqlite"
    with LocalIndex.open(path) as index:
        index.add_file(DATA / "HEPML_excerpt.bib")
    before = _dump(path)
    with LocalIndex.open(path) as index:
        index.add_file(DATA / "inspire_literature.jsonl")
    # what a killed import into a non-empty index leaves: records past the marker's
    # rid whose keys were never merged
    conn = sqlite3.connect(path)
    first = conn.execute("SELECT MIN(rid) FROM records WHERE origin='inspire'").fetchone()[0]
    with conn:
        for table in ("doi", "arxiv", "jref", "texkey", "report", "author_year"):
            conn.execute(f"DELETE FROM {table} WHERE rid >= ?", (first,))
        conn.execute("INSERT INTO title_fts(title_fts, rowid, norm_title) SELECT 'delete',"
                     " rid, norm_title FROM records WHERE rid >= ? AND norm_title != ''",
                     (first,))
        local_index._refresh_title_terms(conn)
        conn.execute("INSERT INTO meta VALUES('import_pending', ?)", (f"{first} journal",))
    conn.close()
    with LocalIndex.open(path, create=False, readonly=True) as index:  # read: a warning
        assert index.by_texkey("Corrigan:1975hd") == []
    with LocalIndex.open(path, create=False) as index:
        assert index._conn.execute(
            "SELECT COUNT(*) FROM meta WHERE key='import_pending'").fetchone()[0] == 0
    assert _dump(path) == before
    # a new index killed while being built without a journal is refused
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("INSERT INTO meta VALUES('import_pending', '1 unjournaled')")
    conn.close()
    with pytest.raises(local_index.LocalIndexError, match="did not finish"):
        LocalIndex.open(path, create=False)


def test_killed_import_takes_the_titles_it_indexed_out_again(tmp_path: Path) -> None:
    # Titles go to the title index as their records are written (the lookup keys are
    # staged): a process killed before the merge leaves committed records and titles,
    # which the next writable opening removes, the title index consistent again.
    path = tmp_path / "i.sqlite"
    with LocalIndex.open(path) as index:
        index.add_file(DATA / "HEPML_excerpt.bib")
    before = _dump(path)
    code = ("import os, sys\n"
            "from pathlib import Path\n"
            "from citecheck_tex.sources import local_index as li\n"
            "li.CHUNK_ROWS = li.COMMIT_ROWS = 3\n"
            "li.LocalIndex._merge_staged = lambda self, final=False: os._exit(9)\n"
            "li.LocalIndex.open(Path(sys.argv[1])).add_file(Path(sys.argv[2]), jobs=1)\n")
    done = subprocess.run([sys.executable, "-c", code, str(path),
                           str(DATA / "inspire_literature.jsonl")], check=False, timeout=120)
    assert done.returncode == 9
    conn = sqlite3.connect(path)
    mark = conn.execute("SELECT value FROM meta WHERE key='import_pending'").fetchone()[0]
    first = int(mark.split()[0])
    assert mark.split()[1:] == ["journal", "titles"]
    found = [rid for (rid,) in conn.execute(
        "SELECT rowid FROM title_fts WHERE title_fts MATCH 'monopoles'")]
    conn.close()
    assert found and min(found) >= first  # "Magnetic Monopoles in SU(3) Gauge Theories"
    with LocalIndex.open(path, create=False) as index:
        index._conn.execute("INSERT INTO title_fts(title_fts) VALUES('integrity-check')")
        assert index.search_title("Magnetic Monopoles in SU(3) Gauge Theories") == []
    assert _dump(path) == before


def test_new_index_is_left_in_wal_mode_with_one_title_segment(tmp_path: Path) -> None:
    path = tmp_path / "i.sqlite"
    with LocalIndex.open(path) as index:
        index.add_file(DATA / "inspire_literature.jsonl")
        conn = index._conn
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert conn.execute("SELECT COUNT(DISTINCT segid) FROM title_fts_idx").fetchone()[0] == 1
        names = {n for (n,) in conn.execute("SELECT name FROM sqlite_master WHERE type='index'")}
        assert {"doi_rid", "arxiv_rid", "jref_rid"} <= names
        # filled with the title index's merging off and the sorter's threads on: both
        # are back as they were for the writes that follow
        assert _merging(conn) == (local_index.FTS_AUTOMERGE, local_index.FTS_CRISISMERGE)
        assert conn.execute("PRAGMA threads").fetchone()[0] == 0


def _merging(conn: sqlite3.Connection) -> tuple[int, int]:
    """The title index's (automerge, crisismerge), FTS5's defaults when not set."""
    config = dict(conn.execute("SELECT k, v FROM title_fts_config"))
    return (int(config.get("automerge", local_index.FTS_AUTOMERGE)),
            int(config.get("crisismerge", local_index.FTS_CRISISMERGE)))


def test_failed_import_into_a_new_index_turns_title_merging_on_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_index, "CHUNK_ROWS", 3)
    monkeypatch.setattr(local_index, "COMMIT_ROWS", 3)
    merged: list[tuple[int, int]] = []
    real_begin = LocalIndex._begin_import

    def begin(self: LocalIndex) -> bool:
        new = real_begin(self)
        merged.append(_merging(self._conn))
        return new

    def failing_write(self: LocalIndex, rows: object, file_id: int) -> int:
        raise KeyboardInterrupt

    monkeypatch.setattr(LocalIndex, "_begin_import", begin)
    monkeypatch.setattr(LocalIndex, "_write", failing_write)
    path = tmp_path / "i.sqlite"
    with LocalIndex.open(path) as index, pytest.raises(KeyboardInterrupt):
        index.add_file(DATA / "inspire_literature.jsonl", jobs=1)
    # off (as far as FTS5 allows) while the new index was filled
    assert merged == [(0, local_index.FTS_BULK_CRISISMERGE)]
    with LocalIndex.open(path) as index:
        assert _merging(index._conn) == (local_index.FTS_AUTOMERGE,
                                         local_index.FTS_CRISISMERGE)


def _serial_and_parallel(tmp_path: Path, path: Path) -> tuple[Any, ...]:
    """(records, lines, bad, problems) of importing ``path`` in this process (text lines)
    and in two (byte ranges), which must agree, as must the two indexes."""
    stats = {}
    for jobs in (1, 2):
        with LocalIndex.open(tmp_path / f"{jobs}.sqlite") as index:
            s = index.add_file(path, jobs=jobs)
            stats[jobs] = (s.records, s.lines, s.bad, [(p.line, p.message) for p in s.problems])
    assert stats[1] == stats[2]
    assert _dump(tmp_path / "1.sqlite") == _dump(tmp_path / "2.sqlite")
    return stats[1]


def test_byte_ranges_number_bad_lines_as_the_file_does(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(local_index, "CHUNK_BYTES", 700)  # ranges of one or two lines
    lines = (DATA / "inspire_literature.jsonl").read_text(encoding="utf-8").splitlines()[:12]
    lines[3] = '{"broken": '
    lines[8] = "[1, 2]"
    path = tmp_path / "dump.jsonl"
    # Windows and old-Mac line ends, an empty line, no newline at the end
    path.write_bytes(("\r\n".join(lines[:6]) + "\n\n" + "\r".join(lines[6:])).encode())
    stats = _serial_and_parallel(tmp_path, path)
    assert stats[1:3] == (13, 2) and [n for n, _ in stats[3]] == [4, 10]


def test_byte_ranges_read_as_bytes_give_what_text_lines_give(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Ranges without a carriage return go to orjson as bytes; a line orjson refuses
    # is read again as text: invalid UTF-8 (replaced), a lone surrogate escape
    # (json reads it), Unicode white space around a record or as the whole line.
    monkeypatch.setattr(local_index, "CHUNK_BYTES", 700)
    lines = [line.encode() for line in (DATA / "inspire_literature.jsonl").read_text(
        encoding="utf-8").splitlines()[:8]]
    lines[1] = lines[1].replace(b'"title": "', b'"title": "\xff', 1)
    lines[2] = lines[2].replace(b'"title": "', b'"title": "\\ud800', 1)
    assert b"\xff" in lines[1] and b"\\ud800" in lines[2]
    lines[3] = lines[3] + "\u00a0\u3000".encode()
    lines[4] = "\u00a0".encode()
    lines[5] = b"null"
    path = tmp_path / "dump.jsonl"
    path.write_bytes(b"\n".join(lines) + b"\n")
    stats = _serial_and_parallel(tmp_path, path)
    assert stats[0] == 6 and [n for n, _ in stats[3]] == [6]  # only "null" is bad
