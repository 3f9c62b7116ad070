"""What the commands share: the argument parser class, the check options, their
settings overrides, the report folder default, logging and the exit codes.

Every command that runs a check (``check``, ``watch``, ``gate``, ``latexmk-rc``)
takes the same options through :func:`add_check_options` and turns them into
settings overrides with :func:`overrides`.
"""

from __future__ import annotations

import argparse
import logging
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck_tex.config import FAIL_ON_CHOICES
from citecheck_tex.errors import UsageError

if TYPE_CHECKING:
    from citecheck_tex.config import Settings
    from citecheck_tex.model import Problem, RunResult

#: Exit statuses: nothing at or above --fail-on, something was, usage or input error.
EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
#: Ctrl-C, after the partial report was written.
EXIT_INTERRUPTED = 130


class Parser(argparse.ArgumentParser):
    """argparse that raises :class:`~citecheck_tex.errors.UsageError` instead of exiting."""

    def error(self, message: str) -> Any:
        """Raise the usage error (``main`` prints it and exits 2)."""
        raise UsageError(message, hint=f"see `{self.prog} --help`")


def add_check_options(p: argparse.ArgumentParser, *, out_help: str = "",
                      format_help: str = "") -> None:
    """Add the options of a check (``--offline``, ``--format``, ``--fail-on`` ...) to ``p``
    (``out_help``/``format_help``: another text for ``--out``/``--format``)."""
    p.add_argument("--offline", action="store_true", default=None,
                   help="consult only the local index and the cache (no network)")
    p.add_argument("--index-complete", action="store_true", default=None,
                   help="the local index was built for this paper and holds every work it "
                        "cites: offline, a reference it lacks is MAJOR instead of UNVERIFIED "
                        "(never for a general index such as an INSPIRE or arXiv dump)")
    p.add_argument("--index", metavar="PATH", help="local index (default: $CITECHECK_INDEX, "
                   "else the user data folder)")
    p.add_argument("--cache", metavar="PATH|URL",
                   help="answer cache: an SQLite file, redis://HOST:PORT/DB (one Redis server "
                        "shared by many processes), or 'none'")
    p.add_argument("--out", metavar="DIR",
                   help=out_help or "report folder (default: citecheck-report/ beside INPUT)")
    p.add_argument("--project-root", metavar="DIR",
                   help="folder the paper's files may come from (default: the git repository "
                   "holding the paper, else the main file's folder); "
                   "files read from outside it are reported and their entries not checked")
    p.add_argument("--format", metavar="LIST",
                   help=format_help or "comma-separated: terminal,json,html,bib,sarif,github "
                   "(default terminal,json,html,bib), or an installed plugin format "
                   "(docs/api.md)")
    p.add_argument("--fail-on", choices=FAIL_ON_CHOICES,
                   help="exit 1 at or above this level: never, error (broken input: undefined "
                   "keys, unreadable, empty or missing .bib), major (default: errors and "
                   "MAJOR), minor, unverified, warning (also unused entries, missing fields)")
    p.add_argument("--path-root", metavar="DIR",
                   help="SARIF and --format github paths are relative to DIR (default: "
                   "$GITHUB_WORKSPACE, else the git repository root, else the paper's folder)")
    p.add_argument("--mailto", help="contact e-mail sent to APIs (polite pools)")
    p.add_argument("--sources", metavar="LIST",
                   help="comma-separated sources to use: built-in ones or installed plugin "
                   "sources (docs/api.md)")
    p.add_argument("--refresh", action="store_true", default=None, help="bypass cached answers")
    p.add_argument("--emit-fixed", action="store_true", default=None,
                   help="also write <name>.fixed.bib with MINOR corrections applied")
    p.add_argument("--llm", choices=("off", "judge", "fallback", "review"),
                   help="consult an LLM (pip install 'citecheck-tex[llm]'); see docs/llm.md")
    p.add_argument("--llm-model", help="model name on the OpenAI-compatible server")
    p.add_argument("--llm-base-url",
                   help="OpenAI-compatible base URL, e.g. http://localhost:11434/v1")
    p.add_argument("--web-search", action="store_true", default=None,
                   help="last-resort LLM web search for references no source found "
                   "(needs --llm-model; see docs/llm.md)")
    p.add_argument("--web-search-tool", choices=("none", "chat", "responses"),
                   help="how the LLM searches: none (its own knowledge, default), chat "
                   "(web_search_options), responses (Responses API web_search tool)")
    p.add_argument("--quiet", "-q", action="store_true", default=None, help="only the summary")
    p.add_argument("--verbose", "-v", action="store_true", default=None,
                   help="every entry and source attempt")


def overrides(ns: argparse.Namespace) -> dict[str, Any]:
    """The settings the check options of ``ns`` override (options not given are left out)."""
    o: dict[str, Any] = {
        "offline": ns.offline,
        "index_complete": ns.index_complete,
        "index_path": ns.index,
        "cache_path": ns.cache,
        "out_dir": ns.out,
        "project_root": ns.project_root,
        "formats": ns.format,
        "fail_on": ns.fail_on,
        "mailto": ns.mailto,
        "path_root": ns.path_root,
        "sources": ns.sources,
        "refresh": ns.refresh,
        "emit_fixed": ns.emit_fixed,
        "quiet": ns.quiet,
        "verbose": ns.verbose,
        "llm_mode": ns.llm,
        "llm_model": ns.llm_model,
        "llm_base_url": ns.llm_base_url,
        "web_search": ns.web_search,
        "web_search_tool": ns.web_search_tool,
    }
    return {k: v for k, v in o.items() if v is not None}


def exit_status(result: RunResult, fail_on: str) -> int:
    """0 when nothing at or above ``fail_on`` was found, else 1 (the policy is
    :func:`citecheck_tex.verify.policy.fails`: broken input fails every level but
    ``never``)."""
    from citecheck_tex.verify.policy import fails

    return EXIT_FOUND if fails(result, fail_on) else EXIT_OK


def default_out_dir(input_path: Path) -> Path:
    """``citecheck-report/`` beside the input (inside it when INPUT is a folder)."""
    base = input_path if input_path.is_dir() else input_path.parent
    return base / "citecheck-report"


def out_dir_of(input_path: Path, settings: Settings) -> Path:
    """The report folder: ``--out`` (``out_dir``), else :func:`default_out_dir`."""
    return Path(settings.out_dir) if settings.out_dir else default_out_dir(input_path)


def setup_logging(settings: Settings) -> None:
    """Log warnings (everything with ``--verbose``) to stderr, secrets redacted."""
    from citecheck_tex.redact import install_filter

    level = logging.DEBUG if settings.verbose else logging.WARNING
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:  # every record, from any logger: no secrets
        install_filter(handler)


def problem_line(p: Problem) -> str:
    """One problem as ``file:line: code: message`` (control characters dropped)."""
    from citecheck_tex.report.controls import strip_controls

    where = f"{p.file}:{p.line}: " if p.file and p.line else (f"{p.file}: " if p.file else "")
    return strip_controls(f"{where}{p.code}: {p.message}")
