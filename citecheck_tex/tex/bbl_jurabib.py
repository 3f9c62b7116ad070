"""The fields of an item of jurabib's reference list, read from its markup.

jurabib.bst (and jureco, jurunsrt, jox) writes each item as ``\\jbbibargs {names}{full
names}{...}{body}{how cited}``, every field of the body in its own macro of jurabib.sty
(``\\bibapifont{title}``, ``\\bibjtfont{journal}``, ``\\artvolumeformat{752}``,
``\\jbPages{333}``), and every author in ``\\jbdoitem {{Family}{Given}{Initials}{von}{Jr};
...}``. Read as free text, the style's words and the names' three copies made the title
(jureco: 29 of 34 faithful items flagged) or left the item unread (jurabib: 52 of 53
UNVERIFIED).
"""

from __future__ import annotations

import re

from citecheck_tex.tex.bib import read_arguments

__all__ = ["read_jurabib"]


_JB_ARGS = re.compile(r"\\jbbibargs\s*(?=\{)")
_JB_DOITEM = re.compile(r"\\jbdoitem\s*(?=\{)")
_JB_NAME = re.compile(r"\\bibnf\s*(?=\{)")
#: The body's field macros (jurabib.sty: \bibapifont an article's or a chapter's title,
#: \bibtfont a work's own title, \bibbtfont the book of a chapter, \bibjtfont a journal).
_JB_FIELD = re.compile(r"\\(bibapifont|bibtfont|bibbtfont|bibjtfont|artvolumeformat|"
                       r"volumeformat|artvolnumformat|artnumberformat|jbPages|jbartPages|"
                       r"jbpages|artyearformat|apyformat|peryearformat|bibYear)(?![A-Za-z@])"
                       r"\s*(?=\{)")
_JB_FIELD_NAMES = {"bibapifont": "title", "bibtfont": "title", "bibbtfont": "booktitle",
                   "bibjtfont": "journal", "artvolumeformat": "volume",
                   "volumeformat": "volume", "artnumberformat": "number", "jbPages": "pages",
                   "jbartPages": "pages", "jbpages": "pages", "artyearformat": "year",
                   "apyformat": "year", "peryearformat": "year", "bibYear": "year"}


def _jurabib_name(parts: list[str]) -> str:
    """jurabib's {Family}{Given}{Initials}{von}{Jr} as a BibTeX name."""
    family, given, _, von, jr = (x.strip() for x in parts)
    family = f"{von} {family}" if von else family
    return ", ".join(x for x in (family, jr, given) if x)


def read_jurabib(body: str, raw: dict[str, str]) -> list[str] | None:
    """A jurabib item's fields into ``raw`` and its authors in BibTeX's form (None when
    the item is not jurabib's, :data:`_JB_ARGS`)."""
    start = _JB_ARGS.search(body)
    args = read_arguments(body, start.end(), 4) if start else None
    if args is None:
        return None
    names_arg, _, _, main = args[0]
    people: list[str] = []
    doitem = _JB_DOITEM.search(body, args[1])
    listed = read_arguments(body, doitem.end(), 1) if doitem else None
    if listed is not None:  # every author ("and others" left out)
        persons = listed[0][0]
        i = 0
        while (person := read_arguments(persons, i, 5)) is not None:
            people.append(_jurabib_name(person[0]))
            nxt = persons.find(";", person[1])
            if nxt < 0:
                break
            i = nxt + 1
    if not people:  # the names printed (the first, or all of a short list)
        for m in _JB_NAME.finditer(names_arg):
            person = read_arguments(names_arg, m.end(), 5)
            if person is not None:
                people.append(_jurabib_name(person[0]))
    if people and "\\Bibetal" in names_arg:
        # "et al." printed: \jbdoitem leaves out the .bib's "and others" (Kobayashi,
        # Oikawa, Omoto "and others" listed as three authors: a false author MINOR)
        people.append("others")
    for text in (main, names_arg):
        for m in _JB_FIELD.finditer(text):
            if m.group(1) == "artvolnumformat":
                got = read_arguments(text, m.end(), 2)
                if got is not None:
                    raw.setdefault("volume", got[0][0].strip())
                    raw.setdefault("number", got[0][1].strip())
                continue
            g = read_arguments(text, m.end(), 1)
            if g is not None and g[0][0].strip():
                raw.setdefault(_JB_FIELD_NAMES[m.group(1)], g[0][0].strip())
    return people
