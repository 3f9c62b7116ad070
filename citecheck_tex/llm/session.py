"""One OpenAI-compatible client session: client, response cache and usage totals.

Callers bring their prompts: :meth:`LlmSession.ask` takes a prompt version, the
chat messages, a JSON schema and a validator, and returns the validated value
(cached by model, prompt version and input hash). Structured output is asked for
with ``response_format`` ``json_schema``; a server that rejects it (HTTP 400/422)
is asked again with ``json_object``, then with no ``response_format`` (the JSON
object is then extracted from the text); the session remembers the level reached.
Token counts and wall time add up in :class:`~citecheck_tex.llm.usage.LlmUsage`.

The ``openai`` package is imported lazily: install it with
``pip install 'citecheck-tex[llm]'``.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import sqlite3
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import httpx

from citecheck_tex.config import Settings
from citecheck_tex.errors import UsageError
from citecheck_tex.llm.cache import LlmCache, ResponseStore
from citecheck_tex.llm.transport import AnswerRefused, CappedTransport
from citecheck_tex.llm.usage import LlmUsage

if TYPE_CHECKING:
    from openai import AsyncOpenAI

logger = logging.getLogger(__name__)

#: An LLM answer can be slow on a local model; never wait less than this.
MIN_TIMEOUT_S = 60.0
#: How to install what the LLM features need.
INSTALL_HINT = "pip install 'citecheck-tex[llm]'"
#: The ``error`` of :meth:`LlmSession.ask` when the reply was not the JSON asked for.
NOT_JSON = "the LLM reply is not the JSON asked for"

_FORMATS = ("json_schema", "json_object", "text")


def make_client(settings: Settings, *, budget_s: float | None = None) -> AsyncOpenAI:
    """An ``openai.AsyncOpenAI`` for the configured server; the caller closes it.

    The key is read from the environment variable ``settings.llm_api_key_env``;
    a placeholder is sent when it is unset (local servers ignore it). Its HTTP
    transport bounds every attempt (:class:`~citecheck_tex.llm.transport.CappedTransport`):
    a body of at most ``settings.max_response_bytes``, and ``budget_s`` seconds in
    total (default: the client's timeout, ``max(timeout_s, MIN_TIMEOUT_S)``).
    """
    try:
        from openai import AsyncOpenAI
    except ImportError as exc:
        raise UsageError("the LLM features need the openai package", hint=INSTALL_HINT) from exc
    if not settings.llm_model:
        raise UsageError("llm_mode is set but llm_model is empty",
                         hint="set llm_model (e.g. CITECHECK_LLM_MODEL=qwen2.5:7b)")
    key = settings.api_key(settings.llm_api_key_env) or "not-needed"
    timeout = max(settings.timeout_s, MIN_TIMEOUT_S)
    transport = CappedTransport(settings.max_response_bytes,
                                timeout if budget_s is None else budget_s)
    # openai 1.x types an httpx.AsyncClient, 2.x+ an httpx2 one and accepts httpx's too
    http_client: Any = httpx.AsyncClient(transport=transport, timeout=timeout,
                                         follow_redirects=True)
    return AsyncOpenAI(api_key=key, base_url=settings.llm_base_url or None,
                       timeout=timeout, max_retries=settings.max_retries,
                       http_client=http_client)


def is_loopback(base_url: str) -> bool:
    """True when ``base_url`` names this machine (an offline run may still ask it)."""
    host = (urlsplit(base_url).hostname or "").lower()
    return host in ("localhost", "127.0.0.1", "::1") or host.startswith("127.")


_FENCE = re.compile(r"^\s*```(?:json)?\s*|\s*```\s*$", re.IGNORECASE)


def extract_json(text: str) -> dict[str, Any] | None:
    """The JSON object in an LLM reply: the whole text, a fenced block, or the first ``{...}``."""
    candidates = [text, _FENCE.sub("", text)]
    start = text.find("{")
    if start >= 0:
        candidates.append(text[start:text.rfind("}") + 1])
    for cand in candidates:
        try:
            data = json.loads(cand)
        except ValueError:
            continue
        if isinstance(data, dict):
            return data
    if start >= 0:  # the first balanced object, when prose follows it
        try:
            data, _ = json.JSONDecoder().raw_decode(text[start:])
        except ValueError:
            return None
        return data if isinstance(data, dict) else None
    return None


def input_hash(messages: Sequence[Mapping[str, str]]) -> str:
    """The cache key of a request's messages."""
    payload = json.dumps(list(messages), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


def _refusal(exc: BaseException) -> AnswerRefused | None:
    """The transport's :class:`AnswerRefused` behind an SDK error, if that is the cause."""
    seen: BaseException | None = exc
    for _ in range(8):  # a short chain; never loop on a cycle
        if seen is None:
            return None
        if isinstance(seen, AnswerRefused):
            return seen
        seen = seen.__cause__ or seen.__context__
    return None


@dataclass(slots=True)
class LlmTally:
    """Mutable counters of one call (requests and tokens); a custom ``post`` updates them."""

    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


#: A custom request function for :meth:`LlmSession.ask`: (messages, tally) -> reply text.
PostFunction = Callable[[list[dict[str, str]], LlmTally], Awaitable[str]]


class LlmSession:
    """Client, response cache and usage of the LLM calls of one run.

    ``owns_client``: the session closes the client at :meth:`close`; ``owns_cache``:
    the session closes the store (a store passed in, the run's answer cache, is
    closed by its owner).
    """

    def __init__(self, settings: Settings, client: AsyncOpenAI, owns_client: bool,
                 cache: ResponseStore | None, *, owns_cache: bool = True) -> None:
        self.settings = settings
        self.client = client
        self.owns_client = owns_client
        self.cache = cache
        self.owns_cache = owns_cache
        self._own_cache = cache if owns_cache and isinstance(cache, LlmCache) else None
        self.model = settings.llm_model
        self.format_index = 0  # drops to json_object / text once the server refuses
        self.usage = LlmUsage(model=settings.llm_model)
        self.may_call = not settings.offline or is_loopback(settings.llm_base_url)

    @classmethod
    def open(cls, settings: Settings, client: AsyncOpenAI | None = None, *,
             store: ResponseStore | None = None) -> LlmSession:
        """A session for ``settings``: ``client`` (kept open) or a new one; ``store`` (kept
        open) or an own :class:`LlmCache` in the settings' cache file. Raises
        :class:`UsageError` when openai is not installed or no model is set."""
        own = client is None
        real = make_client(settings) if client is None else client
        if store is not None:
            return cls(settings, real, own, store, owns_cache=False)
        cache = None
        path = settings.resolved_cache_path()
        if path is not None:
            try:
                cache = LlmCache.open(path)
            except (OSError, sqlite3.Error) as exc:
                logger.warning("LLM cache unavailable (%s); continuing without it", exc)
        return cls(settings, real, own, cache)

    async def close(self) -> None:
        """Close the cache and the client this session opened."""
        if self._own_cache is not None:  # also after a failure dropped it from use
            own, self._own_cache = self._own_cache, None
            own.close()
        if self.owns_client:
            await self.client.close()

    async def __aenter__(self) -> LlmSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _post(self, messages: list[dict[str, str]], schema_name: str,
                    schema: dict[str, Any], tally: LlmTally, *,
                    extra: Mapping[str, Any] | None = None) -> str:
        """Send the messages; the reply text (tokens and requests go to ``tally``).

        Walks down json_schema -> json_object -> text when the server refuses
        a response format with HTTP 400/422, and remembers the level reached.
        ``extra`` adds request parameters (``web_search_options``); a value of
        None removes one (``temperature``: search models refuse it).
        """
        import openai

        while True:
            level = self.format_index
            fmt = _FORMATS[level]
            kwargs: dict[str, Any] = {"temperature": 0}
            if fmt == "json_schema":
                kwargs["response_format"] = {
                    "type": "json_schema",
                    "json_schema": {"name": schema_name, "schema": schema, "strict": True}}
            elif fmt == "json_object":
                kwargs["response_format"] = {"type": "json_object"}
            kwargs.update(extra or {})
            kwargs = {k: v for k, v in kwargs.items() if v is not None}
            tally.requests += 1
            try:
                resp = await self.client.chat.completions.create(
                    model=self.model, messages=messages,  # type: ignore[arg-type]
                    **kwargs)
            except (openai.BadRequestError, openai.UnprocessableEntityError) as exc:
                if level + 1 < len(_FORMATS):
                    logger.info("LLM server refused response_format %s (HTTP %s); trying %s",
                                fmt, exc.status_code, _FORMATS[level + 1])
                    self.format_index = max(self.format_index, level + 1)
                    continue
                raise
            usage = getattr(resp, "usage", None)
            tally.prompt_tokens += int(getattr(usage, "prompt_tokens", 0) or 0)
            tally.completion_tokens += int(getattr(usage, "completion_tokens", 0) or 0)
            choices = getattr(resp, "choices", None) or []
            content = getattr(choices[0].message, "content", None) if choices else None
            return content if isinstance(content, str) else ""

    async def ask(self, version: str, messages: list[dict[str, str]], schema_name: str,
                  schema: dict[str, Any], validate: Callable[[Mapping[str, Any]], Any], *,
                  extra: Mapping[str, Any] | None = None,
                  post: PostFunction | None = None,
                  ) -> tuple[Any, bool, str, LlmUsage]:
        """A validated, possibly cached answer: (value or None, cached, error, usage).

        ``version`` names the prompt (bump it when the prompt or schema changes: old
        cached answers are then ignored). ``extra`` goes to the chat request;
        ``post`` replaces it (another endpoint, e.g. the Responses API): it gets
        the messages and the tally and returns the reply text. ``error`` starts
        with the exception's class name when the call failed, and is
        :data:`NOT_JSON` when the reply was unusable. Never raises for server or
        output problems.
        """
        t0 = time.perf_counter()
        tally = LlmTally()
        key = input_hash(messages)
        value: Any = None
        cached, error = False, ""
        try:
            if self.cache is not None and not self.settings.refresh:
                try:
                    stored = await asyncio.to_thread(self.cache.get_response, self.model,
                                                     version, key)
                except (sqlite3.Error, OSError) as exc:  # corrupt or vanished: go on without
                    logger.warning("LLM cache failed (%s); continuing without it", exc)
                    self.cache, stored = None, None
                if stored is not None:
                    value = validate(stored)
                    cached = value is not None
            if value is None and not self.may_call:
                error = "offline and not in the LLM cache"
            elif value is None:
                if post is not None:
                    text = await post(messages, tally)
                else:
                    text = await self._post(messages, schema_name, schema, tally, extra=extra)
                data = extract_json(text)
                value = validate(data) if data is not None else None
                if value is None:
                    logger.info("LLM reply is not the JSON asked for: %.200r", text)
                    error = NOT_JSON
                elif self.cache is not None:
                    try:
                        await asyncio.to_thread(self.cache.put_response, self.model, version,
                                                key, value)
                    except (sqlite3.Error, OSError) as exc:  # read-only, full disk: warn once
                        logger.warning("LLM cache write failed (%s); continuing without it", exc)
                        self.cache = None
        except Exception as exc:  # noqa: BLE001 - any failure keeps the deterministic verdict
            refused = _refusal(exc)
            if refused is not None:  # the SDK's "Connection error." hides the reason
                exc = refused
            logger.warning("LLM call failed: %s", exc)
            value, error = None, f"{type(exc).__name__}: {exc}"
        used = LlmUsage(self.model, tally.requests, 1, int(cached), int(value is None),
                        tally.prompt_tokens, tally.completion_tokens,
                        time.perf_counter() - t0)
        self.usage = self.usage + used
        return value, cached, error, used


def open_session(settings: Settings, client: AsyncOpenAI | None = None, *,
                 store: ResponseStore | None = None) -> LlmSession:
    """A session (client, response cache, usage totals) for an LLM-backed feature.

    Use it as ``async with open_session(settings) as s: await s.ask(...)``; it
    closes what it opened. Raises :class:`UsageError` when openai is not
    installed or no model is set.
    """
    return LlmSession.open(settings, client, store=store)


class LlmSessions:
    """The run's one LLM session, opened at first use and closed once at the end.

    A check owns one: the LLM parse, the judge and the web-search source share its
    client, its cache and its response-format level. :meth:`get` raises
    :class:`UsageError` like :func:`open_session` (every call, while it cannot open).
    """

    def __init__(self, settings: Settings, client: AsyncOpenAI | None = None,
                 store: ResponseStore | None = None) -> None:
        self.settings = settings
        self.client = client
        self.store = store
        self.session: LlmSession | None = None

    def get(self) -> LlmSession:
        """The session, opened now when this is the first use."""
        if self.session is None:
            self.session = LlmSession.open(self.settings, self.client, store=self.store)
        return self.session

    async def close(self) -> None:
        """Close the session when one was opened."""
        if self.session is not None:
            session, self.session = self.session, None
            await session.close()
