"""Required fields per BibTeX entry type: the ``missing-field`` problem.

The table is BibTeX's own (btxdoc, "Entry Types"), which the standard styles and
publishers' styles built on them enforce: a missing required field prints ``Warning--empty
journal in KEY`` or, in some styles, stops BibTeX (revtex's apsrev4-2 fails on an
``@article`` without ``journal``). Each requirement is a tuple of alternatives: biblatex
names (``journaltitle``, ``date``, ``institution`` for a thesis) count as the field, as
``biber --validate-datamodel`` accepts them. Types not listed (``@misc``, biblatex's
``@online`` ...) require nothing here.
"""

from __future__ import annotations

from citecheck_tex.model import Entry, Problem

_AUTHOR, _TITLE, _YEAR = ("author",), ("title",), ("year", "date")
_AUTHOR_OR_EDITOR = ("author", "editor")

#: entry type -> required fields, each a tuple of accepted alternatives
REQUIRED: dict[str, tuple[tuple[str, ...], ...]] = {
    "article": (_AUTHOR, _TITLE, ("journal", "journaltitle"), _YEAR),
    "book": (_AUTHOR_OR_EDITOR, _TITLE, ("publisher",), _YEAR),
    "booklet": (_TITLE,),
    "inbook": (_AUTHOR_OR_EDITOR, _TITLE, ("chapter", "pages"), ("publisher",), _YEAR),
    "incollection": (_AUTHOR, _TITLE, ("booktitle",), ("publisher",), _YEAR),
    "inproceedings": (_AUTHOR, _TITLE, ("booktitle",), _YEAR),
    "conference": (_AUTHOR, _TITLE, ("booktitle",), _YEAR),
    "manual": (_TITLE,),
    "mastersthesis": (_AUTHOR, _TITLE, ("school", "institution"), _YEAR),
    "phdthesis": (_AUTHOR, _TITLE, ("school", "institution"), _YEAR),
    "proceedings": (_TITLE, _YEAR),
    "techreport": (_AUTHOR, _TITLE, ("institution",), _YEAR),
    "unpublished": (_AUTHOR, _TITLE, ("note",)),
}


def missing_fields(entry: Entry) -> list[Problem]:
    """One ``missing-field`` problem per required field ``entry`` lacks (empty counts)."""
    etype = entry.entry_type.lower()
    required = REQUIRED.get(etype, ())
    have = {k.lower() for k, v in entry.fields.items() if str(v).strip()}
    out: list[Problem] = []
    for alternatives in required:
        if have.intersection(alternatives):
            continue
        name = " or ".join(alternatives)
        advice = f"add {alternatives[0]}"
        if etype == "article" and alternatives[0] == "journal" and entry.arxiv:
            advice = "add the journal, or make this arXiv-only preprint a @misc"
        elif etype in ("inproceedings", "conference") and alternatives[0] == "booktitle" \
                and entry.arxiv:
            advice = "add the proceedings' title, or make this arXiv-only paper a @misc"
        elif alternatives[0] == "booktitle" and str(entry.fields.get("journal", "")).strip():
            # (HEPML.bib's @conference{Estrade:DLPS2017, journal = "{Proceedings of the
            # Deep Learning for Physical Sciences Workshop at NIPS (2017)}"}: plain and
            # ieeetr print no venue, apsrev4-2 and mnras neither venue nor title)
            advice = ("rename its journal field to booktitle: styles do not print a "
                      f"journal for @{etype} (apsrev4-2 prints only the authors and the year)")
        effect = (f"BibTeX warns `empty {alternatives[0]}`" if alternatives[0] != "journal"
                  else "BibTeX warns `empty journal`, apsrev4-2 stops with errors")
        out.append(Problem(
            "missing-field",
            f"@{etype} {entry.key!r} has no {name}, which its type requires ({effect}): "
            f"{advice}",
            key=entry.key, file=entry.file, line=entry.line))
    return out
