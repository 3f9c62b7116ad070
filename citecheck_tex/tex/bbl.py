"""Parse ``.bbl`` files and ``thebibliography`` environments.

Two formats: BibTeX's ``thebibliography`` (``\\bibitem[label]{key}`` then free
text; revtex/apsrev ``\\bibinfo{field}{...}``/``\\bibfield``; natbib/plainnat
``\\newblock`` layout) and biber's ``\\entry{key}{type}{}...\\endentry`` with
``\\name``, ``\\field``, ``\\verb``, ``\\list`` and ``\\missing``. Free text is
parsed into fields by :func:`citecheck_tex.tex.refstring.parse_reference`.
"""

from __future__ import annotations

import logging
import re

from citecheck_tex.model import Entry, EntryOrigin, Problem
from citecheck_tex.tex.bbl_apacite import read_apacite
from citecheck_tex.tex.bbl_jurabib import read_jurabib
from citecheck_tex.tex.bbl_macros import (
    CLASS_MACROS,
    PACKAGE_MACROS,
    Macro,
    bbl_macros,
    expand_macros,
)
from citecheck_tex.tex.bib import build_entry, entry_hygiene, read_delimited
from citecheck_tex.tex.gost import (
    family_first_by,
    family_first_names,
    gost_reference,
    initials_first_names,
)
from citecheck_tex.tex.merged import as_part, merged_references, part_key
from citecheck_tex.tex.refstring import (
    PAGE_RANGE,
    all_names,
    dashes,
    first_inverted_names,
    inverted_pairs,
    listed_names,
    parse_issue,
    parse_reference,
    without_type_mark,
)
from citecheck_tex.vocab.latex_text import blank_ignored, latex_to_unicode

logger = logging.getLogger(__name__)

_BIBITEM = re.compile(r"\\bibitem(?![A-Za-z@])\s*")
_BIBINFO = re.compile(r"\\bibinfo\s*\{(\w+)\}\s*")
#: revtex's link on a title ("\\href {https://mariadb.com/} {\\bibinfo {title} ...").
_HREF_TITLE_URL = re.compile(r"\\href\s*\{\s*(https?://[^}\s]+)\s*\}\s*\{\s*\\bibinfo\s*\{title\}")
_HREF_DOI = re.compile(r"\\(?:href|url)\s*\{\s*(?:https?://)?(?:dx\.)?doi\.org/([^}\s]+)\}", re.I)
#: An arXiv link (JHEP.bst writes an arXiv-only reference as \href{https://arxiv.org/abs/
#: ID}{{\ttfamily ID}}, with no "arXiv:" and no brackets: the id was never read).
_HREF_ARXIV = re.compile(r"\\(?:href|url)\s*\{\s*(?:https?://)?(?:www\.|export\.)?arxiv\.org/"
                         r"(?:abs|pdf)/([^}\s]+?)(?:\.pdf)?\s*\}"
                         # aasjournal.bst's \doarXiv{1412.3443}
                         r"|\\doarXiv\s*\{\s*([^}\s]+)\s*\}", re.I)
#: mnras.bst: "2017, \\mn@doi [MNRAS] {10.1093/mnras/stw2724}, 465, 941" (the journal and
#: the DOI in one macro; its fields were read as a title "@doi [MNRAS] , 465, 941").
#: Without the journal, "\\mn@doi{10.1117/12.2055390}", after a proceedings' pages.
_MN_DOI = re.compile(r"\\mn@doi\s*(?:\[(?P<journal>[^\]]*)\]\s*)?\{(?P<doi>[^}]*)\}")
#: mnras.bst's "(\mn@eprint {arXiv} {1309.5692})": the id (it had been left in the title
#: as "(@eprint arXiv )", a false title MINOR, and the id never read).
#: iopart-num's "(\textit{Preprint} \eprint{1309.5692})": the id ("Preprint" had been
#: read as the title).
_IOP_EPRINT = re.compile(r"\(?\s*(?:\\textit\s*\{\s*Preprint\s*\}|\{\\it\s+Preprint\s*\})?\s*"
                         r"\\eprint\s*\{(?P<id>[^{}]*)\}(?!\s*\{)\s*\)?")
_MN_EPRINT = re.compile(r"\(?\s*\\mn@eprint\s*\{[^}]*\}\s*\{(?P<id>[^}]*)\}\s*\)?")
#: iopart's \etal (and \emph{et al.}'s macro forms): the decoder drops unknown macros,
#: and with it the sign that the list is truncated.
_ETAL_MACRO = re.compile(r"\\etal\b\.?")
#: BibTeX's "and others" printed as the last name by a style that does not turn it into
#: "et al." (aomalpha: "G.~Carugno, and \\bgroup\\scshape{}others\\egroup{}, Title"): the
#: free text had read "and others" as the title's head (a false author MINOR).
_AND_OTHERS = re.compile(r",\s*and\s+(?:(?:\\bgroup|\{)\s*\\scshape\s*\{\}\s*)?others"
                         r"(?:(?:\\egroup|\})\s*\{\})?(?=\s*,)")  # (\bgroup is "{" once expanded)
_SHOWARTICLETITLE = re.compile(r"\\showarticletitle\s*")
_DOIBASE = re.compile(r"\\doibase\s+([^}\s]+)|\\doi\s*\{([^}]+)\}")
_EPRINT = re.compile(r"\\[Ee]print\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}\s*\{([^}]*)\}")
_URLCMD = re.compile(r"\\url\s*\{([^}]+)\}")
_NOISE = re.compile(r"\\penalty\s*-?\d+|\\BibitemOpen|\\BibitemShut\s*\{\w*\}|\\relax|"
                    # (bjnano sets a flag before each \bibitem: "\setboolean{nobreakdashused}{false}")
                    r"\\setboolean\s*\{[^{}]*\}\s*\{[^{}]*\}|"
                    r"\\bibAnnoteFile\s*\{[^}]*\}|\\bibAnnote\s*\{[^}]*\}\s*\{[^}]*\}|"
                    r"\\providecommand\s*\\\w+\s*(?:\[\d\])?\s*\{[^{}]*\}|\\Eprint\s*\{[^}]*\}\s*|"
                    # econ-b's "\hskip0.5em[8]\hskip1.0em" before the names (the glue had
                    # been read as the text "1.0em", the names and the title as the title)
                    r"\\hskip\s*-?\d*\.?\d+\s*(?:em|ex|pt|bp|mm|cm|in)\b")
#: A number printed before the reference (econ-b's "[8]" after its \harvarditem): a label.
_PRINTED_NUMBER = re.compile(r"^\s*\[\d{1,4}\]\s*")
#: xagsm's author index, "\authorindexentries{key}{\do{Hui L@Hui, L.}...}": not printed
#: (its names had been read as the authors, the whole of it as the title).
_AUTHOR_INDEX = re.compile(r"\\authorindexentries\s*(?=\{)")


def _line(text: str, pos: int) -> int:
    return text.count("\n", 0, pos) + 1


def _group(text: str, i: int, opener: str = "{") -> tuple[str, int] | None:
    """A balanced group at i (after whitespace): (content, end) or None."""
    j = i
    while j < len(text) and text[j] in " \t\n":
        j += 1
    if j >= len(text) or text[j] != opener:
        return None
    if opener == "{":
        inner, end = read_delimited(text, j)
        return inner, end
    depth = 0
    k = j
    while k < len(text):
        c = text[k]
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
        elif c == "]" and depth == 0:
            return text[j + 1:k], k + 1
        k += 1
    return None


def parse_bbl_text(text: str, filename: str, *, line_offset: int = 0,
                   origin: EntryOrigin = EntryOrigin.BBL) -> tuple[list[Entry], list[Problem]]:
    """Parse a .bbl (BibTeX or biber) or a thebibliography block. Never raises."""
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    if "\\harvarditem" in text:
        text = _as_bibitems(text)
    try:
        if "\\entry{" in text or "\\refsection" in text:
            entries, problems = _parse_biber(text, filename, line_offset)
        else:
            entries, problems = _parse_bibitems(text, filename, line_offset, origin)
    except Exception as exc:  # noqa: BLE001 - never let a bbl stop the run
        logger.debug("bbl parse failed", exc_info=True)
        return [], [Problem("parse-error", f"cannot parse {filename}: {exc}", file=filename,
                            line=line_offset + 1)]
    for e in entries:
        problems.extend(entry_hygiene(e))
    return entries, problems


#: harvard.sty's item: \harvarditem[short]{long citation}{year}{key} (agsm, dcu, kluwer).
_HARVARDITEM = re.compile(r"\\harvarditem\s*(?:\[[^\]]*\])?\s*\{(?:[^{}]|\{[^{}]*\})*\}"
                          r"\s*\{([^{}]*)\}\s*\{([^{}]*)\}")
_HARVARD_MACROS = re.compile(r"\\harvard(and|yearleft|yearright|urlcmd)\b\\?\s?")
_HARVARD_YEAR = re.compile(r"\\harvardyearleft\s*([^\\{}\s]{1,12})\s*\\harvardyearright")
#: What harvard.sty prints for them: the year in parentheses (jmr: "Rafelt
#: \harvardyearleft 2015\harvardyearright , `Title'" had become "Rafelt 2015 , `Title'",
#: a name list the parser did not end: no authors read, a wrong one passed).
_HARVARD_WORDS = {"and": " and ", "yearleft": " (", "yearright": ")"}


def _as_bibitems(text: str) -> str:
    """harvard.sty's \\harvarditem entries as \\bibitem[(year)]{key}, its \\harvardand
    as "and", its year's parentheses as parentheses (the items had been read as none: 0
    references, no problem told). The text keeps its line breaks, so lines do not move."""
    text = _HARVARDITEM.sub(lambda m: f"\\bibitem[({m.group(1)})]{{{m.group(2)}}}", text)
    # ("\harvardyearleft\n  2014\harvardyearright": "(2014)", its line break after it)
    text = _HARVARD_YEAR.sub(lambda m: f" ({m.group(1)})" + "\n" * m.group(0).count("\n"),
                             text)
    return _HARVARD_MACROS.sub(lambda m: _HARVARD_WORDS.get(m.group(1), " "), text)


def _parse_bibitems(text: str, filename: str, offset: int,
                    origin: EntryOrigin) -> tuple[list[Entry], list[Problem]]:
    clean = blank_ignored(text)
    end_env = clean.find("\\end{thebibliography}")
    if end_env >= 0:
        clean = clean[:end_env]
    starts = [m for m in _BIBITEM.finditer(clean)]
    macros = {**PACKAGE_MACROS, **bbl_macros(clean[:starts[0].start()] if starts else clean),
              **CLASS_MACROS}
    entries: list[Entry] = []
    problems: list[Problem] = []
    seen: dict[str, int] = {}
    for n, m in enumerate(starts):
        stop = starts[n + 1].start() if n + 1 < len(starts) else len(clean)
        i = m.end()
        label = ""
        opt = _group(clean, i, "[")
        if opt is not None:
            label, i = opt
        keyg = _group(clean, i, "{")
        line = offset + _line(clean, m.start())
        if keyg is None:
            problems.append(Problem("parse-error", f"\\bibitem without a key at {filename}:{line}",
                                    file=filename, line=line))
            continue
        key, i = keyg[0].strip(), keyg[1]
        body = clean[i:stop]
        end_line = offset + _line(clean, stop - 1 if stop > 0 else 0)
        if key in seen:
            problems.append(Problem("duplicate-key", f"\\bibitem key {key!r} repeats the one at "
                                    f"line {seen[key]}; the first is used", key=key,
                                    file=filename, line=line))
            continue
        seen[key] = line

        def make(n: int, part: str, at: int, key: str = key, label: str = label,
                 line: int = line, end_line: int = end_line, body: str = body) -> Entry:
            first = line + body.count("\n", 0, at)
            last = end_line if at + len(part) >= len(body.rstrip()) else \
                first + part.count("\n")
            text = _without_own_key_markup(_expanded(part, macros), key)
            return as_part(_bibitem_entry(part_key(key, n), label if n == 0 else "", text,
                                          filename, first, last, origin), key, n)

        entries.extend(merged_references(body, make))
    return entries, problems


_BTX_NAME = re.compile(r"\\btxnamefont\s*(?=\{)")
_BTX_FAMILY = re.compile(r"\\btxlastnamefont\s*\{((?:[^{}]|\{[^{}]*\})*)\}")
#: (TeX's thin space "\\," may stand between initials: bgteuabbr2's "{Ong},~Y.\\,C.")
_BTX_INVERTED = re.compile(r"^\s*\\btxlastnamefont\s*\{(?P<family>(?:[^{}]|\{[^{}]*\})*)\}"
                           r"\s*,\s*(?P<given>(?:\\,|[^,])+?)\s*$")


def _babelbib_names(body: str) -> str:
    """babelbib's names in natural order: its styles mark each person
    (``\\btxnamefont{...}``) and the family name (``\\btxlastnamefont{...}``) and put the
    first author's family name first ("\\btxlastnamefont {Kosower}, David A."), which
    the name reader took for two people ("Kosower and David A": a false author MINOR).
    The marked family name goes after the given names, as plain prints it, and the
    marks go with their braces (a braced group after the names is read as a title)."""
    if "\\btxnamefont" not in body:
        return body
    out: list[str] = []
    pos = 0
    for m in _BTX_NAME.finditer(body):
        if m.start() < pos:
            continue
        inner, end = read_delimited(body, m.end())
        inverted = _BTX_INVERTED.match(inner)
        out.append(body[pos:m.start()])
        out.append(f"{inverted.group('given')} {inverted.group('family')}" if inverted
                   else _BTX_FAMILY.sub(r"\1", inner))
        pos = end
    out.append(body[pos:])
    return "".join(out)


#: French typography's thin space between thousands: francais's page "043\\,541".
_THIN_THOUSANDS = re.compile(r"(?<=\d)\\,(?=\d{3}(?!\d))")


def _expanded(body: str, macros: dict[str, Macro]) -> str:
    """The item with the text macros its .bbl defines expanded (:mod:`bbl_macros`), and
    without a brace group that holds all of its text (abntex2 wraps each reference in
    one, after its \\abntrefinfo: the group had been taken for a braced title)."""
    text = _THIN_THOUSANDS.sub("", expand_macros(_babelbib_names(body), macros))
    lead = len(text) - len(text.lstrip())
    if text[lead:lead + 1] == "{":
        inner, end = read_delimited(text, lead)
        if not text[end:].strip() and len(inner.split()) > 3:
            return text[:lead] + " " + inner + " " + text[end:]
    return text


_OWN_KEY_MARK = re.compile(r"\\[A-Za-z]+\s*\{\s*(?P<key>[^{}\s]+)\s*\}")


def _without_own_key_markup(body: str, key: str) -> str:
    """The item without the markup whose argument is its own cite key, and the groups
    that follow that markup at once: xplain's ``\\authorindexentries{KEY}{\\do{Andersen
    Jens O@Andersen, Jens~O.}...}`` (an index of the names, printed nowhere) before the
    authors, its ``\\bibref{KEY}`` after the year. A link or index mark that carries the
    key carries no reference text: read as text, the index's sort keys had become a
    second copy of every author (a false author MINOR on every item)."""
    if not key or key not in body:
        return body
    out: list[str] = []
    pos = 0
    for m in _OWN_KEY_MARK.finditer(body):
        if m.group("key") != key or m.start() < pos:
            continue
        end = m.end()
        while end < len(body) and body[end] == "{":
            end = read_delimited(body, end)[1]
        if end == m.end() and body[end:].strip(" \n.%"):
            # a mark of the key alone inside the text (apacite's \APACinsertmetastar{KEY}
            # before its names) is left: only the key's own data (a group after it) or a
            # mark that ends the item are certain to hold no reference text
            continue
        out.append(body[pos:m.start()])
        out.append(" " + "\n" * body.count("\n", m.start(), end))
        pos = end
    out.append(body[pos:])
    return "".join(out)


def _bibitem_entry(key: str, label: str, body: str, filename: str, line: int, end_line: int,
                   origin: EntryOrigin) -> Entry:
    raw: dict[str, str] = {}
    # apacite's items: every field in a macro of apacite.sty (:mod:`bbl_apacite`), read
    # from it; the free text is what those macros print. (Without apacann's annotation:
    # the identifiers in it are other works'.)
    apa = read_apacite(body)
    if apa is not None:
        body = apa.reference
    me = _MN_EPRINT.search(body) or _IOP_EPRINT.search(body)
    if me:
        raw["eprint"] = me.group("id").strip()
        body = f"{body[:me.start()]} {body[me.end():]}"
    mn = _MN_DOI.search(body)
    mn_journal = ""
    if mn:  # mnras.bst: the journal's name is the DOI link's text
        raw["doi"] = mn.group("doi").strip()
        mn_journal = latex_to_unicode(mn.group("journal") or "").strip()
        body = f"{body[:mn.start()]} {mn.group('journal') or ''}{body[mn.end():]}"
    authors: list[str] = []
    for m in _BIBINFO.finditer(body):
        g = _group(body, m.end())
        if g is None:
            continue
        name = m.group(1).lower()
        if name in ("author", "person"):  # ACM-Reference-Format: \bibinfo{person}{...}
            authors.append(g[0])
        elif name not in raw:
            raw[name] = g[0]
    authors.extend(_field_macros(body, raw))
    jurabib = read_jurabib(body, raw)
    authors.extend(jurabib or ())
    st = _SHOWARTICLETITLE.search(body)
    if st and "title" not in raw:  # ACM's \showarticletitle{...}
        g = _group(body, st.end())
        if g is not None:
            raw["title"] = g[0]
    ids = ""
    dm = _HREF_DOI.search(body) or _DOIBASE.search(body)
    if dm:
        raw.setdefault("doi", next(x for x in dm.groups() if x))
    markup_doi = dm is not None
    em = _EPRINT.search(body)
    if em:
        ids = em.group(2) or em.group(1)
        raw.setdefault("eprint", ids)
    am = _HREF_ARXIV.search(body)
    if am:
        raw.setdefault("eprint", am.group(1) or am.group(2))
    um = _URLCMD.search(body) or (_HREF_TITLE_URL.search(body) if "\\BibitemOpen" in body
                                  else None)
    if um and "url" not in raw:
        raw["url"] = um.group(1)
    cleaned = _url_ampersands(_spaced_macros(_ETAL_MACRO.sub(" et al.", _AND_OTHERS.sub(
        ", et al.", _PRINTED_NUMBER.sub("", _NOISE.sub(" ", _without_author_index(
            body if apa is None else apa.text)), 1)))))
    free = latex_to_unicode(cleaned)
    decoded: dict[str, str] = {}
    issue = ""
    # revtex's \bibinfo fields are the item's own, however few: an @misc of a title and a
    # link ("GPFS,\ \href {URL} {\bibinfo {title} {{IBM Spectrum Scale}}}"), an article
    # of a journal and a year; read as free text, the label went into the title
    if apa is not None:
        for k, v in apa.fields.items():
            raw.setdefault(k, v)
    elif authors or len(raw) >= 3 or jurabib is not None or (
            "\\BibitemOpen" in body and raw.keys() & {"title", "journal"}):
        if authors:
            people = [_bibinfo_name(a) for a in authors]
            if re.search(r"et\s*(?:~|\s)\s*al", body) and people[-1] != "others":
                people.append("others")
            # the names in BibTeX's form, LaTeX kept: braces hold a compound family name
            # ("{Nebot Gomez-Moran}") and ADS's "Ba{\textasciitilde n}ados" one name
            raw["author"] = " and ".join(people)
            decoded["author"] = latex_to_unicode(raw["author"])
        if "journal" not in raw and "booktitle" not in raw and jurabib is None:
            parsed = _no_journal_from_title(parse_reference(free), raw)
            for k in ("journal", "volume", "pages", "year"):
                if k in parsed and k not in raw:
                    decoded[k] = parsed[k]
                    raw[k] = parsed[k]
    else:
        gost = _gost_item(cleaned, label)
        blocks = _names_date_colon_title(_names_colon_title(
            [b for b in re.split(r"\\newblock\b", cleaned) if b.strip()]))
        blocks = _quoted_title_split(_names_year_split(_names_nodate_split(blocks)))
        two = _two_blocks(blocks) if len(blocks) == 2 else ""
        if gost is not None:
            decoded = gost
        elif two == "title":  # no author: "Title. \newblock {\em Journal}, 2024."
            decoded = parse_reference(latex_to_unicode(blocks[1]))
            decoded.pop("author", None)
            decoded["title"] = without_type_mark(_LEADING_YEAR.sub(
                "", latex_to_unicode(blocks[0]).strip()).rstrip(".,"))
        elif len(blocks) >= 3 or two == "names":
            # natbib/plain layout: authors. title. venue.
            title = latex_to_unicode(blocks[1]).strip()
            venue_text = latex_to_unicode(" ".join(blocks[2:]))
            bare_vp = None
            lone_page = None
            lead = _LEADING_YEAR.match(title)
            if lead:
                title = title[lead.end():]
                decoded_year = lead.group("year") or ""
            else:
                decoded_year = ""
            if len(blocks) > 2 and not re.search(r"(?:1[89]|20)\d\d",
                                                 _LINKS.sub(" ", venue_text)):
                # plain's @misc: "Title, 2006. \newblock CU6 Workshop2." (the date ends
                # the title's block when the entry has no howpublished)
                dm = _TRAILING_DATE.search(title)
                if dm:
                    title, decoded_year = title[:dm.start()], dm.group("year")
            if len(blocks) == 2:
                # a @misc or an article without a journal: "Authors. \newblock Title, 2013."
                # (the names and the title had been read as one: a false MINOR), or a
                # reference without a title: "Authors. \newblock Journal, 95:1, 2017."
                bare_vp = _BARE_VOL_PAGES_END.search(title)
                if bare_vp and not (parse_reference(title).get("journal")
                                    or _PLAIN_VENUE.match(title)
                                    or _EM_VENUE.match(blocks[1])
                                    # (a bold volume after an italic journal is a venue;
                                    # jae's "Title \textbf{917}: 86--104." has none)
                                    or (re.search(r"\\(?:bf|textbf)\b", blocks[1])
                                        and re.search(r"\\(?:em|emph|it|textit)\b", blocks[1]))):
                    # oega's "Title 917:86--104." (an entry whose journal it lost)
                    title = title[:bare_vp.start()]
                else:
                    bare_vp = None
                lone_page = _TRAILING_PAGE.search(title)
                if lone_page:  # plaindin's "{Title}, 2013, S. 029" (no venue printed)
                    title = title[:lone_page.start()]
                pm = _PAREN_DATE_END.search(title)
                if pm:  # UNAMThesis's @misc: "Title (2014).", "Title (????)."
                    title = title[:pm.start()]
                    decoded_year = pm.group("year") or decoded_year
                dm = _TRAILING_DATE.search(title)
                if parse_reference(title).get("journal") or _PLAIN_VENUE.match(title):
                    title, venue_text = "", title
                elif dm:
                    title, venue_text = title[:dm.start()], dm.group("year")
            book = _proceedings(blocks[2]) if len(blocks) >= 3 else None
            if book is not None:  # "In {\em Booktitle}, pages 1--9, 2 2026."
                decoded = book
            else:
                decoded = parse_reference(venue_text) if venue_text.strip() else {}
            decoded.pop("title", None)
            vm = _PLAIN_VENUE.match(venue_text) or _PLAIN_VENUE_LONG.match(
                latex_to_unicode(blocks[2]) if len(blocks) > 2 else "")  # (a DOI block after)
            if vm:
                decoded.update({k: v.replace("–", "-") for k, v in vm.groupdict().items() if v})
            elif (bare := _VOLUME_PAGES_BLOCK.match(venue_text) or _VOLUME_PAGES_BLOCK.match(
                    latex_to_unicode(blocks[2]) if len(blocks) > 2 else "-")) is not None:
                # plain's article without its journal: "\newblock 760:110." (lni; read
                # as a note, a wrong page went unseen)
                decoded.pop("note", None)
                decoded.update({k: dashes(v) for k, v in bare.groupdict().items() if v})
            if book is None and len(blocks) >= 3:
                _plain_em_venue(blocks[2], decoded)
                _em_bold_venue(blocks[2], decoded)
                bold = re.fullmatch(rf"\s*{_BOLD_OPEN}\s*(?P<volume>\w+)\s*\}}\s*,\s*"
                                    rf"(?P<pages>{PAGE_RANGE})\s*\.?\s*", blocks[2])
                if bold and "volume" not in decoded:  # jss2's "\textbf{760}, 110." (no journal)
                    decoded.update({k: dashes(v) for k, v in bold.groupdict().items()})
            if decoded_year:
                decoded.setdefault("year", decoded_year)
            if bare_vp:
                decoded.update({k: dashes(v) for k, v in bare_vp.groupdict().items()})
            if lone_page:
                decoded.setdefault("pages", dashes(lone_page.group("pages")))
            decoded["author"] = _braced_back(_plain_authors(latex_to_unicode(
                _BRACED_WORDS.sub(lambda m: _JOINER.join(m.group(1).split()), blocks[0]))))
            title = without_type_mark(title.strip().rstrip(".,").strip())
            if len(re.findall(r"[^\W\d_]{2,}", title)) >= 2:  # not a link's "1412.3443"
                decoded["title"] = title
        else:
            decoded = parse_reference(latex_to_unicode(
                _braced_quote_title(cleaned) or _quote_title(_braced_title(cleaned))))
            _ieee_venue(cleaned, decoded)
            _letter_tildes_kept(decoded)
            if mn_journal and decoded.get("note", "").strip(" ,.;") == mn_journal:
                # "Tanaka H., Lindqvist M., 2016, \mn@doi [Phys. Lett. B] {DOI}": the
                # journal without volume and page is the journal, not unread text
                del decoded["note"]
                decoded.setdefault("journal", mn_journal)
            decoded = _with_markup_journal(decoded, _markup_journal(cleaned, mn_journal))
            decoded = _with_label_year(decoded, label, free)
            decoded = _report_title(_organisation_author(decoded, cleaned), cleaned)
            decoded = _name_then_braced_title(decoded, cleaned)
            decoded = _titleless_article(decoded, free)
            decoded = _article_colon_page(decoded, free)
            decoded = _patent_number(decoded, free)
            decoded = _capital_family_names(decoded, free)
            issue = parse_issue(decoded)
            book = _astro_proceedings(free)
            if book is not None:
                decoded.pop("title", None)
                if book.get("booktitle"):  # ("Vol." had been read as a journal)
                    decoded.pop("journal", None)
                if "volume" not in book and (raw.get("doi") or raw.get("eprint")):
                    # mnras prints the volume only with a series: the booktitle alone
                    # cannot be told from the journal INSPIRE gives its proceedings
                    # (Mach. Learn. Sci. Tech. for a NeurIPS paper), and the identifier
                    # finds the record
                    del book["booktitle"]
                decoded.update(book)
            _use_braced_title(decoded, cleaned)
            _braced_conference_venue(decoded, cleaned)
            _use_braced_organisation(decoded, cleaned)
            _journal_name_from_title(decoded, free)
            _use_linked_title(decoded, cleaned)
            _names_only(decoded, free)
            _names_and_numbers(decoded, cleaned)
            _semicolon_names(decoded)
            decoded = _chemistry_venue(decoded, cleaned)
            if not _MARKUP.search(cleaned):  # (with markup: _chemistry_venue)
                _acs_plain_venue(decoded, free)
        _lettered_volume(decoded, free)
        if "title" in decoded and not re.search(r"\w", decoded["title"]):
            # the quotes of a title whose text another rule took (iopart-num's "{ATLAS
            # Collaboration} 2014 {\em ATLAS-CONF-2014-006\/}": the report number)
            del decoded["title"]
        if markup_doi:  # the markup's DOI, not the free text's ("(doi:10.1/x)." as "10.1/x)")
            decoded.pop("doi", None)
        for k, v in decoded.items():
            raw.setdefault(k, v)
    if label and "year" not in raw:
        ym = re.search(r"(1[89]|20)\d{2}", label)
        if ym:
            decoded["year"] = ym.group(0)
            raw["year"] = ym.group(0)
    if um:
        _keep_url_verbatim(decoded, um.group(1))
    etype = "article" if raw.get("journal") else "misc"
    return build_entry(key, etype, filename, line, raw, origin=origin, end_line=end_line,
                       raw_text=free, decoded=decoded, parse_issue=issue)


#: natbib's long author list in a label, after the year: rusnat's "[Ahn, Chun(2016)Y.~H.
#: Ahn, E.~J. Chun]" (initials first, where the item prints them family first).
_LABEL_LONG_NAMES = re.compile(r"\((?:[^()]*)\)(?P<names>[^()]+)$", re.S)


def _gost_item(cleaned: str, label: str) -> dict[str, str] | None:
    """The fields of a GOST 7.1 item (rusnat, vak; see :mod:`citecheck_tex.tex.gost`), or
    None when the item is not one.

    rusnat prints the names family first in a block of their own, given names as the
    .bib has them ("{\\EM Day Francesca~V.}"), and none at all for some types; its label
    lists them initials first ("(2017)F.~V. Day"), which tells where each family name
    ends, or gives the names the item lacks."""
    blocks = [latex_to_unicode(b).strip() for b in re.split(r"\\newblock\b", cleaned)]
    blocks = [b for b in blocks if b]
    fields = gost_reference(" ".join(blocks))
    if fields is None:
        return None
    lm = _LABEL_LONG_NAMES.search(latex_to_unicode(label)) if label else None
    labelled = initials_first_names(lm.group("names")) if lm else None
    host = next((i for i, b in enumerate(blocks) if b.startswith("//")), None)
    if "author" not in fields and host is not None and host >= 2:
        # the names block, the title's, the host's
        names = family_first_names(blocks[0]) or (
            family_first_by(blocks[0], [n.split(",")[0] for n in labelled[0]])
            if labelled else None)
        rest = gost_reference(" ".join(blocks[1:]))
        if names is not None and rest is not None:
            fields = rest
            fields["author"] = " and ".join([*names[0], *(["others"] if names[1] else [])])
    if "author" not in fields and "title" in fields and labelled is not None \
            and (host is None or host < 2):
        # no names printed: the label's
        fields["author"] = " and ".join([*labelled[0], *(["others"] if labelled[1] else [])])
    return fields


#: The field macros of the GB/T 7714 styles of Chinese thesis classes (hithesis,
#: hitszthesis, thubeamer, hitszbeamer), which mark each field as revtex's \bibinfo does:
#: "\bibauthor{Liu G-C\@, Ng K-W}\@. \bibtitle{Axion ...}\bibmark{[J]}\@.
#: \bibjournal{Phys. Dark Univ.}\@, \bibyear{2017}\@, \bibvolume{16}...\bibpages{22--25}".
_FIELD_MACRO = re.compile(r"\\bib(author|title|booktitle|journal|year|volume|number|pages|"
                          r"publisher|address|school|institution|organization)"
                          r"(?![A-Za-z@])\s*(?=\{)")


def _field_macros(body: str, raw: dict[str, str]) -> list[str]:
    """The fields of ``\\bibauthor{...}``, ``\\bibtitle{...}``, ... (:data:`_FIELD_MACRO`)
    into ``raw``, and the authors' names in BibTeX's form (with "others" for "et al").
    Read as free text, the last author and the title had run together ("Tobar M E. Axion
    Dark Matter ...": a false title and author MINOR). A list of names that is not one
    of "Family I" names is left out (the title and the venue are still read)."""
    people: list[str] = []
    for m in _FIELD_MACRO.finditer(body):
        g = _group(body, m.end())
        if g is None or not g[0].strip():
            continue
        name = m.group(1)
        if name == "author":
            # (hitszthesis separates the names with a full-width comma: "MARSH D~J~E\\@，SILK J")
            listed = listed_names(latex_to_unicode(g[0]).replace("\uff0c", ", ").strip(" .,"))
            if listed is not None and listed[0] and not people:
                people = listed[0] + (["others"] if listed[1] else [])
        elif name not in raw:
            value = g[0].strip()
            raw[name] = value.strip("()") if name == "number" else value
    return people


def _names_only(decoded: dict[str, str], free: str) -> None:
    """The authors of an item that is names alone (a style printing no field it knows of
    an entry: ChemEurJ's "R.~Brower, M.~Djuri{\\'c}, T.~Raben, C.-I. Tan."): all of them,
    no title, no note. The free text had taken the last name or two as a note or title
    (a false author MINOR). Names with initials and no digit only, and only when more
    names are read so (cmpj's "Janik~R.~A., \\eprint{...}" was read whole)."""
    if decoded.keys() & {"title", "journal", "booktitle", "volume", "pages", "eprint", "doi"}:
        return
    text = free.strip().rstrip(".").strip()
    if not text or re.search(r"\d", text) or not re.search(r"\b[A-Z]\.", text) \
            or not all_names(text):
        return
    author = _plain_authors(text)
    if author.count(" and ") > decoded.get("author", "").count(" and "):  # (names were lost)
        decoded.pop("note", None)
        decoded["author"] = author


#: An item of names and numbers alone, as the chemistry styles print an entry whose journal
#: and title they do not know (a biblatex .bib's journaltitle): "Z.~Fang, D.~Li, Y.-L. Wu,
#: \\emph{754}, 343--348.", "Fang, Z.; Li, D.; Wu, Y.-L. {\\em 754}, 343--348.",
#: "Z.~Wang, B.-Q. Ma \\textbf{2015}.", "Z.~Wang and B.-Q. Ma, 2015".
_NAMES_AND_NUMBERS = re.compile(
    r"^\s*(?P<names>[^\d]+?)[\s,]*"
    r"(?:(?:\\emph\s*\{|\\textit\s*\{|\\textbf\s*\{|\{\\(?:em|it|bf)(?:\{\})?\s+)\s*(?P<num>\d+)\s*\}"
    r"(?:\s*,\s*(?P<pages>\d+(?:\s*(?:--?|(?:\\mynobreakdash(?:\{\})?\s*)+)\s*\d+)?))?"
    r"|(?P<year>(?:1[89]|20)\d\d))\s*\.?\s*$")


def _names_and_numbers(decoded: dict[str, str], cleaned: str) -> None:
    """The fields of an item of names and numbers alone (:data:`_NAMES_AND_NUMBERS`): the
    names as authors, a volume and pages or a year, and no title. The free text had read
    the last names and the numbers as a title ("Y. C. Ong 917, 86–104": a false MAJOR).
    Only when the free text read a title or a note, or fewer names."""
    # (mciteplus styles end each item with its own macros: angew, rsc)
    text = _MCITE_TAIL.sub("", cleaned)
    m = _NAMES_AND_NUMBERS.match(text)
    if m is None:
        # bjnano's DOI link after a volume and pages: "... 86\mynobreakdash
        # \mynobreakdash 104. \url{doi: 10.1016/...}." (read elsewhere); not a year before a
        # link (mnras's "Stoye M., ..., {CMS Collaboration} 2017. \url{...}")
        m = _NAMES_AND_NUMBERS.match(_URL_TAIL.sub("", text))
        if m is not None and not m.group("pages"):
            return
    if m is None:
        return
    names = latex_to_unicode(m.group("names")).strip(" ,;")
    if not re.search(r"\b[A-Z]\.", names) or not all_names(names):
        return
    author = _plain_authors(names)
    if "title" not in decoded and "note" not in decoded and decoded.get("author", "").count(
            " and ") >= author.count(" and "):
        return  # (read as names and numbers already: mnras's "Wang Z.,  Ma B.-Q.,  2015")
    for k in ("title", "journal", "note", "volume", "pages", "number"):
        decoded.pop(k, None)
    decoded["author"] = author
    num = m.group("num")
    if num and (m.group("pages") or not _YEAR_ONLY.fullmatch(num)):
        decoded["volume"] = num
        if m.group("pages"):
            decoded["pages"] = dashes(re.sub(r"(?:\\mynobreakdash(?:\{\})?\s*)+", "-",
                                             m.group("pages")))
    elif num or m.group("year"):
        decoded["year"] = num or m.group("year")


_YEAR_ONLY = re.compile(r"(?:1[89]|20)\d\d")
_URL_TAIL = re.compile(r"\s*\\url\s*\{[^{}]*\}[\s.]*$")
_MCITE_TAIL = re.compile(r"\\mciteBst.*$|\\EndOfBibitem\s*$", re.S)


def _semicolon_names(decoded: dict[str, str]) -> None:
    """The free text's authors re-read when they are ACS's "Family, I.; Family, I." list
    that was split at every comma ("Brower and R.; Djurić and M.": a false author MINOR on
    every title-less item of JAmChemSoc, InorgChem, ChemCommun): each piece between the
    semicolons one "Family, Given" name."""
    author = decoded.get("author", "")
    if ";" not in author or " and " not in author:
        return
    text = author.replace(" and ", ", ")
    pieces = [p.strip() for p in text.split(";") if p.strip(" .")]
    if len(pieces) >= 2 and all(re.fullmatch(r"[^,]+,[^,]+", p) for p in pieces):
        decoded["author"] = _plain_authors(text)


#: ACS's reference without markup (ijqc): "Liu, G.-C.; Ng, K.-W. Phys Dark Univ 2017, 16, 22."
_ACS_NAME = r"(?![A-Z][a-z]?\.)[^;,\d]+,(?:\s*[A-Z][a-z]?\.(?:-(?=[A-Z]))?)+"
_ACS_PLAIN = re.compile(rf"^\s*(?P<names>{_ACS_NAME}(?:;\s*(?:{_ACS_NAME}|et\s*al\.))*)\s+"
                        r"(?P<journal>[A-Z][^\d;,\"\u201c\u201d]*?)\s+(?P<year>(?:1[89]|20)\d\d),\s*"
                        r"(?P<volume>\w+)(?:\s*\((?P<number>[^)]*)\))?,\s*"
                        rf"(?P<pages>{PAGE_RANGE})\s*\.?\s*$")


_MARKUP = re.compile(r"\\(?:emph|textit|textbf|textsc|em|it|bf|sc)\b")


def _acs_plain_venue(decoded: dict[str, str], free: str) -> None:
    """The names, journal, year, volume and pages of an ACS reference printed without
    markup (:data:`_ACS_PLAIN`: "Family, I." names between semicolons, "et al." too): a
    journal not in the tables had become the title (a false MAJOR), or the year its
    volume."""
    m = _ACS_PLAIN.match(free)
    if m is None or ("title" in decoded and decoded["title"] not in free[m.start("journal"):]):
        return
    decoded.pop("title", None)
    decoded["author"] = _plain_authors(m.group("names"))
    decoded.update({k: dashes(v) for k, v in m.groupdict().items() if v and k != "names"})
    decoded["journal"] = m.group("journal").strip(" ,.")


_ITALIC_OPEN = r"(?:\\emph\s*\{|\\textit\s*\{|\{\\(?:em|it)(?:\{\})?\s+)"
_BOLD_OPEN = r"(?:\\textbf\s*\{|\{\\bf(?:\{\})?\s+)"
#: The venue of the chemistry journals' styles: ACS (JAmChemSoc, InorgChem, jpc, bjnano)
#: and Wiley (angew, ChemEurJ) print "\\emph{Journal} \\textbf{Year}, \\emph{Volume},
#: Pages", the RSC (rsc, pccp, ChemCommun, jcc) "\\emph{Journal}, Year, \\textbf{Volume},
#: Pages"; no title before it. The markup says which part is which.
_CHEMISTRY_VENUE = re.compile(
    rf"{_ITALIC_OPEN}(?P<journal>(?:[^{{}}]|\{{[^{{}}]*\}})+?)\s*(?:\\/)?\}}\s*,?\s*"
    rf"(?:{_BOLD_OPEN}\s*(?P<year>(?:1[89]|20)\d\d)\s*\}}\s*,\s*{_ITALIC_OPEN}\s*(?P<volume>[^{{}}]+?)\s*\}}"
    rf"|(?P<year2>(?:1[89]|20)\d\d)\s*,\s*{_BOLD_OPEN}\s*(?P<volume2>[^{{}}]+?)\s*\}})"
    r"\s*(?:\((?P<number>[^()]*)\))?\s*,\s*"
    r"(?P<pages>\w+(?:\s*(?:--?|(?:\\mynobreakdash(?:\{\})?\s*)+)\s*\w+)?)")


def _chemistry_venue(decoded: dict[str, str], cleaned: str) -> dict[str, str]:
    """``decoded`` with the journal, year, volume, issue and pages of a chemistry style's
    venue (:data:`_CHEMISTRY_VENUE`), and the authors (and a title, if one is printed)
    read from the text before it. Read as free text, a journal not in the tables ("Phys.
    Dark Univ. 2017, 16, 22--25") had become the title (a false MAJOR), or the year the
    volume ("volume 2017, pages 16"), and "Popov, V. \\emph{J. Exp. Theor. Phys.}" the
    name "Popov, V. J."."""
    m = _CHEMISTRY_VENUE.search(cleaned)
    if m is None:
        return _venue_then_title(decoded, cleaned)
    journal = latex_to_unicode(m.group("journal")).strip(" ,")
    if not re.search(r"[^\W\d_]{2}", journal) or re.fullmatch(r"(?:et\s*al|others)\.?", journal):
        return decoded
    before = latex_to_unicode(cleaned[:m.start()]).strip(" ,;")
    head = parse_reference(before)
    out = {k: v for k, v in decoded.items()
           if k not in ("author", "title", "journal", "year", "volume", "number", "pages")}
    if head.get("title"):  # (a style that prints the title: "Names. Title. \\emph{J} ...")
        out.update({k: head[k] for k in ("author", "title") if head.get(k)})
    elif before:  # names alone, as plain's names block: ACS's "Liu, G.-C.; Ng, K.-W."
        out["author"] = _plain_authors(before)
    else:
        return decoded
    out["journal"] = journal
    out["year"] = m.group("year") or m.group("year2")
    out["volume"] = latex_to_unicode(m.group("volume") or m.group("volume2")).strip()
    if m.group("number"):
        out["number"] = m.group("number").strip()
    out["pages"] = dashes(re.sub(r"(?:\\mynobreakdash(?:\{\})?\s*)+", "-", m.group("pages")))
    return out


_VOLUME_WORD = re.compile(r"\b[Vv]ol(?:ume|\.)?\s*(?P<volume>[A-Za-z]+\d+)\b")


def _lettered_volume(decoded: dict[str, str], free: str) -> None:
    """A volume of letters and digits after "volume"/"vol." with no journal before it
    (INSPIRE's PoS proceedings, "volume CD12, p. 029", "Vol. CD12"): the free text had
    read the letters as the journal ("CD", volume 12: a false journal MINOR)."""
    journal, volume = decoded.get("journal", ""), decoded.get("volume", "")
    m = _VOLUME_WORD.search(free)
    if not (m and journal and volume):
        return
    letters = re.sub(r"^[Vv]ol(?:ume|\.)?\s*", "", journal).replace(" ", "")
    if letters + volume == m.group("volume"):
        del decoded["journal"]
        decoded["volume"] = m.group("volume")


#: revcompchem's venue before the title: "G.-C. Liu and K.-W. Ng, {\\em Phys. Dark Univ.},
#: {\\bf 16}, 22--25 (2017). Axion dark matter induced cosmic microwave background."
_VENUE_THEN_TITLE = re.compile(
    rf",\s*{_ITALIC_OPEN}(?P<journal>(?:[^{{}}]|\{{[^{{}}]*\}})+?)\s*(?:\\/)?\}}\s*,\s*"
    rf"{_BOLD_OPEN}\s*(?P<volume>\w+)\s*\}}\s*(?:\((?P<number>[^()]*)\))?\s*,\s*"
    r"(?P<pages>\w+(?:\s*--?\s*\w+)?)\s*\((?P<year>(?:1[89]|20)\d\d)\)\.\s*(?P<title>\S.*?)[\s.]*$",
    re.S)


def _venue_then_title(decoded: dict[str, str], cleaned: str) -> dict[str, str]:
    """``decoded`` with the names, venue and title of :data:`_VENUE_THEN_TITLE` when the
    names before it read as names: the venue and the title after it had been read as one
    title when the journal was not in the tables (a false MAJOR)."""
    m = _VENUE_THEN_TITLE.search(cleaned)
    if m is None:
        return decoded
    names = latex_to_unicode(cleaned[:m.start()]).strip(" ,")
    if not names or not all_names(names):
        return decoded
    out = {k: v for k, v in decoded.items()
           if k not in ("author", "title", "journal", "year", "volume", "number", "pages")}
    out.update({k: dashes(latex_to_unicode(v)).strip(" ,") for k, v in m.groupdict().items()
                if v and k != "title"})
    out["title"] = latex_to_unicode(m.group("title")).strip(" .")
    out["author"] = _plain_authors(names)
    return out


def _without_author_index(body: str) -> str:
    """``body`` without xagsm's ``\\authorindexentries{key}{...}`` (two brace groups)."""
    m = _AUTHOR_INDEX.search(body)
    if m is None:
        return body
    first = _group(body, m.end())
    second = _group(body, first[1]) if first else None
    if second is None:
        return body
    return f"{body[:m.start()]} {body[second[1]:]}"


def _keep_url_verbatim(decoded: dict[str, str], url: str) -> None:
    """The link of a ``\\url{...}`` as the command holds it: the free-text reading
    decoded it as TeX, and "&" (an alignment tab) ended it ("...pdf?nodeid=3120171&
    vernum=-2" read as "...pdf?nodeid=3120171": a false url MINOR)."""
    url = url.strip()
    if decoded.get("url") and decoded["url"] != url and url.startswith(decoded["url"]):
        decoded["url"] = url


#: iopart-num's journal: an italic name, then the volume in bold, then the page ("{\\em
#: Astronomy and Computing\\/} {\\bf 7} 12--26"). Only the markup tells where the name
#: begins: iopart-num prints no title before it.
_ITALIC_BOLD_JOURNAL = re.compile(
    r"\{\\(?:em|it)(?:\{\})?\s+(?P<journal>(?:[^{}]|\{[^{}]*\})+?)\s*(?:\\/)?\s*\}"
    r"\s*\{\\bf(?:\{\})?\s+(?P<volume>[^{}]+?)\s*\}(?!\s*,)"  # (jpc: "{\\bf 2017}, {\\em 95}")
    # (the page after a space, or nothing: "{\\bf 116}(16), 161804" is another style's)
    # (an end page not known: "75--?")
    r"(?:\s+(?P<pages>[A-Za-z]{0,3}\d[\w.]*(?:\s*--?\s*(?:[A-Za-z]{0,3}\d[\w.]*|\?))?)"
    r"(?=[\s(]|$)"
    r"|(?=\s*$|\s+\())")


#: worlddev's "\\emph{Phys. Dark Univ.}, 16, (2017), 22--25" (and an issue after the
#: volume, "116(16)"): an italic journal, its volume, the year in parentheses, the pages.
#: A journal the tables do not know had been left in the title (a false MINOR).
_ITALIC_VOLUME_YEAR_PAGES = re.compile(
    r"(?:\\emph\s*\{|\{\\(?:em|it)\s+)(?P<journal>[^{}]*[^\W\d_]{2}[^{}]*?)\s*(?:\\/)?\s*\}"
    r"\s*,\s*(?P<volume>\d{1,5})(?:\s*\((?P<number>[^()]{1,10})\))?\s*,\s*"
    r"\((?P<year>(?:1[89]|20)\d\d)[a-z]?\)\s*,\s*"
    rf"(?P<pages>{PAGE_RANGE})\s*[.,]")


def _markup_journal(body: str, mn_journal: str) -> dict[str, str]:
    """The journal that the markup of a free-text bibitem names, with the volume and
    page that come with it: mnras.bst's ``\\mn@doi [Journal]`` (``mn_journal``) or
    iopart-num's italic name before a bold volume; {} when there is none."""
    if mn_journal:
        return {"journal": mn_journal}
    m = _ITALIC_BOLD_JOURNAL.search(body)
    if m is None:
        yv = _ITALIC_VOLUME_YEAR_PAGES.search(body)
        if yv is None:
            return {}
        return {"journal": latex_to_unicode(yv.group("journal")).strip(" ,"),
                **{k: dashes(v) for k, v in yv.groupdict().items() if v and k != "journal"}}
    journal = latex_to_unicode(m.group("journal")).strip(" ,")
    if not re.search(r"[^\W\d_]{2}", journal) or re.fullmatch(r"et\s*al\.?", journal):
        return {}
    out = {"journal": journal, "volume": latex_to_unicode(m.group("volume")).strip()}
    if m.group("pages"):
        out["pages"] = dashes(m.group("pages"))
    return out


def _name_words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.lower())


def _with_markup_journal(decoded: dict[str, str], venue: dict[str, str]) -> dict[str, str]:
    """``decoded`` with the journal the markup names (:func:`_markup_journal`). The free
    text cannot tell a title from the head of a journal's name: "Swinbank J., 2014,
    Astronomy and Computing, 7, 12" had become the title "Astronomy and" in the journal
    "Computing", "Lejeune T ... 1998 A&AS 130 65" the journal "AS" (false MINORs). Title
    words that are the head of that journal (and a volume after it) are no title."""
    journal = venue.get("journal", "")
    if not journal:
        return decoded
    out = {**decoded, **venue}
    jw = _name_words(journal)
    title = decoded.get("title", "")
    tw = _name_words(title)
    pw = _name_words(decoded.get("journal", ""))
    head = jw[:len(jw) - len(pw)] if pw and jw[-len(pw):] == pw else jw
    tail = tw[len(jw):]
    if tw and tw[:len(jw)] == jw and len(tail) <= 2 and all(
            re.search(r"\d", w) for w in tail):
        # "Transactions of the IAU, Series B, 24", "PTEP, 2026, 063C02": the journal, its
        # volume and page (mnras prints them after the DOI link when no link holds them)
        del out["title"]
        numbers = re.findall(r"[^\W_]*\d[^\W_]*", title)[-len(tail):] if tail else []
        for name, value in zip(("volume", "pages"), numbers, strict=False):
            out.setdefault(name, value)
    elif tw and (cut := re.search(r"[\s,.;:]*" + r"\W*".join(re.escape(w) for w in jw)
                                  + r"[\W\d_]*$", title, re.I)) and len(
            title[:cut.start()].split()) >= 2:
        # "Title, Phys. Dark Univ., 16, (2017), 22--25": the venue the markup names, with
        # its numbers, after the title (the title had been dropped whole)
        out["title"] = title[:cut.start()].strip(" ,.;:")
    elif tw and head and tw[-len(head):] == head:
        cut = re.search(r"\W*".join(re.escape(w) for w in head) + r"[\W_]*$", title, re.I)
        rest = title[:cut.start()].strip(" ,.;:") if cut else title
        if rest and len(rest.split()) >= 2:
            out["title"] = rest
        else:
            del out["title"]
    return out


#: The year of an author-year label: natbib's "\\protect\\citeauthoryear{...}{...}{2022b}"
#: (mnras) and "Arganda et~al.(2022)Arganda, ...".
_LABEL_YEAR = re.compile(r"\{((?:1[89]|20)\d\d)[a-z]?\}\s*$|\(((?:1[89]|20)\d\d)[a-z]?\)")


def _with_label_year(decoded: dict[str, str], label: str, free: str) -> dict[str, str]:
    """``decoded`` with the year of the item's author-year label, when the text prints
    that year too: the free text had taken another year it holds ("2021, in {2022
    Snowmass Summer Study}", "2025, \\mn@doi [PTEP] {...}, 2026, 063C02": a false year
    MINOR); the label's year is the entry's year field."""
    m = _LABEL_YEAR.search(label)
    year = (m.group(1) or m.group(2)) if m else ""
    if not year or decoded.get("year", year) == year or not re.search(
            rf"(?<!\d){year}[a-z]?(?!\d)", free):
        return decoded
    return {**decoded, "year": year}


def _no_journal_from_title(parsed: dict[str, str], raw: dict[str, str]) -> dict[str, str]:
    """The free-text parse of a ``\\bibinfo`` item without the journal it read from the
    item's own title: naturemag prints INSPIRE's @inproceedings that has a journal but no
    booktitle as "\\bibinfo{title}{{ML for the hKLM at the 2nd Detector}}. vol.~21,
    C07016 (2026)", and the title's last words had been read as the journal ("Detector.",
    a false MINOR)."""
    journal = parsed.get("journal", "").strip(" .,")
    title = latex_to_unicode(raw.get("title", ""))
    if journal and journal in title:
        return {k: v for k, v in parsed.items() if k != "journal"}
    return parsed


#: A report's words that iopart-num and mnras print around its title: iopart-num's
#: "Title Tech. rep. Institution Number" and mnras's "Year, Technical report[ NUMBER],
#: Title. Institution" (format.tr.number, then the institution after a new block).
_IOP_REPORT_TAIL = re.compile(r"\s+Tech\.\s*rep\.(?:\s|$)")
_MN_REPORT_HEAD = re.compile(r"(?<!\d)(?:1[89]|20)\d\d[a-z]?,\s*Technical\s+report\b"
                             r"[^,{}]*,\s+(?=\S)", re.I)
#: Where mnras's report title ends: its link, or the new block (a period, then a line
#: that bibtex did not indent) before the institution.
_MN_REPORT_TITLE_END = re.compile(r",\s*\\url\b|\.\s*\n(?=\S)|[.\s]*$")


def _report_title(decoded: dict[str, str], cleaned: str) -> dict[str, str]:
    """``decoded`` with a report's title alone: iopart-num's "Continuum Normalisation Tech.
    rep. ESA gAIA-C6-SP-MSSL-HEH-001-D" and mnras's "2002, Technical report, {J}ava
    {C}oding ... {S}ystem. ESTEC" had been read as one title with the report's type,
    institution and number (false title MAJORs and MINORs of every @techreport)."""
    title = decoded.get("title", "")
    tail = _IOP_REPORT_TAIL.search(title)
    head = _MN_REPORT_HEAD.search(cleaned)
    if tail:
        title = title[:tail.start()]
    elif head:
        rest = cleaned[head.end():]
        end = _MN_REPORT_TITLE_END.search(rest)
        title = latex_to_unicode(rest[:end.start()] if end else rest)
    else:
        return decoded
    title = " ".join(title.split()).strip(" ,.;")
    # (iopart-num's "1993 Roemer Tech. rep. Lund Observatory": "Tech. rep." ends it, one
    # word is a title)
    if not re.search(r"[^\W\d_]{2}", title) or not tail and len(title.split()) < 2:
        return decoded
    return {**decoded, "title": title}


#: An organisation that a free-text item begins with, before its year: in braces
#: ("{ESA Publications Division} 2003 Project Organisation", "{EADS\textasciitilde
#: Astrium} 2010, Technical report, ...") or one or two words in capitals ("EMC 2011").
_ORG_BEFORE_YEAR = re.compile(r"^\s*(?:\{(?P<braced>[^{}]+)\}|"
                              r"(?P<caps>[A-Z]{2,}(?:\s+[A-Z]{2,})?))"
                              r"\s+(?P<year>(?:1[89]|20)\d\d)[a-z]?,?\s+(?=\S)")


def _organisation_author(decoded: dict[str, str], cleaned: str) -> dict[str, str]:
    """``decoded`` with the organisation an item without persons begins with as its
    author, and out of its title: "{ESA Publications Division} 2003 {P}roject
    {O}rganisation" had been read as the title "ESA Publications Division 2003 Project
    Organisation" (a false MAJOR). Only when the free-text reading found no author and
    the year after the organisation is the item's year."""
    m = _ORG_BEFORE_YEAR.match(cleaned)
    if m is None or decoded.get("author") or decoded.get("year") != m.group("year"):
        return decoded
    name = " ".join(latex_to_unicode(m.group("braced") or m.group("caps")).split())
    title = decoded.get("title", "")
    cut = re.match(r"[\W_]*" + r"[\W_]+".join(re.escape(w) for w in _name_words(name))
                   + rf"[\W_]+{m.group('year')}[a-z]?\b,?\s*", title, re.I)
    if cut is None or not title[cut.end():].strip(" ,"):
        return decoded
    return {**decoded, "author": "{" + name + "}", "title": title[cut.end():].strip(" ,")}


#: A @misc without a date as iopart-num and mnras print it: one name (a word, or a group
#: in braces), then the title as the .bib braced it, then only its link: "Amazon {Amazon
#: Glacier -- Cloud Archive} \urlprefix\url{...}", "GPFS, {IBM Spectrum Scale}, \url".
_NAME_BRACED_TITLE = re.compile(r"^\s*(?P<name>\{[^{}]+\}|[^\s{},\\]+),?\s+"
                                r"\{(?P<title>[^{}]*(?:\{[^{}]*\}[^{}]*)*)\}"
                                r"[\s,.]*(?:\\urlprefix\b|\\url\b|$)")


def _name_then_braced_title(decoded: dict[str, str], cleaned: str) -> dict[str, str]:
    """``decoded`` with :data:`_NAME_BRACED_TITLE`'s name as the author and its group as
    the title: the free text had read "Amazon Amazon Glacier -- Cloud Archive" as one
    title (a false title MINOR of every such @misc: a product, a standard, a web page).
    Only when the free-text reading found no author."""
    m = _NAME_BRACED_TITLE.match(cleaned)
    if m is None or decoded.get("author"):
        return decoded
    title = " ".join(latex_to_unicode(m.group("title")).split())
    name = " ".join(latex_to_unicode(m.group("name")).split())
    if len(title.split()) < 2 or not re.search(r"[^\W\d_]", name):
        return decoded
    return {**decoded, "author": "{" + name + "}", "title": title}


#: What follows the year of a title-less article as mnras and aasjournal print it: the
#: journal, its volume, maybe its page, and nothing else ("2022, The South East Asian
#: Journal of Management, 17", "1993, Journal of the Astronautical Sciences, 41, 439").
_YEAR_JOURNAL_VOLUME = re.compile(
    r"(?<!\d)(?P<year>(?:1[89]|20)\d\d)[a-z]?,\s+(?P<journal>[^\d,;()]*[^\W\d_]{2}[^\d,;()]*?),"
    r"\s*(?P<volume>\d+)(?:,\s*(?P<pages>[A-Za-z]?\d+(?:\s*[-\u2013]+\s*\d*)?))?[\s.]*$")


def _titleless_article(decoded: dict[str, str], free: str) -> dict[str, str]:
    """``decoded`` with a journal of unknown name read as the journal: "Utomo A. A., ...,
    2022, The South East Asian Journal of Management, 17" had been read as the title "The
    South East Asian Journal of Management, 17", "..., 1993, Journal of the Astronautical
    Sciences, 41, 439" as the title "Journal of the Astronautical" in the journal
    "Sciences" (false MAJORs). Only when nothing but the journal, a volume and a page
    follows the item's year, and the free-text reading took those words for a title."""
    text = _TRAILING_IDS.sub("", " ".join(free.split()))
    m = _YEAR_JOURNAL_VOLUME.search(text)
    title = decoded.get("title", "")
    if m is None or m.group("year") != decoded.get("year") or not title \
            or decoded.keys() - {"author", "year", "title", "journal", "volume", "pages",
                                 "url", "doi", "eprint"}:
        return decoded
    journal = " ".join(m.group("journal").split()).strip(" .")
    read = _name_words(f"{title} {decoded.get('journal', '')}")
    if len(journal.split()) < 2 or not set(_name_words(journal)) <= set(read):
        return decoded
    out = {k: v for k, v in decoded.items() if k not in ("title", "pages")}
    out.update(journal=journal, volume=m.group("volume"))
    if m.group("pages"):
        out["pages"] = dashes(m.group("pages"))
    return out


def _article_colon_page(decoded: dict[str, str], free: str) -> dict[str, str]:
    """``decoded`` with an article-number page whole: ACM's "4:1--4:26" (iopart-num) and
    "26, 4:1" (mnras) had been read as the page "4" (a false pages MINOR). Only when the
    volume, then the page read and a colon, are in the text."""
    pages, volume = decoded.get("pages", ""), decoded.get("volume", "")
    if not pages.isdigit() or not volume:
        return decoded
    m = re.search(rf"(?<![\w:]){re.escape(volume)}\W+({pages}:\d+(?:\s*[-\u2013]+\s*\d+:\d+)?)"
                  r"(?![\w:])", free)
    if m is None:
        return decoded
    return {**decoded, "pages": dashes(m.group(1))}


#: A patent's number as a note prints it (iopart-num lower-cases its first letter): "US
#: Patent 3,069,654", "uS Patent 3,069,654", "U.S. Patent No. 3069654".
_PATENT = re.compile(r"(?:^|\s)(?P<office>(?:[A-Za-z]\.?){2})\s+Patent\s+(?:No\.?\s*)?"
                     r"\d[\d,]*\d\b")


def _patent_number(decoded: dict[str, str], free: str) -> dict[str, str]:
    """``decoded`` without the journal reference that a patent's number had been read as
    ("Method and means for recognizing complex patterns uS Patent 3,069,654": the title
    "... patterns uS", the journal "Patent", volume 3, page 069: a false title MINOR)."""
    m = _PATENT.search(free)
    if m is None or decoded.get("journal", "").strip(" .").lower() != "patent":
        return decoded
    out = {k: v for k, v in decoded.items() if k not in ("journal", "volume", "pages")}
    title = out.get("title", "")
    office = re.escape(m.group("office"))
    cut = re.search(rf"\s+{office}\W*$", title)
    if cut:
        out["title"] = title[:cut.start()]
    return out


#: Names with the family name in capitals, as a .bib may hold them and iopart-num prints
#: them, before the year: "ROSS R, VISCUSO P, ... and RIDDLE M 2020".
_CAPITAL_NAMES = re.compile(r"^\s*(?P<names>[A-Z][A-Z'\-]+(?:\s+[A-Z])+"
                            r"(?:(?:,\s*|\s+and\s+)[A-Z][A-Z'\-]+(?:\s+[A-Z])+)*)"
                            r"\s+(?P<year>(?:1[89]|20)\d\d)[a-z]?\b")


def _capital_family_names(decoded: dict[str, str], free: str) -> dict[str, str]:
    """``decoded`` with the names :data:`_CAPITAL_NAMES` finds as the authors: the
    free-text reading did not take "ROSS R, VISCUSO P" for names and read them into the
    title (a false author MINOR). The names are read again with their family names in
    the case of a name ("Ross R"); only when the reading found no author before."""
    m = _CAPITAL_NAMES.match(free)
    if m is None or decoded.get("author") or decoded.get("year") != m.group("year"):
        return decoded
    names = re.sub(r"\b([A-Z])([A-Z'\-]+)\b", lambda w: w.group(1) + w.group(2).lower(),
                   m.group("names"))
    again = parse_reference(f"{names} {free[m.start('year'):]}")
    if not again.get("author") or again.get("year") != m.group("year"):
        return decoded
    out = {**decoded, "author": again["author"]}
    if again.get("title"):
        out["title"] = again["title"]
    return out


#: A control word, then spaces, then a digit: "\\aap 120~(2) (1983) 197" (elsarticle with
#: an ADS journal macro).
_MACRO_BEFORE_DIGIT = re.compile(r"(\\[A-Za-z]+)\s+(?=\d)")


def _url_ampersands(text: str) -> str:
    """``text`` with each ``&`` of a ``\\url{...}`` escaped: the decoder reads a bare
    ``&`` as TeX's alignment tab, a space, and "...?nodeid=3120171&vernum=-2" had become
    the link "...?nodeid=3120171" and a title ending in "vernum=-2" (a false url MINOR)."""
    return _URLCMD.sub(lambda m: m.group(0).replace("\\&", "&").replace("&", "\\&"), text)


def _spaced_macros(text: str) -> str:
    """``text`` with a space kept between a control word and the number after it. TeX
    (and the decoder) drop that space, and "\\aap 120 (1983) 197" had become "A&A120
    (1983) 197": no journal reference, a false title MINOR."""
    return _MACRO_BEFORE_DIGIT.sub(r"\1{} ", text)


_TITLE_MARK = re.compile(r"\\(?:enquote|emph|textit)\s*\{|\{\\(?:em|it|itshape)\b\s*")
_HREF = re.compile(r"\\href\s*\{")


_VOLUME_AFTER = re.compile(r"\\textbf|\{?\\bf\b|\d|,?\s*(?:(?:\\textit|\\emph)\s*\{\s*\d|"
                           r"\{\\(?:it|em)\s+\d|v\.[\s~]*\d)")  # (", 10 2013" is a date)
# (ABNT: "\emph{Phys. Dark Univ.}, v.~15, p.~135")
#: worlddev's "\emph{Phys. Dark Univ.}, 16, (2017), 22--25": a volume and the year in
#: parentheses after the italic name (the journal had been read as the title).
_VOLUME_YEAR_AFTER = re.compile(r"\s*,\s*\d{1,5}(?:\s*\([^()]{1,10}\))?\s*,\s*\((?:1[89]|20)\d\d")


_NAMEFONT = re.compile(r"\\bib(f?)namefont\s*")


def _bibinfo_name(value: str) -> str:
    """One ``\\bibinfo{author}{...}`` as a BibTeX name. revtex's styles (apsrev4-2, aip)
    mark the parts, ``\\bibfnamefont{T.}~\\bibnamefont{{Allam}}, \\bibfnamefont{Jr.}``:
    read as "{Allam}, Jr., T." (the decoded "T. Allam, Jr." had been split at the comma:
    "Jr. T. Allam", a false MINOR). Without the marks, the value as it is."""
    given: list[str] = []
    family = ""
    jr = ""
    for m in _NAMEFONT.finditer(value):
        g = _group(value, m.end())
        if g is None:
            continue
        if m.group(1):  # \bibfnamefont: a given name, or the suffix after the family
            if family and re.fullmatch(r"(?:Jr|Sr)\.?|I{2,3}|IV", g[0].strip()):
                jr = g[0].strip()
            else:
                given.append(g[0].strip())
        else:
            family = g[0].strip()
    if not family:
        return _suffix_in_place(value)
    return ", ".join(x for x in (family, jr, " ".join(given)) if x)


def _suffix_in_place(name: str) -> str:
    """A "Family, Given, Jr." name (naturemag: "\\bibinfo{author}{{Ford}, W.~K., Jr.}") in
    BibTeX's "Family, Jr., Given" order (BibTeX had read "W. K." as the suffix and "Jr."
    as the given name: a false MINOR)."""
    parts = [p.strip() for p in name.split(",")]
    if len(parts) == 3 and re.fullmatch(r"(?:Jr|Sr)\.?|I{2,3}|IV", parts[2]) \
            and not re.fullmatch(r"(?:Jr|Sr)\.?|I{2,3}|IV", parts[1]):
        return f"{parts[0]}, {parts[2]}, {parts[1]}"
    return name


_BRACED_QUOTE = re.compile(r"``\s*(?=\{)")


def _braced_quote_title(body: str) -> str:
    """``body`` with ieeetr's (and IEEEtran's) title, ``` ``{Title},'' ```, marked with
    curly quotes and its own quotation marks turned to single ones, or "" when there is
    none. INSPIRE's titles quote ("Comment on ''An implementation of ...''"): the
    title's first closing quote had ended it ("Comment on", a false MAJOR); and the
    journal in ``{\\em ...}`` after it had been quoted as a second title."""
    span = _braced_title_end(body)
    if span is None:
        return ""
    start, end, after = span
    inner = body[body.index("{", start) + 1:end - 1]
    inner = inner.replace("``", "\u2018\u2018").replace("''", "\u2019\u2019")
    return f"{body[:start]}\u201c{inner}\u201d, {body[after:]}"


def _braced_title_end(body: str) -> tuple[int, int, int] | None:
    """Where ieeetr's ``` ``{Title},'' ``` starts, where its brace group ends, and where
    the closing quotes end (None when ``body`` has no such title)."""
    m = _BRACED_QUOTE.search(body)
    if m is None:
        return None
    g = _group(body, m.end())
    if g is None:
        return None
    close = re.match(r"\s*[,.]?\s*''", body[g[1]:])
    if close is None:
        return None
    return m.start(), g[1], g[1] + close.end()


def _ieee_title_end(body: str) -> int | None:
    """Where ieeetr's quoted title ends, braced (``` ``{Title},'' ```) or not (``` ``Title,''
    ```, a title the .bib did not brace); None without one."""
    span = _braced_title_end(body)
    if span is not None:
        return span[2]
    m = re.search(r"``(?!\s*\{)", body)
    close = re.compile(r"[,.]''").search(body, m.end()) if m else None
    return close.end() if close else None


_IEEE_VENUE = re.compile(r"\s*,?\s*(?P<in>in\s+)?\{\\em\b")
_IEEE_PAGES = re.compile(r"\bpp?\.\s*(?P<pages>[A-Za-z]{0,2}\d[\w.]*(?:\s*[-–]+\s*[\w.]+)?)(?![\w:])")


def _ieee_venue(body: str, decoded: dict[str, str]) -> None:
    """ieeetr's venue after its quoted title, read by its marks: "{\\em Journal},
    vol.~214, no.~3, p.~02010, 2019." and "in {\\em Booktitle}, ..., 7 2023." The
    journal, booktitle, volume, number, pages and year it states replace the free-text
    parse's, which had read INSPIRE's journals whose names hold years and commas
    ("{\\em {Proceedings, 23rd International Conference ... (CHEP 2018): Sofia,
    Bulgaria, July 9-13, 2018; EPJ Web Conf.}}") only in part, and their year as the
    publication's (false MINORs)."""
    end = _ieee_title_end(body)
    if end is None:
        return
    rest = body[end:]
    m = _IEEE_VENUE.match(rest)
    if m is None:
        return
    g = _group(rest, m.end() - len("{\\em"))
    if g is None:
        return
    name = latex_to_unicode(re.sub(r"^\s*\\em\b", "", g[0])).strip(" ,")
    if not re.search(r"[^\W\d_]{2}", name) or re.fullmatch(r"et\s*al\.?", name) \
            or not re.match(r"\s*(?:[,.(]|$)", rest[g[1]:]):
        return  # not ieeetr's marks: spiebib's "{\em Phys. Rev. D}~{\bf 75}", "{\em 917\/}:86"
    tail = " ".join(latex_to_unicode(rest[g[1]:]).split())
    found = {("booktitle" if m.group("in") else "journal"): name}
    for key, pattern in (("volume", r"\bvol\.\s*([\w\-]+)"), ("number", r"\bno\.\s*([\w\-]+)")):
        vm = re.search(pattern, tail)
        if vm:
            found[key] = vm.group(1)
    pm = _IEEE_PAGES.search(tail)
    if pm:
        found["pages"] = dashes(pm.group("pages"))
    ym = re.search(r"(?<![\w.])((?:1[89]|20)\d\d)[a-z]?\.?\s*$", tail)  # the date ends it
    if ym:
        found["year"] = ym.group(1)
    for key in ("journal", "booktitle", "volume", "number", "pages"):
        decoded.pop(key, None)
    decoded.update(found)


def _quote_title(body: str) -> str:
    """Mark the title of a free-text bibitem with quotes for the parser.

    The title is the first ``\\enquote{...}`` (revtex, biblatex) or, failing that,
    the first ``\\emph``/``\\textit``/``{\\em ...}`` outside an ``\\href`` link
    text that is no journal name (one followed by a volume, as in
    ``\\emph{Phys. Rev. D} \\textbf{100}``, is the journal) and no "et al.".
    """
    from citecheck_tex.vocab.journals import is_known_journal

    links: list[tuple[int, int]] = []
    for m in _HREF.finditer(body):
        first = _group(body, m.end() - 1)
        second = _group(body, first[1]) if first else None
        if second:
            links.append((m.start(), second[1]))
    marks = sorted(_TITLE_MARK.finditer(body), key=lambda m: "enquote" not in m.group(0))
    for m in marks:
        if any(a <= m.start() < b for a, b in links):
            continue
        if m.group(0).startswith("{"):  # {\em Title}
            g = _group(body, m.start())
            if g is None:
                continue
            inner, end, start = g[0][m.end() - m.start() - 1:], g[1], m.start()
        else:
            g = _group(body, m.end() - 1)
            if g is None:
                continue
            inner, end, start = g[0], g[1], m.start()
        text = latex_to_unicode(inner).strip()
        after = body[end:end + 16].lstrip()
        if "enquote" not in m.group(0) and (
                # a volume follows, also after a comma and in italics (agu.bst:
                # "\textit{Phys. Lett. B}, \textit{753}, 677--681"): the journal
                _VOLUME_AFTER.match(after) or _VOLUME_YEAR_AFTER.match(body, end)
                or is_known_journal(text)
                or re.fullmatch(r"et\s*al\.?", text)):
            continue
        if len(text) < 3 or re.fullmatch(r"[\d\s.,:-]+", text):  # a volume, a year
            continue
        return f"{body[:start]} \u201c{inner.strip().rstrip(',')}\u201d, {body[end:]}"
    return body


#: A group of words in braces right after the year: the title as INSPIRE and ADS brace
#: it (title = "{TOPCAT: Tool for ...}"), which iopart-num and mnras print unmarked
#: before a @misc's howpublished ("2011 {TOPCAT: ...} Astrophysics Source Code Library,
#: record ascl:1101.010"): the two had been read as one title (a false MAJOR).
_BRACED_TITLE = re.compile(r"(?<!\d)((?:1[89]|20)\d\d[a-z]?,?\s+"
                           # (mnras's report: "2017a, Technical Report ATL-PHYS-..., {Title}")
                           r"(?:Technical\s+Report\b[^,{}]*,\s+)?)"
                           r"\{([^{}\\]*[^\W\d_]{2}[^{}\\]*\s[^{}\\]*\s[^{}\\]*)\}")


#: A volume and a page right after a brace group: the group was the journal (aasjournal).
_VOLUME_PAGE_NEXT = re.compile(r"\s*,\s*[A-Z]?\d{1,5}[A-Z]?\s*,\s*[A-Za-z]{0,2}\d")


def _braced_title(body: str) -> str:
    """``body`` with :data:`_BRACED_TITLE` quoted for the parser, when no italic group
    (a booktitle, a journal, which :func:`_quote_title` reads) follows it."""
    m = _BRACED_TITLE.search(body)
    if m is None or _TITLE_MARK.search(body, m.end()) or _VOLUME_PAGE_NEXT.match(body, m.end()):
        return body  # (a braced journal, "{Proceedings, ...; EPJ Web Conf.}, 214, 06003")
    return f"{body[:m.start(2) - 1]}\u201c{m.group(2).strip()}\u201d,{body[m.end():]}"


#: The date plain.bst puts after a title when no venue follows: ", 2013", ", 10 2015".
#: (GB/T 7714's "Title[C]// 2014." when the proceedings have no name: the "//" before it)
#: A labelled page that ends a title's block after its date: "{Title}, 2013, S. 029" (the
#: DIN styles' "S." for Seite; an @inproceedings whose booktitle is not printed).
_TRAILING_PAGE = re.compile(r"(?<=\d),\s*(?:S|pp?)\.\s*(?P<pages>" + PAGE_RANGE + r")[\s.]*$")
_TRAILING_DATE = re.compile(r"(?:[,;]|(?<=\])//)\s*"
                            r"(?:(?:[A-Z][a-z]+\.?|\d{1,2}|(?:jan|feb|mar|apr|may|jun|jul|aug|"
                            r"sept?|oct|nov|dec)\.?)\s+)?"  # vancouver: "; 2013."; "mar 2006"
                            r"(?P<year>(?:1[89]|20)\d\d)[a-z]?[\s.]*$")
#: (vancouver's journal-less article: "Title;760:110.")
_BARE_VOL_PAGES_END = re.compile(r"(?:\s+|;)(?P<volume>\d+):\s*(?P<pages>\d+(?:\s*[-–]+\s*\d+)?)"
                                 r"[\s.]*$")
#: The date in parentheses that ends UNAMThesis's title block ("????": no year).
_PAREN_DATE_END = re.compile(r"\s+\((?:(?P<year>(?:1[89]|20)\d\d)[a-z]?|\?{4})\)[\s.]*$")
#: pnas.bst's year before the title: "(2012) Title".
#: (or no date: "(????)", pnas2009's "(year?)", "(n.d.)")
_LEADING_YEAR = re.compile(r"^\(\s*(?:(?P<year>(?:1[89]|20)\d\d)[a-z]?|\?{4}|year\?|n\.\s?d\.)\s*\)\s*")
#: The same with a journal name that holds digits and commas (INSPIRE's "Proceedings,
#: 23rd International Conference ... (CHEP 2018): Sofia, Bulgaria, July 9-13, 2018; EPJ
#: Web Conf., 214:06003, 2019."): the "volume:pages, year" at the end says where it ends.
_PLAIN_VENUE_LONG = re.compile(
    r"^\s*(?:In\s+)?(?P<journal>.+?),\s*(?P<volume>[A-Za-z\-]*\d+)\s*(?:\((?P<number>[^)]*)\))?"
    r"\s*:\s*(?P<pages>\w+(?:[-–]+\w+)?)\s*,\s*(?:(?:[A-Z][a-z]+\.?|\d{1,2})\s+)?"
    r"(?P<year>\d{4})\.?\s*$")
_PLAIN_VENUE = re.compile(  # (a month by number too: INSPIRE's month = "3" gives "3 2025")
    r"^\s*(?P<journal>[^,\d]+?),\s*(?P<volume>[A-Za-z\-]*\d+)\s*(?:\((?P<number>[^)]*)\))?"
    # (ACM's article numbers "26(2):4:1--4:26")
    r"\s*:\s*(?P<pages>(?:\w+:)?\w+(?:[-–]+(?:\w+:)?\w+)?)\s*,\s*"
    r"(?:(?:[A-Z][a-z]+\.?|\d{1,2})\s+)?(?P<year>\d{4})")


#: Initials alone: "M.", "J. P.", "C. J.", "L.-L.", "Ch.", "Yu. A.", "M. Ö." (a given name as
#: author-year styles write it after the family name and a comma). A lower-case initial
#: may follow a capital one, after a hyphen ("J.-c.", Jai-chan) or a space ("Z. q.", as
#: BibTeX prints "Z.-q."; "E. d.~S.", a particle among the initials) as refstring reads it.
_INITIALS_ONLY = re.compile(r"(?:[A-Z\u00C0-\u00DE][a-z]{0,2}\.(?:[\s\u00a0]*-[\s\u00a0]*[a-z]\."
                            r"|[\s\u00a0]+[a-z]\.(?=[\s\u00a0]|$))?[\s\-\u00a0]*)+")
#: The year in parentheses that author-year styles put after the names: "(2016)", "2016a".
#: (natbib's author-year styles print "(????)" for an entry without a year: oega, besjournals;
#: stellenbosch's usmeg-a, usmeg-n and ussagus print "()")
_NAMES_YEAR = re.compile(r"[\s,]*(?:\(?\s*(?:1[6-9]|20)\d\d[a-z]?(?:(?:,\s*|\s+)\d{1,2}|\s*\(\d{1,2}\))?\s*\)?"
                         r"|\(\?{4}\)|\(\s*\)|\?{4})\s*$")  # "(2014, 12)", usmeg's "(1999 9)", "1999 (9)"


#: plain.bst's "In {\em Booktitle}", with the editors before it: "In Malu Castellanos, ...,
#: and Timos Sellis, editors, {\em Booktitle}".
_IN_BOOK = re.compile(r"\s*In\s+(?:(?:[^{}]|\{[^{}]*\})*?,\s*(?:editors?|eds?\.),\s*)?"
                      r"(?:\{\\(?:em|it)\b|\\(?:emph|textit)\s*\{)")


_PLAIN_VOL_PAGES = re.compile(r"\s*,\s*(?P<volume>[\w\-]+)(?:\s*\((?P<number>[^)]*)\))?"
                              r"(?::(?P<pages>" + PAGE_RANGE + r"))?\s*,")


_EM_VOL_PAGES = re.compile(r"\s*,\s*(?P<volume>\d+)(?:\s*\((?P<number>[^)]*)\))?\s*,\s*"
                           rf"(?P<pages>{PAGE_RANGE})\s*\.?\s*")


def _plain_em_venue(block: str, decoded: dict[str, str]) -> None:
    """plain.bst's journal is the ``{\\em ...}`` (plainnat: ``\\emph{...}``) group that opens
    the venue block: "{\\em {ACAT 2019}}, 2019.", "{\\em Proceedings of the 32nd
    International Conference on Machine Learning}, 37:1530--1538, 07--09 Jul 2015." When
    the free-text parse read only part of it as the journal ("ACAT", "Machine Learning";
    the year in the name as volume and page), the whole group is the journal, and the
    volume and pages are the ones after it (false journal MINORs)."""
    m = re.match(r"\s*(?:\{\\em\b|\\emph\s*(?=\{))", block)  # plainnat: \emph{...}
    g = _group(block, block.index("{")) if m else None
    if g is None or not re.match(r"\s*(?:[,.]|$)", block[g[1]:]):
        return
    name = latex_to_unicode(re.sub(r"^\s*\\em\b", "", g[0])).strip(" ,")
    journal = decoded.get("journal", "")
    whole = _EM_VOL_PAGES.fullmatch(latex_to_unicode(block[g[1]:]))
    if not journal and whole and re.search(r"[^\W\d_]{2}", name):
        # ascelike's "{\em Phys. Dark Univ.}, 16, 22--25.": a journal not in the tables
        decoded.update({"journal": name, **{k: dashes(v) for k, v in whole.groupdict().items()
                                            if v}})
        return
    tail = latex_to_unicode(block[g[1]:])
    if not journal:
        # no journal read: plain's "volume:pages" after the group still says it is one
        # ("... International Conference on Machine Learning}, 37:1530--1538", whose tail
        # is no journal of its own)
        vp = _PLAIN_VOL_PAGES.match(tail)
        if vp is None or not vp.group("pages") or not re.search(r"[^\W\d_]{2}", name):
            return
    elif journal == name or journal not in name:
        return
    if re.fullmatch(r"\s*\d+", name.replace(journal, "", 1)) and not re.fullmatch(
            r"\s*,\s*(?:(?:[A-Z][a-z]+\.?|\d{1,2})\s+)?(?:1[89]|20)\d\d\.?\s*", tail):
        return  # acm.bst's "{\em Phys. Rev. Lett. 116}, 16 (2016), 161804": the volume
    decoded["journal"] = name
    vp = _PLAIN_VOL_PAGES.match(tail)
    for key in ("volume", "number", "pages"):
        decoded.pop(key, None)
        if vp and vp.group(key):
            decoded[key] = dashes(vp.group(key))


#: A venue block of an italic journal and a bold volume, the issue and the page after
#: commas (biolett: "\\emph{Phys. Rev. Lett.} \\textbf{116}, 16, 161804.").
_EM_BOLD_VENUE = re.compile(
    r"\s*(?:\\emph\s*\{|\{\\em\s)(?P<journal>(?:[^{}]|\{[^{}]*\})+)\}\s*"
    r"(?:\\textbf\s*\{|\{\\bf\s)\s*(?P<volume>\w+)\s*\}\s*,\s*(?:(?P<number>\d+)\s*,\s*)?"
    rf"(?P<pages>{PAGE_RANGE})\s*\.?\s*")


def _em_bold_venue(block: str, decoded: dict[str, str]) -> None:
    """The journal, volume, issue and pages of a venue block that is only
    :data:`_EM_BOLD_VENUE`: the free text had read "116, 16, 161804" as volume 116, page
    16 (a false MINOR)."""
    m = _EM_BOLD_VENUE.fullmatch(block)
    if m is None:
        return
    decoded["journal"] = latex_to_unicode(m.group("journal")).strip(" ,")
    decoded["volume"] = m.group("volume")
    decoded["pages"] = dashes(latex_to_unicode(m.group("pages")))
    if m.group("number"):
        decoded["number"] = m.group("number")


def _proceedings(block: str) -> dict[str, str] | None:
    """The fields of plain.bst's proceedings venue, "In {\\em Booktitle}, volume 3 of
    Series, pages 12--34, Place, 2 2026.": the booktitle, pages and year. Its words had
    been read as a journal reference ("Lepton-Photon 2025, 2 2026": journal
    "Lepton-Photon", volume 2025, pages 2)."""
    m = _IN_BOOK.match(block)
    if m is None:
        return None
    g = _group(block, block.rfind("{", 0, m.end()))
    if g is None:
        return None
    inner, end = g
    text = latex_to_unicode(re.sub(r"^\s*\\(?:em|it)\b", "", inner)).strip(" ,.")
    rest = latex_to_unicode(block[end:])
    out = {"booktitle": text}
    vm = re.search(r"\b(?:volume|vol\.)\s+([\w\-]+)", rest)
    if vm:
        out["volume"] = vm.group(1)
    pm = re.search(r"\bpages?\s+(" + PAGE_RANGE + ")", rest)  # "page 245.05"
    if pm:
        out["pages"] = dashes(pm.group(1))
    years = re.findall(r"(?<!\d)((?:1[89]|20)\d\d)(?!\d)", rest)
    if years:
        out["year"] = years[-1]
    return out


#: The astronomy styles' proceedings, no title printed: "Names, 2003, in Rest".
_ASTRO_IN = re.compile(r"(?:^|[\s,])(?P<year>(?:1[5-9]|20)\d\d)[a-z]?,\s+in\s+(?P<rest>.+)$", re.S)
#: mnras.bst: "in Munari U., ed., Series Vol. 298, Booktitle. p. 199" (pages "pp 1--5")
_MN_BOOK = re.compile(r"^(?:(?P<eds>.+?),\s+eds?\.?,\s+)?(?:(?P<series>[^.]+?)\s+Vol\.\s*"
                      r"(?P<volume>[\w\-]+),\s+)?(?P<booktitle>.+?)\.\s+(?:.*?,\s+)?"
                      r"pp?\.?\s*(?P<pages>" + PAGE_RANGE + r")[\s,.]*$", re.S)
#: aasjournal.bst: "in Series, Vol. 298, Booktitle, ed. U. Munari, 199" (no editors in
#: meeting abstracts: "in AAS/DPS Meeting Abstracts, Vol. 52, AAS/DPS Meeting Abstracts,
#: 211.01")
_AAS_BOOK = re.compile(r"^(?:(?P<series>[^,]+?),\s+Vol\.\s*(?P<volume>[\w\-]+),\s+)?"
                       r"(?P<booktitle>.+?)(?:,\s+eds?\.\s+.+?)?,\s+"
                       r"(?P<pages>" + PAGE_RANGE + r")[\s,.]*$", re.S)


#: aasjournal.bst of INSPIRE's proceedings: "in Booktitle, Vol. 6, 025004" (the volume
#: and page of the journal that publishes them).
_BOOK_VOL_PAGES = re.compile(r"^(?P<booktitle>.+?),\s+Vol\.\s*(?P<volume>[\w\-]+),\s+"
                             r"(?P<pages>" + PAGE_RANGE + r")[\s,.]*$", re.S)
_TRAILING_IDS = re.compile(r"(?:[\s,]*(?:(?:doi:\s*)?10\.\d{4,9}/\S+|arXiv:\s*\S+|"
                           r"https?://\S+))+[\s,.]*$", re.I)


def _astro_proceedings(free: str) -> dict[str, str] | None:
    """The fields of mnras.bst's and aasjournal.bst's proceedings, which print no title:
    "Bailer-Jones C. A. L., 2003, in Munari U., ed., Astronomical Society of the Pacific
    Conference Series Vol. 298, GAIA Spectroscopy: Science and Technology. p. 199" and
    "Bailer-Jones, C. A. L. 2003, in Astronomical Society of the Pacific Conference
    Series, Vol. 298, GAIA Spectroscopy: Science and Technology, ed. U. Munari, 199". The
    venue had been read as the title (a false MAJOR) or dropped (a false MINOR: a
    title-less reference that omits its booktitle, volume and pages)."""
    m = _ASTRO_IN.search(" ".join(free.split()))
    if m is None:
        return None
    # the identifiers the item ends with (aasjournal's \dodoi, \doarXiv) are read apart
    rest = _TRAILING_IDS.sub("", m.group("rest"))
    bm = _MN_BOOK.match(rest) or _BOOK_VOL_PAGES.match(rest) or _AAS_BOOK.match(rest)
    if bm is None:
        return None
    out = {k: dashes(v) if k == "pages" else v.strip(" ,.")
           for k, v in bm.groupdict().items() if v and k != "eds"}
    book = out.get("booktitle", "")
    if _PUBLISHER_AFTER.search(book):
        # aasjournal's "in Booktitle, Series (Address: Publisher)": "in State of the
        # Practice Reports, SC '11 (New York, NY, USA: ACM)"; a short last part is the series
        book = _PUBLISHER_AFTER.sub("", book)
        head, sep, tail = book.rpartition(", ")
        if sep and head and len(tail.split()) <= 3 and "series" not in out:
            book, out["series"] = head, tail
        out["booktitle"] = book
    out["year"] = m.group("year")
    return out


#: "(Address: Publisher)" at the end of aasjournal's booktitle.
_PUBLISHER_AFTER = re.compile(r"\s*\([^()]*:[^()]*\)\s*$")


#: A brace group of several words without macros: the family name "Ada {Nebot
#: Gomez-Moran}" that ADS-exported .bib files keep through the style (the decoder drops
#: the braces, and "Ada Nebot Gomez-Moran" became family "Gomez-Moran": a false MINOR).
_BRACED_WORDS = re.compile(r"(?<![A-Za-z])\{([^{}\\\s,]+(?:\s+[^{}\\\s,]+){1,3})\}")
_JOINER = "\u2060"  # (no space to str.split(), unlike U+00A0, which "~" becomes)


def _braced_back(authors: str) -> str:
    """Decoded names as BibTeX reads them again: the words :data:`_BRACED_WORDS` joined
    as one brace group, and a tilde that is a letter ("Ba~nados", ADS's export of
    "Bañados" as {Ba{\\textasciitilde n}ados}) kept from being a tie (it had split the
    name: family "nados")."""
    if "~" in authors:
        authors = authors.replace("~", "{\\textasciitilde}")
    if _JOINER not in authors:
        return authors
    return re.sub(rf"[^\s,{_JOINER}]+(?:{_JOINER}[^\s,{_JOINER}]+)+",
                  lambda m: "{" + m.group(0).replace(_JOINER, " ") + "}",
                  authors).replace(_JOINER, " ")


#: A link of a venue block ("URL https://web.archive.org/web/2009..."): its digits are
#: no date.
_LINKS = re.compile(r"(?:\bURL\s+)?\b(?:https?://|www\.|doi:)\S+", re.IGNORECASE)


#: The first block of the Royal Society's styles (biolett): "Names. Year Title." ("Hui L,
#: Ostriker JP, Tremaine S, Witten E. 2017 Ultralight scalars as cosmological dark
#: matter."; "Barbieri R, Braggio C, Carugno G, \\emph{et~al.} 2017 Searching ..."), or
#: "Names. Year." with the title in the next block; a @misc is that one block. (Not GB/T's
#: "HUI L, ..., et~al., 2017.", which the plain layout reads, nor iopart-num's "Bartz S~P and
#: Kapusta J~I 2013 {Title} vol CD12 p 029" nor "Amaro F~D {\em et~al.\/} 2026 {Title}":
#: the names end with a full stop.)
_NAMES_YEAR_TITLE = re.compile(r"^\s*(?P<names>(?:[^{}]|\{[^{}]*\})+?)(?:(?<![,;:])\.|(?<=\.\}))\s+"
                               r"(?P<year>(?:1[89]|20)\d\d)[a-z]?(?:\.?\s*$|\s+(?P<title>\S.*))",
                               re.S)


#: aasjournal's item without a date: "{The Gaia Team}. ????, {Title}." (and, without an
#: author, the entry's key in its place: "GPFS. ????, {IBM Spectrum Scale}."). The names,
#: the "????" and the title had been read as one title (false MINORs: 5 of the 239 entries
#: of a real hand-written astronomy bibliography, lsst_refs.bib).
_NAMES_NODATE_TITLE = re.compile(r"^\s*(?P<names>(?:[^{}]|\{[^{}]*\})+?)\.\s+\?{4}[a-z]?,\s+"
                                 r"(?P<title>\{.+)$", re.S)


def _names_nodate_split(blocks: list[str]) -> list[str]:
    """``blocks`` with :data:`_NAMES_NODATE_TITLE`'s first block as plain's names, then
    the title after "(????)"; a key in the names' place (one word) is left out."""
    m = _NAMES_NODATE_TITLE.match(blocks[0]) if blocks else None
    if m is None:
        return blocks
    names = m.group("names").strip()
    if re.fullmatch(r"[^\s{}.,]+", names):
        return [f"(????) {m.group('title')}", *blocks[1:]]
    return [f"{names}.", f"(????) {m.group('title')}", *blocks[1:]]


def _names_year_split(blocks: list[str]) -> list[str]:
    """``blocks`` with a first block "Names. Year Title." (:data:`_NAMES_YEAR_TITLE`) as
    plain's names, then the title after pnas.bst's "(Year)" (read by the plain layout):
    the names, the year and the title had been read as the authors (a false MINOR), the
    venue as the title (a false MAJOR). Only when the names read as a list of names."""
    m = _NAMES_YEAR_TITLE.match(blocks[0]) if blocks else None
    if m is None or (len(blocks) < 2 and not m.group("title")):
        return blocks
    names = latex_to_unicode(m.group("names")).strip(" .,")
    listed = listed_names(names)
    if listed is None or not listed[0]:
        return blocks
    year = f"({m.group('year')}) "
    if m.group("title"):
        return [m.group("names") + ".", year + m.group("title"), *blocks[1:]]
    return [m.group("names") + ".", year + blocks[1], *blocks[2:]]


#: A block that opens with a quoted title and goes on with the venue (ascelike:
#: "``Title.''\\ {\\em Phys. Dark Univ.}, 16, 22--25."; thesnumb: "``Title,'' {\\em J\\/},
#: {\\em 16\\/}:22--25 (2017).").
_QUOTED_TITLE_BLOCK = re.compile(r"^\s*``(?P<title>(?:(?!'').)+?)''[\s\\,.]*(?P<rest>\S.*)$", re.S)


def _quoted_title_split(blocks: list[str]) -> list[str]:
    """``blocks`` with a names block then one block of a quoted title and its venue
    (:data:`_QUOTED_TITLE_BLOCK`) as plain's three: names, title, venue. The title and the
    venue had been read as one title when the journal was not in the tables (a false
    MAJOR)."""
    if len(blocks) != 2 or not _names_block(blocks[0]):
        return blocks
    m = _QUOTED_TITLE_BLOCK.match(blocks[1])
    if m is None or not re.search(r"[^\W\d_]{2}|\d", m.group("rest")):
        return blocks
    return [blocks[0], m.group("title").strip().rstrip(",.") + ".", m.group("rest")]


_NAMES_COLON = re.compile(r":\s")
#: A venue block of a volume and pages alone, the year perhaps after: "760:110.".
#: (not a year: cqunumerical's "2016: 343--348" is the year and the pages)
#: (or with the pages labelled: newcastle's "917, pp. 86--104.")
_VOLUME_PAGES_BLOCK = re.compile(r"\s*(?!(?:1[89]|20)\d\d:)(?P<volume>\d{1,5})(?::|,\s*pp?\.)\s*"
                                 r"(?P<pages>" + PAGE_RANGE + r")"
                                 r"(?:,\s*(?P<year>(?:1[89]|20)\d\d))?[\s.,]*$")


def _names_colon_title(blocks: list[str]) -> list[str]:
    """``blocks`` with a first block "Names: Title." cut in two: lni, lnig and the DIN
    styles end the names with a colon, not with a block ("Hui, L.; Ostriker, J.~P.;
    Witten, E.: Ultralight scalars ... matter. \\newblock Phys.Rev.D, 95:043541, 2017."),
    and the names, read with the title as one block, had been taken for part of the title
    or split at every comma (false author and title MINORs)."""
    if len(blocks) < 2:
        return blocks
    m = _NAMES_COLON.search(blocks[0])
    if m is None or _names_block(blocks[0]) \
            or blocks[0].count("{", 0, m.start()) != blocks[0].count("}", 0, m.start()):
        return blocks  # (a colon inside braces is the title's: elsarticle's "{Title: ...}")
    names, title = blocks[0][:m.start()], blocks[0][m.end():]
    text = latex_to_unicode(names).strip()
    if not title.strip() or re.match(r"\s*\(?\d", title) or re.search(r"\d", text) \
            or not all_names(text):
        return blocks  # (kluwer's "Names: 2017, `Title'." is read as it was)
    family_first = "," in text and not re.search(r"\b[A-Z][a-z]?\.", text.split(",")[0])
    if ";" not in text and not family_first:
        # the names of these styles are family first, several between semicolons; a
        # title's colon after natural names is not theirs (elsarticle-num's "J.~Dean,
        # S.~Ghemawat, Mapreduce: Simplified data processing ...")
        return blocks
    return [names + ".", title, *blocks[1:]]


#: The first block of the harvard styles hc-en and hc-de: "Names (Date): Title." (the date a
#: year, a month's number and the year, or nothing: "(2016)", "(10 2013)", "()"); newcastle
#: puts no colon: "Marolf, D. and Wien, J. (2016) \\enquote{Title}."
#: (names may end in "\\emph{et~al.}"; "(????)" is natbib's date of an entry without one)
_NAMES_DATE_TITLE = re.compile(r"^(?P<names>(?:[^(){}]|\{[^{}]*\})+?)\s*\((?:(?:1[0-2]|0?[1-9])\s+)?"
                               r"(?:(?P<year>(?:1[89]|20)\d\d)[a-z]?|\?{4})?\)(?P<colon>:?)\s+(?P<title>\S.*)$",
                               re.S)


#: A title in its marks and nothing more: "\\enquote{Title}.", "\\emph{Title}.".
_MARKED_TITLE_ALONE = re.compile(r"\s*\\(?:enquote|emph|textit)\s*\{(?:[^{}]|\{[^{}]*\})*\}[\s.,]*")


def _names_date_colon_title(blocks: list[str]) -> list[str]:
    """``blocks`` with a first block "Names (Date): Title." (:data:`_NAMES_DATE_TITLE`) as
    plain's names block and title block (the year before the title, as pnas.bst prints
    it), when the names read as names and a venue block follows. Taken whole for the
    names, it had put the title among the authors and the venue in the title (a false
    author MINOR: hc-en's "McAllister, Ben~T.; Stephen~R. Parker; and Michael~E. Tobar
    (2016): {Axion ...}. \\newblock \\emph{Phys. Rev. Lett.}, ... \\newblock [Erratum: ...]")."""
    m = _NAMES_DATE_TITLE.match(blocks[0].strip()) if len(blocks) >= 2 else None
    names = latex_to_unicode(m.group("names")).strip() if m else ""
    if m is None or not (all_names(names) or first_inverted_names(names)) or (
            not m.group("colon") and not _MARKED_TITLE_ALONE.fullmatch(m.group("title"))):
        # (without the colon, only a marked title and nothing after it: cje's "(2016)
        # `Title.' {\it Journal} 116,~161804" is read whole as before)
        return blocks
    year = f"({m.group('year')}) " if m.group("year") else ""
    return [m.group("names") + ".", year + m.group("title"), *blocks[1:]]


def _two_blocks(blocks: list[str]) -> str:
    """What the first of a plain item's two blocks is: "names" (persons, or an
    organisation: "{ESA Publications Division}. \\newblock Project Organisation, April
    2000.", "Computer~Security Division. \\newblock Publication 200, ..., mar 2006."),
    "title" (an item without author: "Title. \\newblock {\\em Long Range Planning},
    2024.") or "" (neither: the item is read as free text)."""
    if _names_block(blocks[0]):
        return "names"
    if _LEADING_YEAR.match(blocks[0].lstrip()):
        return "title"  # a date, then the title: no names (:func:`_names_nodate_split`)
    first = latex_to_unicode(blocks[0]).strip().rstrip(".")
    second = latex_to_unicode(blocks[1]).strip()
    if len(first.split()) < 2 or re.search(r"\d", first) \
            or re.search(r",\s*(?:editors?|eds?\.?)$", first):  # "C. Turon, ..., editors."
        return ""
    if len(first.split()) <= 8 and not re.search(r"[.:;,]\s", first) \
            and _TRAILING_DATE.search(second) and not parse_reference(second).get("journal"):
        return "names"  # an organisation, then the title and its date
    if _EM_VENUE.match(blocks[1]) and "author" not in parse_reference(f"{first}.") \
            and not re.search(r"\b[A-Z]\.(?:~|\s|-)", blocks[0]):
        return "title"  # (not "Hui, L., ...: Title." nor "Stanley~J. Brodsky, ...")
    return ""


#: A block that opens with an italic venue ("{\em Long Range Planning}, 2024.").
_EM_VENUE = re.compile(r"\s*(?:\{\\(?:em|it)\b|\\(?:emph|textit)\s*\{)")


def _letter_tildes_kept(decoded: dict[str, str]) -> None:
    """The free-text parse's authors with a tilde that is a letter kept from being a
    tie, as :func:`_braced_back` keeps them in plain.bst's names: ADS's
    {Casta{\\textasciitilde n}eda} reaches the free text as "Casta~neda" (ieeetr,
    aasjournal), and BibTeX's reading had split it in two ("Casta neda": a false
    MINOR)."""
    if "~" in decoded.get("author", ""):
        decoded["author"] = decoded["author"].replace("~", "{\\textasciitilde}")


def _comma_pieces(text: str) -> list[str]:
    """The pieces of a names text between its commas, "and" and "&"."""
    return [p.strip() for p in re.split(r",|\band\b|&", text) if p.strip()]


def _names_block(block: str) -> bool:
    """The first block of a plain/natbib item is names alone ("H.~Noh, C.-G. Park, and
    J.-c. Hwang.", "Kawasaki, M. and Yamada, M. (2016)."), not a whole reference that a
    link block follows (elsarticle: "M. Kawasaki, ..., Phys. Lett. B 753 (2016) 677.
    \\newblock \\href{...}{doi:...}")."""
    if re.fullmatch(r"\s*\{[^{}\\]+\}\.?\s*", block):
        return True  # one group: a body as the author, "{HEP ML Community}."
    # (the DIN styles end the names with a colon: "\\textsc{Janik}, Romuald~A.:")
    text = _NAMES_YEAR.sub("", latex_to_unicode(block).strip().rstrip(".:"))
    # (the full stop that ends the block may be an initial's: "..., and Hwang, J.-c.")
    # (GB/T 7714's upper-case names, "JANIK R~A.", "BROWER R, DJURI{\'C} M, RABEN T, et~al.")
    # (pnas2009 prints initials without their full stop: "Brower, R, Djuri{\'c}, M,  \& Tan,
    # C.-I.", "Wang, Z \& Ma, B.-Q.")
    dotted = re.sub(r"(?<=[\s.])([A-Z])(?=\s*(?:,|&|$))", r"\1.", text)
    # (a babel style's word for "and": UNAMThesis's "Wang, Z. y Ma, B.Q.")
    text = _CONJUNCTION.sub(" and ", text)
    return not re.search(r"\d", text) and (all_names(text) or all_names(f"{text}.")
                                           or all_names(dotted) or all_names(f"{dotted}.")
                                           or (text[:2].isupper() and listed_names(text) is not None)
                                           # one name with its given names: "Janik, Romuald A."
                                           or first_inverted_names(f"{text}.") is not None
                                           # every name inverted, given names written out
                                           # (authordate1-4: "Wang, Zhiyuan, & Ma, Bo-Qiang")
                                           or inverted_pairs(_comma_pieces(text.rstrip(".")),
                                                             text) is not None)


_CONJUNCTION = re.compile(r"\s+(?:und|og|och|et|y)\s+")  # (UNAMThesis: "Liu, G.C. y Ng, K.W.")


#: One family name: a capitalised word (hyphen, apostrophe), after lower-case particles.
_FAMILY_WORD = re.compile(r"(?:(?:de|van|von|der|den|di|da|du|del|della|le|la|ter)\s+)*"
                          r"[A-Z\u00C0-\u00DE][\w'\u2019\-]*")
#: Given names in full or as initials: "Ben T.", "Guo-Chin", "David A".
_GIVEN_WORDS = re.compile(r"[A-Z\u00C0-\u00DE][\w'.\-]*(?:\s+[A-Z\u00C0-\u00DE][\w'.\-]*)*")


def _family_given_pairs(pieces: list[str]) -> bool:
    """Whether the comma-split ``pieces`` of a names block are "Family, Given" pairs with
    full given names (seuthesix: "McAllister, Ben~T., Parker, Stephen~R., and Tobar,
    Michael~E."; "Kosower, David~A."): each family piece one word (after particles), each
    given piece capitalised words. Each piece had been read as a person (a false author
    MINOR). "Guo-Chin Liu, Kin-Wang Ng" has no one-word piece: no pairs."""
    return all(_FAMILY_WORD.fullmatch(n) for n in pieces[0::2]) \
        and all(_GIVEN_WORDS.fullmatch(n) for n in pieces[1::2])


def _plain_authors(text: str) -> str:
    """'A. One, B. Two, and C. Three.' -> 'A. One and B. Two and C. Three'.

    Author-year styles (apalike, nature.bst, agsm, aa.bst) write "Family, I." and end
    with the year: 'Kawasaki, M., Takahashi, F., and Yamada, M. (2016).' ->
    'Kawasaki, M. and Takahashi, F. and Yamada, M.' (every comma had split a name in two).
    """
    t = text.strip().rstrip(".:").strip()
    truncated = bool(re.search(r"\bet\s*al\b|\bu\.\s*a\b", t))  # (its full stop stripped)
    t = re.sub(r",?\s*(?:et\s*al|u\.\s*a)\.?", "", t)
    t = _NAMES_YEAR.sub("", t).rstrip(" :")
    # BibTeX's "and others" printed as a name by styles that do not turn it into "et al."
    # (asaetr, aomalpha: "Barbieri, R., C.~Braggio, G.~Carugno, and others")
    others = re.search(r"(?:,|\band\b)\s*(?:and\s+)?others$", t)
    if others:
        truncated, t = True, t[:others.start()].rstrip(" ,")
    listed = listed_names(t)
    if listed is not None:  # chicago.bst "Hui, L., J.~P. Ostriker, ...", vancouver "Hui L, ..."
        return " and ".join([*listed[0], *(["others"] if truncated or listed[1] else [])])
    # (the last initial's full stop was stripped with the block's, which is read back only
    # after names that keep theirs: plain's "Dinesh~P. R." is Dinesh P. R, one name)
    gost = family_first_names(t) or (family_first_names(f"{t}.") if "," in t else None)
    if gost is not None:  # GOST's (rusnat) "Noh H., Park C.-G., Hwang J.-c."
        return " and ".join([*gost[0], *(["others"] if truncated or gost[1] else [])])
    # the word for "and" in the languages of babel-aware styles (dk-*, francais, din)
    t = _CONJUNCTION.sub(" and ", t.replace("&", " and "))
    if ";" in t:  # ACS, DIN 1505, munich: "Hui, L.; Ostriker, J. P.": whole names
        names = [n.strip(" ,") for n in re.split(r";|/|\s+and\s+", t) if n.strip(" ,")]
    else:
        names = [n.strip() for n in re.split(r",\s*and\s+|\s+and\s+|,\s*", t) if n.strip()]
        # "John J. Bochanski, Jr.": the suffix belongs to the name before it
        for k in range(len(names) - 1, 0, -1):
            if re.fullmatch(r"(?:Jr|Sr)\.?|I{2,3}|IV", names[k]) and " " in names[k - 1]:
                given, family = names[k - 1].rsplit(" ", 1)  # BibTeX's "Last, Jr, First"
                names[k - 1] = f"{family}, {names.pop(k)}, {given}"
    if len(names) == 2 and t.count(",") == 1 and not re.search(r"\band\b", t) \
            and len(names[0].split()) <= 3 and len(names[1].split()) <= 4 \
            and re.fullmatch(r"(?:[A-Z\u00C0-\u00DE][\w'.\-]*\s*)+", names[1]) \
            and not re.search(r"\b[A-Z\u00C0-\u00DE][a-z]?\.", names[0]) \
            and re.search(r"\b(?:[A-Z\u00C0-\u00DE]\.?|[A-Z\u00C0-\u00DE][a-z]\.)$", names[1]):
        # one name, family first, its given names ending in an initial: lni's and the DIN
        # styles' "Kosower, David~A." (a second person would come with "and"; not
        # tugboat's "G.C.~Liu, K.W.~Ng", two names without it)
        return f"{names[0]}, {names[1]}" + (" and others" if truncated else "")
    paired = inverted_pairs(names, t)
    if paired is not None:
        names = paired
    elif len(names) >= 2 and len(names) % 2 == 0 and ((
            all(_INITIALS_ONLY.fullmatch(n + ("." if not n.endswith(".") else ""))
                for n in names[1::2])
            and not any(_INITIALS_ONLY.fullmatch(n) or re.match(r"[A-Z][a-z]?\.", n)
                        for n in names[0::2]))  # "G.-C. Liu and K.-W. Ng": no pairs
            or _family_given_pairs(names)):
        names = [f"{names[i]}, {names[i + 1]}" for i in range(0, len(names), 2)]
    if truncated:
        names.append("others")
    return " and ".join(names)


_ENTRY = re.compile(r"\\entry\s*\{([^}]*)\}\s*\{([^}]*)\}\s*\{[^}]*\}")
_FIELD = re.compile(r"\\field\s*(?:\[[^\]]*\])?\s*\{(\w+)\}\s*")
_VERB = re.compile(r"\\verb\s*\{(\w+)\}\s*\n?\s*\\verb\s?(.*?)\n\s*\\endverb", re.S)
_NAME = re.compile(r"\\name\s*\{(\w+)\}\s*\{\d+\}\s*\{[^}]*\}\s*")
_LIST = re.compile(r"\\list\s*\{(\w+)\}\s*\{\d+\}\s*")
_MISSING = re.compile(r"\\missing\s*\{([^}]*)\}")
_NAMEPART = re.compile(r"\b(family|given|prefix|suffix)=")
#: The key of the entry a data-only clone copies (biber clones what ``related`` names).
_CLONE_SOURCE = re.compile(r"\\field\s*\{clonesourcekey\}\s*\{([^}]*)\}")

_BIBER_FIELD_MAP = {"journaltitle": "journal", "eprinttype": "archiveprefix"}


def _positional_name(person_text: str) -> dict[str, str]:
    """The parts of a name as biblatex 1.x/2.x .bbl files write it, by position:
    ``{hash=...}{family}{F.}{given}{G.}{prefix}{p.}{suffix}{s.}`` (format 3 names them,
    ``family=...``; these names were read as none: authors never checked)."""
    groups: list[str] = []
    i = 0
    while (g := _group(person_text, i)) is not None:
        groups.append(g[0])
        i = g[1]
    if groups and groups[0].startswith("hash="):
        groups = groups[1:]
    if len(groups) < 3 or not groups[0].strip():
        return {}
    parts = {"family": groups[0], "given": groups[2]}
    if len(groups) > 4 and groups[4].strip():
        parts["prefix"] = groups[4]
    if len(groups) > 6 and groups[6].strip():
        parts["suffix"] = groups[6]
    return parts


def _biber_names(block: str) -> str:
    people: list[str] = []
    i = 0
    while True:
        g = _group(block, i)
        if g is None:
            j = block.find("{", i)
            if j < 0:
                break
            i = j
            continue
        person_text, i = g
        parts: dict[str, str] = {}
        for m in _NAMEPART.finditer(person_text):
            v = _group(person_text, m.end())
            if v is not None:
                parts[m.group(1)] = v[0]
        if not parts:
            parts = _positional_name(person_text)
            if not parts:
                continue
        family = parts.get("family", "")
        if family.startswith("{") and family.endswith("}") and not parts.get("given"):
            people.append(family)
            continue
        name = " ".join(x for x in (parts.get("prefix", ""), family) if x)
        if parts.get("suffix"):
            name += ", " + parts["suffix"]
        if parts.get("given"):
            name += ", " + parts["given"]
        people.append(name)
    return " and ".join(people)


def _parse_biber(text: str, filename: str, offset: int) -> tuple[list[Entry], list[Problem]]:
    """The references of a biber .bbl: one entry per cited key.

    Biber writes more ``\\entry`` blocks than the user has references: one per key in
    every ``refsection`` that cites it (a thesis with one bibliography per chapter),
    an ``@set`` entry beside its members (the members are the references), and a
    data-only clone, keyed by a hash, of each entry a ``related`` field names
    (``\\field{clonesourcekey}``). Each was checked as a reference of its own: the same
    reference reported once per chapter, the set as a reference without title or
    identifier, the clone under a key the user never wrote. Here a key is read once
    (its first block; every refsection reads the same .bib), sets are left out, and a
    clone stands for its source key only when no block of that key is in the file.
    """
    entries: list[Entry] = []
    problems: list[Problem] = []
    missing: set[str] = set()
    for m in _MISSING.finditer(text):
        key = m.group(1).strip()
        if key in missing:
            continue
        missing.add(key)
        problems.append(Problem("undefined-key", f"biber could not find {key!r} in any "
                                "bibliography resource (\\missing in the .bbl)", key=key,
                                file=filename, line=offset + _line(text, m.start())))
    keys = {m.group(1).strip() for m in _ENTRY.finditer(text)}
    seen: set[str] = set()
    for m in _ENTRY.finditer(text):
        key, etype = m.group(1).strip(), m.group(2).strip()
        end = text.find("\\endentry", m.end())
        end = len(text) if end < 0 else end
        body = text[m.end():end]
        clone = _CLONE_SOURCE.search(body)
        if clone is not None:
            if clone.group(1) in keys:
                continue
            key = clone.group(1)
        if etype.lower() == "set" or key in seen:
            continue
        seen.add(key)
        raw: dict[str, str] = {}
        for fm in _FIELD.finditer(body):
            g = _group(body, fm.end())
            if g is not None:
                name = fm.group(1).lower()
                raw.setdefault(_BIBER_FIELD_MAP.get(name, name), g[0])
        for vm in _VERB.finditer(body):
            raw.setdefault(vm.group(1).lower(), vm.group(2).strip())
        for lm in _LIST.finditer(body):
            g = _group(body, lm.end())
            if g is not None:
                items = []
                k = 0
                while True:
                    item = _group(g[0], k)
                    if item is None:
                        nxt = g[0].find("{", k)
                        if nxt < 0:
                            break
                        k = nxt
                        continue
                    items.append(item[0])
                    k = item[1]
                raw.setdefault(lm.group(1).lower(), " and ".join(items))
        for nm in _NAME.finditer(body):
            g = _group(body, nm.end())
            if g is not None:
                raw.setdefault(nm.group(1).lower(), _biber_names(g[0]))
        if "\\field{moreauthor}" in body or "\\true{moreauthor}" in body:
            # "and others" in the .bib; appended as a whole word (a strip of the
            # characters " and" ate the particle of "de Teramond": "e Teramond")
            listed = raw.get("author", "")
            raw["author"] = f"{listed} and others" if listed else "others"
        line = offset + _line(text, m.start())
        end_line = offset + _line(text, end)
        entries.append(build_entry(key, etype, filename, line, raw, origin=EntryOrigin.BBL,
                                   end_line=end_line))
    return entries, problems


#: One name as elsarticle-num prints it after decoding: initials ("J.", "Ž.", "L.-J.",
#: "Ch.") and a family name of a few words, lower-case particles too ("J. vandenBerg",
#: "M. de los Rios"); a mononym ("Anisha", "Yi"); a suffix ("Jr.", "III"); "et al.".
_ELS_INITIALS = r"(?:[^\W\d_][a-z]?\.(?:\s*-\s*[^\W\d_][a-z]?\.)?\s*)+"
_ELS_NAME = re.compile(rf"(?:{_ELS_INITIALS})?[^\W\d_][^\s,\d]*(?:\s+\u2060*[^\W\d_][^\s,\d]*){{0,4}}"
                       r"|(?:Jr|Sr)\.?|I{2,3}|IV|et\s*al\.?|others")
#: A font command: the style marks its fields itself (JHEP, ieeetr), not elsarticle's layout.
_FONT = r"\s*\\(?:em|it|bf|sl|sc|rm|tt|sf|emph|textit|textbf|textsc|textsl|enquote)\b"
#: The lower-case words of a family name ("J. vandenBerg" is one word).
_ELS_PARTICLES = frozenset("van von der den de del della dei degli di da das dos du des la "
                           "le les los las ter ten zu vom e y".split())
#: Initials alone: a family-first list ("Kosower, D.~A., {Title}", agu.bst), not
#: elsarticle's.
_ELS_INITIALS_ONLY = re.compile(rf"(?!(?:Jr|Sr)\.$){_ELS_INITIALS}")
#: elsarticle-num's article venue: "Journal 9~(3) (2014) C03048" ("\\apj 159 (1970)
#: 379" decoded "ApJ 159 (1970) 379"; a journal name of several words and commas:
#: "Journal of Astronomical Telescopes, Instruments, and Systems 11~(1) (2025) 011209").
_ELS_VENUE = re.compile(r"^\s*(?P<journal>[^()]*?[^\W\d_][^()]*?)\s+(?P<volume>[A-Za-z\-]*\d+[A-Za-z]?)"
                        r"(?:\s*\((?P<number>[^()]*)\))?\s+\((?:[A-Za-z.]+\s+|\d{1,2}\s+)?"
                        r"(?P<year>(?:1[6-9]|20)\d\d)\)\s+(?P<pages>" + PAGE_RANGE + r")"
                        r"[\s.,]*$")
#: Where a title may begin after the names: a comma, then a brace group, or the title's
#: link, "\href{URL}{{Title}}".
_ELS_TITLE_AT = re.compile(r",\s*(?:\\href\s*\{[^{}]*\}\s*)?(?=\{)")


def _names_braced_title(cleaned: str) -> dict[str, str] | None:
    """The names, the title and the article venue of an elsarticle-num item, "A.~B.
    {Family}, C.~Name, {Title}, Journal 9~(3) (2014) C03048.": the title is the first
    brace group of several words after a comma that only names precede (INSPIRE and ADS
    brace every title they export; the style prints it as it is, or as the text of its
    link). The free-text reading had ended the names at the first it did not know
    ("Anisha", "J. vandenBerg", "Ž. Ivezić", "Jr.": authors missing or added, false
    MINORs) and the title at the last word before a number (", Journal of" left in the
    title, journal "Instrumentation"). None when no such title is found: the item is
    read as before."""
    text = re.split(r"\\newblock\b|\\newline\b", cleaned)[0]
    for m in _ELS_TITLE_AT.finditer(text):
        g = _group(text, m.end())
        if g is None:
            continue
        inner, end = g
        more = re.match(r"\s*:\s*(?=\{)", text[end:])  # "{Title}: {Subtitle}"
        if more and (g2 := _group(text, end + more.end())) is not None:
            inner, end = f"{inner}: {g2[0]}", g2[1]
        title = " ".join(latex_to_unicode(inner).split()).strip(" ,.")
        head = text[:m.start()]
        if re.match(_FONT, inner) or re.search(_FONT, head):
            return None  # the style's own fonts: ieeetr's "{\em et~al.}", JHEP's "\emph{Title}"
        if len(title.split()) < 2 or re.match(r"\s*(?:[~A-Za-z\\{])", text[end:]):
            continue  # one word, or a family name in braces ("{Van Klaveren}~Jr")
        if _COLLAB_WORD.search(title) and _ELS_NAME.fullmatch(title) \
                or _braced_name_before_title(text, end):
            continue  # "{LSST Dark Energy Science Collaboration}", "{Astropy Contributors}"
        edited = re.search(r"\s*\(Eds?\.\)\s*$", head)  # "{ESA} (Ed.), {Title}"
        names = " ".join(latex_to_unicode(_BRACED_WORDS.sub(
            lambda b: b.group(1).replace(" ", _JOINER), head[:edited.start()] if edited
            else head)).split())
        pieces = [p.strip() for p in re.split(r",\s*and\s+|\s+and\s+|,", names) if p.strip()]
        if not pieces or not all(_ELS_NAME.fullmatch(p) and not _ELS_INITIALS_ONLY.fullmatch(p)
                                 and _lower_words_are_particles(p) for p in pieces) \
                or not any(re.match(_ELS_INITIALS, p) or _COLLAB_WORD.search(p)
                           for p in pieces) and not edited:
            return None
        out = {"title": title} if edited else {"author": _els_bibtex_names(pieces),
                                               "title": title}
        rest = text[end:]
        jg = re.match(r"\s*,\s*(?=\{)", rest)
        journal = _group(rest, jg.end()) if jg else None
        if journal is not None and _words_after_group(rest, journal[1]):
            journal = None  # "{IEEE} Data Eng. Bull. 35~(1)": a braced word of the name
        if journal is not None:  # "{Proceedings, 18th ... (ACAT 2017); J. Phys. Conf. Ser.}"
            rest = f", Journal{rest[journal[1]:]}"
        vm = _ELS_VENUE.match(" ".join(latex_to_unicode(_spaced_macros(rest)).split())
                              .lstrip(" ,"))
        if vm:
            out.update({k: dashes(v).strip() for k, v in vm.groupdict().items() if v})
            if journal is not None:
                out["journal"] = " ".join(latex_to_unicode(journal[0]).split())
        return out
    return None


def _words_after_group(text: str, end: int) -> bool:
    """A word follows the brace group that ends at ``end``: the group is part of a longer
    name ("{IEEE} Data Eng. Bull. 35~(1) (2012) 40--45", a hand-written journal that
    braces an acronym), not a whole journal in braces (a volume, a date or the end
    follows those)."""
    return bool(re.match(r"\s*[^\W\d_]", text[end:]))


def _els_bibtex_names(pieces: list[str]) -> str:
    """elsarticle's names ("J.~J. Martínez de Lejarza~Samper", "Anisha", "W.~K. {Ford},
    Jr.", "et~al.") as BibTeX's "Family, Jr., Initials": the family name is all that
    follows the initials, since the style abbreviates every given name (read as "First
    von Last", "Martínez" had become a given name)."""
    names: list[str] = []
    truncated = False
    for p in pieces:
        p = p.replace(_JOINER, " ")
        if re.fullmatch(r"et\s*al\.?|others", p):
            truncated = True
        elif names and re.fullmatch(r"(?:Jr|Sr)\.?|I{2,3}|IV", p):
            family, _, given = names[-1].partition(", ")
            names[-1] = ", ".join(x for x in (family, p, given) if x)
        else:
            im = re.match(_ELS_INITIALS, p)
            given = im.group(0).strip() if im else ""
            family = p[len(im.group(0)):].strip() if im else p
            family = family.replace("~", "{\\textasciitilde}")  # ADS's "Ba{\textasciitilde n}ados"
            if " " in family:
                family = "{" + family + "}"
            names.append(f"{family}, {given}" if given else family)
    return " and ".join([*names, *(["others"] if truncated else [])])


_COLLAB_WORD = re.compile(r"\b(?:Collaboration|Consortium|Team|Group)\b", re.I)


def _braced_name_before_title(text: str, end: int) -> bool:
    """The brace group that ends at ``end`` is a name in braces, not the title: another
    group follows after a comma that no volume follows ("{Astropy Contributors}, {The
    Astropy Project: ...}, \\aj 156", "{Nearby SuperNova Factory}, {Atmospheric ...}").
    A group that a volume or a date follows is a journal in braces ("{Title},
    {Proceedings, 18th ...; J. Phys. Conf. Ser.} 1085~(3) (2018) 032016", "{Title},
    {ACAT 2019} (2019).")."""
    nxt = re.match(r"\s*,\s*(?=\{)", text[end:])
    if nxt is None:
        return False
    g = _group(text, end + nxt.end())
    return g is not None and bool(re.match(r"\s*,", text[g[1]:]))


#: The braced name of a conference that ends an item after its year: mnras prints no
#: article title, so an INSPIRE export whose journal is a conference ("journal =
#: {33rd Annual Conference on Neural Information Processing Systems}") ends "Ju X., et~al.,
#: 2020, {33rd Annual Conference on ...}" (read as the title: a false MAJOR); "in {...}"
#: names a proceedings (its booktitle).
_BRACED_CONFERENCE_END = re.compile(
    r"(?:1[89]|20)\d\d[a-z]?,\s+(?P<in>in\s+)?\{(?P<venue>[^{}]*\b(?:[Cc]onference|[Ww]orkshop|"
    r"[Ss]ymposium|[Cc]ongress|[Cc]olloquium|[Pp]roceedings)\b[^{}]*)\}[\s.,]*$")


def _braced_conference_venue(decoded: dict[str, str], cleaned: str) -> None:
    """:data:`_BRACED_CONFERENCE_END`'s venue in place of the title the free text read."""
    m = _BRACED_CONFERENCE_END.search(cleaned)
    if m is None:
        return
    venue = " ".join(latex_to_unicode(m.group("venue")).split())
    if decoded.get("title", "").strip(" .,") != venue.strip(" .,"):
        return
    del decoded["title"]
    decoded["booktitle" if m.group("in") else "journal"] = venue


def _use_braced_title(decoded: dict[str, str], cleaned: str) -> None:
    """Put :func:`_names_braced_title`'s names, title and venue over the free-text
    reading's (its venue only when it read one: the fields of a proceedings or a thesis
    stay the free-text reading's)."""
    found = _names_braced_title(cleaned)
    if found is None:
        return
    if "journal" in found:
        for k in ("journal", "volume", "number", "pages", "booktitle", "note"):
            decoded.pop(k, None)
    decoded.update(found)


#: The date that ends an item without a venue: " (June 2003)." (elsarticle-num).
_TRAILING_PAREN_DATE = re.compile(r"\s*\(\s*(?:[A-Z][a-z]+\.?\s+)?(?P<year>(?:1[89]|20)\d\d)"
                                  r"[a-z]?\s*\)[\s.]*$")


def _use_braced_organisation(decoded: dict[str, str], cleaned: str) -> None:
    """An organisation in braces as the author of an item the free-text reading found no
    names in: the organisation is the author and what follows it the title (the title
    had been "ESA Publications Division, Project Organisation", or none: a false MAJOR).
    The item opens with the braces of its .bib entry, then a comma and no initials
    ("{ESA Publications Division}, {P}roject {O}rganisation (June 2003).", "{EADS\\
    textasciitilde Astrium}, Gaia plm ..."; not agu's "{Tapiador}, D."). The title is the
    free-text reading of the rest, or the rest up to its date."""
    if "author" in decoded or not cleaned.lstrip().startswith("{"):
        return
    g = _group(cleaned, cleaned.index("{"))
    if g is None:
        return
    comma = re.match(r"\s*,\s*", cleaned[g[1]:])
    org = " ".join(latex_to_unicode(g[0]).split())
    rest = cleaned[g[1] + comma.end():] if comma else ""
    if not comma or len(org.split()) < 2 and "~" not in org or re.match(_ELS_INITIALS, rest):
        return
    rest = re.split(r"\\newblock\b|\\newline\b", rest)[0]
    found = parse_reference(latex_to_unicode(rest))
    title = found.get("title") or _TRAILING_PAREN_DATE.sub("", " ".join(
        latex_to_unicode(rest).split())).strip(" ,.")
    if found.get("author") or len(title.split()) < 2:
        return
    decoded["author"] = "{" + org + "}"
    decoded["title"] = title


#: Words that name a periodical: a title's last comma-separated part is none of them.
_PERIODICAL_WORD = re.compile(r"\b(?:Journal|Transactions|Annals|Proceedings|Bulletin|"
                              r"Letters|Review|Reports|Archives|Acta)\b")
_JOURNAL_NAME_SMALL_WORDS = frozenset("of the and for in on &".split())


def _journal_name_from_title(decoded: dict[str, str], free: str) -> None:
    """The head of a journal name the free-text reading left at the end of the title
    ("..., SA Journal of" + journal "Industrial Psychology"; "..., International Journal
    of Organizational" + "Analysis": a journal it does not know, the name ends the title
    at its small words): the last comma-separated part of the title joins the journal when
    it names a periodical, all its words are capitalised or small, and the text has it
    right before the journal (elsarticle-num's "Title, SA Journal of Industrial Psychology
    24~(2) (1998) 44--54")."""
    journal, title = decoded.get("journal", ""), decoded.get("title", "")
    head, sep, tail = title.rpartition(", ")
    if not (journal and sep and len(head.split()) >= 2 and _PERIODICAL_WORD.search(tail)):
        return
    if not all(w[:1].isupper() or w in _JOURNAL_NAME_SMALL_WORDS for w in tail.split()):
        return
    whole = f"{tail} {journal}"
    if whole not in " ".join(free.split()):
        return
    decoded["journal"], decoded["title"] = whole, head


#: An item that is a link and its braced text, after at most one name, then a date at
#: most: elsarticle-num's @misc of a title and a url ("Oracle, \\href{URL}{{Oracle --
#: Database 12c}}.", "\\href{https://pegasus.isi.edu/}{{Pegasus WMS}}.").
_LINKED_TITLE_ITEM = re.compile(
    r"^\s*(?:(?P<name>[^\W\d_][^{}\\,]*?),\s*)?\\href\s*\{[^{}]*\}\s*"
    r"\{\{(?P<title>(?:[^{}]|\{[^{}]*\})+)\}\}\s*(?:\([^()]*\))?[\s.]*$")


def _use_linked_title(decoded: dict[str, str], cleaned: str) -> None:
    """The title and the one name of :data:`_LINKED_TITLE_ITEM` (the free-text reading
    had read "Oracle, Oracle -- Database 12c" as the title, "Pegasus WMS" as a person:
    false MINORs, or nothing found)."""
    m = _LINKED_TITLE_ITEM.match(re.split(r"\\newblock\b|\\newline\b", cleaned)[0])
    if m is None:
        return
    title = " ".join(latex_to_unicode(m.group("title")).split())
    if len(title.split()) < 2:
        return
    decoded["title"] = title
    if not m.group("name"):
        decoded.pop("author", None)  # (read from the title: nothing else is there)
    elif "author" not in decoded:  # one name the reading did not know: "Oracle"
        decoded["author"] = "{" + " ".join(latex_to_unicode(m.group("name")).split()) + "}"


def _lower_words_are_particles(piece: str) -> bool:
    """Every lower-case word of a family name but its first is a particle ("M. de los Rios",
    "R. Spinola e Castro"); title words ("Warped Gravitons at the LHC") and "Ball et al."
    are no name."""
    if re.fullmatch(r"et\s*al\.?", piece):
        return True
    im = re.match(_ELS_INITIALS, piece)
    family = piece[im.end() if im else 0:].replace("\u2060", " ")
    # ADS's "Pe{\textasciitilde n}a" decodes as "Pe textasciitilde na", bibtex's "Go~ni"
    # (Goñi) as "Go ni": one word
    family = re.sub(r"\s*textasciitilde\s*", "~", family)
    return all(w in _ELS_PARTICLES or (len(w) <= 2 and w not in _TITLE_SMALL_WORDS)
               for w in family.split()[1:] if w[:1].islower())


_TITLE_SMALL_WORDS = frozenset("a an as at by in is of on or to".split())
