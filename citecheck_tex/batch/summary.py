"""What a batch shows on the terminal: the progress line and the summary of labels per
paper (the same data as ``summary.json``, :func:`citecheck_tex.batch.runner.summary_data`)."""

from __future__ import annotations

import time
from typing import TextIO

from citecheck_tex.batch.runner import BatchProgress, BatchRun
from citecheck_tex.batch.table import LABELS
from citecheck_tex.batch.task import (
    CHECKED,
    FAILED,
    NOT_RUN,
    SKIPPED,
    UNCHANGED,
    PaperOutcome,
)

#: Up to this many papers the summary lists every one; above, only those that need a look.
LIST_ALL = 30
#: Papers listed per kind (failed, MAJOR) without --verbose.
LIST_MAX = 20


class ProgressLine:
    """``412/1000 papers  8.3 papers/s  95 refs/s  3 failed  [EXACT 3120 · MINOR 40 ...]``.

    On a terminal the line is redrawn in place at most ``per_s`` times a second;
    elsewhere (logs, CI) a plain line is written at each tenth of the batch.
    """

    def __init__(self, stream: TextIO, *, per_s: float = 4.0) -> None:
        """Write to ``stream``."""
        self.stream = stream
        isatty = getattr(stream, "isatty", None)
        self.tty = bool(isatty()) if callable(isatty) else False
        self._every = 1.0 / per_s
        self._last = 0.0
        self._step = -1
        self._len = 0

    @staticmethod
    def line(st: BatchProgress) -> str:
        """The progress text."""
        papers_s, refs_s = st.rates()
        labels = " · ".join(f"{n} {lab}" for lab in LABELS if (n := st.counts.get(lab, 0)))
        text = (f"{st.done}/{st.total} papers  {papers_s:.1f} papers/s  {refs_s:.0f} "
                f"references/s")
        if st.failed:
            text += f"  {st.failed} failed"
        return text + (f"  [{labels}]" if labels else "")

    def update(self, st: BatchProgress) -> None:
        """Show the state (throttled on a terminal, by tenths elsewhere)."""
        text = self.line(st)
        if self.tty:
            now = time.monotonic()
            if now - self._last < self._every and st.done < st.total:
                return
            self._last = now
            self.stream.write("\r" + text + " " * max(0, self._len - len(text)))
            self._len = len(text)
        else:
            step = 10 * st.done // max(1, st.total)
            if step == self._step:
                return
            self._step = step
            self.stream.write(text + "\n")
        self.stream.flush()

    def finish(self) -> None:
        """End the line on a terminal."""
        if self.tty and self._len:
            self.stream.write("\n")
            self.stream.flush()
            self._len = 0


def _paper_line(o: PaperOutcome) -> str:
    if o.status not in (CHECKED, UNCHANGED):
        return f"  {o.paper.name:<32} {o.status:<9} {o.error}"
    labels = "  ".join(f"{lab} {o.counts.get(lab, 0)}" for lab in LABELS)
    errors = f"  errors: {', '.join(o.errors)}" if o.errors else ""
    return f"  {o.paper.name:<32} {o.status:<9} {o.references:>5} refs  {labels}{errors}"


def _fails(o: PaperOutcome, fail_on: str) -> bool:
    return o.status in (FAILED, NOT_RUN) or bool(o.fails.get(fail_on, False))


def render_summary(run: BatchRun, *, fail_on: str = "major", verbose: bool = False,
                   quiet: bool = False) -> str:
    """The batch's summary for a terminal: totals, then the papers to look at (every
    paper for a small batch or with ``verbose``): those that fail at ``fail_on`` (most
    MAJOR first, with their error problems) and those that could not be checked, with
    their error."""
    out: list[str] = []
    totals = dict.fromkeys(LABELS, 0)
    for o in run.outcomes:
        for lab, n in o.counts.items():
            totals[lab] = totals.get(lab, 0) + n
    secs = max(run.elapsed_s, 1e-9)
    checked = run.count(CHECKED)
    refs_now = sum(o.references for o in run.outcomes if o.status == CHECKED)
    statuses = ", ".join(f"{run.count(s)} {s}" for s in (CHECKED, UNCHANGED, FAILED, SKIPPED,
                                                         NOT_RUN) if run.count(s))
    out.append(f"Batch: {len(run.outcomes)} papers ({statuses}), {run.references} references "
               f"in {run.elapsed_s:.1f} s"
               + (f" on {run.workers} worker(s)" if run.workers else "")
               + (f"; {checked / secs:.2f} papers/s, {refs_now / secs:.1f} references/s "
                  "checked" if checked else ""))
    out.append("References: " + "  ".join(f"{lab} {totals[lab]}" for lab in LABELS))
    failing = [o for o in run.outcomes if _fails(o, fail_on)]
    if failing:
        out.append(f"{len(failing)} paper(s) fail at --fail-on {fail_on}")
    if not quiet:
        if len(run.outcomes) <= LIST_ALL or verbose:
            out += ["", "Papers:", *(_paper_line(o) for o in run.outcomes)]
        else:
            found = sorted((o for o in failing if o.status in (CHECKED, UNCHANGED)),
                           key=lambda o: (-o.counts.get("MAJOR", 0), o.paper.name))
            broken = [o for o in failing if o.status not in (CHECKED, UNCHANGED)]
            for title, some in ((f"Papers failing at --fail-on {fail_on}", found),
                                ("Papers not checked", broken)):
                if some:
                    out += ["", f"{title} ({len(some)}):",
                            *(_paper_line(o) for o in some[:LIST_MAX])]
                if len(some) > LIST_MAX:
                    out.append(f"  ... {len(some) - LIST_MAX} more (--verbose lists every "
                               "paper; see summary.json)")
    if run.written:
        names = ", ".join(p.name for p in run.written)
        out.append("")
        out.append(f"Written to {run.out_dir}/: {names}, and papers/<name>/report.json")
    if run.interrupted:
        out.append("Interrupted: run the same command again to finish (checked papers are "
                   "not checked again).")
    return "\n".join(out) + "\n"
