"""GitHub Actions workflow commands (``--format github``).

``::error`` for MAJOR, ``::warning`` for MINOR and for problems, ``::notice``
for UNVERIFIED; each annotated at the .bib entry's file and line, its title ending in
the verdict's reason code (``MAJOR reference Smith2021 [chimera]``) and each
discrepancy followed by its codes (``year (year-off-by-one): cited ...``). A partial
run (deadline, Ctrl-C) starts with a ``::warning`` saying so. Values are
escaped as the runner expects (``%``, CR, LF, and in properties ``:`` and ``,``).
"""

from __future__ import annotations

import logging
import posixpath
from typing import TYPE_CHECKING

from citecheck_tex.model import Label
from citecheck_tex.report.base import (
    ci_path_prefix,
    describe_partial,
    primary_link,
    real_work_caption,
    register_reporter,
    sorted_verdicts,
)
from citecheck_tex.report.controls import strip_controls

if TYPE_CHECKING:
    from citecheck_tex.config import Settings
    from citecheck_tex.model import RunResult

logger = logging.getLogger(__name__)

_COMMAND = {Label.MAJOR: "error", Label.MINOR: "warning", Label.UNVERIFIED: "notice"}


def escape_data(text: str) -> str:
    """Escape a workflow command's message (control characters and escape sequences
    from keys, fields or records are dropped: the log is shown in a terminal too)."""
    text = strip_controls(text, keep_newlines=True)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def escape_property(text: str) -> str:
    """Escape a workflow command's property value."""
    return escape_data(text).replace(":", "%3A").replace(",", "%2C")


def _command(kind: str, message: str, *, file: str = "", line: int = 0, title: str = "") -> str:
    props: list[str] = []
    if file:
        props.append(f"file={escape_property(file)}")
        if line > 0:
            props.append(f"line={line}")
    if title:
        props.append(f"title={escape_property(title)}")
    head = f"::{kind} " + ",".join(props) if props else f"::{kind}"
    return f"{head}::{escape_data(message)}"


def render_github(result: RunResult, *, prefix: str = "") -> str:
    """One workflow command per MAJOR/MINOR/UNVERIFIED reference and per problem.

    ``prefix`` (the paper's folder relative to the repository root, see
    :func:`citecheck_tex.repo.folder_prefix`) goes before relative file names so that
    annotations attach to the file in the repository.
    """

    def path(file: str) -> str:  # ("paper/../shared.bib": "shared.bib")
        return posixpath.normpath(prefix + file) if file and not file.startswith("/") \
            else file

    lines: list[str] = []
    if result.partial:  # first: the annotations below are not the whole story
        lines.append(_command("warning", describe_partial(result),
                              title=f"citecheck-tex: partial report ({result.partial})"))
    for v in sorted_verdicts(result.verdicts):
        kind = _COMMAND.get(v.label)
        if kind is None:
            continue
        parts = [v.reason] if v.reason else []
        # the closest record of a MAJOR is not a match: its values are no correction
        closest = v.label is Label.MAJOR and not real_work_caption(v)
        for d in () if closest else v.discrepancies:
            found = (v.suggested or {}).get(d.field, d.found)
            codes = ", ".join(c.value for c in d.codes)
            parts.append(f'{d.field} ({codes}): cited "{d.cited}", found "{found}"')
        link = primary_link(v.match)
        if link:
            parts.append(link)
        message = f"{v.entry.key}: " + ("; ".join(parts) or v.label.value)
        lines.append(_command(kind, message, file=path(v.entry.file), line=v.entry.line,
                              title=f"{v.label.value} reference {v.entry.key} "
                                    f"[{v.code.value}]"))
    for p in result.problems:
        kind = "error" if p.severity == "error" else "warning"
        lines.append(_command(kind, p.message or p.code, file=path(p.file), line=p.line,
                              title=f"{p.code}" + (f" {p.key}" if p.key else "")))
    return "".join(line + "\n" for line in lines)


@register_reporter("github")
class GithubReporter:
    """Registry adapter for :func:`render_github`."""

    name = "github"

    def render(self, result: RunResult, settings: Settings) -> str:
        """Render ``result`` as GitHub workflow commands."""
        return render_github(result, prefix=ci_path_prefix(result, settings))
