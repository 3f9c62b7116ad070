"""Rule-based parser for one free-text reference.

Handles the physics styles (``A. Author, B. Author, Phys. Rev. Lett. 95, 251302
(2005)``), INSPIRE pubnotes (``Nucl.Phys.,B106,475``), quoted titles, arXiv ids
old and new, DOIs, URLs, and the markdown forms ``[Authors, Year, Title](URL)``
and ``[Title](URL)``. The result is a dict of BibTeX-like fields; an LLM parser
may later fill what rules miss.
"""

from __future__ import annotations

import logging
import re

from citecheck_tex.tex.ids import (
    find_arxiv,
    find_doi,
    looks_like_report_number,
    normalize_arxiv,
    normalize_doi,
    normalize_report_number,
)

logger = logging.getLogger(__name__)

_MD = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?\[(?P<inner>.+)\]\((?P<url>[^()\s]+(?:\([^()\s]*\)[^()\s]*)*)\)\s*\.?\s*$", re.S)
_NUMBERING = re.compile(r"^\s*(?:\[\s*\d+\s*\]|\(\s*\d+\s*\)|\d+[.)])\s+")
_URL = re.compile(r"(?:\\url\{)?(https?://[^\s}<>]+)\}?")
_QUOTED = re.compile(r"[\"“”«]([^\"“”«»]{4,}?)[\"“”»]|``(.{4,}?)''|‘(.{4,}?)’")
_YEAR_PAREN = re.compile(r"\(\s*(?:[A-Za-z]{3,9}\.?\s+)?((?:1[89]|20)\d{2})[a-z]?\s*\)")
_YEAR = re.compile(r"(?<![\d./])((?:1[89]|20)\d{2})[a-z]?(?![\d/])")
#: "Phys. Rev. Lett. 95, 251302 (2005)", "JHEP 05 (2020) 123", "Nucl. Phys. B 106, 475".
_JOURNAL_REF = re.compile(
    r"(?P<journal>(?:[A-Z][A-Za-z\-]*\.?\s?){1,6}?(?:\s?[A-Z]\b)?)\s*"
    # volume and pages are apart ("95, 251302", "2 (1998) 231", "B106 475"): "COVID-19"
    # is no journal reference
    r"(?:vol\.\s*)?(?P<volume>[A-Z]?\d{1,5}|[A-Z]{3,}\d{4})\b"
    r"(?:\s*\((?P<year1>(?:1[89]|20)\d{2})\))?(?:\s*[,:]\s*|\s+)"
    r"(?:no\.\s*\d+\s*,\s*)?(?:pp?\.\s*)?(?P<pages>[A-Za-z]?\d+(?:\s*[-–]+\s*[A-Za-z]?\d+)?)"
    r"(?:\s*\((?P<year2>(?:1[89]|20)\d{2})\))?"
)
_PUBNOTE = re.compile(r"^\s*(?P<journal>[^,]+?)\s*,\s*(?P<volume>[A-Z]?\d+[A-Za-z]?)\s*,\s*"
                      r"(?P<pages>[A-Za-z]?\d+(?:-\d+)?)\s*(?:\((?P<year>\d{4})\))?\s*$")
_INITIALS_FIRST = re.compile(
    r"^(?:[A-Z][a-z]?\.\s*-?\s*){1,4}\s*(?:(?:van|von|der|de|la|del|di|da|le|den)\s+)*"
    r"[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+"
    # a second capitalised family word: "E. Di Valentino", "C.H. Llewellyn Smith"
    r"(?:\s+[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+)?(?:\s+(?:Jr\.?|Sr\.?|III?))?$"
)
_FAMILY_FIRST = re.compile(
    r"^(?:(?:van|von|der|de|la|del|di|da|le|den)\s+)*[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+"
    r"(?:\s+[A-Z][\w'\-]+)?\s*,?\s+(?:[A-Z][a-z]?\.\s*-?\s*){1,4}$"
)
_FULL_NAME = re.compile(
    r"^[A-Z\u00C0-\u024F][\w'\u00C0-\u024F\-]+(?:\s+[A-Z]\.)?(?:\s+(?:van|von|der|de|la|del|di)"
    r")*\s+[A-Z\u00C0-\u024F][\w'\u00C0-\u024F\-]+$"
)
#: A family name written before its initials, as in "Sharif, M." or "van Putten, M.H.P.M.".
_FAMILY_WORD = re.compile(
    r"(?:(?:van|von|der|de|la|del|di|da|le|den)\s+)*[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+"
    r"(?:\s+[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+)?"
)
#: A report-number-like token in free text ("CMS-PAS-HIG-11-024", "CERN-TH-2102"): three
#: parts or more, so that "COVID-19" or "VGG-16" in a title stays in the title.
_REPORT_TOKEN = re.compile(r"(?<![\w./-])[A-Z][A-Z0-9]*(?:[-/][A-Z0-9]+){2,6}(?![\w./-])")
_APA = re.compile(r"^(?P<authors>[^()]+?)\s*\((?P<year>(?:1[89]|20)\d{2})[a-z]?\)\.\s*"
                  r"(?P<title>[^.?!]{8,}[.?!])\s*(?P<tail>.*)$")
_ET_AL = re.compile(r"\bet\s*\.?\s*al\.?", re.I)
_COLLAB = re.compile(r"\b(Collaboration|Collab\.|Consortium|Team|Group)\b", re.I)


def _looks_like_name(piece: str) -> bool:
    p = piece.strip()
    if not p or any(ch.isdigit() for ch in p) or len(p.split()) > 5:
        return False
    return bool(_INITIALS_FIRST.match(p) or _FAMILY_FIRST.match(p) or _FULL_NAME.match(p)
                or (_COLLAB.search(p) and len(p.split()) <= 4))


def _authors_from(segment: str) -> tuple[list[str], bool]:
    """Names from an author segment; the flag is True for "et al."."""
    truncated = bool(_ET_AL.search(segment))
    seg = _ET_AL.sub("", segment)
    seg = re.sub(r"\s*(?:,\s*)?(?:\band\b|&)\s*", ", ", seg)
    pieces = [p.strip(" .;") + ("." if p.strip().endswith(".") and
                                re.search(r"\b[A-Z]\.$", p.strip()) else "")
              for p in seg.split(",")]
    pieces = [p for p in pieces if p]
    names: list[str] = []
    i = 0
    while i < len(pieces):
        p = pieces[i]
        nxt = pieces[i + 1] if i + 1 < len(pieces) else ""
        # "Family, I." written with a comma between family and initials
        if ((re.fullmatch(r"[A-Z\u00C0-\u024F][\w'\u00C0-\u024F\-]+(?:\s+[\w'\-]+)?", p)
             or _FAMILY_WORD.fullmatch(p))
                and re.fullmatch(r"(?:[A-Z][a-z]?\.\s*-?\s*){1,5}", nxt)):
            names.append(f"{p}, {nxt}")
            i += 2
            continue
        names.append(p)
        i += 1
    return names, truncated


_TITLE_WORDS = frozenset("a an and at by for from in into of on or the to with".split())


def _names_without_separators(text: str) -> bool:
    """True for an author list that lost its commas ("G Bélanger F Boudjema A Pukhov",
    as reference extraction sometimes leaves them): every word capitalised, no title
    word ("of", "the"), and many of them bare initials. Such text is no title."""
    words = text.replace(".", " ").split()
    # "A" is an initial inside a list of names, the article only at the start
    if len(words) < 3 or words[0] == "A" or any(
            (w.lower() in _TITLE_WORDS and w != "A") or not w[0].isupper() for w in words):
        return False
    initials = sum(1 for w in words if len(w) <= 2 and w.isupper())
    return initials * 3 >= len(words)


def _bibtex_authors(names: list[str], truncated: bool) -> str:
    out = [("{" + n + "}") if _COLLAB.search(n) else n for n in names]
    if truncated:
        out.append("others")
    return " and ".join(out)


def _take_ids(text: str, out: dict[str, str]) -> str:
    """Move DOI, arXiv id and URL out of text into ``out``; return the rest."""
    for m in list(_URL.finditer(text)):
        url = m.group(1).rstrip(".,;)")
        low = url.lower()
        if "doi.org/" in low:
            out.setdefault("doi", normalize_doi(url))
        elif "arxiv.org/" in low:
            out.setdefault("eprint", normalize_arxiv(url))
            out.setdefault("url", url)
        else:
            out.setdefault("url", url)
        text = text.replace(m.group(0), " ")
    doi = find_doi(text)
    if doi:
        out.setdefault("doi", doi)
        text = re.sub(r"(?:doi\s*:?\s*)?" + re.escape(doi), " ", text, flags=re.I)
    arxiv = find_arxiv(text)
    if arxiv:
        out.setdefault("eprint", arxiv)
        text = re.sub(r"(?:arxiv\s*:\s*)?" + re.escape(arxiv) + r"(?:v\d+)?(?:\s*\[[^\]]*\])?",
                      " ", text, flags=re.I)
    for m in _REPORT_TOKEN.finditer(text):
        if looks_like_report_number(m.group(0)):
            out["reportnumber"] = normalize_report_number(m.group(0))
            text = text[:m.start()] + " " + text[m.end():]
            break
    if re.search(r"\barxiv\b|\be-?print\b|\bpreprint\b", text, re.I) and "eprint" not in out:
        bare = find_arxiv(text, bare=True)
        if bare:
            out.setdefault("eprint", bare)
            text = re.sub(re.escape(bare) + r"(?:v\d+)?(?:\s*\[[^\]]*\])?", " ", text)
    return text


def _parse_markdown(inner: str, url: str) -> dict[str, str]:
    out: dict[str, str] = {}
    _take_ids(url, out)
    if "url" not in out and "doi" not in out and "eprint" not in out:
        out["url"] = url
    out.setdefault("url", url)
    m = re.match(r"^(?P<authors>.+?),\s*(?P<year>(?:1[89]|20)\d{2})[a-z]?\s*,\s*(?P<title>.+)$",
                 inner.strip(), re.S)
    if m:
        names, truncated = _authors_from(m.group("authors"))
        if names or truncated:
            out["author"] = _bibtex_authors(names, truncated)
        out["year"] = m.group("year")
        out["title"] = m.group("title").strip().rstrip(".")
    else:
        out["title"] = inner.strip().rstrip(".")
    return out


def parse_reference(text: str) -> dict[str, str]:
    """Parse one free-text reference into BibTeX-like fields.

    Keys among: author (BibTeX "A. Author and B. Author", "and others" for et
    al.), title, journal, volume, pages, year, doi, eprint, url, note. Never
    raises; unparsed text is left in ``note`` when nothing else was found.
    """
    try:
        return _parse(text)
    except Exception:  # noqa: BLE001 - a rule bug must not stop a run
        logger.debug("parse_reference failed on %r", text, exc_info=True)
        return {"note": " ".join(text.split())}


def _parse(text: str) -> dict[str, str]:
    text = " ".join(text.split())
    if not text:
        return {}
    md = _MD.match(text)
    if md:
        return _parse_markdown(md.group("inner"), md.group("url"))
    out: dict[str, str] = {}
    text = _NUMBERING.sub("", text)
    rest = _take_ids(text, out)
    pn = _PUBNOTE.match(rest)
    if pn and not re.search(r"\s", pn.group("journal").replace(". ", ".")) or (
            pn and "." in pn.group("journal")):
        out["journal"] = pn.group("journal").strip()
        out["volume"] = pn.group("volume")
        out["pages"] = pn.group("pages")
        if pn.group("year"):
            out["year"] = pn.group("year")
        return out
    apa = _APA.match(rest)
    if apa:
        names, truncated = _authors_from(apa.group("authors"))
        if names:
            out["author"] = _bibtex_authors(names, truncated)
        out["year"] = apa.group("year")
        out["title"] = apa.group("title").strip().rstrip(".")
        tail = apa.group("tail")
        jm2 = _JOURNAL_REF.search(tail)
        if jm2:
            out["journal"] = jm2.group("journal").strip().rstrip(",")
            out["volume"] = jm2.group("volume")
            out["pages"] = re.sub(r"\s*[-–]+\s*", "-", jm2.group("pages"))
        return out
    rest = re.sub(r"\(([^()]*(?:Collaboration|Collab\.)[^()]*)\)", " ", rest)
    title_span: tuple[int, int] | None = None
    qm = _QUOTED.search(rest)
    if qm:
        title = next(g for g in qm.groups() if g)
        out["title"] = title.strip().rstrip(",.")
        title_span = qm.span()
    ym = _YEAR_PAREN.search(rest)
    if ym:
        out["year"] = ym.group(1)
    search_from = title_span[1] if title_span else 0
    jm = None
    for cand in _JOURNAL_REF.finditer(rest, search_from):
        journal = cand.group("journal").strip()
        if journal and re.search(r"[A-Za-z]{2}", journal) and not _looks_like_name(journal):
            jm = cand
            break
    if jm:
        journal = jm.group("journal").strip().rstrip(",")
        out["journal"] = journal
        out["volume"] = jm.group("volume")
        out["pages"] = re.sub(r"\s*[-–]+\s*", "-", jm.group("pages"))
        year = jm.group("year1") or jm.group("year2")
        if year:
            out["year"] = year
    if "year" not in out:
        years = _YEAR.findall(rest)
        if years:
            out["year"] = years[-1]
    head_end = min(x for x in (
        title_span[0] if title_span else len(rest),
        jm.start() if jm else len(rest),
    ))
    head = rest[:head_end]
    pieces = [p.strip() for p in re.split(r",|;|\band\b|&", _ET_AL.sub(",", head)) if p.strip()]
    author_pieces: list[str] = []
    consumed = 0
    for k, p in enumerate(pieces):
        nxt = pieces[k + 1] if k + 1 < len(pieces) else ""
        initials = re.fullmatch(r"(?:[A-Z][a-z]?\.\s*-?\s*){1,5}", nxt)
        if (_looks_like_name(p) or re.fullmatch(r"(?:[A-Z][a-z]?\.\s*-?\s*){1,5}", p)
                or (initials and _FAMILY_WORD.fullmatch(p))):  # "Sharif, M., Saleem, R."
            author_pieces.append(p)
            consumed += 1
        else:
            break
    if author_pieces:
        # rebuild the author segment up to the last name piece
        last = author_pieces[-1]
        cut = head.find(last) + len(last)
        seg = head[:cut]
        after = head[cut:]
        et_al = bool(re.match(r"\s*,?\s*et\s*\.?\s*al", after, re.I))
        names, truncated = _authors_from(seg)
        if names:
            out["author"] = _bibtex_authors(names, truncated or et_al)
        remainder = _ET_AL.sub("", after)
    else:
        remainder = head
    if "title" not in out:
        candidate = remainder.strip(" ,.;:")
        candidate = re.sub(r"\(\s*\d{4}\s*\)$", "", candidate).strip(" ,.;:")
        candidate = re.sub(r"^(?:(?:1[89]|20)\d{2}[a-z]?)\s*[,.:]\s*", "", candidate)
        candidate = re.sub(r"^\(\s*\d{4}[a-z]?\s*\)\s*[,.:]?\s*", "", candidate)
        if len(candidate.split()) >= 3:
            if _names_without_separators(candidate):
                out["note"] = candidate.strip(" ,.;:")  # not a title: never compared
            else:
                out["title"] = candidate.strip(" ,.;:")
    if not out:
        out["note"] = text
    return out
