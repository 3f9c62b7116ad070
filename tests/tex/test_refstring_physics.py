"""The rule-based citation parser on physics reference styles.

Each line is a real reference of ``/work/shared/corpus/inspire_hep_reference_strings.jsonl``
(authors, title, pubnote, year, report number, arXiv id as INSPIRE stored them),
written out in the plain-text style of physics papers by
``bench.accuracy.real_references.render_text``. Before these rules, the author lists
below were read as titles, report numbers as journal references and PoS volumes were
missed (bench/RESULTS.md, section 1c).
"""

from __future__ import annotations

import pytest

from citecheck_tex.tex.refstring import parse_reference

CASES = [
    # r06262 (two authors of one surname, different initials: both kept)
    ("A.G. Afonin, V.I. Baranov, V.T. Baranov, G.I. Britvich, A.P. Bugorskiy, M.K. Bulgakov, "
     "Y.A. Chesnokov, P.N. Chirkov et al., (in Russian), Pisma Zh. Eksp. Teor. Fiz. 96 (2012) "
     "470.",
     {"author": "A.G. Afonin and V.I. Baranov and V.T. Baranov and G.I. Britvich and "
                "A.P. Bugorskiy and M.K. Bulgakov and Y.A. Chesnokov and P.N. Chirkov and others",
      "journal": "Pisma Zh. Eksp. Teor. Fiz.", "volume": "96", "pages": "470", "year": "2012"}),
    ("J. S. O’Connell, T. W. Donnelly, J. D. Walecka, Phys.Rev. C6, 719 (1972)",
     {"author": "J. S. O’Connell and T. W. Donnelly and J. D. Walecka", "journal": "Phys.Rev.",
      "volume": "C6", "pages": "719", "year": "1972"}),
    ("Sharif, M., Saleem, R., Int.J.Mod.Phys. D21, 1250046 (2012)",
     {"author": "Sharif, M. and Saleem, R.", "journal": "Int.J.Mod.Phys.", "volume": "D21",
      "pages": "1250046", "year": "2012"}),
    ("van Putten, M.H.P.M., Guidorzi, C., & Frontera, F., Astrophys.J. 786, 146 (2014)",
     {"author": "van Putten, M.H.P.M. and Guidorzi, C. and Frontera, F.",
      "journal": "Astrophys.J.", "volume": "786", "pages": "146", "year": "2014"}),
    ("Jin, Z. P. et al., Astrophys.J. 811, L22 (2015)",
     {"author": "Jin, Z. P. and others", "journal": "Astrophys.J.", "volume": "811",
      "pages": "L22", "year": "2015"}),
    ("P. Harrison, C.H. Llewellyn Smith, Nucl.Phys. B213, 223 (1983)",
     # the two-word family name gets its comma: BibTeX reads "C.H. Llewellyn Smith" as
     # given names "C.H. Llewellyn" and family "Smith"
     {"author": "P. Harrison and Llewellyn Smith, C.H.", "journal": "Nucl.Phys.",
      "volume": "B213", "pages": "223", "year": "1983"}),
    ("E. Di Valentino, A. Melchiorri, O. Mena, JCAP 1311, 018 (2013), arXiv:1304.5981",
     {"author": "Di Valentino, E. and A. Melchiorri and O. Mena", "journal": "JCAP",
      "volume": "1311", "pages": "018", "year": "2013", "eprint": "1304.5981"}),
    ("“Status of b-tagging tools for 2011 data analysis”, CMS-PAS-BTV-11-002",
     {"title": "Status of b-tagging tools for 2011 data analysis",
      "reportnumber": "CMS-PAS-BTV-11-002", "year": "2011"}),
    ("E. Gamiz, A. Bazavov et al., PoS LATTICE2013, 395 (2013), arXiv:1311.7264",
     {"author": "E. Gamiz and A. Bazavov and others", "journal": "PoS",
      "volume": "LATTICE2013", "pages": "395", "year": "2013", "eprint": "1311.7264"}),
    ("Ackermann, M. et al., arXiv:1303.2908",
     {"author": "Ackermann, M. and others", "eprint": "1303.2908"}),
]


@pytest.mark.parametrize(("text", "expected"), CASES, ids=[c[0][:30] for c in CASES])
def test_physics_reference_styles(text: str, expected: dict[str, str]) -> None:
    assert parse_reference(text) == expected


def test_a_report_number_is_not_a_journal_reference() -> None:
    got = parse_reference("(2012), CMS-PAS-HIN-12-014")
    assert got.get("reportnumber") == "CMS-PAS-HIN-12-014"
    assert "journal" not in got and "volume" not in got


@pytest.mark.parametrize(("names", "authors"), [
    ("G Bélanger F Boudjema A Pukhov A Semenov",
     "G Bélanger and F Boudjema and A Pukhov and A Semenov"),
    ("LG Jin R Tang F Zhang", "LG Jin and R Tang and F Zhang"),
    ("S Höche Y Li S Prestel", "S Höche and Y Li and S Prestel")])
def test_names_without_separators_are_authors_not_a_title(names: str, authors: str) -> None:
    got = parse_reference(f"{names}, Phys.Rev. D91, 074015 (2015), arXiv:1405.3607")
    assert "title" not in got and got["author"] == authors
    assert (got["journal"], got["volume"], got["eprint"]) == ("Phys.Rev.", "D91", "1405.3607")


@pytest.mark.parametrize("title", ["A Search for New Physics at the LHC",
                                   "Measurement Of The W Boson Mass",
                                   "QCD At NNLO With Jets", "A Large N Expansion"])
def test_title_case_titles_stay_titles(title: str) -> None:
    got = parse_reference(f"J. Smith, {title}, Phys.Rev. D91, 074015 (2015)")
    assert got.get("title") == title


@pytest.mark.parametrize("word", ["COVID-19", "VGG-16", "SU-8"])
def test_two_part_tokens_in_titles_stay_in_the_title(word: str) -> None:
    got = parse_reference(f"A. Smith, B. Jones, “Impact of {word} on admissions”, "
                          "Lancet 395, 1234 (2020)")
    assert "reportnumber" not in got and word in got["title"]


def test_a_hyphenated_word_in_an_unquoted_title_is_no_journal_reference() -> None:
    got = parse_reference("A. Smith, B. Jones, Impact of COVID-19 on hospital admissions in "
                          "Europe, Lancet 395, 1234 (2020).")
    assert (got["journal"], got["volume"], got["pages"]) == ("Lancet", "395", "1234")
    assert got["title"] == "Impact of COVID-19 on hospital admissions in Europe"
