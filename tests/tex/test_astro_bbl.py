"""Astronomy .bbl files: real NASA ADS entries as real bibtex typesets them.

``data/astro/refs.bib`` holds real ADS exports (see ``data/astro/PROVENANCE.md``); an
index is built from it and each excerpt below, copied from the .bbl that bibtex made of
those entries with the named style, must come out EXACT, as the .bib itself does (the
method of ``python -m bench.accuracy.bst_styles --corpus``). Each excerpt was a false
MINOR or MAJOR on 2026-12-02.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tex.conftest import bbl_labels

BIB = Path(__file__).parent / "data" / "astro" / "refs.bib"


def _labels(tmp_path: Path, bbl: str) -> dict[str, tuple[str, list[str]]]:
    """Each item of ``bbl`` checked against an index of :data:`BIB`."""
    return bbl_labels(tmp_path, BIB, bbl)


#: elsarticle-num: the proceedings' booktitle between "(Eds.)" and "Vol. N of Series"
#: (the editors and the series had been read into it: a false journal MINOR)
ELSARTICLE_PROCEEDINGS = r"""
\bibitem{1997hipp.conf..467E}
L.~{Eyer}, M.~{Grenon}, {Photometric Variability in the HR Diagram}, in:
  B.~{Battrick} (Ed.), Hipparcos - Venice 1997, Vol. 402 of ESA Special
  Publication, 1997, pp. 467--472.

\bibitem{2005tdug.conf..377B}
A.~G.~A. {Brown}, {Gaia Photometric Data Analysis}, in: C.~{Turon}, K.~S.
  {O'Flaherty}, M.~A.~C. {Perryman} (Eds.), The Three-Dimensional Universe with
  Gaia, Vol. 576 of ESA Special Publication, 2005, p. 377.

\bibitem{2014SPIE.9150E..0HA}
G.~Z. {Angeli}, B.~{Xin}, C.~{Claver}, D.~{MacMartin}, D.~{Neill},
  M.~{Britton}, J.~{Sebag}, S.~{Chandrasekharan}, {Real time wavefront control
  system for the Large Synoptic Survey Telescope (LSST)}, in: G.~Z. {Angeli},
  P.~{Dierickx} (Eds.), Modeling, Systems Engineering, and Project Management
  for Astronomy VI, Vol. 9150 of Society of Photo-Optical Instrumentation
  Engineers (SPIE) Conference Series, 2014, p. 91500H.
\newblock \href {https://doi.org/10.1117/12.2055390}
  {\path{doi:10.1117/12.2055390}}.
"""

#: elsarticle-num with ADS's journal macros: "\aap 355 (2000) L27--L30" (TeX drops the
#: space after \aap: "A&A355" was no journal reference; and "A&A" has no two letters in
#: a row, which a journal name was required to have)
ELSARTICLE_AAS_MACRO = r"""
\bibitem{2000A&A...355L..27H}
E.~{H{\o}g}, C.~{Fabricius}, V.~V. {Makarov}, S.~{Urban}, T.~{Corbin},
  G.~{Wycoff}, U.~{Bastian}, P.~{Schwekendiek}, A.~{Wicenec}, {The Tycho-2
  catalogue of the 2.5 million brightest stars}, \aap 355 (2000) L27--L30.

\bibitem{1983A&A...120..197S}
J.~L. {Simon}, {Theory for the motion of the four giant planets - The TOP 82
  solution}, \aap 120~(2) (1983) 197--202.
"""


#: mnras: proceedings print no title, "Authors, 2003, in Editors, ed., Series Vol. 298,
#: Booktitle. p.~199", and the DOI without a journal, "\mn@doi{10.1117/...}" (the venue
#: had been read as the title: a false MAJOR)
MNRAS_PROCEEDINGS = r"""
\bibitem[\protect\citeauthoryear{{Angeli}, {Xin}, {Claver}, {MacMartin},
  {Neill}, {Britton}, {Sebag}  \& {Chandrasekharan}}{{Angeli}
  et~al.}{2014}]{2014SPIE.9150E..0HA}
{Angeli} G.~Z.,  {Xin} B.,  {Claver} C.,  {MacMartin} D.,  {Neill} D.,
  {Britton} M.,  {Sebag} J.,   {Chandrasekharan} S.,  2014, in {Angeli} G.~Z.,
  {Dierickx} P.,  eds,  Society of Photo-Optical Instrumentation Engineers
  (SPIE) Conference Series Vol. 9150, Modeling, Systems Engineering, and
  Project Management for Astronomy VI. p. 91500H, \mn@doi{10.1117/12.2055390}

\bibitem[\protect\citeauthoryear{{Bailer-Jones}}{{Bailer-Jones}}{2003}]{2003ASPC..298..199B}
{Bailer-Jones} C. A.~L.,  2003, in {Munari} U.,  ed.,  Astronomical Society of
  the Pacific Conference Series Vol. 298, GAIA Spectroscopy: Science and
  Technology. p.~199

\bibitem[\protect\citeauthoryear{{Eyer} \& {Grenon}}{{Eyer} \&
  {Grenon}}{1997}]{1997hipp.conf..467E}
{Eyer} L.,  {Grenon} M.,  1997, in {Battrick} B.,  ed.,  ESA Special
  Publication Vol. 402, Hipparcos - Venice 1997. pp 467--472
"""

#: aasjournal: "Authors 2003, in Series, Vol. 298, Booktitle, ed. Editors, 199" (the
#: venue had been dropped: a title-less reference omitting journal, volume and pages)
AASJOURNAL_PROCEEDINGS = r"""
\bibitem[{{Bailer-Jones}(2003)}]{2003ASPC..298..199B}
{Bailer-Jones}, C. A.~L. 2003, in Astronomical Society of the Pacific
  Conference Series, Vol. 298, GAIA Spectroscopy: Science and Technology, ed.
  U.~{Munari}, 199

\bibitem[{{Brown}(2005)}]{2005tdug.conf..377B}
{Brown}, A. G.~A. 2005, in ESA Special Publication, Vol. 576, The
  Three-Dimensional Universe with Gaia, ed. C.~{Turon}, K.~S. {O'Flaherty}, \&
  M.~A.~C. {Perryman}, 377
"""


@pytest.mark.parametrize("bbl", [ELSARTICLE_PROCEEDINGS, ELSARTICLE_AAS_MACRO,
                                 MNRAS_PROCEEDINGS, AASJOURNAL_PROCEEDINGS],
                         ids=["elsarticle-proceedings", "elsarticle-aas-macro",
                              "mnras-proceedings", "aasjournal-proceedings"])
def test_real_ads_entries_stay_exact(tmp_path: Path, bbl: str) -> None:
    labels = _labels(tmp_path, bbl)
    assert labels and {k: v for k, v in labels.items() if v[0] != "EXACT"} == {}
