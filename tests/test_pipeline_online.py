"""The whole cascade online, through the real Http stack, against recorded arXiv responses."""

from __future__ import annotations

import asyncio
import json
import socket
from dataclasses import replace
from pathlib import Path

from citecheck_tex.config import Settings
from citecheck_tex.model import Label, QueryKind, SourceStatus
from citecheck_tex.pipeline import check_entries_async
from citecheck_tex.sources.http import open_http
from citecheck_tex.tex.bib import parse_bib_text
from tests.replay import ARXIV_BIB, ReplayServer, Reply
from tests.sources.conftest import FAST

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "api"

BIB = ARXIV_BIB


def _feeds() -> tuple[str, str]:
    lines = (FIXTURES / "arxiv.jsonl").read_text(encoding="utf-8").splitlines()
    recs = [json.loads(x) for x in lines]
    found = next(r for r in recs if "id_list=1605.08386" in r["request_url"])["body_text"]
    empty = next(r for r in recs if "id_list=0000.0000" in r["request_url"])["body_text"]
    return found, empty


def _serve_arxiv(server: ReplayServer) -> None:
    found, empty = _feeds()

    def handler(req):  # type: ignore[no-untyped-def]
        if not req.path.endswith("/query"):
            return None
        ids = req.param("id_list")
        if "1605.08386" in ids:  # the feed holds only that paper: other ids are unknown
            return Reply.make(200, found, content_type="application/atom+xml")
        return Reply.make(200, empty, content_type="application/atom+xml")

    server.add_handler(handler)


def _run(settings: Settings) -> tuple[list, list, int]:  # type: ignore[type-arg]
    entries, problems = parse_bib_text(BIB, "refs.bib")
    assert not [p for p in problems if p.code != "missing-field"]

    async def go() -> tuple[list, list, int]:  # type: ignore[type-arg]
        async with open_http(settings, limits=FAST) as http:
            return await check_entries_async(entries, settings, http=http)

    return asyncio.run(go())


def test_recorded_arxiv_answers_give_exact_minor_major() -> None:
    with ReplayServer() as server:
        _serve_arxiv(server)
        settings = replace(Settings(), base_urls=server.base_urls(), sources=("arxiv",),
                           cache_path="none", timeout_s=2.0, max_retries=1)
        verdicts, problems, requests = _run(settings)
    labels = {v.entry.key: v.label for v in verdicts}
    assert labels["real"] is Label.EXACT
    assert labels["wrongyear"] is Label.MINOR
    assert [d.field for d in verdicts[1].discrepancies] == ["year"]
    assert labels["fake"] is Label.MAJOR
    assert verdicts[0].match is not None and verdicts[0].match.arxiv == "1605.08386"
    assert requests >= 1
    assert not [p for p in problems if p.code == "network"]


def _closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_network_down_is_unverified_quickly_with_one_message() -> None:
    dead = f"http://127.0.0.1:{_closed_port()}"
    settings = replace(Settings(), base_urls={k: dead for k in Settings().base_urls},
                       sources=("arxiv", "crossref", "inspire"), cache_path="none",
                       timeout_s=1.0, max_retries=1)
    verdicts, problems, requests = _run(settings)
    assert {v.label for v in verdicts} == {Label.UNVERIFIED}
    assert all(any(a.status is SourceStatus.ERROR for a in v.attempts) for v in verdicts)
    net = [p for p in problems if p.code == "network"]
    assert 1 <= len(net) <= 3  # one per source, never one per reference
    assert requests <= 3 * 3  # the circuit breaker: a few tries per host, not one per reference


def test_a_configured_source_that_cannot_run_is_reported_not_silently_dropped() -> None:
    """A library caller enabling the web search without a model gets a Problem naming it."""
    entries, _ = parse_bib_text("@article{a, title={A title}, year={2001}}\n", "refs.bib")
    settings = replace(Settings(), offline=True, cache_path="none", index_path="",
                       sources=("websearch",), web_search=True)
    verdicts, problems, requests = asyncio.run(check_entries_async(entries, settings))
    unavailable = [p for p in problems if p.code == "source-unavailable"]
    assert len(unavailable) == 1
    assert "websearch" in unavailable[0].message and "llm_model" in unavailable[0].message
    assert requests == 0 and verdicts[0].label is Label.UNVERIFIED


class _TitleSource:
    """Answers every TITLE query with the same records, counting the questions."""

    kinds = frozenset({QueryKind.TITLE})
    version = "test"

    def __init__(self, name: str, records: tuple[object, ...], last_resort: bool = False) -> None:
        self.name, self.records, self.last_resort, self.asked = name, records, last_resort, 0

    async def fetch(self, query: object) -> object:
        from citecheck_tex.model import Answer, SourceStatus

        self.asked += 1
        return Answer(self.name, query, SourceStatus.FOUND, records=self.records)  # type: ignore[arg-type]

    async def fetch_batch(self, queries: list[object]) -> list[object]:
        return [await self.fetch(q) for q in queries]


def test_the_last_resort_is_not_asked_about_works_a_real_record_identifies() -> None:
    from citecheck_tex.model import Person, Record
    from citecheck_tex.pipeline import run_cascade

    entries, _ = parse_bib_text(
        "@article{a, title={Magnetic Monopoles in SU(3) Gauge Theories}, author={Corrigan, E.},"
        " year={1979}}\n@article{b, title={A work nobody has heard of at all}, year={2001},"
        " author={Nobody, N.}}\n", "refs.bib")
    real = Record(source="local", id="inspire:100761",
                  title="Magnetic Monopoles in SU(3) Gauge Theories",
                  authors=(Person("Corrigan", "Edward"),), year="1976")
    local = _TitleSource("local", (real,))
    web = _TitleSource("websearch", (), last_resort=True)
    settings = replace(Settings(), sources=("local", "websearch"), cache_path="none")
    verdicts = asyncio.run(run_cascade(entries, {"local": local, "websearch": web}, settings))  # type: ignore[dict-item]
    assert verdicts[0].label is Label.MINOR  # the year is wrong: a real, corrected match
    assert local.asked == 2 and web.asked == 1  # asked only about the unknown work
