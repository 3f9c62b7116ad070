"""citecheck-tex: check the references of a LaTeX paper against real scholarly sources."""

from __future__ import annotations

__version__ = "0.1.0"
