"""Whole runs against faulty loopback servers (issue 12, rows 1-4 and 10): a real paper
is never MAJOR because a source failed, the failure is a ``network`` problem and is not
cached, the deadline and Ctrl-C end the run with a partial report that holds every
reference, and ``--verbose`` never prints a key.

The recorded arXiv answers are real (tests/fixtures/api/arxiv.jsonl); the faults are
served by tests/replay.py. Outcomes are asserted (labels, problems, files), never
durations: time limits are set small so that the tests are quick.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from citecheck_tex.cli import main
from tests.replay import ReplayServer, Reply, Request

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures" / "api"

#: Two real arXiv papers; the recorded feed of 1605.08386 holds the first.
BIB = r"""
@article{stanley, author = {Stanley, Caprice and Windisch, Tobias},
  title = {Heat-bath random walks with {Markov} bases}, year = {2016}, eprint = {1605.08386}}
@article{other, author = {Farnsworth, Q. and Qanzar, L.},
  title = {Temporal Dynamics of Waves}, year = {2016}, eprint = {1602.07451}}
"""

#: A computer-science paper (DBLP is asked only about those, sources/plan.py ROUTES).
CS_ENTRY = r"""
@inproceedings{vaswani, author = {Vaswani, Ashish and Shazeer, Noam},
  title = {Attention Is All You Need}, year = {2017},
  booktitle = {Advances in Neural Information Processing Systems}}
"""

GATEWAY = ("<!DOCTYPE html><html><head><title>502 Bad Gateway</title></head>"
           "<body>nginx</body></html>")
NON_ANSWERS = {
    "html": (GATEWAY, "text/html"),
    "error-json": ('{"status": "error", "message": "backend unavailable"}', "application/json"),
    "error-xml": ("<error>maintenance</error>", "application/xml"),
}


def _feed() -> str:
    for line in (FIXTURES / "arxiv.jsonl").read_text(encoding="utf-8").splitlines():
        rec = json.loads(line)
        if "id_list=1605.08386" in rec["request_url"]:
            return str(rec["body_text"])
    raise KeyError("1605.08386")


def _project(tmp_path: Path, server: ReplayServer, sources: str, **settings: object) -> Path:
    """A paper folder whose citecheck.toml points every source at ``server``."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    (tmp_path / "refs.bib").write_text(BIB, encoding="utf-8")
    values: dict[str, object] = {"max_retries": 0, "timeout_s": 5.0, **settings}
    lines = [f"sources = [{', '.join(repr(s) for s in sources.split(','))}]"]
    lines += [f"{k} = {json.dumps(v)}" for k, v in values.items()]
    lines.append("[base_urls]")
    lines += [f'{name} = "{url}"' for name, url in server.base_urls().items()]
    (tmp_path / "citecheck.toml").write_text("\n".join(lines) + "\n", encoding="utf-8")
    return tmp_path / "refs.bib"


def _report(out: Path) -> dict[str, object]:
    return json.loads((out / "report.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    with ReplayServer() as srv:
        yield srv


@pytest.mark.parametrize("mode", sorted(NON_ANSWERS))
@pytest.mark.parametrize("source", ["arxiv", "inspire", "semanticscholar", "openalex", "dblp"])
def test_an_error_with_http_200_is_unverified_and_not_cached(
    source: str, mode: str, server: ReplayServer, tmp_path: Path
) -> None:
    """Row 1: real papers became MAJOR (exit 1), no network problem, and the "not found"
    was cached for a day."""
    body, ctype = NON_ANSWERS[mode]
    server.add_handler(lambda req: Reply.make(200, body, content_type=ctype))
    bib = _project(tmp_path, server, source)
    if source == "dblp":
        bib.write_text(BIB + CS_ENTRY, encoding="utf-8")
    cache = tmp_path / "cache.sqlite"
    code = main([str(bib), "--out", str(tmp_path / "out"), "--cache", str(cache),
                 "--format", "json"])
    report = _report(tmp_path / "out")
    labels = {e["key"]: e["label"] for e in report["entries"]}  # type: ignore[attr-defined]
    assert set(labels.values()) == {"UNVERIFIED"}
    assert {"stanley", "other"} <= set(labels)
    assert code == 0
    network = [p["message"] for p in report["problems"]  # type: ignore[attr-defined]
               if p["code"] == "network"]
    assert len(network) == 1 and network[0].startswith(f"source {source} failed")
    assert "not an answer of the API" in network[0]
    with sqlite3.connect(cache) as db:
        assert db.execute("SELECT COUNT(*) FROM answers").fetchone()[0] == 0


def test_after_a_fault_the_next_run_asks_again(server: ReplayServer, tmp_path: Path) -> None:
    """The failure was not cached: once arXiv answers, the real paper is EXACT."""
    feed = _feed()
    broken = [True]

    def handler(req: Request) -> Reply:
        if broken[0]:
            return Reply.make(200, "<error>maintenance</error>", content_type="application/xml")
        ids = req.param("id_list")
        if "1605.08386" in ids:
            return Reply.make(200, feed, content_type="application/atom+xml")
        empty = feed.split("<entry>")[0] + "</feed>"
        return Reply.make(200, empty, content_type="application/atom+xml")

    server.add_handler(handler)
    bib = _project(tmp_path, server, "arxiv")
    args = [str(bib), "--out", str(tmp_path / "out"), "--cache", str(tmp_path / "c.sqlite"),
            "--format", "json"]
    main(args)
    assert {e["label"] for e in _report(tmp_path / "out")["entries"]} == {  # type: ignore[attr-defined]
        "UNVERIFIED"}
    broken[0] = False
    main(args)
    labels = {e["key"]: e["label"] for e in _report(tmp_path / "out")["entries"]}  # type: ignore[attr-defined]
    assert labels["stanley"] == "EXACT"


@pytest.mark.parametrize("retry_after", ["3600", "Thu, 01 Jan 2099 00:00:00 GMT"])
def test_every_source_throttling_for_hours_ends_the_run_at_once(
    retry_after: str, server: ReplayServer, tmp_path: Path
) -> None:
    """Row 2/3: every later request waited the Retry-After out."""
    server.add_handler(lambda req: Reply.make(429, "Too Many Requests",
                                              headers={"Retry-After": retry_after}))
    bib = _project(tmp_path, server, "arxiv,crossref,inspire,semanticscholar,openalex,dblp",
                   deadline_s=60.0, deadline_per_reference_s=0.0)
    main([str(bib), "--out", str(tmp_path / "out"), "--cache", "none", "--format", "json"])
    report = _report(tmp_path / "out")
    assert report["partial"] is None  # ended by giving the sources up, not by the deadline
    assert {e["label"] for e in report["entries"]} == {"UNVERIFIED"}  # type: ignore[attr-defined]
    network = [p["message"] for p in report["problems"]  # type: ignore[attr-defined]
               if p["code"] == "network"]
    assert network and all("Retry after" in m for m in network)
    # each source was asked at most once per reference (those already in flight), then
    # given up
    assert server.count() <= 2 * 6


def _stall(req: Request) -> Reply:
    time.sleep(2.0)
    return Reply.make(503, "busy")


def test_the_deadline_ends_the_run_with_a_partial_report(
    server: ReplayServer, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Row 3: 40 references unfinished after 25 minutes; now the run ends at its
    deadline and the report holds every reference. Every report says it is partial."""
    server.add_handler(_stall)
    bib = _project(tmp_path, server, "arxiv,crossref,inspire", deadline_s=0.5,
                   deadline_per_reference_s=0.0)
    out = tmp_path / "out"
    code = main([str(bib), "--out", str(out), "--cache", "none", "--format",
                 "json,html,sarif,github"])
    github = capsys.readouterr().out.splitlines()
    assert github[0].startswith("::warning title=citecheck-tex%3A partial report (deadline)::")
    assert "2 references not yet settled are UNVERIFIED" in github[0]
    sarif = json.loads((out / "report.sarif").read_text(encoding="utf-8"))["runs"][0]
    assert sarif["invocations"][0]["executionSuccessful"] is False
    assert sarif["invocations"][0]["toolExecutionNotifications"][0]["descriptor"] == {
        "id": "deadline"}
    report = _report(out)
    assert report["partial"] == {"reason": "deadline", "unsettled": 2}
    assert [e["key"] for e in report["entries"]] == ["stanley", "other"]  # type: ignore[attr-defined]
    assert {e["label"] for e in report["entries"]} == {"UNVERIFIED"}  # type: ignore[attr-defined]
    assert {e["code"] for e in report["entries"]} == {"unsettled-deadline"}  # type: ignore[attr-defined]
    assert all("deadline" in e["reason"] for e in report["entries"])  # type: ignore[attr-defined]
    assert "deadline" in [p["code"] for p in report["problems"]]  # type: ignore[attr-defined]
    assert 'data-partial="deadline"' in (out / "report.html").read_text(encoding="utf-8")
    assert code == 0


def _cli(tmp_path: Path, *args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("CITECHECK_")}
    environ.update(env or {})
    environ["PYTHONPATH"] = str(ROOT)
    return subprocess.Popen([sys.executable, "-m", "citecheck_tex", *args], cwd=tmp_path,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=environ)


def test_ctrl_c_writes_a_partial_report_with_every_reference(
    server: ReplayServer, tmp_path: Path
) -> None:
    """Row 3: Ctrl-C exited but wrote nothing."""
    server.add_handler(_stall)
    bib = _project(tmp_path, server, "arxiv,crossref,inspire", timeout_s=30.0)
    out = tmp_path / "out"
    proc = _cli(tmp_path, str(bib), "--out", str(out), "--cache", "none",
                "--format", "json,terminal")
    try:
        for _ in range(600):  # wait until the run is waiting for the network
            if server.count() or proc.poll() is not None:
                break
            time.sleep(0.05)
        if not server.count():
            proc.kill()
            pytest.fail(f"the run never reached the server: {proc.communicate()}")
        proc.send_signal(signal.SIGINT)
        stdout, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    report = _report(out)
    assert report["partial"] == {"reason": "interrupted", "unsettled": 2}
    assert {e["key"]: e["label"] for e in report["entries"]} == {  # type: ignore[attr-defined]
        "stanley": "UNVERIFIED", "other": "UNVERIFIED"}
    assert {e["code"] for e in report["entries"]} == {"unsettled-interrupted"}  # type: ignore[attr-defined]
    assert "PARTIAL REPORT" in stdout
    assert "Traceback" not in stderr


def test_verbose_never_prints_api_keys(server: ReplayServer, tmp_path: Path) -> None:
    """Row 10: --verbose printed OpenAlex's api_key= in request URLs."""
    server.add_handler(lambda req: Reply.make(200, {"meta": {}, "results": []}))
    bib = _project(tmp_path, server, "openalex,semanticscholar")
    secrets = {"OPENALEX_API_KEY": "oa-secret-4711", "S2_API_KEY": "s2-secret-0815"}
    proc = _cli(tmp_path, str(bib), "--out", str(tmp_path / "out"), "--cache", "none",
                "--verbose", env=secrets)
    stdout, stderr = proc.communicate(timeout=120)
    assert any(r.param("api_key") == "oa-secret-4711" for r in server.requests)
    assert "HTTP Request" in stderr  # the requests were logged...
    for secret in secrets.values():  # ...without the keys
        assert secret not in stderr and secret not in stdout
    assert "api_key=***" in stderr


def test_at_the_deadline_what_was_settled_stays_and_nothing_becomes_major(
    server: ReplayServer, tmp_path: Path
) -> None:
    """arXiv answers (the real paper is found, the other id is unknown to it), then every
    title source stalls past the deadline: the found paper keeps its verdict, the other
    reference is UNVERIFIED (only some sources had been asked), not MAJOR."""
    feed = _feed()

    def handler(req: Request) -> Reply:
        if req.path.endswith("/query"):
            if "1605.08386" in req.param("id_list"):
                return Reply.make(200, feed, content_type="application/atom+xml")
            return Reply.make(200, feed.split("<entry>")[0] + "</feed>",
                              content_type="application/atom+xml")
        time.sleep(8.0)
        return Reply.make(503, "busy")

    server.add_handler(handler)
    bib = _project(tmp_path, server, "arxiv,crossref", deadline_s=5.0,
                   deadline_per_reference_s=0.0, timeout_s=30.0)
    main([str(bib), "--out", str(tmp_path / "out"), "--cache", "none", "--format", "json"])
    report = _report(tmp_path / "out")
    entries = {e["key"]: e for e in report["entries"]}  # type: ignore[attr-defined]
    assert entries["stanley"]["label"] == "EXACT"
    assert entries["other"]["label"] == "UNVERIFIED"
    assert entries["other"]["reason"].startswith("Not settled: the run's deadline")
    assert entries["other"]["code"] == "unsettled-deadline"
    assert report["partial"] == {"reason": "deadline", "unsettled": 1}


def test_the_deadline_settings(tmp_path: Path) -> None:
    from citecheck_tex.config import Settings, load_settings
    from citecheck_tex.errors import UsageError

    assert Settings().run_deadline(40) == 240.0  # 120 s + 3 s per reference: <= 5 min
    assert Settings(deadline_s=0).run_deadline(40) is None  # disabled
    s = load_settings(tmp_path, environ={"CITECHECK_DEADLINE_S": "30",
                                         "CITECHECK_MAX_RETRY_AFTER_S": "5"})
    assert (s.deadline_s, s.max_retry_after_s) == (30.0, 5.0)
    with pytest.raises(UsageError):
        load_settings(tmp_path, environ={"CITECHECK_TIMEOUT_S": "0"})
