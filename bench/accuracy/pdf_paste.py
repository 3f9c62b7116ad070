"""Reference lists pasted from a compiled PDF, checked against the real records.

    python -m bench.accuracy.pdf_paste [--styles plain,apsrev4-2,...] [--modes raw,layout]
                                       [--keep DIR]

What an author gets by copying the References section of a compiled paper: the sample
papers' ``refs.bib`` (see :mod:`bench.accuracy.bst_styles`) is cited with ``\\nocite{*}``,
typeset by the real ``pdflatex`` + ``bibtex`` with a common style in its own class
(revtex4-2, elsarticle, mnras; plain ``article`` + natbib where the style needs it), and
the PDF's text is extracted by a real extractor (poppler's ``pdftotext``, with and
without ``-layout``; else ``pdfminer.six``'s ``pdf2txt.py``). The text is kept as it
comes: line breaks inside references, words hyphenated across lines, page numbers and
running headers, ``[12]`` labels. It is saved as ``refs.txt`` and checked offline as a
user checks it (``citecheck-tex refs.txt --offline --index ... --index-complete``).

A .txt list is keyed by item number (``[12]`` -> ``12``; unnumbered lists by position);
item *n* is mapped back to the *n*-th ``\\bibitem`` of the ``.bbl`` (the order the PDF
prints). Scores are those of :mod:`bench.accuracy.bst_styles` (false flags on faithful
entries, fabricated caught, corrupted caught, unverified) plus **lost**: entries of the
.bbl that no item of the pasted list maps to (the list was split wrongly).

Without ``pdflatex``/``bibtex`` or an extractor the benchmark says so and ends.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench.accuracy.bst_styles import PAPERS, StyleScore, sample_index, score_entries, table
from bench.paths import REPO

COMMAND = ".venv/bin/python -m bench.accuracy.pdf_paste"


@dataclass(frozen=True)
class Setup:
    """A style and the document it is typeset in."""

    style: str
    documentclass: str
    preamble: str = ""


#: The common physics styles, each in the class a user would typeset it with (plain
#: ``article`` + natbib where the style needs natbib and its class is not the point).
SETUPS = (
    Setup("plain", "article"),
    Setup("unsrt", "article"),
    Setup("ieeetr", "article"),
    Setup("apsrev4-2", "revtex4-2", ""),
    Setup("plainnat", "article", "\\usepackage[numbers]{natbib}"),
    Setup("elsarticle-num", "elsarticle", ""),
    Setup("naturemag", "article", "\\usepackage[numbers]{natbib}"),
    Setup("mnras", "mnras", ""),
)
MODES = ("raw", "layout")


@dataclass
class PasteScore(StyleScore):
    """One style and extraction mode over both sample papers."""

    lost: int = 0
    unnumbered: bool = False  # no "[n]"/"n." labels: the list is read one line per item


def tools() -> tuple[str, str]:
    """The extractor to use ("pdftotext" or "pdfminer") and, if none or no TeX, why not."""
    if shutil.which("pdflatex") is None or shutil.which("bibtex") is None:
        return "", "no pdflatex/bibtex (TeX Live) on this machine"
    if shutil.which("pdftotext"):
        return "pdftotext", ""
    try:
        import pdfminer.high_level  # noqa: F401
    except ImportError:
        return "", ("no PDF text extractor: apt-get install poppler-utils (pdftotext) or "
                    "pip install pdfminer.six")
    return "pdfminer", ""


def _document(setup: Setup) -> str:
    """A document that prints every entry of refs.bib in ``setup``'s style."""
    opts = "[aps,prd]" if setup.documentclass == "revtex4-2" else ""
    # url: styles print \\url for a howpublished/url field, and plain article lacks it
    return (f"\\documentclass{opts}{{{setup.documentclass}}}\n\\usepackage{{url}}\n"
            f"{setup.preamble}\n"
            "\\begin{document}\n\\nocite{*}\n"
            f"\\bibliographystyle{{{setup.style}}}\n\\bibliography{{refs}}\n\\end{{document}}\n")


def typeset(setup: Setup, bib: Path, work: Path) -> tuple[Path | None, str]:
    """The PDF of ``bib`` in ``setup`` (None and the reason if it was not made)."""
    shutil.copy(bib, work / "refs.bib")
    (work / "paper.tex").write_text(_document(setup), encoding="utf-8")
    latex = ["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "paper"]
    try:
        for cmd in (latex, ["bibtex", "-terse", "paper"], latex, latex):
            # bibtex exit 2 (errors in some entries) still writes the .bbl a user typesets
            subprocess.run(cmd, cwd=work, capture_output=True, timeout=120)
    except (OSError, subprocess.TimeoutExpired) as exc:
        return None, f"{exc}"
    pdf = work / "paper.pdf"
    if not pdf.is_file() or not (work / "paper.bbl").is_file():
        return None, "pdflatex/bibtex made no PDF"
    return pdf, ""


def extract(pdf: Path, mode: str, extractor: str) -> str:
    """The text of ``pdf`` (``mode`` "layout" keeps the columns, "raw" reads in order)."""
    if extractor == "pdftotext":
        cmd = ["pdftotext", "-enc", "UTF-8"] + (["-layout"] if mode == "layout" else [])
        done = subprocess.run(cmd + [str(pdf), "-"], capture_output=True, timeout=60)
        return done.stdout.decode("utf-8", "replace")
    from pdfminer.high_level import extract_text
    from pdfminer.layout import LAParams

    return str(extract_text(str(pdf), laparams=LAParams(boxes_flow=None if mode == "layout"
                                                        else 0.5)))


def bbl_keys(bbl: str) -> list[str]:
    """The ``\\bibitem`` keys of a .bbl in print order."""
    return re.findall(r"\\bibitem\s*(?:\[(?:[^\[\]]|\[[^\]]*\])*\])?\s*\{([^}]*)\}", bbl)


def run(setups: list[Setup], modes: list[str], index: Path, extractor: str,
        keep: Path | None = None) -> list[PasteScore]:
    """Score every style and mode (see the module's doc)."""
    from bench.accuracy.bst_styles import check_file

    expected = {p: json.loads((REPO / "sample_papers" / p / "expected.json")
                              .read_text(encoding="utf-8"))["labels"] for p in PAPERS}
    scores = {(s.style, m): PasteScore(f"{s.style} {m}") for s in setups for m in modes}
    with tempfile.TemporaryDirectory(prefix="pdf_paste_") as tmp:
        for setup in setups:
            for paper in PAPERS:
                work = Path(tmp) / setup.style / paper
                work.mkdir(parents=True)
                pdf, why = typeset(setup, REPO / "sample_papers" / paper / "refs.bib", work)
                if pdf is None:
                    for m in modes:
                        scores[setup.style, m].failed = why
                    continue
                keys = bbl_keys((work / "paper.bbl").read_text(encoding="utf-8",
                                                               errors="replace"))
                for mode in modes:
                    sc = scores[setup.style, mode]
                    if sc.failed:
                        continue
                    txt = work / f"refs-{mode}.txt"
                    txt.write_text(extract(pdf, mode, extractor), encoding="utf-8")
                    if keep is not None:
                        (keep / setup.style).mkdir(parents=True, exist_ok=True)
                        shutil.copy(txt, keep / setup.style / f"{paper}-{mode}.txt")
                    sc.unnumbered |= not re.search(r"^\s*(?:\[\d+\]|\d+\.)\s", txt.read_text(
                        encoding="utf-8"), re.M)
                    got = check_file(txt, index, work / f"out-{mode}")
                    by_key = {}
                    for n, key in enumerate(keys, start=1):
                        entry = got.get(str(n))
                        if entry is None:
                            sc.lost += expected[paper].get(key, "SKIPPED") != "SKIPPED"
                        else:
                            by_key[key] = entry
                    score_entries(sc, by_key, expected[paper])
    return list(scores.values())


def main(argv: list[str] | None = None) -> int:
    """Typeset, extract, check and print the table."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--styles", help="comma-separated styles (default: "
                    + ",".join(s.style for s in SETUPS) + ")")
    ap.add_argument("--modes", default=",".join(MODES), help="raw,layout (pdftotext -layout)")
    ap.add_argument("--keep", type=Path, help="write each extracted refs.txt here")
    args = ap.parse_args(argv)
    extractor, why = tools()
    if not extractor:
        print(f"pdf_paste: {why}: not run")
        return 0
    wanted = args.styles.split(",") if args.styles else [s.style for s in SETUPS]
    setups = [s for s in SETUPS if s.style in wanted]
    modes = args.modes.split(",")
    with tempfile.TemporaryDirectory(prefix="pdf_paste_index_") as tmp:
        index = sample_index(Path(tmp) / "index.sqlite")
        scores = run(setups, modes, index, extractor, args.keep)
    print(f"## Reference lists pasted from PDFs ({extractor}; `bench.accuracy.pdf_paste`)"
          f"\n\n    {COMMAND}\n")
    print(table(scores, what="style/extraction pairs", failed_as="Not typeset",
                floor_note=False))
    loose = [s.style for s in scores if s.unnumbered]
    if loose:
        print("\nUnnumbered lists (split where a reference begins, items mapped by position: "
              "a wrong split makes these rows compare misaligned items): " + ", ".join(loose))
    print("\nLost (faithful or planted entries no pasted item maps to): "
          + (", ".join(f"{s.style} {s.lost}" for s in scores if s.lost) or "none"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
