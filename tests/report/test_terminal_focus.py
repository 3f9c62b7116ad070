"""Long discrepancies stay readable: the terminal shows where the values differ."""

from __future__ import annotations

from citecheck_tex.report.terminal import focus_difference


def test_short_values_unchanged() -> None:
    assert focus_difference("1209.1853", "1209.1835", 28) == ("1209.1853", "1209.1835")


def test_long_values_show_the_difference() -> None:
    a = "10.1103/physrevlett.111.181302"
    b = "10.1103/physrevlett.111.181303"
    x, y = focus_difference(a, b, 12)
    assert x != y
    assert x.endswith("2") and y.endswith("3")
    assert x.startswith("…")


def test_long_author_lists_differing_late() -> None:
    a = "Dobrynina, Alexandra and Kartavtsev, Alexander and Raffelt, Georg"
    b = "Dobrynina, Alexandra and Kartavtsev, Alexander and Raffelt, G."
    x, y = focus_difference(a, b, 20)
    assert "Raff" in x and "Raff" in y
