"""The JSON report honours the schema-2 contract (docs/report.schema.json), which keeps
every schema-1 key."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import jsonschema
import pytest

from citecheck_tex.model import Label
from citecheck_tex.report.json import render_json
from tests.report.factories import run_result

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "report.schema.json").read_text("utf-8")
)

CONTRACT_ENTRY_KEYS = {"key", "label", "score", "confidence", "reason", "file", "line", "cited",
                       "match", "discrepancies", "suggested", "cited_at"}
CONTRACT_MATCH_KEYS = {"source", "id", "url", "title", "authors", "year", "venue", "volume",
                       "pages", "doi", "arxiv"}


def _report() -> dict:  # type: ignore[type-arg]
    return json.loads(render_json(run_result()))


def test_schema_is_a_valid_schema() -> None:
    jsonschema.Draft202012Validator.check_schema(SCHEMA)


def test_report_validates_against_the_schema() -> None:
    jsonschema.Draft202012Validator(SCHEMA).validate(_report())


def test_schema_rejects_a_renamed_key() -> None:
    data = _report()
    data["entries"][0]["labels"] = data["entries"][0].pop("label")
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate(data)


def test_schema_rejects_an_unknown_code_or_a_missing_one() -> None:
    data = _report()
    data["entries"][0]["code"] = "year wrong"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate(data)
    data = _report()
    minor = next(e for e in data["entries"] if e["discrepancies"])
    del minor["discrepancies"][0]["code"]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate(data)


def test_contract_keys_are_all_present() -> None:
    data = _report()
    assert {"schema", "tool", "input", "offline", "summary", "entries", "problems"} <= set(data)
    assert data["schema"] == 2
    assert data["tool"] == {"name": "citecheck-tex", "version": "0.1.0"}
    assert data["summary"] == {"EXACT": 1, "MINOR": 2, "MAJOR": 1, "UNVERIFIED": 1, "SKIPPED": 1}
    for entry in data["entries"]:
        assert CONTRACT_ENTRY_KEYS <= set(entry)
        if entry["match"] is not None:
            assert CONTRACT_MATCH_KEYS <= set(entry["match"])
    assert {tuple(sorted(p)) for p in data["problems"]} == {
        ("code", "file", "key", "line", "message", "severity")}
    assert {p["code"]: p["severity"] for p in data["problems"]}["undefined-key"] == "error"


def test_entry_content() -> None:
    by_key = {e["key"]: e for e in _report()["entries"]}
    minor = by_key["deOliveira:2015xxd"]
    assert minor["label"] == "MINOR"
    assert minor["line"] == 4 and minor["file"] == "paper/refs.bib"
    assert minor["cited"]["year"] == "2015"
    assert minor["cited"]["authors"][0] == "Luke de Oliveira"
    assert minor["match"]["doi"] == "10.1007/jhep07(2016)069"
    assert minor["code"] == "field-mismatch"
    assert minor["discrepancies"][0] == {"field": "year", "cited": "2015", "found": "2016",
                                         "note": "2015 is the arXiv year",
                                         "code": "year-off-by-one",
                                         "codes": ["year-off-by-one"]}
    assert minor["suggested"]["pages"] == "069"
    assert minor["cited_at"][1] == {"file": "paper/sections/intro.tex", "line": 7,
                                    "command": "citep"}
    assert [s["status"] for s in by_key["Smith:2021qgj"]["sources"]] == [
        "found", "not_found", "rate_limited"]
    assert by_key["Smith:2021qgj"]["match"] is None
    assert by_key["Larkoski:2017jix"]["suggested"] is None


def test_unicode_is_kept_verbatim() -> None:
    text = render_json(run_result())
    assert "Frédéric" in text and "Müller" in text and "—" in text


def test_empty_run_is_valid() -> None:
    result = replace(run_result(), verdicts=(), problems=())
    data = json.loads(render_json(result))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    assert data["entries"] == [] and sum(data["summary"].values()) == 0


def test_labels_round_trip() -> None:
    labels = {e["label"] for e in _report()["entries"]}
    assert labels == {lab.value for lab in Label}
