"""ieeetr.bst's .bbl of real INSPIRE-HEP and NASA ADS exports.

``data/ieeetr/refs.bib`` holds the real entries (see ``data/ieeetr/PROVENANCE.md``); an
index is built from it and each excerpt below, copied from the .bbl that bibtex made of
those entries with ieeetr.bst, must come out EXACT, as the .bib itself does (the method
of ``python -m bench.accuracy.bst_styles``, part two). Each excerpt was a false MINOR or
MAJOR on 2026-12-02.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tex.conftest import bbl_labels

BIB = Path(__file__).parent / "data" / "ieeetr" / "refs.bib"


def _labels(tmp_path: Path, bbl: str) -> dict[str, tuple[str, list[str]]]:
    """Each item of ``bbl`` checked against an index of :data:`BIB`."""
    return bbl_labels(tmp_path, BIB, bbl)


#: a suffix after the family name ("W.~K. {Ford}, Jr.", "W.~W. {Miller}, III") belongs
#: to that name (it had been read as one more author "Jr")
SUFFIX = r"""
\bibitem{1980ApJ...238..471R}
V.~C. {Rubin}, W.~K. {Ford}, Jr., and N.~{Thonnard}, ``{Rotational properties
  of 21 SC galaxies with a large range of luminosities and radii, from NGC 4605
  (R=4kpc) to UGC 2885 (R=122kpc).},'' {\em \apj}, vol.~238, pp.~471--487, June
  1980.

\bibitem{2003ASPC..295..261M}
W.~W. {Miller}, III, C.~{Sontag}, and J.~F. {Rose}, ``{OPUS: A CORBA Pipeline
  for Java, Python, and Perl Applications},'' in {\em Astronomical Data
  Analysis Software and Systems XII} (H.~E. {Payne}, R.~I. {Jedrzejewski}, and
  R.~N. {Hook}, eds.), vol.~295 of {\em Astronomical Society of the Pacific
  Conference Series}, p.~261, January 2003.
"""

#: a collaboration, then names in natural order: "{Astropy Collaboration}, T.~P.
#: {Robitaille}, ..." (read as the one author "Astropy Collaboration, T. P." and the
#: other names as the title: a false MAJOR)
COLLABORATION_FIRST = r"""
\bibitem{2013A&A...558A..33A}
{Astropy Collaboration}, T.~P. {Robitaille}, E.~J. {Tollerud}, P.~{Greenfield},
  M.~{Droettboom}, E.~{Bray}, T.~{Aldcroft}, M.~{Davis}, A.~{Ginsburg}, A.~M.
  {Price-Whelan}, W.~E. {Kerzendorf}, A.~{Conley}, N.~{Crighton}, K.~{Barbary},
  D.~{Muna}, H.~{Ferguson}, F.~{Grollier}, M.~M. {Parikh}, P.~H. {Nair}, H.~M.
  {Unther}, C.~{Deil}, J.~{Woillez}, S.~{Conseil}, R.~{Kramer}, J.~E.~H.
  {Turner}, L.~{Singer}, R.~{Fox}, B.~A. {Weaver}, V.~{Zabalza}, Z.~I.
  {Edwards}, K.~{Azalee Bostroem}, D.~J. {Burke}, A.~R. {Casey}, S.~M.
  {Crawford}, N.~{Dencheva}, J.~{Ely}, T.~{Jenness}, K.~{Labrie}, P.~L. {Lim},
  F.~{Pierfederici}, A.~{Pontzen}, A.~{Ptak}, B.~{Refsdal}, M.~{Servillat}, and
  O.~{Streicher}, ``{Astropy: A community Python package for astronomy},'' {\em
  \aap}, vol.~558, p.~A33, October 2013.
"""

#: names the stricter patterns miss, before the quoted title: "{\v{Z}}.~{Ivezi{\'c}}",
#: "J.~{vandenBerg}", "C.~d.~P. {Lagos}", an en dash and ADS's tilde (the list had ended
#: there: every later author missing)
LOOSE_NAMES = r"""
\bibitem{2015ApJ...812...18V}
J.~T. {VanderPlas} and {\v{Z}}.~{Ivezi{\'c}}, ``{Periodograms for Multiband
  Astronomical Time Series},'' {\em \apj}, vol.~812, p.~18, October 2015.

\bibitem{2002cs........2013S}
A.~S. {Szalay}, J.~{Gray}, A.~R. {Thakar}, P.~Z. {Kunszt}, T.~{Malik},
  J.~{Raddick}, C.~{Stoughton}, and J.~{vandenBerg}, ``{The SDSS SkyServer:
  Public Access to the Sloan Digital Sky Server Data},'' {\em arXiv e-prints},
  p.~cs/0202013, February 2002.

\bibitem{2013MNRAS.429..556M}
A.~I. {Merson}, C.~M. {Baugh}, J.~C. {Helly}, V.~{Gonzalez-Perez}, S.~{Cole},
  R.~{Bielby}, P.~{Norberg}, C.~S. {Frenk}, A.~J. {Benson}, R.~G. {Bower},
  C.~G. {Lacey}, and C.~d.~P. {Lagos}, ``{Lightcone mock catalogues from
  semi-analytic models of galaxy formation - I. Construction and application to
  the BzK colour selection},'' {\em \mnras}, vol.~429, pp.~556--578, February
  2013.

\bibitem{2016ApJ...832..155F}
F.~{F{\"o}rster}, J.~C. {Maureira}, J.~{San Mart{\'\i}n}, M.~{Hamuy},
  J.~{Mart{\'\i}nez}, P.~{Huijse}, G.~{Cabrera}, L.~{Galbany}, T.~{de Jaeger},
  S.~{Gonz{\'a}lez{\textendash}Gait{\'a}n}, J.~P. {Anderson},
  H.~{Kunkarayakti}, G.~{Pignata}, F.~{Bufano}, J.~{Litt{\'\i}n},
  F.~{Olivares}, G.~{Medina}, R.~C. {Smith}, A.~K. {Vivas}, P.~A.
  {Est{\'e}vez}, R.~{Mu{\textasciitilde n}oz}, and E.~{Vera}, ``{The High
  Cadence Transient Survey (HITS). I. Survey Design and Supernova Shock
  Breakout Constraints},'' {\em \apj}, vol.~832, p.~155, December 2016.
"""

#: two people of one family in a row, "K.~Kim, K.~Kim" (Kukhee and Kuktae), "J.~Singh,
#: J.~Singh" (the second had been dropped as a repeat)
KIN = r"""
\bibitem{Herbst:2023lug}
R.~Herbst, R.~Coffee, N.~Fronk, K.~Kim, K.~Kim, L.~Ruckman, and J.~J. Russell,
  ``{Implementation of a framework for deploying AI inference engines in
  FPGAs},'' 5 2023.

\bibitem{Nagu:2021zho}
S.~Nagu, J.~Singh, J.~Singh, and R.~B. Singh, ``{Constraining nuclear effects
  in Argon using machine learning algorithms},'' 5 2021.
"""


@pytest.mark.parametrize("bbl", [SUFFIX, COLLABORATION_FIRST, LOOSE_NAMES, KIN],
                         ids=['suffix', 'collaboration-first', 'loose-names', 'kin'])
def test_real_entries_stay_exact(tmp_path: Path, bbl: str) -> None:
    labels = _labels(tmp_path, bbl)
    assert labels and {k: v for k, v in labels.items() if v[0] != "EXACT"} == {}


def test_one_of_two_namesakes_dropped_is_caught(tmp_path: Path) -> None:
    """The citation that names one "J.~Singh" where the record has two still misses an
    author: two people in a row are kept apart, not merged."""
    one = KIN.replace("J.~Singh, J.~Singh,", "J.~Singh,")
    labels = _labels(tmp_path, one)
    assert labels["Nagu:2021zho"] == ("MINOR", ["author"])
    assert labels["Herbst:2023lug"][0] == "EXACT"


#: INSPIRE's titles with their own quotation marks inside ieeetr's ``{Title},'' (the
#: title had ended at its first '': "Comment on", a false MAJOR)
QUOTED_IN_TITLE = r"""
\bibitem{Shyamsundar:2025eht}
P.~Shyamsundar, ``{Comment on ''An implementation of neural simulation-based
  inference for parameter estimation in ATLAS''},'' 5 2025.

\bibitem{Fanelli:2022xwl}
C.~Fanelli, J.~Giroux, and Z.~Papandreou, ``{''Flux+Mutability'': A Conditional
  Generative Approach to One-Class Classification and Anomaly Detection},''
  {\em Mach.Learn.Sci.Tech.}, vol.~3, p.~045012, 4 2022.
"""

#: the venue after the quoted title, read by its marks: a journal whose name holds a
#: year and commas, a title the .bib did not brace, pages that look like years, a
#: volume that is a year (read in part, or the wrong number as the year: false MINORs)
VENUE_MARKS = r"""
\bibitem{Vallecorsa:2019ked}
S.~Vallecorsa, F.~Carminati, and G.~Khattak, ``{3D convolutional GAN for fast
  simulation},'' {\em {Proceedings, 23rd International Conference on Computing
  in High Energy and Nuclear Physics (CHEP 2018): Sofia, Bulgaria, July 9-13,
  2018; EPJ Web Conf.}}, vol.~214, p.~02010, 2019.

\bibitem{pmlr-v37-rezende15}
D.~Rezende and S.~Mohamed, ``Variational inference with normalizing flows,''
  {\em Proceedings of the 32nd International Conference on Machine Learning},
  vol.~37, pp.~1530--1538, 07--09 Jul 2015.

\bibitem{Pumplin:1991kc}
J.~Pumplin, ``{How to tell quark jets from gluon jets},'' {\em Phys. Rev. D},
  vol.~44, pp.~2025--2032, 1991.

\bibitem{LopesCardoso:2024tol}
G.~Lopes~Cardoso, D.~Mayorga Pe\~na, and S.~Nampuri, ``{Classical integrability
  in the presence of a cosmological constant: analytic and machine learning
  results},'' {\em Fortsch.Phys.}, vol.~2025, p.~2400267, 4 2024.
"""


@pytest.mark.parametrize("bbl", [QUOTED_IN_TITLE, VENUE_MARKS], ids=["quoted-in-title", "venue-marks"])
def test_real_titles_and_venues_stay_exact(tmp_path: Path, bbl: str) -> None:
    labels = _labels(tmp_path, bbl)
    assert labels and {k: v for k, v in labels.items() if v[0] != "EXACT"} == {}


def test_a_wrong_volume_or_year_after_the_venue_is_caught(tmp_path: Path) -> None:
    """Read by its marks, the venue is still compared: another volume, another year."""
    wrong = VENUE_MARKS.replace("vol.~214,", "vol.~241,").replace("4 2024.", "4 2021.")
    labels = _labels(tmp_path, wrong)
    assert labels["Vallecorsa:2019ked"] == ("MINOR", ["volume"])
    assert labels["LopesCardoso:2024tol"][0] != "EXACT"
    assert "year" in labels["LopesCardoso:2024tol"][1]


#: INSPIRE's one-word authors in the list ("S.~Rai, Prisha, and J.~Kumar"), family names
#: with a particle after their first word ("R.~R. Ruiz~de Austri~Bazan", "R.~Spinola~e
#: Castro": the initials say where the family name starts)
MONONYMS_AND_PARTICLES = r"""
\bibitem{Rai:2025cog}
S.~Rai, Prisha, and J.~Kumar, ``{Investigating 1-Bit Quantization in
  Transformer-Based Top Tagging},'' {\em Eur.Phys.J.C}, vol.~86, p.~758, 8
  2025.

\bibitem{Wu:2025kqh}
Y.~Wu, Yi, Chen, and J.~Velkovska, ``{Validating a Machine Learning Approach to
  Identify Quenched Jets in Heavy-Ion Collisions},'' {\em JHEP}, vol.~06,
  p.~154, 11 2025.

\bibitem{Caron:2024cyo}
S.~Caron, N.~Dobreva, A.~F. S\'anchez, J.~D. Mart\'\i{}n-Guerrero, U.~Odyurt,
  R.~R. Ruiz~de Austri~Bazan, Z.~Wolffs, and Y.~Zhao, ``{TrackFormers: In
  Search of Transformer-Based Particle Tracking for the High-Luminosity LHC
  Era},'' {\em Eur.Phys.J.C}, vol.~85, p.~460, 7 2024.

\bibitem{Cuevas-Zepeda:2025kmt}
J.~Cuevas-Zepeda, C.~Chavez, J.~Estrada, J.~Noonan, B.~D. Nord, N.~Saffold,
  M.~Sofo-Haro, R.~Spinola~e Castro, and S.~Trivedi, ``{Automating Sensor
  Characterization with Bayesian Optimization},'' 9 2025.
"""


def test_one_word_names_and_inner_particles_stay_exact(tmp_path: Path) -> None:
    labels = _labels(tmp_path, MONONYMS_AND_PARTICLES)
    assert len(labels) == 4 and {k: v for k, v in labels.items() if v[0] != "EXACT"} == {}


def test_a_dropped_one_word_author_is_caught(tmp_path: Path) -> None:
    """The one-word author is compared like any other: left out, it is missing."""
    labels = _labels(tmp_path, MONONYMS_AND_PARTICLES.replace("S.~Rai, Prisha, and", "S.~Rai and"))
    assert labels["Rai:2025cog"] == ("MINOR", ["author"])
