"""elsarticle-num's proceedings with a publisher after the volume: ", in: Eds (Eds.),
{Booktitle}, Vol.~33, Curran Associates, Inc., 2020, pp. 14650--14662." (real items of
INSPIRE's HEPML.bib and ADS's lsst_refs_ads.bib typeset by TeX Live's bibtex,
2026-12-02). The volume and the publisher had stayed in the booktitle: a false journal
MINOR of NEURIPS2020_a878dbeb, Louppe:2016ylz, Vandegar:2020yvw, 2025EPJWC.33701129H."""

from __future__ import annotations

import pytest

from citecheck_tex.tex.bbl import parse_bbl_text

ITEMS = {
    "NEURIPS2020_a878dbeb": (
        "\\bibitem{NEURIPS2020_a878dbeb}\nS.~Shirobokov, V.~Belavin, M.~Kagan, A.~Ustyuzhanin,"
        " A.~G. Baydin,\n  \\href{https://proceedings.neurips.cc/paper/2020/hash/a878dbebc902328"
        "b41dbf02aa87abb58-Abstract.html}{{Black-Box\n  Optimization with Local Generative "
        "Surrogates}}, in: H.~Larochelle,\n  M.~Ranzato, R.~Hadsell, M.~F. Balcan, H.~Lin (Eds.),"
        " {Advances in Neural\n  Information Processing Systems}, Vol.~33, Curran Associates, "
        "Inc., 2020, pp.\n  14650--14662.\n\\newblock \\href {http://arxiv.org/abs/2002.04632} "
        "{\\path{arXiv:2002.04632}}.\n",
        "Advances in Neural Information Processing Systems", "33"),
    "Vandegar:2020yvw": (
        "\\bibitem{Vandegar:2020yvw}\nM.~Vandegar, M.~Kagan, A.~Wehenkel, G.~Louppe,\n  \\href"
        "{https://proceedings.mlr.press/v130/vandegar21a.html}{{Neural Empirical\n  Bayes: "
        "Source Distribution Estimation and its Applications to\n  Simulation-Based Inference}},"
        " in: A.~Banerjee, K.~Fukumizu (Eds.),\n  {Proceedings of The 24th International "
        "Conference on Artificial Intelligence\n  and Statistics}, Vol. 130 of Proceedings of "
        "Machine Learning Research, PMLR,\n  2021, pp. 2107--2115.\n",
        "Proceedings of The 24th International Conference on Artificial Intelligence and "
        "Statistics", "130"),
    "2025EPJWC.33701129H": (
        "\\bibitem{2025EPJWC.33701129H}\nF.~{Hernandez}, M.~G. {Beckett}, A.~{Hanushevsky}, "
        "T.~{Jenness}, K.-T. {Lim},\n  P.~{Love}, T.~{Noble}, S.~{Pietrowicz}, W.~{Yang}, "
        "{Data Movement Model for\n  the Vera C. Rubin Observatory}, in: European Physical "
        "Journal Web of\n  Conferences, Vol. 337 of European Physical Journal Web of "
        "Conferences, EDP,\n  2025, p. 01129.\n",
        "European Physical Journal Web of Conferences", "337"),
}


@pytest.mark.parametrize("key", sorted(ITEMS))
def test_the_booktitle_ends_before_the_volume_and_the_publisher(key: str) -> None:
    text, booktitle, volume = ITEMS[key]
    (entry,), _ = parse_bbl_text(text, "paper.bbl")
    assert entry.fields["booktitle"] == booktitle
    assert entry.fields["volume"] == volume
