"""LLM usage reaches the run's outputs: the pipeline collects it, the reports show it.

Against loopback servers only: the OpenAI-compatible ``tests/verify/llm_server.py``
and the replay server with the recorded Crossref work of
``tests/sources/test_websearch.py`` (``tests/fixtures/api/crossref.jsonl``).
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from citecheck_tex.cli import main
from citecheck_tex.llm import LlmUsage
from citecheck_tex.model import Label, Verdict
from citecheck_tex.pipeline import check_entries_async, usage_counts
from citecheck_tex.sources.http import open_http
from citecheck_tex.tex.bib import parse_bib_text
from tests.replay import ReplayServer, Reply, Request
from tests.sources.conftest import FAST, FIXTURES, PONE_BIB, PONE_TITLE, settings_for
from tests.verify.llm_server import ChatReply, FakeChatServer

ROOT = Path(__file__).resolve().parents[2]
PAPER = ROOT / "sample_papers" / "dark_matter_axions"
SCHEMA = json.loads((ROOT / "docs" / "report.schema.json").read_text("utf-8"))

BIB = PONE_BIB


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    """Crossref: recorded works by DOI; every title search finds nothing."""
    with ReplayServer() as srv:
        def search(req: Request) -> Reply | None:
            if req.path == "/works" and req.param("query.bibliographic"):
                return Reply.make(200, {"status": "ok", "message-type": "work-list",
                                        "message": {"items": []}})
            return None

        srv.add_handler(search)
        srv.add_file(FIXTURES / "crossref.jsonl")
        yield srv


def _proposal(body: dict[str, Any]) -> ChatReply:
    content = json.dumps({
        "found": True, "title": PONE_TITLE, "authors": ["Shankar Sadasivan", "Brooks B. Pond", "Amar K. Pani", "Chunxu Qu", "Yun Jiao",
                    "Richard J. Smeyne"],
        "year": "2012", "venue": "PLoS ONE", "doi": "", "arxiv_id": "",
        "url": "https://journals.plos.org/plosone/article?id=10.1371/journal.pone.0033693",
        "evidence": "fake model"})
    return ChatReply(content=content, prompt_tokens=50, completion_tokens=9)


def test_pipeline_collects_the_web_search_usage(server: ReplayServer) -> None:
    entries, _ = parse_bib_text(BIB, "refs.bib")
    with FakeChatServer(_proposal) as chat:
        settings = settings_for(server, sources=("crossref", "websearch"), cache_path="none",
                                llm_model="fake-model", llm_base_url=chat.base_url)
        usage: dict[str, LlmUsage] = {}

        async def go() -> list[Verdict]:
            async with open_http(settings, limits=FAST) as http:
                verdicts, _, _ = await check_entries_async(entries, settings, http=http,
                                                           usage=usage)
                return verdicts

        [verdict] = asyncio.run(go())
        sent = len(chat.requests)
    assert sent == 1
    assert verdict.label is Label.UNVERIFIED and verdict.match is not None
    assert verdict.match.proposed
    assert set(usage) == {"websearch"}  # the judge is off
    counts = usage_counts(usage["websearch"])
    assert counts["requests"] == sent
    assert (counts["prompt_tokens"], counts["completion_tokens"]) == (50, 9)


def _judge(body: dict[str, Any]) -> ChatReply:
    content = json.dumps({"label": "MAJOR", "score": 1, "confidence": 0.9,
                          "discrepancies": [], "rationale": "fake judge"})
    return ChatReply(content=content, prompt_tokens=100, completion_tokens=20)


def test_cli_json_report_holds_the_judge_usage(tmp_path: Path,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    index = tmp_path / "i.sqlite"
    files = sorted(str(f) for f in PAPER.glob("index_records*"))
    assert main(["index", "add", *files, "--index", str(index)]) == 0
    base = [str(PAPER / "paper.tex"), "--offline", "--index", str(index), "--cache", "none",
            "--format", "json"]
    main([*base, "--out", str(tmp_path / "plain")])
    with FakeChatServer(_judge) as chat:
        main([*base, "--out", str(tmp_path / "llm"), "--llm", "judge", "--llm-model", "fake",
              "--llm-base-url", chat.base_url])
        sent = len(chat.requests)
    plain = json.loads((tmp_path / "plain" / "report.json").read_text("utf-8"))
    judged = json.loads((tmp_path / "llm" / "report.json").read_text("utf-8"))
    for report in (plain, judged):
        jsonschema.Draft202012Validator(SCHEMA).validate(report)
    assert plain["usage"] is None
    usage = judged["usage"]
    assert sent > 0 and usage["model"] == "fake"
    assert usage["parts"]["judge"]["requests"] == usage["requests"] == sent
    assert usage["prompt_tokens"] == 100 * sent and usage["total_tokens"] == 120 * sent
