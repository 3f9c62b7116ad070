"""Identifier helpers: DOIs, arXiv ids, INSPIRE texkeys and report numbers.

Pure functions shared by the frontend, the sources and the verifier.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Mapping

logger = logging.getLogger(__name__)

_DOI_PREFIX = re.compile(
    r"^(?:https?://)?(?:dx\.)?(?:www\.)?doi\.org/|^doi:\s*|^https?://doi\.acm\.org/", re.I
)
#: Crossref's recommended DOI syntax check.
DOI_SYNTAX = re.compile(r"^10\.\d{4,9}/[-._;()/:a-z0-9<>\[\]+#%]+$", re.I)
_DOI_IN_TEXT = re.compile(r"\b(10\.\d{4,9}/[^\s\"<>{}\\,]+)", re.I)

NEW_ARXIV = re.compile(r"^(\d{4}\.\d{4,5})(v\d+)?$")
OLD_ARXIV = re.compile(r"^([a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7})(v\d+)?$", re.I)
_ARXIV_URL = re.compile(
    r"^(?:https?://)?(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html|format)/(.+?)(?:\.pdf)?/?$", re.I
)
_ARXIV_IN_TEXT = re.compile(
    r"(?:arxiv\s*:\s*|arxiv\.org/(?:abs|pdf)/)"
    r"((?:\d{4}\.\d{4,5})|(?:[a-z][a-z\-]*(?:\.[A-Z]{2})?/\d{7}))(?:v\d+)?",
    re.I,
)
_BARE_NEW_ARXIV = re.compile(r"(?<![\d./])(\d{4}\.\d{4,5})(?:v\d+)?(?![\d/])")
_OLD_ARXIV_IN_TEXT = re.compile(
    r"\b((?:hep-th|hep-ph|hep-ex|hep-lat|gr-qc|astro-ph|nucl-th|nucl-ex|quant-ph|cond-mat"
    r"|math-ph|physics|math|cs|nlin)(?:\.[A-Z]{2})?/\d{7})(?:v\d+)?\b"
)
#: An arXiv id split by spaces or braces, which arXiv's reference extraction misses
#: (three forms: "arXiv:{...", "1234 .5678" and "hep-th/ 9711200").
_SPLIT_ARXIV_PREFIX = re.compile(r"arxiv\s*:\s*[{}]", re.I)
_SPLIT_NEW_ARXIV = re.compile(
    r"(?<![\d.])\d{4}(?:\s+\.|\.\s+|[{}]+\.|\.[{}]+)\s*\d{4,5}\b", re.I
)
_SPLIT_OLD_ARXIV = re.compile(r"\b[a-z][a-z\-]+\s*/\s+\d{7}\b|\b[a-z][a-z\-]+\s+/\s*\d{7}\b", re.I)
_ARXIV_PREFIX = re.compile(r"^arxiv\s*:\s*", re.I)
_SPACED_ID = re.compile(r"[\w./\-]+(?:\s+[\w./\-]+){1,2}")
_SPACES = re.compile(r"\s+")
_CATEGORY_SUFFIX = re.compile(r"\s*\[[^\]]*\]$")
_TEXKEY = re.compile(r"^[A-Za-z][A-Za-z'\-.]*:\d{4}[a-z]{2,3}$")


def normalize_doi(s: str) -> str:
    """Lower-case DOI without resolver prefix or trailing punctuation ("" when none)."""
    text = s.strip()
    if not text:
        return ""
    text = _DOI_PREFIX.sub("", text).strip()
    # a DOI holds no space: a field of several ("10.1051/a 10.1051/a", INSPIRE's record
    # 1387987, whose line break biber turns into a space) names its first
    first = text.split(maxsplit=1)[0] if text else ""
    if first != text and re.fullmatch(r"10\.\d{4,9}/\S+", first):
        text = first
    text = text.replace("\\_", "_").replace("{", "").replace("}", "")
    text = text.rstrip(".,;")
    return text.lower()


#: arXiv's own DOIs (registered with DataCite since 2022): ``10.48550/arXiv.<id>``.
ARXIV_DOI_PREFIX = "10.48550/arxiv."


def arxiv_of_doi(doi: str) -> str:
    """The arXiv id an arXiv DOI names (``10.48550/arXiv.1608.02575`` -> ``1608.02575``),
    "" for any other DOI.

    Zotero, Better BibTeX and doi.org's BibTeX for arXiv's DOI cite a preprint by this
    DOI; it names the e-print, not the journal version the work may also have, so it
    is compared as an arXiv id."""
    norm = normalize_doi(doi)
    if not norm.startswith(ARXIV_DOI_PREFIX):
        return ""
    ident = normalize_arxiv(norm.removeprefix(ARXIV_DOI_PREFIX))
    return ident if is_arxiv_id(ident) else ""


def doi_is_valid(doi: str) -> bool:
    """True when a normalised DOI matches the DOI syntax."""
    return bool(DOI_SYNTAX.match(doi))


def find_doi(text: str) -> str:
    """The first DOI-looking string in free text, normalised ("" when none)."""
    m = _DOI_IN_TEXT.search(text)
    if not m:
        return ""
    doi = m.group(1)
    # "(doi:10.1016/j.physletb.2008.07.009)": the closing parenthesis is the text's, while
    # "10.1016/0370-2693(83)90138-7" keeps its own
    while doi.endswith(")") and doi.count(")") > doi.count("("):
        doi = doi[:-1]
    return normalize_doi(doi)


def normalize_arxiv(s: str) -> str:
    """An arXiv id without "arXiv:", URL prefix, ``.pdf`` or version.

    Old-style ids keep their archive (``hep-th/9711200``). Returns the
    stripped input unchanged when it is not recognisably an arXiv id.
    """
    text = s.strip().replace("{", "").replace("}", "")
    m = _ARXIV_URL.match(text)
    if m:
        text = m.group(1)
    text = _ARXIV_PREFIX.sub("", text).strip()
    if _SPACED_ID.fullmatch(text) and not text.endswith("]"):
        joined = _SPACES.sub("", text)
        if NEW_ARXIV.match(joined) or OLD_ARXIV.match(joined):
            text = joined
    text = _CATEGORY_SUFFIX.sub("", text)  # "1234.5678 [hep-th]"
    if text.lower().endswith(".pdf"):
        text = text[:-4]
    m = NEW_ARXIV.match(text)
    if m:
        return m.group(1)
    m = OLD_ARXIV.match(text)
    if m:
        return m.group(1)
    return text


def is_arxiv_id(s: str) -> bool:
    """True when ``s`` is a normalised arXiv id (old or new style)."""
    return bool(NEW_ARXIV.match(s) or OLD_ARXIV.match(s))


def find_arxiv(text: str, *, bare: bool = False) -> str:
    """The first arXiv id in free text ("arXiv:...", arxiv.org URL, old-style id).

    With ``bare`` a lone new-style number like ``1207.7214`` also counts.
    """
    m = _ARXIV_IN_TEXT.search(text)
    if m:
        return m.group(1)
    m = _OLD_ARXIV_IN_TEXT.search(text)
    if m:
        return m.group(1)
    if bare:
        m = _BARE_NEW_ARXIV.search(text)
        if m:
            return m.group(1)
    return ""


def has_split_arxiv(text: str) -> bool:
    """True when text holds an arXiv id split by spaces or braces."""
    # each form needs its own punctuation: skip the regex when that is absent
    return bool(("." in text and _SPLIT_NEW_ARXIV.search(text))
                or ("/" in text and _SPLIT_OLD_ARXIV.search(text))
                or (":" in text and _SPLIT_ARXIV_PREFIX.search(text)))


def looks_like_texkey(s: str) -> bool:
    """True for an INSPIRE texkey such as ``Maldacena:1997re``."""
    return bool(_TEXKEY.match(s.strip()))


#: A laboratory or collaboration report number: "CMS-PAS-HIG-11-024",
#: "ATLAS-CONF-2012-093", "CERN-TH-2102", "SLAC-PUB-1234", "DESY 05-123".
_REPORT_NUMBER = re.compile(r"^[A-Z][A-Z0-9]{1,15}(?:[-\s/_][A-Z0-9]{1,15}){1,6}$")
#: BibTeX fields that hold one (INSPIRE exports ``reportNumber``).
REPORT_FIELDS = ("reportnumber", "report", "number")
_REPORT_TYPES = frozenset({"techreport", "report", "misc", "unpublished", "online", "manual"})


def normalize_report_number(s: str) -> str:
    """Upper case, one ``-`` between the parts ("desy 05/123" -> "DESY-05-123")."""
    return "-".join(re.split(r"[-\s/_]+", s.strip().upper()))


def looks_like_report_number(s: str) -> bool:
    """True for a report number (letters, then digits somewhere), not an arXiv id or DOI."""
    text = s.strip().upper()
    if not text or is_arxiv_id(s.strip()) or text.startswith("10.") or "ARXIV" in text:
        return False
    return bool(_REPORT_NUMBER.match(text)) and sum(c.isdigit() for c in text) >= 2 \
        and text[:2].isalpha()


def find_report_number(fields: Mapping[str, str], entry_type: str) -> str:
    """The normalised report number an entry states, or "".

    ``number`` counts only for report-like entry types (an article's ``number`` is
    its issue).
    """
    for name in REPORT_FIELDS:
        if name == "number" and entry_type.lower() not in _REPORT_TYPES:
            continue
        for part in re.split(r"[,;]\s*", fields.get(name, "")):
            if looks_like_report_number(part):
                return normalize_report_number(part)
    return ""
