"""The package version, in a module of its own that imports nothing: every module may
read it without importing the package's public facade (``citecheck_tex/__init__.py``,
which re-exports the library API)."""

from __future__ import annotations

__version__ = "0.1.0"
