"""plain.bst's two-block items of a hand-written bibliography: an organisation as the
author, a title ending in its date, an article without author.

Real bibtex output (TeX Live, 2026-12-02, ``plain``) of the shared corpus's
``lsst_refs.bib`` (lsst/lsst-texmf @ 4721872d: ESA standards, NIST publications,
management articles); each had been read with the names and the title as one title
(a false MAJOR on ``title``), or with the journal as the title. ``python -m
bench.accuracy.bst_styles`` reads the same file through plain: 31 -> 11 false flags
(``bench.accuracy.bst_styles.corpus_run(["plain"], [CORPUS / "bib" / "lsst_refs.bib"])``).
"""

from __future__ import annotations

import pytest

from citecheck_tex.tex.bbl import parse_bbl_text

ITEMS = {
    # @LiveLink{ecss:tailoring, author = "{ESA Publications Division}", title =
    # "{P}roject {O}rganisation", year = "2000", month = "April", ...}
    "ecss:tailoring": ("\\bibitem{ecss:tailoring}\n{ESA Publications Division}.\n"
                       "\\newblock {P}roject {O}rganisation, April 2000.\n",
                       {"author": "{ESA Publications Division}",
                        "title": "Project Organisation", "year": "2000"}),
    # @MISC{FIPS200, author = "Division, Computer Security", month = "mar", ...}
    "FIPS200": ("\\bibitem{FIPS200}\nComputer~Security Division.\n\\newblock Publication 200, "
                "minimum security requirements for federal\n  information and information "
                "systems, mar 2006.\n",
                {"author": "Computer Security Division", "year": "2006",
                 "title": "Publication 200, minimum security requirements for federal "
                          "information and information systems"}),
    # @article{perini2024strategic, title = ..., journal = {Long Range Planning}, no author
    "perini2024strategic": ("\\bibitem{perini2024strategic}\nStrategic inertia and renewal: "
                            "Contrasting responses to market changes.\n\\newblock {\\em Long "
                            "Range Planning}, 2024.\n",
                            {"title": "Strategic inertia and renewal: Contrasting responses "
                                      "to market changes", "year": "2024"}),
    # @misc{WS2CU6:extraction, ..., year = 2006, note = {{CU6 W}orkshop2.}}
    "WS2CU6:extraction": ("\\bibitem{WS2CU6:extraction}\nM.~Cropper and S.R. Rosen.\n"
                          "\\newblock Spectra extraction, 2006.\n\\newblock {CU6 W}orkshop2.\n",
                          {"title": "Spectra extraction", "year": "2006"}),
    # plainnat: @misc{DeWitt:2008:MapReduce, ..., month = "January", year = "2008", url =
    # ...} (the link's "2009" is no date of the item)
    "DeWitt:2008:MapReduce": (
        "\\bibitem[DeWitt(2008{\\natexlab{a}})]{DeWitt:2008:MapReduce}\nDavid DeWitt.\n"
        "\\newblock {MapReduce: A major step backwards}, January 2008{\\natexlab{a}}.\n"
        "\\newblock URL\n  \\url{https://web.archive.org/web/20090327050223/http://www."
        "databasecolumn.com/2008/01/mapreduce-a-major-step-back.html}.\n",
        {"title": "MapReduce: A major step backwards", "year": "2008"}),
}


@pytest.mark.parametrize("key", sorted(ITEMS))
def test_plain_two_block_items(key: str) -> None:
    text, want = ITEMS[key]
    (entry,), _ = parse_bbl_text("\\begin{thebibliography}{9}\n" + text
                                 + "\\end{thebibliography}\n", "refs.bbl")
    got = {k: entry.fields.get(k, "") for k in want}
    assert got == want
    assert not entry.fields.get("journal") or key == "perini2024strategic"


@pytest.mark.parametrize("text, author", [
    # the names and the title in one block (fbs.bst): not an item without author
    ("\\bibitem{Hui2017}\nHui, L., Ostriker, J.~P., Tremaine, S., and Witten, E.: "
     "Ultralight scalars as\n  cosmological dark matter.\n\\newblock \\emph{PhysRevD} 95, "
     "043541 (2017)\n", "Hui"),
    # names the name reader does not take (bookdb.bst), then a book's italic title
    ("\\bibitem{Brodsky:2013dca}\nStanley~J. Brodsky, Guy~F. de~T{\\'e}ramond, and "
     "Hans~G{\\\"u}nter Dosch.\n\\newblock \\emph{{QCD on the Light-Front -- A Systematic "
     "Approach to Hadron\n  Physics}} (2013).\n", ""),
])
def test_a_first_block_of_names_is_not_a_title(text: str, author: str) -> None:
    (entry,), _ = parse_bbl_text("\\begin{thebibliography}{9}\n" + text
                                 + "\\end{thebibliography}\n", "refs.bbl")
    title = entry.fields.get("title", "")
    assert "Brodsky" not in title and not title.startswith("Hui")
    if author:
        assert author in entry.fields.get("author", "")


def test_editors_then_an_italic_booktitle_are_not_a_title_and_a_venue() -> None:
    """lsst_refs_ads.bib 2005ESASP.576.....T through plain."""
    text = ("\\bibitem{2005ESASP.576.....T}\nC.~{Turon}, K.~S. {O'Flaherty}, and M.~A.~C. "
            "{Perryman}, editors.\n\\newblock {\\em {The Three-Dimensional Universe with "
            "Gaia}}, volume 576 of {\\em\n  ESA Special Publication}, January 2005.\n")
    (entry,), _ = parse_bbl_text("\\begin{thebibliography}{9}\n" + text
                                 + "\\end{thebibliography}\n", "refs.bbl")
    assert "Turon" not in entry.fields.get("title", "")


@pytest.mark.parametrize("text, want", [
    # @Misc{GPFS, key = "GPFS", title = "{IBM Spectrum Scale}", url = ...}: the key is
    # printed as the label, the title is a link
    ("\\bibitem [{GPFS()}]{GPFS}%\n  \\BibitemOpen\n  GPFS,\\ \\href\n  "
     "{https://www.ibm.com/us-en/marketplace/scale-out-file-and-object-storage}\n  "
     "{\\bibinfo {title} {{IBM Spectrum Scale}}}\\BibitemShut {NoStop}%\n",
     {"title": "IBM Spectrum Scale",
      "url": "https://www.ibm.com/us-en/marketplace/scale-out-file-and-object-storage"}),
    # @article{perini2024strategic} without author: a journal and a year, no "noop" title
    ("\\bibitem [{per(2024)}]{perini2024strategic}%\n  \\BibitemOpen\n  \\href@noop {} "
     "{\\bibfield  {journal} {\\bibinfo  {journal} {Long Range\n  Planning}\\ } (\\bibinfo "
     "{year} {2024})}\\BibitemShut {NoStop}%\n",
     {"title": "", "journal": "Long Range Planning", "year": "2024"}),
])
def test_apsrev_items_of_few_fields_are_read_from_their_bibinfo(text: str,
                                                                want: dict[str, str]) -> None:
    """apsrev4-2 (lsst_refs.bib: 5 -> 0 false flags)."""
    (entry,), _ = parse_bbl_text("\\begin{thebibliography}{9}\n" + text
                                 + "\\end{thebibliography}\n", "refs.bbl")
    assert {k: entry.fields.get(k, "") for k in want} == want


@pytest.mark.parametrize("text, want", [
    # plain: @article{Chang:2008:BDS:1365815.1365816, journal = "ACM Trans. Comput. Syst.",
    # volume = "26", number = "2", pages = "4:1--4:26"}: ACM's article numbers
    ("\\bibitem{Chang:2008:BDS:1365815.1365816}\nFay Chang, Jeffrey Dean, and Robert~E. "
     "Gruber.\n\\newblock Bigtable: A distributed storage system for structured data.\n"
     "\\newblock {\\em ACM Trans. Comput. Syst.}, 26(2):4:1--4:26, June 2008.\n",
     {"journal": "ACM Trans. Comput. Syst.", "volume": "26", "pages": "4:1-4:26"}),
    # plain: the editors before the booktitle ("In ..., editors, {\em Booktitle}")
    ("\\bibitem{Waas:2009:97836420342207}\nFlorian~M. Waas.\n\\newblock Beyond conventional "
     "data warehousing --- massively parallel data\n  processing with greenplum database.\n"
     "\\newblock In Malu Castellanos, Umesh Dayal, and Timos Sellis, editors, {\\em\n  "
     "Business Intelligence for the Real-Time Enterprise: Second International\n  Workshop,"
     " BIRTE 2008, Auckland, New Zealand, August 24, 2008, Revised\n  Selected Papers}, "
     "pages 89--96, Berlin, Heidelberg, 2009. Springer Berlin\n  Heidelberg.\n",
     {"journal": "", "pages": "89-96", "year": "2009"}),
    # aasjournal: "in Booktitle, Series (Address: Publisher), pages" (booktitle = "State of
    # the Practice Reports", series = "SC '11")
    ("\\bibitem[{{Wang} {et~al.}(2011)}]{Wang:2011:QDS:2063348.2063364}\nWang, D.~L., "
     "Monkewitz, S.~M., Lim, K.-T., \\& Becla, J. 2011, in State of the\n  Practice Reports, "
     "SC '11 (New York, NY, USA: ACM), 12:1--12:11,\n  \\dodoi{10.1145/2063348.2063364}\n",
     {"booktitle": "State of the Practice Reports", "series": "SC '11",
      "pages": "12:1-12:11"}),
])
def test_venues_of_a_hand_written_bibliography(text: str, want: dict[str, str]) -> None:
    """lsst_refs.bib: plain 10 -> 7, aasjournal 35 -> 31 false flags."""
    (entry,), _ = parse_bbl_text("\\begin{thebibliography}{9}\n" + text
                                 + "\\end{thebibliography}\n", "refs.bbl")
    assert {k: entry.fields.get(k, "") for k in want} == want
