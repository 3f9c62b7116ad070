"""Text normalisation for comparing citations with records.

Everything here is pure and cached: titles and names are normalised many times
per run (once per candidate record), so the functions are wrapped in
:func:`functools.lru_cache`.

Normalisation removes only *formatting*: LaTeX markup and accents, Unicode
compatibility forms, Greek letters written as ``$\\alpha$``, ``α`` or
``alpha``, case, punctuation, hyphenation and compound words. It never removes
words, so a changed title word still shows as a difference.
"""

from __future__ import annotations

import logging
import re
import unicodedata
from collections.abc import Callable
from functools import lru_cache

from rapidfuzz.distance import Levenshtein

from citecheck_tex.names import PARTICLES
from citecheck_tex.vocab.ids import normalize_arxiv, normalize_doi
from citecheck_tex.vocab.latex_text import decode_value

logger = logging.getLogger(__name__)

_GREEK = {
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
    "varepsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "θ",
    "iota": "ι", "kappa": "κ", "lambda": "λ", "mu": "μ", "nu": "ν", "xi": "ξ",
    "pi": "π", "varpi": "π", "rho": "ρ", "varrho": "ρ", "sigma": "σ", "varsigma": "σ",
    "tau": "τ", "upsilon": "υ", "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ",
    "omega": "ω",
}
#: Unicode Greek letter (lower case) -> its English name.
_GREEK_NAMES = {v: k for k, v in _GREEK.items() if not k.startswith("var")}
_GREEK_NAMES.update({"ϵ": "epsilon", "ϑ": "theta", "ϕ": "phi", "ς": "sigma", "ϱ": "rho",
                     "µ": "mu"})

#: Letters NFKD does not decompose.
_SPECIAL_LETTERS = {
    "ß": "ss", "æ": "ae", "Æ": "ae", "ø": "o", "Ø": "o", "œ": "oe", "Œ": "oe",
    "ł": "l", "Ł": "l", "đ": "d", "Đ": "d", "ı": "i", "ð": "d", "þ": "th", "ħ": "h",
}

_NON_WORD = re.compile(r"[^0-9a-z]+")
_SPACES = re.compile(r"\s+")


@lru_cache(maxsize=65536)
def strip_latex(text: str) -> str:
    """Decode LaTeX markup to Unicode: ``{\\\"u}ber $\\alpha$`` -> ``über α``.

    The project's one TeX decoder (:func:`~citecheck_tex.vocab.latex_text.decode_value`),
    the one that read the citation, so record text and cited text are normalised
    alike: a record title as the arXiv API gives it (``Order $\\hbar$ Corrections``)
    and the cited title already converted to Unicode (``Order ħ Corrections``) give
    the same text. Text is treated as a metadata value, not TeX source: a bare
    ``%`` is a percent sign (``Power Spectra to 1% Accuracy`` keeps its end), and
    publishers' inline markup goes (``<scp>T</scp>reebase`` -> ``Treebase``).
    Accents are left to :func:`fold`.
    """
    if "\\" not in text and "{" not in text and "$" not in text and "~" not in text \
            and "<" not in text and "&" not in text:
        return text
    return decode_value(text)


@lru_cache(maxsize=65536)
def fold(text: str) -> str:
    """LaTeX-free, accent-free, lower-case text with Greek letters spelt out.

    Punctuation is kept (callers decide what to do with it).
    """
    s = strip_latex(text)
    s = "".join(_SPECIAL_LETTERS.get(ch, ch) for ch in s)
    s = unicodedata.normalize("NFKD", s)
    out: list[str] = []
    for ch in s:
        if unicodedata.combining(ch):
            continue
        low = ch.lower()
        name = _GREEK_NAMES.get(low)
        if name is not None:
            out.append(f" {name} ")
        else:
            out.append(low)
    return _SPACES.sub(" ", "".join(out)).strip()


_PREFIX = {"femto": "f", "pico": "p", "nano": "n", "atto": "a"}


def _quark_pair(m: re.Match[str]) -> str:
    return " " + 2 * next(g for g in m.groups() if g).lower() + "bar "


#: Particle-physics notation written in several ways in titles (INSPIRE, arXiv,
#: publishers and authors each have theirs): one spelling each, before folding.
_HEP_NOTATION: tuple[tuple[re.Pattern[str], str | Callable[[re.Match[str]], str]], ...] = (
    # sqrt(s): "\\sqrt{s}", "√s", "√ s", "sqrt(s)", "sqrts"
    (re.compile(r"\\sqrt\s*\{\s*s\s*\}|√\s*\(?\s*s\b\)?|\bsqrt\s*\(\s*s\s*\)|\bsqrt\s+s\b",
                re.IGNORECASE), " sqrts "),
    # "at s = 8 TeV": text copied from a PDF loses the root sign of sqrt(s)
    (re.compile(r"(?<![\w√])s\s*=\s*(?=\d[\d.]*\s*[TGM]eV\b)"), " sqrts = "),
    # integrated luminosity: "fb^{-1}", "fb-1", "fb−1", "fb⁻¹", "inverse femtobarns"
    (re.compile(r"\b([fpna])b\s*(?:\^\s*\{?\s*[-−]\s*1\s*\}?|[-−]\s*1\b|⁻¹)", re.IGNORECASE),
     r" \1b1 "),
    (re.compile(r"\binverse\s+(femto|pico|nano|atto)\s*barns?\b", re.IGNORECASE),
     lambda m: f" {_PREFIX[m.group(1).lower()]}b1 "),
    # quark-antiquark pairs: "t¯t", "tt̄", "t\\bar{t}", "ttbar", "tt-bar", and what the TeX
    # decoder makes of "$t\\bar{t}$" ("tt" + U+0305) or "$\\bar{t}t$"
    (re.compile(r"\b([tbcqs])\s*¯\s*\1|\b([tbcqs])\2[\u0304\u0305]|\b([tbcqs])\s*\\bar\s*\{?\s*\3\s*\}?"
                r"|\b([tbcqs])\4\s*-?\s*bar\b|\b([tbcqs])[\u0304\u0305]\5\b"
                # "t t ¯" / "t t-bar": a PDF's text layer puts the overline after the pair
                r"|\b([tbcqs])\s+\6\s*(?:¯|-\s*bar\b)", re.IGNORECASE),
     _quark_pair),
)


def hep_notation(title: str) -> str:
    """``title`` with common particle-physics notations spelt one way (see _HEP_NOTATION)."""
    for pattern, repl in _HEP_NOTATION:
        title = pattern.sub(repl, title)
    return title


#: The reference of the corrected paper that publishers append to the title of an
#: erratum, a corrigendum or a publisher's note: "Erratum: Low-mass dark matter search
#: ... XENON100 [Phys. Rev. D 94, 092001 (2016)]". Authors cite the title without it.
_CORRECTED_PAPER = re.compile(r"\s*\[[^\[\]]*\d[^\[\]]*\]\W*$")
_CORRECTION = re.compile(r"(?i)^\W*(?:erratum|errata|corrigendum|addendum|publisher.s note"
                         r"|retraction)\b")


def without_corrected_reference(title: str) -> str:
    """``title`` without the bracketed reference a correction's title ends with
    (only for a title that says it is a correction)."""
    if _CORRECTION.match(title):
        return _CORRECTED_PAPER.sub("", title)
    return title


@lru_cache(maxsize=65536)
def title_tokens(title: str) -> tuple[str, ...]:
    """Words of a normalised title: TeX decoded first (so ``$\\bar{t}t$`` and the Unicode
    the citation's reader made of it meet the same notation rules), folded,
    punctuation and hyphens as separators; a correction's title without the reference
    of the paper it corrects."""
    text = without_corrected_reference(strip_latex(title))
    return tuple(t for t in _NON_WORD.split(fold(hep_notation(text))) if t)


@lru_cache(maxsize=65536)
def title_key(title: str) -> str:
    """A compact key: every letter and digit of the title, nothing else.

    Joining the words makes hyphenation and compound words equal
    ("non-abelian" = "non abelian" = "nonabelian").
    """
    return "".join(title_tokens(title))


def _split_subtitle(title: str) -> str:
    """The main title before a subtitle separator (``:``, `` - ``, ``. ``), or ''.

    A colon marks a subtitle after any main title of three or more characters
    ("XGBoost: A Scalable Tree Boosting System", which Crossref records as "XGBoost");
    the weaker separators need a main title of more than ten.
    """
    for sep, shortest in ((":", 3), (" - ", 11), (" -- ", 11), (" — ", 11), (". ", 11),
                          ("? ", 11)):
        idx = title.find(sep)
        if idx >= shortest:
            return title[: idx + (1 if sep == "? " else 0)]
    return ""


#: Articles a reference drops or adds without changing the title ("Measurement of
#: b-tagging efficiency" for "Measurement of the b-tagging efficiency").
_ARTICLES = frozenset({"the", "a", "an"})
#: Typographic ligatures (ﬁ ﬂ ﬀ ﬃ ﬄ) that text copied from a PDF loses: "efciency".
_LIGATURES = ("ffi", "ffl", "ff", "fi", "fl")


def _without_lost_ligatures(longer: str, shorter: str) -> bool:
    """True when ``shorter`` is ``longer`` with some ligature letter pairs removed."""
    i = j = 0
    while i < len(longer):
        if j < len(shorter) and longer[i] == shorter[j]:
            i, j = i + 1, j + 1
            continue
        lig = next((g for g in _LIGATURES if longer.startswith(g, i)), "")
        if not lig:
            # the two pointers may have run into a ligature a letter too late
            # ("ffi" read where "f" already matched): step back once
            lig = next((g for g in _LIGATURES if i > 0 and j > 0
                        and longer.startswith(g, i - 1) and shorter[j - 1] == longer[i - 1]), "")
            if not lig:
                return False
            i, j = i - 1, j - 1
        i += len(lig)
    return j == len(shorter)


@lru_cache(maxsize=65536)
def same_title_but_formatting(a: str, b: str) -> bool:
    """True when two titles differ only in what copying a title loses or adds without
    changing it: articles ("the", "a", "an") and ligatures lost from PDF text
    ("efciency" for "efficiency"). Every other word still counts."""
    ta = [t for t in title_tokens(a) if t not in _ARTICLES]
    tb = [t for t in title_tokens(b) if t not in _ARTICLES]
    ka, kb = "".join(ta), "".join(tb)
    if not ka or not kb:
        return False
    if ka == kb:
        return True
    longer, shorter = (ka, kb) if len(ka) > len(kb) else (kb, ka)
    return len(longer) - len(shorter) <= 3 * 3 and _without_lost_ligatures(longer, shorter)


def title_similarity(a: str, b: str) -> float:
    """Similarity of two titles in 0..1 after normalisation (normalised Levenshtein).

    1.0 means equal up to formatting. A title that is the other's main title
    without its subtitle scores 0.97 (still agreeing, with a note).
    """
    ka, kb = title_key(a), title_key(b)
    if not ka or not kb:
        return 0.0
    if ka == kb:
        return 1.0
    if same_title_but_formatting(a, b):
        return 0.99
    sim = Levenshtein.normalized_similarity(ka, kb)
    if sim < 0.97:
        for full, short in ((a, b), (b, a)):
            main = _split_subtitle(full)
            if main and title_key(main) == title_key(short):
                return 0.97
    return float(sim)


def is_subtitle_variant(a: str, b: str) -> bool:
    """True when one title is the other without its subtitle."""
    ka, kb = title_key(a), title_key(b)
    if ka == kb:
        return False
    for full, short in ((a, b), (b, a)):
        main = _split_subtitle(full)
        if main and title_key(main) == title_key(short):
            return True
    return False


@lru_cache(maxsize=65536)
def name_key(name: str) -> str:
    """A family-name key blind to accents, case, particles and transliteration.

    ``Müller`` = ``Mueller`` = ``Muller``; ``van der Waals`` = ``Waals``;
    ``D'Alembert`` = ``dAlembert``.
    """
    folded = fold(name)
    words = [w for w in re.split(r"[\s\-]+", folded) if w]
    core = [w for w in words if w not in PARTICLES] or words
    s = _NON_WORD.sub("", "".join(core))
    return transliterate(s)


def transliterate(key: str) -> str:
    """Fold German-style transliterations: ``ue``->``u``, ``oe``->``o``, ``ae``->``a``."""
    return key.replace("ue", "u").replace("oe", "o").replace("ae", "a")


@lru_cache(maxsize=65536)
def initials(given: str) -> str:
    """Initials of given names: ``"David I."`` -> ``"di"``, ``"J.-P."`` -> ``"jp"``.

    Lower-case particles kept in the given name ("Marcelo C. de") are skipped;
    glued capitals without dots ("DB") count as several initials.
    """
    return _initials(given, glued=True)


def _initials(given: str, *, glued: bool, lone_lower: bool = False) -> str:
    """:func:`initials`; with ``glued`` false, "AKM" counts as one initial ("A"), as
    BibTeX styles abbreviate it; with ``lone_lower``, a lower-case initial standing
    alone counts (see :func:`initials_compatible`)."""
    raw = strip_latex(given)
    # a particle ("da" of "Eduardo da Silva"), or its initial standing alone: BibTeX
    # styles print "E. d. S." ("E.-s." of "El-sayed" is a given name's own)
    words = [w for w in re.split(r"[\s~]+", raw)
             if (lone_lower or not re.fullmatch(r"[a-z]\.?", w))
             and not (w.islower() and w in PARTICLES)]
    parts = [p for w in words for p in re.split(r"[.\-]+", w) if p]
    out = []
    for p in parts:
        if p.islower() and len(p) > 1 and p in PARTICLES:
            continue
        letters = _NON_WORD.sub("", fold(p))
        if not letters:
            continue
        if glued and p.isupper() and 2 <= len(p) <= 3 and "." not in given:
            out.append(letters)
        else:
            out.append(letters[0])
    return "".join(out)


def initials_compatible(a: str, b: str) -> bool:
    """True when two given-name strings can denote the same person.

    Compatible when either is empty, or the shorter initial sequence is a
    prefix of the longer ("J." ~ "John David"; "J. D." ~ "J."). Glued capitals count
    either way: "AKM Mahbubur" is "A. K. M. M." and, as BibTeX abbreviates it, "A. M.".
    """
    ia, ib = initials(a), initials(b)
    if not ia or not ib:
        return True
    n = min(len(ia), len(ib))
    if ia[:n] == ib[:n]:
        return True
    ja, jb = _initials(a, glued=False), _initials(b, glued=False)
    n = min(len(ja), len(jb))
    if (ja, jb) != (ia, ib) and n and ja[:n] == jb[:n]:
        return True
    # a lower-case initial alone is a particle's ("E. d. S." of "Eduardo da Silva") or
    # the second part of a hyphenated given name printed without its hyphen: iopart-num's
    # "El-dahshan E~s~A" of "El-sayed A." (a false initials MINOR)
    la, lb = _initials(a, glued=True, lone_lower=True), _initials(b, glued=True, lone_lower=True)
    if (la, lb) == (ia, ib):
        return False
    n = min(len(la), len(lb))
    return bool(n) and la[:n] == lb[:n]


@lru_cache(maxsize=65536)
def norm_arxiv(value: str) -> str:
    """``arXiv:hep-th/9901001v2`` / URL -> ``hep-th/9901001``; lower case."""
    return normalize_arxiv(value).lower()


@lru_cache(maxsize=65536)
def norm_doi(value: str) -> str:
    """``https://doi.org/10.1103/PhysRevD.1.1`` -> ``10.1103/physrevd.1.1``."""
    return normalize_doi(value)


_PAGE_SPLIT = re.compile(r"\s*(?:--|-|–|—)\s*")


@lru_cache(maxsize=65536)
def first_page(pages: str) -> str:
    """The first page or article number, without ``pp.``/``p.`` and leading zeros kept."""
    s = pages.strip().lower()
    s = re.sub(r"^(?:pp?\.?\s*)", "", s)
    s = _PAGE_SPLIT.split(s)[0] if s else ""
    s = s.strip().rstrip(".,;")
    return s


def same_page(a: str, b: str) -> bool:
    """True when two page statements agree on the first page / article number.

    Leading zeros and letter prefixes ("075001" vs "75001", "L12" vs "12") are
    formatting.
    """
    pa, pb = first_page(a), first_page(b)
    if not pa or not pb:
        return True
    if pa == pb:
        return True
    da, db = re.sub(r"\D", "", pa).lstrip("0"), re.sub(r"\D", "", pb).lstrip("0")
    return bool(da) and da == db


@lru_cache(maxsize=65536)
def volume_number(volume: str) -> str:
    """Digits of a volume (``B106`` -> ``106``)."""
    digits = re.findall(r"\d+", volume)
    return digits[0].lstrip("0") if digits else volume.strip().lower()


@lru_cache(maxsize=4096)
def venue_key(venue: str) -> str:
    """A crude venue key used when :mod:`citecheck_tex.vocab.journals` is absent."""
    return "".join(_NON_WORD.sub(" ", fold(venue)).split())


def is_arxiv_venue(venue: str) -> bool:
    """True when a journal field only says "arXiv" / "preprint" / an e-print id."""
    v = fold(venue)
    return bool(v) and (v.startswith("arxiv") or v.startswith("e-print") or v.startswith("eprint")
                        or v in ("preprint", "submitted", "in press", "to appear"))
