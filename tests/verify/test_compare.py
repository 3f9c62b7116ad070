"""Field comparators: formatting agrees, each corruption names its field."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck_tex.model import DiscrepancyCode, Person, Record
from citecheck_tex.verify.compare import compare, match_authors, same_initials
from tests.verify.records import STARS, entry


def _fields(entry_kw: dict[str, object], record: Record) -> set[str]:
    return {d.field for d in compare(entry(**entry_kw), record).discrepancies}


def test_formatting_is_never_an_error(monopoles: Record) -> None:
    e = entry(venue="Nucl. Phys.", volume="B106", pages="475-490", year="1975",
              authors=(Person("Corrigan", "E."), Person("Olive", "D."), Person("Fairlie", "D.")),
              authors_truncated=True, doi="https://doi.org/10.1016/0550-3213(76)90173-5")
    c = compare(e, monopoles)
    assert c.discrepancies == ()
    assert c.identity > 0.95
    assert c.score >= 9.5


def test_physical_review_spellings_agree() -> None:
    rec = Record(source="t", id="1", title="A title long enough to compare",
                 authors=(Person("Doe", "Jane"),), year="2001", venue="Phys.Rev.D",
                 volume="64", pages="012345")
    for venue in ("Phys. Rev. D", "Physical Review D", r"\prd"):
        e = entry(title="A title long enough to compare", authors=(Person("Doe", "J."),),
                  year="2001", venue=venue, volume="64", pages="012345")
        assert compare(e, rec).discrepancies == (), venue


@pytest.mark.parametrize("kw,field,code", [
    ({"year": "1979"}, "year", DiscrepancyCode.YEAR_MISMATCH),
    ({"year": "1977"}, "year", DiscrepancyCode.YEAR_OFF_BY_ONE),
    ({"volume": "107"}, "volume", DiscrepancyCode.VOLUME_MISMATCH),
    ({"pages": "476"}, "pages", DiscrepancyCode.PAGES_MISMATCH),
    ({"venue": "Phys. Lett. B"}, "journal", DiscrepancyCode.JOURNAL_MISMATCH),
    ({"doi": "10.1016/0550-3213(76)90174-5"}, "doi", DiscrepancyCode.DOI_MISMATCH),
    ({"title": "Magnetic monopoles in SU(2) gauge theories"}, "title",
     DiscrepancyCode.TITLE_MISMATCH),
])
def test_each_corruption_names_its_field(monopoles: Record, kw: dict[str, object],
                                         field: str, code: DiscrepancyCode) -> None:
    c = compare(entry(**kw), monopoles)
    assert [d.field for d in c.discrepancies] == [field]
    assert [d.code for d in c.discrepancies] == [code]
    assert c.identity > 0.6  # still clearly the same work


@pytest.mark.parametrize("authors,note,code", [
    ((Person("Corigan", "E."), Person("Olive", "D."), Person("Fairlie", "D."),
      Person("Nuyts", "J.")), "misspelt", DiscrepancyCode.AUTHOR_MISSPELT),
    ((Person("Corrigan", "E."), Person("Olive", "D."), Person("Nuyts", "J.")), "missing",
     DiscrepancyCode.AUTHOR_MISSING),
    ((Person("Olive", "D."), Person("Corrigan", "E."), Person("Fairlie", "D."),
      Person("Nuyts", "J.")), "order", DiscrepancyCode.AUTHOR_ORDER),
    ((Person("Corrigan", "K."), Person("Olive", "D."), Person("Fairlie", "D."),
      Person("Nuyts", "J.")), "initials", DiscrepancyCode.INITIAL_MISMATCH),
    ((Person("Corrigan", "E."), Person("Olive", "D."), Person("Fairlie", "D."),
      Person("Nuyts", "J."), Person("Witten", "E.")), "not in the record",
     DiscrepancyCode.AUTHOR_ADDED),
])
def test_author_problems(monopoles: Record, authors: tuple[Person, ...], note: str,
                         code: DiscrepancyCode) -> None:
    c = compare(entry(authors=authors), monopoles)
    assert [d.field for d in c.discrepancies] == ["author"]
    assert note in c.discrepancies[0].note
    assert c.discrepancies[0].codes == (code,)


def test_several_author_problems_keep_every_code(monopoles: Record) -> None:
    # misspelt, reordered and one dropped: the most serious kind is the main code
    authors = (Person("Olive", "D."), Person("Corigan", "E."), Person("Fairlie", "D."))
    d = compare(entry(authors=authors), monopoles).discrepancies[0]
    assert d.field == "author"
    assert d.code is DiscrepancyCode.AUTHOR_MISSING
    assert set(d.codes) == {DiscrepancyCode.AUTHOR_MISSING, DiscrepancyCode.AUTHOR_MISSPELT,
                            DiscrepancyCode.AUTHOR_ORDER}


def test_a_wrong_arxiv_id_is_an_arxiv_mismatch() -> None:
    e = entry(title=STARS.title, authors=STARS.authors, year="2006", arxiv="astro-ph/0608208")
    discs = compare(e, STARS).discrepancies
    assert ("eprint", DiscrepancyCode.ARXIV_MISMATCH) in [(d.field, d.code) for d in discs]


def test_particles_transliteration_and_compound_names() -> None:
    e = entry(title=STARS.title, authors=(Person("Melioli", "C."),
                                          Person("Gouveia Dal Pino", "E. M.", von="de"),
                                          Person("Reza", "R.", von="de la"),
                                          Person("Raga", "A.")),
              year="2006", venue="MNRAS", volume="373", pages="811", arxiv="astro-ph/0608207v2")
    c = compare(e, STARS)
    assert c.discrepancies == ()


def test_collaboration_matches_record_collaboration() -> None:
    rec = Record(source="t", id="1", title="Observation of a new particle in the search",
                 authors=tuple(Person(f"Name{i}", "A.") for i in range(30)),
                 collaborations=("ATLAS",), year="2012")
    m = match_authors((Person("ATLAS Collaboration", literal=True),), False, rec.authors,
                      False, rec.collaborations)
    assert m.similarity == 1.0 and not m.notes


def test_chimera_has_low_identity(monopoles: Record) -> None:
    c = compare(entry(authors=(Person("Farnsworth", "T."), Person("Qanzar", "Z."))), monopoles)
    assert c.identity < 0.5


def test_hijacked_identifier_has_low_identity(monopoles: Record) -> None:
    e = entry(title="Temporal dynamics of quantum gravitational waves with HelioTrace",
              authors=(Person("Farnsworth", "T."),), doi=monopoles.doi)
    c = compare(e, monopoles)
    assert c.identity < 0.5
    assert any(ch.field == "doi" and ch.agree for ch in c.checks)


def test_arxiv_venue_accepted_for_eprint_records() -> None:
    e = entry(title=STARS.title, authors=(Person("Melioli", "C."),), authors_truncated=True,
              year="2006", venue="arXiv", volume="", pages="", arxiv="astro-ph/0608207")
    assert compare(e, STARS).discrepancies == ()


def test_a_preprint_only_record_cannot_contradict_a_later_journal_year() -> None:
    """Real reference (INSPIRE 1184514): C. Park, Adv.High Energy Phys. 2013, 389541 (2013),
    arXiv:1209.0842; the record knows only the 2012 preprint."""
    from dataclasses import replace

    preprint = replace(STARS, venue="", volume="", pages="", doi="", year="2006",
                       other_years=())
    cited = entry(title=STARS.title, authors=STARS.authors, venue="Mon. Not. Roy. Astron. Soc.",
                  volume="373", pages="811", year="2007")
    c = compare(cited, preprint)
    year = next(f for f in c.checks if f.field == "year")
    assert year.agree is None and "preprint" in year.note
    assert "year" not in {d.field for d in c.discrepancies}
    # three years later is no longer "a year or two": a contradiction
    far = compare(replace(cited, year="2009"), preprint)
    assert "year" in {d.field for d in far.discrepancies}
    # and a record that knows the journal version still contradicts a wrong year
    assert "year" in {d.field for d in compare(cited, STARS).discrepancies}


def test_equal_report_numbers_identify_a_collaboration_note() -> None:
    """Real reference (INSPIRE 1260646) of a CMS note: the titles differ only in notation
    and wording; the report number pins the work."""
    note = Record(source="local", id="inspire:1260646",
                  title="Combined Standard Model Higgs boson searches with up to 2.3 inverse "
                        "femtobarns of pp collision data at sqrt(s)=7 TeV at the LHC",
                  collaborations=("CMS",), year="2011", report_numbers=("CMS-PAS-HIG-11-023",))
    cited = entry(entry_type="techreport", title="Combined Standard Model Higgs boson searches "
                  "with up to 2.3 fb-1 of pp collision data at √ s = 7 TeV at the LHC",
                  authors=(), venue="", volume="", pages="", year="2011",
                  fields={"number": "CMS-PAS-HIG-11-023"})
    c = compare(cited, note)
    report = next(f for f in c.checks if f.field == "report")
    assert report.agree is True and not c.discrepancies
    other = compare(cited, __import__("dataclasses").replace(
        note, report_numbers=("CMS-PAS-HIG-11-024",)))
    assert next(f for f in other.checks if f.field == "report").agree is None
    assert other.identity < c.identity


def test_report_number_helpers() -> None:
    from citecheck_tex.vocab.ids import find_report_number, looks_like_report_number

    assert looks_like_report_number("ATLAS-CONF-2012-093")
    assert looks_like_report_number("DESY 05-123")
    assert not looks_like_report_number("hep-th/9711200")
    assert not looks_like_report_number("2012") and not looks_like_report_number("Phys. Rev.")
    assert find_report_number({"number": "12"}, "article") == ""
    assert find_report_number({"number": "desy 05/123"}, "techreport") == "DESY-05-123"
    assert find_report_number({"reportnumber": "CERN-TH-2102, SLAC-PUB-1"}, "article") \
        == "CERN-TH-2102"


_NAME = st.text(alphabet=st.sampled_from(list("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéöß.- ")),
                min_size=1, max_size=12)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.tuples(_NAME, _NAME), min_size=1, max_size=6))
def test_an_author_list_always_matches_itself(names: list[tuple[str, str]]) -> None:
    """Found on HEPML.bib: "T., Srinivasan" (INSPIRE's form of some Indian names) did not
    match itself, so an entry compared with its own record was MINOR."""
    # every family name has a letter (a bare "." is no name)
    people = tuple(Person(family.strip() if any(c.isalpha() for c in family) else "X",
                          given.strip()) for family, given in names)
    m = match_authors(people, False, people, False)
    if m.similarity is not None:
        assert m.similarity == 1.0, m.notes
        assert m.matched == m.cited == m.same_people


def test_initial_as_family_name_matches_itself() -> None:
    people = (Person("T.", "Srinivasan"), Person("Desikan", "Kalyani"))
    m = match_authors(people, False, people, False)
    assert m.similarity == 1.0 and not m.notes


def test_same_initials_is_whether_two_given_names_can_be_one_person() -> None:
    wang = "Wang"
    # compatible: one initial sequence a prefix of the other, full names as initials,
    # hyphenated and dotless forms; no initials at all agree with anything
    for a, b in (("H.", "H.X."), ("H.X.", "Hong-Xia"), ("HX", "H. X."), ("Maxim", "M."),
                 ("", "P."), ("H.X.", "")):
        assert same_initials(Person(wang, a), Person(wang, b)), (a, b)
        assert same_initials(Person(wang, b), Person(wang, a)), (b, a)
    for a, b in (("H.X.", "P."), ("H.", "Peng"), ("H.X.", "H.Y."), ("Hong-Xia", "Hai-Yan")):
        assert not same_initials(Person(wang, a), Person(wang, b)), (a, b)


def test_authors_with_other_initials_are_aligned_but_not_the_same_people() -> None:
    # bench.accuracy.dataset major-0310 (a fabricated reference: a real first author,
    # an invented co-author and "H.X.Wang") against a preprint of Dvornikov with a
    # P. Wang (the 10M-record index of bench/RESULTS.md)
    cited = (Person("Dvornikov", "M."), Person("Kakanor", "K."), Person("Wang", "H.X."))
    other = (Person("Dvornikov", "Maxim"), Person("Wang", "Peng"))
    m = match_authors(cited, False, other, False)
    assert (m.cited, m.matched, m.same_people) == (3, 2, 1)
    assert DiscrepancyCode.INITIAL_MISMATCH in m.kinds  # the misprint reading stays
    # the same Wang with his initials written out, or without any: the same person
    for first in ("Hong-Xia", "H.", ""):
        m = match_authors(cited, False, (other[0], Person("Wang", first)), False)
        assert (m.matched, m.same_people) == (2, 2), first
    # a misspelt family name is checked the same way ("Dvornikow, P." is not M. Dvornikov)
    for first, same in (("P.", 1), ("Maxim", 2)):
        m = match_authors(cited, False, (Person("Dvornikow", first), Person("Wang", "H.")),
                          False)
        assert DiscrepancyCode.AUTHOR_MISSPELT in m.kinds
        assert (m.matched, m.same_people) == (2, same), first
