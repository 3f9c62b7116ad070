"""``python -m citecheck_tex``."""

from __future__ import annotations

from citecheck_tex.cli import main

if __name__ == "__main__":
    raise SystemExit(main())
