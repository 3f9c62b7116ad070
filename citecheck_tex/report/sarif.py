"""SARIF 2.1.0 report (``report.sarif``) for GitHub code scanning and other viewers.

One rule per verdict code that produces results (the codes of MAJOR: error, MINOR:
warning, UNVERIFIED: note; rule id = the code, e.g. ``chimera``, help = the code's
meaning) and one per problem code. A result references the rule of its verdict's
code and lists the codes of its discrepancies in ``properties.discrepancyCodes``.
Each result is located at the .bib entry's file and line; file URIs are relative (to
``root`` when given) so that code scanning can map them onto the repository. A partial
run (deadline, Ctrl-C) has ``invocations[0].executionSuccessful`` false and a tool
execution notification saying why (descriptor ``deadline`` or ``interrupted``).
"""

from __future__ import annotations

import json
import logging
import os
import posixpath
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from citecheck_tex.model import ERROR_CODES, Label, Verdict, VerdictCode
from citecheck_tex.report.base import (
    ReportFile,
    ci_path_prefix,
    describe_partial,
    is_index_only,
    primary_link,
    proposed_by,
    real_work_caption,
    register_reporter,
    utf8_pieces,
)

if TYPE_CHECKING:
    from collections.abc import Iterator

    from citecheck_tex.config import Settings
    from citecheck_tex.model import Problem, RunResult

logger = logging.getLogger(__name__)

SARIF_SCHEMA = "https://json.schemastore.org/sarif-2.1.0.json"
INFORMATION_URI = "https://pypi.org/project/citecheck-tex/"

#: The SARIF level of each label that produces results, and what the label means (the
#: start of every rule's help text).
_LABEL_LEVELS: dict[Label, tuple[str, str]] = {
    Label.MAJOR: ("error", "MAJOR: the reference does not match any real record (it may "
                  "be hallucinated, or key facts are wrong)."),
    Label.MINOR: ("warning", "MINOR: the reference matches a real record with wrong "
                  "fields; the annotated .bib holds a corrected entry."),
    Label.UNVERIFIED: ("note", "UNVERIFIED: the reference could not be confirmed or "
                       "refuted."),
}

#: Verdict codes that produce results, in declaration order.
RESULT_CODES: tuple[VerdictCode, ...] = tuple(c for c in VerdictCode
                                               if c.label in _LABEL_LEVELS)


def _short(meaning: str) -> str:
    """The first clause of a code's meaning, as a rule's short description."""
    return meaning.split(". ")[0].split(": ")[0].rstrip(".")

#: Problem codes known to the frontend and pipeline, with a short description.
PROBLEM_CODES: dict[str, str] = {
    "undefined-key": "A citation key has no bibliography entry",
    "unused-entry": "A bibliography entry is never cited",
    "duplicate-key": "A key is defined more than once",
    "parse-error": "A file could not be parsed",
    "missing-file": "A referenced file is missing",
    "bbl-mismatch": "The .bbl does not match the .bib",
    "artefact-mismatch": "Build artefacts do not match the sources",
    "no-bibliography": "No bibliography was found",
    "missing-title-and-id": "An entry has neither a title nor an identifier",
    "arxiv-id-form": "An arXiv identifier is malformed",
    "doi-syntax": "A DOI is malformed",
    "unbraced-collaboration": "A collaboration is written as a person's name",
    "mangled-name": "BibTeX prints a name otherwise than it is written",
    "ambiguous-main": "The main .tex file is ambiguous",
    "network": "A source could not be reached",
    "empty-bib": "A bibliography file defines no entries",
    "missing-field": "An entry lacks a field its type requires",
    "index-incomplete": "The local index declared complete lacks most cited works",
    "index-unusable": "The local index could not be read",
    "outside-project": "A file outside the project folder is read",
    "include-cycle": "Files include each other in a cycle",
    "index-empty": "The local index is missing or empty",
    "source-unavailable": "A configured source (e.g. a plugin) cannot be used",
    "deadline": "The run's deadline passed: the report is partial",
    "interrupted": "The run was interrupted: the report is partial",
    "ignore-expired": "An ignored entry changed since it was ignored: it is checked again",
}


def _uri(file: str, root: str | None, prefix: str = "") -> str:
    """A relative URI for ``file`` (relative to ``root`` when absolute and below it;
    ``prefix`` before a relative one)."""
    path = Path(file)
    if path.is_absolute():
        if root is not None:
            try:
                rel = os.path.relpath(path, root)
            except ValueError:  # another drive on Windows
                rel = ""
            if rel and not rel.startswith(".."):
                return quote(PurePosixPath(Path(rel).as_posix()).as_posix())
        return path.as_uri()
    return quote(posixpath.normpath(prefix + path.as_posix()))  # (no "paper/../")


def _location(file: str, line: int, root: str | None, prefix: str = "") -> dict[str, Any]:
    physical: dict[str, Any] = {"artifactLocation": {"uri": _uri(file, root, prefix)}}
    if not Path(file).is_absolute() or root is not None:
        physical["artifactLocation"]["uriBaseId"] = "%SRCROOT%"
    if line > 0:
        physical["region"] = {"startLine": line}
    return {"physicalLocation": physical}


def _rule(rule_id: str, level: str, short: str, full: str) -> dict[str, Any]:
    return {
        "id": rule_id,
        "name": "".join(p.capitalize() for p in rule_id.replace("/", "-").split("-")),
        "shortDescription": {"text": short},
        "fullDescription": {"text": full},
        "defaultConfiguration": {"level": level},
        "help": {"text": full},
        "helpUri": INFORMATION_URI,
        "properties": {"tags": ["references", "bibliography"]},
    }


def _verdict_message(v: Verdict) -> str:
    parts = [f"{v.entry.key}: {v.label.value} (score {v.score:.1f}/10)."]
    if v.reason:
        parts.append(v.reason.rstrip(".") + ".")
    closest = v.label is Label.MAJOR and not real_work_caption(v)
    for d in () if closest else v.discrepancies:  # a MAJOR's closest record is no correction
        parts.append(f'{d.field}: cited "{d.cited}", found "{d.found}".')
    if v.suggested:
        parts.append("Suggested: " + "; ".join(f"{k} = {val}" for k, val in v.suggested.items())
                     + ".")
    link = primary_link(v.match)
    model = proposed_by(v.match)
    caption = real_work_caption(v)
    if model:
        parts.append(f"Proposed by {model}, unconfirmed" + (f": {link}" if link else "."))
    elif caption and link:
        parts.append(f"{caption} (evidence, not a correction): {link}")
    elif link:
        parts.append(f"Record: {link}")
    return " ".join(parts)


def render_sarif(result: RunResult, *, root: str | None = None, prefix: str = "") -> str:
    """SARIF 2.1.0 log of the run as JSON text.

    ``root`` is the folder absolute paths are made relative to (the repository root in
    CI); relative entry paths (relative to the paper's folder) get ``prefix``, the
    paper's folder relative to the repository root (:func:`citecheck_tex.repo.folder_prefix`).
    """
    rules: list[dict[str, Any]] = []
    index: dict[str, int] = {}
    for vc in RESULT_CODES:
        level, what = _LABEL_LEVELS[vc.label]
        index[vc.value] = len(rules)
        rules.append(_rule(vc.value, level, f"{vc.label.value}: {_short(vc.meaning)}",
                           f"{vc.meaning} ({what})"))
    codes = list(PROBLEM_CODES)
    codes += sorted({p.code for p in result.problems} - set(codes))
    for code in codes:
        index[code] = len(rules)
        desc = PROBLEM_CODES.get(code, code.replace("-", " ").capitalize())
        level = "error" if code in ERROR_CODES else "warning"
        rules.append(_rule(code, level, desc, desc))

    fallback = result.project.main_file or result.input
    if prefix and not Path(fallback).is_absolute():
        fallback = Path(fallback).name
    results: list[dict[str, Any]] = []
    for v in result.verdicts:
        if v.label not in _LABEL_LEVELS:
            continue
        results.append({
            "ruleId": v.code.value,
            "ruleIndex": index[v.code.value],
            "level": _LABEL_LEVELS[v.label][0],
            "message": {"text": _verdict_message(v)},
            "locations": [_location(v.entry.file or fallback, v.entry.line, root, prefix)],
            "partialFingerprints": {"citecheckEntry/v1": f"{v.entry.key}:{v.entry.content_hash}"},
            "properties": _properties(v),
        })
    for p in result.problems:
        results.append(_problem_result(p, index[p.code], fallback, root, prefix))

    log = {
        "$schema": SARIF_SCHEMA,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {
                "name": "citecheck-tex",
                "version": result.tool_version,
                "semanticVersion": result.tool_version,
                "informationUri": INFORMATION_URI,
                "rules": rules,
                "notifications": [{"id": reason, "shortDescription": {"text": text},
                                   "defaultConfiguration": {"level": "warning"}}
                                  for reason, text in PARTIAL_NOTIFICATIONS.items()],
            }},
            "invocations": [_invocation(result)],
            "results": results,
            "columnKind": "unicodeCodePoints",
            "properties": {"input": result.input, "offline": result.offline,
                           "summary": result.summary(), "partial": result.partial or None},
        }],
    }
    return json.dumps(log, ensure_ascii=False, indent=2) + "\n"


#: Why a run can end early (:attr:`RunResult.partial`): the notification descriptors of
#: a partial report.
PARTIAL_NOTIFICATIONS: dict[str, str] = {
    "deadline": "The run's deadline passed before every source was asked: the report is "
                "partial, references not yet settled are UNVERIFIED",
    "interrupted": "The run was interrupted (Ctrl-C) before every source was asked: the "
                   "report is partial, references not yet settled are UNVERIFIED",
}


def _invocation(result: RunResult) -> dict[str, Any]:
    """The run's invocation: a partial run (deadline, Ctrl-C) did not execute successfully,
    and a notification says why and how many references are left UNVERIFIED."""
    if not result.partial:
        return {"executionSuccessful": True}
    return {
        "executionSuccessful": False,
        "toolExecutionNotifications": [{
            "descriptor": {"id": result.partial},
            "level": "warning",
            "message": {"text": describe_partial(result)},
        }],
    }


def _properties(v: Verdict) -> dict[str, Any]:
    props: dict[str, Any] = {"key": v.entry.key, "label": v.label.value,
                             "score": round(v.score, 3), "confidence": round(v.confidence, 3)}
    if v.discrepancies:
        props["discrepancyCodes"] = list(dict.fromkeys(c.value for d in v.discrepancies
                                                       for c in d.codes))
    if is_index_only(v):
        props["notInLocalIndex"] = True
    if proposed_by(v.match):
        props["proposedBy"] = proposed_by(v.match)
    return props


def _problem_result(p: Problem, rule_index: int, fallback: str, root: str | None,
                    prefix: str = "") -> dict[str, Any]:
    text = p.message if not p.key or p.key in p.message else f"{p.key}: {p.message}"
    return {
        "ruleId": p.code,
        "ruleIndex": rule_index,
        "level": "error" if p.severity == "error" else "warning",
        "message": {"text": text or p.code},
        "locations": [_location(p.file or fallback, p.line, root, prefix)],
        "partialFingerprints": {"citecheckProblem/v1": f"{p.code}:{p.key}:{p.file}"},
    }


@register_reporter("sarif")
class SarifReporter:
    """Registry adapter for :func:`render_sarif`; paths relative to the repository root
    (:func:`~citecheck_tex.report.base.ci_path_prefix`)."""

    name = "sarif"

    def render(self, result: RunResult, settings: Settings) -> str:
        """Render ``result`` as SARIF 2.1.0."""
        return render_sarif(result, prefix=ci_path_prefix(result, settings))

    def files(self, result: RunResult, settings: Settings) -> Iterator[ReportFile]:
        """``report.sarif``."""
        yield ReportFile("report.sarif", utf8_pieces(self.render(result, settings)))
