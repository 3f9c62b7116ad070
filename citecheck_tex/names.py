"""Author names: one splitter for the whole project.

A name reaches the project in four written forms, and the same name must give
the same :class:`~citecheck_tex.model.Person` in all of them:

* **BibTeX** (``.bib`` fields, INSPIRE/ADS exports): ``Last, First``,
  ``von Last, Jr., First``, ``First von Last``, ``{Braced Corporate}``; names
  joined by ``and``. :func:`split_bibtex_names`, :func:`parse_bibtex_name`.
* **Display names** (API answers: arXiv ``<name>``, OpenAlex, Semantic Scholar,
  DBLP, INSPIRE ``full_name``): ``First Last``, ``First Last Jr.``,
  ``Family, Given`` (also INSPIRE's ``Family, I.`` and ``T., Srinivasan``).
  :func:`parse_display_name`.
* **Separate parts** (Crossref/DataCite ``family``/``given``, INSPIRE
  ``last_name``/``first_name``, arXiv ``authors_parsed``). :func:`person_from_parts`.
* **Author strings** (arXiv metadata ``authors``): ``A. One, B. Two and C. Three``
  with affiliations in parentheses, ``et al``, and collaborations in every
  position (``The CMS and LHCb Collaborations: V. Khachatryan, ...``,
  ``The BABAR Collaboration, B. Aubert, et al``, ``... (CDF Collaboration)``).
  :func:`split_author_string`; :func:`authors_from_names` for a list of names.

Rules shared by all forms:

* BibTeX's own grammar for BibTeX names: pybtex's :class:`pybtex.database.Person`
  (the reference implementation of BibTeX's name splitting, already a dependency)
  does the splitting, so ``Rom\\~{a}o`` stays one word (a ``\\~`` is an accent,
  not a tie) and ``{...}`` groups are respected; the parts are then decoded by
  the project's one TeX decoder (:mod:`citecheck_tex.vocab.latex_text`).
* Particles: lower-case words before the family name are ``von``
  (``van der Waals`` -> von ``van der``, family ``Waals``). A capitalised particle
  (``Di``, ``De``, ``Van`` ...) right before the last word of a ``First Last``
  name belongs to the family name (``Eleonora Di Valentino`` -> family
  ``Di Valentino``, as ``Di Valentino, Eleonora`` gives).
* Suffixes ``Jr.``, ``Sr.``, ``II``, ``III``, ``IV`` are ``jr``, written one way
  (``Jr`` -> ``Jr.``).
* Collaborations (``The CMS Collaboration``, ``ATLAS Collaboration``,
  ``collaboration, GERDA``) are literal names without the leading ``The``.

Pure functions, memoised; no I/O. Below the stages: ``tex/``, ``sources/`` and
``verify/`` all import it.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from citecheck_tex.model import Person
from citecheck_tex.vocab.latex_text import decode_value, latex_to_unicode

logger = logging.getLogger(__name__)

__all__ = [
    "PARTICLES", "AuthorList", "authors_from_names", "bibtex_misprints", "misprinted_names", "collaboration_name", "corporate_person",
    "is_collaboration", "parse_bibtex_name", "parse_display_name", "person_from_parts", "split_author_string",
    "split_bibtex_names",
]

#: Lower-case particles that may open a family name ("van der Waals", "de la Fuente").
PARTICLES = frozenset(
    "van von vom der den de del della degli di da das dos du des la le lo ter ten zu zur af av "
    "y bin ibn el al dela".split()
)
#: Particles that, capitalised, still belong to the family name ("Di Valentino").
_CAP_PARTICLES = frozenset(
    "Van Von De Di Da Del Della Degli Dos Das Du Le La Den Der Ter Ten Zu Bin Ibn El Al Dela"
    .split()
)
_JR_FORMS = {"jr": "Jr.", "jr.": "Jr.", "sr": "Sr.", "sr.": "Sr.", "ii": "II", "iii": "III",
             "iv": "IV"}
_COLLAB_WORD = re.compile(r"\b(?:collaborations?|collab\.?|consortium)(?!\w)", re.IGNORECASE)
_THE_TEAM = re.compile(r"(?:for\s+)?the\s+\S.*\b(?:team|group)$", re.IGNORECASE)
_LEADING_THE = re.compile(r"^(?:for\s+)?(?:the\s+)?", re.IGNORECASE)
_HOMONYM_SUFFIX = re.compile(r"\s+\d{4}$")  # DBLP: "Jing Yuan 0001"
_EDITOR_MARK = re.compile(r"\(\s*eds?\.?\s*\)", re.IGNORECASE)  # INSPIRE: "Longo, Roberto, (ed.)"
_LATEX_CHARS = re.compile(r"[\\{}$~]")
#: Initials glued to the family name: "C.Sfienti", "A.S.Botvina", "D.Aloni".
_GLUED_INITIALS = re.compile(r"(?<![\w.])((?:[A-Z][a-z]?\.-?)+)(?=[A-Z][a-z])")


def _space_glued_initials(text: str) -> str:
    """``text`` with a space after initials glued to a name (``C.Sfienti`` ->
    ``C. Sfienti``). A template replacement (``r"\1 "``) is expanded by Python code on
    every call, matched or not: 1.1-1.6 us, this 0.3-0.7 (a name parsed for an index
    import goes through here once or twice)."""
    return _GLUED_INITIALS.sub(_initials_spaced, text)


def _initials_spaced(match: re.Match[str]) -> str:
    return match.group(1) + " "


def _decoded(text: str) -> str:
    """A name value from JSON/XML, LaTeX decoded (``P\\'eter`` -> ``Péter``), spaces collapsed."""
    text = " ".join(text.split())
    return decode_value(text) if _LATEX_CHARS.search(text) else text


def _given(text: str) -> str:
    """Given names written one way: initials glued to a name spaced (``S.James`` ->
    ``S. James``), whitespace collapsed; ``J.C.`` and ``K.-i.`` stay as they are."""
    if "." in text:
        text = _space_glued_initials(text)
    return " ".join(text.split())


def _jr(word: str) -> str:
    """The one spelling of a name suffix, or "" when ``word`` is none."""
    return _JR_FORMS.get(word.strip().lower(), "")


# ---------------------------------------------------------------- collaborations


def is_collaboration(name: str) -> bool:
    """True for a collaboration or consortium name (``The CMS Collaboration``,
    ``the Suzaku Eta Carinae team``)."""
    return bool(_COLLAB_WORD.search(name) or _THE_TEAM.match(name))


def collaboration_name(name: str) -> str:
    """A collaboration as one spelling: no leading ``for the``/``The``, ``X Collaboration``.

    ``The CMS Collaboration`` -> ``CMS Collaboration``; ``collaboration, GERDA``
    (INSPIRE's inverted form) -> ``GERDA Collaboration``; ``for the STAR
    collaboration`` -> ``STAR collaboration``.
    """
    text = " ".join(name.split()).strip(" ,;:.")
    if text.startswith("(") and text.endswith(")") and text.count("(") == 1:
        text = text[1:-1].strip()
    if "," in text:
        head, _, tail = text.partition(",")
        if _COLLAB_WORD.fullmatch(head.strip()) and tail.strip():
            text = f"{tail.strip()} {head.strip().capitalize()}"
    return _LEADING_THE.sub("", text).strip()


def _collaboration_person(name: str) -> Person:
    return Person(family=collaboration_name(name), literal=True)


def corporate_person(name: str) -> Person:
    """A corporate author as APIs give it (Crossref ``name``, DataCite organisational
    creators, ADS "Gaia Collaboration"): a literal name, a collaboration spelt as
    :func:`collaboration_name` spells it (``The CMS Collaboration`` -> ``CMS Collaboration``)."""
    text = _decoded(name)
    return _collaboration_person(text) if is_collaboration(text) else Person(family=text,
                                                                             literal=True)


def _split_collaborations(text: str) -> list[str]:
    """``The CMS and LHCb Collaborations`` -> ``["CMS Collaboration", "LHCb Collaboration"]``."""
    text = collaboration_name(text)
    m = re.fullmatch(r"(.+?)\s+(collaborations|consortia)", text, re.IGNORECASE)
    if not m:
        return [text] if text else []
    word = "Collaboration" if m.group(2).lower() == "collaborations" else "Consortium"
    names = [n.strip() for n in re.split(r"\s*,\s*|\s+and\s+|\s*&\s*", m.group(1)) if n.strip()]
    return [f"{_LEADING_THE.sub('', n)} {word}" for n in names]


# ---------------------------------------------------------------- particles and suffixes


def _von_split(words: list[str]) -> tuple[list[str], list[str]]:
    """(von, family) of the words of a ``von Last`` part: BibTeX's rule (von runs to
    the last lower-case word that is not the final word)."""
    von_end = 0
    for i in range(len(words) - 1):
        if _is_lower(words[i]):
            von_end = i + 1
    return words[:von_end], words[von_end:]


def _is_lower(word: str) -> bool:
    for c in word:
        if c.isalpha():
            return c.islower()
    return False


def _display_person(words: list[str], jr: str = "") -> Person:
    """``First [von] Last`` words (decoded) to a Person, with the shared particle rules."""
    if not words:
        return Person(family="", jr=jr)
    if len(words) == 1:
        return Person(family=words[0], jr=jr)
    von_start = next((i for i, w in enumerate(words[:-1])
                      if _is_lower(w) and (i > 0 or w in PARTICLES)), None)
    if von_start is None:
        given, von, family = words[:-1], [], words[-1:]
    else:
        von_end = von_start
        for i in range(von_start, len(words) - 1):
            if _is_lower(words[i]):
                von_end = i + 1
        given, von, family = words[:von_start], words[von_start:von_end], words[von_end:]
    given, von, family = _capitalised_particles(given, von, family)
    return Person(family=" ".join(family), given=_given(" ".join(given)), von=" ".join(von),
                  jr=jr)


_LOWER_INITIAL = re.compile(r"-?[a-z]\.(?:-?[a-z]\.)*")


def _capitalised_particles(given: list[str], von: list[str], family: list[str]
                           ) -> tuple[list[str], list[str], list[str]]:
    """Move capitalised particles at the end of the given names to the family name
    (``Eleonora Di | Valentino`` -> ``Eleonora | Di Valentino``), or to the von part
    when there is one (``J.C. Van | der | Velde`` -> ``J.C. | Van der | Velde``, as
    ``Van der Velde, J.C.`` gives); one given name always stays."""
    given, von, family = list(given), list(von), list(family)
    while von and _LOWER_INITIAL.fullmatch(von[0]):
        # a lower-case initial is the second half of a hyphenated given name ("Z.-q.
        # Zhang", that BibTeX styles print "Z. q. Zhang"): no particle (a false author
        # MINOR on apsrev4-2, plain, abbrv, naturemag, apalike .bbl files)
        given.append(von.pop(0))
    while len(given) > 1 and given[-1] in _CAP_PARTICLES:
        if von:
            von.insert(0, given.pop())
        else:
            family.insert(0, given.pop())
    return given, von, family


# ---------------------------------------------------------------- BibTeX names


#: One family word (plain, or one brace group) and a plain given part: no von, no jr.
_FAMILY_COMMA_GIVEN = re.compile(r"(\{[^{}\\]*\}|[^{}\\~,\s]+)\s*,([^{}\\~,]*)")


@lru_cache(maxsize=1)
def _pybtex_person() -> Any:
    # Imported on first use: plain "Family, Given" names never need it.
    from pybtex.database import Person as PybtexPerson

    return PybtexPerson


def _bibtex_parts(name: str) -> tuple[list[str], list[str], list[str], list[str]]:
    """(given, von, family, jr) words of one BibTeX name, by BibTeX's grammar (pybtex)."""
    try:
        p = _pybtex_person()(name)
        return ([*p.first_names, *p.middle_names], list(p.prelast_names), list(p.last_names),
                list(p.lineage_names))
    except Exception:  # noqa: BLE001 - pybtex rejects "too many commas"; BibTeX ignores the rest
        logger.debug("pybtex cannot split %r", name, exc_info=True)
        parts = [p.strip() for p in name.split(",")]
        von, family = _von_split(parts[0].split())
        return parts[2].split(), von, family, parts[1].split()


@lru_cache(maxsize=65536)
def parse_bibtex_name(raw: str) -> Person:
    """Split one BibTeX name into given/von/family/jr, LaTeX decoded."""
    name = raw.strip().strip(",")
    if "(ed" in name or "(Ed" in name:  # "Glozman, L.Y., (ed.)": INSPIRE's editor mark
        name = " ".join(_EDITOR_MARK.sub(" ", name).split()).strip(" ,")
    if len(name) > 1 and name.startswith("{") and name.endswith("}") and _one_group(name):
        inner = latex_to_unicode(name[1:-1])
        if is_collaboration(inner):
            return _collaboration_person(inner)
        return Person(family=inner, literal=True)
    simple = _FAMILY_COMMA_GIVEN.fullmatch(name)
    if simple:  # "Family, Given" or "{Family}, Given": what the grammar gives, directly
        fam_text = latex_to_unicode(simple.group(1))
        given_text = " ".join(simple.group(2).split())
        if fam_text.lower().startswith("collaboration") and given_text:
            return _collaboration_person(f"{fam_text}, {given_text}")
        return Person(family=fam_text, given=_given(latex_to_unicode(given_text)))
    if "," not in name:  # "C.Y.Jiang": initials glued to the family name, as APIs split them
        name = _space_glued_initials(name)
    given, von, family, jr = _bibtex_parts(name)
    if not von and not jr and len(given) + len(family) > 1 \
            and is_collaboration(" ".join([*given, *family])):
        return _collaboration_person(latex_to_unicode(" ".join([*given, *family])))
    given, von, family = _capitalised_particles(given, von, family)
    # each part decoded as a whole: a space may end a macro ("\\textasciitilde {n}ez")
    jr_text = latex_to_unicode(" ".join(jr))
    return Person(family=latex_to_unicode(" ".join(family)),
                  given=_given(latex_to_unicode(" ".join(given))),
                  von=latex_to_unicode(" ".join(von)), jr=_jr(jr_text) or jr_text)


def _one_group(name: str) -> bool:
    """True when ``name`` is a single ``{...}`` group (its first brace closes at the end)."""
    depth = 0
    for i, c in enumerate(name):
        if c == "{":
            depth += 1
        elif c == "}":
            depth -= 1
            if depth == 0:
                return i == len(name) - 1
    return False


_AND = re.compile(r"\s+and\s+", re.IGNORECASE)
_BRACES = re.compile(r"[{}]")

# ---------------------------------------------------------------- names BibTeX misprints
#
# BibTeX reads no control sequence inside a name: it splits a name into words at spaces
# and ties ("~") outside braces, the tie of the accent command \~ included, and takes a
# word's case from its first letter outside braces, which \"{O} hides (its "O" is in
# braces) and the special character {\"O} does not. Such a name is printed otherwise
# than its author meant, in the paper itself; :func:`bibtex_misprints` says how.

#: Initials written without a space ("F.F.", "J.R.", "C.A.de"): one given name to BibTeX.
_RUN_INITIALS = re.compile(r"[A-Z]\.[A-Z]")
#: A generational suffix as the part after a name's last comma ("Eric H. Neilsen, Jr.").
_SUFFIX_AS_GIVEN = re.compile(r",\s*(?:(?i:[js]n?r)\.?|II|III|IV)\s*$")
#: Special characters whose control word is the letter itself ({\oe}, {\AA}, {\ss}).
_LETTER_COMMANDS = frozenset("oe OE ae AE aa AA o O l L ss i j".split())
_SPECIAL_CHAR = re.compile(r"\{\\([A-Za-z]+|.)[\s{]*([A-Za-z]?)")


def _top_level(text: str) -> list[int]:
    """The brace depth before each character of ``text``."""
    depths, depth = [], 0
    for ch in text:
        depths.append(depth)
        if ch == "{":
            depth += 1
        elif ch == "}":
            depth = max(0, depth - 1)
    return depths


def _bibtex_split(text: str, seps: str) -> list[tuple[int, int]]:
    """(start, end) of the pieces of ``text`` between the characters ``seps`` outside
    braces; with ``seps`` other than "," empty pieces are dropped."""
    out, start = [], 0
    for i, (ch, depth) in enumerate(zip(text, _top_level(text), strict=True)):
        if depth == 0 and ch in seps:
            out.append((start, i))
            start = i + 1
    out.append((start, len(text)))
    return out if seps == "," else [(a, b) for a, b in out if text[a:b].strip()]


def _loose_tilde(text: str) -> bool:
    """``text`` holds an accent ``\\~`` outside braces (which BibTeX reads as a tie)."""
    return any(ch == "~" and depth == 0 and text[i - 1:i] == "\\"
               for i, (ch, depth) in enumerate(zip(text, _top_level(text), strict=True)))


def _bibtex_lower(word: str) -> bool:
    """BibTeX's case of a word: that of its first letter outside braces, or of the
    letter of a special character (``{\\"O}``, ``{\\oe}``) met first; none is upper."""
    for i, (ch, depth) in enumerate(zip(word, _top_level(word), strict=True)):
        if depth:
            continue
        if ch == "{" and word[i + 1:i + 2] == "\\":
            m = _SPECIAL_CHAR.match(word, i)
            letter = (m.group(1) if m.group(1) in _LETTER_COMMANDS else m.group(2)) if m else ""
            if letter:
                return letter[0].islower()
        elif ch.isalpha():
            return ch.islower()
    return False


def _bibtex_view(name: str) -> tuple[list[str], str]:
    """The given words of one name as BibTeX splits them, and its von and family part as
    BibTeX prints them in full (the text they span: BibTeX keeps the ties inside a part).
    """
    commas = _bibtex_split(name, ",")
    if len(commas) == 1:
        spans = _bibtex_split(name, " ~")
        words = [name[a:b] for a, b in spans]
        first_lower = next((i for i, w in enumerate(words[:-1]) if _bibtex_lower(w)), None)
        n_given = first_lower if first_lower is not None else len(words) - 1
        return words[:n_given], name[spans[n_given][0]:].strip()
    a, b = commas[-1]
    return [name[a + x:a + y] for x, y in _bibtex_split(name[a:b], " ~")], \
        name[:commas[0][1]].strip()


def _initial(word: str) -> str:
    """The initial BibTeX's ``{f.}`` makes of a word ("Jo\\" -> "J.")."""
    m = re.search(r"\{\\[^{}]*(?:\{[^{}]*\})?[^{}]*\}|[A-Za-z]", word)
    return f"{m.group(0)}." if m else f"{word[:1]}."


def bibtex_misprints(raw: str) -> list[str]:
    """How BibTeX misprints one name of an ``author`` or ``editor`` field, a sentence
    per problem (none when it prints the name as meant, which is how
    :func:`parse_bibtex_name` reads it):

    * an accent ``\\~`` outside braces (``R. Concei\\c{c}\\~{a}o``, ``Jo\\~ao``): BibTeX
      reads its tilde as a tie between two names, so the family name becomes another
      (``R. C. {a}o``) or an abbreviating style prints an initial more
      (``J. a. A. Gon\\c{c}alves``);
    * a capital hidden from BibTeX by an accent outside braces (``\\"{O}zg\\"ur
      Yilmaz``): the word reads as lower case, a particle, printed in full as part of
      the family name;
    * initials without a space (``F.F.``, ``C.A.de``): one given name, printed ``F.``;
    * a generational suffix after the only comma (``Eric H. Neilsen, Jr.``): BibTeX
      reads "Jr." as the given name and the rest as the family name, printed
      ``J. Eric H. Neilsen``; BibTeX's form is ``Neilsen, Jr., Eric H.``.
    """
    if "\\" not in raw and not _RUN_INITIALS.search(raw) and not _SUFFIX_AS_GIVEN.search(raw):
        return []  # most names: nothing BibTeX could misread (10 us a name less)
    name = " ".join(raw.split())
    if not name or (name.startswith("{") and _one_group(name)) or is_collaboration(name):
        return []
    given, printed = _bibtex_view(name)
    out = []
    commas = _bibtex_split(name, ",")
    before_suffix = parse_bibtex_name(name[:commas[0][1]].strip()) \
        if len(commas) == 2 and _SUFFIX_AS_GIVEN.search(name) else None
    if before_suffix is not None and before_suffix.given:  # (not "Smith, II")
        suffix = name[commas[1][0]:commas[1][1]].strip()
        family = " ".join(p for p in (before_suffix.von, before_suffix.family) if p)
        form = ", ".join(p for p in (family, suffix, before_suffix.given) if p)
        shown = f"{_initial(suffix)} {name[:commas[0][1]].strip()}"
        out.append(f"BibTeX reads '{suffix}' after the only comma as the given name: styles "
                   f"print '{shown}' (abbreviated) or '{suffix} {printed}'; write "
                   f"'{form}' (family, suffix, given)")
    if _loose_tilde(name):
        meant_given, meant_von, meant_family, _ = _bibtex_parts(name)
        meant = " ".join([*meant_von, *meant_family])
        if re.sub(r"(?<!\\)~", " ", printed) != meant:
            initials = " ".join(_initial(w) for w in given)
            out.append("BibTeX reads the ~ of the accent \\~ as a space between names: the "
                       f"family name becomes '{printed}' (printed "
                       f"'{f'{initials} {printed}'.strip()}'); write the accent in braces, "
                       "{\\~a}")
        elif len(given) > len(meant_given):
            out.append("BibTeX reads the ~ of the accent \\~ as a space between names: styles "
                       "that abbreviate given names print "
                       f"'{' '.join(_initial(w) for w in given)}'; write the accent in braces, "
                       "{\\~a}")
    out.extend(f"BibTeX reads '{w}' as a lower-case particle (an accent outside braces hides "
               "its capital): styles print it as part of the family name; write the accented "
               "capital in braces, as {\\\"O}"
               for w in _von_words(printed) if not w[:1].isalpha() and latex_to_unicode(w)[:1].isupper())
    for w in given:
        if _RUN_INITIALS.match(w):
            spaced = " ".join(re.findall(r"[A-Z][a-z]*\.?|[a-z]+\.?", w))
            out.append(f"BibTeX takes the initials '{w}' for one given name: styles that "
                       f"abbreviate given names print '{_initial(w)}'; write them with a "
                       f"space, '{spaced}'")
    return out



def _split_top_and(text: str) -> list[str]:
    """Split at `` and `` outside braces."""
    if "{" not in text:
        return _AND.split(text)
    out: list[str] = []
    depth = 0
    last = 0
    pos = 0
    for m in _AND.finditer(text):
        for b in _BRACES.finditer(text, pos, m.start()):
            depth = depth + 1 if b.group() == "{" else max(0, depth - 1)
        pos = m.start()
        if depth == 0:
            out.append(text[last:m.start()])
            last = m.end()
    out.append(text[last:])
    return out


@lru_cache(maxsize=16384)
def split_bibtex_names(raw: str) -> tuple[tuple[Person, ...], bool]:
    """Split a BibTeX ``author``/``editor`` value into persons; True for ``and others``."""
    text = " ".join(raw.split())
    if not text:
        return (), False
    truncated = False
    persons: list[Person] = []
    for n in _split_top_and(text):
        n = n.strip()
        if n.lower() in ("others", "{others}", "et al.", "et al"):
            truncated = True
            continue
        if n:
            persons.append(parse_bibtex_name(n))
    return tuple(p for p in persons if p.family or p.given), truncated


# ---------------------------------------------------------------- display names and parts


@lru_cache(maxsize=65536)
def parse_display_name(name: str) -> Person:
    """Split a display name as APIs give it into a Person.

    ``Peter H. N. de With``, ``Robert W. Heath Jr.``, ``Eleonora Di Valentino``,
    ``Witten, Edward`` (INSPIRE ``full_name``), ``Gates, S.James, Jr.``,
    ``The CMS Collaboration``. LaTeX in the name is decoded (arXiv: ``P\\'eter``).
    """
    text = _HOMONYM_SUFFIX.sub("", _decoded(_EDITOR_MARK.sub(" ", name))).strip(" ,;")
    if not text:
        return Person(family="")
    if is_collaboration(text):
        return _collaboration_person(text)
    if "," in text:
        parts = [p.strip() for p in text.split(",")]
        rest = [p for p in parts[1:] if p]
        if len(parts[0].split()) > 1 and rest and all(_jr(p) for p in rest):
            # "Robert W. Heath, Jr.": a display name with its suffix after a comma
            words = _space_glued_initials(parts[0]).split()
            return _display_person(words, _jr(rest[0]))
        return person_from_parts(parts[0], ", ".join(rest))
    words = _space_glued_initials(text).split()
    jr = ""
    if len(words) > 2 and _jr(words[-1]):
        jr = _jr(words.pop())
    return _display_person(words, jr)


#: a display name with glued initials deposited as a family name ("C.Y.Jiang", "D.R.Brown")
_GLUED_DISPLAY = re.compile(r"(?:[A-Z]\.-?){1,3}\s*[A-Z][^\W\d_]*(?:[-'][^\W\d_]+)*")


@lru_cache(maxsize=65536)
def person_from_parts(family: str, given: str = "", jr: str = "") -> Person:
    """A Person from separate family/given (and suffix) values.

    Crossref/DataCite ``family``/``given``, INSPIRE ``last_name``/``first_name``
    (whose first name may end in ``, Jr.``), arXiv ``authors_parsed``. Leading
    lower-case particles of the family are ``von`` (``van der Werf`` -> von
    ``van der``); capitalised ones stay (``Di Scascio``). LaTeX is decoded.
    """
    family = _decoded(family).strip(" ,")
    given = _decoded(_EDITOR_MARK.sub(" ", given)).strip(" ,")
    jr = _decoded(jr).strip(" ,")
    if family.lower().startswith("collaboration") and given:
        return _collaboration_person(f"{family}, {given}")
    if is_collaboration(family) and not given:
        return _collaboration_person(family)
    if not given and _GLUED_DISPLAY.fullmatch(family):
        return parse_display_name(family)  # a whole name in the family field: "C.Y.Jiang"
    if "," in given:  # "S.James, Jr." or "Jr., S.James"
        pieces = [p.strip() for p in given.split(",") if p.strip()]
        suffixes = [p for p in pieces if _jr(p)]
        if suffixes:
            jr = jr or _jr(suffixes[0])
            given = " ".join(p for p in pieces if not _jr(p))
    elif _jr(given) and not jr:  # "Heath, Jr." with the given name lost
        jr, given = _jr(given), ""
    words = family.split()
    von: list[str] = []
    if len(words) > 1:
        von, words = _von_split(words)
    return Person(family=" ".join(words), given=_given(given), von=" ".join(von),
                  jr=_jr(jr) or jr)


# ---------------------------------------------------------------- author lists


@dataclass(frozen=True, slots=True)
class AuthorList:
    """Persons and collaborations of one author string or list of names."""

    persons: tuple[Person, ...]
    collaborations: tuple[str, ...] = ()
    truncated: bool = False


_ET_AL = re.compile(r"(?:,\s*|\s+)(?:et\s*al\.?|and\s+others)\s*$", re.IGNORECASE)
_PAREN = re.compile(r"\([^()]*\)")
_LIST_SEP = re.compile(r"\s*,\s*(?:and\s+)?|\s*;\s*|\s+and\s+|\s*&\s*", re.IGNORECASE)


def authors_from_names(names: Iterable[str]) -> AuthorList:
    """Persons and collaborations of a list of display names (arXiv API ``<name>``s).

    ``The CMS Collaboration`` goes to the collaborations; ``et al`` marks truncation.
    """
    persons: list[Person] = []
    collabs: list[str] = []
    truncated = False
    for name in names:
        text = " ".join(name.split())
        if not text:
            continue
        if text.lower().rstrip(".") in ("et al", "others"):
            truncated = True
        elif is_collaboration(text):
            collabs.extend(_split_collaborations(_decoded(text)))
        else:
            p = parse_display_name(text)
            if p.family or p.given:
                persons.append(p)
    return AuthorList(tuple(persons), tuple(dict.fromkeys(collabs)), truncated)


@lru_cache(maxsize=16384)
def split_author_string(text: str) -> AuthorList:
    """Persons and collaborations of an arXiv-style author string.

    ``Matthew J. Francis, Geraint F. Lewis, Eric V. Linder``;
    ``A. Greilich (1), M. Bayer (1) ((1) Universität Dortmund)`` (affiliations
    dropped); ``The CMS and LHCb Collaborations: V. Khachatryan, ...``;
    ``The BABAR Collaboration, B. Aubert, et al``; ``A. Abulencia et al. (CDF
    Collaboration)``; ``Robert W. Heath, Jr. and Sriram Vishwanath``.
    """
    s = " ".join(text.split())
    collabs: list[str] = []
    parens = "(" in s or ")" in s
    # Parentheses hold affiliations, except "(CDF Collaboration)", "(for the STAR ...)".
    while parens:
        found = list(_PAREN.finditer(s))
        if not found:
            break
        for m in found:
            inner = m.group()[1:-1]
            if is_collaboration(inner):
                collabs.extend(_split_collaborations(_decoded(inner)))
        s = _PAREN.sub(" ", s)
    if parens:  # else s is collapsed already
        s = " ".join(s.replace("(", " ").replace(")", " ").split())
    if ":" in s:  # "The CMS and LHCb Collaborations: V. Khachatryan, ..."
        head, _, tail = s.partition(":")
        if is_collaboration(head):
            collabs.extend(_split_collaborations(_decoded(head)))
            s = tail
    truncated = False
    low = s.casefold()  # (casefold: what IGNORECASE matches, "ſ" ~ "s" too)
    if "al" in low or "others" in low:  # else neither "et al" nor "and others" is there
        # s has single spaces here, so an "et al" at its end lies in its last 40 characters
        while (tail_m := _ET_AL.search(s, max(0, len(s) - 40))) is not None:
            truncated = True
            s = s[:tail_m.start()]
        s = _ET_AL_INSIDE.sub(",", s)  # "A. Abulencia et al. ..."
    s = _decoded(s)
    if ";" in s or "&" in s or "and" in s.casefold():
        pieces = _LIST_SEP.split(s)
    else:  # commas only: each piece is stripped below (what the separator's \s* took)
        pieces = s.split(",")
    persons: list[Person] = []
    for piece in pieces:
        if not piece:
            continue
        kind, value = _author_piece(piece)
        if kind == _PIECE_JR:
            if persons and not persons[-1].jr and not persons[-1].literal:
                last = persons[-1]
                persons[-1] = Person(family=last.family, given=last.given, von=last.von,
                                     jr=value)
        elif kind == _PIECE_COLLABORATIONS:
            collabs.extend(value)
        elif kind == _PIECE_PERSON:
            persons.append(value)
    return AuthorList(tuple(persons), tuple(dict.fromkeys(collabs)) if collabs else (),
                      truncated)


_ET_AL_INSIDE = re.compile(r"\bet\s*al\.?", re.IGNORECASE)
_PIECE_NONE, _PIECE_JR, _PIECE_COLLABORATIONS, _PIECE_PERSON = "none", "jr", "collab", "person"


@lru_cache(maxsize=65536)  # names repeat across a dump's author strings
def _author_piece(piece: str) -> tuple[str, Any]:
    """What one comma-separated piece of an author string is: (kind, value), kind one of
    ``_PIECE_*`` (a name suffix, collaborations, a person, or nothing to keep)."""
    if not piece.strip(" ."):
        return _PIECE_NONE, None
    piece = piece.strip()
    if _jr(piece):
        return _PIECE_JR, _jr(piece)
    if is_collaboration(piece):
        return _PIECE_COLLABORATIONS, tuple(_split_collaborations(piece))
    p = parse_display_name(piece)
    return (_PIECE_PERSON, p) if p.family or p.given else (_PIECE_NONE, None)


def misprinted_names(field: str) -> list[tuple[str, str]]:
    """(name, problem) for each name of an ``author``/``editor`` field that BibTeX
    misprints (:func:`bibtex_misprints`), the names split where BibTeX splits them: at
    " and " outside braces."""
    return [(" ".join(name.split()), why) for name in _split_top_and(field.strip())
            for why in bibtex_misprints(name)]

def _von_words(part: str) -> list[str]:
    """The von words BibTeX finds in a ``von Last`` part: from the first word, when it
    is lower case, to the last lower-case word before the final one."""
    words = [part[a:b] for a, b in _bibtex_split(part, " ~")]
    if len(words) < 2 or not _bibtex_lower(words[0]):
        return []
    end = max(i for i in range(len(words) - 1) if _bibtex_lower(words[i]))
    return words[:end + 1]
