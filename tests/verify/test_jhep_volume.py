"""JHEP-style year-issue volumes are a formatting difference, not an error."""

from __future__ import annotations

import pytest

from citecheck_tex.verify.compare import _same_volume


@pytest.mark.parametrize(
    ("cited", "found", "cy", "fy", "same"),
    [
        ("08", "1608", "2016", "2016", True),  # author writes issue, INSPIRE stores YYMM
        ("8", "1608", "2016", "2016", True),
        ("2016", "1608", "2016", "2016", True),  # Springer's volume = year
        ("07", "1608", "2016", "2016", False),  # wrong issue
        ("08", "1708", "2016", "2017", True),  # the record's year explains it
        ("08", "1608", "2015", "2015", False),
        ("B106", "106", "1976", "1976", True),
        ("96", "95", "2017", "2017", False),
        # Crossref/Springer: volume "2016", issue 7; the author writes "JHEP 07 (2016) 069"
        ("07", "2016", "2016", "2016", True),
        ("07", "2016", "2015", "2015", False),  # neither year explains it
        ("13", "2016", "2016", "2016", False),  # no month 13
        ("7", "2016", "2016", "2016", True),
    ],
)
def test_same_volume(cited: str, found: str, cy: str, fy: str, same: bool) -> None:
    assert _same_volume(cited, found, cy, fy) is same
