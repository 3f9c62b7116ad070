"""The local index's author+year table: keys, ranking, re-import and the v1 upgrade."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from citecheck_tex.model import Person, Query, QueryKind, Record
from citecheck_tex.sources.local_index import (
    SCHEMA_VERSION,
    LocalIndex,
    LocalIndexSource,
    author_key,
    author_year_keys,
)

from .conftest import DATA

HOD = DATA / "inspire_author_year.jsonl"  # ten real records of S. Hod, 2012-2014


@pytest.fixture()
def hod_index(tmp_path: Path) -> Path:
    path = tmp_path / "hod.sqlite"
    with LocalIndex.open(path) as index:
        assert index.add_file(HOD).records == 10
    return path


def test_author_key_golden() -> None:
    assert author_key("García-Pérez") == "garciaperez"
    assert author_key("van der Waals") == "vanderwaals"
    assert author_key("'t Hooft") == "thooft"
    assert author_key("ATLAS Collaboration") == "atlas"
    assert author_key("{CMS} Collaborations") == "cms"
    assert author_key("") == ""


def test_author_year_keys_golden() -> None:
    rec = Record("local", "x", authors=(Person("Waals", "J. D.", von="van der"),
                                        Person("Smith"), Person("Jones"), Person("Fourth")),
                 collaborations=("ATLAS Collaboration",), year="2013", other_years=("2012",),
                 extra_pubs=(("Phys.Rev.D", "1", "2", "2014"),))
    names = {"vanderwaals", "waals", "smith", "jones", "atlas"}  # not the fourth author
    assert author_year_keys(rec) == {(n, y) for n in names for y in ("2012", "2013", "2014")}
    assert author_year_keys(Record("local", "y", authors=(Person("Smith"),))) == set()


def test_by_author_year_ranks_the_fitting_publication_first(hod_index: Path) -> None:
    with LocalIndex.open(hod_index, create=False, readonly=True) as index:
        wrong_page = index.by_author_year(["Hod"], "2013", journal="Class. Quant. Grav.",
                                          volume="30", page="237003")
        wrong_volume = index.by_author_year(["Hod"], "2013", journal="Phys. Lett. B",
                                            volume="725", page="533")
        plb = index.by_author_year(["Hod"], "2013", journal="Physics Letters B")
        assert [r.id for r in wrong_page][:1] == ["inspire:1281996"]  # CQG 30, 237002
        assert [r.id for r in wrong_volume][:1] == ["inspire:1272640"]  # PLB 726, 533
        # the three Phys.Lett.B papers dated 2013 come before the other journals
        assert {r.id for r in plb[:3]} == {"inspire:1229752", "inspire:1272640",
                                           "inspire:1510386"}
        assert len(plb) == 5  # MAX_AUTHOR_YEAR_RECORDS of the eight 2013 records
        # the preprint year 2012 of a 2013 paper counts; nothing in 2011 or without a year
        assert "inspire:1229752" in [r.id for r in index.by_author_year(["Hod"], "2012")]
        assert index.by_author_year(["Hod"], "2011") == []
        assert index.by_author_year(["Hod"], "") == []
        assert index.by_author_year(["Nobody"], "2013") == []
        assert index.by_author_year([], "2013") == []


def test_source_answers_author_year_queries(hod_index: Path) -> None:
    source = LocalIndexSource(hod_index)
    assert QueryKind.AUTHOR_YEAR in source.kinds
    found = source.lookup(Query(QueryKind.AUTHOR_YEAR, "Hod 2013", authors=("Hod",),
                                year="2013", journal="JHEP"))
    assert found[0].venue == "JHEP" and found[0].volume == "1309"
    assert source.lookup(Query(QueryKind.AUTHOR_YEAR, "Hod 1990", authors=("Hod",),
                               year="1990")) == []
    source.close()


def _author_year_rows(path: Path) -> list[tuple[str, str, int]]:
    conn = sqlite3.connect(path)
    try:
        return sorted(conn.execute("SELECT name, year, rid FROM author_year").fetchall())
    finally:
        conn.close()


def test_reimport_keeps_author_year_rows_identical(hod_index: Path) -> None:
    before = _author_year_rows(hod_index)
    with LocalIndex.open(hod_index) as index:
        index.add_file(HOD)
    assert _author_year_rows(hod_index) == before
    assert len(before) == 14  # ten records, four of them dated in two years


@pytest.mark.parametrize("readonly", [False, True])
def test_version_1_index_is_upgraded_in_place(hod_index: Path, readonly: bool) -> None:
    expected = _author_year_rows(hod_index)
    conn = sqlite3.connect(hod_index)  # make it a version-1 index: no author_year table
    conn.execute("DROP TABLE author_year")
    conn.execute("DROP TABLE title_terms")  # nor the word frequencies of version 3
    conn.execute("UPDATE meta SET value='1' WHERE key='schema_version'")
    conn.commit()
    conn.close()
    with LocalIndex.open(hod_index, create=False, readonly=readonly) as index:
        assert index.stats().schema_version == SCHEMA_VERSION == "4"
        assert [r.id for r in index.by_author_year(["Hod"], "2013", journal="JHEP")][:1] == [
            "inspire:1260544"]
    assert _author_year_rows(hod_index) == expected


def test_unknown_schema_version_is_still_refused(hod_index: Path) -> None:
    from citecheck_tex.errors import LocalIndexError

    conn = sqlite3.connect(hod_index)
    conn.execute("UPDATE meta SET value='99' WHERE key='schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(LocalIndexError, match="schema version 99"):
        LocalIndex.open(hod_index, create=False)
