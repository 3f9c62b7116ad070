"""A collaboration that BibTeX abbreviated: an unbraced "SuperCDMS Collaboration" is read
as a given name and a family name, and a style that prints initials writes
"S.~Collaboration" (elsarticle-num of INSPIRE's HEPML.bib: SuperCDMS:2025ywe,
BOREXINO:2023pcv "T.~B. Collaboration", ATLAS:2023bzb, CMS:2019dqq, abbasi2021convolutional
were false collaboration MINORs on 2026-12-02)."""

from __future__ import annotations

import pytest

from citecheck_tex.model import DiscrepancyCode, Person
from citecheck_tex.verify.compare import match_authors


def _record_match(cited: Person, collaboration: str):  # type: ignore[no-untyped-def]
    found = (Person(f"{collaboration} Collaboration", literal=True),)
    return match_authors((cited,), False, found, False, (collaboration,))


@pytest.mark.parametrize(("cited", "collaboration"), [
    (Person("S Collaboration", literal=True), "SuperCDMS"),
    (Person("Collaboration", "S."), "SuperCDMS"),
    (Person("T. B Collaboration", literal=True), "BOREXINO"),  # "The BOREXINO Collaboration"
    (Person("Collaboration", "I."), "IceCube"),
])
def test_the_initials_of_a_collaboration_are_that_collaboration(cited: Person,
                                                                collaboration: str) -> None:
    m = _record_match(cited, collaboration)
    assert m.similarity == 1.0 and not m.notes


@pytest.mark.parametrize(("cited", "collaboration"), [
    (Person("C Collaboration", literal=True), "ATLAS"),
    (Person("Collaboration", "A. B."), "ATLAS"),
    (Person("CMS Collaboration", literal=True), "Compact Muon Solenoid"),  # no initials
])
def test_other_initials_are_another_collaboration(cited: Person, collaboration: str) -> None:
    m = _record_match(cited, collaboration)
    assert DiscrepancyCode.COLLABORATION_MISMATCH in m.kinds
