"""Imports that meet another import, another program's database, or a damaged dump.

Each case was found by running ``citecheck-tex index add`` on such inputs (2026-12-02):
a second import removed a running one's records as if they were an interrupted
import's, a mistyped ``--index`` turned a Zotero-like database into an index, and a
truncated ``.gz``, one over-nested JSON line or an unknown XML encoding stopped the
whole run with an internal error.
"""

from __future__ import annotations

import gzip
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from citecheck_tex.sources import local_index
from citecheck_tex.sources.local_index import LocalIndex, LocalIndexError, import_files

DATA = Path(__file__).resolve().parent / "data"


def _count(path: Path) -> int:
    conn = sqlite3.connect(path)
    try:
        return int(conn.execute("SELECT COUNT(*) FROM records").fetchone()[0])
    finally:
        conn.close()


def test_a_running_import_is_neither_removed_nor_joined_by_a_second_one(tmp_path: Path) -> None:
    path = tmp_path / "i.sqlite"
    with LocalIndex.open(path) as index:
        index.add_file(DATA / "HEPML_excerpt.bib")
    before = _count(path)
    # an import that has committed records and then works on (stopped where it merges)
    code = ("import sys, time\n"
            "from pathlib import Path\n"
            "from citecheck_tex.sources import local_index as li\n"
            "li.CHUNK_ROWS = li.COMMIT_ROWS = 3\n"
            "def working(self, final=False):\n"
            "    print('merging', flush=True)\n"
            "    time.sleep(600)\n"
            "li.LocalIndex._merge_staged = working\n"
            "li.LocalIndex.open(Path(sys.argv[1])).add_file(Path(sys.argv[2]), jobs=1)\n")
    proc = subprocess.Popen([sys.executable, "-c", code, str(path),
                             str(DATA / "inspire_literature.jsonl")],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None and proc.stdout.readline().strip() == "merging"
        running = _count(path)
        assert running > before  # its committed records, keys not merged yet
        with LocalIndex.open(path, create=False) as index:  # what `index add` opens
            with pytest.raises(LocalIndexError, match="another import into this index"):
                index.add_file(DATA / "arxiv_metadata_snapshot.jsonl")
        assert _count(path) == running  # nothing removed, nothing added
        with LocalIndex.open(path, create=False, readonly=True) as index:
            assert index.by_texkey("Corrigan:1975hd") == []  # not searchable yet
    finally:
        proc.kill()
        proc.wait(timeout=30)
        if proc.stdout is not None:
            proc.stdout.close()
    # the process is gone (its lock with it): now it is an interrupted import
    with LocalIndex.open(path, create=False) as index:
        assert index._conn.execute(
            "SELECT COUNT(*) FROM meta WHERE key='import_pending'").fetchone()[0] == 0
    assert _count(path) == before


def test_a_new_index_being_built_is_refused_as_running_not_as_damaged(tmp_path: Path) -> None:
    path = tmp_path / "i.sqlite"
    with LocalIndex.open(path) as index:
        index.add_file(DATA / "HEPML_excerpt.bib")
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("INSERT INTO meta VALUES('import_pending', '1 unjournaled')")
    conn.close()
    lock = local_index._try_lock(path)  # as the building process holds it
    assert lock is not None
    try:
        with pytest.raises(LocalIndexError, match="still running"):
            LocalIndex.open(path, create=False)
        with pytest.raises(LocalIndexError, match="still running"):
            LocalIndex.open(path, create=False, readonly=True)
    finally:
        lock.close()
    with pytest.raises(LocalIndexError, match="did not finish"):
        LocalIndex.open(path, create=False)


def test_another_programs_database_is_refused_and_left_as_it_is(tmp_path: Path) -> None:
    path = tmp_path / "zotero.sqlite"
    conn = sqlite3.connect(path)
    with conn:
        conn.execute("CREATE TABLE items(id INTEGER PRIMARY KEY, title TEXT)")
        conn.execute("INSERT INTO items VALUES(1, 'Long Short-Term Memory')")
    conn.close()
    data = path.read_bytes()
    with pytest.raises(LocalIndexError, match="another program's SQLite database"):
        import_files(path, [DATA / "arxiv_metadata_snapshot.jsonl"])
    assert path.read_bytes() == data
    assert not path.with_name("zotero.sqlite-wal").exists()


def test_a_truncated_gzip_keeps_what_was_read_and_the_next_file_is_imported(
        tmp_path: Path) -> None:
    whole = gzip.compress((DATA / "inspire_literature.jsonl").read_bytes())
    cut = tmp_path / "inspire.jsonl.gz"
    cut.write_bytes(whole[:len(whole) // 3])  # a download that stopped a third of the way
    first, second = import_files(tmp_path / "i.sqlite",
                                 [cut, DATA / "arxiv_metadata_snapshot.jsonl"])
    assert first.records > 0 and first.bad == 1
    (problem,) = first.problems
    assert "ends early" in problem.message and problem.line == first.lines + 1
    assert second.records > 0 and second.bad == 0


def test_a_gzip_cut_inside_its_first_block_is_a_problem_not_a_crash(tmp_path: Path) -> None:
    cut = tmp_path / "tiny.jsonl.gz"
    cut.write_bytes(gzip.compress((DATA / "inspire_literature.jsonl").read_bytes())[:40])
    (stats,) = import_files(tmp_path / "i.sqlite", [cut])
    assert stats.records == 0 and stats.bad == 1
    assert "ends early" in stats.problems[0].message


def test_an_over_nested_line_is_one_bad_line(tmp_path: Path) -> None:
    lines = (DATA / "arxiv_metadata_snapshot.jsonl").read_text().splitlines()
    dump = tmp_path / "deep.jsonl"
    dump.write_text("\n".join([lines[0], "[" * 3000 + "]" * 3000, *lines[1:]]) + "\n")
    (stats,) = import_files(tmp_path / "i.sqlite", [dump], jobs=1)
    assert stats.records == len(lines) and stats.bad == 1
    assert [(p.line, p.message) for p in stats.problems] == [
        (2, "invalid JSON: nested too deeply")]


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_byte_order_mark_does_not_cost_the_first_record(tmp_path: Path, jobs: int) -> None:
    text = (DATA / "arxiv_metadata_snapshot.jsonl").read_text()
    dump = tmp_path / "bom.jsonl"
    dump.write_bytes(b"\xef\xbb\xbf" + text.encode())
    (stats,) = import_files(tmp_path / "i.sqlite", [dump], jobs=jobs)
    assert stats.bad == 0 and stats.records == len(text.splitlines())


@pytest.mark.parametrize(("declared", "message"), [
    ("x-unknown-enc", "unknown encoding 'x-unknown-enc'"),
    ("UTF-16", "names 'UTF-16', which the file is not written in"),
])
def test_a_dblp_file_with_an_impossible_encoding_is_read_as_utf8(
        tmp_path: Path, declared: str, message: str) -> None:
    sample = (DATA / "dblp_sample.xml").read_text(encoding="latin-1")
    dump = tmp_path / "dblp.xml"
    dump.write_text(sample.replace('encoding="ISO-8859-1"', f'encoding="{declared}"'),
                    encoding="utf-8")
    (good,) = import_files(tmp_path / "good.sqlite", [DATA / "dblp_sample.xml"])
    (stats,) = import_files(tmp_path / "i.sqlite", [dump])
    assert stats.records == good.records > 0
    assert stats.problems[0].line == 1 and message in stats.problems[0].message


@pytest.mark.parametrize("encoding", ["latin-1", "utf-16", "utf-8"])
def test_a_bib_file_is_read_in_its_encoding_as_the_papers_are(tmp_path: Path,
                                                              encoding: str) -> None:
    # a Latin-1 .bib came in with U+FFFD for every accented letter: "�ber die ..."
    # then differed from the paper's correct "{\"U}ber die ..." (a false MINOR)
    bib = tmp_path / "old.bib"
    bib.write_bytes("@article{mueller2001, author = {M\u00fcller, J\u00fcrgen},"
                    " title = {\u00dcber die Quantenmechanik}, journal = {Phys. Rev. D},"
                    " volume = {64}, pages = {1}, year = {2001}}\n".encode(encoding))
    index_path = tmp_path / "i.sqlite"
    (stats,) = import_files(index_path, [bib])
    assert stats.records == 1 and stats.bad == 0
    with LocalIndex.open(index_path, create=False, readonly=True) as index:
        (rec,) = index.search_title("Uber die Quantenmechanik")
    assert rec.title == "\u00dcber die Quantenmechanik"
    assert rec.authors[0].family == "M\u00fcller"


def test_a_folder_or_another_file_given_as_the_index_gets_no_advice_to_delete_it(
        tmp_path: Path) -> None:
    # "delete it and re-import your dumps" was the advice for any unusable --index,
    # a mistyped path to a folder or to someone's file too (2026-12-02)
    with pytest.raises(LocalIndexError, match="folder, not a local index") as folder:
        LocalIndex.open(tmp_path, create=False, readonly=True)
    assert "delete" not in str(folder.value)
    notes = tmp_path / "notes.txt"
    notes.write_text("not a database\n" * 100)
    with pytest.raises(LocalIndexError, match="check the --index path"):
        LocalIndex.open(notes, create=False, readonly=True)
    assert notes.read_text() == "not a database\n" * 100


def test_a_malformed_record_is_told_in_words(tmp_path: Path) -> None:
    # "malformed inspire record: 0" (a KeyError's text) and "'int' object is not
    # subscriptable" were what a user read for a broken line (2026-12-02)
    dump = tmp_path / "dump.jsonl"
    dump.write_text('{"id": "1", "metadata": {"titles": 5}}\n')
    (stats,) = import_files(tmp_path / "i.sqlite", [dump], jobs=1)
    (problem,) = stats.problems
    assert problem.line == 1
    assert problem.message.startswith("malformed inspire record: a field is not of the form")
    assert local_index._malformed(KeyError(0)) == "the field 0 is missing"
    assert local_index._malformed(IndexError("list index out of range")) == \
        "a list field is empty"
