"""The macros a .bbl defines for itself, and the markup that carries the item's own key.

Real bibtex output (TeX Live, 2026-12-02) of ``sample_papers/holography_qcd/refs.bib``:

- smfalpha/smfplain define ``\\og``, ``\\fg`` and ``\\smfandname`` at the head of the
  .bbl and put a dash between the names and the quoted title; the last name (after
  ``\\smfandname``, which stands for "&") had been read into the title (a false MINOR on
  title and author of 32 of 34 faithful entries).
- unsrtnm/chronoplainnm define ``\\providecommand{\\nmbibLink}[3]{#3}`` and wrap the
  names in ``\\nmbibLink{KEY}{authors}{...}``: the key and "authors" had been read as
  part of the first name (30 of 34).
- xplain prints ``\\authorindexentries{KEY}{\\do{...}}`` (an index of the names) before the
  authors and ``\\bibref{KEY}`` after the year: the index had been read as a second copy
  of every name (34 of 34).

``python -m bench.accuracy.bst_styles --styles xplain,smfalpha,smfplain,unsrtnm,
chronoplainnm``: 34, 32, 32, 30, 30 -> 0 false flags. The planted errors in these items
(a misspelt author, a wrong volume, a wrong year, a chimera) are still flagged.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.tex.bbl import parse_bbl_text
from citecheck_tex.tex.bbl_macros import Macro, bbl_macros, expand_macros

from .conftest import UNSRTNM_PREAMBLE, checked

SMFALPHA = (
    '\\newcommand{\\etalchar}[1]{$^{#1}$}\n'
    '\\providecommand{\\bysame}{\\leavevmode ---\\ }\n'
    '\\providecommand{\\og}{``}\n'
    "\\providecommand{\\fg}{''}\n"
    '\\providecommand{\\smfandname}{\\&}\n'
    "\\providecommand{\\smfedsname}{\\'eds.}\n"
    "\\providecommand{\\smfedname}{\\'ed.}\n"
    "\\providecommand{\\smfmastersthesisname}{M\\'emoire}\n"
    '\\providecommand{\\smfphdthesisname}{Th\\`ese}\n'
    '\\begin{thebibliography}{BDRT14}\n'
    '\n'
    '\\bibitem[ANT17]{Andersen:2014xxa}\n'
    '{\\scshape J.~O. Andersen, W.~R. Naylor {\\normalfont \\smfandname} A.~Tranberg}\n'
    '  -- {\\og {Phase diagram of QCD in a magnetic field: A review}\\fg}, \\emph{Rev.\n'
    '  Mod. Phys.} \\textbf{88} (2017), p.~025001.\n'
    '\n'
    '\\bibitem[BdTD13]{Brodsky:2013dca}\n'
    "{\\scshape S.~J. Brodsky, G.~F. de~T{\\'e}ramond {\\normalfont \\smfandname} H.~G.\n"
    '  Dosch} -- {\\og {QCD on the Light-Front -- A Systematic Approach to Hadron\n'
    '  Physics}\\fg}, 10 2013.\n'
    '\n'
    '\\bibitem[FHL16]{Fang2016chiral}\n'
    '{\\scshape Z.~Fang, S.~He {\\normalfont \\smfandname} D.~Li} -- {\\og Chiral and\n'
    '  deconfining phase transitions from holographic {QCD} study\\fg}, \\emph{Nucl.\n'
    '  Phys. B} \\textbf{908} (2016), p.~187.\n'
    '\n'
    '\\bibitem[FLW]{FangLiWu2016}\n'
    '{\\scshape Z.~Fang, D.~Li {\\normalfont \\smfandname} Y.-L. Wu} -- {\\og\n'
    '  {IR}-improved soft-wall {AdS/QCD} model for baryons\\fg},  \\textbf{754},\n'
    '  p.~343--348.\n'
    '\n'
    '\\bibitem[GIJN17]{GursoyIatrakis2017}\n'
    '{\\scshape U.~G{\\"u}rsoy, I.~Iatrakas, M.~J{\\"a}rvinen {\\normalfont \\smfandname}\n'
    '  G.~Nijs} -- {\\og {Inverse magnetic catalysis from improved holographic QCD in\n'
    '  the Veneziano limit}\\fg}, \\emph{JHEP} \\textbf{1703} (2017), p.~053.\n'
    '\n'
    '\\end{thebibliography}\n'
)

UNSRTNM = UNSRTNM_PREAMBLE + (
    '\\bibitem[G{\\"u}rsoy et~al.(2017)G{\\"u}rsoy, Iatrakas, J{\\"a}rvinen, and\n'
    '  Nijs]{GursoyIatrakis2017}\n'
    '\\nmbibLink{GursoyIatrakis2017}{authors}{Umut G{\\"u}rsoy, Ioannis Iatrakas,\n'
    '  Matti J{\\"a}rvinen, and Govert Nijs}.\n'
    '\\newblock {Inverse magnetic catalysis from improved holographic QCD in the\n'
    '  Veneziano limit}.\n'
    '\\newblock \\emph{JHEP}, 1703:\\penalty0 053,\n'
    '  \\nmbibLink{GursoyIatrakis2017}{timeline}{2017}.\n'
    '\\newblock \\doi{10.1007/JHEP03(2017)053}.\n'
    '\n'
    '\\bibitem[Bartolini et~al.(2017)Bartolini, Bigazzi, Bolognesi, Cotrone, and\n'
    '  Manenti]{Bartolini2017}\n'
    '\\nmbibLink{Bartolini2017}{authors}{L.~Bartolini, F.~Bigazzi, S.~Bolognesi,\n'
    '  A.~L. Cotrone, and A.~Manenti}.\n'
    '\\newblock Neutron electric dipole moment from gauge-string duality.\n'
    '\\newblock \\emph{Phys. Rev. Lett.}, 118:\\penalty0 091601,\n'
    '  \\nmbibLink{Bartolini2017}{timeline}{2017}.\n'
    '\\newblock \\doi{10.1103/PhysRevLett.118.091601}.\n'
    '\n'
    '\\bibitem[Fang et~al.(2016)Fang, He, and Li]{Fang2016chiral}\n'
    '\\nmbibLink{Fang2016chiral}{authors}{Z.~Fang, S.~He, and D.~Li}.\n'
    '\\newblock Chiral and deconfining phase transitions from holographic {QCD}\n'
    '  study.\n'
    '\\newblock \\emph{Nucl. Phys. B}, 908:\\penalty0 187,\n'
    '  \\nmbibLink{Fang2016chiral}{timeline}{2016}.\n'
    '\n'
    "\\bibitem[Brodsky et~al.(2013)Brodsky, de~T{\\'e}ramond, and\n"
    '  Dosch]{Brodsky:2013dca}\n'
    '\\nmbibLink{Brodsky:2013dca}{authors}{Stanley~J. Brodsky, Guy~F.\n'
    '  de~T{\\\'e}ramond, and Hans~G{\\"u}nter Dosch}.\n'
    '\\newblock {QCD on the Light-Front -- A Systematic Approach to Hadron Physics}.\n'
    '\\newblock \\nmbibLink{Brodsky:2013dca}{timeline}{10 2013}.\n'
    '\n'
    '\\bibitem[Karch et~al.(2017)Karch, Katz, and Son]{KarchKatzSon2017}\n'
    '\\nmbibLink{KarchKatzSon2017}{authors}{Andreas Karch, Emanuel Katz, and Dam~T.\n'
    '  Son}.\n'
    '\\newblock Holographic duals for five-dimensional superconformal quantum field\n'
    '  theories.\n'
    '\\newblock \\emph{Phys. Rev. Lett.},\n'
    '  \\nmbibLink{KarchKatzSon2017}{timeline}{2017}.\n'
    '\n'
    '\\end{thebibliography}\n'
)

XPLAIN = (
    '\\begin{thebibliography}{10}\n'
    '\n'
    '\\bibitem{Bartolini2017}\n'
    '\\authorindexentries{Bartolini2017}{\\do{Bartolini L@Bartolini, L.}\\do{Bigazzi\n'
    '  F@Bigazzi, F.}\\do{Bolognesi S@Bolognesi, S.}\\do{Cotrone A L@Cotrone,\n'
    '  A.~L.}\\do{Manenti A@Manenti, A.}}\n'
    'L.~Bartolini, F.~Bigazzi, S.~Bolognesi, A.~L. Cotrone, and A.~Manenti.\n'
    '\\newblock Neutron electric dipole moment from gauge-string duality.\n'
    '\\newblock {\\em Phys. Rev. Lett.}, 118:091601, 2017.\\bibref{Bartolini2017}\n'
    '\n'
    '\\bibitem{Brodsky:2013dca}\n'
    '\\authorindexentries{Brodsky:2013dca}{\\do{Brodsky Stanley J@Brodsky,\n'
    "  Stanley~J.}\\do{de Teramond Guy F@de~T{\\'e}ramond, Guy~F.}\\do{Dosch Hans\n"
    '  Gunter@Dosch, Hans~G{\\"u}nter}}\n'
    'Stanley~J. Brodsky, Guy~F. de~T{\\\'e}ramond, and Hans~G{\\"u}nter Dosch.\n'
    '\\newblock {QCD on the Light-Front -- A Systematic Approach to Hadron Physics}.\n'
    '\\newblock 10 2013.\\bibref{Brodsky:2013dca}\n'
    '\n'
    '\\bibitem{Fang2016chiral}\n'
    '\\authorindexentries{Fang2016chiral}{\\do{Fang Z@Fang, Z.}\\do{He S@He, S.}\\do{Li\n'
    '  D@Li, D.}}\n'
    'Z.~Fang, S.~He, and D.~Li.\n'
    '\\newblock Chiral and deconfining phase transitions from holographic {QCD}\n'
    '  study.\n'
    '\\newblock {\\em Nucl. Phys. B}, 908:187, 2016.\\bibref{Fang2016chiral}\n'
    '\n'
    '\\bibitem{GursoyIatrakis2017}\n'
    '\\authorindexentries{GursoyIatrakis2017}{\\do{Gursoy Umut@G{\\"u}rsoy,\n'
    '  Umut}\\do{Iatrakas Ioannis@Iatrakas, Ioannis}\\do{Jarvinen Matti@J{\\"a}rvinen,\n'
    '  Matti}\\do{Nijs Govert@Nijs, Govert}}\n'
    'Umut G{\\"u}rsoy, Ioannis Iatrakas, Matti J{\\"a}rvinen, and Govert Nijs.\n'
    '\\newblock {Inverse magnetic catalysis from improved holographic QCD in the\n'
    '  Veneziano limit}.\n'
    '\\newblock {\\em JHEP}, 1703:053, 2017.\\bibref{GursoyIatrakis2017}\n'
    '\n'
    '\\bibitem{KarchKatzSon2017}\n'
    '\\authorindexentries{KarchKatzSon2017}{\\do{Karch Andreas@Karch, Andreas}\\do{Katz\n'
    '  Emanuel@Katz, Emanuel}\\do{Son Dam T@Son, Dam~T.}}\n'
    'Andreas Karch, Emanuel Katz, and Dam~T. Son.\n'
    '\\newblock Holographic duals for five-dimensional superconformal quantum field\n'
    '  theories.\n'
    '\\newblock {\\em Phys. Rev. Lett.}, 2017.\\bibref{KarchKatzSon2017}\n'
    '\n'
    '\\end{thebibliography}\n'
)

#: the sample paper's expected labels and the field each planted error is in
EXPECTED = {
    "Andersen:2014xxa": ("MINOR", "year"),
    "Brodsky:2013dca": ("EXACT", ""),
    "Bartolini2017": ("EXACT", ""),
    "FangLiWu2016": ("EXACT", ""),
    "GursoyIatrakis2017": ("MINOR", "author"),
    "Fang2016chiral": ("MINOR", "volume"),
    "KarchKatzSon2017": ("MAJOR", ""),
}


@pytest.mark.parametrize("style, text", [("smfalpha", SMFALPHA), ("unsrtnm", UNSRTNM),
                                         ("xplain", XPLAIN)])
def test_faithful_items_are_exact_and_planted_errors_flagged(
        tmp_path: Path, index: Path, style: str, text: str) -> None:
    got = {e["key"]: e for e in checked(tmp_path, index, "paper.bbl", text,
                                                "--index-complete")}
    assert got.keys() <= EXPECTED.keys() and len(got) == 5
    for key, entry in got.items():
        label, field = EXPECTED[key]
        assert entry["label"] == label, (style, key, entry["discrepancies"])
        if field:
            assert field in {d["field"] for d in entry["discrepancies"]}, (style, key)


def test_smf_names_read_whole() -> None:
    entries, _ = parse_bbl_text(SMFALPHA, "paper.bbl")
    andersen = next(e for e in entries if e.key == "Andersen:2014xxa")
    assert andersen.fields["author"] == "J. O. Andersen and W. R. Naylor and A. Tranberg"
    assert andersen.fields["title"] == "Phase diagram of QCD in a magnetic field: A review"


def test_unsrtnm_link_holds_only_the_names() -> None:
    entries, _ = parse_bbl_text(UNSRTNM, "paper.bbl")
    bartolini = next(e for e in entries if e.key == "Bartolini2017")
    assert bartolini.fields["author"].startswith("L. Bartolini and F. Bigazzi")
    assert "authors" not in bartolini.fields["author"]


def test_xplain_index_entries_are_no_names() -> None:
    entries, _ = parse_bbl_text(XPLAIN, "paper.bbl")
    fang = next(e for e in entries if e.key == "Fang2016chiral")
    assert fang.fields["author"] == "Z. Fang and S. He and D. Li"
    assert "Fang2016chiral" not in fang.raw_text


def test_the_macro_reader_takes_text_macros_only() -> None:
    macros = bbl_macros(SMFALPHA.split("\\bibitem")[0] + UNSRTNM.split("\\bibitem")[0])
    assert macros["smfandname"] == Macro(0, "\\&")
    assert macros["nmbibLink"] == Macro(3, "#3")
    # the reader reads \url and \doi itself; \doi's second definition programs TeX
    assert "url" not in macros and "doi" not in macros and "natexlab" not in macros
    assert expand_macros("A \\nmbibLink{k}{authors}{B, C}.", macros) == "A B, C."


def test_a_recursive_definition_does_not_hang() -> None:
    macros = bbl_macros("\\providecommand{\\loop}[1]{#1 \\loop{#1#1}}")
    assert expand_macros("x \\loop{a} y", macros) == "x \\loop{a} y"
