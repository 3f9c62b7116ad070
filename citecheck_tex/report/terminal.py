"""The terminal report and the progress line shown while sources are queried.

The table lists MAJOR, MINOR and UNVERIFIED references one per line (key,
file:line, the wrong fields with the suggested values) and collapses the rest
into counts. ANSI colour only when asked (the CLI asks when stdout is a TTY).
"""

from __future__ import annotations

import contextlib
import logging
import os
import shutil
from collections import Counter
from collections.abc import Iterator, Mapping
from typing import IO, TYPE_CHECKING, TextIO
from urllib.parse import urlsplit

from citecheck_tex.model import Label, Verdict, VerdictCode
from citecheck_tex.report.base import (
    INDEX_ONLY_ADVICE,
    LABEL_ORDER,
    describe_partial,
    describe_usage,
    is_index_only,
    location,
    proposed_by,
    real_work_caption,
    reason_without_advice,
    register_reporter,
    shorten,
    sorted_verdicts,
)
from citecheck_tex.report.controls import strip_controls, without_controls

if TYPE_CHECKING:
    from citecheck_tex.config import Settings
    from citecheck_tex.model import RunResult

logger = logging.getLogger(__name__)

_RESET = "\x1b[0m"
_STYLE: Mapping[str, str] = {
    "MAJOR": "\x1b[1;31m",
    "MINOR": "\x1b[33m",
    "UNVERIFIED": "\x1b[35m",
    "EXACT": "\x1b[32m",
    "SKIPPED": "\x1b[2m",
    "dim": "\x1b[2m",
    "bold": "\x1b[1m",
    "problem": "\x1b[33m",
}

#: Labels listed one line per reference; the others are collapsed into counts.
_LISTED = (Label.MAJOR, Label.MINOR, Label.UNVERIFIED)


class _Painter:
    def __init__(self, color: bool) -> None:
        self.color = color

    def __call__(self, style: str, text: str) -> str:
        if not self.color or not text:
            return text
        return f"{_STYLE[style]}{text}{_RESET}"


def focus_difference(a: str, b: str, width: int) -> tuple[str, str]:
    """Shorten two long values around where they first differ, so the change stays visible."""
    if len(a) <= width and len(b) <= width:
        return a, b
    k = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    start = max(0, k - width // 2)

    def cut(s: str) -> str:
        piece = s[start:start + width - (1 if start else 0)]
        piece = ("…" if start else "") + piece
        return piece + ("…" if start + width < len(s) else "")

    return cut(a), cut(b)


def _fix_text(verdict: Verdict, width: int) -> str:
    """``field: cited → found`` for each wrong field (suggested values preferred)."""
    suggested = dict(verdict.suggested or {})
    parts: list[str] = []
    for d in verdict.discrepancies:
        new = suggested.pop(d.field, d.found)
        old_s, new_s = focus_difference(d.cited, new, 28)
        parts.append(f"{d.field}: {old_s or '∅'} → {new_s or '∅'}")
    for field, value in suggested.items():
        parts.append(f"{field}: + {shorten(value, 40)}")
    return shorten("; ".join(parts), width) if parts else ""


def proposal_mark(model: str) -> str:
    """The marker of a candidate that only the LLM web search proposed."""
    return f"(proposed by {model}, unconfirmed)"


def _host(url: str) -> str:
    try:
        return urlsplit(url).hostname or ""
    except ValueError:  # a malformed URL from a model: show none
        return ""


def _detail(verdict: Verdict, width: int) -> str:
    """The row's one-line explanation: the proposal, the fixes, or the reason."""
    model = proposed_by(verdict.match)
    if model and verdict.match is not None:
        m = verdict.match
        host = _host(m.url)
        where = f" <{host}>" if host else ""  # the full URL is in --verbose and the reports
        what = shorten(f'"{m.title}"' if m.title else verdict.reason, max(40, width // 2))
        return f"{what}{where} {proposal_mark(model)}"
    if is_index_only(verdict):
        # the advice is printed once under the summary, not on every row
        return shorten(reason_without_advice(verdict), width)
    if real_work_caption(verdict) or verdict.label is Label.MAJOR:
        # a chimera or hijacked identifier: the record is evidence, not a correction; a
        # MAJOR's closest record is not a match: never drawn as "cited -> found"
        return shorten(verdict.reason, width)
    return _fix_text(verdict, width) or shorten(verdict.reason, width)


def _columns() -> int:
    """The terminal's width: ``COLUMNS`` when set, else the window's, else 80."""
    return shutil.get_terminal_size((80, 24)).columns


def _row(verdict: Verdict, paint: _Painter, key_w: int, loc_w: int, verbose: bool) -> list[str]:
    label = verdict.label.value
    loc = location(verdict.entry.file, verdict.entry.line)
    head = (f"{paint(label, label.ljust(10))} {verdict.entry.key.ljust(key_w)}  "
            f"{paint('dim', loc.ljust(loc_w))}  ")
    # the detail fills the terminal's width (COLUMNS, else the window's; 90 at least so
    # that a narrow or unknown terminal still shows what differs)
    used = 10 + 1 + key_w + 2 + loc_w + 2
    lines = [head + _detail(verdict, max(90, _columns() - used - 4))]
    if verbose:
        pad = " " * 11
        lines.append(f"{pad}score {verdict.score:.1f}/10, confidence {verdict.confidence:.2f}: "
                     f"{verdict.reason}")
        if verdict.match is not None:
            m = verdict.match
            ident = m.doi or m.arxiv or m.id
            model = proposed_by(m)
            caption = real_work_caption(verdict)
            if model:
                where = f" {m.url}" if m.url else ""
                lines.append(f"{pad}proposed: {shorten(m.title, 70)}{where} "
                             f"{proposal_mark(model)}")
            elif caption:
                lines.append(f"{pad}{caption.lower().removeprefix('the ')} (evidence, not a "
                             f"correction): {m.source} {ident} {shorten(m.title, 70)}")
            else:
                lines.append(f"{pad}found: {m.source} {ident} {shorten(m.title, 70)}")
        for a in verdict.attempts:
            cached = ", cached" if a.cached else ""
            msg = f" ({shorten(a.message, 60)})" if a.message else ""
            lines.append(f"{pad}asked {a.source} by {a.kind}: {a.status.value}, "
                         f"{a.latency_ms:.0f} ms{cached}{msg}")
    return lines


def wants_color(stream: IO[str]) -> bool:
    """Colour on ``stream``: a terminal, and no ``NO_COLOR`` (https://no-color.org)."""
    return stream.isatty() and "NO_COLOR" not in os.environ


def render_terminal(
    result: RunResult, *, color: bool, verbose: bool = False, quiet: bool = False
) -> str:
    """The terminal report: severity-sorted table, collapsed counts, problems, summary.

    ``quiet`` keeps only the MAJOR/MINOR/UNVERIFIED lines and the summary;
    ``verbose`` lists every reference with its score, match and sources asked.
    """
    paint = _Painter(color)
    summary = result.summary()
    listed_labels = tuple(LABEL_ORDER) if verbose else _LISTED
    # what is shown passes through strip_controls: keys, fields and records may carry
    # escape sequences (screen clears, OSC titles and links) that must not reach the TTY
    verdicts = [without_controls(v) for v in sorted_verdicts(result.verdicts)
                if v.label in listed_labels]
    # a failing source: one line per source (in Problems), not one per reference
    failed_only = [] if verbose else [v for v in verdicts if _source_failed(v)]
    failed_only = failed_only if len(failed_only) > 1 else []
    # grey literature no source lists (an ESA bibliography has dozens): one count by kind
    grey = [] if verbose else [v for v in verdicts if v.code is VerdictCode.GREY_LITERATURE]
    grey = grey if len(grey) > 1 else []
    verdicts = [v for v in verdicts if v not in failed_only and v not in grey]
    lines: list[str] = []
    if not quiet:
        mode = "offline" if result.offline else "online"
        lines.append(paint("bold", f"citecheck-tex {result.tool_version}") +
                     f" · {strip_controls(result.input)} · {len(result.verdicts)} references"
                     f" · {mode}")
    key_w = min(max((len(v.entry.key) for v in verdicts), default=0), 32)
    loc_w = min(max((len(location(v.entry.file, v.entry.line)) for v in verdicts), default=0), 40)
    for v in verdicts:
        lines.extend(_row(v, paint, key_w, loc_w, verbose))
    collapsed = [f"{summary[lab.value]} {lab.value}" for lab in LABEL_ORDER
                 if lab not in listed_labels and summary[lab.value]]
    if grey:
        kinds = Counter(v.facts.get("kind", "document") for v in grey)
        collapsed.insert(0, f"{len(grey)} UNVERIFIED grey literature no scholarly source "
                         "lists (" + ", ".join(f"{k} {n}" for k, n in kinds.most_common())
                         + "; --verbose lists them)")
    if failed_only:
        collapsed.insert(0, f"{len(failed_only)} UNVERIFIED because a source failed (see "
                         "Problems; --verbose lists them)")
    if collapsed and not quiet:
        lines.append(paint("dim", "+ " + ", ".join(collapsed)))
    if result.problems and not quiet:
        lines.extend(_problem_lines(result, paint, verbose))
    counts = " · ".join(paint(lab.value, f"{summary[lab.value]} {lab.value}")
                        for lab in LABEL_ORDER)
    tail = ""
    if result.elapsed_s and not quiet:
        tail = f"  ({result.elapsed_s:.1f} s, {result.http_requests} HTTP requests)"
    usage = strip_controls(describe_usage(result))
    if usage and not quiet:
        lines.append(paint("dim", usage))
    if lines and not quiet:
        lines.append("")
    lines.append(f"Summary: {counts}{tail}")
    partial = describe_partial(result)
    if partial:
        lines.append(paint("UNVERIFIED", partial))
    missing = sum(1 for v in result.verdicts if is_index_only(v))
    if missing:
        # once per run, not per reference: the cause and the cure are the same for all
        noun = "reference is" if missing == 1 else "references are"
        lines.append(paint("UNVERIFIED", f"{missing} {noun} not in your local index: "
                                         f"{INDEX_ONLY_ADVICE}"))
    return "\n".join(lines) + "\n"


def _source_failed(verdict: Verdict) -> bool:
    return verdict.label is Label.UNVERIFIED and any(a.status.failed for a in verdict.attempts)


def _problem_lines(result: RunResult, paint: _Painter, verbose: bool) -> list[str]:
    """Errors (broken input) first; unused entries counted unless ``verbose``."""
    problems = without_controls(sorted(result.problems, key=lambda p: p.severity != "error"))
    unused = [p for p in problems if p.code == "unused-entry"]
    if not verbose and len(unused) > 1:
        problems = [p for p in problems if p.code != "unused-entry"]
    lines = ["", paint("bold", f"Problems ({len(result.problems)})")]
    for p in problems:
        where = location(p.file, p.line)
        where = f"{where}: " if where else ""
        style = "MAJOR" if p.severity == "error" else "problem"
        lines.append(f"  {paint(style, p.severity)} {paint(style, p.code)} {where}{p.message}")
    if len(problems) < len(result.problems):
        files = sorted({p.file for p in unused if p.file})
        where = f" in {', '.join(files)}" if files else ""
        lines.append(f"  {paint('problem', 'warning')} {paint('problem', 'unused-entry')} "
                     f"{len(unused)} unused entries{where}; --verbose lists them")
    return lines


class Progress:
    """A one-line progress display while sources are queried.

    On a TTY the line is redrawn in place with ``\\r``; elsewhere (logs, CI) a
    plain line is written at each tenth of the work and at the end.
    """

    def __init__(self, stream: TextIO, *, color: bool = False, width: int = 24) -> None:
        """Write to ``stream``; ``width`` is the bar length in characters."""
        self.stream = stream
        self.color = color
        self.width = width
        isatty = getattr(stream, "isatty", None)
        self.tty = bool(isatty()) if callable(isatty) else False
        self._last_step = -1
        self._shown = False
        self._last_len = 0

    def line(
        self,
        done: int,
        total: int,
        counts: Mapping[str, int] | Mapping[Label, int],
        slowest: str | tuple[str, float] | None = None,
    ) -> str:
        """The progress text (without control characters)."""
        frac = done / total if total > 0 else 1.0
        frac = min(max(frac, 0.0), 1.0)
        filled = round(frac * self.width)
        bar = "█" * filled + "░" * (self.width - filled)
        norm = {(k.value if isinstance(k, Label) else str(k)): n for k, n in counts.items()}
        parts = [f"{n} {lab.value}" for lab in LABEL_ORDER if (n := norm.get(lab.value, 0))]
        text = f"[{bar}] {done}/{total}"
        if parts:
            text += "  " + " · ".join(parts)
        if isinstance(slowest, tuple):
            text += f"  slowest: {slowest[0]} {slowest[1] / 1000:.1f} s"
        elif slowest:
            text += f"  slowest: {slowest}"
        return text

    def update(
        self,
        done: int,
        total: int,
        counts: Mapping[str, int] | Mapping[Label, int],
        slowest: str | tuple[str, float] | None = None,
    ) -> None:
        """Show that ``done`` of ``total`` references are checked.

        ``counts`` maps labels (or their names) to counts so far; ``slowest``
        names the slowest source, optionally with its latency in milliseconds.
        """
        text = self.line(done, total, counts, slowest)
        if self.tty:
            pad = " " * max(0, self._last_len - len(text))
            self.stream.write("\r" + text + pad)
            self._last_len = len(text)
            self._shown = True
        else:
            step = int(10 * done / total) if total > 0 else 10
            if step == self._last_step:
                return
            self._last_step = step
            self.stream.write(text + "\n")
        self.stream.flush()

    def clear(self) -> None:
        """Take the line away: something else (a logged warning) is about to be written
        to the terminal, which would otherwise follow the bar on its line; the next
        update draws the bar again, below it."""
        if self.tty and self._shown:
            self.stream.write("\r" + " " * self._last_len + "\r")
            self.stream.flush()
            self._shown = False
            self._last_len = 0

    def logging_cleared(self) -> contextlib.AbstractContextManager[None]:
        """Within the block, every log record reaching the root logger's handlers
        clears the line first (:meth:`clear`)."""
        return _clearing_logs(self)

    def finish(self) -> None:
        """End the progress line (a newline on a TTY so the report starts clean)."""
        if self.tty and self._shown:
            self.stream.write("\n")
            self.stream.flush()
            self._shown = False


class _ClearFirst(logging.Filter):
    """A filter that clears the progress line before its handler writes the record."""

    def __init__(self, progress: Progress) -> None:
        super().__init__()
        self.progress = progress

    def filter(self, record: logging.LogRecord) -> bool:
        self.progress.clear()
        return True


@contextlib.contextmanager
def _clearing_logs(progress: Progress) -> Iterator[None]:
    handlers = list(logging.getLogger().handlers)
    first = _ClearFirst(progress)
    for handler in handlers:
        handler.addFilter(first)
    try:
        yield
    finally:
        for handler in handlers:
            handler.removeFilter(first)


@register_reporter("terminal")
class TerminalReporter:
    """Registry adapter for :func:`render_terminal` (colour is the CLI's decision)."""

    name = "terminal"

    def __init__(self, color: bool = False) -> None:
        """``color``: emit ANSI colour codes."""
        self.color = color

    def render(self, result: RunResult, settings: Settings) -> str:
        """Render ``result`` for a terminal with the settings' quiet/verbose."""
        return render_terminal(result, color=self.color, verbose=settings.verbose,
                               quiet=settings.quiet)
