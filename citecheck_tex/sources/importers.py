"""Pure converters from dump records to index rows (no I/O, no SQLite).

Each converter takes one parsed record of a real dump format and returns an
:class:`IndexRow` (a :class:`~citecheck_tex.model.Record` plus the lookup keys
the index stores) or ``None`` when the record has nothing to look it up by.

Formats (detected per JSON line by shape, see :func:`classify_json`):

==================  ==============================================================
``inspire``         INSPIRE literature API hits ``{"id", "metadata": {...}}``; also a
                    whole search response ``{"hits": {"hits": [...]}}`` on one line
``inspire-corpus``  the project corpus ``inspire_hep_records.jsonl`` (``recid`` ...)
``arxiv``           the arXiv metadata snapshot (``id, authors_parsed, versions``)
``arxiv-corpus``    the project corpus ``arxiv_abs_records.jsonl`` (``arxiv_id`` ...)
``openalex``        OpenAlex works (``"id": "https://openalex.org/W..."``)
``crossref``        Crossref works: ``message`` objects, ``{"message": ...}``
                    envelopes, or a ``message.items`` list
``bibtex``          BibTeX entries (converted from :class:`~citecheck_tex.model.Entry`)
==================  ==============================================================
"""

from __future__ import annotations

import functools
import logging
import re
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, NamedTuple

from citecheck_tex.model import Entry, Person, Record
from citecheck_tex.names import (
    AuthorList,
    corporate_person,
    is_collaboration,
    parse_display_name,
    person_from_parts,
    split_author_string,
)
from citecheck_tex.vocab import ids
from citecheck_tex.vocab.journals import (
    is_known_journal,
    journal_display,
    split_volume_letter,
)
from citecheck_tex.vocab.latex_text import decode_value, strip_markup

logger = logging.getLogger(__name__)

SOURCE_NAME = "local"

#: Real INSPIRE control numbers are far below this; the project's dump gives records
#: that have no INSPIRE id control numbers from 90000001 (no inspirehep.net page).
SYNTHETIC_INSPIRE_ID = 90_000_001

#: Authors kept per record: large collaborations list thousands; the rest is marked
#: ``authors_truncated`` (the comparison needs the first few).
MAX_AUTHORS = 100

_JSON = Mapping[str, Any]


class IndexRow(NamedTuple):
    """One record ready for the index: the Record and its lookup keys.

    A named tuple, not a frozen dataclass: one is made per record of a dump, and a
    frozen dataclass's ``__init__`` (a ``object.__setattr__`` per field) cost 1.4 us
    against 0.6 (10 million records: 8 CPU seconds of the import).
    """

    uid: str  # unique per identity in its dump: "inspire:100761", "bib:HEPML.bib:key"
    origin: str  # the dump family: inspire, arxiv, openalex, crossref, bib
    format: str  # the detected format name (see module docstring)
    record: Record
    norm_title: str
    dois: tuple[str, ...] = ()
    arxivs: tuple[str, ...] = ()
    texkeys: tuple[str, ...] = ()
    jrefs: tuple[tuple[str, str, str], ...] = ()  # (journal_key, volume, first page)


# --------------------------------------------------------------------------- normalisers

_OLD_ARXIV = re.compile(r"^([a-z\-]+)(?:\.[a-z]{2})?/(\d{7})$", re.IGNORECASE)
_NEW_ARXIV = re.compile(r"^\d{4}\.\d{4,5}$")
_NEW_ARXIV_ID = re.compile(r"\d{4}\.\d{4,5}")  # fullmatch: no version, nothing around it
_MACRO_FIELD = re.compile(r"^\{?\s*\\[A-Za-z]+\s*\}?$")
_TEXKEY = re.compile(r"^[A-Za-z][\w\-'.+]*:\d{4}[a-z]{2,3}$")
_NON_WORD = re.compile(r"[\W_]+")
_YEAR = re.compile(r"(1[6-9]\d\d|20\d\d)")


def normalize_doi(value: str) -> str:
    """Lower-case DOI without resolver prefix; "" when it does not look like a DOI."""
    doi = ids.normalize_doi(value)
    return doi if doi.startswith("10.") and "/" in doi else ""


def normalize_arxiv(value: str) -> str:
    """arXiv id without prefix and version; old-style subject classes dropped.

    ``arXiv:hep-th/9711200v3`` -> ``hep-th/9711200``; ``math.GT/0309136`` ->
    ``math/0309136``; ``0704.0001v2`` -> ``0704.0001``. "" when not an arXiv id.
    """
    if _NEW_ARXIV_ID.fullmatch(value):  # the usual case ("0704.0001"): nothing to remove
        return value
    text = ids.normalize_arxiv(value)
    m = _OLD_ARXIV.match(text)
    if m:
        return f"{m.group(1).lower()}/{m.group(2)}"
    return text if _NEW_ARXIV.match(text) else ""


#: Byte table of an ASCII text: letters lower-cased, digits kept, every other character
#: a space (what ``[\W_]`` matches in ASCII).
_ASCII_WORD_BYTES = bytes(ord(chr(c).lower()) if chr(c).isalnum() else 32 for c in range(128)) \
    + bytes(range(128, 256))


def normalize_title(title: str) -> str:
    """Lower-case, accent-free, punctuation-free title with single spaces."""
    if title.isascii():  # most titles and names: NFKD and accent removal change nothing
        # as bytes: one table lookup per character (the same words as str.lower,
        # str.translate and str.split: 0.7 us against 2.2 for a 100-character title)
        return b" ".join(title.encode().translate(_ASCII_WORD_BYTES).split()).decode()
    text = unicodedata.normalize("NFKD", title)
    text = "".join(ch for ch in text if not unicodedata.combining(ch)).lower()
    return " ".join(_NON_WORD.sub(" ", text).split())


def normalize_volume(volume: str) -> str:
    """Volume key: stripped, lower-case, leading zeros of a number dropped."""
    vol = volume.strip().lower()
    return vol.lstrip("0") or vol if vol.isdigit() else vol


def first_page(pages: str) -> str:
    """The first page (or article id) of a page field, lower-case."""
    text = pages.strip().lower()
    text = _PAGE_PREFIX.sub("", text)
    return _PAGE_RANGE.split(text, maxsplit=1)[0].strip()


_PAGE_PREFIX = re.compile(r"^(?:pp?\.?\s*)")
_PAGE_RANGE = re.compile(r"\s*[-\u2013\u2014,]+\s*")


@functools.lru_cache(maxsize=65536)  # ranking author+year candidates asks for the same often
def pub_key(journal: str, volume: str, page: str) -> tuple[str, str, str]:
    """(journal key, volume key, first page) of a publication; "" for a part not given.

    Journals by their canonical key (every spelling of one journal), series letters
    moved from the volume to the journal (:func:`split_volume_letter`).
    """
    jkey, vol = split_volume_letter(journal, volume) if journal.strip() else ("", volume)
    return jkey, normalize_volume(vol) if vol.strip() else "", first_page(page)


def journal_ref_key(journal: str, volume: str, page: str) -> tuple[str, str, str] | None:
    """The index key of a journal reference, or None when a part is missing."""
    key = pub_key(journal, volume, page)
    return key if all(key) else None


#: INSPIRE ``publication_info.journal_title`` values that name no journal: "BOOK" marks a
#: contribution to a book or proceedings (73 of the 11,251 records of the shared INSPIRE
#: dump). Such a title is no venue: never compared, never shown as a found value.
INSPIRE_PLACEHOLDER_TITLES = frozenset({"BOOK"})


def inspire_venue(title: Any) -> str:
    """An INSPIRE journal title, '' for a placeholder (:data:`INSPIRE_PLACEHOLDER_TITLES`)."""
    text = _str(title)
    return "" if text.strip().upper() in INSPIRE_PLACEHOLDER_TITLES else text


def _year_of(value: Any) -> str:
    if not value:
        return ""
    return _year_of_text(value if isinstance(value, str) else str(value))


@functools.lru_cache(maxsize=4096)  # dates repeat ("2017", "2017-05-01") across a dump
def _year_of_text(text: str) -> str:
    m = _YEAR.search(text)
    return m.group(1) if m else ""


def _str(value: Any) -> str:
    return str(value).strip() if value is not None else ""


def _dict(value: Any) -> _JSON:
    return value if isinstance(value, dict) else {}


def _uniq(values: Iterable[str]) -> tuple[str, ...]:
    """The distinct non-empty values, in order. A list of one value or none (most of a
    dump's lists of DOIs, e-prints, texkeys, years) is answered without a dict."""
    if type(values) is list and len(values) < 2:
        return (values[0],) if values and values[0] else ()
    return tuple(dict.fromkeys(filter(None, values)))


def _pages(start: str, end: str) -> str:
    start, end = start.strip(), end.strip()
    return f"{start}-{end}" if start and end and end != start else start


def latex_to_text(text: str) -> str:
    """Decode LaTeX markup in a metadata string to Unicode, whitespace collapsed.

    The same decoder the frontend uses for the user's entries, so both sides of a
    comparison read LaTeX alike; as a JSON value, not TeX source, a bare ``%`` is a
    percent sign (:func:`~citecheck_tex.vocab.latex_text.decode_value`).
    """
    if _PLAIN_VALUE.fullmatch(text):  # no markup, no TeX: the decoder would only do this
        return " ".join(text.split())
    return " ".join(decode_value(" ".join(text.split())).split())


#: A value :func:`decode_value` leaves as it is, whitespace apart: none of the characters
#: its markup, entity, special-character and TeX steps look for.
_PLAIN_VALUE = re.compile(r"[^\\{}$~%&_^<]*")


# --------------------------------------------------------------------------- detection


def classify_json(obj: Any) -> str:
    """The format of one parsed JSON line, or "" when it is not a known shape."""
    if not isinstance(obj, dict):
        return ""
    if isinstance(obj.get("metadata"), dict) and "id" in obj:
        return "inspire"
    if isinstance(obj.get("hits"), dict):
        return "inspire"
    if isinstance(obj.get("message"), dict):
        return "crossref"
    items = obj.get("items")
    if isinstance(items, list) and items and isinstance(items[0], dict) and "DOI" in items[0]:
        return "crossref"  # a file of Crossref's public data release: {"items": [...]}
    results = obj.get("results")
    if isinstance(results, list) and results and isinstance(results[0], dict) \
            and _str(results[0].get("id")).startswith("https://openalex.org/"):
        return "openalex"  # an OpenAlex API list response saved to a file
    if "recid" in obj and "publication_info" in obj:
        return "inspire-corpus"
    if "arxiv_id" in obj:
        return "arxiv-corpus"
    if "authors_parsed" in obj or ("versions" in obj and "id" in obj and "submitter" in obj):
        return "arxiv"
    ident = _str(obj.get("id"))
    if ident.startswith("https://openalex.org/") or ident.startswith("W") and "authorships" in obj:
        return "openalex"
    if "DOI" in obj and ("title" in obj or "container-title" in obj):
        return "crossref"
    return ""


def rows_from_json(obj: Any, fmt: str) -> list[IndexRow | None]:
    """Convert one JSON line of format ``fmt`` to rows (None for an unusable record)."""
    if fmt == "inspire":
        if isinstance(obj.get("hits"), dict):
            return [inspire_row(h) for h in obj["hits"].get("hits", []) if isinstance(h, dict)]
        return [inspire_row(obj)]
    if fmt == "crossref":
        msg = obj.get("message", obj)
        if isinstance(msg, dict) and isinstance(msg.get("items"), list):
            return [crossref_row(m) for m in msg["items"] if isinstance(m, dict)]
        return [crossref_row(msg)] if isinstance(msg, dict) else [None]
    if fmt == "openalex" and isinstance(obj.get("results"), list):
        return [openalex_row(w) for w in obj["results"] if isinstance(w, dict)]
    converter = _CONVERTERS.get(fmt)
    return [converter(obj)] if converter else [None]


# --------------------------------------------------------------------------- converters


def _make_row(
    uid: str, origin: str, fmt: str, rec: Record,
    jrefs: Iterable[tuple[str, str, str] | None] = (),
    extra_dois: Iterable[str] = (), extra_arxivs: Iterable[str] = (),
) -> IndexRow | None:
    if len(rec.authors) > MAX_AUTHORS:
        # corporate names past the cut are kept: a citation that lists them
        # ("{Astropy Collaboration} and ... and {Astropy Contributors}") must find them
        # and so is the last author: 4.7% of INSPIRE records with a texkey list
        # their first author last (a rotated collaboration list), and a reference
        # "Aushev et al." names him
        last = len(rec.authors) - 1
        tail = tuple(p for k, p in enumerate(rec.authors[MAX_AUTHORS:], MAX_AUTHORS)
                     if (p.literal and (is_collaboration(p.family) or " " in p.family))
                     or k == last)
        rec = replace(rec, authors=rec.authors[:MAX_AUTHORS] + tail, authors_truncated=True)
    norm = normalize_title(rec.title)
    dois = _with_first(rec.doi, extra_dois)
    arxivs = _with_first(rec.arxiv, extra_arxivs)
    if isinstance(jrefs, list) and len(jrefs) == 1:  # the usual case: one or none
        keys: tuple[Any, ...] = (jrefs[0],) if jrefs[0] else ()
    else:
        keys = _uniq([j for j in jrefs if j])  # type: ignore[misc]
    if not (norm or dois or arxivs or rec.texkeys or keys):
        return None
    return IndexRow(uid=uid, origin=origin, format=fmt, record=rec, norm_title=norm,
                    dois=dois, arxivs=arxivs, texkeys=rec.texkeys,
                    jrefs=tuple(keys))


def _with_first(first: str, more: Iterable[str]) -> tuple[str, ...]:
    """The distinct non-empty values of ``first`` and ``more``, in order."""
    if not more:
        return (first,) if first else ()
    if type(more) is tuple and len(more) == 1 and more[0] == first:
        return more if first else ()  # a converter's own list of one identifier
    return _uniq([first, *more])


def _best_url(doi: str, arxiv: str, fallback: str = "") -> str:
    if doi:
        return f"https://doi.org/{doi}"
    if arxiv:
        return f"https://arxiv.org/abs/{arxiv}"
    return fallback


#: Dump document types -> BibTeX entry types.
_ENTRY_TYPES = {
    "article": "article", "journal-article": "article", "review": "article",
    "conference paper": "inproceedings", "proceedings-article": "inproceedings",
    "proceedings": "proceedings", "book": "book", "book chapter": "incollection",
    "book-chapter": "incollection", "thesis": "phdthesis", "dissertation": "phdthesis",
    "posted-content": "preprint", "preprint": "preprint", "report": "techreport",
    "dataset": "dataset", "software": "software", "note": "misc",
}


def _entry_type(raw: str, has_journal: bool, has_arxiv: bool) -> str:
    kind = raw.lower().replace("_", "-")
    if kind in _ENTRY_TYPES:
        return _ENTRY_TYPES[kind]
    if has_journal:
        return "article"
    return "preprint" if has_arxiv else (kind or "misc")


def _inspire_person(author: _JSON) -> Person:
    """A Person of an INSPIRE ``authors`` item: its name parts, else its full name."""
    last = author.get("last_name")
    if last:
        return person_from_parts(_str(last), _str(author.get("first_name")))
    return parse_display_name(_str(author.get("full_name")))


def inspire_row(hit: _JSON) -> IndexRow | None:
    """Row of an INSPIRE literature API hit ``{"id", "metadata": {...}}``."""
    md = hit.get("metadata")
    if not isinstance(md, dict):
        return None
    recid = _str(hit.get("id") or md.get("control_number"))
    titles = md.get("titles") or []
    title = latex_to_text(_str(titles[0].get("title"))) if titles else ""
    all_authors = md.get("authors") or []
    kept = all_authors if isinstance(all_authors, list) and len(all_authors) <= MAX_AUTHORS \
        else [*all_authors[:MAX_AUTHORS], *all_authors[MAX_AUTHORS:][-1:]]
    authors = tuple([_inspire_person(a) for a in kept if isinstance(a, dict)])
    # (each list is often missing: no generator then)
    collabs = _uniq([_str(c.get("value")) for c in md["collaborations"]]) \
        if md.get("collaborations") else ()
    dois = _uniq([normalize_doi(_str(d.get("value"))) for d in md["dois"]]) \
        if md.get("dois") else ()
    arxivs = _uniq([normalize_arxiv(_str(e.get("value"))) for e in md["arxiv_eprints"]]) \
        if md.get("arxiv_eprints") else ()
    texkeys = _uniq([_str(t) for t in md["texkeys"]]) if md.get("texkeys") else ()
    pubs = [p for p in [_freetext_pub(p) for p in md.get("publication_info") or []
                        if isinstance(p, dict)]
            if p.get("journal_title") or p.get("journal_volume")]
    main = next((p for p in pubs if not p.get("material") or p.get("material") == "publication"),
                pubs[0] if pubs else {})
    venue = inspire_venue(main.get("journal_title"))
    pages = _pages(_str(main.get("page_start")), _str(main.get("page_end"))) or _str(
        main.get("artid"))
    preprint_year = _year_of(md.get("preprint_date"))
    # publication dates: every publication's year, the publication date, the imprints
    # (editions) and the thesis date; without an arXiv e-print, INSPIRE's
    # preprint_date and earliest_date are catalogue dates (when a feed or a cataloguer
    # created the record), which say nothing about when the work appeared
    published = _uniq([_year_of(main.get("year")), _year_of(md.get("publication_date")),
                       *[_year_of(p.get("year")) for p in pubs],
                       *[_year_of(i.get("date")) for i in md.get("imprints") or []
                         if isinstance(i, dict)],
                       _year_of(_dict(md.get("thesis_info")).get("date"))])
    catalogue = not published and not md.get("arxiv_eprints")
    year = (published[0] if published else "") or preprint_year \
        or _year_of(md.get("earliest_date"))
    other = _uniq([y for y in (*published[1:], preprint_year, _year_of(md.get("earliest_date")))
                   if y != year])
    extra = tuple([
        (inspire_venue(p.get("journal_title")), _str(p.get("journal_volume")),
         _pages(_str(p.get("page_start")), _str(p.get("page_end"))) or _str(p.get("artid")),
         _year_of(p.get("year")))
        for p in pubs if p is not main
    ]) if len(pubs) > 1 else ()
    synthetic = recid.isdigit() and int(recid) >= SYNTHETIC_INSPIRE_ID
    doi = dois[0] if dois else ""
    arxiv = arxivs[0] if arxivs else ""
    if synthetic:
        ident = f"doi:{doi}" if doi else (f"arxiv:{arxiv}" if arxiv else f"inspire:{recid}")
        url = _best_url(doi, arxiv)
    else:
        ident, url = f"inspire:{recid}", f"https://inspirehep.net/literature/{recid}"
    doc_types = md.get("document_type") or []
    rec = Record(
        source=SOURCE_NAME, id=ident, url=url, title=title, authors=authors,
        authors_truncated=len(all_authors) > MAX_AUTHORS,
        collaborations=collabs, year=year, other_years=other, venue=venue,
        venue_aliases=_uniq([journal_display(venue)] if venue else []) if venue else (),
        volume=_str(main.get("journal_volume")), pages=pages, doi=doi, arxiv=arxiv,
        texkeys=texkeys, entry_type=_entry_type(_str(doc_types[0]) if doc_types else "",
                                                bool(venue), bool(arxiv)),
        extra_pubs=extra, report_numbers=report_numbers_of(md.get("report_numbers")),
        catalogue_dates=catalogue,
    )
    jrefs = [journal_ref_key(_str(p.get("journal_title")), _str(p.get("journal_volume")),
                             _str(p.get("page_start")) or _str(p.get("artid"))) for p in pubs]
    return _make_row(f"inspire:{recid}", "inspire", "inspire", rec, jrefs, dois, arxivs)


def inspire_corpus_row(obj: _JSON) -> IndexRow | None:
    """Row of the project corpus format (``inspire_hep_records.jsonl``)."""
    recid = _str(obj.get("recid"))
    dois = _uniq([normalize_doi(_str(d)) for d in obj.get("doi") or []])
    arxivs = _uniq([normalize_arxiv(_str(a)) for a in obj.get("arxiv") or []])
    doi = dois[0] if dois else ""
    arxiv = arxivs[0] if arxivs else ""
    pubs = [p for p in obj.get("publication_info") or [] if isinstance(p, dict)]
    main = pubs[0] if pubs else {}
    venue = _str(main.get("journal"))
    year = _str(obj.get("year")) or _year_of(main.get("year"))
    date_year = _year_of(obj.get("date"))
    if recid:
        uid, url = f"inspire:{recid}", f"https://inspirehep.net/literature/{recid}"
    elif doi or arxiv:
        uid = f"doi:{doi}" if doi else f"arxiv:{arxiv}"
        url = _best_url(doi, arxiv)
    else:
        return None
    rec = Record(
        source=SOURCE_NAME, id=uid, url=url, title=latex_to_text(_str(obj.get("title"))),
        authors=tuple(parse_display_name(_str(a)) for a in obj.get("authors") or []),
        collaborations=_uniq([_str(c) for c in obj.get("collaborations") or []]),
        year=year, other_years=_uniq([date_year] if date_year != year else []), venue=venue,
        venue_aliases=(journal_display(venue),) if venue else (),
        volume=_str(main.get("volume")), pages=_str(main.get("pages")), doi=doi, arxiv=arxiv,
        texkeys=_uniq([_str(t) for t in obj.get("texkey") or []]),
        entry_type=_entry_type("", bool(venue), bool(arxiv)),
        extra_pubs=tuple((_str(p.get("journal")), _str(p.get("volume")), _str(p.get("pages")),
                          _str(p.get("year"))) for p in pubs[1:]),
        report_numbers=report_numbers_of(obj.get("report_numbers")),
    )
    jrefs = [journal_ref_key(_str(p.get("journal")), _str(p.get("volume")), _str(p.get("pages")))
             for p in pubs]
    # Its own uid: the richer literature-API record of the same recid is kept beside it
    # and preferred at lookup (same Record.id, see FORMAT_ORDER in local_index).
    return _make_row(f"inspire-corpus:{uid}", "inspire", "inspire-corpus", rec, jrefs, dois,
                     arxivs)


#: A volume marker: "Vol. 17", "vol 73", "V. 467".
_JREF_VOL_MARK = re.compile(r"(?:^|[\s,;])(?:vol(?:ume)?|v)\.?\s*(?=[A-Z]?\d)", re.I)
#: Trailing words of the journal part that belong to the numbering ("Kokyuroku, No.").
_JREF_TAIL_WORDS = frozenset({"vol", "volume", "v", "no", "nr", "n°", "issue", "issues", "iss"})


def _is_separator(ch: str) -> bool:
    return ch.isspace() or ch in ",;:"


def _journal_head(text: str) -> str:
    """The journal part without the separators and the one numbering word it ends
    with ("Kokyuroku, No." -> "Kokyuroku", "Phys. Rev. vol. ," -> "Phys. Rev.").

    What the case-insensitive expression
    ``[\\s,;:]*(?:(?<![^\\s,;:])(?:vol(?:ume)?|v|no|nr|n°|issues?|iss)\\.?)?[\\s,;:]*$``
    removes, without a regular expression: anchored at the end, it was tried at every
    position of the text (2-3 us per arXiv journal reference,
    a fiftieth of an import's parsing; ``tests/index`` compares the two).
    """
    end = len(text)
    while end and _is_separator(text[end - 1]):
        end -= 1
    word_end = end - 1 if end and text[end - 1] == "." else end
    start = word_end
    while start and (text[start - 1].isalpha() or text[start - 1] == "°"):
        start -= 1
    if start < word_end and text[start:word_end].lower() in _JREF_TAIL_WORDS \
            and (start == 0 or _is_separator(text[start - 1])):
        end = start
        while end and _is_separator(text[end - 1]):
            end -= 1
    return text[:end]


_JREF_VOLUME = re.compile(r"[A-Z]?\d+[A-Z]?\b")
#: What may sit between volume and page: "(4)", "(2007)", "(April 1998)", "no. 8",
#: "Issues 1-2", or the separators themselves.
_JREF_SKIP = re.compile(
    r"\s*[,:;]?\s*(?:\([^()]*\)|(?:no|nr|n°|issues?|iss)\.?\s*\d+(?:\s*[-–/]\s*\d+)?)", re.I
)
_JREF_PAGE = re.compile(
    r"\s*[,:;]?\s*(?:(?:pp?|pages?|art(?:icle)?(?:\s*(?:no|id))?)\.?\s*)?(?P<page>[A-Z]?\d+[A-Za-z]?)\b", re.I
)
_JREF_LEADING_YEAR = re.compile(r"^(?:1[89]|20)\d\d\s+(?=[A-Za-z])")
_JREF_PAREN_YEAR = re.compile(r"\((?:[A-Za-z]+\.?\s+)?((?:1[89]|20)\d\d)\)")
_JREF_YEARS = re.compile(r"(?<![\d.])((?:1[89]|20)\d\d)(?![\d.])")


_DIGIT = re.compile(r"\d")
_JREF_YEAR_COMMA = re.compile(r"[,:;]? ?\d{4}\s*,")
_FREETEXT_LABEL = re.compile(r"\b(vol|pp|p|no)\s*:", re.IGNORECASE)


def _freetext_pub(pub: dict[str, Any]) -> dict[str, Any]:
    """An INSPIRE publication_info item; one that holds only ``pubinfo_freetext``
    ("Physics Letters B, vol: 734, pp: 173 (2014)") is read with
    :func:`parse_journal_ref` into journal, volume, page and year, when the journal is
    a known one and volume and page are numbers (a place, a publisher or a report
    line stays unread)."""
    text = pub.get("pubinfo_freetext")
    if pub.get("journal_title") or not isinstance(text, str) or not text.strip():
        return pub
    journal, volume, page, year = parse_journal_ref(_FREETEXT_LABEL.sub(r"\1.", text))
    if not (journal and is_known_journal(journal) and re.search(r"\d", volume)
            and re.fullmatch(r"[A-Za-z]?\d+", page)):
        return pub
    out: dict[str, Any] = {"journal_title": journal_display(journal), "journal_volume": volume,
                           "page_start": page}
    if year:
        out["year"] = int(year)
    return out


def parse_journal_ref(text: str) -> tuple[str, str, str, str]:
    """Split a free-text journal reference into (journal, volume, first page, year).

    Handles the shapes arXiv authors type: ``"Phys.Rev. D66 (2002) 010001"`` ->
    ``("Phys.Rev.", "D66", "010001", "2002")``, ``"Phys.Rev.D76:104014,2007"``,
    ``"Int. J. Math. 22 (2011), no. 8, pp. 1139-1161"``, ``"Physica C, V. 467,
    Issues 1-2, (2007), P. 80-84"``, ``"Annals of Applied Probability 2007, Vol. 17,
    No. 2, 676-687"``. Parts that cannot be found are "".
    """
    # Only the first of several references ("Gen.Rel.Grav.39:1545,2007; Erratum-ibid...").
    t = " ".join(text.split()).split(";")[0].strip(" .")
    # A year in parentheses is the year ("Nature 404 (2000) 2007"); else the last one.
    paren = _JREF_PAREN_YEAR.search(t)
    years = [m.group(1) for m in _JREF_YEARS.finditer(t)]
    year = paren.group(1) if paren else (years[-1] if years else "")
    t = _JREF_LEADING_YEAR.sub("", t)  # "2009 Chinese Phys. B 18 506"
    mark = _JREF_VOL_MARK.search(t)
    first_digit = _DIGIT.search(t)
    if first_digit is None:
        return "", "", "", year
    vstart = first_digit.start()
    # A date in parentheses before the volume ("MNRAS (May 21, 2016) 458 (3): 3060",
    # "Eur. Phys. J. Plus (2015) 130:27") belongs to neither journal nor volume.
    opening = t.rfind("(", 0, vstart)
    closing = t.find(")", vstart)
    if opening >= 0 and ")" not in t[opening:vstart] and closing > 0 \
            and _JREF_YEARS.search(t, opening, closing) and _JREF_VOLUME.search(t, closing):
        journal = _journal_head(t[:opening]).strip(" ,;:")
        rest = parse_journal_ref(journal + " " + t[closing + 1:]) if journal else ("", "", "", "")
        return rest[0], rest[1], rest[2], year
    # A series letter glued to the volume ("Phys.Rev.D76", "Phys. Rev. B 73" is not glued).
    if vstart >= 1 and t[vstart - 1].isupper() and (vstart == 1 or not t[vstart - 2].isalpha()):
        vstart -= 1
    if mark is not None and (mark.start() <= vstart or t[vstart:vstart + 4] == year):
        # "Vol." marks the volume; a year before it ("Annals ... 2007, Vol. 17") is not one.
        journal_end, vstart = min(mark.start(), vstart), mark.end()
    else:
        journal_end = vstart
    journal = _journal_head(t[:journal_end]).strip(" ,;:(")
    vm = _JREF_VOLUME.match(t, vstart)
    if vm is None or not journal:
        return journal, "", "", year
    volume = vm.group(0)
    pos = vm.end()
    while True:
        if year and t.startswith(year, pos + 2) and _JREF_YEAR_COMMA.match(t, pos):
            pos += t[pos:].index(",", 1) + 1  # "Volume 86, Issue 9, 2007, pp. 1117"
            continue
        sm = _JREF_SKIP.match(t, pos)
        if sm is None or sm.end() == pos:
            break
        pos = sm.end()
    pm = _JREF_PAGE.match(t, pos)
    page = ""
    if pm is not None:
        page = pm.group("page")
        # A trailing bare year ("AIP Conf.Proc.921,2007") is no page.
        if page == year and not t[pm.end():].strip(" .,;)"):
            page = ""
    return journal, volume, page, year


def _arxiv_common(
    ident: str, fmt: str, title: str, authors: AuthorList, journal_ref: str,
    doi_field: str, v1_year: str,
) -> IndexRow | None:
    arxiv = normalize_arxiv(ident)
    if not arxiv:
        return None
    dois = _uniq([normalize_doi(d) for d in doi_field.split()]) if doi_field else ()
    journal, volume, page, pub_year = parse_journal_ref(journal_ref) if journal_ref else (
        "", "", "", "")
    year = pub_year or v1_year
    rec = Record(
        source=SOURCE_NAME, id=f"arxiv:{arxiv}", url=f"https://arxiv.org/abs/{arxiv}",
        title=latex_to_text(title), authors=authors.persons,
        authors_truncated=authors.truncated, collaborations=authors.collaborations, year=year,
        other_years=(v1_year,) if v1_year and v1_year != year else (),
        venue=journal, venue_aliases=_uniq([journal_display(journal), journal_ref])
        if journal else (), volume=volume, pages=page, doi=dois[0] if dois else "",
        arxiv=arxiv, entry_type="article" if journal else "preprint",
    )
    return _make_row(f"{fmt}:{arxiv}", "arxiv", fmt, rec,
                     [journal_ref_key(journal, volume, page)], dois)


def arxiv_snapshot_row(obj: _JSON) -> IndexRow | None:
    """Row of one arXiv metadata snapshot line (Kaggle/OAI snapshot format).

    Authors come from the ``authors`` string through the project's splitter, as for
    the corpus format and the arXiv API, not from ``authors_parsed``: arXiv's own
    parse keeps collaboration prefixes in a name (``CLEO Collaboration: T. K.
    Pedlar``), makes ``Jr.`` an author and drops names joined by ``&``.
    """
    authors = split_author_string(_str(obj.get("authors")))
    parsed = obj.get("authors_parsed")
    if not authors.persons and not authors.collaborations and isinstance(parsed, list):
        authors = AuthorList(tuple(
            person_from_parts(*(_str(x) for x in p[:3]))
            for p in parsed if isinstance(p, list) and p
        ))
    versions = obj.get("versions") or []
    v1 = _year_of(versions[0].get("created")) if versions and isinstance(versions[0], dict) else ""
    return _arxiv_common(_str(obj.get("id")), "arxiv", _str(obj.get("title")), authors,
                         _str(obj.get("journal-ref")), _str(obj.get("doi")),
                         v1 or _year_of(obj.get("update_date")))


def arxiv_corpus_row(obj: _JSON) -> IndexRow | None:
    """Row of the project corpus format (``arxiv_abs_records.jsonl``)."""
    versions = obj.get("versions") or []
    v1 = _year_of(versions[0].get("value")) if versions and isinstance(versions[0], dict) else ""
    return _arxiv_common(_str(obj.get("arxiv_id")), "arxiv-corpus", _str(obj.get("title")),
                         split_author_string(_str(obj.get("authors"))),
                         _str(obj.get("journal_ref")), _str(obj.get("doi")), v1)


def openalex_row(obj: _JSON) -> IndexRow | None:
    """Row of one OpenAlex work (snapshot or API format)."""
    work_id = _str(obj.get("id")).rsplit("/", 1)[-1]
    if not work_id:
        return None
    doi = normalize_doi(_str(obj.get("doi")))
    ids = _dict(obj.get("ids"))
    arxiv = normalize_arxiv(_str(ids.get("arxiv")))
    loc = _dict(obj.get("primary_location"))
    src = _dict(loc.get("source"))
    venue = _str(src.get("display_name")) or _str(loc.get("raw_source_name"))
    if not venue and isinstance(obj.get("host_venue"), dict):
        venue = _str(obj["host_venue"].get("display_name"))
    if venue.startswith("http"):
        venue = ""
    biblio = _dict(obj.get("biblio"))
    volume = _str(biblio.get("volume"))
    pages = _pages(_str(biblio.get("first_page")), _str(biblio.get("last_page")))
    authors = tuple(
        parse_display_name(_str((a.get("author") or {}).get("display_name")
                                or a.get("raw_author_name")))
        for a in obj.get("authorships") or [] if isinstance(a, dict)
    )
    rec = Record(
        source=SOURCE_NAME, id=f"openalex:{work_id}",
        url=_best_url(doi, arxiv, f"https://openalex.org/{work_id}"),
        title=" ".join(strip_markup(_str(obj.get("title") or obj.get("display_name"))).split()),
        authors=authors,
        year=_year_of(obj.get("publication_year")), venue=venue,
        venue_aliases=(journal_display(venue),) if venue else (), volume=volume, pages=pages,
        doi=doi, arxiv=arxiv,
        entry_type=_entry_type(_str(obj.get("type_crossref") or obj.get("type")), False,
                               bool(arxiv)),
    )
    return _make_row(f"openalex:{work_id}", "openalex", "openalex", rec,
                     [journal_ref_key(venue, volume, pages)])


#: Crossref dates of the work's appearance, best first; ``created`` (when the DOI was
#: registered) is a catalogue date, used only when there is nothing else.
_CROSSREF_PUBLISHED = ("published-print", "issued", "published-online", "published")


def _crossref_year(msg: _JSON, keys: tuple[str, ...] = (*_CROSSREF_PUBLISHED, "created")) -> str:
    for key in keys:
        part = msg.get(key)
        if isinstance(part, dict):
            dp = part.get("date-parts") or [[]]
            if dp and dp[0] and dp[0][0]:
                return _year_of(dp[0][0])
    return ""


def crossref_row(msg: _JSON) -> IndexRow | None:
    """Row of one Crossref work (a ``message`` object)."""
    doi = normalize_doi(_str(msg.get("DOI")))
    if not doi:
        return None
    titles = msg.get("title") or []
    title = latex_to_text(_str(titles[0] if isinstance(titles, list) and titles else titles))
    containers = [_str(c) for c in msg.get("container-title") or []]
    shorts = [_str(c) for c in msg.get("short-container-title") or []]
    venue = containers[0] if containers else (shorts[0] if shorts else "")
    authors = tuple(
        person_from_parts(_str(a.get("family")), _str(a.get("given")))
        if a.get("family") else corporate_person(_str(a.get("name")))
        for a in msg.get("author") or [] if isinstance(a, dict)
    )
    pages = _str(msg.get("page")) or _str(msg.get("article-number"))
    volume = _str(msg.get("volume"))
    year = _crossref_year(msg)
    online = msg.get("published-online")
    other: tuple[str, ...] = ()
    if isinstance(online, dict):
        oy = _year_of((online.get("date-parts") or [[None]])[0][0])
        other = (oy,) if oy and oy != year else ()
    rec = Record(
        source=SOURCE_NAME, id=f"doi:{doi}", url=f"https://doi.org/{doi}", title=title,
        authors=authors, year=year, other_years=other, venue=venue,
        venue_aliases=_uniq([*containers[1:], *shorts, journal_display(venue)]) if venue else (),
        volume=volume, pages=pages, doi=doi,
        entry_type=_entry_type(_str(msg.get("type")), False, False),
        catalogue_dates=bool(year) and not _crossref_year(msg, _CROSSREF_PUBLISHED),
    )
    return _make_row(f"crossref:{doi}", "crossref", "crossref", rec,
                     [journal_ref_key(v, volume, pages) for v in (venue, *shorts)])


def report_numbers_of(value: Any) -> tuple[str, ...]:
    """Normalised report numbers of INSPIRE's ``report_numbers`` (``[{"value": ...}]``, or
    plain strings in the project corpus); values that are no report number are dropped."""
    if not value or not isinstance(value, list):
        return ()
    out = []
    for item in value:
        text = _str(item.get("value")) if isinstance(item, dict) else _str(item)
        if ids.looks_like_report_number(text):
            out.append(ids.normalize_report_number(text))
    return _uniq(out)


def bib_row(entry: Entry, file_label: str) -> IndexRow | None:
    """Row of one BibTeX entry of a trusted library (INSPIRE, ADS, Zotero exports)."""
    doi = normalize_doi(entry.doi or entry.get("doi"))
    arxiv = normalize_arxiv(entry.arxiv or entry.get("eprint"))
    venue = entry.venue or entry.get("journal") or entry.get("booktitle")
    raw_journal = entry.raw_fields.get("journal", "").strip()
    if _MACRO_FIELD.match(raw_journal):
        venue = raw_journal  # an ADS macro like {\apj}: journal_key expands it
    texkeys = _uniq([entry.texkey, entry.key if _TEXKEY.match(entry.key) else ""])
    rec = Record(
        source=SOURCE_NAME, id=f"bib:{file_label}:{entry.key}",
        url=_best_url(doi, arxiv, entry.url or entry.get("url")), title=entry.title,
        authors=entry.authors, authors_truncated=entry.authors_truncated, year=entry.year,
        venue=venue, venue_aliases=(journal_display(venue),) if venue else (),
        volume=entry.volume, pages=entry.pages, doi=doi, arxiv=arxiv, texkeys=texkeys,
        entry_type=entry.entry_type.lower(),
        report_numbers=_uniq([ids.find_report_number(entry.fields, entry.entry_type)]),
    )
    return _make_row(rec.id, "bib", "bibtex", rec,
                     [journal_ref_key(venue, entry.volume, entry.pages)])


_CONVERTERS = {
    "inspire-corpus": inspire_corpus_row,
    "arxiv": arxiv_snapshot_row,
    "arxiv-corpus": arxiv_corpus_row,
    "openalex": openalex_row,
}
