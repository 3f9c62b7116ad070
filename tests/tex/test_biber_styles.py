"""The .bbl files the real biber writes, read as the .bib they came from.

A biber .bbl holds the .bib's fields (``\\field``, ``\\name``, ``\\verb``, ``\\list``), so
a reference must get the label its .bib entry gets. Three kinds of test:

- excerpts of real biber 2.18 output (biblatex 3.x, bbl format 3.2), run everywhere:
  each failed before its fix (an "and others" ate the first author's particle, every
  refsection repeated its references, a set and a ``related`` clone were checked as
  references, a wrong title of an entry pinned by its DOI passed, ``\\bibrangessep``
  glued page ranges, a GBK .bbl was read as Latin-1);
- a .bib of awkward but correct entries typeset by the real biber: every entry reads
  from the .bbl as from the .bib;
- the sample papers typeset with common biblatex styles and checked offline as a user
  checks them (``bench.accuracy.biber_styles``, where every installed style is scored):
  no false flag, the fabricated references caught.

The last two need TeX Live (pdflatex, biber, biblatex) and are skipped without it.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bench.accuracy import biber_styles, bst_styles
from citecheck_tex.model import Entry
from citecheck_tex.tex.bbl import parse_bbl_text
from citecheck_tex.tex.bib import parse_bib_text

needs_biber = pytest.mark.skipif(
    shutil.which("biber") is None or shutil.which("pdflatex") is None,
    reason="TeX Live (pdflatex, biber, biblatex) is not installed: apt install biber "
           "texlive-bibtex-extra texlive-latex-extra")

#: biber's header and the head of its first refsection.
HEAD = """% $ biblatex auxiliary file $
% $ biblatex bbl format version 3.2 $
\\refsection{0}
  \\datalist[entry]{nty/global//global/global}
"""
TAIL = "  \\enddatalist\n\\endrefsection\n"

#: author = {de Teramond, Guy F. and Brodsky, Stanley J. and others}
PARTICLE_AND_OTHERS = r"""
    \entry{particle1}{article}{}
      \true{moreauthor}
      \true{morelabelname}
      \name{author}{2}{}{%
        {{hash=58724e8488d8d022fc27e666a19d807c}{%
           family={Teramond},
           familyi={T\bibinitperiod},
           given={Guy\bibnamedelima F.},
           giveni={G\bibinitperiod\bibinitdelim F\bibinitperiod},
           prefix={de},
           prefixi={d\bibinitperiod}}}%
        {{hash=e5f246fccd6f656edc3731c7e44ed1ed}{%
           family={Brodsky},
           familyi={B\bibinitperiod},
           given={Stanley\bibnamedelima J.},
           giveni={S\bibinitperiod\bibinitdelim J\bibinitperiod}}}%
      }
      \strng{namehash}{af53b3567cb88ec640f4750ee950d347}
      \field{sortinit}{T}
      \field{labelnamesource}{author}
      \field{labeltitlesource}{title}
      \field{journaltitle}{Phys. Rev. D}
      \field{title}{A title}
      \field{volume}{1}
      \field{year}{2000}
      \true{nocite}
      \field{pages}{1}
      \range{pages}{1}
    \endentry
"""


def _people(entry: Entry) -> list[tuple[str, str, str]]:
    return [(p.von, p.family, p.given) for p in entry.authors]


def test_and_others_keeps_the_first_authors_particle() -> None:
    # `(author + " and others").lstrip(" and")` stripped the letters a, n, d and blanks:
    # "de Teramond" became "e Teramond", "da Silva" "Silva" (a false MINOR author)
    (entry,), _ = parse_bbl_text(HEAD + PARTICLE_AND_OTHERS + TAIL, "paper.bbl")
    assert _people(entry) == [("de", "Teramond", "Guy F."), ("", "Brodsky", "Stanley J.")]
    assert entry.authors_truncated
    (bib,), _ = parse_bib_text("@article{particle1, author = {de Teramond, Guy F. and "
                               "Brodsky, Stanley J. and others}, title = {A title}}", "r.bib")
    assert _people(entry) == _people(bib)


#: \begin{refsection} twice (a thesis's chapters): the second repeats Zeng:2013mca; an
#: @set (entryset = {Marolf2016,Rastelli2017}) and the clone biber makes of the entry a
#: `related = {Marolf2016}` names. Excerpts of biber's output, names and hashes cut.
REFSECTIONS = r"""
\refsection{1}
  \datalist[entry]{nty/global//global/global}
    \entry{relA}{article}{}
      \field{journaltitle}{Phys. Rev. D}
      \field{relatedtype}{translationof}
      \field{title}{Original}
      \field{year}{2000}
      \field{related}{151e259189723e0dbfba079f1a71694e}
    \endentry
    \entry{Marolf2016}{article}{skipbib=true,skipbiblist=true,skiplab=true}
      \inset{theset}
      \field{journaltitle}{JHEP}
      \field{title}{Holographic confinement in inhomogeneous backgrounds}
      \field{year}{2016}
    \endentry
    \entry{theset}{set}{}
      \set{Marolf2016,Rastelli2017}
      \field{sortinit}{M}
    \endentry
    \entry{151e259189723e0dbfba079f1a71694e}{article}{skipbib=true,skipbiblist=true,skiplab=true}
      \field{clonesourcekey}{Marolf2016}
      \field{journaltitle}{JHEP}
      \field{title}{Holographic confinement in inhomogeneous backgrounds}
      \field{year}{2016}
    \endentry
    \entry{Zeng:2013mca}{article}{}
      \field{journaltitle}{Phys. Lett. B}
      \field{title}{Holographic thermalization}
      \field{year}{2013}
    \endentry
  \enddatalist
\endrefsection
\refsection{2}
  \datalist[entry]{nty/global//global/global}
    \entry{Zeng:2013mca}{article}{}
      \field{journaltitle}{Phys. Lett. B}
      \field{title}{Holographic thermalization}
      \field{year}{2013}
    \endentry
    \missing{NoSuchKey}
  \enddatalist
\endrefsection
\refsection{3}
  \datalist[entry]{nty/global//global/global}
    \missing{NoSuchKey}
  \enddatalist
\endrefsection
"""


def test_one_reference_per_key_and_no_set_or_clone() -> None:
    # each refsection's copy was a reference of its own (Zeng:2013mca twice), the set
    # an untitled reference ("missing-title-and-id"), the clone a reference under a hash
    entries, problems = parse_bbl_text(REFSECTIONS, "paper.bbl")
    assert [e.key for e in entries] == ["relA", "Marolf2016", "Zeng:2013mca"]
    assert [(p.code, p.key) for p in problems] == [("undefined-key", "NoSuchKey")]


def test_a_clone_whose_source_is_not_cited_is_read_under_the_source_key() -> None:
    text = REFSECTIONS.split("\\refsection{2}")[0]
    text = text[:text.index("    \\entry{Marolf2016}")] + text[text.index("    \\entry{theset}"):]
    entries, _ = parse_bbl_text(text, "paper.bbl")
    assert [e.key for e in entries] == ["relA", "Marolf2016", "Zeng:2013mca"]
    assert entries[1].title == "Holographic confinement in inhomogeneous backgrounds"


def test_page_ranges_keep_their_separator() -> None:
    # pages = {1--5, 7--9}: biber writes 1\bibrangedash 5\bibrangessep 7\bibrangedash 9,
    # and \bibrangessep was dropped ("1–57–9"; "5, 9" read "59")
    text = HEAD + PARTICLE_AND_OTHERS.replace(
        r"\field{pages}{1}", r"\field{pages}{1\bibrangedash 5\bibrangessep 7\bibrangedash 9}"
    ) + TAIL
    (entry,), _ = parse_bbl_text(text, "paper.bbl")
    assert entry.pages == "1–5, 7–9"


#: Kawasaki2016 of dark_matter_axions as biber writes it (style numeric), with a title
#: that is not the paper's; its DOI and journal reference pin the paper.
WRONG_TITLE = r"""
    \entry{Kawasaki2016}{article}{}
      \name{author}{3}{}{%
        {{hash=1905158c6d7994fb115f56bcd88ec8ef}{%
           family={Kawasaki},
           familyi={K\bibinitperiod},
           given={M.},
           giveni={M\bibinitperiod}}}%
        {{hash=6ca44963a145136fa3e4ffef562b939f}{%
           family={Takahashi},
           familyi={T\bibinitperiod},
           given={F.},
           giveni={F\bibinitperiod}}}%
        {{hash=b17d96debb5a7c349f990ab7e1ed31cb}{%
           family={Yamada},
           familyi={Y\bibinitperiod},
           given={M.},
           giveni={M\bibinitperiod}}}%
      }
      \field{sortinit}{K}
      \field{labelnamesource}{author}
      \field{labeltitlesource}{title}
      \field{journaltitle}{Phys. Lett. B}
      \field{title}{Gravitational lensing by cosmic strings in galaxy clusters}
      \field{volume}{753}
      \field{year}{2016}
      \true{nocite}
      \field{pages}{677\bibrangedash 681}
      \range{pages}{5}
      \verb{doi}
      \verb 10.1016/j.physletb.2015.12.075
      \endverb
    \endentry
"""
WRONG_TITLE_BIB = """@article{Kawasaki2016,
  author  = {Kawasaki, M. and Takahashi, F. and Yamada, M.},
  title   = {Gravitational lensing by cosmic strings in galaxy clusters},
  journal = {Phys. Lett. B}, volume = {753}, pages = {677--681}, year = {2016},
  doi     = {10.1016/j.physletb.2015.12.075}
}
"""


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return bst_styles.sample_index(tmp_path_factory.mktemp("biber") / "index.sqlite")


def test_a_wrong_title_in_a_bbl_is_flagged_as_in_its_bib(index: Path, tmp_path: Path) -> None:
    # the rule that a free-text "title" of a work pinned by its DOI is a misread (not
    # compared) took biber's \field{title} for free text: the .bib said MINOR, the .bbl
    # EXACT
    (tmp_path / "refs.bib").write_text(WRONG_TITLE_BIB, encoding="utf-8")
    (tmp_path / "paper.bbl").write_text(HEAD + WRONG_TITLE + TAIL, encoding="utf-8")
    labels = []
    for name in ("refs.bib", "paper.bbl"):
        got = bst_styles.check_file(tmp_path / name, index, tmp_path / f"out_{name}")
        entry = got["Kawasaki2016"]
        labels.append((entry["label"], [d["field"] for d in entry["discrepancies"]]))
    assert labels == [("MINOR", ["title"]), ("MINOR", ["title"])]



#: The head of the .bcf biblatex writes for caspervector (whose default is texencoding=GBK).
GBK_BCF = """<?xml version="1.0" encoding="UTF-8"?>
<bcf:controlfile version="3.9" bltxversion="3.18b" xmlns:bcf="https://sourceforge.net/projects/biblatex">
  <bcf:options component="biber" type="global">
    <bcf:option type="singlevalued">
      <bcf:key>output_encoding</bcf:key>
      <bcf:value>GBK</bcf:value>
    </bcf:option>
  </bcf:options>
</bcf:controlfile>
"""


def test_a_bbl_in_the_encoding_its_bcf_names(tmp_path: Path) -> None:
    # caspervector's .bbl is GBK: read as UTF-8-else-Latin-1, "de T{\\'e}ramond" was
    # "T¨¦ramond" (a false MINOR author in caspervector and caspervector-ay)
    from citecheck_tex.tex.project import load_project

    text = HEAD + PARTICLE_AND_OTHERS.replace("family={Teramond}", "family={Téramond}") + TAIL
    (tmp_path / "paper.bbl").write_bytes(text.encode("gbk"))
    (tmp_path / "paper.bcf").write_text(GBK_BCF, encoding="utf-8")
    (entry,) = load_project(tmp_path / "paper.bbl").entries
    assert _people(entry)[0] == ("de", "Téramond", "Guy F.")
    # without its .bcf, a file that is no UTF-8 is still read as before (Latin-1)
    (tmp_path / "paper.bcf").unlink()
    (entry,) = load_project(tmp_path / "paper.bbl").entries
    assert entry.authors[0].family != "Téramond"

#: Correct entries in the forms biblatex users write; each must read from biber's .bbl
#: as it reads from the .bib.
AWKWARD_BIB = r"""
@article{particle1, author = {de Teramond, Guy F. and Brodsky, Stanley J. and others},
  title = {Light-front holography}, journal = {Phys. Rev. D}, volume = {1}, pages = {1},
  year = {2000}}
@article{particle2, author = {da Silva, A. and others}, title = {A title},
  journal = {Phys. Rev. D}, volume = {1}, pages = {1}, year = {2000}}
@article{names, author = {van der Waals, J. D. and 't Hooft, G. and D'Hoker, Eric and
  Callan, Jr., Curtis G. and Jean-Pierre Dupont and {LIGO Scientific and Virgo Collaboration}},
  title = {Names}, journal = {Phys. Rev. D}, volume = {1}, pages = {1}, year = {2000}}
@article{accents, author = {Djuri{\'c}, Marko and G{\"u}nter, J. and {\AA}str{\"o}m, K.},
  title = {{\'E}tude {\`a} $\sqrt{s}=13$~TeV with 10\% of {$\Lambda$CDM}},
  journaltitle = {Eur. Phys. J. C}, volume = {76}, number = {3}, pages = {155},
  date = {2016-03}}
@article{pagelist, author = {Doe, J.}, title = {Pages}, journal = {Nucl. Phys. B},
  volume = {907}, pages = {187--206, 210}, year = {2016}}
@article{ids, author = {Doe, J.}, title = {Identifiers}, journal = {J. Phys. A},
  volume = {1}, pages = {L12}, year = {2000}, doi = {10.1088/0305-4470/1/1/001},
  eprint = {hep-th/9711200}, archivePrefix = {arXiv}, primaryClass = {hep-th}}
@techreport{report, author = {{CMS Collaboration}}, title = {A note}, institution = {CERN},
  number = {CMS-PAS-TOP-11-005}, year = {2011}}
@inproceedings{talk, author = {Doe, J.}, title = {A talk}, crossref = {proc}, pages = {1--5}}
@proceedings{proc, title = {Proceedings of the 1st Workshop}, year = {2013},
  editor = {Roe, R.}, publisher = {SISSA}, series = {PoS}, volume = {CD12}}
@set{both, entryset = {ids,report}}
"""


def _fields(entry: Entry) -> tuple[object, ...]:
    return (_people(entry), entry.authors_truncated, entry.title, entry.year, entry.venue,
            entry.volume, entry.pages.replace("--", "–"), entry.doi, entry.arxiv,
            entry.fields.get("number", ""))


@needs_biber
def test_biber_output_reads_as_its_bib(tmp_path: Path) -> None:
    (tmp_path / "refs.bib").write_text(AWKWARD_BIB, encoding="utf-8")
    bbl, why = biber_styles.biber_bbl("numeric", tmp_path / "refs.bib", tmp_path / "tex")
    assert bbl is not None, why
    bib, _ = parse_bib_text(AWKWARD_BIB, "refs.bib")
    read, problems = parse_bbl_text(bbl.read_text(encoding="utf-8"), "paper.bbl")
    assert not [p for p in problems if p.key == "both"]
    from_bbl = {e.key: _fields(e) for e in read}
    assert set(from_bbl) == {e.key for e in bib if e.entry_type != "set"}
    assert {e.key: _fields(e) for e in bib if e.key in from_bbl and e.key != "talk"} == \
        {k: v for k, v in from_bbl.items() if k != "talk"}
    # the crossref is resolved by biber: the talk has its proceedings' year and venue
    assert from_bbl["talk"][3:5] == ("2013", "Proceedings of the 1st Workshop")


#: biber writes nearly the same .bbl for every style (the bench scores them all); these
#: differ most: plain sorting, author-year with unique names, apa's own data model.
STYLES = ("numeric", "authoryear", "apa")


@needs_biber
@pytest.mark.parametrize("style", STYLES)
def test_a_style_gives_no_false_flag(index: Path, style: str) -> None:
    (score,) = biber_styles.run([style], index, baseline=False)
    assert not score.failed, score.failed
    assert score.faithful >= 30  # both papers were read
    assert score.false_flags == [], score.false_flags
    assert score.fabricated_caught == score.fabricated

