"""The CLI with the optional LLM judge, against a loopback OpenAI-compatible server."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from citecheck_tex.cli import main
from tests.verify.llm_server import ChatReply, FakeChatServer

ROOT = Path(__file__).resolve().parent.parent
PAPER = ROOT / "sample_papers" / "dark_matter_axions"


def _answer(body: dict[str, Any]) -> ChatReply:
    # A judge that calls everything MAJOR: it lets us see which entries were sent.
    content = json.dumps({"label": "MAJOR", "score": 1, "confidence": 0.9,
                          "discrepancies": [], "rationale": "fake judge"})
    return ChatReply(content=content, prompt_tokens=100, completion_tokens=20)


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("idx") / "i.sqlite"
    files = sorted(str(f) for f in PAPER.glob("index_records*"))
    assert main(["index", "add", *files, "--index", str(path)]) == 0
    return path


def _labels(out: Path) -> dict[str, str]:
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return {e["key"]: e["label"] for e in report["entries"]}


def test_judge_mode_consults_the_server_and_keeps_safety_rules(index: Path, tmp_path: Path,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENAI_API_KEY", "dummy")
    base = ["--offline", "--index", str(index), "--cache", str(tmp_path / "c.sqlite"),
            "--format", "json"]
    main([str(PAPER / "paper.tex"), *base, "--out", str(tmp_path / "plain")])
    plain = _labels(tmp_path / "plain")
    with FakeChatServer(_answer) as server:
        main([str(PAPER / "paper.tex"), *base, "--out", str(tmp_path / "llm"), "--llm", "judge",
              "--llm-model", "fake", "--llm-base-url", server.base_url])
        sent = len(server.requests)
    judged = _labels(tmp_path / "llm")
    assert sent > 0
    # the judge decides labels of checked entries, never of SKIPPED ones
    for key, label in plain.items():
        if label == "SKIPPED":
            assert judged[key] == "SKIPPED"
        elif label in ("EXACT", "MINOR"):
            assert judged[key] == "MAJOR"
    assert set(judged) == set(plain)


def test_without_llm_no_request_is_made(index: Path, tmp_path: Path) -> None:
    with FakeChatServer(_answer) as server:
        main([str(PAPER / "paper.tex"), "--offline", "--index", str(index), "--cache", "none",
              "--format", "json", "--out", str(tmp_path / "o"), "--llm-model", "fake",
              "--llm-base-url", server.base_url])
        assert server.requests == []  # configured but --llm is off by default
