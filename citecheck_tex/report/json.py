"""The JSON report: the stable contract of ``docs/report.schema.json``.

Schema 2 adds stable codes: ``code`` on each entry (why it has its label, a
:class:`~citecheck_tex.model.VerdictCode`) and ``code``/``codes`` on each discrepancy
(a :class:`~citecheck_tex.model.DiscrepancyCode`; ``codes`` lists every kind found in
the field, the main one first). Every schema-1 key stays, with the same meaning, so
schema-1 consumers keep working; ``reason`` is the English rendering of the code and
may be reworded (compare codes, not text). Keys are never removed or renamed; new
keys may be added.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from citecheck_tex.model import Record, Verdict
from citecheck_tex.report.base import (
    USAGE_COUNTS,
    ReportFile,
    register_reporter,
    sites_of,
    usage_totals,
    utf8_pieces,
)

if TYPE_CHECKING:
    from citecheck_tex.config import Settings
    from citecheck_tex.model import RunResult

logger = logging.getLogger(__name__)

SCHEMA_VERSION = 2


def _match(record: Record | None) -> dict[str, Any] | None:
    if record is None:
        return None
    return {
        "source": record.source,
        "id": record.id,
        "url": record.url,
        "title": record.title,
        "authors": [p.display() for p in record.authors],
        "year": record.year,
        "venue": record.venue,
        "volume": record.volume,
        "pages": record.pages,
        "doi": record.doi,
        "arxiv": record.arxiv,
        # an unconfirmed lead of the LLM web search (its ``id`` names the model)
        "proposed": record.proposed,
    }


def _usage(result: RunResult) -> dict[str, Any] | None:
    """What the LLM parts cost (None when none was configured)."""
    if result.llm_usage is None:
        return None
    totals = usage_totals(result.llm_usage)
    return {
        "model": result.llm_model,
        **totals,
        "total_tokens": totals["prompt_tokens"] + totals["completion_tokens"],
        "parts": {name: {k: int(counts.get(k, 0)) for k in USAGE_COUNTS}
                  for name, counts in sorted(result.llm_usage.items())},
    }


def _cited(verdict: Verdict) -> dict[str, Any]:
    entry = verdict.entry
    cited: dict[str, Any] = {k: str(v) for k, v in entry.fields.items()}
    cited["authors"] = [p.display() for p in entry.authors]
    return cited


def _entry(verdict: Verdict, result: RunResult) -> dict[str, Any]:
    entry = verdict.entry
    return {
        "key": entry.key,
        "label": verdict.label.value,
        "code": verdict.code.value,
        "score": round(float(verdict.score), 3),
        "confidence": round(float(verdict.confidence), 3),
        "reason": verdict.reason,
        "file": entry.file,
        "line": entry.line,
        "entry_type": entry.entry_type,
        "origin": entry.origin.value,
        "cited": _cited(verdict),
        "match": _match(verdict.match),
        "discrepancies": [
            {"field": d.field, "cited": d.cited, "found": d.found, "note": d.note,
             "code": d.code.value, "codes": [c.value for c in d.codes]}
            for d in verdict.discrepancies
        ],
        "suggested": dict(verdict.suggested) if verdict.suggested is not None else None,
        "cited_at": [
            {"file": s.file, "line": s.line, "command": s.command}
            for s in sites_of(verdict, result)
        ],
        "sources": [
            {
                "source": a.source,
                "kind": a.kind,
                "status": a.status.value,
                "latency_ms": round(float(a.latency_ms), 1),
                "cached": a.cached,
                "message": a.message,
            }
            for a in verdict.attempts
        ],
    }


def build_report(result: RunResult) -> dict[str, Any]:
    """The schema-2 report as plain JSON-ready data."""
    report = _report_head(result)
    report["entries"] = [_entry(v, result) for v in result.verdicts]
    return report


def _report_head(result: RunResult) -> dict[str, Any]:
    """:func:`build_report` with ``entries`` left empty (they are streamed)."""
    summary = result.summary()
    return {
        "schema": SCHEMA_VERSION,
        "tool": {"name": "citecheck-tex", "version": result.tool_version},
        "input": result.input,
        "offline": result.offline,
        "summary": {k: summary.get(k, 0) for k in ("EXACT", "MINOR", "MAJOR", "UNVERIFIED",
                                                   "SKIPPED")},
        "entries": [],
        "problems": [
            {"code": p.code, "severity": p.severity, "message": p.message, "key": p.key,
             "file": p.file, "line": p.line}
            for p in result.problems
        ],
        # null for a complete run; else why retrieval stopped early ("deadline",
        # "interrupted") and how many references it left UNVERIFIED
        "partial": {"reason": result.partial,
                    "unsettled": sum(1 for v in result.verdicts if v.unsettled)}
        if result.partial else None,
        "elapsed_s": round(float(result.elapsed_s), 3),
        "http_requests": result.http_requests,
        "usage": _usage(result),
    }


def render_json(result: RunResult) -> str:
    """The schema-2 JSON report, pretty-printed, UTF-8 text with a final newline."""
    return "".join(iter_json(result))


def _nested(value: Any, indent: str) -> str:
    """``value`` as ``json.dumps(indent=2)`` writes it at depth ``indent``."""
    return json.dumps(value, ensure_ascii=False, indent=2).replace("\n", "\n" + indent)


def iter_json(result: RunResult) -> Iterator[str]:
    """:func:`render_json` in pieces, one entry at a time.

    The text is exactly ``json.dumps(build_report(result), indent=2)`` plus a
    newline, but only one entry's data is held at a time: on a 100,000-entry
    .bib the whole report's objects took gigabytes.
    """
    head = _report_head(result)
    yield "{"
    for n, (name, value) in enumerate(head.items()):
        yield ("\n  " if n == 0 else ",\n  ") + json.dumps(name) + ": "
        if name != "entries":
            yield _nested(value, "  ")
        elif not result.verdicts:
            yield "[]"
        else:
            yield "["
            for i, v in enumerate(result.verdicts):
                yield ("\n    " if i == 0 else ",\n    ") + _nested(_entry(v, result), "    ")
            yield "\n  ]"
    yield "\n}\n"


@register_reporter("json")
class JsonReporter:
    """Registry adapter for :func:`render_json`."""

    name = "json"

    def render(self, result: RunResult, settings: Settings) -> str:
        """Render ``result`` as schema-2 JSON."""
        return render_json(result)

    def files(self, result: RunResult, settings: Settings) -> Iterator[ReportFile]:
        """``report.json``, streamed one entry at a time."""
        yield ReportFile("report.json", utf8_pieces(iter_json(result)))
