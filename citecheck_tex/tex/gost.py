"""References in the Russian GOST 7.0.5 / GOST 7.1 layout.

Most Russian and many Eastern European physics papers print their references this way
(the BibTeX styles rusnat and vak among others), and so do the reference lists pasted
from them:

- the head: the first names, family first ("Ahn Y. H., Chun E. J.", "Ahn, Y. H.",
  "Иванов И. И."), then the title; with four authors or more the title comes first;
- after the title, " / " and the statement of responsibility: every author, initials
  first ("/ Y. H. Ahn, E. J. Chun", "/ T. Kobayashi, A. Oikawa, N. Omoto [et al.]");
- after " // ", the host document: "Phys. Lett. B. 2016. 752. 333.", "Journal. — 2016. —
  Vol. 752, no. 3. — P. 333–336.", "УФН. — 2001. — Т. 171, № 9. — С. 913–938."; the
  areas are parted by ". — ", the volume labelled "Vol."/"V."/"Т.", the issue
  "No."/"№", the pages "P."/"pp."/"С.";
- a book has no host: its imprint area follows the title ("Title. — М.: Наука, 2008. —
  552 с.").

Pasted lists also mix the layouts: the head's names initials first ("Y. H. Ahn, E. J.
Chun. Title // ..."), a host written the physics way ("// Phys. Rev. D 95, 043541
(2017)"), a preprint series as the host ("// Preprint JINR E1-2007-7. 2007").

Read by the rules for other layouts, the family-first names without a comma lost their
split ("Ahn Y. H." is BibTeX's given "Ahn Y.", family "H."), the responsibility ran into
the title and the host was not read: false author and title flags (rusnat 24 of 34
faithful items, vak 13).

The functions take text (Unicode, TeX decoded) and return BibTeX-like fields; they read
nothing and import no other reader.
"""

from __future__ import annotations

import re

__all__ = ["family_first_by", "family_first_names", "gost_host", "gost_reference",
           "initials_first_names"]

#: A capital of the Latin, Latin-1/Extended-A and Cyrillic alphabets.
_UP = "A-Z\u00C0-\u00D6\u00D8-\u00DE\u0100-\u017F\u0400-\u042F"
_LOW = "a-z\u00DF-\u00FF\u0430-\u044F\u0451"
#: One initial: "Y.", "Yu.", "Ю.", "G.-C.", "J.-c.", and BibTeX's lone lower-case second
#: part of a hyphenated name, "Z. q." (Zhen-qiang); "Ya." of Aref'eva.
_INITIAL = (rf"(?:[{_UP}][{_LOW}]{{0,2}}\.(?:\s?-\s?[{_UP}{_LOW}][{_LOW}]?\.)?"
            rf"(?:\s[{_LOW}]\.(?=[\s,]|$))?)")
_INITIALS = rf"{_INITIAL}(?:\s*{_INITIAL}){{0,3}}"
_PARTICLE = r"(?:van|von|der|den|de|del|della|di|da|dos|du|la|le|ten|ter|[a-z]\.)"
#: A family name: capitalised words (apostrophe, hyphen), particles before them.
_FAMILY = (rf"(?:{_PARTICLE}\s+)*[{_UP}][\w'\u2019\-]*[{_LOW}][\w'\u2019\-]*"
           rf"(?:\s+(?:{_PARTICLE}\s+)*[{_UP}][\w'\u2019\-]*[{_LOW}][\w'\u2019\-]*)?")
#: A family name written before its initials: one word after its particles, or words a
#: particle joins ("Ruiz de Austri"); a second capitalised word is a given name ("Day
#: Francesca V.", rusnat's .bib names written out).
_HEAD_FAMILY = (rf"(?:{_PARTICLE}\s+)*[{_UP}][\w'\u2019\-]*[{_LOW}][\w'\u2019\-]*"
                rf"(?:\s+{_PARTICLE}(?:\s+{_PARTICLE})*\s+[{_UP}][\w'\u2019\-]*[{_LOW}][\w'\u2019\-]*)?")
#: Given names as a .bib may hold them: words or initials ("Francesca V.", "David J. E.").
_GIVEN = rf"(?:[{_UP}][\w'\u2019\-]*\.?|{_INITIAL})(?:\s+(?:[{_UP}][\w'\u2019\-]*\.?|{_INITIAL})){{0,3}}"
#: "Family I. I." or "Family, I. I." (GOST's head, rusnat and vak).
_FAMILY_FIRST = rf"(?P<family>{_HEAD_FAMILY}),?\s+(?P<given>{_INITIALS})"
#: "Family I. I." alone (rusnat's names block).
_FAMILY_FIRST_ALONE = rf"(?P<family>{_HEAD_FAMILY})\s+(?P<given>{_INITIALS})"
#: "I. I. Family" (the statement of responsibility).
_INITIALS_FIRST = rf"(?P<given>{_INITIALS})\s*(?P<family>{_FAMILY})"
#: The end of a truncated list: "et al.", "[et al.]", "и др.", BibTeX's "others".
_ETAL = r"(?:\[\s*(?:et\s+al\.?|и\s+др\.?)\s*\]|et\s+al\.?|и\s+др\.?|others)"


def _list_text(text: str) -> tuple[str, bool]:
    """A names list's text without its end (a list's full stop, not an initial's: "Silk
    Joseph." but "Chun E. J."), and True when "et al." or the like ended it."""
    t = " ".join(text.split()).strip(" ,;")
    if re.search(r"[^\W\d_]{3}\.$", t) and not re.search(rf"{_ETAL}$", t):
        t = t[:-1]
    etal = re.search(rf",?\s*{_ETAL}\s*\.?$", t)
    if etal:
        t = t[:etal.start()].strip(" ,")
    return t, etal is not None


def _names(text: str, one: str) -> tuple[list[str], bool] | None:
    """The names of ``text``, a comma-separated list whose every piece is a ``one``
    name, as BibTeX's "Family, I. I.", and True when the list ends truncated; None when
    a piece is no such name."""
    t, truncated = _list_text(text)
    if not t:
        return None
    names: list[str] = []
    for piece in re.split(r"\s*,\s*(?=\S)", t):
        m = re.fullmatch(one, piece.strip())
        if m is None:
            return None
        names.append(f"{' '.join(m.group('family').split())}, {' '.join(m.group('given').split())}")
    return names, truncated



def family_first_names(text: str) -> tuple[list[str], bool] | None:
    """A GOST head's names, family first and without a comma inside a name ("Ahn Y.~H.,
    Chun E.~J." as rusnat prints them, "Иванов И. И., Петров П. П."), as BibTeX names
    ("Ahn, Y. H."), and True for a truncated list; None unless every piece is one."""
    return _names(text, _FAMILY_FIRST_ALONE)


def family_first_by(text: str, families: list[str]) -> tuple[list[str], bool] | None:
    """Names family first with their given names written out, between commas ("Day
    Francesca~V.", "Marsh David J.~E., Silk Joseph", as rusnat prints a .bib's full names),
    as BibTeX names, split where ``families`` (the same persons' family names in the same
    order, from another printing of the list) end; True for a truncated list. None
    unless each piece starts with its family name and goes on with given names."""
    t, truncated = _list_text(text)
    pieces = [p for p in re.split(r"\s*,\s*", t) if p]
    if not pieces or len(pieces) != len(families):
        return None
    names = []
    for piece, family in zip(pieces, families, strict=True):
        given = piece[len(family):].strip() if piece.startswith(family) else ""
        if not re.fullmatch(rf"[{_UP}][\w'\u2019.\-]*(?:\s+[{_UP}{_LOW}][\w'\u2019.\-]*)*", given):
            return None
        names.append(f"{family}, {given}")
    return names, truncated


def initials_first_names(text: str) -> tuple[list[str], bool] | None:
    """A statement of responsibility's names ("Y. H. Ahn, E. J. Chun [et al.]", "И. И.
    Иванов"), as BibTeX names, and True for a truncated list; None unless every piece is
    one."""
    return _names(text, _INITIALS_FIRST)


#: The head's names: one name written "Family, I." (vak) or names "Family I." between
#: commas, then the title. (Not a name with given names written out: "Day Francesca V.
#: Cosmic axion ..." cannot be told from its title without the item's markup.)
_HEAD_NAMES = re.compile(
    rf"^(?P<names>{_HEAD_FAMILY},\s+{_INITIALS}"
    rf"|{_HEAD_FAMILY}\s+{_INITIALS}(?:\s*,\s*{_HEAD_FAMILY}\s+{_INITIALS})*(?:\s*,?\s*{_ETAL})?)"
    rf"\s*[.,]?\s+(?P<title>[^\s;:,/].*)$", re.S)
#: A head that opens with names initials first, a full stop or a comma after them.
_GIVEN_FIRST_HEAD = re.compile(
    rf"^(?P<names>{_INITIALS}\s*{_FAMILY}(?:\s*,\s*{_INITIALS}\s*{_FAMILY})*(?:\s*,?\s*{_ETAL})?)"
    rf"\s*[.,:]\s+(?P<title>[^\s;:,/].*)$", re.S)
#: A head that opens with names whose given names are written out, family first: two
#: names between commas, or one whose written-out given name an initial follows.
_WRITTEN_OUT_NAMES = re.compile(
    rf"^{_HEAD_FAMILY}\s+{_GIVEN}\s*,\s*{_HEAD_FAMILY}\s+{_GIVEN}[\s.,]"
    # (one name: a given name written out, then an initial: "Kosower David A. Title")
    rf"|^{_HEAD_FAMILY}\s+[{_UP}][{_LOW}]+\s+{_INITIALS}\s+[{_UP}]")
#: The statement of responsibility after the title: " / names", up to the area's end.
_RESPONSIBILITY = re.compile(r"\s/\s+(?P<names>[^/]+?)\s*(?:;[^/]*)?$")
#: The host document's mark.
_HOST = re.compile(r"(?:^|(?<=[\s.,]))//(?=\s|$)")
#: The separator of two areas: ". — " ("---" in TeX; vak's babel shorthand leaves a
#: quote before it, '2013. "— 10.').
_AREA = re.compile(r"(?<=[.,])\s+\"?(?:\u2014|\u2013|-{2,3})\s+")
#: A bracketed note after the title: "[Электронный ресурс]", "[Electronic resource]".
_TITLE_NOTE = re.compile(r"\s*\[[^\]]{3,40}\]\s*$")

_YEAR = r"(?:1[89]|20)\d\d"
_PAGES = r"[A-Za-z]{0,2}\d+(?:\s*[-\u2013\u2014]+\s*[A-Za-z]{0,2}\d+)?"
#: One element of the host after the journal, each after a separator.
_ELEMENT = re.compile(
    r"(?:^|(?<=[\s.,;]))(?:"
    r"(?:Vol|V|Т|Том|Tom|vol|т)\.?\s*(?P<volume>[A-Za-z]{0,4}\d[\w\-]*)"
    r"|(?:No|no|Nr|N|№|Iss|iss|Issue|Вып|вып)\.?\s*(?P<number>\d[\w\-/]*)"
    r"|(?:P|p|pp|Pp|PP|С|с|S|Стр|стр|Art|art|Article)\.?\s*(?P<pages>" + _PAGES + r")"
    r"|(?P<year>" + _YEAR + r")[a-z]?|\?{4}"  # (natbib's "????": no year)
    r"|(?P<bare>[A-Za-z]{0,4}\d+(?:\s*[-\u2013]+\s*[A-Za-z]{0,2}\d+)?))"
    r"(?=[\s.,;]|$)")
#: Where the journal's name ends: a separator before the first element.
_JOURNAL_END = re.compile(
    r"(?:^|[.,;]\s+|\s+\"?[\u2014\u2013]\s+)(?=(?:(?:Vol|V|Т|Том|Tom|vol|т|No|no|№|P|pp|С|с)"
    r"\.\s*[A-Za-z]{0,4}\d|№\s*\d|" + _YEAR + r"\b|\?{4}|[A-Za-z]{0,4}\d))")


#: A preprint series as the host ("// Preprint JINR E1-2007-7. 2007. Dubna", "//
#: Препринт ИЯИ РАН"): no journal.
_PREPRINT = re.compile(r"(?:Preprint|Препринт|arXiv|e-?print)\b", re.I)
#: A host written the physics way after "//": "Phys. Rev. D 95, 043541 (2017)".
_PHYSICS_HOST = re.compile(r"(?P<journal>[^\d,()]*[^\W\d_][^\d,()]*?)\s+(?P<volume>[A-Z]?\d{1,5})\s*,\s*"
                           r"(?P<pages>" + _PAGES + r")\s*\((?P<year>" + _YEAR + r")\)")


def gost_host(text: str, *, imprint: bool = False) -> dict[str, str]:
    """The fields of a GOST host (the text after "//") or publication areas: journal,
    year, volume, number, pages. Unlabelled numbers after the year are the volume (with
    the issue after its comma) and the pages, as rusnat prints them ("2016. 465, 1.
    941--951."); one unlabelled number alone is left unread (a volume or a page?).

    With ``imprint`` (the areas of an item without a host: a book, a preprint), "City:
    Publisher" before the year is the address and publisher, not a journal."""
    host = " ".join(text.split()).strip(" .")
    physics = _PHYSICS_HOST.fullmatch(host)
    if physics is not None:  # "// Phys. Rev. D 95, 043541 (2017)"
        return {k: _dashes(v) if k == "pages" else v.strip() for k, v in physics.groupdict().items()}
    out: dict[str, str] = {}
    jm = _JOURNAL_END.search(host)
    journal = host[:jm.start()] if jm else host
    journal = _AREA.split(journal)[0].strip(" .,;\u2014\u2013\"")
    place = _IMPRINT.fullmatch(journal) if imprint else None
    if place is not None:
        out.update({k: v.strip() for k, v in place.groupdict().items()})
        journal = ""
    rest = host[jm.start():] if jm else ""
    if journal and re.search(r"\d", journal) and " " not in journal:
        rest = f"{journal}. {rest}"  # rusnat's "// . CD12. 2013." (a volume, no journal)
        journal = ""
    if journal and not _PREPRINT.match(journal):
        out["journal"] = journal
    bare: list[tuple[str, str]] = []  # (number, the text before it)
    prev_end = 0
    for m in _ELEMENT.finditer(rest):
        sep = rest[prev_end:m.start()]
        prev_end = m.end()
        if m.group("year") and "year" not in out:
            out["year"] = m.group("year")
        elif m.group("volume"):
            out.setdefault("volume", m.group("volume"))
        elif m.group("number"):
            out.setdefault("number", m.group("number"))
        elif m.group("pages"):
            out.setdefault("pages", _dashes(m.group("pages")))
        elif m.group("bare") or m.group("year"):
            bare.append((m.group("bare") or m.group("year"), sep))
    if "volume" in out:
        # vak's issue lost its "№" (\No): "V. 465, 1."
        if bare and bare[0][1].strip() == ",":
            out.setdefault("number", bare[0][0])
    elif bare and "pages" in out:
        out["volume"] = bare[0][0]
    elif len(bare) >= 2:
        out["volume"] = bare[0][0]
        if len(bare) >= 3 and bare[1][1].strip() == ",":
            out["number"] = bare[1][0]
            bare = bare[1:]
        out["pages"] = _dashes(bare[1][0])
    return out


#: A book's imprint area: "М.: Наука, 2008", "Singapore: World Scientific, 2011".
_BOOK_IMPRINT = re.compile(r"[^:,.]{1,40}\.?\s*:\s*[^:]{1,80}?,\s*(?:1[89]|20)\d\d\b")
#: A book's place and publisher: "М.: Наука", "Berlin: Springer".
_IMPRINT = re.compile(r"(?P<address>[^:,]{1,40}?)\s*:\s*(?P<publisher>[^:]{1,80}?)[\s,]*")


def _dashes(pages: str) -> str:
    return re.sub(r"\s*[-\u2013\u2014]+\s*", "-", pages)


def _title(text: str) -> str:
    return _TITLE_NOTE.sub("", text).strip(" .,;:/")


def gost_reference(text: str) -> dict[str, str] | None:
    """The fields of one GOST reference (see the module's docstring), or None when the
    text is not one: neither a host after "//" nor a statement of responsibility that
    ends its area, or no names and no title to read."""
    text = " ".join(text.split())
    host = _HOST.search(text)
    if host is not None:
        head, pub = text[:host.start()], text[host.end():]
    else:
        # without a host: a statement of responsibility ends the first area, or the text
        # (vak's preprint: "Title / S. S. Chabysheva, J. R. Hiller.")
        area = _AREA.search(text)
        head, pub = (text[:area.start()], text[area.end():]) if area else (text, "")
        resp = _RESPONSIBILITY.search(head.rstrip(" ."))
        lead = _HEAD_NAMES.match(head) if area and _BOOK_IMPRINT.match(pub) else None
        # (or a book's: the head's names family first, then the imprint's area:
        # "Горбунов Д. С., Рубаков В. А. Title. — М.: ЛКИ, 2008. — 552 с."; not DIN
        # 1505's "Fang, Z. ; He, S.: Title ... S. 135. -- DOI ...")
        if (resp is None or initials_first_names(resp.group("names")) is None) and (
                lead is None or _head_names(lead.group("names")) is None):
            return None  # (a title's dash is no GOST area)
    head = _AREA.split(head)[0].strip()
    names: tuple[list[str], bool] | None = None
    resp = _RESPONSIBILITY.search(head.rstrip(" ."))
    if resp is not None:
        names = initials_first_names(resp.group("names"))
        if names is not None:
            head = head[:resp.start()]
    lead = _HEAD_NAMES.match(head)
    if lead is not None and (listed := _head_names(lead.group("names"))) is not None:
        names = names or listed
        head = lead.group("title")
    elif names is None and host is not None and (
            given_first := _GIVEN_FIRST_HEAD.match(head)) is not None and (
            listed := initials_first_names(given_first.group("names"))) is not None:
        # initials first, as some lists print GOST's head: "Y. H. Ahn, E. J. Chun. Title //"
        names = listed
        head = given_first.group("title")
    elif names is None and re.match(rf"{_INITIALS_FIRST}\s*,", head):
        return None  # names first and no host: another layout's ("A. B. Name, Title. — ...")
    elif names is None and _WRITTEN_OUT_NAMES.match(head):
        # names with their given names written out ("Du Xiaolong, Behrens Christoph,
        # Niemeyer Jens C. Substructure of ...", rusnat): where the title starts is
        # unknown, so neither is read (the host alone is)
        return gost_host(pub, imprint=host is None)
    title = _title(head)
    if len(title.split()) < 2 and names is None:
        return None
    out = gost_host(pub, imprint=host is None)
    if names is not None:
        out["author"] = " and ".join([*names[0], *(["others"] if names[1] else [])])
    if len(title.split()) >= 2 or (title and names is not None):
        out["title"] = title  # (one word after the names: "Weinberg S. Cosmology. — ...")
    return out


def _head_names(text: str) -> tuple[list[str], bool] | None:
    """The head's names (:data:`_HEAD_NAMES`): "Ahn, Y. H." or "Ahn Y. H., Chun E. J."."""
    one = re.fullmatch(_FAMILY_FIRST, text.strip())
    if one is not None and "," in text:
        return [f"{' '.join(one.group('family').split())}, {' '.join(one.group('given').split())}"], False
    return family_first_names(text)
