"""Parse ``.bib`` text into :class:`~citecheck_tex.model.Entry` objects.

The file is split into blocks exactly as bibtexparser 2 splits it (with its
recovery from a malformed entry): a fast loop reads the ordinary blocks and
bibtexparser itself the others, see ``_split_blocks``. Everything after that
is ours: ``@string`` macros and ``#`` concatenation, month macros,
``crossref``/``xdata`` inheritance, BibTeX name splitting (:mod:`citecheck_tex.names`),
LaTeX to Unicode through :mod:`citecheck_tex.vocab.latex_text`.
"""

from __future__ import annotations

import logging
import re
import sys
from collections.abc import Container, Iterator, Mapping
from dataclasses import dataclass, replace

from bibtexparser import model as bpm
from bibtexparser.entrypoint import parse_string as _bp_parse_string

from citecheck_tex.model import Entry, EntryOrigin, Problem
from citecheck_tex.names import misprinted_names, parse_bibtex_name, split_bibtex_names
from citecheck_tex.vocab.ids import (
    arxiv_of_doi,
    doi_is_valid,
    find_arxiv,
    find_doi,
    has_split_arxiv,
    is_arxiv_id,
    looks_like_texkey,
    normalize_arxiv,
    normalize_doi,
)
from citecheck_tex.vocab.latex_text import decode_value, latex_to_unicode, strip_markup

logger = logging.getLogger(__name__)
# bibtexparser logs every recovered block (at WARNING and ERROR level, with its own
# 0-based and often wrong line numbers); we report them as Problems, with the real line:
# its records stop here, the user's log handlers never see them
logging.getLogger("bibtexparser").addHandler(logging.NullHandler())
logging.getLogger("bibtexparser").propagate = False

MONTHS: Mapping[str, str] = {
    "jan": "January", "feb": "February", "mar": "March", "apr": "April", "may": "May",
    "jun": "June", "jul": "July", "aug": "August", "sep": "September", "oct": "October",
    "nov": "November", "dec": "December",
}


# ---------------------------------------------------------------- values


_BRACE_TOKENS = re.compile(r"\\.|[{}]", re.S)
_QUOTE_TOKENS = re.compile(r"\\.|[{}\"]", re.S)


def read_delimited(s: str, i: int) -> tuple[str, int]:
    """Read a {...} or "..." value part starting at s[i]; return (inner, next index).

    A backslash protects the character after it; an unclosed part runs to the end.
    """
    if s[i] == "{":
        depth = 1
        for m in _BRACE_TOKENS.finditer(s, i + 1):
            c = m.group()
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
                if depth == 0:
                    return s[i + 1:m.start()], m.end()
        return s[i + 1:], len(s)
    depth = 0
    for m in _QUOTE_TOKENS.finditer(s, i + 1):
        c = m.group()
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == '"' and depth <= 0:
            return s[i + 1:m.start()], m.end()
    return s[i + 1:], len(s)


def read_arguments(text: str, i: int, n: int) -> tuple[list[str], int] | None:
    """``n`` braced arguments of a macro from ``text[i]`` on (spaces and line breaks
    between them) and the index after them; None if one is missing."""
    args: list[str] = []
    for _ in range(n):
        while i < len(text) and text[i] in " \t\n":
            i += 1
        if i >= len(text) or text[i] != "{":
            return None
        inner, i = read_delimited(text, i)
        args.append(inner)
    return args, i


_WORD = re.compile(r"[^\s#]+")
_QUOTED_SPECIAL = re.compile(r'["{}\\]')


#: An entry's fields, or one ``@string`` macro, may expand to at most this many
#: characters; beyond it the entry is a ``parse-error`` (nested macros can otherwise
#: grow a 700-byte file to gigabytes: 10 macros each concatenating the previous one
#: ten times make 10**10 characters).
MAX_EXPANDED_CHARS = 1_000_000
#: What all ``@string`` expansion of one file may add beyond the raw text: a file of
#: many macros each just under the cap would otherwise still hold gigabytes.
MAX_EXPANSION_GROWTH = 16_000_000


class ExpansionTooLargeError(ValueError):
    """A value's ``@string`` expansion is over its size limit."""


def expand_value(raw: str, strings: Mapping[str, str], *, limit: int | None = None,
                 blocked: Container[str] = ()) -> str:
    """Expand a BibTeX field value: delimiters, ``#`` concatenation, macros, months.

    With ``limit``, raises :class:`ExpansionTooLargeError` as soon as the value
    would exceed ``limit`` characters; so does a macro named in ``blocked`` (one
    whose own expansion was too large).
    """
    s = raw.strip()
    first = s[:1]
    if first == "{":
        if s[-1] == "}":
            inner = s[1:-1]
            if "{" not in inner and "}" not in inner and "\\" not in inner:
                return inner  # the usual {value}
        inner, end = read_delimited(s, 0)
        if end == len(s):  # {value} with groups inside: nothing to concatenate
            return inner
    elif first == '"' and len(s) > 1 and s[-1] == '"':
        inner = s[1:-1]
        if not _QUOTED_SPECIAL.search(inner):
            return inner  # the usual "value"
    elif s.isdigit():
        return s
    parts: list[str] = []
    size = 0
    i = 0
    while i < len(s):
        c = s[i]
        if c.isspace() or c == "#":
            i += 1
            continue
        if c in '{"':
            inner, i = read_delimited(s, i)
            parts.append(inner)
            continue
        m = _WORD.match(s, i)
        assert m is not None
        word = m.group(0)
        i = m.end()
        low = word.lower()
        if word.isdigit():
            parts.append(word)
        elif low in strings:
            value = strings[low]
            size += len(value)
            if limit is not None and size > limit:
                raise ExpansionTooLargeError(f"it expands to over {limit:,} characters")
            parts.append(value)
        elif low in blocked:
            raise ExpansionTooLargeError(f"it uses the @string macro {word!r}, which was too "
                                         "large to expand")
        elif low in MONTHS:
            parts.append(MONTHS[low])
        else:
            parts.append(word)
    return "".join(parts)


# ---------------------------------------------------------------- names

#: BibTeX name splitting lives in :mod:`citecheck_tex.names` (one splitter for the
#: project); these are its BibTeX entry points under their historical names.
parse_person = parse_bibtex_name
split_names = split_bibtex_names


# ---------------------------------------------------------------- entries

_YEAR = re.compile(r"\d{4}")
_ARXIV_VENUE = re.compile(r"^\s*arxiv", re.I)
_CORR_VOLUME = re.compile(r"^\s*abs/(\S+)\s*$", re.I)
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
    parse_issue: str = "",
    share_raw: bool = False,
) -> Entry:
    """Build an Entry from raw (LaTeX) field values, filling the convenience attributes.

    ``decoded`` may give already-decoded values (from a free-text parser);
    ``parse_issue`` says why that parse is unreliable (see ``refstring.parse_issue``).
    With ``share_raw`` the entry keeps ``raw_fields`` itself (a dict the caller no
    longer changes) instead of a copy: 100,000 entries hold one dict each, not two.
    """
    fields: dict[str, str] = {}
    for name, value in raw_fields.items():
        if decoded is not None and name in decoded:
            fields[name] = decoded[name]
        elif name in ("doi", "url", "eprint", "arxiv"):
            fields[name] = value.replace("\\_", "_").replace("\\%", "%").strip().strip("{}")
        else:
            if ("&" in value or "<" in value) and strip_markup(value) != value:
                # HTML entities or publisher markup: a metadata service's text (Crossref's
                # BibTeX writes "Astronomy &amp; Astrophysics"), decoded as such (the TeX
                # decoder made "Astronomy amp; Astrophysics" of it)
                text = decode_value(value)
            else:
                text = latex_to_unicode(value)
            fields[name] = value if text == value else text  # plain text: one string, not two
    if decoded is not None:
        for name, value in decoded.items():
            fields.setdefault(name, value)
    authors, truncated = split_names(raw_fields.get("author", fields.get("author", "")))
    editors, _ = split_names(raw_fields.get("editor", ""))
    year = fields.get("year", "")
    if not year and fields.get("date"):
        year = fields["date"][:4]
    m = _YEAR.search(year)
    year = m.group(0) if m else year
    venue = fields.get("journal") or fields.get("journaltitle") or fields.get("booktitle", "")
    doi = normalize_doi(fields.get("doi", ""))
    # Mendeley writes every link of a document into one field, separated by spaces:
    # url = {http://arxiv.org/abs/1608.02575 http://dx.doi.org/10.1093/mnras/stw2724}
    urls = fields.get("url", "").split()
    url = urls[0] if urls else ""
    if not doi:
        doi = next((normalize_doi(u) for u in urls if "doi.org/" in u.lower()), "")
    arxiv = ""
    eprint = fields.get("eprint", "") or fields.get("arxiv", "")
    ptype = (fields.get("archiveprefix") or fields.get("eprinttype", "arxiv")).lower()
    if eprint and ptype in ("arxiv", ""):
        arxiv = normalize_arxiv(eprint)
    if not arxiv:
        arxiv = next((normalize_arxiv(u) for u in urls if "arxiv.org/" in u.lower()), "")
    if not arxiv:
        arxiv = arxiv_of_doi(doi)  # Zotero's arXiv preprint: doi = {10.48550/arXiv.ID}
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
    if _ARXIV_VENUE.match(venue) or (venue.lower().startswith("e-print")):
        venue = ""
    pages = fields.get("pages", "")
    if find_arxiv(pages):
        pages = ""  # ADS exports preprints as pages = {arXiv:1410.4206}: an id, not pages
    volume = fields.get("volume", "")
    m = _CORR_VOLUME.match(volume)
    if m and is_arxiv_id(normalize_arxiv(m.group(1))):
        # DBLP and Semantic Scholar cite a preprint as journal = {CoRR} or {ArXiv},
        # volume = {abs/1608.02575}: the volume is the arXiv id, CoRR (the Computing
        # Research Repository) is arXiv
        arxiv = arxiv or normalize_arxiv(m.group(1))
        volume = ""
        if venue.strip().lower() == "corr":
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
        raw_fields=raw_fields if share_raw and isinstance(raw_fields, dict) else dict(raw_fields),
        authors=authors,
        authors_truncated=truncated,
        editors=editors,
        title=fields.get("title", ""),
        year=year,
        venue=venue,
        volume=volume,
        pages=pages,
        doi=doi,
        arxiv=arxiv,
        url=url,
        texkey=texkey,
        raw_text=raw_text,
        end_line=end_line,
        parse_issue=parse_issue,
    )


_EPRINT_CATEGORY = re.compile(r"\s*\[[\w.\-]+\]\s*$")


def _unbraced_collaborations(authors: str) -> list[str]:
    """The names of an author field that end in "Collaboration" outside braces after other
    words ("ATLAS Collaboration", "The {BOREXINO} Collaboration"): BibTeX reads each as a
    person whose given names are the words before, and abbreviating styles (apsrev4-2,
    ieeetr, elsarticle-num, iopart-num) print "A. Collaboration" in the paper. A name in
    braces as a whole ("{ATLAS Collaboration}") is one literal name: no problem."""
    out = []
    for name in re.split(r"\s+and\s+", authors.strip()):
        name = " ".join(name.split())
        if not name or (name.startswith("{") and _one_group(name)):
            continue
        outside = re.sub(r"\{[^{}]*\}", "X", name)  # brace groups are words of their own
        words = outside.replace("~", " ").split()
        if len(words) >= 2 and re.fullmatch(r"[Cc]ollaborations?", words[-1]):
            out.append(name)
    return out


def _misprinted_names(entry: Entry) -> list[Problem]:
    """``mangled-name``: names of the author and editor fields that BibTeX itself prints
    otherwise than written (:func:`~citecheck_tex.names.bibtex_misprints`), so the paper
    shows them wrong whatever the checker reads; one warning per name and problem."""
    return [Problem("mangled-name", f"entry {entry.key!r}: the {fld} '{name}': {why}",
                    key=entry.key, file=entry.file, line=entry.line)
            for fld in ("author", "editor")
            for name, why in misprinted_names(entry.raw_fields.get(fld, ""))]


def _one_group(text: str) -> bool:
    """``text`` is one brace group from its first character to its last."""
    depth = 0
    for i, ch in enumerate(text):
        depth += ch == "{"
        depth -= ch == "}"
        if depth == 0 and i < len(text) - 1:
            return False
    return depth == 0


def _initials_of(name: str) -> str:
    """The initials BibTeX makes of the words before "Collaboration" ("A." of "ATLAS")."""
    words = re.sub(r"[{}]", "", name).replace("~", " ").split()[:-1]
    return " ".join(f"{w[0]}." for w in words if w[:1].isalnum())


def entry_hygiene(entry: Entry) -> list[Problem]:
    """Cheap checks: no title and no identifier, split arXiv ids, bad DOI syntax."""
    out: list[Problem] = []
    has_ref = bool(entry.venue and entry.volume and entry.pages)
    if not entry.title and not (entry.doi or entry.arxiv or entry.url or entry.texkey or has_ref
                                or entry.fields.get("isbn")):
        out.append(Problem("missing-title-and-id",
                           f"entry {entry.key!r} has no title and no identifier (DOI, arXiv, "
                           "URL or complete journal reference): only its first author and "
                           "year can be looked up; add the title or an identifier",
                           key=entry.key, file=entry.file, line=entry.line))
    texts = [v for k, v in entry.raw_fields.items() if k not in ("title", "abstract", "author")]
    if entry.raw_text:
        texts.append(entry.raw_text)
    # (without the category revtex's \Eprint writes after the id: "arXiv:1605.04911
    # [hep-th]" is no split id; every PRD/PRL reference list had the warning)
    eprint_raw = _EPRINT_CATEGORY.sub("", entry.raw_fields.get("eprint", ""))
    split = any(has_split_arxiv(t) for t in texts) or (
        bool(eprint_raw) and ("{" in eprint_raw or " " in eprint_raw.strip())
        and is_arxiv_id(normalize_arxiv(eprint_raw.replace(" ", "")))
    )
    if split:
        out.append(Problem("arxiv-id-form",
                           f"entry {entry.key!r} writes an arXiv id split by spaces or braces; "
                           "arXiv's reference extraction will miss it: write e.g. arXiv:2101.01234",
                           key=entry.key, file=entry.file, line=entry.line))
    if entry.origin is EntryOrigin.BIB:
        out.extend(Problem(
            "unbraced-collaboration",
            f"entry {entry.key!r}: the author {name!r} is read by BibTeX as a person (family "
            "name 'Collaboration'): styles that abbreviate given names print "
            f"'{_initials_of(name)} Collaboration'; write it in braces, {{{name}}}",
            key=entry.key, file=entry.file, line=entry.line)
            for name in _unbraced_collaborations(entry.raw_fields.get("author", "")))
        out.extend(_misprinted_names(entry))
    raw_doi = entry.raw_fields.get("doi", "")
    if raw_doi.strip() and not doi_is_valid(normalize_doi(raw_doi)):
        out.append(Problem("doi-syntax",
                           f"entry {entry.key!r} has a DOI {raw_doi.strip()!r} that does not "
                           "match the DOI syntax 10.NNNN/suffix",
                           key=entry.key, file=entry.file, line=entry.line))
    return out


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, offset) + 1


# ---------------------------------------------------------------- splitting
#
# bibtexparser's splitter walks the file mark by mark (braces, quotes, commas,
# equals signs, newlines, ``@type{`` block starts) through several method calls
# per mark: ~1 s for 3,000 entries. ``_split_blocks`` runs the same state machine
# in one tight loop for the ordinary ``@type{...}`` blocks and hands every block
# it does not follow exactly (``(...)`` delimiters, anything bibtexparser would
# abort on) to bibtexparser itself, cut at the next ``@`` that starts a line
# (where bibtexparser always ends a block), so the blocks, raw texts, errors
# and line numbers are the same as those of ``parse_string``. Line numbers count
# the newlines bibtexparser counts: a newline right after a backslash is not one.

_MARKS = re.compile(r"(?<!\\)[\{\},=\"]|@[\w]*( |\t)*(?=[{(])")
_BLOCK_START = re.compile(r"@[\w]*( |\t)*(?=[{(])")
_NEXT_LINE_BLOCK = re.compile(r"\n[^\S\n]*(@[\w]*(?: |\t)*[{(])")
# A field with no @, no backslash outside braces or quotes, braces nested at most three
# deep and no quoted part ending in {" (bibtexparser's {"} escape): its marks can only
# be read one way, so a regex finds the same name, value and terminator as the
# mark-by-mark loop, which handles every other field.
_PLAIN_MARKS = r'[^{}",=@\\]*+'
_IN_GROUP = r"(?:[^{}\\@]++|\\++[^@])"
_GROUP1 = r"\{" + _IN_GROUP + r"*+\}"
_GROUP2 = r"\{(?:" + _IN_GROUP + "|" + _GROUP1 + r")*+\}"
_GROUP3 = r"\{(?:" + _IN_GROUP + "|" + _GROUP2 + r")*+\}"
_QUOTED = r'"(?:[^"@\\]++|\\++[^@])*+(?<!\{)"'
# possessive quantifiers: each position can be read one way only, so no backtracking
_SIMPLE_FIELD = re.compile(
    "(" + _PLAIN_MARKS + ")=(" + _PLAIN_MARKS + "(?:(?:" + _GROUP3 + "|" + _QUOTED + ")"
    + _PLAIN_MARKS + ")*+)([,}])"
)
_ENTRY_CLOSE = re.compile(_PLAIN_MARKS + r"\}")


@dataclass(frozen=True, slots=True)
class _Block:
    """One block of a .bib file as bibtexparser's splitter sees it."""

    kind: str  # entry | string | duplicate-key | duplicate-field | failed
    line: int  # 0-based start line, as bibtexparser counts lines
    key: str = ""
    entry_type: str = ""
    fields: tuple[tuple[str, str], ...] = ()
    raw: str = ""
    error: str = ""


class _BlockAbortError(Exception):
    """bibtexparser would abort this block: let it parse the block itself."""


def _newlines(s: str, start: int, end: int) -> int:
    """Newlines bibtexparser counts in s[start:end] (those not right after a backslash)."""
    n = s.count("\n", start, end)
    if n:
        n -= s.count("\\\n", max(start - 1, 0), end)
    return n


def _at_line_start(s: str, pos: int) -> bool:
    """bibtexparser's test whether an ``@`` at ``pos`` starts a line."""
    for i in range(pos - 1, -1, -1):
        c = s[i]
        if c == "\n":
            return True
        if not c.isspace():
            return False
    return True


def _closing_brace(s: str, marks: Iterator[re.Match[str]]) -> int:
    """Position of the ``}`` closing a block (comment, preamble, string value)."""
    depth = 0
    for mk in marks:
        c = mk.group()
        if c == "{":
            depth += 1
        elif c == "}":
            if depth == 0:
                return mk.start()
            depth -= 1
        elif c[0] == "@" and _at_line_start(s, mk.start()):
            raise _BlockAbortError
    raise _BlockAbortError


def _fast_block(s: str, m: re.Match[str], line: int) -> tuple[_Block | None, int]:
    """Parse a ``@type{...}`` block that bibtexparser would parse without aborting."""
    open_at = m.end()
    marks = _MARKS.finditer(s, open_at + 1)
    m_val = m.group().lower()
    if m_val.startswith(("@comment", "@preamble")):
        return None, _closing_brace(s, marks) + 1
    if m_val.startswith("@string"):
        eq = next(marks, None)
        if eq is None or eq.group() != "=":
            raise _BlockAbortError
        end = _closing_brace(s, marks)
        return _Block("string", line, key=s[open_at + 1:eq.start()].strip(),
                      fields=(("", s[eq.end():end].strip()),),
                      raw=s[m.start():end + 1]), end + 1
    first = next(marks, None)
    if first is None:
        raise _BlockAbortError
    fields: list[tuple[str, str]] = []
    c = first.group()
    if c == "}":
        end = first.end()
    elif c != ",":
        raise _BlockAbortError
    else:
        seen: set[str] = set()
        duplicates: set[str] = set()
        key_start = first.end()
        while True:
            fm = _SIMPLE_FIELD.match(s, key_start)
            if fm is not None:
                name, value, c = fm.group(1, 2, 3)
                name = name.strip()
                value = value.strip()
                after = fm.end()
            else:
                close = _ENTRY_CLOSE.match(s, key_start)
                if close is not None:
                    if s[key_start:close.end() - 1].strip():
                        raise _BlockAbortError
                    end = close.end()
                    break
                name, value, c, after = _field_by_marks(s, key_start)
                if not c:
                    end = after
                    break
            if name in seen:
                duplicates.add(name)
            seen.add(name)
            fields.append((name, value))
            if c == "}":
                end = after
                break
            key_start = after
        if duplicates:
            error = bpm.DuplicateFieldKeyBlock(duplicates, bpm.Entry("", "", [])).error
            return _Block("duplicate-field", line, raw=s[m.start():end],
                          error=str(error)), end
    return _Block("entry", line, key=s[open_at + 1:first.start()].strip(),
                  entry_type=m_val[1:].strip(), fields=tuple(fields),
                  raw=s[m.start():end]), end


def _field_by_marks(s: str, key_start: int) -> tuple[str, str, str, int]:
    """One ``name = value`` followed by ``,`` or ``}``, mark by mark as bibtexparser reads it.

    Returns (name, value, terminator, index after it); the terminator is '' when
    the entry closes right away (after a trailing comma).
    """
    marks = _MARKS.finditer(s, key_start)
    eq = next(marks, None)
    if eq is None:
        raise _BlockAbortError
    c = eq.group()
    if c == "}":
        if s[key_start:eq.start()].strip():
            raise _BlockAbortError
        return "", "", "", eq.end()
    if c != "=":
        raise _BlockAbortError
    n = len(s)
    quoted = False
    depth = 0
    for mk in marks:
        c = mk.group()
        if c == "{":
            if not quoted:
                depth += 1
        elif c == "}":
            if not quoted:
                if depth:
                    depth -= 1
                else:
                    break
        elif c == ",":
            if not quoted and not depth:
                break
        elif c == '"':
            if not depth:
                p = mk.start()
                if not (quoted and p + 2 < n and s[p - 1] == "{" and s[p + 1] == "}"):
                    quoted = not quoted
        elif c[0] == "@" and _at_line_start(s, mk.start()):
            raise _BlockAbortError
    else:
        raise _BlockAbortError
    return s[key_start:eq.start()].strip(), s[eq.end():mk.start()].strip(), c, mk.end()


def _from_bibtexparser(block: bpm.Block, line_offset: int) -> _Block | None:
    """Our view of one bibtexparser block (None for comments and the like)."""
    line = (block.start_line or 0) + line_offset
    if isinstance(block, bpm.DuplicateBlockKeyBlock):
        # the library's own duplicate bookkeeping is redone over the whole file
        original = block.ignore_error_block
        return None if original is None else _from_bibtexparser(original, line_offset)
    if isinstance(block, bpm.Entry):
        return _Block("entry", line, key=block.key, entry_type=block.entry_type,
                      fields=tuple((f.key, str(f.value)) for f in block.fields),
                      raw=block.raw or "")
    if isinstance(block, bpm.String):
        return _Block("string", line, key=str(block.key), fields=(("", str(block.value)),),
                      raw=block.raw or "")
    if isinstance(block, bpm.DuplicateFieldKeyBlock):
        return _Block("duplicate-field", line, raw=block.raw or "", error=str(block.error))
    if isinstance(block, bpm.ParsingFailedBlock):
        return _Block("failed", line, raw=block.raw or "",
                      error=str(block.error) if block.error is not None else "")
    return None


def _slow_blocks(s: str, start: int, line: int) -> tuple[list[_Block], int] | None:
    """bibtexparser's blocks from ``s[start]`` up to the next ``@`` that starts a line.

    The text given to bibtexparser includes that next ``@type{`` so that a block
    left open aborts there exactly as in the whole file; the failed block that
    bibtexparser then makes of the truncated ``@type{`` itself is dropped.
    """
    nxt = _NEXT_LINE_BLOCK.search(s, start + 1)
    stop = nxt.start(1) if nxt else len(s)
    chunk = s[start:nxt.end() if nxt else len(s)]
    parsed = list(_bp_parse_string(chunk, parse_stack=[]).blocks)
    if nxt:
        last = parsed.pop() if parsed else None
        if not isinstance(last, bpm.ParsingFailedBlock) or last.raw != s[stop:nxt.end()]:
            return None
    out = [b for b in (_from_bibtexparser(p, line) for p in parsed) if b is not None]
    return out, stop


def _split_blocks(text: str) -> list[_Block]:
    """The blocks of a .bib file, with bibtexparser's duplicate-key bookkeeping."""
    s = "\n" + text  # as bibtexparser: a block start must follow a newline or not
    raw_blocks: list[_Block] = []
    pos = 0
    line = -1
    counted = 0
    while True:
        m = _BLOCK_START.search(s, pos)
        if m is None:
            break
        line += _newlines(s, counted, m.start())
        counted = m.start()
        got: tuple[list[_Block], int] | None = None
        if s[m.end()] == "{":
            try:
                block, end = _fast_block(s, m, line)
                got = ([block] if block is not None else []), end
            except _BlockAbortError:
                got = None
        if got is None:
            got = _slow_blocks(s, m.start(), line)
            if got is None:  # not expected: fall back to bibtexparser on the whole file
                logger.debug("bib splitter fell back to bibtexparser for the whole file")
                whole = _bp_parse_string(text, parse_stack=[]).blocks
                raw_blocks = [b for b in (_from_bibtexparser(p, 0) for p in whole)
                              if b is not None]
                break
        raw_blocks.extend(got[0])
        pos = got[1]
    entries: set[str] = set()
    strings: set[str] = set()
    out: list[_Block] = []
    for b in raw_blocks:
        seen = entries if b.kind == "entry" else strings if b.kind == "string" else None
        if seen is not None:
            if b.key in seen:
                b = _Block("duplicate-key", b.line, key=b.key, raw=b.raw)
            else:
                seen.add(b.key)
        out.append(b)
    return out


def _expand_fields(fields: tuple[tuple[str, str], ...], strings: Mapping[str, str],
                   oversized: Container[str]) -> tuple[dict[str, str], int]:
    """An entry's expanded fields and the characters expansion added.

    Raises :class:`ExpansionTooLargeError` when they total over MAX_EXPANDED_CHARS.
    """
    raw: dict[str, str] = {}
    budget = MAX_EXPANDED_CHARS
    added = 0
    for name, value in fields:
        expanded = expand_value(value, strings, limit=budget, blocked=oversized)
        budget -= len(expanded)
        if budget < 0:
            raise ExpansionTooLargeError(
                f"its fields expand to over {MAX_EXPANDED_CHARS:,} characters")
        added += max(0, len(expanded) - len(value))
        raw[sys.intern(name.lower())] = expanded  # one "title" string for 100,000 entries
    return raw, added


_PERCENT_LINE = re.compile(r"^[ \t]*%", re.MULTILINE)
_BRACE = re.compile(r"(?<!\\)[{}]")


def blank_percent_comments(text: str) -> str:
    """``text`` with its ``%`` comment lines blanked, as biber reads a .bib: a line whose
    first character (after spaces) is ``%`` outside a field value, between entries or
    between the fields of one (a commented-out old version of an entry, a ``% TODO``
    line). The line breaks stay, so line numbers do not change. BibTeX has no comments:
    only for biblatex projects."""
    if not _PERCENT_LINE.search(text):
        return text
    lines = text.split("\n")
    depth = 0
    for i, line in enumerate(lines):
        if depth <= 1 and line.lstrip(" \t").startswith("%"):
            lines[i] = ""
            continue
        for brace in _BRACE.findall(line):
            depth = depth + 1 if brace == "{" else max(0, depth - 1)
    return "\n".join(lines)


def _with_real_lines(blocks: list[_Block], text: str) -> list[_Block]:
    """``blocks`` with the lines of the file, not bibtexparser's: it does not count a
    newline right after a backslash (the ``\\\\`` line breaks of an abstract exported by
    arXiv or ADS), so every later entry was reported lines too early."""
    first_real: dict[int, int] = {}  # bibtexparser's line -> the first real line so read
    escaped = 0
    for real, line in enumerate(text.split("\n")):
        first_real.setdefault(real - escaped, real)
        if line.endswith("\\"):
            escaped += 1
    return [replace(b, line=first_real.get(b.line, b.line)) for b in blocks]


def parse_bib_text(text: str, filename: str, *,
                   percent_comments: bool = False) -> tuple[list[Entry], list[Problem]]:
    """Parse .bib text. Never raises: malformed blocks become ``parse-error`` problems.

    Duplicate keys: the first definition wins, both are reported as
    ``duplicate-key``. ``crossref`` and ``xdata`` fields are resolved; ``@xdata``
    entries themselves are not returned. ``percent_comments``: ``%`` lines are
    comments, as biber reads them (:func:`blank_percent_comments`).
    """
    problems: list[Problem] = []
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\x00", "")
    if percent_comments:
        text = blank_percent_comments(text)
    try:
        blocks = _split_blocks(text)
    except Exception as exc:  # noqa: BLE001 - a parser bug must not stop the run
        logger.debug("bibtexparser failed", exc_info=True)
        return [], [Problem("parse-error", f"cannot parse {filename}: {exc}", file=filename,
                            line=1)]
    if "\\\n" in text:
        blocks = _with_real_lines(blocks, text)
    strings: dict[str, str] = {}
    oversized: set[str] = set()  # macros whose expansion was over the cap
    growth = 0  # characters that macro expansion added to the raw text, file-wide
    # (key, type, first line, last line, expanded fields): the blocks themselves (their raw
    # text and field tuples) are let go one by one, as they are read
    raw_entries: list[tuple[str, str, int, int, dict[str, str]]] = []
    first_line: dict[str, int] = {}
    blocks.reverse()
    while blocks:
        block = blocks.pop()
        line = block.line + 1
        kind = block.kind
        if kind == "string":
            name = block.key.lower()
            raw_value = block.fields[0][1]
            try:
                value = expand_value(raw_value, strings, limit=MAX_EXPANDED_CHARS,
                                     blocked=oversized)
                growth += max(0, len(value) - len(raw_value))
                if growth > MAX_EXPANSION_GROWTH:
                    raise ExpansionTooLargeError(
                        f"it brings this file's @string expansion over "
                        f"{MAX_EXPANSION_GROWTH:,} characters")
            except ExpansionTooLargeError as exc:
                strings.pop(name, None)
                oversized.add(name)
                problems.append(Problem(
                    "parse-error", f"@string macro {block.key!r} at {filename}:{line} is too large: "
                    f"{exc}; entries that use it are not checked", file=filename, line=line))
                continue
            oversized.discard(name)
            strings[name] = value
        elif kind == "duplicate-key":
            key = block.key
            first = first_line.get(key, 0)
            problems.append(Problem(
                "duplicate-key",
                f"key {key!r} is defined again at {filename}:{line}; the first definition "
                f"(line {first}) is used", key=key, file=filename, line=first))
            problems.append(Problem(
                "duplicate-key",
                f"key {key!r} was already defined at {filename}:{first}; this definition is "
                "ignored", key=key, file=filename, line=line))
        elif kind == "entry":
            first_line.setdefault(block.key, line)
            try:
                raw, added = _expand_fields(block.fields, strings, oversized)
                growth += added
                if growth > MAX_EXPANSION_GROWTH:
                    raise ExpansionTooLargeError(
                        f"it brings this file's @string expansion over "
                        f"{MAX_EXPANSION_GROWTH:,} characters")
            except ExpansionTooLargeError as exc:
                problems.append(Problem(
                    "parse-error", f"entry {block.key!r} at {filename}:{line} is too large: "
                    f"{exc}; it is not checked (the other entries are)",
                    key=block.key, file=filename, line=line))
                continue
            raw_entries.append((block.key, block.entry_type, line,
                                line + block.raw.rstrip().count("\n"), raw))
        elif kind == "duplicate-field":
            problems.append(Problem(
                "parse-error", f"entry at {filename}:{line} repeats a field: "
                f"{block.error}", file=filename, line=line))
        elif kind == "failed":
            key_m = re.match(r"\s*@\s*\w+\s*[{(]\s*([^,\s]+)", block.raw)
            key = key_m.group(1) if key_m else ""
            what = f"entry {key!r}" if key else "block"
            err = " ".join(block.error.split()) or "unbalanced braces or quotes"
            # an entry is read on to the next line that starts with @: entries written
            # after it on its lines (a .bib on one line) go with it
            swallowed = len(_BLOCK_START.findall(block.raw, 1))
            lost = f"the {swallowed} entries after it" if swallowed > 1 else "the entry after it"
            rest = (f"{lost} before the next line that starts with @ "
                    f"{'are' if swallowed > 1 else 'is'} lost with it: start each entry on a "
                    "line of its own" if swallowed else "the other entries are still checked")
            problems.append(Problem(
                "parse-error", f"malformed {what} at {filename}:{line}: {err}; fix the braces, "
                f"quotes or commas ({rest})", key=key, file=filename, line=line))
    by_key = {key.lower(): raw for key, _, _, _, raw in raw_entries}
    entries: list[Entry] = []
    for key, entry_type, start, end, raw in raw_entries:
        etype = entry_type.lower()
        if etype == "xdata":
            continue
        # most entries inherit nothing: their dict is used as it is, not copied
        merged = dict(raw) if "xdata" in raw or "crossref" in raw else raw
        for xkey in [k.strip() for k in raw.get("xdata", "").split(",") if k.strip()]:
            for k, v in by_key.get(xkey.lower(), {}).items():
                merged.setdefault(k, v)
        parent_key = raw.get("crossref", "").strip()
        if parent_key:
            parent = by_key.get(parent_key.lower())
            if parent is None:
                problems.append(Problem(
                    "undefined-key", f"entry {key!r} has crossref {parent_key!r}, which "
                    f"is not defined in {filename}", key=parent_key, file=filename,
                    line=start))
            else:
                if "title" in parent and "booktitle" not in merged:
                    merged["booktitle"] = parent["title"]
                for k, v in parent.items():
                    if k not in ("title", "ids", "crossref") or k == "title" and \
                            etype not in ("inproceedings", "incollection", "inbook"):
                        merged.setdefault(k, v)
        entries.append(build_entry(key, etype, filename, start, merged, end_line=end,
                                   share_raw=True))
    from citecheck_tex.tex.fields import missing_fields

    for e in entries:
        problems.extend(entry_hygiene(e))
        problems.extend(missing_fields(e))
    return entries, problems
