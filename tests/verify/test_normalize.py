"""Normalisation removes formatting, never words."""

from __future__ import annotations

import pytest

from citecheck_tex.verify import normalize as nz


@pytest.mark.parametrize("a,b", [
    (r"$\alpha$-decay of $^{8}$Be", "α-decay of 8Be"),
    ("alpha decay of 8Be", "α-decay of ⁸Be"),
    ("Non-Abelian gauge fields", "Nonabelian gauge fields"),
    (r"{\"U}ber die Quantenmechanik", "Über die Quantenmechanik"),
    ("Yang--Mills theory", "Yang Mills Theory"),
])
def test_titles_equal_up_to_formatting(a: str, b: str) -> None:
    assert nz.title_key(a) == nz.title_key(b)
    assert nz.title_similarity(a, b) == 1.0


def test_changed_word_is_not_formatting() -> None:
    sim = nz.title_similarity("Turbulent particle transport in magnetized fusion plasma",
                              "Turbulent particle transport in magnetized fusion plasmas")
    assert 0.9 < sim < 1.0


def test_subtitle_omitted_scores_high_but_not_equal() -> None:
    full = "Dark energy: a review of the observational status"
    assert nz.title_similarity(full, "Dark energy") == pytest.approx(0.97)
    assert nz.is_subtitle_variant(full, "Dark energy")


@pytest.mark.parametrize("a,b", [("Müller", "Mueller"), (r"M{\"u}ller", "Muller"),
                                 ("van der Waals", "Waals"), ("Łukasz", "Lukasz")])
def test_name_keys_blind_to_transliteration_and_particles(a: str, b: str) -> None:
    assert nz.name_key(a) == nz.name_key(b)


def test_initials() -> None:
    assert nz.initials("David I.") == "di"
    assert nz.initials("D.B.") == "db"
    assert nz.initials("Marcelo C. de") == "mc"
    assert nz.initials_compatible("J.", "John David")
    assert not nz.initials_compatible("K.", "John")


@pytest.mark.parametrize("raw,norm", [
    ("arXiv:hep-th/9901001v2", "hep-th/9901001"),
    ("https://arxiv.org/pdf/1203.2758.pdf", "1203.2758"),
    ("1203.2758v3", "1203.2758"),
])
def test_norm_arxiv(raw: str, norm: str) -> None:
    assert nz.norm_arxiv(raw) == norm


def test_norm_doi_and_pages() -> None:
    assert nz.norm_doi("https://doi.org/10.1103/PhysRevD.1.1") == "10.1103/physrevd.1.1"
    assert nz.same_page("475--490", "475")
    assert nz.same_page("075001", "75001")
    assert not nz.same_page("476", "475")
    assert nz.volume_number("B106") == "106"


# --- particle-physics notation (titles of real CMS notes: the citation as INSPIRE's
# reference list holds it, and the INSPIRE record's own title)

@pytest.mark.parametrize(("cited", "record"), [
    ("Combined Standard Model Higgs boson searches with up to 2.3 fb-1 of pp collision data "
     "at √ s = 7 TeV at the LHC",
     "Combined Standard Model Higgs boson searches with up to 2.3 inverse femtobarns of pp "
     "collision data at sqrt(s)=7 TeV at the LHC"),
    ("Search for Neutral Higgs Bosons Decaying to Tau Pairs in pp Collisions at √ s=7 TeV",
     "Search for Neutral Higgs Bosons Decaying to Tau Pairs in pp Collisions at sqrts=7 TeV"),
    ("Measurement of the t¯t production cross section", "Measurement of the ttbar production "
     "cross section"),
    ("Measurement of the t\\bar{t} production", "Measurement of the tt\u0304 production"),
    ("With 5 fb^{-1} of data", "With 5 fb$^{-1}$ of data"),
])
def test_hep_notation_spellings_are_one_title(cited: str, record: str) -> None:
    assert nz.title_key(cited) == nz.title_key(record)


@pytest.mark.parametrize(("a", "b"), [
    ("Measurement of the tt production", "Measurement of the ttbar production"),
    ("At sqrt(s) = 7 TeV", "At sqrt(s) = 8 TeV"),
    ("The fab lab", "The lab"),
])
def test_hep_notation_keeps_real_differences(a: str, b: str) -> None:
    assert nz.title_key(a) != nz.title_key(b)


def test_a_short_main_title_before_a_colon_is_the_title_without_its_subtitle() -> None:
    # Real: Crossref records the KDD paper 10.1145/2939672.2939785 as "XGBoost" alone
    # (tests/fixtures/api/crossref_payloads.jsonl); the citation has the full title.
    cited = "XGBoost: A Scalable Tree Boosting System"
    assert nz.title_similarity(cited, "XGBoost") == 0.97
    assert nz.is_subtitle_variant(cited, "XGBoost")
    # a dash still needs a longer main title: "B - L" is not "B" without a subtitle
    assert nz.title_similarity("Gauged B - L Symmetry", "Gauged") < 0.97


def test_initials_as_bibtex_styles_abbreviate_them() -> None:
    # real HEPML.bib entries typeset by apsrev4-2 (2026-12-02): "Almeida, Eduardo da
    # Silva" printed "E. d. S. Almeida", "Rahman, AKM Mahbubur" printed "A. M. Rahman";
    # both were false author MINORs of the .bbl
    from citecheck_tex.verify.normalize import initials_compatible

    assert initials_compatible("E. d. S.", "Eduardo da Silva")
    assert initials_compatible("A. M.", "AKM Mahbubur")
    assert initials_compatible("E.-s. A.", "El-sayed A.")  # a hyphenated given name's own
    assert not initials_compatible("E. d. S.", "Eduardo Jose")
    assert not initials_compatible("B. M.", "AKM Mahbubur")
    # iopart-num prints the hyphen's second part alone, without its hyphen: "El-dahshan
    # E~s~A" (HEPML.bib's Taha:2025fos, "El-dahshan, El-sayed A."; a false initials MINOR)
    assert initials_compatible("E~s~A", "El-sayed A.")
    assert initials_compatible("E. s. A.", "El-sayed A.")
    assert not initials_compatible("E. s. A.", "Emil B.")
    assert not initials_compatible("E. t. A.", "El-sayed A.")
