"""Parse ``.bib`` text into :class:`~citecheck_tex.model.Entry` objects.

bibtexparser 2 splits the file into blocks (with its own recovery from a
malformed entry); everything after that is ours: ``@string`` macros and ``#``
concatenation, month macros, ``crossref``/``xdata`` inheritance, BibTeX name
splitting, LaTeX to Unicode through :mod:`citecheck_tex.tex.latex_text`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping
from functools import lru_cache

from bibtexparser import model as bpm
from bibtexparser.entrypoint import parse_string as _bp_parse_string

from citecheck_tex.model import Entry, EntryOrigin, Person, Problem
from citecheck_tex.tex.ids import (
    doi_is_valid,
    find_arxiv,
    find_doi,
    has_split_arxiv,
    is_arxiv_id,
    looks_like_texkey,
    normalize_arxiv,
    normalize_doi,
)
from citecheck_tex.tex.latex_text import latex_to_unicode

logger = logging.getLogger(__name__)
# bibtexparser logs every recovered block at ERROR level; we report them as Problems.
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())

MONTHS: Mapping[str, str] = {
    "jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May",
    "jun": "June", "jul": "July", "aug": "August", "sep": "September", "oct": "October",
    "nov": "November", "dec": "December",
}


# ---------------------------------------------------------------- values


def _read_delimited(s: str, i: int) -> tuple[str, int]:
    """Read a {...} or "..." value part starting at s[i]; return (inner, next index)."""
    opener = s[i]
    depth = 0
    j = i + 1
    if opener == "{":
        depth = 1
        while j < len(s):
            c = s[j]
            if c == "\\":
                j += 2
                continue
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return s[i + 1:j], j + 1
            j += 1
        return s[i + 1:], len(s)
    while j < len(s):
        c = s[j]
        if c == "\\":
            j += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == '"' and depth <= 0:
            return s[i + 1:j], j + 1
        j += 1
    return s[i + 1:], len(s)


def expand_value(raw: str, strings: Mapping[str, str]) -> str:
    """Expand a BibTeX field value: delimiters, ``#`` concatenation, macros, months."""
    s = raw.strip()
    parts: list[str] = []
    i = 0
    while i < len(s):
        c = s[i]
        if c.isspace() or c == "#":
            i += 1
            continue
        if c in '{"':
            inner, i = _read_delimited(s, i)
            parts.append(inner)
            continue
        m = re.compile(r"[^\s#]+").match(s, i)
        assert m is not None
        word = m.group(0)
        i = m.end()
        low = word.lower()
        if word.isdigit():
            parts.append(word)
        elif low in strings:
            parts.append(strings[low])
        elif low in MONTHS:
            parts.append(MONTHS[low])
        else:
            parts.append(word)
    return "".join(parts)


# ---------------------------------------------------------------- names


def _split_top(s: str, sep: re.Pattern[str]) -> list[str]:
    """Split at regex matches that lie at brace depth 0."""
    if "{" not in s:
        return sep.split(s)
    out: list[str] = []
    depth = 0
    last = 0
    i = 0
    while i < len(s):
        c = s[i]
        if c == "{":
            depth += 1
        elif c == "}":
            depth = max(0, depth - 1)
        elif depth == 0:
            m = sep.match(s, i)
            if m and m.end() > i:
                out.append(s[last:i])
                last = i = m.end()
                continue
        i += 1
    out.append(s[last:])
    return out


_AND = re.compile(r"\s+and\s+", re.I)
_COMMA = re.compile(r",")
_SPACE = re.compile(r"[\s~]+")


def _is_lower_word(word: str) -> bool:
    """BibTeX's von test: the first letter at brace depth 0 (or of a special char) is lower."""
    depth = 0
    i = 0
    while i < len(word):
        c = word[i]
        if c == "{":
            if depth == 0 and word[i + 1:i + 2] == "\\":
                m = re.match(r"\{\\[a-zA-Z]+\s*\{?\s*([a-zA-Z])|\{\\[^a-zA-Z]\s*\{?([a-zA-Z])",
                             word[i:])
                if m:
                    letter = m.group(1) or m.group(2)
                    return letter.islower()
            depth += 1
        elif c == "}":
            depth -= 1
        elif depth == 0 and c.isalpha():
            return c.islower()
        i += 1
    return False


@lru_cache(maxsize=65536)
def parse_person(raw: str) -> Person:
    """Split one BibTeX name into given/von/family/jr (LaTeX decoded)."""
    name = raw.strip().strip(",")
    if len(name) > 1 and name.startswith("{") and name.endswith("}"):
        inner, end = _read_delimited(name, 0)
        if end == len(name):
            return Person(family=latex_to_unicode(inner), literal=True)
    parts = [p.strip() for p in _split_top(name, _COMMA)]
    given_words: list[str]
    jr = ""
    if len(parts) == 1:
        words = [w for w in _split_top(parts[0], _SPACE) if w]
        if not words:
            return Person(family="")
        # von starts at the first lower-case word (not the last word)
        von_start = next((i for i, w in enumerate(words[:-1]) if _is_lower_word(w)), None)
        if von_start is None:
            given_words, von_words, fam_words = words[:-1], [], words[-1:]
        else:
            von_end = von_start
            for i in range(von_start, len(words) - 1):
                if _is_lower_word(words[i]):
                    von_end = i + 1
            given_words = words[:von_start]
            von_words = words[von_start:von_end]
            fam_words = words[von_end:]
    else:
        first = [w for w in _split_top(parts[0], _SPACE) if w]
        if len(parts) >= 3:
            jr = parts[1]
            given = parts[2]
        else:
            given = parts[1]
        given_words = [w for w in _split_top(given, _SPACE) if w]
        von_end = 0
        for i in range(len(first) - 1):
            if _is_lower_word(first[i]):
                von_end = i + 1
        von_words, fam_words = first[:von_end], first[von_end:]
    return Person(
        family=latex_to_unicode(" ".join(fam_words)),
        given=latex_to_unicode(" ".join(given_words)),
        von=latex_to_unicode(" ".join(von_words)),
        jr=latex_to_unicode(jr),
    )


def split_names(raw: str) -> tuple[tuple[Person, ...], bool]:
    """Split a BibTeX ``author`` value into persons; the flag is True for ``and others``."""
    text = " ".join(raw.split())
    if not text:
        return (), False
    names = [n.strip() for n in _split_top(text, _AND)]
    truncated = False
    persons: list[Person] = []
    for n in names:
        if n.lower() in ("others", "{others}", "et al.", "et al"):
            truncated = True
            continue
        if not n:
            continue
        persons.append(parse_person(n))
    return tuple(p for p in persons if p.family or p.given), truncated


# ---------------------------------------------------------------- entries

_ARXIV_TEXT_FIELDS = ("journal", "note", "howpublished", "pages", "number", "volume", "addendum")


def build_entry(
    key: str,
    entry_type: str,
    file: str,
    line: int,
    raw_fields: Mapping[str, str],
    *,
    origin: EntryOrigin = EntryOrigin.BIB,
    end_line: int = 0,
    raw_text: str = "",
    decoded: Mapping[str, str] | None = None,
) -> Entry:
    """Build an Entry from raw (LaTeX) field values, filling the convenience attributes.

    ``decoded`` may give already-decoded values (from a free-text parser).
    """
    fields: dict[str, str] = {}
    for name, value in raw_fields.items():
        if decoded is not None and name in decoded:
            fields[name] = decoded[name]
        elif name in ("doi", "url", "eprint", "arxiv"):
            fields[name] = value.replace("\\_", "_").replace("\\%", "%").strip().strip("{}")
        else:
            fields[name] = latex_to_unicode(value)
    if decoded is not None:
        for name, value in decoded.items():
            fields.setdefault(name, value)
    authors, truncated = split_names(raw_fields.get("author", fields.get("author", "")))
    editors, _ = split_names(raw_fields.get("editor", ""))
    year = fields.get("year", "")
    if not year and fields.get("date"):
        year = fields["date"][:4]
    m = re.search(r"\d{4}", year)
    year = m.group(0) if m else year
    venue = fields.get("journal") or fields.get("journaltitle") or fields.get("booktitle", "")
    doi = normalize_doi(fields.get("doi", ""))
    if not doi and "doi.org/" in fields.get("url", "").lower():
        doi = normalize_doi(fields["url"])
    arxiv = ""
    eprint = fields.get("eprint", "") or fields.get("arxiv", "")
    ptype = (fields.get("archiveprefix") or fields.get("eprinttype", "arxiv")).lower()
    if eprint and ptype in ("arxiv", ""):
        arxiv = normalize_arxiv(eprint)
    if not arxiv and "arxiv.org/" in fields.get("url", "").lower():
        arxiv = normalize_arxiv(fields["url"])
    if not arxiv:
        for name in _ARXIV_TEXT_FIELDS:
            found = find_arxiv(fields.get(name, ""))
            if found:
                arxiv = found
                break
    if raw_text and not arxiv:
        arxiv = find_arxiv(raw_text)
    if raw_text and not doi:
        doi = find_doi(raw_text)
    if re.match(r"^\s*arxiv", venue, re.I) or (venue.lower().startswith("e-print")):
        venue = ""
    texkey = key if looks_like_texkey(key) else ""
    for name in ("inspire", "texkey", "inspirekey"):
        if not texkey and looks_like_texkey(fields.get(name, "")):
            texkey = fields[name].strip()
    return Entry(
        key=key,
        entry_type=entry_type.lower(),
        file=file,
        line=line,
        origin=origin,
        fields=fields,
        raw_fields=dict(raw_fields),
        authors=authors,
        authors_truncated=truncated,
        editors=editors,
        title=fields.get("title", ""),
        year=year,
        venue=venue,
        volume=fields.get("volume", ""),
        pages=fields.get("pages", ""),
        doi=doi,
        arxiv=arxiv,
        url=fields.get("url", ""),
        texkey=texkey,
        raw_text=raw_text,
        end_line=end_line,
    )


def entry_hygiene(entry: Entry) -> list[Problem]:
    """Cheap checks: no title and no identifier, split arXiv ids, bad DOI syntax."""
    out: list[Problem] = []
    has_ref = bool(entry.venue and entry.volume and entry.pages)
    if not entry.title and not (entry.doi or entry.arxiv or entry.url or entry.texkey or has_ref
                                or entry.fields.get("isbn")):
        out.append(Problem("missing-title-and-id",
                           f"entry {entry.key!r} has no title and no identifier (DOI, arXiv, "
                           "URL or journal reference): it cannot be checked",
                           key=entry.key, file=entry.file, line=entry.line))
    texts = [v for k, v in entry.raw_fields.items() if k not in ("title", "abstract", "author")]
    if entry.raw_text:
        texts.append(entry.raw_text)
    eprint_raw = entry.raw_fields.get("eprint", "")
    split = any(has_split_arxiv(t) for t in texts) or (
        bool(eprint_raw) and ("{" in eprint_raw or " " in eprint_raw.strip())
        and is_arxiv_id(normalize_arxiv(eprint_raw.replace(" ", "")))
    )
    if split:
        out.append(Problem("arxiv-id-form",
                           f"entry {entry.key!r} writes an arXiv id split by spaces or braces; "
                           "arXiv's reference extraction will miss it: write e.g. arXiv:2101.01234",
                           key=entry.key, file=entry.file, line=entry.line))
    raw_doi = entry.raw_fields.get("doi", "")
    if raw_doi.strip() and not doi_is_valid(normalize_doi(raw_doi)):
        out.append(Problem("doi-syntax",
                           f"entry {entry.key!r} has a DOI {raw_doi.strip()!r} that does not "
                           "match the DOI syntax 10.NNNN/suffix",
                           key=entry.key, file=entry.file, line=entry.line))
    return out


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


def parse_bib_text(text: str, filename: str) -> tuple[list[Entry], list[Problem]]:
    """Parse .bib text. Never raises: malformed blocks become ``parse-error`` problems.

    Duplicate keys: the first definition wins, both are reported as
    ``duplicate-key``. ``crossref`` and ``xdata`` fields are resolved; ``@xdata``
    entries themselves are not returned.
    """
    problems: list[Problem] = []
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    try:
        library = _bp_parse_string(text, parse_stack=[])
    except Exception as exc:  # noqa: BLE001 - a parser bug must not stop the run
        logger.debug("bibtexparser failed", exc_info=True)
        return [], [Problem("parse-error", f"cannot parse {filename}: {exc}", file=filename,
                            line=1)]
    strings: dict[str, str] = {}
    raw_entries: list[tuple[bpm.Entry, dict[str, str]]] = []
    first_line: dict[str, int] = {}
    for block in library.blocks:
        line = (block.start_line or 0) + 1
        if isinstance(block, bpm.String):
            strings[str(block.key).lower()] = expand_value(str(block.value), strings)
        elif isinstance(block, bpm.DuplicateBlockKeyBlock):
            key = str(block.key)
            first = first_line.get(key, 0)
            problems.append(Problem(
                "duplicate-key",
                f"key {key!r} is defined again at {filename}:{line}; the first definition "
                f"(line {first}) is used", key=key, file=filename, line=first))
            problems.append(Problem(
                "duplicate-key",
                f"key {key!r} was already defined at {filename}:{first}; this definition is "
                "ignored", key=key, file=filename, line=line))
        elif isinstance(block, bpm.Entry):
            raw = {f.key.lower(): expand_value(str(f.value), strings) for f in block.fields}
            first_line.setdefault(block.key, line)
            raw_entries.append((block, raw))
        elif isinstance(block, bpm.DuplicateFieldKeyBlock):
            problems.append(Problem(
                "parse-error", f"entry at {filename}:{line} repeats a field: "
                f"{block.error}", file=filename, line=line))
        elif isinstance(block, bpm.ParsingFailedBlock):
            key_m = re.match(r"\s*@\s*\w+\s*[{(]\s*([^,\s]+)", block.raw or "")
            key = key_m.group(1) if key_m else ""
            what = f"entry {key!r}" if key else "block"
            err = " ".join(str(block.error or "").split()) or "unbalanced braces or quotes"
            problems.append(Problem(
                "parse-error", f"malformed {what} at {filename}:{line}: {err}; fix the braces, "
                "quotes or commas (the other entries are still checked)",
                key=key, file=filename, line=line))
    by_key = {b.key.lower(): raw for b, raw in raw_entries}
    entries: list[Entry] = []
    for block, raw in raw_entries:
        etype = block.entry_type.lower()
        if etype == "xdata":
            continue
        merged = dict(raw)
        for xkey in [k.strip() for k in raw.get("xdata", "").split(",") if k.strip()]:
            for k, v in by_key.get(xkey.lower(), {}).items():
                merged.setdefault(k, v)
        parent_key = raw.get("crossref", "").strip()
        if parent_key:
            parent = by_key.get(parent_key.lower())
            if parent is None:
                problems.append(Problem(
                    "undefined-key", f"entry {block.key!r} has crossref {parent_key!r}, which "
                    f"is not defined in {filename}", key=parent_key, file=filename,
                    line=(block.start_line or 0) + 1))
            else:
                if "title" in parent and "booktitle" not in merged:
                    merged["booktitle"] = parent["title"]
                for k, v in parent.items():
                    if k not in ("title", "ids", "crossref") or k == "title" and \
                            etype not in ("inproceedings", "incollection", "inbook"):
                        merged.setdefault(k, v)
        start = (block.start_line or 0) + 1
        end = start + (block.raw or "").rstrip().count("\n")
        entries.append(build_entry(block.key, etype, filename, start, merged, end_line=end))
    for e in entries:
        problems.extend(entry_hygiene(e))
    return entries, problems
