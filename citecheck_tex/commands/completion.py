"""``citecheck-tex completion bash|zsh``: print a shell completion script.

The script is generated from the commands' argument parsers
(:func:`citecheck_tex.commands.manual.render_completion`).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from citecheck_tex.commands.manual import render_completion

USAGE = ("usage: citecheck-tex completion {bash,zsh}\n"
         "  bash: source <(citecheck-tex completion bash)   (or save it in "
         "~/.local/share/bash-completion/completions/citecheck-tex)\n"
         "  zsh:  source <(citecheck-tex completion zsh)")


def run(shell: str) -> str:
    """The completion script for ``shell``; an unknown shell is a usage error."""
    return render_completion(shell)


def cli(argv: Sequence[str]) -> int:
    """``citecheck-tex completion SHELL``: print the script (usage without a shell)."""
    args = list(argv)
    if not args or args[0] in ("-h", "--help"):
        print(USAGE)
        return 0 if args else 2
    sys.stdout.write(run(args[0]))
    return 0
