"""Link real reference-list entries to the INSPIRE records of the benchmark world index.

Used by :mod:`bench.accuracy.real_judged` to choose its reference set. A reference of
``inspire_hep_reference_strings.jsonl`` is linked to a record of the INSPIRE dump
(``corpus/dumps/inspire_literature.jsonl``, the records the world index holds) by the
identifiers it states, each an independent piece of evidence:

    recid        the INSPIRE record id stored with the reference
    doi          its DOI equals one of the record's DOIs
    arxiv        its arXiv id equals one of the record's arXiv ids
    pubnote      journal + volume + first page equal one of the record's publications
                 (journals by the project's journal key, series letters moved out of
                 the volume: ``Nucl.Phys.,B106,475`` = ``Nucl.Phys.B 106 475``)
    volpage      volume + first page equal and the first author's surname agrees
                 (journal spelt in a way the journal tables do not know)
    title        normalised titles equal and the first author agrees (the year, when
                 the reference names no author)

The record with the most kinds of evidence wins (ties: the order above). The
evidence for the winner and every other candidate is kept with the reference, so
a reader can see why a reference is linked and whether its identifiers disagree.

A candidate is **refused** when the reference's own identifiers say it cites another
work (:func:`refusal`); a reference whose every candidate is refused cites a work the
world index does not hold and is not part of the benchmark. Two rules, decided from
the reference's stored fields and the record only (never from a verdict):

    another publication  the reference states a journal reference that agrees with
                         none of the record's publications (two of journal, volume,
                         first page equal count as agreement, so a wrong page or a
                         missing series letter is still the same work), the record
                         shows another publication (a journal reference, or a DOI
                         that is not the reference's), and no arXiv id or DOI ties
                         them: the stored record id of a talk's proceedings, while
                         the reference cites the journal paper
    journal reference    the only evidence is journal + volume + page, and neither
      alone              an author nor the title of the reference is the record's:
                         a garbled page ('Eur.Phys.J. C76, 1') that happens to be
                         another paper's
"""

from __future__ import annotations

import json
import re
import unicodedata
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from bench.paths import CORPUS
from citecheck_tex.sources.importers import (
    IndexRow,
    inspire_row,
    normalize_arxiv,
    normalize_doi,
    normalize_title,
    pub_key,
)

REFS = CORPUS / "inspire_hep_reference_strings.jsonl"
DUMP = CORPUS / "dumps" / "inspire_literature.jsonl"

#: Evidence kinds, strongest first (the tie-break order).
METHODS = ("recid", "doi", "arxiv", "pubnote", "volpage", "title")

_ARXIV = re.compile(r"(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})")
_YEAR = re.compile(r"(1[89]\d\d|20\d\d)")


def as_list(value: object) -> list[str]:
    """A stored field as a list of strings (fields are a string or a list)."""
    if isinstance(value, list):
        return [str(v) for v in value if v]
    return [str(value)] if value else []


def first(value: object) -> str:
    """The first string of a stored field ("" when absent)."""
    values = as_list(value)
    return values[0] if values else ""


def fold(text: str) -> str:
    """Lower-case ASCII letters only (accents dropped)."""
    text = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in text.lower() if "a" <= ch <= "z")


def split_pubnote(pubnote: str) -> tuple[str, str, str]:
    """``Nucl.Phys.,B106,475`` -> ("Nucl.Phys.", "B106", "475"); journal names may hold commas."""
    parts = [p.strip() for p in pubnote.rsplit(",", 2)]
    if len(parts) < 3:
        parts += [""] * (3 - len(parts))
    return parts[0], parts[1], parts[2]


def ref_dois(d: dict[str, Any]) -> list[str]:
    """The reference's normalised DOIs."""
    return [x for x in (normalize_doi(v) for v in as_list(d.get("doi"))) if x]


def ref_arxivs(d: dict[str, Any]) -> list[str]:
    """The reference's normalised arXiv ids (from its report/arXiv field)."""
    out = []
    for v in as_list(d.get("report_or_arxiv")):
        m = _ARXIV.search(v)
        a = normalize_arxiv(m.group(1)) if m else ""
        if a:
            out.append(a)
    return out


def ref_pubs(d: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(journal key, volume, first page) of each pubnote (parts "" when missing)."""
    return [pub_key(*split_pubnote(p)) for p in as_list(d.get("pubnote"))]


_INITIALS = r"(?:[A-Z][a-z]?\.?-?\s?){1,4}"
_PAIRED = re.compile(rf"\s*[^\s,][^,]*,\s*{_INITIALS}")
_SURNAME_FIRST = re.compile(
    rf"((?:(?:van|von|de|der|den|del|da|di|le|la)\s+)*[A-Z][^\s.,]+(?:\s+[A-Z][^\s.,]+)?)"
    rf"\s+({_INITIALS})")


def author_names(value: object) -> list[str]:
    """Author names: a stored list of ``Family, G.``, or one stored string split into names.

    Strings come as ``A. B, C. D et al.``, ``B, A., D, C., & F, E.`` (pairs) or
    ``Solanki S. K., Riethmüller T. L.`` (surname first without comma); the last two
    are returned as ``Family, G.`` so BibTeX reads them as written.
    """
    if isinstance(value, list):
        return [str(v).strip() for v in value if str(v).strip()]
    text = re.sub(r"\s*,?\s*&\s*", ", ", str(value or "")).strip()
    text = re.sub(r"(?i)[\s,]*et\.?\s*al\.?.*$", "", text)
    parts = [p.strip() for p in re.split(r",|\s+and\s+", text) if p.strip()]
    if len(parts) >= 2 and len(parts) % 2 == 0 and all(
            re.fullmatch(_INITIALS.strip(), p) for p in parts[1::2]) and not any(
            re.fullmatch(_INITIALS.strip(), p) for p in parts[::2]):
        return [f"{f}, {g}" for f, g in zip(parts[::2], parts[1::2], strict=True)]
    if parts and all(_SURNAME_FIRST.fullmatch(p) for p in parts):
        return [_SURNAME_FIRST.sub(r"\1, \2", p).strip() for p in parts]
    names: list[str] = []
    for piece in re.split(r",?\s+and\s+|;", str(value or "")):
        parts = [p.strip() for p in piece.split(",")]
        # "Abhishodh, P" is one "Family, Given" name; "A. B, C. D" are two names
        if len(parts) == 2 and re.fullmatch(r"[A-Z][\w.\- ]{0,6}", parts[1]) \
                and " " not in parts[0]:
            names.append(piece.strip())
        else:
            names.extend(parts)
    return [n for n in names if n and not re.fullmatch(r"(?i)et\.?\s*al\.?", n)]


def surname(name: str) -> str:
    """The family name of ``Family, G.`` or ``G. Family`` (``et al.`` dropped), folded."""
    name = re.sub(r"(?i)\s*et\.?\s*al\.?.*$", "", name).strip()
    if "," in name:
        return fold(name.split(",")[0])
    words = [w for w in re.split(r"[\s~]+", name) if w]
    full = [w for w in words if not w.endswith(".") and len(fold(w)) > 1]
    return fold(full[-1]) if full else (fold(words[-1]) if words else "")


@dataclass
class World:
    """The INSPIRE records of the world index and their identifier maps."""

    rows: dict[str, IndexRow] = field(default_factory=dict)
    by: dict[str, dict[object, set[str]]] = field(
        default_factory=lambda: defaultdict(lambda: defaultdict(set)))

    def add(self, row: IndexRow) -> None:
        """Index one row by every identifier it has."""
        self.rows[row.uid] = row
        self.by["doi"].update()  # materialise the kind even when empty
        for doi in row.dois:
            self.by["doi"][doi].add(row.uid)
        for arxiv in row.arxivs:
            self.by["arxiv"][arxiv].add(row.uid)
        for key in row.jrefs:
            self.by["pubnote"][key].add(row.uid)
            self.by["volpage"][key[1:]].add(row.uid)
        if len(row.norm_title) >= 12:
            self.by["title"][row.norm_title].add(row.uid)

    def first_surname(self, uid: str) -> str:
        """The folded family name of the record's first author."""
        authors = self.rows[uid].record.authors
        return fold(authors[0].family) if authors else ""

    def years(self, uid: str) -> set[str]:
        """Every year the record states."""
        rec = self.rows[uid].record
        return {y for y in (rec.year, *rec.other_years) if y}


def load_world() -> World:
    """The INSPIRE dump of the world index, read with the project's importer."""
    world = World()
    with DUMP.open(encoding="utf-8") as fh:
        for line in fh:
            row = inspire_row(json.loads(line))
            if row is not None:
                world.add(row)
    return world


def evidence(d: dict[str, Any], world: World) -> dict[str, dict[str, str]]:
    """uid -> {method: the reference's value that points there}."""
    found: dict[str, dict[str, str]] = defaultdict(dict)

    def put(uids: Iterable[str], method: str, value: str) -> None:
        for uid in sorted(uids):
            found[uid].setdefault(method, value)

    recid = str(d.get("inspire_recid") or "")
    if recid and f"inspire:{recid}" in world.rows:
        put([f"inspire:{recid}"], "recid", recid)
    for doi in ref_dois(d):
        put(world.by["doi"].get(doi, ()), "doi", doi)
    for arxiv in ref_arxivs(d):
        put(world.by["arxiv"].get(arxiv, ()), "arxiv", arxiv)
    names = author_names(d.get("authors"))
    fam = surname(names[0]) if names else ""
    years = set(_YEAR.findall(first(d.get("year"))))
    for pubnote, key in zip(as_list(d.get("pubnote")), ref_pubs(d), strict=True):
        if all(key):
            put(world.by["pubnote"].get(key, ()), "pubnote", pubnote)
        if key[1] and key[2] and fam:
            same = [u for u in world.by["volpage"].get(key[1:], ())
                    if world.first_surname(u) == fam]
            put(same, "volpage", f"{pubnote} + {names[0]}")
    title = normalize_title(first(d.get("title")))
    if len(title) >= 12:
        # generic titles ("Quantum Gravity") are shared by several works: the first
        # author must agree; the year alone only when the reference names no author
        same = [u for u in world.by["title"].get(title, ())
                if (world.first_surname(u) == fam if fam else bool(years & world.years(u)))]
        put(same, "title", first(d.get("title")))
    return found


def _same_pub(p: tuple[str, str, str], q: tuple[str, str, str]) -> bool:
    """Two of journal, volume and first page agree (a wrong page is the same work)."""
    return sum(a == b != "" for a, b in zip(p, q, strict=True)) >= 2


def _words(text: str) -> set[str]:
    return {w for w in (fold(x) for x in re.split(r"[\s,.;&~-]+", text)) if len(w) >= 2}


def refusal(d: dict[str, Any], row: IndexRow, methods: Iterable[str]) -> str:
    """Why reference ``d`` cannot cite the record of ``row`` ("" when it can).

    ``methods`` are the kinds of evidence that link them (see the module docstring).
    """
    methods = set(methods)
    pubs = [p for p in ref_pubs(d) if all(p)]
    dois = set(ref_dois(d))
    if pubs and not methods & {"arxiv", "doi"} and not dois & set(row.dois) \
            and not any(_same_pub(p, q) for p in pubs for q in row.jrefs):
        other = [" ".join(q) for q in row.jrefs] + [x for x in row.dois if x not in dois]
        if other:
            return (f"another publication: the reference cites {', '.join(dict.fromkeys(as_list(d.get('pubnote'))))}"
                    f"{' (doi ' + ', '.join(sorted(dois)) + ')' if dois else ''}, the record is "
                    f"{', '.join(other)}")
    if methods and methods <= {"pubnote", "volpage"}:
        names = _words(" ".join(as_list(d.get("authors"))))
        families = {w for a in row.record.authors for w in _words(a.family)}
        title = _words(first(d.get("title")) or first(d.get("misc")))
        rec_title = _words(row.record.title)
        if names and not names & families and title \
                and len(title & rec_title) * 2 < min(len(title), len(rec_title) or 1):
            return ("journal reference alone: neither an author nor the title of the "
                    "reference is the record's")
    return ""


def link(d: dict[str, Any], world: World) -> dict[str, Any] | None:
    """The linked record of reference ``d`` with its evidence, or None.

    Refused candidates (:func:`refusal`) are left out; the reasons are under
    ``"refused"`` (a reference whose every candidate is refused links to nothing:
    see :func:`refused`).
    """
    found = evidence(d, world)
    refused = {u: why for u in found if (why := refusal(d, world.rows[u], found[u]))}
    found = {u: m for u, m in found.items() if u not in refused}
    if not found:
        return None

    def strength(uid: str) -> tuple[int, list[int]]:
        return (len(found[uid]), [-METHODS.index(m) for m in METHODS if m in found[uid]])

    ranked = sorted(found, key=lambda u: (strength(u), u), reverse=True)
    best = ranked[0]
    return {
        "record": best,
        "linked_by": [m for m in METHODS if m in found[best]],
        "evidence": {m: found[best][m] for m in METHODS if m in found[best]},
        "other_candidates": {u: found[u] for u in ranked[1:]},
        **({"refused": refused} if refused else {}),
    }


def refused(d: dict[str, Any], world: World) -> dict[str, str]:
    """Every candidate record of reference ``d`` that :func:`refusal` refuses, with why."""
    found = evidence(d, world)
    return {u: why for u in found if (why := refusal(d, world.rows[u], found[u]))}
