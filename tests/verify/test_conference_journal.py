"""A conference's name where the record names its proceedings' journal.

biblatex-apa's data model files an ``@inproceedings``' booktitle as the journal of an
article and drops the .bib's ``journal = "PoS"``: the real HEPML.bib entry below,
typeset by biber with ``style=apa`` (TeX Live 2026-12-02), reached the checker as the
"journal" "2025 European Physical Society Conference on High Energy Physics" against
INSPIRE's PoS EPS-HEP2025 574: a false journal MINOR (75 of HEPML.bib's 2,422 entries
through apa). A conference's name is compared as a booktitle: with volume and pages
agreeing it is no journal error; a journal the tables know is still a journal.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tex.conftest import bbl_labels

#: HEPML.bib (shared corpus), as INSPIRE exported it
BIB = r"""@inproceedings{Aboelela:2025avp,
    author = "Aboelela, Mohammed",
    title = "{Deep sets and event-level maximum-likelihood estimation for fast pile-up jet rejection in ATLAS}",
    booktitle = "{2025 European Physical Society Conference on High Energy Physics}",
    eprint = "2512.10819",
    journal="PoS",
    volume="EPS-HEP2025",
    pages="574",
    doi="10.22323/1.485.0574",
    archivePrefix = "arXiv",
    primaryClass = "hep-ex",
    reportNumber = "ATL-DAQ-PROC-2025-015",
    month = "12",
    year = "2025"
}
"""

#: its entry in the biber .bbl of ``style=apa`` (hash fields left out)
BBL = r"""\refsection{0}
  \datalist[entry]{apa/global//global/global/global}
    \entry{Aboelela:2025avp}{article}{}
      \name{author}{1}{}{%
        {{un=0,uniquepart=base,hash=1fa5499131f6f1d5766137c38ad108ac}{%
           family={Aboelela},
           familyi={A\bibinitperiod},
           given={Mohammed},
           giveni={M\bibinitperiod},
           givenun=0}}%
      }
      \field{eprintclass}{hep-ex}
      \field{eprinttype}{arXiv}
      \field{journaltitle}{{2025 European Physical Society Conference on High Energy Physics}}
      \field{month}{12}
      \field{title}{{Deep sets and event-level maximum-likelihood estimation for fast pile-up jet rejection in ATLAS}}
      \field{volume}{EPS-HEP2025}
      \field{year}{2025}
      \field{pages}{574}
      \range{pages}{1}
      \verb{doi}
      \verb 10.22323/1.485.0574
      \endverb
      \verb{eprint}
      \verb 2512.10819
      \endverb
    \endentry
  \enddatalist
\endrefsection
"""


def _label(tmp_path: Path, bbl: str) -> tuple[str, list[str]]:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    return bbl_labels(tmp_path, bib, bbl)["Aboelela:2025avp"]


def test_a_conference_as_the_journal_with_volume_and_pages_agreeing(tmp_path: Path) -> None:
    assert _label(tmp_path, BBL) == ("EXACT", [])


@pytest.mark.parametrize(("change", "field"), [
    (("{pages}{574}", "{pages}{575}"), "pages"),
    # a journal the tables know is a journal, whatever its words
    (("{{2025 European Physical Society Conference on High Energy Physics}}",
      "{{Proceedings of the National Academy of Sciences}}"), "journal"),
])
def test_a_wrong_page_or_a_real_journal_is_still_flagged(tmp_path: Path,
                                                         change: tuple[str, str],
                                                         field: str) -> None:
    label, fields = _label(tmp_path, BBL.replace(*change))
    assert label == "MINOR" and field in fields
