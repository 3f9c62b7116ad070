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
