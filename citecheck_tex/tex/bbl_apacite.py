"""The fields of an item of apacite's reference list, read from its markup.

apacite.bst (and apacann, apacitex, apacannx: the same items with annotations or
author-index entries) writes every part of an item inside a macro of apacite.sty,
whose arguments are the .bib's fields::

    \\begin{APACrefauthors}Ahn, Y\\BPBI H.\\BCBT {}\\ \\BBA {} Chun, E\\BPBI J.\\end{APACrefauthors}
    \\APACrefYearMonthDay{2016}{}{}.
    {\\BBOQ}\\APACrefatitle {Minimal models ...} {Minimal models ...}.{\\BBCQ}
    \\APACjournalVolNumPages{Phys.Lett.B}{752}{}{333}.
    \\begin{APACrefDOI} \\doi{10.1016/j.physletb.2015.11.067} \\end{APACrefDOI}

Read as free text (the macros dropped, their arguments kept), the names had run
together with the cite key of ``\\APACinsertmetastar{KEY}`` and lost their initials'
full stops ("Ahn2016 Ahn and YH. Chun and EJ"), and title, journal, volume and pages
were not read at all: 27 of the 34 faithful items of each sample paper were flagged.

What each macro prints (apacite.sty): ``\\APACrefatitle{title}{sentence-cased title}``
(an article's title: apacite.bst writes it twice, "(1) don't change case; (2) change
case", and TeX prints the second; the first, the .bib's own, is read),
``\\APACrefbtitle`` the same for a book's title, or a proceedings' or collection's after
``\\BIn`` (In),
``\\APACrefaetitle``/``\\APACrefbetitle`` the English translation of the title,
``\\APACjournalVolNumPages{journal}{volume}{number}{pages}``,
``\\APACrefYearMonthDay{year}{month}{day}`` (``\\APACrefYear{year}``),
``\\APACaddressPublisher{address}{publisher}`` (``...Institution``, and
``\\APACaddressSchool``), ``\\APACtypeAddressSchool{type}{address}{school}``,
``\\APACbVolEdTR{edition, volume}{report number}`` and ``\\APACbVolEdTRpgs{...}{...}{pages}``,
``\\APAChowpublished``, ``\\APACrefnote``; ``\\APACorig...note`` describe the original
of a reprint, not the item. The names of ``APACrefauthors`` are "Family, I. I." each
(``\\BPBI`` the full stop between initials), joined by commas, ``\\BBA`` (&) before the
last, ``\\BOthersPeriod`` (et al.) or ``\\BDBL`` (", ...", the names up to the last one
left out) for a long list, "(Eds.)" after them for editors. apacann prints the .bib's
annote below the reference (``APACrefannotation``): not read.

The item's text reaches this reader with apacite's words expanded
(:data:`citecheck_tex.tex.bbl_macros.PACKAGE_MACROS`: ``\\BPBI`` ".~", ``\\BBA`` "\\&",
``\\BVOL`` "Vol.", ...); the macros with arguments above are read here.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from citecheck_tex.tex.bib import read_arguments
from citecheck_tex.vocab.latex_text import latex_to_unicode

__all__ = ["ApaciteItem", "read_apacite"]


@dataclass(frozen=True, slots=True)
class ApaciteItem:
    """An apacite item: its fields (LaTeX values; the names in BibTeX's form, "others"
    ending a truncated list), its TeX text without an annotation, and that text as
    apacite.sty prints it."""

    fields: dict[str, str]
    reference: str
    text: str


#: apacite.sty's field macros and their number of arguments.
_NARGS = {
    "APACrefYearMonthDay": 3, "APACrefYear": 1, "APACrefatitle": 2, "APACrefbtitle": 2,
    "APACrefaetitle": 2, "APACrefbetitle": 2, "APACjournalVolNumPages": 4,
    "APACaddressPublisher": 2, "APACaddressInstitution": 2, "APACaddressSchool": 2,
    "APACaddressPublisherEqAuth": 2, "APACaddressInstitutionEqAuth": 2,
    "APACtypeAddressSchool": 3, "APACbVolEdTR": 2, "APACbVolEdTRpgs": 3,
    "APAChowpublished": 1, "APACrefnote": 1, "APACorigyearnote": 2,
    "APACorigjournalnote": 6, "APACorigbooknote": 9,
}
_FIELD_MACRO = re.compile(r"\\(" + "|".join(sorted(_NARGS, key=len, reverse=True)) +
                          r")(?![A-Za-z@])")
_AUTHORS = re.compile(r"\\begin\s*\{APACrefauthors\}(?P<names>.*?)\\end\s*\{APACrefauthors\}",
                      re.S)
#: "(Ed.)", "(Eds.)" after the names (\BED, \BEDS): the names are the editors'.
_EDITORS_MARK = re.compile(r"\s*(?:\\\s)?\s*\(\s*Eds?\.\s*\)")
#: apacann's annotation (the .bib's annote, printed below the reference): what the
#: author says of the work, not the reference; the DOI or arXiv id of another work in it
#: had become the item's own (a false DOI flag).
_ANNOTATION = re.compile(r"\\begin\s*\{APACrefannotation\}.*?(?:\\end\s*\{APACrefannotation\}|$)",
                         re.S)
_ENVIRONMENT = re.compile(r"\\(?:begin|end)\s*\{APACref(?:authors|DOI|URL|URLmsg|annotation)\}")
_YEAR = re.compile(r"(?<!\d)(?:1[5-9]|20)\d\d(?!\d)")
#: The page label apacite puts before a newspaper's page (\BPG, \BPGS: "p.~A1").
_PAGE_LABEL = re.compile(r"^\s*pp?\.(?:\\\s|[\s~])*")
_SPACE = r"(?:\\\s|[\s~])*"
#: The parts of a book's or a host's parenthesis: "(2nd ed., Vol.~1)", "(Vol.~2, pp.\\
#: 10--30)", "(No.~123)", "Tech.\\ Rep.\\ No.\\ TR-9".
#: (A value with a digit: an editor's initial "J.-p." is no page label.)
_VALUE = r"(?P<v>[^\s,;()~]*\d[^\s,;()~]*)"
_PART = {
    "volume": re.compile(rf"\bVols?\.{_SPACE}{_VALUE}"),
    "pages": re.compile(rf"\bpp?\.{_SPACE}{_VALUE}"),
    "number": re.compile(rf"\bNos?\.{_SPACE}{_VALUE}"),
}
#: A block that opens with apacite's "In" (\BIn, as PACKAGE_MACROS expands it): the
#: host of the item follows (its editors, its title, its volume and pages). On the
#: block's TeX text: a title that begins with the word is inside a macro there.
_IN = re.compile(r"\s*In\b")
#: The field the second argument of an address macro gives.
_PLACE = {"APACaddressPublisher": "publisher", "APACaddressInstitution": "institution",
          "APACaddressSchool": "school"}
_SUFFIX = re.compile(r"(?:Jr|Sr|Jnr|Snr)\.?|I{2,3}|IV|VI{0,3}")
#: A given name as apacite prints it: initials only ("Y. H.", "J.-c.", "Ch.", "É.").
_INITIALS = re.compile(r"(?:[^\W\d_]{1,2}\.[\s\u00a0]*-?[\s\u00a0]*)+")
_ET_AL = re.compile(r"\bet[\s~]*al\.?")
_DOTS = re.compile(r"\\dots\b\s*(?:\{\})?|\\ldots\b\s*(?:\{\})?|\.\.\.|\u2026")


def _uses(text: str) -> Iterator[tuple[str, list[str], int, int]]:
    """Each use of a field macro: (name, arguments, start, end), in the text's order."""
    pos = 0
    while (m := _FIELD_MACRO.search(text, pos)) is not None:
        got = read_arguments(text, m.end(), _NARGS[m.group(1)])
        if got is None:
            pos = m.end()
            continue
        yield m.group(1), got[0], m.start(), got[1]
        pos = got[1]


def _clean(value: str) -> str:
    return " ".join(value.split()).strip()


def _title(value: str) -> str:
    """A book's title without the full stop the style adds inside its arguments when no
    parenthesis follows ("\\APACrefbtitle {A booklet.} {A booklet.}")."""
    value = _clean(value)
    return value[:-1].rstrip() if value.endswith(".") and not value.endswith("..") else value


def _read_names(text: str) -> tuple[list[str], bool]:
    """The names of an ``APACrefauthors`` environment (its words expanded) in BibTeX's
    form, and True when the list is cut short ("et al.", or ", ..." before the last
    name, which is left out: the names between are unknown). Each name is "Family, I."
    (with ", Jr." after the initials when the person has one); a piece of the list
    that no initials follow is a name alone (an organisation, a mononym)."""
    # (TeX drops the space after a control word: "J\\BHBI c." prints "J.-c.")
    text = re.sub(r"\.-\s+", ".-", text.replace("{}", " ").replace("\\ ", " "))
    truncated = False
    dots = _DOTS.search(text)
    if dots is not None:
        text, truncated = text[:dots.start()], True
    if _ET_AL.search(text):
        text, truncated = _ET_AL.sub(" ", text), True
    pieces: list[str] = []
    for part in re.split(r"\\&|&", text):
        pieces.extend(_top_level_commas(part))
    pieces = [p.strip() for p in pieces if p.strip(" .\n")]
    names: list[str] = []
    i = 0
    while i < len(pieces):
        family = pieces[i]
        i += 1
        given = suffix = ""
        if i < len(pieces) and not _SUFFIX.fullmatch(_plain(pieces[i])) \
                and _INITIALS.fullmatch(_plain(pieces[i])):
            given = pieces[i]
            i += 1
        if i < len(pieces) and _SUFFIX.fullmatch(_plain(pieces[i])):
            suffix = pieces[i]
            i += 1
        if not given and not suffix:
            # (the style's full stop after the last name: "{CMS Collaboration}.")
            family = family.rstrip(".").strip()
            if " " in _plain(family) and not family.startswith("{"):
                family = "{" + family + "}"  # one name, not given and family names
        names.append(", ".join(x for x in (family, suffix, given) if x))
    return names, truncated


def _plain(piece: str) -> str:
    return latex_to_unicode(piece).strip()


def _top_level_commas(text: str) -> list[str]:
    out: list[str] = []
    depth = 0
    start = 0
    for i, c in enumerate(text):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "," and depth == 0 and (i == 0 or text[i - 1] != "\\"):
            out.append(text[start:i])
            start = i + 1
    out.append(text[start:])
    return out


def _parts(text: str) -> dict[str, str]:
    """The volume, pages and number labelled in a parenthesis of apacite's words."""
    out: dict[str, str] = {}
    for name, pattern in _PART.items():
        m = pattern.search(text)
        if m is not None:
            out[name] = m.group("v").rstrip(".")
    return out


def _block_end(text: str, pos: int) -> int:
    end = text.find("\\newblock", pos)
    return len(text) if end < 0 else end


def read_apacite(body: str) -> ApaciteItem | None:
    """The fields of an apacite item (``body``: its text after ``\\bibitem[...]{key}``,
    apacite's words expanded), or None when ``body`` has no apacite markup."""
    body = _ANNOTATION.sub(lambda m: "\n" * m.group(0).count("\n"), body)
    authors = _AUTHORS.search(body)
    uses = list(_uses(body))
    if authors is None and not any(u[0].startswith("APACref") for u in uses):
        return None
    fields: dict[str, str] = {}
    if authors is not None:
        names, truncated = _read_names(authors.group("names"))
        if names:
            role = "editor" if _EDITORS_MARK.match(body, authors.end()) else "author"
            fields[role] = " and ".join(names + (["others"] if truncated else []))
    printed: list[str] = []
    pos = 0
    for name, args, start, end in uses:
        printed.append(body[pos:start])
        printed.append(_printed(name, args))
        pos = end
        if name in ("APACrefYearMonthDay", "APACrefYear"):
            year = _YEAR.search(args[0])
            if year is not None:
                fields.setdefault("year", year.group(0))
        elif name == "APACrefatitle":
            fields.setdefault("title", _clean(args[0]))  # (its full stop is outside)
        elif name == "APACrefbtitle":
            # a book's title, or after "In" its host's (a proceedings, a collection); the
            # parenthesis after it holds the book's or the host's volume, pages, number
            rest = body[end:_block_end(body, end)]
            if "title" in fields or _IN.match(_block_before(body, start)):
                # (no full stop added here: the parenthesis follows; "Proc. Sci." keeps its)
                fields.setdefault("booktitle", _clean(args[0]))
            else:
                fields["title"] = _title(args[0])
            _add(fields, _parts(rest))
        elif name == "APACjournalVolNumPages":
            for key, value in zip(("journal", "volume", "number", "pages"), args, strict=True):
                value = _clean(_PAGE_LABEL.sub("", value) if key == "pages" else value)
                if value:
                    fields.setdefault(key, value)
        elif name in _PLACE:
            _add(fields, {"address": _clean(args[0]), _PLACE[name]: _clean(args[1])})
        elif name == "APACtypeAddressSchool":
            _add(fields, dict(zip(("type", "address", "school"), map(_clean, args),
                                  strict=True)))
        elif name in ("APACbVolEdTR", "APACbVolEdTRpgs"):
            _add(fields, _parts(" ; ".join(args)))
        elif name == "APAChowpublished":
            _add(fields, {"howpublished": _clean(args[0])})
        elif name == "APACrefnote":
            _add(fields, {"note": _clean(args[0])})
    for block in re.split(r"\\newblock\b", body):
        # a host without a title: "In (Vol. CD12, p. 029)" (an @inproceedings whose
        # booktitle is empty)
        if _IN.match(block) and "APACrefbtitle" not in block:
            _add(fields, _parts(block))
    printed.append(body[pos:])
    # (no space before the punctuation that follows a name or a title: TeX's "%" ends
    # each name's line in the .bbl)
    text = re.sub(r"\s+(?=[,.])", "", _ENVIRONMENT.sub(" ", "".join(printed)))
    return ApaciteItem(fields, body, text)


def _add(fields: dict[str, str], found: dict[str, str]) -> None:
    """``found``'s values that are not empty, into ``fields`` (a field read first stays)."""
    for key, value in found.items():
        if value:
            fields.setdefault(key, value)


def _block_before(body: str, start: int) -> str:
    """The text of ``start``'s block before it (from the \\newblock before it)."""
    at = body.rfind("\\newblock", 0, start)
    return body[at + len("\\newblock") if at >= 0 else 0:start]


def _joined(*parts: str, sep: str = ", ") -> str:
    return sep.join(p for p in (_clean(x) for x in parts) if p)


def _printed(name: str, args: list[str]) -> str:
    """What apacite.sty prints for a field macro (its empty arguments left out)."""
    if name == "APACrefYearMonthDay":
        return f"({_joined(args[0], _joined(args[1], args[2], sep=' '))})"
    if name == "APACrefYear":
        return f"({_clean(args[0])})"
    if name in ("APACrefatitle", "APACrefbtitle"):
        return f" {args[1]} "
    if name in ("APACrefaetitle", "APACrefbetitle"):
        return f" [{args[1]}] "
    if name == "APACjournalVolNumPages":
        number = f"({_clean(args[2])})" if _clean(args[2]) else ""
        return _joined(args[0], _clean(args[1]) + number, args[3])
    if name in ("APACaddressPublisher", "APACaddressInstitution"):
        return _joined(args[0], args[1], sep=": ")
    if name == "APACaddressSchool":
        return _joined(args[1], args[0])
    if name == "APACtypeAddressSchool":
        inner = _joined(args[0], args[2], args[1])
        return f"({inner})" if inner else ""
    if name in ("APACbVolEdTR", "APACbVolEdTRpgs"):
        inner = _joined(args[0], _joined(*args[1:]), sep="; ")
        return f"({inner})" if inner else ""
    if name in ("APAChowpublished",):
        return args[0]
    if name in ("APACrefnote", "APACorigyearnote"):
        inner = _joined(*args, sep="; ")
        return f"({inner})" if inner else ""
    if name in ("APACaddressPublisherEqAuth", "APACaddressInstitutionEqAuth"):
        return _joined(args[0], "Author", sep=": ")
    return f"(Reprinted from {_joined(*args)})"  # APACorigjournalnote, APACorigbooknote
