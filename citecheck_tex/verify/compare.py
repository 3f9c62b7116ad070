"""Field-by-field comparison of a citation (:class:`Entry`) with a :class:`Record`.

Each comparator returns a :class:`FieldCheck` (``agree`` True/False, or None
when the field cannot be compared because one side does not state it) and,
when contradicted, a :class:`Discrepancy` named with the BibTeX field name
(``author``, ``title``, ``year``, ``journal``, ``volume``, ``pages``, ``doi``,
``eprint``, ``url``).

:func:`compare` combines them into ``identity`` (0..1: how sure we are that the
record is the work the citation means, from title, authors, identifiers and
the publication reference) and ``score`` (0..10: identity, lowered a little
for each contradicted field). Thresholds on the score are applied in
:mod:`citecheck_tex.verify.policy`.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from functools import lru_cache

from rapidfuzz.distance import Levenshtein

from citecheck_tex.model import (
    Comparison,
    Discrepancy,
    DiscrepancyCode,
    Entry,
    EntryOrigin,
    FieldCheck,
    Person,
    Record,
)
from citecheck_tex.names import PARTICLES
from citecheck_tex.verify import normalize as nz
from citecheck_tex.vocab.ids import ARXIV_DOI_PREFIX, arxiv_of_doi, find_report_number

logger = logging.getLogger(__name__)

#: Score lost per contradicted field (keeps severity monotone: more wrong
#: fields never raise the score).
PENALTY_PER_DISCREPANCY = 0.35
#: Below this title similarity, a free-text "title" of a work pinned by its identifier
#: or journal reference is taken as misread text, not as a wrong title.
MISREAD_TITLE = 0.5
#: Highest identity of a record for a title-less citation whose journal reference the
#: record cannot confirm (it states no publication): below the calibrated tau_minor.
UNCONFIRMED_PUBNOTE_IDENTITY = 0.5
#: Authors an index record lists before its cut (``sources.importers.MAX_AUTHORS``);
#: after them it keeps only its last author and corporate names.
INDEX_LISTED_AUTHORS = 100
#: More authors than this is a collaboration-sized list, whose order the collaboration
#: sets: its first author is the one the texkey names, wherever he stands.
LONG_AUTHOR_LIST = 30

_YEAR = re.compile(r"(1[5-9]\d\d|20\d\d)")
_COLLAB = re.compile(r"\b(collaborations?|collab\.?|group|consortium|team)\b", re.IGNORECASE)


def _journals_same(a: str, b: str) -> bool:
    try:
        from citecheck_tex.vocab.journals import same_journal
    except ImportError:  # pragma: no cover - the module is part of the package
        return nz.venue_key(a) == nz.venue_key(b)
    return same_journal(a, b)


@lru_cache(maxsize=16384)
def _abbrev_tokens(name: str) -> tuple[str, ...]:
    return tuple(t for t in re.split(r"[^0-9a-z]+", nz.fold(name)) if t
                 and t not in ("of", "the", "and", "for", "in", "on", "de", "der", "und"))


def _abbrev_match(a: str, b: str) -> bool:
    """Token-wise abbreviation match: "Phys. Rev. D" ~ "Physical Review D"."""
    ta, tb = _abbrev_tokens(a), _abbrev_tokens(b)
    if not ta or len(ta) != len(tb):
        return False
    return all(x.startswith(y) or y.startswith(x) for x, y in zip(ta, tb, strict=True))


def same_venue(a: str, b: str) -> bool:
    """True when two journal statements name the same venue."""
    if not a or not b:
        return False
    if _journals_same(a, b):
        return True
    ka, kb = nz.venue_key(a), nz.venue_key(b)
    if ka == kb:
        return True
    return _abbrev_match(a, b)


def arxiv_year(arxiv_id: str) -> str:
    """The year an arXiv id was issued: ``2212.01234`` -> 2022, ``hep-th/9901001`` -> 1999."""
    m = re.match(r"^(?:arxiv:)?(\d{2})(\d{2})\.\d{4,5}", arxiv_id.strip(), re.IGNORECASE) \
        or re.match(r"^[a-z\-]+(?:\.[a-z]{2})?/(\d{2})(\d{2})\d{3}", arxiv_id.strip(),
                    re.IGNORECASE)
    if not m or not 1 <= int(m.group(2)) <= 12:
        return ""
    yy = int(m.group(1))
    return str(1900 + yy if yy >= 91 else 2000 + yy)


def record_years(record: Record) -> list[str]:
    """Every year the work appeared in: the record's year, its other years (preprint,
    print, online), every publication's (journal, erratum, proceedings) and the year
    its arXiv id encodes; the record's own year first."""
    years = [y for y in (_year_of(record.year), *(_year_of(y) for y in record.other_years))
             if y]
    years.extend(_year_of(p[3]) for p in record.extra_pubs if _year_of(p[3]))
    if record.arxiv:
        years.append(arxiv_year(record.arxiv))
    return [y for y in dict.fromkeys(years) if y]


def _year_of(text: str) -> str:
    m = _YEAR.search(text or "")
    return m.group(1) if m else ""


# ---------------------------------------------------------------- authors


def _person_text(p: Person) -> str:
    return p.family if p.literal else f"{p.given} {p.full_family}".strip()


def _is_collaboration(p: Person) -> bool:
    return bool(_COLLAB.search(_person_text(p))) or (p.literal and len(p.family.split()) > 1)


def _collab_key(name: str) -> str:
    return nz.name_key(_COLLAB.sub(" ", name))


def _abbreviated_collaboration(cited: str, names: list[str]) -> bool:
    """``cited`` is one of ``names`` as BibTeX abbreviates an unbraced collaboration
    ("SuperCDMS Collaboration" read as given name and family): "S.~Collaboration"
    (elsarticle-num, abbrv), iopart-num's "Collaboration C", mnras's "Collaboration T. B."
    for "The BOREXINO Collaboration", "{S Collaboration}". Only single-letter initials
    count, each the first letter of the name's words in order ("C. Collaboration" is no
    abbreviation of the ATLAS Collaboration; a false collaboration MINOR otherwise)."""
    initials = [w.rstrip(".") for w in _COLLAB.sub(" ", cited).split()]
    if not initials or len(initials) > 3 or not all(
            len(w) == 1 and w.isupper() for w in initials):
        return False
    # (an index keeps "BOREXINO" of "The BOREXINO Collaboration", BibTeX "T. B.")
    for name in names:
        firsts = [w[0].upper() for w in re.findall(r"[^\W_][\w\-]*", _COLLAB.sub(" ", name))]
        if firsts and initials in (firsts, ["T", *firsts]):
            return True
    return False


@dataclass(frozen=True, slots=True)
class AuthorMatch:
    """Alignment of the cited author list with the record's."""

    similarity: float | None  # 0..1 share of cited authors found, None if not comparable
    first_author: bool | None
    notes: tuple[str, ...]  # one note per problem ("misspelt ...", "missing ...")
    matched: int
    cited: int
    kinds: tuple[DiscrepancyCode, ...] = ()  # the kind of each note, in order
    #: Of ``matched``, the persons (and collaborations) whose initials agree with the
    #: record's (:func:`same_initials`): the ones that are evidence of the same
    #: people when nothing else identifies the work. ``None``: as ``matched``.
    agreeing: int | None = None

    @property
    def same_people(self) -> int:
        """Matched cited authors whose initials do not say they are someone else."""
        return self.matched if self.agreeing is None else self.agreeing

    @property
    def codes(self) -> tuple[DiscrepancyCode, ...]:
        """The kinds of problem found, most serious first, once each."""
        return tuple(k for k in _AUTHOR_CODE_ORDER if k in self.kinds)


#: Author problems from the most to the least serious: the first found is the code of
#: the author discrepancy, the others its ``also``.
_AUTHOR_CODE_ORDER = (
    DiscrepancyCode.AUTHOR_ADDED, DiscrepancyCode.AUTHOR_MISSING,
    DiscrepancyCode.COLLABORATION_MISMATCH, DiscrepancyCode.AUTHOR_MISSPELT,
    DiscrepancyCode.AUTHOR_NAME_FORM, DiscrepancyCode.INITIAL_MISMATCH,
    DiscrepancyCode.AUTHOR_ORDER,
)


def _fuzzy(a: str, b: str) -> float:
    if not a or not b:
        return 0.0
    return float(Levenshtein.normalized_similarity(a, b))


def _key_variants(p: Person) -> tuple[str, ...]:
    """Keys a cited person may match on (handles "Pelizzola A." parsed as one family)."""
    keys = [nz.name_key(p.full_family)]
    if len(keys[0]) <= 1 and p.given:
        # "Pelizzola A." read as family "A." (try the given name too), or a record that
        # stores the name the same way ("T., Srinivasan", as INSPIRE does for some
        # Indian names): the family as written is tried first, so that it never steals
        # another author's match
        keys = [keys[0], nz.name_key(p.given.split()[0]), nz.name_key(p.given)]
    words = [w for w in re.split(r"[\s,]+", p.full_family) if len(w.rstrip(".")) > 1]
    if len(words) > 1:
        keys.extend(nz.name_key(w) for w in words)
    if p.given and not p.family:
        keys.append(nz.name_key(p.given))
    return tuple(k for k in keys if k)


def _same_family(cited_keys: tuple[str, ...], rec_key: str, rec: Person) -> bool:
    """Equal family keys, or one side is a single part of the other's compound name."""
    full = cited_keys[0] if cited_keys else ""
    if full == rec_key or rec_key in cited_keys[1:]:
        return True
    return full in {nz.name_key(w) for w in _family_words(rec)}


def _family_words(p: Person) -> list[str]:
    """The words of a compound family name with its von part, lower-case particles left
    out ("Garcia de Andrade", which BibTeX's grammar splits into von "Garcia de" and
    family "Andrade": ["Garcia", "Andrade"]; "Di Vecchia": ["Di", "Vecchia"])."""
    return [w for w in re.split(r"[\s\-]+", p.full_family)
            if len(w) >= 2 and w not in PARTICLES]


def _same_full_name(a: Person, b: Person) -> bool:
    """True when two persons' names, written out in natural order, are the same three
    words or more and only the split between given and family name differs: plain.bst
    prints "Ruiz de Austri Bazan, Roberto Ruiz" as "Roberto~Ruiz Ruiz~de Austri~Bazan",
    which reads back as given "Roberto Ruiz Ruiz", family "de Austri Bazan" (BibTeX's own
    grammar cannot tell; the name printed is the record's, word for word, and had been
    a false MINOR)."""
    def words(p: Person) -> list[str]:
        return [nz.name_key(w) for w in re.split(r"[\s\-]+", f"{p.given} {p.full_family}") if w]

    wa = words(a)
    return len(wa) >= 3 and sum(len(w) >= 2 for w in wa) >= 3 and wa == words(b)


def same_initials(a: Person, b: Person) -> bool:
    """True when the given names of two persons of the same family name can be one
    person's: their initials agree ("H." ~ "H.X." ~ "Hong Xia"; "H.X." is not "P.";
    a name without initials agrees with any). The one rule for whether a matched
    family name is the cited person (a common family name such as Wang is many
    people: "H.X. Wang" and "P. Wang" are two)."""
    return nz.initials_compatible(a.given, b.given)


def match_authors(cited: tuple[Person, ...], cited_truncated: bool,
                  found: tuple[Person, ...], found_truncated: bool,
                  collaborations: tuple[str, ...] = (),
                  texkeys: tuple[str, ...] = ()) -> AuthorMatch:
    """Align two author lists: family names with particles and transliterations,
    initials compatible with full names, truncation on either side, order.

    ``matched`` counts the persons aligned, other initials included (a misprinted
    initial of a work identified otherwise); ``agreeing`` only those whose initials
    agree too (:func:`same_initials`).

    ``texkeys`` (INSPIRE's "Surname:2008xy") name the record's first author."""
    texkey_names = {nz.name_key(k.split(":", 1)[0]) for k in texkeys if ":" in k}
    collab_keys = {_collab_key(c) for c in collaborations}
    collab_keys.update(_collab_key(_person_text(p)) for p in found if _is_collaboration(p))
    people = [p for p in cited if not _is_collaboration(p)]
    collabs = [p for p in cited if _is_collaboration(p)]
    rec = [p for p in found if not _is_collaboration(p)]
    notes: list[str] = []
    kinds: list[DiscrepancyCode] = []
    collab_ok = 0
    for c in collabs:
        if _collab_key(_person_text(c)) in collab_keys or _abbreviated_collaboration(
                _person_text(c), [*collaborations,
                                  *(_person_text(p) for p in found if _is_collaboration(p))]):
            collab_ok += 1
        elif collab_keys:
            kinds.append(DiscrepancyCode.COLLABORATION_MISMATCH)
            notes.append(f"collaboration {_person_text(c)!r} differs from "
                         f"{', '.join(collaborations) or '?'}")
    if not people:
        if collabs:
            sim = collab_ok / len(collabs) if collab_keys else None
            return AuthorMatch(sim, None, tuple(notes), collab_ok, len(collabs), tuple(kinds))
        return AuthorMatch(None, None, (), 0, 0)
    if not rec:
        if collab_keys and collabs:
            return AuthorMatch(collab_ok / len(collabs), None, tuple(notes), collab_ok,
                               len(collabs), tuple(kinds))
        return AuthorMatch(None, None, (), 0, 0)

    rec_keys = [nz.name_key(p.full_family) for p in rec]
    index: dict[str, list[int]] = {}
    for j, k in enumerate(rec_keys):
        index.setdefault(k, []).append(j)
    for j, p in enumerate(rec):
        # compound family names ("Hosseini Nejad") are often cut to their last word
        words = _family_words(p)
        if len(words) > 1:
            for w in (words[-1], words[0]):
                index.setdefault(nz.name_key(w), []).append(j)
    used: set[int] = set()
    pairs: list[tuple[int, int, float]] = []  # (cited i, record j, weight)
    other_initials = 0  # pairs whose initials say they are another person
    unmatched: list[int] = []
    for i, p in enumerate(people):
        variants = _key_variants(p)
        cands = [j for key in variants for j in index.get(key, ())
                 if j not in used and _same_family(variants, rec_keys[j], rec[j])]
        # the first with agreeing initials: "Miguel Crispim Romão" (plain.bst's natural
        # order of "Crispim Romão, Miguel") is not the "Jorge C. Romão" of the same list
        hit = next((j for j in cands if same_initials(p, rec[j])), cands[0] if cands else -1)
        if hit < 0:
            unmatched.append(i)
            continue
        used.add(hit)
        weight = 1.0
        if not same_initials(p, rec[hit]):
            weight = 0.85
            other_initials += 1
            kinds.append(DiscrepancyCode.INITIAL_MISMATCH)
            notes.append(f"initials of {p.display()!r} differ from {rec[hit].display()!r}")
        pairs.append((i, hit, weight))

    # a family name cited as the given name ("Sun Wang" for "Sun", "Wei Zhang" for
    # "Zhang Wei"), or the parts of a compound family name in another order
    # ("Cano-Jiménez" for "Jiménez-Cano"): the same person, named wrongly
    rest: list[int] = []
    for i in unmatched:
        p = people[i]
        hit = next((j for j, r in enumerate(rec) if j not in used and _same_full_name(p, r)), -1)
        if hit >= 0:
            used.add(hit)
            pairs.append((i, hit, 1.0))
            continue
        # a given name followed by the family initial ("Abhishodh, P" for Abhishodh
        # Prakash): how South Indian names are often written (the initial stands for
        # the family or father's name), the same person named in his own usage
        gi = nz.initials(p.given)
        hit = next((j for j, r in enumerate(rec) if j not in used and len(gi) == 1
                    and r.given and nz.name_key(p.full_family) == nz.name_key(r.given.split()[0])
                    and nz.name_key(r.full_family)[:1] == gi), -1)
        if hit >= 0:
            used.add(hit)
            pairs.append((i, hit, 1.0))
            continue
        parts = sorted(nz.name_key(w) for w in re.split(r"[\s\-]+", p.full_family) if w)
        hit = next((j for j, r in enumerate(rec) if j not in used and len(parts) > 1
                    and sorted(nz.name_key(w) for w in re.split(r"[\s\-]+", r.full_family)
                               if w) == parts), -1)
        if hit >= 0:
            used.add(hit)
            pairs.append((i, hit, 0.85))
            kinds.append(DiscrepancyCode.AUTHOR_NAME_FORM)
            notes.append(f"author {p.display()!r} differs from {rec[hit].display()!r} "
                         "(the parts of the family name in another order)")
            continue
        for word in re.split(r"[\s\-]+", p.given):
            if len(word.rstrip(".")) < 2:
                continue
            hit = next((j for j in index.get(nz.name_key(word), ()) if j not in used), -1)
            if hit >= 0:
                break
        if hit < 0:
            rest.append(i)
            continue
        used.add(hit)
        pairs.append((i, hit, 0.85))
        kinds.append(DiscrepancyCode.AUTHOR_NAME_FORM)
        notes.append(f"author {p.display()!r} differs from {rec[hit].display()!r} "
                     "(a given name where the family name belongs)")
    unmatched = rest

    still: list[int] = []
    window = len(rec) if len(rec) <= 60 else 60
    for i in unmatched:
        p = people[i]
        key = max(_key_variants(p), key=len, default="")  # "Bordag M": "bordag", not "m"
        best_j, best = -1, 0.0
        # misspellings: look near the same position first, the whole list if short
        for j in range(min(len(rec), window)):
            if j in used:
                continue
            s = _fuzzy(key, rec_keys[j])
            if s > best:
                best_j, best = j, s
        prefix = best_j >= 0 and len(key) >= 5 and key[:4] == rec_keys[best_j][:4]
        if best_j >= 0 and (best >= 0.7 or (prefix and best >= 0.4)) and len(key) >= 3:
            used.add(best_j)
            other_initials += not same_initials(p, rec[best_j])
            pairs.append((i, best_j, 0.5 + 0.4 * best))
            kinds.append(DiscrepancyCode.AUTHOR_MISSPELT)
            notes.append(f"author {p.display()!r} misspelt (record: {rec[best_j].display()!r})")
        else:
            still.append(i)

    limit = len(rec)
    if found_truncated and len(found) > INDEX_LISTED_AUTHORS:
        # an index record keeps its first INDEX_LISTED_AUTHORS authors and, after
        # them, its last author: the cited ones past that prefix may be unlisted
        limit = sum(1 for p in found[:INDEX_LISTED_AUTHORS] if not _is_collaboration(p))
    for i in still:
        # a record that lists only some authors cannot contradict the later ones
        if found_truncated and i >= limit:
            continue
        kinds.append(DiscrepancyCode.AUTHOR_ADDED)
        notes.append(f"author {people[i].display()!r} not in the record")
    if pairs:
        max_j = max(j for _, j, _ in pairs)
    else:
        max_j = -1
    # the first author of a long collaboration list may stand elsewhere in the
    # record: where the record's texkey ("Aushev:2008su") names him, or last (4.7% of
    # INSPIRE records with a texkey list their first author last, a rotated order);
    # the names before him are then not missing
    # (when the record's first author has the texkey's name, the texkey is his: "S.
    # Zhang" matched to a third author Zhang is not the first author J. Zhang)
    texkey_is_first = bool(rec_keys) and rec_keys[0] in texkey_names
    texkey_first = next((j for i, j, _ in pairs if i == 0 and (
        j == len(rec) - 1 or (rec_keys[j] and rec_keys[j] in texkey_names
                              and (j == 0 or not texkey_is_first)))), -1)
    # a rotated list: the cited first author last in the record, the cited second and
    # third ones first and second ("Afonin, Baranov, Baranov, ..." for "Baranov,
    # Baranov, ..., Afonin"): the record is read in the paper's order. (Two authors
    # in that order are a swap, which a rotation of two cannot be told from.)
    last = len(rec) - 1
    rotated = last > 1 and {(0, last), (1, 0), (2, 1)} <= {(i, j) for i, j, _ in pairs}
    if rotated:
        pairs = [(i, 0 if j == last else j + 1, w) for i, j, w in pairs]
        rec = [rec[last], *rec[:last]]
        used = {j for _, j, _ in pairs}
        max_j = max(j for _, j, _ in pairs)
        texkey_first = -1
    if cited_truncated and len(rec) > LONG_AUTHOR_LIST and texkey_first > 0:
        missing = [j for j in range(texkey_first, max_j + 1) if j not in used]
    elif cited_truncated:
        missing = [j for j in range(max_j + 1) if j not in used]
    elif found_truncated:
        missing = [j for j in range(min(len(rec), max_j + 1)) if j not in used]
    else:
        missing = [j for j in range(len(rec)) if j not in used]
    if missing:
        names = ", ".join(rec[j].display() for j in missing[:3])
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        kinds.append(DiscrepancyCode.AUTHOR_MISSING)
        notes.append(f"missing author(s): {names}{more}")
    order = [j for _, j, _ in sorted(pairs)]
    if any(b < a for a, b in zip(order, order[1:], strict=False)):
        kinds.append(DiscrepancyCode.AUTHOR_ORDER)
        notes.append("authors in a different order")
    counted = len(people) - sum(1 for i in still if found_truncated and i >= limit)
    total = sum(w for _, _, w in pairs) + collab_ok
    denom = max(1, counted + len(collabs))
    first = None
    if people and not collabs:
        first = any(i == 0 and (j == 0 or j == texkey_first) and w >= 0.99
                    for i, j, w in pairs)
    return AuthorMatch(min(1.0, total / denom), first, tuple(notes), len(pairs) + collab_ok,
                       denom, tuple(kinds), len(pairs) + collab_ok - other_initials)


def bibtex_authors(people: tuple[Person, ...]) -> str:
    """Authors in BibTeX "Family, Given and ..." form."""
    out = []
    for p in people:
        if p.literal:
            out.append("{" + p.family + "}")
            continue
        fam = p.full_family
        name = f"{fam}, {p.jr}, {p.given}" if p.jr else (f"{fam}, {p.given}" if p.given else fam)
        out.append(name)
    return " and ".join(out)


# ---------------------------------------------------------------- identifiers


_URL_TAIL = re.compile(r"^(?:https?://)?(?:www\.)?([^/]+)(/.*)?$", re.IGNORECASE)


def _url_parts(url: str) -> tuple[str, str]:
    m = _URL_TAIL.match(url.strip())
    if not m:
        return "", ""
    return m.group(1).lower(), (m.group(2) or "").rstrip("/").lower()


def _entry_arxiv(entry: Entry) -> str:
    if entry.arxiv:
        return nz.norm_arxiv(entry.arxiv)
    if "arxiv.org/" in entry.url.lower():
        return nz.norm_arxiv(entry.url)
    return arxiv_of_doi(entry.doi).lower()


def _read_from_text(entry: Entry) -> bool:
    """The entry's fields were read out of free text (a list item, a ``\\bibitem``),
    so its "title" may be a misread note. A biber .bbl entry (origin BBL, no text)
    states its title in a field, as the .bib it came from does: a wrong title there
    is a wrong title (it was passed as a misread when an identifier pinned the work:
    MINOR from the .bib, EXACT from its .bbl)."""
    if entry.origin is EntryOrigin.BBL:
        return bool(entry.raw_text.strip())
    return entry.origin is not EntryOrigin.BIB


def _entry_doi(entry: Entry) -> str:
    if entry.doi:
        return nz.norm_doi(entry.doi)
    if "doi.org/" in entry.url.lower():
        return nz.norm_doi(entry.url)
    return ""


def _pubs(record: Record) -> list[tuple[str, str, str, str]]:
    pubs = [(record.venue, record.volume, record.pages, record.year)]
    pubs.extend(record.extra_pubs)
    return pubs


# ---------------------------------------------------------------- compare


#: Reference text left in front of a title by a parse: "Ribeiro, M. 2020, ", "Pontzen et
#: al., 2017, " (an author-year prefix ends with the year or "et al.").
_LEFTOVER_PREFIX = re.compile(r"(?:\b(?:1[5-9]|20)\d\d[a-z]?|\bet al)\.?\)?[,.:;]?\s+(?=\S)")
#: ... and behind it: " - Nature", " | Springer Link", " (https://...".
_LEFTOVER_SUFFIX = re.compile(r"\s+(?:[-\u2013\u2014|]|\()\s*[^-\u2013\u2014|(]{0,60}$")


#: A journal reference after a title: a name, then volume and page numbers.
_TAIL_JOURNAL_REF = re.compile(r"([A-Za-z][^\d,;]{0,60}?)[\s,]+\d[\d\s\-–,:()]*$")


def _is_journal_ref(tail: str, venues: tuple[str, ...]) -> bool:
    """True when ``tail`` is the record's journal with numbers ("JHEAp 9-10 9")."""
    m = _TAIL_JOURNAL_REF.fullmatch(tail.strip().rstrip("."))
    if m is None:
        return False
    name = m.group(1).strip(" ,.")
    return any(v and same_venue(name, v) for v in venues)


def _title_part(cited: str, found: str,
                venues: tuple[str, ...] = ()) -> tuple[str, float, str, str]:
    """The part of the cited title that is the title, its similarity to ``found``, the
    reference text cut from in front of it ("" when none), and the part of ``found``
    compared (without a site name when both name one).

    Free-text references leave authors and year in front of the title ("Kayser, 2009,
    Neutrino Oscillation Phenomenology") or a site name behind it ("... - Nature"):
    that text is neither title nor a wrong title word. A shorter candidate is taken
    only when it fits the record clearly better (the record decides; nothing is cut
    from a title that fits as it stands), and a site name only when the record's
    title has none (else the names are compared as part of the title).
    """
    best, best_sim, best_pre = cited, nz.title_similarity(cited, found), ""
    whole = found
    if best_sim >= 0.99:
        return best, best_sim, "", found
    starts = [0] + [m.end() for m in _LEFTOVER_PREFIX.finditer(cited[:120])]
    cut_suffix = not _LEFTOVER_SUFFIX.search(found)
    if not cut_suffix:
        # both name a site after the title ("... - Nature", "... - Science"): the
        # titles are compared without it (the names are compared as the venue)
        found = _LEFTOVER_SUFFIX.sub("", found)
        cut_suffix = True
    for start in starts:
        head = cited[start:]
        for text in (head, _LEFTOVER_SUFFIX.sub("", head) if cut_suffix else head):
            if text == cited or len(nz.title_key(text)) < 12:
                continue
            sim = nz.title_similarity(text, found)
            if sim > best_sim + 0.05:
                best, best_sim, best_pre = text, sim, cited[:start]
    kf = nz.title_key(found)
    if best_sim < 0.99 and len(kf) >= 20:
        # the whole title at the start or after a comma, followed by nothing or by
        # codes and links ("G Bélanger F Boudjema, MicrOMEGAs4.1: two dark matter
        # candidates oPhC.192..322B [INSPIRE] ..."): the rest is no title words (words
        # added to a title are a real difference and stay one)
        for start in [0, *(m.end() for m in re.finditer(r"[,;]\s+", cited))]:
            rest = cited[start:]
            if not nz.title_key(rest).startswith(kf):
                continue
            tail = rest[_key_end(rest, len(kf)):].strip().lstrip(",;.?! ")
            if (start and not tail) or _LEFTOVER_CODE.match(tail) \
                    or _is_journal_ref(tail, venues):
                # (names in front are in no known form: not read as authors)
                return found, 1.0, "", found
    return best, best_sim, best_pre, found if best != cited else whole


def _site_names(cited: str, found: str, cited_title: str) -> tuple[str, str] | None:
    """(cited, recorded) site names after two titles ("... - Science" vs "... - Nature")
    when the titles without them were compared and the names differ, else None."""
    cm, fm = _LEFTOVER_SUFFIX.search(cited), _LEFTOVER_SUFFIX.search(found)
    if not cm or not fm or cited_title == cited:
        return None
    a, b = cm.group(0).strip(" -\u2013\u2014|("), fm.group(0).strip(" -\u2013\u2014|(")
    if not a or not b or nz.title_key(a) == nz.title_key(b) or same_venue(a, b):
        return None
    return a, b


#: What follows a title in a pasted reference: a bibcode ("hLB..759..131G"), a
#: bracketed tag ("[INSPIRE]"), a link, a number.
_LEFTOVER_CODE = re.compile(r"(?:\S*\d|\S*\.\.|[\[(<]|https?:|doi\b|arxiv\b)", re.IGNORECASE)


def _key_end(text: str, n: int) -> int:
    """The shortest prefix of ``text`` whose title key has ``n`` characters."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi) // 2
        if len(nz.title_key(text[:mid])) >= n:
            hi = mid
        else:
            lo = mid + 1
    return lo


_PREFIX_NAME_SPLIT = re.compile(r"\s*(?:,|&|\band\b|;)\s*")


def _prefix_people(prefix: str) -> tuple[tuple[Person, ...], bool, str]:
    """Authors, "et al." and year in reference text cut from in front of a title
    ("Pontzen et al., 2017, ", "Ribeiro, M. 2020, ", "Mastrogiovanni & Pierra, 2025, ")."""
    year = _year_of(prefix)
    truncated = bool(re.search(r"\bet al", prefix))
    text = re.sub(r"\bet al\.?|\(?\b(?:1[5-9]|20)\d\d[a-z]?\b\)?", " ", prefix)
    people: list[Person] = []
    for chunk in _PREFIX_NAME_SPLIT.split(text):
        words = [w for w in chunk.split() if any(c.isalpha() for c in w)]
        if not words:
            continue
        family = [w for w in words if not re.fullmatch(r"(?:[A-Z]\.)+-?(?:[A-Z]\.)*", w)]
        initials = " ".join(w for w in words if w not in family)
        if family:
            people.append(Person(family=family[-1], given=" ".join(family[:-1] + [initials]
                                                                  if initials else family[:-1])))
        elif people and not people[-1].given:
            people[-1] = Person(family=people[-1].family, given=initials)
    return tuple(people), truncated, year


def _title_factor(t: float) -> float:
    """Map title similarity to evidence of identity: steep between 0.45 and 0.95."""
    return max(0.0, min(1.0, (t - 0.45) / 0.5))


#: The discrepancy code of a contradicted field (authors and year are told apart further).
_FIELD_CODES = {
    "title": DiscrepancyCode.TITLE_MISMATCH,
    "author": DiscrepancyCode.AUTHOR_ADDED,
    "year": DiscrepancyCode.YEAR_MISMATCH,
    "doi": DiscrepancyCode.DOI_MISMATCH,
    "eprint": DiscrepancyCode.ARXIV_MISMATCH,
    "url": DiscrepancyCode.URL_MISMATCH,
    "journal": DiscrepancyCode.JOURNAL_MISMATCH,
    "volume": DiscrepancyCode.VOLUME_MISMATCH,
    "pages": DiscrepancyCode.PAGES_MISMATCH,
}


def compare(entry: Entry, record: Record) -> Comparison:
    """Compare every field the citation states with the record.

    Returns the field checks, the discrepancies (contradicted fields), the
    identity (0..1) and the score (0..10).
    """
    checks: list[FieldCheck] = []
    disc: list[Discrepancy] = []

    def add(check: FieldCheck, *codes: DiscrepancyCode) -> None:
        checks.append(check)
        if check.agree is False:
            code, *also = codes or (_FIELD_CODES.get(check.field, DiscrepancyCode.OTHER),)
            disc.append(Discrepancy(check.field, check.cited, check.found, check.note, code,
                                    tuple(also)))

    # title
    t: float | None = None
    leftover = ""
    if entry.title and record.title:
        cited_title, t, leftover, found_title = _title_part(
            entry.title, record.title,
            (record.venue, *record.venue_aliases, *(p[0] for p in record.extra_pubs)))
        exact = nz.title_key(cited_title) == nz.title_key(found_title)
        loose = not exact and nz.same_title_but_formatting(cited_title, found_title)
        sub = not exact and not loose and nz.is_subtitle_variant(cited_title, found_title)
        note = "subtitle omitted" if sub else (
            "differs only in articles or lost ligatures (formatting)" if loose
            else ("" if exact else f"similarity {t:.2f}"))
        if cited_title != entry.title:
            note = ("leftover reference text around the title ignored"
                    + (f"; {note}" if note else ""))
        add(FieldCheck("title", exact or loose or sub, t, entry.title, record.title, note))
        site = _site_names(entry.title, record.title, cited_title)
        if site is not None:
            add(FieldCheck("journal", False, 0.0, site[0], site[1],
                           "the site or journal named after the title differs"))
    else:
        add(FieldCheck("title", None, 0.0, entry.title, record.title))

    # authors (and year) left in front of the title by the parse count as stated
    cited_people, cited_truncated, cited_year = entry.authors, entry.authors_truncated, \
        entry.year
    if leftover and not cited_people:
        cited_people, cited_truncated, prefix_year = _prefix_people(leftover)
        cited_year = cited_year or prefix_year
    am = match_authors(cited_people, cited_truncated, record.authors,
                       record.authors_truncated, record.collaborations, record.texkeys)
    a = am.similarity
    if a is None:
        add(FieldCheck("author", None, 0.0, bibtex_authors(cited_people),
                       bibtex_authors(record.authors[:10])))
    else:
        add(FieldCheck("author", not am.notes, a, bibtex_authors(cited_people),
                       bibtex_authors(record.authors) if len(record.authors) <= 50
                       else bibtex_authors(record.authors[:50]) + " and others",
                       "; ".join(am.notes)), *am.codes)

    # year: a contradiction only when it matches none of the work's years (preprint,
    # every publication, erratum, edition) and the record knows real ones
    ey = _year_of(cited_year)
    years = record_years(record)
    year_diff = 0
    preprint_only = not (record.venue and record.venue.lower() != "arxiv") \
        and not record.volume and not record.extra_pubs
    if ey and years and record.catalogue_dates and ey not in years:
        add(FieldCheck("year", None, 0.0, ey, years[0],
                       "the record's only date is a catalogue date"))
    elif ey and years and preprint_only and entry.venue and ey not in years \
            and 0 < int(ey) - max(int(y) for y in years) <= 2:
        # the record knows only the preprint; the cited journal version may well have
        # appeared a year or two later: nothing to contradict
        add(FieldCheck("year", None, 0.0, ey, years[0],
                       "the record knows only the preprint year"))
    elif ey and years and not record.arxiv and ey not in years \
            and ey == arxiv_year(_entry_arxiv(entry)) \
            and 0 < min(int(y) for y in years) - int(ey) <= 2:
        # the year of the cited e-print (arXiv's, DBLP's and Semantic Scholar's exports
        # give it), before the publication; the record does not know its e-print, so
        # the year it was issued cannot be one of the record's
        add(FieldCheck("year", None, 0.0, ey, years[0],
                       "the year of the cited e-print, which the record does not list"))
    elif ey and years and record.entry_type == "book" and ey not in years \
            and int(ey) < min(int(y) for y in years):
        # a book's record often holds a later imprint or edition
        add(FieldCheck("year", None, 0.0, ey, years[0],
                       "the record's year may be a later imprint or edition"))
    elif ey and years:
        ok = ey in years
        year_diff = min(abs(int(ey) - int(y)) for y in years)
        add(FieldCheck("year", ok, 1.0 if ok else max(0.0, 1 - year_diff / 5), ey, years[0],
                       "" if ok else f"off by {year_diff}"),
            DiscrepancyCode.YEAR_OFF_BY_ONE if year_diff == 1 else DiscrepancyCode.YEAR_MISMATCH)
    else:
        add(FieldCheck("year", None, 0.0, ey, years[0] if years else ""))

    # identifiers
    e_doi, r_doi = _entry_doi(entry), nz.norm_doi(record.doi) if record.doi else ""
    if e_doi and bool(arxiv_of_doi(e_doi)) != bool(arxiv_of_doi(r_doi)):
        # arXiv's DOI names the e-print, the other the journal version (one work, two
        # DOIs): the arXiv DOI is compared with the one the record's e-print has
        r_doi = f"{ARXIV_DOI_PREFIX}{nz.norm_arxiv(record.arxiv)}" \
            if arxiv_of_doi(e_doi) and record.arxiv else ""
    id_agree = id_disagree = 0
    if e_doi and r_doi:
        ok = e_doi == r_doi
        id_agree += ok
        id_disagree += not ok
        add(FieldCheck("doi", ok, 1.0 if ok else _fuzzy(e_doi, r_doi), e_doi, r_doi))
    else:
        add(FieldCheck("doi", None, 0.0, e_doi, r_doi))
    e_ax, r_ax = _entry_arxiv(entry), nz.norm_arxiv(record.arxiv) if record.arxiv else ""
    if e_ax and r_ax:
        ok = e_ax == r_ax
        id_agree += ok
        id_disagree += not ok
        add(FieldCheck("eprint", ok, 1.0 if ok else _fuzzy(e_ax, r_ax), e_ax, r_ax))
    else:
        add(FieldCheck("eprint", None, 0.0, e_ax, r_ax))

    # report number ("CMS-PAS-HIG-11-024"): equal numbers identify the work; a record
    # lists only some of a work's numbers, so a different one contradicts nothing
    e_rn = find_report_number(entry.fields, entry.entry_type)
    if e_rn and record.report_numbers:
        ok = e_rn in record.report_numbers
        id_agree += ok
        add(FieldCheck("report", True if ok else None, 1.0 if ok else 0.0, e_rn,
                       ", ".join(record.report_numbers[:3])))

    # publication reference: venue, volume, pages (any of the record's publications)
    pub_checks = _compare_pub(entry, record)
    for c in pub_checks:
        add(c)
    pub_stated = [c for c in pub_checks if c.agree is not None]
    pub_score = (sum(1.0 for c in pub_stated if c.agree) / len(pub_stated)) if pub_stated else None

    # url (only when no DOI/arXiv id stands for it): equal links identify the work;
    # the same path on another host, or a near-identical path, is a mangled link
    if entry.url and record.url and not e_ax and not e_doi:
        eh, ep = _url_parts(entry.url)
        rh, rp = _url_parts(record.url)
        if eh == rh and ep == rp:
            id_agree += 1
            add(FieldCheck("url", True, 1.0, entry.url, record.url))
        elif ep and ep == rp:
            add(FieldCheck("url", False, 0.5, entry.url, record.url, "same path on another host"))
        elif eh == rh and len(ep) > 8 and _fuzzy(ep, rp) >= 0.85:
            add(FieldCheck("url", False, _fuzzy(ep, rp), entry.url, record.url,
                           "the link differs from the record's"))

    if t is not None and t < MISREAD_TITLE and _read_from_text(entry) and (
            id_agree or (pub_score == 1.0 and len(pub_stated) >= 3)):
        # free text whose identifier or journal reference pins the work but whose
        # "title" shares next to nothing with the work's: a note, authors or a journal
        # read as the title (a misread), not a wrong title; it is not compared
        t = None
        checks = [FieldCheck("title", None, 0.0, c.cited, c.found,
                             "the text read as the title is not this work's title (a "
                             "misread reference); not compared") if c.field == "title" else c
                  for c in checks]
        disc = [d for d in disc if d.field != "title"]
    identity = _identity(t, a, am.first_author, id_agree, id_disagree, pub_score,
                         len(pub_stated))
    if t is None and not id_agree and not pub_stated and (entry.venue or entry.volume
                                                          or entry.pages):
        # a title-less citation is identified by its journal reference; a record that
        # states none cannot confirm it, however well the authors fit (the author+year
        # question returns every paper of the first author in that year)
        identity = min(identity, UNCONFIRMED_PUBNOTE_IDENTITY)
    for d in omitted_pubnote(entry, pub_checks):
        disc.append(d)
    score = 10.0 * identity
    if disc:
        score = max(0.0, min(score, 9.4) - PENALTY_PER_DISCREPANCY * (len(disc) - 1))
    stated = [c for c in checks if c.cited]
    compared = [c for c in stated if c.agree is not None]
    coverage = len(compared) / len(stated) if stated else 0.0
    margin = abs(identity - 0.5) * 2
    confidence = round(max(0.05, min(1.0, (0.4 + 0.6 * margin) * (0.5 + 0.5 * coverage))), 3)
    return Comparison(record=record, score=round(score, 3), confidence=confidence,
                      checks=tuple(checks), discrepancies=tuple(disc),
                      identity=round(identity, 4))


def _identity(t: float | None, a: float | None, first: bool | None, id_agree: int,
              id_disagree: int, pub: float | None, pub_n: int) -> float:
    """How sure we are that the record is the cited work (0..1)."""
    if t is not None:
        tf = _title_factor(t)
        base = tf * (0.3 + 0.7 * a) if a is not None else tf * 0.85
        full_pub = pub is not None and pub_n >= 3 and pub >= 1.0
        if id_agree and t >= 0.8:
            # the identifier and the title agree: the work is pinned down even when
            # the authors are garbled
            base = max(base, 0.6 + 0.3 * tf)
        if a is not None and a >= 0.8 and (id_agree or full_pub) and t >= 0.5:
            # the authors and an identifier (or the whole pubnote) agree: a changed word
            # in a short title does not make the work a different one
            base = max(base, 0.7 + 0.3 * tf)
        if id_agree and tf >= 0.5:
            base += (1 - base) * 0.4
        if pub is not None and pub_n >= 2 and tf >= 0.5:
            base += (1 - base) * 0.25 * pub
        return base
    # no title on one side: authors, the publication reference and identifiers
    parts: list[tuple[float, float]] = []
    if a is not None:
        parts.append((a, 0.55))
    if pub is not None and pub_n >= 1:
        # without a title, even a journal stated alone tells papers of one author apart
        parts.append((pub, 0.45))
    if id_agree or id_disagree:
        parts.append((id_agree / (id_agree + id_disagree), 0.35))
    if not parts:
        return 0.0
    base = sum(v * w for v, w in parts) / sum(w for _, w in parts)
    if a is not None and a < 0.3:
        base = min(base, 0.35)  # identifiers/pubnote alone never vouch for other authors
    if id_disagree and not id_agree and first is False:
        # the citation's own identifier names another work and its first author is not
        # the record's: a co-author's name alone does not make it this work ("S. Zhang,
        # 2011, arXiv:1109.6936" is not J. Zhang, ..., S.-N. Zhang, arXiv:1108.0146)
        base = min(base, 0.35)
    if a is None and not id_agree and (pub is None or pub_n < 3):
        base *= 0.7  # too little stated to be sure
    return base


_OMITTED_CODES = {
    "journal": DiscrepancyCode.JOURNAL_OMITTED,
    "volume": DiscrepancyCode.VOLUME_OMITTED,
    "pages": DiscrepancyCode.PAGES_OMITTED,
}


def omitted_pubnote(entry: Entry, pub_checks: list[FieldCheck]) -> list[Discrepancy]:
    """Journal, volume and pages a title-less reference omits but the record states.

    A reference with neither title nor DOI/arXiv id is findable only by its
    journal reference (``Phys. Rev. D 72, 084013 (2005)``); cited as ``Phys.
    Rev. D (2005)`` it is incomplete even when it means a real paper, so the
    omitted parts are discrepancies (MINOR, with the record's values suggested)
    rather than silently EXACT. They do not lower ``identity``: an omission is
    no evidence against the record. E-print citations are left alone, and so are
    references that state a link or a report number, which find the work as an
    identifier does (mnras.bst prints no article title: "Estrade V., ..., 2017.
    \\url{https://.../nips_dlps_2017_1.pdf}" of an @conference whose venue the style
    drops, and "{ATLAS Collaboration} 2012, ATLAS-CONF-2012-107" had been MINOR for a
    journal the reference did not need: 8 of HEPML.bib's 2,423 INSPIRE exports).
    """
    if entry.title.strip() or _entry_doi(entry) or _entry_arxiv(entry) \
            or nz.is_arxiv_venue(entry.venue) or entry.fields.get("url", "").strip() \
            or entry.fields.get("reportnumber", "").strip():
        return []
    return [Discrepancy(c.field, "", c.found, "not stated: without a title or identifier "
                        "the reference needs it to be found", _OMITTED_CODES[c.field])
            for c in pub_checks
            if c.field in ("journal", "volume", "pages") and not c.cited and c.found
            and not _proceedings_volume(entry, c.field)]


def _proceedings_volume(entry: Entry, field: str) -> bool:
    """The volume of a proceedings that a title-less reference states by its booktitle
    and page: mnras.bst prints "2019, in American Astronomical Society Meeting Abstracts
    \\#233. p. 245.05" and never the series' volume (233; 52 for "AAS/Division for
    Planetary Sciences Meeting Abstracts. p. 211.01"). The booktitle, the page and the
    year find the work; the omission is the style's, not an error (false MINORs).
    Booktitle and page are still compared with the record's."""
    return field == "volume" and bool(entry.fields.get("booktitle", "").strip()) \
        and bool(entry.pages.strip())


def _same_volume(cited: str, found: str, cited_year: str, found_year: str) -> bool:
    """Volumes agree, including the year-issue conventions of JHEP/JCAP-like journals.

    INSPIRE stores JHEP 08 (2016) as volume ``1608``; authors write ``08`` with
    year 2016, and Springer's own metadata says volume ``2016`` (issue 8).
    """
    a, b = nz.volume_number(cited), nz.volume_number(found)
    if a == b:
        return True
    for x, y in ((a, b), (b, a)):
        if len(x) == 4 and x.isdigit() and y.isdigit() and len(y) <= 2:
            for year in (cited_year, found_year):
                if year[-2:].isdigit() and x == f"{year[-2:]}{int(y):02d}":
                    return True
        if len(x) == 4 and x.isdigit() and x in (cited_year, found_year) and y.isdigit():
            # volume "2016" (the year) against the year-issue form "1608"
            if len(y) == 4 and y[:2] == x[-2:]:
                return True
            # ... or against the issue alone: "JHEP 07 (2016) 069" is issue 7 of the
            # volume Springer and Crossref call "2016" (the record keeps no issue)
            if len(y) <= 2 and 1 <= int(y) <= 12:
                return True
    return False


_LETTER_PAGE = re.compile(r"^l\d+$", re.IGNORECASE)


#: Words of a conference's name ("2025 European Physical Society Conference on High
#: Energy Physics", "International Workshop on Future Linear Colliders").
_CONFERENCE_WORDS = re.compile(r"\b(?:conference|workshop|symposium|meeting|congress|"
                               r"colloquium|school)\b", re.IGNORECASE)


def _conference_named(venue: str) -> bool:
    """``venue`` names a conference, not a journal: biblatex-apa files an
    ``@inproceedings``' booktitle as the journal of an article (the .bib's journal, "PoS",
    dropped), and authors write a proceedings' conference as its journal. Compared as a
    booktitle (volume and pages must agree). A journal the tables know ("Proceedings of
    the National Academy of Sciences", "Nuclear Physics B - Proceedings Supplements") is
    a journal."""
    from citecheck_tex.vocab.journals import is_known_journal

    return bool(_CONFERENCE_WORDS.search(venue)) and not is_known_journal(venue)


def _booktitle_then_imprint(entry: Entry, cited: str, found: str) -> bool:
    """The booktitle read from a typeset item runs on into the series, publisher and
    address the style prints after it (elsarticle's "in: Proceedings of the 7th Symposium
    on ..., OSDI '06, USENIX Association, Berkeley, CA, USA, 2006, pp. 335--350": no
    comma tells where the booktitle ends). True when the record's venue is the whole of
    the cited booktitle's first comma-separated parts: the same venue, and whatever follows
    it is no venue this check compares."""
    if not cited or cited != entry.get("booktitle") or not _read_from_text(entry):
        return False
    parts = cited.split(",")
    return any(same_venue(",".join(parts[:n]).strip(), found) for n in range(1, len(parts)))


def _compare_pub(entry: Entry, record: Record) -> list[FieldCheck]:
    """Venue, volume and pages against the record's publication(s)."""
    ev, evol, epg = entry.venue, entry.volume, entry.pages
    series = entry.fields.get("series", "")
    out: list[FieldCheck] = []
    pubs = [p for p in _pubs(record) if p[0] or p[1] or p[2]]
    if nz.is_arxiv_venue(ev):
        # an entry citing arXiv as its journal is fine when the record is an e-print
        agree: bool | None = True if (record.arxiv or not pubs) else None
        out.append(FieldCheck("journal", agree, 1.0 if agree else 0.0, ev, record.venue,
                              "cited as an e-print"))
        ev = ""
        if not pubs:
            return out
    if not pubs:
        for name, val in (("journal", ev), ("volume", evol), ("pages", epg)):
            out.append(FieldCheck(name, None, 0.0, val, ""))
        return out

    def check(p: tuple[str, str, str, str]) -> tuple[bool | None, bool | None, bool | None]:
        v = same_venue(ev, p[0]) if ev and p[0] else None
        if v is False and p[0] == record.venue and any(
                same_venue(ev, a) for a in record.venue_aliases):
            v = True  # "JINST": Crossref's short-container-title of "Journal of Instrumentation"
        if v is False and series and same_venue(series, p[0]):
            v = True  # ADS: booktitle = {the conference}, series = {AIP Conf. Proc.}
        if v is False and _booktitle_then_imprint(entry, ev, p[0]):
            v = True  # elsarticle's "in: Booktitle, OSDI '06, USENIX Association, ..."
        if v is False and len(p[1]) == 1 and p[1].isalpha():
            v = same_venue(ev, f"{p[0]} {p[1]}")
        if v is False and any(_LETTER_PAGE.match(nz.first_page(x)) for x in (epg, p[2])) and (
                same_venue(ev, f"{p[0]} Lett.") or same_venue(f"{ev} Lett.", p[0])):
            # a journal's Letters print in its volumes with pages L1, L2, ...: ADS's
            # "\apjl 769, L2" is INSPIRE's "Astrophys.J. 769, L2"
            v = True
        if v is False and ev and p[0] and evol:
            # "Nucl. Phys." + "B106" vs "Nucl.Phys.B" + "106": compare the split forms
            try:
                from citecheck_tex.vocab.journals import split_volume_letter
                v = split_volume_letter(ev, evol)[0] == split_volume_letter(p[0], p[1])[0]
            except ImportError:  # pragma: no cover
                pass
        pv = p[1]
        if pv and not re.search(r"\d", pv):
            pv = ""  # a malformed volume ("B" alone) cannot be compared
        vol = _same_volume(evol, pv, entry.year, p[3] or record.year) if evol and pv else None
        pg = nz.same_page(epg, p[2]) if epg and p[2] else None
        return v, vol, pg

    results = [check(p) for p in pubs]
    if ev and not series and (ev == entry.get("booktitle") and not (
            entry.get("journal") or entry.get("journaltitle")) or _conference_named(ev)):
        # a conference's name where the record names the journal of its proceedings
        # (INSPIRE's @inproceedings carry both; apsrev4-2 and naturemag print the
        # booktitle alone: "in International Workshop on ..., Vol. 141 (2026) p. 630"
        # for Eur. Phys. J. Plus 141, 630): with volume and pages agreeing, the names
        # are of two things, not a wrong journal (a series, when given, is compared)
        results = [(None if v is False and vol and pg else v, vol, pg)
                   for v, vol, pg in results]
    # the publication that agrees best is the one meant
    best_i = max(range(len(results)),
                 key=lambda i: sum(1 for x in results[i] if x) - sum(1 for x in results[i]
                                                                     if x is False))
    v, vol, pg = results[best_i]
    p = pubs[best_i]
    if not out:
        out.append(FieldCheck("journal", v, 1.0 if v else 0.0, ev, p[0]))
    out.append(FieldCheck("volume", vol, 1.0 if vol else 0.0, evol, p[1]))
    out.append(FieldCheck("pages", pg, 1.0 if pg else 0.0, epg, p[2]))
    return out
