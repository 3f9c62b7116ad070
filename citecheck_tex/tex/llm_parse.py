"""Optional LLM reference parser: BibTeX fields of a free-text bibliography item.

Used with ``--llm`` for the ``.bbl``/text items the rule-based parser
(:mod:`citecheck_tex.tex.refstring`) could not split or read poorly
(:func:`needs_parse`); the entry is rebuilt with the frontend's own
:func:`~citecheck_tex.tex.bib.build_entry`. The prompt is here; the client
session, its cache and usage accounting are :mod:`citecheck_tex.llm`'s.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from citecheck_tex.config import Settings
from citecheck_tex.llm import LlmSession, LlmUsage, open_session
from citecheck_tex.model import Entry, EntryOrigin
from citecheck_tex.tex.bib import build_entry

if TYPE_CHECKING:
    from openai import AsyncOpenAI

#: Bumped whenever the prompt or schema changes: old cached answers are then ignored.
PARSE_PROMPT_VERSION = "parse-1"
#: Requests in flight at once (local servers are often single-GPU).
DEFAULT_CONCURRENCY = 4

_PARSE_FIELDS = ("author", "title", "journal", "booktitle", "volume", "number", "pages", "year",
                 "doi", "eprint", "publisher", "note")

PARSE_SYSTEM_PROMPT = """\
You split one bibliography item of a physics paper into BibTeX fields. Copy values from the
text; never invent or correct them. Authors go in BibTeX form "Family, Given and Family, Given"
(add "and others" for "et al."). Use an empty string for a field the text does not give.
Reply with one JSON object only with the keys: """ + ", ".join(_PARSE_FIELDS) + "."

PARSE_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {name: {"type": "string"} for name in _PARSE_FIELDS},
    "required": list(_PARSE_FIELDS),
    "additionalProperties": False,
}


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


def parse_messages(text: str) -> list[dict[str, str]]:
    """The chat messages of a reference-string parse."""
    return [{"role": "system", "content": PARSE_SYSTEM_PROMPT},
            {"role": "user", "content": " ".join(text.split())[:2000]}]


async def parse_reference(session: LlmSession, text: str) -> tuple[dict[str, str], LlmUsage]:
    """BibTeX-like fields of a free-text reference in ``session`` (empty when the LLM could
    not split it), and what the call cost."""
    value, _, _, used = await session.ask(PARSE_PROMPT_VERSION, parse_messages(text),
                                          "bibtex_fields", PARSE_SCHEMA,
                                          lambda d: validate_parse(d) or None)
    return (dict(value) if value else {}), used


async def llm_parse_reference(text: str, settings: Settings, *,
                              client: AsyncOpenAI | None = None) -> dict[str, str]:
    """BibTeX-like fields of a free-text reference (empty when the LLM could not split it)."""
    async with open_session(settings, client) as session:
        fields, _ = await parse_reference(session, text)
        return fields


def needs_parse(entry: Entry) -> bool:
    """True for a .bbl/text item the rule-based parser could not split (no title, no
    journal) or read poorly (``Entry.parse_issue``)."""
    return (entry.origin is not EntryOrigin.BIB and bool(entry.raw_text.strip())
            and ((not entry.title and not entry.venue) or bool(entry.parse_issue)))


async def llm_parse_entries(entries: Sequence[Entry], settings: Settings, *,
                            client: AsyncOpenAI | None = None,
                            concurrency: int = DEFAULT_CONCURRENCY,
                            session: LlmSession | None = None,
                            ) -> tuple[list[Entry], LlmUsage]:
    """Re-parse with the LLM every entry :func:`needs_parse` selects; others pass through.

    A re-parsed entry keeps its key, file, line and raw text; fields the LLM
    did not give stay as the rule-based parser found them. ``session``: the run's
    LLM session (kept open); otherwise one is opened for these calls and closed.
    Returns the entries and what the parses cost.
    """
    todo = [i for i, e in enumerate(entries) if needs_parse(e)]
    out = list(entries)
    spent = LlmUsage(model=settings.llm_model)
    if not todo:
        return out, spent
    own = session is None
    active = open_session(settings, client) if session is None else session
    sem = asyncio.Semaphore(max(1, concurrency))
    try:
        async def one(i: int) -> None:
            nonlocal spent
            e = entries[i]
            async with sem:
                fields, used = await parse_reference(active, e.raw_text)
            spent = spent + used
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
    finally:
        if own:
            await active.close()
    return out, spent


__all__ = [
    "PARSE_SCHEMA",
    "llm_parse_entries",
    "llm_parse_reference",
    "needs_parse",
    "parse_messages",
    "parse_reference",
    "validate_parse",
]
