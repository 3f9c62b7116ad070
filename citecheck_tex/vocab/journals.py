"""Journal-name normalisation: one canonical key for every spelling of a journal.

"Phys. Rev. D", "Phys.Rev.D", "Physical Review D", "PHYSICAL REVIEW D", "Phys Rev D"
and the AAS macro ``\\prd`` all give the key ``"physrevd"``.

Three layers, tried in order:

1. INSPIRE's refextract knowledge base (7,648 full-title variants -> INSPIRE
   abbreviation). Both the variants and the abbreviations themselves are looked
   up, word by word and as one compact string ("physrevd"). When INSPIRE knows a
   journal, its key is the compact INSPIRE abbreviation.
2. Crossref's abbreviation table (compact abbreviation key -> full title). A hit
   whose full title INSPIRE knows goes back to layer 1; otherwise the key is the
   compact full title, so "J. Mater. Chem. A" and "Journal of Materials
   Chemistry A" agree.
3. A fallback: lower-case, accents and punctuation stripped, "the", "and" and
   "&" dropped, spaces removed.

The tables ship as package data (``citecheck_tex/data/*.csv.gz``, provenance in
``citecheck_tex/data/PROVENANCE.md``) and are loaded lazily, once.
"""

from __future__ import annotations

import csv
import functools
import gzip
import io
import logging
import re
import unicodedata
from collections.abc import Mapping
from dataclasses import dataclass
from importlib import resources

logger = logging.getLogger(__name__)

_INSPIRE_FILE = "inspire_journal_titles.csv.gz"
_CROSSREF_FILE = "crossref_journal_abbreviations.csv.gz"
#: Journals INSPIRE lists that the refextract table (its knowledge base as copied) lacks: the
#: newer physics and astronomy journals and series ("Phys.Dark Univ.", "SciPost Phys.",
#: "PTEP", "Phys.Rev.X", "EPJ Web Conf.", "PoS"): 38 of the 135 journal names of the
#: shared corpus's 11,506 real INSPIRE records that no table knew. Written by hand in
#: the refextract table's form (data/PROVENANCE.md). Unknown, a journal's name was
#: split from its volume by no rule, and read into the title (false MINORs).
_SUPPLEMENT_FILE = "inspire_journal_titles_supplement.csv"

#: The standard AAS/ADS journal macros (aastex ``aasjournal`` definitions) mapped to a
#: name the abbreviation tables resolve. ADS BibTeX exports write ``journal = {\apj}``.
AAS_MACROS: Mapping[str, str] = {
    "aj": "Astron. J.",
    "actaa": "Acta Astron.",
    "araa": "Ann. Rev. Astron. Astrophys.",
    "apj": "Astrophys. J.",
    "apjl": "Astrophys. J. Lett.",
    "apjlett": "Astrophys. J. Lett.",
    "apjs": "Astrophys. J. Suppl.",
    "apjsupp": "Astrophys. J. Suppl.",
    "ao": "Applied Optics",
    "applopt": "Applied Optics",
    "apss": "Astrophys. Space Sci.",
    "aap": "Astron. Astrophys.",
    "astap": "Astron. Astrophys.",
    "aapr": "Astron. Astrophys. Rev.",
    "aaps": "Astron. Astrophys. Suppl. Ser.",
    "azh": "Astronomicheskii Zhurnal",
    "baas": "Bull. Am. Astron. Soc.",
    "bac": "Bulletin of the Astronomical Institutes of Czechoslovakia",
    "caa": "Chinese Astronomy and Astrophysics",
    "cjaa": "Chin. J. Astron. Astrophys.",
    "icarus": "Icarus",
    "jcap": "JCAP",
    "jrasc": "J. Roy. Astron. Soc. Canada",
    "memras": "Mem. Roy. Astron. Soc.",
    "mnras": "Mon. Not. Roy. Astron. Soc.",
    "na": "New Astron.",
    "nar": "New Astron. Rev.",
    "pra": "Phys. Rev. A",
    "prb": "Phys. Rev. B",
    "prc": "Phys. Rev. C",
    "prd": "Phys. Rev. D",
    "pre": "Phys. Rev. E",
    "prl": "Phys. Rev. Lett.",
    "pasa": "Publ. Astron. Soc. Austral.",
    "pasp": "Publ. Astron. Soc. Pac.",
    "pasj": "Publ. Astron. Soc. Jap.",
    "rmxaa": "Rev. Mex. Astron. Astrofis.",
    "qjras": "Q. J. Roy. Astron. Soc.",
    "skytel": "Sky and Telescope",
    "solphys": "Solar Phys.",
    "sovast": "Sov. Astron.",
    "ssr": "Space Sci. Rev.",
    "zap": "Z. Astrophys.",
    "nat": "Nature",
    "iaucirc": "IAU Circ.",
    "aplett": "Astrophys. Lett.",
    "apspr": "Astrophysics Space Physics Research",
    "bain": "Bull. Astron. Inst. Netherlands",
    "fcp": "Fund. Cosmic Phys.",
    "gca": "Geochim. Cosmochim. Acta",
    "grl": "Geophys. Res. Lett.",
    "jcp": "J. Chem. Phys.",
    "jgr": "J. Geophys. Res.",
    "jqsrt": "J. Quant. Spectrosc. Radiat. Transf.",
    "memsai": "Mem. Soc. Astron. Ital.",
    "nphysa": "Nucl. Phys. A",
    "physrep": "Phys. Rept.",
    "physscr": "Phys. Scripta",
    "planss": "Planet. Space Sci.",
    "procspie": "Proc. SPIE Int. Soc. Opt. Eng.",
}

#: NASA ADS's full names of proceedings series and journals that the abbreviation
#: tables lack, mapped to a name they resolve. ADS BibTeX writes them out
#: (``series = {American Institute of Physics Conference Series}``).
ADS_NAMES: Mapping[str, str] = {
    "american institute of physics conference series": "AIP Conf. Proc.",
    "astronomical society of the pacific conference series": "ASP Conf. Ser.",
    "european physical journal web of conferences": "EPJ Web Conf.",
    "society of photo-optical instrumentation engineers (spie) conference series":
        "Proc. SPIE Int. Soc. Opt. Eng.",
    "soviet journal of experimental and theoretical physics letters": "JETP Lett.",
}

_DROP_WORDS = frozenset({"THE", "AND", "&"})
_TOKEN_RE = re.compile(r"[A-Z0-9&]+")
_MACRO_RE = re.compile(r"^\{?\s*\\([A-Za-z]+)\s*\}?$")
_VOL_LETTER_FIRST = re.compile(r"([A-Za-z])[\s.\-]?(\d+)")
_VOL_LETTER_LAST = re.compile(r"(\d+)\s?([A-Za-z])")


@dataclass(frozen=True, slots=True)
class _Tables:
    by_words: Mapping[str, str]  # "PHYS REV D" -> "Phys. Rev. D"
    by_compact: Mapping[str, str]  # "physrevd" -> "Phys. Rev. D"
    display: Mapping[str, str]  # key -> INSPIRE abbreviation
    crossref: Mapping[str, str]  # "physrevlett" -> "physical review letters"


def _strip_accents(text: str) -> str:
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def _clean_latex(name: str) -> str:
    """Expand an AAS macro and drop the LaTeX markup a bib field may carry."""
    text = name.strip()
    m = _MACRO_RE.match(text)
    if m and m.group(1).lower() in AAS_MACROS:
        return AAS_MACROS[m.group(1).lower()]
    ads = ADS_NAMES.get(" ".join(text.lower().split()))
    if ads:
        return ads
    text = text.replace("\\&", "&").replace("~", " ")
    text = re.sub(r"\\[A-Za-z]+\s*", " ", text)  # other control words (\textit, \em)
    return text.replace("{", "").replace("}", "").replace("\\", " ")


def _tokens(name: str) -> list[str]:
    text = _strip_accents(name).upper()
    return [t for t in _TOKEN_RE.findall(text) if t not in _DROP_WORDS]


def _compact(tokens: list[str]) -> str:
    return "".join(tokens).lower()


def _read_csv(filename: str) -> list[list[str]]:
    data = resources.files("citecheck_tex.data").joinpath(filename).read_bytes()
    text = (gzip.decompress(data) if filename.endswith(".gz") else data).decode("utf-8")
    rows = list(csv.reader(io.StringIO(text, newline="")))
    return [[c.strip() for c in row] for row in rows[1:] if len(row) >= 2]


@functools.lru_cache(maxsize=1)
def _tables() -> _Tables:
    """Load and index both abbreviation tables (once per process)."""
    by_words: dict[str, str] = {}
    by_compact: dict[str, str] = {}
    display: dict[str, str] = {}
    inspire_rows = _read_csv(_INSPIRE_FILE) + _read_csv(_SUPPLEMENT_FILE)
    # Abbreviations first: "Phys. Rev. D" itself must resolve to itself.
    for _full, abbr in inspire_rows:
        toks = _tokens(abbr)
        if not toks:
            continue
        by_words.setdefault(" ".join(toks), abbr)
        by_compact.setdefault(_compact(toks), abbr)
        display.setdefault(_compact(toks), abbr)
    for full, abbr in inspire_rows:
        toks = _tokens(full)
        if not toks:
            continue
        by_words.setdefault(" ".join(toks), abbr)
        by_compact.setdefault(_compact(toks), abbr)
    crossref = {key.lower(): full for key, full in _read_csv(_CROSSREF_FILE) if key and full}
    logger.debug(
        "journal tables: %d INSPIRE variants, %d Crossref abbreviations",
        len(by_words), len(crossref),
    )
    return _Tables(by_words, by_compact, display, crossref)


def _inspire_abbreviation(tokens: list[str]) -> str:
    t = _tables()
    return t.by_words.get(" ".join(tokens)) or t.by_compact.get(_compact(tokens), "")


@functools.lru_cache(maxsize=65536)
def journal_key(name: str) -> str:
    """A canonical key for a journal name: equal for every spelling of one journal.

    Returns "" for an empty name. The key is lower-case ASCII without spaces.
    """
    text = _clean_latex(name)
    toks = _tokens(text)
    if not toks:
        return ""
    abbr = _inspire_abbreviation(toks)
    if not abbr:
        abbr = next(filter(None, map(_inspire_abbreviation, map(_tokens, _shorter_names(text)))),
                    "")
    if abbr:
        return _compact(_tokens(abbr))
    compact = _compact(toks)
    full = _tables().crossref.get(compact)
    if full:
        ftoks = _tokens(full)
        abbr = _inspire_abbreviation(ftoks)
        if abbr:
            return _compact(_tokens(abbr))
        return _compact(ftoks)
    return compact


_SECTION = re.compile(r",?\s+Section\s+([A-Z])\b")
_SUBTITLE = re.compile(r"\s*:\s+|\s+[-\u2013\u2014]\s+")
_ALIAS = re.compile(r"^(.+?)\s*\(([^()]+)\)$")


def _shorter_names(text: str) -> list[str]:
    """The names a long form of a journal name contains, most likely first.

    A subtitle goes ("Physical Review D: Particles and Fields"; Scopus's and so
    Mendeley's "Physical Review D - Particles, Fields, Gravitation and Cosmology" and
    "Physics Letters, Section B: Nuclear, Elementary Particle and High-Energy Physics"),
    and a name with another in parentheses is either ("EPL (Europhysics Letters)", as
    Crossref has it).
    """
    text = _SECTION.sub(r" \1", text)
    head = _SUBTITLE.split(text, maxsplit=1)[0].strip()
    out = [head]
    m = _ALIAS.match(head)
    if m:
        out.extend((m.group(1), m.group(2)))
    return out


def is_known_journal(name: str) -> bool:
    """True when an abbreviation table knows ``name`` (not just the fallback)."""
    key = journal_key(name)
    t = _tables()
    return key in t.display or key in t.crossref or key in _crossref_full_keys()


@functools.lru_cache(maxsize=1)
def _crossref_full_keys() -> frozenset[str]:
    return frozenset(_compact(_tokens(full)) for full in _tables().crossref.values())


@functools.lru_cache(maxsize=1)
def abbreviated_words() -> frozenset[str]:
    """Every abbreviated word of INSPIRE's journal abbreviations, with its full stop
    ("Phys.", "Comput.", "Sci."): a word before a journal name that is one of these is
    part of a longer name, not the end of a title."""
    words: set[str] = set()
    for _full, abbr in _read_csv(_INSPIRE_FILE) + _read_csv(_SUPPLEMENT_FILE):
        words.update(w for w in re.split(r"[\s(),]+", abbr) if w.endswith(".") and len(w) > 2)
    return frozenset(words)


@functools.lru_cache(maxsize=65536)  # an import asks for the same journals again and again
def journal_display(name: str) -> str:
    """The INSPIRE abbreviation of ``name`` when known, else the name tidied up."""
    key = journal_key(name)
    display = _tables().display
    if key in display:
        return display[key]
    return " ".join(_clean_latex(name).split())


def same_journal(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` name the same journal (both non-empty).

    Besides equal keys, an acronym names the journal it abbreviates ("JINST" and
    "Journal of Instrumentation", "PoS" and "Proceedings of Science", "JOSS"): the
    abbreviation tables list many journals only under their acronym.
    """
    ka, kb = journal_key(a), journal_key(b)
    if not ka or not kb:
        return False
    return ka == kb or is_acronym_of(a, b) or is_acronym_of(b, a) \
        or _same_without_qualifier(a, b)


_QUALIFIER = re.compile(r"\s*\([^()]*\)\s*$")


def _same_without_qualifier(a: str, b: str) -> bool:
    """True when one name is the other with a place qualifier in parentheses
    ("Front.Phys." and INSPIRE's "Front.Phys.(Beijing)"): the bare name is how the
    journal prints its own name."""
    qa, qb = _QUALIFIER.search(a), _QUALIFIER.search(b)
    if bool(qa) == bool(qb):
        return False
    ta = _compact(_tokens(_clean_latex(_QUALIFIER.sub("", a))))
    tb = _compact(_tokens(_clean_latex(_QUALIFIER.sub("", b))))
    return bool(ta) and ta == tb


_SERIES_LETTERS = "ABCDEGLX"


@functools.lru_cache(maxsize=4096)
def series_keys(journal: str) -> tuple[str, ...]:
    """Keys of the lettered series of a journal named without its letter:
    "Nucl. Phys." -> ("nuclphysa", "nuclphysb"). Nuclear Physics had no series
    letter before 1967 and references to its later volumes often omit it; the volume
    and page then tell the series. Empty when ``journal`` already is a lettered series
    or has none."""
    base = journal_key(journal)
    if not base:
        return ()
    name = _clean_latex(journal)
    out = []
    for letter in _SERIES_LETTERS:
        key = journal_key(f"{name} {letter}")
        if key != base and key in _tables().display and key.startswith(base):
            out.append(key)
    return tuple(out)


_ACRONYM_SKIP = frozenset({"OF", "THE", "AND", "FOR", "IN", "ON", "&"})
_ACRONYM_RE = re.compile(r"[A-Za-z]{2,8}")


def is_acronym_of(short: str, full: str) -> bool:
    """True when ``short`` (one word such as "JINST", "PoS") abbreviates ``full``.

    Every significant word of ``full`` (at least two) gives a non-empty prefix, in
    order, and the prefixes spell ``short``; "of", "the", "and", ... may give a letter
    or nothing. "JINST" = J(ournal) (of) INST(rumentation); "PoS" = P(roceedings)
    o(f) S(cience). A single word never abbreviates another single word here.
    """
    text = _clean_latex(short).strip().replace(".", "")
    if not _ACRONYM_RE.fullmatch(text):
        return False
    letters = _strip_accents(text).upper()
    words = re.findall(r"[A-Z0-9]+", _strip_accents(_clean_latex(full)).upper())
    significant = [w for w in words if w not in _ACRONYM_SKIP]
    if len(significant) < 2 or len(words) > 12:
        return False

    @functools.cache
    def fits(i: int, j: int) -> bool:  # letters[i:] from words[j:]
        if j == len(words):
            return i == len(letters)
        word = words[j]
        optional = word in _ACRONYM_SKIP
        if optional and fits(i, j + 1):
            return True
        for n in range(1, len(word) + 1):
            if i + n > len(letters) or letters[i:i + n] != word[:n]:
                break
            if fits(i + n, j + 1):
                return True
        return False

    return fits(0, 0)


def split_volume_letter(journal: str, volume: str) -> tuple[str, str]:
    """Move a physics series letter from the volume into the journal.

    ``("Nucl. Phys.", "B106")``, ``("Nucl.Phys.B", "106")``, ``("Nucl.Phys.B", "B106")``
    and ``("Phys. Lett.", "47B")`` give ``(journal_key("Nucl. Phys. B"), "106")`` and
    ``(journal_key("Phys. Lett. B"), "47")``. The letter moves only when the lettered
    journal is a known one; otherwise the volume is returned unchanged (stripped).
    Returns ``(journal_key, volume)``.
    """
    vol = volume.strip()
    base = journal_key(journal)
    m = _VOL_LETTER_FIRST.fullmatch(vol)
    if m:
        letter, number = m.group(1), m.group(2)
    else:
        m = _VOL_LETTER_LAST.fullmatch(vol)
        if not m:
            return base, vol
        number, letter = m.group(1), m.group(2)
    letter = letter.upper()
    if base.endswith(letter.lower()) and base in _tables().display:
        return base, number  # "Nucl.Phys.B" with volume "B106"
    lettered = journal_key(f"{_clean_latex(journal)} {letter}")
    if lettered != base and lettered in _tables().display:
        return lettered, number
    return base, vol
