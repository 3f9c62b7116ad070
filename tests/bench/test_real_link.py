"""The reference linker of the hand-judged benchmark (bench/accuracy/real_link.py).

Author strings are real stored ``authors`` values of
shared/corpus/inspire_hep_reference_strings.jsonl (INSPIRE reference lists).
"""

from __future__ import annotations

import pytest

from bench.accuracy.real_judged import render_text
from bench.accuracy.real_link import World, author_names, link, refusal, split_pubnote, surname
from citecheck_tex.sources.importers import IndexRow, inspire_row


@pytest.mark.parametrize(("stored", "names"), [
    ("van Putten, M.H.P.M., Guidorzi, C., & Frontera, F.",
     ["van Putten, M.H.P.M.", "Guidorzi, C.", "Frontera, F."]),
    ("Solanki S. K., Riethmüller T. L., Barthol P. et al.",
     ["Solanki, S. K.", "Riethmüller, T. L.", "Barthol, P."]),
    ("Oonk J. B. R., van Weeren R. J., Salas P. et al.",
     ["Oonk, J. B. R.", "van Weeren, R. J.", "Salas, P."]),
    ("Bordag M, Klimchitskaya G L, Mohideen U and Mostepanenko V M",
     ["Bordag, M", "Klimchitskaya, G L", "Mohideen, U", "Mostepanenko, V M"]),
    ("A. A. Andrianov, V. A. Andrianov, D. Espriu, X. Plannels",
     ["A. A. Andrianov", "V. A. Andrianov", "D. Espriu", "X. Plannels"]),
    ("Jin, Z. P., et al.", ["Jin, Z. P."]),
])
def test_author_names_split_stored_strings(stored: str, names: list[str]) -> None:
    assert author_names(stored) == names


def test_surname_of_both_name_orders() -> None:
    assert surname("Golovanova, N.F.") == "golovanova"
    assert surname("M. A. Abolins et al.") == "abolins"


def test_split_pubnote_keeps_commas_in_journal_names() -> None:
    assert split_pubnote("Nucl.Phys.,B106,475") == ("Nucl.Phys.", "B106", "475")
    assert split_pubnote("Review of particle properties, particle data group,45,supp.s1") == (
        "Review of particle properties, particle data group", "45", "supp.s1")


def test_render_text_uses_only_stored_fields() -> None:
    stored = {"pubnote": "Nucl.Phys.,B106,475", "authors": ["Corrigan, E.", "Olive, D."],
              "year": "1976", "report_or_arxiv": "hep-th/9711200"}
    assert render_text(stored) == ("E. Corrigan and D. Olive, Nucl. Phys. B 106 (1976) 475, "
                                   "arXiv:hep-th/9711200.")


# --------------------------------------------------------------------------- refusals
# References: lines of shared/corpus/inspire_hep_reference_strings.jsonl (0-based line in
# the id, e.g. r11556 = line 11556). Records: excerpts of shared/corpus/dumps/
# inspire_literature.jsonl (author lists cut to the first names; only the fields read).

def _row(recid: str, md: dict[str, object]) -> IndexRow:
    row = inspire_row({"id": recid, "metadata": md})
    assert row is not None
    return row


def _names(*families: str) -> list[dict[str, str]]:
    return [{"full_name": f"{f}, A.", "first_name": "A.", "last_name": f} for f in families]


def _link(ref: dict[str, object], *rows: IndexRow) -> dict[str, object] | None:
    world = World()
    for row in rows:
        world.add(row)
    return link(ref, world)


# r11556: the stored record id is the Acta Phys. Polon. proceedings of the talk (record
# 1358248); the reference cites the PRL paper, which the index does not hold.
KRASZNAHORKAY_REF = {"authors": "A.J. Krasznahorkay, et al.", "inspire_recid": "1358248",
                     "pubnote": "Phys.Rev.Lett.,116,042501", "year": "2016"}
KRASZNAHORKAY_PROC = {
    "titles": [{"title": "Observation of Anomalous Internal Pair Creation in $^8$Be"}],
    "authors": _names("Krasznahorkay", "Csatlós", "Csige"),
    "dois": [{"value": "10.5506/APhysPolBSupp.8.597"}],
    "arxiv_eprints": [{"value": "1504.01527"}],
    "publication_info": [{"journal_title": "Acta Phys.Polon.Supp.", "journal_volume": "B8",
                          "page_start": "597", "year": 2015}]}


def test_a_record_id_of_another_publication_is_refused() -> None:
    row = _row("1358248", KRASZNAHORKAY_PROC)
    assert refusal(KRASZNAHORKAY_REF, row, ["recid"]).startswith("another publication")
    assert _link(KRASZNAHORKAY_REF, row) is None


def test_an_arxiv_id_still_ties_a_reference_to_a_record_of_another_journal() -> None:
    ref = {**KRASZNAHORKAY_REF, "report_or_arxiv": "arXiv:1504.01527"}
    found = _link(ref, _row("1358248", KRASZNAHORKAY_PROC))
    assert found is not None and found["linked_by"] == ["recid", "arxiv"]


# r18975 (a real error kept in the set): DOI prefix 10.1088/0067-0049 for a 2017 ApJS paper
# whose DOI is 10.3847/1538-4365/229/1/11 (record 90000182); the journal reference agrees.
# r26252 (also a real error): 'Nucl.Phys. 148, 145' without the series letter A and a DOI
# with swapped parentheses (record 1437586): volume and page agree, so it is the same work.
@pytest.mark.parametrize(("ref", "recid", "md"), [
    ({"authors": "Jafarzadeh S., Rutten R. J., Solanki S. K. et al.",
      "doi": "doi:10.1088/0067-0049/229/1/11", "pubnote": "Astrophys.J.Suppl.,229,11",
      "year": "2017"}, "90000182",
     {"titles": [{"title": "Slender Ca ii H Fibrils Mapping Magnetic Fields in the Low Solar "
                           "Chromosphere"}],
      "authors": _names("Jafarzadeh", "Rutten", "Solanki"),
      "dois": [{"value": "10.3847/1538-4365/229/1/11"}],
      "publication_info": [{"journal_title": "Astrophys.J.Supp.", "journal_volume": "229",
                            "page_start": "11", "year": 2017}]}),
    ({"authors": "B. R. Barrett and M. W. Kirson", "doi": "doi:10.1016/0375-9474)70(90617-2",
      "pubnote": "Nucl.Phys.,148,145", "year": "1970"}, "1437586",
     {"titles": [{"title": "Higher-order terms and the apparent non-convergence of the "
                           "perturbation expansion for the effective interaction in finite "
                           "nuclei"}],
      "authors": _names("Barrett", "Kirson"),
      "dois": [{"value": "10.1016/0375-9474(70)90617-2"}],
      "publication_info": [{"journal_title": "Nucl.Phys.A", "journal_volume": "148",
                            "page_start": "145", "page_end": "180", "year": 1970}]}),
])
def test_a_wrong_doi_or_journal_of_the_same_work_is_not_refused(
        ref: dict[str, object], recid: str, md: dict[str, object]) -> None:
    found = _link(ref, _row(recid, md))
    assert found is not None and found["record"] == f"inspire:{recid}"
    assert "refused" not in found


# r31147: 'Eur.Phys.J.,C76,1' (a garbled article number) is the journal reference of
# record 1261985 (Cui, Fang, Wu), while the reference is Faizal, Khalil, Das, 'Time
# crystals from minimum time uncertainty'.
def test_a_journal_reference_alone_with_other_authors_and_title_is_refused() -> None:
    ref = {"authors": "M Faizal MM Khalil S Das", "pubnote": "Eur.Phys.J.,C76,1",
           "misc": "Time crystals from minimum time uncertainty", "year": "2016"}
    md = {"titles": [{"title": "Infrared-Improved Soft-wall AdS/QCD Model for Mesons"}],
          "authors": _names("Cui", "Fang", "Wu"),
          "arxiv_eprints": [{"value": "1310.6487"}],
          "publication_info": [{"journal_title": "Eur.Phys.J.C", "journal_volume": "76",
                                "page_start": "1", "year": 2016}]}
    row = _row("1261985", md)
    assert refusal(ref, row, ["pubnote"]).startswith("journal reference alone")
    assert _link(ref, row) is None
    # the same journal reference with one of the record's authors is that record
    found = _link({**ref, "authors": "L.-X. Cui et al."}, row)
    assert found is not None and found["record"] == "inspire:1261985"
