"""Ctrl-C while an LLM call is in flight (issue 12's partial report, the LLM path): the
LLM parse of free-text references and the LLM judge. The run ends with exit 130 and
a partial report that holds every reference, never a traceback and never nothing.

The LLM is a loopback server that reads the request and holds the answer
(tests/verify/hostile_llm_server.py); the signal is sent once it has the request.
The arXiv answer is the real recorded one (tests/fixtures/api/arxiv.jsonl).
"""

from __future__ import annotations

import signal
import subprocess
from pathlib import Path

import pytest

from citecheck_tex.cli import main
from tests.replay import ReplayServer, Reply, Request
from tests.test_run_faults import _cli, _feed, _project, _report
from tests.verify.hostile_llm_server import HostileChatServer

pytest.importorskip("openai")

#: A free-text reference the rules cannot split (sent to the LLM parser) and a real one.
PAPER = r"""\documentclass{article}
\begin{document}
Monopoles \cite{wu} and walks \cite{stanley}.
\begin{thebibliography}{9}
\bibitem{wu} T. T. Wu and C. N. Yang 1975 12 3845
\bibitem{stanley} C. Stanley and T. Windisch, Heat-bath random walks with Markov bases,
  arXiv:1605.08386 (2016).
\end{thebibliography}
\end{document}
"""


def _labels(out: Path) -> dict[str, str]:
    return {e["key"]: e["label"] for e in _report(out)["entries"]}  # type: ignore[attr-defined]


def _interrupt(proc: subprocess.Popen[str], llm: HostileChatServer) -> tuple[str, str]:
    """SIGINT once the LLM server holds a request; the child's (stdout, stderr)."""
    try:
        if not llm.received.wait(60):
            proc.kill()
            pytest.fail(f"the run never asked the LLM: {proc.communicate()}")
        proc.send_signal(signal.SIGINT)
        return proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def test_ctrl_c_during_the_llm_parse_writes_every_reference(tmp_path: Path) -> None:
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    out = tmp_path / "out"
    with HostileChatServer("hold") as llm:
        proc = _cli(tmp_path, "paper.tex", "--offline", "--out", str(out), "--cache", "none",
                    "--format", "json,terminal", "--llm", "judge", "--llm-model", "fake",
                    "--llm-base-url", llm.base_url)
        stdout, stderr = _interrupt(proc, llm)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    report = _report(out)
    assert report["partial"] == {"reason": "interrupted", "unsettled": 2}
    entries = {e["key"]: e for e in report["entries"]}  # type: ignore[attr-defined]
    assert set(entries) == {"wu", "stanley"}
    assert {e["label"] for e in entries.values()} == {"UNVERIFIED"}
    assert {e["code"] for e in entries.values()} == {"unsettled-interrupted"}
    assert "PARTIAL REPORT" in stdout


def arxiv(req: Request) -> Reply:
    """The recorded arXiv feed for 1605.08386; an empty feed for any other id."""
    feed = _feed()
    if "1605.08386" in req.param("id_list"):
        return Reply.make(200, feed, content_type="application/atom+xml")
    return Reply.make(200, feed.split("<entry>")[0] + "</feed>",
                      content_type="application/atom+xml")


def test_ctrl_c_during_the_llm_judge_keeps_the_verdicts(tmp_path: Path) -> None:
    with ReplayServer() as server, HostileChatServer("hold") as llm:
        server.add_handler(arxiv)
        plain = _project(tmp_path / "plain", server, "arxiv")
        assert main([str(plain), "--out", str(tmp_path / "plain" / "out"), "--cache", "none",
                     "--format", "json"]) in (0, 1)
        expected = _labels(tmp_path / "plain" / "out")
        bib = _project(tmp_path, server, "arxiv", llm_mode="judge", llm_model="fake",
                       llm_base_url=llm.base_url)
        out = tmp_path / "out"
        proc = _cli(tmp_path, str(bib), "--out", str(out), "--cache", "none",
                    "--format", "json,terminal")
        stdout, stderr = _interrupt(proc, llm)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    report = _report(out)
    # retrieval was over: every verdict was settled; the judge's opinion is what is missing
    assert report["partial"] == {"reason": "interrupted", "unsettled": 0}
    # the deterministic verdicts, as a run without the LLM gives them
    assert _labels(out) == expected and expected["stanley"] == "EXACT"
    assert "PARTIAL REPORT" in stdout


def test_the_deadline_ends_a_held_llm_parse_with_a_partial_report(tmp_path: Path) -> None:
    """The run's deadline bounds the LLM parse too: a held answer no longer keeps the
    run waiting for the LLM client's own time-outs (minutes) past the deadline."""
    (tmp_path / "paper.tex").write_text(PAPER, encoding="utf-8")
    (tmp_path / "citecheck.toml").write_text(
        "deadline_s = 1.0\ndeadline_per_reference_s = 0.0\n", encoding="utf-8")
    out = tmp_path / "out"
    with HostileChatServer("hold") as llm:
        code = main([str(tmp_path / "paper.tex"), "--offline", "--out", str(out), "--cache",
                     "none", "--format", "json", "--llm", "judge", "--llm-model", "fake",
                     "--llm-base-url", llm.base_url])
        asked = llm.received.is_set()
    assert asked and code == 0
    report = _report(out)
    assert report["partial"] == {"reason": "deadline", "unsettled": 2}
    entries = report["entries"]
    assert [e["key"] for e in entries] == ["wu", "stanley"]  # type: ignore[attr-defined]
    assert {e["code"] for e in entries} == {"unsettled-deadline"}  # type: ignore[attr-defined]


def test_the_deadline_ends_a_held_llm_judge_with_the_verdicts(tmp_path: Path) -> None:
    with ReplayServer() as server, HostileChatServer("hold") as llm:
        server.add_handler(arxiv)
        # a loopback arXiv may answer at once (the real one: every 3 s)
        plain = _project(tmp_path / "plain", server, "arxiv", rate_limits="arxiv=50")
        main([str(plain), "--out", str(tmp_path / "plain" / "out"), "--cache", "none",
              "--format", "json"])
        expected = _labels(tmp_path / "plain" / "out")
        bib = _project(tmp_path, server, "arxiv", llm_mode="judge", llm_model="fake",
                       llm_base_url=llm.base_url, deadline_s=3.0,
                       deadline_per_reference_s=0.0, rate_limits="arxiv=50")
        out = tmp_path / "out"
        main([str(bib), "--out", str(out), "--cache", "none", "--format", "json"])
        asked = llm.received.is_set()
    assert asked
    report = _report(out)
    assert report["partial"] == {"reason": "deadline", "unsettled": 0}
    assert _labels(out) == expected and expected["stanley"] == "EXACT"
