"""Strip terminal control characters from text shown on a terminal or in CI logs.

Keys, field values and matched records come from files and servers we do not
control. An escape sequence in any of them would reach the user's terminal (or
the GitHub Actions log) raw: ``ESC[2J`` clears the screen, OSC sequences set the
window title or plant hyperlinks, bidi overrides reorder what is shown. The
terminal and ``--format github`` reporters pass every value through
:func:`strip_controls` (objects through :func:`without_controls`); JSON, SARIF
and HTML escape or drop them on their own terms.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Mapping
from typing import Any, TypeVar

T = TypeVar("T")

#: Whole escape sequences first (so their parameters go too), then any single
#: control: C0 but tab/newline/CR, DEL, C1, and the Unicode bidi embeddings,
#: overrides and isolates (U+202A-202E, U+2066-2069).
_CONTROLS = re.compile(
    r"\x1b\][^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # OSC (title, OSC 8 link) to BEL/ST
    r"|\x1b[P^_X][^\x1b\x9c]*(?:\x1b\\|\x9c)?"  # DCS, PM, APC, SOS strings
    r"|\x1b\[[0-?]*[ -/]*[@-~]?"  # CSI (cursor, erase, colour)
    r"|\x9b[0-?]*[ -/]*[@-~]?"  # 8-bit CSI
    r"|\x9d[^\x07\x1b\x9c]*(?:\x07|\x1b\\|\x9c)?"  # 8-bit OSC
    r"|\x1b[ -/]*[0-~]?"  # other ESC sequences (charset, keypad, ...)
    r"|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]"
)
_BREAKS = re.compile(r"[\t\r\n]")


def strip_controls(text: str, *, keep_newlines: bool = False) -> str:
    """``text`` without control characters and escape sequences.

    Tabs, CRs and newlines become spaces (a value must not start a new report
    line of its own) unless ``keep_newlines``.
    """
    if not _CONTROLS.search(text):
        cleaned = text
    else:
        cleaned = _CONTROLS.sub("", text)
    if keep_newlines or not _BREAKS.search(cleaned):
        return cleaned
    return _BREAKS.sub(" ", cleaned)


def without_controls(obj: T) -> T:
    """A copy of ``obj`` (dataclasses, tuples, lists, dicts, strings) with every
    string, key included, passed through :func:`strip_controls`; ``obj`` itself
    when nothing changes."""
    return _clean(obj)  # type: ignore[no-any-return]


def _clean(obj: Any) -> Any:
    if isinstance(obj, str):
        return strip_controls(obj)
    if isinstance(obj, tuple):
        items = tuple(_clean(x) for x in obj)
        return obj if all(a is b for a, b in zip(items, obj, strict=True)) else items
    if isinstance(obj, list):
        return [_clean(x) for x in obj]
    if isinstance(obj, Mapping):
        out = {_clean(k): _clean(v) for k, v in obj.items()}
        same = len(out) == len(obj) and all(
            a is b and out[a] is obj[b] for a, b in zip(out, obj, strict=True))
        return obj if same else out
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        changes = {}
        for f in dataclasses.fields(obj):
            if not f.init:
                continue
            value = getattr(obj, f.name)
            new = _clean(value)
            if new is not value:
                changes[f.name] = new
        return dataclasses.replace(obj, **changes) if changes else obj
    return obj
