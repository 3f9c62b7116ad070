"""Unit tests of the pure parsers: ids, LaTeX decoding, names, refstrings, bbl, aux, cites."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.tex.aux import parse_aux_text, parse_bcf_text
from citecheck_tex.tex.bbl import parse_bbl_text
from citecheck_tex.tex.bib import parse_bib_text, split_names
from citecheck_tex.tex.cites import CiteEvent, scan_tex
from citecheck_tex.tex.project import load_project
from citecheck_tex.tex.refstring import parse_reference
from citecheck_tex.vocab.ids import looks_like_texkey, normalize_arxiv, normalize_doi
from citecheck_tex.vocab.latex_text import latex_to_unicode

CASES = Path(__file__).parent / "cases"


@pytest.mark.parametrize(("raw", "norm"), [
    ("arXiv:hep-th/9711200v2", "hep-th/9711200"),
    ("https://arxiv.org/abs/1706.03762v5", "1706.03762"),
    ("https://arxiv.org/pdf/astro-ph/0110472.pdf", "astro-ph/0110472"),
    ("1807.06209 [astro-ph.CO]", "1807.06209"),
])
def test_normalize_arxiv(raw: str, norm: str) -> None:
    assert normalize_arxiv(raw) == norm


def test_normalize_doi_and_texkey() -> None:
    assert normalize_doi("https://doi.org/10.1103/PhysRevLett.30.1343") == \
        "10.1103/physrevlett.30.1343"
    assert normalize_doi("doi:10.1000/X_Y.") == "10.1000/x_y"
    assert looks_like_texkey("Maldacena:1997re")
    assert not looks_like_texkey("maldacena1997")


@pytest.mark.parametrize(("tex", "text"), [
    (r"Heged{\H u}s", "Hegedűs"), (r"$\Lambda$CDM", "ΛCDM"), (r"Sa{\'u}l", "Saúl"),
    (r"\apj", "ApJ"), (r"{\v Z}eljko Ivezi\'c", "Željko Ivezić"),
])
def test_latex_to_unicode(tex: str, text: str) -> None:
    assert latex_to_unicode(tex) == text


def test_split_names_particles_suffix_literal() -> None:
    people, truncated = split_names(
        r"van der Waals, J. D. and Smith, Jr., John and {ATLAS Collaboration} and others")
    assert truncated
    assert [(p.von, p.family, p.jr, p.literal) for p in people] == [
        ("van der", "Waals", "", False), ("", "Smith", "Jr.", False),
        ("", "ATLAS Collaboration", "", True)]


def test_parse_error_keeps_other_entries() -> None:
    text = "@article{a, title={A}}\n@article{b, title={broken\n@article{c, title={C}}\n"
    entries, problems = parse_bib_text(text, "x.bib")
    assert [e.key for e in entries] == ["a", "c"]
    assert [(p.code, p.line) for p in problems if p.code != "missing-field"] == [
        ("parse-error", 2)]


@pytest.mark.parametrize(("ref", "expected"), [
    ("A. Author, B. Author, Phys. Rev. Lett. 95, 251302 (2005)",
     {"author": "A. Author and B. Author", "journal": "Phys. Rev. Lett.", "volume": "95",
      "pages": "251302", "year": "2005"}),
    ("Nucl.Phys.,B106,475", {"journal": "Nucl.Phys.", "volume": "B106", "pages": "475"}),
    ("[Bean & Melchiorri, 2009, Current constraints on the dark energy equation of state]"
     "(https://arxiv.org/pdf/astro-ph/0110472.pdf)",
     {"author": "Bean and Melchiorri", "year": "2009", "eprint": "astro-ph/0110472",
      "title": "Current constraints on the dark energy equation of state"}),
    ("[Attention Is All You Need](https://arxiv.org/abs/1706.03762)",
     {"title": "Attention Is All You Need", "eprint": "1706.03762"}),
    ('J. M. Maldacena, "The Large N limit of superconformal field theories and supergravity," '
     "Adv. Theor. Math. Phys. 2, 231 (1998), arXiv:hep-th/9711200.",
     {"author": "J. M. Maldacena", "journal": "Adv. Theor. Math. Phys.", "volume": "2",
      "pages": "231", "year": "1998", "eprint": "hep-th/9711200",
      "title": "The Large N limit of superconformal field theories and supergravity"}),
    ("G. Aad et al. (ATLAS Collaboration), Phys. Lett. B 716, 1 (2012), "
     "doi:10.1016/j.physletb.2012.08.020",
     {"author": "G. Aad and others", "journal": "Phys. Lett. B", "volume": "716", "pages": "1",
      "doi": "10.1016/j.physletb.2012.08.020"}),
])
def test_parse_reference(ref: str, expected: dict[str, str]) -> None:
    got = parse_reference(ref)
    for k, v in expected.items():
        assert got.get(k) == v, k


def test_biber_bbl_given_directly() -> None:
    project = load_project(CASES / "biber_missing" / "main.bbl")
    assert [e.key for e in project.entries] == ["extra1", "einstein1905", "Gross:1973id"]
    assert [(p.code, p.key) for p in project.problems] == [("undefined-key", "nokey")]
    einstein = project.entries[1]
    assert einstein.doi == "10.1002/andp.19053221004"
    assert einstein.authors[1].literal


def test_bbl_from_revtex_parses_bibinfo() -> None:
    text = (CASES / "revtex_apsrev" / "main.bbl").read_text(encoding="utf-8")
    entries, problems = parse_bbl_text(text, "main.bbl")
    assert problems == []
    mald = entries[0]
    assert (mald.key, mald.arxiv, mald.venue, mald.volume, mald.year) == (
        "Maldacena:1997re", "hep-th/9711200", "Adv. Theor. Math. Phys.", "2", "1998")


def test_aux_and_bcf() -> None:
    aux = parse_aux_text("\\citation{a,b}\n\\citation{REVTEX42Control}\n\\bibdata{refs}\n"
                         "\\abx@aux@cite{0}{c}\n\\@input{ch.aux}\n")
    assert aux.keys == ("a", "b", "c") and aux.resources == ("refs",)
    assert aux.inputs == ("ch.aux",)
    bcf = parse_bcf_text("<bcf:citekey order=\"1\">k1</bcf:citekey>"
                         "<bcf:datasource type=\"file\">refs.bib</bcf:datasource>")
    assert bcf.keys == ("k1",) and bcf.resources == ("refs.bib",)


def test_cite_variants() -> None:
    tex = ("\\Textcite{a}\\footfullcite[p]{b}\\citepalias{c}\\autocites[1]{d}[2]{e}\n"
           "\\supercite{ f , g }\\cite{x-y_z+w/v}\n")
    keys = [k for ev in scan_tex(tex) if isinstance(ev, CiteEvent) for k, _ in ev.keys]
    assert keys == ["a", "b", "c", "d", "e", "f", "g", "x-y_z+w/v"]


def test_ads_preprint_pages_are_an_identifier_not_pages() -> None:
    # Real NASA-ADS export (shared/corpus/bib/lsst_refs_ads.bib, entry 2024arXiv240319321M):
    # ADS writes the arXiv id into ``pages``; compared as pages it contradicted the
    # record's real page range (a false MINOR in bench.accuracy.real_judged).
    text = """@ARTICLE{2024arXiv240319321M,
       author = {{Mainetti}, Gabriele and {Hernandez}, Fabio},
        title = "{Experience deploying an analysis facility for the Rubin Observatory's Legacy Survey of Space and Time (LSST) data}",
      journal = {arXiv e-prints},
         year = 2024,
          eid = {arXiv:2403.19321},
        pages = {arXiv:2403.19321},
archivePrefix = {arXiv},
       eprint = {2403.19321},
}"""
    (entry,), problems = parse_bib_text(text, "ads.bib")
    assert not problems
    assert entry.pages == ""
    assert entry.arxiv == "2403.19321"
    assert entry.venue == ""


def test_folder_main_file_rule_knows_latex209_and_part_classes(tmp_path: Path) -> None:
    """The one main-file rule (check on a folder, gate): ``\\documentstyle`` (LaTeX 2.09,
    old arXiv papers) is a main file; a ``standalone`` or ``subfiles`` part is not."""
    from citecheck_tex.tex.project import find_main_file, main_file_candidates

    (tmp_path / "old.tex").write_text("\\documentstyle[12pt]{article}\n\\begin{document}\n"
                                      "\\cite{a}\n\\end{document}\n", encoding="utf-8")
    (tmp_path / "fig.tex").write_text("\\documentclass{standalone}\n", encoding="utf-8")
    (tmp_path / "ch.tex").write_text("\\documentclass[old.tex]{subfiles}\n", encoding="utf-8")
    assert main_file_candidates(tmp_path) == [tmp_path / "old.tex"]
    assert find_main_file(tmp_path) == tmp_path / "old.tex"


def test_a_doi_field_of_several_dois_names_the_first() -> None:
    # INSPIRE's record 1387987 repeats its DOI in the field, across a line break that
    # biber turns into a space: the .bbl was a false MINOR doi (2026-12-02)
    from citecheck_tex.vocab.ids import normalize_doi

    assert normalize_doi("10.1051/epjconf/201716402001 10.1051/epjconf/201716402001") == \
        "10.1051/epjconf/201716402001"
    assert normalize_doi("doi 10.1000 x") == "doi 10.1000 x"  # malformed: shown as written


def test_a_journal_starts_a_word() -> None:
    # ieeetr's "vol.~14YRM2025, p.~003" (a PoS volume without its journal): read as the
    # journal "YRM", volume 2025 (real HEPML.bib entry Amaro:2026vga, 2026-12-02)
    from citecheck_tex.tex.refstring import parse_reference

    fields = parse_reference("F. D. Amaro et al., \u201cTrigger Optimization and Event "
                             "Classification\u201d, vol. 14YRM2025, p. 003, 1 2026.")
    assert "journal" not in fields and fields.get("volume") != "2025"


def test_bare_initial_names_then_year_and_a_comma() -> None:
    # MNRAS-like text "Mitra S, Choudhury T R, Ferrara A 2015, MNRAS, 454, L76": the
    # last name had been read as the title "Ferrara A 2015" (a false title MINOR)
    from citecheck_tex.tex.refstring import parse_reference

    fields = parse_reference("Mitra S, Choudhury T R, Ferrara A 2015, MNRAS, 454, L76")
    assert fields["author"] == "Mitra, S. and Choudhury, T. R. and Ferrara, A."
    assert "title" not in fields and fields["volume"] == "454" and fields["pages"] == "L76"


@pytest.mark.parametrize(("text", "want"), [
    # mnras/aasjournal: a collaboration and its year alone, or with a PoS volume; the
    # name and year had been read as the title (a false MAJOR); aasjournal's "---." (the
    # authors of the item before) had begun a title
    ("ATLAS Collaboration 2024a", {"author": "{ATLAS Collaboration}", "year": "2024"}),
    ("CMS Collaboration. 2025, PoS, ICHEP2024, 992",
     {"author": "{CMS Collaboration}", "year": "2025", "journal": "PoS",
      "volume": "ICHEP2024", "pages": "992"}),
    ("\u2014. 2025n, PoS, ICHEP2024, 992",
     {"year": "2025", "journal": "PoS", "volume": "ICHEP2024", "pages": "992"}),
])
def test_collaboration_year_and_repeated_authors(text: str, want: dict[str, str]) -> None:
    from citecheck_tex.tex.refstring import parse_reference

    assert parse_reference(text) == want


def test_iopart_collaboration_after_the_names() -> None:
    # iopart-num prints INSPIRE's collaboration field after the authors: "... and Wolf M
    # (CMS) 2023 Title" (real HEPML.bib entry Bein:2023ylt); the list had not been read
    from citecheck_tex.tex.refstring import parse_reference

    fields = parse_reference("Bein S, Connor P, Pedro K, Schleper P and Wolf M (CMS) 2023 "
                             "Refining fast simulation using machine learning")
    assert fields["author"].endswith("Wolf, M.") and fields["year"] == "2023"
    assert fields["title"] == "Refining fast simulation using machine learning"


def test_a_cited_key_whose_entry_is_malformed_points_at_the_entry(tmp_path: Path) -> None:
    # a missing closing brace: the entry is unreadable, not absent; the cited key's
    # problem says where it is instead of "defined in no bibliography"
    (tmp_path / "refs.bib").write_text(
        "@article{good, author = {A. Author}, title = {T}, year = {2000}}\n\n"
        "@article{Broken, author = {B. Author},\n  title = {Unclosed},\n", encoding="utf-8")
    (tmp_path / "p.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\n\\cite{good}\n\\cite{broken}\n"
        "\\cite{absent}\n\\bibliography{refs}\n\\end{document}\n", encoding="utf-8")
    problems = {p.key: p for p in load_project(tmp_path / "p.tex").problems
                if p.code == "undefined-key"}
    assert set(problems) == {"broken", "absent"}
    assert "its entry at refs.bib:3 could not be read" in problems["broken"].message
    assert (problems["broken"].file, problems["broken"].line) == ("p.tex", 4)
    assert "defined in no bibliography" in problems["absent"].message


@pytest.mark.parametrize(("author", "warned"), [
    ("ATLAS Collaboration", "'A. Collaboration'"),  # HEPML.bib ATLAS:2023bzb, as written
    ("The BOREXINO Collaboration", "'T. B. Collaboration'"),  # HEPML.bib BOREXINO:2023pcv
    ("{ATLAS} Collaboration", "'A. Collaboration'"),
    ("{ATLAS Collaboration}", ""),
    ("Aad, G. and others", ""),
    ("{CMS Collaboration} and Sirunyan, A. M.", ""),
])
def test_an_unbraced_collaboration_author_is_a_hygiene_warning(author: str, warned: str) -> None:
    """BibTeX reads "ATLAS Collaboration" as given name "ATLAS", family "Collaboration":
    apsrev4-2, ieeetr, elsarticle-num and iopart-num print "A. Collaboration"."""
    (entry,), problems = parse_bib_text(
        f'@article{{ATLAS:2023bzb,\n    author = "{author}",\n    title = "T",\n'
        '    eprint = "2302.11739",\n    journal = "JHEP", volume = "09", pages = "004",\n'
        '    year = "2023"\n}\n', "HEPML.bib")
    found = [p for p in problems if p.code == "unbraced-collaboration"]
    if not warned:
        assert found == []
        return
    (problem,) = found
    assert warned in problem.message and (problem.file, problem.line) == ("HEPML.bib", 1)
    assert problem.severity == "warning"
