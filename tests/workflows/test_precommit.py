"""The pre-commit hook definition matches the CLI contract."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_pre_commit_hook_definition() -> None:
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    (hook,) = hooks
    assert hook["id"] == "citecheck-tex" and hook["entry"] == "citecheck-tex"
    assert hook["language"] == "python" and hook["pass_filenames"] is False
    pattern = re.compile(hook["files"])
    assert all(pattern.search(n) for n in ("paper.tex", "refs.bib", "paper.bbl"))
    assert not any(pattern.search(n) for n in ("fig.pdf", "notes.md", "refs.bib.bak"))
    assert "--fail-on" in hook["args"]
