"""Real INSPIRE and ADS entries through real bibtex, checked against themselves.

``data/bst_corpus/refs.bib`` holds thirty-nine real exported entries (see
``data/bst_corpus/PROVENANCE.md``); an index is built from that .bib, bibtex typesets it with a
style, and the .bbl must come out EXACT entry by entry, as the .bib itself does (the
method of ``python -m bench.accuracy.bst_styles --corpus`` on the whole corpus). Each
entry was a false MINOR or MAJOR of the .bbl on 2026-12-02.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tex.conftest import bbl_labels, bibtex_bbl, needs_bibtex

BIB = Path(__file__).parent / "data" / "bst_corpus" / "refs.bib"

pytestmark = needs_bibtex


#: aasjournal and mnras: INSPIRE's proceedings ("2024, in Booktitle, Vol. 6, 025004"), a
#: collaboration and a year alone ("{ATLAS Collaboration} 2024a"), PoS volumes
ASTRO = ("Aarts:2024rsl", "Akchurin:2024ffj", "Cepaitis:2024yuy", "Sarkar:2024vjz",
         "Aarts:2024agm",
         # mnras prints no article title: a conference as the journal ("Ju X., et~al., 2020,
         # {33rd Annual Conference on ...}"), a report number alone
         "Ju:2020xty", "Amrouche:2021tlm", "Farrell:2018cjr", "ATLAS-CONF-2012-107",
         # aasjournal's undated @misc: "{The Gaia Team}. ????, {Title}.", the key for
         # want of an author ("GPFS. ????, {IBM Spectrum Scale}.")
         "GPFS", "MariaDB", "GaiaSpecs")


@pytest.mark.parametrize(("style", "keys"), [("plain", None), ("plainnat", None),
                                             ("apsrev4-2", None),
                                             ("elsarticle-num", None),
                                             ("iopart-num", None),
                                             ("aasjournal", ASTRO), ("mnras", ASTRO)])
def test_real_entries_typeset_by_bibtex_stay_exact(tmp_path: Path, style: str,
                                                   keys: tuple[str, ...] | None) -> None:
    labels = bbl_labels(tmp_path, BIB, bibtex_bbl(tmp_path, BIB, style))
    assert len(labels) == 39
    assert {k: v for k, v in labels.items()
            if v[0] != "EXACT" and (keys is None or k in keys)} == {}


#: INSPIRE's mononyms inside an aasjournal list ("Rai, S., Prisha, \\& Kumar, J. 2025",
#: "Wu, Y., Yi, Chen, \\& Velkovska, J. 2025"): the list had not been read, the names had
#: become the title (false author MINORs). Two real HEPML.bib entries, copied unchanged.
MONONYMS = """@article{Rai:2025cog,
    author = "Rai, Saurabh and Prisha and Kumar, Jitendra",
    title = "{Investigating 1-Bit Quantization in Transformer-Based Top Tagging}",
    eprint = "2508.07431",
    journal="Eur.Phys.J.C",
    volume="86",
    pages="758",
    doi="10.1140/epjc/s10052-026-15985-6",
    archivePrefix = "arXiv",
    primaryClass = "hep-ph",
    month = "8",
    year = "2025"
}

@article{Wu:2025kqh,
    author = "Wu, Yilun and Yi and Chen and Velkovska, Julia",
    title = "{Validating a Machine Learning Approach to Identify Quenched Jets in Heavy-Ion Collisions}",
    eprint = "2511.04005",
    journal="JHEP",
    volume="06",
    pages="154",
    doi="10.1007/JHEP06(2026)154",
    archivePrefix = "arXiv",
    primaryClass = "hep-ph",
    month = "11",
    year = "2025"
}
"""


def test_mononyms_inside_an_aasjournal_list_stay_exact(tmp_path: Path) -> None:
    bib = tmp_path / "mononyms.bib"
    bib.write_text(MONONYMS, encoding="utf-8")
    labels = bbl_labels(tmp_path, bib, bibtex_bbl(tmp_path, bib, "aasjournal"))
    assert labels == {"Rai:2025cog": ("EXACT", []), "Wu:2025kqh": ("EXACT", [])}
