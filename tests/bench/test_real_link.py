"""The reference linker of the hand-judged benchmark (bench/accuracy/real_link.py).

Author strings are real stored ``authors`` values of
shared/corpus/inspire_hep_reference_strings.jsonl (INSPIRE reference lists).
"""

from __future__ import annotations

import pytest

from bench.accuracy.real_judged import render_text
from bench.accuracy.real_link import author_names, split_pubnote, surname


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
