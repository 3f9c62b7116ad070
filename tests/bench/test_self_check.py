"""bench.accuracy.self_check: a .bib against an index built from itself is all EXACT."""

from __future__ import annotations

from pathlib import Path

from bench.accuracy.self_check import self_check

EXCERPT = Path(__file__).resolve().parents[1] / "names" / "data" / "bib_excerpt.bib"


def test_real_excerpt_checked_against_itself_is_exact(tmp_path: Path) -> None:
    """Eight real entries (Rom\\~ao, 1\\%, {\\"o}, {\\'\\i}, 140 Astropy authors, Van den
    Bussche; tests/names/PROVENANCE.md) come out EXACT against an index of themselves."""
    counts, odd, _ = self_check(EXCERPT, tmp_path)
    assert odd == []
    assert dict(counts) == {"EXACT": 8}
