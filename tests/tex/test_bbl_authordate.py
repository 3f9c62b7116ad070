"""Author-year .bbl items of authordate1-4 and perception whose names had been misread:
real .bbl excerpts of the sample papers' ``refs.bib`` typeset by ``bibtex`` (``python -m
bench.accuracy.bst_styles --styles NAME --keep DIR``), unchanged. The faithful items must
be EXACT against the sample papers' real records, and the planted ones flagged on their
field: ``Fang2016chiral`` (volume 908 for 907), ``Capossoli2016`` (page 110 for 101).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.tex.refstring import parse_reference

from .conftest import checked

#: authordate1: every name inverted with given names written out ("Wang, Zhiyuan, \& Ma,
#: Bo-Qiang. 2015.", "..., \& Tan, Chung-I." whose "I" is no initial), the month after the
#: year in parentheses ("1999 (9).")
AUTHORDATE1 = r"""\begin{thebibliography}{}

\bibitem[\protect\citename{Brower {\em et~al.}, }2014]{Brower:2014sxa}
Brower, Richard, Djuri{\'c}, Marko, Raben, Timothy, \& Tan, Chung-I. 2014 (12).
\newblock {Towards holographic QCD: AdS/CFT, confinement deformation, and DIS
  at small-x}.

\bibitem[\protect\citename{Fang {\em et~al.}, }2016]{Fang2016chiral}
Fang, Z., He, S., \& Li, D. 2016.
\newblock Chiral and deconfining phase transitions from holographic {QCD}
  study.
\newblock {\em Nucl. Phys. B}, {\bf 908}, 187.

\bibitem[\protect\citename{Janik, }1999]{Janik:1999zu}
Janik, Romuald~A. 1999 (9).
\newblock {Gauge theory scattering from the AdS / CFT correspondence}.

\bibitem[\protect\citename{Wang \& Ma, }2015]{Wang2015hardwall}
Wang, Zhiyuan, \& Ma, Bo-Qiang. 2015.
\newblock A unified approach to hadron phenomenology at zero and finite
  temperatures in a hard-wall {AdS/QCD} model.
\end{thebibliography}
"""

#: perception: "Family I" names, a comma before the year, "????" for none, "q.~Zhang Z"
#: (BibTeX's von part of "Z.-q."), a journal-less "\enquote{Title}  {\bf 760} 110"
PERCEPTION = r"""\begin{thebibliography}{30}
\newcommand{\enquote}[1]{``#1''}
\expandafter\ifx\csname natexlab\endcsname\relax\def\natexlab#1{#1}\fi
\expandafter\ifx\csname url\endcsname\relax
  \def\url#1{{\tt #1}}\fi
\expandafter\ifx\csname urlprefix\endcsname\relax\def\urlprefix{URL }\fi

\bibitem[{Capossoli et~al.(????)Capossoli, Li, \& Boschi-Filho}]{Capossoli2016}
Capossoli E~F, Li D, Boschi-Filho H, ???? \enquote{Pomeron and odderon {Regge}
  trajectories from a dynamical holographic model}  {\bf 760} 110

\bibitem[{Fang et~al.(2016)Fang, He, \& Li}]{Fang2016chiral}
Fang Z, He S, Li D, 2016 \enquote{Chiral and deconfining phase transitions from
  holographic {QCD} study} {\em Nucl. Phys. B\/} {\bf 908} 187

\bibitem[{Fang et~al.(????)Fang, Li, \& Wu}]{FangLiWu2016}
Fang Z, Li D, Wu Y~L, ???? \enquote{{IR}-improved soft-wall {AdS/QCD} model for
  baryons}  {\bf 754} 343--348

\bibitem[{q.~Zhang et~al.(2017)q.~Zhang, f.~Hou, \& Chen}]{Zhang2017hqp}
q.~Zhang Z, f.~Hou D, Chen G, 2017 \enquote{Heavy quark potential from deformed
  {AdS}$_5$ models} {\em Nucl. Phys. A\/} {\bf 960} 1--10

\bibitem[{Wang \& Ma(2015)}]{Wang2015hardwall}
Wang Z, Ma B~Q, 2015 \enquote{A unified approach to hadron phenomenology at
  zero and finite temperatures in a hard-wall {AdS/QCD} model}
\end{thebibliography}
"""

CASES = {
    "authordate1": (AUTHORDATE1, ("Janik:1999zu", "Wang2015hardwall", "Brower:2014sxa"),
                    {"Fang2016chiral": "volume"}),
    "perception": (PERCEPTION, ("FangLiWu2016", "Zhang2017hqp", "Wang2015hardwall"),
                   {"Fang2016chiral": "volume", "Capossoli2016": "pages"}),
}


@pytest.mark.parametrize("style", sorted(CASES))
def test_faithful_items_exact_and_planted_fields_flagged(tmp_path: Path, index: Path,
                                                         style: str) -> None:
    bbl, faithful, planted = CASES[style]
    got = {e["key"]: e for e in checked(tmp_path, index, "paper.bbl", bbl,
                                        "--index-complete")}
    for key in faithful:
        assert got[key]["label"] == "EXACT", (key, got[key])
    for key, field in planted.items():
        assert got[key]["label"] in ("MINOR", "MAJOR"), got[key]
        assert [d["field"] for d in got[key]["discrepancies"]] == [field]


def test_perception_names_then_year_then_quoted_title() -> None:
    got = parse_reference("Wang Z, Ma B Q, 2015 “A unified approach to hadron phenomenology "
                          "at zero and finite temperatures in a hard-wall AdS/QCD model”")
    assert got["author"] == "Wang, Z. and Ma, B. Q."
    assert got["year"] == "2015"
    assert got["title"].startswith("A unified approach")
