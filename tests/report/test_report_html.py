"""The HTML report: self-contained, escaped, one row and card per reference."""

from __future__ import annotations

import re
from dataclasses import replace
from html.parser import HTMLParser

from citecheck_tex.model import Record
from citecheck_tex.report.html import render_html
from tests.report.factories import run_result, verdicts


class _Collector(HTMLParser):
    """Collects tags with attributes and the text of the page."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append((tag, dict(attrs)))

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _parse(html: str) -> _Collector:
    c = _Collector()
    c.feed(html)
    return c


def test_one_row_and_card_per_reference() -> None:
    page = _parse(render_html(run_result()))
    rows = [a for t, a in page.tags if t == "tr" and "ref" in (a.get("class") or "").split()]
    cards = [a for t, a in page.tags if t == "tr" and "detail" in (a.get("class") or "").split()]
    assert len(rows) == len(cards) == len(verdicts())
    assert [r["data-label"] for r in rows] == ["MAJOR", "MINOR", "MINOR", "UNVERIFIED", "EXACT",
                                               "SKIPPED"]
    keys = {r["data-key"] for r in rows}
    assert keys == {v.entry.key.lower() for v in verdicts()}


def test_titles_are_escaped() -> None:
    html = render_html(run_result())
    assert "Quantum &lt;gravity&gt; corrections to jet substructure &amp; top tagging" in html
    assert "<gravity>" not in html
    assert "&lt;Z&#39;&gt; Boson &amp; friends" in html
    text = "".join(_parse(html).text)
    assert "Quantum <gravity> corrections" in text


def test_script_injection_in_fields_is_inert() -> None:
    v = verdicts()[3]
    evil = replace(v, entry=replace(v.entry, key='x"><script>alert(1)</script>',
                                    title="</script><img src=x onerror=alert(1)>"),
                   facts={"identity": "{{ 7*7 }} \\cite{a} & <b>bold</b>"})
    html = render_html(replace(run_result(), verdicts=(evil,)))
    assert "<script>alert(1)" not in html and "<img src=x" not in html
    assert "{{ 7*7 }}" in html  # data is not template code
    assert html.count("<script>") == 1  # only the report's own script


def test_self_contained() -> None:
    html = render_html(run_result())
    page = _parse(html)
    for tag, attrs in page.tags:
        assert not (tag == "link" and attrs.get("rel") == "stylesheet")
        assert not (tag in ("script", "img", "iframe") and attrs.get("src"))
    assert "@import" not in html and "url(" not in html
    assert "@media print" in html


def test_links_to_sources_and_only_http() -> None:
    html = render_html(run_result())
    assert 'href="https://doi.org/10.1007/jhep07(2016)069"' in html
    assert 'href="https://arxiv.org/abs/1511.05190"' in html
    assert 'href="https://inspirehep.net/literature/1623915"' in html
    v = verdicts()[1]
    assert v.match is not None
    bad = replace(v, match=replace(v.match, url="javascript:alert(1)", doi="", arxiv=""))
    assert "javascript:" not in render_html(replace(run_result(), verdicts=(bad,)))


def test_card_contents() -> None:
    html = render_html(run_result())
    page = _parse(html)
    diffs = [a for t, a in page.tags if t == "tr" and a.get("class") == "diff"]
    assert len(diffs) == 4  # deOliveira year+pages, Carrazza year, Smith title
    assert "Suggested BibTeX" in html and html.count('class="btn copy"') == 2
    assert "@article{deOliveira:2015xxd," in html
    assert "rate limited" in html and "1310 ms" in html
    assert "paper/sections/intro.tex:7" in html and "\\citep" in html
    for code in ("undefined-key", "unused-entry", "network"):
        assert f'<td class="pcode">{code}</td>' in html


def test_keyboard_controls_are_real_buttons_and_inputs() -> None:
    page = _parse(render_html(run_result()))
    buttons = [a for t, a in page.tags if t == "button"]
    chips = [b for b in buttons if b.get("data-label")]
    assert {c["data-label"] for c in chips} == {"MAJOR", "MINOR", "UNVERIFIED", "EXACT",
                                                "SKIPPED"}
    assert all(c.get("aria-pressed") == "true" for c in chips)
    toggles = [b for b in buttons if "toggle" in (b.get("class") or "")]
    assert len(toggles) == 6 and all(b.get("aria-controls") for b in toggles)
    assert any(t == "input" and a.get("id") == "filter-text" for t, a in page.tags)
    assert any(t == "label" and a.get("for") == "filter-text" for t, a in page.tags)


def test_summary_counts() -> None:
    html = render_html(run_result())
    counts = dict(re.findall(r'data-stat="(\w+)">\s*<div class="n">(\d+)</div>', html))
    assert counts == {"MAJOR": "1", "MINOR": "2", "UNVERIFIED": "1", "EXACT": "1", "SKIPPED": "1"}


def test_empty_run_renders() -> None:
    html = render_html(replace(run_result(), verdicts=(), problems=()))
    assert "0 of 0 shown" in html and "No problems" in html


def test_record_without_links_renders() -> None:
    v = verdicts()[1]
    bare = replace(v, match=Record(source="dblp", id="journals/x/Y20"))
    html = render_html(replace(run_result(), verdicts=(bare,)))
    assert "journals/x/Y20" in html


def test_codes_beside_the_prose_with_their_meaning() -> None:
    """Each card shows its verdict's reason code and each discrepancy's codes; the
    tooltip (title) is the code's meaning, the text the stable code (docs/codes.md)."""
    result = run_result()
    page = _parse(render_html(result))
    labels = [(a.get("data-code"), a.get("title")) for t, a in page.tags
              if t == "code" and "code" in (a.get("class") or "").split()]
    for v in result.verdicts:
        assert (v.code.value, v.code.meaning) in labels, v.entry.key
        for d in v.discrepancies:
            for c in d.codes:
                assert (c.value, c.meaning) in labels, (v.entry.key, c)
    # the filter finds a reference by its codes
    rows = {a["data-key"]: a["data-search"] for t, a in page.tags
            if t == "tr" and "ref" in (a.get("class") or "").split()}
    for v in result.verdicts:
        search = rows[v.entry.key.lower()] or ""
        assert v.code.value in search
        assert all(c.value in search for d in v.discrepancies for c in d.codes)
