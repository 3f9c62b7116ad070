"""Suggested corrections for a MINOR verdict: the record's value of each wrong field."""

from __future__ import annotations

import logging

from citecheck_tex.model import Comparison, Entry
from citecheck_tex.verify.compare import bibtex_authors

logger = logging.getLogger(__name__)

#: Fields whose suggestion is the value the comparator found in the record.
_FROM_CHECK = ("journal", "volume", "pages", "url")


def suggest(entry: Entry, comparison: Comparison) -> dict[str, str]:
    """Every contradicted field with the record's value, in BibTeX field names.

    Also adds the identifiers (``doi``, ``eprint``) the record has and the
    citation lacks. Authors are given in BibTeX "Family, Given and ..." form.
    Fields the record does not state are never suggested (no blanking).
    """
    rec = comparison.record
    out: dict[str, str] = {}
    found_by_field = {c.field: c.found for c in comparison.checks}
    for d in comparison.discrepancies:
        value = ""
        if d.field == "author":
            value = bibtex_authors(rec.authors)
            if rec.authors_truncated and value:
                value += " and others"
            elif not value and rec.collaborations:
                value = " and ".join("{" + c + "}" for c in rec.collaborations)
        elif d.field == "title":
            value = rec.title
        elif d.field == "year":
            value = rec.year or (rec.other_years[0] if rec.other_years else "")
        elif d.field == "doi":
            value = rec.doi
        elif d.field == "eprint":
            value = rec.arxiv
        elif d.field in _FROM_CHECK:
            value = found_by_field.get(d.field, "") or d.found
        if value:
            out[d.field] = value
    if rec.doi and not entry.doi and "doi" not in out and "doi.org/" not in entry.url.lower():
        out["doi"] = rec.doi
    if rec.arxiv and not entry.arxiv and "eprint" not in out \
            and "arxiv.org/" not in entry.url.lower():
        out["eprint"] = rec.arxiv
    return out
