"""The terminal report fills the terminal's width (COLUMNS), as its help promises.

Found 2026-12-02: the detail of a line was cut at 90 characters whatever the width, so a
wide terminal hid which fields differ ("...; pages: 043542 → 043541; doi: …").
"""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex.cli import main

WRONG = ("[1] L. Hui, J. P. Ostrikerson, S. Tremainesson, and E. Wittenberger, \"Ultralight "
         "scalars as cosmological dark matter\", Phys. Rev. D 96, 043542 (2018).\n")


def _minor_line(tmp_path: Path, index: Path, columns: int, monkeypatch: pytest.MonkeyPatch,
                capsys: pytest.CaptureFixture[str]) -> str:
    monkeypatch.setenv("COLUMNS", str(columns))
    source = tmp_path / f"refs{columns}.txt"
    source.write_text(WRONG, encoding="utf-8")
    main([str(source), "--offline", "--index", str(index), "--cache", "none", "--format",
          "terminal", "--fail-on", "never"])
    (line,) = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("MINOR")]
    return line


def test_the_detail_uses_a_wide_terminal(tmp_path: Path, index: Path,
                                         monkeypatch: pytest.MonkeyPatch,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    narrow = _minor_line(tmp_path, index, 80, monkeypatch, capsys)
    wide = _minor_line(tmp_path, index, 220, monkeypatch, capsys)
    assert len(wide) <= 220
    assert len(wide) > len(narrow)
    assert "pages: 043542" in wide and "pages: 043542" not in narrow
