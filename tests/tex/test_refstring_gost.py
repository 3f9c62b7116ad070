"""Free-text references in the GOST 7.1 layout, as Russian and many Eastern European
physics papers print them and as their reference lists are pasted: "Names Title //
Journal. 2016. Vol. 752. P. 333.", "Title / A. B. Name, C. D. Name // Journal. — 2016. —
Т. 752, № 3. — С. 333–337.". Each reference is a real one: the sample papers' records
(``sample_papers/*/index_records*``) and two reviews in Uspekhi Fizicheskikh Nauk
(Rubakov, УФН 171 (2001) 913, "Large and infinite extra dimensions"; Rubakov and
Tinyakov, УФН 178 (2008) 785, "Infrared-modified gravities and massive gravitons"),
written the way GOST prints them. Read by the other rules, the names lost their split
("Ahn Y. H." as given "Ahn Y.", family "H."), the responsibility ran into the title and
the host was not read.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.tex.refstring import parse_reference

from .conftest import checked

CASES = [
    # vak: the first name inverted, every name after the title, "—" between the areas
    ("Ahn, Y. H. Minimal models for axion and neutrino / Y. H. Ahn, E. J. Chun // "
     "Phys. Lett. B. — 2016. — Vol. 752. — P. 333–337.",
     {"author": "Ahn, Y. H. and Chun, E. J.", "title": "Minimal models for axion and neutrino",
      "journal": "Phys. Lett. B", "year": "2016", "volume": "752", "pages": "333-337"}),
    # rusnat: names family first, no labels: "Journal. Year. Volume, issue. Pages."
    ("Du X., Behrens C., Niemeyer J. C. Substructure of fuzzy dark matter haloes // "
     "Mon. Not. Roy. Astron. Soc. 2017. 465, 1. 941–951.",
     {"author": "Du, X. and Behrens, C. and Niemeyer, J. C.",
      "title": "Substructure of fuzzy dark matter haloes", "journal": "Mon. Not. Roy. Astron. Soc",
      "year": "2017", "volume": "465", "number": "1", "pages": "941-951"}),
    # four authors or more: the title first, "[et al.]" after three names
    ("Constraints on small-field axion inflation / T. Kobayashi, A. Oikawa, N. Omoto "
     "[et al.] // Phys. Rev. D. — 2017. — Vol. 95, no. 6. — P. 063514.",
     {"author": "Kobayashi, T. and Oikawa, A. and Omoto, N. and others",
      "title": "Constraints on small-field axion inflation", "journal": "Phys. Rev. D",
      "year": "2017", "volume": "95", "number": "6", "pages": "063514"}),
    # Cyrillic: Т. (том), № (номер), С. (страницы)
    ("Рубаков В. А. Большие и бесконечные дополнительные измерения // УФН. — 2001. — "
     "Т. 171, № 9. — С. 913–938.",
     {"author": "Рубаков, В. А.", "title": "Большие и бесконечные дополнительные измерения",
      "journal": "УФН", "year": "2001", "volume": "171", "number": "9", "pages": "913-938"}),
    ("Рубаков В. А. Модификация гравитации на больших расстояниях и массивный гравитон / "
     "В. А. Рубаков, П. Г. Тиняков // УФН. — 2008. — Т. 178, № 8. — С. 785–822.",
     {"author": "Рубаков, В. А. and Тиняков, П. Г.",
      "title": "Модификация гравитации на больших расстояниях и массивный гравитон",
      "journal": "УФН", "year": "2008", "volume": "178", "number": "8", "pages": "785-822"}),
    # the head's names initials first, a host written the physics way
    ("L. Hui, J. P. Ostriker, S. Tremaine, E. Witten, Ultralight scalars as cosmological dark "
     "matter // Phys. Rev. D 95, 043541 (2017).",
     {"author": "Hui, L. and Ostriker, J. P. and Tremaine, S. and Witten, E.",
      "title": "Ultralight scalars as cosmological dark matter", "journal": "Phys. Rev. D",
      "volume": "95", "pages": "043541", "year": "2017"}),
    ("Y. H. Ahn, E. J. Chun. Minimal models for axion and neutrino // Phys. Lett. B. 2016. "
     "Vol. 752. P. 333–337.",
     {"author": "Ahn, Y. H. and Chun, E. J.", "title": "Minimal models for axion and neutrino",
      "journal": "Phys. Lett. B", "year": "2016", "volume": "752", "pages": "333-337"}),
    # a book: no host, the imprint "City: Publisher, Year" (Gorbunov and Rubakov, World
    # Scientific 2011, the English edition of their Russian textbook)
    ("Gorbunov D. S., Rubakov V. A. Introduction to the theory of the early universe: Hot big "
     "bang theory. — Singapore: World Scientific, 2011.",
     {"author": "Gorbunov, D. S. and Rubakov, V. A.", "year": "2011",
      "title": "Introduction to the theory of the early universe: Hot big bang theory",
      "address": "Singapore", "publisher": "World Scientific"}),
    # a preprint without a host: the responsibility ends the first area
    ("Janik, R. A. Gauge theory scattering from the AdS / CFT correspondence / R. A. Janik. "
     "— 1999.",
     {"author": "Janik, R. A.", "year": "1999",
      "title": "Gauge theory scattering from the AdS / CFT correspondence"}),
]


@pytest.mark.parametrize(("text", "expected"), CASES)
def test_gost_references(text: str, expected: dict[str, str]) -> None:
    assert parse_reference(text) == expected


def test_a_truncated_cyrillic_list() -> None:
    from citecheck_tex.tex.gost import initials_first_names

    # (the names of Derbin et al., JETP Lett. 95 (2012) 379, as the Russian edition prints them)
    assert initials_first_names("А. В. Дербин, И. С. Драчнев, А. С. Каюнов [и др.]") == (
        ["Дербин, А. В.", "Драчнев, И. С.", "Каюнов, А. С."], True)


def test_a_preprint_series_is_no_journal() -> None:
    # INSPIRE's reference string (inspire_hep_reference_strings.jsonl, citing record
    # 1471605): its authors, then its misc text; the JINR preprint is no journal, whose
    # name a record's journal would contradict
    got = parse_reference(
        "M.I. Krivopustov, A.V. Pavlyuk, A.I. Malakhov et al., About the first experiment on "
        "investigation of 129 I, 237 Np, 238 Pu and 239 Pu transmutation at the Nuclotron 2.52 "
        "GeV deuteron beam in neutron field generated in U/Pb assembly // Preprint JINR "
        "E1-2007-7. 2007. Dubna")
    assert "journal" not in got
    assert got["author"] == ("Krivopustov, M.I. and Pavlyuk, A.V. and Malakhov, A.I. and "
                             "others")
    assert got["title"].startswith("About the first experiment") and "//" not in got["title"]
    assert got["year"] == "2007"


def test_names_written_out_are_not_read_as_the_title() -> None:
    # rusnat prints the .bib's given names ("Niemeyer Jens C."): where the names end
    # cannot be told in free text, so neither names nor title are read, the host is
    got = parse_reference("Du Xiaolong, Behrens Christoph, Niemeyer Jens C. Substructure of "
                          "fuzzy dark matter haloes // Mon. Not. Roy. Astron. Soc. 2017. 465, "
                          "1. 941–951.")
    assert "title" not in got and "author" not in got
    assert (got["volume"], got["pages"]) == ("465", "941-951")


#: A pasted GOST list of the sample papers' references: items 1-4 faithful, item 5 with
#: the planted volume of Fang2016chiral (908 for 907), item 6 with the planted name of
#: GursoyIatrakis2017 ("Iatrakas").
GOST_LIST = """\
[1] Hui L., Ostriker J. P., Tremaine S., Witten E. Ultralight scalars as cosmological dark matter // Phys. Rev. D. 2017. Vol. 95, no. 4. P. 043541.
[2] Kosower D. A. A Natural Misalignment Mechanism // Nucl. Phys. B. — 1987. — Vol. 294. — P. 244–252.
[3] Axion Dark Matter Coupling to Resonant Photons via Magnetic Field / B. T. McAllister, S. R. Parker, M. E. Tobar // Phys. Rev. Lett. — 2016. — Vol. 116, no. 16. — P. 161804.
[4] Ahn, Y. H. Minimal models for axion and neutrino / Y. H. Ahn, E. J. Chun // Phys. Lett. B. — 2016. — V. 752. — P. 333–337.
[5] Fang Z., He S., Li D. Chiral and deconfining phase transitions from holographic QCD study // Nucl. Phys. B. — 2016. — Т. 908. — С. 187–207.
[6] Gürsoy U., Iatrakas I., Järvinen M., Nijs G. Inverse magnetic catalysis from improved holographic QCD in the Veneziano limit // JHEP. 2017. 1703. 053.
"""


def test_a_pasted_gost_list_is_exact_and_its_errors_caught(tmp_path: Path,
                                                          index: Path) -> None:
    got = {e["key"]: e for e in checked(tmp_path, index, "refs.txt", GOST_LIST,
                                        "--index-complete")}
    for key in ("1", "2", "3", "4"):
        assert got[key]["label"] == "EXACT", got[key]
    for key, fld in (("5", "volume"), ("6", "author")):
        assert got[key]["label"] in ("MINOR", "MAJOR"), got[key]
        assert [d["field"] for d in got[key]["discrepancies"]] == [fld], got[key]


#: The same list unnumbered, under its Russian heading, wrapped at 80 characters as text
#: copied from a PDF comes (the hanging indent lost). Lines open with a year ("294. —",
#: a volume) or an area's dash and names break at an initial: the list had been taken for
#: one numbered item ("294." its number) and every reference joined into it.
GOST_WRAPPED = """\
Список литературы
Hui L., Ostriker J. P., Tremaine S., Witten E. Ultralight scalars as
cosmological dark matter // Phys. Rev. D. 2017. Vol. 95, no. 4. P. 043541.
Kosower D. A. A Natural Misalignment Mechanism // Nucl. Phys. B. — 1987. — Vol.
294. — P. 244–252.
Axion Dark Matter Coupling to Resonant Photons via Magnetic Field / B. T.
McAllister, S. R. Parker, M. E. Tobar // Phys. Rev. Lett. — 2016. — Vol. 116,
no. 16. — P. 161804.
Ahn, Y. H. Minimal models for axion and neutrino / Y. H. Ahn, E. J. Chun //
Phys. Lett. B. — 2016. — V. 752. — P. 333–337.
Fang Z., He S., Li D. Chiral and deconfining phase transitions from holographic
QCD study // Nucl. Phys. B. — 2016. — Т. 908. — С. 187–207.
Gürsoy U., Iatrakas I., Järvinen M., Nijs G. Inverse magnetic catalysis from
improved holographic QCD in the Veneziano limit // JHEP. 2017. 1703. 053.
"""


def test_a_wrapped_unnumbered_gost_list_is_split_and_checked(tmp_path: Path,
                                                             index: Path) -> None:
    got = {e["key"]: e for e in checked(tmp_path, index, "refs.txt", GOST_WRAPPED,
                                        "--index-complete")}
    assert sorted(got) == ["1", "2", "3", "4", "5", "6"]
    for key in ("1", "2", "3", "4"):
        assert got[key]["label"] == "EXACT", got[key]
    for key, fld in (("5", "volume"), ("6", "author")):
        assert got[key]["label"] in ("MINOR", "MAJOR"), got[key]
        assert [d["field"] for d in got[key]["discrepancies"]] == [fld], got[key]
