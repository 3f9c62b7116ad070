"""LaTeX to Unicode, and blanking what LaTeX ignores while keeping line numbers.

:func:`latex_to_unicode` wraps pylatexenc's ``LatexNodes2Text`` with a few
extra macros (AAS journal macros, ``\\url``, ``\\href``) and no inserted
spaces. :func:`blank_ignored` replaces comments, ``comment`` environments,
``\\iffalse`` blocks and verbatim bodies by spaces, so offsets and lines of
the rest of the text are unchanged.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from functools import lru_cache

from pylatexenc.latex2text import LatexNodes2Text, MacroTextSpec
from pylatexenc.latex2text import get_default_latex_context_db as _text_db
from pylatexenc.latexwalker import LatexWalker
from pylatexenc.latexwalker import get_default_latex_context_db as _walker_db
from pylatexenc.macrospec import MacroSpec

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
    MacroTextSpec("textendash", simplify_repl="–"),
    MacroTextSpec("ensuremath", simplify_repl="%(1)s"),
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
    "mathit": "{",
}


@lru_cache(maxsize=1)
def _converter() -> tuple[LatexNodes2Text, object]:
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


@lru_cache(maxsize=65536)
def _decode(text: str) -> str:
    if "\\" in text:
        text = _ACCENT_RE.sub(_accent, text)
    if _BRACES_ONLY.match(text):
        out = text.replace("{", "").replace("}", "").replace("~", " ")
        return " ".join(out.split())
    prepared = text.replace("\\\\", " ").replace("~", "\u00a0")
    try:
        conv, db = _converter()
        walker = LatexWalker(prepared, latex_context=db, tolerant_parsing=True)
        nodes = walker.get_latex_nodes()[0]
        out = conv.nodelist_to_text(nodes)
    except Exception:  # noqa: BLE001 - pylatexenc raises many kinds on odd input
        logger.debug("pylatexenc failed on %r", text, exc_info=True)
        out = prepared.replace("{", "").replace("}", "")
    out = out.replace("\u00a0", " ")
    return " ".join(out.split())


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
    # \iffalse ... \fi, nested \if... counted
    for m in re.finditer(r"\\iffalse\b", cleaned):
        if out[m.start()] == " ":
            continue
        depth = 0
        end = len(cleaned)
        for t in re.finditer(r"\\(if[a-zA-Z@]*|fi)\b", cleaned[m.start():]):
            word = t.group(1)
            if word == "fi":
                depth -= 1
                if depth == 0:
                    end = m.start() + t.end()
                    break
            elif word not in ("ifx",) or True:
                depth += 1
        blank(m.start(), end)
    return "".join(out)
