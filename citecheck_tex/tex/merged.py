"""One bibliography item that holds several references, separated by semicolons.

Physics papers merge references into one item: ``\\bibitem{ads} J. M. Maldacena, Adv.
Theor. Math. Phys. 2, 231 (1998); E. Witten, Adv. Theor. Math. Phys. 2, 253 (1998).``
Read as one reference, only the first was checked: a wrong volume, or a fabricated
reference, after the semicolon passed as EXACT. Each part is now an entry of its own:
the first keeps the item's key, the others are ``KEY#2``, ``KEY#3`` (``#`` is in no
BibTeX or LaTeX key, so the names never collide) with ``part_of`` naming the item.

A semicolon starts a new reference only when both sides are whole references: the text
before it is found (a journal with volume or pages, an arXiv id or a DOI), and the text
after it names authors and is found by itself. Everything else that follows a semicolon
stays with its reference: "Phys. Rev. D 95, 043541 (2017); arXiv:1610.08297", an
erratum, "ibid. 81, 2", ACS's "Hui, L.; Ostriker, J. P." names, Vancouver's "2017;95(4)".
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable

from citecheck_tex.model import Entry

#: A semicolon that may end a reference: not LaTeX's ``\\;`` (a thin space), followed by
#: a space or a line break.
_SEMICOLON = re.compile(r"(?<!\\);(?=\s)")
#: Words that introduce the next reference of an item: "; see also E. Witten, ...".
_LEAD_IN = re.compile(r"\s*(?:(?:and|also|see|e\.\s?g\.,?|cf\.|for\s+(?:a\s+)?reviews?,?"
                      r"(?:\s+see)?)\s+)*", re.I)

#: Builds the entry of one part: (part number from 0, its text, its offset in the item).
Make = Callable[[int, str, int], Entry]


def _found(entry: Entry) -> bool:
    """The part can be looked up by itself: an identifier, or a journal with its volume
    or pages."""
    return bool(entry.arxiv or entry.doi or (entry.venue and (entry.volume or entry.pages)))


def _top_level_semicolons(text: str) -> list[int]:
    """Offsets of the semicolons outside braces, brackets and parentheses."""
    depth = 0
    cuts: list[int] = []
    spots = {m.start() for m in _SEMICOLON.finditer(text)}
    if not spots:
        return cuts
    for i, c in enumerate(text):
        if c in "{[(":
            depth += 1
        elif c in "}])":
            depth = max(0, depth - 1)
        elif i in spots and depth == 0:
            cuts.append(i)
    return cuts


def merged_references(text: str, make: Make) -> list[Entry]:
    """The entries of one item: ``[make(0, text, 0)]`` when it holds one reference, else
    one entry per reference (see the module's doc for the rule)."""
    cuts = _top_level_semicolons(text)
    if not cuts:
        return [make(0, text, 0)]
    spans: list[tuple[int, int]] = []
    start = 0
    for n, cut in enumerate(cuts):
        piece_end = cuts[n + 1] if n + 1 < len(cuts) else len(text)
        lead = _LEAD_IN.match(text, cut + 1)
        piece_start = lead.end() if lead else cut + 1
        after = make(1, text[piece_start:piece_end], piece_start)
        if not (after.authors and _found(after)):
            continue
        if not _found(make(0, text[start:cut], start)):
            continue
        spans.append((start, cut))
        start = piece_start
    if not spans:
        return [make(0, text, 0)]
    spans.append((start, len(text)))
    return [make(n, text[a:b], a) for n, (a, b) in enumerate(spans)]


def part_key(key: str, n: int) -> str:
    """The key of part ``n`` (from 0) of the item ``key``."""
    return key if n == 0 else f"{key}#{n + 1}"


def as_part(entry: Entry, item_key: str, n: int) -> Entry:
    """``entry`` as part ``n`` of the item ``item_key`` (the first part is the item)."""
    if n == 0:
        return entry
    return dataclasses.replace(entry, key=part_key(item_key, n), part_of=item_key)
