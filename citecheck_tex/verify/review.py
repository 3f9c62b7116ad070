"""The reviewer pass: a second look when an identifier resolves to a poorly fitting record.

An identifier (DOI, arXiv id) that resolves proves only that *some* paper has
it. When the resolved record's title or authors fit the citation poorly, the
reviewer looks at the candidates found by title and authors independently:

* one of them is clearly the work meant -> MINOR on that record (a wrong
  identifier on a real paper; the correction is the record's identifier);
* none is -> MAJOR: the identifier was hijacked (or the citation is a chimera
  or a fabrication). The resolved record is *not* offered as a correction.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass

from rapidfuzz.distance import Levenshtein

from citecheck_tex.model import Comparison, Discrepancy, DiscrepancyCode, Entry, FieldCheck
from citecheck_tex.verify import normalize as nz
from citecheck_tex.verify.compare import PENALTY_PER_DISCREPANCY

logger = logging.getLogger(__name__)

#: Identity at or above which a record is "clearly the work meant".
GOOD_FIT = 0.6


@dataclass(frozen=True, slots=True)
class Review:
    """Outcome of the reviewer pass.

    ``comparison`` is the record to judge the citation against (None when the
    identifier is hijacked and no real record fits); ``hijacked`` is True when
    an identifier resolves to a different work and no record fits the citation;
    ``other_work`` is the title (or id) of the work a cited identifier resolves to
    when it is not the cited one ("" when the identifiers fit).
    """

    comparison: Comparison | None
    hijacked: bool
    other_work: str


def _check(c: Comparison, name: str) -> FieldCheck | None:
    for fc in c.checks:
        if fc.field == name:
            return fc
    return None


def resolved_by_identifier(c: Comparison) -> bool:
    """True when the citation's DOI or arXiv id equals the record's."""
    return any((fc := _check(c, f)) is not None and fc.agree is True for f in ("doi", "eprint"))


def poor_fit(c: Comparison) -> bool:
    """True when title or authors fit the record poorly."""
    return c.identity < GOOD_FIT


#: Title similarity and author agreement from which a record resolved by the cited
#: identifier is the cited work, however poorly the rest fits.
DESCRIBES_TITLE = 0.8
DESCRIBES_AUTHORS = 0.5


def describes(c: Comparison) -> bool:
    """True when something besides the identifier says the record is the cited work.

    An identifier "resolves to another paper" only when the title and the authors
    both disagree (or are not stated) and no part of the journal reference (journal
    with volume, or page) agrees: a garbled title with the right authors, or the
    right journal, volume and page, is the cited work with errors, never a hijacked
    identifier. The year alone is no evidence (one year holds thousands of papers).
    """
    title, author = _check(c, "title"), _check(c, "author")
    if (title is None or title.agree is None) and c.record.authors_truncated:
        # no title to disagree, and a record that lists only some of its authors
        # cannot say the cited ones did not write it
        return True
    if author is None or author.agree is None:
        # no authors to disagree (a report cited by number and title): the title
        # alone does not make the identified work another one
        return True
    if title is not None and title.agree is not None and (
            title.agree or title.similarity >= DESCRIBES_TITLE):
        return True
    if author is not None and author.agree is not None and author.similarity >= DESCRIBES_AUTHORS:
        return True
    if _first_author_misspelt(c):
        return True
    agree = {f: (fc := _check(c, f)) is not None and fc.agree is True
             for f in ("journal", "volume", "pages")}
    return (agree["journal"] and agree["volume"]) or agree["pages"]


def _first_author_misspelt(c: Comparison) -> bool:
    """True when the cited first author is the record's first author with one letter
    changed and the same initials ("Lo, G." for "Li, Gang"): a misspelt name, which
    says the authors agree, not that the identifier names another work."""
    author = _check(c, "author")
    rec = [p for p in c.record.authors if not p.literal]
    if author is None or not author.cited or not rec:
        return False
    # the author check holds the cited authors in BibTeX form ("Lo, G. and ...")
    family, _, given = author.cited.split(" and ")[0].partition(",")
    a, b = nz.name_key(family), nz.name_key(rec[0].full_family)
    return bool(a) and bool(b) and Levenshtein.distance(a, b) <= 1 \
        and bool(nz.initials(given)) and nz.initials_compatible(given, rec[0].given)


def review(entry: Entry, chosen: Comparison, others: Sequence[Comparison]) -> Review:
    """Re-examine ``chosen`` against identifier-resolved and title-search candidates.

    ``others`` holds the comparisons with every other candidate record.
    """
    by_id = [c for c in (chosen, *others) if resolved_by_identifier(c)]
    bad_id = [c for c in by_id if poor_fit(c) and not describes(c)]
    if not bad_id:
        return Review(chosen, False, "")
    wrong = bad_id[0]
    resolved_title = wrong.record.title or wrong.record.id
    independent = [c for c in (chosen, *others) if c not in bad_id and not poor_fit(c)]
    if independent:
        best = max(independent, key=lambda c: (c.identity, c.score))
        ids = [f for f in ("doi", "eprint") if (fc := _check(wrong, f)) and fc.agree]
        extra: list[Discrepancy] = []
        for f in ids:
            fc = _check(best, f)
            if fc is None or fc.agree is None:
                cited = _check(wrong, f)
                extra.append(Discrepancy(
                    f, cited.cited if cited else "", getattr(best.record,
                                                             "doi" if f == "doi" else "arxiv"),
                    f"the cited identifier belongs to another paper: {resolved_title!r}",
                    DiscrepancyCode.IDENTIFIER_OTHER_WORK))
        if extra:
            drop = len(extra) - (0 if best.discrepancies else 1)
            score = max(0.0, min(best.score, 9.4) - PENALTY_PER_DISCREPANCY * drop)
            best = Comparison(best.record, round(score, 3), best.confidence, best.checks,
                              best.discrepancies + tuple(extra), best.identity)
        return Review(best, False, resolved_title)
    return Review(None, True, resolved_title)
