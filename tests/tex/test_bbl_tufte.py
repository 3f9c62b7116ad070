"""tufte.bst's venue: "\\emph{Phys Lett B}, 753, 2016, pp. 677--681", the year between the
volume and the page ("116(16), 2016, p. 161804" with an issue). The year had been read as
the page (20 of the style's 34 faithful items flagged: "pages: 2016 -> 677-681"). A real
excerpt of the sample paper's ``refs.bib`` typeset by ``bibtex`` (``python -m
bench.accuracy.bst_styles --styles tufte --keep DIR``), unchanged; the faithful items must
be EXACT against the real records, and the planted year (Day2016) and volume
(Lazarides2017) flagged.
"""

from __future__ import annotations

from pathlib import Path

from .conftest import faithful_and_planted

TUFTE = r"""\begin{thebibliography}{10}
\newcommand{\enquote}[1]{``#1''}
\expandafter\ifx\csname url\endcsname\relax
  \def\url#1{\texttt{#1}}\fi
\expandafter\ifx\csname urlprefix\endcsname\relax\def\urlprefix{URL }\fi

\bibitem{McAllister:2015zcz}
Ben~T. McAllister, et~al., \enquote{{Axion Dark Matter Coupling to Resonant
  Photons via Magnetic Field}}, \emph{Phys Rev Lett}, 116(16), 2016, p. 161804,
  [Erratum: Phys.Rev.Lett. 117, 159901 (2016)].

\bibitem{Hui2017}
L.~Hui, et~al., \enquote{Ultralight scalars as cosmological dark matter},
  \emph{PhysRevD}, 95, 2017, p. 043541.

\bibitem{Kawasaki2016}
M.~Kawasaki, et~al., \enquote{Suppressing the {QCD} axion abundance by hidden
  monopoles}, \emph{Phys Lett B}, 753, 2016, pp. 677--681.

\bibitem{Day2016}
Francesca~V. Day, \enquote{Cosmic axion background propagation in galaxies},
  \emph{Phys Lett B}, 753, 2017, p. 600.

\bibitem{LiuNg2017}
Guo-Chin Liu and Kin-Wang Ng, \enquote{Axion dark matter induced cosmic
  microwave background}, \emph{Phys Dark Univ}, 16, 2017, pp. 22--25.

\bibitem{Barbieri2017}
R.~Barbieri, et~al., \enquote{Searching for galactic axions through magnetized
  media: the {QUAX} proposal}, \emph{Phys Dark Univ}, 15, 2017, p. 135.
\bibitem{Lazarides2017}
G.~Lazarides, et~al., \enquote{Axion, $\mu$ term, and supersymmetric hybrid
  inflation}, \emph{Phys Rev D}, 96, 2017, p. 055017.

\end{thebibliography}
"""


def test_tufte_items_exact_and_the_planted_fields_flagged(tmp_path: Path, index: Path) -> None:
    faithful = ("McAllister:2015zcz", "Hui2017", "Kawasaki2016", "LiuNg2017", "Barbieri2017")
    got = faithful_and_planted(tmp_path, index, TUFTE, faithful,
                               {"Day2016": "year", "Lazarides2017": "volume"})
    assert all(got[key]["cited"]["pages"] not in ("2016", "2017") for key in faithful)
    faithful_and_planted(tmp_path / "p", index, TUFTE.replace("pp. 677--681", "pp. 687--691"),
                         (), {"Kawasaki2016": "pages"})
