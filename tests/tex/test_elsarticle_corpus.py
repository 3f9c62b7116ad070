"""elsarticle-num's items of real INSPIRE and ADS exports, "A.~B. {Family}, C.~Name,
{Title}, Journal 9~(3) (2014) C03048.": the braced title ends the names and begins the
venue (``citecheck_tex.tex.bbl._names_braced_title``).

``data/bst_elsarticle/refs.bib`` holds twenty real entries, each a false flag of the .bbl
on 2026-12-02 (see its PROVENANCE.md); bibtex typesets them with elsarticle-num and each
item must be EXACT against an index of the .bib, as in ``python -m
bench.accuracy.bst_styles`` part two. A wrong title, author or volume in the same items
must still be flagged.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from citecheck_tex.tex.bbl import parse_bbl_text
from tests.tex.conftest import bbl_labels, bibtex_bbl, needs_bibtex

BIB = Path(__file__).parent / "data" / "bst_elsarticle" / "refs.bib"

pytestmark = needs_bibtex


def _bbl(tmp_path: Path) -> str:
    return bibtex_bbl(tmp_path, BIB, "elsarticle-num")


def _labels(tmp_path: Path, text: str) -> dict[str, tuple[str, list[str]]]:
    """Each item of ``text`` checked against an index of :data:`BIB`."""
    return bbl_labels(tmp_path, BIB, text)


def test_real_entries_typeset_by_elsarticle_num_stay_exact(tmp_path: Path) -> None:
    labels = _labels(tmp_path, _bbl(tmp_path))
    assert len(labels) == 20
    assert {k: v for k, v in labels.items() if v[0] != "EXACT"} == {}


def test_the_fields_read_from_an_item(tmp_path: Path) -> None:
    text = _bbl(tmp_path)
    entries = {e.key: e for e in parse_bbl_text(text, "paper.bbl")[0]}
    jinst = entries["2014JInst...9C3048A"].fields
    assert jinst["journal"] == "Journal of Instrumentation"
    assert jinst["title"] == "The brighter-fatter effect and pixel correlations in CCD sensors"
    assert (jinst["volume"], jinst["pages"], jinst["year"]) == ("9", "C03048", "2014")
    assert entries["1998A&AS..130...65L"].fields["journal"] == "A&AS"
    assert entries["Wu:2025kqh"].fields["author"] == "Wu, Y. and Yi and Chen and Velkovska, J."
    assert entries["1970ApJ...159..379R"].fields["author"] == "Rubin, V. C. and Ford, Jr., W. K."
    assert entries["Jurciukonis:2024hlg"].fields["volume"] == "EPS-HEP2023"


@pytest.mark.parametrize(("key", "old", "new"), [
    ("2014JInst...9C3048A", "pixel correlations", "pixel defects"),  # title
    ("Wu:2025kqh", "J.~Velkovska", "J.~Velasquez"),  # an author
    ("Anisha:2023xmh", "O.~Atkinson, ", ""),  # an author left out
    ("2015ApJ...812...18V", "812~(1) (2015) 18", "813~(1) (2015) 18"),  # the volume
    ("2014JInst...9C3048A", "Journal of Instrumentation", "Journal of Cosmology"),  # journal
    ("Carminati:2018khv", "(2018) 032016", "(2018) 032061"),  # the pages
])
def test_a_wrong_item_is_still_flagged(tmp_path: Path, key: str, old: str, new: str) -> None:
    text = _bbl(tmp_path)
    start = text.index(f"\\bibitem{{{key}}}")
    end = text.find("\\bibitem", start + 1)
    item, n = re.subn(r"\s+".join(re.escape(w) for w in old.split(" ")),  # (lines wrap)
                      new.replace("\\", "\\\\"), text[start:end], count=1)
    assert n == 1
    label, fields = _labels(tmp_path, text[:start] + item + text[end:])[key]
    assert label in ("MINOR", "MAJOR"), (label, fields)


#: Other layouts with a brace group after a comma, read as before: JHEP's \emph title and
#: linked venue (bench.accuracy.freetext_parse), agu's family-first names (TeX Live's
#: agu.bst of the sample papers), ieeetr's "{\em et~al.}" (ieeetr.bst).
OTHER_LAYOUTS = [
    ("\\bibitem{Agashe} K.~Agashe, H.~Davoudiasl and G.~Perez et~al., \\emph{Warped Gravitons"
     " at the LHC and Beyond}, \\href{https://doi.org/10.1103/physrevd.76.036006}{\\emph{Phys."
     " Rev. D} \\textbf{76} (2007) 036006}.\n",
     "Warped Gravitons at the LHC and Beyond", "Agashe"),
    ("\\bibitem[{\\textit{Kosower}(1987)}]{Kosower:1987em}\nKosower, D.~A., {A Natural "
     "Misalignment Mechanism}, \\textit{Nucl. Phys. B},\n  \\textit{294}, 244--252, "
     "\\doi{10.1016/0550-3213(87)90581-5}, 1987.\n",
     "A Natural Misalignment Mechanism", "Kosower"),
    ("\\bibitem{Barbieri2017}\nR.~Barbieri, C.~Braggio, G.~Carugno, {\\em et~al.}, ``Searching"
     " for galactic\n  axions through magnetized media: the {QUAX} proposal,'' {\\em Phys. "
     "Dark\n  Univ.}, vol.~15, p.~135, 2017.\n",
     "Searching for galactic axions through magnetized media: the QUAX proposal", "Barbieri"),
]


@pytest.mark.parametrize(("text", "title", "first"), OTHER_LAYOUTS)
def test_other_layouts_keep_their_title_and_names(text: str, title: str, first: str) -> None:
    (entry,), _ = parse_bbl_text(text, "paper.bbl")
    assert entry.fields["title"] == title
    assert entry.authors[0].family == first
