"""The DBLP XML importer (hand-made excerpt tests/index/data/dblp_sample.xml)."""

from __future__ import annotations

import gzip
from collections.abc import Iterator
from pathlib import Path

import pytest

from citecheck_tex.sources import dblp_xml
from citecheck_tex.sources.local_index import LocalIndex, detect_format

DATA = Path(__file__).resolve().parent / "data"
SAMPLE = DATA / "dblp_sample.xml"


@pytest.fixture(scope="module")
def dblp_index(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalIndex]:
    path = tmp_path_factory.mktemp("dblp") / "index.sqlite"
    with LocalIndex.open(path) as index:
        stats = index.add_file(SAMPLE)
        assert (stats.format, stats.records, stats.bad) == ("dblp", 9, 0)
        assert stats.skipped == 1  # the www person page
    with LocalIndex.open(path, create=False, readonly=True) as index:
        yield index


def test_detected_by_content_also_gzipped_and_renamed(tmp_path: Path) -> None:
    packed = tmp_path / "dump.data"  # a name that says nothing
    packed.write_bytes(gzip.compress(SAMPLE.read_bytes()))
    assert detect_format(SAMPLE) == detect_format(packed) == "dblp"


def test_entities_without_the_dtd(dblp_index: LocalIndex) -> None:
    rec = dblp_index.by_doi("10.1162/NECO.1997.9.8.1735")[0]
    assert rec.id == "dblp:journals/neco/HochreiterS97"
    assert [(p.given, p.family) for p in rec.authors] == [("Sepp", "Hochreiter"),
                                                         ("Jürgen", "Schmidhuber")]
    assert (rec.title, rec.venue, rec.volume, rec.pages, rec.year) == (
        "Long Short-Term Memory", "Neural Comput.", "9", "1735-1780", "1997")
    assert rec.url == "https://dblp.org/rec/journals/neco/HochreiterS97"
    thesis = dblp_index.search_title("Statistische Methoden für Teilchen und Felder")[0]
    assert thesis.title == "Statistische Methoden für Teilchen & Felder"
    assert thesis.authors[0].family == "Groß" and thesis.entry_type == "phdthesis"


def test_corr_record_is_an_arxiv_preprint(dblp_index: LocalIndex) -> None:
    ids = [r.id for r in dblp_index.by_arxiv("arXiv:1706.03762v5")]
    assert ids == ["dblp:journals/corr/VaswaniSPUJGKP17"]
    rec = dblp_index.by_arxiv("1706.03762")[0]
    assert (rec.entry_type, rec.venue, rec.volume) == ("preprint", "", "")


def test_homonym_numbers_and_inline_markup(dblp_index: LocalIndex) -> None:
    rec = dblp_index.by_doi("10.1109/CVPR.2016.90")[0]
    assert [p.family for p in rec.authors] == ["He", "Zhang", "Ren", "Sun"]
    assert rec.entry_type == "inproceedings" and rec.venue == "CVPR"
    seeded = dblp_index.search_title("k-means++: The Advantages of Careful Seeding")[0]
    assert seeded.title == "k-means++: the advantages of careful seeding"
    assert dblp_index.by_author_year(["Arthur"], "2007")[0].id == "dblp:conf/soda/ArthurV07"


def test_proceedings_list_their_editors(dblp_index: LocalIndex) -> None:
    rec = dblp_index.search_title("Advances in Neural Information Processing Systems 30")[0]
    assert rec.id == "dblp:conf/nips/2017"
    assert [p.family for p in rec.authors] == ["Guyon", "Luxburg", "Bengio"]


def test_broken_record_reported_with_its_line_others_kept(tmp_path: Path) -> None:
    lines = SAMPLE.read_text(encoding="latin-1").splitlines(keepends=True)
    # Line 8 ("<pages>1735-1780</pages>") loses its closing tag: record of line 4 is broken.
    assert lines[7].startswith("<pages>")
    lines[7] = "<pages>1735-1780\n"
    broken = tmp_path / "dblp.xml"
    broken.write_text("".join(lines), encoding="latin-1")
    with LocalIndex.open(tmp_path / "i.sqlite") as index:
        stats = index.add_file(broken)
        assert (stats.records, stats.bad) == (8, 1)
        assert stats.problems[0].line == 4 and "malformed DBLP record" in stats.problems[0].message
        assert index.by_doi("10.1109/CVPR.2016.90")


def test_latin1_bytes_decoded_as_declared(tmp_path: Path) -> None:
    text = ('<?xml version="1.0" encoding="ISO-8859-1"?>\n<dblp>\n'
            '<article key="journals/x/Godel31"><author>Kurt G\u00f6del</author>'
            '<title>\u00dcber formal unentscheidbare S\u00e4tze.</title><journal>Monatsh. Math.'
            '</journal><volume>38</volume><pages>173-198</pages><year>1931</year></article>\n'
            '</dblp>\n')
    path = tmp_path / "dblp.xml"
    path.write_bytes(text.encode("latin-1"))
    with LocalIndex.open(tmp_path / "i.sqlite") as index:
        assert index.add_file(path).records == 1
        rec = index.by_journal_ref("Monatsh. Math.", "38", "173")[0]
        assert rec.authors[0].family == "Gödel" and rec.title.startswith("Über")


def test_record_chunks_follow_lines_in_any_layout() -> None:
    text = ('<dblp><article key="a/b/1"><title>One.</title><year>2001</year></article>'
            '<article key="a/b/2">\n<title>Two.</title>\n</article>\n\n'
            '<book key="a/b/3"><title>Three.</title></book></dblp>\n')
    chunks = list(dblp_xml.record_chunks(text.splitlines(keepends=True), 2))
    assert [start for start, _ in chunks] == [1, 5]
    parsed = [item for start, body in chunks for item in dblp_xml.parse_records(body, start)]
    assert [(line, getattr(row, "uid", row)) for line, row in parsed] == [
        (1, "dblp:a/b/1"), (1, "dblp:a/b/2"), (5, "dblp:a/b/3")]
