"""Fixtures for the workflow tests: a temporary paper and a temporary local index.

The records are real INSPIRE records (data/inspire_records.jsonl, see PROVENANCE.md);
the .bib entries are written from them, so an offline check finds every reference.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from citecheck_tex.config import Settings

DATA = Path(__file__).parent / "data"
RECORDS = DATA / "inspire_records.jsonl"


def load_records() -> list[dict[str, object]]:
    """The INSPIRE metadata of the test records."""
    return [json.loads(line)["metadata"] for line in RECORDS.read_text().splitlines() if line]


#: Authors of no record: with a wrong title, a fabricated citation (a chimera of a real
#: identifier and journal reference), MAJOR. A wrong title alone on a reference whose
#: DOI, arXiv id and journal reference agree is that work with a wrong title (MINOR).
FAKE_AUTHORS = "Nobody, Alice and Noone, Bob and Nemo, Carl"


def bib_entry(meta: dict[str, object], *, key: str = "", title: str = "",
              authors: str = "") -> str:
    """A BibTeX entry written from an INSPIRE record (``title`` and ``authors`` override
    the real ones)."""
    m: dict = meta  # type: ignore[type-arg]
    pub = m["publication_info"][0]
    authors = authors or " and ".join(a["full_name"] for a in m["authors"])
    return (
        f"@article{{{key or m['texkeys'][0]},\n"
        f"    author = \"{authors}\",\n"
        f"    title = \"{{{title or m['titles'][0]['title']}}}\",\n"
        f"    journal = \"{pub['journal_title']}\",\n"
        f"    volume = \"{pub['journal_volume']}\",\n"
        f"    pages = \"{pub['page_start']}\",\n"
        f"    year = \"{pub['year']}\",\n"
        f"    doi = \"{m['dois'][0]['value']}\",\n"
        f"    eprint = \"{m['arxiv_eprints'][0]['value']}\",\n"
        f"    archivePrefix = \"arXiv\"\n"
        "}\n"
    )


def tex_source(keys: list[str], bib: str = "refs") -> str:
    """A small paper citing ``keys`` with a BibTeX bibliography."""
    cites = "\n".join(f"See \\cite{{{k}}}." for k in keys)
    return (
        "\\documentclass{article}\n\\begin{document}\n"
        f"{cites}\n"
        f"\\bibliographystyle{{plain}}\n\\bibliography{{{bib}}}\n\\end{{document}}\n"
    )


@pytest.fixture(scope="session")
def index_path(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A local index holding the test records."""
    from citecheck_tex.sources.local_index import import_files

    path = tmp_path_factory.mktemp("index") / "index.sqlite"
    import_files(path, [RECORDS])
    return path


@pytest.fixture()
def settings(index_path: Path, tmp_path: Path) -> Settings:
    """Offline settings on the test index, no answer cache."""
    return Settings(offline=True, index_complete=True, index_path=str(index_path), cache_path="none",
                    formats=("json",), out_dir=str(tmp_path / "report"))


@pytest.fixture()
def paper(tmp_path: Path) -> Path:
    """A temporary paper (paper.tex + refs.bib) citing every test record."""
    recs = load_records()
    folder = tmp_path / "paper"
    folder.mkdir()
    keys = [r["texkeys"][0] for r in recs]  # type: ignore[index]
    (folder / "refs.bib").write_text("\n".join(bib_entry(r) for r in recs), encoding="utf-8")
    (folder / "paper.tex").write_text(tex_source(keys), encoding="utf-8")
    return folder / "paper.tex"
