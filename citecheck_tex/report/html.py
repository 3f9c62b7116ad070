"""The HTML report: one self-contained file (inline CSS and JS, no external assets).

The template lives in ``templates/report.html.j2`` (shipped as the package
``citecheck_tex.templates``) and is rendered with autoescape on: titles with
``<``, ``&`` or LaTeX are shown as text, never as markup. This module only
prepares plain view data; all markup is in the template. Beside the prose, each
reference shows its reason code and each discrepancy its codes as small labels whose
tooltip is the code's meaning (``docs/codes.md``); the filter finds references by code.
"""

from __future__ import annotations

import importlib.resources
import json
import logging
import re
from functools import lru_cache
from typing import TYPE_CHECKING, Any
from urllib.parse import urlsplit

import jinja2

from citecheck_tex.model import Discrepancy, Label, SourceStatus, Verdict
from citecheck_tex.report.annotated_bib import suggested_bibtex
from citecheck_tex.report.base import (
    DISPLAY_FIELDS,
    INDEX_ONLY_ADVICE,
    LABEL_ORDER,
    ReportFile,
    describe_partial,
    describe_usage,
    entry_field,
    is_index_only,
    location,
    proposed_by,
    real_work_caption,
    record_field,
    record_links,
    register_reporter,
    safe_url,
    sites_of,
    sorted_verdicts,
    utf8_pieces,
)
from citecheck_tex.report.controls import strip_controls

if TYPE_CHECKING:
    from collections.abc import Iterator

    from citecheck_tex.config import Settings
    from citecheck_tex.model import RunResult

logger = logging.getLogger(__name__)

TEMPLATE = "report.html.j2"

#: Discrepancy field names -> the display field they belong to.
_FIELD_GROUP = {
    "author": "authors", "authors": "authors", "journal": "venue", "booktitle": "venue",
    "journaltitle": "venue", "venue": "venue", "eprint": "arxiv", "arxiv": "arxiv",
    "date": "year",
}

_LABEL_HELP = {
    "MAJOR": "no real record matches: possibly hallucinated",
    "MINOR": "real work, some fields wrong",
    "UNVERIFIED": "could not be confirmed",
    "EXACT": "matches a real record",
    "SKIPPED": "not checked",
}


def _load_template(name: str) -> str | None:
    resource = importlib.resources.files("citecheck_tex.templates").joinpath(name)
    try:
        return resource.read_text(encoding="utf-8")
    except (FileNotFoundError, IsADirectoryError):
        return None


@lru_cache(maxsize=1)
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FunctionLoader(_load_template),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["tojson_attr"] = lambda value: json.dumps(value, ensure_ascii=False)
    return env


def _group(field: str) -> str:
    return _FIELD_GROUP.get(field.lower(), field.lower())


def _loose(text: str) -> str:
    """Text reduced for an "obviously equal" test: case, punctuation, leading zeros."""
    words = re.findall(r"\w+", text.casefold())
    return " ".join(w.lstrip("0") or "0" for w in words)


def _field_rows(v: Verdict, fixes: bool = True) -> list[dict[str, Any]]:
    """Cited vs found rows with a status: diff, same, other, missing (found only) or none.

    ``fixes`` False: the record is evidence or an unconfirmed lead, not a source of
    values to add, so a field only it states is "other", not "missing".
    """
    wrong = {_group(d.field) for d in v.discrepancies}
    agree = {_group(c.field): c.agree for c in v.checks}
    rows: list[dict[str, Any]] = []
    names = [name for name, _ in DISPLAY_FIELDS]
    extra = [_group(d.field) for d in v.discrepancies if _group(d.field) not in names]
    for name, human in [*DISPLAY_FIELDS, *((e, e.capitalize()) for e in dict.fromkeys(extra))]:
        cited = entry_field(v, name)
        found = record_field(v.match, name) if v.match is not None else ""
        d = next((d for d in v.discrepancies if _group(d.field) == name), None)
        if d is not None:
            cited, found = cited or d.cited, found or d.found
        if not cited and not found:
            continue
        if name in wrong or agree.get(name) is False:
            status = "diff"
        elif not found:
            status = "none"
        elif not cited:
            status = "missing" if fixes else "other"
        elif agree.get(name) is True or _loose(cited) == _loose(found):
            status = "same"
        else:
            status = "other"  # not compared, or judged equivalent (abbreviations, ...)
        rows.append({"name": human, "cited": cited, "found": found, "status": status})
    return rows


#: Where a record link points, by host: the link says so instead of the source's
#: internal name (a record of the local index is an INSPIRE, arXiv or Crossref record).
_ORIGINS = (
    ("inspirehep.net", "INSPIRE"), ("arxiv.org", "arXiv"), ("doi.org", "doi.org"),
    ("crossref.org", "Crossref"), ("openalex.org", "OpenAlex"), ("datacite.org", "DataCite"),
    ("semanticscholar.org", "Semantic Scholar"), ("dblp.org", "DBLP"),
    ("adsabs.harvard.edu", "NASA ADS"),
)


def origin_of(url: str) -> str:
    """The name of the site ``url`` points to (``INSPIRE``, ``arXiv``, ``doi.org`` ...),
    else its host."""
    host = (urlsplit(url).hostname or "").lower()
    for suffix, name in _ORIGINS:
        if host == suffix or host.endswith("." + suffix):
            return name
    return host


def _links(v: Verdict) -> list[dict[str, str]]:
    """Record links named by where they lead: ``INSPIRE record``, ``doi.org: 10.x/y``."""
    if v.match is None:
        return []
    out = []
    for text, url in record_links(v.match):
        origin = origin_of(url)
        if text.startswith("doi:"):
            label = f"doi.org: {text[4:]}"
        elif text.startswith("arXiv:"):
            label = f"arXiv: {text[6:]}"
        else:
            label = f"{origin} record" if origin else text
        out.append({"text": label, "url": url, "origin": origin})
    return out


def _fixes(v: Verdict) -> list[dict[str, Any]]:
    """A MINOR's corrections as ``field: cited -> value`` (the suggested value when any)."""
    if v.label is not Label.MINOR:
        return []
    from citecheck_tex.report.terminal import focus_difference

    suggested = dict(v.suggested or {})
    out: list[dict[str, Any]] = []
    for d in v.discrepancies:
        value = suggested.get(d.field, d.found)
        # long values (author lists) show the part that differs; Copy takes the whole value
        short_cited, short_found = focus_difference(d.cited, value, 32)
        out.append({"field": d.field, "cited": d.cited, "found": value,
                    "short_cited": short_cited if d.cited else "", "short_found": short_found,
                    "codes": _codes(d)})
    return out


def _codes(d: Discrepancy) -> list[dict[str, str]]:
    """A discrepancy's codes (the main one first) with their meanings (tooltips)."""
    return [{"code": c.value, "meaning": c.meaning} for c in d.codes]


def _problem_order(code: str, severity: str) -> tuple[int, int]:
    return (0 if severity == "error" else 1, 0 if code == "undefined-key" else 1)


def _reference(v: Verdict, result: RunResult, n: int) -> dict[str, Any]:
    entry = v.entry
    authors = [p.display() for p in entry.authors]
    author_text = ", ".join(authors[:3]) + (" et al." if len(authors) > 3 or
                                             entry.authors_truncated else "")
    title = entry.title or entry.get("title") or entry.raw_text
    sites = [{"loc": location(s.file, s.line),
              "command": "\\" + s.command.lstrip("\\") if s.command else ""}
             for s in sites_of(v, result)]
    suggested_bib = ""
    if v.label is Label.MINOR and v.suggested:
        suggested_bib = suggested_bibtex(entry, v.suggested)
    links = _links(v)
    model = proposed_by(v.match)
    real_work = real_work_caption(v)
    # a MAJOR without a real work behind it: its closest record is not a match, never a fix
    closest = v.label is Label.MAJOR and not real_work
    origin = links[0]["origin"] if links else ""
    # a record of the local index is named by where it came from (INSPIRE, arXiv, ...)
    named = (origin or "local index") if v.match is not None and v.match.source == "local" \
        else (v.match.source if v.match is not None else "")
    if model:
        heading = "Proposed record (unconfirmed)"
    elif real_work:
        heading = real_work
    elif closest:
        heading = "No record matches"
    else:
        heading = "Record found"
    found_head = ""
    if v.match is not None:
        found_head = (f"Proposed by {model}" if model
                      else f"Real work ({named})" if real_work
                      else f"Found ({named})")
    if closest:
        found_head = "Closest record, not a match"
    search = " ".join([entry.key, title, author_text, entry.year, entry.venue, v.reason,
                       v.label.value, v.code.value, entry.file,
                       *(d.field for d in v.discrepancies),
                       *(c.value for d in v.discrepancies for c in d.codes),
                       "proposed unconfirmed " + model if model else "",
                       "chimera real work" if real_work else "",
                       "not in local index" if is_index_only(v) else ""])
    return {
        "n": n,
        "id": f"ref-{n}",
        "key": entry.key,
        "label": v.label.value,
        "rank": v.label.rank,
        "label_help": _LABEL_HELP.get(v.label.value, ""),
        "title": title,
        "authors": author_text,
        "year": entry.year or entry.get("year"),
        "venue": entry.venue,
        "entry_type": entry.entry_type,
        "score": "—" if v.match is None and not v.score else f"{v.score:.1f}",
        "score_value": round(v.score, 3),
        "score_pct": max(0, min(100, round(v.score * 10))),
        "confidence": f"{v.confidence:.2f}",
        "reason": v.reason,
        "loc": location(entry.file, entry.line),
        "file": entry.file,
        "line": entry.line,
        "wrong": [d.field for d in v.discrepancies],
        "code": v.code.value,
        "code_meaning": v.code.meaning,
        "discrepancies": [{"field": d.field, "cited": d.cited, "found": d.found, "note": d.note,
                           "codes": _codes(d), "group": _group(d.field)}
                          for d in v.discrepancies],
        "rows": _field_rows(v, fixes=not (model or real_work or closest)),
        "fixes": _fixes(v),
        "closest": closest,
        "origin": named,
        "match": v.match,
        "links": links,
        "proposed_by": model,
        "proposed_url": safe_url(v.match.url) if model and v.match is not None else "",
        "real_work": real_work,
        "record_heading": heading,
        "found_head": found_head or "Found",
        "index_only": is_index_only(v),
        # sources that were skipped (offline, not configured) take no space
        "attempts": [{"source": a.source, "kind": a.kind, "status": a.status.value,
                      "latency": f"{a.latency_ms:.0f} ms", "cached": a.cached,
                      "message": a.message,
                      "model": _attempt_model(a.source, v, result)}
                     for a in v.attempts if a.status is not SourceStatus.SKIPPED],
        "suggested": dict(v.suggested or {}),
        "suggested_bib": suggested_bib,
        "sites": sites,
        "search": " ".join(search.lower().split()),
    }


def _attempt_model(source: str, v: Verdict, result: RunResult) -> str:
    """The model behind a web-search attempt (the proposal's, else the run's), or ''."""
    if source != "websearch":
        return ""
    if v.match is not None and v.match.source == source and proposed_by(v.match):
        return proposed_by(v.match)
    return result.llm_model


#: References shown in full detail, most severe first. Past it the page would grow
#: by ~8 KB a reference (756 MB for a 100,000-entry .bib): the next ones are listed
#: in a compact table (key, label, location, reason), and past COMPACT_LIMIT they are
#: only counted. report.json always holds every reference.
DETAIL_LIMIT = 2_000
COMPACT_LIMIT = 20_000
_COMPACT_REASON = 100


def _compact(v: Verdict) -> dict[str, str]:
    reason = v.reason if len(v.reason) <= _COMPACT_REASON else \
        v.reason[:_COMPACT_REASON - 1] + "…"
    return {"key": v.entry.key, "label": v.label.value, "code": v.code.value,
            "loc": location(v.entry.file, v.entry.line), "reason": reason}


def build_context(result: RunResult) -> dict[str, Any]:
    """The template's data: references (most severe first), counts, problems, and what
    the run's LLM parts cost.

    ``refs`` holds the first DETAIL_LIMIT references in full; ``compact`` the next
    ones up to COMPACT_LIMIT in short; ``omitted`` counts the rest.
    """
    summary = result.summary()
    ordered = sorted_verdicts(result.verdicts)
    refs = [_reference(v, result, i + 1) for i, v in enumerate(ordered[:DETAIL_LIMIT])]
    compact = [_compact(v) for v in ordered[DETAIL_LIMIT:COMPACT_LIMIT]]
    return {
        "compact": compact,
        "omitted": max(0, len(ordered) - COMPACT_LIMIT),
        "index_only": sum(1 for v in ordered if is_index_only(v)),
        "index_advice": INDEX_ONLY_ADVICE,
        "usage": describe_usage(result),
        "tool_version": result.tool_version,
        "input": result.input,
        "offline": result.offline,
        "elapsed": f"{result.elapsed_s:.1f}" if result.elapsed_s else "",
        "partial": describe_partial(result),
        "partial_reason": result.partial,
        "http_requests": result.http_requests,
        "labels": [{"name": lab.value, "count": summary[lab.value],
                    "help": _LABEL_HELP[lab.value]} for lab in LABEL_ORDER],
        "total": len(ordered),
        "refs": refs,
        # broken input first, undefined keys first of all: they are the "?" in the PDF
        "problems": [{"code": p.code, "message": p.message, "key": p.key,
                      "severity": p.severity, "loc": location(p.file, p.line)}
                     for p in sorted(result.problems,
                                     key=lambda p: _problem_order(p.code, p.severity))],
        "errors": sum(1 for p in result.problems if p.severity == "error"),
    }


def render_html(result: RunResult) -> str:
    """The self-contained HTML report as text."""
    template = _environment().get_template(TEMPLATE)
    # escaping makes markup inert, not control characters: those (and bidi overrides)
    # from keys, fields or records are dropped, none belong to the page itself
    return strip_controls(template.render(**build_context(result)), keep_newlines=True)


@register_reporter("html")
class HtmlReporter:
    """Registry adapter for :func:`render_html`."""

    name = "html"

    def render(self, result: RunResult, settings: Settings) -> str:
        """Render ``result`` as one HTML page."""
        return render_html(result)

    def files(self, result: RunResult, settings: Settings) -> Iterator[ReportFile]:
        """``report.html``."""
        yield ReportFile("report.html", utf8_pieces(render_html(result)))
