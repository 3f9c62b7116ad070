"""Names of free-text and .bbl references that the name patterns of
:mod:`citecheck_tex.tex.refstring` had misread (each a false flag of a faithful item).

The texts are real: the sample papers' ``refs.bib`` typeset by ``bibtex`` with the style
named (``python -m bench.accuracy.bst_styles --styles NAME --keep DIR``) or pasted from
the PDF that ``pdflatex`` made of it and poppler's ``pdftotext`` read
(``python -m bench.accuracy.pdf_paste --keep DIR``), unchanged. Each test checks the
faithful items EXACT against the sample papers' real records and the same item with one
planted wrong field still flagged.
"""

from __future__ import annotations

from pathlib import Path

from citecheck_tex.tex.refstring import parse_reference

from .conftest import checked

# plain.bst, pdftotext: "Z.-q. Zhang" (Zhen-qiang), which BibTeX splits at its hyphen and
# plain prints "Z. q. Zhang"; the list had not been read as names and had become the
# title ("Z. q. Zhang, D. f. Hou, and G. Chen. Heavy quark ...": a false title MINOR, on
# plain, unsrt and plainnat, raw and -layout)
PLAIN_ZHANG = """References
[24] Z. q. Zhang, D. f. Hou, and G. Chen. Heavy quark potential from deformed
AdS5 models. Nucl. Phys. A, 960:1–10, 2017.
"""
# apsrev4-2, pdftotext: the same names and no title
APSREV_ZHANG = "[4] Z. q. Zhang, D. f. Hou, and G. Chen, Nucl. Phys. A 960, 1 (2017).\n"


def test_a_lower_case_initial_after_a_space_belongs_to_the_name() -> None:
    got = parse_reference(" ".join(PLAIN_ZHANG.split("\n")[1:]).removeprefix("[24] "))
    assert got["author"] == "Zhang, Z. q. and Hou, D. f. and G. Chen"
    assert got["title"] == "Heavy quark potential from deformed AdS5 models"
    got = parse_reference(APSREV_ZHANG.removeprefix("[4] "))
    assert got["author"] == "Zhang, Z. q. and Hou, D. f. and G. Chen"
    assert "title" not in got


def test_lower_case_initials_pasted_from_a_pdf_are_exact(tmp_path: Path, index: Path) -> None:
    wrong = PLAIN_ZHANG.replace("[24]", "[25]").replace("D. f. Hou", "D. f. Hao")
    got = {e["key"]: e for e in checked(tmp_path, index, "refs.txt", PLAIN_ZHANG + wrong,
                                        "--index-complete")}
    assert got["24"]["label"] == "EXACT", got["24"]
    assert got["25"]["label"] in ("MINOR", "MAJOR")
    assert [d["field"] for d in got["25"]["discrepancies"]] == ["author"]


def test_a_lower_case_particle_among_initials_is_no_family_name() -> None:
    # (the rule above must not make "d." a particle: BibTeX would read "P. Lagos")
    got = parse_reference("C. d. P. Lagos and A. Smith. A title of things. "
                          "Phys. Rev. D, 95:1, 2017.")
    assert got["author"] == "Lagos, C. d. P. and A. Smith"


# plain.bst, pdftotext without -layout: the title printed after the venue (the PDF's
# text order), so the names end with their full stop just before the journal; the last
# name had been read as the title "and E. J. Chun" (a false author MINOR, plain and unsrt)
PLAIN_RAW_AHN = """References
[1] Y. H. Ahn and E. J. Chun.
Phys.Lett.B, 752:333, 2016.

Minimal models for axion and neutrino.

"""


def test_the_last_name_closing_the_text_before_the_venue(tmp_path: Path, index: Path) -> None:
    got = parse_reference("Y. H. Ahn and E. J. Chun. Phys.Lett.B, 752:333, 2016. "
                          "Minimal models for axion and neutrino.")
    assert got["author"] == "Y. H. Ahn and E. J. Chun"
    # a title between the names and the venue is still the title
    got = parse_reference("Y. H. Ahn and E. J. Chun. Minimal models for axion and "
                          "neutrino. Phys.Lett.B, 752:333, 2016.")
    assert got["title"] == "Minimal models for axion and neutrino"
    wrong = PLAIN_RAW_AHN.replace("[1]", "[2]").replace("E. J. Chun", "E. J. Chen")
    got = {e["key"]: e for e in checked(tmp_path, index, "refs.txt", PLAIN_RAW_AHN + wrong,
                                        "--index-complete")}
    assert got["1"]["label"] == "EXACT", got["1"]
    assert got["2"]["label"] in ("MINOR", "MAJOR")
    assert [d["field"] for d in got["2"]["discrepancies"]] == ["author"]


# dlfltxbbibtex (Danish): "og" for "and" between the last two names; the list had ended
# before it (a false author MINOR on every item with two names or more)
DLFLTXB = r"""\begin{thebibliography}{3}
\providecommand{\natexlab}[1]{#1}
\providecommand{\url}[1]{\texttt{#1}}
\providecommand{\urlprefix}{URL }
\expandafter\ifx\csname urlstyle\endcsname\relax
  \providecommand{\doi}[1]{doi:\discretionary{}{}{}#1}\else
  \providecommand{\doi}{doi:\discretionary{}{}{}\begingroup
  \urlstyle{rm}\Url}\fi
\providecommand{\selectlanguage}[1]{\relax}

\bibitem[{Du et~al.(2017)Du, Behrens og Niemeyer}]{Du2017}
Xiaolong Du, Christoph Behrens og Jens~C. Niemeyer, \emph{Substructure of fuzzy
  dark matter haloes}. \emph{Mon. Not. Roy. Astron. Soc.}, 465(1), 941--951,
  2017, \doi{https://doi.org/10.1093/mnras/stw2724}.

\bibitem[{Natarajan og Sikivie(2007)}]{Natarajan2007}
A.~Natarajan og P.~Sikivie, \emph{Does the second caustic ring of dark matter
  cause the {Monoceros} ring of stars?} \emph{Phys.Rev.D}, 76, 023505, 2007.

\bibitem[{q.~Zhang et~al.(2017)q.~Zhang, f.~Hou og Chen}]{Zhang2017hqp}
Z.~q.~Zhang, D.~f.~Hou og G.~Chen, \emph{Heavy quark potential from deformed
  {AdS}$_5$ models}. \emph{Nucl. Phys. A}, 960, 1--10, 2017.

\bibitem[{Natarajan og Sikivie(2007)}]{Planted}
A.~Natarajan og P.~Sikivee, \emph{Does the second caustic ring of dark matter
  cause the {Monoceros} ring of stars?} \emph{Phys.Rev.D}, 76, 023505, 2007.

\end{thebibliography}
"""


def test_babel_word_for_and_between_names(tmp_path: Path, index: Path) -> None:
    got = parse_reference("Xiaolong Du, Christoph Behrens og Jens C. Niemeyer, “Substructure "
                          "of fuzzy dark matter haloes”. Mon. Not. Roy. Astron. Soc., 465, "
                          "941--951, 2017")
    assert got["author"] == "Xiaolong Du and Christoph Behrens and Jens C. Niemeyer"
    # a title's "und" joins no names: "Physik und Chemie" stays whole
    got = parse_reference("A. Smith. Physik und Chemie der Sterne. Z. Phys., 12:1, 1930.")
    assert got["author"] == "A. Smith"
    assert got["title"] == "Physik und Chemie der Sterne"
    labels = {e["key"]: e for e in checked(tmp_path, index, "paper.bbl", DLFLTXB,
                                           "--index-complete")}
    for key in ("Du2017", "Natarajan2007", "Zhang2017hqp"):
        assert labels[key]["label"] == "EXACT", labels[key]
    assert labels["Planted"]["label"] in ("MINOR", "MAJOR")
    assert [d["field"] for d in labels["Planted"]["discrepancies"]] == ["author"]
