"""``citecheck-tex man``: print the manual page ``citecheck-tex(1)`` in roff.

The page is generated from the commands' argument parsers
(:func:`citecheck_tex.commands.manual.render_manpage`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from citecheck_tex.commands.manual import render_manpage
from citecheck_tex.errors import UsageError


def run() -> str:
    """The manual page as roff text."""
    return render_manpage()


def cli(argv: Sequence[str]) -> int:
    """``citecheck-tex man``: print the page (``| man -l -`` shows it)."""
    args = list(argv)
    if args and args[0] in ("-h", "--help"):
        print("usage: citecheck-tex man   (print the manual page: | man -l -)")
        return 0
    if args:
        raise UsageError(f"man takes no arguments: {args[0]!r}",
                         hint="citecheck-tex man | man -l -")
    sys.stdout.write(run())
    return 0
