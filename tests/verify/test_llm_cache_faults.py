"""Issue 12 row 7, the LLM side: the LLM cache shares the answer cache's file, and a
cache that fails is one warning, never a failed judgement (the model is asked instead)."""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from pathlib import Path

import pytest

from citecheck_tex.verify import llm
from tests.verify.llm_server import FakeChatServer
from tests.verify.records import MONOPOLES, entry
from tests.verify.test_llm import referee, settings_for

pytest.importorskip("openai")

FABRICATED = entry(title="Quantum chromodynamic monopoles in fabricated lattices")


@pytest.mark.parametrize("damage", ["wrong-table", "not-sqlite"])
def test_a_failing_llm_cache_is_one_warning_and_the_model_is_asked(
        tmp_path: Path, caplog: pytest.LogCaptureFixture, damage: str) -> None:
    cache = tmp_path / "cache.sqlite"
    if damage == "wrong-table":  # opens fine; every read and write then fails
        with sqlite3.connect(cache) as conn:
            conn.execute("CREATE TABLE llm_responses (x)")
        conn.close()
    else:
        cache.write_text("not a database\n" * 100, encoding="utf-8")
    with FakeChatServer(referee) as server, caplog.at_level(logging.WARNING):
        settings = settings_for(server, tmp_path)
        first = asyncio.run(llm.llm_judge(FABRICATED, MONOPOLES, settings))
    assert first.ok and not first.cached
    assert len(server.requests) == 1
    warnings = [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert len(warnings) == 1 and "cache" in warnings[0].getMessage()
