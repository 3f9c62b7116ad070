"""Optional LLM-assisted web-search fallback source (``websearch``; off unless configured).

Asked last, and only about the references that every scholarly source failed
to settle (see :mod:`citecheck_tex.sources.plan`), it sends the cited title,
author family names and year to the configured OpenAI-compatible server and
asks for the published work as one JSON object::

    {"found": bool, "title": str, "authors": [str], "year": str, "venue": str,
     "doi": str, "arxiv_id": str, "url": str, "evidence": str}

How the model looks the work up is ``settings.web_search_tool``:

``none``
    (default) the model answers from what it learnt: the weakest mode, works
    with any chat server (Ollama, vLLM, llama.cpp);
``chat``
    chat completions with ``web_search_options`` (OpenAI's search models;
    they refuse ``temperature``, so none is sent);
``responses``
    the Responses API with the ``web_search`` tool.

The LLM only *proposes*. Its record carries ``proposed=True`` and a low
source confidence (``score``): :mod:`citecheck_tex.verify.policy` never lets
such a record make a reference EXACT or MINOR, only UNVERIFIED instead of
MAJOR; a DOI or arXiv id it proposes is looked up in the authoritative DOI and
ARXIV sources by the pipeline, and only their records can confirm the work.

Never raises from :meth:`WebSearchSource.fetch`: a server fault is an ERROR
(RATE_LIMITED for HTTP 429) answer, a reply that is not the JSON asked for an
ERROR with that message, ``found: false`` NOT_FOUND. Answers are cached by
:class:`~citecheck_tex.cache.CachedSource` under :attr:`WebSearchSource.version`,
which holds the prompt version, the model and the search mode.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from citecheck_tex.config import Settings, check_web_search
from citecheck_tex.llm import NOT_JSON, LlmSession, LlmSessions, LlmTally, LlmUsage, open_session
from citecheck_tex.model import Answer, Query, QueryKind, Record, SourceStatus
from citecheck_tex.sources.base import (
    clean_arxiv,
    clean_doi,
    clean_text,
    elapsed_ms,
    person_from_name,
    register,
    year_of,
)
from citecheck_tex.vocab.ids import DOI_SYNTAX, NEW_ARXIV, OLD_ARXIV

if TYPE_CHECKING:
    from openai import AsyncOpenAI

    from citecheck_tex.sources.http import Http

logger = logging.getLogger(__name__)

#: Bumped when the parsing of replies changes.
ADAPTER_VERSION = "1"
#: Bumped whenever the prompt or the schema changes (part of every cache key).
WEBSEARCH_PROMPT_VERSION = "websearch-1"
#: The source confidence of a proposal: below every authoritative source's.
PROPOSAL_SCORE = 0.1
#: Requests in flight at once.
DEFAULT_CONCURRENCY = 4
#: Author names sent with a query.
MAX_AUTHORS_SENT = 6

_KNOWLEDGE = "from what you know (you cannot browse)"
_SEARCH = "by searching the web"

SYSTEM_PROMPT = """\
You help verify one citation of a scholarly paper. Find the published work it refers to {how}.
Report a work only when you are sure it exists and its title and authors fit the citation.
Never invent, guess or complete a DOI, an arXiv id or a URL: give one only when you have seen it
for this very work, otherwise an empty string. When no existing work fits, answer found false.
Reply with one JSON object only: {{"found": true|false, "title": the work's exact title,
"authors": ["Given Family", ...], "year": "YYYY", "venue": journal, conference or "arXiv",
"doi": "", "arxiv_id": "", "url": the page where you found it, "evidence": one short sentence
saying where the work is recorded}}."""

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "found": {"type": "boolean"},
        "title": {"type": "string"},
        "authors": {"type": "array", "items": {"type": "string"}},
        "year": {"type": "string"},
        "venue": {"type": "string"},
        "doi": {"type": "string"},
        "arxiv_id": {"type": "string"},
        "url": {"type": "string"},
        "evidence": {"type": "string"},
    },
    "required": ["found", "title", "authors", "year", "venue", "doi", "arxiv_id", "url",
                 "evidence"],
    "additionalProperties": False,
}

_TRUTH = {"true": True, "yes": True, "false": False, "no": False}


def _text(value: Any, limit: int = 500) -> str:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        value = str(value)
    text = clean_text(value)
    return "" if text.lower() in ("null", "none", "n/a", "unknown") else text[:limit]


def _authors(value: Any) -> list[str]:
    if isinstance(value, str):
        value = [p for part in value.split(";") for p in part.split(" and ")]
    if not isinstance(value, list):
        return []
    return [name for name in (_text(v, 200) for v in value) if name][:200]


def _doi(value: Any) -> str:
    doi = clean_doi(_text(value))
    return doi if DOI_SYNTAX.match(doi) else ""


def _arxiv(value: Any) -> str:
    arxiv = clean_arxiv(_text(value))
    return arxiv if NEW_ARXIV.match(arxiv) or OLD_ARXIV.match(arxiv) else ""


def validate_proposal(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """A clean proposal from the LLM's JSON, or None when the reply is not one.

    ``found`` must be a boolean (or "true"/"false"); a found work needs a
    title. A DOI or arXiv id of invalid syntax and a URL that is not http(s)
    are dropped (the rest of the proposal is kept). Idempotent.
    """
    found = data.get("found")
    if isinstance(found, str):
        found = _TRUTH.get(found.strip().lower())
    if not isinstance(found, bool):
        return None
    evidence = _text(data.get("evidence"), 300)
    if not found:
        return {"found": False, "evidence": evidence}
    title = _text(data.get("title"))
    if not title:
        return None
    url = _text(data.get("url"), 1000)
    if not url.lower().startswith(("http://", "https://")):
        url = ""
    return {
        "found": True,
        "title": title,
        "authors": _authors(data.get("authors")),
        "year": year_of(_text(data.get("year"))),
        "venue": _text(data.get("venue"), 300),
        "doi": _doi(data.get("doi")),
        "arxiv_id": _arxiv(data.get("arxiv_id") or data.get("arxiv")),
        "url": url,
        "evidence": evidence,
    }


def websearch_messages(query: Query, tool: str) -> list[dict[str, str]]:
    """The chat messages asking for the work a TITLE query describes."""
    how = _KNOWLEDGE if tool == "none" else _SEARCH
    cited: dict[str, Any] = {"title": query.value.strip()}
    if query.authors:
        cited["author_family_names"] = list(query.authors[:MAX_AUTHORS_SENT])
    if query.year:
        cited["year"] = query.year
    return [{"role": "system", "content": SYSTEM_PROMPT.format(how=how)},
            {"role": "user", "content": "Citation:\n" + json.dumps(cited, ensure_ascii=False)}]


def record_from_proposal(value: Mapping[str, Any], model: str) -> Record:
    """The proposed record (``proposed=True``, low ``score``), with the model as its id."""
    return Record(
        source="websearch",
        id=model,
        url=str(value.get("url", "")),
        title=str(value.get("title", "")),
        authors=tuple(person_from_name(a) for a in value.get("authors", ())),
        year=str(value.get("year", "")),
        venue=str(value.get("venue", "")),
        doi=str(value.get("doi", "")),
        arxiv=str(value.get("arxiv_id", "")),
        score=PROPOSAL_SCORE,
        proposed=True,
    )


def answer_from(query: Query, value: Mapping[str, Any] | None, error: str, model: str,
                tool: str, *, latency_ms: float = 0.0, requests: int = 0) -> Answer:
    """The source's Answer for a validated value (None: the call failed with ``error``)."""
    name = "websearch"
    if value is None:
        if error.startswith("offline"):
            status = SourceStatus.SKIPPED
        elif error.startswith("RateLimitError"):
            status = SourceStatus.RATE_LIMITED
        else:
            status = SourceStatus.ERROR
        message = (f"websearch: {model} gave a reply that is not the JSON asked for"
                   if error == NOT_JSON else f"websearch ({model}): {error}")
        return Answer(name, query, status, message=message, latency_ms=latency_ms,
                      http_requests=requests)
    how = "model knowledge, no web search" if tool == "none" else f"web search ({tool})"
    evidence = f": {value['evidence']}" if value.get("evidence") else ""
    if not value.get("found"):
        return Answer(name, query, SourceStatus.NOT_FOUND,
                      message=f"{model} ({how}) found no such work{evidence}",
                      latency_ms=latency_ms, http_requests=requests)
    record = record_from_proposal(value, model)
    where = f" <{record.url}>" if record.url else ""
    return Answer(name, query, SourceStatus.FOUND, (record,),
                  message=f"proposed by {model} ({how}){evidence}{where}; unconfirmed",
                  latency_ms=latency_ms, http_requests=requests)


class WebSearchSource:
    """The LLM web-search fallback (TITLE queries only; proposes, never confirms).

    In a check the source uses the run's LLM session (:meth:`bind_llm`). Used on its
    own, ``client`` (an ``openai.AsyncOpenAI``) is used and not closed when given;
    otherwise a session is opened for each batch of calls and closed after it.
    ``usage`` adds up what the LLM cost.
    """

    name = "websearch"
    kinds = frozenset({QueryKind.TITLE})
    #: asked only about references no authoritative record identifies (see pipeline)
    last_resort = True

    def __init__(self, settings: Settings, *, client: AsyncOpenAI | None = None,
                 concurrency: int = DEFAULT_CONCURRENCY) -> None:
        check_web_search(settings)
        self._settings = settings
        self._client = client
        self._tool = settings.web_search_tool
        self._model = settings.llm_model
        self.version = (f"{ADAPTER_VERSION}/{WEBSEARCH_PROMPT_VERSION}/{self._model}/"
                        f"{self._tool}")
        self._sem = asyncio.Semaphore(max(1, concurrency))
        self._session: LlmSession | None = None
        self._users = 0
        self._sessions: LlmSessions | None = None
        self.usage: LlmUsage = LlmUsage(model=self._model)

    def bind_llm(self, sessions: LlmSessions) -> None:
        """Use the run's LLM session (its owner closes it) instead of opening one."""
        self._sessions = sessions

    def _acquire(self) -> LlmSession:
        if self._sessions is not None:
            return self._sessions.get()
        if self._session is None:
            self._session = open_session(self._settings, self._client)
        self._users += 1
        return self._session

    async def _release(self) -> None:
        if self._sessions is not None:
            return
        self._users -= 1
        if self._users == 0 and self._session is not None:
            session, self._session = self._session, None
            logger.info("websearch: %s", session.usage.describe())
            await session.close()

    async def fetch(self, query: Query) -> Answer:
        """Ask the LLM about one TITLE query; never raises."""
        return (await self.fetch_batch([query]))[0]

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """Ask about several queries, at most ``concurrency`` at once; never raises."""
        started = time.perf_counter()
        try:
            session = self._acquire()
        except Exception as exc:  # noqa: BLE001 - openai missing or a bad setting
            logger.warning("websearch unavailable: %s", exc)
            return [Answer(self.name, q, SourceStatus.ERROR, message=f"websearch: {exc}",
                           latency_ms=elapsed_ms(started)) for q in queries]
        try:
            return list(await asyncio.gather(*(self._one(session, q) for q in queries)))
        finally:
            await self._release()

    async def _one(self, session: LlmSession, query: Query) -> Answer:
        started = time.perf_counter()
        if query.kind is not QueryKind.TITLE or not query.value.strip():
            return Answer(self.name, query, SourceStatus.SKIPPED,
                          message="websearch answers title queries only")
        try:
            extra: dict[str, Any] | None = None
            post = None
            if self._tool == "chat":
                extra = {"web_search_options": {}, "temperature": None}
            elif self._tool == "responses":
                async def post(messages: list[dict[str, str]], tally: LlmTally) -> str:
                    return await _post_responses(session.client, self._model, messages, tally)
            async with self._sem:
                value, _cached, error, used = await session.ask(
                    f"{WEBSEARCH_PROMPT_VERSION}+{self._tool}",
                    websearch_messages(query, self._tool), "cited_work", SCHEMA,
                    validate_proposal, extra=extra, post=post)
            self.usage = self.usage + used
            return answer_from(query, value, error, self._model, self._tool,
                               latency_ms=elapsed_ms(started), requests=used.requests)
        except Exception as exc:  # noqa: BLE001 - a source never raises
            logger.warning("websearch failed on %r: %s", query.value[:80], exc)
            return Answer(self.name, query, SourceStatus.ERROR,
                          message=f"websearch: {type(exc).__name__}: {exc}",
                          latency_ms=elapsed_ms(started))


async def _post_responses(client: AsyncOpenAI, model: str, messages: list[dict[str, str]],
                          tally: LlmTally) -> str:
    """One Responses API call with the ``web_search`` tool; the reply text."""
    tally.requests += 1
    resp = await client.responses.create(
        model=model, input=messages,  # type: ignore[arg-type]
        tools=[{"type": "web_search"}])
    usage = getattr(resp, "usage", None)
    tally.prompt_tokens += int(getattr(usage, "input_tokens", 0) or 0)
    tally.completion_tokens += int(getattr(usage, "output_tokens", 0) or 0)
    text = getattr(resp, "output_text", "")
    return text if isinstance(text, str) else ""


@register("websearch")
def make_websearch(http: Http, settings: Settings) -> WebSearchSource:
    """Factory registered as "websearch" (the HTTP stack is not used: the openai SDK is)."""
    return WebSearchSource(settings)


__all__ = [
    "SCHEMA",
    "WebSearchSource",
    "answer_from",
    "record_from_proposal",
    "validate_proposal",
    "websearch_messages",
]
