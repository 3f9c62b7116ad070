"""Rewrite the code tables of docs/codes.md and README.md and the code enums of
docs/report.schema.json from citecheck_tex.model (run after adding a code):

    .venv/bin/python docs/gen_codes.py

tests/test_codes.py fails while they disagree with the model.
"""

from __future__ import annotations

import json
import re
import textwrap
from pathlib import Path

from citecheck_tex.model import DiscrepancyCode, VerdictCode

ROOT = Path(__file__).resolve().parents[1]


def verdict_table() -> str:
    """The verdict-code table (code, label, meaning) in Markdown."""
    rows = [f"| `{c.value}` | {c.label.value} | {c.meaning} |" for c in VerdictCode]
    return "| code | label | meaning |\n|---|---|---|\n" + "\n".join(rows) + "\n"


def discrepancy_table() -> str:
    """The discrepancy-code table (code, meaning) in Markdown."""
    rows = [f"| `{c.value}` | {c.meaning} |" for c in DiscrepancyCode]
    return "| code | meaning |\n|---|---|\n" + "\n".join(rows) + "\n"


def _enum_block(name: str, values: list[str]) -> str:
    items = ", ".join(json.dumps(v) for v in values)
    lines = textwrap.wrap(items, width=86, break_on_hyphens=False, break_long_words=False)
    return f'    "{name}": {{"enum": [\n' + "\n".join("      " + ln for ln in lines) + "\n    ]},"


def main() -> None:
    """Rewrite the three files in place."""
    verdict_re = re.compile(r"\| code \| label \| meaning \|\n\|---\|---\|---\|\n(?:\| `.*\n)+")
    disc_re = re.compile(r"\| code \| meaning \|\n\|---\|---\|\n(?:\| `.*\n)+")
    for name in ("docs/codes.md", "README.md"):
        path = ROOT / name
        text = verdict_re.sub(lambda _: verdict_table(), path.read_text("utf-8"))
        text = disc_re.sub(lambda _: discrepancy_table(), text)
        path.write_text(text, "utf-8")
    path = ROOT / "docs" / "report.schema.json"
    text = path.read_text("utf-8")
    for name, enum in (("verdict_code", VerdictCode), ("discrepancy_code", DiscrepancyCode)):
        block = _enum_block(name, [c.value for c in enum])
        text = re.sub(rf'    "{name}": \{{"enum": \[.*?\]\}},', lambda _, b=block: b, text,
                      flags=re.S)
    json.loads(text)
    path.write_text(text, "utf-8")


if __name__ == "__main__":
    main()
