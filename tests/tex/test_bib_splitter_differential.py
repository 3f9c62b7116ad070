"""Differential test: the fast .bib splitter reads every file as bibtexparser does.

``tex.bib._split_blocks`` reads ordinary blocks with its own loop and hands
anything unusual to bibtexparser block by block (for speed: see the module
docstring). Its contract is to produce exactly the blocks (kind, key, type,
fields, raw text, error, line) that bibtexparser's ``parse_string`` produces for
the whole file. This test generates .bib-like texts from fragments that stress
the corner cases (nested braces, quotes, ``{"}``, ``@`` inside values and at line
starts, backslashes before newlines, unterminated entries, ``@string``,
``@comment``, duplicate keys and fields) and compares the two readings.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from citecheck_tex.tex import bib

_VALUES = [
    "{Plain title}", '"Quoted title"', "{Nested {braces} {{deep}} here}", '{A {"} quote}',
    '"With {braces} inside"', "{Ends with backslash\\\\}", "1998", "jan", "name # { and more}",
    "{line\nbreak}", "{at @ sign}", "{\\'e and \\\"o}", "{unbalanced {", '"open quote',
    "{comma, inside}", "{a = b}", "{\\\nescaped newline}",
]
_NAMES = ["title", "author", "year", "journal", "Title", "doi", "note", "x_y", "month"]
_KEYS = ["Maldacena:1997re", "key1", "key 2", "dup", "a:b-c", ""]
_TYPES = ["article", "ARTICLE", "misc", "inproceedings", "book"]


@st.composite
def _entry(draw: st.DrawFn) -> str:
    kind = draw(st.sampled_from(["entry", "entry", "entry", "string", "comment", "junk"]))
    if kind == "string":
        return "@string{" + draw(st.sampled_from(["jan", "prl", "x"])) + " = " + \
            draw(st.sampled_from(_VALUES)) + "}"
    if kind == "comment":
        return draw(st.sampled_from(["@comment{anything {nested} here}", "% a comment line",
                                     "@preamble{\"\\newcommand{\\x}{y}\"}", "plain text"]))
    if kind == "junk":
        return draw(st.sampled_from(["@", "@article", "}", "{", "@misc(", "=", ",", '"']))
    fields = draw(st.lists(st.tuples(st.sampled_from(_NAMES), st.sampled_from(_VALUES)),
                           max_size=4))
    sep = draw(st.sampled_from([",\n  ", ", ", ",", " ,\n"]))
    body = sep.join(f"{n} = {v}" for n, v in fields)
    trailing = draw(st.sampled_from(["", ",", ",\n"]))
    close = draw(st.sampled_from(["}", "}", "}", "", "\n}"]))
    lead = draw(st.sampled_from(["@", "  @", "\t@"]))
    return (f"{lead}{draw(st.sampled_from(_TYPES))}{{{draw(st.sampled_from(_KEYS))}"
            + ("," + (" " if body else "") + body if fields else draw(st.sampled_from(["", ","])))
            + trailing + close)


def _reference(text: str) -> list[bib._Block]:
    """bibtexparser's reading of the whole file, with the same duplicate bookkeeping."""
    whole = bib._bp_parse_string(text, parse_stack=[]).blocks
    raw = [b for b in (bib._from_bibtexparser(p, 0) for p in whole) if b is not None]
    entries: set[str] = set()
    strings: set[str] = set()
    out = []
    for b in raw:
        seen = entries if b.kind == "entry" else strings if b.kind == "string" else None
        if seen is not None:
            if b.key in seen:
                b = bib._Block("duplicate-key", b.line, key=b.key, raw=b.raw)
            else:
                seen.add(b.key)
        out.append(b)
    return out


@settings(max_examples=300, deadline=None)
@given(st.lists(_entry(), min_size=1, max_size=6),
       st.lists(st.sampled_from(["\n", "\n\n", " ", "\r\n", ""]), min_size=6, max_size=6))
def test_fast_splitter_equals_bibtexparser(parts: list[str], gaps: list[str]) -> None:
    text = "".join(p + g for p, g in zip(parts, gaps, strict=False))
    assert bib._split_blocks(text) == _reference(text)


def test_the_generator_reaches_the_fast_path() -> None:
    """Guard against a generator that only ever exercises the fallback."""
    text = "@article{k1,\n  title = {A {nested} title},\n  year = 1998\n}\n"
    blocks = bib._split_blocks(text)
    assert [b.kind for b in blocks] == ["entry"]
    assert blocks[0].fields == (("title", "{A {nested} title}"), ("year", "1998"))
    assert blocks == _reference(text)
