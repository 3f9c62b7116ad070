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
