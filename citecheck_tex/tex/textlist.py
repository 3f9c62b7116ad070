"""Plain reference lists (.txt/.md): one citation per line or per numbered item."""

from __future__ import annotations

import functools
import logging
import re

from citecheck_tex.model import Entry, EntryOrigin, Problem
from citecheck_tex.tex.bib import build_entry, entry_hygiene
from citecheck_tex.tex.merged import as_part, merged_references, part_key
from citecheck_tex.tex.refstring import parse_issue, parse_reference

logger = logging.getLogger(__name__)

_ITEM = re.compile(r"^\s*(?:\[(\d+)\]|(\d+)[.)]|\((\d+)\)|[-*+•])\s+")
_SKIP = re.compile(r"^\s*(?:#{1,6}\s|```|---+\s*$|===+\s*$|references\s*:?\s*$|"
                   r"bibliography\s*:?\s*$)", re.I)


def parse_text_list(text: str, filename: str) -> tuple[list[Entry], list[Problem]]:
    """Each numbered item (or each non-empty line when nothing is numbered) is an entry.

    Entries are keyed by their number (the written number when items are
    numbered, else the 1-based position). Continuation lines of a numbered item
    are joined to it. Never raises.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    numbered = sum(1 for ln in lines if _ITEM.match(ln) and not ln.lstrip().startswith(("-", "*", "+", "•"))) >= 1
    items: list[tuple[str, int, int, str]] = []  # key, first line, last line, text
    for i, ln in enumerate(lines, start=1):
        if not ln.strip() or _SKIP.match(ln):
            if numbered and items and not ln.strip():
                continue
            continue
        m = _ITEM.match(ln)
        if m:
            number = next((g for g in m.groups() if g), "")
            key = number or str(len(items) + 1)
            items.append((key, i, i, ln[m.end():].strip()))
        elif numbered and items:
            key, first, _, body = items[-1]
            items[-1] = (key, first, i, f"{body} {ln.strip()}")
        else:
            items.append((str(len(items) + 1), i, i, ln.strip()))
    entries: list[Entry] = []
    problems: list[Problem] = []
    seen: set[str] = set()
    for key, first, last, body in items:
        if key in seen:
            key = f"{key}-{first}"
        seen.add(key)
        for entry in merged_references(body, functools.partial(_entry, filename, key, first,
                                                                last)):
            entries.append(entry)
            problems.extend(entry_hygiene(entry))
    return entries, problems


def _entry(filename: str, key: str, first: int, last: int, n: int, text: str,
           at: int) -> Entry:
    """The entry of part ``n`` (from 0) of the item ``key``: ``text``, at ``at`` in it."""
    fields = parse_reference(text)
    etype = "article" if fields.get("journal") else "misc"
    entry = build_entry(part_key(key, n), etype, filename, first, fields,
                        origin=EntryOrigin.TEXT, end_line=last, raw_text=text, decoded=fields,
                        parse_issue=parse_issue(fields))
    return as_part(entry, key, n)
