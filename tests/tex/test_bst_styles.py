"""The .bbl files real BibTeX styles write, checked against the real records.

``bibtex`` (TeX Live) typesets the sample papers' refs.bib with each style below, and
the .bbl is checked offline as a user checks it (``bench.accuracy.bst_styles``, where
every style TeX Live installs is scored). Each style here reads without a false flag
since 2026-12-02; before, plain/unsrt/plainnat gave 4 false flags in 34 faithful
references, abbrv 7, apsrev4-2 2, chicago 23, vancouver 33 (a faithful reference
reported MINOR or MAJOR). The fabricated ones must stay caught.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from bench.accuracy import bst_styles

pytestmark = pytest.mark.skipif(
    shutil.which("bibtex") is None or not bst_styles.BST_ROOT.is_dir(),
    reason="TeX Live (bibtex and its styles) is not installed: apt install texlive-bibtex-extra")

STYLES = ("plain", "unsrt", "alpha", "abbrv", "plainnat", "unsrtnat", "apalike", "apsrev4-2",
          "apsrmp4-2", "aipnum4-2", "ieeetr", "IEEEtran", "siam",
          "elsarticle-harv", "ACM-Reference-Format", "cell", "mnras")


@pytest.fixture(scope="module")
def index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return bst_styles.sample_index(tmp_path_factory.mktemp("bst") / "index.sqlite")


@pytest.mark.parametrize("style", STYLES)
def test_a_style_gives_no_false_flag(index: Path, style: str) -> None:
    (score,) = bst_styles.run([style], index)
    assert not score.failed, score.failed
    assert score.faithful >= 30  # both papers were read
    assert score.false_flags == [], score.false_flags
    assert score.fabricated_caught == score.fabricated
