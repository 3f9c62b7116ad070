"""The local index: imports of every dump format, idempotence, bad lines, lookups."""

from __future__ import annotations

import gzip
import re
import shutil
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from citecheck_tex.errors import LocalIndexError
from citecheck_tex.sources.importers import (
    _journal_head,
    normalize_arxiv,
    normalize_title,
    parse_journal_ref,
)
from citecheck_tex.sources.local_index import (
    LocalIndex,
    format_stats,
    import_files,
)

from .conftest import DATA, DUMPS

EXPECTED_FORMAT = {
    "inspire_literature.jsonl": "inspire",
    "arxiv_metadata_snapshot.jsonl": "arxiv",
    "inspire_hep_records.jsonl": "inspire-corpus",
    "arxiv_abs_records.jsonl": "arxiv-corpus",
    "openalex_works.jsonl": "openalex",
    "crossref_works.jsonl": "crossref",
    "HEPML_excerpt.bib": "bibtex",
    "lsst_refs_ads_excerpt.bib": "bibtex",
}


def _nonblank_lines(name: str) -> int:
    return sum(1 for line in (DATA / name).read_text("utf-8").splitlines() if line.strip())


@pytest.mark.parametrize("name", DUMPS)
def test_each_format_imports(tmp_path: Path, name: str) -> None:
    seen: list[int] = []
    with LocalIndex.open(tmp_path / "i.sqlite") as index:
        stats = index.add_file(DATA / name, progress=seen.append)
        assert stats.format == EXPECTED_FORMAT[name]
        assert stats.bad == 0, stats.problems
        assert stats.records > 0
        assert seen and seen[-1] == stats.records
        assert index.stats().records == stats.records
    if name.endswith(".jsonl") and name != "crossref_works.jsonl":
        assert stats.records + stats.skipped == _nonblank_lines(name)
    if name == "crossref_works.jsonl":
        assert stats.records == 8 + 3  # eight works and a three-item search envelope
    if name.endswith(".bib"):
        entries = (DATA / name).read_text("utf-8").count("\n@")
        assert stats.records + stats.skipped >= entries


def test_reimport_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "i.sqlite"
    first = import_files(path, [DATA / n for n in DUMPS])
    with LocalIndex.open(path) as index:
        before = index.stats()
    second = import_files(path, [DATA / n for n in DUMPS])
    with LocalIndex.open(path) as index:
        after = index.stats()
        assert len(index.by_doi("10.1016/0550-3213(76)90173-5")) == 1
    assert [s.records for s in first] == [s.records for s in second]
    assert before == after
    assert after.by_source.keys() == {"inspire", "arxiv", "openalex", "crossref", "bib"}
    assert set(after.by_format) == set(EXPECTED_FORMAT.values())
    text = format_stats(after)
    assert "inspire" in text and "crossref" in text and str(after.records) in text


def test_gzipped_file_imports_like_the_plain_one(tmp_path: Path) -> None:
    gz = tmp_path / "dump.jsonl.gz"
    with gzip.open(gz, "wb") as out:
        out.write((DATA / "inspire_literature.jsonl").read_bytes())
    bib_gz = tmp_path / "lib.gz"  # no telling suffix: detected from content
    with gzip.open(bib_gz, "wb") as out:
        out.write((DATA / "HEPML_excerpt.bib").read_bytes())
    plain = import_files(tmp_path / "a.sqlite", [DATA / "inspire_literature.jsonl",
                                                 DATA / "HEPML_excerpt.bib"])
    packed = import_files(tmp_path / "b.sqlite", [gz, bib_gz])
    assert [s.records for s in packed] == [s.records for s in plain]
    assert [s.format for s in packed] == ["inspire", "bibtex"]


def test_bad_lines_are_counted_with_line_numbers(tmp_path: Path) -> None:
    good = (DATA / "arxiv_metadata_snapshot.jsonl").read_text("utf-8").splitlines()
    broken = tmp_path / "broken.jsonl"
    lines = [good[0], "{not json", good[1], "[1, 2, 3]", '{"unrelated": true}', "", good[2],
             good[3][: len(good[3]) // 2]]
    broken.write_text("\n".join(lines) + "\n", encoding="utf-8")
    with LocalIndex.open(tmp_path / "i.sqlite") as index:
        stats = index.add_file(broken)
    assert stats.records == 3
    assert stats.bad == 4
    assert [p.line for p in stats.problems] == [2, 4, 5, 8]
    assert all(p.file == str(broken) and p.code == "parse-error" for p in stats.problems)
    assert "broken.jsonl:2:" in format_stats([stats])


def test_bad_bibtex_block_is_reported_not_fatal(tmp_path: Path) -> None:
    text = (DATA / "HEPML_excerpt.bib").read_text("utf-8")
    bib = tmp_path / "lib.bib"
    bib.write_text("@article{broken, title = {unclosed\n\n" + text, encoding="utf-8")
    with LocalIndex.open(tmp_path / "i.sqlite") as index:
        stats = index.add_file(bib)
    assert stats.bad >= 1
    assert stats.problems[0].line == 1
    assert stats.records >= 25


def test_unknown_and_missing_files_are_reported(tmp_path: Path) -> None:
    odd = tmp_path / "notes.txt"
    odd.write_text("just some text\n", encoding="utf-8")
    with LocalIndex.open(tmp_path / "i.sqlite") as index:
        unknown = index.add_file(odd)
        missing = index.add_file(tmp_path / "nope.jsonl")
    assert unknown.bad == 1 and unknown.records == 0 and unknown.problems[0].file == str(odd)
    assert missing.bad == 1 and missing.problems[0].code == "missing-file"


def test_open_without_create_and_wrong_files(tmp_path: Path) -> None:
    with pytest.raises(LocalIndexError):
        LocalIndex.open(tmp_path / "absent.sqlite", create=False)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"this is not a database at all" * 10)
    with pytest.raises(LocalIndexError):
        LocalIndex.open(junk)
    assert not (tmp_path / "absent.sqlite").exists()


def test_large_import_streams_in_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from citecheck_tex.sources import local_index

    monkeypatch.setattr(local_index, "CHUNK_ROWS", 5)
    monkeypatch.setattr(local_index, "BIB_CHUNK_ENTRIES", 4)
    seen: list[int] = []
    with LocalIndex.open(tmp_path / "i.sqlite") as index:
        a = index.add_file(DATA / "inspire_literature.jsonl", progress=seen.append)
        b = index.add_file(DATA / "HEPML_excerpt.bib")
    assert len(seen) >= 6 and seen == sorted(seen)
    assert a.records == _nonblank_lines("inspire_literature.jsonl") - a.skipped
    assert b.records + b.skipped == 30


# ------------------------------------------------------------------------- lookups


def test_by_doi(index: LocalIndex) -> None:
    for spelling in ("10.1016/0550-3213(76)90173-5", "https://doi.org/10.1016/0550-3213(76)90173-5",
                     "doi:10.1016/0550-3213(76)90173-5", "10.1016/0550-3213(76)90173-5".upper()):
        found = index.by_doi(spelling)
        assert [r.id for r in found] == ["inspire:100761"], spelling
    rec = index.by_doi("10.1016/0550-3213(76)90173-5")[0]
    assert rec.source == "local"
    assert rec.url == "https://inspirehep.net/literature/100761"
    assert rec.title == "Magnetic Monopoles in SU(3) Gauge Theories"
    assert rec.year == "1976" and rec.other_years == ("1975",)
    assert [p.family for p in rec.authors] == ["Corrigan", "Olive", "Fairlie", "Nuyts"]
    assert rec.texkeys == ("Corrigan:1975hd",)
    assert rec.volume == "106" and rec.pages == "475"
    assert index.by_doi("10.9999/does-not-exist") == []
    assert index.by_doi("") == []


def test_by_doi_other_dumps(index: LocalIndex) -> None:
    cross = index.by_doi("10.1038/srep16696")
    assert cross and cross[0].id == "doi:10.1038/srep16696"
    assert cross[0].url == "https://doi.org/10.1038/srep16696" and cross[0].pages == "16696"
    alex = index.by_doi("10.1038/nphys1342")
    assert alex and alex[0].id == "openalex:W2099265531" and alex[0].venue == "Nature Physics"
    ads = index.by_doi("10.1086/307852")
    assert ads and ads[0].id == "bib:lsst_refs_ads_excerpt.bib:1999ApJ...524..867F"


def test_page_range_kept(index: LocalIndex) -> None:
    rec = index.by_doi("10.1016/0375-9474(76)90509-1")[0]
    assert rec.pages == "444-460"


@pytest.mark.parametrize("query,expected", [
    ("hep-th/9108002", "arxiv:hep-th/9108002"),
    ("hep-th/9108002v1", "arxiv:hep-th/9108002"),
    ("arXiv:hep-th/9108002", "arxiv:hep-th/9108002"),
    ("0704.0001", "arxiv:0704.0001"),
    ("arXiv:0704.0001v2", "arxiv:0704.0001"),
    ("https://arxiv.org/abs/0704.0007v1", "arxiv:0704.0007"),
    ("nucl-th/9308006", "inspire:1119600"),
    ("2606.13780", "bib:HEPML_excerpt.bib:Araz:2026img"),
])
def test_by_arxiv(index: LocalIndex, query: str, expected: str) -> None:
    assert expected in [r.id for r in index.by_arxiv(query)]


def test_arxiv_record_fields(index: LocalIndex) -> None:
    rec = next(r for r in index.by_arxiv("0704.0001") if r.id == "arxiv:0704.0001")
    assert rec.url == "https://arxiv.org/abs/0704.0001"
    assert rec.doi == "10.1103/physrevd.76.013009"
    assert rec.year == "2007" and rec.volume == "D76" and rec.pages == "013009"
    assert rec.entry_type == "article"
    assert rec.authors[0].family == "Balázs"


def test_normalize_arxiv() -> None:
    assert normalize_arxiv("math.GT/0309136v2") == "math/0309136"
    assert normalize_arxiv("arXiv:1501.00001") == "1501.00001"
    assert normalize_arxiv("not an id") == ""


@given(st.text(max_size=40) | st.text(st.characters(max_codepoint=127), max_size=40))
def test_normalize_title_is_its_definition(title: str) -> None:
    # the ASCII path works on bytes: it must give what the rule says for any text
    text = "".join(c for c in unicodedata.normalize("NFKD", title)
                   if not unicodedata.combining(c)).lower()
    assert normalize_title(title) == " ".join(re.sub(r"[\W_]+", " ", text).split())


def test_normalize_title() -> None:
    assert normalize_title("Quasi-Elastic  Knock_out (II): \x1fSU(3)") == "quasi elastic knock out ii su 3"
    assert normalize_title("Électrons à Ångström") == "electrons a angstrom"


def test_by_texkey(index: LocalIndex) -> None:
    assert [r.id for r in index.by_texkey("Corrigan:1975hd")] == ["inspire:100761"]
    assert [r.id for r in index.by_texkey("corrigan:1975HD")] == ["inspire:100761"]
    assert "bib:HEPML_excerpt.bib:Araz:2026img" in [r.id for r in index.by_texkey("Araz:2026img")]
    assert index.by_texkey("Nobody:1999xx") == []


@pytest.mark.parametrize("journal,volume,page", [
    ("Nucl. Phys.", "B106", "475"),
    ("Nucl.Phys.B", "106", "475"),
    ("Nucl. Phys. B", "106", "475-490"),
    ("Nuclear Physics B", "106", "475"),
    ("NUCL PHYS B", "B106", "p. 475"),
])
def test_by_journal_ref_every_spelling(index: LocalIndex, journal: str, volume: str,
                                       page: str) -> None:
    assert [r.id for r in index.by_journal_ref(journal, volume, page)] == ["inspire:100761"]


def test_by_journal_ref_other_dumps(index: LocalIndex) -> None:
    # arXiv journal-ref "Phys.Rev.D76:013009,2007"
    assert "arxiv:0704.0001" in [
        r.id for r in index.by_journal_ref("Physical Review D", "76", "013009")]
    # ADS BibTeX with the \apj macro
    for journal in ("\\apj", "Astrophys. J.", "The Astrophysical Journal", "ApJ"):
        ids = [r.id for r in index.by_journal_ref(journal, "524", "867")]
        assert ids == ["bib:lsst_refs_ads_excerpt.bib:1999ApJ...524..867F"], journal
    # Crossref and INSPIRE-exported BibTeX
    assert [r.id for r in index.by_journal_ref("PLoS ONE", "7", "e33693")] == [
        "doi:10.1371/journal.pone.0033693"]
    assert index.by_journal_ref("Phys. Rev. D", "114", "014511")
    assert index.by_journal_ref("Nucl. Phys. B", "107", "475") == []
    assert index.by_journal_ref("", "106", "475") == []


def test_parse_journal_ref() -> None:
    assert parse_journal_ref("Phys.Rev.D76:013009,2007") == ("Phys.Rev.", "D76", "013009", "2007")
    assert parse_journal_ref("Astrophys.J. 395 (1992) L83-L86") == (
        "Astrophys.J.", "395", "L83", "1992")
    assert parse_journal_ref("Phys. Rev. Lett. 81, 4412 (1998)") == (
        "Phys. Rev. Lett.", "81", "4412", "1998")
    assert parse_journal_ref("Journal of Applied Physics, vol 104, 073536 (2008)") == (
        "Journal of Applied Physics", "104", "073536", "2008")


#: What ``importers._journal_head`` removes, as the regular expression it replaced said it.
_JOURNAL_TAIL = re.compile(
    r"[\s,;:]*(?:(?<![^\s,;:])(?:vol(?:ume)?|v|no|nr|n°|issues?|iss)\.?)?[\s,;:]*$", re.I)


@given(st.text(alphabet=st.sampled_from(list("aVvOoLlNnRrSsIiUuMmEe°.,;: \t\u00a0(1")),
               max_size=14))
def test_journal_head_removes_what_the_tail_expression_matched(text: str) -> None:
    assert _journal_head(text) == _JOURNAL_TAIL.sub("", text)


def test_journal_head_on_real_journal_references() -> None:
    refs = ["Kokyuroku, No.", "Phys. Rev. vol. ,", "Phys. Rev. vol. no.", "Phys.Rev.Lett.",
            "Physica C, V.", "Annals of Applied Probability 2007, Vol.", "J. Stat. N°",
            "Comm. Math. Phys. Issues", "Ann.Phys.;iss", "Zeitschrift für Physik, Nr.", "vol.."]
    for path in (DATA / "arxiv_metadata_snapshot.jsonl", DATA / "arxiv_abs_records.jsonl"):
        refs += re.findall(r'"journal[-_]ref":\s*"([^"]+)"', path.read_text(encoding="utf-8"))
    assert len(refs) > 20
    for ref in refs:  # every prefix: the journal part ends anywhere
        for end in range(len(ref) + 1):
            assert _journal_head(ref[:end]) == _JOURNAL_TAIL.sub("", ref[:end]), ref[:end]
    assert _journal_head("Kokyuroku, No.") == "Kokyuroku"
    assert _journal_head("Phys. Rev. vol. no.") == "Phys. Rev. vol."


@pytest.mark.parametrize("typo,expected", [
    ("Magnetic Monopoles in SU(3) Gauge Theories", "inspire:100761"),
    ("Magnetik Monopoles in SU3 gauge theory", "inspire:100761"),
    ("magnetic monopols in su(3) guage theories", "inspire:100761"),
    ("Calculation of prompt diphoton production cross-sections at Tevatron and LHC energies",
     "arxiv:0704.0001"),
    ("Calculaton of promt diphoton production cross section at Tevatron and LHC energys",
     "arxiv:0704.0001"),
    ("Extrapolation of Galactic Dust Emision at 100 Micron to Cosmic Microwave Background "
     "Radiation Frequencies using FIRAS", "bib:lsst_refs_ads_excerpt.bib:1999ApJ...524..867F"),
])
def test_search_title_tolerates_typos(index: LocalIndex, typo: str, expected: str) -> None:
    found = index.search_title(typo)
    assert found and found[0].id == expected, [(r.id, r.score) for r in found]
    assert 0.6 < found[0].score <= 1.0
    assert all(a.score >= b.score - 0.03 for a, b in zip(found, found[1:], strict=False))


def test_search_title_exact_scores_one_and_authors_break_ties(index: LocalIndex) -> None:
    found = index.search_title("Magnetic Monopoles in SU(3) Gauge Theories",
                               authors=("Corrigan",), year="1976")
    assert found[0].score == 1.0
    assert index.search_title("") == []
    assert index.search_title("zzzz qqqq xxxx") == []


def test_readonly_index_refuses_imports(built_index: Path) -> None:
    with LocalIndex.open(built_index, readonly=True) as index, pytest.raises(LocalIndexError):
        index.add_file(DATA / "openalex_works.jsonl")


def test_copied_index_keeps_answers(built_index: Path, tmp_path: Path) -> None:
    copy = tmp_path / "copy.sqlite"
    shutil.copy(built_index, copy)
    with LocalIndex.open(copy, create=False) as index:
        assert index.by_texkey("Corrigan:1975hd")


@pytest.mark.parametrize(("query", "recid"), [
    ("CERN-TH-2102", "100761"),
    ("cern th 2102", "100761"),       # case and separators do not matter
    ("MZ-TH/76/15", "111507"),        # stored as "MZ-TH 76/15" in the dump
])
def test_by_report_number(index: LocalIndex, query: str, recid: str) -> None:
    found = index.by_report(query)
    assert [r.id for r in found] == [f"inspire:{recid}"]
    assert found[0].report_numbers  # kept in the stored record for the comparison


def test_unknown_report_number(index: LocalIndex) -> None:
    assert index.by_report("CMS-PAS-XXX-99-999") == []
