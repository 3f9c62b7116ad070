"""Correct .bib entries as the common exporters write them read as correct.

Found 2026-12-02 by writing real works of the sample papers (their records are the
real INSPIRE/arXiv records in ``sample_papers/*/index_records*``) as INSPIRE, NASA
ADS, arXiv, Crossref/DataCite content negotiation, Google Scholar, Zotero, Better
BibTeX, Mendeley, JabRef, DBLP and Semantic Scholar export them: each case below
was a false flag on a correct entry. Each fix also has a wrong entry of the same
shape that must still be caught.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.tex.conftest import checked


def _checked(tmp_path: Path, index: Path, text: str) -> dict[str, dict[str, Any]]:
    """The report.json entries of the .bib ``text`` checked offline, by key."""
    return {e["key"]: e for e in checked(tmp_path, index, "refs.bib", text, "--index-complete")}


def _labels(entries: dict[str, dict[str, Any]]) -> dict[str, str]:
    return {key: e["label"] for key, e in entries.items()}


def _fields(entry: dict[str, Any]) -> list[str]:
    return [d["field"] for d in entry["discrepancies"]]


# Du, Behrens, Niemeyer, MNRAS 465 (2017) 941, arXiv:1608.02575 (inspire:90000940)
DU_AUTHORS = "Du, Xiaolong and Behrens, Christoph and Niemeyer, Jens C."

# the preprint of a published work, cited by arXiv's DOI: Zotero's "Preprint" item, and
# doi.org's BibTeX for the DOI (DataCite). The arXiv DOI was compared with the record's
# journal DOI: a false 'doi' MINOR on every such entry
ARXIV_DOI = {
    "zotero": ("@misc{du_zotero,\n\ttitle = {Substructure of fuzzy dark matter haloes},\n"
               "\turl = {http://arxiv.org/abs/{id}},\n\tdoi = {10.48550/arXiv.{id}},\n"
               "\turldate = {2024-05-02},\n\tpublisher = {arXiv},\n"
               f"\tauthor = {{{DU_AUTHORS}}},\n\tmonth = aug,\n\tyear = {{2016}},\n"
               "\tnote = {arXiv:{id} [astro-ph]},\n}\n"),
    "datacite": ("@misc{du_datacite,\n  doi = {10.48550/ARXIV.{id}},\n"
                 f"  author = {{{DU_AUTHORS}}},\n"
                 "  keywords = {Cosmology and Nongalactic Astrophysics (astro-ph.CO)},\n"
                 "  title = {Substructure of fuzzy dark matter haloes},\n"
                 "  publisher = {arXiv},\n  year = {2016},\n"
                 "  copyright = {arXiv.org perpetual, non-exclusive license}\n}\n"),
}


@pytest.mark.parametrize("exporter", sorted(ARXIV_DOI))
def test_an_arxiv_doi_is_the_eprint_not_a_wrong_doi(tmp_path: Path, index: Path,
                                                     exporter: str) -> None:
    text = ARXIV_DOI[exporter]
    right = _checked(tmp_path / "a", index, text.replace("{id}", "1608.02575"))
    assert set(_labels(right).values()) == {"EXACT"}, right
    (wrong,) = _checked(tmp_path / "b", index,
                        text.replace("{id}", "1608.02576")).values()
    assert wrong["label"] == "MINOR"
    assert set(_fields(wrong)) & {"doi", "eprint"}, wrong


# Better BibTeX (biblatex) exports an arXiv preprint as @online with eprinttype = arXiv:
# it was SKIPPED as a web page, so a fabricated or wrong preprint passed unchecked
BBT_ONLINE = (
    "@online{aprileXENON100DarkMatter2016,\n"
    "  title = {{{XENON100 Dark Matter Results}} from a {{Combination}} of 477 {{Live Days}}},\n"
    "  author = {{who} and Aalbers, J. and Agostini, F. and Alfonsi, M.},\n"
    "  date = {2016-09-20},\n  eprint = {1609.06154},\n  eprinttype = {arXiv},\n"
    "  eprintclass = {astro-ph, physics:hep-ex},\n  doi = {10.48550/arXiv.1609.06154},\n"
    "  url = {http://arxiv.org/abs/1609.06154},\n  urldate = {2024-05-02},\n"
    "  pubstate = {prepublished}\n}\n")


def test_an_online_preprint_is_checked_not_skipped(tmp_path: Path, index: Path) -> None:
    (right,) = _checked(tmp_path / "a", index, BBT_ONLINE.replace("{who}", "Aprile, E.")).values()
    assert right["label"] == "EXACT", right
    (wrong,) = _checked(tmp_path / "b", index, BBT_ONLINE.replace("{who}", "Smith, E.")).values()
    assert wrong["label"] == "MINOR"
    assert _fields(wrong) == ["author"]


# DBLP and Semantic Scholar cite a preprint as journal = {CoRR} / {ArXiv} with volume =
# {abs/ID}: 'abs/1608.02575' was compared with the journal volume 465 and CoRR with
# MNRAS (a false 'journal' and 'volume' MINOR on every such entry of a published work)
CORR = {
    "dblp": ("@article{DBLP:journals/corr/abs-1608-02575,\n"
             "  author       = {Xiaolong Du and\n                  Christoph Behrens and\n"
             "                  Jens C. Niemeyer},\n"
             "  title        = {Substructure of fuzzy dark matter haloes},\n"
             "  journal      = {CoRR},\n  volume       = {abs/{id}},\n  year         = {2016},\n"
             "  url          = {https://arxiv.org/abs/{id}},\n  eprinttype    = {arXiv},\n"
             "  eprint       = {{id}},\n"
             "  biburl       = {https://dblp.org/rec/journals/corr/abs-1608-02575.bib},\n"
             "  bibsource    = {dblp computer science bibliography, https://dblp.org}\n}\n"),
    "semanticscholar": ("@article{Du2016SubstructureOF,\n"
                        "  title={Substructure of fuzzy dark matter haloes},\n"
                        "  author={Xiaolong Du and Christoph Behrens and Jens C. Niemeyer},\n"
                        "  journal={ArXiv},\n  year={2016},\n  volume={abs/{id}},\n"
                        "  url={https://api.semanticscholar.org/CorpusID:119091475}\n}\n"),
}


@pytest.mark.parametrize("exporter", sorted(CORR))
def test_a_corr_volume_is_the_arxiv_id(tmp_path: Path, index: Path, exporter: str) -> None:
    text = CORR[exporter]
    (right,) = _checked(tmp_path / "a", index, text.replace("{id}", "1608.02575")).values()
    assert right["label"] == "EXACT", right
    (wrong,) = _checked(tmp_path / "b", index, text.replace("{id}", "1608.02576")).values()
    assert wrong["label"] == "MINOR"
    assert _fields(wrong) == ["eprint"]


def _article(key: str, authors: str, title: str, journal: str, rest: str) -> str:
    return (f"@article{{{key},\n  author = {{{authors}}},\n  title = {{{title}}},\n"
            f"  journal = {{{journal}}},\n  {rest}\n}}\n")


PARNOVSKY = ("Parnovsky, S. L.", "Gravitational interaction of celestial bodies and black "
             "holes with particle dark matter")  # Phys.Rev.D 86 (2012) 123505
OKADA = ("Okada, Hiroshi and Toma, Takashi", "3.55 keV X-ray Line Signal from Excited Dark "
         "Matter in Radiative Neutrino Model")  # Phys.Lett.B 737 (2014) 162
KHVESHCHENKO = ("Khveshchenko, D. V.", "Simulating holographic correspondence in flexible "
                "graphene")  # Europhys.Lett. 104 (2013) 47002
CHAN = ("{Chan}, Man Ho", "Observational evidences of the Yukawa Potential Interacting Dark "
        "Matter")  # Astrophys.J. 769 (2013) L2

# journal names as exporters spell them: Scopus's long names with a subtitle, which
# Mendeley imports ("Physical Review D - Particles, ...", "Physics Letters, Section B:
# ..."); Crossref's "EPL (Europhysics Letters)"; ADS's \apjl for a Letter that INSPIRE
# records as Astrophys.J. with page L2. Each was a false 'journal' MINOR
JOURNALS = {
    "scopus-prd": (PARNOVSKY, "Physical Review D - Particles, Fields, Gravitation and "
                   "Cosmology", "volume = {86}, number = {12}, pages = {123505}, year = {2012}",
                   "Physical Review C - Nuclear Physics"),
    "scopus-plb": (OKADA, "Physics Letters, Section B: Nuclear, Elementary Particle and "
                   "High-Energy Physics", "volume = {737}, pages = {162--166}, year = {2014}",
                   "Physics Letters, Section A: General, Atomic and Solid State Physics"),
    "crossref-epl": (KHVESHCHENKO, "EPL (Europhysics Letters)",
                     "volume = {104}, number = {4}, pages = {47002}, year = {2013}",
                     "JETP Letters (Pis'ma v ZhETF)"),
    "ads-apjl": (CHAN, r"\apjl", "year = 2013, month = may, volume = {769}, number = {1}, "
                 "eid = {L2}, pages = {L2}", r"\apjs"),
}


@pytest.mark.parametrize("name", sorted(JOURNALS))
def test_exporters_journal_names_are_the_journal(tmp_path: Path, index: Path,
                                                 name: str) -> None:
    (authors, title), journal, rest, other = JOURNALS[name]
    (right,) = _checked(tmp_path / "a", index,
                        _article(name, authors, title, journal, rest)).values()
    assert right["label"] == "EXACT", right
    (wrong,) = _checked(tmp_path / "b", index,
                        _article(name, authors, title, other, rest)).values()
    assert wrong["label"] == "MINOR"
    assert _fields(wrong) == ["journal"]


# Crossref's BibTeX (doi.org content negotiation) carries HTML entities: the TeX decoder
# read "Astronomy &amp; Astrophysics" as "Astronomy amp; Astrophysics" (a false 'journal'
# MINOR). Sobouti, A&A 464 (2007) 921 (inspire:712271, which keeps the arXiv title)
CROSSREF_ENTITIES = (
    "@article{Sobouti_2007, title={An f(r) gravitation instead of dark matter}, "
    "volume={464}, ISSN={1432-0746}, url={http://dx.doi.org/10.1051/0004-6361:20065188}, "
    "DOI={10.1051/0004-6361:20065188}, number={3}, journal={{journal}}, "
    "publisher={EDP Sciences}, author={Sobouti, Y.}, year={2007}, month=jan, "
    "pages={921\u2013930} }\n")


def test_html_entities_of_crossref_are_text(tmp_path: Path, index: Path) -> None:
    (right,) = _checked(tmp_path / "a", index, CROSSREF_ENTITIES.replace(
        "{journal}", "Astronomy &amp; Astrophysics")).values()
    assert right["label"] == "EXACT", right
    (wrong,) = _checked(tmp_path / "b", index, CROSSREF_ENTITIES.replace(
        "{journal}", "Astronomy &amp; Geophysics")).values()
    assert _fields(wrong) == ["journal"]


# arXiv's "Export BibTeX" (and DBLP's) gives the year the preprint appeared; the index
# record of Hui et al., PRD 95 (2017) 043541 (inspire:90004605) lists no e-print, so
# 2016, the year of arXiv:1610.08297, was a false 'year' MINOR
ARXIV_EXPORT = ("@misc{hui2016ultralight,\n"
                "      title={Ultralight scalars as cosmological dark matter}, \n"
                "      author={Lam Hui and Jeremiah P. Ostriker and Scott Tremaine and "
                "Edward Witten},\n      year={{year}},\n      eprint={1610.08297},\n"
                "      archivePrefix={arXiv},\n      primaryClass={astro-ph.CO},\n"
                "      url={https://arxiv.org/abs/1610.08297}, \n}\n")


def test_the_year_of_the_cited_eprint_is_the_works(tmp_path: Path, index: Path) -> None:
    (right,) = _checked(tmp_path / "a", index, ARXIV_EXPORT.replace("{year}", "2016")).values()
    assert right["label"] == "EXACT", right
    for year in ("2015", "2018"):
        (wrong,) = _checked(tmp_path / year, index,
                            ARXIV_EXPORT.replace("{year}", year)).values()
        assert _fields(wrong) == ["year"], year


# Mendeley writes all links of a document into one url field, separated by spaces: the
# whole field was read as one arXiv id and one DOI (false 'doi' and 'eprint' MINORs)
MENDELEY_URLS = ("@article{Du2017,\n"
                 f"author = {{{DU_AUTHORS}}},\n"
                 "journal = {Monthly Notices of the Royal Astronomical Society},\n"
                 "number = {1},\npages = {941--951},\n"
                 "title = {{Substructure of fuzzy dark matter haloes}},\n"
                 "url = {http://arxiv.org/abs/{id} http://dx.doi.org/10.1093/mnras/stw2724},\n"
                 "volume = {465},\nyear = {2017}\n}\n")


def test_mendeley_links_are_read_one_by_one(tmp_path: Path, index: Path) -> None:
    text = MENDELEY_URLS
    (right,) = _checked(tmp_path / "a", index, text.replace("{id}", "1608.02575")).values()
    assert right["label"] == "EXACT", right
    (wrong,) = _checked(tmp_path / "b", index, text.replace("{id}", "1608.02576")).values()
    assert _fields(wrong) == ["eprint"]


# NASA ADS's proceedings: booktitle = the conference, series = ADS's name of the series
# ("American Institute of Physics Conference Series", INSPIRE's AIP Conf.Proc.); and
# ADS's names the tables lacked ("Soviet Journal of Experimental and Theoretical Physics
# Letters" = JETP Lett.). Both were false 'journal' MINORs
ADS_VENUES = {
    "series": ("@INPROCEEDINGS{2012AIPC.1473...74R,\n"
               "       author = {{Rodriguez-Meza}, Mario A.},\n"
               "        title = \"{Study of rotation curves of spiral galaxies with a scalar "
               "field dark matter model}\",\n"
               "    booktitle = {Eighth Workshop on Gravitation and Mathematical Physics},\n"
               "         year = 2012,\n       series = {{venue}},\n"
               "       volume = {1473},\n        pages = {74-79},\n"
               "archivePrefix = {arXiv},\n       eprint = {1210.6947},\n}\n",
               "American Institute of Physics Conference Series",
               "Astronomical Society of the Pacific Conference Series"),
    "jetpl": ("@ARTICLE{2012JETPL..95..379D,\n"
              "       author = {{Derbin}, A.~V. and {Drachnev}, I.~S. and {Kayunov}, A.~S. and "
              "{Muratova}, V.~N.},\n"
              "        title = \"{Search for solar axions produced by Compton process and "
              "bremsstrahlung using axioelectric effect}\",\n"
              "      journal = {{venue}},\n         year = 2012,\n        month = jun,\n"
              "       volume = {95},\n       number = {7},\n        pages = {379-382},\n"
              "archivePrefix = {arXiv},\n       eprint = {1206.4142},\n}\n",
              "Soviet Journal of Experimental and Theoretical Physics Letters",
              "Soviet Journal of Experimental and Theoretical Physics"),
}


@pytest.mark.parametrize("name", sorted(ADS_VENUES))
def test_ads_venues_are_the_records(tmp_path: Path, index: Path, name: str) -> None:
    text, venue, other = ADS_VENUES[name]
    (right,) = _checked(tmp_path / "a", index, text.replace("{venue}", venue)).values()
    assert right["label"] == "EXACT", right
    (wrong,) = _checked(tmp_path / "b", index, text.replace("{venue}", other)).values()
    assert _fields(wrong) == ["journal"]
