"""GOST 7.1 .bbl items (rusnat, vak): real .bbl excerpts of the sample papers' ``refs.bib``
typeset by ``bibtex`` (``python -m bench.accuracy.bst_styles --styles rusnat,vak --keep
DIR``), unchanged.

rusnat prints the names family first without a comma inside a name, given names as the
.bib has them ("{\\EM Hui L., Ostriker J.~P.}", "{\\EM Kosower David~A.}"), then "Title
// Journal. Year. Volume. Page." with no labels, and no names at all for some items (its
label, natbib's "(1999)R.~A. Janik", lists them initials first). vak prints the first
name inverted, "Title / all names // Journal. --- Year. --- V. 95. --- P. 1.", and opens
every item with ``\\selectlanguageifdefined{english}``. Read as other layouts, 24 (rusnat)
and 13 (vak) of the 34 faithful items had been flagged, mostly for their authors.
The faithful items must be EXACT against the sample papers' real records and the planted
author, volume and page flagged (``sample_papers/*/PLANTED.md``).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import checked, faithful_and_planted

RUSNAT = r"""\begin{thebibliography}{27}
\providecommand{\natexlab}[1]{#1}
\providecommand{\EM}{\em}
\providecommand{\RNtxt}{\relax}
\RNtxt{}

\bibitem[Hui et~al.(2017)L.~Hui, J.~P. Ostriker, S.~Tremaine,
  E.~Witten]{Hui2017}
{\EM Hui L., Ostriker J.~P., Tremaine S., Witten E.}
\newblock Ultralight scalars as cosmological dark matter \allowbreak\newblock//
  Phys.Rev.D. 2017. 95. 043541.

\bibitem[Barbieri et~al.(2017)R.~Barbieri, C.~Braggio, G.~Carugno,
  et~al.]{Barbieri2017}
{\EM Barbieri R., Braggio C., Carugno G., others }.
\newblock Searching for galactic axions through magnetized media: the {QUAX}
  proposal \allowbreak\newblock// Phys. Dark Univ. 2017. 15. 135.

\bibitem[Kosower(1987)D.~A. Kosower]{Kosower:1987em}
{\EM Kosower David~A.}
\newblock {A Natural Misalignment Mechanism} \allowbreak\newblock// Nucl. Phys.
  B. 1987. 294. 244--252.

\bibitem[McAllister et~al.(2016)B.~T. McAllister, S.~R. Parker, M.~E.
  Tobar]{McAllister:2015zcz}
{\EM McAllister Ben~T., Parker Stephen~R., Tobar Michael~E.}
\newblock {Axion Dark Matter Coupling to Resonant Photons via Magnetic Field}
  \allowbreak\newblock// Phys. Rev. Lett. 2016. 116, 16. 161804.
\newblock [Erratum: Phys.Rev.Lett. 117, 159901 (2016)].

\bibitem[Noh et~al.(2013)H.~Noh, C.-G. Park, J.-c. Hwang]{Noh:2013coa}
{\EM Noh H., Park C.-G., Hwang J.-c.}
\newblock Axion as a cold dark matter candidate: proof to second order. 2013.

\bibitem[Lazarides et~al.(2017)G.~Lazarides, C.~Panagiotakopoulos,
  Q.~Shafi]{Lazarides2017}
{\EM Lazarides G., Panagiotakopoulos C., Shafi Q.}
\newblock Axion, $\mu$ term, and supersymmetric hybrid inflation
  \allowbreak\newblock// Phys. Rev. D. 2017. 96. 055017.

\bibitem[Janik(1999)R.~A. Janik]{Janik:1999zu}
{Gauge theory scattering from the AdS / CFT correspondence}.
\newblock  \allowbreak\newblock// . 9 1999.

\bibitem[Chabysheva, Hiller(????)S.~S. Chabysheva, J.~R.
  Hiller]{Chabysheva:2012fe}
A dynamical model for longitudinal wave functions in light-front holographic
  {QCD}.
\newblock  \allowbreak\newblock// . ????

\bibitem[G{\"u}rsoy et~al.(2017)U.~G{\"u}rsoy, I.~Iatrakas, M.~J{\"a}rvinen,
  G.~Nijs]{GursoyIatrakis2017}
{\EM G{\"u}rsoy Umut, Iatrakas Ioannis, J{\"a}rvinen Matti, Nijs Govert}.
\newblock {Inverse magnetic catalysis from improved holographic QCD in the
  Veneziano limit} \allowbreak\newblock// JHEP. 2017. 1703. 053.

\bibitem[Capossoli et~al.(????)E.~F. Capossoli, D.~Li,
  H.~Boschi-Filho]{Capossoli2016}
Pomeron and odderon {Regge} trajectories from a dynamical holographic model.
\newblock  \allowbreak\newblock// . ???? 760. 110.

\bibitem[Fang et~al.(2016)Z.~Fang, S.~He, D.~Li]{Fang2016chiral}
{\EM Fang Z., He~S., Li~D.}
\newblock Chiral and deconfining phase transitions from holographic {QCD} study
  \allowbreak\newblock// Nucl. Phys. B. 2016. 908. 187.
\end{thebibliography}
"""

VAK = r"""\begin{thebibliography}{10}
\def\selectlanguageifdefined#1{
\expandafter\ifx\csname date#1\endcsname\relax
\else\language\csname l@#1\endcsname\fi}
\ifx\undefined\url\def\url#1{{ #1}}\else\fi
\ifx\undefined\BibUrl\def\BibUrl#1{\url{#1}}\else\fi
\ifx\undefined\BibAnnote\long\def\BibAnnote#1{}\else\fi
\ifx\undefined\BibEmph\def\BibEmph#1{\emph{#1}}\else\fi

\bibitem{Hui2017}
\selectlanguageifdefined{english}
Ultralight scalars as cosmological dark matter~/ L.~Hui, J.~P.~Ostriker,
  S.~Tremaine, E.~Witten~// \BibEmph{Phys.Rev.D}.\, ---\,
\newblock 2017.\, ---\,
\newblock V.~95.\, ---\,
\newblock P.~043541.

\bibitem{Barbieri2017}
\selectlanguageifdefined{english}
Searching for galactic axions through magnetized media: the {QUAX} proposal~/
  R.~Barbieri, C.~Braggio, G.~Carugno et~al.~// \BibEmph{Phys. Dark Univ.}\,
  ---\,
\newblock 2017.\, ---\,
\newblock V.~15.\, ---\,
\newblock P.~135.

\bibitem{Kosower:1987em}
\selectlanguageifdefined{english}
\BibEmph{Kosower,~D.~A.} {A Natural Misalignment Mechanism}~/ D.~A.~Kosower~//
  \BibEmph{Nucl. Phys. B}.\, ---\,
\newblock 1987.\, ---\,
\newblock V. 294.\, ---\,
\newblock P.~244--252.

\bibitem{McAllister:2015zcz}
\selectlanguageifdefined{english}
\BibEmph{McAllister,~B.~T.} {Axion Dark Matter Coupling to Resonant Photons via
  Magnetic Field}~/ B.~T.~McAllister, S.~R.~Parker, M.~E.~Tobar~//
  \BibEmph{Phys. Rev. Lett.}\, ---\,
\newblock 2016.\, ---\,
\newblock V. 116, $\No$~16.\, ---\,
\newblock P.~161804.\, ---\,
\newblock [Erratum: Phys.Rev.Lett. 117, 159901 (2016)].

\bibitem{Noh:2013coa}
\selectlanguageifdefined{english}

\bibitem{Lazarides2017}
\selectlanguageifdefined{english}
\BibEmph{Lazarides,~G.} Axion, $\mu$ term, and supersymmetric hybrid
  inflation~/ G.~Lazarides, C.~Panagiotakopoulos, Q.~Shafi~// \BibEmph{Phys.
  Rev. D}.\, ---\,
\newblock 2017.\, ---\,
\newblock V.~96.\, ---\,
\newblock P.~055017.

\bibitem{Janik:1999zu}
\selectlanguageifdefined{english}
\BibEmph{Janik,~R.~A.} {Gauge theory scattering from the AdS / CFT
  correspondence}~/ R.~A.~Janik.\, ---\,
\newblock 1999. "--- 9.

\bibitem{Brodsky:2013dca}
\selectlanguageifdefined{english}
\BibEmph{Brodsky,~S.~J.} {QCD on the Light-Front -- A Systematic Approach to
  Hadron Physics}~/ S.~J.~Brodsky, G.~F.~de~T{\'e}ramond, H.~G.~Dosch.\, ---\,
\newblock 2013. "--- 10.

\bibitem{Chabysheva:2012fe}
\selectlanguageifdefined{english}
\BibEmph{Chabysheva,~S.~S.} A dynamical model for longitudinal wave functions
  in light-front holographic {QCD}~/ S.~S.~Chabysheva, J.~R.~Hiller.

\bibitem{Bartolini2017}
\selectlanguageifdefined{english}
Neutron electric dipole moment from gauge-string duality~/ L.~Bartolini,
  F.~Bigazzi, S.~Bolognesi et~al.~// \BibEmph{Phys. Rev. Lett.}\, ---\,
\newblock 2017.\, ---\,
\newblock V. 118.\, ---\,
\newblock P.~091601.

\bibitem{GursoyIatrakis2017}
\selectlanguageifdefined{english}
{Inverse magnetic catalysis from improved holographic QCD in the Veneziano
  limit}~/ U.~G{\"u}rsoy, I.~Iatrakas, M.~J{\"a}rvinen, G.~Nijs~//
  \BibEmph{JHEP}.\, ---\,
\newblock 2017.\, ---\,
\newblock V. 1703.\, ---\,
\newblock P.~053.

\bibitem{Capossoli2016}
\selectlanguageifdefined{english}
\BibEmph{Capossoli,~E.~F.} Pomeron and odderon {Regge} trajectories from a
  dynamical holographic model~/ E.~F.~Capossoli, D.~Li, H.~Boschi-Filho.\,
  ---\,
\newblock V. 760.\, ---\,
\newblock P.~110.

\bibitem{Fang2016chiral}
\selectlanguageifdefined{english}
\BibEmph{Fang,~Z.} Chiral and deconfining phase transitions from holographic
  {QCD} study~/ Z.~Fang, S.~He, D.~Li~// \BibEmph{Nucl. Phys. B}.\, ---\,
\newblock 2016.\, ---\,
\newblock V. 908.\, ---\,
\newblock P.~187.
\end{thebibliography}
"""

#: style -> (.bbl, faithful keys)
FAITHFUL = {
    "rusnat": (RUSNAT, ("Hui2017", "Barbieri2017", "Kosower:1987em", "McAllister:2015zcz",
                        "Noh:2013coa", "Janik:1999zu", "Chabysheva:2012fe")),
    "vak": (VAK, ("Hui2017", "Barbieri2017", "Kosower:1987em", "McAllister:2015zcz",
                  "Janik:1999zu", "Brodsky:2013dca", "Chabysheva:2012fe", "Bartolini2017")),
}
PLANTED = {"GursoyIatrakis2017": "author", "Capossoli2016": "pages",
           "Fang2016chiral": "volume", "Lazarides2017": "volume"}


@pytest.mark.parametrize("style", sorted(FAITHFUL))
def test_gost_items_exact_and_the_planted_fields_flagged(tmp_path: Path, index: Path,
                                                        style: str) -> None:
    bbl, keys = FAITHFUL[style]
    faithful_and_planted(tmp_path, index, bbl, keys, PLANTED)


def test_a_vak_item_that_prints_nothing_is_skipped(tmp_path: Path, index: Path) -> None:
    # (vak prints no text for an @misc; the language switch's argument had been read as
    # the item's text, "english", and left it UNVERIFIED)
    got = {e["key"]: e for e in checked(tmp_path, index, "paper.bbl", VAK, "--index-complete")}
    assert got["Noh:2013coa"]["label"] == "SKIPPED", got["Noh:2013coa"]


#: A misspelt name as bibtex would print it from a wrong .bib: every place of the item
#: (rusnat prints the names in its label too, vak the first twice).
@pytest.mark.parametrize(("style", "wrong"), [
    ("rusnat", {"Ostriker": "Ostrikar"}),
    ("rusnat", {"R.~A. Janik]": "R.~A. Janek]"}),  # (its names are the label's alone)
    ("rusnat", {"Tobar": "Tobor"}),  # (given names written out: "Tobar Michael~E.")
    ("vak", {"Ostriker": "Ostrikar"}),
    ("vak", {"Janik,~R": "Janek,~R", "~Janik.": "~Janek."}),
    ("vak", {"Tobar": "Tobor"}),
])
def test_a_wrong_gost_name_is_caught(tmp_path: Path, index: Path, style: str,
                                     wrong: dict[str, str]) -> None:
    bbl = FAITHFUL[style][0]
    for old, new in wrong.items():
        assert old in bbl
        bbl = bbl.replace(old, new)
    got = {e["key"]: e for e in checked(tmp_path, index, "paper.bbl", bbl,
                                        "--index-complete")}
    flagged = [e["key"] for e in got.values() if e["label"] in ("MINOR", "MAJOR")
               and "author" in [d["field"] for d in e["discrepancies"]]
               and e["key"] not in PLANTED]
    assert len(flagged) == 1, flagged
