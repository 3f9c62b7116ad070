"""Command-line interface: a dispatcher to the commands in :mod:`citecheck_tex.commands`.

::

    citecheck-tex INPUT [--offline] [--index PATH] [--out DIR]
                        [--format terminal,json,html,bib,sarif,github]
                        [--fail-on never|error|major|minor|unverified|warning] ...
    citecheck-tex index add FILE... [--index PATH]
    citecheck-tex index stats [--index PATH]
    citecheck-tex watch INPUT [...]       re-check on save
    citecheck-tex gate DIR [...]          arXiv pre-submission gate
    citecheck-tex latexmk-rc              print a latexmkrc snippet
    citecheck-tex ignore KEY... --reason TEXT
    citecheck-tex completion bash|zsh     shell completion
    citecheck-tex man                     the manual page
    citecheck-tex batch INPUT... [...]    many papers on Dask (docs/batch.md)

Exit status: 0 nothing at or above --fail-on, 1 something was, 2 usage or input error,
130 interrupted. Each command's ``cli(argv)`` returns it; ``sys.exit`` lives only in
``__main__`` and the console script, which call :func:`main`.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os
import sys
from collections.abc import Sequence

from citecheck_tex.commands.options import EXIT_INTERRUPTED, EXIT_USAGE
from citecheck_tex.errors import CitecheckError

logger = logging.getLogger("citecheck_tex")

#: Subcommand -> the module in :mod:`citecheck_tex.commands` that runs it; anything
#: else is the check's INPUT.
COMMANDS: dict[str, str] = {
    "index": "index",
    "watch": "watch",
    "gate": "gate",
    "latexmk-rc": "latexmk",
    "ignore": "ignore",
    "completion": "completion",
    "man": "man",
    "batch": "batch",
}


#: The exit status of a command whose output pipe closed (128 + SIGPIPE, as a shell
#: reports a program the signal ended).
EXIT_BROKEN_PIPE = 141


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``citecheck-tex`` console script: run the command, return its
    exit status; errors become one line on stderr (exit 2), never a traceback."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        name = COMMANDS.get(args[0], "") if args else ""
        module = importlib.import_module(f"citecheck_tex.commands.{name or 'check'}")
        status: int = module.cli(args[1:] if name else args)
        return status
    except CitecheckError as exc:
        print(f"citecheck-tex: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("citecheck-tex: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # the reader of our output left (`citecheck-tex index stats | head`): nothing is
        # wrong and nothing more can be said to it; Python's own flush at exit must not
        # fail again on the closed pipe
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # a bug: one line by default, the traceback with --verbose
        if "-v" in args or "--verbose" in args:
            raise
        print(f"citecheck-tex: internal error: {type(exc).__name__}: {exc} "
              "(re-run with --verbose for the traceback and please report it)", file=sys.stderr)
        return EXIT_USAGE
