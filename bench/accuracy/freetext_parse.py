"""Field-level accuracy of the free-text reference parser on real references.

    python -m bench.accuracy.freetext_parse [--n 400] [--examples STYLE]

Real reference-list entries of HEP papers as INSPIRE stored them
(``shared/corpus/inspire_hep_reference_strings.jsonl``: authors, title, pubnote
``Phys.Rev.,D91,074015``, year, arXiv id, DOI) are written out as free text in
the common physics styles, from the stored fields only, and read back by the
frontend (``parse_bbl_text`` for bibitems, ``parse_text_list`` for a plain list).
Each field the reference states is scored against the stored value:

- ``revtex``: ``\\bibitem{k} A.~B. Family, C.~Family, and D.~Family, \\enquote{Title,}
  \\href{https://doi.org/DOI}{Phys. Rev. D \\textbf{91}, 074015 (2015)},
  \\Eprint{https://arxiv.org/abs/ID}{arXiv:ID}.``
- ``jhep`` (JHEP.bst): ``A.~B. Family, C.~Family and D.~Family, \\emph{Title},
  \\href{https://doi.org/DOI}{\\emph{Phys. Rev. D} \\textbf{91} (2015) 074015}
  [\\href{https://arxiv.org/abs/ID}{{\\tt arXiv:ID}}].``
- ``mnras`` (mnras.bst, no titles): ``Family A.~B., Family C., 2015, Phys. Rev. D,
  91, 074015``, ``et~al.`` after the first three authors.
- ``fulljournal`` (a plain .txt list, full journal names, unquoted title):
  ``A. B. Family, C. Family, Title, Physical Review D 91, 074015 (2015), arXiv:ID, doi:DOI``.
- ``webcopy`` (a .txt list pasted from a Springer journal's web page, link labels
  included): ``Family, A.B., Family, C.: Title. Phys. Rev. D 91, 074015 (2015).
  https://doi.org/DOI. arXiv:ID [CrossRef] [ADS] [INSPIRE] [Google Scholar]``.
- the citation generators' styles, on the references with a title (a .txt list):
  ``mla`` (Google Scholar): ``Family, Given, et al. “Title.” Physical Review D 91
  (2015): 074015.``; ``mla9`` (Zotero): ``... Physical Review D, vol. 91, 2015, p.
  074015.``; ``chicago`` (Google Scholar): ``Family, Given, Given Family, and Given
  Family. “Title.” Physical Review D 91 (2015): 074015.``; ``harvard`` (Google Scholar):
  ``Family, AB, Family, C and Family, D, 2015. Title. Physical Review D, 91, p.074015.``

The sample: references with authors, a complete pubnote and a year whose author
list splits into names, drawn with a fixed seed; half of them with a stored title.
Scores: authors (the family names in order, and "et al." where written), title
(normalised text), journal (same journal key), volume, first page, year, arXiv id,
DOI; each over the references that state the field.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import re
import unicodedata
from collections import defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from bench.accuracy.real_references import bib_author_string
from bench.paths import CORPUS
from citecheck_tex.model import Entry, Person
from citecheck_tex.tex.bbl import parse_bbl_text
from citecheck_tex.tex.bib import split_names
from citecheck_tex.tex.textlist import parse_text_list
from citecheck_tex.vocab.ids import normalize_arxiv, normalize_doi
from citecheck_tex.vocab.journals import journal_key, split_volume_letter

REFS = CORPUS / "inspire_hep_reference_strings.jsonl"
FULL_TITLES = Path(__file__).resolve().parents[2] / "citecheck_tex" / "data" / \
    "inspire_journal_titles.csv.gz"
FIELDS = ("authors", "title", "journal", "volume", "pages", "year", "arxiv", "doi")
STYLES = ("revtex", "jhep", "mnras", "fulljournal", "webcopy", "mla", "mla9", "chicago",
          "harvard")
#: The citation generators' styles (Google Scholar's "Cite", Zotero): a quoted or
#: separate title always, so they are scored on the references with a title.
TITLED_STYLES = frozenset({"mla", "mla9", "chicago", "harvard"})
_ARXIV = re.compile(r"(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})")


@dataclass
class Ref:
    """One reference: its stored (true) fields, the way it is written."""

    key: str
    persons: tuple[Person, ...]
    truncated: bool
    title: str
    journal: str  # with the series letter moved out of the volume when known ("Phys.Rev.D")
    volume: str
    page: str
    year: str
    arxiv: str = ""
    doi: str = ""
    shown: dict[str, str] = field(default_factory=dict)  # style -> rendered text


def _first(value: object) -> str:
    if isinstance(value, list):
        return str(value[0]) if value else ""
    return str(value or "")


_NAME_OK = re.compile(r"^[A-Z\u00C0-\u024F][\w'\u2019\u00C0-\u024F\-]+$")


def _clean_persons(people: tuple[Person, ...]) -> bool:
    """Names a person could write unambiguously: a family name word, initials or given names."""
    if not people:
        return False
    for p in people:
        if p.literal:
            continue
        fam = p.full_family
        if not fam or not all(_NAME_OK.match(w) or w in ("van", "von", "de", "der", "di", "da",
                                                         "del", "la", "le")
                              for w in fam.split()):
            return False
        if not p.given or not re.fullmatch(r"[A-Z\u00C0-\u024F][\w.\-' \u00C0-\u024F]*",
                                           p.given):
            return False
        # refextract glues several persons' initials to one family name
        # ("D. I. B. V. T. B. N. Y. T. I. V. Tarasova"): not a name anyone wrote
        if len(p.given.replace(".", " ").split()) > 3:
            return False
    return True


def _spaced_journal(journal: str) -> str:
    """"Phys.Rev.Lett." -> "Phys. Rev. Lett." (how papers print INSPIRE's abbreviations)."""
    return re.sub(r"\.(?=[A-Z])", ". ", journal).strip()


def load(n: int, seed: int = 10) -> list[Ref]:
    """A fixed sample of ``n`` references (half with a stored title when possible)."""
    with_title: list[Ref] = []
    without: list[Ref] = []
    with REFS.open(encoding="utf-8") as fh:
        for i, line in enumerate(fh, start=1):
            d = json.loads(line)
            pubnote = _first(d.get("pubnote"))
            year = _first(d.get("year"))
            parts = [p.strip() for p in pubnote.split(",")]
            if len(parts) != 3 or not all(parts) or not re.fullmatch(r"(?:1[89]|20)\d\d", year):
                continue
            if not re.fullmatch(r"[A-Z]?\d{1,5}[A-Z]?", parts[1]) or not re.fullmatch(
                    r"[A-Za-z]?\d+(?:-\d+)?", parts[2]):
                continue
            persons, truncated = split_names(bib_author_string(d.get("authors")))
            if not _clean_persons(persons) or len(persons) > 12:
                continue
            key, vol = split_volume_letter(parts[0], parts[1])
            journal = parts[0]
            if vol != parts[1].strip():  # the letter belongs to the journal ("Phys.Rev.D")
                letter = parts[1].replace(vol, "").strip()
                journal = f"{parts[0]}{letter}" if parts[0].endswith(".") else \
                    f"{parts[0]} {letter}"
            if journal_key(journal) != key:
                journal, vol = parts[0], parts[1]
            rep = _first(d.get("report_or_arxiv"))
            m = _ARXIV.search(rep)
            ref = Ref(f"r{i}", persons, truncated, _first(d.get("title")).strip(), journal, vol,
                      parts[2].split("-")[0], year,
                      arxiv=normalize_arxiv(m.group(1)) if m else "",
                      doi=normalize_doi(_first(d.get("doi"))))
            (with_title if ref.title else without).append(ref)
    rng = random.Random(seed)
    rng.shuffle(with_title)
    rng.shuffle(without)
    half = min(len(with_title), n // 2)
    sample = with_title[:half] + without[:n - half]
    sample.sort(key=lambda r: int(r.key[1:]))
    return sample


def _initials(given: str, tilde: str) -> str:
    parts = []
    for word in given.replace(".", ". ").split():
        hy = "-".join(f"{w[0]}." for w in word.split("-") if w)
        parts.append(hy)
    return tilde.join(parts)


def _given_first(p: Person, tilde: str = "~") -> str:
    if p.literal:
        return p.family
    return f"{_initials(p.given, tilde)}{tilde}{p.full_family}"


def _family_first(p: Person) -> str:
    if p.literal:
        return p.family
    return f"{p.full_family} {_initials(p.given, '~')}"


def _join(names: list[str], serial: bool) -> str:
    if len(names) == 1:
        return names[0]
    last = (", and " if serial and len(names) > 2 else " and ") + names[-1]
    return ", ".join(names[:-1]) + last


@functools.lru_cache(maxsize=1)
def _full_titles() -> dict[str, str]:
    """journal key -> one full title (title-cased) from INSPIRE's table."""
    import csv
    import gzip

    out: dict[str, str] = {}
    small = {"of", "and", "the", "in", "for", "on", "de", "der", "und"}
    with gzip.open(FULL_TITLES, "rt", encoding="utf-8") as fh:
        for row in list(csv.reader(fh))[1:]:
            full, abbr = row[0], row[1]
            key = journal_key(abbr)
            words = [w.lower() if i and w.lower() in small else w.capitalize()
                     for i, w in enumerate(full.split())]
            title = " ".join(words)
            # a written-out name: no acronym ("JHEP") or clipped variant ("ADV TH MATH PHYS")
            if len(words) < 2 or any(len(w) < 5 and w.lower() not in small
                                     and (len(w) > 1 or i < len(words) - 1)
                                     for i, w in enumerate(words)):
                continue
            if key and journal_key(title) == key:
                # the shortest full title of a journal is its usual name
                if key not in out or len(title) < len(out[key]):
                    out[key] = title
    return out


def render(ref: Ref, style: str) -> str:
    """The reference written in ``style`` (see the module docstring)."""
    j = _spaced_journal(ref.journal)
    if style == "revtex":
        names = [_given_first(p) for p in ref.persons]
        authors = _join(names, serial=True) + (" \\emph{et~al.}" if ref.truncated else "")
        text = authors + ", " + (f"\\enquote{{{ref.title},}} " if ref.title else "")
        pub = f"{j} \\textbf{{{ref.volume}}}, {ref.page} ({ref.year})"
        text += f"\\href{{https://doi.org/{ref.doi}}}{{{pub}}}" if ref.doi else pub
        if ref.arxiv:
            text += f", \\Eprint{{https://arxiv.org/abs/{ref.arxiv}}}{{arXiv:{ref.arxiv}}}"
        return text + "."
    if style == "jhep":
        names = [_given_first(p) for p in ref.persons]
        authors = _join(names, serial=False) + (" et~al." if ref.truncated else "")
        bits = [authors]
        if ref.title:
            bits.append(f"\\emph{{{ref.title}}}")
        pub = f"\\emph{{{j}}} \\textbf{{{ref.volume}}} ({ref.year}) {ref.page}"
        bits.append(f"\\href{{https://doi.org/{ref.doi}}}{{{pub}}}" if ref.doi else pub)
        text = ", ".join(bits)
        if ref.arxiv:
            text += f" [\\href{{https://arxiv.org/abs/{ref.arxiv}}}{{{{\\tt arXiv:{ref.arxiv}}}}}]"
        return text + "."
    if style == "mnras":
        names = [_family_first(p) for p in ref.persons]
        if ref.truncated or len(names) > 3:
            authors = ", ".join(names[:1 if len(names) > 3 else len(names)]) + " et~al.,"
        else:
            authors = (", ".join(names[:-1]) + " \\& " + names[-1] if len(names) > 1
                       else names[0]) + ","
        text = f"{authors} {ref.year}, {j}, {ref.volume}, {ref.page}"
        if ref.doi:
            text += f" (\\href{{https://doi.org/{ref.doi}}}{{doi:{ref.doi}}})"
        if ref.arxiv:
            text += f" (\\mbox{{arXiv:{ref.arxiv}}})"
        return text
    if style == "webcopy":
        names = [f"{p.full_family}, {_initials(p.given, '')}" if not p.literal else p.family
                 for p in ref.persons]
        text = ", ".join(names) + (", et al." if ref.truncated else "") + ": "
        if ref.title:
            text += ref.title.rstrip(".") + ". "
        text += f"{j} {ref.volume}, {ref.page} ({ref.year})"
        if ref.doi:
            text += f". https://doi.org/{ref.doi}"
        if ref.arxiv:
            text += f". arXiv:{ref.arxiv}"
        return text + (" [CrossRef]" if ref.doi else "") + " [ADS] [INSPIRE] [Google Scholar]"
    full = _full_titles().get(journal_key(ref.journal), j)
    if style in TITLED_STYLES:
        return _generator_style(ref, style, full)
    # fulljournal: a plain-text list item
    names = [_given_first(p, " ") for p in ref.persons]
    bits = [", ".join(names) + (" et al." if ref.truncated else "")]
    if ref.title:
        bits.append(ref.title)
    bits.append(f"{full} {ref.volume}, {ref.page} ({ref.year})")
    if ref.arxiv:
        bits.append(f"arXiv:{ref.arxiv}")
    if ref.doi:
        bits.append(f"doi:{ref.doi}")
    return ", ".join(bits)


def _natural(p: Person) -> str:
    return p.family if p.literal else f"{p.given} {p.full_family}"


def _inverted(p: Person) -> str:
    return p.family if p.literal else f"{p.full_family}, {p.given}"


def _generator_style(ref: Ref, style: str, full: str) -> str:
    """Google Scholar's MLA, Chicago and Harvard, Zotero's MLA 9 (no issue numbers: the
    corpus has none). MLA: "et al." after the first of three or more authors."""
    people = list(ref.persons)
    if style == "harvard":
        names = [p.family if p.literal else f"{p.full_family}, {_initials(p.given, '')}"
                 for p in people]
        authors = (", ".join(names[:-1]) + " and " + names[-1] if len(names) > 1
                   else names[0]) + (" et al." if ref.truncated else "")
        return (f"{authors}, {ref.year}. {ref.title.rstrip('.')}. {full}, {ref.volume}, "
                f"p.{ref.page}.")
    if style in ("mla", "mla9") and (len(people) >= 3 or ref.truncated):
        authors = f"{_inverted(people[0])}, et al."
    elif ref.truncated:  # chicago
        authors = ", ".join([_inverted(people[0]), *map(_natural, people[1:])]) + ", et al."
    elif len(people) == 1:
        authors = _inverted(people[0]) + ("" if _inverted(people[0]).endswith(".") else ".")
    else:
        authors = ", ".join([_inverted(people[0]), *map(_natural, people[1:-1])])
        authors += f", and {_natural(people[-1])}."
    title = f"\u201c{ref.title.rstrip('.')}.\u201d"
    if style == "mla":
        return f"{authors} {title} {full} {ref.volume} ({ref.year}): {ref.page}."
    if style == "mla9":
        return f"{authors} {title} {full}, vol. {ref.volume}, {ref.year}, p. {ref.page}."
    return f"{authors} {title} {full} {ref.volume} ({ref.year}): {ref.page}."  # chicago


def expected_authors(ref: Ref, style: str) -> tuple[list[str], bool]:
    """What the written reference says: MNRAS cuts long lists to the first author, MLA
    lists of three or more."""
    people = list(ref.persons)
    truncated = ref.truncated
    if style == "mnras" and (truncated or len(people) > 3):
        people = people[:1] if len(people) > 3 else people
        truncated = True
    if style in ("mla", "mla9") and (truncated or len(people) >= 3):
        people, truncated = people[:1], True
    return [_fold(p.full_family) for p in people], truncated


def _fold(text: str) -> str:
    t = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^a-z0-9]", "", "".join(c for c in t if not unicodedata.combining(c)).lower())


def parse(refs: list[Ref], style: str) -> dict[str, Entry]:
    """Write every reference in ``style`` and read it back with the frontend."""
    for r in refs:
        r.shown[style] = render(r, style)
    if style in ("fulljournal", "webcopy") or style in TITLED_STYLES:
        text = "".join(f"[{n}] {r.shown[style]}\n" for n, r in enumerate(refs, 1))
        entries, _ = parse_text_list(text, "refs.txt")
        return {refs[int(e.key) - 1].key: e for e in entries}
    body = "".join(f"\\bibitem{{{r.key}}} {r.shown[style]}\n" for r in refs)
    entries, _ = parse_bbl_text(f"\\begin{{thebibliography}}{{9}}\n{body}"
                                "\\end{thebibliography}\n", "refs.bbl")
    return {e.key: e for e in entries}


def score(ref: Ref, e: Entry | None, style: str) -> dict[str, bool]:
    """Per stated field: was it read correctly?"""
    out: dict[str, bool] = {}
    want_authors, want_trunc = expected_authors(ref, style)
    if e is None:
        return {f: False for f in FIELDS if f != "title" or ref.title}
    got = [_fold(p.full_family) if not p.literal else _fold(p.family) for p in e.authors]
    out["authors"] = got == want_authors and e.authors_truncated == want_trunc
    if ref.title and style != "mnras":
        out["title"] = _fold(e.title) == _fold(ref.title)
    jk, vol = split_volume_letter(e.venue, e.volume) if e.venue else ("", e.volume)
    wk, wvol = split_volume_letter(ref.journal, ref.volume)
    out["journal"] = bool(jk) and jk == wk
    out["volume"] = vol.lstrip("0") == wvol.lstrip("0")
    out["pages"] = e.pages.split("-")[0].strip() == ref.page
    out["year"] = e.year == ref.year
    if ref.arxiv and style not in TITLED_STYLES:  # those styles do not write them
        out["arxiv"] = e.arxiv == ref.arxiv
    if ref.doi and style not in TITLED_STYLES:
        out["doi"] = e.doi == ref.doi
    return out


def run(refs: list[Ref]) -> dict[str, dict[str, tuple[int, int]]]:
    """style -> field -> (correct, stated)."""
    table: dict[str, dict[str, tuple[int, int]]] = {}
    for style in STYLES:
        entries = parse(refs, style)
        counts: dict[str, list[int]] = defaultdict(lambda: [0, 0])
        for r in refs:
            if style in TITLED_STYLES and not r.title:
                continue
            for f, ok in score(r, entries.get(r.key), style).items():
                counts[f][0] += ok
                counts[f][1] += 1
        table[style] = {f: (c[0], c[1]) for f, c in counts.items()}
    return table


def main(argv: list[str] | None = None) -> int:
    """Print the per-style, per-field table (and misreads of one style on request)."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=400, help="references in the sample")
    ap.add_argument("--examples", choices=STYLES, help="list the misread references of a style")
    args = ap.parse_args(argv)
    refs = load(args.n)
    table = run(refs)
    titled = sum(1 for r in refs if r.title)
    print(f"## Free-text parser, field accuracy on real INSPIRE references (n = {len(refs)}, "
          f"{titled} with a title)\n")
    print("| style | " + " | ".join(FIELDS) + " | all fields |")
    print("|---|" + "---:|" * (len(FIELDS) + 1))
    for style in STYLES:
        row = table[style]
        cells = [f"{100 * row[f][0] / row[f][1]:.1f}% ({row[f][1]})" if f in row and row[f][1]
                 else "-" for f in FIELDS]
        ok = sum(c for c, _ in row.values())
        total = sum(n for _, n in row.values())
        print(f"| {style} | " + " | ".join(cells) + f" | {100 * ok / max(1, total):.1f}% |")
    if args.examples:
        entries = parse(refs, args.examples)
        for r in refs:
            if args.examples in TITLED_STYLES and not r.title:
                continue
            e = entries.get(r.key)
            bad = [f for f, ok in score(r, e, args.examples).items() if not ok]
            if bad:
                print(f"\n- {r.key} {bad}\n    {r.shown[args.examples]}")
                if e is not None:
                    print(f"    read: {dict(e.fields)}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
