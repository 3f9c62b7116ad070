"""Optional LLM judge, reviewer second opinion and reference parser (OpenAI-compatible).

The deterministic verifier (:mod:`citecheck_tex.verify.policy`) always runs
first; this module may then change some labels, in one of three modes
(``settings.llm_mode``):

``judge``
    the LLM decides the label of every verdict that has a record to judge
    against (the CiteCheck paper's setting);
``fallback``
    only when the deterministic verifier is unsure: confidence below
    :data:`UNSURE_CONFIDENCE` or a score within :data:`UNSURE_MARGIN` of a
    threshold;
``review``
    a second opinion on the reviewer-pass cases only (an identifier resolves
    but the title or authors do not fit): MINOR (wrong identifier on a real
    paper) vs MAJOR (hijacked identifier).

Safety rules hold in every mode: SKIPPED is never touched; a verdict whose
sources failed (UNVERIFIED) never becomes MAJOR (MAJOR needs positive
evidence); MAJOR never offers a record as a correction; and any failure of
the LLM (no server, HTTP error, output that is not the JSON asked for) leaves
the deterministic verdict exactly as it was.

Any OpenAI-compatible chat-completions server works (OpenAI, vLLM, Ollama,
llama.cpp). Structured output is asked for with ``response_format``
``json_schema``; a server that rejects it (HTTP 400/422) is asked again with
``json_object``, then with no ``response_format`` (the JSON object is then
extracted from the text). Validated responses are cached in the run's cache
file (table ``llm_responses``) by (model, prompt version, input hash); token
counts and wall time add up in :class:`LlmUsage`.

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
import threading
import time
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

from citecheck_tex.config import Settings
from citecheck_tex.errors import UsageError
from citecheck_tex.model import (
    Discrepancy,
    DiscrepancyCode,
    Entry,
    EntryOrigin,
    Label,
    Record,
    Verdict,
    VerdictCode,
)

if TYPE_CHECKING:
    from openai import AsyncOpenAI

logger = logging.getLogger(__name__)

#: Bumped whenever a prompt or schema changes: old cached answers are then ignored.
JUDGE_PROMPT_VERSION = "judge-1"
PARSE_PROMPT_VERSION = "parse-1"

#: ``fallback`` mode asks the LLM when the verdict's confidence is below this ...
UNSURE_CONFIDENCE = 0.6
#: ... or when its score lies within this distance of ``tau_minor`` or ``tau_exact``.
UNSURE_MARGIN = 0.75
#: Requests in flight at once (local servers are often single-GPU).
DEFAULT_CONCURRENCY = 4
#: An LLM answer can be slow on a local model; never wait less than this.
MIN_TIMEOUT_S = 60.0
#: Authors of a record shown to the LLM (collaboration papers list thousands).
MAX_AUTHORS_SHOWN = 25

_INSTALL_HINT = "pip install 'citecheck-tex[llm]'"
_LABELS = ("EXACT", "MINOR", "MAJOR")
_DEFAULT_SCORE = {"EXACT": 10.0, "MINOR": 7.0, "MAJOR": 1.0}
#: LLM field names -> the BibTeX names used in discrepancies and suggestions.
_FIELD_ALIASES = {
    "authors": "author", "author": "author", "title": "title", "year": "year",
    "journal": "journal", "venue": "journal", "booktitle": "journal", "volume": "volume",
    "pages": "pages", "page": "pages", "doi": "doi", "eprint": "eprint", "arxiv": "eprint",
    "arxiv_id": "eprint", "number": "number",
}
_PARSE_FIELDS = ("author", "title", "journal", "booktitle", "volume", "number", "pages", "year",
                 "doi", "eprint", "publisher", "note")
_FORMATS = ("json_schema", "json_object", "text")

JUDGE_SYSTEM_PROMPT = """\
You check one citation from a physics paper against one bibliographic record that a scholarly
database returned for it. Decide one label:
- EXACT: every field the citation states agrees with the record. Formatting is never an error:
  case, LaTeX markup and accents, abbreviated given names, "and others" after three or more
  authors, journal abbreviations (Phys. Rev. D = Phys.Rev.D = Physical Review D), volume letters
  (Nucl. Phys. B 106 = Nucl.Phys. B106), first page instead of a page range, missing optional
  fields, an arXiv id with or without prefix or version, a DOI written as a URL, and a year equal
  to either the preprint year or the publication year.
- MINOR: the record is clearly the work the citation means, but at least one stated field
  contradicts it (year, a misspelt, missing, added or reordered author, an initial, a changed
  title word, DOI, arXiv id, volume, pages, journal).
- MAJOR: the record is not the work meant and the citation describes no real work: a fabricated
  title and authors, a real title with someone else's authors (chimera), or an identifier of
  another paper with a title that describes nothing real.
Reply with one JSON object only: {"label": "EXACT"|"MINOR"|"MAJOR", "score": 0-10 (10: every
field agrees; below 4: not this work), "confidence": 0-1, "discrepancies": [{"field": BibTeX
name (author, title, year, journal, volume, pages, doi, eprint), "cited": value in the citation,
"found": value in the record}], "rationale": one short sentence}."""

PARSE_SYSTEM_PROMPT = """\
You split one bibliography item of a physics paper into BibTeX fields. Copy values from the
text; never invent or correct them. Authors go in BibTeX form "Family, Given and Family, Given"
(add "and others" for "et al."). Use an empty string for a field the text does not give.
Reply with one JSON object only with the keys: """ + ", ".join(_PARSE_FIELDS) + "."

JUDGE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "label": {"type": "string", "enum": list(_LABELS)},
        "score": {"type": "number"},
        "confidence": {"type": "number"},
        "discrepancies": {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {"field": {"type": "string"}, "cited": {"type": "string"},
                               "found": {"type": "string"}},
                "required": ["field", "cited", "found"],
                "additionalProperties": False,
            },
        },
        "rationale": {"type": "string"},
    },
    "required": ["label", "score", "confidence", "discrepancies", "rationale"],
    "additionalProperties": False,
}

PARSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {name: {"type": "string"} for name in _PARSE_FIELDS},
    "required": list(_PARSE_FIELDS),
    "additionalProperties": False,
}


# ---------------------------------------------------------------------------
# results


@dataclass(frozen=True, slots=True)
class LlmUsage:
    """What the LLM cost: requests, cache hits, failures, tokens and wall time."""

    model: str = ""
    requests: int = 0  # HTTP requests sent (a json_schema retry counts twice)
    calls: int = 0  # judgements / parses asked for
    cache_hits: int = 0
    failures: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    elapsed_s: float = 0.0

    def __add__(self, other: LlmUsage) -> LlmUsage:
        """The sum of two usages (the model of the first that has one)."""
        return LlmUsage(
            self.model or other.model,
            self.requests + other.requests,
            self.calls + other.calls,
            self.cache_hits + other.cache_hits,
            self.failures + other.failures,
            self.prompt_tokens + other.prompt_tokens,
            self.completion_tokens + other.completion_tokens,
            self.elapsed_s + other.elapsed_s,
        )

    @property
    def total_tokens(self) -> int:
        """Prompt plus completion tokens."""
        return self.prompt_tokens + self.completion_tokens

    def describe(self) -> str:
        """One line for a report, e.g. ``LLM qwen2.5: 12 calls (3 cached, 0 failed), ...``."""
        return (f"LLM {self.model or '?'}: {self.calls} calls ({self.cache_hits} cached, "
                f"{self.failures} failed, {self.requests} requests), "
                f"{self.prompt_tokens} prompt + {self.completion_tokens} completion tokens, "
                f"{self.elapsed_s:.1f} s")


@dataclass(frozen=True, slots=True)
class LlmJudgement:
    """The LLM's opinion of one citation against one record.

    ``ok`` is False when no valid opinion was obtained (``error`` says why);
    such a judgement never changes a verdict. ``record`` is the record judged
    against (None: the citation alone).
    """

    ok: bool
    label: Label | None = None
    score: float = 0.0
    confidence: float = 0.0
    discrepancies: tuple[Discrepancy, ...] = ()
    rationale: str = ""
    model: str = ""
    record: Record | None = None
    cached: bool = False
    error: str = ""
    usage: LlmUsage = field(default_factory=LlmUsage)


# ---------------------------------------------------------------------------
# client


def make_client(settings: Settings) -> AsyncOpenAI:
    """An ``openai.AsyncOpenAI`` for the configured server; the caller closes it.

    The key is read from the environment variable ``settings.llm_api_key_env``;
    a placeholder is sent when it is unset (local servers ignore it).
    """
    try:
        from openai import AsyncOpenAI
    except ImportError as exc:
        raise UsageError("the LLM features need the openai package", hint=_INSTALL_HINT) from exc
    if not settings.llm_model:
        raise UsageError("llm_mode is set but llm_model is empty",
                         hint="set llm_model (e.g. CITECHECK_LLM_MODEL=qwen2.5:7b)")
    key = settings.api_key(settings.llm_api_key_env) or "not-needed"
    return AsyncOpenAI(api_key=key, base_url=settings.llm_base_url or None,
                       timeout=max(settings.timeout_s, MIN_TIMEOUT_S),
                       max_retries=settings.max_retries)


def _is_loopback(base_url: str) -> bool:
    host = (urlsplit(base_url).hostname or "").lower()
    return host in ("localhost", "127.0.0.1", "::1") or host.startswith("127.")


# ---------------------------------------------------------------------------
# cache (own table in the run's cache file; Cache's API is keyed by source Query)

_CACHE_SCHEMA = """
CREATE TABLE IF NOT EXISTS llm_responses (
    model TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    input_hash TEXT NOT NULL,
    response TEXT NOT NULL,
    stored_at REAL NOT NULL,
    PRIMARY KEY (model, prompt_version, input_hash)
)
"""


class LlmCache:
    """Validated LLM responses by (model, prompt version, input hash). Thread-safe."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn
        self._lock = threading.Lock()

    @classmethod
    def open(cls, path: str | Path) -> LlmCache:
        """Open (creating if needed) the table in the SQLite file at ``path``."""
        p = Path(path)
        p.parent.mkdir(parents=True, exist_ok=True)
        conn = sqlite3.connect(str(p), timeout=30.0, check_same_thread=False,
                               isolation_level=None)
        try:
            conn.execute("PRAGMA busy_timeout = 30000")
            conn.execute(_CACHE_SCHEMA)
        except sqlite3.Error:
            conn.close()
            raise
        return cls(conn)

    def get(self, model: str, version: str, input_hash: str) -> dict[str, Any] | None:
        """The stored response, or None."""
        with self._lock:
            row = self._conn.execute(
                "SELECT response FROM llm_responses WHERE model = ? AND prompt_version = ? "
                "AND input_hash = ?", (model, version, input_hash)).fetchone()
        if row is None:
            return None
        try:
            data = json.loads(row[0])
        except ValueError:
            return None
        return data if isinstance(data, dict) else None

    def put(self, model: str, version: str, input_hash: str, response: Mapping[str, Any]) -> None:
        """Store a validated response."""
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO llm_responses VALUES (?, ?, ?, ?, ?)",
                (model, version, input_hash, json.dumps(response, ensure_ascii=False),
                 time.time()))

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._conn.close()


# ---------------------------------------------------------------------------
# output parsing and validation (pure)

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


def _number(value: Any, default: float, low: float, high: float) -> float:
    if isinstance(value, bool):
        return default
    if isinstance(value, str):
        try:
            value = float(value.strip())
        except ValueError:
            return default
    if not isinstance(value, (int, float)) or value != value:  # NaN
        return default
    return float(min(high, max(low, value)))


def validate_judgement(data: Mapping[str, Any]) -> dict[str, Any] | None:
    """A clean judgement dict from the LLM's JSON, or None when it is not one.

    The label is required; score is clamped to 0..10 and confidence to 0..1
    (a 0-100 confidence is read as a percentage); malformed discrepancies are
    dropped and field names mapped to BibTeX names.
    """
    label = str(data.get("label", "")).strip().upper()
    if label not in _LABELS:
        return None
    score = _number(data.get("score"), _DEFAULT_SCORE[label], 0.0, 100.0)
    if score > 10.0:
        score = 10.0
    raw_conf = _number(data.get("confidence"), 0.5, 0.0, 100.0)
    confidence = raw_conf / 100.0 if raw_conf > 1.0 else raw_conf
    discrepancies: list[dict[str, str]] = []
    raw_disc = data.get("discrepancies")
    if isinstance(raw_disc, list):
        for item in raw_disc:
            if not isinstance(item, Mapping):
                continue
            name = str(item.get("field", "")).strip().lower()
            if not name:
                continue
            discrepancies.append({
                "field": _FIELD_ALIASES.get(name, name),
                "cited": str(item.get("cited", "") or "")[:300],
                "found": str(item.get("found", "") or "")[:300],
            })
    rationale = " ".join(str(data.get("rationale", "") or "").split())[:400]
    return {"label": label, "score": round(score, 3), "confidence": round(confidence, 3),
            "discrepancies": discrepancies, "rationale": rationale}


def validate_parse(data: Mapping[str, Any]) -> dict[str, str]:
    """Only the known BibTeX fields with non-empty string values."""
    out: dict[str, str] = {}
    for name in _PARSE_FIELDS:
        value = data.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, str) and value.strip() and value.strip().lower() not in (
                "null", "none", "n/a", "unknown"):
            out[name] = " ".join(value.split())
    return out


# ---------------------------------------------------------------------------
# prompts (pure)


def _people(persons: Sequence[Any], truncated: bool, limit: int) -> str:
    names = [p.display() for p in persons[:limit]]
    if len(persons) > limit:
        names.append(f"... ({len(persons)} authors in all)")
    elif truncated:
        names.append("and others")
    return "; ".join(names)


def describe_entry(entry: Entry) -> dict[str, str]:
    """The citation as the LLM sees it (only stated fields)."""
    out = {
        "title": entry.title,
        "author": _people(entry.authors, entry.authors_truncated, MAX_AUTHORS_SHOWN),
        "year": entry.year,
        "journal": entry.venue,
        "volume": entry.volume,
        "pages": entry.pages,
        "doi": entry.doi,
        "eprint": entry.arxiv,
    }
    if not entry.title and entry.raw_text:
        out["text"] = " ".join(entry.raw_text.split())[:1000]
    return {k: v for k, v in out.items() if v}


def describe_record(record: Record) -> dict[str, str]:
    """The record as the LLM sees it."""
    years = [y for y in (record.year, *record.other_years) if y]
    out = {
        "title": record.title,
        "author": _people(record.authors, record.authors_truncated, MAX_AUTHORS_SHOWN),
        "collaboration": ", ".join(record.collaborations),
        "year": " or ".join(dict.fromkeys(years)),
        "journal": record.venue,
        "volume": record.volume,
        "pages": record.pages,
        "doi": record.doi,
        "eprint": record.arxiv,
    }
    return {k: v for k, v in out.items() if v}


def judge_messages(entry: Entry, record: Record | None) -> list[dict[str, str]]:
    """The chat messages of a judgement."""
    cited = json.dumps(describe_entry(entry), ensure_ascii=False, indent=1)
    if record is None:
        found = "No record was found in any source."
    else:
        found = (f"Record ({record.source} {record.id}):\n"
                 + json.dumps(describe_record(record), ensure_ascii=False, indent=1))
    return [{"role": "system", "content": JUDGE_SYSTEM_PROMPT},
            {"role": "user", "content": f"Citation:\n{cited}\n\n{found}"}]


def parse_messages(text: str) -> list[dict[str, str]]:
    """The chat messages of a reference-string parse."""
    return [{"role": "system", "content": PARSE_SYSTEM_PROMPT},
            {"role": "user", "content": " ".join(text.split())[:2000]}]


def _input_hash(messages: Sequence[Mapping[str, str]]) -> str:
    payload = json.dumps(list(messages), ensure_ascii=False, sort_keys=True)
    return hashlib.sha256(payload.encode("utf-8")).hexdigest()


# ---------------------------------------------------------------------------
# session: one client, one cache connection, usage totals


class LlmSession:
    """Client, cache and usage of one batch of LLM calls (not shared across runs)."""

    def __init__(self, settings: Settings, client: AsyncOpenAI, owns_client: bool,
                 cache: LlmCache | None) -> None:
        self.settings = settings
        self.client = client
        self.owns_client = owns_client
        self.cache = cache
        self.model = settings.llm_model
        self.format_index = 0  # drops to json_object / text once the server refuses
        self.usage = LlmUsage(model=settings.llm_model)
        self.may_call = not settings.offline or _is_loopback(settings.llm_base_url)

    @classmethod
    def open(cls, settings: Settings, client: AsyncOpenAI | None) -> LlmSession:
        own = client is None
        real = make_client(settings) if client is None else client
        cache = None
        path = settings.resolved_cache_path()
        if path is not None:
            try:
                cache = LlmCache.open(path)
            except (OSError, sqlite3.Error) as exc:
                logger.warning("LLM cache unavailable (%s); continuing without it", exc)
        return cls(settings, real, own, cache)

    async def close(self) -> None:
        if self.cache is not None:
            self.cache.close()
        if self.owns_client:
            await self.client.close()

    async def __aenter__(self) -> LlmSession:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def _post(self, messages: list[dict[str, str]], schema_name: str,
                    schema: dict[str, Any], tally: _Tally, *,
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

        ``extra`` goes to :meth:`_post`; ``post`` replaces it (another endpoint,
        e.g. the Responses API): it gets the messages and the tally and returns
        the reply text. ``error`` starts with the exception's class name when
        the call failed, and is :data:`NOT_JSON` when the reply was unusable.
        """
        t0 = time.perf_counter()
        tally = _Tally()
        key = _input_hash(messages)
        value: Any = None
        cached, error = False, ""
        try:
            if self.cache is not None and not self.settings.refresh:
                try:
                    stored = await asyncio.to_thread(self.cache.get, self.model, version, key)
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
                        await asyncio.to_thread(self.cache.put, self.model, version, key, value)
                    except (sqlite3.Error, OSError) as exc:  # read-only, full disk: warn once
                        logger.warning("LLM cache write failed (%s); continuing without it", exc)
                        self.cache = None
        except Exception as exc:  # noqa: BLE001 - any failure keeps the deterministic verdict
            logger.warning("LLM call failed: %s", exc)
            value, error = None, f"{type(exc).__name__}: {exc}"
        used = LlmUsage(self.model, tally.requests, 1, int(cached), int(value is None),
                        tally.prompt_tokens, tally.completion_tokens,
                        time.perf_counter() - t0)
        self.usage = self.usage + used
        return value, cached, error, used

    async def judge(self, entry: Entry, record: Record | None) -> LlmJudgement:
        value, cached, error, used = await self.ask(
            JUDGE_PROMPT_VERSION, judge_messages(entry, record), "citation_judgement",
            JUDGE_SCHEMA, validate_judgement)
        if value is None:
            return LlmJudgement(False, model=self.model, record=record, error=error, usage=used)
        discs = tuple(Discrepancy(d["field"], d["cited"], d["found"], "LLM",
                                  DiscrepancyCode.LLM_REPORTED)
                      for d in value["discrepancies"])
        return LlmJudgement(True, Label(value["label"]), value["score"], value["confidence"],
                            discs, value["rationale"], self.model, record, cached, "", used)

    async def parse(self, text: str) -> dict[str, str]:
        value, _, _, _ = await self.ask(PARSE_PROMPT_VERSION, parse_messages(text),
                                        "bibtex_fields", PARSE_SCHEMA,
                                        lambda d: validate_parse(d) or None)
        return dict(value) if value else {}


@dataclass(slots=True)
class _Tally:
    """Mutable counters of one call (requests and tokens)."""

    requests: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0


#: Counters a custom ``post`` function of :meth:`LlmSession.ask` updates.
LlmTally = _Tally
#: A custom request function for :meth:`LlmSession.ask`: (messages, tally) -> reply text.
PostFunction = Callable[[list[dict[str, str]], _Tally], Awaitable[str]]
#: The ``error`` of :meth:`LlmSession.ask` when the reply was not the JSON asked for.
NOT_JSON = "the LLM reply is not the JSON asked for"


def open_session(settings: Settings, client: AsyncOpenAI | None = None) -> LlmSession:
    """A session (client, response cache, usage totals) for another LLM-backed feature.

    Use it as ``async with open_session(settings) as s: await s.ask(...)``; it
    closes its cache and, when it made it, its client. Raises
    :class:`UsageError` when openai is not installed or no model is set.
    """
    return LlmSession.open(settings, client)


# ---------------------------------------------------------------------------
# public API


async def llm_judge(entry: Entry, record: Record | None, settings: Settings, *,
                    client: AsyncOpenAI | None = None) -> LlmJudgement:
    """Ask the LLM to label ``entry`` against ``record`` (None: no record found).

    Never raises for server or output problems: the judgement then has
    ``ok=False``. Raises :class:`UsageError` when openai is not installed or
    no model is configured. A passed ``client`` is not closed.
    """
    async with LlmSession.open(settings, client) as session:
        return await session.judge(entry, record)


async def llm_parse_reference(text: str, settings: Settings, *,
                              client: AsyncOpenAI | None = None) -> dict[str, str]:
    """BibTeX-like fields of a free-text reference (empty when the LLM could not split it)."""
    async with LlmSession.open(settings, client) as session:
        return await session.parse(text)


def needs_parse(entry: Entry) -> bool:
    """True for a .bbl/text item the rule-based parser could not split (no title, no
    journal) or read poorly (``Entry.parse_issue``)."""
    return (entry.origin is not EntryOrigin.BIB and bool(entry.raw_text.strip())
            and ((not entry.title and not entry.venue) or bool(entry.parse_issue)))


async def llm_parse_entries(entries: Sequence[Entry], settings: Settings, *,
                            client: AsyncOpenAI | None = None,
                            concurrency: int = DEFAULT_CONCURRENCY,
                            ) -> tuple[list[Entry], LlmUsage]:
    """Re-parse with the LLM every entry :func:`needs_parse` selects; others pass through.

    A re-parsed entry keeps its key, file, line and raw text; fields the LLM
    did not give stay as the rule-based parser found them.
    """
    from citecheck_tex.tex.bib import build_entry

    todo = [i for i, e in enumerate(entries) if needs_parse(e)]
    out = list(entries)
    if not todo:
        return out, LlmUsage(model=settings.llm_model)
    sem = asyncio.Semaphore(max(1, concurrency))
    async with LlmSession.open(settings, client) as session:
        async def one(i: int) -> None:
            e = entries[i]
            async with sem:
                fields = await session.parse(e.raw_text)
            if not fields.get("title") and not fields.get("journal"):
                return
            # the rules' fields win, except the title and authors of a poor parse
            keep = {k: v for k, v in e.fields.items() if v
                    and not (e.parse_issue and k in ("title", "author", "note"))}
            merged = {**fields, **keep}
            etype = "article" if merged.get("journal") else e.entry_type
            out[i] = build_entry(e.key, etype, e.file, e.line, merged, origin=e.origin,
                                 end_line=e.end_line, raw_text=e.raw_text, decoded=merged)

        await asyncio.gather(*(one(i) for i in todo))
        return out, session.usage


def is_review_case(verdict: Verdict) -> bool:
    """True when the reviewer pass decided this verdict (an identifier resolved to a misfit)."""
    if verdict.code is VerdictCode.IDENTIFIER_MISMATCH or verdict.facts.get("other_work"):
        return True
    if any(DiscrepancyCode.IDENTIFIER_OTHER_WORK in d.codes for d in verdict.discrepancies):
        return True
    by_id = any(fc.agree is True for fc in verdict.checks if fc.field in ("doi", "eprint"))
    bad_title = any(fc.agree is False for fc in verdict.checks if fc.field == "title")
    return by_id and bad_title


def is_unsure(verdict: Verdict, settings: Settings) -> bool:
    """True when the deterministic verdict is close to a threshold or of low confidence."""
    if verdict.confidence < UNSURE_CONFIDENCE:
        return True
    return any(abs(verdict.score - tau) <= UNSURE_MARGIN
               for tau in (settings.tau_minor, settings.tau_exact))


def needs_llm(verdict: Verdict, record: Record | None, settings: Settings) -> bool:
    """True when ``settings.llm_mode`` asks the LLM about this verdict.

    Never for SKIPPED, nor without a record (without evidence the LLM can only
    agree: it may not confirm a work from memory nor make UNVERIFIED MAJOR).
    """
    mode = settings.llm_mode
    if mode == "off" or record is None or verdict.label is Label.SKIPPED:
        return False
    if record.proposed:  # an unconfirmed LLM proposal is no evidence
        return False
    if mode == "judge":
        return True
    if mode == "fallback":
        return is_unsure(verdict, settings)
    if mode == "review":
        return verdict.label in (Label.MINOR, Label.MAJOR) and is_review_case(verdict)
    return False


def _minor_suggestions(entry: Entry, record: Record,
                       discs: Sequence[Discrepancy]) -> dict[str, str]:
    from citecheck_tex.verify.compare import compare
    from citecheck_tex.verify.suggest import suggest

    out = dict(suggest(entry, compare(entry, record)))
    for d in discs:
        if d.field in _FIELD_ALIASES.values() and d.found and d.field not in out:
            out[d.field] = d.found
    return out


def combine(verdict: Verdict, judgement: LlmJudgement | None, settings: Settings) -> Verdict:
    """The verdict after the LLM's opinion, under ``settings.llm_mode``.

    Unchanged when the mode does not select the verdict or the judgement
    failed. Otherwise the LLM's label wins, with three exceptions: UNVERIFIED
    never becomes MAJOR; without a record nothing changes; in ``review`` mode
    only MINOR <-> MAJOR switches. The reason says that the LLM was consulted.
    """
    if judgement is None or not judgement.ok or judgement.label is None:
        return verdict
    record = judgement.record
    if not needs_llm(verdict, record, settings) or record is None:
        return verdict
    new = judgement.label
    opinion = {**verdict.facts, "llm_model": judgement.model or settings.llm_model,
               "llm_label": new.value, "llm_why": judgement.rationale}
    if new is verdict.label:
        return replace(verdict, facts=opinion)
    keep = ""
    if verdict.label is Label.UNVERIFIED and new is Label.MAJOR:
        keep = "kept UNVERIFIED because a source failed"
    elif settings.llm_mode == "review" and new is Label.EXACT:
        keep = "kept: the cited identifier belongs to another record"
    if keep:
        return replace(verdict, facts={**opinion, "llm_keep": keep})
    opinion["llm_was"] = verdict.label.value
    score, confidence = judgement.score, judgement.confidence
    if new is Label.EXACT:
        return replace(verdict, label=new, score=score, confidence=confidence,
                       code=VerdictCode.LLM_EXACT, facts=opinion, match=record,
                       discrepancies=(), suggested=None)
    if new is Label.MINOR:
        discs = judgement.discrepancies or verdict.discrepancies
        return replace(verdict, label=new, score=score, confidence=confidence,
                       code=VerdictCode.LLM_MINOR, facts=opinion, match=record,
                       discrepancies=discs,
                       suggested=_minor_suggestions(verdict.entry, record, discs) or None)
    # MAJOR: never offer the record as a correction of a fabricated work
    return replace(verdict, label=new, score=score, confidence=confidence,
                   code=VerdictCode.LLM_MAJOR, facts=opinion, match=None, suggested=None,
                   discrepancies=judgement.discrepancies or verdict.discrepancies)


async def apply_llm(pairs: Sequence[tuple[Verdict, Record | None]], settings: Settings, *,
                    client: AsyncOpenAI | None = None,
                    concurrency: int = DEFAULT_CONCURRENCY) -> tuple[list[Verdict], LlmUsage]:
    """Consult the LLM on the verdicts ``settings.llm_mode`` selects and combine.

    ``pairs`` holds each deterministic verdict with the record to judge it
    against (its match, or the closest candidate of a MAJOR/UNVERIFIED one).
    Returns the verdicts in order and the usage totals. At most
    ``concurrency`` requests are in flight.
    """
    verdicts = [v for v, _ in pairs]
    todo = [i for i, (v, r) in enumerate(pairs) if needs_llm(v, r, settings)]
    if not todo:
        return verdicts, LlmUsage(model=settings.llm_model)
    sem = asyncio.Semaphore(max(1, concurrency))
    async with LlmSession.open(settings, client) as session:
        async def one(i: int) -> None:
            v, r = pairs[i]
            async with sem:
                judgement = await session.judge(v.entry, r)
            verdicts[i] = combine(v, judgement, settings)

        await asyncio.gather(*(one(i) for i in todo))
        return verdicts, session.usage


__all__ = [
    "LlmCache",
    "LlmJudgement",
    "LlmTally",
    "LlmUsage",
    "NOT_JSON",
    "PostFunction",
    "apply_llm",
    "combine",
    "is_review_case",
    "is_unsure",
    "llm_judge",
    "llm_parse_entries",
    "llm_parse_reference",
    "make_client",
    "needs_llm",
    "needs_parse",
    "open_session",
]
