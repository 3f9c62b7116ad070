"""One TeX decoder for index and frontend, and record text normalised like the citation.

* An index built from a .bib holds exactly what the .bib reader sees (``Rom\\~ao``,
  ``1\\%``, ``{\\"o}``, ``{\\'\\i}``): issue 10, pattern 5.
* A field value from JSON or XML is not TeX source: a bare ``%`` is a percent sign
  (``Power Spectra to 1% Accuracy``), and LaTeX math in a record title (``$\\hbar$``)
  reads like the Unicode the citation's reader made of it: issue 13, item 3.

Real cases from tests/names/data (see PROVENANCE.md there).
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from citecheck_tex.config import Settings
from citecheck_tex.model import Entry, Label
from citecheck_tex.pipeline import check_entries
from citecheck_tex.sources.importers import arxiv_snapshot_row, bib_row, inspire_row
from citecheck_tex.sources.local_index import LocalIndex
from citecheck_tex.tex.bib import parse_bib_text
from citecheck_tex.verify.compare import compare
from citecheck_tex.verify.normalize import title_key, title_similarity
from citecheck_tex.vocab.latex_text import decode_value, latex_to_unicode

DATA = Path(__file__).resolve().parent / "data"


def _json(name: str, ident: str) -> dict[str, Any]:
    for line in (DATA / name).read_text(encoding="utf-8").splitlines():
        obj = json.loads(line)
        if str(obj.get("id") or obj.get("arxiv_id")) == ident:
            return dict(obj)
    raise KeyError(ident)


def _entries(text: str) -> dict[str, Entry]:
    entries, problems = parse_bib_text(text, "refs.bib")
    assert not [p for p in problems if p.code == "parse-error"]
    return {e.key: e for e in entries}


# ---------------------------------------------------------------- one decoder


def test_index_built_from_a_bib_holds_what_the_reader_sees(tmp_path: Path) -> None:
    """Every entry of the real excerpt: the index record has the reader's title and authors."""
    bib = DATA / "bib_excerpt.bib"
    entries = _entries(bib.read_text(encoding="utf-8"))
    index = LocalIndex.open(tmp_path / "index.sqlite")
    try:
        index.add_file(bib)
        for entry in entries.values():
            found = [r for r in index.by_doi(entry.doi)] if entry.doi else \
                index.by_arxiv(entry.arxiv) if entry.arxiv else \
                index.search_title(entry.title)
            rec = next(r for r in found if r.id.endswith(":" + entry.key))
            assert rec.title == entry.title
            assert rec.authors[:100] == entry.authors[:100]
    finally:
        index.close()
    assert "1% Optical Photometry" in entries["2007AJ....134..973I"].title


def test_decoding_agrees_between_bib_and_dump_values() -> None:
    """``Rom\\~{a}o``, ``Go\\~ni``, ``{\\"o}``, ``\\'{\\i}``, ``1\\%``: the .bib reader and a
    dump value decode alike (the same decoder)."""
    for tex, text in [(r"Rom\~{a}o", "Romão"), (r"Go\~ni", "Goñi"), (r'Bj{\"o}rn', "Björn"),
                      (r"Mart\'{\i}nez", "Martínez"), (r"Lu{\'\i}s", "Luís"),
                      (r"Industrial 1\% Optical", "Industrial 1% Optical")]:
        entry = _entries(f"@article{{k, title = {{{tex}}}, author = {{{tex}, A.}}}}")["k"]
        assert entry.title == text
        assert entry.authors[0].family == text
        assert decode_value(tex) == text == latex_to_unicode(tex)


def test_bare_percent_in_a_json_value_is_a_percent_sign() -> None:
    """arXiv 0704.0312 and INSPIRE 1374309 carry a bare % in their titles."""
    arxiv = arxiv_snapshot_row(_json("arxiv_metadata_snapshot_excerpt.jsonl", "0704.0312"))
    assert arxiv is not None
    assert arxiv.record.title == ("Power Spectra to 1% Accuracy between Dynamical Dark Energy "
                                  "Cosmologies")
    inspire = inspire_row(_json("inspire_literature_excerpt.jsonl", "1374309"))
    assert inspire is not None
    assert inspire.record.title.endswith("the 0.000029% solution")
    # in a .tex or .bib source a bare % still starts a comment
    assert latex_to_unicode("to 1% Accuracy") == "to 1"
    assert decode_value("to 1% Accuracy & more") == "to 1% Accuracy & more"


# ---------------------------------------------------------------- record text like the citation


@pytest.mark.parametrize("raw, bib_title", [
    # arXiv acc-phys/9411002 (record as the arXiv API and dumps give it), cited from a .bib
    (r"Order $\hbar$ Corrections to the Classical Dynamics of a Particle with Intrinsic Spin "
     r"Moving in a Constant Magnetic Field",
     r"{Order $\hbar$ Corrections to the Classical Dynamics of a Particle with Intrinsic Spin "
     r"Moving in a Constant Magnetic Field}"),
    # INSPIRE 1312645
    (r"$D_{s3}^*(2860)$ and $D_{s1}^*(2860)$ as the 1D $c\bar{s}$ states",
     r"{$D_{s3}^*(2860)$ and $D_{s1}^*(2860)$ as the 1D $c\bar{s}$ states}"),
    # arXiv 1411.4413
    (r"Observation of the rare $B^0_s\to\mu^+\mu^-$ decay from the combined analysis of CMS "
     r"and LHCb data",
     r"{Observation of the rare $B^0_s\to\mu^+\mu^-$ decay from the combined analysis of CMS "
     r"and LHCb data}"),
    # arXiv 0704.0312: a bare % in the record, \% in the .bib
    ("Power Spectra to 1% Accuracy between Dynamical Dark Energy Cosmologies",
     r"{Power Spectra to 1\% Accuracy between Dynamical Dark Energy Cosmologies}"),
])
def test_raw_record_title_equals_the_decoded_citation(raw: str, bib_title: str) -> None:
    cited = _entries(f"@article{{k, title = {bib_title}}}")["k"].title
    assert "$" not in cited and "\\" not in cited  # the reader made Unicode of it
    assert title_key(raw) == title_key(cited)
    assert title_similarity(raw, cited) == 1.0


def test_raw_record_titles_agree_with_the_snapshot_titles() -> None:
    """The same arXiv record as the API gives it (raw TeX) and as the index holds it."""
    for ident in ("acc-phys/9411002", "1411.4413", "0704.0312"):
        obj = _json("arxiv_metadata_snapshot_excerpt.jsonl", ident)
        row = arxiv_snapshot_row(obj)
        assert row is not None
        assert title_similarity(obj["title"], row.record.title) == 1.0


CITING = r"""
@article{Francis:2007qa,
    author = "Francis, Matthew J. and Lewis, Geraint F. and Linder, Eric V.",
    title = "{Power Spectra to 1\% Accuracy between Dynamical Dark Energy Cosmologies}",
    eprint = "0704.0312",
    archivePrefix = "arXiv",
    year = "2007"
}
@article{Nash:1994hb,
    author = "Nash, Patrick L.",
    title = "{Order $\hbar$ Corrections to the Classical Dynamics of a Particle with Intrinsic Spin Moving in a Constant Magnetic Field}",
    eprint = "acc-phys/9411002",
    year = "1994"
}
@article{CMS:2014xfa,
    author = "Khachatryan, V. and others",
    collaboration = "CMS, LHCb",
    title = "{Observation of the rare $B^0_s\to\mu^+\mu^-$ decay from the combined analysis of CMS and LHCb data}",
    eprint = "1411.4413",
    archivePrefix = "arXiv",
    year = "2014"
}
@article{BaBar:2007ddh,
    author = "{BABAR Collaboration} and Aubert, B. and others",
    title = "{Measurement of the Hadronic Form Factor in D0 --> K- e+ nue Decays}",
    eprint = "0704.0020",
    year = "2007"
}
"""


def test_correct_citations_of_arxiv_dump_records_are_exact(tmp_path: Path) -> None:
    """Offline against an index of the real arXiv snapshot lines: no false 'title
    contradicts' or 'hijacked identifier' from ``1%``, ``$\\hbar$`` or a collaboration
    prefix in the author string."""
    index_path = tmp_path / "index.sqlite"
    index = LocalIndex.open(index_path)
    try:
        index.add_file(DATA / "arxiv_metadata_snapshot_excerpt.jsonl")
    finally:
        index.close()
    entries = list(_entries(CITING).values())
    settings = replace(Settings(), offline=True, index_path=str(index_path), cache_path="none",
                       sources=("local",))
    verdicts = {v.entry.key: v for v in check_entries(entries, settings)}
    for key, verdict in verdicts.items():
        assert verdict.label is Label.EXACT, (key, verdict.reason, verdict.discrepancies)


def test_bib_record_and_citation_compare_without_discrepancy() -> None:
    """The .bib reader's entry against the index row made from the same entry."""
    entries = _entries((DATA / "bib_excerpt.bib").read_text(encoding="utf-8"))
    for entry in entries.values():
        row = bib_row(entry, "bib_excerpt.bib")
        assert row is not None
        assert compare(entry, row.record).discrepancies == (), entry.key


def test_inspire_adapter_and_importer_read_a_hit_alike() -> None:
    """INSPIRE 1083826 (tests/fixtures/api/inspire_hits.jsonl, a real literature hit):
    the online adapter and the dump importer give the same decoded title and authors,
    and the record reads like the citation of INSPIRE's own BibTeX export."""
    from citecheck_tex.sources.inspire import parse_hit

    fixtures = Path(__file__).resolve().parents[1] / "fixtures" / "api" / "inspire_hits.jsonl"
    hit = next(h for h in map(json.loads, fixtures.read_text(encoding="utf-8").splitlines())
               if str(h["id"]) == "1083826")
    online = parse_hit(hit)
    row = inspire_row(hit)
    assert row is not None
    assert online.title == row.record.title
    assert "$" not in online.title and "τ" in online.title
    assert online.authors == row.record.authors
    cited = _entries(r"@article{Kimura:2012gi, title = {{The Form factors of $\tau -> K \pi(\eta)"
                     r" \nu$ and the predictions for CP violation beyond the standard model}}}")
    assert title_similarity(cited["Kimura:2012gi"].title, online.title) == 1.0


@pytest.mark.parametrize("unicode_title", [
    # what the .bib reader makes of the TeX (tt + U+0305), and the spellings references use
    "Measurement of the tt̅Z and tt̅W production cross sections in multilepton final states "
    "using 3.2 fb^-1 of pp collisions at √(s) = 13 TeV with the ATLAS detector",
    "Measurement of the t¯tZ and ttbar W production cross sections in multilepton final states "
    "using 3.2 fb−1 of pp collisions at √s = 13 TeV with the ATLAS detector",
])
def test_hep_notation_applies_to_decoded_tex(unicode_title: str) -> None:
    """INSPIRE 90004580 (corpus/dumps/inspire_literature.jsonl) titles its record with
    ``$t\\bar{t}Z$``, ``fb$^{-1}$`` and ``$\\sqrt{s} =$``: the raw record title, the cited
    title decoded by the .bib reader and the Unicode spellings give one title key."""
    raw = (r"Measurement of the $t\bar{t}Z$ and $t\bar{t}W$ production cross sections in "
           r"multilepton final states using 3.2 fb$^{-1}$ of $pp$ collisions at $\sqrt{s} =$ "
           r"13 TeV with the ATLAS detector")
    cited = _entries(f"@article{{k, title = {{{{{raw}}}}}}}")["k"].title
    assert title_key(raw) == title_key(cited) == title_key(unicode_title)
    assert title_key(r"Spin correlations in $\bar{t}t$ events") == \
        title_key("Spin correlations in tt̄ events")


@pytest.mark.parametrize("doi, cited", [
    ("10.1111/j.2041-210x.2012.00247.x",
     "Treebase: an R package for discovery, access and manipulation of online phylogenies"),
    ("10.1246/bcsj.36.278",
     "The Cationic Copolymerization of Styrene and p-Brornostyrene in Liquid Sulfur Dioxide"),
    ("10.1109/emc-b.2017.8260404",
     r"Verifying powerline emissions \& immunity test systems per IEC standards \& technical "
     r"reports"),
])
def test_publisher_markup_in_record_titles(doi: str, cited: str) -> None:
    """Real Crossref works whose titles carry JATS/HTML markup and entities: the adapter
    and the importer drop it, and the raw title compares equal to the cited one."""
    from citecheck_tex.sources.crossref import parse_work
    from citecheck_tex.sources.importers import crossref_row

    work = next(w for w in map(json.loads, (DATA / "crossref_markup_works.jsonl")
                               .read_text(encoding="utf-8").splitlines()) if w["DOI"] == doi)
    raw = work["title"][0]
    online = parse_work(work)
    row = crossref_row(work)
    assert row is not None
    for title in (online.title, row.record.title):
        assert "<" not in title and "&amp;" not in title
    cited_title = _entries(f"@article{{k, title = {{{cited}}}}}")["k"].title
    for title in (raw, online.title, row.record.title):
        assert title_similarity(title, cited_title) == 1.0, title
