"""lni's (and lnig's, the DIN styles') names ended by a colon, its one name family first,
and plain's article without a journal ("\\newblock 760:110.").

Real bibtex output (TeX Live, 2026-12-02) of the two sample papers' ``refs.bib``. lni writes
"Hui, L.; Ostriker, J.~P.; Tremaine, S.; Witten, E.: Title. \\newblock Phys.Rev.D,
95:043541, 2017.": the names and the title in one block, the names had been read into
the title or split at every comma; "Kosower, David~A.:" had become two people.
``python -m bench.accuracy.bst_styles``: lni 29 -> 4, lnig 29 -> 3, alphadin, natdin,
plaindin, unsrtdin 11 -> 8 false flags; the wrong page of an article printed without its
journal (plain and 50 other styles: "760:110") is now caught.
"""

from __future__ import annotations

from pathlib import Path

from citecheck_tex.tex.bbl import parse_bbl_text

from .conftest import UNSRTNM_PREAMBLE, checked, sample_labels

LNI = (
    '\\begin{thebibliography}{qZfHC17}\n'
    '\n'
    '\\bibitem[Ba17]{Bartolini2017}\n'
    'Bartolini, L.; Bigazzi, F.; Bolognesi, S.; Cotrone, A.~L.; Manenti, A.: Neutron\n'
    '  electric dipole moment from gauge-string duality.\n'
    '\\newblock Phys. Rev. Lett., 118:091601, 2017.\n'
    '\n'
    '\\bibitem[BdTD13]{Brodsky:2013dca}\n'
    'Brodsky, Stanley~J.; de~T{\\\'e}ramond, Guy~F.; Dosch, Hans~G{\\"u}nter: {QCD on\n'
    '  the Light-Front -- A Systematic Approach to Hadron Physics}.\n'
    '\\newblock 10 2013.\n'
    '\n'
    '\\bibitem[CLBF]{Capossoli2016}\n'
    'Capossoli, Eduardo~Folco; Li, Danning; Boschi-Filho, Henrique: Pomeron and\n'
    '  odderon {Regge} trajectories from a dynamical holographic model.\n'
    '\\newblock 760:110.\n'
    '\n'
    '\\bibitem[FHL16]{Fang2016chiral}\n'
    'Fang, Z.; He, S.; Li, D.: Chiral and deconfining phase transitions from\n'
    '  holographic {QCD} study.\n'
    '\\newblock Nucl. Phys. B, 908:187, 2016.\n'
    '\n'
    '\\bibitem[G{\\"u}17]{GursoyIatrakis2017}\n'
    'G{\\"u}rsoy, Umut; Iatrakas, Ioannis; J{\\"a}rvinen, Matti; Nijs, Govert:\n'
    '  {Inverse magnetic catalysis from improved holographic QCD in the Veneziano\n'
    '  limit}.\n'
    '\\newblock JHEP, 1703:053, 2017.\n'
    '\n'
    '\\bibitem[Ja99]{Janik:1999zu}\n'
    'Janik, Romuald~A.: {Gauge theory scattering from the AdS / CFT correspondence}.\n'
    '\\newblock 9 1999.\n'
    '\n'
    '\\bibitem[KKS17]{KarchKatzSon2017}\n'
    'Karch, Andreas; Katz, Emanuel; Son, Dam~T.: Holographic Duals for\n'
    '  Five-Dimensional Superconformal Quantum Field Theories.\n'
    '\\newblock Phys. Rev. Lett., 2017.\n'
    '\n'
    '\\bibitem[Hu17]{Hui2017}\n'
    'Hui, L.; Ostriker, J.~P.; Tremaine, S.; Witten, E.: Ultralight scalars as\n'
    '  cosmological dark matter.\n'
    '\\newblock Phys.Rev.D, 95:043541, 2017.\n'
    '\n'
    '\\bibitem[Ko87]{Kosower:1987em}\n'
    'Kosower, David~A.: {A Natural Misalignment Mechanism}.\n'
    '\\newblock Nucl. Phys. B, 294:244--252, 1987.\n'
    '\n'
    '\\bibitem[LPS17]{Lazarides2017}\n'
    'Lazarides, G.; Panagiotakopoulos, C.; Shafi, Q.: Axion, $\\mu$ term, and\n'
    '  supersymmetric hybrid inflation.\n'
    '\\newblock Phys. Rev. D, 96:055017, 2017.\n'
    '\n'
    '\\end{thebibliography}\n'
)

#: plain.bst, the same entry (Phys. Lett. B 760 (2016) 101; page 110 planted)
PLAIN = (
    '\\begin{thebibliography}{10}\n'
    '\n'
    '\\bibitem{Capossoli2016}\n'
    'Eduardo~Folco Capossoli, Danning Li, and Henrique Boschi-Filho.\n'
    '\\newblock Pomeron and odderon {Regge} trajectories from a dynamical holographic\n'
    '  model.\n'
    '\\newblock 760:110.\n'
    '\n'
    '\\end{thebibliography}\n'
)

EXPECTED = sample_labels(
    "Bartolini2017", "Brodsky:2013dca", "Janik:1999zu", "Hui2017", "Kosower:1987em",
    "GursoyIatrakis2017", "Fang2016chiral", "Lazarides2017", "Capossoli2016",
    "KarchKatzSon2017")


def test_lni_items(tmp_path: Path, index: Path) -> None:
    got = {e["key"]: e for e in checked(tmp_path, index, "paper.bbl", LNI, "--index-complete")}
    assert got.keys() == EXPECTED.keys()
    for key, entry in got.items():
        label, field = EXPECTED[key]
        assert entry["label"] == label, (key, entry["discrepancies"])
        if field:
            assert field in {d["field"] for d in entry["discrepancies"]}, key


def test_names_before_a_colon() -> None:
    entries, _ = parse_bbl_text(LNI, "paper.bbl")
    by_key = {e.key: e.fields for e in entries}
    assert by_key["Hui2017"]["author"].startswith("Hui, L. and Ostriker, J. P. and")
    assert by_key["Hui2017"]["title"] == "Ultralight scalars as cosmological dark matter"
    assert by_key["Kosower:1987em"]["author"] == "Kosower, David A"


def test_a_journalless_volume_and_page(tmp_path: Path, index: Path) -> None:
    (entry,), _ = parse_bbl_text(PLAIN, "paper.bbl")
    assert (entry.fields["volume"], entry.fields["pages"]) == ("760", "110")
    (got,) = checked(tmp_path, index, "paper.bbl", PLAIN, "--index-complete")
    assert got["label"] == "MINOR" and "pages" in {d["field"] for d in got["discrepancies"]}


#: unsrtnm, the same entry: its DOI in a block after "760:\\penalty0 110, ."
UNSRTNM = UNSRTNM_PREAMBLE + (
    '\\bibitem[Capossoli et~al.()Capossoli, Li, and Boschi-Filho]{Capossoli2016}\n'
    '\\nmbibLink{Capossoli2016}{authors}{Eduardo~Folco Capossoli, Danning Li, and\n'
    '  Henrique Boschi-Filho}.\n'
    '\\newblock Pomeron and odderon {Regge} trajectories from a dynamical holographic\n'
    '  model.\n'
    '\\newblock 760:\\penalty0 110, \\nmbibLink{Capossoli2016}{timeline}{}.\n'
    '\\newblock \\doi{10.1016/j.physletb.2016.06.049}.\n'
    '\n'
    '\\end{thebibliography}\n'
)

#: cqunumerical: "2017: 86--104" is the year and the pages, no volume 2017
CQUNUMERICAL = (
    '\\begin{thebibliography}{30}\n'
    '\\providecommand{\\natexlab}[1]{#1}\n'
    '\\providecommand{\\url}[1]{#1}\n'
    '\\providecommand{\\href}[2]{\\url{#2}}\n'
    '\\providecommand{\\doi}[1]{DOI: \\href{http://dx.doi.org/#1}{#1}}\n'
    '\\expandafter\\ifx\\csname urlstyle\\endcsname\\relax\\relax\\else\n'
    '  \\urlstyle{same}\\fi\n'
    '\n'
    '\\bibitem[McInnes\\ et~al.(2017)McInnes and Ong]{McInnes2017}\n'
    'MCINNES B, ONG Y~C.\n'
    '\\newblock On the existence of a holographic description of the {LHC}\n'
    '  quark--gluon plasmas: volume 917\\allowbreak[Z].\n'
    '\\newblock 2017: 86--104.\n'
    '\\newblock \\doi{10.1016/j.nuclphysb.2017.01.028}.\n'
    '\n'
    '\\end{thebibliography}\n'
)


def test_a_journalless_volume_and_page_before_a_doi() -> None:
    (entry,), _ = parse_bbl_text(UNSRTNM, "paper.bbl")
    assert (entry.fields["volume"], entry.fields["pages"]) == ("760", "110")
    (entry,), _ = parse_bbl_text(CQUNUMERICAL, "paper.bbl")
    assert entry.fields.get("volume") != "2017"


#: elsarticle-num (lsst_refs_ads.bib, 2000AJ....119.2472A): the colon is inside the braced
#: title, not after the names
ELSARTICLE_NUM = (
    "\\begin{thebibliography}{100}\n"
    "\\bibitem{2000AJ....119.2472A}\n"
    "L.~H. {Auer}, E.~M. {Standish}, {Astronomical Refraction: Computational Method\n"
    "  for All Zenith Angles}, \\aj 119~(5) (2000) 2472--2474.\n"
    "\\newblock \\href {https://doi.org/10.1086/301325} {\\path{doi:10.1086/301325}}.\n"
    "\n\\end{thebibliography}\n"
)


def test_a_colon_inside_the_braced_title_ends_no_names() -> None:
    (entry,), _ = parse_bbl_text(ELSARTICLE_NUM, "paper.bbl")
    assert entry.fields["author"] == "Auer, L. H. and Standish, E. M."
    assert entry.fields["title"] == \
        "Astronomical Refraction: Computational Method for All Zenith Angles"



def test_a_title_colon_after_natural_names_ends_no_names() -> None:
    # elsarticle-num (lsst_refs.bib): natural-order names, then an unbraced title with a
    # colon; the names of lni and DIN come family first
    (entry,), _ = parse_bbl_text(
        "\\begin{thebibliography}{100}\n\\bibitem{Dean:2008:MSD:1327452.1327492}\n"
        "J.~Dean, S.~Ghemawat, Mapreduce: Simplified data processing on large clusters,\n"
        "  Commun. ACM 51~(1) (2008) 107--113.\n"
        "\\newblock \\href {https://doi.org/10.1145/1327452.1327492}\n"
        "  {\\path{doi:10.1145/1327452.1327492}}.\n\\end{thebibliography}\n", "paper.bbl")
    assert entry.fields["author"] == "J. Dean and S. Ghemawat"
    assert entry.fields["title"] == "Mapreduce: Simplified data processing on large clusters"
