"""Real biber .bbl files from biblatex styles of TeX Live, checked against the real records.

    python -m bench.accuracy.biber_styles [--styles numeric,apa,...] [--all] [--keep DIR]
    python -m bench.accuracy.biber_styles --world [--styles numeric,apa,...]

The companion of ``bench.accuracy.bst_styles`` for biblatex. The sample papers'
``refs.bib`` (57 entries: 35 faithful, 14 with a planted wrong field, 6 fabricated or
chimeras, 2 not checkable; ``sample_papers/*/PLANTED.md``) are cited with ``\\nocite{*}``
in a one-page ``article`` that loads ``biblatex`` with ``backend=biber,style=STYLE``;
one ``pdflatex`` pass writes the .bcf, the real ``biber`` writes the .bbl (the style's
own data model, sorting and name options; nothing rewritten), and the .bbl is checked
offline against the sample papers' real INSPIRE/arXiv records (``--index-complete``,
shipped defaults), exactly as a user runs ``citecheck-tex paper.bbl``. The first row,
``(refs.bib)``, checks the same ``refs.bib`` directly: the baseline a .bbl should reach.

Columns as in ``bst_styles``: **false flags** (faithful entries reported MINOR or
MAJOR; must be 0), **fabricated caught**, **corrupted caught** and **unverified**.

A biber .bbl holds the fields themselves, not a printed reference, so the style changes
little in it (sorting, labels, the data model of styles such as apa or ieee, name
options); the default set is the standard styles and the common publishers' ones,
``--all`` typesets every ``.bbx`` TeX Live installs (``kpsewhich``/``find``; helper
files such as ``standard.bbx`` or ``ext-standard.bbx`` are not styles, and ``style=``
wants a ``.cbx`` too: those stop in ``pdflatex`` and are listed apart with the reason).
Run without TeX Live (no ``biber``), the benchmark says so and ends.

Part two (skipped with ``--no-corpus``), as ``bst_styles``' part two: the shared
corpus's real ``HEPML.bib`` (INSPIRE), ``lsst_refs_ads.bib`` (ADS) and ``lsst_refs.bib``
(hand-written) through biber with ``numeric``, ``authoryear`` and ``apa``, each .bbl
checked against an index of its own .bib: an entry EXACT from the .bib and MINOR/MAJOR
from the .bbl is a false flag.

``--world``: the sample papers are few and tidy, so a second measure uses real
records. The correct citations of ``real_judged`` part B (300 records of the world
index written as INSPIRE, ADS, hand-written, minimal and APS BibTeX) and its 305 real
references of part A (as .bib) are typeset by biber, and each entry's label from the
.bbl is compared with its label from the .bib (index complete). A .bbl holds the .bib's
fields, so the labels must agree: **new flags** (EXACT from the .bib, MINOR/MAJOR from
the .bbl) are false flags the .bbl reader adds; **lost flags** (the reverse) are errors
it hides. Keys biber cannot read (``D'Auria:1993fi``: biber stops on the whole file)
are left out and counted.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from bench.accuracy import bst_styles
from bench.accuracy.bst_styles import PAPERS, StyleScore, check_file, sample_index, score_entries
from bench.paths import REPO

LATEX_ROOT = Path("/usr/share/texlive/texmf-dist/tex/latex")
COMMAND = ".venv/bin/python -m bench.accuracy.biber_styles"
BASELINE = "(refs.bib)"
#: The styles checked by default: biblatex's standard styles and the common publishers'
#: and societies' ones (a name not installed is listed as failed, not skipped silently).
STANDARD = ("numeric", "numeric-comp", "numeric-verb", "alphabetic", "authoryear",
            "authoryear-comp", "authortitle", "verbose", "reading", "draft", "ieee", "phys",
            "nature", "science", "apa", "chem-acs", "chem-angew", "chem-rsc", "chem-biochem",
            "mla", "chicago-authordate", "vancouver", "nejm", "lncs", "iso-numeric",
            "gb7714-2015", "ext-numeric", "ext-authoryear", "ext-alphabetic")
TEX = ("\\documentclass{article}\n\\usepackage[backend=biber,style=%s%s]{biblatex}\n"
       "\\addbibresource{refs.bib}\n\\begin{document}\n\\nocite{*}\n\\printbibliography\n"
       "\\end{document}\n")


def all_styles() -> list[str]:
    """Every biblatex bibliography style (``.bbx``) TeX Live installs, by name."""
    if not LATEX_ROOT.is_dir():
        return []
    return sorted({p.stem for p in LATEX_ROOT.rglob("*.bbx")}, key=str.lower)


def _tail(done: subprocess.CompletedProcess[str], marker: str) -> str:
    """The first line of a tool's output that says what went wrong (else the last)."""
    lines = [x for x in done.stdout.splitlines() if x.strip()]
    hit = [x for x in lines if marker in x]
    return ((hit or lines or ["no output"])[0]).strip()[:90]


def biber_bbl(style: str, bib: Path, work: Path, options: str = "") -> tuple[Path | None, str]:
    """The .bbl biber writes for every entry of ``bib`` under ``style`` and the further
    biblatex ``options`` ("safeinputenc,useprefix=true") (None and the reason if it
    writes none): one pdflatex pass for the .bcf, then biber."""
    work.mkdir(parents=True, exist_ok=True)
    shutil.copy(bib, work / "refs.bib")
    (work / "paper.tex").write_text(TEX % (style, f",{options}" if options else ""),
                                    encoding="utf-8")
    try:
        tex = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-draftmode",
                              "-halt-on-error", "paper.tex"], cwd=work, capture_output=True,
                             text=True, timeout=120, errors="replace")
        if not (work / "paper.bcf").is_file():
            return None, f"pdflatex: {_tail(tex, '!')}"
        done = subprocess.run(["biber", "--quiet", "paper"], cwd=work, capture_output=True,
                              text=True, timeout=120, errors="replace")
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"{exc}"
    bbl = work / "paper.bbl"
    if done.returncode or not bbl.is_file() or "\\entry{" not in bbl.read_text(
            encoding="utf-8", errors="replace"):
        return None, f"biber exit {done.returncode}: {_tail(done, 'ERROR')}"
    return bbl, ""


def run(styles: list[str], index: Path, keep: Path | None = None,
        baseline: bool = True, options: str = "") -> list[StyleScore]:
    """Score every style (with the further biblatex ``options``), and first ``refs.bib``
    itself if ``baseline`` (see the module's doc)."""
    expected = {p: json.loads((REPO / "sample_papers" / p / "expected.json")
                              .read_text(encoding="utf-8"))["labels"] for p in PAPERS}
    scores = []
    with tempfile.TemporaryDirectory(prefix="biber_styles_") as tmp:
        if baseline:
            sc = StyleScore(BASELINE)
            for paper in PAPERS:
                bib = REPO / "sample_papers" / paper / "refs.bib"
                score_entries(sc, check_file(bib, index, Path(tmp) / "bib" / paper),
                              expected[paper])
            scores.append(sc)
        jobs = [(style, paper) for style in styles for paper in PAPERS]
        # typesetting is the slow part and independent per style: two at a time
        with ThreadPoolExecutor(max_workers=2) as pool:
            built = list(pool.map(lambda job: biber_bbl(
                job[0], REPO / "sample_papers" / job[1] / "refs.bib",
                Path(tmp) / job[0] / job[1], options), jobs))
        made = dict(zip(jobs, built, strict=True))
        for style in styles:
            sc = StyleScore(style)
            for paper in PAPERS:
                bbl, why = made[(style, paper)]
                if bbl is None:
                    sc.failed = why
                    break
                if keep is not None:
                    (keep / style).mkdir(parents=True, exist_ok=True)
                    shutil.copy(bbl, keep / style / f"{paper}.bbl")
                score_entries(sc, check_file(bbl, index, bbl.parent / "out"), expected[paper])
            scores.append(sc)
    return scores


#: Keys biber's BibTeX parser accepts (an apostrophe or a parenthesis stops it).
_BIBER_KEY = re.compile(r"[\w:.+/-]+")


def world_sets() -> tuple[dict[str, list[tuple[str, str]]], int]:
    """The .bib renderings of ``real_judged`` (part B styles, part A references) as
    (key, entry) lists by name, and how many were left out for their key."""
    from bench.accuracy import real_judged as rj

    works = rj.sample_works()
    sets = {f"B {s}": [rj.style_bib(w, s) for w in works] for s in rj.STYLES_BIB}
    sets["A references"] = [(r["id"], rj.render_bib(r["id"], r["raw"]))
                            for r in rj.load_references()]
    kept = {name: [(k, t) for k, t in items if _BIBER_KEY.fullmatch(k)]
            for name, items in sets.items()}
    return kept, sum(len(sets[n]) - len(kept[n]) for n in sets)


def world_agreement(styles: list[str]) -> str:
    """The --world table: per style and set, .bib labels vs biber .bbl labels."""
    from bench.accuracy import real_judged as rj

    rj.build_world()
    sets, dropped = world_sets()
    rows = ["| style | set | entries | same label | new flags (.bib EXACT) | lost flags "
            "(.bbl EXACT) | other changes |", "|---|---|---:|---:|---:|---:|---:|"]
    examples: list[str] = []
    bib_labels = {name: rj.check_bib(items, True) for name, items in sets.items()}
    with tempfile.TemporaryDirectory(prefix="biber_world_") as tmp:
        for style in styles:
            for name, items in sets.items():
                work = Path(tmp) / style / name.replace(" ", "_")
                work.mkdir(parents=True)
                (work / "world.bib").write_text("".join(t for _, t in items), encoding="utf-8")
                bbl, why = biber_bbl(style, work / "world.bib", work)
                if bbl is None:
                    rows.append(f"| {style} | {name} | not typeset: {why} | | | | |")
                    continue
                got = rj.check_bbl(bbl.read_text(encoding="utf-8"), True)
                same = new = lost = other = 0
                for key, _ in items:
                    a, b = bib_labels[name].get(key), got.get(key)
                    la = a.label.value if a else "NOT-PARSED"
                    lb = b.label.value if b else "NOT-PARSED"
                    fields = ",".join(d.field for d in b.discrepancies) if b else ""
                    if la == lb:
                        same += 1
                        continue
                    if la == "EXACT" and lb in ("MINOR", "MAJOR"):
                        new += 1
                    elif la in ("MINOR", "MAJOR") and lb == "EXACT":
                        lost += 1
                    else:
                        other += 1
                    examples.append(f"- {style} / {name} / {key}: .bib {la}, .bbl {lb} {fields}")
                rows.append(f"| {style} | {name} | {len(items)} | {same} | {new} | {lost} "
                            f"| {other} |")
    lines = [f"Real records as .bib, typeset by biber, labels from the .bbl vs from the .bib "
             f"(index complete; {dropped} entries left out for a key biber cannot read).",
             "", *rows]
    if examples:
        lines += ["", "Changed labels:", "", *examples[:40]]
        if len(examples) > 40:
            lines.append(f"- and {len(examples) - 40} more")
    return "\n".join(lines)


#: The styles of the corpus part: biber's .bbl holds the fields, so the style matters by
#: its data model (apa's moves a paper's booktitle into the journal) and name options.
CORPUS_STYLES = ("numeric", "authoryear", "apa")
#: The shared corpus's real .bib files (bst_styles' part two).
CORPUS_BIBS = ("HEPML.bib", "lsst_refs_ads.bib", "lsst_refs.bib")


def _biber_text(style: str, bib: Path, work: Path) -> tuple[str, str]:
    bbl, why = biber_bbl(style, bib, work)
    return (bbl.read_text(encoding="utf-8", errors="replace") if bbl else ""), why


def corpus(styles: list[str]) -> list[bst_styles.CorpusScore]:
    """The real corpus .bib files through biber, each .bbl checked against an index of its
    own .bib (:func:`bench.accuracy.bst_styles.corpus_run`). biber stops on a whole file
    for one key holding ``(``, ``)`` or ``'`` (lsst_refs.bib's "LL:ESA/SPC(2009)6"): such
    keys are written with ``_`` in the copy that is typeset and indexed."""
    from bench.paths import CORPUS

    with tempfile.TemporaryDirectory(prefix="biber_corpus_") as tmp:
        bibs = []
        for name in CORPUS_BIBS:
            text = (CORPUS / "bib" / name).read_text(encoding="utf-8", errors="replace")
            copy = Path(tmp) / name
            copy.write_text(re.sub(r"(?m)^(\s*@\w+\s*[{(]\s*)([^,\s]*)",
                                   lambda m: m.group(1) + re.sub(r"[()']", "_", m.group(2)),
                                   text), encoding="utf-8")
            bibs.append(copy)
        return bst_styles.corpus_run(styles, bibs, typeset=_biber_text)


def table(scores: list[StyleScore]) -> str:
    """The baseline row, the styles (false flags first), the summary and the failures."""
    return bst_styles.table(scores, what="biblatex styles", failed_as="Not typeset",
                            first=[s for s in scores if s.style == BASELINE],
                            floor_note=False, by_fields=False, failed_max=20)


def main(argv: list[str] | None = None) -> int:
    """Typeset, check and print the table."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--styles", help="comma-separated biblatex styles (default: the "
                    "standard and common publishers' ones)")
    ap.add_argument("--all", action="store_true", help="every .bbx TeX Live installs")
    ap.add_argument("--options", default="", help="further biblatex options, as in "
                    "\\usepackage[...]{biblatex} (e.g. safeinputenc,useprefix=true)")
    ap.add_argument("--world", action="store_true", help="real records as .bib: labels from "
                    "biber's .bbl vs from the .bib (default styles: numeric, apa)")
    ap.add_argument("--keep", type=Path, help="write each style's .bbl files here")
    ap.add_argument("--no-corpus", action="store_true", help="skip part two: the real "
                    "corpus .bib files (HEPML.bib, lsst_refs_ads.bib, lsst_refs.bib) through "
                    f"{', '.join(CORPUS_STYLES)}")
    args = ap.parse_args(argv)
    if shutil.which("biber") is None or shutil.which("pdflatex") is None:
        print("biber_styles: no TeX Live (pdflatex, biber, biblatex) on this machine: not run")
        return 0
    command = f"{COMMAND} {' '.join(argv if argv is not None else sys.argv[1:])}".strip()
    if args.world:
        styles = args.styles.split(",") if args.styles else ["numeric", "apa"]
        print(f"## Real records through biber: .bbl vs .bib labels (`bench.accuracy."
              f"biber_styles --world`)\n\n    {command}\n")
        print(world_agreement(styles))
        return 0
    styles = (args.styles.split(",") if args.styles
              else all_styles() if args.all else list(STANDARD))
    with tempfile.TemporaryDirectory(prefix="biber_index_") as tmp:
        index = sample_index(Path(tmp) / "index.sqlite")
        scores = run(styles, index, args.keep, options=args.options)
    print(f"## Real biber .bbl files of {len(styles)} biblatex styles (`bench.accuracy."
          f"biber_styles`)\n\n    {command}\n")
    print(table(scores))
    if not args.no_corpus:
        print(f"\n## Real .bib files through biber, each .bbl checked against an index of "
              f"its own .bib\n\n    {COMMAND}\n")
        print(bst_styles.corpus_table(corpus(list(CORPUS_STYLES))))
    return 0


if __name__ == "__main__":
    sys.exit(main())
