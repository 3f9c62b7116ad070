"""The LLM client is bounded like every other HTTP answer of a run (issue 12's size cap
and per-attempt time budget): a server that floods 30 MB or drips bytes makes the LLM
call fail, and the deterministic verdict (or the rule-based parse) stays; never MAJOR."""

from __future__ import annotations

import asyncio
from dataclasses import replace
from pathlib import Path

import pytest

from citecheck_tex.config import Settings
from citecheck_tex.llm import make_client
from citecheck_tex.model import Entry, EntryOrigin, Label, Verdict
from citecheck_tex.tex import llm_parse
from citecheck_tex.verify import llm
from citecheck_tex.verify.policy import decide
from tests.verify.hostile_llm_server import HostileChatServer
from tests.verify.records import MONOPOLES, entry

pytest.importorskip("openai")


def _settings(server: HostileChatServer, tmp_path: Path) -> Settings:
    return replace(Settings(), llm_base_url=server.base_url, llm_model="fake-judge",
                   llm_mode="judge", cache_path=str(tmp_path / "cache.sqlite"),
                   max_retries=0, timeout_s=10.0)


async def _judge_then_apply(fabricated: Entry, before: Verdict, settings: Settings, *,
                            budget_s: float) -> tuple[llm.LlmJudgement, list[object], int]:
    """The judge asked about ``fabricated`` alone, then through ``apply_llm`` with one
    client (one session): the judgement, the verdicts out, the failures counted."""
    client = make_client(settings, budget_s=budget_s)
    try:
        j = await llm.llm_judge(fabricated, MONOPOLES, settings, client=client)
        out, usage = await llm.apply_llm([(before, MONOPOLES)], settings, client=client)
    finally:
        await client.close()
    return j, list(out), usage.failures


@pytest.mark.parametrize(("mode", "why"), [
    ("flood", "an answer of more than 20 MB (20 MB seen)"),  # not the 30 MB: it stopped
    ("drip", "no complete answer within 1 s (time budget of one request)"),
])
def test_a_flooding_or_dripping_llm_server_leaves_the_verdict(
    mode: str, why: str, tmp_path: Path
) -> None:
    fabricated = entry(title="Quantum chromodynamic monopoles in fabricated lattices")
    before = decide(fabricated, [], Settings())  # nothing found: UNVERIFIED
    assert before.label is Label.UNVERIFIED

    with HostileChatServer(mode) as server:
        j, out, failures = asyncio.run(_judge_then_apply(
            fabricated, before, _settings(server, tmp_path), budget_s=1.0))
    assert not j.ok and why in j.error and j.error.startswith("AnswerRefused")
    assert out == [before] and failures == 1


def test_a_flooding_llm_server_keeps_the_rule_based_parse(tmp_path: Path) -> None:
    unsplit = entry(origin=EntryOrigin.BBL, title="", venue="", volume="", pages="", year="",
                    authors=(), fields={}, key="ref1",
                    raw_text="T. T. Wu and C. N. Yang, Phys. Rev. D 12, 3845 (1975).")
    assert llm_parse.needs_parse(unsplit)
    with HostileChatServer("flood") as server:
        out, usage = asyncio.run(llm_parse.llm_parse_entries(
            [unsplit], _settings(server, tmp_path)))
    assert out == [unsplit] and usage.failures == 1


def test_a_flooding_llm_server_is_read_once_not_once_per_retry(tmp_path: Path) -> None:
    """The SDK retries a failed attempt ``max_retries`` times; a flood is not read again
    (each retry would cost another 20 MB): one request reaches the server for the
    judge's retries and the later calls of the same session."""
    fabricated = entry(title="Quantum chromodynamic monopoles in fabricated lattices")
    before = decide(fabricated, [], Settings())

    with HostileChatServer("flood") as server:
        settings = replace(_settings(server, tmp_path), max_retries=2)
        j, _out, failures = asyncio.run(_judge_then_apply(fabricated, before, settings,
                                                          budget_s=5.0))
        served = server.requests
    assert not j.ok and failures == 1
    assert served == 1
