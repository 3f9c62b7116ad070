"""One reference of the sample papers as real BibTeX styles typeset it (TeX Live's
bibtex, 2026-12-02; the style and the key in each name); each was a false MINOR or
MAJOR on a faithful reference. The whole-style runs are tests/tex/test_bst_styles.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tex.conftest import checked as _checked

ITEMS = {
    'JAmChemSoc': '\\bibitem{Hui2017}\nHui, L.; Ostriker, J.~P.; Tremaine, S.; Witten, E. \\emph{Phys.Rev.D}\n  \\textbf{2017}, \\emph{95}, 043541.\n',
    'gbt7714-numerical': '\\bibitem[Hui et~al.(2017)Hui, Ostriker, Tremaine, and Witten]{Hui2017}\nHUI L, OSTRIKER J~P, TREMAINE S, et~al.\n\\newblock Ultralight scalars as cosmological dark matter\\allowbreak[J].\n\\newblock Phys.Rev.D, 2017, 95: 043541.\n',
    'plaindin': '\\bibitem[11]{Hui2017}\n\\textsc{Hui}, L. ; \\textsc{Ostriker}, J.~P. ; \\textsc{Tremaine}, S.  ;\n  \\textsc{Witten}, E.:\n\\newblock Ultralight scalars as cosmological dark matter.\n\\newblock {In: }\\emph{Phys.Rev.D} 95 (2017), S. 043541\n',
    'aasjournal': '\\bibitem[{Liu \\& Ng(2017)}]{LiuNg2017}\nLiu, G.-C., \\& Ng, K.-W. 2017, Phys. Dark Univ., 16, 22\n',
    'iopart-num': '\\bibitem{Baer:2015zda}\nBaer H 2015 {(Mainly) axion dark matter} (\\textit{Preprint}\n  \\eprint{1510.07501})\n',
    'elsarticle-num': '\\bibitem{McAllister:2015zcz}\nB.~T. McAllister, S.~R. Parker, M.~E. Tobar, {Axion Dark Matter Coupling to\n  Resonant Photons via Magnetic Field}, Phys. Rev. Lett. 116~(16) (2016)\n  161804, [Erratum: Phys.Rev.Lett. 117, 159901 (2016)].\n\\newblock \\href {http://arxiv.org/abs/1512.05547} {\\path{arXiv:1512.05547}},\n  \\href {https://doi.org/10.1103/PhysRevLett.116.161804}\n  {\\path{doi:10.1103/PhysRevLett.116.161804}}.\n',
    'abbrv': '\\bibitem{LiuNg2017}\nG.-C. Liu and K.-W. Ng.\n\\newblock Axion dark matter induced cosmic microwave background.\n\\newblock {\\em Phys. Dark Univ.}, 16:22--25, 2017.\n',
    'plain': '\\bibitem{Noh:2013coa}\nH.~Noh, C.-G. Park, and J.-c. Hwang.\n\\newblock Axion as a cold dark matter candidate: proof to second order, 2013.\n',
    'apsrev4-2': '\\bibitem [{\\citenamefont {q.~Zhang}\\ \\emph {et~al.}(2017)\\citenamefont\n  {q.~Zhang}, \\citenamefont {f.~Hou},\\ and\\ \\citenamefont\n  {Chen}}]{Zhang2017hqp}%\n  \\BibitemOpen\n  \\bibfield  {author} {\\bibinfo {author} {\\bibfnamefont {Z.}~\\bibnamefont\n  {q.~Zhang}}, \\bibinfo {author} {\\bibfnamefont {D.}~\\bibnamefont {f.~Hou}},\\\n  and\\ \\bibinfo {author} {\\bibfnamefont {G.}~\\bibnamefont {Chen}},\\ }\\href@noop\n  {} {\\bibfield  {journal} {\\bibinfo  {journal} {Nucl. Phys. A}\\ }\\textbf\n  {\\bibinfo {volume} {960}},\\ \\bibinfo {pages} {1} (\\bibinfo {year}\n  {2017})}\\BibitemShut {NoStop}%\n',
    'mnras': '\\bibitem[\\protect\\citeauthoryear{Noh, Park  \\& Hwang}{Noh\n  et~al.}{2013}]{Noh:2013coa}\nNoh H.,  Park C.-G.,   Hwang J.-c.,  2013, Axion as a cold dark matter\n  candidate: proof to second order (\\mn@eprint {arXiv} {1309.5692})\n',
    'vancouver': '\\bibitem{Kawasaki2016}\nKawasaki M, Takahashi F, Yamada M.\n\\newblock Suppressing the {QCD} axion abundance by hidden monopoles.\n\\newblock Phys Lett B. 2016;753:677-81.\n',
    'chicago': '\\bibitem[\\protect\\citeauthoryear{Kawasaki, Takahashi, and Yamada}{Kawasaki\n  et~al.}{2016}]{Kawasaki2016}\nKawasaki, M., F.~Takahashi, and M.~Yamada (2016).\n\\newblock Suppressing the {QCD} axion abundance by hidden monopoles.\n\\newblock {\\em Phys. Lett. B\\/}~{\\em 753}, 677--681.\n',
    'agu': '\\bibitem[{\\textit{Kawasaki et~al.}(2016)\\textit{Kawasaki, Takahashi, and\n  Yamada}}]{Kawasaki2016}\nKawasaki, M., F.~Takahashi, and M.~Yamada, Suppressing the {QCD} axion\n  abundance by hidden monopoles, \\textit{Phys. Lett. B}, \\textit{753},\n  677--681, \\doi{10.1016/j.physletb.2015.12.075}, 2016.\n',
    'acm': '\\bibitem{McAllister:2015zcz}\n{\\sc McAllister, B.~T., Parker, S.~R., and Tobar, M.~E.}\n\\newblock {Axion Dark Matter Coupling to Resonant Photons via Magnetic Field}.\n\\newblock {\\em Phys. Rev. Lett. 116}, 16 (2016), 161804.\n\\newblock [Erratum: Phys.Rev.Lett. 117, 159901 (2016)].\n',
    'naturemag': '\\bibitem{Bartz:2013fka}\n\\bibinfo{author}{Bartz, S.~P.} \\& \\bibinfo{author}{Kapusta, J.~I.}\n\\newblock \\bibinfo{title}{{Three-Field Potential for Soft-Wall AdS/QCD}}.\n\\newblock vol. \\bibinfo{volume}{CD12}, \\bibinfo{pages}{029}\n  (\\bibinfo{year}{2013}).\n\\newblock \\eprint{1309.3823}.\n',
    # a title, then the journal: the whole "Title. Journal" had become the journal name
    'ecca': '\\bibitem[{q.~Zhang \\textit{et~al.}(2017)q.~Zhang, f.~Hou and\n  Chen}]{Zhang2017hqp}\n\\textsc{q.~Zhang, Z.}, \\textsc{f.~Hou, D.} and \\textsc{Chen, G.} (2017). Heavy\n  quark potential from deformed {AdS}$_5$ models. \\textit{Nucl. Phys. A},\n  \\textbf{960}, 1--10.\n',
    'agu-thousands': '\\bibitem[{\\textit{Hui et~al.}(2017)\\textit{Hui, Ostriker, Tremaine, and\n  Witten}}]{Hui2017}\nHui, L., J.~P. Ostriker, S.~Tremaine, and E.~Witten, Ultralight scalars as\n  cosmological dark matter, \\textit{Phys.Rev.D}, \\textit{95}, 043,541, 2017.\n',
}


@pytest.mark.parametrize("style", sorted(ITEMS))
def test_a_faithful_reference_as_the_style_prints_it_is_exact(tmp_path: Path, index: Path,
                                                              style: str) -> None:
    text = "\\begin{thebibliography}{99}\n" + ITEMS[style] + "\\end{thebibliography}\n"
    (entry,) = _checked(tmp_path, index, "refs.bbl", text)
    assert entry["label"] == "EXACT", (entry["label"], entry.get("discrepancies"))
