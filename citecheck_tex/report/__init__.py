"""Reporters: render a :class:`~citecheck_tex.model.RunResult` as text; never write files.

Formats (registry names): ``terminal``, ``json``, ``html``, ``bib`` (annotated
and fixed .bib copies), ``sarif``, ``github``. Each module also exposes a plain
``render_*`` function; :func:`make_reporter` builds one by name.
"""

from __future__ import annotations

from citecheck_tex.report.base import (
    Reporter,
    ReporterFactory,
    make_reporter,
    register_reporter,
    reporter_names,
)

__all__ = ["Reporter", "ReporterFactory", "make_reporter", "register_reporter", "reporter_names"]
