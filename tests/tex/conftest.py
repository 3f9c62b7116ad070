"""Shared fixtures of the TeX frontend tests: the sample papers' real records as an
index, and a reference text checked through the command line against it."""

from __future__ import annotations

import json
import shutil
import subprocess
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from citecheck_tex.cli import main
from citecheck_tex.config import Settings
from citecheck_tex.pipeline import check_entries
from citecheck_tex.sources.local_index import import_files
from citecheck_tex.tex.bbl import parse_bbl_text

ROOT = Path(__file__).resolve().parents[2]

#: Tests that run the real ``bibtex`` (TeX Live).
needs_bibtex = pytest.mark.skipif(
    shutil.which("bibtex") is None,
    reason="TeX Live's bibtex is not installed: apt install texlive-bibtex-extra")


@pytest.fixture(scope="session")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample papers' real INSPIRE/arXiv records (``sample_papers/*/index_records*``)."""
    path = tmp_path_factory.mktemp("index") / "index.sqlite"
    import_files(path, sorted(ROOT.glob("sample_papers/*/index_records*")))
    return path


def checked(tmp_path: Path, index: Path, name: str, text: str,
            *options: str) -> list[dict[str, Any]]:
    """The report.json entries of ``text`` saved as ``name`` and checked offline (with
    further command-line ``options``)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    source = tmp_path / name
    source.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    main([str(source), "--offline", "--index", str(index), "--cache", "none",
          "--format", "json", "--out", str(out), "--fail-on", "never", *options])
    entries: list[dict[str, Any]] = json.loads(
        (out / "report.json").read_text(encoding="utf-8"))["entries"]
    return entries


#: The sample papers' planted truth (``sample_papers/*/PLANTED.md``) of the items the
#: style tests check: key -> (label, the planted field).
SAMPLE_LABELS: dict[str, tuple[str, str]] = {
    **{key: ("EXACT", "") for key in (
        "Bartolini2017", "Brodsky:2013dca", "Janik:1999zu", "Hui2017", "Kosower:1987em",
        "Barbieri2017", "Chabysheva:2012fe", "FangLiWu2016", "McAllister:2015zcz",
        "Noh:2013coa")},
    "GursoyIatrakis2017": ("MINOR", "author"), "Fang2016chiral": ("MINOR", "volume"),
    "Lazarides2017": ("MINOR", "volume"), "Capossoli2016": ("MINOR", "pages"),
    "KarchKatzSon2017": ("MAJOR", ""),
}


def sample_labels(*keys: str) -> dict[str, tuple[str, str]]:
    """:data:`SAMPLE_LABELS` of ``keys``, in that order."""
    return {key: SAMPLE_LABELS[key] for key in keys}


def faithful_and_planted(tmp_path: Path, index: Path, bbl: str, faithful: Iterable[str],
                         planted: Mapping[str, str]) -> dict[str, dict[str, Any]]:
    """Check ``bbl`` offline against the sample papers' index, declared complete (as
    ``bench.accuracy.bst_styles`` does): each ``faithful`` key must be EXACT and each
    ``planted`` key flagged for its one planted field alone. The entries by key."""
    got = {e["key"]: e for e in checked(tmp_path, index, "paper.bbl", bbl, "--index-complete")}
    for key in faithful:
        assert got[key]["label"] == "EXACT", (key, got[key])
    for key, fld in planted.items():
        assert got[key]["label"] in ("MINOR", "MAJOR"), (key, got[key])
        assert [d["field"] for d in got[key]["discrepancies"]] == [fld], (key, got[key])
    return got


def bbl_labels(tmp_path: Path, bib: Path, bbl: str) -> dict[str, tuple[str, list[str]]]:
    """Each item of ``bbl`` (a whole .bbl, or items alone) checked offline against an
    index of ``bib`` declared complete, as ``python -m bench.accuracy.bst_styles`` part two
    does: key -> (label, the fields flagged)."""
    index = tmp_path / "index.sqlite"
    if not index.exists():
        import_files(index, [bib])
    if "\\begin{thebibliography}" not in bbl:
        bbl = f"\\begin{{thebibliography}}{{1}}\n{bbl}\n\\end{{thebibliography}}\n"
    entries, _ = parse_bbl_text(bbl, "paper.bbl")
    settings = replace(Settings(), offline=True, index_path=str(index), cache_path="none",
                       index_complete=True, sources=("local",))
    return {v.entry.key: (v.label.value, [d.field for d in v.discrepancies])
            for v in check_entries(entries, settings)}


def bibtex_bbl(tmp_path: Path, bib: Path, style: str) -> str:
    """The .bbl the real ``bibtex`` makes of every entry of ``bib`` with ``style``."""
    shutil.copy(bib, tmp_path / "refs.bib")
    (tmp_path / "paper.aux").write_text(
        f"\\relax\n\\citation{{*}}\n\\bibstyle{{{style}}}\n\\bibdata{{refs}}\n",
        encoding="utf-8")
    subprocess.run(["bibtex", "-terse", "paper"], cwd=tmp_path, capture_output=True,
                   check=False, timeout=60)
    return (tmp_path / "paper.bbl").read_text(encoding="utf-8")


#: The preamble of a real unsrtnm .bbl (bibtex with unsrtnm.bst on the sample papers):
#: natbib's fallbacks and the style's own \nmbibLink, which wraps each item's names.
UNSRTNM_PREAMBLE = (
    '\\begin{thebibliography}{30}\n'
    '\\providecommand{\\natexlab}[1]{#1}\n'
    '\\providecommand{\\url}[1]{\\texttt{#1}}\n'
    '\\expandafter\\ifx\\csname urlstyle\\endcsname\\relax\n'
    '  \\providecommand{\\doi}[1]{doi: #1}\\else\n'
    '  \\providecommand{\\doi}{doi: \\begingroup \\urlstyle{rm}\\Url}\\fi\n'
    '  \\providecommand{\\nmbibLink}[3]{#3}\n'
    '\n'
)
