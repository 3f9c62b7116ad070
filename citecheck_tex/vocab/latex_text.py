"""LaTeX to Unicode, and blanking what LaTeX ignores while keeping line numbers.

:func:`latex_to_unicode` wraps pylatexenc's ``LatexNodes2Text`` with a few
extra macros (AAS journal macros, ``\\url``, ``\\href``) and no inserted
spaces; a fast path gives the same text while sending only macro and math
spans to pylatexenc (see ``_fast_text``). :func:`blank_ignored` replaces
comments, ``comment`` environments, ``\\iffalse`` blocks and verbatim bodies
by spaces, so offsets and lines of the rest of the text are unchanged.
"""

from __future__ import annotations

import html
import logging
import re
import unicodedata
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec
from pylatexenc.latex2text import get_default_latex_context_db as _text_db
from pylatexenc.latexwalker import LatexWalker
from pylatexenc.latexwalker import get_default_latex_context_db as _walker_db
from pylatexenc.macrospec import LatexContextDb, MacroSpec
from pylatexenc.macrospec import MacroStandardArgsParser as _StdArgs

logger = logging.getLogger(__name__)

#: AAS/ADS journal macros (aastex) expanded to the abbreviations they print.
JOURNAL_MACROS: dict[str, str] = {
    "aj": "AJ", "actaa": "Acta Astron.", "araa": "ARA&A", "apj": "ApJ", "apjl": "ApJL",
    "apjs": "ApJS", "ao": "Appl. Opt.", "apss": "Ap&SS", "aap": "A&A", "aapr": "A&A Rv",
    "aaps": "A&AS", "azh": "AZh", "baas": "BAAS", "caa": "Chinese Astron. Astrophys.",
    "cjaa": "Chinese J. Astron. Astrophys.", "icarus": "Icarus", "jcap": "JCAP",
    "jrasc": "JRASC", "memras": "MmRAS", "mnras": "MNRAS", "na": "New A", "nar": "New A Rev.",
    "pra": "Phys. Rev. A", "prb": "Phys. Rev. B", "prc": "Phys. Rev. C", "prd": "Phys. Rev. D",
    "pre": "Phys. Rev. E", "prl": "Phys. Rev. Lett.", "pasa": "PASA", "pasp": "PASP",
    "pasj": "PASJ", "qjras": "QJRAS", "rmxaa": "Rev. Mexicana Astron. Astrofis.",
    "skytel": "S&T", "solphys": "Sol. Phys.", "sovast": "Soviet Ast.", "ssr": "Space Sci. Rev.",
    "zap": "ZAp", "nat": "Nature", "iaucirc": "IAU Circ.", "aplett": "Astrophys. Lett.",
    "apspr": "Astrophys. Space Phys. Res.", "bain": "Bull. Astron. Inst. Netherlands",
    "fcp": "Fund. Cosmic Phys.", "gca": "Geochim. Cosmochim. Acta", "grl": "Geophys. Res. Lett.",
    "jcp": "J. Chem. Phys.", "jgr": "J. Geophys. Res.", "jqsrt": "JQSRT",
    "memsai": "Mem. Soc. Astron. Italiana", "nphysa": "Nucl. Phys. A", "physrep": "Phys. Rep.",
    "physscr": "Phys. Scr", "planss": "Planet. Space Sci.", "procspie": "Proc. SPIE",
    "aanda": "A&A", "psj": "PSJ", "rnaas": "RNAAS",
}

_EXTRA_TEXT_MACROS = [
    MacroTextSpec("url", simplify_repl="%(1)s"),
    MacroTextSpec("href", simplify_repl="%(2)s"),
    MacroTextSpec("mathcal", simplify_repl="%(1)s"),
    MacroTextSpec("mathrm", simplify_repl="%(1)s"),
    MacroTextSpec("mathbf", simplify_repl="%(1)s"),
    MacroTextSpec("mathit", simplify_repl="%(1)s"),
    MacroTextSpec("enquote", simplify_repl="%(1)s"),
    MacroTextSpec("natexlab", simplify_repl="%(1)s"),
    MacroTextSpec("bibinfo", simplify_repl="%(2)s"),
    MacroTextSpec("bibfield", simplify_repl="%(2)s"),
    MacroTextSpec("bibnamefont", simplify_repl="%(1)s"),
    MacroTextSpec("bibfnamefont", simplify_repl="%(1)s"),
    MacroTextSpec("citenamefont", simplify_repl="%(1)s"),
    MacroTextSpec("eprint", simplify_repl="%(2)s"),
    MacroTextSpec("doibase", simplify_repl=""),
    MacroTextSpec("BibitemOpen", simplify_repl=""),
    MacroTextSpec("BibitemShut", simplify_repl=""),
    MacroTextSpec("bibAnnote", simplify_repl=""),
    MacroTextSpec("bibAnnoteFile", simplify_repl=""),
    MacroTextSpec("newblock", simplify_repl=" "),
    MacroTextSpec("bibinitperiod", simplify_repl="."),
    MacroTextSpec("bibinitdelim", simplify_repl=" "),
    MacroTextSpec("bibnamedelima", simplify_repl=" "),
    MacroTextSpec("bibnamedelimb", simplify_repl=" "),
    MacroTextSpec("bibnamedelimc", simplify_repl=" "),
    MacroTextSpec("bibnamedelimd", simplify_repl=" "),
    MacroTextSpec("bibnamedelimi", simplify_repl=" "),
    MacroTextSpec("bibrangedash", simplify_repl="–"),
    # biber's separator of page ranges: "pages = {5, 9}" is 5\bibrangessep 9 in a .bbl
    # (dropped, the first page read "59")
    MacroTextSpec("bibrangessep", simplify_repl=", "),
    MacroTextSpec("textendash", simplify_repl="–"),
    MacroTextSpec("ensuremath", simplify_repl="%(1)s"),
    MacroTextSpec("mbox", simplify_repl="%(1)s"),  # mnras.bst: (\mbox{arXiv:...})
    MacroTextSpec("protect", simplify_repl=""),
    MacroTextSpec("relax", simplify_repl=""),
    MacroTextSpec("noopsort", simplify_repl=""),
] + [MacroTextSpec(name, simplify_repl=text.replace("%", "%%"))
     for name, text in JOURNAL_MACROS.items()]

_EXTRA_ARG_SPECS = {
    "url": "{", "href": "{{", "enquote": "{", "natexlab": "{", "bibinfo": "{{",
    "bibfield": "{{", "bibnamefont": "{", "bibfnamefont": "{", "citenamefont": "{",
    "eprint": "{{", "doibase": "", "BibitemShut": "{", "bibAnnote": "{{", "bibAnnoteFile": "{",
    "noopsort": "{", "ensuremath": "{", "mathcal": "{", "mathrm": "{", "mathbf": "{",
    "mathit": "{", "mbox": "{",
}


@lru_cache(maxsize=1)
def _converter() -> tuple[LatexNodes2Text, LatexContextDb]:
    db = _walker_db()
    db.add_context_category(
        "citecheck",
        prepend=True,
        macros=[MacroSpec(name, args) for name, args in _EXTRA_ARG_SPECS.items()],
        environments=[],
        specials=[],
    )
    tdb = _text_db()
    tdb.add_context_category("citecheck", prepend=True, macros=_EXTRA_TEXT_MACROS)
    conv = LatexNodes2Text(latex_context=tdb, math_mode="text", strict_latex_spaces=True)
    return conv, db


_PLAIN = re.compile(r"^[^\\{}$~%&_^]*$")
_BRACES_ONLY = re.compile(r"^[^\\$%&_^]*$")
#: Accent commands that combine with the next letter, as Unicode combining marks.
_ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303",
            "=": "\u0304", ".": "\u0307", "H": "\u030b", "v": "\u030c", "u": "\u0306",
            "c": "\u0327", "k": "\u0328", "r": "\u030a"}
_ACCENT_RE = re.compile(
    r"\{?\\([\'`^\"~=.]|[Hvuckr](?![A-Za-z]))\s*(?:\{\s*([A-Za-z]|\\i)\s*\}|([A-Za-z]))\}?"
)


def _accent(m: re.Match[str]) -> str:
    letter = m.group(2) or m.group(3)
    if letter == "\\i":
        letter = "i"
    return unicodedata.normalize("NFC", letter + _ACCENTS[m.group(1)])


def latex_to_unicode(text: str) -> str:
    """Decode LaTeX to readable Unicode without inserting spurious spaces.

    ``Heged{\\H u}s`` -> ``Hegedűs``, ``$\\Lambda$CDM`` -> ``ΛCDM``. Never raises:
    on a pylatexenc failure the text is returned with braces removed.
    """
    if not text:
        return ""
    if _PLAIN.match(text):
        return " ".join(text.split())
    return _decode(text)


#: A ``%`` or ``&`` not escaped by a backslash (an even run of backslashes before it).
_BARE_SPECIAL = re.compile(r"(?<!\\)((?:\\\\)*)([%&])")
#: Inline markup publishers put in metadata titles (Crossref JATS and HTML, MathML):
#: ``<scp>T</scp>reebase``, ``<i>p</i>-Bromostyrene``, ``Webots<sup>™</sup>``,
#: ``<mml:math>...``. Only these element names (with any namespace prefix), so a
#: ``<`` in text (``p_T < 5 GeV``) stays.
_MARKUP_TAG = re.compile(
    r"</?(?:[A-Za-z][\w.-]*:)?(?:i|b|em|strong|sub|sup|scp|sc|u|span|italic|bold|small|"
    r"smallcaps|sans-serif|monospace|underline|overline|br|p|a|math|mi|mo|mn|ms|mtext|mrow|"
    r"msub|msup|msubsup|mfrac|msqrt|mroot|mover|munder|munderover|mstyle|mspace|mfenced|"
    r"semantics|inline-formula|alternatives|tex-math|title)(?:\s[^<>]*)?/?>",
    re.IGNORECASE,
)
#: MathML annotations repeat the formula as TeX source: dropped with their content.
_MARKUP_ANNOTATION = re.compile(
    r"<(?:[A-Za-z][\w.-]*:)?annotation(?:-xml)?\b[^>]*>.*?</(?:[A-Za-z][\w.-]*:)?annotation"
    r"(?:-xml)?>", re.IGNORECASE | re.DOTALL,
)
_ENTITY = re.compile(r"&(?:#\d+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);")


def strip_markup(text: str) -> str:
    """``text`` without the inline markup of metadata values and with HTML entities
    resolved: ``<scp>T</scp>reebase`` -> ``Treebase``, ``&amp;`` -> ``&``."""
    if "<" in text:
        text = _MARKUP_ANNOTATION.sub(" ", text)
        text = _MARKUP_TAG.sub("", text)
    if "&" in text and _ENTITY.search(text):
        text = html.unescape(text)
    return text


def decode_value(text: str) -> str:
    """Decode a metadata value taken from JSON or XML (an API answer, a dump record).

    The same decoder as :func:`latex_to_unicode` (so record text and cited text
    read LaTeX alike: ``$\\hbar$`` -> ``ħ``, ``Rom\\~{a}o`` -> ``Romão``), except
    that such a value is not TeX source: a bare ``%`` is a percent sign, not a
    comment (``Power Spectra to 1% Accuracy`` keeps its end), and a bare ``&`` an
    ampersand. TeX-comment stripping is right only for ``.tex``/``.bib`` files.
    Publishers' inline markup and HTML entities go first (:func:`strip_markup`).
    """
    if not text:
        return ""
    if "<" in text or "&" in text:
        text = strip_markup(text)
    if "%" in text or "&" in text:
        text = _BARE_SPECIAL.sub(r"\1\\\2", text)
    return latex_to_unicode(text)


@lru_cache(maxsize=65536)
def _decode(text: str) -> str:
    if "\\" in text:
        text = _ACCENT_RE.sub(_accent, text)
    if _BRACES_ONLY.match(text):
        out = text.replace("{", "").replace("}", "").replace("~", " ")
        return " ".join(out.split())
    prepared = text.replace("\\\\", " ").replace("~", "\u00a0")
    fast = _fast_text(prepared)
    out = fast if fast is not None else _pylatexenc_text(prepared)
    out = out.replace("\u00a0", " ")
    return " ".join(out.split())


def _pylatexenc_text(prepared: str) -> str:
    """The whole string through pylatexenc (the reference behaviour of the fast path)."""
    try:
        conv, db = _converter()
        walker = LatexWalker(prepared, latex_context=db, tolerant_parsing=True)
        nodes = walker.get_latex_nodes()[0]
        out: str = conv.nodelist_to_text(nodes)
    except Exception:  # noqa: BLE001 - pylatexenc raises many kinds on odd input
        logger.debug("pylatexenc failed on %r", prepared, exc_info=True)
        out = prepared.replace("{", "").replace("}", "")
    return out


# ---------------------------------------------------------------- fast path
#
# pylatexenc reads one character per token and costs ~30 us a character, so
# long author lists and titles dominate the time of a large .bib. With
# ``strict_latex_spaces=True`` its text is the plain concatenation of the text
# of its nodes: characters (and the spaces between nodes) are kept as they
# are, a group gives its content, and a macro, specials or ``$...$`` node
# gives a text that depends only on its own source span. ``_fast_text`` walks
# the string the way pylatexenc's tokenizer does, copies characters and
# braces' contents itself and sends only those spans (memoised) to
# pylatexenc; comments give no text. Whatever it does not model exactly
# (environments, display math, optional or starred arguments, a paragraph
# break after a macro, unbalanced braces, a carriage return...) returns None,
# and the whole string goes to pylatexenc as before.


class _NotModelledError(Exception):
    """The fast path does not model this input: decode the whole string with pylatexenc."""


class _FastTables:
    """Facts about the pylatexenc context the fast path needs, read once from it."""

    def __init__(self, db: LatexContextDb) -> None:
        self.db = db
        keys: dict[str, None] = {}
        for cat in db.category_list:
            for chars, spec in db.d[cat]["specials"].items():
                if spec.args_parser is not None and spec.args_parser.argspec:
                    raise ValueError(f"specials {chars!r} takes arguments")
                keys.setdefault(chars, None)
        self.specials = tuple(sorted(keys, key=len, reverse=True))
        self.specials_first = frozenset(k[0] for k in self.specials)
        stops = "\\\\$%" + "".join(re.escape(c) for c in sorted(self.specials_first))
        self.stop = re.compile("[" + stops + "]")
        self.argspec: dict[str, str] = {}

    def special_at(self, s: str, pos: int) -> str:
        """The longest specials sequence at ``pos`` ('' when none), like test_for_specials."""
        for chars in self.specials:
            if s.startswith(chars, pos):
                return chars
        return ""

    def macro_argspec(self, name: str) -> str:
        """Argument spec of a macro for the walker; raise _NotModelledError for non-standard parsers."""
        found = self.argspec.get(name)
        if found is None:
            spec = self.db.get_macro_spec(name)
            if spec is None:
                found = ""
            elif type(spec.args_parser) is _StdArgs:
                found = spec.args_parser.argspec or ""
            else:
                found = "!"
            self.argspec[name] = found
        if found == "!":
            raise _NotModelledError
        return found


@lru_cache(maxsize=1)
def _fast_tables() -> _FastTables:
    return _FastTables(_converter()[1])


@lru_cache(maxsize=65536)
def _span_text(span: str) -> str:
    """pylatexenc's text for one macro, specials or inline-math span (no post-processing)."""
    conv, db = _converter()
    walker = LatexWalker(span, latex_context=db, tolerant_parsing=True)
    nodes, _, length = walker.get_latex_nodes()
    if len(nodes) != 1 or length != len(span):
        raise _NotModelledError
    out: str = conv.nodelist_to_text(nodes)
    return out


def _skip_space(s: str, pos: int) -> int:
    """Index of the first non-space at or after ``pos``; _NotModelledError on a paragraph break."""
    end = pos
    n = len(s)
    while end < n and s[end].isspace():
        end += 1
    if end > pos + 1 and "\n\n" in s[pos:end]:
        raise _NotModelledError
    return end


def _group_end(s: str, pos: int, tables: _FastTables) -> int:
    """Index after the ``}`` closing the group opened at ``s[pos]``; no math or comments."""
    depth = 0
    i = pos
    n = len(s)
    while i < n:
        c = s[i]
        if c == "\\":
            if i + 1 < n and s[i + 1].isalpha():
                j = i + 2
                while j < n and s[j].isalpha():
                    j += 1
                name = s[i + 1:j]
                if name in ("begin", "end"):
                    raise _NotModelledError
                tables.macro_argspec(name)  # _NotModelledError on \verb and other odd parsers
                i = j
                continue
            if i + 1 < n and s[i + 1] in "()[]":
                raise _NotModelledError
            i += 2
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i + 1
        elif c in "$%":
            raise _NotModelledError
        i += 1
    raise _NotModelledError


def _macro_end(s: str, pos: int, tables: _FastTables, *, with_args: bool = True) -> int:
    """Index after the macro at ``s[pos]`` (a backslash), its post-space and its arguments."""
    n = len(s)
    if pos + 1 >= n:
        raise _NotModelledError
    i = pos + 2
    if s[pos + 1].isalpha():
        while i < n and s[i].isalpha():
            i += 1
        name = s[pos + 1:i]
        if name in ("begin", "end"):
            raise _NotModelledError
        i = _skip_space(s, i)  # an alphabetic macro swallows the spaces after it
    else:
        name = s[pos + 1]
        if name in "()[]":
            raise _NotModelledError
    if not with_args:
        return i
    for kind in tables.macro_argspec(name):
        j = _skip_space(s, i)
        if kind in "[*":
            if j < n and s[j] == kind:
                raise _NotModelledError
            continue
        if j >= n:
            raise _NotModelledError
        c = s[j]
        if c == "{":
            i = _group_end(s, j, tables)
        elif c == "\\":
            i = _macro_end(s, j, tables, with_args=False)
        elif c in "}$%" or c in tables.specials_first:
            raise _NotModelledError
        else:
            i = j + 1
    return i


def _math_end(s: str, pos: int, tables: _FastTables) -> int:
    """Index after the ``$`` closing the inline math opened at ``s[pos]``."""
    n = len(s)
    if s.startswith("$$", pos):
        raise _NotModelledError
    i = pos + 1
    depth = 0
    while i < n:
        c = s[i]
        if c == "\\":
            i = _macro_end(s, i, tables)
            continue
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth < 0:
                raise _NotModelledError
        elif c == "$":
            if depth:
                raise _NotModelledError
            return i + 1
        elif c == "%":
            raise _NotModelledError
        i += 1
    raise _NotModelledError


_SPACES_AFTER_NEWLINE = re.compile(r"\s*")


def _comment_end(s: str, pos: int) -> int:
    """Index after the comment at ``s[pos]``, as pylatexenc's tokenizer ends it.

    A comment takes the newline and the indentation after it, unless a blank
    line follows (a paragraph break, which stays). Its text is always empty.
    """
    newline = s.find("\n", pos)
    if newline < 0:
        return len(s)
    spaces = _SPACES_AFTER_NEWLINE.match(s, newline + 1)
    assert spaces is not None
    if spaces.group().startswith("\n"):
        return newline
    return spaces.end()


def _fast_text(s: str) -> str | None:
    """pylatexenc's text for ``s``, computed span by span; None when not modelled."""
    if "\r" in s:
        return None
    try:
        tables = _fast_tables()
        stop = tables.stop.search
        out: list[str] = []
        depth = 0
        i = 0
        n = len(s)
        while i < n:
            m = stop(s, i)
            j = n if m is None else m.start()
            if j > i:
                chunk = s[i:j]
                if "{" in chunk or "}" in chunk:  # a group gives its content
                    closes = chunk.count("}")
                    if closes <= depth:  # cannot close more groups than are open
                        depth += chunk.count("{") - closes
                    else:
                        for c in chunk:
                            if c == "{":
                                depth += 1
                            elif c == "}":
                                depth -= 1
                                if depth < 0:
                                    return None
                    chunk = chunk.replace("{", "").replace("}", "")
                out.append(chunk)
            if m is None:
                break
            c = s[j]
            if c == "\\":
                i = _macro_end(s, j, tables)
                out.append(_span_text(s[j:i]))
            elif c == "$":
                i = _math_end(s, j, tables)
                out.append(_span_text(s[j:i]))
            elif c == "%":
                i = _comment_end(s, j)
            else:
                chars = tables.special_at(s, j)
                if chars:
                    i = j + len(chars)
                    out.append(_span_text(chars))
                else:
                    out.append(c)
                    i = j + 1
        if depth:
            return None
        return "".join(out)
    except Exception:  # noqa: BLE001 - _NotModelledError, or pylatexenc failing on a span
        return None


_COMMENT = re.compile(r"(?<!\\)((?:\\\\)*)%[^\n]*")
_IGNORED_ENVS = ("comment", "verbatim", "verbatim*", "lstlisting", "minted", "Verbatim")


def _blank(text: str, start: int, end: int) -> str:
    """Replace text[start:end] by spaces, keeping newlines."""
    chunk = text[start:end]
    return text[:start] + re.sub(r"[^\n]", " ", chunk) + text[end:]


def blank_ignored(text: str) -> str:
    """Blank comments, comment/verbatim environments, ``\\iffalse...\\fi`` and ``\\verb``.

    The result has the same length and the same line breaks as ``text``.
    """
    out = list(text)

    def blank(a: int, b: int) -> None:
        for i in range(a, min(b, len(out))):
            if out[i] != "\n":
                out[i] = " "

    # verbatim-like environments first: a % inside them is not a comment
    env_re = re.compile(
        r"\\begin\s*\{(" + "|".join(re.escape(e) for e in _IGNORED_ENVS) + r")\}"
    )
    pos = 0
    while True:
        m = env_re.search(text, pos)
        if not m:
            break
        # a \begin{...} that is itself commented out does not count
        line_start = text.rfind("\n", 0, m.start()) + 1
        if _COMMENT.search(text[line_start:m.start()]):
            pos = m.end()
            continue
        end_tag = "\\end{" + m.group(1) + "}"
        end = text.find(end_tag, m.end())
        end = len(text) if end < 0 else end + len(end_tag)
        blank(m.start(), end)
        pos = end
    for m in re.finditer(r"\\verb\*?([^a-zA-Z\s*])", text):
        close = text.find(m.group(1), m.end())
        if close >= 0 and "\n" not in text[m.end():close]:
            blank(m.start(), close + 1)
    cleaned = "".join(out)
    for m in _COMMENT.finditer(cleaned):
        blank(m.start() + len(m.group(1)), m.end())
    cleaned = "".join(out)
    # \iffalse ... \fi, nested conditionals counted
    made = set(_NEWIF.findall(cleaned))
    for m in re.finditer(r"\\iffalse\b", cleaned):
        if out[m.start()] == " ":
            continue
        depth = 0
        end = len(cleaned)
        for t in _CONDITIONAL.finditer(cleaned, m.start()):
            newif, word, braced = t.groups()
            if word == "fi":
                depth -= 1
                if depth == 0:
                    end = t.end()
                    break
            elif not newif and (not braced or word in made):
                depth += 1
        blank(m.start(), end)
    return "".join(out)


#: ``\fi`` and the ``\if...`` words (group 2), with what says one is no TeX conditional,
#: which no ``\fi`` closes: the name a ``\newif`` defines (group 1), or a macro taking a
#: braced argument (etoolbox's ``\iftoggle{..}``, ``\ifbool``, ``\ifdef``, ifthen's
#: ``\ifthenelse``, biblatex's ``\iffieldundef``; group 3), save the primitives that
#: compare the tokens after them and the conditionals a ``\newif`` made. Counting those
#: macros had blanked the rest of a document after an ``\iffalse`` block that held one.
_CONDITIONAL = re.compile(r"(\\newif\s*)?\\(fi|if[a-zA-Z@]*)(?![a-zA-Z@])"
                          r"(?:(?<!\\if)(?<!\\ifx)(?<!\\ifcat)(\s*\{))?")
_NEWIF = re.compile(r"\\newif\s*\\(if[a-zA-Z@]+)")
