"""Build artefacts: ``.aux`` (BibTeX and biblatex) and ``.bcf`` (biber control file).

They hold the keys LaTeX actually cited and the resources it used, which are
authoritative when present.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass

logger = logging.getLogger(__name__)

_CITATION = re.compile(r"\\citation\{([^}]*)\}")
_ABX_CITE = re.compile(r"\\abx@aux@cite\{(?:\d+\}\{)?([^}]*)\}")
_BIBDATA = re.compile(r"\\bibdata\{([^}]*)\}")
_INPUT = re.compile(r"\\@input\{([^}]*)\}")
_BCF_KEY = re.compile(r"<bcf:citekey(?:\s[^>]*)?>([^<]+)</bcf:citekey>")
_BCF_DATA = re.compile(r"<bcf:datasource(?:\s[^>]*)?>([^<]+)</bcf:datasource>")


@dataclass(frozen=True, slots=True)
class Artefact:
    """Cited keys (in order, unique), resources, and included aux files of one artefact."""

    keys: tuple[str, ...]
    resources: tuple[str, ...]
    inputs: tuple[str, ...] = ()


#: revtex writes control "citations" of its own into the .aux.
_CONTROL = re.compile(r"(?:REVTEX|apsrev)\d+Control")


def _unique(items: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(i for i in items if i and not _CONTROL.fullmatch(i)))


def parse_aux_text(text: str) -> Artefact:
    """Keys from ``\\citation``/``\\abx@aux@cite``, resources from ``\\bibdata``."""
    keys: list[str] = []
    for m in _CITATION.finditer(text):
        keys.extend(k.strip() for k in m.group(1).split(","))
    for m in _ABX_CITE.finditer(text):
        keys.append(m.group(1).strip())
    resources: list[str] = []
    for m in _BIBDATA.finditer(text):
        resources.extend(r.strip() for r in m.group(1).split(","))
    inputs = [m.group(1).strip() for m in _INPUT.finditer(text)]
    return Artefact(_unique(keys), _unique(resources), _unique(inputs))


def parse_bcf_text(text: str) -> Artefact:
    """Keys from ``bcf:citekey``, resources from ``bcf:datasource``."""
    keys = [m.group(1).strip() for m in _BCF_KEY.finditer(text)]
    resources = [m.group(1).strip() for m in _BCF_DATA.finditer(text)]
    return Artefact(_unique(keys), _unique(resources))
