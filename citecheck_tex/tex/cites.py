"""Scan LaTeX source for citations, includes and bibliography resources.

:func:`scan_tex` takes the text of one file (already read) and returns the
events it contains in order: citation keys with file:line:command, include
commands, bibliography resources, ``\\includeonly`` lists and inline
``thebibliography`` blocks. Comments, ``comment``/verbatim environments and
``\\iffalse`` blocks are skipped. Citation macros that the document defines
with ``\\newcommand``/``\\renewcommand``/``\\DeclareRobustCommand``/``\\def`` are
learnt into a :class:`MacroTable` shared across the files of one project.
"""

from __future__ import annotations

import bisect
import logging
import re
from dataclasses import dataclass, field

from citecheck_tex.vocab.latex_text import blank_ignored

logger = logging.getLogger(__name__)

#: Commands whose last mandatory argument is a key list (matched lower-case;
#: capitalised forms such as ``\Citet``/``\Textcite`` are included that way).
CITE_COMMANDS = frozenset({
    # natbib
    "cite", "citep", "citet", "citealt", "citealp", "citeauthor", "citefullauthor",
    "citeyear", "citeyearpar", "citenum", "citetalias", "citepalias",
    # biblatex
    "parencite", "textcite", "footcite", "footcitetext", "smartcite", "autocite",
    "supercite", "fullcite", "footfullcite", "notecite", "pnotecite", "fnotecite",
    "citetitle", "citedate", "citeurl", "nocite",
    # revtex, apacite and friends
    "onlinecite", "citea", "citenp", "shortcite", "shortciteNP".lower(), "citeyearnp",
})
#: biblatex multicite commands: ``(pre)(post)`` then several ``[pre][post]{keys}``.
MULTICITE_COMMANDS = frozenset({
    "cites", "parencites", "textcites", "autocites", "footcites", "footcitetexts",
    "smartcites", "supercites",
})
#: biblatex volume citations: ``[pre]{volume}[page]{key}``.
VOLCITE_COMMANDS = frozenset({
    "volcite", "pvolcite", "fvolcite", "ftvolcite", "svolcite", "tvolcite", "avolcite",
})
INCLUDE_COMMANDS = frozenset({"input", "include", "subfile", "import", "subimport",
                              "inputfrom", "subinputfrom", "includefrom", "subincludefrom"})
RESOURCE_COMMANDS = frozenset({"bibliography", "addbibresource", "addglobalbib",
                               "addsectionbib"})
DEFINE_COMMANDS = frozenset({"newcommand", "renewcommand", "providecommand",
                             "declarerobustcommand"})


@dataclass(frozen=True, slots=True)
class CiteEvent:
    """Keys cited by one command: (key, line) pairs."""

    command: str
    keys: tuple[tuple[str, int], ...]
    line: int


@dataclass(frozen=True, slots=True)
class IncludeEvent:
    """``\\input``-like command: ``folder`` is the import folder argument, when any."""

    command: str
    target: str
    line: int
    folder: str = ""


@dataclass(frozen=True, slots=True)
class ResourceEvent:
    """A bibliography resource command with its names as written."""

    command: str
    names: tuple[str, ...]
    line: int


@dataclass(frozen=True, slots=True)
class IncludeOnlyEvent:
    """``\\includeonly{a,b}``."""

    names: tuple[str, ...]
    line: int


@dataclass(frozen=True, slots=True)
class BibliographyEnvEvent:
    """An inline ``thebibliography`` environment (text from ``\\begin`` to ``\\end``)."""

    text: str
    line: int


Event = CiteEvent | IncludeEvent | ResourceEvent | IncludeOnlyEvent | BibliographyEnvEvent


@dataclass(frozen=True, slots=True)
class CiteMacro:
    """A user citation macro: ``nargs`` mandatory arguments, keys in ``key_arg`` (1-based).

    ``fixed_keys`` is set when the body cites literal keys instead of an argument.
    """

    name: str
    nargs: int
    optional: bool
    key_arg: int
    fixed_keys: tuple[str, ...] = ()


@dataclass(slots=True)
class MacroTable:
    """Citation macros learnt from the document, by name."""

    macros: dict[str, CiteMacro] = field(default_factory=dict)


_TOKEN = re.compile(r"\\begin\s*\{thebibliography\}|\\([A-Za-z@]+)")
_CITE_IN_BODY = re.compile(
    r"\\([A-Za-z]+)\*?\s*(?:\[[^\]]*\]\s*){0,2}\{([^{}]*)\}"
)


class _Reader:
    """Argument reader over blanked text."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.newlines = [i for i, c in enumerate(text) if c == "\n"]

    def line(self, pos: int) -> int:
        return bisect.bisect_left(self.newlines, pos) + 1

    def skip_ws(self, i: int) -> int:
        t = self.text
        while i < len(t) and t[i] in " \t\n\r":
            i += 1
        return i

    def group(self, i: int, opener: str = "{") -> tuple[str, int, int] | None:
        """Read a balanced group at i (after spaces): (content, content start, end)."""
        closer = {"{": "}", "[": "]", "(": ")"}[opener]
        t = self.text
        j = self.skip_ws(i)
        if j >= len(t) or t[j] != opener:
            return None
        depth = 0
        k = j
        while k < len(t):
            c = t[k]
            if c == "\\":
                k += 2
                continue
            if c == opener:
                depth += 1
            elif c == closer:
                depth -= 1
                if depth == 0:
                    return t[j + 1:k], j + 1, k + 1
            elif opener != "{" and c == "{":
                # braces protect brackets inside optional arguments
                inner = self.group(k, "{")
                if inner is None:
                    return None
                k = inner[2]
                continue
            k += 1
        return None

    def star(self, i: int) -> int:
        j = self.skip_ws(i)
        return j + 1 if j < len(self.text) and self.text[j] == "*" else i

    def optionals(self, i: int, most: int = 2) -> int:
        for _ in range(most):
            g = self.group(i, "[")
            if g is None:
                break
            i = g[2]
        return i

    def keys(self, content: str, start: int, *, allow_star: bool = False) -> list[tuple[str, int]]:
        out: list[tuple[str, int]] = []
        pos = start
        for piece in content.split(","):
            stripped = piece.strip()
            offset = pos + (len(piece) - len(piece.lstrip()))
            pos += len(piece) + 1
            if stripped == "*" and allow_star:
                out.append(("*", self.line(offset)))
                continue
            key = stripped.lstrip("*").strip()
            if not key or "#" in key or "\\" in key or any(c.isspace() for c in key):
                continue
            out.append((key, self.line(offset)))
        return out


def _learn_macro(r: _Reader, i: int, table: MacroTable, define: str) -> int:
    """Parse a \\newcommand-like definition at i; remember it if it cites. Returns end."""
    t = r.text
    j = r.star(i)
    g = r.group(j, "{")
    if g is not None:
        name_m = re.fullmatch(r"\s*\\([A-Za-z@]+)\s*", g[0])
        j = g[2]
    else:
        name_m = re.compile(r"\s*\\([A-Za-z@]+)").match(t, j)
        j = name_m.end() if name_m else j
    if not name_m:
        return i
    name = name_m.group(1)
    nargs = 0
    optional = False
    g = r.group(j, "[")
    if g is not None and g[0].strip().isdigit():
        nargs = int(g[0].strip())
        j = g[2]
        g2 = r.group(j, "[")
        if g2 is not None:
            optional = True
            j = g2[2]
    body = r.group(j, "{")
    if body is None:
        return j
    _remember(table, name, nargs, optional, body[0])
    return body[2]


def _remember(table: MacroTable, name: str, nargs: int, optional: bool, body: str) -> None:
    for m in _CITE_IN_BODY.finditer(body):
        cmd = m.group(1).lower()
        if cmd not in CITE_COMMANDS and cmd not in MULTICITE_COMMANDS:
            if cmd not in table.macros:
                continue
        arg = re.fullmatch(r"\s*#(\d)\s*", m.group(2))
        if arg:
            index = int(arg.group(1))
            mandatory_index = index - 1 if optional else index
            if mandatory_index >= 1:
                table.macros[name] = CiteMacro(name, nargs - (1 if optional else 0), optional,
                                               mandatory_index)
                return
        elif "#" not in m.group(2):
            keys = tuple(k.strip() for k in m.group(2).split(",") if k.strip())
            table.macros[name] = CiteMacro(name, nargs - (1 if optional else 0), optional, 0,
                                           keys)
            return


def scan_tex(text: str, table: MacroTable | None = None) -> list[Event]:
    """Find citations, includes, resources and thebibliography blocks in one file's text."""
    table = table if table is not None else MacroTable()
    clean = blank_ignored(text.replace("\r\n", "\n").replace("\r", "\n"))
    r = _Reader(clean)
    events: list[Event] = []
    pos = 0
    while True:
        m = _TOKEN.search(clean, pos)
        if not m:
            break
        pos = m.end()
        line = r.line(m.start())
        if m.group(1) is None:  # \begin{thebibliography}
            end = clean.find("\\end{thebibliography}", m.end())
            end = len(clean) if end < 0 else end + len("\\end{thebibliography}")
            events.append(BibliographyEnvEvent(clean[m.start():end], line))
            pos = end
            continue
        name = m.group(1)
        low = name.lower()
        try:
            if low in DEFINE_COMMANDS:
                pos = _learn_macro(r, pos, table, low)
            elif name == "def":
                dm = re.compile(r"\s*\\([A-Za-z@]+)((?:#\d)*)\s*").match(clean, pos)
                if dm:
                    body = r.group(dm.end(), "{")
                    if body is not None:
                        _remember(table, dm.group(1), len(dm.group(2)) // 2, False, body[0])
                        pos = body[2]
            elif name in table.macros:
                pos = _use_macro(r, pos, table.macros[name], events, line)
            elif low in CITE_COMMANDS:
                j = r.star(pos)
                j = r.optionals(j)
                g = r.group(j, "{")
                if g is not None:
                    keys = r.keys(g[0], g[1], allow_star=(low == "nocite"))
                    events.append(CiteEvent(name, tuple(keys), line))
                    pos = g[2]
            elif low in MULTICITE_COMMANDS:
                j = r.star(pos)
                for _ in range(2):
                    pg = r.group(j, "(")
                    if pg is None:
                        break
                    j = pg[2]
                keys = []
                while True:
                    k = r.optionals(j)
                    g = r.group(k, "{")
                    if g is None:
                        break
                    keys.extend(r.keys(g[0], g[1]))
                    j = g[2]
                events.append(CiteEvent(name, tuple(keys), line))
                pos = j
            elif low in VOLCITE_COMMANDS:
                j = r.optionals(r.star(pos), 1)
                vol = r.group(j, "{")
                if vol is not None:
                    j = r.optionals(vol[2], 1)
                    g = r.group(j, "{")
                    if g is not None:
                        events.append(CiteEvent(name, tuple(r.keys(g[0], g[1])), line))
                        pos = g[2]
            elif low in INCLUDE_COMMANDS:
                pos = _include(r, pos, name, events, line)
            elif low in RESOURCE_COMMANDS:
                j = r.optionals(pos, 1)
                g = r.group(j, "{")
                if g is not None:
                    names = tuple(n.strip() for n in g[0].split(",") if n.strip())
                    events.append(ResourceEvent(name, names, line))
                    pos = g[2]
            elif name == "includeonly":
                g = r.group(pos, "{")
                if g is not None:
                    events.append(IncludeOnlyEvent(
                        tuple(n.strip() for n in g[0].split(",") if n.strip()), line))
                    pos = g[2]
        except (IndexError, ValueError):  # truncated input: skip the token
            logger.debug("cannot read arguments of \\%s at line %d", name, line)
    return events


def _include(r: _Reader, pos: int, name: str, events: list[Event], line: int) -> int:
    if name in ("input", "include", "subfile"):
        g = r.group(pos, "{")
        if g is not None:
            events.append(IncludeEvent(name, g[0].strip(), line))
            return g[2]
        if name == "input":  # TeX primitive form: \input file
            pm = re.compile(r"[ \t]+([^\s{}\\%]+)").match(r.text, pos)
            if pm:
                events.append(IncludeEvent(name, pm.group(1), line))
                return pm.end()
        return pos
    j = r.star(pos)
    folder = r.group(j, "{")
    if folder is None:
        return pos
    target = r.group(folder[2], "{")
    if target is None:
        return pos
    events.append(IncludeEvent(name, target[0].strip(), line, folder=folder[0].strip()))
    return target[2]


def _use_macro(r: _Reader, pos: int, macro: CiteMacro, events: list[Event], line: int) -> int:
    j = r.star(pos)
    if macro.optional:
        j = r.optionals(j, 1)
    keys: list[tuple[str, int]] = []
    for index in range(1, macro.nargs + 1):
        g = r.group(j, "{")
        if g is None:
            break
        if index == macro.key_arg:
            keys = r.keys(g[0], g[1])
        j = g[2]
    if macro.fixed_keys:
        keys = [(k, line) for k in macro.fixed_keys]
    events.append(CiteEvent(macro.name, tuple(keys), line))
    return j
