"""The DBLP XML dump (``dblp.xml.gz``): records to index rows, without the DTD.

The dump (https://dblp.org/xml/) is one ``<dblp>`` element holding a record element
per work: ``article``, ``inproceedings``, ``proceedings``, ``book``,
``incollection``, ``phdthesis``, ``mastersthesis`` (and ``www`` person pages and
``data`` records, which are no citable publications and are skipped). Each record
has a ``key`` attribute ("journals/prl/Witten81") and children ``author`` (or
``editor``), ``title``, ``year``, ``journal`` or ``booktitle``, ``volume``,
``pages``, ``number``, ``ee`` (electronic editions: DOI and arXiv URLs) and more.

Non-ASCII letters are character entities declared in ``dblp.dtd`` (``&uuml;``,
``&eacute;``, ``&szlig;``): every one of them is an HTML/ISO-8859-1 entity name,
so :data:`html.entities.name2codepoint` resolves them and the DTD file is not
needed. Titles may hold inline markup (``<i>``, ``<sub>``, ``<sup>``), whose text
is kept; DBLP ends titles with a period, which is dropped. Homonym numbers of
authors ("Jing Yuan 0001") go (:func:`~citecheck_tex.names.parse_display_name`).

Records are found in the text stream by their tags (:func:`record_chunks`, any
layout, one record per line in the real dump) and parsed one by one
(:func:`parse_records`), so a broken record is reported with its line and the
others are kept. Pure functions: text in, rows out.
"""

from __future__ import annotations

import html.entities
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterable, Iterator

from citecheck_tex.model import Record
from citecheck_tex.names import parse_display_name
from citecheck_tex.sources.importers import (
    SOURCE_NAME,
    IndexRow,
    journal_ref_key,
    normalize_arxiv,
    normalize_doi,
    normalize_title,
)
from citecheck_tex.vocab.journals import journal_display

#: Record elements of the dump that are publications (their tag is the entry type).
PUBLICATION_TAGS = ("article", "inproceedings", "proceedings", "book", "incollection",
                    "phdthesis", "mastersthesis")
_ALL_TAGS = (*PUBLICATION_TAGS, "www", "data")
_TAGS = "|".join(_ALL_TAGS)
_RECORD = re.compile(rf"<({_TAGS})\b[^>]*>.*?</\1\s*>", re.S)
_CLOSE = re.compile(rf"</(?:{_TAGS})\s*>")
_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
_XML_ENTITIES = frozenset({"amp", "lt", "gt", "quot", "apos"})
_DOI_URL = re.compile(r"^https?://(?:dx\.)?doi\.org/(10\..+)$", re.I)
_ARXIV_URL = re.compile(r"^https?://arxiv\.org/abs/(.+)$", re.I)
_CORR_VOLUME = re.compile(r"^abs/(.+)$")
#: A buffer without any complete record beyond this many characters is no DBLP dump.
MAX_RECORD_CHARS = 1 << 20
#: What :func:`looks_like_dblp` needs in the head of a file.
_HEAD = re.compile(r"<!DOCTYPE\s+dblp\b|<dblp>|<(?:"
                   + "|".join(PUBLICATION_TAGS) + r")\s[^>]*\bkey=\"[^\"]+/")


def looks_like_dblp(head: str) -> bool:
    """True when the first characters of a file are those of a DBLP XML dump."""
    return head.lstrip("\ufeff \t\r\n").startswith("<") and bool(_HEAD.search(head))


def xml_encoding(head: bytes) -> str:
    """The encoding an XML declaration names (the real dump says ISO-8859-1)."""
    m = re.match(rb"\s*<\?xml[^>]*encoding=[\"']([A-Za-z0-9._-]+)[\"']", head)
    return m.group(1).decode("ascii") if m else "utf-8"


def _entity(match: re.Match[str]) -> str:
    name = match.group(1)
    if name in _XML_ENTITIES:
        return match.group(0)
    code = html.entities.name2codepoint.get(name)
    return f"&#{code};" if code is not None else "\ufffd"


def resolve_entities(text: str) -> str:
    """Replace the DTD's named character entities by numeric references."""
    return _ENTITY.sub(_entity, text)


def record_chunks(lines: Iterable[str], per_chunk: int) -> Iterator[tuple[int, str]]:
    """Chunks of ``per_chunk`` whole records: (line of the first record, text).

    The text holds the records separated by newlines, each prefixed by a
    ``<!--line N-->`` comment giving the line it started on, so the parser can
    report a broken record by its line.
    """
    buf, buf_line = "", 1  # buf_line: the line buf starts on
    out: list[str] = []
    first = 0
    for line in lines:
        buf += line
        if not _CLOSE.search(line):
            continue
        pos, pos_line = 0, buf_line
        for m in _RECORD.finditer(buf):
            pos_line += buf.count("\n", pos, m.start())
            out.append(f"<!--line {pos_line}-->{m.group(0)}")
            first = first or pos_line
            pos_line += buf.count("\n", m.start(), m.end())
            pos = m.end()
            if len(out) >= per_chunk:
                yield first, "\n".join(out)
                out, first = [], 0
        if pos:
            buf, buf_line = buf[pos:], pos_line
        elif len(buf) > MAX_RECORD_CHARS:  # no record closes: skip the junk
            buf_line += buf.count("\n")
            buf = ""
    if out:
        yield first, "\n".join(out)


_LINE_MARK = re.compile(r"<!--line (\d+)-->")


def parse_records(text: str, first_line: int = 1) -> list[tuple[int, IndexRow | None | str]]:
    """Rows of the records of one chunk: (line, row), None for a skipped record
    (a person page, or nothing to look it up by), or an error message."""
    out: list[tuple[int, IndexRow | None | str]] = []
    marks = list(_LINE_MARK.finditer(text))
    for i, mark in enumerate(marks):
        line = int(mark.group(1))
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        body = text[mark.end():end].strip()
        try:
            element = ET.fromstring(resolve_entities(body))
        except ET.ParseError as exc:
            out.append((line, f"malformed DBLP record: {exc}"))
            continue
        out.append((line, dblp_row(element)))
    if not marks and text.strip():
        out.append((first_line, "no DBLP record found"))
    return out


def _text(element: ET.Element) -> str:
    return " ".join("".join(element.itertext()).split())


def dblp_row(element: ET.Element) -> IndexRow | None:
    """Row of one DBLP record element (None for person pages and empty records)."""
    tag = element.tag
    key = element.get("key", "").strip()
    if tag not in PUBLICATION_TAGS or not key:
        return None
    fields: dict[str, list[str]] = {}
    for child in element:
        fields.setdefault(child.tag, []).append(_text(child))

    def first(name: str) -> str:
        return fields.get(name, [""])[0]

    title = first("title").removesuffix(".") if not first("title").endswith("..") \
        else first("title")
    people = fields.get("author") or (fields.get("editor") if tag in ("proceedings", "book")
                                      else None) or []
    authors = tuple(p for p in (parse_display_name(name) for name in people) if p.family)
    venue = first("journal") or first("booktitle")
    volume, pages = first("volume"), first("pages")
    dois, arxivs = [], []
    for url in fields.get("ee", []):
        if m := _DOI_URL.match(url):
            dois.append(normalize_doi(m.group(1)))
        elif m := _ARXIV_URL.match(url):
            arxivs.append(normalize_arxiv(m.group(1)))
    corr = venue == "CoRR" and _CORR_VOLUME.match(volume)
    if corr:
        arxivs.append(normalize_arxiv(corr.group(1)))
    dois = list(dict.fromkeys(d for d in dois if d))
    arxivs = list(dict.fromkeys(a for a in arxivs if a))
    doi, arxiv = (dois[0] if dois else ""), (arxivs[0] if arxivs else "")
    year = first("year")[:4] if first("year")[:4].isdigit() else ""
    entry_type = "preprint" if corr else tag
    rec = Record(
        source=SOURCE_NAME, id=f"dblp:{key}", url=f"https://dblp.org/rec/{key}",
        title=title, authors=authors, year=year, venue="" if corr else venue,
        venue_aliases=(journal_display(venue),) if venue and not corr else (),
        volume="" if corr else volume, pages=pages, doi=doi, arxiv=arxiv,
        entry_type=entry_type,
    )
    norm = normalize_title(title)
    jref = journal_ref_key(venue, volume, pages) if venue and not corr else None
    if not (norm or dois or arxivs or jref):
        return None
    return IndexRow(uid=f"dblp:{key}", origin="dblp", format="dblp", record=rec,
                    norm_title=norm, dois=tuple(dois), arxivs=tuple(arxivs),
                    jrefs=(jref,) if jref else ())
