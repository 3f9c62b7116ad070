"""Author-year styles of economics, the social sciences and the geosciences (econ,
ecta, apecon, agu04, ...): one reference of the sample papers as each style typesets it
(TeX Live's bibtex, 2026-12-02; the style and the key in each name). Each was a false
MINOR or MAJOR on a faithful reference; each also keeps a planted wrong field flagged."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tex.conftest import checked

ITEMS = {
    # the title quoted, its comma inside the closing quotes; "Vol. 465, No. 1, pp."
    'econ-old Du2017': '\\harvarditem[Du et~al.]{Du, Behrens and Niemeyer}{2017}{Du2017}\n'
    'Du, Xiaolong, Christoph Behrens, and Jens~C. Niemeyer (2017) ``Substructure of\n'
    '  fuzzy dark matter haloes,\'\' \\textit{Mon. Not. Roy. Astron. Soc.}, Vol. 465,\n'
    '  No. 1, pp. 941--951, DOI:\n'
    '  \\href{http://dx.doi.org/https://doi.org/10.1093/mnras/stw2724}{\\urlstyle{rm}\n'
    '  \\nolinkurl{https://doi.org/10.1093/mnras/stw2724}}.\n',
    # ", Title, Journal, 465(1), 941": the journal's "Mon." is no end of the title
    'agu04 Du2017': '\\bibitem[{\\textit{Du et~al.}(2017)\\textit{Du, Behrens, and '
    'Niemeyer}}]{Du2017}\nDu, X., C.~Behrens, and J.~C. Niemeyer (2017), Substructure of '
    'fuzzy dark\n  matter haloes, \\textit{Mon. Not. Roy. Astron. Soc.}, \\textit{465}(1),\n'
    '  941--951, \\doi{https://doi.org/10.1093/mnras/stw2724}.\n',
    # an issue before a page with a thousands separator, then an erratum's reference
    'agu04 McAllister:2015zcz': '\\bibitem[{\\textit{McAllister et~al.}(2016)\\textit{'
    'McAllister, Parker, and\n  Tobar}}]{McAllister:2015zcz}\nMcAllister, B.~T., S.~R. '
    'Parker, and M.~E. Tobar (2016), {Axion Dark Matter\n  Coupling to Resonant Photons via '
    'Magnetic Field}, \\textit{Phys. Rev. Lett.},\n  \\textit{116}(16), 161,804, '
    '\\doi{10.1103/PhysRevLett.116.161804}, [Erratum:\n  Phys.Rev.Lett. 117, 159901 (2016)].\n',
    'apecon Du2017': '\\bibitem[{Du \\textit{et~al.}(2017)Du, Behrens and Niemeyer}]{Du2017}\n'
    'Du, X., Behrens, C. and Niemeyer, J.~C. (2017) Substructure of fuzzy dark\n'
    '  matter haloes, \\textit{Mon. Not. Roy. Astron. Soc.}, \\textbf{465}, 941--951.\n',
    'ecta Du2017': '\\bibitem[\\protect\\citeauthoryear{Du, Behrens, and Niemeyer}{Du\n'
    '  et~al.}{2017}]{Du2017}\n\\textsc{Du, X., C.~Behrens, and J.~C. Niemeyer} (2017): '
    '\\enquote{Substructure\n  of fuzzy dark matter haloes,} \\emph{Mon. Not. Roy. Astron. '
    'Soc.}, 465,\n  941--951.\n',
    # every name inverted, given names written out: "Family, Given, Family, Given"
    'authordate1 Du2017': '\\bibitem[\\protect\\citename{Du {\\em et~al.}, }2017]{Du2017}\n'
    'Du, Xiaolong, Behrens, Christoph, \\& Niemeyer, Jens~C. 2017.\n'
    '\\newblock Substructure of fuzzy dark matter haloes.\n'
    '\\newblock {\\em Mon. Not. Roy. Astron. Soc.}, {\\bf 465}(1), 941--951.\n',
    # the same, and asmeconf's "Journal Vol. 465 No. 1 (2017): pp. 941--951"
    'asmeconf Du2017': '\\bibitem{Du2017}\nDu, Xiaolong, Behrens, Christoph and Niemeyer, '
    'Jens~C.\n\\newblock \\enquote{Substructure of fuzzy dark matter haloes.}\n'
    '\\newblock \\textit{Mon. Not. Roy. Astron. Soc.} Vol. 465 No.~1 (2017): pp.\n'
    '  941--951.\n\\newblock \\doi{https://doi.org/10.1093/mnras/stw2724}.\n',
    # glue and a printed number before the names: "\\hskip0.5em[8]\\hskip1.0em"; the
    # title in TeX's single quotes
    'econ-b Du2017': '\\harvarditem[Du, Behrens and Niemeyer]{Du, Behrens and Niemeyer}'
    '{2017}{Du2017}\n\\hskip0.5em[8]\\hskip1.0em \\textsc{Du, Xiaolong, Christoph Behrens, '
    '\\& Jens~C.\n  Niemeyer}, `Substructure of fuzzy dark matter haloes.\' \\textit{Mon. '
    'Not. Roy.\n  Astron. Soc.}, \\textbf{465} (1),  941--951, \\textit{2017}.\n',
    # xagsm's author index (not printed) before the reference
    'xagsm Kosower:1987em': '\\harvarditem[Kosower]{Kosower}{1987}{Kosower:1987em}\n'
    '\\authorindexentries{Kosower:1987em}{\\do{Kosower David A@Kosower, David~A.}}\n'
    'Kosower, D.~A.  (1987), `{A Natural Misalignment Mechanism}\', {\\em Nucl. Phys.\n'
    '  B} {\\bf 294},~244--252.\n',
    # harvard.sty's year in its macros, "\\harvardyearleft 2017\\harvardyearright"
    'jmr Du2017': '\\harvarditem[Du et~al.]{Du, Behrens \\harvardand\\ Niemeyer}{2017}'
    '{Du2017}\nDu, Xiaolong, Christoph Behrens \\harvardand\\ Jens~C. Niemeyer  '
    '\\harvardyearleft\n  2017\\harvardyearright , `Substructure of fuzzy dark matter '
    'haloes\', {\\em Mon.\n  Not. Roy. Astron. Soc.} {\\bf 465}(1),~941--951.\n',
}

#: A wrong field planted in each item: (what the faithful text holds, the wrong text).
WRONG = {
    "title": ("Substructure", "Superstructure"),
    "journal": ("Mon. Not. Roy. Astron. Soc.", "Phys. Rev. D"),
    "volume": ("465", "466"),
    "author": ("Niemeyer", "Neumann"),
}
WRONG_KOSOWER = {
    "title": ("Natural Misalignment", "Natural Alignment"),
    "journal": ("Nucl. Phys. B", "Phys. Lett. B"),
    "volume": ("294", "295"),
    # (no author: the key is INSPIRE's texkey of the one-author record, which the check
    # finds whatever the name; the author lists of the other items are changed instead)
}
WRONG_MCALLISTER = {
    "title": ("Resonant Photons", "Resonant Phonons"),
    "journal": ("Phys. Rev. Lett.", "Phys. Rev. D"),
    "volume": ("{116}(16)", "{118}(16)"),
    "author": ("Parker", "Walker"),
}


def _bbl(item: str) -> str:
    return "\\begin{thebibliography}{99}\n" + item + "\\end{thebibliography}\n"


@pytest.mark.parametrize("name", sorted(ITEMS))
def test_a_faithful_reference_as_the_style_prints_it_is_exact(tmp_path: Path, index: Path,
                                                              name: str) -> None:
    (entry,) = checked(tmp_path, index, "refs.bbl", _bbl(ITEMS[name]))
    assert entry["label"] == "EXACT", (entry["label"], entry.get("discrepancies"))


def _wrong(name: str) -> dict[str, tuple[str, str]]:
    return (WRONG_MCALLISTER if "McAllister" in name else
            WRONG_KOSOWER if "Kosower" in name else WRONG)


@pytest.mark.parametrize(("name", "field"), [(n, f) for n in sorted(ITEMS)
                                             for f in sorted(_wrong(n))])
def test_a_planted_wrong_field_is_still_flagged(tmp_path: Path, index: Path, name: str,
                                                field: str) -> None:
    right, wrong = _wrong(name)[field]
    item = ITEMS[name]
    head, sep, body = item.partition("\n")  # (the label holds the names too)
    body = body.replace("\n  ", " ")  # (a line break inside a journal's name)
    assert right in body, (name, field)
    (entry,) = checked(tmp_path, index, "refs.bbl",
                       _bbl(head + sep + body.replace(right, wrong)))
    assert entry["label"] in ("MINOR", "MAJOR"), (name, field, entry["label"])
