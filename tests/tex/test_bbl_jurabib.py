"""jurabib's .bbl (TeX Live's ``jurabib.bst``, ``jureco.bst``, ``jurunsrt.bst``,
``jox.bst``): each item is ``\\jbbibargs {names}{full names}{...}{body}{how cited}``, every
field of the body in its own macro (``\\bibapifont{title}``, ``\\bibjtfont{journal}``,
``\\artvolumeformat{752}``, ``\\jbPages{333}``) and every author in ``\\jbdoitem
{{Family}{Given}{Initials}{von}{Jr}; ...}``. Read as free text, the style's words and the
names' three copies made the title (jureco: 29 of 34 faithful items flagged) or left the
item unread (jurabib: 52 of 53 UNVERIFIED). A real excerpt of the sample paper's
``refs.bib`` typeset by ``bibtex`` with jureco.bst (``python -m bench.accuracy.bst_styles
--styles jureco --keep DIR``), unchanged.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.tex.bbl import parse_bbl_text

from .conftest import ROOT, bibtex_bbl, checked, faithful_and_planted, needs_bibtex, sample_labels

JURECO = r"""%
% This bibliography was produced by using jureco.bst
%
\begin{thebibliography}{}

\bibitem[{Ahn\jbbtasep Chun\jbdy {2016}}%
         {Phys.Lett.B}%
         {{0}{}{article}{2016}{}{}{}{333}%
          {}}%
         {{Minimal models for axion and neutrino}%
          {}{}{2}{}{}{}{}{}}%
        ]{Ahn2016}
 \jbbibargs {\bibnf {Ahn} {Y.~H.} {Y.~H.} {} {}\Bibbtasep \bibnf {Chun} {E.~J.}
  {E.~J.} {} {}\bibYear {2016}}{jureco} {} {\bibapifont {Minimal models for
  axion and neutrino}\bibatsep\ \bibJTsep \bibjtfont {Phys.Lett.B}\ajtsep\
  \artvolumeformat {752} \jbPages{333}} {\bibartperiodhowcited} \jbdoitem
  {{Ahn}{Y.~H.}{Y.~H.}{}{}; {Chun}{E.~J.}{E.~J.}{}{}} {} {} \bibAnnoteFile
  {Ahn2016}

\bibitem[{Baer\jbdy {2015}}%
         {}%
         {{0}{}{misc}{2015}{}{}{}{}%
          {}}%
         {{{(Mainly) axion dark matter}}%
          {}{}{2}{}{}{}{}{}}%
        ]{Baer:2015zda}
 \jbbibargs {\bibnf {Baer} {Howard} {H.} {} {}\bibYear {2015}}{jureco} {}
  {\bibtfont {{(Mainly) axion dark matter}}\bibatsep\ No address in }
  {\bibhowcited} \jbdoitem {{Baer}{Howard}{H.}{}{}} {} {} \bibAnnoteFile
  {Baer:2015zda}

\bibitem[{Day\jbdy {2017}}%
         {Phys. Lett. B}%
         {{0}{}{article}{2017}{}{}{}{600}%
          {}}%
         {{Cosmic axion background propagation in galaxies}%
          {}{}{2}{}{}{}{}{}}%
        ]{Day2016}
 \jbbibargs {\bibnf {Day} {Francesca~V.} {F.~V.} {} {}\bibYear {2017}}{jureco}
  {} {\bibapifont {Cosmic axion background propagation in galaxies}\bibatsep\
  \bibJTsep \bibjtfont {Phys. Lett. B}\ajtsep\  \artvolumeformat {753}
  \jbPages{600}} {\bibartperiodhowcited} \jbdoitem
  {{Day}{Francesca~V.}{F.~V.}{}{}} {} {} \bibAnnoteFile {Day2016}

\bibitem[{Derbin\Bibetal\jbdy {2012}}%
         {JETP Lett.}%
         {{0}{}{article}{2012}{}{}{}{379}%
          {}}%
         {{{Search for solar axions produced by Compton process and
  bremsstrahlung using axioelectric effect}}%
          {}{}{2}{}{}{}{}{}}%
        ]{Derbin:2012yk}
 \jbbibargs {\bibnf {Derbin} {A.~V.} {A.~V.} {} {}\bibIMfont {\Bibetal}\bibYear
  {2012}}{jureco} {} {\bibapifont {{Search for solar axions produced by Compton
  process and bremsstrahlung using axioelectric effect}}\bibatsep\ \bibJTsep
  \bibjtfont {JETP Lett.}  \artvolumeformat {95} \jbPages{379}}
  {\bibartperiodhowcited} \jbdoitem {{Derbin}{A.~V.}{A.~V.}{}{};
  {Drachnev}{I.~S.}{I.~S.}{}{}; {Kayunov}{A.~S.}{A.~S.}{}{};
  {Muratova}{V.~N.}{V.~N.}{}{}} {} {} \bibAnnoteFile {Derbin:2012yk}

\bibitem[{Kobayashi\Bibetal\jbdy {2017}}%
         {Phys. Rev. D}%
         {{0}{}{article}{2017}{}{}{}{063514}%
          {}}%
         {{Constraints on small-field axion inflation}%
          {}{}{2}{}{}{}{}{}}%
        ]{Kobayashi2017}
 \jbbibargs {\bibnf {Kobayashi} {Tatsuo} {T.} {} {}\bibIMfont
  {\Bibetal}\bibYear {2017}}{jureco} {} {\bibapifont {Constraints on
  small-field axion inflation}\bibatsep\ \bibJTsep \bibjtfont {Phys. Rev.
  D}\ajtsep\  \artvolumeformat {95} \jbPages{063514}} {\bibartperiodhowcited}
  \jbdoitem {{Kobayashi}{Tatsuo}{T.}{}{}; {Oikawa}{Akane}{A.}{}{};
  {Omoto}{Naoya}{N.}{}{}} {} {} \bibAnnoteFile {Kobayashi2017}

\bibitem[{Lazarides\jbbfsasep Panagiotakopoulos\jbbstasep Shafi\jbdy {2017}}%
         {Phys. Rev. D}%
         {{0}{}{article}{2017}{}{}{}{055017}%
          {}}%
         {{Axion, $\mu$ term, and supersymmetric hybrid inflation}%
          {}{}{2}{}{}{}{}{}}%
        ]{Lazarides2017}
 \jbbibargs {\bibnf {Lazarides} {G.} {G.} {} {}\Bibbfsasep \bibnf
  {Panagiotakopoulos} {C.} {C.} {} {}\Bibbstasep \bibnf {Shafi} {Q.} {Q.} {}
  {}\bibYear {2017}}{jureco} {} {\bibapifont {Axion, $\mu$ term, and
  supersymmetric hybrid inflation}\bibatsep\ \bibJTsep \bibjtfont {Phys. Rev.
  D}\ajtsep\  \artvolumeformat {96} \jbPages{055017}} {\bibartperiodhowcited}
  \jbdoitem {{Lazarides}{G.}{G.}{}{}; {Panagiotakopoulos}{C.}{C.}{}{};
  {Shafi}{Q.}{Q.}{}{}} {} {} \bibAnnoteFile {Lazarides2017}

\end{thebibliography}
"""


def test_jurabib_fields_read_from_their_macros() -> None:
    entries, problems = parse_bbl_text(JURECO, "paper.bbl")
    assert not [p for p in problems if p.kind == "parse-error"]
    got = {e.key: e for e in entries}
    ahn = got["Ahn2016"].fields
    assert ahn["title"] == "Minimal models for axion and neutrino"
    assert (ahn["journal"], ahn["volume"], ahn["pages"], ahn["year"]) == \
        ("Phys.Lett.B", "752", "333", "2016")
    assert ahn["author"] == "Ahn, Y. H. and Chun, E. J."
    # every author of \jbdoitem, and "others" where the style printed "et al." (the
    # .bib's "and others" is not in \jbdoitem)
    assert got["Derbin:2012yk"].fields["author"].split(" and ")[1:] == \
        ["Drachnev, I. S.", "Kayunov, A. S.", "Muratova, V. N.", "others"]
    assert got["Baer:2015zda"].fields["title"] == "(Mainly) axion dark matter"
    assert "jureco" not in got["Baer:2015zda"].fields.get("title", "")
    assert got["Baer:2015zda"].fields["year"] == "2015"


def test_jurabib_von_and_junior_parts() -> None:
    item = (r"\begin{thebibliography}{}" "\n"
            r"\bibitem[{de~Sitter\jbdy {1917}}{}{{0}{}{article}{1917}{}{}{}{3}{}}"
            r"{{On the curvature of space}{}{}{2}{}{}{}{}{}}]{deSitter}" "\n"
            r" \jbbibargs {\bibnf {Sitter} {Willem} {W.} {de} {}\Bibbtasep \bibnf {Allam}"
            r" {T.} {T.} {} {Jr.}\bibYear {1917}}{jureco} {} {\bibapifont {On the curvature"
            r" of space}\bibatsep\ \bibJTsep \bibjtfont {Proc. KNAW}\ajtsep\ "
            r" \artvolnumformat {20}{2} \jbPages{3--9}} {\bibartperiodhowcited}" "\n"
            r"\end{thebibliography}" "\n")
    entry = parse_bbl_text(item, "paper.bbl")[0][0]
    assert entry.fields["author"] == "de Sitter, Willem and Allam, Jr., T."
    assert (entry.fields["volume"], entry.fields["number"], entry.fields["pages"]) == \
        ("20", "2", "3--9")


def test_jureco_items_exact_and_the_planted_fields_flagged(tmp_path: Path,
                                                          index: Path) -> None:
    faithful_and_planted(tmp_path, index, JURECO,
                         ("Ahn2016", "Baer:2015zda", "Derbin:2012yk", "Kobayashi2017"),
                         {"Day2016": "year", "Lazarides2017": "volume"})


@needs_bibtex
@pytest.mark.parametrize("style", ["jurabib", "jureco", "jurunsrt", "jox"])
def test_every_jurabib_style_on_the_sample_paper(tmp_path: Path, index: Path,
                                                 style: str) -> None:
    """The real bibtex output of each jurabib style: the faithful items EXACT, the planted
    author, volume and page flagged for them, the fabricated one MAJOR."""
    expected = sample_labels("Brodsky:2013dca", "Janik:1999zu", "Bartolini2017",
                             "Chabysheva:2012fe", "GursoyIatrakis2017", "Fang2016chiral",
                             "Capossoli2016", "KarchKatzSon2017")
    bbl = bibtex_bbl(tmp_path, ROOT / "sample_papers/holography_qcd/refs.bib", style)
    got = {e["key"]: e for e in checked(tmp_path / "check", index, "paper.bbl", bbl,
                                        "--index-complete")}
    for key, (label, fld) in expected.items():
        assert got[key]["label"] == label, (style, key, got[key]["discrepancies"])
        if fld:
            assert fld in {d["field"] for d in got[key]["discrepancies"]}, (style, key)
