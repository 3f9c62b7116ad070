"""munich.bst's references: "\\textsc{Hui, L./Ostriker, J.~P./ et~al.} (2017): Title, in:
Phys.Rev.D, 95, S. 043.541" (names between slashes, "S." for the page, a full stop between
its thousands; an empty year "()" and journal "in: , 754, S. 343--348" when the entry
lacks them).

Real bibtex output (TeX Live, 2026-12-02) of the two sample papers' ``refs.bib``. Read as
free text, the names had become the title (30 of 34 faithful entries flagged).
``python -m bench.accuracy.bst_styles``: munich 30 -> 2 false flags; the planted errors
(a misspelt author, a wrong volume, a wrong page, a chimera) are still flagged.
"""

from __future__ import annotations

from pathlib import Path

from citecheck_tex.tex.bbl import parse_bbl_text
from citecheck_tex.tex.refstring import parse_reference

from .conftest import checked, sample_labels

MUNICH = (
    '\\begin{thebibliography}{30}\n'
    '\\providecommand{\\natexlab}[1]{#1}\n'
    '\\providecommand{\\url}[1]{\\texttt{#1}}\n'
    '\\providecommand{\\urlprefix}{URL: }\n'
    '\\expandafter\\ifx\\csname urlstyle\\endcsname\\relax\n'
    '  \\providecommand{\\doi}[1]{doi:\\discretionary{}{}{}#1}\\else\n'
    '  \\providecommand{\\doi}{doi:\\discretionary{}{}{}\\begingroup\n'
    '  \\urlstyle{rm}\\Url}\\fi\n'
    '\n'
    '\\bibitem[{\\textsc{Bartolini et~al.}(2017)\\textsc{Bartolini, Bigazzi, Bolognesi,\n'
    '  Cotrone/Manenti}}]{Bartolini2017}\n'
    '\\textsc{Bartolini, L./Bigazzi, F./Bolognesi, S./Cotrone, A.~L./Manenti, A.}\n'
    '  (2017): Neutron electric dipole moment from gauge-string duality, in: Phys.\n'
    '  Rev. Lett., 118, S. 091.601, \\doi{10.1103/PhysRevLett.118.091601}.\n'
    '\n'
    '\\bibitem[{\\textsc{Capossoli et~al.}()\\textsc{Capossoli,\n'
    '  Li/Boschi-Filho}}]{Capossoli2016}\n'
    '\\textsc{Capossoli, E.~F./Li, D./Boschi-Filho, H.} (): Pomeron and odderon\n'
    '  {Regge} trajectories from a dynamical holographic model, in: , 760, S. 110,\n'
    '  \\doi{10.1016/j.physletb.2016.06.049}.\n'
    '\n'
    '\\bibitem[{\\textsc{Chabysheva/Hiller}()}]{Chabysheva:2012fe}\n'
    '\\textsc{Chabysheva, S.~S./Hiller, J.~R.} (): A dynamical model for longitudinal\n'
    '  wave functions in light-front holographic {QCD}, in: .\n'
    '\n'
    '\\bibitem[{\\textsc{Fang et~al.}(2016)\\textsc{Fang, He/Li}}]{Fang2016chiral}\n'
    '\\textsc{Fang, Z./He, S./Li, D.} (2016): Chiral and deconfining phase\n'
    '  transitions from holographic {QCD} study, in: Nucl. Phys. B, 908, S. 187.\n'
    '\n'
    '\\bibitem[{\\textsc{Fang et~al.}()\\textsc{Fang, Li/Wu}}]{FangLiWu2016}\n'
    '\\textsc{Fang, Z./Li, D./Wu, Y.-L.} (): {IR}-improved soft-wall {AdS/QCD} model\n'
    '  for baryons, in: , 754, S. 343--348, \\doi{10.1016/j.physletb.2016.01.045}.\n'
    '\n'
    '\\bibitem[{\\textsc{G{\\"u}rsoy et~al.}(2017)\\textsc{G{\\"u}rsoy, Iatrakas,\n'
    '  J{\\"a}rvinen/Nijs}}]{GursoyIatrakis2017}\n'
    '\\textsc{G{\\"u}rsoy, U./Iatrakas, I./J{\\"a}rvinen, M./Nijs, G.} (2017): {Inverse\n'
    '  magnetic catalysis from improved holographic QCD in the Veneziano limit}, in:\n'
    '  JHEP, 1703, S. 053, \\doi{10.1007/JHEP03(2017)053}.\n'
    '\n'
    '\\bibitem[{\\textsc{Karch et~al.}(2017)\\textsc{Karch,\n'
    '  Katz/Son}}]{KarchKatzSon2017}\n'
    '\\textsc{Karch, A./Katz, E./Son, D.~T.} (2017): Holographic Duals for\n'
    '  Five-Dimensional Superconformal Quantum Field Theories, in: Phys. Rev. Lett.\n'
    '\n'
    '\\bibitem[{\\textsc{Barbieri et~al.}(2017)\\textsc{Barbieri, Braggio, Carugno\n'
    '  et~al.}}]{Barbieri2017}\n'
    '\\textsc{Barbieri, R./Braggio, C./Carugno, G./ et~al.} (2017): Searching for\n'
    '  galactic axions through magnetized media: the {QUAX} proposal, in: Phys. Dark\n'
    '  Univ., 15, S. 135, \\doi{10.1016/j.dark.2017.01.003}.\n'
    '\n'
    '\\bibitem[{\\textsc{Hui et~al.}(2017)\\textsc{Hui, Ostriker,\n'
    '  Tremaine/Witten}}]{Hui2017}\n'
    '\\textsc{Hui, L./Ostriker, J.~P./Tremaine, S./Witten, E.} (2017): Ultralight\n'
    '  scalars as cosmological dark matter, in: Phys.Rev.D, 95, S. 043.541.\n'
    '\n'
    '\\bibitem[{\\textsc{Kosower}(1987)}]{Kosower:1987em}\n'
    '\\textsc{Kosower, D.~A.} (1987): {A Natural Misalignment Mechanism}, in: Nucl.\n'
    '  Phys. B, 294, S. 244--252, \\doi{10.1016/0550-3213(87)90581-5}.\n'
    '\n'
    '\\bibitem[{\\textsc{Lazarides et~al.}(2017)\\textsc{Lazarides,\n'
    '  Panagiotakopoulos/Shafi}}]{Lazarides2017}\n'
    '\\textsc{Lazarides, G./Panagiotakopoulos, C./Shafi, Q.} (2017): Axion, $\\mu$\n'
    '  term, and supersymmetric hybrid inflation, in: Phys. Rev. D, 96, S. 055.017,\n'
    '  \\doi{10.1103/PhysRevD.95.055017}.\n'
    '\n'
    '\\bibitem[{\\textsc{McAllister et~al.}(2016)\\textsc{McAllister,\n'
    '  Parker/Tobar}}]{McAllister:2015zcz}\n'
    '\\textsc{McAllister, B.~T./Parker, S.~R./Tobar, M.~E.} (2016): {Axion Dark\n'
    '  Matter Coupling to Resonant Photons via Magnetic Field}, in: Phys. Rev.\n'
    '  Lett., 116(16), S. 161.804, \\doi{10.1103/PhysRevLett.116.161804}, [Erratum:\n'
    '  Phys.Rev.Lett. 117, 159901 (2016)].\n'
    '\n'
    '\\end{thebibliography}\n'
)

EXPECTED = sample_labels(
    "Bartolini2017", "Chabysheva:2012fe", "FangLiWu2016", "Hui2017", "Kosower:1987em",
    "Barbieri2017", "McAllister:2015zcz", "GursoyIatrakis2017", "Fang2016chiral",
    "Lazarides2017", "Capossoli2016", "KarchKatzSon2017")


def test_munich_items(tmp_path: Path, index: Path) -> None:
    got = {e["key"]: e for e in checked(tmp_path, index, "paper.bbl", MUNICH,
                                        "--index-complete")}
    assert got.keys() == EXPECTED.keys()
    for key, entry in got.items():
        label, field = EXPECTED[key]
        assert entry["label"] == label, (key, entry["discrepancies"])
        if field:
            assert field in {d["field"] for d in entry["discrepancies"]}, key


def test_munich_fields() -> None:
    entries, _ = parse_bbl_text(MUNICH, "paper.bbl")
    hui = next(e for e in entries if e.key == "Hui2017").fields
    assert hui["author"] == "Hui, L. and Ostriker, J. P. and Tremaine, S. and Witten, E."
    assert (hui["title"], hui["journal"], hui["volume"], hui["pages"], hui["year"]) == (
        "Ultralight scalars as cosmological dark matter", "Phys.Rev.D", "95", "043541", "2017")


def test_not_another_style() -> None:
    # econometrica's "Names (2017): “Title,” Journal, 95, 043541" is no munich reference
    got = parse_reference("Hui, L., J. P. Ostriker, S. Tremaine, and E. Witten (2017): "
                          "\u201cUltralight scalars as cosmological dark matter,\u201d "
                          "Phys.Rev.D, 95, 043541.")
    assert "Phys.Rev.D" not in got.get("title", "")
