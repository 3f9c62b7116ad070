"""Consistency of the sample papers' planted data (sample_papers/*).

Plain json/regex only, no citecheck code: the sample papers are the ground
truth of the end-to-end test, so they are checked independently of the code
under test. Each paper folder holds paper.tex (+ included files), refs.bib,
expected.json, PLANTED.md and the offline-index excerpts index_records*.jsonl.
"""

from __future__ import annotations

import difflib
import json
import re
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent / "sample_papers"
# CI lays shared/ beside the clone; the development machine has it at /work/shared.
CORPUS = next((p for p in (ROOT.parent.parent / "shared" / "corpus" / "dumps",
                           Path("/work/shared/corpus/dumps")) if p.is_dir()),
              Path("/work/shared/corpus/dumps"))
PAPERS = sorted(p.name for p in ROOT.iterdir() if (p / "expected.json").is_file())
CHECKED_FIELDS = ("author", "year", "volume", "pages", "doi", "eprint")


# ---------------------------------------------------------------- bib parsing
def parse_bib(text: str) -> dict[str, dict[str, str]]:
    """A small balanced-brace BibTeX reader: key -> {field: raw value, "@type": type}."""
    entries: dict[str, dict[str, str]] = {}
    for m in re.finditer(r"@(\w+)\s*\{\s*([^,\s]+)\s*,", text):
        etype, key = m.group(1).lower(), m.group(2)
        if etype in ("comment", "string", "preamble"):
            continue
        pos, fields = m.end(), {"@type": etype}
        while True:
            fm = re.compile(r"\s*(\w+)\s*=\s*").match(text, pos)
            if not fm:
                break
            name, pos = fm.group(1).lower(), fm.end()
            if text[pos] == "{":
                depth, start = 0, pos
                while True:
                    depth += {"{": 1, "}": -1}.get(text[pos], 0)
                    pos += 1
                    if depth == 0:
                        break
                value = text[start + 1 : pos - 1]
            elif text[pos] == '"':  # ends at the first '"' outside braces
                depth, end = 0, pos + 1
                while depth or text[end] != '"':
                    depth += {"{": 1, "}": -1}.get(text[end], 0)
                    end += 1
                value, pos = text[pos + 1 : end], end + 1
            else:
                vm = re.compile(r"[^,}\s]+").match(text, pos)
                assert vm, f"{key}: cannot read field {name}"
                value, pos = vm.group(0), vm.end()
            fields[name] = " ".join(value.split())
            cm = re.compile(r"\s*,").match(text, pos)
            if not cm:
                break
            pos = cm.end()
        assert key not in entries, f"duplicate key {key}"
        entries[key] = fields
    return entries


def fold(text: str) -> str:
    """LaTeX accents/braces and Unicode accents removed, lower-case letters only."""
    text = re.sub(r"\\[\"'`^~=.uvHc]\s*", "", text).replace("{", "").replace("}", "")
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z]", "", text.lower())


def bib_surnames(author: str) -> tuple[list[str], bool]:
    """Folded family names of a BibTeX author list and whether it ends in 'and others'."""
    names = [n.strip() for n in re.split(r"\s+and\s+", author)]
    truncated = bool(names) and names[-1].lower() == "others"
    out = []
    for n in names[:-1] if truncated else names:
        out.append(fold(n.split(",")[0] if "," in n else n.split()[-1]))
    return out, truncated


def norm_title(text: str) -> str:
    """Title without LaTeX markup, accents, case or punctuation."""
    text = re.sub(r"\\times", "x", text).replace("×", "x").replace("–", "-")
    text = re.sub(r"[{}$_^\\]", "", text)
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode().lower()
    return " ".join(re.sub(r"[^a-z0-9]+", " ", text).split())


# ------------------------------------------------------------- index records
@dataclass
class Rec:
    """The fields of one index record that a citation can state."""

    rid: str
    title: str
    surnames: list[str]
    years: set[str]
    volume: str = ""
    page: str = ""
    dois: set[str] = field(default_factory=set)
    arxiv: set[str] = field(default_factory=set)


def inspire_rec(line: str) -> Rec:
    """A Rec from one INSPIRE literature API hit."""
    m = json.loads(line)["metadata"]
    pubs = [p for p in m.get("publication_info", []) if p.get("journal_title")]
    pub = pubs[0] if pubs else {}
    years = {str(m.get("preprint_date", ""))[:4]} | {str(p["year"]) for p in pubs if "year" in p}
    return Rec(
        rid=f"inspire:{m['control_number']}",
        title=(m.get("titles") or [{}])[0].get("title", ""),
        surnames=[fold(a["full_name"].split(",")[0]) for a in m.get("authors", [])],
        years={y for y in years if y},
        volume=str(pub.get("journal_volume", "")),
        page=str(pub.get("page_start") or pub.get("artid") or ""),
        dois={d["value"].lower() for d in m.get("dois", [])},
        arxiv={e["value"] for e in m.get("arxiv_eprints", [])},
    )


def arxiv_rec(line: str) -> Rec:
    """A Rec from one arXiv metadata snapshot line."""
    r = json.loads(line)
    years = {r["versions"][0]["created"].split()[3]} if r.get("versions") else set()
    volume = page = ""
    jm = re.match(r"^[A-Za-z. ]+?(\d+):(\w+)[^,]*,(\d{4})", r.get("journal-ref") or "")
    if jm:
        volume, page = jm.group(1), jm.group(2)
        years.add(jm.group(3))
    return Rec(
        rid=f"arxiv:{r['id']}",
        title=r["title"],
        surnames=[fold(a[0]) for a in r["authors_parsed"]],
        years=years,
        volume=volume,
        page=page,
        dois={d.lower() for d in (r.get("doi") or "").split()},
        arxiv={r["id"]},
    )


def load_index(paper: str) -> dict[str, Rec]:
    """Every record of a paper's index excerpts by id (duplicates keep one)."""
    recs: dict[str, Rec] = {}
    for path in sorted((ROOT / paper).glob("index_records*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                rec = arxiv_rec(line) if '"authors_parsed"' in line else inspire_rec(line)
                recs[rec.rid] = rec
    return recs


def load(paper: str) -> tuple[dict[str, Any], dict[str, dict[str, str]], dict[str, Rec]]:
    """expected.json, refs.bib entries and index records of one paper."""
    expected = json.loads((ROOT / paper / "expected.json").read_text(encoding="utf-8"))
    bib = parse_bib((ROOT / paper / "refs.bib").read_text(encoding="utf-8"))
    return expected, bib, load_index(paper)


def wrong_fields(entry: dict[str, str], rec: Rec) -> set[str]:
    """The checkable fields the entry states that contradict the record."""
    wrong: set[str] = set()
    surnames, truncated = bib_surnames(entry.get("author", ""))
    if truncated:
        ok = len(surnames) >= 3 and rec.surnames[: len(surnames)] == surnames
    else:
        ok = surnames == rec.surnames
    if not ok:
        wrong.add("author")
    year = entry.get("year") or entry.get("date", "")[:4]
    if year not in rec.years:
        wrong.add("year")
    volume = entry.get("volume")
    if volume and volume != rec.volume and rec.volume != year[2:] + volume:  # JHEP 08 = 1608
        wrong.add("volume")
    pages = entry.get("pages")
    if pages and re.split(r"-+", pages)[0].strip() != rec.page:
        wrong.add("pages")
    doi = re.sub(r"^https?://(dx\.)?doi\.org/", "", entry.get("doi", "")).lower()
    if doi and doi not in rec.dois:
        wrong.add("doi")
    eprint = re.sub(r"v\d+$", "", entry.get("eprint", ""))
    if eprint and eprint not in rec.arxiv:
        wrong.add("eprint")
    return wrong


def cited_keys(paper: str) -> set[str]:
    """Keys of every \\cite-family command in the paper's .tex files (incl. \\cites)."""
    keys: set[str] = set()
    cmd = re.compile(r"\\(?:no)?(?:cite[a-z]*|[pP]arencite|[tT]extcite|autocite)s?\*?")
    for tex in (ROOT / paper).rglob("*.tex"):
        text = re.sub(r"(?<!\\)%.*", "", tex.read_text(encoding="utf-8"))
        for m in cmd.finditer(text):
            pos = m.end()
            while True:
                am = re.compile(r"\s*(\[[^\]]*\]\s*){0,2}\{([^}]*)\}").match(text, pos)
                if not am:
                    break
                keys.update(k.strip() for k in am.group(2).split(",") if k.strip())
                pos = am.end()
                if not m.group(0).rstrip("*").endswith("s"):
                    break
    return keys


# ---------------------------------------------------------------------- tests
def test_both_sample_papers_exist() -> None:
    """The two required sample papers are present with all their files."""
    assert {"dark_matter_axions", "holography_qcd"} <= set(PAPERS)
    for paper in PAPERS:
        for name in ("paper.tex", "refs.bib", "PLANTED.md", "index_records.jsonl"):
            assert (ROOT / paper / name).is_file(), f"{paper}/{name} missing"


@pytest.mark.parametrize("paper", PAPERS)
def test_expected_keys_exist_in_bib(paper: str) -> None:
    """Every key expected.json mentions is an entry of refs.bib (except the undefined one)."""
    expected, bib, _ = load(paper)
    labels = expected["labels"]
    assert isinstance(labels, dict) and set(labels.values()) <= {
        "EXACT",
        "MINOR",
        "MAJOR",
        "SKIPPED",
    }
    for key in labels:
        assert key in bib, f"{paper}: {key} not in refs.bib"
    for key in expected["minor_fields"]:
        assert labels[key] == "MINOR"
    problems = {p["code"]: p["key"] for p in expected["problems"]}
    assert problems["unused-entry"] in bib
    assert problems["undefined-key"] not in bib
    counts = {lab: list(labels.values()).count(lab) for lab in ("MINOR", "MAJOR", "SKIPPED")}
    assert 4 <= counts["MINOR"] <= 6 and 3 <= counts["MAJOR"] <= 4 and counts["SKIPPED"] == 1


@pytest.mark.parametrize("paper", PAPERS)
def test_cited_keys_are_defined_or_planted(paper: str) -> None:
    """Cited keys exist in refs.bib, except the planted undefined one; the unused entry is not cited."""
    expected, bib, _ = load(paper)
    problems = {p["code"]: p["key"] for p in expected["problems"]}
    cited = cited_keys(paper)
    assert cited - set(bib) == {problems["undefined-key"]}
    assert set(bib) - cited == {problems["unused-entry"]}
    assert set(expected["labels"]) == cited - {problems["undefined-key"]}
    assert 15 <= len(cited) <= 30


@pytest.mark.parametrize("paper", PAPERS)
def test_true_records_are_in_the_index(paper: str) -> None:
    """Every EXACT/MINOR key (and the real side of each chimera/hijack) has its record indexed."""
    expected, _, index = load(paper)
    truth = expected["truth"]
    assert isinstance(truth, dict)
    for key, label in expected["labels"].items():
        if label in ("EXACT", "MINOR"):
            assert truth.get(key), f"{paper}: no true record for {key}"
    for key, ids in truth.items():
        for rid in ids:
            assert rid in index, f"{paper}: {key} -> {rid} missing from index_records*"
    assert len(index) >= 150, "the index excerpt should hold realistic distractors"


@pytest.mark.parametrize("paper", PAPERS)
def test_major_entries_point_to_nothing_real(paper: str) -> None:
    """Fabricated arXiv ids are absent; hijacked DOIs belong to a record with another title."""
    expected, bib, index = load(paper)
    all_arxiv = set().union(*(r.arxiv for r in index.values()))
    all_doi = set().union(*(r.dois for r in index.values()))
    kinds = expected["major_kinds"]
    assert isinstance(kinds, dict)
    assert {"fabricated", "chimera", "hijacked-doi"} <= set(kinds.values())
    for key, kind in kinds.items():
        entry = bib[key]
        if entry.get("eprint"):
            assert entry["eprint"] not in all_arxiv, f"{key}: fabricated arXiv id is indexed"
        title = norm_title(entry["title"])
        if kind == "hijacked-doi":
            doi = entry["doi"].lower()
            (owner,) = [r for r in index.values() if doi in r.dois]
            assert difflib.SequenceMatcher(None, title, norm_title(owner.title)).ratio() < 0.6
        elif kind == "chimera":
            (real,) = [index[rid] for rid in expected["truth"][key]]
            assert title == norm_title(real.title)
            assert not set(bib_surnames(entry["author"])[0]) & set(real.surnames)
        else:
            assert not entry.get("doi") or entry["doi"].lower() not in all_doi
            best = max(
                difflib.SequenceMatcher(None, title, norm_title(r.title)).ratio()
                for r in index.values()
            )
            assert best < 0.75, f"{key}: fabricated title too close to a real one"


@pytest.mark.parametrize("paper", PAPERS)
def test_exact_and_minor_entries_match_their_records(paper: str) -> None:
    """EXACT entries agree with their record on every checkable field; MINOR ones differ
    exactly in the fields listed in minor_fields, and never in the title."""
    expected, bib, index = load(paper)
    minor_fields = expected["minor_fields"]
    assert isinstance(minor_fields, dict)
    for key, label in expected["labels"].items():
        if label not in ("EXACT", "MINOR"):
            continue
        entry = bib[key]
        rec = index[expected["truth"][key][0]]
        ratio = difflib.SequenceMatcher(
            None, norm_title(entry["title"]), norm_title(rec.title)
        ).ratio()
        assert ratio > 0.9, f"{key}: title differs from {rec.rid}"
        want = set(minor_fields.get(key, []))
        assert want <= set(CHECKED_FIELDS)
        assert wrong_fields(entry, rec) == want, f"{paper}: {key} vs {rec.rid}"


@pytest.mark.parametrize("paper", PAPERS)
def test_minor_errors_do_not_hit_another_record(paper: str) -> None:
    """A corrupted DOI or arXiv id of a MINOR entry points to no record of the index."""
    expected, bib, index = load(paper)
    all_arxiv = set().union(*(r.arxiv for r in index.values()))
    all_doi = set().union(*(r.dois for r in index.values()))
    for key, fields in expected["minor_fields"].items():
        if "eprint" in fields:
            assert bib[key]["eprint"] not in all_arxiv
        if "doi" in fields:
            assert bib[key]["doi"].lower() not in all_doi


@pytest.mark.skipif(not CORPUS.is_dir(), reason="shared corpus not available")
@pytest.mark.parametrize("paper", PAPERS)
def test_index_lines_are_verbatim_corpus_lines(paper: str) -> None:
    """index_records*.jsonl only copy whole lines of the real dumps: nothing invented."""
    sources = {
        "index_records.jsonl": CORPUS / "inspire_literature.jsonl",
        "index_records_arxiv.jsonl": CORPUS / "arxiv_metadata_snapshot.jsonl",
    }
    for name, dump in sources.items():
        path = ROOT / paper / name
        if not path.exists():
            continue
        real = set(dump.read_text(encoding="utf-8").splitlines())
        lines = [ln for ln in path.read_text(encoding="utf-8").splitlines() if ln.strip()]
        assert lines and all(ln in real for ln in lines), f"{paper}/{name}"
