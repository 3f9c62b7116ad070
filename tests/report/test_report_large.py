"""Issue 12 row 12: a very large bibliography keeps the reports bounded.

A 100,000-entry .bib made a 756 MB report.html (every reference in full detail)
and the JSON report was built whole in memory. The HTML now shows the most
severe DETAIL_LIMIT references in full, the next ones in a compact table and
only counts the rest; report.json, streamed one entry at a time, keeps every
reference and is byte-identical to the non-streamed text. (Time and memory of a
whole 100,000-entry run are measured in bench/bench_large_bib.py, not here.)
"""

from __future__ import annotations

import json
import re
from dataclasses import replace

import pytest

from citecheck_tex.model import Label, Verdict
from citecheck_tex.report import html as html_report
from citecheck_tex.report.json import build_report, iter_json, render_json
from tests.report.factories import run_result


def _many(n: int) -> tuple[Verdict, ...]:
    base = run_result().verdicts
    return tuple(replace(v, entry=replace(v.entry, key=f"{v.entry.key}-{i}"))
                 for i in range(n // len(base) + 1) for v in base)[:n]


def test_html_details_only_the_most_severe_references(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(html_report, "DETAIL_LIMIT", 50)
    monkeypatch.setattr(html_report, "COMPACT_LIMIT", 200)
    verdicts = _many(260)
    result = run_result(verdicts=verdicts)
    page = html_report.render_html(result)
    detailed = re.findall(r'<tr class="ref c-(\w+)"', page)
    assert len(detailed) == 50
    assert len(re.findall(r'id="ref-\d+-detail"', page)) == 50
    # the most severe first: every MAJOR and MINOR is among the detailed ones
    severe = sum(1 for v in verdicts if v.label in (Label.MAJOR, Label.MINOR))
    assert detailed[:severe] == ["MAJOR"] * detailed.count("MAJOR") + \
        ["MINOR"] * detailed.count("MINOR")
    compact = re.findall(r'<tr class="c-(\w+)"><td>\1</td><td class="mono">([^<]+)</td>', page)
    assert len(compact) == 150
    assert 'data-omitted="60"' in page
    # every label count is still the whole run's
    summary = result.summary()
    for lab, count in summary.items():
        assert f'data-stat="{lab}">\n      <div class="n">{count}</div>' in page


def test_html_of_a_small_run_is_unchanged_in_shape() -> None:
    page = html_report.render_html(run_result())
    assert len(re.findall(r'<tr class="ref c-', page)) == len(run_result().verdicts)
    assert "More references" not in page


def test_html_size_stays_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(html_report, "DETAIL_LIMIT", 100)
    monkeypatch.setattr(html_report, "COMPACT_LIMIT", 1_000)
    one = len(html_report.render_html(run_result(verdicts=_many(100))))
    big = len(html_report.render_html(run_result(verdicts=_many(3_000))))
    # 900 compact rows, a small fraction of a detailed one's ~8 KB each; 2,000 only counted
    assert big - one < 900 * 400


def test_streamed_json_is_the_whole_report() -> None:
    for result in (run_result(), run_result(verdicts=()), run_result(verdicts=_many(40))):
        text = "".join(iter_json(result))
        assert text == json.dumps(build_report(result), ensure_ascii=False, indent=2) + "\n"
        assert text == render_json(result)
        assert len(json.loads(text)["entries"]) == len(result.verdicts)
