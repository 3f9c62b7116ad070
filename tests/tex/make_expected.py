"""Regenerate expected.json of a golden case after reviewing its output by hand.

Usage: python -m tests.tex.make_expected CASE_NAME INPUT
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from citecheck_tex.tex.project import load_project
from tests.tex.golden import project_summary

if __name__ == "__main__":
    case = Path(__file__).parent / "cases" / sys.argv[1]
    summary = project_summary(load_project(case / sys.argv[2]))
    out = {"input": sys.argv[2], "expect": summary}
    (case / "expected.json").write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n",
                                        encoding="utf-8")
    print(json.dumps(out, indent=1, ensure_ascii=False))
