"""Deterministic development benchmark built from real records of the shared corpus.

Every case is a citation of a real work of the INSPIRE literature dump, written
in one of four physicists' styles, either left correct (EXACT), corrupted in
one or two fields (MINOR) or replaced by a fabrication (MAJOR).

Styles
    ``inspire``  INSPIRE BibTeX export (``Family, Given``, ``Phys.Rev.D``, eprint)
    ``ads``      NASA-ADS export (``{Family}, G.``, AAS macros like ``\\prd``)
    ``hand``     hand-written BibTeX (``G. Family``, full journal names, DOI as URL,
                 page ranges, accents and math in LaTeX)
    ``aps``      title-less APS/revtex style: authors, journal, volume, page, year
                 (+ DOI when the work has one)

MINOR corruption kinds (each names the field a checker must report)
    year (±1-3, never the preprint or publication year), author_misspelt,
    author_dropped, author_added, author_swapped, initial_changed,
    title_word (a content word replaced), doi_digit, arxiv_wrong (last digits
    changed), volume, pages, journal (another real journal)

MAJOR fabrication kinds
    fabricated  title spliced from two unrelated real titles, authors drawn
                from other papers, plausible journal/volume/page
    chimera     a real title (or a real journal reference in ``aps`` style) with
                the authors of another paper
    hijacked    a real DOI or arXiv id of a work with a fabricated title and
                fabricated authors

The split is by a hash of the case id: ``dev`` (calibration) and ``validation``.
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from dataclasses import dataclass, field

from bench import paths

SHARED = paths.SHARED
INSPIRE_DUMP = SHARED / "corpus" / "dumps" / "inspire_literature.jsonl"
ARXIV_DUMP = SHARED / "corpus" / "dumps" / "arxiv_metadata_snapshot.jsonl"
HEPML = SHARED / "corpus" / "bib" / "HEPML.bib"

SEED = 20260601

MINOR_KINDS = ("year", "author_misspelt", "author_dropped", "author_added", "author_swapped",
               "initial_changed", "title_word", "doi_digit", "arxiv_wrong", "volume", "pages",
               "journal")
MAJOR_KINDS = ("fabricated", "chimera", "hijacked")
STYLES = ("inspire", "ads", "hand", "aps")

#: The field a checker must report for each corruption kind.
KIND_FIELD = {
    "year": "year", "author_misspelt": "author", "author_dropped": "author",
    "author_added": "author", "author_swapped": "author", "initial_changed": "author",
    "title_word": "title", "doi_digit": "doi", "arxiv_wrong": "eprint", "volume": "volume",
    "pages": "pages", "journal": "journal",
}

_FULL_JOURNAL = {
    "Phys.Rev.D": "Physical Review D", "Phys.Rev.C": "Physical Review C",
    "Phys.Rev.Lett.": "Physical Review Letters", "Phys.Lett.B": "Physics Letters B",
    "Nucl.Phys.B": "Nuclear Physics B", "Nucl.Phys.A": "Nuclear Physics A",
    "JHEP": "Journal of High Energy Physics", "Eur.Phys.J.C": "European Physical Journal C",
    "Astrophys.J.": "The Astrophysical Journal",
    "Mon.Not.Roy.Astron.Soc.": "Monthly Notices of the Royal Astronomical Society",
    "Class.Quant.Grav.": "Classical and Quantum Gravity",
    "Prog.Theor.Phys.": "Progress of Theoretical Physics",
    "Nucl.Instrum.Meth.A": "Nuclear Instruments and Methods in Physics Research A",
    "JINST": "Journal of Instrumentation", "Rev.Sci.Instrum.": "Review of Scientific Instruments",
}
_ADS_MACRO = {
    "Phys.Rev.D": r"\prd", "Phys.Rev.C": r"\prc", "Phys.Rev.Lett.": r"\prl",
    "Astrophys.J.": r"\apj", "Mon.Not.Roy.Astron.Soc.": r"\mnras", "Nucl.Phys.A": r"\nphysa",
}
_SPACED = re.compile(r"\.(?=[A-Z])")


@dataclass
class Work:
    """A real work of the INSPIRE dump (the ground truth of a case)."""

    recid: str
    title: str
    authors: list[tuple[str, str]]  # (family, given)
    year: str
    years: set[str]
    journal: str = ""
    volume: str = ""
    page: str = ""
    page_end: str = ""
    doi: str = ""
    arxiv: str = ""
    collaboration: str = ""
    texkey: str = ""


@dataclass
class Case:
    """One benchmark citation."""

    case_id: str
    split: str
    label: str  # EXACT | MINOR | MAJOR
    kind: str  # exact | a MINOR kind | a MAJOR kind
    style: str
    work: Work  # what the citation is rendered from (after corruption)
    truth_recid: str  # the real work meant ("" for MAJOR)
    expected: dict[str, str] = field(default_factory=dict)  # field -> correct value (MINOR)


def _year_from_arxiv(arxiv: str) -> str:
    m = re.match(r"^(\d\d)(\d\d)\.", arxiv) or re.search(r"/(\d\d)(\d\d)\d+$", arxiv)
    if not m:
        return ""
    yy = int(m.group(1))
    return str(1900 + yy if yy > 90 else 2000 + yy)


def load_works(limit: int | None = None) -> list[Work]:
    """Works of the INSPIRE dump usable as citation targets."""
    works: list[Work] = []
    with INSPIRE_DUMP.open(encoding="utf-8") as f:
        for line in f:
            md = json.loads(line)["metadata"]
            titles = md.get("titles") or []
            title = titles[0].get("title", "") if titles else ""
            authors = [(a.get("last_name") or a.get("full_name", "").split(",")[0],
                        a.get("first_name", "")) for a in md.get("authors") or []]
            authors = [(fam.strip(), giv.strip()) for fam, giv in authors if fam.strip()]
            if len(title) < 20 or not authors:
                continue
            pubs = [p for p in md.get("publication_info") or []
                    if p.get("journal_title") and p.get("journal_volume")
                    and (p.get("page_start") or p.get("artid"))]
            arxiv = ""
            if md.get("arxiv_eprints"):
                arxiv = md["arxiv_eprints"][0].get("value", "")
            if not pubs and not arxiv:
                continue
            years: set[str] = set()
            pyear = ""
            if pubs and pubs[0].get("year"):
                pyear = str(pubs[0]["year"])
                years.add(pyear)
            pre = str(md.get("preprint_date") or md.get("earliest_date") or "")[:4]
            if pre:
                years.add(pre)
            if arxiv and _year_from_arxiv(arxiv):
                years.add(_year_from_arxiv(arxiv))
            year = pyear or pre
            if not year:
                continue
            dois = md.get("dois") or []
            collabs = md.get("collaborations") or []
            w = Work(
                recid=str(md["control_number"]), title=title, authors=authors, year=year,
                years=years, doi=dois[0]["value"] if dois else "", arxiv=arxiv,
                collaboration=collabs[0].get("value", "") if collabs else "",
                texkey=(md.get("texkeys") or [""])[0],
            )
            if pubs:
                p = pubs[0]
                w.journal = p["journal_title"]
                w.volume = str(p["journal_volume"])
                w.page = str(p.get("page_start") or p.get("artid"))
                w.page_end = str(p.get("page_end") or "")
            works.append(w)
            if limit and len(works) >= limit:
                break
    return works


# ------------------------------------------------------------------ corruptions


def _misspell(name: str, rng: random.Random) -> str:
    letters = [i for i, ch in enumerate(name) if ch.isalpha() and ch.islower()]
    if len(name) < 4 or not letters:
        return name + "s"
    i = rng.choice(letters[1:] or letters)
    op = rng.choice(("swap", "replace", "drop", "double"))
    if op == "swap" and i + 1 < len(name) and name[i + 1].isalpha() and name[i + 1] != name[i]:
        return name[:i] + name[i + 1] + name[i] + name[i + 2:]
    if op == "drop" and len(name) > 5:
        return name[:i] + name[i + 1:]
    if op == "double":
        return name[:i] + name[i] + name[i:]
    repl = rng.choice([c for c in "aeioulnrst" if c != name[i]])
    return name[:i] + repl + name[i + 1:]


def _change_digit(s: str, rng: random.Random) -> str:
    idx = [i for i, ch in enumerate(s) if ch.isdigit()]
    if not idx:
        return s + "1"
    i = rng.choice(idx[-3:])
    d = str((int(s[i]) + rng.randint(1, 8)) % 10)
    return s[:i] + d + s[i + 1:]


_STOP = {"the", "of", "and", "in", "a", "an", "for", "on", "to", "with", "at", "by", "from"}


def _title_word(title: str, vocab: list[str], rng: random.Random) -> str:
    words = title.split()
    idx = [i for i, w in enumerate(words) if w.isalpha() and len(w) > 3 and w.lower() not in _STOP]
    if not idx:
        return title + " Revisited"
    i = rng.choice(idx)
    new = rng.choice([v for v in vocab if v.lower() != words[i].lower()])
    if words[i][0].isupper():
        new = new[:1].upper() + new[1:]
    words[i] = new
    return " ".join(words)


def _copy(w: Work, **kw: object) -> Work:
    d = dict(w.__dict__)
    d["authors"] = list(w.authors)
    d["years"] = set(w.years)
    d.update(kw)
    return Work(**d)  # type: ignore[arg-type]


def _listed(w: Work) -> int:
    """How many authors a citation lists (the rest become "and others")."""
    return len(w.authors) if len(w.authors) <= 6 else 1


def corrupt(w: Work, kind: str, style: str, pool: list[Work], vocab: list[str],
            journals: list[str], rng: random.Random) -> tuple[Work, dict[str, str]] | None:
    """A MINOR corruption of ``w`` and the expected corrections, or None when
    the kind does not apply to this work/style."""
    n = _listed(w)
    if kind.startswith("author") or kind == "initial_changed":
        if w.collaboration:
            return None
    if style == "aps" and kind in ("arxiv_wrong", "doi_digit") and not w.journal:
        return None  # nothing else to find a title-less citation by
    if kind == "year":
        cands = [str(int(w.year) + d) for d in (-3, -2, -1, 1, 2, 3)]
        cands = [y for y in cands if y not in w.years]
        y = rng.choice(cands)
        return _copy(w, year=y, years={y}), {"year": w.year}
    if kind in ("author_misspelt", "initial_changed") and w.collaboration and n == 1:
        return None
    if kind == "author_misspelt":
        i = rng.randrange(n)
        fam, giv = w.authors[i]
        new = _misspell(fam, rng)
        if new.lower() == fam.lower():
            return None
        authors = list(w.authors)
        authors[i] = (new, giv)
        return _copy(w, authors=authors), {"author": fam}
    if kind == "initial_changed":
        i = rng.randrange(n)
        fam, giv = w.authors[i]
        if not giv or not giv[0].isalpha():
            return None
        letter = rng.choice([c for c in "ABCDEFGHJKLMNPRSTVW" if c != giv[0].upper()])
        authors = list(w.authors)
        authors[i] = (fam, letter + ".")
        return _copy(w, authors=authors), {"author": fam}
    if kind == "author_dropped":
        if not 2 <= len(w.authors) <= 6:
            return None
        i = rng.randrange(len(w.authors))
        authors = [a for j, a in enumerate(w.authors) if j != i]
        return _copy(w, authors=authors), {"author": w.authors[i][0]}
    if kind == "author_added":
        if len(w.authors) > 6:
            return None
        other = rng.choice(pool)
        extra = other.authors[rng.randrange(len(other.authors))]
        if any(a[0] == extra[0] for a in w.authors):
            return None
        authors = list(w.authors)
        authors.insert(rng.randint(1, len(authors)), extra)
        return _copy(w, authors=authors), {"author": extra[0]}
    if kind == "author_swapped":
        if not 2 <= len(w.authors) <= 6:
            return None
        i = rng.randrange(len(w.authors) - 1)
        authors = list(w.authors)
        authors[i], authors[i + 1] = authors[i + 1], authors[i]
        if authors[i][0] == authors[i + 1][0]:
            return None
        return _copy(w, authors=authors), {"author": w.authors[i][0]}
    if kind == "title_word":
        if style == "aps":
            return None
        new = _title_word(w.title, vocab, rng)
        return _copy(w, title=new), {"title": w.title}
    if kind == "doi_digit":
        if not w.doi:
            return None
        new = _change_digit(w.doi, rng)
        return (_copy(w, doi=new), {"doi": w.doi}) if new != w.doi else None
    if kind == "arxiv_wrong":
        if not w.arxiv:
            return None
        new = _change_digit(w.arxiv, rng)
        return (_copy(w, arxiv=new), {"eprint": w.arxiv}) if new != w.arxiv else None
    if kind in ("volume", "pages", "journal"):
        if not w.journal or (style == "aps" and not (w.doi or w.arxiv)):
            return None  # a title-less citation with a wrong pubnote has nothing to find it by
        if kind == "volume":
            digits = re.sub(r"\D", "", w.volume)
            if not digits:
                return None
            new_v = str(max(1, int(digits) + rng.choice((-3, -2, -1, 1, 2, 5))))
            return _copy(w, volume=new_v), {"volume": w.volume}
        if kind == "pages":
            digits = re.sub(r"\D", "", w.page)
            if not digits or len(digits) > 7:
                return None
            new_p = str(int(digits) + rng.choice((-40, -7, 3, 11, 100)))
            if int(new_p) <= 0:
                return None
            return _copy(w, page=new_p, page_end=""), {"pages": w.page}
        other = rng.choice([j for j in journals if j != w.journal])
        return _copy(w, journal=other), {"journal": w.journal}
    raise ValueError(kind)


_SYLL = ["ka", "ren", "vo", "li", "mar", "to", "sen", "dra", "quel", "bi", "nor", "ha", "zu",
         "tem", "gra", "fel", "os", "ri", "dan", "mek"]


def _fake_name(rng: random.Random) -> tuple[str, str]:
    fam = "".join(rng.choice(_SYLL) for _ in range(rng.randint(2, 3))).capitalize()
    return fam, rng.choice("ABCDEGHJKLMNPRSTV") + "."


def fabricate(w: Work, kind: str, style: str, pool: list[Work],
              rng: random.Random) -> Work | None:
    """A MAJOR fabrication seeded by ``w`` (which it must not describe)."""
    other = rng.choice(pool)
    third = rng.choice(pool)
    if other.recid == w.recid or third.recid == w.recid:
        return None
    if kind == "fabricated":
        if style == "aps" and not w.journal:
            return None
        ta, tb = w.title.split(), other.title.split()
        title = " ".join(ta[: max(2, len(ta) // 2)] + tb[len(tb) // 2:])
        authors = [third.authors[0], _fake_name(rng)] + list(other.authors[1:2])
        return Work(recid="", title=title, authors=authors, year=str(int(w.year) + rng.randint(-2, 2)),
                    years=set(), journal=w.journal, volume=str(int(re.sub(r"\D", "", w.volume) or 1) + 7)
                    if w.journal else "", page=str(rng.randint(100, 9999)) if w.journal else "")
    if kind == "chimera":
        if style == "aps" and not w.journal:
            return None
        authors = list(other.authors[: min(4, len(other.authors))])
        if {a[0] for a in authors} & {a[0] for a in w.authors}:
            return None
        return _copy(w, authors=authors, collaboration="", doi="", arxiv="", recid="")
    if kind == "hijacked":
        if not (w.doi or w.arxiv):
            return None
        ta, tb = other.title.split(), third.title.split()
        title = " ".join(ta[: max(2, len(ta) // 2)] + tb[len(tb) // 2:])
        authors = [_fake_name(rng), third.authors[0]]
        return Work(recid="", title=title, authors=authors, year=w.year, years=set(),
                    doi=w.doi, arxiv=w.arxiv if not w.doi or rng.random() < 0.5 else "")
    raise ValueError(kind)


def _split(case_id: str) -> str:
    h = int(hashlib.sha256(case_id.encode()).hexdigest()[:8], 16)
    return "dev" if h % 2 == 0 else "validation"


def build_cases(per_class: int = 300, seed: int = SEED) -> list[Case]:
    """``per_class`` cases of each label, deterministic for a given seed."""
    rng = random.Random(seed)
    works = load_works()
    works.sort(key=lambda w: w.recid)
    pool = [w for w in works if len(w.authors) <= 30]
    vocab = sorted({t for w in pool[:3000] for t in w.title.split()
                    if t.isalpha() and len(t) > 4 and t.islower()})
    journals = sorted({w.journal for w in pool if w.journal})
    cases: list[Case] = []
    used: set[str] = set()

    def pick() -> Work:
        while True:
            w = rng.choice(pool)
            if w.recid not in used:
                used.add(w.recid)
                return w

    n = 0
    while sum(c.label == "EXACT" for c in cases) < per_class:
        w = pick()
        style = STYLES[n % 4]
        n += 1
        cid = f"exact-{n:04d}"
        cases.append(Case(cid, _split(cid), "EXACT", "exact", style, w, w.recid))
    k = 0
    while sum(c.label == "MINOR" for c in cases) < per_class:
        w = pick()
        kind = MINOR_KINDS[k % len(MINOR_KINDS)]
        style = STYLES[(k // len(MINOR_KINDS)) % 4]
        k += 1
        got = corrupt(w, kind, style, pool, vocab, journals, rng)
        if got is None:
            continue
        cw, expected = got
        cid = f"minor-{k:04d}"
        cases.append(Case(cid, _split(cid), "MINOR", kind, style, cw, w.recid, expected))
    k = 0
    while sum(c.label == "MAJOR" for c in cases) < per_class:
        w = pick()
        kind = MAJOR_KINDS[k % len(MAJOR_KINDS)]
        style = STYLES[(k // len(MAJOR_KINDS)) % 4]
        k += 1
        fw = fabricate(w, kind, style, pool, rng)
        if fw is None:
            continue
        cid = f"major-{k:04d}"
        cases.append(Case(cid, _split(cid), "MAJOR", kind, style, fw, ""))
    return cases


# ------------------------------------------------------------------ rendering


def _spaced(journal: str) -> str:
    """``Phys.Rev.D`` -> ``Phys. Rev. D`` (the INSPIRE BibTeX spelling)."""
    return _SPACED.sub(". ", journal)


def _initials(given: str) -> str:
    parts = [p for p in re.split(r"[\s.]+", given) if p and not p.islower()]
    return " ".join(p[0] + "." for p in parts if p[0].isalpha())


def _particle(given: str) -> str:
    """Lower-case particles INSPIRE keeps in the given name ("Marcelo C. de" -> "de")."""
    return " ".join(p for p in given.split() if p.islower() and p.isalpha())


def _family(fam: str, given: str) -> str:
    part = _particle(given)
    return f"{part} {fam}" if part else fam


def _esc(text: str) -> str:
    return text.replace("&", r"\&") if "\\&" not in text else text


def _author_field(c: Case) -> str:
    w = c.work
    listed = w.authors if len(w.authors) <= 6 else w.authors[:1]
    more = len(w.authors) > 6
    if c.style == "inspire":
        names = [f"{f}, {g}".strip().rstrip(",") for f, g in listed]
    elif c.style == "ads":
        names = ["{" + _family(f, g) + "}" + (", " + _initials(g).replace(". ", ".~")
                                              if _initials(g) else "")
                 for f, g in listed]
    else:
        names = [(_initials(g) + " " + _family(f, g)).strip() for f, g in listed]
    if more and w.collaboration and c.style in ("inspire", "hand"):
        return "{" + w.collaboration + " Collaboration}" if c.style == "hand" else \
            " and ".join(names) + " and others"
    return " and ".join(names) + (" and others" if more else "")


def _journal_field(c: Case) -> str:
    j = c.work.journal
    if c.style == "inspire" or c.style == "aps":
        return _spaced(j)
    if c.style == "ads":
        return _ADS_MACRO.get(j, _spaced(j))
    return _FULL_JOURNAL.get(j, _spaced(j))


def bib_fields(c: Case) -> dict[str, str]:
    """The BibTeX fields of a case, in its style."""
    w = c.work
    f: dict[str, str] = {"author": _author_field(c)}
    if c.style != "aps":
        f["title"] = "{" + _esc(w.title) + "}"
    if w.journal:
        f["journal"] = _journal_field(c)
        f["volume"] = w.volume
        pages = w.page
        if c.style == "hand" and w.page_end:
            pages = f"{w.page}--{w.page_end}"
        f["pages"] = pages
    f["year"] = w.year
    if w.doi:
        f["doi"] = f"https://doi.org/{w.doi}" if c.style == "hand" else w.doi
    if w.arxiv and c.style != "aps":
        if c.style == "ads":
            f["eprint"] = f"arXiv:{w.arxiv}" if "/" not in w.arxiv else w.arxiv
        else:
            f["eprint"] = w.arxiv
            f["archivePrefix"] = "arXiv"
    elif w.arxiv and c.style == "aps":
        f["eprint"] = w.arxiv
    return f


def render_bib(cases: list[Case]) -> str:
    """All cases as one .bib file (key = case id)."""
    out = []
    for c in cases:
        f = bib_fields(c)
        etype = "article" if c.work.journal else "misc"
        body = ",\n".join(f"    {k} = {{{v}}}" if not v.startswith("{") or k == "author"
                          else f"    {k} = {v}" for k, v in f.items())
        out.append(f"@{etype}{{{c.case_id},\n{body}\n}}\n")
    return "\n".join(out)


def _bbl_authors(c: Case) -> str:
    w = c.work
    listed = w.authors if len(w.authors) <= 6 else w.authors[:1]
    if len(w.authors) > 6 and w.collaboration:
        return (r"\bibinfo {author} {\bibnamefont {" + w.collaboration + r" Collaboration}}")
    parts = [r"\bibinfo {author} {\bibfnamefont {" + _initials(g).replace(" ", "~") +
             r"}~\bibnamefont {" + _family(f, g) + "}}" for f, g in listed]
    if len(w.authors) > 6:
        return parts[0] + r" \emph {et~al.}"
    if len(parts) == 1:
        return parts[0]
    if len(parts) == 2:
        return parts[0] + r" \protect \BibitemShut {Soft}\ and\ " + parts[1]
    return r",\ ".join(parts[:-1]) + r",\ and\ " + parts[-1]


def render_bbl(cases: list[Case]) -> str:
    """All cases as a revtex-4.2 style .bbl (``\\bibitem`` with ``\\bibinfo``)."""
    out = [r"\begin{thebibliography}{" + str(len(cases)) + "}",
           r"\makeatletter", r"\providecommand \@ifxundefined [1]{%",
           r" \@ifx{#1\undefined}", r"}%", r"\makeatother",
           r"\providecommand \bibinfo [2]{#2}", r"\providecommand \bibfield [2]{#2}",
           r"\providecommand \BibitemOpen {}", r"\providecommand \BibitemShut [1]{}",
           r"\providecommand \eprint [2][]{\url {#2}}", ""]
    for c in cases:
        w = c.work
        fam0 = w.authors[0][0] if w.authors else "Anon"
        parts = [r"\bibitem [{\citenamefont {" + fam0 + "}(" + w.year + ")}]{" + c.case_id + "}%",
                 r"  \BibitemOpen",
                 r"  \bibfield  {author} {" + _bbl_authors(c) + r"},\ "]
        if c.style != "aps":
            parts.append(r"  \bibfield  {title} {\bibinfo {title} {" + _esc(w.title) + r"}},\ ")
        if w.journal:
            pub = (r"\bibfield  {journal} {\bibinfo  {journal} {" + _spaced(w.journal) +
                   r"}\ }\textbf {\bibinfo {volume} {" + w.volume + r"}},\ \bibinfo {pages} {"
                   + w.page + r"} (\bibinfo {year} {" + w.year + "})")
            if w.doi:
                pub = r"\href {https://doi.org/" + w.doi + "} {" + pub + "}"
            parts.append("  " + pub)
        else:
            parts.append(r"  \bibinfo {year} {" + w.year + "}")
            if w.doi:
                parts.append(r"  \href {https://doi.org/" + w.doi + r"} {\bibinfo {doi} {"
                             + w.doi + "}}")
        if w.arxiv:
            parts.append(r"  , \Eprint {https://arxiv.org/abs/" + w.arxiv + "} {arXiv:"
                         + w.arxiv + "}")
        parts.append(r"  \BibitemShut {NoStop}%")
        out.append("\n".join(parts))
    out.append(r"\end{thebibliography}")
    return "\n".join(out) + "\n"
