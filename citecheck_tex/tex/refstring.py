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

from citecheck_tex.tex.gost import gost_reference
from citecheck_tex.vocab.ids import (
    find_arxiv,
    find_doi,
    looks_like_report_number,
    normalize_arxiv,
    normalize_doi,
    normalize_report_number,
)

logger = logging.getLogger(__name__)

_MD = re.compile(r"^\s*(?:[-*+]\s+|\d+[.)]\s+)?\[(?P<inner>.+)\]\((?P<url>[^()\s]+(?:\([^()\s]*\)[^()\s]*)*)\)\s*\.?\s*$", re.S)
_MD_LINK = re.compile(r"\[([^\[\]]+)\]\((https?://[^()\s]+(?:\([^()\s]*\)[^()\s]*)*)\)")
_MD_EMPHASIS = re.compile(r"(?<![\w*])\*{1,2}([^*\n]+?)\*{1,2}(?![\w*])")
_NUMBERING = re.compile(r"^\s*(?:\[\s*\d+\s*\]|\(\s*\d+\s*\)|\d+[.)])\s+")
_URL = re.compile(r"(?:\\url\{)?(https?://[^\s}<>]+)\}?")
_QUOTED = re.compile(r"[\"“”«]([^\"“”«»]{4,}?)[\"“”»]|``(.{4,}?)''|‘(.{4,}?)’")
_YEAR_PAREN = re.compile(r"\(\s*(?:[A-Za-z]{3,9}\.?\s+)?((?:1[89]|20)\d{2})[a-z]?\s*\)")
#: (not the start of a new-style arXiv id: "2003.13913" after aasjournal's "---. 2020b."
#: had given the year 2003)
_YEAR = re.compile(r"(?<![\d./])((?:1[89]|20)\d{2})[a-z]?(?![\d/])(?!\.\d{4,5}\b)")
#: "Phys. Rev. Lett. 95, 251302 (2005)", "JHEP 05 (2020) 123", "Nucl. Phys. B 106, 475".
_JOURNAL_REF = re.compile(
    # (a journal starts a word: "vol.~14YRM2025" holds no journal "YRM")
    r"(?<![\w])(?P<journal>(?:[A-Z][A-Za-z\-]*\.?\s?){1,8}?(?:\s?[A-Z]\b)?)\s*"
    # volume and pages are apart ("95, 251302", "2 (1998) 231", "B106 475"): "COVID-19"
    # is no journal reference
    r"(?:vol\.\s*)?(?P<volume>[A-Z]?\d{1,5}|[A-Z][A-Za-z]{1,}\d{4})\b"
    # an issue number in parentheses (elsarticle "95 (4) (2017) 043541", APA "95(4), ...")
    r"(?:\s*\(\d{1,3}\))?"
    r"(?:\s*\((?P<year1>(?:1[89]|20)\d{2})\))?(?:\s*[,:]\s*|\s+)"
    r"(?:no\.\s*\d+\s*,\s*)?(?:pp?\.\s*)?(?P<pages>[A-Za-z]?\d+(?:\s*[-–]+\s*[A-Za-z]?\d+)?)"
    r"(?:\s*\((?P<year2>(?:1[89]|20)\d{2})\))?"
)
_PUBNOTE = re.compile(r"^\s*(?P<journal>[^,]+?)\s*,\s*(?P<volume>[A-Z]?\d+[A-Za-z]?)\s*,\s*"
                      r"(?P<pages>[A-Za-z]?\d+(?:-\d+)?)\s*(?:\((?P<year>\d{4})\))?\s*$")
#: One initial: "A.", "Yu.", "K.-i.", "J.-P." (hyphenated second parts may be lower case).
#: A lower-case second part may also follow after a space: BibTeX splits "Z.-q. Zhang"
#: (Zhen-qiang) at its hyphen and plain, unsrt, plainnat and apsrev4-2 print "Z. q.
#: Zhang" (the name had not been read: the whole author list became the title, a false
#: title MINOR); one letter only, before a space or a comma, so that no word of a title
#: joins in; or right after the full stop (newcastle's "Hwang, J.c.", Jai-chan; not "N.d.",
#: no date).
_INI = (r"(?:[A-Z\u00C0-\u00DE\u0100-\u017F][a-z]?\.(?:\s*-\s*[A-Za-z][a-z]?\."
        r"|(?:\s+|(?<!N\.))[a-z]\.(?=[\s,;]|$))?"
        r"\s*-?\s*)")  # "Ö.", "Ž."
_INITIALS_FIRST = re.compile(
    r"^" + _INI + r"{1,4}\s*(?:(?:van|von|der|de|la|del|di|da|le|den|ter|ten)\s+)*"
    r"[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+"
    # a second capitalised family word: "E. Di Valentino", "C.H. Llewellyn Smith", also
    # after a particle: "R. Ruiz de Austri", "F.F. Van der Veken" (it was no name: the
    # title then began "and R. Ruiz de Austri, ...": a false author MINOR)
    r"(?:\s+(?:(?:van|von|der|de|la|del|di|da|le|den|dos|das|du|ten|ter)\s+)*"
    r"[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+)?(?:\s+(?:Jr\.?|Sr\.?|III?))?$"
)
_FAMILY_FIRST = re.compile(
    r"^(?:(?:van|von|der|de|la|del|di|da|le|den)\s+)*[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+"
    r"(?:\s+[A-Z][\w'\-]+)?\s*,?\s+" + _INI + r"{1,4}$"
)
_INITIALS_ONLY = re.compile(_INI + r"{1,5}")
# "M.", "Ho, L. C" (the last full stop lost), refextract's "Abhishodh, P"
_INITIALS_OR_BARE = re.compile(_INI + r"{1,5}|[A-Z]{1,2}|(?:[A-Z]\.\s*){1,4}[A-Z]")
_GIVEN_FAMILY = re.compile(r"^(?P<given>" + _INI + r"{1,4})(?P<family>.+)$")
_FAMILY_GIVEN = re.compile(r"^(?P<family>.+?)\s+(?P<given>" + _INI + r"{1,4})$")
#: Surname first, then initials without full stops, as MNRAS/A&A and refextract write
#: them ("Mitra S", "Bekenstein J D", "Lagage PO"): the surname has a lower-case letter,
#: so "JH Chen" (initials first) is not read backwards.
_FAMILY_FIRST_BARE = re.compile(
    r"^(?P<family>(?:(?:van|von|der|de|la|del|di|da|le|den)\s+)*"
    r"[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]*[a-z\u00DF-\u024F][\w'\u2019\u00C0-\u024F\-]*)"
    r"\s+(?P<given>(?:[A-Z]{1,3}\.?(?:-[A-Z]\.?)?(?:\s+|$)){1,3})$"
)
#: Initials without full stops, then the surname: "JH Chen", "G L Klimchitskaya", "R Rapp".
#: (ajl prints "J.-c." of Jai-chan "Jc": a capital and a lower-case consonant, no word)
_INITIALS_FIRST_BARE = re.compile(
    r"^(?P<given>(?:(?:[A-Z]{1,2}|[A-Z](?:\.[A-Z])+\.?|[BCDFGHJKLMNPQRSTVWXZ][bcdfghjklmnpqrstvwxz])"
    r"\s+){1,3})(?P<family>(?:(?:van|von|der|de|la|del|di|da|le|den)\s+)*"
    r"[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]*[a-z\u00DF-\u024F][\w'\u2019\u00C0-\u024F\-]*)$"
)
_FULL_NAME = re.compile(
    r"^[A-Z\u00C0-\u024F][\w'\u00C0-\u024F\-]+(?:\s+[A-Z]\.)?(?:\s+(?:van|von|der|de|la|del|di)"
    r")*\s+[A-Z\u00C0-\u024F][\w'\u00C0-\u024F\-]+$"
)
#: A family name written before its initials, as in "Sharif, M." or "van Putten, M.H.P.M.";
#: a lower-case initial may lead as a particle: BibTeX's von part of "Z.-q. Zhang", which
#: "von Last, First" styles print "q. Zhang, Z." (usmeg-n, mnras; see :data:`_INI`).
_VON_INITIAL = r"[a-z]\.(?=\s+[A-Z\u00C0-\u024F][a-z\u00DF-\u024F])"
_FAMILY_WORD = re.compile(
    r"(?:(?:van|von|der|de|la|del|di|da|le|den|" + _VON_INITIAL + r")\s+)*[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+"
    r"(?:\s+[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+)?"
)
#: A report-number-like token in free text ("CMS-PAS-HIG-11-024", "CERN-TH-2102"): three
#: parts or more, so that "COVID-19" or "VGG-16" in a title stays in the title.
_REPORT_TOKEN = re.compile(
    r"(?<![\w./-])[A-Z][A-Z0-9]*(?:[-/][A-Z0-9]+){2,6}(?![\w/-])(?!\.[\w/-])")
#: (a month's number may come before the year, or no date be printed at all: harvard's
#: hc-en, "(10 2013):", "():")
_APA = re.compile(r"^(?P<authors>[^()]+?)\s*\("
                  r"(?:(?:1[0-2]\s+|0?[1-9]\s+)?(?P<year>(?:1[89]|20)\d{2})[a-z]?)?(?P<close>\))\s*\.?\s*"
                  # (or the title ends the text: cje's "Janik, Romuald A. (1999) `Title'")
                  r"(?P<title>[^.?!]{8,}(?:[.?!]|$))\s*(?P<tail>.*)$")
#: An APA venue: "Physical Review D, 95(4), 043541" (journal, volume, issue, pages).
_APA_VENUE = re.compile(r"^\s*(?P<journal>[A-Z][^,\d]{2,80}?),\s*(?P<volume>\d{1,5})"
                        r"(?:\s*\(\d{1,3}\))?\s*,\s*(?P<pages>[A-Za-z]?\d+(?:\s*[-–]+\s*\d+)?)")
_ET_AL = re.compile(r"\bet\s*\.?\s*al\.?", re.I)
#: The word for "and" between two names in the languages of babel-aware styles (dk-*,
#: dlfltxbbibtex "Christoph Behrens og Jens C. Niemeyer", german "und", swedish "och",
#: spanish "y"), before a capitalised word only, so that a title's words stay whole
#: (the list had ended at the first such name, a false author MINOR).
_OTHER_AND = r"\b(?:und|og|och|y)(?=\s+[A-Z\u00C0-\u00DE])"
_COLLAB = re.compile(r"\b(Collaboration|Collab\.|Consortium|Team|Group)\b", re.I)


#: A family name first, then its initials, in the forms the patterns above miss (mnras's
#: "Family I."): particles "los", "dos" ("de los Rios M."), a particle inside ("Ruiz de
#: Austri R."), "Jr." before the initials ("Ford Jr. W. K.", read as an initial "Jr."),
#: a capital beyond Latin-1 ("Ivezić Ž."), a given name's particle ("Almeida E. d. S.").
_WIDE_PARTICLE = (r"(?:van|von|der|den|de|del|della|di|da|do|dos|das|du|la|le|los|las|ter|ten|"
                  + _VON_INITIAL + ")")
_WIDE_WORD = r"[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+"
_WIDE_INI = r"(?:[A-Z\u00C0-\u00DE\u0100-\u017F][a-z]?\.(?:\s*-\s*[A-Za-z][a-z]?\.)?\s*)"
_FAMILY_FIRST_WIDE = re.compile(
    rf"^(?P<family>(?:{_WIDE_PARTICLE}\s+)*(?!(?:Jr|Sr)\b){_WIDE_WORD}"
    rf"(?:\s+(?:(?:{_WIDE_PARTICLE}|e|y)\s+)*(?!(?:Jr|Sr)\b){_WIDE_WORD}){{0,2}})"
    rf"(?:\s+(?P<jr>Jr\.?|Sr\.?|II|III|IV))?\s+"
    # (a lower-case initial after a space: "Gonçalves J. a."; apsr's "Wu. N.d." is no name)
    rf"(?P<given>{_WIDE_INI}(?:{_WIDE_INI}|(?<=\s)[a-z]\.\s*){{0,4}})$")


def _wide_family_first(piece: str) -> str | None:
    """``piece`` as BibTeX's "Family, Jr., I." when it is a :data:`_FAMILY_FIRST_WIDE`
    name that the narrower patterns miss or misread (a "Jr."), else None."""
    m = _FAMILY_FIRST_WIDE.match(piece)
    if m is None or (not m.group("jr") and _FAMILY_FIRST.match(piece)):
        return None
    return ", ".join(x.strip() for x in (m.group("family"), m.group("jr") or "",
                                         m.group("given")) if x)


def _spaced_initials(piece: str) -> str:
    """"D.Aloni" -> "D. Aloni", "A.J.Krasznahorkay" -> "A.J. Krasznahorkay"."""
    return re.sub(r"(?<![A-Za-z])([A-Z]\.)(?=[A-Z\u00C0-\u024F][a-z\u00DF-\u024F])", r"\1 ", piece)


def _looks_like_name(piece: str) -> bool:
    p = _spaced_initials(piece.strip())
    if not p or any(ch.isdigit() for ch in p):
        return False
    if _FAMILY_FIRST_WIDE.match(p):  # (up to four family words and five initials)
        return True
    if len(p.split()) > 5:
        return False
    return bool(_INITIALS_FIRST.match(p) or _FAMILY_FIRST.match(p) or _FULL_NAME.match(p)
                or _FAMILY_FIRST_BARE.match(p)
                or (_COLLAB.search(p) and len(p.split()) <= 4))


def _is_initialled_name(piece: str) -> bool:
    p = _spaced_initials(piece.strip())
    return bool(_INITIALS_FIRST.match(p) or _FAMILY_FIRST.match(p) or _FAMILY_FIRST_BARE.match(p))


def all_names(segment: str) -> bool:
    """True when every piece of an author segment reads as a name (or initials)."""
    seg = _ET_AL.sub(",", segment)
    if _semicolon_names(seg) is not None:
        return True
    pieces = [p.strip() for p in re.split(rf",|;|\band\b|&|{_OTHER_AND}", seg) if p.strip()]
    return bool(pieces) and all(_looks_like_name(p) or _INITIALS_ONLY.fullmatch(p)
                                or _FAMILY_WORD.fullmatch(p) for p in pieces)


def _bibtex_name(piece: str) -> str:
    """One name as BibTeX reads it: surname-first forms get their comma
    ("Curti M." -> "Curti, M.", "Bekenstein J D" -> "Bekenstein, J D")."""
    p = _spaced_initials(piece.strip())
    if re.fullmatch(r"The\s+[A-Z][A-Z0-9\-]{1,}", p):  # "The ATLAS": a collaboration
        return f"{p} Collaboration"
    if "," in p or _COLLAB.search(p):
        return p
    if _INITIALS_FIRST.match(p):
        m = _GIVEN_FAMILY.match(p)
        # "M. Della Morte", "C.H. Llewellyn Smith": BibTeX would read "Della" as a given
        # name; the initials say where the family name starts
        if m and len(m.group("family").split()) > 1 and not re.search(
                r"\s(?:Jr\.?|Sr\.?|III?)$", m.group("family")) and m.group("family")[0].isupper():
            return f"{m.group('family').strip()}, {m.group('given').strip()}"
        if m and re.search(r"\s[a-z]\.", m.group("given")):
            # "C. d. P. Lagos": BibTeX would take "d." for a particle and "P. Lagos" for
            # the family name; the initials say where the family name starts
            return f"{m.group('family').strip()}, {m.group('given').strip()}"
        return p
    m = _FAMILY_FIRST_BARE.match(p)
    if m:
        return f"{m.group('family')}, {m.group('given').strip()}"
    wide = _wide_family_first(p)
    if wide is not None:
        return wide
    m = _FAMILY_GIVEN.match(p)
    if m and _FAMILY_FIRST.match(p):
        return f"{m.group('family')}, {m.group('given').strip()}"
    return _loose_initials_first(p)


def _loose_initials_first(piece: str) -> str:
    """An initials-first name with a lower-case initial, or a family name with a
    particle after its first word, as "Family, Given": "C. d. P. Lagos" -> "Lagos, C. d.
    P.", "R. R. Ruiz de Austri Bazan" -> "Ruiz de Austri Bazan, R. R." (BibTeX would read
    "d." as a particle and "P. Lagos" as the family name, or "Ruiz" as a given name: false
    MINORs; the initials say where the family name starts). Any other piece as it is."""
    m = re.fullmatch(r"(?P<given>(?:[^\W\d_]{1,2}\.\s*)+)(?P<family>[^\W\d_][^.,]*)", piece)
    if m is None or not (any(w[:1].islower() for w in m.group("given").split())
                         or any(w[:1].islower() for w in m.group("family").split()[1:-1])):
        return piece
    return f"{m.group('family').strip()}, {m.group('given').strip()}"


def _semicolon_names(seg: str) -> list[str] | None:
    """The names of a list that semicolons separate, each a whole name in BibTeX's form:
    the first inverted and the others in natural order (harvard's hc-en, hc-de: "Hanada,
    Masanori; Yoshinori Matsuo; and Takeshi Morita", "Noh, H.; C.-G. Park; and J.-c.
    Hwang"), or all inverted (ACS: "Hui, L.; Ostriker, J. P."). None when ``seg`` has no
    semicolon or a piece is no name (every comma had split a name: "Masanori; Yoshinori
    Matsuo" read as one person, a false author MINOR)."""
    if ";" not in seg:
        return None
    # (the last two joined by a word instead: hc-de's "...; Yoshinori Matsuo und Takeshi
    # Morita")
    pieces = [p.strip(" ,") for p in re.split(rf";|\s(?:and|&)\s|{_OTHER_AND}", seg)
              if p.strip(" ,")]
    names: list[str] = []
    for p in pieces:
        if "," in p:
            family, _, given = p.partition(",")
            if not (_FAMILY_WORD.fullmatch(family.strip())
                    and (_INITIALS_OR_BARE.fullmatch(given.strip())
                         or re.fullmatch(_GIVEN_NAMES, given.strip()))
                    or _looks_like_name(p)):
                return None
            names.append(f"{family.strip()}, {given.strip()}")
        elif _looks_like_name(p) or re.fullmatch(_NATURAL_NAME, p):  # "Hans Günter Dosch"
            names.append(_bibtex_name(p))
        else:
            return None
    return names or None


def _authors_from(segment: str) -> tuple[list[str], bool]:
    """Names from an author segment; the flag is True for "et al."."""
    truncated = bool(_ET_AL.search(segment))
    seg = _ET_AL.sub("", segment)
    whole = _semicolon_names(seg)
    if whole is not None:
        return _unique_persons(whole), truncated
    seg = re.sub(rf"\s*(?:,\s*)?(?:\band\b|&|\be(?=\s+[A-Z]\.)|{_OTHER_AND})\s*", ", ", seg)
    pieces = [p.strip(" .;") + ("." if p.strip().endswith(".") and
                                re.search(r"\b[^\W\d_]\.$", p.strip()) else "")  # "J.-c.", "Ž."
              for p in seg.split(",")]
    pieces = [q for p in pieces if p.strip(" :") for q in (_split_name_run(p.strip(" :"))
                                                           or [p.strip(" :")])]
    pieces = _suffixes_joined(pieces)
    paired = inverted_pairs(pieces, segment)
    if paired is not None:
        return _unique_persons(paired), truncated
    names: list[str] = []
    i = 0
    while i < len(pieces):
        p = pieces[i]
        nxt = pieces[i + 1] if i + 1 < len(pieces) else ""
        # "Family, I." written with a comma between family and initials
        if ((re.fullmatch(r"[A-Z\u00C0-\u024F][\w'\u00C0-\u024F\-]+(?:\s+[\w'\-]+)?", p)
             or _FAMILY_WORD.fullmatch(p))
                and _INITIALS_OR_BARE.fullmatch(nxt)):
            names.append(f"{p}, {nxt}")
            i += 2
            continue
        names.append(_bibtex_name(p))
        i += 1
    return _unique_persons(names), truncated


def inverted_pairs(pieces: list[str], text: str) -> list[str] | None:
    """Whole names of a list that inverts every name and writes the given names out,
    split at its commas: ["Brodsky", "Stanley J.", "de Téramond", "Guy F."] ->
    ["Brodsky, Stanley J.", "de Téramond, Guy F."] (asmeconf, authordate1-4: "Brodsky,
    Stanley J., de Téramond, Guy F. and Dosch, Hans Günter"; each comma had split a name
    in two, a false author MINOR). Only when every odd piece is one family word (after
    its particles) and every even one given names: in a list that inverts the first name
    alone ("Du, Xiaolong, Christoph Behrens, and Jens C. Niemeyer") a later piece holds
    two words; None otherwise. In ``text``, the list as written, a comma must part
    each family name from its given names ("Bean & Melchiorri" are two people)."""
    if len(pieces) < 2 or len(pieces) % 2:
        return None
    families, givens = pieces[0::2], pieces[1::2]
    # (a list's last initial loses its full stop to the list's own: "Kosower, David A.")
    if not all(re.search(re.escape(f) + r"\s*,\s*" + re.escape(g), text)
               for f, g in zip(families, givens, strict=True)):
        return None
    # (not a hyphenated name's last part: "Tan, Chung-I")
    givens = [g + "." if re.search(r"(?:^|(?<=\s))[A-Z]$", g) else g for g in givens]
    if not all(re.fullmatch(_FIRST_FAMILY, f) for f in families) or not all(
            re.fullmatch(_GIVEN_NAMES, g) for g in givens):
        return None
    return [f"{f}, {g}" for f, g in zip(families, givens, strict=True)]


_SUFFIX = re.compile(r"(?:Jr|Sr)\.?|I{2,3}|IV")


def _suffixes_joined(pieces: list[str]) -> list[str]:
    """Name pieces with a suffix piece ("Jr.", "III") joined to the name it ends, in
    BibTeX's "von Last, Jr, First": "W. K. Ford, Jr." (ieeetr) and "Ford, W. K., Jr."
    -> "Ford, Jr., W. K.". The suffix had been read as one more author "Jr" (a false
    MINOR)."""
    out: list[str] = []
    for p in pieces:
        if not (_SUFFIX.fullmatch(p) and out):
            out.append(p)
            continue
        jr = p if p.endswith(".") or p.startswith("I") else f"{p}."
        prev = _spaced_initials(out[-1])
        m = _GIVEN_FAMILY.match(prev)
        if m and not _INITIALS_ONLY.fullmatch(prev):
            out[-1] = f"{m.group('family').strip()}, {jr}, {m.group('given').strip()}"
        elif len(out) >= 2 and _INITIALS_OR_BARE.fullmatch(prev) \
                and _FAMILY_WORD.fullmatch(out[-2]):
            given = out.pop()
            out[-1] = f"{out[-1]}, {jr}, {given}"
        else:
            out.append(p)
    return out


def _person_key(name: str) -> tuple[str, str]:
    """(family, initials) of one name, as :func:`_unique_persons` compares them."""
    if "," in name:
        fam, given = (x.strip() for x in name.split(",", 1))
    else:
        bits = name.split()
        fam, given = (bits[-1], " ".join(bits[:-1])) if len(bits) > 1 else (name, "")
    return _compact(fam), "".join(w[0] for w in re.split(r"[\s.\-]+", given) if w).lower()


def _kin_after(names: list[str], pos: int) -> bool:
    """True when ``names[pos]`` follows a name of its own family with compatible initials
    and the list does not start over there: two people in a row ("M.~M. {Tanaka},
    M.~{Tanaka}"; "K.~Kim, K.~Kim" for Kukhee and Kuktae Kim), not a repeat. Reference
    extraction repeats a whole list ("S. P. Martin, S. P. Martin"), so a repeat that
    follows its original starts the list over. The second had been dropped: a false
    MINOR."""
    if pos == 0:
        return False
    keys = [_person_key(n) for n in names]

    def same(a: tuple[str, str], b: tuple[str, str]) -> bool:
        return a[0] == b[0] and (a[1].startswith(b[1]) or b[1].startswith(a[1]))

    if not same(keys[pos - 1], keys[pos]):
        return False
    return not all(same(a, b) for a, b in zip(keys[pos:], keys, strict=False))


def _unique_persons(names: list[str]) -> list[str]:
    """Names without the repeats reference extraction leaves ("S. P. Martin, S. P. Martin";
    "R Alonso, ..., R. Alonso"): one family name with compatible initials (one's
    initials the start of the other's) is one person; "V.I. Baranov, V.T. Baranov"
    are two. The same name written the same way twice, apart, is two people ("Y. Zhu,
    C. Zhu, ..., Y. Zhu" of one collaboration; dropping one had made a false MINOR)."""
    out: list[str] = []
    seen: list[tuple[str, str]] = []
    for pos, n in enumerate(names):
        if out and n in out and out[-1] != n:
            out.append(n)
            continue
        if "," in n:
            fam, given = (x.strip() for x in n.split(",", 1))
        else:
            bits = n.split()
            fam, given = (bits[-1], " ".join(bits[:-1])) if len(bits) > 1 else (n, "")
        initials = "".join(w[0] for w in re.split(r"[\s.\-]+", given) if w).lower()
        key = (_compact(fam), initials)
        if key[0] and any(f == key[0] and (i.startswith(initials) or initials.startswith(i))
                          and not _kin_after(names, pos) for f, i in seen):
            continue
        seen.append(key)
        out.append(n)
    return out


_TITLE_WORDS = frozenset("a an and at by for from in into of on or the to with".split())
_PARTICLES = frozenset("van von der den de del della di da dos du la le ter".split())


def _names_without_separators(text: str) -> bool:
    """True for an author list that lost its commas ("G Bélanger F Boudjema A Pukhov",
    as reference extraction sometimes leaves them): every word capitalised, no title
    word ("of", "the"), and many of them bare initials. Such text is no title."""
    words = text.replace(".", " ").split()
    # "A" is an initial inside a list of names, the article only at the start
    # surname particles ("Dias de Deus") are the only lower-case words allowed
    if len(words) < 3 or words[0] == "A" or any(
            (w.lower() in _TITLE_WORDS and w != "A")
            or (not w[0].isupper() and w not in _PARTICLES) for w in words):
        return False
    initials = sum(1 for w in words if len(w) <= 2 and w.isupper())
    return initials * 3 >= len(words)


_BARE_INITIAL = re.compile(r"(?:[A-Z]{1,3}|[A-Z][a-z]?\.(?:-?[A-Z][a-z]?\.)*)")


def _split_name_run(piece: str) -> list[str] | None:
    """Names run together without commas, initials first ("G Bélanger F Boudjema A Pukhov",
    "C. Andrés J. Dias de Deus A. Moscoso"), as reference extraction leaves them; None
    unless the whole piece reads as two names or more."""
    tokens = piece.split()
    names: list[str] = []
    i = 0
    while i < len(tokens):
        start = i
        while i < len(tokens) and _BARE_INITIAL.fullmatch(tokens[i]):
            i += 1
        if i == start or i - start > 3:
            return None
        fam_start = i
        while i < len(tokens) and not _BARE_INITIAL.fullmatch(tokens[i]):
            t = tokens[i]
            if not (t in _PARTICLES or re.fullmatch(
                    r"[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]*[a-z\u00DF-\u024F][\w'\u2019\u00C0-\u024F\-]*", t)):
                return None
            i += 1
        if i == fam_start or i - fam_start > 3:
            return None
        names.append(" ".join(tokens[start:i]))
    if len(names) == 2 and tokens[0] in ("A", "I"):
        return None  # "A Large N Expansion" is a title
    return names if len(names) >= 2 else None


def _bibtex_authors(names: list[str], truncated: bool) -> str:
    out = [("{" + n + "}") if _COLLAB.search(n) else n for n in names]
    if truncated:
        out.append("others")
    return " and ".join(out)


_ARXIV_PAGE_TITLE = re.compile(r"(?:^|(?<=\s))\[(\d{4}\.\d{4,5}(?:v\d+)?)\]")
_DOI_LEAD = re.compile(r"doi\s*:?\s*$", re.I)
_ARXIV_LEAD = re.compile(r"arxiv\s*:\s*$", re.I)
_ID_TAIL = re.compile(r"(?:v\d+)?(?:\s*\[[^\]]*\])?")


def _cut_id(text: str, ident: str, lead: re.Pattern[str] | None,
            tail: re.Pattern[str] | None) -> str:
    """``text`` without every occurrence of ``ident`` (any case), with the label before
    it ("doi:", "arXiv:") and the version or category after it. Fixed patterns: one
    compiled per identifier would crowd the other patterns out of ``re``'s cache."""
    key = ident.lower()
    while True:
        j = text.lower().find(key)
        if j < 0 or not key:
            return text
        start, end = j, j + len(key)
        if lead is not None:
            m = lead.search(text, 0, j)
            if m:
                start = m.start()
        if tail is not None:
            m = tail.match(text, end)
            if m:
                end = m.end()
        text = text[:start] + " " + text[end:]


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
    page = _ARXIV_PAGE_TITLE.search(text)
    if page and normalize_arxiv(page.group(1)):  # "[2409.18194] Title": arXiv's page titles
        out.setdefault("eprint", normalize_arxiv(page.group(1)))
        text = text[:page.start()] + " " + text[page.end():]
    doi = find_doi(text)
    if doi:
        out.setdefault("doi", doi)
        text = _cut_id(text, doi, _DOI_LEAD, None)
        # (francais prints the DOI between the volume and the page: "Phys. Rev. D, vol.
        # 96, DOI, p. 055017"; the comma it leaves had kept the venue from being read)
        text = re.sub(r",\s*,(?=\s*pp?\.\s*\d)", ",", text)
    arxiv = find_arxiv(text)
    if arxiv:
        out.setdefault("eprint", arxiv)
        text = _cut_id(text, arxiv, _ARXIV_LEAD, _ID_TAIL)
    for m in _REPORT_TOKEN.finditer(text):
        if looks_like_report_number(m.group(0)):
            out["reportnumber"] = normalize_report_number(m.group(0))
            text = text[:m.start()] + " " + text[m.end():]
            break
    if re.search(r"\barxiv\b|\be-?print\b|\bpreprint\b", text, re.I) and "eprint" not in out:
        bare = find_arxiv(text, bare=True)
        if bare:
            out.setdefault("eprint", bare)
            text = _cut_id(text, bare, None, _ID_TAIL)
    return text


#: Leftovers of publisher and database pages: link labels ("[INSPIRE]", "[ADS]",
#: "[arXiv]", "[Google Scholar]"), "Crossref:"/"ADS:" stubs, ADS bibcodes
#: ("2017MNRAS.465..547P", 19 characters), MathSciNet and zbMATH numbers
#: ("MR0102094 (21 #889)", "MR1453071 (98d:58081)"). None of it is title or author.
_NOISE = re.compile(
    r"\[\s*(?:INSPIRE|ADS|arXiv|Google\s+Scholar|Cross[Rr]ef|PubMed|MathSciNet|Medline|"
    r"Web\s+of\s+Science|CAS|SPIRES|ISI|Scopus|Full\s+Text|Abstract|PDF|Article|MR|zbMATH|"
    r"Zentralblatt)\s*\]"
    r"|\b(?:Cross[Rr]ef|ADS|Preprint|Google\s+Scholar|PubMed)\s*:(?!\s*\d)"
    r"|(?<![\w.])(?:1[89]|20)\d\d[A-Za-z&][A-Za-z&.]{4}[\d.]{4}[A-Za-z.][\dA-Za-z.]{4}[A-Z](?![\w.])"
    r"|(?:Mathematical\s+Reviews\s*\(MathSciNet\)\s*:\s*)?\bMR\s?\d{5,8}"
    r"(?:\s*\(\s*\d+[a-z]?\s*[:#]\s*\d+\s*\)|\s*\(\s*\d+\s*#\s*\d+\s*\))?"
    r"|\b(?:Zentralblatt\s+MATH|Zbl)\s*:?\s*\d{4}\.?\d{5}"
    r"|\bDigital\s+Object\s+Identifier\s*:?"
    # natbib's year of an entry without one: "Capossoli, E. F. (????). Title", pnas2009's
    # "(year?)"; bare after the names' full stop (ajae: "McInnes, B., and Y.C. Ong. ????
    # “Title.”"); before a title without a full stop it is an empty date, see _NO_DATE
    r"|\(\s*(?:\?{4}|year\?|n\.\s?d\.)\s*\)|(?<=\.)\s+\?{4}(?!\S)"
    # ABNT's marks of an unknown place and publisher (sine loco, sine nomine), after an
    # empty "In: ." where a @misc has no booktitle (abntex2: "Title. In: . [S.l.: s.n.], 2013")
    r"|(?:\bIn:\s*\.\s*)?\[\s*S\.\s?l\.\s*(?::\s*s\.\s?n\.\s*)?\]|\[\s*s\.\s?n\.\s*\]"
    r"|\bURL\b|\[\s*(?:arXiv|INSPIRE|ADS)\b(?![^\[]*\])"
    # labels of neighbouring references left in the text ("[51] [52]")
    r"|(?<!\S)\[\d{1,3}\](?!\S)"
    # ADS writes preprints as the journal "ArXiv e-prints" (optionally with a month)
    r"|\b(?:ArXiv|arXiv)\s+e-prints(?:\s*\((?:[A-Z][a-z]{2,8}\.?,?)\)|\s*\.)?"
)


#: A bibcode refextract cut at the front ("hLB..759..402K", "NRAS..71..460P",
#: "1284.14051CMaPh.324..937C"), matched against one whitespace-delimited token of at
#: most 30 characters (a pattern over the whole text backtracks badly on long tokens).
_CUT_BIBCODE = re.compile(r"(?:\d{4}\.\d{5})?[\w&.]{0,12}\.\.[\w&.]{0,12}\d[\w&.]{0,8}[A-Z][,;]?")
#: MathSciNet and zbMATH numbers next to such a bibcode ("3398915", "1331.81317").
_REVIEW_NUMBER = re.compile(r"\d{7}[,;]?|\d{4}\.\d{5}[,;]?")


#: The date of an entry without one, in parentheses, that the title follows with no
#: stop: natbib's "(????)", "(year?)", "(n.d.)"; read as "()", an empty date (dropped, the
#: names had run into the title: regstud's "McInnes B. and Ong Y.~C. (????) Title";
#: adfathesis's "McInnes B and Ong Y~C (n.d.) . Title", its full stop apart).
_NO_DATE = re.compile(r"\(\s*(?:\?{4}|year\?|n\.\s?d\.)\s*\)(?=\s+[^\s.,:;]|\s+\.\s)")
_LONE_STOP = re.compile(r"(?<=\.)\s+\.(?=\s)")


def _strip_noise(text: str) -> str:
    """Remove what publisher pages and databases add to a reference (see ``_NOISE`` and
    ``_CUT_BIBCODE``)."""
    # (a full stop left alone after the date is dropped: erae's "Ong, Y. C. (????). Title"
    # had become "Ong, Y. C. . Title", names no rule reads)
    text = _LONE_STOP.sub("", _NOISE.sub(" ", text))
    if ".." not in text:
        return text
    tokens = text.split(" ")
    drop = [len(t) <= 30 and bool(_CUT_BIBCODE.fullmatch(t)) for t in tokens]
    for i, t in enumerate(tokens):  # review numbers only beside a cut bibcode
        if not drop[i] and _REVIEW_NUMBER.fullmatch(t) and any(
                drop[j] for j in range(max(0, i - 2), min(len(tokens), i + 3)) if j != i):
            drop[i] = True
    return " ".join(t if not d else (", " if t.endswith((",", ";")) else " ")
                    for t, d in zip(tokens, drop, strict=True))


#: A volume and first page as they follow a journal name: "95, 251302",
#: "04 (2025) 012", "448, 792" (MNRAS/A&A style), "B106, 475", "LATTICE2013, 395",
#: "11, e0147451", "811, L12".
_VOL_PAGES = re.compile(
    r"(?P<sep>\s*,\s*|\s+)(?:vol\.\s*)?(?P<volume>[A-Z]?\d{1,5}[A-Z]?|[A-Z][A-Za-z\-]{1,}\d{4})\b"
    # an issue in parentheses (elsarticle-num "116~(16) (2016) 161804")
    # (worlddev's "116(16), (2016), 161804": a comma before the year in parentheses)
    r"(?:\s*\(\d{1,3}\)(?=\s*,?\s*\((?:1[89]|20)\d{2}))?"
    r"(?:\s*,?\s*\((?P<year1>(?:1[89]|20)\d{2})[a-z]?\))?(?:\s*[,:]\s*|\s+)"
    r"(?:no\.\s*\d+\s*,\s*)?(?:pp?\.\s*)?"
    r"(?P<pages>[A-Za-z]{0,2}\d+(?::\d+)?(?:\s*[-–]+\s*[A-Za-z]?\d+(?::\d+)?)?)(?![\w.]*\d)"
    r"(?:\s*\((?P<year2>(?:1[89]|20)\d{2})[a-z]?\))?"
)
_JOURNAL_SMALL_WORDS = frozenset(
    "of the and in for on de der des und et la le di del della fur für e-print e-prints".split())
#: The longest journal name tried before a volume, in words.
_MAX_JOURNAL_WORDS = 12


#: An event's name that goes on with a subject: "International Conference on", "Workshop
#: of", "Symposium on" (what follows names the subject, not a journal).
_EVENT_BEFORE = re.compile(r"\b(?:Conference|Workshop|Symposium|Congress|Colloquium|School|"
                           r"Meeting)\s+(?:on|of|in)\s+(?:the\s+)?$", re.I)


def _known_journal_before(text: str, end: int, start: int) -> int | None:
    """Start of the longest known journal name that ends at ``end`` (None if none).

    Known means in INSPIRE's or Crossref's journal tables, so names with commas,
    colons or "of" ("Journal of High Energy Physics", "J. Phys. A: Math. Theor.",
    "Monthly Notices of the Royal Astronomical Society") are read whole.
    """
    from citecheck_tex.vocab.journals import abbreviated_words, is_known_journal

    words = list(re.finditer(r"\S+", text[start:end]))[-_MAX_JOURNAL_WORDS:]
    # journal names are capitalised but for short words ("Journal of ..."): a longer
    # candidate than the last lower-case word allows is never looked up
    first = 0
    for k in range(len(words) - 1, -1, -1):
        w0 = words[k].group(0)
        if w0[0].islower() and w0.lower().strip(",.:;") not in _JOURNAL_SMALL_WORDS:
            first = k + 1
            break
    for k, w in enumerate(words[first:], start=first):
        cand = text[start + w.start():end].strip(" ,;:")
        if (not cand or not (cand[0].isupper() or cand.startswith("e-"))
                or not re.search(r"[A-Za-z][A-Za-z&]", cand) or w.group(0)[-1] in ",:"
                or (".: " in cand and not is_known_journal(cand))  # "Mach. Learn.: Sci. Technol."
                or cand.lower().startswith(("and ", "in "))):
            continue  # "R.A.: Nobel Lecture: ..." ends an author list, begins no journal
            # (two letters, or "A&A" and "Ap&SS" of the AAS macros)
        if is_known_journal(cand):
            if _EVENT_BEFORE.search(text, 0, start + w.start()):
                # "Proceedings of the 32nd International Conference on Machine Learning":
                # a journal's name ("Machine Learning") ending an event's is no journal
                return -1
            prev = words[k - 1].group(0) if k else ""
            if k and " " not in cand and (prev in abbreviated_words()
                                          or re.fullmatch(r"(?:[A-Z][a-z]*\.){2,}[A-Z]?[a-z]*", prev)):
                # "Commun. Appl. Math. Comput. Sci.", "Comput.Softw.Big Sci.": a known
                # one-word tail ("Sci.") of an unknown abbreviated name is not the journal
                return -1
            return start + w.start()
    return None


#: A page or a page range of a proceedings venue, AAS abstracts' "245.05" included.
#: ACM's article-numbered pages too ("12:1--12:11": article 12, pages 1 to 11), and a range
#: without its end ("pp. 429--.", a .bib's "429--").
PAGE_RANGE = r"\w+(?:[.:]\w+)?(?:\s*[-–]+\s*(?:\w+(?::\w+)?)?)?"


def dashes(pages: str) -> str:
    """A page range with one plain hyphen: "677 – 681" -> "677-681"."""
    return re.sub(r"\s*[-–]+\s*", "-", pages)


def _find_journal_ref(text: str, start: int) -> tuple[int, int, dict[str, str]] | None:
    """The first "known journal, volume, page" after ``start``: (start, end, fields)."""
    for m in _VOL_PAGES.finditer(text, start):
        if _month_year(m) and not m.group("year1") and not m.group("year2"):
            continue
        jstart = _known_journal_before(text, m.start(), start)
        if jstart is None:
            continue
        if jstart < 0:
            return None
        journal = text[jstart:m.start()].strip(" ,;:")
        fields = {"journal": journal, "volume": m.group("volume"),
                  "pages": dashes(m.group("pages"))}
        year = m.group("year1") or m.group("year2")
        if year:
            fields["year"] = year
        end = m.end()
        after = _YEAR_FIRST_PAGES.match(text, end)
        if after and not year and _YEAR_LIKE.fullmatch(fields["volume"]):
            # ACS "Phys. Rev. D 2017, 95, 043541", RSC "Phys. Lett. B, 2016, 753, 677":
            # the year comes first (read as volume 2017, pages 95: a false MINOR)
            fields = {"journal": journal, "year": fields["volume"], "volume": fields["pages"],
                      "pages": dashes(after.group("pages"))}
            end = after.end()
        return jstart, end, fields
    return None


_YEAR_LIKE = re.compile(r"(?:1[89]|20)\d\d")
_YEAR_FIRST_PAGES = re.compile(r"\s*,\s*(?P<pages>[A-Za-z]?\d+(?:\s*[-–]+\s*[A-Za-z]?\d+)?)\b")


def _parse_markdown(inner: str, url: str) -> dict[str, str]:
    out: dict[str, str] = {}
    _take_ids(url, out)
    if "url" not in out and "doi" not in out and "eprint" not in out:
        out["url"] = url
    out.setdefault("url", url)
    page = _ARXIV_PAGE_TITLE.match(inner.strip())
    if page and normalize_arxiv(page.group(1)):  # "[[2409.18194] Title](https://arxiv.org/...)"
        out.setdefault("eprint", normalize_arxiv(page.group(1)))
        inner = inner.strip()[page.end():]
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


def parse_issue(fields: dict[str, str]) -> str:
    """Why the fields read from a free-text reference are not to be trusted, or "".

    A reference whose DOI, arXiv id or journal reference was read is identified by
    it, but a verdict that calls it fabricated or hijacked needs its title and
    authors too: when neither was read, or the title holds what looks like names or
    leftovers, the verifier must say it could not read the reference (UNVERIFIED)
    rather than MAJOR. The reason is a short phrase for the report.
    """
    title = fields.get("title", "")
    if not title and not fields.get("author"):
        return "neither authors nor a title could be read"
    first = re.split(r",|;|:\s", title, maxsplit=1)[0].strip()
    # a page or article number that reference extraction left before the repeated names
    # ("074015 S. Höche, Y. Li, S. Prestel") is no start of a title
    first = re.sub(r"^\d{3,}\s+(?=[A-Z])", "", first)
    if title and (_ET_AL.search(title) or re.match(r"(?:and|&)\s", title)
                  or _names_without_separators(re.sub(r",|\band\b|&", " ", title))
                  or ("," in title and (_split_name_run(first) is not None
                                        or _INITIALS_FIRST_BARE.match(first)
                                        or _INITIALS_FIRST.match(first)))):
        return "the title read looks like part of the author list"
    if title and _repeats(title):
        return "the title read repeats text (reference-extraction leftovers)"
    note = fields.get("note", "")
    if note and not title:
        return f"text left unread: {note[:60]!r}"
    return ""


#: An abbreviated journal that ends a title's text after its full stop: ". Phys. Dark Univ".
_ABBREVIATED_JOURNAL_END = re.compile(
    r"\.\s+(?P<journal>(?=[^.]*[A-Za-z]\.\s)[A-Z][A-Za-z]*\.?(?:\s+[A-Z][A-Za-z]*\.?){0,5})\.?$")
#: A dash for a repeated name that other names follow: "---, Li, D. and Wu, Y.-L.".
_REPEATED_FIRST_NAME = re.compile(r"^(?:[\u2014\u2013]|-{2,3})\s*,\s*\S")


def parse_reference(text: str) -> dict[str, str]:
    """Parse one free-text reference into BibTeX-like fields.

    Keys among: author (BibTeX "A. Author and B. Author", "and others" for et
    al.), title, journal, volume, pages, year, doi, eprint, url, note. Never
    raises; unparsed text is left in ``note`` when nothing else was found.
    """
    try:
        fields = _parse(text)
        title = fields.get("title", "")
        if title and not fields.keys() & {"journal", "volume", "pages", "booktitle"} and (
                tv := _TITLE_VOLUME_PAGES.search(title)):
            # a journal-less "Title 760: 110" (erae, dcu: biblatex's journaltitle, which
            # bibtex ignores): the volume and page end the text read as the title
            fields.update({k: dashes(v) for k, v in tv.groupdict().items()})
            fields["title"] = title[:tv.start()].strip(" ,.;:")
            abbreviated = _ABBREVIATED_JOURNAL_END.search(fields["title"])
            if abbreviated:  # plain's "Title. Phys. Dark Univ., 15:135" (a journal the
                # tables lack): the journal, not the title's end
                fields["journal"] = abbreviated.group("journal").strip(" ,")
                fields["title"] = fields["title"][:abbreviated.start()].strip(" ,.;:")
        if title and " " not in title and "reportnumber" not in fields \
                and looks_like_report_number(title):
            # "J. Devan, (2015), FERMILAB-Thesis-2015-29" (INSPIRE's reference strings): a
            # report number alone after the year is no title (searched as one, nothing
            # matched: a false MAJOR of a real thesis)
            fields["reportnumber"] = normalize_report_number(fields.pop("title"))
        if _REPEATED_FIRST_NAME.match(_NUMBERING.sub("", " ".join(text.split()))):
            # "---, Li, D. and Wu, Y.-L. (). Title" (ecca): the dash stands for the first
            # name of the item before, which this text does not give; the names read
            # would lack it (a false author MINOR), so none are compared
            fields.pop("author", None)
        return fields
    except Exception:  # noqa: BLE001 - a rule bug must not stop a run
        logger.debug("parse_reference failed on %r", text, exc_info=True)
        return {"note": " ".join(text.split())}


#: MNRAS/A&A: "..., 2011, Stoch. Proc. Appl., 116, 267": a year, then the journal, volume
#: and page separated by commas (journals the tables do not know included; an ordinal in
#: a proceedings' name: "2015, Proceedings of the 32nd International Conference on Machine
#: Learning, 37, 1530", whose event's name had been read as the title, a false MAJOR).
_COMMA_VENUE = re.compile(
    r"(?:^|,\s*)(?P<year>(?:1[89]|20)\d{2})[a-z]?,\s*"
    r"(?P<journal>[A-Z](?:[^,\d]|\d{1,3}(?:st|nd|rd|th)\b){1,80}?),\s*(?P<volume>[A-Z]?\d{1,5}[A-Z]?|[A-Z][A-Za-z\-]+\d{4}),\s*"
    r"(?P<pages>[A-Za-z]{0,2}\d+(?::\d+)?(?:\s*[-–]+\s*[A-Za-z]?\d+(?::\d+)?)?)(?![\w.]*\d)")
#: "Title | Dr. A. Author, B. Author": a title, a bar, then the authors (honorifics dropped).
_TITLE_BAR_AUTHORS = re.compile(
    r"^(?P<title>[^|]{8,}?)\s+\|\s+(?:(?:Dr|Prof|Mr|Ms|Mrs)\.?\s+)?(?P<authors>[^|]+?)\s*\.?$")
_OPEN_QUOTES = {"“": "”", '"': '"', "«": "»", "``": "''", "‘": "’", "`": "'"}


#: A year that ends the names before a quoted title: "... & J Wien 2016 “Title”".
_NAMES_THEN_YEAR = re.compile(r"(?<=[^\W\d_])\s+(?P<year>(?:1[89]|20)\d\d)[a-z]?[\s.,]*$")


def _quoted_title(text: str) -> tuple[str, tuple[int, int]] | None:
    """The quoted title and its span: the first quotation that starts a field (after a
    comma, full stop, colon or at the start), its own nested quotes kept
    ("Non linear electron plasma oscillation: the “water bag model”"). A quoted phrase
    inside an unquoted title is not the title."""
    for n, m in enumerate(re.finditer(r"``|[`“\"«‘]", text)):
        if n >= 20:
            break
        before = text[:m.start()].rstrip()
        last = _NAMES_THEN_YEAR.sub("", re.split(r",|;|\band\b|&", before)[-1]).strip()
        if before and before[-1] not in ",.:;([\u2013\u2014" and not (
                _looks_like_name(last) or _ET_AL.search(last)  # "A. Smith “Title”"
                or re.fullmatch(_NATURAL_NAME, last)  # cje's "and Yen Chin Ong `Title'"
                or _INITIALS_FIRST_BARE.match(last)):  # ajl's "& J Wien 2016 “Title”"
            continue
        opener = m.group(0)
        closer = _OPEN_QUOTES[opener]
        depth, i = 1, m.end()
        while i < len(text):
            if opener != closer and text.startswith(opener, i):
                depth += 1
            elif text.startswith(closer, i) and not (
                    # the TeX single quotes of harvard styles (xagsm, jmr, cje, econ-b:
                    # "`Title', Journal"): an apostrophe inside a word closes nothing
                    opener == "`" and text[i + 1:i + 2].isalnum()):
                depth -= 1
                if depth == 0:
                    break
            i += 1
        if depth:
            continue
        inner = text[m.end():i].strip().rstrip(",.").strip()
        if len(inner) >= 4:
            return inner, (m.start(), i + len(closer))
    qm = _QUOTED.search(text)
    if qm and not text[:qm.start()].strip():
        return next(g for g in qm.groups() if g).strip().rstrip(",."), qm.span()
    return None


#: What is said about a work but is not its title: "(in Russian)", "submitted to ApJS",
#: "to appear in ...", "in press", "in preparation".
_FILLER = re.compile(
    r"(?:^|[,.;]?\s*)\(?\b(?:in\s+(?:Russian|Japanese|Chinese|German|French)\)?"
    r"|(?:submitted|accepted)(?:\s+(?:to|for\s+publication\s+in|in))?(?:\s+[A-Z][\w.&]*){0,4}"
    r"|to\s+(?:appear|be\s+published)\s+in(?:\s+[A-Z][\w.&]*){0,4}"
    r"|in\s+press|in\s+preparation|preprint|and\s+references\s+therein)\)?\s*$", re.I)


#: Where books are published: a title followed by ", New York, Plume" ends before it.
_PLACE = (r"(?:New\s+York|Cambridge(?:,\s*MA)?|Oxford|Berlin|Heidelberg|Singapore|Amsterdam|"
          r"Princeton|London|Boston|Dordrecht|Chicago|Paris|Moscow|Tokyo|Hoboken|Weinheim|"
          r"Bristol|Philadelphia|Redwood\s+City|Reading(?:,\s*MA)?|Berlin\s+Heidelberg)")
_PUBLISHER_TAIL = re.compile(
    r"(?:,\s*" + _PLACE + r"(?:\s*[,:]\s*[A-Z][\w&.\- ]{1,40})?"
    r"|\s*\([^()]*\b(?:Press|Publishers?|Verlag|Springer|Wiley|Elsevier|World\s+Scientific|"
    r"Academic|Addison|Benjamin|Dover|Pergamon|Plenum|Birkh\w+)\b[^()]*\))\s*$")


#: GB/T 7714 (the Chinese standard: gbt7714.bst, thuthesis) marks a title with its
#: document type: "[J]" a journal article, "[M]" a book, "[C]" proceedings, "[D]" a
#: thesis, "[R]" a report, "[EB/OL]" online.
_TYPE_MARK = re.compile(r"\s*\[(?:J|M|C|D|R|P|S|N|Z|A|G|EB/OL|J/OL|M/OL|DB/OL|CP/DK)\]\s*\.?$")


def without_type_mark(title: str) -> str:
    """``title`` without a trailing GB/T 7714 document-type mark ("Title[J]")."""
    return _TYPE_MARK.sub("", title) if title.endswith(("]", "].")) else title


def _without_bare_volume(title: str) -> str:
    """``title`` without a venue that lost its journal ("..., vol. CD12, p. 029")."""
    return re.sub(r"[,.]?\s*\bvol\.\s*[A-Z]{0,3}\d.*$", "", title).strip(" ,.;:") or title


#: A volume and pages after the title of an entry without its journal, as plain.bst
#: ("... quark-gluon plasmas. 917:86--104.") and cv.bst ("... holographic model. 760, 110.")
#: print them.
#: (after a word of the title, not an initial or "p.": "Boschi-Filho, H. 760, 110",
#: "AdS/QCD, p. 029, 2013")
_JOURNALLESS_VENUE = re.compile(r"(?<=[a-z\u00DF-\u024F]{3})(?<!\bvol)\.\s+"
                                r"(?P<volume>\d{1,5})(?::|,\s*)"
                                r"(?P<pages>\d+(?:\s*[-\u2013]+\s*\d+)?)$")


def _without_journalless_venue(title: str, out: dict[str, str]) -> str:
    """``title`` without a journal-less "917:86-104" after it, which goes to ``out`` as
    volume and pages (the numbers had stayed in the title, and a wrong page was not seen)."""
    m = _JOURNALLESS_VENUE.search(title)
    if m is None or "volume" in out or len(title[:m.start()].split()) < 2 \
            or _YEAR_LIKE.fullmatch(m.group("pages")):
        return title
    out["volume"] = m.group("volume")
    out["pages"] = dashes(m.group("pages"))
    return title[:m.start()]


#: What a technical report's entry prints after its title: "Tech. Rep. ATL-PHYS-PUB-2017-017,
#: CERN, Geneva" (aasjournal, plain's kin), its number already read as an identifier.
_REPORT_TAIL = re.compile(r",\s*(?:Tech(?:nical)?\.?\s*[Rr]ep(?:ort)?\.?)(?:\s.*)?$")


def _without_report_tail(title: str) -> str:
    """``title`` without the report's type, number, institution and place after it (they
    had been read as the title's end: "..., Tech. Rep. , CERN, Geneva", a false
    MINOR)."""
    return _REPORT_TAIL.sub("", title).strip(" ,.;:")


def _clean_title(title: str, out: dict[str, str], *, has_journal: bool) -> str:
    """A title without what stuck to it: a citation label in front ("[RBC/UKQCD 13C]"),
    a year suffix ("b, ", from "(2014b)"), a trailing year or "arXiv: 2004", the place
    and publisher of a book, and a journal named without volume and page
    ("..., C. R. Physique"), which goes to ``out``."""
    t = without_type_mark(re.sub(r"^(?:\[[^\]]{1,30}\]\s*|[a-z],\s+)", "", title))
    t = _PUBLISHER_TAIL.sub("", t).strip(" ,.;:")
    t = _without_bare_volume(t)
    if not has_journal:
        t = _without_journalless_venue(t, out)
    t = re.sub(r"(?:[,.]\s*(?:arXiv\s*:\s*)?\(?|\s*\()(?:(?:\d{1,2}|[A-Z][a-z]{2,8}\.?)\s+)?"
               r"(?:1[89]|20)\d{2}[a-z]?\)?$", "",  # "(2026)", elsarticle's "(5 2026)"
               t).strip(" ,.;:")
    t = re.sub(r",\s*(?:Ph\.\s?D\.|PhD|Master'?s|Bachelor'?s|Diploma|Other)\s+thesis$", "", t,
               flags=re.I)  # elsarticle's "Title, Other thesis (3 2026)"
    t = _without_report_tail(t)
    m = re.search(r",\s*([A-Z][^,]{2,60})$", t)
    if m and not has_journal and ("." in m.group(1) or " " in m.group(1).strip()):
        from citecheck_tex.vocab.journals import is_known_journal

        if is_known_journal(m.group(1).strip()):
            out["journal"] = m.group(1).strip()
            t = t[:m.start()].strip(" ,.;:")
    # one word left: the title as it was, unless only what followed the word went
    # ("MadAgents (1 2026)")
    if len(t.split()) < 2 and t != title and not (
            re.fullmatch(r"[^\W\d_][\w\-]{2,}", t) and re.match(re.escape(t) + r"\W", title)):
        return title
    return t


def _unrepeated(title: str) -> str:
    """A title that reference extraction wrote twice around the author list ("T, names
    T") is the title once."""
    words = title.split()
    whole = _compact(title)
    for k in range(len(words) // 2, 2, -1):
        head = _compact(" ".join(words[:k]))
        # compared without spaces and punctuation: "AdS(3)" and "AdS (3)" are one text
        if len(head) >= 12 and whole.endswith(head) and len(whole) >= 2 * len(head):
            return " ".join(words[:k]).strip(" ,.;:")
    return title


def _compact(text: str) -> str:
    return re.sub(r"[\W_]+", "", text).lower()


def _repeats(title: str, n: int = 4) -> bool:
    """True when ``n`` words follow each other twice in ``title``: reference extraction
    copied part of the reference into it."""
    words = [_compact(w) for w in title.split()]
    seen: set[tuple[str, ...]] = set()
    for i in range(len(words) - n + 1):
        gram = tuple(words[i:i + n])
        if gram in seen:
            return True
        seen.add(gram)
    return False


#: "Pontzen et al., 2017, Title", "Caola & Melnikov, 2013, Title", "Regmi, 2017, Title":
#: surnames, a year, then the title (the plain-text form of the markdown list items).
#: One "Family, I." name (Nature, AAS, A&A): a family name of capitalised words, particles
#: allowed ("Ruiz de Austri"), then its initials ("J. P.", "L.-L.", "C. J.").
#: The particles before a family name that aasjournal and its kin print ("van Dyk, D.",
#: "de~los Rios, M.", "ter Hoeve, J."), and a lower-case particle among the initials
#: after it ("Almeida, E. d.~S."): the list had ended there (every later author missing).
_FI_WORD = (r"(?:[A-Z\u00C0-\u024F][a-z\u00DF-\u024F'\u2019][\w'\u2019\u00C0-\u024F\-~]*"  # ADS "Nu~nez"
            # ABNT's family name in capitals: "ANDERSEN, J. O.; HE, S." (before a comma)
            r"|[A-Z\u00C0-\u00DE][A-Z\u00C0-\u00DE'\u2019\-]+(?=,\s))")
#: (each family word has a lower-case letter after its capital, and there are at most
#: four: "LG Jin R Tang F Zhang, L.G. ..." is no family name)
#: (particles may lead: "de Téramond, G. F.", and a lower-case initial that bibtex took
#: for one: "q. Zhang, Z." for "Zhang, Zi-qiang"; an initial after a hyphen may be
#: lower-case, as bibtex abbreviates "Jai-chan": "Hwang, J.-c."; a suffix in BibTeX's
#: order, "{Ford}, Jr., W.~K."; a lower-case particle among the initials, "E. d.~S.")
_FI_NAME = (rf"(?:(?:(?:van|von|der|den|de|del|della|di|da|dos|du|la|le|los|las|ten|ter|"
            rf"[a-z]\.)\s+)*{_FI_WORD}(?:\s+(?:[a-z]{{1,3}}\s+)?{_FI_WORD}){{0,3}})"
            r",\s+(?:(?:Jr|Sr)\.?,\s+|I{2,3},\s+|IV,\s+)?"
            r"(?:[A-Z\u00C0-\u024F][a-z]?\.\s*(?:-\s*(?:[a-z]\.\s*)?)?)+"
            r"(?:[a-z]{1,3}\.\s*(?:[A-Z\u00C0-\u024F][a-z]?\.\s*)*)?")
#: A list of them: ", " between, "&" or "and" before the last, "et al." after it.
#: (the rest begins with no initial: "Dosch, H. G.: QCD on" is not "Dosch, H." and a
#: title "G.: QCD on")
#: One-word names (INSPIRE's mononyms, "Rai, Saurabh and Prisha and Kumar, Jitendra")
#: inside such a list, only before its "&"/"and": "Rai, S., Prisha, \\& Kumar, J." and
#: "Wu, Y., Yi, Chen, \\& Velkovska, J." (aasjournal; the list had not been read, the
#: names became the title: false MINORs). Not "Ellis, J., Smith, John": no "&" follows.
_FI_MONONYM_RUN = r"[A-Z\u00C0-\u024F][a-z\u00DF-\u024F]+(?:,\s*[A-Z\u00C0-\u024F][a-z\u00DF-\u024F]+)*"
_FI_MONONYMS = rf"{_FI_MONONYM_RUN}(?=,?\s*(?:&|\band\b))"
_FI_RUN = re.compile(rf"^(?P<names>{_FI_NAME}(?:,?\s*(?:,|;|&|\band\b)\s*(?:{_FI_NAME}|{_FI_MONONYMS}))*)"
                     r"(?P<etal>,?\s*et\s*al\.?)?\s+(?![A-Z][a-z]?\.[\s,:;])"
                     r"(?P<rest>.+)$")
#: The volume and page alone after a quoted title: "“Title.”, 760, 110."
#: (or "760:110", ajl's, after a quoted title)
_BARE_VOLUME_PAGES = re.compile(r"[\s,.]*(?P<volume>\d{1,5})(?:,\s*|:)(?P<pages>[A-Za-z]?\d+(?:\s*[-\u2013]+\s*"
                                r"[A-Za-z]?\d+)?)[\s.]*$")
#: The same after a title's comma: "Title, 760, 110," (agu04, of an entry without journal).
#: (or after a space, with a colon: erae's "Title 917: 86--104,", regstud's "Title 917, 86--104")
#: (a page is no year: "Data Release 2, 2018" is no volume 2, page 2018)
_TITLE_VOLUME_PAGES = re.compile(r"(?:,\s*|\s+)(?P<volume>\d{1,5})(?:,|:)\s*(?!(?:1[89]|20)\d\d\b)"
                                 r"(?P<pages>[A-Za-z]?\d+(?:\s*[-\u2013]+\s*[A-Za-z]?\d+)?)[\s.,]*$")
#: Names "Family, I." separated by semicolons, and nothing else (ACS, ABNT).
_FI_SEMICOLON_LIST = re.compile(rf"^\s*(?P<names>{_FI_NAME}(?:\s*;\s*{_FI_NAME})+)"
                                r"(?P<etal>,?\s*et\s*al\.?)?[\s.,]*$")
_FI_SPLIT = re.compile(r",?\s*&\s*|,?\s+and\s+|(?<=\.)(?<!Jr\.)(?<!Sr\.)[,;]\s*")
#: What follows the names: the year and the reference (AAS: "2017, MNRAS, 464, 4789"),
#: or the title (Nature: "Ultralight scalars as ... Phys. Rev. D 95, 043541 (2017).").
#: (a year from 1600 on: ADS exports "{Bradley}, J. 1727, Philosophical Transactions ...")
_FI_YEAR = re.compile(r"^(?:\(?(?P<year>(?:1[6-9]|20)\d\d)[a-z]?\)?|\(?n\.\s?d\.\)?)"  # n.d.: no date
                      r"\s*(?:[,.:]\s*|$)(?P<rest>.*)$")
#: AAS/A&A's reference after the year: "Phys. Dark Univ., 16, 22" (a journal the tables
#: may lack, volume and page between commas).
_AAS_VENUE = re.compile(r"^(?P<journal>[A-Z][^,\d]{1,80}?),\s*"
                        r"(?P<volume>[A-Z]?\d{1,5}[A-Z]?|[A-Z][A-Za-z\-]+\d{4}),\s*"
                        r"(?P<pages>[A-Za-z]{0,2}\d+(?::\d+)?(?:\s*[-–]+\s*[A-Za-z]?\d+(?::\d+)?)?)(?![\w.]*\d)")


#: "vol." just before a candidate journal: what follows is the volume (ieeetr's and
#: naturemag's "vol.~CD12" is no journal "CD" with volume 12).
_LABELLED_VOLUME = re.compile(r"\bvol\.?\s*$")
#: "vol. 760, p. 110." alone at the end: a volume and page labelled, no journal before them.
_LABELLED_VOLUME_PAGES = re.compile(
    r"(?:^|(?<=[\s.,]))[Vv]ol\.\s*(?P<volume>\d{1,5}),\s*pp?\.\s*"
    r"(?P<pages>[A-Za-z]?\d+(?:\s*[-\u2013]+\s*[A-Za-z]?\d+)?)[\s.]*$")


def _month_year(cand: re.Match[str]) -> bool:
    """A "volume page" that is a month and a year: plain.bst's "In Proceedings ..., 9
    2025." (read as volume 9, page 2025 of a journal "Proceedings ...")."""
    vol, pages = cand.group("volume"), cand.group("pages")
    return bool(vol.isdigit() and 1 <= int(vol) <= 12 and _YEAR_LIKE.fullmatch(pages))


def _venue_in(tail: str, untitled: bool = False) -> tuple[int, dict[str, str]] | None:
    """Where the reference after a title starts, and its fields: a known journal's
    (:func:`_find_journal_ref`), else the first "Journal vol pages" of a journal the
    tables lack ("Phys. Dark Univ. 16 22") or with an issue ("95(4), 043541"). With
    ``untitled`` (iopart-num prints no title: "2017 {\\em Phys. Dark Univ.} {\\bf 16} 22")
    an abbreviated journal may start the tail."""
    found = _find_journal_ref(tail, 0)
    if found:
        return found[0], found[2]
    for cand in _JOURNAL_REF.finditer(tail):
        if (cand.start() > 0 or (untitled and "." in cand["journal"])) \
                and not _LABELLED_VOLUME.search(tail, 0, cand.start("journal")) \
                and not _month_year(cand) \
                and re.search(r"[A-Za-z]{2}", cand["journal"]) \
                and not _is_initialled_name(cand["journal"]):
            return cand.start(), {"journal": cand["journal"].strip(" ,"),
                                  "volume": cand["volume"], "pages": dashes(cand["pages"])}
    return None


#: naturemag.bst's end of an entry without a journal: the year in brackets, then the bare
#: arXiv id ("... proof to second order (2013). 1309.5692.").
_NATURE_YEAR_EPRINT = re.compile(r"[\s.,]*\((?P<year>(?:1[89]|20)\d\d)[a-z]?\)[\s.,]*"
                                 r"(?P<eprint>\d{4}\.\d{4,5}(?:v\d+)?)?[\s.]*$")


def _nature_year_eprint(tail: str, out: dict[str, str]) -> str:
    """``tail`` without naturemag's closing "(2013). 1309.5692.", whose year and arXiv id
    go to ``out`` (they had been read as the end of the title: a false title MINOR)."""
    m = _NATURE_YEAR_EPRINT.search(tail)
    if m is None or m.start() == 0:
        return tail
    eprint = normalize_arxiv(m.group("eprint") or "")
    if m.group("eprint") and not eprint:
        return tail
    out["year"] = m.group("year")
    if eprint:
        out.setdefault("eprint", eprint)
    return tail[:m.start()]


#: AAS's reference after the year when the journal's name holds commas or digits
#: (INSPIRE's "Proceedings, 23rd International Conference ... (CHEP 2018): Sofia, ...;
#: EPJ Web Conf., 214, 06003", PMLR's "Proceedings of the 32nd International Conference
#: on Machine Learning, 37, 1530"): all of it up to the volume and page that end the item
#: (the name had been cut at its last comma or digit, its start read as a title).
_AAS_WHOLE_VENUE = re.compile(r"^(?P<journal>[A-Z].*?[^\W\d_].*?),\s*"
                              r"(?P<volume>[A-Z]?\d{1,5}[A-Z]?),\s*"
                              r"(?P<pages>[A-Za-z]{0,2}\d+(?:\s*[-–]+\s*[A-Za-z]?\d+)?)[\s.,]*$")


#: The end of a sentence inside a text: a word of lower-case letters, a full stop, a
#: capital ("models. Nucl"; not an abbreviation such as "Proc. Int.").
_SENTENCE_END = re.compile(r"[a-z]{4,}\.\s+[A-Z]")


def _names_run_on(rest: str) -> bool:
    """The list read so far ends inside a name or before one without a separator:
    "Dosch, H. G.: Title" (the run had ended at "H.", the title begun with "G.:") or
    "Hou, D. f. Chen, G. Title" (babelbib's "and" lost with its macro). Such lists are
    left to the other rules, which read them whole."""
    return bool(re.match(r"[A-Z][a-z]?\.\s*:", rest)
                or re.match(rf"{_FI_NAME}(?:\s|$)", rest))


def _collaboration_with_initials(names: list[str]) -> bool:
    """A "Family, I." name whose family is a collaboration: no person, but the
    collaboration and the initials of the next name, in natural order (ieeetr's
    "{Gaia Collaboration}, T.~{Prusti}, J.~H.~J. {de Bruijne}, ..., ``Title,''" had been
    read as the one author "Gaia Collaboration, T." and the rest of the names as the
    title: a false MAJOR)."""
    return any(_COLLAB.search(n.split(",", 1)[0]) for n in names)


#: ABNT's "In:" between a title and its host (a book, proceedings).
_ABNT_HOST = re.compile(r"\.\s+In:\s")
#: The year that ends a title-and-year tail: "Title. 2013", "Title. , 1999".
_TITLE_END_YEAR = re.compile(r"\.[\s.,;]*(?P<year>(?:1[89]|20)\d\d)[a-z]?[\s.]*$")


#: munich.bst (German author-year): "Hui, L./Ostriker, J. P./ et al. (2017): Title, in:
#: Phys.Rev.D, 95, S. 043.541" (names between slashes, "S." for Seite, a full stop
#: between the thousands of a page).
_MUNICH = re.compile(r"^(?P<authors>[^()]+?)\s*\((?:(?P<year>(?:1[89]|20)\d\d)[a-z]?)?\):\s+"
                     r"(?P<title>.+?)(?:,\s+in:\s*(?P<venue>.*?))?[\s.]*$")
#: (the journal may be missing: "in: , 754, S. 343--348"; an issue in brackets "116(16)")
_MUNICH_VENUE = re.compile(r"^(?:(?P<journal>[^,\d][^,]*?)\s*)?,\s*(?P<volume>[\w\-]+)(?:\(\w+\))?,"
                           r"\s*S\.\s*(?P<pages>[\d.]+(?:\s*[-\u2013]+\s*[\d.]+)?)(?![\w.]*\d)")


def _munich(rest: str) -> dict[str, str] | None:
    """The fields of a munich.bst reference (:data:`_MUNICH`), or None. (Read as free
    text, the names had become the title: every entry a false MINOR.)"""
    m = _MUNICH.match(rest)
    if m is None or "/" not in m.group("authors") and m.group("venue") is None:
        return None  # (ecta's "Names (2017): “Title,” Journal, 95, 043541" is not munich's)
    names = [n.strip(" ,") for n in m.group("authors").split("/") if n.strip(" ,")]
    truncated = bool(names) and bool(re.fullmatch(r"et\s*al\.?", names[-1]))
    names = names[:-1] if truncated else names
    if not names or not all_names(" and ".join(names)):
        return None
    out = {"author": _bibtex_authors(names, truncated),
           "title": m.group("title").strip(" ,.\u201c\u201d")}
    if m.group("year"):
        out["year"] = m.group("year")
    venue_text = (m.group("venue") or "").strip(" ,.")
    venue = _MUNICH_VENUE.match(m.group("venue") or "")
    if venue is not None:
        if venue.group("journal"):
            out["journal"] = venue.group("journal").strip()
        out["volume"] = venue.group("volume")
        out["pages"] = dashes(re.sub(r"(?<=\d)\.(?=\d{3}(?!\d))", "", venue.group("pages")))
    elif venue_text:
        return None  # a venue of another form: read as before
    return out


def _family_initials(rest: str) -> dict[str, str] | None:
    """The fields of a reference whose authors are written "Family, I., ..., & Family,
    I." (Nature's house style, AAS and A&A journals), or None.

    Every comma had split such names in two, and the whole list became the title ("Hui,
    L., Ostriker, J. P., Tremaine, S. & Witten, E. Ultralight scalars ...": a false title
    mismatch).
    """
    m = _FI_RUN.match(rest)
    if m is None or re.match(r"[A-Z][a-z]?\.\s*,", m.group("rest")):
        return None  # "Ellis, J. R., K. A. Olive": MLA/Chicago, not "Ellis, J." and a title
    if _names_run_on(m.group("rest")):
        return None
    names = [n.strip(" ,") for n in _FI_SPLIT.split(m.group("names")) if n.strip(" ,")]
    names = [one for n in names for one in (
        [w.strip() for w in n.split(",")] if re.fullmatch(_FI_MONONYM_RUN, n)
        else [n])]
    if not names or not all(re.fullmatch(_FI_NAME, n) or (k and re.fullmatch(_FI_WORD, n))
                            for k, n in enumerate(names)):
        return None
    if _collaboration_with_initials(names):
        return None
    out = {"author": _bibtex_authors(names, bool(m.group("etal")))}
    tail = m.group("rest")
    ym = _FI_YEAR.match(tail)
    if ym:  # AAS, A&A: year, then the reference, no title
        if ym.group("year"):
            out["year"] = ym.group("year")
        tail = ym.group("rest")
    elif not (tail[:1].isupper() or re.match(r"\([A-Z]", tail)):
        return None  # (a title may open with a bracket: "(Mainly) axion dark matter")
    else:
        tail = _nature_year_eprint(tail, out)
        host = _ABNT_HOST.search(tail)
        if host and len(tail[:host.start()].split()) >= 2:
            # ABNT's host after the title: "Title. In: Booktitle. CD12, 2013. Anais...,
            # 2013. p. 029" (the booktitle may be empty: "In: ."); its words had been read
            # into the title (a false MINOR). The host's year is the item's.
            years = re.findall(r"(?<!\d)((?:1[89]|20)\d\d)(?!\d)", tail[host.end():])
            if years:
                out.setdefault("year", years[-1])
            tail = tail[:host.start()] + "."
    aas = _AAS_VENUE.match(tail) if ym else None
    if ym and aas is None:
        aas = _AAS_WHOLE_VENUE.match(tail)
        if aas is not None and _SENTENCE_END.search(aas.group("journal")):
            aas = None  # a title, then the journal: "Heavy quark ... models. Nucl. Phys. A"
    venue = (0, {k: dashes(v) for k, v in aas.groupdict().items()}) if aas else \
        _venue_in(tail)
    quotes = " ,.;:'`\"\u2018\u2019\u201c\u201d"  # (harvard.sty quotes the title: `...')
    if venue is not None:
        out.update(venue[1])
        title = tail[:venue[0]].strip(quotes)
    else:
        title = "" if ym else _without_bare_volume(tail.strip(quotes))
        end_year = _TITLE_END_YEAR.search(title)
        if end_year and len(title[:end_year.start()].split()) >= 2:
            # an item without venue: "Title. 2013." (abntex2; the year had stayed in the
            # title, a false MINOR)
            out.setdefault("year", end_year.group("year"))
            title = title[:end_year.start()].strip(quotes)
    if title and len(title.split()) >= 2:
        out["title"] = title
    elif not ym and (venue is None or title):
        return None  # names and no title: not this style (but ACS's names and reference are)
    return out


#: One "Family I" name as IOP's iopart-num and Vancouver/NLM write it: "Hui L", "Ostriker J P",
#: "Ostriker JP", "Liu G-C".
_BARE_PARTICLE = (r"(?:van|von|der|den|de|del|della|di|da|do|dos|das|du|la|le|los|las|ter|ten|"
                  + _VON_INITIAL + ")")  # (perception's "q.~Zhang Z" for Zhang, Z.-q.)
#: (a capital initial may be accented beyond Latin-1, "Ivezić Ž", "Wyrzykowski Ł"; a
#: given name's particle is a lower-case initial: "Lagos C d P", "Silva J a P")
_BARE_UPPER = "A-Z\u00C0-\u00DE\u0100-\u017F"
_BARE_INITIALS = (rf"[{_BARE_UPPER}](?:-[A-Za-z])?"
                  rf"(?:(?:\s(?=[{_BARE_UPPER}](?:-[A-Za-z])?(?:\W|$))|(?<=[{_BARE_UPPER}]))"
                  rf"[{_BARE_UPPER}](?:-[A-Za-z])?|\s[a-z\u00DF-\u00FF](?=\W|$)){{0,4}}")
#: "Jr"/"III" between the family name and the initials: iopart-num's "Denneau Jr L"
#: ("Jr" had been read as two initials "J. r.": a false MINOR)
_BARE_SUFFIX = r"(?:\s+(?:Jr\.?|Sr\.?|II|III|IV)(?=\s))"
#: ADS's "Mu{\\textasciitilde n}oz" for Muñoz, decoded "Mu~noz"
_BARE_TILDE = r"[A-Z\u00C0-\u024F][\w'\u00C0-\u024F\-]*~[a-z][\w'\u00C0-\u024F\-]*"
#: a family word; ADS's unspaced particles too ("vandenBerg", "vanderPlas")
#: and an apostrophe lost in a .bib ("{OMullane} W" for O'Mullane)
_BARE_WORD = rf"(?:(?!(?:Jr|Sr)\b){_FI_WORD}|[a-z]{{2,6}}[A-Z][a-z\u00DF-\u024F'\u2019]+|{_BARE_TILDE}" \
    r"|O[A-Z][a-z]{3,})"
_BARE_NAME = (rf"(?:{_BARE_PARTICLE}\s+)*"  # "de Téramond GF", "de los Rios M"
              # (a particle inside: "Ruiz de Austri R", "Spinola e Castro R"; ADS's en
              # dash: "Gonz{\\'a}lez{\\textendash}Gait{\\'a}n")
              rf"{_BARE_WORD}(?:(?:\s(?:{_BARE_PARTICLE}|e|y)(?=\s))*[\s\-\u2013]{_BARE_WORD}){{0,2}}"
              rf"{_BARE_SUFFIX}?\s+{_BARE_INITIALS}")
#: A name of one word after the first name of the list: INSPIRE's mononyms ("Rai S, Prisha
#: and Kumar J 2025")
#: A collaboration among the names ("..., Tarle G and {DES Collaboration} 2017")
_BARE_COLLAB = r"(?:[A-Z][\w\-/&]*\s+){1,3}Collaboration"
_BARE_MONONYM = rf"(?:{_BARE_COLLAB}|{_FI_WORD})(?=,|\s+and\s|\s+(?:1[89]|20)\d\d)"
#: vancouver's last name ending the list with its full stop may carry a hyphenated given
#: name's lower-case second initial glued to the first: "Hwang Jc." of "Hwang, J.-c."
#: (Jai-chan). Only there: "Sau~Lan Wu et~al." is no "Sau Lan, W. u.". (``_END`` is
#: the form of a name already cut from its list.)
_GLUED_LOWER = rf"(?<=\s[{_BARE_UPPER}])[a-z]"
_BARE_NAME_LAST = rf"{_BARE_NAME}(?:{_GLUED_LOWER}(?=\.\s))?"
_BARE_NAME_END = rf"{_BARE_NAME}(?:{_GLUED_LOWER})?"
_BARE_RUN = re.compile(
    rf"^(?P<names>(?:{_BARE_NAME_LAST}|{_BARE_COLLAB}(?=,))(?:,\s*(?:{_BARE_NAME_LAST}|{_BARE_MONONYM}))*"
    rf"(?:,?\s+and\s+(?:{_BARE_NAME_LAST}|{_BARE_MONONYM}))?)"
    r"(?P<etal>,?\s*et\s*al\.?)?"
    # iopart-num names the collaboration after the authors: "... and Wolf M (CMS) 2023"
    r"(?:\s*\((?P<collab>[A-Z][\w\-/]*(?:\s[A-Z][\w\-/]*){0,2})\))?"
    # IOP: "2017 Title Journal vol page"; Vancouver: ". Title. Journal. 2017;95(4):043541."
    # (a dotted initial after the full stop is MNRAS's "Family A. B.", no Vancouver name)
    # (iopart-num prints no title: "Araz J Y and Spannowsky M 2026" may end at the year)
    # (perception: a comma before the year, "????" for none: "Wang Z, Ma B~Q, 2015 “Title”")
    r"(?:,?\s+(?:(?P<year>(?:1[89]|20)\d\d)[a-z]?|(?P<nodate>\?{4}|\(\s*\)))"
    # (a title may start with a software's lower-case name: "2022 neos: End-to-End ...",
    # "pyhf", "iminuit"; not "and")
    r"(?:\s*[,:.]?\s+(?=[A-Z(\"\u201c{\d]|(?!and\b)[a-z][\w\-]{2,}[:\s])|[\s.]*$)"
    r"|\.\s+(?![A-Z][a-z]?\.)(?=[A-Z(\"\u201c]))(?P<rest>.*)$")
_BARE_LIST = re.compile(rf"^(?P<names>{_BARE_NAME}(?:,\s*{_BARE_NAME})*"
                        rf"(?:,?\s+(?:and|&)\s+{_BARE_NAME})?)(?P<etal>,?\s*et\s*al\.?)?$")


#: GB/T 7714's names: the family name in capitals, bare initials ("OSTRIKER J P"); an
#: accented capital too ("GÜRSOY U", "DJURIĆ M": the whole list had been left unread)
_CAPS_NAME = (rf"[{_BARE_UPPER}][{_BARE_UPPER}'\-]+(?:\s[A-Z][{_BARE_UPPER}'\-]+)?"
              r"(?:\s[A-Z](?:-[A-Z])?){1,3}")
_CAPS_LIST = re.compile(rf"^(?P<names>{_CAPS_NAME}(?:,\s*{_CAPS_NAME})*)"
                        r"(?P<etal>,?\s*et\s*al\.?)?$")


def _caps_family(name: str) -> str:
    """ "OSTRIKER J P" -> "Ostriker J P" (the family word title-cased, the initials kept)."""
    words = name.split()
    return " ".join(w.title() if len(w) > 1 else w for w in words)


def listed_names(text: str) -> tuple[list[str], bool] | None:
    """The names of a whole author block in a form that splitting at commas misreads:
    MLA/Chicago ("Hui, L., J. P. Ostriker, and E. Witten") or Vancouver/IOP ("Hui L,
    Ostriker JP, Tremaine S"), as BibTeX names, and True for "et al."; None otherwise."""
    t = text.strip().rstrip(".").strip()
    inverted = first_inverted_names(t)
    if inverted is not None:
        return inverted
    caps = _CAPS_LIST.match(t)
    if caps is not None:  # GB/T 7714: "HUI L, OSTRIKER J P, TREMAINE S"
        names = [_bare_to_bibtex(_caps_family(n.strip()))
                 for n in re.split(r",\s*", caps.group("names")) if n.strip()]
        return names, bool(caps.group("etal"))
    m = _BARE_LIST.match(t)
    if m is None:
        return None
    names = [_bare_to_bibtex(n.strip()) for n in
             re.split(r",\s*(?:(?:and|&)\s+)?|\s+(?:and|&)\s+", m.group("names")) if n.strip()]
    return names, bool(m.group("etal"))


def _bare_to_bibtex(name: str) -> str:
    """ "Ostriker JP" -> "Ostriker, J. P.", "Liu G-C" -> "Liu, G.-C.", "Denneau Jr L" ->
    "Denneau, Jr., L." (BibTeX's family-first form: "Hui L" read as given "Hui", family
    "L"); a mononym as it is."""
    m = re.fullmatch(rf"(?P<family>.+?)(?:\s+(?P<jr>Jr\.?|Sr\.?|II|III|IV))?"
                     rf"\s+(?P<given>{_BARE_INITIALS}(?:{_GLUED_LOWER})?)", name)
    if m is None:
        return name  # "Prisha"
    initials = [f"{part}." if "-" not in part else ".-".join(part.split("-")) + "."
                for part in re.findall(r"[^\W\d_](?:-[A-Za-z])?", m.group("given"))]
    jr = m.group("jr")
    return ", ".join(x for x in (m.group("family"), f"{jr.rstrip('.')}." if jr and
                                 jr.startswith(("J", "S")) else jr, " ".join(initials)) if x)


#: A volume and page alone after a quoted title: "“Title” 760 110" (", " after it in a .bbl).
_QUOTED_VOLUME_PAGE = re.compile(r"\u201d[,.]?\s+(?P<volume>\d{1,5})\s+(?P<pages>[A-Za-z]?\d+"
                                 r"(?:\s*[-\u2013]+\s*[A-Za-z]?\d+)?)[\s.]*$")


#: The date that ends vancouver.bst's item without a venue: "Title; 2013." (it had been
#: left in the title, and the item unread: the names, too, were the title's).
_VANCOUVER_MISC_DATE = re.compile(r";\s*(?P<year>(?:1[89]|20)\d\d)[a-z]?\.?\s*$")


def _family_bare_initials(rest: str, vancouver: bool) -> dict[str, str] | None:
    """The fields of a reference whose authors are "Family I" names (IOP's iopart-num:
    "Hui L, Ostriker J P, Tremaine S and Witten E 2017 Title {\\it J} {\\bf 95} 043541";
    Vancouver/NLM: "Hui L, Ostriker JP, Tremaine S, Witten E. Title. Phys Rev D.
    2017;95(4):043541."), or None. The last name and the title had run together ("and
    Witten E 2017 Ultralight ..."): a false author MINOR, or a title mismatch."""
    m = _BARE_RUN.match(rest)
    if m is None:
        return None
    names = [n.strip() for n in re.split(r",\s*|\s+and\s+", m.group("names")) if n.strip()]
    if not all(re.fullmatch(_BARE_NAME_END if k == len(names) - 1 else _BARE_NAME, n)
               or re.fullmatch(_BARE_COLLAB, n)
               or (k and re.fullmatch(_FI_WORD, n))
               for k, n in enumerate(names)):
        return None
    out = {"author": _bibtex_authors([_bare_to_bibtex(n) for n in names],
                                     bool(m.group("etal")))}
    tail = m.group("rest")
    # (Vancouver's "Phys Rev D. 2017;95(4):043541" is read as "Phys Rev D 95, 043541
    # (2017)": see _VENUE_FORMS)
    dated = m.group("year") is not None or m.group("nodate") is not None
    undated_misc = None if dated else _VANCOUVER_MISC_DATE.search(tail)
    if undated_misc:  # vancouver's @misc: "Names. Title; 2013." (no venue)
        out["year"] = undated_misc.group("year")
        tail = tail[:undated_misc.start()]
        dated = True
    venue = _venue_in(tail, untitled=dated)
    if m.group("year") is not None:
        out["year"] = m.group("year")
    elif not dated and (not vancouver or venue is None):  # names, a full stop, a title:
        # Vancouver only
        return None  # ("Laszlo P. Csernai and H. Stoecker, ..." is no name "Laszlo P")
    lone = _QUOTED_VOLUME_PAGE.search(tail) if venue is None else None
    if lone:  # perception's journal-less "\enquote{Title}  {\bf 760} 110"
        out.update({k: dashes(v) for k, v in lone.groupdict().items()})
        tail = tail[:lone.start() + 1]
    title = tail[:venue[0]] if venue is not None else _iop_unpublished(tail, out)
    if venue is not None:
        out.update({k: v for k, v in venue[1].items() if k not in out})
    elif "volume" not in out and (tv := _TITLE_VOLUME_PAGES.search(title.rstrip(" ,.;"))):
        # jae's and adfathesis's journal-less "Title \textbf{917}: 86--104."
        out.update({k: dashes(v) for k, v in tv.groupdict().items()})
        title = title[:tv.start()]
    title = title.strip(" ,.;:")
    if title[:1] == "\u201c" and title[-1:] == "\u201d":  # perception's \enquote{Title}
        title = title[1:-1].strip(" ,.;:")
    if len(title.split()) >= 2:
        out["title"] = title
    return out


#: iopart-num's volume and page without a journal ("Title vol~21 p C07016").
_IOP_VOL_PAGE = re.compile(r"[\s,]*\bvol\s+(?P<volume>[\w\-]+)\s+pp?\s+"
                           r"(?P<pages>\w+(?:\s*[-–]+\s*\w+)?)[\s.]*$")


def _iop_unpublished(tail: str, out: dict[str, str]) -> str:
    """The title of an iopart-num reference without a journal, its other fields to
    ``out``: "Title “Booktitle”, vol 141 p 630" (proceedings: the booktitle is in
    italics, so quoted), "Title vol 21 p C07016", "“Title”, Other thesis". Each had been
    read as one long title (a false title MINOR)."""
    tail = _IOP_REPORT.sub("", tail)
    iv = _IOP_VOL_PAGE.search(tail)
    if iv:
        out["volume"], out["pages"] = iv.group("volume"), dashes(iv.group("pages"))
        tail = tail[:iv.start()]
    q = re.fullmatch(r"(?P<title>.*?)\s*\u201c(?P<quoted>[^\u201d]{4,})\u201d[\s,.]*(?P<rest>.*)", tail)
    if q is None:
        return tail
    if q.group("title").strip(" ,.;:"):
        out["booktitle"] = q.group("quoted").strip(" ,.")
        return q.group("title")
    return q.group("quoted")  # an italic title: a thesis, a book


def _iop_after_year(tail: str) -> dict[str, str]:
    """The fields of what iopart-num prints after the year of a collaboration's work:
    "Title {\\em Journal} {\\bf 16} 22", "Title “Booktitle”, vol 320 p 48", "Title Tech.
    Rep. ..." (the collaboration, the year and all that had been read as one title)."""
    out: dict[str, str] = {}
    venue = _venue_in(tail, untitled=True)
    title = tail[:venue[0]] if venue is not None else _iop_unpublished(tail, out)
    if venue is not None:
        out.update(venue[1])
    title = title.strip(" ,.;:")
    if len(title.split()) >= 2:
        out["title"] = title
    return out


#: iopart-num's report after its title: "Title Tech. Rep. ATL-PHYS-PUB-2020-014 CERN
#: Geneva" (the number is read apart; the institution had stayed in the title)
_IOP_REPORT = re.compile(r"\s+Tech\.\s+Rep\.(?:\s.*)?$")


_SURNAME_YEAR = re.compile(
    r"^(?P<authors>[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+"
    r"(?:\s+et\s*\.?\s*al\.?|\s*(?:&|\band\b)\s*[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+)?)"
    r"\s*,\s*(?P<year>(?:1[89]|20)\d{2})[a-z]?\s*[,.:]\s*(?P<rest>.+)$")


#: A collaboration run together with the title that follows it, as reference extraction
#: leaves it when the two were set apart only by the typeface: "The LIGO Scientific
#: CollaborationAdvanced LIGO", "and HAL QCD CollaborationLattice QCD approach to ...".
_GLUED_COLLABORATION = re.compile(r"\b([Cc]ollaboration)(?=[A-Z][a-z])")

_PAGES = r"(?P<pages>[A-Za-z]?\d+(?:\s*[-–]+\s*[A-Za-z]?\d+)?)"
_MONTH = r"(?:[A-Z][a-z]{2,8}\.?\s+)"
_VANCOUVER_VENUE = re.compile(
    r"\.\s+(?P<year>(?:1[89]|20)\d\d)(?:\s+[A-Z][a-z]{2}(?:\s+\d{1,2})?)?;\s*"
    r"(?P<volume>\d{1,5})(?:\s*\(\d{1,3}\))?:\s*" + _PAGES)
#: Venues of the citation generators (Google Scholar's "Cite", Zotero, EndNote) in the
#: form the journal-reference rules read, "95, 043541 (2017)"; each had left the venue
#: unread (journal, volume and pages never compared) or read a year as pages:
_VENUE_FORMS = (
    # Chicago "95, no. 4 (2017): 043541", Google Scholar's MLA "95.4 (2017): 043541"
    (re.compile(r"\b(?P<volume>\d{1,5})(?:\.\d{1,4}|,\s*no\.\s*\d{1,4})?\s*\(" + _MONTH
                + r"?(?P<year>(?:1[89]|20)\d\d)\)\s*:\s*" + _PAGES),
     r"\g<volume>, \g<pages> (\g<year>)"),
    # Chicago author-date "95 (4): 043541" (Vancouver's "2017;95(4):043541" has its rule)
    (re.compile(r"(?<!;)(?<!;\s)\b(?P<volume>\d{1,5})\s*\(\d{1,3}\)\s*:\s*" + _PAGES),
     r"\g<volume>, \g<pages>"),
    # MLA 9 "Journal, vol. 95, no. 4, Feb. 2017, p. 043541" (the year had been read as the
    # pages)
    (re.compile(r",?\s*\bvol\.\s*(?P<volume>\d{1,5}),\s*(?:no\.\s*\d{1,4},\s*)?" + _MONTH
                + r"?(?:\d{1,2}\s+)?(?P<year>(?:1[89]|20)\d\d),\s*pp?\.\s*" + _PAGES),
     r" \g<volume>, \g<pages> (\g<year>)"),
    # econ.bst "Journal, Vol. 465, No. 1, pp. 941--951", "Phys.Rev.D, Vol. 95, p. 043541"
    # (the issue had been read as the journal "No.": false journal, volume MINORs)
    (re.compile(r",\s*Vol\.\s*(?P<volume>\d{1,5}),\s*(?:No\.\s*\d{1,4},\s*)?pp?\.\s*" + _PAGES),
     r", \g<volume>, \g<pages>"),
    # asmeconf "Nucl. Phys. B Vol. 294 (1987): pp. 244--252", "Vol. 465 No.~1 (2017): pp."
    (re.compile(r"\s+Vol\.\s*(?P<volume>\d{1,5})(?:\s+No\.\s*\d{1,4})?\s*\((?P<year>(?:1[89]|20)\d\d)\)"
                r"\s*:\s*pp?\.\s*" + _PAGES), r" \g<volume>, \g<pages> (\g<year>)"),
    # APA's issue between a volume and a page, "Journal, 465(1), 941--951" (authordate1-4,
    # agu04, newcastle): the journal, volume and page had gone unread (a year in the
    # parentheses is acm's "116, 16 (2016), 161804", its rule below)
    (re.compile(r"(?<![\d.])(?P<volume>\d{1,5})\s?\((?!(?:1[89]|20)\d\d\))\d{1,4}\),\s*(?=[A-Za-z]?\d+(?:\s*[-–]+\s*\d+)?"
                r"\s*(?:[.,;]|$))"), r"\g<volume>, "),
    # tufte.bst "\emph{Phys Lett B}, 753, 2016, pp. 677--681", "116(16), 2016, p. 161804":
    # the year between the volume and the page (read as the pages; before Harvard's rule,
    # which took the year for the volume)
    (re.compile(r"(?<!no\.)(?<!no\.\s),\s*(?P<volume>\d{1,5})(?:\s*\(\d{1,4}\))?,\s*"
                r"(?P<year>(?:1[89]|20)\d\d),\s*pp?\.\s*" + _PAGES),
     r" \g<volume>, \g<pages> (\g<year>)"),
    # Harvard "Journal, 95(4), p.043541", "Journal, 2, pp.125-130" (not IEEE's "no. 4, p. 5")
    (re.compile(r"(?<!no\.)(?<!no\.\s),\s*(?P<volume>\d{1,5})(?:\s*\(\d{1,3}\))?,\s*pp?\.\s*"
                + _PAGES), r" \g<volume>, \g<pages>"),
    # Vancouver/NLM "PhysRevD. 2017;95(4):043541", "Phys Rev D. 2017 Feb 28;95:043541"
    (_VANCOUVER_VENUE, r" \g<volume>, \g<pages> (\g<year>)"),
    # GB/T 7714 "Phys. Rev. D, 2017, 95(4): 043541" (read as volume 2017, pages 95)
    (re.compile(r",\s*(?P<year>(?:1[89]|20)\d\d),\s*(?P<volume>\d{1,5})(?:\s*\(\d{1,4}\))?"
                r"\s*:\s*" + _PAGES), r" \g<volume>, \g<pages> (\g<year>)"),
    # acm.bst "Phys. Rev. Lett. 116, 16 (2016), 161804": volume, issue (year), pages
    (re.compile(r"\b(?P<volume>\d{1,5}),\s*\d{1,4}\s*\((?:[A-Z][a-z]{2,8}\.?\s+)?"
                r"(?P<year>(?:1[89]|20)\d\d)\),\s*" + _PAGES + r"(?![\w.]*\d)"),
     r"\g<volume>, \g<pages> (\g<year>)"),
    # ABNT (abntex2) "Phys. Rev. Lett., v. 116, n. 16, p. 161804, 2016" (v. = volume,
    # n. = número, p. = página)
    (re.compile(r",\s*v\.\s*(?P<volume>\d{1,5}),\s*(?:n\.\s*\d{1,4},\s*)?p\.\s*" + _PAGES
                + r",\s*(?:[a-z]{3,4}\.?\s+)?(?P<year>(?:1[89]|20)\d\d)\b"),
     r" \g<volume>, \g<pages> (\g<year>)"),
    # DIN 1505 "Phys. Rev. D 95 (2017), Nr. 4, S. 043541" (S. = Seite)
    (re.compile(r"\b(?P<volume>\d{1,5})\s*\((?P<year>(?:1[89]|20)\d\d)\),\s*(?:Nr\.\s*\d+,\s*)?"
                r"S\.\s*" + _PAGES), r"\g<volume>, \g<pages> (\g<year>)"),
)


#: agu.bst's page with a thousands separator after a volume: "95, 043,541, 2017" (agu04:
#: after an issue, "116(16), 161,804").
_THOUSANDS_PAGE = re.compile(r"(\b\d{1,5}(?:\(\d{1,4}\))?,\s+)(\d{1,3}),(\d{3})(?!\d|,\d)")
#: An abbreviated journal (a full stop in its 1-6 words), volume and pages between commas.
_ABBREV_COMMA_VENUE = re.compile(
    r",\s*(?P<journal>(?=[^,]*[A-Za-z]{2})[A-Z][A-Za-z]*\.(?:\s?[A-Z][A-Za-z]*\.?){0,5}),\s*"
    r"(?P<volume>[A-Z]?\d{1,5}),\s*(?P<pages>[A-Za-z]?\d+(?:\s*[-–]+\s*[A-Za-z]?\d+)?)(?![\w.]*\d)")


def _venue_forms(text: str) -> str:
    """``text`` with the venues of :data:`_VENUE_FORMS` rewritten."""
    text = _THOUSANDS_PAGE.sub(r"\1\2\3", text)
    for pattern, repl in _VENUE_FORMS:
        if pattern.search(text):
            text = pattern.sub(repl, text)
    return text


_UPPER = "A-Z\u00C0-\u00D6\u00D8-\u00DE\u0100-\u024F"
_WORD_TAIL = "\\w'\u2019\\-"
#: A family name: capitalised words with a lower-case letter, particles before them
#: ("Hui", "van der Veken", "Ruiz de Austri", "O'Raifeartaigh").
_FAMILY_NAME = (rf"(?:(?:van|von|der|den|de|del|della|di|da|dos|du|la|le|ten|ter)\s+)*"
                rf"[{_UPPER}][{_WORD_TAIL}]*[a-z\u00DF-\u00FF][{_WORD_TAIL}]*"
                rf"(?:\s+(?:(?:de|del|la|van|von|der)\s+)*"
                rf"[{_UPPER}][{_WORD_TAIL}]*[a-z\u00DF-\u00FF][{_WORD_TAIL}]*)?")
#: Given names: words or initials ("Lam", "Jeremiah P.", "J.-P.", "D. f." as BibTeX prints
#: "D.-f.", see :data:`_INI`).
_INITIALS_RUN = (rf"[{_UPPER}][a-z]?(?:\.|-(?=[{_UPPER}]))"
                 rf"(?:\s?-?[{_UPPER}][a-z]?\.|\s[a-z]\.(?=\s))*")
_GIVEN_NAMES = (rf"(?:[{_UPPER}][{_WORD_TAIL}]*[a-z\u00DF-\u00FF][{_WORD_TAIL}]*|{_INITIALS_RUN})"
                rf"(?:\s+(?:[{_UPPER}][{_WORD_TAIL}]*[a-z\u00DF-\u00FF][{_WORD_TAIL}]*|"
                rf"{_INITIALS_RUN})){{0,3}}")
_NATURAL_NAME = rf"{_GIVEN_NAMES}\s+{_FAMILY_NAME}(?:,?\s+(?:Jr\.|Sr\.|III?))?"
#: MLA and Chicago (Google Scholar's "Cite" among them): the first author inverted, the
#: others in natural order, "and" before the last, or "et al." after the first:
#: "Hui, Lam, Jeremiah P. Ostriker, Scott Tremaine, and Edward Witten." Those lists
#: had been read as no authors, so a wrong author passed.
#: (the first family name is one word after its particles: "Xiaolong Du, Christoph
#: Behrens, and Jens C. Niemeyer" is plain.bst's natural order, not "Du, X.")
_FIRST_FAMILY = (rf"(?:(?:van|von|der|den|de|del|della|di|da|dos|du|la|le|ten|ter|{_VON_INITIAL})\s+)*"
                 rf"[{_UPPER}][{_WORD_TAIL}]*[a-z\u00DF-\u00FF][{_WORD_TAIL}]*")
_INVERTED_FIRST = re.compile(
    rf"^(?P<family>{_FIRST_FAMILY}),\s+(?P<given>{_GIVEN_NAMES})"
    rf"(?P<suffix>,\s+(?:Jr\.|Sr\.|III?))?"
    # (each name atomic: a name ends at its comma, and without it a long list that is no
    # such list took minutes to refuse, trying every way to cut each name in two)
    rf"(?:(?P<etal>,?\s+et\s+al\.?)|(?P<others>(?:,\s+(?>{_NATURAL_NAME}))*"
    rf"(?:,?\s+(?:and|&|und|og|och|y)\s+(?>{_NATURAL_NAME}))?)"
    # (cje: "Kobayashi, Tatsuo, Akane Oikawa, Naoya Omoto et~al.")
    rf"(?P<more>,?\s+et\s+al\.?)?)"
    rf"\s*[.,]?\s*(?:\(?(?:1[89]|20)\d\d[a-z]?\)?\.?)?$")


def first_inverted_names(head: str) -> tuple[list[str], bool] | None:
    """The names of an MLA/Chicago author list before a quoted title (None if ``head``
    is no such list)."""
    m = _INVERTED_FIRST.match(head.strip())
    if m is None:
        return None
    others_text = m.group("others") or ""
    if others_text and len([w for w in m.group("given").split() if len(w.rstrip(".")) > 1]) > 1:
        return None  # "Anisha, Oliver Atkinson, ...": a one-word name, then natural names
    suffix = (m.group("suffix") or "").strip(" ,")
    # BibTeX's "von Last, Jr, First"
    first = ", ".join(x for x in (m.group("family"), suffix, m.group("given")) if x)
    others = m.group("others") or ""
    if not others and not m.group("etal") and re.fullmatch(_INITIALS_RUN, m.group("given")):
        return None  # "Witten, E.": the other rules read it as before
    names = [first] + [n.strip() for n in re.split(
        r",\s+(?:(?:and|&)\s+)?|,?\s+(?:and|&|und|og|och|y)\s+", others) if n.strip()]
    return names, bool(m.group("etal") or m.group("more"))


#: A collaboration as the author, then the year (mnras, aasjournal): "CMS Collaboration
#: 2025n, PoS, ICHEP2024, 992"; the name and the year had been read as the title.
_COLLABORATION_YEAR = re.compile(
    r"^(?P<collab>(?:The\s+)?[A-Z][\w\-/&]*(?:\s+[A-Z][\w\-/&]*){0,3}\s+Collaboration)\s*[.,]?\s*"
    r"\(?(?P<year>(?:1[89]|20)\d\d)[a-z]?\)?(?:[,.:]\s*|\s*$|(?P<bare>\s+(?=[A-Z\u201c])))"
    r"(?P<rest>.*)$")  # (bare: iopart-num's "{CMS Collaboration} 2025 Title")
#: elsarticle's proceedings: ", in: Booktitle, Vol. 141, 2026, p. 630" (its words had
#: been read as a journal "Vol." with volume 141 and pages 2026).
_IN_PROCEEDINGS = re.compile(
    r",\s*(?:in:\s+(?P<booktitle>.{4,}?)|(?=Vol\.))(?:,?\s*Vol\.\s*(?P<volume>[\w\-]+))?"
    r"(?:,\s*(?:[A-Z][a-z]+\.?\s+)?(?P<year>(?:1[89]|20)\d\d))"
    r"(?:,\s*pp?\.\s*(?P<pages>" + PAGE_RANGE + r"))?[\s.,;]*$")


#: IEEE's and the machine-learning venues' proceedings after the title: ", in
#: Proceedings of the 32nd International Conference on Machine Learning, vol. 37, pp.
#: 1530-1538, 2015." (the tail of the event's name had been read as the journal "Machine
#: Learning": a false MINOR).
_IN_PROCEEDINGS_IEEE = re.compile(
    r",\s*in\s+(?P<booktitle>(?:Proc\.|Proceedings\b|Advances\s+in\b).{4,}?)"
    r"(?:,\s*[Vv]ol\.\s*(?P<volume>[\w\-]+))?(?:,\s*pp?\.\s*(?P<pages>" + PAGE_RANGE + r"))?"
    r",\s*(?:[A-Z][a-z]+\.?\s+)?(?P<year>(?:1[89]|20)\d\d)[\s.,;]*$")


#: elsarticle's report or thesis after its title: ", Tech. rep., ESA, GAIA-C6-TN-003 (June
#: 2010)", ", Tech. Rep. NOST 100-1.1, NASA/NOST", ", Ph.D. thesis, University of
#: Cambridge (2010)": the type, the institution and the note had been read into the title.
_REPORT_OR_THESIS_TAIL = re.compile(
    r",\s*(?:Tech\.\s*[Rr]ep\.|Technical\s+[Rr]eport|Ph\.\s*D\.\s+thesis|"
    r"(?:Master's|Doctoral|Bachelor's|Diploma)\s+thesis)(?:\s+[^,]{1,40})?(?:,\s*(?P<tail>.*))?$")


def _without_report_or_thesis(rest: str, out: dict[str, str]) -> str:
    """``rest`` up to its report's or thesis's type (:data:`_REPORT_OR_THESIS_TAIL`); the year of
    the date that ends the tail goes into ``out``."""
    rm = _REPORT_OR_THESIS_TAIL.search(rest)
    if rm is None or not _FAMILY_WORD_OR_TITLE.search(rest[:rm.start()]):
        return rest
    ym = re.search(r"\(\s*(?:[A-Z][a-z]+\.?\s+)?(?P<year>(?:1[89]|20)\d\d)[a-z]?\s*\)[\s.]*$",
                   rm.group("tail") or "")
    if ym:
        out.setdefault("year", ym.group("year"))
    return rest[:rm.start()]


#: Two words: something a title could be.
_FAMILY_WORD_OR_TITLE = re.compile(r"[^\W\d_]{2,}\W+[^\W\d_]{2,}")


#: elsarticle's booktitle with its editors and series: "F. V. Prochazka, R. H. Tucker
#: (Eds.), IAU Colloquium 48: Modern Astrometry, Vol. 402 of ESA Special Publication".
_BOOK_EDITORS = re.compile(r"^[^()]{2,300}?\((?:Eds?|eds?)\.\),\s*")
_BOOK_SERIES = re.compile(r",\s*Vol\.\s*(?P<volume>[\w\-]+)(?:\s+of\s+(?P<series>[^,]{3,}))?"
                          r"(?:,\s*(?P<publisher>[^,]{2,}(?:,\s*(?:Inc|Ltd|LLC)\.?)?))?$")
#: (a publisher after the volume: ", Vol.~33, Curran Associates, Inc., 2020, pp. 1-9", ",
#: Vol. 337 of European Physical Journal Web of Conferences, EDP, 2025, p. 01129")


def _booktitle_parts(booktitle: str) -> dict[str, str]:
    """The booktitle without the editors before it and the "Vol. N of Series" after it,
    and that volume and series (ADS exports of proceedings typeset by elsarticle: the
    whole had been read as the booktitle, a false journal MINOR)."""
    if not booktitle:
        return {}
    out: dict[str, str] = {}
    text = _BOOK_EDITORS.sub("", booktitle, count=1)
    sm = _BOOK_SERIES.search(text)
    if sm:
        out.update(volume=sm.group("volume"))
        if sm.group("series"):
            out["series"] = sm.group("series").strip()
        text = text[:sm.start()]
    if text != booktitle and text.strip():
        out["booktitle"] = text.strip(" ,")
    return out


def _name_before_title(piece: str) -> str:
    """The name that opens ``piece`` when a full stop ends it and a title follows ("E.
    Witten. Ultralight scalars as" -> "E. Witten"; "David A. Kosower. A Natural
    Misalignment" -> "David A. Kosower"; "C.-I. Tan (2014)" -> "C.-I. Tan"), else "". The
    name must end in a family word (not an initial) and a word must follow it (the title
    up to its first comma), no abbreviation ("S. Pakvasa Phys. Lett. B" is a name and a
    journal)."""
    year = re.match(r"(?P<lead>.+?)\s*\(\s*(?:1[89]|20)\d\d[a-z]?\s*\)", piece)
    if year and _looks_like_name(year.group("lead")):
        # apsrev4-2 without a title: "... and C.-I. Tan (2014) arXiv:1412.3443"
        return year.group("lead").strip()
    for stop in re.finditer(r"\.\s+", piece):
        lead = piece[:stop.start()].strip()
        title = piece[stop.end():].split()
        if not title:
            break
        if len(title) == 1 and re.fullmatch(r"[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F-]*",
                                            title[0]) and (
                len(lead.split()[-1]) <= 2
                or not re.fullmatch(r"[A-Z\u00C0-\u024F][a-z\u00DF-\u024F]+", title[0])):
            continue  # "Irina Ya. Aref'eva": "Ya." was an initial, the name goes on
            # (a word after a family name opens the title: "A. O. Starinets. Viscosity,
            # black holes, ..."; "CD12" after "Kapusta Vol." does not)
        if not title[0].endswith(".") and re.search(r"[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F-]*"
                                                    r"[a-z\u00DF-\u024F]$", lead) \
                and _looks_like_name(lead):
            return lead
    return ""


def _name_closing_head(piece: str, after: str) -> str:
    """The initialled name that ``piece`` is when its full stop ends the text before the
    venue and nothing but punctuation follows (``after``): an item without a title, or
    whose title the PDF's text put after the venue (plain.bst pasted from pdftotext:
    "Y. H. Ahn and E. J. Chun. Phys.Lett.B, 752:333, 2016. Minimal models ..."; the last
    name had been read as the title, "and E. J. Chun", a false author MINOR), else ""."""
    name = piece[:-1] if re.search(r"[a-z\u00DF-\u024F]\.$", piece) else ""
    if name and not after.strip(" ,.;:") and _is_initialled_name(name):
        return name
    return ""


def _written_out_name_before_title(piece: str, closes_list: bool) -> str:
    """The name that opens ``piece`` before a full stop and a title when it has more given
    names or longer initials than :func:`_name_before_title` reads ("Hans Günter Dosch.
    QCD on the", "Yen Chin Ong. On the", "Irina Ya. Aref'eva. QGP time": plain.bst's
    names in full; the whole list had become the title), else "". The name opens with a
    given name written out, has at most four words, and no digit follows it; only as the
    last name of a list (``closes_list``: "and" before it) or with an initial in it, so
    that a title's capitalised words are not taken for a name."""
    for stop in re.finditer(r"\.\s+", piece):
        lead = piece[:stop.start()].strip()
        title = piece[stop.end():].split()
        if not title:
            break
        if not title[0].endswith(".") and len(lead.split()) <= 4 \
                and re.match(r"[A-Z\u00C0-\u024F][a-z\u00DF-\u024F]", lead) \
                and not re.search(r"\d", title[0]) and re.fullmatch(_NATURAL_NAME, lead) \
                and (closes_list or re.search(r"\b[A-Z][a-z]?\.\s", lead)):
            return lead
    return ""


#: One name as a style writes it from a .bib, initials first, that the stricter name
#: patterns miss: an initial of any letter ("Ž.~{Ivezić}", the lower-case particle of
#: "C.~d.~P. {Lagos}"), a family name in lower case ("J.~{vandenBerg}") or with a dash
#: or an ADS tilde ("S.~{González–Gaitán}", "J.~{González-Nu~nez}"); or a suffix alone.
_LOOSE_INITIAL = r"[^\W\d_]{1,2}\.(?:\s*-\s*[^\W\d_]{1,2}\.)?"
_LOOSE_NAME = re.compile(rf"(?:{_LOOSE_INITIAL}\s*){{1,4}}"
                         r"[^\W\d_][\w'\u2019\-\u2013~]*(?:\s+[^\W\d_][\w'\u2019\-\u2013~]*){0,3}"
                         r"|Jr\.?|Sr\.?|I{2,3}|IV")


_MONONYM = re.compile(r"[A-Z\u00C0-\u00DE][a-z\u00DF-\u00FF]+")


def _names_to_title(pieces: list[str]) -> bool:
    """True when every piece left before a quoted title reads as a name written initials
    first (:data:`_LOOSE_NAME`, the first letter a capital). ieeetr and its kin print
    the whole list before the quoted title, "F.~B. {Bianco}, {\\v{Z}}.~{Ivezi{\\'c}},
    ..., ``Title,''": the list had ended at the first name the stricter patterns miss,
    and every author after it was missing (a false MINOR)."""
    return bool(pieces) and all(
        (p[:1].isupper() and _LOOSE_NAME.fullmatch(p) and len(p.split()) <= 6)
        or (_COLLAB.search(p) and _looks_like_name(p))  # "..., and DES Collaboration"
        or _MONONYM.fullmatch(p)  # INSPIRE's one-word authors: "S.~Rai, Prisha, and J.~Kumar"
        for p in pieces)


_APA_YEAR_CLOSE = re.compile(r"^[a-z]?\)\s*[.,:]?\s*")


def _apa_title(after: str, title: str, tail: str) -> tuple[str, str]:
    """The title and the rest of an author-year reference, ``after`` being the text
    after its year ("(2017) ..."); ``title`` and ``tail`` are the reading that ends the
    title at its first full stop. Two layouts end it elsewhere:

    - a quoted title (econ.bst, cje, apsr: "(2017) “Title,” Phys. Rev. D, Vol. 95"):
      the quotation, its comma inside the closing quote;
    - a title that a comma ends before the journal (agu04, ecta, apecon: "(2017),
      Title, Mon. Not. Roy. Astron. Soc., 465(1), 941"): the first full stop is the
      journal's ("Mon."), so a known journal whose reference begins before it ends the
      title.

    The first-full-stop reading had made the title "“Title,” Phys" or ", Title, Mon":
    false title and journal MINORs."""
    close = _APA_YEAR_CLOSE.match(after)
    body = after[close.end():] if close else after
    quoted = _quoted_title(body)
    if quoted and not body[:quoted[1][0]].strip():
        return quoted[0].strip(), body[quoted[1][1]:].lstrip(" ,.;:")
    title = title.strip().lstrip(",.;: ").rstrip(".")
    title_end = body.find(title) + len(title)
    found = _find_journal_ref(body, 0)
    start = found[0] if found else None
    if start is None or start >= title_end:
        # "Title, Mon. Not. Roy. Astron. Soc., 465(1), 941": an APA venue (the issue in
        # parentheses, which the journal-reference rule does not read) of a known journal
        start = _known_apa_venue(body, title_end)
    if start is not None and start < title_end:
        before = body[:start].strip(" ,.;:")
        if len(before.split()) >= 2:
            return before, body[start:]
    return title, tail


_COMMA = re.compile(r",\s*")
_APA_VENUE_AT = re.compile(_APA_VENUE.pattern.removeprefix("^"))


def _known_apa_venue(text: str, end: int) -> int | None:
    """Where the first APA venue (:data:`_APA_VENUE`) of a known journal begins after a
    comma before ``end`` (None when there is none)."""
    from citecheck_tex.vocab.journals import is_known_journal

    for comma in _COMMA.finditer(text, 0, end):
        venue = _APA_VENUE_AT.match(text, comma.end())
        if venue and is_known_journal(venue.group("journal").strip()):
            return comma.end()
    return None


def _parse(text: str) -> dict[str, str]:
    text = " ".join(text.split())
    if not text:
        return {}
    md = _MD.match(text)
    if md:
        return _parse_markdown(md.group("inner"), md.group("url"))
    if "](" in text or "*" in text:
        # markdown inside the reference: "[Title](https://doi.org/...)" (the link's text
        # in its place, its address at the end, for the identifiers) and *emphasis* (the
        # title had been read
        # as "[Title]( *Physical Review D*, 95(4), ...": a false title MINOR)
        links = [m.group(2) for m in _MD_LINK.finditer(text)]
        text = " ".join([_MD_EMPHASIS.sub(r"\1", _MD_LINK.sub(r"\1", text)), *links])
    out: dict[str, str] = {}
    text = _NUMBERING.sub("", text)
    # "---. 2025n, PoS, ICHEP2024, 992": the authors of the item before (aasjournal,
    # apalike); none are read, the rest is the reference (the dash had begun a title)
    text = re.sub(r"^(?:[\u2014\u2013]|-{2,3})\s*[.,]?\s*", "", text)
    rest = _NO_DATE.sub("()", _take_ids(text, out))
    rest = _GLUED_COLLABORATION.sub(r"\1, ", " ".join(_strip_noise(rest).split()))
    gost = gost_reference(rest)
    if gost is not None:  # "Names Title / Names // Journal. — 2016. — Vol. 7. — P. 1."
        return {**out, **gost}
    vancouver = bool(_VANCOUVER_VENUE.search(rest))
    book = _IN_PROCEEDINGS.search(rest) or _IN_PROCEEDINGS_IEEE.search(rest)
    if book:  # elsarticle "..., Title, in: Booktitle, Vol. 141, 2026, p. 630."
        out.update({k: dashes(v).strip(" ,") for k, v in book.groupdict().items() if v})
        out.update(_booktitle_parts(out.get("booktitle", "")))
        rest = rest[:book.start()]
    else:
        rest = _without_report_or_thesis(rest, out)
    rest = _venue_forms(rest)
    cy = _COLLABORATION_YEAR.match(rest)
    if cy:  # mnras: "{ATLAS Collaboration} 2024a" (a note of the collaboration alone)
        out["author"] = "{" + cy.group("collab").strip() + "}"
        out["year"] = cy.group("year")
        rest = cy.group("rest")
        aas = _AAS_VENUE.match(rest)
        if aas:  # "PoS, ICHEP2024, 992"
            out.update({k: dashes(v) for k, v in aas.groupdict().items()})
            return out
        if not rest.strip(" ,.;"):
            return out
        if cy.group("bare"):
            return {**out, **_iop_after_year(rest)}
        # mnras's report: "{ATLAS Collaboration} 2017a, Technical Report NUMBER, Title"
        # (the type had been read as an author's name)
        rest = re.sub(r"^(?:Technical\s+Report|Tech\.\s+Rep\.)(?:\s[^,]*)?,\s*", "", rest)
    pn = _PUBNOTE.match(rest)
    if pn and all_names(pn.group("journal")):
        pn = None  # "B. McInnes and Y. C. Ong, 917, 86": names, volume and page (apsrev4-2
        # without the journal it does not know): the names had been read as the journal
    if pn and not re.search(r"\s", pn.group("journal").replace(". ", ".")) or (
            pn and "." in pn.group("journal")):
        out["journal"] = pn.group("journal").strip()
        out["volume"] = pn.group("volume")
        out["pages"] = pn.group("pages")
        if pn.group("year"):
            out["year"] = pn.group("year")
        return out
    munich = _munich(rest)
    if munich is not None:
        return {**out, **munich}
    apa = _APA.match(rest)
    if apa and (all_names(apa.group("authors"))
                or first_inverted_names(apa.group("authors")) is not None):
        names, truncated = first_inverted_names(apa.group("authors")) or _authors_from(
            apa.group("authors"))
        if names:
            out["author"] = _bibtex_authors(names, truncated)
        if apa.group("year"):
            out["year"] = apa.group("year")
        title, tail = _apa_title(rest[apa.start("close"):], apa.group("title"), apa.group("tail"))
        out["title"] = title.strip("\u201c\u201d").strip()
        found = _find_journal_ref(tail, 0)
        apa_venue = _APA_VENUE.match(tail)
        if found and not (apa_venue and found[0] >= apa_venue.end()):
            out.update({k: v for k, v in found[2].items() if k != "year"})
            between = tail[:found[0]].strip(" ,.;")
            if between and between[0].islower():  # the title went on: "galaxy. ii: anisotropy"
                out["title"] = f"{out['title']}. {between}"
        elif apa_venue is not None:
            # (before a journal reference after it: agu04's "Phys. Rev. Lett., 116(16),
            # 161804, [Erratum: Phys.Rev.Lett. 117, 159901 (2016)]" is no erratum)
            # "Physical Review D, 95(4), 043541.": the journal ends at a comma
            out.update({k: dashes(v).strip()
                        for k, v in apa_venue.groupdict().items() if v})
        elif jm2 := _JOURNAL_REF.search(tail):
            out["journal"] = jm2.group("journal").strip().rstrip(",")
            out["volume"] = jm2.group("volume")
            out["pages"] = dashes(jm2.group("pages"))
        elif lone := (_BARE_VOLUME_PAGES.fullmatch(tail)
                      or _TITLE_VOLUME_PAGES.search(out["title"])):
            # an entry without its journal (biblatex's journaltitle, unknown to bibtex):
            # the volume and page alone after the title, in its block (ecca: "Title.
            # \textbf{760}, 110.") or after its comma (agu04: "Title, \textit{760}, 110,");
            # left unread or in the title, a wrong page went unseen
            if lone.string is out["title"]:
                out["title"] = out["title"][:lone.start()].strip(" ,.")
            out.update({k: dashes(v) for k, v in lone.groupdict().items()})
        return out
    fi = _family_initials(rest) or _family_bare_initials(rest, vancouver)
    if fi is not None:
        return {**out, **fi}
    bar = _TITLE_BAR_AUTHORS.match(rest)
    if bar and all_names(bar.group("authors")):
        names, truncated = _authors_from(bar.group("authors"))
        out["author"] = _bibtex_authors(names, truncated)
        out["title"] = bar.group("title").strip(" ,.;:")
        return out
    sy = _SURNAME_YEAR.match(rest)
    if sy:
        names, truncated = _authors_from(sy.group("authors"))
        out["author"] = _bibtex_authors(names, truncated)
        out["year"] = sy.group("year")
        tail = sy.group("rest")
        found = _find_journal_ref(tail, 0)
        title = tail[:found[0]] if found else tail
        if found:
            out.update({k: v for k, v in found[2].items() if k != "year"})
        title = title.strip(" ,.;:")
        if len(title.split()) >= 2:
            out["title"] = title
        return out
    rest = re.sub(r"\(([^()]*(?:Collaboration|Collab\.)[^()]*)\)", " ", rest)
    title_span: tuple[int, int] | None = None
    quoted = _quoted_title(rest)
    if quoted:
        out["title"], title_span = quoted
    ym = _YEAR_PAREN.search(rest)
    if ym:
        out["year"] = ym.group(1)
    search_from = title_span[1] if title_span else 0
    jspan: tuple[int, int] | None = None
    found = _find_journal_ref(rest, search_from)
    comma_venue = None if found else _COMMA_VENUE.search(rest, search_from)
    if found:
        jspan = (found[0], found[1])
        out.update(found[2])
    elif comma_venue:
        jspan = (comma_venue.start("journal"), comma_venue.end())
        out.update({k: dashes(v).strip()
                    for k, v in comma_venue.groupdict().items() if v})
    else:
        for cand in _JOURNAL_REF.finditer(rest, search_from):
            journal = cand.group("journal").strip()
            # a person's name before digits is no journal ("PLoS One 11" is one)
            if journal and re.search(r"[A-Za-z]{2}", journal) and not _is_initialled_name(journal) \
                    and not _LABELLED_VOLUME.search(rest, 0, cand.start("journal")) \
                    and not _month_year(cand):
                # (after "vol." comes the volume: ieeetr's "vol.~CD12" is no journal "CD")
                jspan = cand.span()
                out["journal"] = journal.rstrip(",")
                out["volume"] = cand.group("volume")
                out["pages"] = dashes(cand.group("pages"))
                year = cand.group("year1") or cand.group("year2")
                if year:
                    out["year"] = year
                break
        else:
            # "Title, Phys. Dark Univ., 16, 22--25, 2017" (agu.bst): an abbreviated
            # journal the tables lack, volume and pages between commas
            av = _ABBREV_COMMA_VENUE.search(rest, search_from)
            lone = _BARE_VOLUME_PAGES.match(rest, search_from) if title_span else None
            if av:
                jspan = (av.start("journal"), av.end())
                out.update({k: dashes(v).strip() for k, v in av.groupdict().items()})
            elif lone:
                # a quoted title, then the volume and page of an entry without its journal
                # (itaxpf: "“Title.” \textit{760}, 110."): the page had not been read
                jspan = lone.span()
                out.update({k: dashes(v) for k, v in lone.groupdict().items()})
            elif labelled := _LABELLED_VOLUME_PAGES.search(rest, search_from):
                # the labelled volume and page that end an entry without its journal
                # (usmeg-a, biblatex's journaltitle unknown to bibtex: "Title. vol. 760,
                # p. 110."): neither had been read, so a wrong page went unseen
                jspan = labelled.span()
                out.update({k: dashes(v) for k, v in labelled.groupdict().items()})
    if "year" not in out:
        # a page number is no year ("Phys. Rev. Lett., 78, 1861")
        unpaged = rest[:jspan[0]] + " " + rest[jspan[1]:] if jspan else rest
        years = _YEAR.findall(unpaged)
        if years:
            out["year"] = years[-1]
    head_end = min(x for x in (
        title_span[0] if title_span else len(rest),
        jspan[0] if jspan else len(rest),
    ))
    head = rest[:head_end]
    dated = _NAMES_THEN_YEAR.search(head) if title_span else None
    if dated and head[:dated.start()].strip():
        # the year between the names and the quoted title (ajl: "Marolf D & J Wien 2016
        # “Title”"): the last name and the year had been one piece, no name, and the list
        # had been read as the title
        out.setdefault("year", dated.group("year"))
        head = head[:dated.start()]
    semi = _FI_SEMICOLON_LIST.match(head) if title_span else None
    if semi is not None:  # ACS, ABNT: "NOH, H.; PARK, C.-G.; HWANG, J.-c. \emph{Title}"
        names = [n.strip(" ,") for n in semi.group("names").split(";")]
        out["author"] = _bibtex_authors(names, bool(semi.group("etal")))
        return out
    inverted = first_inverted_names(head) if title_span else None
    if inverted is not None:
        out["author"] = _bibtex_authors(*inverted)
        return out
    # the author list ends at "et al.": "B. Chen et al., Bubbling AdS and droplet ..."
    etal = _ET_AL.search(head)
    names_part = head[:etal.start()] if etal else head
    # ":" ends a Springer author list ("Langmann, E., Szabo, R.J.: Title. JHEP ...")
    # ("&" between two letters joins a word: "Gaia TT&C Subsystem Analysis", "R&D")
    # (smf's dash before the quoted title: "J. O. Andersen & A. Tranberg – “Title”")
    pieces = [p.strip(" :\u2013\u2014") for p in re.split(
        rf",|;|:\s|\band\b|(?<![A-Za-z])&|&(?![A-Za-z])|\be(?=\s+[A-Z]\.)|{_OTHER_AND}", names_part)
        if p.strip(" :\u2013\u2014")]
    # a Springer list ends at its colon: "Cabibbo, N.: Unitary Symmetry and Leptonic Decays"
    colon = re.search(r":\s", names_part)
    if colon and all_names(names_part[:colon.start()]):
        pieces = [p.strip() for p in re.split(rf",|;|\band\b|&|{_OTHER_AND}", names_part[:colon.start()])
                  if p.strip()]
    author_pieces: list[str] = []
    initialled = False
    collaboration = False  # a collaboration was named: "Advanced LIGO" after it is a title
    # "A Grassi, Y Hatsuda and M Mariño": initials without full stops first; "A Review"
    # alone is no name, so a lone "A"/"I" initial needs a second name of the form
    bare = [p for p in pieces if _INITIALS_FIRST_BARE.match(p)]
    for k, p in enumerate(pieces):
        if _INITIALS_FIRST_BARE.match(p) and (
                len(bare) > 1 or not re.match(r"[AI]\s", p)
                # (after "&" or "and" a name, in a list that writes its initials without
                # full stops: ajl's "Sil K & A Misra 2016 “Title”"; not "S. P. Martin and A
                # Supersymmetry, primer", a title split by an extractor)
                or author_pieces and re.search(r"(?:&|\band)\s*$", head[:head.find(p)])
                and any(_FAMILY_FIRST_BARE.match(q) or _INITIALS_FIRST_BARE.match(q)
                        for q in author_pieces)) \
                or _split_name_run(p):
            author_pieces.append(p)
            initialled = True
            continue
        nxt = pieces[k + 1] if k + 1 < len(pieces) else ""
        if (initialled or collaboration) and "." not in p and _FULL_NAME.match(p) \
                and not _is_initialled_name(p) and not _COLLAB.search(p):
            # after "N. Cabibbo", "Unitary Symmetry" is a title that looks like a name; so
            # is "Advanced LIGO" after "The LIGO Scientific Collaboration"
            break
        initialled = initialled or _is_initialled_name(p)
        # "Sharif, M." and refextract's "Abhishodh, P" (initials without a full stop)
        initials = _INITIALS_OR_BARE.fullmatch(nxt)
        if (_looks_like_name(p) or _INITIALS_ONLY.fullmatch(p)
                or (author_pieces and _INITIALS_OR_BARE.fullmatch(p))
                or (initials and _FAMILY_WORD.fullmatch(p))):  # "Sharif, M., Saleem, R."
            author_pieces.append(p)
            collaboration = collaboration or bool(_COLLAB.search(p))
        elif title_span and head_end == title_span[0] and author_pieces \
                and _names_to_title(pieces[k:]):
            author_pieces.append(p)
        else:
            # plain.bst and its kin end the list with a full stop, not a comma: "S.
            # Tremaine, and E. Witten. Ultralight scalars ..." (the last name and the title
            # had been one piece, and the whole of it the title)
            lead = _name_before_title(p) or _written_out_name_before_title(
                p, bool(re.search(r"(?:\band|&)\s*$", head[:head.find(p)]))) \
                or _name_closing_head(p, head[head.find(p) + len(p):])
            if lead:
                author_pieces.append(lead)
            break
    if author_pieces and not initialled and re.match(
            r"\s*,?\s*(?:and|&)\s", head[head.find(author_pieces[-1]) + len(author_pieces[-1]):]):
        # "Thermal Fluctuations and Instability in ...": the "and" joins title words, not
        # names written out in full
        author_pieces = []
    if author_pieces:
        # rebuild the author segment up to the last name piece
        cut = 0
        for piece in author_pieces:  # in order: a short piece ("P") also occurs in others
            cut = head.find(piece, cut) + len(piece)
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
        candidate = re.sub(r"\(\s*\d{4}[a-z]?\s*\)$", "", candidate).strip(" ,.;:")
        candidate = re.sub(r"^(?:(?:1[89]|20)\d{2}[a-z]?)\s*[,.:]\s*", "", candidate)
        candidate = re.sub(r"^\(\s*\d{4}[a-z]?\s*\)\s*[,.:]?\s*", "", candidate)
        candidate = _FILLER.sub("", candidate).strip(" ,.;:")
        candidate = _unrepeated(candidate)
        candidate = _clean_title(candidate, out, has_journal=jspan is not None)
        # a short unquoted title counts when it sits between names and a journal reference
        if len(candidate.split()) >= 3 or (
                len(candidate.split()) == 2 and author_pieces and jspan
                and not re.search(r"\d", candidate) and re.search(r"[A-Za-z]{3}", candidate)):
            if _names_without_separators(candidate) or _is_initialled_name(candidate) \
                    or _INITIALS_FIRST_BARE.match(candidate):
                out["note"] = candidate.strip(" ,.;:")  # not a title: never compared
            else:
                out["title"] = candidate.strip(" ,.;:")
    if not out:
        out["note"] = text
    return out
