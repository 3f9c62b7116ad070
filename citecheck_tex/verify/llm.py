"""Optional LLM judge and reviewer second opinion (OpenAI-compatible).

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

The prompts and the schema are here; the client session (any OpenAI-compatible
chat-completions server: OpenAI, vLLM, Ollama, llama.cpp), its response cache
and usage accounting are :mod:`citecheck_tex.llm`'s. The ``openai`` package is
imported lazily: install it with ``pip install 'citecheck-tex[llm]'``.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from citecheck_tex.config import Settings
from citecheck_tex.llm import LlmSession, LlmUsage, open_session
from citecheck_tex.model import (
    Discrepancy,
    DiscrepancyCode,
    Entry,
    Label,
    Record,
    Verdict,
    VerdictCode,
)

if TYPE_CHECKING:
    from openai import AsyncOpenAI

#: Bumped whenever a prompt or schema changes: old cached answers are then ignored.
JUDGE_PROMPT_VERSION = "judge-1"

#: ``fallback`` mode asks the LLM when the verdict's confidence is below this ...
UNSURE_CONFIDENCE = 0.6
#: ... or when its score lies within this distance of ``tau_minor`` or ``tau_exact``.
UNSURE_MARGIN = 0.75
#: Requests in flight at once (local servers are often single-GPU).
DEFAULT_CONCURRENCY = 4
#: Authors of a record shown to the LLM (collaboration papers list thousands).
MAX_AUTHORS_SHOWN = 25

_LABELS = ("EXACT", "MINOR", "MAJOR")
_DEFAULT_SCORE = {"EXACT": 10.0, "MINOR": 7.0, "MAJOR": 1.0}
#: LLM field names -> the BibTeX names used in discrepancies and suggestions.
_FIELD_ALIASES = {
    "authors": "author", "author": "author", "title": "title", "year": "year",
    "journal": "journal", "venue": "journal", "booktitle": "journal", "volume": "volume",
    "pages": "pages", "page": "pages", "doi": "doi", "eprint": "eprint", "arxiv": "eprint",
    "arxiv_id": "eprint", "number": "number",
}

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


# ---------------------------------------------------------------------------
# results


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
# output validation and prompts (pure)


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




async def judge(session: LlmSession, entry: Entry, record: Record | None) -> LlmJudgement:
    """The LLM's judgement of ``entry`` against ``record`` in ``session``; never raises for
    server or output problems (the judgement then has ``ok=False``)."""
    value, cached, error, used = await session.ask(
        JUDGE_PROMPT_VERSION, judge_messages(entry, record), "citation_judgement",
        JUDGE_SCHEMA, validate_judgement)
    if value is None:
        return LlmJudgement(False, model=session.model, record=record, error=error, usage=used)
    discs = tuple(Discrepancy(d["field"], d["cited"], d["found"], "LLM",
                              DiscrepancyCode.LLM_REPORTED)
                  for d in value["discrepancies"])
    return LlmJudgement(True, Label(value["label"]), value["score"], value["confidence"],
                        discs, value["rationale"], session.model, record, cached, "", used)


# ---------------------------------------------------------------------------
# public API


async def llm_judge(entry: Entry, record: Record | None, settings: Settings, *,
                    client: AsyncOpenAI | None = None) -> LlmJudgement:
    """Ask the LLM to label ``entry`` against ``record`` (None: no record found).

    Never raises for server or output problems: the judgement then has
    ``ok=False``. Raises :class:`UsageError` when openai is not installed or
    no model is configured. A passed ``client`` is not closed.
    """
    async with open_session(settings, client) as session:
        return await judge(session, entry, record)


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
                    concurrency: int = DEFAULT_CONCURRENCY,
                    session: LlmSession | Callable[[], LlmSession] | None = None,
                    ) -> tuple[list[Verdict], LlmUsage]:
    """Consult the LLM on the verdicts ``settings.llm_mode`` selects and combine.

    ``pairs`` holds each deterministic verdict with the record to judge it
    against (its match, or the closest candidate of a MAJOR/UNVERIFIED one).
    Returns the verdicts in order and what the judgements cost. At most
    ``concurrency`` requests are in flight. ``session``: the run's LLM session, or
    what opens it when a verdict needs it (kept open); otherwise one is opened
    for these calls and closed (a passed ``client`` is not closed).
    """
    verdicts = [v for v, _ in pairs]
    todo = [i for i, (v, r) in enumerate(pairs) if needs_llm(v, r, settings)]
    spent = LlmUsage(model=settings.llm_model)
    if not todo:
        return verdicts, spent
    own = session is None
    if session is None:
        active = open_session(settings, client)
    else:
        active = session if isinstance(session, LlmSession) else session()
    sem = asyncio.Semaphore(max(1, concurrency))
    try:
        async def one(i: int) -> None:
            nonlocal spent
            v, r = pairs[i]
            async with sem:
                judgement = await judge(active, v.entry, r)
            spent = spent + judgement.usage
            verdicts[i] = combine(v, judgement, settings)

        await asyncio.gather(*(one(i) for i in todo))
    finally:
        if own:
            await active.close()
    return verdicts, spent


__all__ = [
    "LlmJudgement",
    "apply_llm",
    "combine",
    "is_review_case",
    "is_unsure",
    "judge",
    "judge_messages",
    "llm_judge",
    "needs_llm",
    "validate_judgement",
]
