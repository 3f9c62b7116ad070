"""Stable reason codes: every verdict and discrepancy code is declared, documented,
rendered, and published (JSON schema, SARIF rules, README and docs/codes.md)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from citecheck_tex.model import DiscrepancyCode, Entry, Label, Verdict, VerdictCode
from citecheck_tex.reasons import INDEX_HINT, render_reason

ROOT = Path(__file__).resolve().parents[1]
KEBAB = re.compile(r"^[a-z]+(-[a-z0-9]+)*$")
ENTRY = Entry(key="k", entry_type="article", file="refs.bib", line=1, year="2013")


def test_codes_are_unique_kebab_case_and_documented() -> None:
    for enum in (VerdictCode, DiscrepancyCode):
        values = [c.value for c in enum]
        assert len(values) == len(set(values))
        for c in enum:
            assert KEBAB.match(c.value), c
            assert c.meaning and c.meaning.endswith(".") and c.__doc__ == c.meaning


def test_every_verdict_code_belongs_to_one_label_and_every_label_has_codes() -> None:
    assert {c.label for c in VerdictCode} == set(Label)
    assert VerdictCode("chimera").label is Label.MAJOR
    assert VerdictCode("index-only").label is Label.UNVERIFIED


def test_a_code_of_another_label_is_refused() -> None:
    with pytest.raises(ValueError, match="belongs to MAJOR"):
        Verdict(ENTRY, Label.MINOR, 8.0, 0.9, VerdictCode.CHIMERA)


@pytest.mark.parametrize("code", list(VerdictCode))
def test_every_verdict_code_renders_a_sentence(code: VerdictCode) -> None:
    v = Verdict(ENTRY, code.label, 5.0, 0.5, code)
    text = render_reason(v)
    assert text and (text[0].isalpha() or text[0] == "?") and "{" not in text
    assert render_reason(v, advice=False)


def test_the_index_advice_is_left_out_only_on_request() -> None:
    for code, facts in ((VerdictCode.INDEX_ONLY, {}),
                        (VerdictCode.INDEX_ONLY, {"resolved": "misfit", "fields": "year"}),
                        (VerdictCode.INDEX_ONLY, {"resolved": "other-paper",
                                                  "other_work": "Another title"}),
                        (VerdictCode.INDEX_COMPLETE_REFUTED, {}),
                        (VerdictCode.AMBIGUOUS_INCONCLUSIVE, {"n": "3", "ids": "a, b, c"})):
        v = Verdict(ENTRY, code.label, 0.0, 0.0, code, facts=facts, index_only=True)
        assert v.reason.endswith(INDEX_HINT + ".")
        short = render_reason(v, advice=False)
        assert INDEX_HINT not in short and short.endswith(".") and not short.endswith("..")


def test_the_json_schema_lists_exactly_the_model_codes() -> None:
    schema = json.loads((ROOT / "docs" / "report.schema.json").read_text("utf-8"))
    assert schema["properties"]["schema"] == {"const": 2}
    assert schema["$defs"]["verdict_code"]["enum"] == [c.value for c in VerdictCode]
    assert schema["$defs"]["discrepancy_code"]["enum"] == [c.value for c in DiscrepancyCode]


def _table_rows(text: str) -> set[tuple[str, ...]]:
    return {tuple(cell.strip() for cell in line.strip().strip("|").split("|"))
            for line in text.splitlines() if line.startswith("| `")}


def test_docs_and_readme_describe_every_code() -> None:
    docs = _table_rows((ROOT / "docs" / "codes.md").read_text("utf-8"))
    readme = _table_rows((ROOT / "README.md").read_text("utf-8"))
    for c in VerdictCode:
        row = (f"`{c.value}`", c.label.value, c.meaning)
        assert row in docs, row
        assert row in readme, row
    for d in DiscrepancyCode:
        assert (f"`{d.value}`", d.meaning) in docs, d


def test_no_code_searches_the_reason_text() -> None:
    """Decisions are read from codes: the English reason may be reworded any day."""
    verdict = r"\b(v|verdict|vd|major|minor)\.reason\b"
    pattern = re.compile(rf"""(["'][^"']*["']\s+(not\s+)?in\s+{verdict})|"""
                         rf"""({verdict}\s*(==|!=|\.startswith|\.find|\.endswith))|"""
                         r"""(in\s+\w+\.note\b)""")
    offenders = []
    for path in (ROOT / "citecheck_tex").rglob("*.py"):
        for n, line in enumerate(path.read_text("utf-8").splitlines(), 1):
            if pattern.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{n}: {line.strip()}")
    assert offenders == []


def test_a_major_of_an_unreliable_parse_keeps_what_it_would_have_been() -> None:
    """A hijacked-looking identifier in a reference the free-text parser flagged: UNVERIFIED,
    its reason that of the MAJOR it is not called (rendered from the code it records)."""
    from dataclasses import replace

    from citecheck_tex.config import Settings
    from citecheck_tex.model import Answer, Person, Query, QueryKind, SourceStatus
    from citecheck_tex.verify.policy import decide
    from tests.verify.records import MONOPOLES, entry

    cited = entry(title="Temporal dynamics of quantum gravitational waves with HelioTrace",
                  authors=(Person("Farnsworth", "T."),), doi=MONOPOLES.doi, venue="",
                  volume="", pages="")
    answers = [Answer("crossref", Query(QueryKind.DOI, MONOPOLES.doi), SourceStatus.FOUND,
                      records=(MONOPOLES,))]
    major = decide(cited, answers, Settings())
    assert major.code is VerdictCode.IDENTIFIER_MISMATCH
    v = decide(replace(cited, parse_issue="the title read looks like an author list"),
               answers, Settings())
    assert v.label is Label.UNVERIFIED and v.code is VerdictCode.UNRELIABLE_PARSE
    assert v.facts["was"] == "identifier-mismatch"
    assert v.reason == ("Could not read the reference reliably (the title read looks like an "
                        "author list); not called an error. " + major.reason)


def test_a_replacing_verdict_keeps_the_sentence_of_the_one_it_replaces() -> None:
    """An unsettled reference (deadline) or a MAJOR without the minimum evidence keeps
    what was known so far, although the discrepancies and the match are cleared."""
    from dataclasses import replace

    from citecheck_tex.model import Discrepancy, DiscrepancyCode, Record
    from citecheck_tex.reasons import wrapped_facts

    rec = Record("inspire", "1234")
    minor = Verdict(ENTRY, Label.MINOR, 8.0, 0.9, VerdictCode.FIELD_MISMATCH, match=rec,
                    discrepancies=(Discrepancy("year", "2013", "2014", "off by 1",
                                               DiscrepancyCode.YEAR_OFF_BY_ONE),))
    assert minor.reason == "Real work found in inspire (1234), but year contradicts it."
    late = replace(minor, label=Label.UNVERIFIED, code=VerdictCode.UNSETTLED_DEADLINE,
                   discrepancies=(), suggested=None, unsettled=True,
                   facts={**wrapped_facts(minor), "so_far": "field-mismatch",
                          "deadline_s": "5"})
    assert late.reason == ("Not settled: the run's deadline (5 s) passed before every source "
                           "was asked. So far: " + minor.reason)
    chimera = Verdict(ENTRY, Label.MAJOR, 7.0, 0.8, VerdictCode.CHIMERA, match=rec,
                      facts={"authors": "author 'X' not in the record"})
    few = replace(chimera, label=Label.UNVERIFIED, code=VerdictCode.TOO_FEW_SOURCES,
                  match=None, facts={**wrapped_facts(chimera), "was": "chimera",
                                     "missing": "crossref"})
    assert few.reason == (chimera.reason + " Not enough sources answered to call it "
                          "fabricated (crossref did not); not MAJOR.")
    stopped = replace(few, code=VerdictCode.UNSETTLED_INTERRUPTED,
                      facts={**wrapped_facts(few), "so_far": "too-few-sources"})
    assert stopped.reason == ("Not settled: the run was interrupted before every source was "
                              "asked. So far: " + few.reason)
