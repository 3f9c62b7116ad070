"""The optional LLM web-search fallback source, against loopback servers only.

The LLM is ``tests/verify/llm_server.py`` (OpenAI chat completions); Crossref
is the replay server serving the recorded work 10.1371/journal.pone.0033693
(``tests/fixtures/api/crossref.jsonl``).
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from collections.abc import Callable, Iterator
from dataclasses import replace
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from citecheck_tex.cache import Cache, CachedSource
from citecheck_tex.cli import main
from citecheck_tex.config import Settings, load_settings
from citecheck_tex.errors import UsageError
from citecheck_tex.model import (
    Answer,
    Label,
    Query,
    QueryKind,
    SourceStatus,
    Verdict,
    VerdictCode,
)
from citecheck_tex.pipeline import check_entries_async
from citecheck_tex.sources.base import make_source, source_names
from citecheck_tex.sources.http import open_http
from citecheck_tex.sources.plan import groups_for
from citecheck_tex.sources.websearch import (
    WebSearchSource,
    validate_proposal,
    websearch_messages,
)
from citecheck_tex.tex.bib import parse_bib_text
from tests.replay import ReplayServer, Reply, Request
from tests.sources.conftest import FAST, FIXTURES, PONE_BIB, PONE_DOI, PONE_TITLE, settings_for
from tests.verify.llm_server import ChatReply, FakeChatServer, user_text

PONE = PONE_DOI
SREP = "10.1038/srep16696"

BIB = PONE_BIB


def proposal(found: bool = True, **fields: Any) -> str:
    """The JSON a model answers."""
    base: dict[str, Any] = {
        "found": found, "title": PONE_TITLE if found else "",
        "authors": ["Shankar Sadasivan", "Brooks B. Pond", "Amar K. Pani", "Chunxu Qu",
                    "Yun Jiao", "Richard J. Smeyne"] if found else [],
        "year": "2012" if found else "", "venue": "PLoS ONE" if found else "",
        "doi": "", "arxiv_id": "", "url": "", "evidence": "fake model"}
    base.update(fields)
    return json.dumps(base)


def always(content: str, status: int = 200) -> Callable[[dict[str, Any]], ChatReply]:
    def answer(body: dict[str, Any]) -> ChatReply:
        return ChatReply(content=content, status=status, prompt_tokens=50, completion_tokens=9)
    return answer


def serve_crossref(server: ReplayServer) -> list[Request]:
    """Recorded works by DOI; every title search finds nothing (the fallback's case)."""
    searches: list[Request] = []

    def search(req: Request) -> Reply | None:
        if req.path == "/works" and req.param("query.bibliographic"):
            searches.append(req)
            return Reply.make(200, {"status": "ok", "message-type": "work-list",
                                    "message": {"items": []}})
        return None

    server.add_handler(search)
    server.add_file(FIXTURES / "crossref.jsonl")
    return searches


def check(server: ReplayServer, chat_url: str, **kw: Any) -> Verdict:
    entries, problems = parse_bib_text(BIB, "refs.bib")
    assert not problems and len(entries) == 1
    settings = settings_for(server, sources=("crossref", "websearch"), cache_path="none",
                            llm_model="fake-model", llm_base_url=chat_url, **kw)

    async def go() -> list[Verdict]:
        async with open_http(settings, limits=FAST) as http:
            verdicts, _, _ = await check_entries_async(entries, settings, http=http)
            return verdicts

    [verdict] = asyncio.run(go())
    return verdict


def attempts(v: Verdict, source: str) -> list[tuple[str, SourceStatus]]:
    return [(a.kind, a.status) for a in v.attempts if a.source == source]


# ---------------------------------------------------------------------------
# through the pipeline


def test_proposed_doi_confirmed_by_crossref_is_exact(server: ReplayServer) -> None:
    searches = serve_crossref(server)
    with FakeChatServer(always(proposal(doi=f"https://doi.org/{PONE.upper()}"))) as chat:
        v = check(server, chat.base_url)
        assert len(chat.requests) == 1
        assert "Methylphenidate" in user_text(chat.requests[0])
    assert len(searches) == 1  # crossref's title search came first and found nothing
    assert server.count("GET", f"/works/{PONE}") == 1  # the proposed DOI was looked up
    assert v.label is Label.EXACT
    assert v.match is not None and v.match.source == "crossref" and not v.match.proposed
    assert ("title", SourceStatus.FOUND) in attempts(v, "websearch")
    assert ("doi", SourceStatus.FOUND) in attempts(v, "crossref")


def test_proposed_doi_of_another_paper_does_not_rescue(server: ReplayServer) -> None:
    serve_crossref(server)
    with FakeChatServer(always(proposal(doi=SREP))) as chat:
        v = check(server, chat.base_url)
    assert server.count("GET", f"/works/{SREP}") == 1
    # the authoritative record of that DOI describes another work: the proposal loses
    assert v.label is Label.MAJOR
    assert v.match is None


def test_proposed_doi_that_does_not_exist_is_refuted(server: ReplayServer) -> None:
    serve_crossref(server)
    with FakeChatServer(always(proposal(doi="10.1371/notarealdoi"))) as chat:
        v = check(server, chat.base_url)
    assert ("doi", SourceStatus.NOT_FOUND) in attempts(v, "crossref")
    assert v.label is Label.MAJOR


def test_proposal_without_identifiers_is_unverified_not_exact(server: ReplayServer) -> None:
    serve_crossref(server)
    url = "https://journals.plos.org/plosone/article?id=10.1371/journal.pone.0033693"
    with FakeChatServer(always(proposal(url=url, evidence="PLoS ONE article page"))) as chat:
        v = check(server, chat.base_url)
    assert v.label is Label.UNVERIFIED
    assert v.confidence <= 0.3
    assert v.match is not None and v.match.proposed and v.match.source == "websearch"
    assert v.match.id == "fake-model" and v.match.url == url
    assert "proposes" in v.reason and "fake-model" in v.reason
    assert v.code is VerdictCode.PROPOSED_UNCONFIRMED
    message = next(a.message for a in v.attempts if a.source == "websearch")
    assert "fake-model" in message and url in message and "unconfirmed" in message


def test_proposal_of_a_different_work_stays_major(server: ReplayServer) -> None:
    serve_crossref(server)
    other = proposal(title="Quantum chromodynamics at finite temperature",
                     authors=["Edward Witten"], year="1981", venue="Nucl. Phys. B")
    with FakeChatServer(always(other)) as chat:
        v = check(server, chat.base_url)
    assert v.label is Label.MAJOR


def test_not_found_is_major_with_every_source_asked(server: ReplayServer) -> None:
    serve_crossref(server)
    with FakeChatServer(always(proposal(found=False))) as chat:
        v = check(server, chat.base_url)
    assert attempts(v, "websearch") == [("title", SourceStatus.NOT_FOUND)]
    assert v.label is Label.MAJOR


@pytest.mark.parametrize("reply", [
    ChatReply(content="I think this paper exists, probably in PLoS ONE."),
    ChatReply(content='{"found": "maybe"}'),
    ChatReply(content='{"found": true, "title": ""}'),
    ChatReply(status=500, error="internal error"),
])
def test_garbage_or_server_error_is_unverified_not_major(server: ReplayServer,
                                                         reply: ChatReply) -> None:
    serve_crossref(server)
    with FakeChatServer(lambda body: reply) as chat:
        v = check(server, chat.base_url)
    assert attempts(v, "websearch") == [("title", SourceStatus.ERROR)]
    assert v.label is Label.UNVERIFIED
    message = next(a.message for a in v.attempts if a.source == "websearch")
    assert "websearch" in message and "fake-model" in message


def test_connection_refused_is_unverified(server: ReplayServer) -> None:
    serve_crossref(server)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    v = check(server, f"http://127.0.0.1:{port}/v1", max_retries=0)
    assert attempts(v, "websearch") == [("title", SourceStatus.ERROR)]
    assert v.label is Label.UNVERIFIED


def test_rate_limit_is_rate_limited(server: ReplayServer) -> None:
    serve_crossref(server)
    with FakeChatServer(always("", status=429)) as chat:
        v = check(server, chat.base_url, max_retries=0)
    assert attempts(v, "websearch") == [("title", SourceStatus.RATE_LIMITED)]
    assert v.label is Label.UNVERIFIED


def test_settled_entries_never_reach_the_llm(server: ReplayServer) -> None:
    work = json.loads((FIXTURES / "crossref.jsonl").read_text(encoding="utf-8")
                      .splitlines()[2])["body_json"]["message"]
    server.add_handler(lambda req: Reply.make(200, {"status": "ok", "message": {
        "items": [work]}}) if req.param("query.bibliographic") else None)
    with FakeChatServer(always(proposal())) as chat:
        v = check(server, chat.base_url)
        assert chat.requests == []
    assert v.label is Label.EXACT and v.match is not None and v.match.source == "crossref"


# ---------------------------------------------------------------------------
# the source alone


def title_query() -> Query:
    return Query(QueryKind.TITLE, PONE_TITLE, authors=("Sadasivan", "Pond"), year="2012")


def fetch(settings: Settings, queries: list[Query], cache: Cache | None = None) -> list[Answer]:
    async def go() -> list[Answer]:
        src: Any = WebSearchSource(settings)
        if cache is not None:
            src = CachedSource(src, cache)
        return list(await src.fetch_batch(queries))
    return asyncio.run(go())


def llm_settings(url: str, **kw: Any) -> Settings:
    return replace(Settings(), llm_model="fake-model", llm_base_url=url, cache_path="none",
                   timeout_s=2.0, max_retries=0, **kw)


def test_record_carries_provenance_and_low_confidence() -> None:
    with FakeChatServer(always(proposal(arxiv_id="arXiv:1203.1234v2", doi="not a doi",
                                        url="ftp://x"))) as chat:
        [ans] = fetch(llm_settings(chat.base_url), [title_query()])
    assert ans.status is SourceStatus.FOUND and ans.http_requests == 1
    [rec] = ans.records
    assert rec.proposed and rec.score < 0.5 and rec.id == "fake-model"
    assert rec.arxiv == "1203.1234" and rec.doi == "" and rec.url == ""
    assert [a.family for a in rec.authors][:2] == ["Sadasivan", "Pond"]
    assert rec.year == "2012" and rec.venue == "PLoS ONE"


def test_tool_modes_change_the_request() -> None:
    with FakeChatServer(always(proposal(found=False))) as chat:
        fetch(llm_settings(chat.base_url), [title_query()])
        fetch(llm_settings(chat.base_url, web_search_tool="chat"), [title_query()])
        plain, search = chat.requests
    assert plain["temperature"] == 0 and "web_search_options" not in plain
    assert search["web_search_options"] == {} and "temperature" not in search
    assert plain["response_format"]["type"] == "json_schema"
    assert "cannot browse" in plain["messages"][0]["content"]
    assert "searching the web" in search["messages"][0]["content"]


def test_json_schema_refused_falls_back_to_text() -> None:
    def answer(body: dict[str, Any]) -> ChatReply:
        if "response_format" in body:
            return ChatReply(status=400, error="response_format not supported")
        return ChatReply(content="Here it is:\n```json\n" + proposal() + "\n```")

    with FakeChatServer(answer) as chat:
        [ans] = fetch(llm_settings(chat.base_url), [title_query()])
        assert len(chat.requests) == 3
    assert ans.status is SourceStatus.FOUND


def test_answers_are_cached_by_model_and_prompt_version(tmp_path: Path) -> None:
    cache = Cache.open(tmp_path / "c.sqlite")
    try:
        with FakeChatServer(always(proposal())) as chat:
            first = fetch(llm_settings(chat.base_url), [title_query()], cache)
            second = fetch(llm_settings(chat.base_url), [title_query()], cache)
            assert len(chat.requests) == 1
            other = fetch(replace(llm_settings(chat.base_url), llm_model="other"),
                          [title_query()], cache)
            assert len(chat.requests) == 2
    finally:
        cache.close()
    assert not first[0].cached and second[0].cached
    assert second[0].records == first[0].records
    assert other[0].records[0].id == "other"
    assert "websearch-1" in WebSearchSource(llm_settings("http://127.0.0.1:9/v1")).version


def test_non_title_queries_are_skipped_without_a_request() -> None:
    with FakeChatServer(always(proposal())) as chat:
        [ans] = fetch(llm_settings(chat.base_url), [Query(QueryKind.DOI, PONE)])
        assert chat.requests == []
    assert ans.status is SourceStatus.SKIPPED


class _ResponsesServer:
    """A loopback ``POST /v1/responses`` (the Responses API), answering ``text``."""

    def __init__(self, text: str) -> None:
        self.bodies: list[dict[str, Any]] = []
        outer = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: Any) -> None:  # noqa: A002
                return

            def do_POST(self) -> None:  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                outer.bodies.append(body)
                data = json.dumps({
                    "id": "resp_1", "object": "response", "created_at": 1_700_000_000,
                    "model": body["model"], "status": "completed", "parallel_tool_calls": True,
                    "tool_choice": "auto", "tools": body.get("tools", []),
                    "output": [{"type": "message", "id": "msg_1", "status": "completed",
                                "role": "assistant", "content": [
                                    {"type": "output_text", "text": text, "annotations": []}]}],
                    "usage": {"input_tokens": 70, "output_tokens": 30, "total_tokens": 100,
                              "input_tokens_details": {"cached_tokens": 0},
                              "output_tokens_details": {"reasoning_tokens": 0}},
                }).encode()
                self.send_response(200 if self.path == "/v1/responses" else 404)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.thread = threading.Thread(target=self.server.serve_forever, args=(0.05,),
                                       daemon=True)

    def __enter__(self) -> str:
        self.thread.start()
        return f"http://127.0.0.1:{self.server.server_address[1]}/v1"

    def __exit__(self, *exc: object) -> None:
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(timeout=5)


def test_responses_api_uses_the_web_search_tool() -> None:
    fake = _ResponsesServer(proposal(doi=PONE, url="https://doi.org/" + PONE))
    with fake as url:
        src = WebSearchSource(llm_settings(url, web_search_tool="responses"))
        [ans] = asyncio.run(src.fetch_batch([title_query()]))
    assert fake.bodies[0]["tools"] == [{"type": "web_search"}]
    assert ans.status is SourceStatus.FOUND and ans.records[0].doi == PONE
    assert "web search (responses)" in ans.message
    assert src.usage.prompt_tokens == 70 and src.usage.completion_tokens == 30


# ---------------------------------------------------------------------------
# validation and settings


def test_validate_proposal() -> None:
    assert validate_proposal({"found": "false"}) == {"found": False, "evidence": ""}
    assert validate_proposal({"found": True}) is None  # a found work needs a title
    assert validate_proposal({"title": "x"}) is None
    ok = validate_proposal({"found": True, "title": " A  title ", "authors": "A. B and C. D",
                            "year": 2012, "doi": "doi:10.1000/XYZ", "arxiv_id": "hep-th/9711200"})
    assert ok is not None
    assert ok["title"] == "A title" and ok["authors"] == ["A. B", "C. D"]
    assert ok["year"] == "2012" and ok["doi"] == "10.1000/xyz" and ok["arxiv_id"] == "hep-th/9711200"
    assert validate_proposal(ok) == ok  # cached values validate to themselves


def test_messages_carry_only_the_query() -> None:
    msgs = websearch_messages(title_query(), "none")
    cited = json.loads(msgs[1]["content"].split("\n", 1)[1])
    assert cited == {"title": PONE_TITLE, "author_family_names": ["Sadasivan", "Pond"],
                     "year": "2012"}


def test_source_absent_unless_configured(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    assert "websearch" in source_names()
    plain = load_settings(environ={})
    assert "websearch" not in plain.sources
    assert all("websearch" not in g for g in groups_for(QueryKind.TITLE, plain.sources))
    on = load_settings(environ={}, overrides={"web_search": True, "llm_model": "m",
                                              "llm_base_url": "http://127.0.0.1:1/v1"})
    assert on.sources[-1] == "websearch"
    assert groups_for(QueryKind.TITLE, on.sources)[-1] == ("websearch",)
    monkeypatch.setenv("OPENAI_API_KEY", "k")  # api.openai.com: the key stands for the URL
    env = load_settings(environ={"CITECHECK_WEB_SEARCH": "1", "CITECHECK_LLM_MODEL": "m"})
    assert "websearch" in env.sources


@pytest.mark.parametrize(("overrides", "needle"), [
    ({"web_search": True, "llm_base_url": "http://127.0.0.1:1/v1"}, "llm_model"),
    ({"web_search": True, "llm_model": "m"}, "llm_base_url"),
    ({"sources": "crossref,websearch", "llm_base_url": "http://x/v1"}, "llm_model"),
    ({"web_search": True, "llm_model": "m", "llm_base_url": "http://x/v1",
      "web_search_tool": "bing"}, "web_search_tool"),
])
def test_missing_setting_is_a_clear_usage_error(monkeypatch: pytest.MonkeyPatch,
                                                overrides: dict[str, Any], needle: str) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    with pytest.raises(UsageError, match=needle):
        load_settings(environ={}, overrides=overrides)


def test_factory_refuses_settings_without_a_model() -> None:
    async def go() -> None:
        async with open_http(Settings()) as http:
            make_source("websearch", http, replace(Settings(), llm_base_url="http://x/v1"))

    with pytest.raises(UsageError, match="llm_model"):
        asyncio.run(go())


# ---------------------------------------------------------------------------
# command line


@pytest.fixture
def crossref() -> Iterator[ReplayServer]:
    with ReplayServer() as srv:
        serve_crossref(srv)
        yield srv


def test_cli_web_search(crossref: ReplayServer, tmp_path: Path,
                        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    (tmp_path / "x.bib").write_text(BIB, encoding="utf-8")
    (tmp_path / "citecheck.toml").write_text(
        f'sources = ["crossref"]\nbase_urls = {{crossref = "{crossref.url}"}}\n'
        'timeout_s = 2.0\nmax_retries = 1\n', encoding="utf-8")
    args = [str(tmp_path / "x.bib"), "--cache", "none", "--format", "json"]
    with FakeChatServer(always(proposal(doi=PONE))) as chat:
        code = main([*args, "--out", str(tmp_path / "o"), "--web-search", "--llm-model", "m",
                     "--llm-base-url", chat.base_url])
        assert len(chat.requests) == 1
        # off unless asked: crossref alone finds nothing by title, so the entry is MAJOR
        assert main([*args, "--out", str(tmp_path / "p")]) == 1
        assert len(chat.requests) == 1
    assert code == 0
    plain = json.loads((tmp_path / "p" / "report.json").read_text(encoding="utf-8"))
    assert plain["entries"][0]["label"] == "MAJOR"
    report = json.loads((tmp_path / "o" / "report.json").read_text(encoding="utf-8"))
    [entry] = report["entries"]
    assert entry["label"] == "EXACT" and entry["match"]["source"] == "crossref"
    assert any(a["source"] == "websearch" and a["status"] == "found" for a in entry["sources"])
    capsys.readouterr()
    assert main([*args, "--out", str(tmp_path / "q"), "--web-search"]) == 2
    assert "llm_model" in capsys.readouterr().err
