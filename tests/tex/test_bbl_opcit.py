"""opcit.sty's .bbl (TeX Live's ``opcit.bst``): the macros are defined by opcit's own
``\\newBibCommand{\\name[n]}{citation form}{bibliography form}``, and the bibliography
prints the second form (``\\SwapNames{Y.~H.}{Ahn}`` -> "Ahn, Y. H."); its items sit between
``\\opcitstart`` and ``\\opcitend``, a part later citations omit in ``\\toomit[pages]{...}``.
Undefined, the macros had run the names together ("Y.~H.Ahn") and every faithful item of
the style was flagged (34 of 34). A real excerpt of the sample paper's ``refs.bib``
typeset by ``bibtex`` (``python -m bench.accuracy.bst_styles --styles opcit --keep DIR``),
unchanged; the faithful items must be EXACT against the real records, and the planted
year (Day2016) and volume (Lazarides2017) flagged.
"""

from __future__ import annotations

from pathlib import Path

from citecheck_tex.tex.bbl_macros import bbl_macros, expand_macros

from .conftest import faithful_and_planted

OPCIT = r"""\newBibCommand{\bibparenthesis[1]}{ (#1)}{. \newblock #1}
\newBibCommand{\bibincite[2]}{\recover@last\@nameuse{@#1}}{#2}
\newBibCommand{\bibincitestar[2]}{\recover@last
     \@nameuse{#1@star}}{#2}
\newBibCommand{\SwapNames[2]}{#1 #2}{#2, #1}
\newBibCommand{\GobbleOrNot}{\relax}{\newblock\@gobble}
\begin{thebibliography}{}

\bibitem{Ahn2016}
\biblastnames{Ahn and Chun}
\opcitstart \SwapNames{Y.~H.}{Ahn} and E.~J. Chun\GobbleOrNot\bibpunctuation
\newblock ``Minimal models for axion and neutrino\bibpunctuation''
\newblock {\em Phys.Lett.B} 752 (2016)\toomit[pages]{\bibcase :  333}\opcitend

\bibitem{Baer:2015zda}
\biblastnames{Baer}
\opcitstart \SwapNames{Howard}{Baer}\bibpunctuation
\newblock {(Mainly) axion dark matter}\bibpunctuation
\newblock \toomit[month]{10 }2015\opcitend

\bibitem{Barbieri2017}
\biblastnames{Barbieri et~al.}
\opcitstart \SwapNames{R.}{Barbieri} et~al.\GobbleOrNot\bibpunctuation
\newblock ``Searching for galactic axions through magnetized media: the {QUAX}
  proposal\bibpunctuation''
\newblock {\em Phys. Dark Univ.} 15 (2017)\toomit[pages]{\bibcase :
  135}\opcitend

\bibitem{Calucci2007}
\biblastnames{Calucci}
\opcitstart \SwapNames{G.}{Calucci}\GobbleOrNot\bibpunctuation
\newblock ``Very strong and slowly varying magnetic fields as source of
  axions\bibpunctuation''
\newblock {\em Phys. Rev. D} 75 (2007)\toomit[pages]{\bibcase :
  097303}\opcitend

\bibitem{Day2016}
\biblastnames{Day}
\opcitstart \SwapNames{Francesca~V.}{Day}\GobbleOrNot\bibpunctuation
\newblock ``Cosmic axion background propagation in galaxies\bibpunctuation''
\newblock {\em Phys. Lett. B} 753 (2017)\toomit[pages]{\bibcase :
  600}\opcitend

\bibitem{Lazarides2017}
\biblastnames{Lazarides, Panagiotakopoulos and Shafi}
\opcitstart \SwapNames{G.}{Lazarides}, C.~Panagiotakopoulos and
  Q.~Shafi\GobbleOrNot\bibpunctuation
\newblock ``Axion, $\mu$ term, and supersymmetric hybrid
  inflation\bibpunctuation''
\newblock {\em Phys. Rev. D} 96 (2017)\toomit[pages]{\bibcase :
  055017}\opcitend

\end{thebibliography}
"""


def test_the_bibliography_form_of_new_bib_command() -> None:
    macros = bbl_macros(OPCIT)
    assert macros["SwapNames"].body == "#2, #1"
    assert macros["bibparenthesis"].body == ". \\newblock #1"
    assert expand_macros(r"\SwapNames{Y.~H.}{Ahn} and E.~J. Chun", macros) == \
        "Ahn, Y.~H. and E.~J. Chun"


def test_opcit_items_exact_and_the_planted_fields_flagged(tmp_path: Path, index: Path) -> None:
    faithful_and_planted(tmp_path, index, OPCIT, ("Ahn2016", "Barbieri2017", "Calucci2007"),
                         {"Day2016": "year", "Lazarides2017": "volume"})
