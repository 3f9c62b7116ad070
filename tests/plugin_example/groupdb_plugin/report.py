"""A CSV report for citecheck-tex: one row per reference (``--format csv``)."""

from __future__ import annotations

import csv
import io
from collections.abc import Iterator

from citecheck_tex import ReportFile, RunResult, Settings


class CsvReporter:
    """``report.csv``: key, label, reason code, discrepancy codes, matched source and id."""

    name = "csv"

    def render(self, result: RunResult, settings: Settings) -> str:
        """The CSV text."""
        out = io.StringIO()
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(["key", "label", "code", "discrepancies", "source", "id"])
        for v in result.verdicts:
            writer.writerow([v.entry.key, v.label.value, v.code.value,
                             " ".join(c.value for d in v.discrepancies for c in d.codes),
                             v.match.source if v.match else "",
                             v.match.id if v.match else ""])
        return out.getvalue()

    def files(self, result: RunResult, settings: Settings) -> Iterator[ReportFile]:
        """``report.csv`` in the report folder."""
        yield ReportFile("report.csv", [self.render(result, settings).encode("utf-8")])
