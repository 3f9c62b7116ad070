"""Real physics references, as physicists wrote them, against their real INSPIRE records.

    python -m bench.accuracy.real_references [--examples]

``/work/shared/corpus/inspire_hep_reference_strings.jsonl`` holds 38,185 reference
list entries of real HEP papers as INSPIRE stored them (pubnote such as
``Phys.Rev.Lett.,107,171101``, authors as typed, year, sometimes a title, an
arXiv id or report number, a DOI), 14,500 of them with the INSPIRE record they
point to (``inspire_recid``: the ground truth). Each is rendered as a BibTeX entry
from those fields (nothing invented, nothing corrected) and checked offline
through the product (``parse_bib_text`` -> ``check_entries_async``) against the
benchmark world index (INSPIRE dump, arXiv snapshot, HEPML.bib; see
``run_synthetic.build_world``).

Two measurements:

1. **Covered references** (the target record is in the index; 129): real
   references are real works, so MAJOR is a false alarm; EXACT or MINOR are both
   possible (authors do make mistakes: every MINOR is listed with its
   discrepancies so a person can judge it). Run with the index declared complete.
2. **All references with a target** (14,500), the index *not* declared complete,
   as a user with a partial index runs it offline: MAJOR may only come from
   positive evidence (an identifier resolving to a different paper). Every MAJOR
   is listed.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import re
import time
from collections import Counter
from dataclasses import dataclass, replace

from bench.accuracy.run_synthetic import WORLD, build_world, offline_settings
from bench.paths import CORPUS
from citecheck_tex.model import Verdict
from citecheck_tex.pipeline import check_entries_async
from citecheck_tex.tex.bib import parse_bib_text
from citecheck_tex.vocab.ids import normalize_arxiv

REFS = CORPUS / "inspire_hep_reference_strings.jsonl"
DUMP = CORPUS / "dumps" / "inspire_literature.jsonl"
_ARXIV = re.compile(r"(\d{4}\.\d{4,5}|[a-z\-]+(?:\.[A-Z]{2})?/\d{7})")


@dataclass
class Ref:
    """One reference with its ground-truth INSPIRE record id."""

    key: str
    target: str
    raw: dict[str, object]
    bib: str
    covered: bool = False
    verdict: Verdict | None = None


def _first(value: object) -> str:
    if isinstance(value, list):
        return str(value[0]) if value else ""
    return str(value or "")


def bib_author_string(value: object) -> str:
    """The stored authors as one BibTeX author string: a list of "Family, I." names, or a
    string "A. One, B. Two and C. Three et al." ("Abhishodh, P" stays one name)."""
    if isinstance(value, list):
        names = [str(v) for v in value]
    else:
        names = []
        for piece in re.split(r",?\s+and\s+", str(value or "")):
            parts = [p.strip() for p in piece.split(",")]
            # "Abhishodh, P" is one "Last, First" name; "A. B, C. D" are two names
            if len(parts) == 2 and re.fullmatch(r"[A-Z][\w.\- ]{0,6}", parts[1]) \
                    and " " not in parts[0]:
                names.append(piece.strip())
            else:
                names.extend(parts)
    out, others = [], False
    for n in names:
        if re.fullmatch(r"et\.?\s*al\.?", n.strip(), re.IGNORECASE):
            others = True
            continue
        if re.search(r"\s+et\.?\s*al\.?$", n):
            others, n = True, re.sub(r"\s+et\.?\s*al\.?$", "", n)
        if n.strip():
            out.append(n.strip())
    return " and ".join(out + (["others"] if others else []))


def _esc(text: str) -> str:
    return text.replace("{", "(").replace("}", ")").replace("\\", "")


def render(i: int, d: dict[str, object]) -> str:
    """The BibTeX entry of one reference, from its stored fields only."""
    fields: dict[str, str] = {}
    pubnote = _first(d.get("pubnote"))
    if pubnote:
        parts = [p.strip() for p in pubnote.split(",")]
        fields["journal"] = parts[0]
        if len(parts) > 1:
            fields["volume"] = parts[1]
        if len(parts) > 2:
            fields["pages"] = parts[2]
    authors = bib_author_string(d.get("authors"))
    if authors:
        fields["author"] = authors
    for name in ("title", "year", "doi", "url"):
        value = _first(d.get(name))
        if value:
            fields[name] = value
    rep = _first(d.get("report_or_arxiv"))
    m = _ARXIV.search(rep)
    if m and normalize_arxiv(m.group(1)):
        fields["eprint"] = normalize_arxiv(m.group(1))
    elif rep:
        fields["number"] = rep
    if d.get("misc") and "title" not in fields:
        fields["note"] = _first(d.get("misc"))
    etype = "article" if pubnote else "misc"
    body = ",\n".join(f"  {k} = {{{_esc(v)}}}" for k, v in fields.items())
    return f"@{etype}{{ref{i},\n{body}\n}}\n"


def render_text(d: dict[str, object]) -> str:
    """The reference as a physicist's plain-text list item, from its stored fields only:
    ``A. Author, B. Author, Title, Phys.Rev.Lett. 107, 171101 (2011), arXiv:..., doi:...``."""
    parts = []
    authors = bib_author_string(d.get("authors")).replace(" and others", " et al.")
    if authors:
        parts.append(authors.replace(" and ", ", "))
    title = _first(d.get("title"))
    if title:
        parts.append(f"\u201c{title}\u201d")
    pubnote = _first(d.get("pubnote"))
    year = _first(d.get("year"))
    if pubnote:
        bits = [p.strip() for p in pubnote.split(",")] + ["", ""]
        parts.append(f"{bits[0]} {bits[1]}, {bits[2]}".strip(" ,")
                     + (f" ({year})" if year else ""))
    elif year:
        parts.append(f"({year})")
    rep = _first(d.get("report_or_arxiv"))
    if rep:
        m = _ARXIV.search(rep)
        parts.append(f"arXiv:{normalize_arxiv(m.group(1))}" if m and normalize_arxiv(m.group(1))
                     else rep)
    doi = _first(d.get("doi"))
    if doi:
        parts.append("doi:" + doi.removeprefix("doi:"))
    return ", ".join(parts)


def check_text(refs: list[Ref], complete: bool) -> list[str]:
    """The labels of ``refs`` given as a numbered plain-text list (the rule-based parser)."""
    from citecheck_tex.tex.textlist import parse_text_list

    text = "".join(f"[{n}] {render_text(r.raw)}\n" for n, r in enumerate(refs, 1))
    entries, _ = parse_text_list(text, "real_references.txt")
    settings = replace(offline_settings(WORLD), index_complete=complete)
    verdicts, _, _ = asyncio.run(check_entries_async(entries, settings))
    by_key = {v.entry.key: v.label.value for v in verdicts}
    return [by_key.get(str(n), "NOT-PARSED") for n in range(1, len(refs) + 1)]


def load() -> list[Ref]:
    """Every reference with a target record, rendered; ``covered`` when the target is
    in the INSPIRE dump the world index holds."""
    have = set()
    with DUMP.open(encoding="utf-8") as fh:
        for line in fh:
            have.add(str(json.loads(line)["metadata"].get("control_number")))
    refs = []
    with REFS.open(encoding="utf-8") as fh:
        for i, line in enumerate(fh):
            d = json.loads(line)
            target = str(d.get("inspire_recid") or "")
            if target:
                refs.append(Ref(f"ref{i}", target, d, render(i, d), covered=target in have))
    return refs


def check(refs: list[Ref], complete: bool) -> float:
    """Check the references through the product; returns seconds."""
    text = "".join(r.bib for r in refs)
    entries, _ = parse_bib_text(text, "real_references.bib")
    settings = replace(offline_settings(WORLD), index_complete=complete)
    t0 = time.perf_counter()
    verdicts, _, _ = asyncio.run(check_entries_async(entries, settings))
    seconds = time.perf_counter() - t0
    by_key = {v.entry.key: v for v in verdicts}
    for r in refs:
        r.verdict = by_key.get(r.key)
    return seconds


def _label(r: Ref) -> str:
    return r.verdict.label.value if r.verdict else "NOT-PARSED"


def _match_ok(r: Ref) -> bool:
    """The matched record is the ground-truth one (INSPIRE ids end in the recid)."""
    m = r.verdict.match if r.verdict else None
    return bool(m and (m.id == r.target or m.id.endswith(f":{r.target}")
                       or m.id.endswith(f"/{r.target}")))


def _show(r: Ref) -> str:
    v = r.verdict
    lines = [f"- {r.key} -> {_label(r)} (target {r.target}, matched "
             f"{v.match.id if v and v.match else '-'}): {v.reason if v else ''}"]
    lines.append("    cited: " + " | ".join(f"{k}={_first(r.raw[k])[:60]}" for k in (
        "authors", "title", "pubnote", "year", "report_or_arxiv", "doi") if r.raw.get(k)))
    for d in (v.discrepancies if v else ())[:4]:
        lines.append(f"    {d.field}: {d.cited[:60]!r} -> {d.found[:60]!r}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    """Build the world index if needed, run both measurements, print the tables."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--examples", action="store_true", help="list every MINOR too")
    args = ap.parse_args(argv)
    build_world()
    refs = load()
    covered = [r for r in refs if r.covered]
    print("## Real physics references against their INSPIRE records\n")
    check(covered, complete=False)
    partial = Counter(_label(r) for r in covered)
    print(f"### 1a. Target in the index: n = {len(covered)}, index not declared complete "
          "(the dump often holds only the preprint while the reference cites the journal "
          "version: online sources would settle those)\n")
    print("| label | n | share |\n|---|---:|---:|")
    for lab in ("EXACT", "MINOR", "MAJOR", "UNVERIFIED", "SKIPPED", "NOT-PARSED"):
        print(f"| {lab} | {partial[lab]} | {partial[lab] / max(1, len(covered)):.1%} |")
    print()
    text_labels = Counter(check_text(covered, complete=False))
    print("### 1c. The same references as a plain-text list (rule-based parser), index not "
          "declared complete\n")
    print("| label | n | share |\n|---|---:|---:|")
    for lab in ("EXACT", "MINOR", "MAJOR", "UNVERIFIED", "SKIPPED", "NOT-PARSED"):
        print(f"| {lab} | {text_labels[lab]} | {text_labels[lab] / max(1, len(covered)):.1%} |")
    print()
    secs = check(covered, complete=True)
    labels = Counter(_label(r) for r in covered)
    right = sum(_match_ok(r) for r in covered if _label(r) in ("EXACT", "MINOR"))
    print(f"### 1b. Target in the index: n = {len(covered)} (index declared complete; "
          f"{secs:.2f} s)\n")
    print("| label | n | share |\n|---|---:|---:|")
    for lab in ("EXACT", "MINOR", "MAJOR", "UNVERIFIED", "SKIPPED", "NOT-PARSED"):
        print(f"| {lab} | {labels[lab]} | {labels[lab] / max(1, len(covered)):.1%} |")
    print(f"\nEXACT/MINOR matched to the ground-truth record: {right}/"
          f"{labels['EXACT'] + labels['MINOR']}; false MAJOR: {labels['MAJOR']}/{len(covered)}\n")
    for r in covered:
        if _label(r) in ("MAJOR", "UNVERIFIED", "SKIPPED") or (
                args.examples and _label(r) == "MINOR"):
            print(_show(r))
    secs = check(refs, complete=False)
    labels = Counter(_label(r) for r in refs)
    print(f"\n### 2. All references with a target: n = {len(refs)} (index not declared "
          f"complete, as users run it offline; {secs:.1f} s, "
          f"{1000 * secs / max(1, len(refs)):.2f} ms/ref)\n")
    print("| label | n | share |\n|---|---:|---:|")
    for lab in ("EXACT", "MINOR", "MAJOR", "UNVERIFIED", "SKIPPED", "NOT-PARSED"):
        print(f"| {lab} | {labels[lab]} | {labels[lab] / max(1, len(refs)):.1%} |")
    majors = [r for r in refs if _label(r) == "MAJOR"]
    print(f"\nMAJOR (positive evidence only; each listed): {len(majors)}\n")
    for r in majors[:40]:
        print(_show(r))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
