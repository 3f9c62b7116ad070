"""aasjournal.bst's .bbl of real INSPIRE-HEP and NASA ADS exports.

``data/aasjournal/refs.bib`` holds the real entries (see ``data/aasjournal/PROVENANCE.md``);
an index is built from it and each excerpt below, copied from the .bbl that bibtex made
of those entries with aasjournal.bst, must come out EXACT, as the .bib itself does (the
method of ``python -m bench.accuracy.bst_styles``, part two). Each excerpt was a false
MINOR or MAJOR on 2026-12-02.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.tex.refstring import parse_reference
from tests.tex.conftest import bbl_labels

BIB = Path(__file__).parent / "data" / "aasjournal" / "refs.bib"


def _labels(tmp_path: Path, bbl: str) -> dict[str, tuple[str, list[str]]]:
    """Each item of ``bbl`` checked against an index of :data:`BIB`."""
    return bbl_labels(tmp_path, BIB, bbl)


#: names with a particle before the family name ("van Dyk, D.", "de~los Rios,
#: M.", "ter Hoeve, J.", "{de Vaucouleurs}, G."), a lower-case particle among the
#: initials ("Almeida, E. d.~S."), a suffix in BibTeX's place ("{Ford}, Jr., W.~K."), an
#: ADS tilde ("{Gonz{\'a}lez-Nu{\textasciitilde n}ez}, J."), an accented initial
#: ("Sahin, M.~{\"O}."): the list had ended there, or the name been split
PARTICLES_AND_SUFFIXES = r"""
\bibitem[{Alves {et~al.}(2024)Alves, Almeida, Dias, \&
  Gon\c{c}alves}]{Alves:2024hrj}
Alves, A., Almeida, E. d.~S., Dias, A.~G., \& Gon\c{c}alves, D. S.~V. 2024.
\newblock \doarXiv{2407.12118}

\bibitem[{Araz {et~al.}(2025)Araz, Beck, Reboud, Spannowsky, \& van
  Dyk}]{Araz:2025ezp}
Araz, J.~Y., Beck, A., Reboud, M., Spannowsky, M., \& van Dyk, D. 2025,
  Eur.Phys.J.C, 86, 805, \dodoi{10.1140/epjc/s10052-026-16045-9}

\bibitem[{Arganda {et~al.}(2022)Arganda, Perez, de~los Rios, \&
  Sand\'a~Seoane}]{Arganda:2022zbs}
Arganda, E., Perez, A.~D., de~los Rios, M., \& Sand\'a~Seoane, R.~M. 2022,
  Eur.Phys.J.C, 83, 1158, \dodoi{10.1140/epjc/s10052-023-12314-z}

\bibitem[{Gomez~Ambrosio {et~al.}(2022)Gomez~Ambrosio, ter Hoeve, Madigan,
  Rojo, \& Sanz}]{GomezAmbrosio:2022mpm}
Gomez~Ambrosio, R., ter Hoeve, J., Madigan, M., Rojo, J., \& Sanz, V. 2022,
  JHEP, 03, 033, \dodoi{10.1007/JHEP03(2023)033}

\bibitem[{{de Vaucouleurs}(1948)}]{1948AnAp...11..247D}
{de Vaucouleurs}, G. 1948, Annales d'Astrophysique, 11, 247

\bibitem[{{Rubin} \& {Ford}(1970)}]{1970ApJ...159..379R}
{Rubin}, V.~C., \& {Ford}, Jr., W.~K. 1970, \apj, 159, 379,
  \dodoi{10.1086/150317}

\bibitem[{{Salgado} {et~al.}(2019){Salgado}, {Gonz{\'a}lez-Nu{\textasciitilde
  n}ez}, {Guti{\'e}rrez-S{\'a}nchez}, {Segovia}, {Mora}, {Bakker}, {Boch},
  {Allen}, {Hambly}, {Voutsinas}, {Demleitner}, {Mantelet}, {Dur{\'a}n},
  {Racero}, {de Teodoro}, {Baines}, {Mer{\'\i}n}, \&
  {Arviset}}]{2019ASPC..523..445S}
{Salgado}, J., {Gonz{\'a}lez-Nu{\textasciitilde n}ez}, J.,
  {Guti{\'e}rrez-S{\'a}nchez}, R., {et~al.} 2019, in Astronomical Society of
  the Pacific Conference Series, Vol. 523, Astronomical Data Analysis Software
  and Systems XXVII, ed. P.~J. {Teuben}, M.~W. {Pound}, B.~A. {Thomas}, \&
  E.~M. {Warner}, 445

\bibitem[{Maidannyk {et~al.}(2026)Maidannyk, Couderc, Malcl{\`e}s, \&
  Sahin}]{Maidannyk:2026gbe}
Maidannyk, Y., Couderc, F., Malcl{\`e}s, J., \& Sahin, M.~{\"O}. 2026.
\newblock \doarXiv{2603.18172}
"""

#: a journal whose name holds commas and digits, read up to the volume and page that
#: end the item; a year before 1800; a technical report's "Tech. Rep. NUMBER, CERN,
#: Geneva" after its title (each had been read in part: false MINORs and MAJORs)
VENUES = r"""
\bibitem[{Deja {et~al.}(2019)Deja, Trzcinski, \& Graczykowski}]{Deja:2019vcv}
Deja, K., Trzcinski, T., \& Graczykowski, L. 2019, {Proceedings, 23rd
  International Conference on Computing in High Energy and Nuclear Physics
  (CHEP 2018): Sofia, Bulgaria, July 9-13, 2018; EPJ Web Conf.}, 214, 06003,
  \dodoi{10.1051/epjconf/201921406003}

\bibitem[{Rezende \& Mohamed(2015)}]{pmlr-v37-rezende15}
Rezende, D., \& Mohamed, S. 2015, Proceedings of the 32nd International
  Conference on Machine Learning, 37, 1530.
\newblock \url{http://proceedings.mlr.press/v37/rezende15.html}

\bibitem[{{Bradley}(1727)}]{1727RSPT...35..637B}
{Bradley}, J. 1727, Philosophical Transactions of the Royal Society of London
  Series I, 35, 637

\bibitem[{{ATLAS Collaboration}(2017)}]{ATL-PHYS-PUB-2017-017}
{ATLAS Collaboration}. 2017, {Quark versus Gluon Jet Tagging Using Jet Images
  with the ATLAS Detector}, Tech. Rep. ATL-PHYS-PUB-2017-017, CERN, Geneva.
\newblock \url{http://cds.cern.ch/record/2275641}
"""

#: "---" (the authors of the item before) and an arXiv id whose digits start like a year:
#: the year is the one after the dash, not 2003
SAME_AUTHORS_ARXIV = r"""
\bibitem[{Brehmer \& Cranmer(2020{\natexlab{b}})}]{Brehmer:2020vwc}
---. 2020{\natexlab{b}}.
\newblock \doarXiv{2003.13913}
"""


@pytest.mark.parametrize("bbl", [PARTICLES_AND_SUFFIXES, VENUES, SAME_AUTHORS_ARXIV],
                         ids=["particles-and-suffixes", "venues", "same-authors-arxiv"])
def test_real_entries_stay_exact(tmp_path: Path, bbl: str) -> None:
    labels = _labels(tmp_path, bbl)
    assert labels and {k: v for k, v in labels.items() if v[0] != "EXACT"} == {}


def test_a_dropped_name_after_a_particle_is_caught(tmp_path: Path) -> None:
    """Read whole, the list is still compared: a name left out after "van Dyk" is
    missing; another volume in a long journal name's reference is caught."""
    wrong = PARTICLES_AND_SUFFIXES.replace(r"Spannowsky, M., \& van Dyk, D. 2025",
                                           r"Spannowsky, M. 2025")
    labels = _labels(tmp_path, wrong)
    assert labels["Araz:2025ezp"] == ("MINOR", ["author"])
    labels = _labels(tmp_path, VENUES.replace("EPJ Web Conf.}, 214, 06003",
                                              "EPJ Web Conf.}, 241, 06003"))
    assert labels["Deja:2019vcv"][0] != "EXACT" and "volume" in labels["Deja:2019vcv"][1]


def test_names_then_colon_then_title() -> None:
    """worlddev.bst (TeX Live): "Dosch, H.~G.: {QCD on the Light-Front ...}" (a particle
    name in the list made it a "Family, I." run, which had ended at "H." and begun the
    title with "G.:")."""
    got = parse_reference("Brodsky, S. J., de Téramond, G. F., & Dosch, H. G.: QCD on the "
                          "Light-Front – A Systematic Approach to Hadron Physics, 2013.")
    assert got["author"] == "Brodsky, S. J. and de Téramond, G. F. and Dosch, H. G."
    assert got["title"].startswith("QCD on the Light-Front")
