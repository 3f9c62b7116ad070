"""How a source file's bytes become text (``decode_source``), and what the .bib parser logs."""

from __future__ import annotations

import logging

from hypothesis import given
from hypothesis import strategies as st

from citecheck_tex.tex.bib import parse_bib_text
from citecheck_tex.tex.encoding import decode_source

_TEXT = st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00\ufeff"),
                max_size=200)


@given(_TEXT)
def test_utf8_text_reads_as_itself(text: str) -> None:
    assert decode_source(text.encode("utf-8")) == text


def test_a_stray_latin1_byte_keeps_the_utf8_text_around_it() -> None:
    # found 2026-12-02: one Latin-1 byte made the whole .bib Latin-1, and every UTF-8
    # name in it mojibake in the reports ("KrÃ¤mer")
    data = "Kr\u00e4mer, M\u00fcller".encode() + b" and Sch\xf6n"
    assert decode_source(data) == "Kr\u00e4mer, M\u00fcller and Sch\u00f6n"


def test_an_old_latin1_file_reads_as_latin1() -> None:
    text = "M\u00fcller, \u00dcber die \u00c9cole d'\u00e9t\u00e9 (\u00a7 3, 5\u00b0C)"
    assert decode_source(text.encode("latin-1")) == text


class _Records(logging.Handler):
    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.names: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.names.append(record.name)


def test_bibtexparser_says_nothing_of_its_own() -> None:
    # its "Parsing of `@article` block (line 0) aborted on line 6 ..." warnings reached
    # stderr (the root logger's handler) beside our own problem for the same entry
    root = logging.getLogger()
    seen = _Records()
    root.addHandler(seen)
    try:
        _, problems = parse_bib_text(
            "@article{A, title={One}, year={2001}} @article{B, title={Two {x}, year={2002}}"
            "\n@article{C, title={Three}, year={2003}}\n", "refs.bib")
    finally:
        root.removeHandler(seen)
    assert [p.code for p in problems if p.code == "parse-error"]
    assert not [name for name in seen.names if name.startswith("bibtexparser")]


def test_lines_after_backslash_line_breaks_are_the_files() -> None:
    # an abstract exported by arXiv/ADS breaks its lines with \\ : bibtexparser does not
    # count a newline after a backslash, and every later entry was reported 3 lines
    # early (terminal, SARIF, GitHub annotations all on the wrong lines; 2026-12-02)
    text = ("@article{K1,\n  title = {One},\n  abstract = {First line\\\\\n"
            "  second line\\\\\n  third line\\\\\n  end},\n  year = {2001}\n}\n\n"
            "@article{K2,\n  title = {Two},\n  doi = {bad-doi},\n  year = {2002}\n}\n"
            "@article{K2, title = {Again}, year = {2003}}\n")
    entries, problems = parse_bib_text(text, "refs.bib")
    lines = text.split("\n")
    assert [(e.key, lines[e.line - 1].startswith(f"@article{{{e.key},")) for e in entries] == [
        ("K1", True), ("K2", True)]
    assert {p.line for p in problems if p.code == "duplicate-key"} == {10, 15}


def test_a_malformed_entry_says_which_entries_it_takes_along() -> None:
    # on a one-line .bib, a broken entry swallows the rest of the line; the problem said
    # "the other entries are still checked" (2026-12-02)
    text = ("@article{A, title={One}, year={2001}} @article{B, title={Two {x}, year={2002}}"
            " @article{C, title={Three}, year={2003}} @misc{E, title={Five}}\n"
            "@article{D, title={Four}, year={2004}}\n")
    entries, problems = parse_bib_text(text, "r.bib")
    assert [e.key for e in entries] == ["A", "D"]
    (problem,) = [p for p in problems if p.code == "parse-error"]
    assert "the 2 entries after it before the next line that starts with @ are lost" \
        in problem.message
    _, problems = parse_bib_text("@article{B, title={Two {x}, year={2002}}\n"
                                 "@article{D, title={Four}, year={2004}}\n", "r.bib")
    assert "the other entries are still checked" in problems[0].message
