"""The optional LLM judge against a loopback OpenAI-compatible server (no network)."""

from __future__ import annotations

import asyncio
import json
import re
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from citecheck_tex.config import Settings
from citecheck_tex.errors import UsageError
from citecheck_tex.llm import extract_json, make_client
from citecheck_tex.model import (
    Answer,
    Discrepancy,
    EntryOrigin,
    FieldCheck,
    Label,
    Query,
    QueryKind,
    Record,
    SourceStatus,
    Verdict,
    VerdictCode,
)
from citecheck_tex.tex import llm_parse
from citecheck_tex.verify import llm
from citecheck_tex.verify.policy import decide
from tests.verify.llm_server import ChatReply, FakeChatServer, user_text
from tests.verify.records import MONOPOLES, STARS, entry

pytest.importorskip("openai")


# ---------------------------------------------------------------- a fake model


def _prompt_parts(body: dict[str, Any]) -> tuple[dict[str, str], dict[str, str] | None]:
    """The citation and record JSON the judge prompt shows."""
    text = user_text(body)
    cited_block, found_block = text.split("\n\n", 1)
    cited = json.loads(cited_block.removeprefix("Citation:\n"))
    if found_block.startswith("No record"):
        return cited, None
    return cited, json.loads(found_block.split("\n", 1)[1])


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def judge_like_a_referee(body: dict[str, Any]) -> dict[str, Any]:
    """A plausible judgement built from the prompt: title mismatch is MAJOR, year MINOR."""
    cited, record = _prompt_parts(body)
    if record is None or _norm(cited.get("title", "")) != _norm(record.get("title", "")):
        return {"label": "MAJOR", "score": 1, "confidence": 0.9, "discrepancies": [
            {"field": "title", "cited": cited.get("title", ""),
             "found": (record or {}).get("title", "")}], "rationale": "No such paper."}
    years = (record.get("year") or "").split(" or ")
    if cited.get("year") and cited["year"] not in years:
        return {"label": "MINOR", "score": 7.5, "confidence": 0.8, "discrepancies": [
            {"field": "Year", "cited": cited["year"], "found": years[0]}],
            "rationale": "Wrong year."}
    return {"label": "EXACT", "score": 10, "confidence": 0.95, "discrepancies": [],
            "rationale": "All fields agree."}


def tokens_of(body: dict[str, Any], content: str) -> ChatReply:
    """Token counts derived from the request and the answer (so tests can recompute them)."""
    prompt = sum(len(m.get("content", "")) for m in body["messages"]) // 4
    return ChatReply(content=content, prompt_tokens=prompt, completion_tokens=len(content) // 4)


def referee(body: dict[str, Any]) -> ChatReply:
    """The default fake model: honours json_schema."""
    return tokens_of(body, json.dumps(judge_like_a_referee(body)))


def settings_for(server: FakeChatServer, tmp_path: Path, mode: str = "judge") -> Settings:
    """Settings pointing the LLM at the loopback server, with a private cache."""
    return replace(Settings(), llm_base_url=server.base_url, llm_model="fake-judge",
                   llm_mode=mode, cache_path=str(tmp_path / "cache.sqlite"), max_retries=0,
                   timeout_s=10.0)


FABRICATED = entry(title="Quantum chromodynamic monopoles in fabricated lattices")
WRONG_YEAR = entry(year="1979")


def exact_verdict() -> Verdict:
    """The deterministic verdict of the correct monopole citation."""
    answer = Answer("local", Query(QueryKind.TITLE, "Magnetic monopoles"), SourceStatus.FOUND,
                    (MONOPOLES,))
    return decide(entry(), [answer], Settings())


# ---------------------------------------------------------------- judge paths


def test_json_schema_path_labels_a_fabricated_title_major(tmp_path: Path) -> None:
    with FakeChatServer(referee) as server:
        j = asyncio.run(llm.llm_judge(FABRICATED, MONOPOLES, settings_for(server, tmp_path)))
    assert j.ok and j.label is Label.MAJOR and not j.cached
    assert j.discrepancies[0].field == "title"
    assert len(server.requests) == 1
    fmt = server.requests[0]["response_format"]
    assert fmt["type"] == "json_schema"
    assert fmt["json_schema"]["schema"]["required"] == list(llm.JUDGE_SCHEMA["required"])
    assert server.requests[0]["model"] == "fake-judge"


def test_minor_field_names_are_mapped_to_bibtex(tmp_path: Path) -> None:
    with FakeChatServer(referee) as server:
        j = asyncio.run(llm.llm_judge(WRONG_YEAR, MONOPOLES, settings_for(server, tmp_path)))
    assert j.label is Label.MINOR
    assert [(d.field, d.cited, d.found) for d in j.discrepancies] == [("year", "1979", "1976")]


def test_server_rejecting_json_schema_falls_back_to_json_object(tmp_path: Path) -> None:
    def picky(body: dict[str, Any]) -> ChatReply:
        if body.get("response_format", {}).get("type") == "json_schema":
            return ChatReply(status=400, error="response_format json_schema is not supported")
        return referee(body)

    pairs = [(exact_verdict(), MONOPOLES),
             (replace(exact_verdict(), entry=FABRICATED), MONOPOLES)]
    with FakeChatServer(picky) as server:
        out, usage = asyncio.run(llm.apply_llm(pairs, settings_for(server, tmp_path),
                                               concurrency=1))
    kinds = [r.get("response_format", {}).get("type") for r in server.requests]
    # the refusal is remembered: the second judgement goes straight to json_object
    assert kinds == ["json_schema", "json_object", "json_object"]
    assert usage.requests == 3 and usage.calls == 2 and usage.failures == 0
    assert [v.label for v in out] == [Label.EXACT, Label.MAJOR]


def test_plain_text_reply_with_prose_and_fence_is_extracted(tmp_path: Path) -> None:
    def chatty(body: dict[str, Any]) -> ChatReply:
        if "response_format" in body:
            return ChatReply(status=422, error="unknown field response_format")
        content = "Sure! Here is my verdict:\n```json\n" + json.dumps(
            judge_like_a_referee(body)) + "\n```\nHope this helps."
        return ChatReply(content=content)

    with FakeChatServer(chatty) as server:
        j = asyncio.run(llm.llm_judge(FABRICATED, MONOPOLES, settings_for(server, tmp_path)))
    assert j.ok and j.label is Label.MAJOR
    assert "response_format" not in server.requests[-1]


@pytest.mark.parametrize("content", [
    "I think this citation is probably fine.",
    '{"label": "PROBABLY", "score": 5}',
    "[1, 2, 3]",
    "",
])
def test_garbage_output_leaves_the_deterministic_verdict(tmp_path: Path, content: str) -> None:
    before = exact_verdict()
    with FakeChatServer(lambda body: ChatReply(content=content)) as server:
        settings = settings_for(server, tmp_path)
        out, usage = asyncio.run(llm.apply_llm([(before, MONOPOLES)], settings))
        j = asyncio.run(llm.llm_judge(entry(), MONOPOLES, settings))
    assert out == [before]
    assert usage.failures == 1 and usage.calls == 1
    assert not j.ok and j.error
    assert llm.combine(before, j, settings) is before


def test_http_500_and_dead_server_leave_the_verdict(tmp_path: Path) -> None:
    before = exact_verdict()
    with FakeChatServer(lambda body: ChatReply(status=500, error="boom")) as server:
        settings = settings_for(server, tmp_path)
        out, usage = asyncio.run(llm.apply_llm([(before, MONOPOLES)], settings))
    assert out == [before] and usage.failures == 1
    # the server is gone now: a connection error is a failure too, not an exception
    out, usage = asyncio.run(llm.apply_llm([(before, MONOPOLES)], settings))
    assert out == [before] and usage.failures == 1


# ---------------------------------------------------------------- cache and usage


def test_second_call_is_served_from_the_cache(tmp_path: Path) -> None:
    with FakeChatServer(referee) as server:
        settings = settings_for(server, tmp_path)
        first = asyncio.run(llm.llm_judge(FABRICATED, MONOPOLES, settings))
        second = asyncio.run(llm.llm_judge(FABRICATED, MONOPOLES, settings))
        assert len(server.requests) == 1
        assert second.cached and second.label is first.label
        assert second.usage.cache_hits == 1 and second.usage.requests == 0
        # another model or --refresh asks again
        asyncio.run(llm.llm_judge(FABRICATED, MONOPOLES, replace(settings, llm_model="other")))
        asyncio.run(llm.llm_judge(FABRICATED, MONOPOLES, replace(settings, refresh=True)))
        assert len(server.requests) == 3


def test_failures_are_not_cached(tmp_path: Path) -> None:
    replies = iter([ChatReply(content="no idea"), None])

    def flaky(body: dict[str, Any]) -> ChatReply:
        return next(replies) or referee(body)

    with FakeChatServer(flaky) as server:
        settings = settings_for(server, tmp_path)
        assert not asyncio.run(llm.llm_judge(FABRICATED, MONOPOLES, settings)).ok
        assert asyncio.run(llm.llm_judge(FABRICATED, MONOPOLES, settings)).ok
    assert len(server.requests) == 2


def test_offline_asks_only_the_cache_for_a_remote_server(tmp_path: Path) -> None:
    settings = replace(Settings(), llm_base_url="http://llm.example.invalid/v1",
                       llm_model="remote", llm_mode="judge", offline=True,
                       cache_path=str(tmp_path / "c.sqlite"))
    j = asyncio.run(llm.llm_judge(FABRICATED, MONOPOLES, settings))
    assert not j.ok and "offline" in j.error and j.usage.requests == 0


def test_token_and_request_accounting(tmp_path: Path) -> None:
    served: list[ChatReply] = []

    def counting(body: dict[str, Any]) -> ChatReply:
        reply = referee(body)
        served.append(reply)
        return reply

    base = exact_verdict()
    pairs = [(base, MONOPOLES), (replace(base, entry=WRONG_YEAR), MONOPOLES),
             (replace(base, entry=FABRICATED), MONOPOLES), (base, MONOPOLES)]
    with FakeChatServer(counting) as server:
        out, usage = asyncio.run(llm.apply_llm(pairs, settings_for(server, tmp_path),
                                               concurrency=1))
    assert usage.calls == 4 and usage.requests == len(served) == 3 and usage.cache_hits == 1
    assert usage.prompt_tokens == sum(r.prompt_tokens for r in served) > 0
    assert usage.completion_tokens == sum(r.completion_tokens for r in served) > 0
    assert usage.elapsed_s > 0
    assert "fake-judge" in usage.describe() and "3 requests" in usage.describe()
    assert [v.label for v in out] == [Label.EXACT, Label.MINOR, Label.MAJOR, Label.EXACT]


# ---------------------------------------------------------------- combine rules


def test_unverified_never_becomes_major(tmp_path: Path) -> None:
    unverified = Verdict(FABRICATED, Label.UNVERIFIED, 0.0, 0.0, VerdictCode.SOURCE_FAILED,
                         facts={"sources": "crossref", "resolved": "misfit"})
    assert unverified.reason == "No record fits this citation well and a source failed: crossref."
    with FakeChatServer(referee) as server:
        for mode in ("judge", "fallback"):
            out, _ = asyncio.run(llm.apply_llm([(unverified, MONOPOLES)],
                                               settings_for(server, tmp_path, mode)))
            assert out[0].label is Label.UNVERIFIED
            assert "LLM fake-judge says MAJOR" in out[0].reason
    assert len(server.requests) == 1  # the second mode reused the cached answer


def test_judge_mode_major_drops_the_correction_and_records_the_llm(tmp_path: Path) -> None:
    minor = Verdict(FABRICATED, Label.MINOR, 6.0, 0.8, VerdictCode.FIELD_MISMATCH,
                    match=MONOPOLES, discrepancies=(Discrepancy("title", "x", "y"),),
                    suggested={"title": MONOPOLES.title})
    with FakeChatServer(referee) as server:
        out, _ = asyncio.run(llm.apply_llm([(minor, MONOPOLES)], settings_for(server, tmp_path)))
    v = out[0]
    assert v.label is Label.MAJOR and v.match is None and v.suggested is None
    assert v.code is VerdictCode.LLM_MAJOR
    assert v.reason.startswith("LLM fake-judge judged MAJOR (deterministic: MINOR)")


def test_judge_mode_minor_suggests_the_record_value(tmp_path: Path) -> None:
    exact_but_wrong = replace(exact_verdict(), entry=WRONG_YEAR)
    with FakeChatServer(referee) as server:
        out, _ = asyncio.run(llm.apply_llm([(exact_but_wrong, MONOPOLES)],
                                           settings_for(server, tmp_path)))
    assert out[0].label is Label.MINOR and out[0].match == MONOPOLES
    assert out[0].suggested is not None and out[0].suggested["year"] == "1976"


def test_agreement_is_noted_in_the_reason(tmp_path: Path) -> None:
    with FakeChatServer(referee) as server:
        out, _ = asyncio.run(llm.apply_llm([(exact_verdict(), MONOPOLES)],
                                           settings_for(server, tmp_path)))
    assert out[0].label is Label.EXACT and "LLM fake-judge agrees (EXACT)" in out[0].reason
    assert out[0].code is VerdictCode.EXACT  # agreement keeps the deterministic code


def test_fallback_mode_asks_only_unsure_verdicts(tmp_path: Path) -> None:
    sure = exact_verdict()
    settings = replace(Settings(), llm_mode="fallback")
    assert sure.confidence >= llm.UNSURE_CONFIDENCE
    near_tau = replace(sure, score=settings.tau_exact - 0.5)
    low_conf = replace(sure, score=5.0, confidence=0.3)
    assert not llm.needs_llm(sure, MONOPOLES, settings)
    assert llm.needs_llm(near_tau, MONOPOLES, settings)
    assert llm.needs_llm(low_conf, MONOPOLES, settings)
    with FakeChatServer(referee) as server:
        out, usage = asyncio.run(llm.apply_llm(
            [(sure, MONOPOLES), (replace(near_tau, entry=FABRICATED), MONOPOLES)],
            settings_for(server, tmp_path, "fallback")))
    assert usage.calls == 1 and out[0] is sure and out[1].label is Label.MAJOR


def test_review_mode_only_for_reviewer_pass_cases(tmp_path: Path) -> None:
    reviewed = Verdict(entry(title="Star formation triggered by SN explosions: An application "
                             "to the stellar association of beta Pictoris", doi=STARS.doi),
                       Label.MAJOR, 0.0, 0.6, VerdictCode.IDENTIFIER_MISMATCH,
                       facts={"other_work": "Star formation triggered by SN explosions"})
    assert reviewed.reason == (
        "The cited identifier resolves to 'Star formation triggered by SN explosions', which "
        "the title and authors do not describe, and no record matches them (hijacked "
        "identifier).")
    plain_minor = Verdict(WRONG_YEAR, Label.MINOR, 8.0, 0.9, VerdictCode.FIELD_MISMATCH,
                          match=MONOPOLES)
    by_checks = replace(plain_minor, checks=(
        FieldCheck("doi", True, 1.0), FieldCheck("title", False, 0.2)))
    settings = replace(Settings(), llm_mode="review")
    assert llm.is_review_case(reviewed) and llm.is_review_case(by_checks)
    assert not llm.needs_llm(plain_minor, MONOPOLES, settings)
    assert not llm.needs_llm(exact_verdict(), MONOPOLES, settings)
    with FakeChatServer(referee) as server:
        out, usage = asyncio.run(llm.apply_llm([(reviewed, STARS), (plain_minor, MONOPOLES)],
                                               settings_for(server, tmp_path, "review")))
    # the citation's title is the record's: the second opinion says it is a real paper
    assert usage.calls == 1 and out[1] is plain_minor
    assert out[0].label is Label.MINOR and out[0].match == STARS
    assert "(deterministic: MAJOR)" in out[0].reason
    # review mode never makes a reviewer case EXACT: the identifier conflict stays
    exact = llm.LlmJudgement(True, Label.EXACT, 10.0, 0.9, model="m", record=STARS)
    kept = llm.combine(reviewed, exact, settings)
    assert kept.label is Label.MAJOR and "kept" in kept.reason
    assert kept.code is VerdictCode.IDENTIFIER_MISMATCH


def test_skipped_and_off_never_call(tmp_path: Path) -> None:
    skipped = Verdict(entry(entry_type="software"), Label.SKIPPED, 0.0, 1.0,
                      VerdictCode.NOT_SCHOLARLY)
    assert not llm.needs_llm(skipped, MONOPOLES, replace(Settings(), llm_mode="judge"))
    # mode off: no client is even built (no model configured, no server)
    out, usage = asyncio.run(llm.apply_llm([(exact_verdict(), MONOPOLES)], Settings()))
    assert usage.calls == 0 and out[0].label is Label.EXACT


# ---------------------------------------------------------------- parser fallback

APS_ITEM = ("E. Corrigan, D. I. Olive, D. B. Fairlie and J. Nuyts, Magnetic monopoles in "
            "SU(3) gauge theories, Nucl. Phys. B106 (1976) 475.")


def parser_model(body: dict[str, Any]) -> ChatReply:
    """Split the APS item by its commas, the way a model would."""
    text = user_text(body)
    m = re.match(r"(?P<a>.+?Nuyts), (?P<t>[^,]+), (?P<j>Nucl\. Phys\.) B(?P<v>\d+) "
                 r"\((?P<y>\d{4})\) (?P<p>\d+)", text)
    fields = dict.fromkeys(llm_parse.PARSE_SCHEMA["required"], "")
    if m:
        fields.update(author="Corrigan, E. and Olive, D. I. and Fairlie, D. B. and Nuyts, J.",
                      title=m["t"], journal=m["j"] + " B", volume=m["v"], year=m["y"],
                      pages=m["p"], doi="null")
    return ChatReply(content=json.dumps(fields), prompt_tokens=50, completion_tokens=20)


def test_llm_parse_reference(tmp_path: Path) -> None:
    with FakeChatServer(parser_model) as server:
        fields = asyncio.run(llm_parse.llm_parse_reference(APS_ITEM, settings_for(server, tmp_path)))
    assert fields["title"] == "Magnetic monopoles in SU(3) gauge theories"
    assert fields["volume"] == "106" and fields["pages"] == "475" and fields["year"] == "1976"
    assert "doi" not in fields and "note" not in fields  # "null" and "" are dropped
    assert server.requests[0]["response_format"]["json_schema"]["name"] == "bibtex_fields"


def test_llm_parse_entries_fills_an_unsplit_bbl_item(tmp_path: Path) -> None:
    unsplit = entry(origin=EntryOrigin.BBL, title="", venue="", volume="", pages="", year="",
                    authors=(), fields={}, raw_text=APS_ITEM, key="ref1")
    fine = entry(origin=EntryOrigin.BBL, key="ref2")
    assert llm_parse.needs_parse(unsplit) and not llm_parse.needs_parse(fine)
    with FakeChatServer(parser_model) as server:
        out, usage = asyncio.run(llm_parse.llm_parse_entries([unsplit, fine],
                                                       settings_for(server, tmp_path)))
    assert out[1] is fine and usage.calls == 1 and usage.prompt_tokens == 50
    e = out[0]
    assert e.key == "ref1" and e.origin is EntryOrigin.BBL and e.raw_text == APS_ITEM
    assert e.title.startswith("Magnetic monopoles") and e.volume == "106"
    assert [p.family for p in e.authors] == ["Corrigan", "Olive", "Fairlie", "Nuyts"]


def test_llm_parse_entries_rereads_a_poor_rule_based_parse(tmp_path: Path) -> None:
    # the rules read a journal but took the authors for the title (Entry.parse_issue)
    poor = entry(origin=EntryOrigin.TEXT, title="E. Corrigan D. Olive D. Fairlie J. Nuyts",
                 authors=(), raw_text=APS_ITEM, key="ref1",
                 fields={"title": "E. Corrigan D. Olive D. Fairlie J. Nuyts",
                         "journal": "Nucl. Phys. B", "volume": "106", "pages": "475"},
                 parse_issue="the title read looks like part of the author list")
    assert llm_parse.needs_parse(poor)
    with FakeChatServer(parser_model) as server:
        out, _ = asyncio.run(llm_parse.llm_parse_entries([poor], settings_for(server, tmp_path)))
    e = out[0]
    assert e.title.startswith("Magnetic monopoles") and not e.parse_issue
    assert [p.family for p in e.authors] == ["Corrigan", "Olive", "Fairlie", "Nuyts"]


# ---------------------------------------------------------------- pure helpers


def test_validate_judgement_clamps_and_rejects() -> None:
    v = llm.validate_judgement({"label": "minor", "score": 42, "confidence": 85,
                                "discrepancies": [{"field": "arXiv", "cited": "1", "found": "2"},
                                                  "junk", {"cited": "no field"}]})
    assert v is not None and v["label"] == "MINOR" and v["score"] == 10.0
    assert v["confidence"] == 0.85 and [d["field"] for d in v["discrepancies"]] == ["eprint"]
    low = llm.validate_judgement({"label": "EXACT", "score": -3, "confidence": "x"})
    assert low is not None and low["score"] == 0.0 and low["confidence"] == 0.5
    assert llm.validate_judgement({"label": "LIKELY", "score": 5}) is None


def test_extract_json_variants() -> None:
    assert extract_json('{"a": 1}') == {"a": 1}
    assert extract_json('```json\n{"a": 1}\n```') == {"a": 1}
    assert extract_json('Verdict: {"a": {"b": 2}} -- and {"c": 3}') == {"a": {"b": 2}}
    assert extract_json("no json here") is None


def test_missing_openai_is_a_usage_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openai", None)
    settings = replace(Settings(), llm_model="m", llm_mode="judge")
    with pytest.raises(UsageError) as err:
        make_client(settings)
    assert "citecheck-tex[llm]" in str(err.value)


def test_missing_model_is_a_usage_error() -> None:
    with pytest.raises(UsageError, match="llm_model"):
        make_client(replace(Settings(), llm_mode="judge"))


def test_record_prompt_truncates_long_author_lists() -> None:
    from citecheck_tex.model import Person

    big = Record("local", "x", title="T", authors=tuple(Person(f"A{i}") for i in range(3000)))
    shown = llm.describe_record(big)["author"]
    assert shown.count(";") == llm.MAX_AUTHORS_SHOWN and "3000 authors" in shown
