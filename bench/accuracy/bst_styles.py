"""Real .bbl files from every BibTeX style of TeX Live, checked against the real records.

    python -m bench.accuracy.bst_styles [--styles plain,apsrev4-2,...] [--keep DIR]
                                        [--no-corpus] [--examples N]

The sample papers' ``refs.bib`` (57 entries: 35 faithful, 14 with a planted wrong
field, 6 fabricated or chimeras, 2 not checkable; ``sample_papers/*/PLANTED.md``) are
typeset by the real ``bibtex`` with each ``.bst`` TeX Live installs (``kpsewhich``; the
styles' own output, nothing rewritten), and each ``.bbl`` is checked offline against
the sample papers' real INSPIRE/arXiv records (``--index-complete``, shipped defaults),
exactly as a user runs ``citecheck-tex paper.bbl``.

Per style:

- **false flags**: faithful entries (EXACT from the ``.bib``) reported MINOR or MAJOR:
  the style printed a correct reference and the tool called it wrong. Must be 0.
- **fabricated caught**: fabricated entries and chimeras (MAJOR from the ``.bib``)
  reported MAJOR or MINOR.
- **corrupted caught**: planted wrong fields (MINOR from the ``.bib``) reported MINOR
  or MAJOR; a style that does not print the field (a DOI, an arXiv id) cannot show the
  error, so this is a floor.
- **unverified**: faithful or planted entries left UNVERIFIED (the reading was too poor
  to decide: never a false flag, but a miss).

Part two, the real corpus (skipped with ``--no-corpus``): the shared corpus's
``HEPML.bib`` (2,423 INSPIRE-HEP exports), ``lsst_refs_ads.bib`` (448 NASA ADS
exports) and ``lsst_refs.bib`` (239 hand-written entries: ESA and Gaia technical notes,
standards, software, theses, articles) typeset by the common physics and astronomy
styles, each ``.bbl`` checked
against an index built from its own ``.bib``: every entry that is EXACT when the
``.bib`` itself is checked must stay EXACT from the ``.bbl`` (any MINOR/MAJOR is a false
flag of the ``.bbl`` reader).

Styles that ``bibtex`` stops on (exit 3, or no ``.bbl``) are listed apart; exit 2 (errors
in some entries: holography_qcd has biblatex-only fields) still writes the ``.bbl`` a user
would typeset, so it is checked. Run without TeX Live, the benchmark says so and ends.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from bench.paths import REPO

PAPERS = ("dark_matter_axions", "holography_qcd")
BST_ROOT = Path("/usr/share/texlive/texmf-dist/bibtex/bst")
COMMAND = ".venv/bin/python -m bench.accuracy.bst_styles"


@dataclass
class StyleScore:
    """One style over both sample papers."""

    style: str
    entries: int = 0
    faithful: int = 0
    false_flags: list[str] = field(default_factory=list)
    fabricated: int = 0
    fabricated_caught: int = 0
    corrupted: int = 0
    corrupted_caught: int = 0
    unverified: int = 0
    failed: str = ""


def all_styles() -> list[str]:
    """Every .bst TeX Live installs, by name (sorted, case-insensitive)."""
    found = {p.stem: p for p in BST_ROOT.rglob("*.bst")} if BST_ROOT.is_dir() else {}
    return sorted(found, key=str.lower)


def _bibtex(style: str, bib: Path, work: Path) -> tuple[str, str]:
    """The .bbl ``style`` makes of every entry of ``bib`` ("" and the reason if none)."""
    shutil.copy(bib, work / "refs.bib")
    (work / "paper.aux").write_text(
        f"\\relax\n\\citation{{*}}\n\\bibstyle{{{style}}}\n\\bibdata{{refs}}\n",
        encoding="utf-8")
    try:
        done = subprocess.run(["bibtex", "-terse", "paper"], cwd=work, capture_output=True,
                              text=True, timeout=60, errors="replace")
    except (OSError, subprocess.TimeoutExpired) as exc:
        return "", f"bibtex: {exc}"
    bbl = work / "paper.bbl"
    # exit 2: errors in some entries (holography_qcd's biblatex-only fields, "journal is a
    # missing field" in a style's code): bibtex goes on and writes the .bbl, as for a user
    if done.returncode >= 3 or not bbl.is_file() or not bbl.stat().st_size:
        last = (done.stdout.strip().splitlines() or ["no output"])[-1]
        return "", f"bibtex exit {done.returncode}: {last[:80]}"
    return bbl.read_text(encoding="utf-8", errors="replace"), ""


def check_file(path: Path, index: Path, out: Path) -> dict[str, dict[str, object]]:
    """The report.json entries of ``path`` (a .bbl or a .bib) by key: the user's command,
    offline against ``index``, in process."""
    from citecheck_tex.cli import main

    main([str(path), "--offline", "--index", str(index), "--index-complete", "--cache",
          "none", "--format", "json", "--out", str(out), "--fail-on", "never", "--quiet"])
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return {e["key"]: e for e in report["entries"]}


def score_entries(sc: StyleScore, got: dict[str, dict[str, object]],
                  expected: dict[str, str]) -> None:
    """Add one paper's report entries ``got`` to ``sc``, judged by ``expected`` (the
    labels of expected.json; SKIPPED and absent entries are not counted)."""
    for key, want in expected.items():
        entry = got.get(key)
        if entry is None or want == "SKIPPED":
            continue
        label = str(entry["label"])
        sc.entries += 1
        flagged = label in ("MINOR", "MAJOR")
        sc.unverified += label == "UNVERIFIED"
        if want == "EXACT":
            sc.faithful += 1
            if flagged:
                sc.false_flags.append(f"{key} {label} "
                                      + ",".join(str(d["field"]) for d in
                                                 entry.get("discrepancies", [])))
        elif want == "MAJOR":
            sc.fabricated += 1
            sc.fabricated_caught += flagged
        else:
            sc.corrupted += 1
            sc.corrupted_caught += flagged


def run(styles: list[str], index: Path, keep: Path | None = None) -> list[StyleScore]:
    """Score every style (see the module's doc)."""
    expected = {p: json.loads((REPO / "sample_papers" / p / "expected.json")
                              .read_text(encoding="utf-8"))["labels"] for p in PAPERS}
    scores = []
    with tempfile.TemporaryDirectory(prefix="bst_styles_") as tmp:
        for style in styles:
            sc = StyleScore(style)
            for paper in PAPERS:
                work = Path(tmp) / style / paper
                work.mkdir(parents=True)
                text, why = _bibtex(style, REPO / "sample_papers" / paper / "refs.bib", work)
                if not text:
                    sc.failed = why
                    break
                if keep is not None:
                    (keep / style).mkdir(parents=True, exist_ok=True)
                    (keep / style / f"{paper}.bbl").write_text(text, encoding="utf-8")
                score_entries(sc, check_file(work / "paper.bbl", index, work / "out"),
                              expected[paper])
            scores.append(sc)
    return scores


def table(scores: list[StyleScore], *, what: str = "styles", failed_as: str = "Stopped in "
          "bibtex", first: list[StyleScore] | None = None, floor_note: bool = True,
          by_fields: bool = True, failed_max: int = 12) -> str:
    """The per-style table (``first`` rows on top, then the styles with false flags
    first), the summary line, the failures and the false flags. Shared by
    :mod:`bench.accuracy.biber_styles`."""
    first = first or []
    ok = [s for s in scores if not s.failed and s not in first]
    rows = ["| style | entries | false flags (of faithful) | fabricated caught | corrupted "
            "caught | unverified |", "|---|---:|---:|---:|---:|---:|"]
    for s in first + sorted(ok, key=lambda s: (-len(s.false_flags), s.style.lower())):
        rows.append(f"| {s.style} | {s.entries} | {len(s.false_flags)}/{s.faithful} | "
                    f"{s.fabricated_caught}/{s.fabricated} | {s.corrupted_caught}/{s.corrupted} "
                    f"| {s.unverified} |")
    faithful = sum(s.faithful for s in ok)
    flags = sum(len(s.false_flags) for s in ok)
    fab = sum(s.fabricated for s in ok)
    fab_c = sum(s.fabricated_caught for s in ok)
    cor = sum(s.corrupted for s in ok)
    cor_c = sum(s.corrupted_caught for s in ok)
    clean = sum(1 for s in ok if not s.false_flags)
    failed = [s for s in scores if s.failed]
    lines = [
        f"{len(ok)} {what} typeset both papers ({len(failed)} "
        f"{'stopped in bibtex' if failed_as.startswith('Stopped') else 'did not'}); "
        f"**{clean} of {len(ok)} styles without a false flag**; false flags "
        f"{flags}/{faithful} ({100 * flags / max(1, faithful):.2f}%) of faithful entries; "
        f"fabricated caught {fab_c}/{fab} ({100 * fab_c / max(1, fab):.1f}%); corrupted "
        f"caught {cor_c}/{cor} ({100 * cor_c / max(1, cor):.1f}%"
        + (", a floor: not every style prints every field" if floor_note else "")
        + f"); unverified {sum(s.unverified for s in ok)}.", "", *rows]
    if failed:
        lines += ["", f"{failed_as} (not checked): " + "; ".join(
            f"{s.style} ({s.failed})" for s in failed[:failed_max])
            + (f"; and {len(failed) - failed_max} more" if len(failed) > failed_max else "")]
    flagged = [s for s in first + ok if s.false_flags]
    if flagged:
        lines += ["", "False flags:", ""] + [f"- {s.style}: " + "; ".join(s.false_flags)
                                            for s in flagged]
        if by_fields:
            fields = Counter(f.split(" ", 2)[2] for s in flagged for f in s.false_flags
                             if f.count(" ") >= 2)
            lines += ["", "By fields: " + ", ".join(f"{k or '-'} {v}" for k, v in
                                                    fields.most_common())]
    return "\n".join(lines)


#: Styles typeset over the real corpus .bib files (``--corpus``): the common physics and
#: astronomy ones.
CORPUS_STYLES = ("plain", "unsrt", "plainnat", "apsrev4-2", "elsarticle-num", "ieeetr",
                 "naturemag", "mnras", "aasjournal", "iopart-num", "JHEP", "utphys")


@dataclass
class CorpusScore:
    """One style over one real .bib checked against an index built from that .bib."""

    bib: str
    style: str
    entries: int = 0
    exact_alone: int = 0  # EXACT when the .bib itself is checked
    false_flags: list[str] = field(default_factory=list)  # of those, MINOR/MAJOR from the .bbl
    unverified: int = 0  # of those, UNVERIFIED from the .bbl
    failed: str = ""


def corpus_run(styles: list[str], bibs: list[Path],
               typeset: Callable[[str, Path, Path], tuple[str, str]] | None = None,
               ) -> list[CorpusScore]:
    """Each real .bib typeset by each style, its .bbl checked against an index of the .bib
    itself (as ``bench.accuracy.self_check`` checks the .bib): every entry EXACT from the
    .bib must stay EXACT from the .bbl. ``typeset(style, bib, work)`` gives the .bbl text
    ("" and why when none): bibtex's (:func:`_bibtex`) unless another is given (biber's,
    ``bench.accuracy.biber_styles``)."""
    typeset = typeset or _bibtex
    from dataclasses import replace as dc_replace

    from citecheck_tex.config import Settings
    from citecheck_tex.pipeline import check_entries
    from citecheck_tex.sources.local_index import LocalIndex
    from citecheck_tex.tex.bbl import parse_bbl_text
    from citecheck_tex.tex.bib import parse_bib_text

    out = []
    with tempfile.TemporaryDirectory(prefix="bst_corpus_") as tmp:
        for bib in bibs:
            index_path = Path(tmp) / f"{bib.stem}.sqlite"
            idx = LocalIndex.open(index_path)
            try:
                idx.add_file(bib)
            finally:
                idx.close()
            settings = dc_replace(Settings(), offline=True, index_path=str(index_path),
                                  cache_path="none", index_complete=True, sources=("local",))
            entries, _ = parse_bib_text(bib.read_text(encoding="utf-8", errors="replace"),
                                        bib.name)
            alone = {v.entry.key: v.label.value for v in check_entries(entries, settings)}
            for style in styles:
                sc = CorpusScore(bib.name, style)
                work = Path(tmp) / bib.stem / style
                work.mkdir(parents=True)
                text, why = typeset(style, bib, work)
                if not text:
                    sc.failed = why
                    out.append(sc)
                    continue
                bbl_entries, _ = parse_bbl_text(text, f"{bib.stem}.bbl")
                for v in check_entries(bbl_entries, settings):
                    if v.entry.part_of:
                        continue
                    sc.entries += 1
                    if alone.get(v.entry.key) != "EXACT":
                        continue
                    sc.exact_alone += 1
                    if v.label.value in ("MINOR", "MAJOR"):
                        sc.false_flags.append(
                            f"{v.entry.key} {v.label.value} "
                            + ",".join(d.field for d in v.discrepancies))
                    elif v.label.value == "UNVERIFIED":
                        sc.unverified += 1
                out.append(sc)
    return out


def corpus_table(scores: list[CorpusScore]) -> str:
    """The --corpus table."""
    rows = ["| .bib | style | entries in the .bbl | EXACT from the .bib | false flags | "
            "unverified |", "|---|---|---:|---:|---:|---:|"]
    for s in scores:
        if s.failed:
            rows.append(f"| {s.bib} | {s.style} | - | - | not typeset: {s.failed} | - |")
            continue
        rate = 100 * len(s.false_flags) / max(1, s.exact_alone)
        rows.append(f"| {s.bib} | {s.style} | {s.entries} | {s.exact_alone} | "
                    f"{len(s.false_flags)} ({rate:.1f}%) | {s.unverified} |")
    return "\n".join(rows)


def sample_index(path: Path) -> Path:
    """The sample papers' real records as an index at ``path``."""
    from citecheck_tex.sources.local_index import import_files

    if not path.exists():
        import_files(path, sorted((REPO / "sample_papers").glob("*/index_records*")))
    return path


def main(argv: list[str] | None = None) -> int:
    """Typeset, check and print the table."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--styles", help="comma-separated .bst names (default: every one)")
    ap.add_argument("--keep", type=Path, help="write each style's .bbl files here")
    ap.add_argument("--no-corpus", dest="corpus", action="store_false",
                    help="skip the real corpus .bib files")
    ap.add_argument("--corpus", action="store_true", default=True,
                    help="(the default) also typeset the real corpus .bib files (HEPML.bib, "
                         "lsst_refs_ads.bib, lsst_refs.bib) with the common styles")
    ap.add_argument("--examples", type=int, default=0, metavar="N",
                    help="with --corpus: list N false flags per style")
    args = ap.parse_args(argv)
    if shutil.which("bibtex") is None or not BST_ROOT.is_dir():
        print("bst_styles: no TeX Live (bibtex and its styles) on this machine: not run")
        return 0
    styles = args.styles.split(",") if args.styles else all_styles()
    with tempfile.TemporaryDirectory(prefix="bst_index_") as tmp:
        index = sample_index(Path(tmp) / "index.sqlite")
        scores = run(styles, index, args.keep)
    print(f"## Real .bbl files of {len(styles)} TeX Live BibTeX styles (`bench.accuracy."
          f"bst_styles`)\n\n    {COMMAND}\n")
    print(table(scores))
    if args.corpus:
        from bench.paths import CORPUS

        bibs = [CORPUS / "bib" / name
                for name in ("HEPML.bib", "lsst_refs_ads.bib", "lsst_refs.bib")]
        have = [st for st in CORPUS_STYLES if st in set(all_styles())]
        cs = corpus_run(have, bibs)
        print(f"\n## Real .bib files typeset by {len(have)} common styles, each .bbl checked "
              f"against an index of its own .bib\n\n    {COMMAND}\n")
        print(corpus_table(cs))
        for c in cs:
            if args.examples and c.false_flags:
                print(f"\n{c.bib} {c.style}: " + "; ".join(c.false_flags[:args.examples]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
