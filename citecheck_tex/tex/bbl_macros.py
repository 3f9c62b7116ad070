"""The text macros a ``.bbl`` defines for itself, and their expansion.

Many BibTeX styles write the definitions of their own wording macros at the head of
the ``.bbl`` (``\\providecommand{\\og}{``}``, ``\\providecommand{\\smfandname}{\\&}``,
``\\providecommand{\\nmbibLink}[3]{#3}``) and use them in every item. The reader knew
none of them: the decoder drops an unknown macro and keeps its arguments, so smfalpha's
"J. O. Andersen, W. R. Naylor \\smfandname A. Tranberg" lost its "&" (two names read
as one) and unsrtnm's ``\\nmbibLink{KEY}{authors}{Zhen Fang, ...}`` put the cite key
and the word "authors" before the names. Expanding the definitions the file itself gives
reads the item as TeX prints it.

Only plain text macros are expanded: a definition whose body programs TeX
(``\\csname``, ``\\ifx``, ``\\begingroup``, ``\\@``-names, boxes and skips) is left
alone, and so are the macros the reader interprets itself (``\\url``, ``\\doi``,
``\\bibinfo``, ``\\enquote``, ``\\newblock`` ...), whose fallback definitions would
hide the structure it reads. Expansion is bounded (depth and size), so a recursive
definition cannot hang the run.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from citecheck_tex.tex.bib import read_delimited

__all__ = ["CLASS_MACROS", "PACKAGE_MACROS", "Macro", "bbl_macros", "expand_macros"]


@dataclass(frozen=True, slots=True)
class Macro:
    """A macro defined by ``\\providecommand``/``\\newcommand``/``\\renewcommand``/``\\def``:
    its number of parameters, the default of an optional first one, and its body."""

    nargs: int
    body: str
    default: str | None = None  # an optional first argument's default ([2][] -> "")


#: Macros the reader interprets itself (their .bbl fallbacks would hide the structure
#: it reads: \url's link, \doi's identifier, revtex's \bibinfo fields and GB/T's
#: \bibauthor..., \enquote's title, \newblock's blocks) or that mark the item, never its
#: text.
_READER_MACROS = frozenset({
    "url", "doi", "href", "eprint", "Eprint", "urlprefix", "doibase", "bibinfo", "bibfield",
    "bibnamefont", "bibfnamefont", "citenamefont", "enquote", "newblock", "bibitem",
    "BibitemOpen", "BibitemShut", "bibitemStop", "bibitemNoStop", "EOS", "showarticletitle",
    "etal", "natexlab", "emph", "textit", "textbf", "textsc", "em", "it", "bf", "sc",
    "penalty", "relax", "par", "thebibliography", "bibAnnote", "bibAnnoteFile", "path",
    # the field macros of the GB/T 7714 styles (bbl._FIELD_MACRO)
    *(f"bib{f}" for f in ("author", "title", "booktitle", "journal", "year", "volume", "number",
                          "pages", "publisher", "address", "school", "institution",
                          "organization")),
})
#: A body that programs TeX rather than printing text.
_PROGRAMMING = re.compile(
    r"\\(?:[A-Za-z]*@|csname|endcsname|expandafter|if[a-z]*|fi|else|begingroup|endgroup|"
    r"def|edef|gdef|let|catcode|spacefactor|unskip|hskip|vskip|kern|hbox|vbox|mbox|rule|"
    r"spaceskip|fontdimen|uppercase|lowercase|Capitalize|MakeUppercase|MakeLowercase|"
    r"noexpand|futurelet|aftergroup|string|the|number|romannumeral|hrulefill|"
    r"discretionary|leavevmode|newline|linebreak|cite\w*|ref|label|input|include)"
    r"(?![A-Za-z])")
#: A body that prints the bibliography label (natbib's and LaTeX's label printers).
_LABEL_PRINTER = re.compile(r"\\(?:NAT@biblabel\w*|@biblabel)(?![A-Za-z])")
#: A body that quotes its one argument: ``#1'', \\og #1\\fg, \\textquotedblleft #1...
_QUOTING = re.compile(r"\s*(?:``|\\textquotedblleft\s*|\u201c)\s*#1\s*(?:''|\\textquotedblright\s*|\u201d)\s*")
_DEFINE = re.compile(r"\\(?P<cmd>providecommand|newcommand|renewcommand|DeclareRobustCommand)"
                     r"\s*\*?\s*(?:\{\s*\\(?P<braced>[A-Za-z]+)\s*\}|\\(?P<bare>[A-Za-z]+))"
                     r"\s*(?:\[\s*(?P<nargs>\d)\s*\])?\s*(?:\[(?P<default>[^\]]*)\])?\s*(?=\{)")
_BIBLIOGRAPHY_FONT = re.compile(r"\\providebibliographyfont\s*\{(?P<element>\w+)\}\s*"
                                r"\{(?P<font>\s*(?:\\[A-Za-z]+)?\s*)\}")
_DEF = re.compile(r"\\def\s*\\(?P<name>[A-Za-z]+)\s*(?P<params>(?:#\d)*)\s*(?=\{)")
#: opcit.sty's ``\newBibCommand{\name[n]}{citation form}{bibliography form}``: the
#: bibliography prints the second form (opcit's .bbl: ``\SwapNames[2]{#1 #2}{#2, #1}``).
_NEW_BIB_COMMAND = re.compile(r"\\newBibCommand\s*\{\s*\\(?P<name>[A-Za-z]+)\s*"
                              r"(?:\[\s*(?P<nargs>\d)\s*\])?\s*\}\s*(?=\{)")
_CONTROL_WORD = re.compile(r"\\([A-Za-z]+)")
_MAX_EXPANSIONS = 5000
_MAX_GROWTH = 4  # times the text's length (plus a margin): beyond it, nothing is expanded


def _babelbib_macros() -> dict[str, Macro]:
    """The macros of babelbib.sty and its english.bdf (the fallback language the babel
    styles select: ``\\btxselectlanguage{\\btxfallbacklanguage}``), which the babplain,
    bababbrv, babalpha, babunsrt, babamspl and bgteu* styles print and the .bbl does not
    define: the fonts are empty (the group after them is the text), the words are their
    English words, the one argument of a word is its punctuation ("\\btxpageshort{.}")."""
    out: dict[str, Macro] = {}
    for font in ("name", "lastname", "title", "jtitle", "etal", "journal", "publisher", "volume",
                 "ISBN", "ISSN", "url", "urldate", "numeral"):
        out[f"btx{font}font"] = Macro(0, "")
    words = {
        "andshort": "and", "andlong": "and", "andcomma": ",", "etalshort": "et~al#1",
        "etallong": "et~al.", "inlong": "in", "inshort": "in", "editorshort": "ed#1",
        "editorlong": "editor", "editorsshort": "eds#1", "editorslong": "editors",
        "volumeshort": "vol#1", "volumelong": "volume", "jvolumeshort": "vol#1",
        "jvolumelong": "volume", "numbershort": "no#1", "numberlong": "number",
        "editionshort": "ed#1", "editionlong": "edition", "chaptershort": "ch#1",
        "chapterlong": "chapter", "pageshort": "p#1", "pagelong": "page", "pagesshort": "pp#1",
        "pageslong": "pages", "mastthesis": "Master's thesis", "phdthesis": "PhD thesis",
        "techrepshort": "Techn. rep#1", "techreplong": "Technical report",
        "ofseriesshort": "of", "inseriesshort": "in", "ofserieslong": "of",
        "inserieslong": "in",
    }
    for name, word in words.items():
        out[f"btx{name}"] = Macro(1, word)
        out[f"Btx{name}"] = Macro(1, word[:1].upper() + word[1:])
    months = ("January February March April May June July August September October "
              "November December").split()
    for month in months:
        out[f"btxmon{month[:3].lower()}long"] = Macro(1, month)
        out[f"btxmon{month[:3].lower()}short"] = Macro(1, month[:3] + "#1")
    out.update({
        # (TeX prints ":" after the names; it ends their block as plain's "." and
        # \newblock do, so the names and the title are read as two blocks)
        "btxauthorcolon": Macro(0, ".\n\\newblock "),
        # (english.bdf: a space in a long given name, none between initials; a space
        # there too keeps the initials apart for the name reader)
        "btxfnamespacelong": Macro(0, " "), "btxfnamespaceshort": Macro(0, " "),
        "btxifchangecase": Macro(2, "#2"),  # (the title as the .bib gives it)
        "btxprintmonthyear": Macro(4, "#2 #3"),
        "btxselectlanguage": Macro(1, ""), "btxfallbacklanguage": Macro(0, ""),
        "latintext": Macro(0, ""), "foreignlanguage": Macro(2, "#2"),
        "btxprintamslanguage": Macro(1, ""),
    })
    return out


#: francaisbst.tex, which the .bbl of francais, francaissc and frplainnat-letters
#: \\input's: the French words, read as the English ones the reader knows ("et" and
#: "et collab." join and end a list of names, "vol." and "p." label volume and page).
_FRANCAISBST = {
    "bbland": "and", "bbletal": "et~al.", "bbleditors": "eds.", "bbleds": "eds.",
    "bbleditor": "ed.", "bbled": "ed.", "bbledby": "edited by", "bbledition": "edition",
    "bbledn": "ed.", "bblvolume": "volume", "bblvol": "vol.", "bblof": "of",
    "bblnumber": "number", "bblno": "no.", "bblin": "in", "bblpages": "pages", "bblpp": "pp.",
    "bblpage": "page", "bblp": "p.", "bbleidpp": "pages", "bblchapter": "chapter",
    "bblchap": "chap.", "bbltechreport": "technical report", "bbltechrep": "tech. rep.",
    "bblmthesis": "Master's thesis", "bblphdthesis": "PhD thesis",
    **{f"bbl{m[:3].lower()}": m for m in ("January February March April May June July "
                                          "August September October November December")
       .split()},
}


#: The words of frplainnat-letters and the French babel (\\andname ...), its small capitals
#: (\\bsc), and TeX's \\bgroup and \\egroup, which it prints for the braces of a name
#: ("L.~\\bsc\\bgroup Bartolini\\egroup{}").
_OTHER_PACKAGE_MACROS = {
    "andname": "and", "volumename": "vol.", "numbername": "no.", "pagename": "p.",
    "bsc": "", "bgroup": "{", "egroup": "}",
    # custom-bib's "varand" option (merlin.mbs): the last two names joined by
    # "\protect\BIBand{}", which the document defines (stellenbosch's usbib.sty: "and",
    # "en" or "&"), never the .bbl; dropped, the two names had been read as one
    "BIBand": "and",
    # opcit.sty, in the bibliography (its \newBibCommand's second forms): the markers
    # around an item's text, the punctuation that ends a block
    "opcitstart": "", "opcitend": ".", "bibpunctuation": ".", "QuoteOrNot": "",
}
#: opcit.sty's macros with arguments, as the bibliography prints them: the names it
#: remembers for "op. cit." (not printed), a part a later citation omits (printed here),
#: the case of a letter.
_OPCIT_MACROS = {"biblastnames": Macro(1, ""), "bibhereafter": Macro(1, ""),
                 "toomit": Macro(2, "#2", "omitted"), "bibcase": Macro(1, "#1")}
#: A language switch prints nothing: vak's .bbl opens every item with
#: ``\selectlanguageifdefined{english}`` (its definition programs TeX, so the .bbl's own is
#: not read; dropped as an unknown macro, its argument "english" had opened the names).
_LANGUAGE_MACROS = {"selectlanguageifdefined": Macro(1, ""), "selectlanguage": Macro(1, "")}


#: apacite.sty's words and marks, as its reference list prints them (the .bbl of apacite,
#: apacann, apacitex and apacannx defines none of them): the full stop between initials
#: (``\BPBI``), the "&" and commas between names, "et al." (whose argument is its
#: punctuation), the labels of volume, pages, editors, a thesis or a report; the cite key's
#: meta-analysis star, the back-references and the author index's entries print nothing
#: here. (The macros with the fields as arguments are read by :mod:`bbl_apacite`.)
_APACITE_WORDS = {
    "BBA": "\\&", "BBAA": "\\&", "BBAB": "and", "BAnd": "\\&", "BPBI": ".~", "BHBI": ".-",
    "BCBT": ",", "BCBL": ",", "BDBL": ", \\dots{} ", "BIn": "In", "Bby": "by", "BED": "Ed.",
    "BEDS": "Eds.", "BTRANS": "Trans.", "BTRANSS": "Trans.", "BTRANSL": "trans.",
    "BCHAIR": "Chair", "BCHAIRS": "Chairs", "BVOL": "Vol.", "BVOLS": "Vols.", "BNUM": "No.",
    "BNUMS": "Nos.", "BEd": "ed.", "BCHAP": "chap.", "BCHAPS": "chap.", "BPG": "p.",
    "BPGS": "pp.", "BTR": "Tech.\\ Rep.", "BPhD": "Doctoral dissertation",
    "BUPhD": "Unpublished doctoral dissertation", "BMTh": "Master's thesis",
    "BUMTh": "Unpublished master's thesis", "BAuthor": "Author",
    "BOWP": "Original work published", "BREPR": "Reprinted from",
    "BAvailFrom": "Available from\\ ", "BRetrievedFrom": "Retrieved from\\ ",
    "BMsgPostedTo": "Message posted to\\ ", "BBOP": "(", "BBCP": ")", "BBOQ": "", "BBCQ": "",
    "bibnodate": "n.d.", "BIP": "in press", "CurrentBib": "", "APACmetastar": "",
    "bibmessage": "Msg", "bibcomputerprogram": "Computer program",
    "bibcomputerprogrammanual": "Computer program manual",
    "bibcomputerprogramandmanual": "Computer program and manual",
    "bibcomputersoftware": "Computer software",
    "bibcomputersoftwaremanual": "Computer software manual",
    "bibcomputersoftwareandmanual": "Computer software and manual",
    "bibprogramminglanguage": "Programming language",
}
_APACITE_MACROS = {
    "BOthers": Macro(1, "et~al."), "BOthersPeriod": Macro(1, "et~al."),
    "BRetrieved": Macro(1, "Retrieved #1, from\\ "),
    # (the letter after a year that repeats: "2012a"; the year is what is read)
    "BCnt": Macro(1, ""), "BCntIP": Macro(1, ""), "BCntND": Macro(1, ""),
    "APACyear": Macro(1, "#1"), "APACexlab": Macro(1, "#1"), "APACmonth": Macro(1, "#1"),
    "PrintOrdinal": Macro(1, "#1"), "Bem": Macro(1, "\\emph{#1}"),
    "APACinsertmetastar": Macro(1, ""), "PrintBackRefs": Macro(1, ""), "AX": Macro(1, ""),
    "corporateAX": Macro(1, ""),
}


def _package_macros() -> dict[str, Macro]:
    out = _babelbib_macros()
    out.update({name: Macro(0, word) for name, word in _FRANCAISBST.items()})
    out.update({name: Macro(0, word) for name, word in _OTHER_PACKAGE_MACROS.items()})
    out.update(_OPCIT_MACROS)
    out.update({name: Macro(0, word) for name, word in _APACITE_WORDS.items()})
    out.update(_APACITE_MACROS)
    out.update(_LANGUAGE_MACROS)
    return out


#: Macros a package defines for the .bbl of its styles (the .bbl's own definitions win).
PACKAGE_MACROS: dict[str, Macro] = _package_macros()

#: Macros a document class defines before the bibliography, which the .bbl's own
#: ``\providecommand`` fallback therefore never replaces: asmejour.cls's
#: ``\hrefurl[2]{\href{#1}{#2}}`` (asmejour.bst's .bbl provides ``\hrefurl[2][]``, an
#: optional first argument: expanded, the link's address became its text and the DOI
#: ran into the journal, "10.1007/JHEP08(2016)015JHEP", a false DOI MINOR).
CLASS_MACROS: dict[str, Macro] = {"hrefurl": Macro(2, "\\href{#1}{#2}")}


def bbl_macros(text: str) -> dict[str, Macro]:
    """The text macros ``text`` (a .bbl's head) defines, by name without the backslash.

    ``\\providecommand`` and ``\\newcommand`` keep a first definition (as LaTeX does for
    a name already defined), ``\\renewcommand`` and ``\\def`` replace it. Definitions
    that program TeX or redefine a macro the reader interprets are left out.
    """
    found: list[tuple[int, str, Macro, bool]] = []
    for m in _DEFINE.finditer(text):
        name = m.group("braced") or m.group("bare")
        body, _ = read_delimited(text, m.end())
        nargs = int(m.group("nargs") or 0)
        default = m.group("default") if nargs else None
        found.append((m.start(), name, Macro(nargs, body, default),
                      m.group("cmd") in ("renewcommand", "DeclareRobustCommand")))
    for m in _DEF.finditer(text):
        params = m.group("params")
        numbers = [int(p) for p in re.findall(r"#(\d)", params)]
        if numbers != list(range(1, len(numbers) + 1)):
            continue  # a delimited parameter text ("\\def\\x[#1]{...}"): not read
        body, _ = read_delimited(text, m.end())
        found.append((m.start(), m.group("name"), Macro(len(numbers), body), True))
    for m in _NEW_BIB_COMMAND.finditer(text):
        _, end = read_delimited(text, m.end())  # the form of a citation in a footnote
        start = end
        while start < len(text) and text[start].isspace():
            start += 1
        if text[start:start + 1] == "{":
            body, _ = read_delimited(text, start)
            found.append((m.start(), m.group("name"), Macro(int(m.group("nargs") or 0), body),
                          True))
    for m in _BIBLIOGRAPHY_FONT.finditer(text):
        # babelbib's fonts, which its styles set in the .bbl: the title's is \emph, the
        # mark by which the reader knows a title (the font macros are empty without it)
        found.append((m.start(), f"btx{m.group('element')}font", Macro(0, m.group("font")),
                      False))
    macros: dict[str, Macro] = {}
    for _, name, macro, replace in sorted(found, key=lambda f: f[0]):
        if name not in _READER_MACROS and _LABEL_PRINTER.search(macro.body):
            # a macro that prints the item's label, not its text: natdin's
            # \dinatlabel{Janik 1999} (\NAT@biblabelnum{#1}); kept, its argument had
            # opened the names ("Janik 1999 Janik, Romuald A.": no author read)
            macro = Macro(macro.nargs, "", macro.default)
        elif name in _READER_MACROS or _PROGRAMMING.search(macro.body):
            continue
        if macro.nargs == 1 and _QUOTING.fullmatch(macro.body):
            # a quoting macro marks the title as \enquote does (the reader reads that
            # mark): ajae's and itaxpf's \bibenquote{{Title}.}
            macro = Macro(1, "\\enquote{#1}")
        if replace or name not in macros:
            macros[name] = macro
    return macros


def _argument(text: str, i: int) -> tuple[str, int] | None:
    """An undelimited argument at i (after spaces): a braced group's content, a control
    word or one character; None at the end of the text."""
    while i < len(text) and text[i] in " \t\n":
        i += 1
    if i >= len(text) or text[i] == "}":
        return None
    if text[i] == "{":
        inner, end = read_delimited(text, i)
        return inner, end
    m = _CONTROL_WORD.match(text, i)
    if m:
        return m.group(0), m.end()
    return text[i:i + 2], i + 2 if text[i] == "\\" else i + 1


def _optional(text: str, i: int) -> tuple[str, int] | None:
    j = i
    while j < len(text) and text[j] in " \t\n":
        j += 1
    if j < len(text) and text[j] == "[":
        close = text.find("]", j)
        if close > 0:
            return text[j + 1:close], close + 1
    return None


def _substitute(body: str, args: list[str]) -> str:
    return re.sub(r"#(#|\d)", lambda m: "#" if m.group(1) == "#" else
                  (args[int(m.group(1)) - 1] if 0 < int(m.group(1)) <= len(args) else ""),
                  body)


#: A control word that ends the text before a macro's use.
_CONTROL_WORD_END = re.compile(r"\\[A-Za-z]+$")


def expand_macros(text: str, macros: dict[str, Macro]) -> str:
    """``text`` with every use of ``macros`` replaced by its body (arguments put in, the
    result read again, so a macro may use another). ``text`` unchanged when the
    expansion does not end within the bounds (a recursive definition)."""
    if not macros or "\\" not in text:
        return text
    limit = _MAX_GROWTH * len(text) + 2000
    out = text
    pos = 0
    for _ in range(_MAX_EXPANSIONS):
        m = _CONTROL_WORD.search(out, pos)
        while m is not None and m.group(1) not in macros:
            m = _CONTROL_WORD.search(out, m.end())
        if m is None:
            return out
        macro = macros[m.group(1)]
        end = m.end()
        args: list[str] = []
        wanted = macro.nargs
        if macro.default is not None:
            opt = _optional(out, end)
            if opt is not None:
                args.append(opt[0])
                end = opt[1]
            else:
                args.append(macro.default)
            wanted -= 1
        for _ in range(wanted):
            arg = _argument(out, end)
            if arg is None:
                break
            args.append(arg[0])
            end = arg[1]
        replacement = _substitute(macro.body, args)
        if macro.nargs == 0 and end < len(out) and out[end].isalpha() and replacement and \
                replacement[-1].isalnum():
            replacement += " "  # (TeX ends a control word there; the letters stay apart)
        if replacement[:1].isalpha() and _CONTROL_WORD_END.search(out, 0, m.start()):
            # a control word just before: "\\protect\\BIBand{}" is no "\\protectand"
            # (the word had been dropped with it, two names read as one)
            replacement = " " + replacement
        out = out[:m.start()] + replacement + out[end:]
        if len(out) > limit:
            return text
        pos = m.start()
    return text
