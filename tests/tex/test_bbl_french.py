"""The French styles' words: francaisbst.tex's ``\\bbland``, ``\\bblvol``, ``\\bblp``...
(francais, francaissc), frplainnat-letters' ``\\andname`` and ``\\bsc\\bgroup Name\\egroup``,
French typography's "043\\,541" page, a DOI between the volume and the page.

Real bibtex output (TeX Live, 2026-12-02) of the two sample papers' ``refs.bib``. The
macros are defined in files the .bbl ``\\input``s or in packages, not in the .bbl: read as
unknown macros, "and" between the last two names was lost (two names read as one: a
false author MINOR) and "p. 043 541" read as a page "043" (a false pages MINOR).
``python -m bench.accuracy.bst_styles``: francais, francaissc, frplainnat-letters 25 -> 0
false flags. The planted errors (a misspelt author, a wrong volume, a chimera) are still
flagged.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.tex.bbl import parse_bbl_text
from citecheck_tex.tex.refstring import parse_reference

from .conftest import checked, sample_labels

FRANCAIS = (
    '\\begin{thebibliography}{30}\n'
    '\\ProvideTextCommand{\\guillemotleft}{OT1}{%\n'
    '  \\leavevmode\\raise .27ex\\hbox{$\\scriptscriptstyle\\ll$}}\n'
    '\\ProvideTextCommand{\\guillemotright}{OT1}{%\n'
    '  \\leavevmode\\raise .27ex\\hbox{$\\scriptscriptstyle\\gg$}}\n'
    '\\newcommand{\\enquote}[1]{\\guillemotleft#1\\guillemotright}\n'
    '\\providecommand{\\natexlab}[1]{#1}\n'
    '\\providecommand{\\url}[1]{\\texttt{#1}}\n'
    '\\providecommand{\\urlprefix}{URL }\n'
    '\\expandafter\\ifx\\csname urlstyle\\endcsname\\relax\n'
    '  \\providecommand{\\doi}[1]{doi:\\discretionary{}{}{}#1}\\else\n'
    '  \\providecommand{\\doi}{doi:\\discretionary{}{}{}\\begingroup\n'
    '  \\urlstyle{rm}\\Url}\\fi\n'
    '\\providecommand{\\selectlanguage}[1]{\\relax}\n'
    '\\input{francaisbst.tex}\n'
    '\\newcommand{\\Capitalize}[1]{\\uppercase{#1}}\n'
    '\\newcommand{\\capitalize}[1]{\\expandafter\\Capitalize#1}\n'
    '\n'
    '\\bibitem[{Bartolini \\bbletal{}(2017)Bartolini, Bigazzi, Bolognesi, Cotrone\n'
    '  \\bbland{} Manenti}]{Bartolini2017}\n'
    'Bartolini, L., F.~Bigazzi, S.~Bolognesi, A.~L. Cotrone \\bbland{} A.~Manenti.\n'
    '  2017, \\enquote{Neutron electric dipole moment from gauge-string duality},\n'
    '  \\emph{Phys. Rev. Lett.}, \\bblvol{} 118, \\doi{10.1103/PhysRevLett.118.091601},\n'
    '  \\bblp{} 091\\,601.\n'
    '\n'
    "\\bibitem[{Brodsky \\bbletal{}(2013)Brodsky, de~T{\\'e}ramond \\bbland{}\n"
    '  Dosch}]{Brodsky:2013dca}\n'
    "Brodsky, S.~J., G.~F. de~T{\\'e}ramond \\bbland{} H.~G. Dosch. 2013,\n"
    '  \\enquote{{QCD on the Light-Front -- A Systematic Approach to Hadron\n'
    '  Physics}}, .\n'
    '\n'
    '\\bibitem[{Fang \\bbletal{}(2016)Fang, He \\bbland{} Li}]{Fang2016chiral}\n'
    'Fang, Z., S.~He \\bbland{} D.~Li. 2016, \\enquote{Chiral and deconfining phase\n'
    '  transitions from holographic {QCD} study}, \\emph{Nucl. Phys. B}, \\bblvol{}\n'
    '  908, \\bblp{} 187.\n'
    '\n'
    '\\bibitem[{G{\\"u}rsoy \\bbletal{}(2017)G{\\"u}rsoy, Iatrakas, J{\\"a}rvinen\n'
    '  \\bbland{} Nijs}]{GursoyIatrakis2017}\n'
    'G{\\"u}rsoy, U., I.~Iatrakas, M.~J{\\"a}rvinen \\bbland{} G.~Nijs. 2017,\n'
    '  \\enquote{{Inverse magnetic catalysis from improved holographic QCD in the\n'
    '  Veneziano limit}}, \\emph{JHEP}, \\bblvol{} 1703,\n'
    '  \\doi{10.1007/JHEP03(2017)053}, \\bblp{} 053.\n'
    '\n'
    '\\bibitem[{Janik(1999)}]{Janik:1999zu}\n'
    'Janik, R.~A. 1999, \\enquote{{Gauge theory scattering from the AdS / CFT\n'
    '  correspondence}}, .\n'
    '\n'
    '\\bibitem[{Karch \\bbletal{}(2017)Karch, Katz \\bbland{} Son}]{KarchKatzSon2017}\n'
    'Karch, A., E.~Katz \\bbland{} D.~T. Son. 2017, \\enquote{Holographic duals for\n'
    '  five-dimensional superconformal quantum field theories}, \\emph{Phys. Rev.\n'
    '  Lett.}\n'
    '\n'
    '\\bibitem[{Barbieri \\bbletal{}(2017)Barbieri, Braggio, Carugno\n'
    '  \\bbletal{}}]{Barbieri2017}\n'
    'Barbieri, R., C.~Braggio, G.~Carugno \\bbletal{}. 2017, \\enquote{Searching for\n'
    '  galactic axions through magnetized media: the {QUAX} proposal}, \\emph{Phys.\n'
    '  Dark Univ.}, \\bblvol{}~15, \\doi{10.1016/j.dark.2017.01.003}, \\bblp{} 135.\n'
    '\n'
    '\\bibitem[{Hui \\bbletal{}(2017)Hui, Ostriker, Tremaine \\bbland{}\n'
    '  Witten}]{Hui2017}\n'
    'Hui, L., J.~P. Ostriker, S.~Tremaine \\bbland{} E.~Witten. 2017,\n'
    '  \\enquote{Ultralight scalars as cosmological dark matter}, \\emph{Phys.Rev.D},\n'
    '  \\bblvol{}~95, \\bblp{} 043\\,541.\n'
    '\n'
    '\\bibitem[{Kosower(1987)}]{Kosower:1987em}\n'
    'Kosower, D.~A. 1987, \\enquote{{A Natural Misalignment Mechanism}}, \\emph{Nucl.\n'
    '  Phys. B}, \\bblvol{} 294, \\doi{10.1016/0550-3213(87)90581-5}, \\bblpp{}\n'
    '  244--252.\n'
    '\n'
    '\\bibitem[{Lazarides \\bbletal{}(2017)Lazarides, Panagiotakopoulos \\bbland{}\n'
    '  Shafi}]{Lazarides2017}\n'
    'Lazarides, G., C.~Panagiotakopoulos \\bbland{} Q.~Shafi. 2017, \\enquote{Axion,\n'
    '  $\\mu$ term, and supersymmetric hybrid inflation}, \\emph{Phys. Rev. D},\n'
    '  \\bblvol{}~96, \\doi{10.1103/PhysRevD.95.055017}, \\bblp{} 055\\,017.\n'
    '\n'
    '\\end{thebibliography}\n'
)

FRPLAINNAT_LETTERS = (
    '\\def\\alphabibitem#1{%\n'
    '\\expandafter\\ifx\\csname firstalphabibitem\\endcsname\n'
    '\\relax\\def\\firstalphabibitem{}\n'
    '\\else\\expandafter\n'
    '\\ifx\\csname alphabibitemskip\\endcsname\n'
    '\\relax\\bigskip\n'
    '\\else\\alphabibitemskip\n'
    '\\fi\n'
    '\\fi\n'
    '\\penalty-200\\expandafter\n'
    '\\ifx\\csname alphabibitemlabel\\endcsname\n'
    '\\relax\\expandafter\n'
    '\\ifx\\csname alphabibitemcontent\\endcsname\\relax\n'
    '\\item[\\LARGE\\bfseries\\MakeUppercase{#1}]\n'
    '\\hfill\\vskip 1ex\\hrule\\medskip\n'
    '\\else\\item[\\Large\\bfseries\\MakeUppercase{#1}]\n'
    '\\alphabibitemcontent{\\MakeUppercase{#1}}%\n'
    '\\fi\n'
    '\\else\\expandafter\n'
    '\\ifx\\csname alphabibitemcontent\\endcsname\\relax\n'
    '\\item[\\alphabibitemlabel{\\MakeUppercase{#1}}]\n'
    '\\vskip 1ex\\hrule\\medskip\n'
    '\\else\\item[\\alphabibitemlabel{\\MakeUppercase{#1}}]\n'
    '\\alphabibitemcontent{\\MakeUppercase{#1}}%\n'
    '\\fi\n'
    '\\fi}\n'
    '\n'
    '\\begin{thebibliography}{30}\n'
    '\\expandafter\\ifx\\csname natexlab\\endcsname\\relax\\def\\natexlab#1{#1}\\fi\n'
    '\\expandafter\\ifx\\csname url\\endcsname\\relax\n'
    '  \\def\\url#1{{\\tt #1}}\\fi\n'
    '\n'
    '\\alphabibitem{A}\n'
    '\n'
    '\\bibitem[\\bsc\\bgroup Bartolini\\egroup{} \\emph{et~al.}(2017)\\bsc\\bgroup\n'
    '  Bartolini\\egroup{}, \\bsc\\bgroup Bigazzi\\egroup{}, \\bsc\\bgroup\n'
    '  Bolognesi\\egroup{}, \\bsc\\bgroup Cotrone\\egroup{}, \\andname{} \\bsc\\bgroup\n'
    '  Manenti\\egroup{}]{Bartolini2017}\n'
    'L.~\\bsc\\bgroup Bartolini\\egroup{}, F.~\\bsc\\bgroup Bigazzi\\egroup{},\n'
    '  S.~\\bsc\\bgroup Bolognesi\\egroup{}, A.~L. \\bsc\\bgroup Cotrone\\egroup{}\n'
    '  \\andname{} A.~\\bsc\\bgroup Manenti\\egroup{}.\n'
    '\\newblock Neutron electric dipole moment from gauge-string duality.\n'
    '\\newblock {\\em Phys. Rev. Lett.}, 118\\string:\\penalty0 091601, 2017.\n'
    '\n'
    '\\bibitem[\\bsc\\bgroup Brodsky\\egroup{} \\emph{et~al.}(2013)\\bsc\\bgroup\n'
    "  Brodsky\\egroup{}, \\bsc\\bgroup de~T{\\'e}ramond\\egroup{}, \\andname{}\n"
    '  \\bsc\\bgroup Dosch\\egroup{}]{Brodsky:2013dca}\n'
    'Stanley~J. \\bsc\\bgroup Brodsky\\egroup{}, Guy~F. \\bsc\\bgroup\n'
    '  de~T{\\\'e}ramond\\egroup{} \\andname{} Hans~G{\\"u}nter \\bsc\\bgroup\n'
    '  Dosch\\egroup{}.\n'
    '\\newblock {QCD on the Light-Front -- A Systematic Approach to Hadron Physics}.\n'
    '\\newblock 10 2013.\n'
    '\n'
    '\\bibitem[\\bsc\\bgroup Fang\\egroup{} \\emph{et~al.}(2016)\\bsc\\bgroup\n'
    '  Fang\\egroup{}, \\bsc\\bgroup He\\egroup{}, \\andname{} \\bsc\\bgroup\n'
    '  Li\\egroup{}]{Fang2016chiral}\n'
    'Z.~\\bsc\\bgroup Fang\\egroup{}, S.~\\bsc\\bgroup He\\egroup{} \\andname{}\n'
    '  D.~\\bsc\\bgroup Li\\egroup{}.\n'
    '\\newblock Chiral and deconfining phase transitions from holographic {QCD}\n'
    '  study.\n'
    '\\newblock {\\em Nucl. Phys. B}, 908\\string:\\penalty0 187, 2016.\n'
    '\n'
    '\\bibitem[\\bsc\\bgroup G{\\"u}rsoy\\egroup{} \\emph{et~al.}(2017)\\bsc\\bgroup\n'
    '  G{\\"u}rsoy\\egroup{}, \\bsc\\bgroup Iatrakas\\egroup{}, \\bsc\\bgroup\n'
    '  J{\\"a}rvinen\\egroup{}, \\andname{} \\bsc\\bgroup\n'
    '  Nijs\\egroup{}]{GursoyIatrakis2017}\n'
    'Umut \\bsc\\bgroup G{\\"u}rsoy\\egroup{}, Ioannis \\bsc\\bgroup Iatrakas\\egroup{},\n'
    '  Matti \\bsc\\bgroup J{\\"a}rvinen\\egroup{} \\andname{} Govert \\bsc\\bgroup\n'
    '  Nijs\\egroup{}.\n'
    '\\newblock {Inverse magnetic catalysis from improved holographic QCD in the\n'
    '  Veneziano limit}.\n'
    '\\newblock {\\em JHEP}, 1703\\string:\\penalty0 053, 2017.\n'
    '\n'
    '\\alphabibitem{H}\n'
    '\n'
    '\\bibitem[\\bsc\\bgroup Janik\\egroup{}(1999)]{Janik:1999zu}\n'
    'Romuald~A. \\bsc\\bgroup Janik\\egroup{}.\n'
    '\\newblock {Gauge theory scattering from the AdS / CFT correspondence}.\n'
    '\\newblock 9 1999.\n'
    '\n'
    '\\alphabibitem{K}\n'
    '\n'
    '\\bibitem[\\bsc\\bgroup Karch\\egroup{} \\emph{et~al.}(2017)\\bsc\\bgroup\n'
    '  Karch\\egroup{}, \\bsc\\bgroup Katz\\egroup{}, \\andname{} \\bsc\\bgroup\n'
    '  Son\\egroup{}]{KarchKatzSon2017}\n'
    'Andreas \\bsc\\bgroup Karch\\egroup{}, Emanuel \\bsc\\bgroup Katz\\egroup{}\n'
    '  \\andname{} Dam~T. \\bsc\\bgroup Son\\egroup{}.\n'
    '\\newblock Holographic duals for five-dimensional superconformal quantum field\n'
    '  theories.\n'
    '\\newblock {\\em Phys. Rev. Lett.}, 2017.\n'
    '\n'
    '\\alphabibitem{M}\n'
    '\n'
    '\\bibitem[\\bsc\\bgroup Barbieri\\egroup{} \\emph{et~al.}(2017)\\bsc\\bgroup\n'
    '  Barbieri\\egroup{}, \\bsc\\bgroup Braggio\\egroup{}, \\bsc\\bgroup\n'
    '  Carugno\\egroup{}, \\andname{} \\bsc\\bgroup others\\egroup{}]{Barbieri2017}\n'
    'R.~\\bsc\\bgroup Barbieri\\egroup{}, C.~\\bsc\\bgroup Braggio\\egroup{},\n'
    '  G.~\\bsc\\bgroup Carugno\\egroup{} \\andname{} \\bsc\\bgroup others\\egroup{}.\n'
    '\\newblock Searching for galactic axions through magnetized media: the {QUAX}\n'
    '  proposal.\n'
    '\\newblock {\\em Phys. Dark Univ.}, 15\\string:\\penalty0 135, 2017.\n'
    '\n'
    '\\alphabibitem{C}\n'
    '\n'
    '\\bibitem[\\bsc\\bgroup Hui\\egroup{} \\emph{et~al.}(2017)\\bsc\\bgroup Hui\\egroup{},\n'
    '  \\bsc\\bgroup Ostriker\\egroup{}, \\bsc\\bgroup Tremaine\\egroup{}, \\andname{}\n'
    '  \\bsc\\bgroup Witten\\egroup{}]{Hui2017}\n'
    'L.~\\bsc\\bgroup Hui\\egroup{}, J.~P. \\bsc\\bgroup Ostriker\\egroup{},\n'
    '  S.~\\bsc\\bgroup Tremaine\\egroup{} \\andname{} E.~\\bsc\\bgroup Witten\\egroup{}.\n'
    '\\newblock Ultralight scalars as cosmological dark matter.\n'
    '\\newblock {\\em Phys.Rev.D}, 95\\string:\\penalty0 043541, 2017.\n'
    '\n'
    '\\alphabibitem{K}\n'
    '\n'
    '\\bibitem[\\bsc\\bgroup Kosower\\egroup{}(1987)]{Kosower:1987em}\n'
    'David~A. \\bsc\\bgroup Kosower\\egroup{}.\n'
    '\\newblock {A Natural Misalignment Mechanism}.\n'
    '\\newblock {\\em Nucl. Phys. B}, 294\\string:\\penalty0 244--252, 1987.\n'
    '\n'
    '\\alphabibitem{L}\n'
    '\n'
    '\\bibitem[\\bsc\\bgroup Lazarides\\egroup{} \\emph{et~al.}(2017)\\bsc\\bgroup\n'
    '  Lazarides\\egroup{}, \\bsc\\bgroup Panagiotakopoulos\\egroup{}, \\andname{}\n'
    '  \\bsc\\bgroup Shafi\\egroup{}]{Lazarides2017}\n'
    'G.~\\bsc\\bgroup Lazarides\\egroup{}, C.~\\bsc\\bgroup Panagiotakopoulos\\egroup{}\n'
    '  \\andname{} Q.~\\bsc\\bgroup Shafi\\egroup{}.\n'
    '\\newblock Axion, $\\mu$ term, and supersymmetric hybrid inflation.\n'
    '\\newblock {\\em Phys. Rev. D}, 96\\string:\\penalty0 055017, 2017.\n'
    '\n'
    '\\end{thebibliography}\n'
)

EXPECTED = sample_labels(
    "Bartolini2017", "Brodsky:2013dca", "Janik:1999zu", "Hui2017", "Kosower:1987em",
    "Barbieri2017", "GursoyIatrakis2017", "Fang2016chiral", "Lazarides2017",
    "KarchKatzSon2017")


@pytest.mark.parametrize("style, text", [("francais", FRANCAIS),
                                         ("frplainnat-letters", FRPLAINNAT_LETTERS)])
def test_faithful_items_are_exact_and_planted_errors_flagged(
        tmp_path: Path, index: Path, style: str, text: str) -> None:
    got = {e["key"]: e for e in checked(tmp_path, index, "paper.bbl", text,
                                        "--index-complete")}
    assert got.keys() == EXPECTED.keys()
    for key, entry in got.items():
        label, field = EXPECTED[key]
        assert entry["label"] == label, (style, key, entry["discrepancies"])
        if field:
            assert field in {d["field"] for d in entry["discrepancies"]}, (style, key)


def test_french_words_and_page() -> None:
    entries, _ = parse_bbl_text(FRANCAIS, "paper.bbl")
    hui = next(e for e in entries if e.key == "Hui2017").fields
    assert hui["author"] == "Hui, L. and J. P. Ostriker and S. Tremaine and E. Witten"
    assert (hui["volume"], hui["pages"]) == ("95", "043541")


def test_small_capitals_in_groups() -> None:
    entries, _ = parse_bbl_text(FRPLAINNAT_LETTERS, "paper.bbl")
    kosower = next(e for e in entries if e.key == "Kosower:1987em").fields
    assert kosower["author"] == "David A. Kosower"


def test_a_doi_between_volume_and_page() -> None:
    got = parse_reference("Lazarides, G., C. Panagiotakopoulos and Q. Shafi. 2017, \u201cAxion, "
                          "\u03bc term, and supersymmetric hybrid inflation\u201d, Phys. Rev. D, "
                          "vol. 96, 10.1103/PhysRevD.95.055017, p. 055017.")
    assert (got["journal"], got["volume"], got["pages"]) == ("Phys. Rev. D", "96", "055017")
