"""``mangled-name``: names that BibTeX itself prints otherwise than written.

The names marked HEPML.bib are written so in the shared corpus's INSPIRE export
(``/work/shared/corpus/bib/HEPML.bib``), the lsst ones in its hand-written
``lsst_refs.bib``; the printed forms were read from real ``bibtex`` output
(``abbrv``, ``plain``, ``apsrev4-2``), and the last test asks bibtex again.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citecheck_tex.names import bibtex_misprints
from citecheck_tex.tex.bib import parse_bib_text

from .conftest import bibtex_bbl, needs_bibtex

# (name as written, what the warning must say, what abbrv prints, or "" when fine)
CASES = [
    # HEPML.bib gonzalez2021tackling: the family name becomes "{a}o"
    (r"R. Concei\c{c}\~{a}o", "family name becomes '{a}o'", "R. C. {a}o"),
    # HEPML.bib Goncalves:2025fpf: one initial more
    (r"Gon\c{c}alves, Jo\~ao Arruda", "print 'J. a. A.'", r"J. a. A. Gon\c{c}alves"),
    (r"Jo\~ao Silva", "family name becomes 'ao Silva'", "J. ao Silva"),
    # HEPML.bib Cogollo:2020afo; lsst_refs.bib Hohenkerk1985
    ("Freitas, F.F.", "print 'F.'", "F. Freitas"),
    ("Hohenkerk, C.Y.", "print 'C.'", "C. Hohenkerk"),
    (r"\"{O}zg\"ur Yilmaz", "lower-case particle", r"\"{O}zg\"ur Yilmaz"),
    # lsst_refs.bib peter_yoachim_2024_13985198 (a Zenodo export): the suffix read as
    # the given name
    ("Eric H. Neilsen, Jr.", "print 'J. Eric H. Neilsen' (abbreviated) or 'Jr. Eric H. "
     "Neilsen'; write 'Neilsen, Jr., Eric H.'", "J. Eric H. Neilsen"),
    ("Martin Luther King, Jr", "write 'King, Jr, Martin Luther'", "J. Martin Luther King"),
    ("Neilsen, Jr., Eric H.", "", "E. H. Neilsen, Jr"),  # (its period ends the names)
    # printed as written: a \~ inside a family part keeps its tie; braced accents
    (r"Crispim Rom\~ao, Miguel", "", r"M. Crispim Rom\~ao"),  # HEPML.bib
    (r"Garc\'\i{}a Pardi\~nas, Juli\'an", "", r"J. Garc\'\i{}a Pardi\~nas"),  # HEPML.bib
    (r"Mari{\~n}o, Javier", "", r"J. Mari{\~n}o"),
    (r"{\"O}zg\"ur Yilmaz", "", r"{\"O}. Yilmaz"),
    ("Jens~O. Andersen", "", "J. O. Andersen"),
    ("J.-F. Lyotard", "", "J.-F. Lyotard"),
    ("van der Waals, J. D.", "", "J. D. van der Waals"),
    ("ATLAS Collaboration", "", ""),  # unbraced-collaboration's business
    ("{CMS Collaboration}", "", ""),
]


@pytest.mark.parametrize(("name", "said", "printed"), CASES)
def test_what_bibtex_misprints(name: str, said: str, printed: str) -> None:
    found = bibtex_misprints(name)
    if not said:
        assert found == []
        return
    (why,) = found
    assert said in why


def test_a_bib_entry_warns_once_per_name_with_file_and_line() -> None:
    (entry,), problems = parse_bib_text(
        "% HEPML.bib Cogollo:2020afo, as INSPIRE exports it\n"
        "@article{Cogollo:2020afo,\n"
        '    author = "Cogollo, D. and Freitas, F.F. and Pires, C.A.de S.",\n'
        '    editor = "Gon\\c{c}alves, Jo\\~ao",\n'
        '    title = "{Deep learning analysis of the inverse seesaw}",\n'
        '    journal = "Phys. Lett. B", volume = "811", pages = "135931",\n'
        '    year = "2020"\n}\n', "HEPML.bib")
    found = [p for p in problems if p.code == "mangled-name"]
    assert [re.search(r"the \w+ '[^']*'", p.message).group(0) for p in found] == [
        "the author 'Freitas, F.F.'", "the author 'Pires, C.A.de S.'",
        "the editor 'Gon\\c{c}alves, Jo\\~ao'"]
    assert {(p.file, p.line, p.severity) for p in found} == {("HEPML.bib", 2, "warning")}
    assert "write them with a space, 'C. A. de'" in found[1].message


@needs_bibtex
def test_the_prints_are_bibtex_s_own(tmp_path: Path) -> None:
    """Each name through the real bibtex with abbrv: the warned ones come out as the
    warning says, the others as written."""
    bib = tmp_path / "names.bib"
    bib.write_text("".join(
        f"@article{{k{i}, author = {{{name}}}, title = {{T}}, journal = {{J}}, "
        "volume = {1}, pages = {1}, year = {2020}}\n"
        for i, (name, _, printed) in enumerate(CASES) if printed), encoding="utf-8")
    bbl = bibtex_bbl(tmp_path, bib, "abbrv")
    items = {m.group(1): " ".join(re.sub(r"(?<!\\)~", " ", m.group(2)).split())
             for m in re.finditer(r"\\bibitem\{(k\d+)\}\s*(.*?)\n\\newblock", bbl, re.S)}
    for i, (name, _, printed) in enumerate(CASES):
        if printed:
            assert items[f"k{i}"] == f"{printed}.", name
