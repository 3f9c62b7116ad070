"""Plain reference lists (.txt/.md): one citation per line or per numbered item."""

from __future__ import annotations

import functools
import logging
import re
import statistics
import unicodedata

from citecheck_tex.model import Entry, EntryOrigin, Problem
from citecheck_tex.tex.bib import build_entry, entry_hygiene
from citecheck_tex.tex.merged import as_part, merged_references, part_key
from citecheck_tex.tex.refstring import parse_issue, parse_reference

logger = logging.getLogger(__name__)

_ITEM = re.compile(r"^\s*(?:\[(\d+)\]|(\d+)[.)]|\((\d+)\)|[-*+•])\s+")
_SKIP = re.compile(r"^\s*(?:#{1,6}\s|```|---+\s*$|===+\s*$|references\s*:?\s*$|"
                   r"bibliography\s*:?\s*$|(?:список\s+)?литератур[аы]\s*:?\s*$)", re.I)


def parse_text_list(text: str, filename: str) -> tuple[list[Entry], list[Problem]]:
    """Each numbered item (or each non-empty line when nothing is numbered) is an entry.

    Entries are keyed by their number (the written number when items are
    numbered, else the 1-based position). Continuation lines of a numbered item
    are joined to it. Never raises.
    """
    lines = clean_pasted_text(text.replace("\r\n", "\n").replace("\r", "\n")).split("\n")
    numbered = _numbered(lines)
    items: list[tuple[str, int, int, str]] = []  # key, first line, last line, text
    width = None if numbered else _wrap_width(lines)
    prev = ""  # the last line read into an item
    for i, ln in enumerate(lines, start=1):
        if not ln.strip() or _SKIP.match(ln):
            if numbered and items and not ln.strip():
                continue
            continue
        m = _ITEM.match(ln)
        if m and not numbered and not ln.lstrip().startswith(("-", "*", "+", "\u2022")):
            m = None  # (a line of an unnumbered list that a number opens: "2016. — Vol. 9.")
        if m and numbered and items and _stray_number(m, items[-1][0]):
            m = None  # "161804. doi:..." goes on with "[19] ... Phys. Rev. Lett. 116,"
        if m:
            number = next((g for g in m.groups() if g), "")
            key = number or str(len(items) + 1)
            items.append((key, i, i, ln[m.end():].strip()))
        elif items and (numbered or width and _continues(
                prev, ln, width, next((n for n in lines[i:] if n.strip()), ""))):
            key, first, _, body = items[-1]
            items[-1] = (key, first, i, f"{body} {ln.strip()}")
        else:
            items.append((str(len(items) + 1), i, i, ln.strip()))
        prev = ln
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


def _numbered(lines: list[str]) -> bool:
    """Whether the list numbers its items: a number in brackets or parentheses, a plain
    "12." that opens the list's first line, or two plain numbers that follow each other
    ("3." then "4."). (A wrapped line of an unnumbered list may begin with a year or a
    volume, "2016. — Vol. 752. — P. 333." in GOST: the whole list had been taken for one
    numbered item, every reference joined.)"""
    first = next((ln for ln in lines if ln.strip() and not _SKIP.match(ln)), "")
    plain: list[int] = []
    for ln in lines:
        m = _ITEM.match(ln)
        if m is None or ln.lstrip().startswith(("-", "*", "+", "\u2022")):
            continue
        if m.group(1) or m.group(3) or ln is first or (plain and int(m.group(2)) == plain[-1] + 1):
            return True
        plain.append(int(m.group(2)))
    return False


#: Name particles and lower-case initials that can begin a family name ("de Téramond",
#: "van der Meer", "q. Zhang" as bibtex abbreviates "Zi-qiang")
_PARTICLES = r"(?:(?:de|da|das|dos|du|del|della|der|den|di|la|le|van|von|ten|ter|[a-z]\.)\s+|[dlDO]['\u2019])*"
#: (Cyrillic capitals too: a GOST list's "Рубаков В. А.")
_NAME = r"[A-Z\u00C0-\u00D6\u00D8-\u00DE\u0100-\u017F\u0400-\u042F][\w'\u2019-]*"
_FAMILY = rf"{_PARTICLES}{_NAME}(?:\s{_NAME})?"
_INITIALS = (r"[A-Z\u0410-\u042F\u0401][a-z\u0430-\u044F]?\.(?:-?[A-Za-z\u0410-\u044F]\.)?"
             r"(?:\s?[A-Z\u0410-\u042F\u0401][a-z\u0430-\u044F]?\.(?:-?[A-Za-z\u0410-\u044F]\.)?)*")
#: How a reference of an unnumbered list begins: its first author as "Family I." (mnras),
#: "Family, I." (aasjournal, apalike, harvard) or "I. Family," (physics), or a collaboration.
_REFERENCE_START = re.compile(
    # (or GOST's one name before the title: "Kosower D. A. A Natural ... // Nucl. Phys. B.")
    rf"^(?:{_FAMILY}\s+{_INITIALS}(?=,|\s*&|\s+and\s|\s+et\sal|\s+\(?\d{{4}}|\s*$"
    rf"|\s+[A-Z\u0410-\u042F\u0401][^/]*\s//\s)"
    rf"|{_FAMILY},\s+{_INITIALS}"
    rf"|{_INITIALS}\s*{_FAMILY}(?=,|\s+(?:and|&)\s|\s+et\.?\s+al|\s*$)"
    r"|(?:The\s+)?[A-Z][\w-]*\s+Collaboration\b)")
#: A line no reference begins with: a lower-case word that is no name particle, a digit,
#: an opening quote or bracket, punctuation, GOST's host mark "//" or area dash "— " (not
#: aasjournal's "———." for the names of the item before).
#: (not an identifier's label: a reference may begin "arXiv:hep-th/0503128")
_CONTINUATION = re.compile(rf"^(?!{_PARTICLES}{_NAME})(?!(?i:arxiv|doi\b|https?:|www\.|e-?print))"
                           r"(?:[a-z]|\d|[(\[\u2018\u201c,;:.&]|//|[\u2014\u2013]\s)")
#: How a line that cannot end a reference ends: a comma, "and", an opening bracket.
_OPEN_END = re.compile(r"(?:[,;:&(\[\u2013\u2014-]|\band)\s*$")
#: A line that ends inside a name: a lone initial after a space or comma ("... / B. T.
#: McAllister, S." + "R. Parker, M. E. Tobar // ..."), whose family name the next line
#: holds; no reference ends so.
_INITIAL_END = re.compile(r"(?:^|[\s,])[A-Z\u0410-\u042F\u0401]\.\s*$")
#: How a reference ends: a page or article number, an identifier, a URL, a bracketed
#: arXiv category; not a year in parentheses, which follows the names in author-year styles.
_REFERENCE_END = re.compile(r"(?:\d\)?|\[[a-z-]+(?:\.[A-Z]{2})?\]|https?://\S*[\w#=])\.?\s*$")
#: A year right after the names ends no reference: "Muratova, V. N. (2012)." (apalike),
#: "Dosch H. G., 2013." (mnras); "Phys. Rev. D 95, 043541 (2017)." ends one.
_NAMES_YEAR_END = re.compile(r"[^\W\d_.][.]?\s*,?\s*\(?(?:1[89]|20)\d{2}[a-z]?\)?\.?\s*$")


def _ends_reference(line: str) -> bool:
    """Whether ``line`` ends like a reference (:data:`_REFERENCE_END`, not a year after
    the names)."""
    return bool(_REFERENCE_END.search(line)) and not _NAMES_YEAR_END.search(line)


def _wrap_width(lines: list[str]) -> float | None:
    """The width (in characters) of the full lines of a list whose references run over
    several lines, such as text copied from a PDF: the median length of the lines that a
    line surely continuing its reference follows. None when no line surely continues the
    one before (a list of one reference per line, where a reference may begin with
    "arXiv:" after one that ends with its page), or when more lines are longer than that
    width than surely continue (a reference per line, whose lengths vary)."""
    full = [len(p.strip()) for p, ln in zip(lines, lines[1:], strict=False)
            if p.strip() and not _SKIP.match(p) and _CONTINUATION.match(ln.strip())
            and not _ends_reference(p)]
    if not full:
        return None
    width = statistics.median(full)
    # two full lines at least agree on the width, and lines too long to have been wrapped
    # at it do not outnumber the lines that surely continue the one before (else: one
    # reference per line, some of them split at random)
    agree = sum(1 for n in full if _FULL_LINE_SHARE * width <= n <= width / _FULL_LINE_SHARE)
    overrun = sum(1 for ln in lines if len(ln.strip()) * _FULL_LINE_SHARE > width)
    return width if agree >= 2 and overrun < len(full) else None


#: The share of the median full line that the narrowest full line still reaches: a
#: justified line's character count varies by about a tenth with its letters' widths.
_FULL_LINE_SHARE = 0.9


def _stray_number(item: re.Match[str], last_key: str) -> bool:
    """Whether the "161804." or "(2013)" that begins a line of a numbered list is a page or
    a year that a line break put first, not the next item's number: a number without
    brackets is an item's only when it follows the one before (or starts again at 1)."""
    number = item.group(2) or item.group(3)
    return bool(number) and last_key.isdigit() and int(number) not in (int(last_key) + 1, 1)


def _continues(prev: str, line: str, width: float, following: str = "") -> bool:
    """Whether ``line`` goes on with the reference whose last line is ``prev``, in an
    unnumbered list wrapped at ``width`` characters (mnras, aasjournal, apalike lists
    copied from a PDF, where the hanging indent is lost). A reference begins with its
    first author (:data:`_REFERENCE_START`) after a line that ends it; a line that ends
    with a comma goes on, unless it stops so short that the next line's first word
    would have fitted on it (an entry of names alone, "Chabysheva S. S., Hiller J. R.,").
    A family name alone on its line ("O'Hare,") begins a reference with the initials on
    the ``following`` line (pdftotext's raw mode breaks a widely spaced line apart)."""
    p, s = prev.strip(), line.strip()
    if _CONTINUATION.match(s) and not _ends_reference(p):
        return True
    starts = _REFERENCE_START.match(s) is not None or (
        s.endswith(",") and len(s.split()) == 1
        and _REFERENCE_START.match(f"{s} {following.strip()}") is not None)
    if _OPEN_END.search(p):
        return not (starts and len(p) + 1 + len(s.split()[0]) < _FULL_LINE_SHARE * width)
    if _INITIAL_END.search(p) and _REFERENCE_START.match(s) is not None and not _ends_reference(p):
        return True
    return not starts and not _ends_reference(p)


#: Ligatures a PDF's text can keep as one character ("ﬁelds", "eﬀect").
_LIGATURES = str.maketrans({"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi",
                            "\ufb04": "ffl", "\ufb05": "st", "\ufb06": "st"})
#: Spacing accents an extractor can put before their letter ("Te´ramond"), as combining ones.
_SPACING_ACCENTS = {"\u00b4": "\u0301", "`": "\u0300", "\u00a8": "\u0308", "\u02c6": "\u0302",
                    "\u02dc": "\u0303", "\u02c7": "\u030c", "\u00b8": "\u0327"}
_SPACED_ACCENT = re.compile("([" + "".join(_SPACING_ACCENTS) + r"])([A-Za-z])")
_PAGE_NUMBER = re.compile(r"^\s*\d{1,3}\s*$")
_LINE_END_HYPHEN = re.compile(r"(?P<prefix>[\w\u00C0-\u024F'\u2019-]*[A-Za-z\u00C0-\u024F])-[ \t]*$")
_LINE_START_WORD = re.compile(r"^[ \t]*(?P<word>[A-Za-z\u00C0-\u024F]+)")


def clean_pasted_text(text: str) -> str:
    """Undo what copying a reference list out of a PDF does to it: letters the PDF
    stores as ligatures or as a letter and a separate accent ("ﬁeld", "Djuric\u0301"),
    page numbers and running headers/footers around page breaks (form feeds), and
    words hyphenated at a line break ("cosmo-\\nlogical" -> "cosmological", while
    "Gauss-\\nBonnet" -> "Gauss-Bonnet"). Text without such artefacts is unchanged but
    for Unicode normalisation (NFC)."""
    text = _SPACED_ACCENT.sub(lambda m: m.group(2) + _SPACING_ACCENTS[m.group(1)], text)
    text = unicodedata.normalize("NFC", text.translate(_LIGATURES))
    lines = _without_page_furniture(text).split("\n")
    out: list[str] = []
    for ln in lines:
        if _PAGE_NUMBER.match(ln) and not (out and _OPEN_END.search(out[-1])):
            continue  # a page number between two lines of one reference (not "57,\n95")
        if out and _broken_identifier(out[-1], ln):
            out[-1] = out[-1].rstrip() + ln.lstrip()
            continue
        if out and not _ITEM.match(ln) and ln.strip():
            hyphen = _LINE_END_HYPHEN.search(out[-1])
            word = _LINE_START_WORD.match(ln)
            if hyphen and word:
                keep = _real_hyphen(hyphen.group("prefix"), word.group("word"), text)
                out[-1] = out[-1].rstrip()[:-1] + ("-" if keep else "") + ln.lstrip()
                continue
        out.append(ln)
    return "\n".join(out)


#: A DOI or URL at the end of a line that a line break may have cut, and the first word
#: of the next line that can go on with it after a full stop (it has a digit:
#: "10.1016/j.physletb.2016." + "01.045.", "10.1103/PhysRevLett." + "118.091602."; no
#: label: "arXiv:1304.6474." after a whole DOI is the next reference or field).
_IDENTIFIER_TAIL = re.compile(r"(?:\b10\.\d{4,9}/|https?:|doi\.org/)\S*?(?P<end>[./_:-])$")
_IDENTIFIER_GOES_ON = re.compile(r"^(?!arxiv|doi|https?:|www\.)(?=[^\s,]*\d)[\w./;()<>:-]+[.,]?(?:\s|$)",
                                 re.I)


def _broken_identifier(prev: str, line: str) -> bool:
    """Whether ``line`` begins with the rest of a DOI or URL that ``prev`` ends with, cut
    where TeX's url package breaks one (after "/", ".", "-", "_", ":"): glued back
    without a space. After a full stop (the end of a sentence too) the rest must have a
    digit; nothing that begins an item or a reference is glued."""
    tail = _IDENTIFIER_TAIL.search(prev.rstrip())
    word = line.strip()
    if tail is None or not word or _ITEM.match(line) or _REFERENCE_START.match(word):
        return False
    if tail.group("end") == ":":
        return word.startswith("//")
    if tail.group("end") == "." or len(word.split()) > 1:
        # (after "/", "-", "_" a rest of letters alone is the whole line: "AxionLimits")
        return _IDENTIFIER_GOES_ON.match(word) is not None
    return True


def _real_hyphen(prefix: str, word: str, text: str) -> bool:
    """Whether the hyphen between ``prefix`` (the end of a line) and ``word`` (the start
    of the next) is the word's own ("Yang-Mills", "photon-photon", "Bose-Einstein-
    condensed") rather than TeX's line-break hyphenation ("cosmo-logical"). TeX does not
    hyphenate a word that already has a hyphen, nor breaks before a capital; a compound
    written elsewhere in the text with its hyphen keeps it."""
    last = prefix.rsplit("-", 1)[-1]
    return ("-" in prefix or word[0].isupper() or last.lower() == word.lower()
            or (len(last) > 4 and last.endswith("ly"))
            or re.search(rf"\b{re.escape(last)}-{re.escape(word)}", text, re.I) is not None)


def _without_page_furniture(text: str) -> str:
    """``text`` without the page numbers and running headers/footers at its page breaks
    (form feeds, as ``pdftotext`` writes them): the first and last lines of a page that a
    blank line sets apart from the references, or that recur at other page breaks."""
    if "\f" not in text:
        return text
    pages = [p.split("\n") for p in text.split("\f")]

    def edges(page: list[str]) -> list[int]:
        filled = [i for i, ln in enumerate(page) if ln.strip()]
        return [i for i in (filled[:1] + filled[-1:])] if filled else []

    masked = [re.sub(r"\d+", "#", page[i].strip()) for page in pages for i in edges(page)]
    for page in pages:
        for i in edges(page):
            ln = page[i]
            if _ITEM.match(ln):
                continue
            apart = (i + 1 >= len(page) or not page[i + 1].strip()) if i == edges(page)[0] \
                else not page[i - 1].strip()
            if apart and len(" ".join(ln.split())) <= 60 or masked.count(re.sub(r"\d+", "#", ln.strip())) > 1:
                page[i] = ""
    return "\n".join("\n".join(p) for p in pages)


def _entry(filename: str, key: str, first: int, last: int, n: int, text: str,
           at: int) -> Entry:
    """The entry of part ``n`` (from 0) of the item ``key``: ``text``, at ``at`` in it."""
    fields = parse_reference(text)
    etype = "article" if fields.get("journal") else "misc"
    entry = build_entry(part_key(key, n), etype, filename, first, fields,
                        origin=EntryOrigin.TEXT, end_line=last, raw_text=text, decoded=fields,
                        parse_issue=parse_issue(fields))
    return as_part(entry, key, n)
