"""worlddev.bst's layout: "Names: Title, \\emph{Journal}, 16, (2017), 22--25." (the year in
parentheses between the volume, with its issue, "116(16)", and the pages). The journal
in italics had been read as the title, the real title dropped, and the venue of a
journal the tables do not know ("Phys. Dark Univ.") left in the title: 6 of 34 faithful
items flagged. A real excerpt of the sample paper's ``refs.bib`` typeset by ``bibtex``
with worlddev.bst (``python -m bench.accuracy.bst_styles --styles worlddev --keep DIR``),
unchanged; the faithful items must be EXACT, the planted year (Day2016) and volume
(Lazarides2017) flagged.
"""

from __future__ import annotations

from pathlib import Path

from citecheck_tex.tex.bbl import parse_bbl_text
from citecheck_tex.tex.refstring import parse_reference

from .conftest import faithful_and_planted

WORLDDEV = r"""\begin{thebibliography}{27}
\providecommand{\natexlab}[1]{#1}

\bibitem[{Barbieri \emph{et~al.}(2017)Barbieri, Braggio, Carugno
  \emph{et~al.}}]{Barbieri2017}
Barbieri, R., Braggio, C., Carugno, G., \emph{et~al.}: Searching for galactic
  axions through magnetized media: the {QUAX} proposal, \emph{Phys. Dark
  Univ.}, 15, (2017), 135.

\bibitem[{Calucci(2007)}]{Calucci2007}
Calucci, G.: Very strong and slowly varying magnetic fields as source of
  axions, \emph{Phys. Rev. D}, 75, (2007), 097303.

\bibitem[{Day(2017)}]{Day2016}
Day, F.~V.: Cosmic axion background propagation in galaxies, \emph{Phys. Lett.
  B}, 753, (2017), 600.

\bibitem[{Lazarides \emph{et~al.}(2017)Lazarides, Panagiotakopoulos, \&
  Shafi}]{Lazarides2017}
Lazarides, G., Panagiotakopoulos, C., \& Shafi, Q.: Axion, $\mu$ term, and
  supersymmetric hybrid inflation, \emph{Phys. Rev. D}, 96, (2017), 055017.

\bibitem[{Liu \& Ng(2017)}]{LiuNg2017}
Liu, G.-C., \& Ng, K.-W.: Axion dark matter induced cosmic microwave
  background, \emph{Phys. Dark Univ.}, 16, (2017), 22--25.

\bibitem[{McAllister \emph{et~al.}(2016)McAllister, Parker, \&
  Tobar}]{McAllister:2015zcz}
McAllister, B.~T., Parker, S.~R., \& Tobar, M.~E.: {Axion Dark Matter Coupling
  to Resonant Photons via Magnetic Field}, \emph{Phys. Rev. Lett.}, 116(16),
  (2016), 161804, [Erratum: Phys.Rev.Lett. 117, 159901 (2016)].

\end{thebibliography}
"""


def test_the_italic_journal_before_volume_and_year_is_the_venue() -> None:
    got = {e.key: e.fields for e in parse_bbl_text(WORLDDEV, "paper.bbl")[0]}
    liu = got["LiuNg2017"]
    assert liu["title"] == "Axion dark matter induced cosmic microwave background"
    assert (liu["journal"], liu["volume"], liu["pages"], liu["year"]) == \
        ("Phys. Dark Univ.", "16", "22-25", "2017")
    mca = got["McAllister:2015zcz"]
    assert (mca["journal"], mca["volume"], mca["pages"]) == ("Phys. Rev. Lett.", "116", "161804")


def test_a_comma_before_the_year_in_parentheses_of_a_known_journal() -> None:
    got = parse_reference("Calucci, G.: Very strong and slowly varying magnetic fields as "
                          "source of axions, Phys. Rev. D, 75, (2007), 097303.")
    assert got["title"] == "Very strong and slowly varying magnetic fields as source of axions"
    assert (got["journal"], got["volume"], got["pages"], got["year"]) == \
        ("Phys. Rev. D", "75", "097303", "2007")


def test_worlddev_items_exact_and_the_planted_fields_flagged(tmp_path: Path,
                                                            index: Path) -> None:
    faithful_and_planted(tmp_path, index, WORLDDEV,
                         ("Barbieri2017", "Calucci2007", "LiuNg2017", "McAllister:2015zcz"),
                         {"Day2016": "year", "Lazarides2017": "volume"})
