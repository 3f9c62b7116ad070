"""Grey literature in real bibliographies, and what the rule would spare of hallucinations.

    python -m bench.accuracy.grey_literature [--examples N]

A technical report, a thesis, an unpublished or submitted work, a document of a
non-standard entry type (``@LiveLink``) or a private communication is listed by few
scholarly sources: when none lists it, the checker says UNVERIFIED
(``grey-literature``) instead of MAJOR (:func:`citecheck_tex.verify.policy.grey_kind`;
a private communication or a work in preparation without a title is SKIPPED).

Two counts, both on data we did not make, with the shipped rule:

1. **Reach**: how many entries of real bibliographies are grey (the shared corpus's
   hand-written ``lsst_refs.bib``, the ADS and INSPIRE exports, the 38,185 reference
   strings INSPIRE stored, as the free text a user pastes). Each of these was a MAJOR
   whenever no source listed it.
2. **Cost**: how many hallucinated references of the independent benchmarks (HALLMARK,
   refchecker, the CiteCheck paper's corrupted citations) the rule calls grey, so
   that "not found" would leave them UNVERIFIED instead of MAJOR. It must stay near 0.
"""

from __future__ import annotations

import argparse
import collections
import json
import sys
from collections.abc import Iterable, Sequence

from bench.paths import CORPUS
from citecheck_tex.model import Entry


def _grey(entries: Iterable[Entry]) -> tuple[int, collections.Counter[str], list[str]]:
    from citecheck_tex.verify.policy import grey_kind, skip_reason

    n = 0
    kinds: collections.Counter[str] = collections.Counter()
    shown: list[str] = []
    for e in entries:
        n += 1
        reason = skip_reason(e)
        if reason and "nothing published" in reason:
            kind = "skipped: " + reason.split(":")[0].removeprefix("a ")
        elif reason:
            continue  # skipped already for another reason (software, web page, ...)
        else:
            kind = grey_kind(e) or ""
        if kind:
            kinds[kind] += 1
            shown.append(f"{e.key}: {kind} | {(e.raw_text or e.title)[:110]}")
    return n, kinds, shown


def _bib(name: str) -> list[Entry]:
    from citecheck_tex.tex.bib import parse_bib_text

    entries, _ = parse_bib_text((CORPUS / "bib" / name).read_text(encoding="utf-8"), name)
    return entries


def _reference_strings() -> list[Entry]:
    from bench.accuracy.real_references import render_text
    from citecheck_tex.tex.textlist import parse_text_list

    rows = [json.loads(line) for line in
            (CORPUS / "inspire_hep_reference_strings.jsonl").open(encoding="utf-8")]
    text = "\n".join(f"[{i + 1}] {render_text(d)}" for i, d in enumerate(rows))
    entries, _ = parse_text_list(text, "refs.txt")
    return entries


def _hallucinated() -> dict[str, list[Entry]]:
    """The hallucinated (gold MAJOR or MINOR) cases of each independent benchmark."""
    from bench.accuracy import citecheck_paper, independent
    from citecheck_tex.tex.bib import parse_bib_text

    out: dict[str, list[Entry]] = {}
    for name, make in independent.DATASETS.items():
        cases = [c for c in make() if c.gold != "EXACT"]
        entries, _ = parse_bib_text("".join(c.bibtex for c in cases), f"{name}.bib")
        out[name] = entries
    cites = [c for c in citecheck_paper.load() if c["gold"] != "EXACT"]
    out["citecheck-paper (corrupted, all splits)"] = citecheck_paper.md_entries(cites)
    return out


def _row(name: str, n: int, kinds: collections.Counter[str]) -> str:
    grey = sum(kinds.values())
    detail = ", ".join(f"{k} {v}" for k, v in kinds.most_common()) or "-"
    return f"| {name} | {n} | {grey} ({100 * grey / max(n, 1):.1f}%) | {detail} |"


def main(argv: Sequence[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--examples", type=int, default=0, help="list N grey entries per set")
    args = ap.parse_args(argv)
    print("## Grey literature (`python -m bench.accuracy.grey_literature`)\n")
    print("### 1. Real bibliographies: entries that are grey (UNVERIFIED, not MAJOR, when "
          "no source lists them)\n")
    print("| bibliography | entries | grey | kinds |")
    print("|---|---:|---:|---|")
    shown: dict[str, list[str]] = {}
    for name, entries in (("lsst_refs.bib (hand-written)", _bib("lsst_refs.bib")),
                          ("lsst_refs_ads.bib (NASA ADS)", _bib("lsst_refs_ads.bib")),
                          ("HEPML.bib (INSPIRE)", _bib("HEPML.bib")),
                          ("INSPIRE reference strings (free text)", _reference_strings())):
        n, kinds, ex = _grey(entries)
        print(_row(name, n, kinds))
        shown[name] = ex
    print("\n### 2. Hallucinated references the rule calls grey (gold MAJOR or MINOR; "
          "must stay near 0)\n")
    print("| benchmark | hallucinated | grey | kinds |")
    print("|---|---:|---:|---|")
    for name, entries in _hallucinated().items():
        n, kinds, ex = _grey(entries)
        print(_row(name, n, kinds))
        shown[name] = ex
    if args.examples:
        for name, ex in shown.items():
            if ex:
                print(f"\n{name}:")
                for line in ex[:args.examples]:
                    print(f"    {line}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
