"""iopart-num and mnras .bbl items of real ADS and INSPIRE entries.

``data/markup/refs.bib`` holds the real exports (see ``data/markup/PROVENANCE.md``); an
index is built from it and each excerpt below, copied from the .bbl that bibtex made of
those entries with the named style, must come out EXACT, as the .bib itself does (the
method of ``python -m bench.accuracy.bst_styles``, part two). Each excerpt was a false
MINOR or MAJOR on 2026-12-02.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.tex.bbl import parse_bbl_text
from tests.tex.conftest import bbl_labels

BIB = Path(__file__).parent / "data" / "markup" / "refs.bib"


def _labels(tmp_path: Path, bbl: str) -> dict[str, tuple[str, list[str]]]:
    """Each item of ``bbl`` checked against an index of :data:`BIB`."""
    return bbl_labels(tmp_path, BIB, bbl)


#: the journal the markup names: iopart-num's italic name before a bold volume, mnras's
#: "\mn@doi [Journal]" (the free text had read the head of the name as a title, or lost
#: it: "Astronomy and" + "Computing", "A&AS" -> "AS")
MARKUP_JOURNAL = r"""
\bibitem{2014A&C.....7...12S}
{Swinbank} J 2014 {\em Astronomy and Computing\/} {\bf 7} 12--26
  (\textit{Preprint} \eprint{1409.4805})

\bibitem{1998A&AS..130...65L}
{Lejeune} T, {Cuisinier} F and {Buser} R 1998 {\em \aaps\/} {\bf 130} 65--75
  (\textit{Preprint} \eprint{astro-ph/9710350})

\bibitem{Holmberg:2023rfr}
Holmberg D, Golubovic D and Kirschenmann H 2023 {\em Comput. Softw. Big Sci.\/}
  {\bf 7} 9 (\textit{Preprint} \eprint{2308.12724})

\bibitem{Mumpower:2023lch}
Mumpower M, Li M, Sprouse T~M, Meyer B~S, Lovell A~E and Mohan A~T 2023 {\em
  Front. in Phys.\/} {\bf 11} 1198572 (\textit{Preprint} \eprint{2304.08546})
"""

MNRAS_MARKUP_JOURNAL = r"""
\bibitem[\protect\citeauthoryear{{Swinbank}}{{Swinbank}}{2014}]{2014A&C.....7...12S}
{Swinbank} J.,  2014, \mn@doi [Astronomy and Computing]
  {10.1016/j.ascom.2014.09.001}, \href
  {https://ui.adsabs.harvard.edu/abs/2014A&C.....7...12S} {7, 12}
"""

#: iopart-num's "Family I" names: "Jr" between the family name and the initials, a
#: capital initial beyond Latin-1 ("Ž"), a given name's particle as a lower-case initial
#: ("C~d~P"), two particles ("de~los"), a particle inside the family name ("Ruiz~de
#: Austri"), ADS's unspaced particle ("vandenBerg"), INSPIRE's mononym ("Prisha"): the
#: name list had ended before them, and the rest of it become the title
IOP_NAMES = r"""
\bibitem{2007ASPC..376..395K}
{Kubica} J, {Denneau} Jr L, {Moore} A, {Jedicke} R and {Connolly} A 2007
  {Efficient Algorithms for Large-Scale Asteroid Discovery} {\em Astronomical
  Data Analysis Software and Systems XVI\/} ({\em Astronomical Society of the
  Pacific Conference Series\/} vol 376) ed {Shaw} R~A, {Hill} F and {Bell} D~J
  p 395

\bibitem{2015ApJ...812...18V}
{VanderPlas} J~T and {Ivezi{\'c}} {\v{Z}} 2015 {\em \apj\/} {\bf 812} 18
  (\textit{Preprint} \eprint{1502.01344})

\bibitem{2002cs........8011G}
{Gray} J, {Chong} W, {Barclay} T, {Szalay} A and {vandenBerg} J 2002 {\em arXiv
  e-prints\/} cs/0208011 (\textit{Preprint} \eprint{cs/0208011})

\bibitem{2013MNRAS.429..556M}
{Merson} A~I, {Baugh} C~M, {Helly} J~C, {Gonzalez-Perez} V, {Cole} S, {Bielby}
  R, {Norberg} P, {Frenk} C~S, {Benson} A~J, {Bower} R~G, {Lacey} C~G and
  {Lagos} C~d~P 2013 {\em \mnras\/} {\bf 429} 556--578 (\textit{Preprint}
  \eprint{1206.4049})

\bibitem{Rai:2025cog}
Rai S, Prisha and Kumar J 2025 {\em Eur.Phys.J.C\/} {\bf 86} 758
  (\textit{Preprint} \eprint{2508.07431})

\bibitem{Arganda:2022zbs}
Arganda E, Perez A~D, de~los Rios M and Sand\'a~Seoane R~M 2022 {\em
  Eur.Phys.J.C\/} {\bf 83} 1158 (\textit{Preprint} \eprint{2211.04806})

\bibitem{vanBeekveld:2020txa}
van Beekveld M, Caron S, Hendriks L, Jackson P, Leinweber A, Otten S, Patrick
  R, Ruiz~de Austri R, Santoni M and White M 2020 {\em JHEP\/} {\bf 09} 024
  (\textit{Preprint} \eprint{2010.07940})
"""

#: iopart-num's collaboration, year and title without punctuation, then a booktitle or
#: a report (the collaboration and the year had been read into the title, and a
#: report's "Tech. Rep. ... CERN Geneva" too)
IOP_COLLABORATION = r"""
\bibitem{Harilal:2024tqq}
{CMS Collaboration} 2024 {Anomaly Detection Based on Machine Learning for the
  CMS Electromagnetic Calorimeter Online Data Quality Monitoring} {\em {20th
  International Conference on Calorimetry in Particle Physics}\/} vol 320 p
  00048 (\textit{Preprint} \eprint{2407.20278})

\bibitem{ATL-PHYS-PUB-2020-014}
{ATLAS Collaboration} 2020 {Deep Sets based Neural Networks for Impact
  Parameter Flavour Tagging in ATLAS} Tech. Rep. ATL-PHYS-PUB-2020-014 CERN
  Geneva \urlprefix\url{https://cds.cern.ch/record/2718948}

\bibitem{MozunMateo:2025hkc}
{KM3NeT Collaboration} 2025 {Enhancing low energy reconstruction and
  classification in KM3NeT/ORCA with transformers} {\em {2nd European AI for
  Fundamental Physics Conference}\/} (\textit{Preprint} \eprint{2511.18999})
"""

#: mnras's "Family I." names: "de~los", a particle inside the family name, "Jr." before
#: the initials (it had been read as an initial), a capital beyond Latin-1 ("Ž.")
MNRAS_NAMES = r"""
\bibitem[\protect\citeauthoryear{Arganda, Perez, de~los Rios  \&
  Sand\'a~Seoane}{Arganda et~al.}{2022b}]{Arganda:2022zbs}
Arganda E.,  Perez A.~D.,  de~los Rios M.,   Sand\'a~Seoane R.~M.,  2022b,
  \mn@doi [Eur.Phys.J.C] {10.1140/epjc/s10052-023-12314-z}, 83, 1158

\bibitem[\protect\citeauthoryear{Caron, Dobreva, S\'anchez,
  Mart\'\i{}n-Guerrero, Odyurt, Ruiz~de Austri~Bazan, Wolffs  \& Zhao}{Caron
  et~al.}{2024}]{Caron:2024cyo}
Caron S.,  Dobreva N.,  S\'anchez A.~F.,  Mart\'\i{}n-Guerrero J.~D.,  Odyurt
  U.,  Ruiz~de Austri~Bazan R.~R.,  Wolffs Z.,   Zhao Y.,  2024, \mn@doi
  [Eur.Phys.J.C] {10.1140/epjc/s10052-025-14156-3}, 85, 460

\bibitem[\protect\citeauthoryear{{Rubin} \& {Ford}}{{Rubin} \&
  {Ford}}{1970}]{1970ApJ...159..379R}
{Rubin} V.~C.,  {Ford} Jr. W.~K.,  1970, \mn@doi [\apj] {10.1086/150317}, \href
  {https://ui.adsabs.harvard.edu/abs/1970ApJ...159..379R} {159, 379}

\bibitem[\protect\citeauthoryear{{Slater}, {Ivezi{\'c}}  \& {Lupton}}{{Slater}
  et~al.}{2020}]{2020AJ....159...65S}
{Slater} C.~T.,  {Ivezi{\'c}} {\v{Z}}.,   {Lupton} R.~H.,  2020, \mn@doi [\aj]
  {10.3847/1538-3881/ab6166}, \href
  {https://ui.adsabs.harvard.edu/abs/2020AJ....159...65S} {159, 65}
"""

#: mnras: the year of the author-year label, which the text prints after the names; the
#: free text had taken another year of the item (a booktitle's, PTEP's volume, a
#: conference's date)
MNRAS_LABEL_YEAR = r"""
\bibitem[\protect\citeauthoryear{Beauchesne \& di Cortona}{Beauchesne \&
  di~Cortona}{2021}]{Beauchesne:2021qrw}
Beauchesne H.,  di Cortona G.~G.,  2021, in {2022 Snowmass Summer Study}.
  (\mn@eprint {arXiv} {2111.12156})

\bibitem[\protect\citeauthoryear{Ait~Haddou, Belfkir  \& Harrauss}{Ait~Haddou
  et~al.}{2025}]{AitHaddou:2025fam}
Ait~Haddou M.,  Belfkir M.,   Harrauss S. E.~E.,  2025, \mn@doi [PTEP]
  {10.1093/ptep/ptag079}, 2026, 063C02

\bibitem[\protect\citeauthoryear{Carminati, Gheata, Khattak, Mendez~Lorenzo,
  Sharan  \& Vallecorsa}{Carminati et~al.}{2018}]{Carminati:2018khv}
Carminati F.,  Gheata A.,  Khattak G.,  Mendez~Lorenzo P.,  Sharan S.,
  Vallecorsa S.,  2018, \mn@doi [{Proceedings, 18th International Workshop on
  Advanced Computing and Analysis Techniques in Physics Research (ACAT 2017):
  Seattle, WA, USA, August 21-25, 2017; J. Phys. Conf. Ser.}]
  {10.1088/1742-6596/1085/3/032016}, 1085, 032016
"""

#: mnras's meeting abstracts print no volume: the booktitle, the page and the year find
#: them (the omitted volume had been a MINOR); and the particle "ter" ("ter Hoeve J.")
MNRAS_ABSTRACTS = r"""
\bibitem[\protect\citeauthoryear{{Bektesevic}, {Mehta}, {Juric}, {Slater},
  {Balazinska}  \& {Connolly}}{{Bektesevic} et~al.}{2019}]{2019AAS...23324505B}
{Bektesevic} D.,  {Mehta} P.,  {Juric} M.,  {Slater} C.,  {Balazinska} M.,
  {Connolly} A.,  2019, in American Astronomical Society Meeting Abstracts
  \#233. p. 245.05

\bibitem[\protect\citeauthoryear{{Eggl}, {Juric}, {Moeyens}  \& {Jones}}{{Eggl}
  et~al.}{2020}]{2020DPS....5221101E}
{Eggl} S.,  {Juric} M.,  {Moeyens} J.,   {Jones} L.,  2020, in AAS/Division for
  Planetary Sciences Meeting Abstracts. p. 211.01

\bibitem[\protect\citeauthoryear{Gomez~Ambrosio, ter Hoeve, Madigan, Rojo  \&
  Sanz}{Gomez~Ambrosio et~al.}{2022}]{GomezAmbrosio:2022mpm}
Gomez~Ambrosio R.,  ter Hoeve J.,  Madigan M.,  Rojo J.,   Sanz V.,  2022,
  \mn@doi [JHEP] {10.1007/JHEP03(2023)033}, 03, 033
"""

#: an unbraced "CMS Collaboration" in the .bib is given name "CMS", family
#: "Collaboration" to BibTeX: iopart-num prints "Collaboration C", mnras "Collaboration
#: T.~B." (for "The BOREXINO Collaboration")
ABBREVIATED_COLLABORATION = r"""
\bibitem{CMS:2019dqq}
Collaboration C 2020 {\em Mach. Learn. Sci. Tech.\/} {\bf 1} 035012
  (\textit{Preprint} \eprint{1912.12238})

\bibitem{BOREXINO:2023pcv}
Collaboration T~B 2023 {\em Phys.Rev.D\/} {\bf 109} 112014 (\textit{Preprint}
  \eprint{2310.11826})

\bibitem[\protect\citeauthoryear{Collaboration}{Collaboration}{2025}]{SuperCDMS:2025ywe}
Collaboration S.,  2025, \mn@doi [Nucl.Instrum.Meth.A]
  {10.1016/j.nima.2026.171437}, 1087, 171437
"""

#: iopart-num's names of ADS exports: a collaboration in the list, an en dash and ADS's
#: "Mu{\textasciitilde n}oz" in family names
IOP_ADS_NAMES = r"""
\bibitem{2013A&A...558A..33A}
{Astropy Collaboration}, {Robitaille} T~P, {Tollerud} E~J, {Greenfield} P,
  {Droettboom} M, {Bray} E, {Aldcroft} T, {Davis} M, {Ginsburg} A,
  {Price-Whelan} A~M, {Kerzendorf} W~E, {Conley} A, {Crighton} N, {Barbary} K,
  {Muna} D, {Ferguson} H, {Grollier} F, {Parikh} M~M, {Nair} P~H, {Unther} H~M,
  {Deil} C, {Woillez} J, {Conseil} S, {Kramer} R, {Turner} J~E~H, {Singer} L,
  {Fox} R, {Weaver} B~A, {Zabalza} V, {Edwards} Z~I, {Azalee Bostroem} K,
  {Burke} D~J, {Casey} A~R, {Crawford} S~M, {Dencheva} N, {Ely} J, {Jenness} T,
  {Labrie} K, {Lim} P~L, {Pierfederici} F, {Pontzen} A, {Ptak} A, {Refsdal} B,
  {Servillat} M and {Streicher} O 2013 {\em \aap\/} {\bf 558} A33
  (\textit{Preprint} \eprint{1307.6212})

\bibitem{2016ApJ...832..155F}
{F{\"o}rster} F, {Maureira} J~C, {San Mart{\'\i}n} J, {Hamuy} M,
  {Mart{\'\i}nez} J, {Huijse} P, {Cabrera} G, {Galbany} L, {de Jaeger} T,
  {Gonz{\'a}lez{\textendash}Gait{\'a}n} S, {Anderson} J~P, {Kunkarayakti} H,
  {Pignata} G, {Bufano} F, {Litt{\'\i}n} J, {Olivares} F, {Medina} G, {Smith}
  R~C, {Vivas} A~K, {Est{\'e}vez} P~A, {Mu{\textasciitilde n}oz} R and {Vera} E
  2016 {\em \apj\/} {\bf 832} 155 (\textit{Preprint} \eprint{1609.03567})
"""

#: a @misc's title in the braces of the export, then its howpublished, unmarked
#: (iopart-num, mnras): the two had been read as one title
BRACED_TITLE = r"""
\bibitem{2011ascl.soft01010T}
{Taylor} M 2011 {TOPCAT: Tool for OPerations on Catalogues And Tables}
  Astrophysics Source Code Library, record ascl:1101.010

\bibitem{2016acs..rept....1B}
{Borncamp} D and {Lim} P~L 2016 {Satellite Detection in Advanced Camera for
  Surveys/Wide Field Channel Images} Instrument Science Report ACS 2016-01, 10
  pages

\bibitem[\protect\citeauthoryear{{Seaman} et~al.,}{{Seaman}
  et~al.}{2011}]{2011ivoa.spec.0711S}
{Seaman} R.,  et~al., 2011, {Sky Event Reporting Metadata Version 2.0}, IVOA
  Recommendation 11 July 2011 (\mn@eprint {arXiv} {1110.0523}),
  \mn@doi{10.5479/ADS/bib/2011ivoa.spec.0711S}

\bibitem[\protect\citeauthoryear{{Turon}, {O'Flaherty}  \& {Perryman}}{{Turon}
  et~al.}{2005}]{2005ESASP.576.....T}
{Turon} C.,  {O'Flaherty} K.~S.,   {Perryman} M. A.~C.,  eds, 2005, {The
  Three-Dimensional Universe with Gaia}  ESA Special Publication Vol. 576
"""

#: mnras's report: "Technical Report NUMBER, {Title}, \url{...}. Institution, Address"
#: (the type had been read as an author, the institution as part of the title)
MNRAS_REPORT = r"""
\bibitem[\protect\citeauthoryear{{ATLAS Collaboration}}{{ATLAS
  Collaboration}}{2017a}]{ATL-PHYS-PUB-2017-003}
{ATLAS Collaboration} 2017a, Technical Report ATL-PHYS-PUB-2017-003,
  {Identification of Jets Containing $b$-Hadrons with Recurrent Neural Networks
  at the ATLAS Experiment}, \url {http://cdsweb.cern.ch/record/2255226}.
CERN, Geneva, \url {http://cdsweb.cern.ch/record/2255226}

\bibitem[\protect\citeauthoryear{{CMS Collaboration}}{{CMS
  Collaboration}}{2011}]{CMS-PAS-EXO-10-021}
{CMS Collaboration} 2011, Technical Report CMS-PAS-EXO-10-021, {Model
  Unspecific Search for New Physics in pp Collisions at sqrt(s) = 7 TeV}, \url
  {http://cds.cern.ch/record/1360173}.
CERN, Geneva, \url {http://cds.cern.ch/record/1360173}
"""


@pytest.mark.parametrize("bbl", [MARKUP_JOURNAL, MNRAS_MARKUP_JOURNAL, IOP_NAMES,
                                 IOP_COLLABORATION, MNRAS_NAMES, MNRAS_LABEL_YEAR,
                                 MNRAS_ABSTRACTS, ABBREVIATED_COLLABORATION,
                                 IOP_ADS_NAMES, BRACED_TITLE, MNRAS_REPORT])
def test_real_entries_stay_exact(tmp_path: Path, bbl: str) -> None:
    labels = _labels(tmp_path, bbl)
    assert labels and {k: v for k, v in labels.items() if v[0] != "EXACT"} == {}


def test_markup_journal_still_catches_a_wrong_journal(tmp_path: Path) -> None:
    """The journal the markup names is compared: another journal is flagged."""
    wrong = MARKUP_JOURNAL.split("\n\n")[0].replace("Astronomy and Computing", "Icarus")
    label, fields = _labels(tmp_path, wrong)["2014A&C.....7...12S"]
    assert label in ("MINOR", "MAJOR") and "journal" in fields


def test_iopart_names_still_catch_a_dropped_author(tmp_path: Path) -> None:
    """The whole list is read: a co-author left out is flagged."""
    item = IOP_NAMES.split("\n\n")[4].replace("Rai S, Prisha and", "Rai S and")
    label, fields = _labels(tmp_path, item)["Rai:2025cog"]
    assert label in ("MINOR", "MAJOR") and "author" in fields


def test_iopart_collaboration_title_still_compared(tmp_path: Path) -> None:
    """The title after a collaboration and its year is compared: another is flagged."""
    item = IOP_COLLABORATION.split("\n\n")[1].replace("Deep Sets based", "Graph based")
    label, fields = _labels(tmp_path, item)["ATL-PHYS-PUB-2020-014"]
    assert label in ("MINOR", "MAJOR") and "title" in fields


def test_mnras_names_still_catch_a_wrong_initial(tmp_path: Path) -> None:
    """The names after "de los" are read and compared: a wrong initial is flagged."""
    item = MNRAS_NAMES.split("\n\n")[0].replace("Sand\\'a~Seoane R.~M.", "Sand\\'a~Seoane P.~M.")
    assert "P.~M." in item
    label, fields = _labels(tmp_path, item)["Arganda:2022zbs"]
    assert label in ("MINOR", "MAJOR") and "author" in fields


def test_label_year_still_catches_a_wrong_year(tmp_path: Path) -> None:
    """A wrong year in the label and the text is flagged: the label's year is compared."""
    item = MNRAS_LABEL_YEAR.split("\n\n")[1].replace("{2025}", "{2023}").replace(
        "E.~E.,  2025,", "E.~E.,  2023,")
    assert item.count("2023") == 2
    label, fields = _labels(tmp_path, item)["AitHaddou:2025fam"]
    assert label in ("MINOR", "MAJOR") and "year" in fields


def test_meeting_abstract_still_catches_a_wrong_page(tmp_path: Path) -> None:
    """The abstract's page is compared: another is flagged."""
    item = MNRAS_ABSTRACTS.split("\n\n")[1].replace("p. 211.01", "p. 311.01")
    label, fields = _labels(tmp_path, item)["2020DPS....5221101E"]
    assert label in ("MINOR", "MAJOR") and "pages" in fields


@pytest.mark.parametrize("initial", ["A", "T~A", "C~M"])
def test_abbreviated_collaboration_still_catches_another(tmp_path: Path, initial: str) -> None:
    """A collaboration whose initials are not the record's is flagged."""
    item = ABBREVIATED_COLLABORATION.split("\n\n")[0].replace(
        "Collaboration C 2020", f"Collaboration {initial} 2020")
    label, fields = _labels(tmp_path, item)["CMS:2019dqq"]
    assert label in ("MINOR", "MAJOR") and "author" in fields


def _fields(item: str) -> dict[str, str]:
    entries, _ = parse_bbl_text(f"\\begin{{thebibliography}}{{1}}\n{item}\n"
                                "\\end{thebibliography}\n", "paper.bbl")
    return dict(entries[0].fields)


def test_other_styles_bold_numbers_are_not_iopart_volumes() -> None:
    """jpc's bold year before an italic volume and nar's bold volume before an issue
    are not iopart-num's "{\\em Journal} {\\bf volume} page" (the sample papers' .bbl)."""
    jpc = _fields(r"""\bibitem{Hui2017}
Hui, L.; Ostriker, J.~P.; Tremaine, S.; Witten, E. {\em Phys.Rev.D} {\bf 2017},
  {\em 95}, 043541.""")
    assert jpc["volume"] == "95" and jpc["year"] == "2017"
    nar = _fields(r"""\bibitem{McAllister:2015zcz}
McAllister, B.~T., Parker, S.~R., and Tobar, M.~E. (2016)
{Axion Dark Matter Coupling to Resonant Photons via Magnetic Field}.
{\em Phys. Rev. Lett.,} {\bf 116}(16), 161804
[Erratum: Phys.Rev.Lett. 117, 159901 (2016)].""")
    # (the erratum's reference is read, as before; never the volume of one with the page
    # of the other)
    assert (nar.get("volume"), nar.get("pages")) != ("116", "159901")


def test_a_date_is_no_lower_case_initial() -> None:
    """apsr's "Yue-Liang Wu. N.d." (no date) is no name "Yue-Liang" with initials "Wu.
    N. d." (a false author MINOR of the sample papers' .bbl)."""
    fields = _fields(r"""\harvarditem[Fang, Li \harvardand\ Wu]{Fang, Li \harvardand\
  Wu}{N.d.}{FangLiWu2016}
Fang, Zhen, Danning Li \harvardand\ Yue-Liang Wu. N.d.
\newblock ``{IR}-improved soft-wall {AdS/QCD} model for baryons.'' .
  Forthcoming.""")
    assert "N.d" not in fields.get("author", "")


def test_braced_title_still_compared(tmp_path: Path) -> None:
    """The braced title is compared: another title is flagged."""
    item = BRACED_TITLE.split("\n\n")[0].replace("{TOPCAT: Tool for OPerations",
                                                   "{STILTS: Tool for Scripting")
    label, fields = _labels(tmp_path, item)["2011ascl.soft01010T"]
    assert label in ("MINOR", "MAJOR") and "title" in fields
