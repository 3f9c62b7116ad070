"""vancouver.bst's items without a venue and with a journal-less volume: "Names. Title;
2013." (the date after a semicolon had been left in the title and the names not read),
"Hwang Jc." (BibTeX's "J.-c." of Jai-chan: a lower-case second initial glued to the
first, ending the list with its full stop) and "Title;760:110." (a volume and page without
a journal, which had been left in the title: the planted page went unseen). Real excerpts
of the sample papers' ``refs.bib`` typeset by ``bibtex`` with vancouver.bst (``python -m
bench.accuracy.bst_styles --styles vancouver --keep DIR``), unchanged.
"""

from __future__ import annotations

from pathlib import Path

from citecheck_tex.tex.refstring import parse_reference

from .conftest import faithful_and_planted

VANCOUVER = r"""\begin{thebibliography}{10}

\bibitem{Hui2017}
Hui L, Ostriker JP, Tremaine S, Witten E.
\newblock Ultralight scalars as cosmological dark matter.
\newblock PhysRevD. 2017;95:043541.

\bibitem{Noh:2013coa}
Noh H, Park CG, Hwang Jc. Axion as a cold dark matter candidate: proof to
  second order; 2013.

\bibitem{Baer:2015zda}
Baer H. {(Mainly) axion dark matter}; 2015.

\bibitem{Lazarides2017}
Lazarides G, Panagiotakopoulos C, Shafi Q.
\newblock Axion, $\mu$ term, and supersymmetric hybrid inflation.
\newblock Phys Rev D. 2017;96:055017.

\bibitem{Capossoli2016}
Capossoli EF, Li D, Boschi-Filho H.
\newblock Pomeron and odderon {Regge} trajectories from a dynamical holographic
  model;760:110.

\end{thebibliography}
"""


def test_a_glued_lower_case_initial_ends_only_a_vancouver_list() -> None:
    got = parse_reference("Noh H, Park CG, Hwang Jc. Axion as a cold dark matter "
                          "candidate: proof to second order; 2013.")
    assert got["author"] == "Noh, H. and Park, C. G. and Hwang, J. c."
    assert (got["title"], got["year"]) == (
        "Axion as a cold dark matter candidate: proof to second order", "2013")
    # a natural-order name is no family name and glued initials ("Sau Lan, W. u.")
    other = parse_reference("Sau Lan Wu et al. Application of Quantum Machine Learning. "
                            "J. Phys. G 48, 125003 (2020).")
    assert "W. u." not in other.get("author", "")


def test_vancouver_items_exact_and_the_planted_fields_flagged(tmp_path: Path,
                                                              index: Path) -> None:
    faithful_and_planted(tmp_path, index, VANCOUVER, ("Hui2017", "Noh:2013coa", "Baer:2015zda"),
                         {"Lazarides2017": "volume", "Capossoli2016": "pages"})
