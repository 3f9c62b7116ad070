"""SARIF 2.1.0 output validates against the official OASIS schema."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from citecheck_tex.model import Label, Problem, VerdictCode
from citecheck_tex.report.sarif import render_sarif
from tests.report.factories import run_result

SCHEMA = json.loads((Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json")
                    .read_text("utf-8"))


def _validate(doc: dict) -> None:  # type: ignore[type-arg]
    jsonschema.Draft4Validator(SCHEMA).validate(doc)


def test_valid_against_the_sarif_schema() -> None:
    doc = json.loads(render_sarif(run_result()))
    _validate(doc)
    assert doc["version"] == "2.1.0"


def test_schema_catches_a_bad_level() -> None:
    doc = json.loads(render_sarif(run_result()))
    doc["runs"][0]["results"][0]["level"] = "fatal"
    with pytest.raises(jsonschema.ValidationError):
        _validate(doc)


def test_rules_and_results() -> None:
    run = json.loads(render_sarif(run_result()))["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    ids = [r["id"] for r in rules]
    # one rule per verdict code that produces results (EXACT and SKIPPED codes do not)
    result_codes = [c.value for c in VerdictCode
                    if c.label not in (Label.EXACT, Label.SKIPPED)]
    assert ids[:len(result_codes)] == result_codes
    assert "chimera" in ids and "exact" not in ids and "ignored" not in ids
    assert "undefined-key" in ids and "unused-entry" in ids and "network" in ids
    assert len(ids) == len(set(ids))
    by_id = {r["id"]: r for r in rules}
    for code in VerdictCode:
        if code.value in by_id:
            rule = by_id[code.value]
            assert rule["help"]["text"].startswith(code.meaning)
            assert rule["shortDescription"]["text"].startswith(code.label.value + ": ")
            assert rule["defaultConfiguration"]["level"] == {
                Label.MAJOR: "error", Label.MINOR: "warning", Label.UNVERIFIED: "note"}[code.label]
    results = run["results"]
    levels = {r["properties"]["key"]: r["level"] for r in results if "properties" in r}
    assert levels == {"deOliveira:2015xxd": "warning", "Carrazza:2019efs": "warning",
                      "Smith:2021qgj": "error", "Kasieczka:2019dbj": "note"}
    codes = {r["properties"]["key"]: r["ruleId"] for r in results if "properties" in r}
    assert codes == {"deOliveira:2015xxd": "field-mismatch", "Carrazza:2019efs": "field-mismatch",
                     "Smith:2021qgj": "no-match", "Kasieczka:2019dbj": "source-failed"}
    minor = next(r for r in results if r.get("properties", {}).get("key") == "deOliveira:2015xxd")
    assert minor["properties"]["discrepancyCodes"] == ["year-off-by-one", "pages-mismatch"]
    for r in results:
        assert rules[r["ruleIndex"]]["id"] == r["ruleId"]
    smith = next(r for r in results if r.get("properties", {}).get("key") == "Smith:2021qgj")
    loc = smith["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "paper/refs.bib"
    assert loc["region"] == {"startLine": 43}


def test_absolute_paths_become_relative_to_root(tmp_path: Path) -> None:
    result = run_result()
    abs_file = str(tmp_path / "paper" / "my refs.bib")
    verdicts = tuple(replace(v, entry=replace(v.entry, file=abs_file)) for v in result.verdicts)
    result = replace(result, verdicts=verdicts, problems=(
        Problem("duplicate-key", "key x defined twice", key="x", file=abs_file, line=9),))
    doc = json.loads(render_sarif(result, root=str(tmp_path)))
    _validate(doc)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"]
            for r in doc["runs"][0]["results"]}
    assert uris == {"paper/my%20refs.bib"}
    outside = json.loads(render_sarif(result, root=str(tmp_path / "elsewhere")))
    _validate(outside)
    uri = outside["runs"][0]["results"][0]["locations"][0]["physicalLocation"][
        "artifactLocation"]["uri"]
    assert uri.startswith("file:///")


def test_problem_without_file_is_located_at_the_input() -> None:
    run = json.loads(render_sarif(run_result()))["runs"][0]
    network = next(r for r in run["results"] if r["ruleId"] == "network")
    loc = network["locations"][0]["physicalLocation"]
    assert loc["artifactLocation"]["uri"] == "paper/main.tex"
    assert "region" not in loc


def _partial(reason: str) -> object:
    """The factory run, ended early: its UNVERIFIED reference was not settled."""
    base = run_result()
    code = {"deadline": VerdictCode.UNSETTLED_DEADLINE,
            "interrupted": VerdictCode.UNSETTLED_INTERRUPTED}[reason]
    verdicts = tuple(replace(v, unsettled=True, code=code, match=None, discrepancies=(),
                             suggested=None) if v.label is Label.UNVERIFIED else v
                     for v in base.verdicts)
    return replace(base, verdicts=verdicts, partial=reason)


def test_a_complete_run_executed_successfully() -> None:
    run = json.loads(render_sarif(run_result()))["runs"][0]
    assert run["invocations"] == [{"executionSuccessful": True}]
    assert run["properties"]["partial"] is None


@pytest.mark.parametrize("reason", ["deadline", "interrupted"])
def test_a_partial_run_says_so(reason: str) -> None:
    """The JSON and HTML reports say "partial"; SARIF viewers see a run that did not
    finish and a notification naming why and how many references are open."""
    doc = json.loads(render_sarif(_partial(reason)))  # type: ignore[arg-type]
    _validate(doc)
    run = doc["runs"][0]
    (invocation,) = run["invocations"]
    assert invocation["executionSuccessful"] is False
    (note,) = invocation["toolExecutionNotifications"]
    assert note["descriptor"]["id"] == reason and note["level"] == "warning"
    assert note["message"]["text"].startswith("PARTIAL REPORT")
    assert "1 reference not yet settled is UNVERIFIED" in note["message"]["text"]
    descriptors = {n["id"] for n in run["tool"]["driver"]["notifications"]}
    assert reason in descriptors
    assert run["properties"]["partial"] == reason
