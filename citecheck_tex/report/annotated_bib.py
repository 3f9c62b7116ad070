"""Annotated and fixed copies of the user's .bib files.

:func:`render_annotated` reproduces a .bib file character for character and
only inserts comment blocks (every added line starts with ``% citecheck:``)
above the checked entries: label, score, a link to the record found, the wrong
fields and, for MINOR, a corrected copy of the entry. :func:`render_fixed`
writes the whole file with the MINOR corrections applied in place. Nothing
else changes: line endings (CRLF stays CRLF), a byte-order mark, a missing
final newline, the user's field order, spacing and delimiters are kept.

The entry scanner here is deliberately small: it only needs to find the span
of one entry and the spans of its field values; the real parsing of the
bibliography is done by the tex frontend.

Why ``(at)`` in the commented copy: BibTeX does not know ``%`` comments
outside entries and would read ``@article{key,`` on a comment line as a
second entry with the same key, so the added lines never contain ``@``.
"""

from __future__ import annotations

import logging
import re
from array import array
from collections import Counter
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

from citecheck_tex.model import EntryOrigin, Label, Verdict
from citecheck_tex.report.base import ReportFile, primary_link, register_reporter

if TYPE_CHECKING:
    from citecheck_tex.config import Settings
    from citecheck_tex.model import Entry, RunResult
    from citecheck_tex.tex.encoding import TextEncoding

logger = logging.getLogger(__name__)

#: Every line this module adds starts with this text.
PREFIX = "% citecheck:"

_AT = "(at)"

#: Suggested-field names (as the comparator uses them) -> BibTeX field names to look for.
_FIELD_ALIASES: Mapping[str, tuple[str, ...]] = {
    "venue": ("journal", "journaltitle", "booktitle"),
    "arxiv": ("eprint",),
    "authors": ("author",),
    "editors": ("editor",),
}

#: Fields whose values are identifiers: written verbatim, never LaTeX-escaped.
_VERBATIM = frozenset({"doi", "eprint", "url", "archiveprefix", "eprinttype", "primaryclass",
                       "isbn", "issn"})

_ENTRY_HEAD = r"@\s*([A-Za-z][\w-]*)\s*([{(])\s*"
_NOT_ENTRIES = frozenset({"comment", "string", "preamble"})


@dataclass(frozen=True, slots=True)
class _Field:
    """One ``name = value`` of an entry; offsets are absolute in the file text."""

    name: str
    line_start: int  # offset of the start of the line holding the name
    name_start: int
    eq: int  # offset of '='
    value_start: int
    value_end: int
    style: str  # brace | brace2 | quote | quote-brace | bare | concat
    comma_end: int  # offset just after the comma following the value, or value_end


@dataclass(frozen=True, slots=True)
class _Span:
    """An entry found in the text."""

    start: int  # offset of '@'
    end: int  # offset just after the closing delimiter
    close: int  # offset of the closing delimiter
    key: str
    entry_type: str
    fields: tuple[_Field, ...]


# --------------------------------------------------------------------------- scanning


def _match_close(text: str, i: int) -> int:
    """Offset just after the delimiter closing the '{' or '"' at ``i``, or -1.

    Braces nest; inside a quoted value they protect quotes; a backslash escapes
    the next character.
    """
    quoted = text[i] == '"'
    depth = 0 if quoted else 1
    i += 1
    n = len(text)
    while i < n:
        c = text[i]
        if c == "\\":
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0 and not quoted:
                return i + 1
        elif c == '"' and quoted and depth == 0:
            return i + 1
        i += 1
    return -1


def _skip_ws(text: str, i: int) -> int:
    n = len(text)
    while i < n and text[i].isspace():
        i += 1
    return i


_BARE = re.compile(r"[^\s,#{}()\"=]+")
_NAME = re.compile(r"[A-Za-z_][\w\-:.+/']*")


def _scan_value(text: str, i: int) -> tuple[int, str] | None:
    """Scan a value (parts joined by '#') at ``i``: (end offset, style) or None."""
    parts: list[str] = []
    start = i
    while True:
        if i >= len(text):
            return None
        c = text[i]
        if c == "{":
            j = _match_close(text, i)
            inner = text[i + 1 : j - 1] if j > 0 else ""
            one_group = (inner.startswith("{") and _match_close(inner, 0) == len(inner))
            parts.append("brace2" if one_group else "brace")
        elif c == '"':
            j = _match_close(text, i)
            inner = text[i + 1 : j - 1] if j > 0 else ""
            one_group = inner.startswith("{") and _match_close(inner, 0) == len(inner)
            parts.append("quote-brace" if one_group else "quote")
        else:
            m = _BARE.match(text, i)
            if not m:
                return None
            j = m.end()
            parts.append("bare")
        if j < 0:
            return None
        end = j
        k = _skip_ws(text, j)
        if k < len(text) and text[k] == "#":
            i = _skip_ws(text, k + 1)
            continue
        break
    if end <= start:
        return None
    return end, parts[0] if len(parts) == 1 else "concat"


def _scan_entry(text: str, at: int, key: str) -> _Span | None:
    """Parse the entry whose '@' is at ``at``; None when it is not a well-formed entry."""
    m = re.compile(_ENTRY_HEAD + re.escape(key) + r"\s*(?=[,})])").match(text, at)
    if not m:
        return None
    entry_type = m.group(1)
    closer = "}" if m.group(2) == "{" else ")"
    i = m.end()
    fields: list[_Field] = []
    n = len(text)
    if i < n and text[i] == ",":
        i += 1
    while True:
        i = _skip_ws(text, i)
        if i >= n:
            return None
        if text[i] == closer:
            return _Span(at, i + 1, i, key, entry_type, tuple(fields))
        nm = _NAME.match(text, i)
        if not nm:
            return None
        name_start = i
        eq = _skip_ws(text, nm.end())
        if eq >= n or text[eq] != "=":
            return None
        vs = _skip_ws(text, eq + 1)
        scanned = _scan_value(text, vs)
        if scanned is None:
            return None
        ve, style = scanned
        k = _skip_ws(text, ve)
        comma_end = ve
        if k < n and text[k] == ",":
            comma_end = k + 1
            i = k + 1
        elif k < n and text[k] == closer:
            i = k
        else:
            return None
        line_start = text.rfind("\n", 0, name_start) + 1
        fields.append(_Field(nm.group(0), line_start, name_start, eq, vs, ve, style, comma_end))


def _line_starts(text: str) -> array[int]:
    # an array, not a list: 1.7 million lines of a 100,000-entry .bib take 14 MB, not 60
    starts = array("q", [0])
    starts.extend(m.end() for m in re.finditer("\n", text))
    return starts


def _line_of(starts: Sequence[int], offset: int) -> int:
    """1-based line number of ``offset``."""
    lo, hi = 0, len(starts) - 1
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if starts[mid] <= offset:
            lo = mid
        else:
            hi = mid - 1
    return lo + 1


def _locate(text: str, starts: Sequence[int], entry: Entry) -> _Span | None:
    """Find ``entry`` in ``text``: on its line first, else the same key nearest to it."""
    head = re.compile(_ENTRY_HEAD + re.escape(entry.key) + r"\s*[,})]")
    line = entry.line
    if 1 <= line <= len(starts):
        lo = starts[line - 1]
        hi = starts[line] if line < len(starts) else len(text)
        m = head.search(text, lo)
        if m and m.start() < hi and m.group(1).lower() not in _NOT_ENTRIES:
            return _scan_entry(text, m.start(), entry.key)
    candidates = [m for m in head.finditer(text) if m.group(1).lower() not in _NOT_ENTRIES]
    if not candidates:
        return None
    best = min(candidates, key=lambda m: abs(_line_of(starts, m.start()) - line))
    return _scan_entry(text, best.start(), entry.key)


# --------------------------------------------------------------------------- correcting


def _newline_of(text: str) -> str:
    i = text.find("\n")
    return "\r\n" if i > 0 and text[i - 1] == "\r" else "\n"


def _balanced(text: str) -> bool:
    depth = 0
    for i, c in enumerate(text):
        if c == "{" and (i == 0 or text[i - 1] != "\\"):
            depth += 1
        elif c == "}" and (i == 0 or text[i - 1] != "\\"):
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


_SPECIAL = re.compile(r"(?<!\\)([&%#])")


def bib_value_text(name: str, value: str) -> str:
    """Decoded text made safe as the inside of a BibTeX value for field ``name``."""
    value = " ".join(value.split())
    if name.lower() in _VERBATIM:
        return value.replace("{", "").replace("}", "")
    if name.lower() in ("author", "editor") and " and " not in value and "; " in value:
        value = " and ".join(p.strip() for p in value.split(";") if p.strip())
    value = _SPECIAL.sub(r"\\\1", value)
    if not _balanced(value):
        value = value.replace("{", "").replace("}", "")
    return value


def _delimit(style: str, inner: str) -> str:
    if style == "quote" and '"' not in inner:
        return f'"{inner}"'
    if style == "quote-brace":
        return '"{' + inner + '}"'
    if style == "brace2":
        return "{{" + inner + "}}"
    if style == "bare" and inner.isdigit():
        return inner
    return "{" + inner + "}"


def _target_names(field: str, entry_type: str) -> tuple[tuple[str, ...], str]:
    """(BibTeX names to look for, name to add) for a suggested field."""
    field = field.lower()
    names = _FIELD_ALIASES.get(field, (field,))
    if field == "venue":
        new = "booktitle" if entry_type.lower() in ("inproceedings", "incollection",
                                                     "conference") else "journal"
    else:
        new = names[0]
    return names, new


def _corrected(text: str, span: _Span, suggested: Mapping[str, str]) -> str:
    """The entry text of ``span`` with ``suggested`` values applied."""
    by_name = {f.name.lower(): f for f in span.fields}
    replace: list[tuple[int, int, str]] = []
    additions: list[tuple[str, str]] = []
    for field, value in suggested.items():
        names, new_name = _target_names(field, span.entry_type)
        existing = next((by_name[n] for n in names if n in by_name), None)
        if existing is not None:
            inner = bib_value_text(existing.name, value)
            replace.append((existing.value_start, existing.value_end,
                            _delimit(existing.style, inner)))
        elif not any(a[0] == new_name for a in additions):
            additions.append((new_name, value))
            if new_name == "eprint" and not any(
                n in by_name for n in ("archiveprefix", "eprinttype")
            ):
                additions.append(("archivePrefix", "arXiv"))
    out = text[span.start : span.end]
    base = span.start
    if additions:
        out = _with_additions(text, span, additions)
        # additions only touch text after the last value: earlier offsets stay valid
    for start, end, new in sorted(replace, reverse=True):
        out = out[: start - base] + new + out[end - base :]
    return out


def _with_additions(text: str, span: _Span, additions: list[tuple[str, str]]) -> str:
    """The entry text with new fields added after the last one, in the entry's own style."""
    nl = _newline_of(text)
    entry = text[span.start : span.end]
    base = span.start
    if not span.fields:
        pos = span.close - base
        head = entry[:pos].rstrip()
        if not head.endswith(","):
            head += ","
        lines = ",".join(f"{nl}  {name} = {{{bib_value_text(name, v)}}}" for name, v in additions)
        return head + lines + nl + entry[pos:]
    last = span.fields[-1]
    indent_src = text[last.line_start : last.name_start]
    indent = indent_src if indent_src.strip() == "" else "  "
    gap_before_eq = text[last.name_start : last.eq]
    name_width = len(gap_before_eq) if indent_src.strip() == "" else 0
    after_eq = text[last.eq + 1 : last.value_start]
    styles = Counter(f.style for f in span.fields if f.style in ("brace", "quote", "quote-brace",
                                                                  "brace2"))
    style = styles.most_common(1)[0][0] if styles else "brace"
    trailing_comma = last.comma_end > last.value_end
    new_lines: list[str] = []
    for i, (name, value) in enumerate(additions):
        inner = bib_value_text(name, value)
        val_style = style
        if name.lower() in _VERBATIM:
            val_style = {"brace2": "brace", "quote-brace": "quote"}.get(style, style)
        comma = "," if (trailing_comma or i < len(additions) - 1) else ""
        padded = name.ljust(name_width) if len(name) < name_width else name + (
            " " if name_width else "")
        new_lines.append(f"{indent}{padded}={after_eq}{_delimit(val_style, inner)}{comma}")
    block = "".join(nl + line for line in new_lines)
    if trailing_comma:
        pos = last.comma_end - base
        return entry[:pos] + block + entry[pos:]
    pos = last.value_end - base
    return entry[:pos] + "," + block + entry[pos:]


# --------------------------------------------------------------------------- rendering


def _fmt_score(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value)}"


def _comment(text: str) -> str:
    text = " ".join(text.split()).replace("@", _AT)
    return f"{PREFIX} {text}" if text else PREFIX


def _checked(verdicts: Sequence[Verdict]) -> list[Verdict]:
    return [v for v in verdicts if v.label is not Label.SKIPPED
            and v.entry.origin is EntryOrigin.BIB]


def _block(text: str, span: _Span, verdict: Verdict, nl: str) -> list[str]:
    """The comment lines (without newlines) to put above one entry."""
    head = (f"{verdict.label.value} score {_fmt_score(verdict.score)}/10, "
            f"confidence {verdict.confidence:.2f}")
    if verdict.reason:
        head += f": {verdict.reason}"
    lines = [_comment(head)]
    if verdict.match is not None:
        link = primary_link(verdict.match)
        ident = verdict.match.doi or verdict.match.arxiv or verdict.match.id
        lines.append(_comment(f"found in {verdict.match.source} {ident} {link}".strip()))
    for d in verdict.discrepancies:
        note = f" ({d.note})" if d.note else ""
        lines.append(_comment(f'wrong {d.field}: cited "{d.cited}", found "{d.found}"{note}'))
    if verdict.label is Label.MINOR and verdict.suggested:
        fixed = _corrected(text, span, verdict.suggested)
        lines.append(_comment(
            f'corrected entry: to use it, remove "{PREFIX} " from the lines below and '
            f'write an at sign for "{_AT}"'))
        for raw in re.split(r"\r?\n", fixed):
            lines.append(f"{PREFIX} {raw.replace('@', _AT)}".rstrip())
    return lines


def _located(text: str, verdicts: Sequence[Verdict]) -> list[tuple[_Span, Verdict]]:
    starts = _line_starts(text)
    found: dict[int, tuple[_Span, Verdict]] = {}
    for v in verdicts:
        span = _locate(text, starts, v.entry)
        if span is None:
            logger.warning("%s:%d: entry %r not found; not annotated",
                           v.entry.file, v.entry.line, v.entry.key)
            continue
        found.setdefault(span.start, (span, v))
    return [found[k] for k in sorted(found)]


def render_annotated(bib_text: str, verdicts_for_file: Sequence[Verdict]) -> str:
    """``bib_text`` with a ``% citecheck:`` comment block above each checked entry.

    Removing every added line (they all start with ``% citecheck:``) gives back
    ``bib_text`` exactly. Entries that cannot be found at their line, or whose
    ``@`` does not start its line, are left without a block (and logged).
    """
    return "".join(iter_annotated(bib_text, verdicts_for_file))


def iter_annotated(bib_text: str, verdicts_for_file: Sequence[Verdict]) -> Iterator[str]:
    """:func:`render_annotated` in pieces (a 70 MB .bib is then not copied whole twice)."""
    nl = _newline_of(bib_text)
    pos = 0
    for span, verdict in _located(bib_text, _checked(verdicts_for_file)):
        line_start = bib_text.rfind("\n", 0, span.start) + 1
        before = bib_text[line_start : span.start]
        if before.strip("\ufeff \t"):
            logger.warning("%s:%d: entry %r does not start its line; not annotated",
                           verdict.entry.file, verdict.entry.line, verdict.entry.key)
            continue
        if line_start == 0 and bib_text.startswith("\ufeff"):
            line_start = 1
        block = _block(bib_text, span, verdict, nl)
        yield bib_text[pos:line_start]
        yield "".join(line + nl for line in block)
        pos = line_start
    yield bib_text[pos:]


def render_fixed(bib_text: str, verdicts_for_file: Sequence[Verdict]) -> str:
    """``bib_text`` with every MINOR verdict's suggested values applied in place.

    Only the changed values are replaced (delimiters kept) and missing fields
    are added after the last field; every other character is unchanged.
    """
    minor = [v for v in verdicts_for_file if v.label is Label.MINOR and v.suggested]
    pieces: list[str] = []
    pos = 0
    for span, verdict in _located(bib_text, minor):  # in file order, one copy in all
        assert verdict.suggested is not None
        if span.start < pos:  # overlapping spans cannot both be replaced
            continue
        pieces.append(bib_text[pos:span.start])
        pieces.append(_corrected(bib_text, span, verdict.suggested))
        pos = span.end
    pieces.append(bib_text[pos:])
    return "".join(pieces)


def corrected_entry(bib_text: str, entry: Entry, suggested: Mapping[str, str]) -> str | None:
    """The corrected text of one entry of ``bib_text``, or None when it is not found."""
    span = _locate(bib_text, _line_starts(bib_text), entry)
    return None if span is None else _corrected(bib_text, span, suggested)


def suggested_bibtex(entry: Entry, suggested: Mapping[str, str]) -> str:
    """A BibTeX entry built from ``entry.raw_fields`` with ``suggested`` applied.

    Used where the original file text is not at hand (the HTML report): the
    user's field order, raw values and delimiters are kept, changed fields
    replaced, missing ones added in the style of the last field.
    """
    fields: dict[str, str] = {name: raw.strip() for name, raw in entry.raw_fields.items()}
    if not fields:
        fields = {name: "{" + bib_value_text(name, v) + "}" for name, v in entry.fields.items()}
    lower = {k.lower(): k for k in fields}
    last_style = _raw_style(next(reversed(fields.values()))) if fields else "brace"
    if last_style not in ("brace", "quote"):
        last_style = "brace" if last_style != "quote-brace" else "quote"
    for field, value in suggested.items():
        names, new_name = _target_names(field, entry.entry_type)
        name = next((lower[n] for n in names if n in lower), "")
        if name:
            style = _raw_style(fields[name])
        else:
            name, style = new_name, last_style
        fields[name] = _delimit(style, bib_value_text(name, value))
        if name == "eprint" and not ({"archiveprefix", "eprinttype"} & set(lower)):
            fields.setdefault("archivePrefix", _delimit(last_style, "arXiv"))
    width = max((len(k) for k in fields), default=0)
    body = ",\n".join(f"  {k.ljust(width)} = {_as_value(v)}" for k, v in fields.items())
    return f"@{entry.entry_type or 'misc'}{{{entry.key},\n{body}\n}}\n"


def _raw_style(raw: str) -> str:
    scanned = _scan_value(raw.strip(), 0)
    return scanned[1] if scanned is not None and scanned[0] == len(raw.strip()) else "brace"


def _as_value(raw: str) -> str:
    raw = raw.strip()
    if raw.isdigit() or (raw[:1] in "{\"" and raw):
        return raw
    if _raw_style(raw) == "concat":
        return raw
    return "{" + raw + "}"


# --------------------------------------------------------------------------- registry


def copy_name(file: str, kind: str) -> str:
    """Where the ``kind`` copy (``annotated``, ``fixed``) of the .bib ``file`` goes in the
    report folder: ``file``'s path relative to the project folder, so ``a/refs.bib`` and
    ``b/refs.bib`` give ``a/refs.annotated.bib`` and ``b/refs.annotated.bib`` (a ``..``
    becomes ``_up``; an absolute path keeps only its name)."""
    path = PurePosixPath(file.replace("\\", "/"))
    parts = [path.name] if path.is_absolute() else [
        "_up" if part == ".." else part for part in path.parts if part != "."]
    return "/".join([*parts[:-1], f"{PurePosixPath(parts[-1]).stem}.{kind}.bib"])


def _copy_names(files: list[str], kind: str) -> dict[str, str]:
    """:func:`copy_name` of each file, made unique with ``-2``, ``-3`` ... (two absolute
    paths with one name, ``../x`` beside a real ``_up/x``)."""
    names: dict[str, str] = {}
    used: set[str] = set()
    for file in files:
        name = copy_name(file, kind)
        n, stem = 2, name[: -len(f".{kind}.bib")]
        while name in used:
            name, n = f"{stem}-{n}.{kind}.bib", n + 1
        used.add(name)
        names[file] = name
    return names


def _bib_files(result: RunResult) -> list[str]:
    """The .bib files to copy, in first-seen order: every parsed .bib entry's file and
    every checked BIB entry's, never a file outside the project (outside-project)."""
    files: list[str] = []
    entries = [*result.project.all_entries,
               *(v.entry for v in result.verdicts if v.entry.origin is EntryOrigin.BIB)]
    for e in entries:
        if e.file.endswith(".bib") and e.file not in files and not e.outside_project:
            files.append(e.file)
    return files


@register_reporter("bib")
class AnnotatedBibReporter:
    """One ``<name>.annotated.bib`` per .bib file (and ``<name>.fixed.bib`` with
    emit_fixed), at the .bib's own path relative to the project folder (:func:`copy_name`).

    It reads the user's .bib files (input only) relative to the project folder, or
    through ``reader`` (injected in tests). :meth:`files` writes each copy in its
    original's encoding (UTF-16 stays UTF-16, line endings and a BOM are kept).
    """

    name = "bib"

    def __init__(self, reader: Callable[[str], str] | None = None) -> None:
        """``reader`` returns the text of a .bib file name (default: read from disk)."""
        self.reader = reader

    def _sources(self, result: RunResult) -> Iterator[tuple[tuple[str, str], str,
                                                            TextEncoding, list[Verdict]]]:
        """Per readable .bib file: (annotated name, fixed name), text, encoding, verdicts."""
        from citecheck_tex.tex.encoding import TextEncoding, decode_copy
        from citecheck_tex.tex.project import project_folder

        root = project_folder(result.project)
        files = _bib_files(result)
        annotated, fixed = _copy_names(files, "annotated"), _copy_names(files, "fixed")
        for file in files:
            try:
                if self.reader is not None:
                    text, encoding = self.reader(file), TextEncoding()
                else:
                    text, encoding = decode_copy((root / file).read_bytes())
            except OSError as exc:
                logger.warning("%s: cannot read (%s); no annotated copy", file, exc)
                continue
            mine = [v for v in result.verdicts if v.entry.file == file]
            yield (annotated[file], fixed[file]), text, encoding, mine

    def files(self, result: RunResult, settings: Settings) -> Iterator[ReportFile]:
        """The annotated copies (format ``bib``) and the fixed ones (``emit_fixed``), streamed."""
        from citecheck_tex.tex.encoding import iter_encode_copy

        for (annotated, fixed), text, encoding, mine in self._sources(result):
            if "bib" in settings.formats:
                yield ReportFile(annotated,
                                 iter_encode_copy(iter_annotated(text, mine), encoding))
            if settings.emit_fixed:
                yield ReportFile(fixed,
                                 iter_encode_copy(render_fixed(text, mine), encoding))

    def render(self, result: RunResult, settings: Settings) -> dict[str, str]:
        """Annotated (and, with emit_fixed, fixed) copies as file name -> text."""
        out: dict[str, str] = {}
        for (annotated, fixed), text, _encoding, mine in self._sources(result):
            out[annotated] = render_annotated(text, mine)
            if settings.emit_fixed:
                out[fixed] = render_fixed(text, mine)
        return out
