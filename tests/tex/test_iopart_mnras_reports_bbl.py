"""iopart-num and mnras items of a hand-written bibliography: technical reports, an
organisation as the author, a @misc of a name and a braced title, a link with "&".

Real bibtex output (TeX Live, 2026-12-02, ``iopart-num`` and ``mnras``) of the shared
corpus's ``lsst_refs.bib`` (lsst/lsst-texmf @ 4721872d: ESA/Gaia technical notes, ESA
standards); the .bib entry each came from is noted above it. Each was a false MINOR or
MAJOR: the report's type, institution and number, or the organisation and the year, had
been read into the title. ``python -m bench.accuracy.bst_styles`` reads the same file
(``bench.accuracy.bst_styles.corpus_run(["iopart-num"], [CORPUS / "bib" /
"lsst_refs.bib"])``) through all the rules here: iopart-num 69 -> 15, mnras 39 -> 10 false
flags.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from citecheck_tex.config import Settings
from citecheck_tex.pipeline import check_entries
from citecheck_tex.sources.local_index import import_files
from citecheck_tex.tex.bbl import parse_bbl_text

ITEMS = {
    # @TechReport{DOC:HEH-001, author = "Huckle, H.", year = "2007", institution = "ESA",
    # title = "Continuum {N}ormalisation", note = "GAIA-C6-SP-MSSL-HEH-001-D"}
    "iop DOC:HEH-001": (
        "\\bibitem{DOC:HEH-001}\nHuckle H 2007 Continuum {N}ormalisation Tech. rep. ESA\n"
        "  gAIA-C6-SP-MSSL-HEH-001-D\n",
        {"author": "Huckle, H.", "year": "2007", "title": "Continuum Normalisation"}),
    # @TechReport{GAIASYS.NT.00134.T.ASTR, author = "{EADS\textasciitilde Astrium}", title
    # = "GAIA Point Spread Function and internal straylight evaluation", year = "2004", ...}
    "iop GAIASYS.NT.00134.T.ASTR": (
        "\\bibitem{GAIASYS.NT.00134.T.ASTR}\n{EADS\\textasciitilde Astrium} 2004 Gaia point "
        "spread function and internal\n  straylight evaluation Tech. rep. ESA "
        "gAIASYS.NT.00134.T.ASTR\n",
        {"author": "{EADS~Astrium}", "year": "2004",
         "title": "Gaia point spread function and internal straylight evaluation"}),
    # @LiveLink{ecss:projectorg, author = "{ESA Publications Division}", title =
    # "{P}roject {O}rganisation", year = "2003", ...}
    "iop ecss:projectorg": (
        "\\bibitem{ecss:projectorg}\n{ESA Publications Division} 2003 {P}roject "
        "{O}rganisation\n",
        {"author": "{ESA Publications Division}", "year": "2003",
         "title": "Project Organisation"}),
    # @TechReport{greenplum:adminguide41, author = "EMC", title = "Greenplum Database 4.1
    # Administrator Guide", institution = "EMC Corporation", year = "2011", url = ...}
    "iop greenplum:adminguide41": (
        "\\bibitem{greenplum:adminguide41}\nEMC 2011 Greenplum database 4.1 administrator "
        "guide Tech. rep. EMC Corporation\n  \\urlprefix\\url{http://www.greenplum.com/"
        "community/downloads/documentation/}\n",
        {"author": "{EMC}", "year": "2011",
         "title": "Greenplum database 4.1 administrator guide"}),
    # @LiveLink{LL:SATMP, author = "Osuna, P.", url = "http://www.rssd.esa.int/.../
    # SAT_GEN_PL_3.0_06_MP_30May2011.pdf?nodeid=3120171&vernum=-2", ...}
    "iop LL:SATMP": (
        "\\bibitem{LL:SATMP}\nOsuna P 2011 Science archives and vo team (sat) management "
        "plan\n  \\urlprefix\\url{http://www.rssd.esa.int/llink/livelink/fetch/-415780/"
        "2741092/SAT_GEN_PL_3.0_06_MP_30May2011.pdf?nodeid=3120171&vernum=-2}\n",
        {"title": "Science archives and vo team (sat) management plan",
         "url": "http://www.rssd.esa.int/llink/livelink/fetch/-415780/2741092/"
                "SAT_GEN_PL_3.0_06_MP_30May2011.pdf?nodeid=3120171&vernum=-2"}),
    # @Misc{AmazonGlacier, author = "Amazon", title = "{Amazon Glacier -- Cloud Archive}",
    # url = "https://aws.amazon.com/glacier/"}
    "iop AmazonGlacier": (
        "\\bibitem{AmazonGlacier}\nAmazon {Amazon Glacier -- Cloud Archive}\n"
        "  \\urlprefix\\url{https://aws.amazon.com/glacier/}\n",
        {"author": "{Amazon}", "title": "Amazon Glacier -- Cloud Archive"}),
    # @misc{GaiaSpecs, author = "{The Gaia Team}", title = "{Science Performance of the Gaia
    # Mission}", url = "https://www.cosmos.esa.int/web/gaia/science-performance"}
    "iop GaiaSpecs": (
        "\\bibitem{GaiaSpecs}\n{The Gaia Team} {Science Performance of the Gaia Mission}\n"
        "  \\urlprefix\\url{https://www.cosmos.esa.int/web/gaia/science-performance}\n",
        {"author": "{The Gaia Team}", "title": "Science Performance of the Gaia Mission"}),
    # @Misc{GPFS, key = "GPFS", title = "{IBM Spectrum Scale}", url = "https://www.ibm.com/
    # us-en/marketplace/scale-out-file-and-object-storage"} (mnras prints the key)
    "mn GPFS": (
        "\\bibitem[\\protect\\citeauthoryear{{EADS\\textasciitilde Astrium}}{GPFS}{}]{GPFS}\n"
        "GPFS, {IBM Spectrum Scale}, \\url\n  {https://www.ibm.com/us-en/marketplace/"
        "scale-out-file-and-object-storage}\n",
        {"title": "IBM Spectrum Scale"}),
    # @TechReport{roemer:submit, author = "Bastian, U. and ... and Thejll, P.", title =
    # "ROEMER", institution = "Lund Observatory", year = "1993", note = "Proposal for ..."}
    "iop roemer:submit": (
        "\\bibitem{roemer:submit}\nBastian U, Gilmore G, Halbwachs J, H{\\o}g E, Knude J, "
        "Kovalevsky J, Labeyrie A,\n  van Leeuwen F, Lindegren L, Pel J~W, Schrijver H, "
        "Stabell R and Thejll P 1993\n  Roemer Tech. rep. Lund Observatory proposal for a "
        "Third Medium Size ESA\n  Mission (M3), Lund 1993\n",
        {"year": "1993", "title": "Roemer"}),
    # @article{strategicrenewal2025drivers, title = {Digging into ...}, journal =
    # {International Journal of Organizational Analysis}, year = {2025}, volume = {33},
    # number = {12}, pages = {75--?}} (no author; iopart-num prints no article title)
    "iop strategicrenewal2025drivers": (
        "\\bibitem{strategicrenewal2025drivers}\n 2025 {\\em International Journal of "
        "Organizational Analysis\\/} {\\bf 33} 75--?\n",
        {"journal": "International Journal of Organizational Analysis", "volume": "33",
         "year": "2025", "title": ""}),
    # @article{utomo2022inertia, author = {Utomo, Adhi Ari and Maulida, Mira and Musa,
    # Soebowo}, title = {...}, journal = {The South East Asian Journal of Management}, year
    # = {2022}, volume = {17}, number = {1}} (mnras prints no article title)
    "mn utomo2022inertia": (
        "\\bibitem[\\protect\\citeauthoryear{Utomo, Maulida  \\& Musa}{Utomo\n"
        "  et~al.}{2022}]{utomo2022inertia}\nUtomo A.~A.,  Maulida M.,   Musa S.,  2022, "
        "The South East Asian Journal of\n  Management, 17\n",
        {"journal": "The South East Asian Journal of Management", "volume": "17",
         "year": "2022", "title": ""}),
    # @ARTICLE{shuster93, author = "{Shuster}, Malcolm D.", journal = "Journal of the
    # Astronautical Sciences", year = "1993", volume = "41", pages = "439-517", ...}
    "mn shuster93": (
        "\\bibitem[\\protect\\citeauthoryear{{Shuster}}{{Shuster}}{1993}]{shuster93}\n"
        "{Shuster} M.~D.,  1993, Journal of the Astronautical Sciences, \\href\n"
        "  {https://ui.adsabs.harvard.edu/abs/1993JAnSc..41..439S} {41, 439}\n",
        {"journal": "Journal of the Astronautical Sciences", "volume": "41",
         "pages": "439", "title": ""}),
    # @article{Chang:2008:BDS:1365815.1365816, ..., journal = "ACM Trans. Comput. Syst.",
    # volume = "26", number = "2", year = "2008", issn = "0734-2071", pages = "4:1--4:26",
    # doi = "10.1145/1365815.1365816", ...}
    "iop Chang:2008": (
        "\\bibitem{Chang:2008:BDS:1365815.1365816}\nChang F, Dean J, Ghemawat S, Hsieh W~C, "
        "Wallach D~A, Burrows M, Chandra T,\n  Fikes A and Gruber R~E 2008 {\\em ACM Trans. "
        "Comput. Syst.\\/} {\\bf 26}\n  4:1--4:26 ISSN 0734-2071\n",
        {"volume": "26", "pages": "4:1-4:26"}),
    "mn Chang:2008": (
        "\\bibitem[\\protect\\citeauthoryear{Chang et~al.,}{Chang\n  et~al.}{2008}]"
        "{Chang:2008:BDS:1365815.1365816}\nChang F.,  et~al., 2008, \\mn@doi [ACM Trans. "
        "Comput. Syst.]\n  {10.1145/1365815.1365816}, 26, 4:1\n",
        {"volume": "26", "pages": "4:1"}),
    # @misc{c1962method, author = "Hough, Paul V. C.", title = "Method and means for
    # recognizing complex patterns", url = "https://www.google.com/patents/US3069654", year
    # = "1962", publisher = "Google Patents", note = "US Patent 3,069,654"}
    "iop c1962method": (
        "\\bibitem{c1962method}\nHough P~V~C 1962 Method and means for recognizing complex "
        "patterns uS Patent\n  3,069,654 \\urlprefix\\url{https://www.google.com/patents/"
        "US3069654}\n",
        {"title": "Method and means for recognizing complex patterns", "journal": "",
         "volume": "", "pages": ""}),
    # @MISC{NIST.SP.800-171r2, author = "ROSS, RON and VISCUSO, PATRICK and
    # GUISSANIE, GARY and DEMPSEY, KELLEY and RIDDLE, MARK", year = "2020", ...}
    "iop NIST.SP.800-171r2": (
        "\\bibitem{NIST.SP.800-171r2}\nROSS R, VISCUSO P, GUISSANIE G, DEMPSEY K and RIDDLE M "
        "2020 Special publication\n  800-171, protecting controlled unclassified information "
        "in nonfederal systems\n  and organizations\n  \\urlprefix\\url{https://nvlpubs."
        "nist.gov/nistpubs/SpecialPublications/NIST.SP.800-171r2.pdf}\n",
        {"author": "Ross, R. and Viscuso, P. and Guissanie, G. and Dempsey, K. and Riddle, M.",
         "year": "2020"}),
    # @ARTICLE{conf:casjobs, author = "{OMullane}, William and {Li}, Nolan and
    # {Nieto-Santisteban}, Maria and {Szalay}, Alex and {Thakar}, Ani and {Gray}, Jim", ...}
    # (an O' name without its apostrophe had ended the names: "and Gray J" in the title)
    "iop conf:casjobs": (
        "\\bibitem{conf:casjobs}\n{OMullane} W, {Li} N, {Nieto-Santisteban} M, {Szalay} A, "
        "{Thakar} A and {Gray}\n  J 2005 {\\em arXiv e-prints\\/} cs/0502072 "
        "(\\textit{Preprint}\n  \\eprint{cs/0502072})\n",
        {"author": "OMullane, W. and Li, N. and Nieto-Santisteban, M. and Szalay, A. and "
                   "Thakar, A. and Gray, J.", "eprint": "cs/0502072"}),
    # @TechReport{herschel:codingstandards, author = "Brumfit, J.", title = "{J}ava {C}oding
    # {S}tandard and ... {S}ystem", institution = "ESTEC", year = "2002", ...}
    "mn herschel:codingstandards": (
        "\\bibitem[\\protect\\citeauthoryear{Brumfit}{Brumfit}{2002}]"
        "{herschel:codingstandards}\nBrumfit J.,  2002, Technical report, {J}ava {C}oding "
        "{S}tandard and\n  {G}uidelines for the {H}erschel {C}ommon {S}cience {S}ystem.\n"
        "ESTEC\n",
        {"author": "Brumfit, J.", "year": "2002",
         "title": "Java Coding Standard and Guidelines for the Herschel Common Science "
                  "System"}),
    # @TechReport{greenplum:adminguide41}, as above (the link after the title)
    "mn greenplum:adminguide41": (
        "\\bibitem[\\protect\\citeauthoryear{EMC}{EMC}{2011a}]{greenplum:adminguide41}\n"
        "EMC 2011a, Technical report, Greenplum Database 4.1 Administrator Guide, \\url\n"
        "  {http://www.greenplum.com/community/downloads/documentation/}.\nEMC Corporation, "
        "\\url\n  {http://www.greenplum.com/community/downloads/documentation/}\n",
        {"author": "{EMC}", "year": "2011",
         "title": "Greenplum Database 4.1 Administrator Guide"}),
    # @LiveLink{ecss:projectorg}, as above (mnras's label year "2003d")
    "mn ecss:projectorg": (
        "\\bibitem[\\protect\\citeauthoryear{{ESA Publications Division}}{{ESA Publications\n"
        "  Division}}{2003d}]{ecss:projectorg}\n{ESA Publications Division} 2003d, "
        "{P}roject {O}rganisation\n",
        {"author": "{ESA Publications Division}", "year": "2003",
         "title": "Project Organisation"}),
}


@pytest.mark.parametrize("case", sorted(ITEMS))
def test_report_and_organisation_items(case: str) -> None:
    text, want = ITEMS[case]
    (entry,), _ = parse_bbl_text("\\begin{thebibliography}{9}\n" + text
                                 + "\\end{thebibliography}\n", "refs.bbl")
    got = {k: entry.fields.get(k, "") for k in want}
    assert got == want


BIB = r"""
@article{Chang:2008:BDS:1365815.1365816,
    author = "Chang, Fay and Dean, Jeffrey and Ghemawat, Sanjay and Hsieh, Wilson C. and
              Wallach, Deborah A. and Burrows, Mike and Chandra, Tushar and Fikes, Andrew
              and Gruber, Robert E.",
    title = "Bigtable: A Distributed Storage System for Structured Data",
    journal = "ACM Trans. Comput. Syst.",
    volume = "26",
    number = "2",
    year = "2008",
    pages = "4:1--4:26",
}
@article{utomo2022inertia,
  author  = {Utomo, Adhi Ari and Maulida, Mira and Musa, Soebowo},
  title   = {Organizational Inertia, Digital Capabilities, Digital Transformation, and Firm
             Competencies},
  journal = {The South East Asian Journal of Management},
  year    = {2022},
  volume  = {17},
  number  = {1}
}
@TechReport{DOC:HEH-001,
    author = "Huckle, H.",
    year = "2007",
    institution = "ESA",
    title = "Continuum {N}ormalisation",
    note = "GAIA-C6-SP-MSSL-HEH-001-D"
}
@TechReport{herschel:codingstandards,
    author = "Brumfit, J.",
    title = "{J}ava {C}oding {S}tandard and {G}uidelines for the {H}erschel {C}ommon
             {S}cience {S}ystem",
    institution = "ESTEC",
    year = "2002",
    month = "October",
    note = "HSCDT/TN009"
}
"""


def _labels(tmp_path: Path, bbl: str) -> dict[str, str]:
    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    index = tmp_path / "index.sqlite"
    import_files(index, [bib])
    entries, _ = parse_bbl_text(f"\\begin{{thebibliography}}{{1}}\n{bbl}\n"
                                "\\end{thebibliography}\n", "paper.bbl")
    settings = replace(Settings(), offline=True, index_path=str(index), cache_path="none",
                       index_complete=True, sources=("local",))
    return {v.entry.key: v.label.value for v in check_entries(entries, settings)}


def test_reports_exact_against_their_entries(tmp_path: Path) -> None:
    bbl = "\n".join(ITEMS[k][0] for k in ("iop DOC:HEH-001", "mn herschel:codingstandards",
                                            "mn utomo2022inertia"))
    assert _labels(tmp_path, bbl) == {"DOC:HEH-001": "EXACT",
                                      "herschel:codingstandards": "EXACT",
                                      "utomo2022inertia": "EXACT"}


def test_a_wrong_report_title_is_still_flagged(tmp_path: Path) -> None:
    """The report's words are cut off the title, never a word of the title itself: a
    report whose title is wrong does not pass."""
    bbl = ("\\bibitem{DOC:HEH-001}\nHuckle H 2007 Continuum {S}ubtraction Tech. rep. ESA\n"
           "  gAIA-C6-SP-MSSL-HEH-001-D\n\n"
           "\\bibitem[\\protect\\citeauthoryear{Brumfit}{Brumfit}{2002}]"
           "{herschel:codingstandards}\nBrumfit J.,  2002, Technical report, {P}ython "
           "{C}oding {S}tandard and\n  {G}uidelines for the {H}erschel {C}ommon {S}cience "
           "{S}ystem.\nESTEC\n")
    labels = _labels(tmp_path, bbl)
    assert labels["DOC:HEH-001"] != "EXACT"
    assert labels["herschel:codingstandards"] != "EXACT"


def test_a_wrong_journal_of_a_titleless_article_is_still_flagged(tmp_path: Path) -> None:
    """Read as the journal, another journal's name is no match: the reference does not
    pass."""
    bbl = ("\\bibitem[\\protect\\citeauthoryear{Utomo, Maulida  \\& Musa}{Utomo\n"
           "  et~al.}{2022}]{utomo2022inertia}\nUtomo A.~A.,  Maulida M.,   Musa S.,  2022, "
           "The Asian Journal of\n  Marketing, 17\n")
    assert _labels(tmp_path, bbl)["utomo2022inertia"] != "EXACT"


def test_an_article_number_page(tmp_path: Path) -> None:
    """ACM's "4:1--4:26" is the page; another article number is still flagged."""
    right = ITEMS["iop Chang:2008"][0]
    assert _labels(tmp_path, right)["Chang:2008:BDS:1365815.1365816"] == "EXACT"
    wrong = right.replace("4:1--4:26", "5:1--5:26")
    assert _labels(tmp_path, wrong)["Chang:2008:BDS:1365815.1365816"] != "EXACT"
