"""The cascade compares an entry's records once per new answer (issue 15: the
comparisons were a fifth of the CPU time of checking 1,000 references)."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import pytest

from citecheck_tex.config import Settings
from citecheck_tex.model import Answer, Comparison, Entry, Label, VerdictCode
from citecheck_tex.pipeline import build_queries, check_entries
from citecheck_tex.sources.local_index import LocalIndexSource
from citecheck_tex.tex.bib import parse_bib_text
from citecheck_tex.verify import policy

# Corrigan, Olive, Fairlie, Nucl. Phys. B106 (1976) 475 (tests/index/data): settled by its
# DOI (EXACT), by its journal reference with a wrong year (MINOR), by its title alone, and
# a fabricated work (MAJOR: nothing found).
BIB = """
@article{bydoi, author = {Corrigan, E. and Olive, D. I. and Fairlie, D. B. and Nuyts, J.},
  title = {Magnetic Monopoles in SU(3) Gauge Theories}, journal = {Nucl. Phys. B},
  volume = {106}, pages = {475}, year = {1976}, doi = {10.1016/0550-3213(76)90173-5}}
@article{wrongyear, author = {Corrigan, E. and Olive, D. I.},
  title = {Magnetic Monopoles in SU(3) Gauge Theories}, journal = {Nucl. Phys. B},
  volume = {106}, pages = {475}, year = {1979}}
@article{bytitle, author = {Corrigan, E.}, title = {Magnetik monopoles in SU(3) gauge theory},
  year = {1976}}
@article{fabricated, author = {Nobody, A.}, title = {Completely unrelated words nobody wrote},
  journal = {Phys. Rev. D}, volume = {1}, pages = {1}, year = {2001}}
"""


def test_each_answer_set_is_compared_once(built_index: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    entries, _ = parse_bib_text(BIB, "refs.bib")
    settings = replace(Settings(), offline=True, index_path=str(built_index),
                       cache_path="none", index_complete=True, sources=("local",))
    expected = {v.entry.key: v for v in check_entries(entries, settings)}
    compared: Counter[tuple[str, int]] = Counter()
    real = policy.compare_all

    def counting(entry: Entry, answers: Sequence[Answer]) -> list[Comparison]:
        compared[(entry.key, len(answers))] += 1
        return real(entry, answers)

    monkeypatch.setattr(policy, "compare_all", counting)
    verdicts = check_entries(entries, settings)
    assert {v.entry.key: v.label for v in verdicts} == {
        "bydoi": Label.EXACT, "wrongyear": Label.MINOR, "bytitle": Label.MINOR,
        "fabricated": Label.MAJOR}
    assert [v.label for v in verdicts] == [expected[v.entry.key].label for v in verdicts]
    assert [v.code for v in verdicts] == [expected[v.entry.key].code for v in verdicts]
    assert {key for key, _ in compared} >= {"bydoi", "wrongyear", "bytitle"}
    assert max(compared.values()) == 1, compared  # the same answers are never compared twice


def test_decide_takes_the_comparisons_it_is_given(built_index: Path) -> None:
    """policy.decide with the caller's comparisons decides as it does alone, and on them:
    given none, it finds nothing."""
    entries, _ = parse_bib_text(BIB, "refs.bib")
    settings = Settings(index_complete=True)
    source = LocalIndexSource(built_index)
    try:
        for entry in entries:
            answers = [asyncio.run(source.fetch(q)) for q in build_queries(entry).values()]
            comps = policy.compare_all(entry, answers)
            assert policy.decide(entry, answers, settings, comps) == \
                policy.decide(entry, answers, settings)
            if comps:
                assert policy.decide(entry, answers, settings, []).code is VerdictCode.NO_RECORD
    finally:
        source.close()
