"""One session per check: the LLM parse, the cascade and the LLM judge share one event
loop, one LLM session (client, response-format level, usage) and the run's answer cache.

The observable: a server that refuses ``response_format: json_schema`` (HTTP 400) is
refused once per LLM session; the session then remembers to send ``json_object``. When
each part opened its own session (the parse, then the judge), the refusal came twice.
"""

from __future__ import annotations

import json
import sqlite3
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from citecheck_tex import pipeline
from citecheck_tex.config import Settings
from citecheck_tex.model import EntryOrigin
from citecheck_tex.sources.local_index import import_files
from citecheck_tex.tex.llm_parse import needs_parse
from citecheck_tex.tex.project import load_project
from tests.verify.llm_server import ChatReply, FakeChatServer, user_text
from tests.verify.records import entry

pytest.importorskip("openai")

APS_ITEM = ("E. Corrigan, D. I. Olive, D. B. Fairlie and J. Nuyts, Magnetic monopoles in "
            "SU(3) gauge theories, Nucl. Phys. B106 (1976) 475.")
MONOPOLES_BIB = """@article{Corrigan:1975hd,
  author = {Corrigan, Edward and Olive, David I. and Fairlie, D. B. and Nuyts, J.},
  title = {Magnetic Monopoles in SU(3) Gauge Theories},
  journal = {Nucl. Phys. B}, volume = {106}, pages = {475}, year = {1976},
  doi = {10.1016/0550-3213(76)90173-5}
}
"""


def _model(body: dict[str, Any]) -> ChatReply:
    fmt = (body.get("response_format") or {}).get("type", "")
    if fmt == "json_schema":
        return ChatReply(status=400, error="response_format json_schema is not supported")
    system = str(body["messages"][0]["content"])
    if "BibTeX fields" in system:  # the reference parser
        fields = {"author": "Corrigan, E. and Olive, D. I. and Fairlie, D. B. and Nuyts, J.",
                  "title": "Magnetic monopoles in SU(3) gauge theories",
                  "journal": "Nucl. Phys. B", "volume": "106", "pages": "475", "year": "1976"}
        assert "Corrigan" in user_text(body)
        return ChatReply(content=json.dumps(fields), prompt_tokens=30, completion_tokens=10)
    return ChatReply(content=json.dumps({"label": "EXACT", "score": 9.5, "confidence": 0.9,
                                         "discrepancies": [], "rationale": "same work"}),
                     prompt_tokens=50, completion_tokens=10)


def test_parse_and_judge_share_one_llm_session_and_the_run_cache(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(MONOPOLES_BIB, encoding="utf-8")
    index = tmp_path / "index.sqlite"
    import_files(index, [tmp_path / "refs.bib"])
    (tmp_path / "refs.txt").write_text(f"[1] {APS_ITEM}\n", encoding="utf-8")
    project = load_project(tmp_path / "refs.txt")
    # as the rule-based parser leaves an item it cannot split: no title, no journal
    unsplit = entry(origin=EntryOrigin.TEXT, title="", venue="", volume="", pages="", year="",
                    authors=(), fields={}, raw_text=APS_ITEM, key="1", file="refs.txt")
    assert needs_parse(unsplit)
    project = replace(project, entries=(unsplit,))
    cache = tmp_path / "cache.sqlite"
    with FakeChatServer(_model) as server:
        settings = replace(Settings(), offline=True, sources=("local",), index_path=str(index),
                           cache_path=str(cache), llm_mode="judge", llm_model="fake",
                           llm_base_url=server.base_url, max_retries=0, timeout_s=10.0)
        result = pipeline.check(project, settings)
        formats = [(b.get("response_format") or {}).get("type", "") for b in server.requests]
    [verdict] = result.verdicts
    assert verdict.entry.title.startswith("Magnetic monopoles")  # parsed by the LLM
    assert verdict.facts.get("llm_label") == "EXACT"  # judged by the LLM
    assert result.llm_usage is not None and set(result.llm_usage) == {"parse", "judge"}
    # one session: refused once, then json_object for the parse's retry and the judge
    assert formats == ["json_schema", "json_object", "json_object"]
    # the responses were kept in the run's answer cache file
    with sqlite3.connect(cache) as conn:
        stored = conn.execute("SELECT prompt_version FROM llm_responses ORDER BY 1").fetchall()
    assert stored == [("judge-1",), ("parse-1",)]


def test_the_run_session_opens_each_part_once_and_closes_all_after_an_error(
        tmp_path: Path) -> None:
    """A deadline, an error or Ctrl-C ends the check's loop: the HTTP client and the cache
    connection it opened are closed on the way out (and asked twice, opened once)."""
    import asyncio

    from citecheck_tex.model import Query, QueryKind

    settings = replace(Settings(), offline=True, cache_path=str(tmp_path / "cache.sqlite"))
    seen: dict[str, Any] = {}

    async def check() -> None:
        async with pipeline.open_run(settings) as run:
            seen["http"], seen["cache"] = await run.http(), run.cache()
            assert await run.http() is seen["http"] and run.cache() is seen["cache"]
            assert seen["cache"] is not None and not seen["http"].client.is_closed
            raise TimeoutError("the run's deadline passed")

    with pytest.raises(TimeoutError):
        asyncio.run(check())
    assert seen["http"].client.is_closed
    with pytest.raises(sqlite3.ProgrammingError):  # a closed connection
        seen["cache"].get_sync("crossref", "1", Query(QueryKind.DOI, "10.1/x"))
