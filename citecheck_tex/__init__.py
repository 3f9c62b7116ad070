"""citecheck-tex: check the references of a LaTeX paper against real scholarly sources.

The library API (``docs/api.md``)::

    import citecheck_tex

    result = citecheck_tex.check("paper.tex", offline=True)
    print(result.summary())
    for v in result.verdicts:
        print(v.entry.key, v.label.value, v.code.value, v.reason)

Every name below is imported on first use, so ``import citecheck_tex`` stays cheap
(no HTTP client, parser or template engine is loaded until a check runs).
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from citecheck_tex.version import __version__

#: Public name -> the module that defines it (imported on first access).
_EXPORTS: dict[str, str] = {
    # functions
    "check": "citecheck_tex.api",
    "render": "citecheck_tex.api",
    "write_reports": "citecheck_tex.api",
    "fails": "citecheck_tex.api",
    "settings_for": "citecheck_tex.api",
    # the result and its parts
    "RunResult": "citecheck_tex.model",
    "Verdict": "citecheck_tex.model",
    "Label": "citecheck_tex.model",
    "VerdictCode": "citecheck_tex.model",
    "Discrepancy": "citecheck_tex.model",
    "DiscrepancyCode": "citecheck_tex.model",
    "FieldCheck": "citecheck_tex.model",
    "Entry": "citecheck_tex.model",
    "Person": "citecheck_tex.model",
    "Record": "citecheck_tex.model",
    "Attempt": "citecheck_tex.model",
    "Problem": "citecheck_tex.model",
    "Project": "citecheck_tex.model",
    "CiteSite": "citecheck_tex.model",
    "SourceStatus": "citecheck_tex.model",
    # what a plugin source answers
    "Query": "citecheck_tex.model",
    "QueryKind": "citecheck_tex.model",
    "Answer": "citecheck_tex.model",
    "Settings": "citecheck_tex.config",
    # the plugin protocols (entry points citecheck_tex.sources / citecheck_tex.reporters)
    "Source": "citecheck_tex.sources.base",
    "Reporter": "citecheck_tex.report.base",
    "FileReporter": "citecheck_tex.report.base",
    "ReportFile": "citecheck_tex.report.base",
    # errors
    "CitecheckError": "citecheck_tex.errors",
    "UsageError": "citecheck_tex.errors",
    "InputError": "citecheck_tex.errors",
    "ParseError": "citecheck_tex.errors",
    "OutputError": "citecheck_tex.errors",
    "LocalIndexError": "citecheck_tex.errors",
    "SourceError": "citecheck_tex.errors",
    "RateLimited": "citecheck_tex.errors",
}

# a literal list: type checkers read it to know what the facade exports
__all__ = [
    "__version__",
    "check",
    "render",
    "write_reports",
    "fails",
    "settings_for",
    "RunResult",
    "Verdict",
    "Label",
    "VerdictCode",
    "Discrepancy",
    "DiscrepancyCode",
    "FieldCheck",
    "Entry",
    "Person",
    "Record",
    "Attempt",
    "Problem",
    "Project",
    "CiteSite",
    "SourceStatus",
    "Query",
    "QueryKind",
    "Answer",
    "Settings",
    "Source",
    "Reporter",
    "FileReporter",
    "ReportFile",
    "CitecheckError",
    "UsageError",
    "InputError",
    "ParseError",
    "OutputError",
    "LocalIndexError",
    "SourceError",
    "RateLimited",
]

if TYPE_CHECKING:  # what type checkers see; at run time __getattr__ imports on demand
    from citecheck_tex.api import check, fails, render, settings_for, write_reports
    from citecheck_tex.config import Settings
    from citecheck_tex.errors import (
        CitecheckError,
        InputError,
        LocalIndexError,
        OutputError,
        ParseError,
        RateLimited,
        SourceError,
        UsageError,
    )
    from citecheck_tex.model import (
        Answer,
        Attempt,
        CiteSite,
        Discrepancy,
        DiscrepancyCode,
        Entry,
        FieldCheck,
        Label,
        Person,
        Problem,
        Project,
        Query,
        QueryKind,
        Record,
        RunResult,
        SourceStatus,
        Verdict,
        VerdictCode,
    )
    from citecheck_tex.report.base import FileReporter, Reporter, ReportFile
    from citecheck_tex.sources.base import Source


def __getattr__(name: str) -> Any:
    """Import a public name on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'citecheck_tex' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # the next access is a plain lookup
    return value


def __dir__() -> list[str]:
    """The module's names with the public ones not imported yet (completion in shells)."""
    return sorted({*globals(), *_EXPORTS})
