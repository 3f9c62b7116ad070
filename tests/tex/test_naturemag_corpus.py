"""naturemag.bst's .bbl of real INSPIRE-HEP and NASA ADS exports.

``data/naturemag/refs.bib`` holds the real entries (see ``data/naturemag/PROVENANCE.md``);
an index is built from it and each excerpt below, copied from the .bbl that bibtex made
of those entries with naturemag.bst, must come out EXACT, as the .bib itself does (the
method of ``python -m bench.accuracy.bst_styles``, part two). Each excerpt was a false
MINOR on 2026-12-02.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.tex.conftest import bbl_labels

BIB = Path(__file__).parent / "data" / "naturemag" / "refs.bib"


def _labels(tmp_path: Path, bbl: str) -> dict[str, tuple[str, list[str]]]:
    """Each item of ``bbl`` checked against an index of :data:`BIB`."""
    return bbl_labels(tmp_path, BIB, bbl)


#: the suffix after the given name, "\bibinfo{author}{{Ford}, W.~K., Jr.}", is BibTeX's
#: "Ford, Jr., W. K." (it had been read with "W. K." as the suffix)
SUFFIX_LAST = r"""
\bibitem{1980ApJ...238..471R}
\bibinfo{author}{{Rubin}, V.~C.}, \bibinfo{author}{{Ford}, W.~K., Jr.} \&
  \bibinfo{author}{{Thonnard}, N.}
\newblock \bibinfo{title}{{Rotational properties of 21 SC galaxies with a large
  range of luminosities and radii, from NGC 4605 (R=4kpc) to UGC 2885
  (R=122kpc).}}
\newblock \emph{\bibinfo{journal}{\apj}} \textbf{\bibinfo{volume}{238}},
  \bibinfo{pages}{471--487} (\bibinfo{year}{1980}).

\bibitem{2003ASPC..295..261M}
\bibinfo{author}{{Miller}, W.~W., III}, \bibinfo{author}{{Sontag}, C.} \&
  \bibinfo{author}{{Rose}, J.~F.}
\newblock \bibinfo{title}{{OPUS: A CORBA Pipeline for Java, Python, and Perl
  Applications}}.
\newblock In \bibinfo{editor}{{Payne}, H.~E.}, \bibinfo{editor}{{Jedrzejewski},
  R.~I.} \& \bibinfo{editor}{{Hook}, R.~N.} (eds.)
  \emph{\bibinfo{booktitle}{Astronomical Data Analysis Software and Systems
  XII}}, vol. \bibinfo{volume}{295} of \emph{\bibinfo{series}{Astronomical
  Society of the Pacific Conference Series}}, \bibinfo{pages}{261}
  (\bibinfo{year}{2003}).
"""

#: INSPIRE's @inproceedings with a journal and no booktitle: naturemag prints no venue
#: name, "vol.~21, C07016 (2026)"; the title's last words had been read as the journal
NO_JOURNAL_PRINTED = r"""
\bibitem{Kelleher:2026kbm}
\bibinfo{author}{Kelleher, R.} \& \bibinfo{author}{Vossen, A.}
\newblock \bibinfo{title}{{ML for the hKLM at the 2nd Detector}}.
\newblock vol.~\bibinfo{volume}{21}, \bibinfo{pages}{C07016}
  (\bibinfo{year}{2026}).
\newblock \eprint{2604.08447}.

\bibitem{Villarreal:2025gux}
\bibinfo{author}{Villarreal, J.}, \bibinfo{author}{Woodward, J.},
  \bibinfo{author}{Hardin, J.} \& \bibinfo{author}{Conrad, J.}
\newblock \bibinfo{title}{{Machine Learning-Informed 3+1 Sterile Neutrino
  Global Fits using Posterior Density Estimation of Electron Disappearance
  Data}}.
\newblock vol.~\bibinfo{volume}{86}, \bibinfo{pages}{326}
  (\bibinfo{year}{2025}).
\newblock \eprint{2512.05784}.
"""


@pytest.mark.parametrize("bbl", [SUFFIX_LAST, NO_JOURNAL_PRINTED],
                         ids=["suffix-last", "no-journal-printed"])
def test_real_entries_stay_exact(tmp_path: Path, bbl: str) -> None:
    labels = _labels(tmp_path, bbl)
    assert len(labels) == 2 and {k: v for k, v in labels.items() if v[0] != "EXACT"} == {}


def test_a_wrong_volume_without_journal_is_caught(tmp_path: Path) -> None:
    labels = _labels(tmp_path, NO_JOURNAL_PRINTED.replace("{volume}{21}", "{volume}{12}"))
    assert labels["Kelleher:2026kbm"] == ("MINOR", ["volume"])
