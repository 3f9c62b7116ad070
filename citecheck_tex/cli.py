"""Command-line interface: parse flags, load settings, call the library, write files, exit.

::

    citecheck-tex INPUT [--offline] [--index PATH] [--out DIR]
                        [--format terminal,json,html,bib,sarif,github]
                        [--fail-on never|error|major|minor|unverified|warning] ...
    citecheck-tex index add FILE... [--index PATH]
    citecheck-tex index stats [--index PATH]
    citecheck-tex watch INPUT [...]       re-check on save
    citecheck-tex gate DIR [...]          arXiv pre-submission gate
    citecheck-tex latexmk-rc              print a latexmkrc snippet

Exit status: 0 nothing at or above --fail-on, 1 something was, 2 usage or input error.
``sys.exit`` lives only here.
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from citecheck_tex import __version__
from citecheck_tex.config import FAIL_ON_CHOICES, Settings, load_settings
from citecheck_tex.errors import CitecheckError, OutputError, UsageError
from citecheck_tex.model import RunResult

logger = logging.getLogger("citecheck_tex")

EXIT_OK, EXIT_FOUND, EXIT_USAGE = 0, 1, 2
EXIT_INTERRUPTED = 130  # Ctrl-C, after the partial report was written

SUBCOMMANDS = ("index", "watch", "gate", "latexmk-rc", "ignore", "completion", "man")


class _Parser(argparse.ArgumentParser):
    """argparse that raises UsageError instead of exiting."""

    def error(self, message: str) -> Any:
        raise UsageError(message, hint=f"see `{self.prog} --help`")


def _add_check_options(p: argparse.ArgumentParser) -> None:
    p.add_argument("--offline", action="store_true", default=None,
                   help="consult only the local index and the cache (no network)")
    p.add_argument("--index-complete", action="store_true", default=None,
                   help="the local index was built for this paper and holds every work it "
                        "cites: offline, a reference it lacks is MAJOR instead of UNVERIFIED "
                        "(never for a general index such as an INSPIRE or arXiv dump)")
    p.add_argument("--index", metavar="PATH", help="local index (default: $CITECHECK_INDEX, "
                   "else the user data folder)")
    p.add_argument("--cache", metavar="PATH", help="HTTP answer cache (SQLite); 'none' disables")
    p.add_argument("--out", metavar="DIR", help="report folder (default: citecheck-report/ beside INPUT)")
    p.add_argument("--project-root", metavar="DIR",
                   help="folder the paper's files may come from (default: the main file's); "
                   "files read from outside it are reported and their entries not checked")
    p.add_argument("--format", metavar="LIST",
                   help="comma-separated: terminal,json,html,bib,sarif,github "
                   "(default terminal,json,html,bib)")
    p.add_argument("--fail-on", choices=FAIL_ON_CHOICES,
                   help="exit 1 at or above this level: never, error (broken input: undefined "
                   "keys, unreadable, empty or missing .bib), major (default: errors and "
                   "MAJOR), minor, unverified, warning (also unused entries, missing fields)")
    p.add_argument("--path-root", metavar="DIR",
                   help="SARIF and --format github paths are relative to DIR (default: "
                   "$GITHUB_WORKSPACE, else the git repository root, else the paper's folder)")
    p.add_argument("--mailto", help="contact e-mail sent to APIs (polite pools)")
    p.add_argument("--sources", metavar="LIST", help="comma-separated sources to use")
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


def check_parser() -> argparse.ArgumentParser:
    """The argument parser of ``citecheck-tex INPUT`` (also for completion and the man page)."""
    p = _Parser(
        prog="citecheck-tex",
        description="Check the references of a LaTeX paper against real scholarly sources. "
        "Subcommands: index add|stats (the offline index), watch (re-check on save), gate "
        "(arXiv pre-submission gate), latexmk-rc (a latexmkrc hook), ignore (accept a "
        "reference you checked by hand), completion bash|zsh (shell completion), man (the "
        "manual page); `citecheck-tex SUBCOMMAND --help` for each.",
    )
    p.add_argument("input", metavar="INPUT",
                   help="a .tex file (or its folder), a project .zip, .bib, .bbl, .txt or .md")
    p.add_argument("--version", action="version", version=f"citecheck-tex {__version__}")
    _add_check_options(p)
    return p


def _overrides(ns: argparse.Namespace) -> dict[str, Any]:
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
    """0 when nothing at or above ``fail_on`` was found, else 1 (see
    :func:`citecheck_tex.verify.policy.failures`: broken input fails every level but
    ``never``)."""
    from citecheck_tex.verify.policy import failures

    bad, problems = failures(result, fail_on)
    return EXIT_FOUND if bad or problems else EXIT_OK


def default_out_dir(input_path: Path) -> Path:
    """``citecheck-report/`` beside the input (inside it when INPUT is a folder)."""
    base = input_path if input_path.is_dir() else input_path.parent
    return base / "citecheck-report"


#: Formats written as files into the report folder (the others go to stdout).
FILE_FORMATS = frozenset({"json", "html", "bib", "sarif"})


def writes_files(settings: Settings) -> bool:
    """Whether ``settings`` ask for report files (so the folder must be writable)."""
    return bool(FILE_FORMATS & set(settings.formats)) or settings.emit_fixed


def write_reports(result: RunResult, settings: Settings, out_dir: Path) -> list[Path]:
    """Render the file reports chosen in settings into ``out_dir``; returns written paths.

    Each file is replaced atomically; raises :class:`~citecheck_tex.errors.OutputError`
    when one cannot be written.
    """
    from citecheck_tex.outfiles import check_out_dir, write_atomic, write_text_atomic
    from citecheck_tex.report import annotated_bib, html, sarif
    from citecheck_tex.report import json as json_report
    from citecheck_tex.tex.encoding import decode_copy, iter_encode_copy

    written: list[Path] = []
    check_out_dir(out_dir)

    def put(name: str, text: str | Iterable[str]) -> None:
        path = out_dir / name
        write_text_atomic(path, text)  # a full disk leaves the old file, never half a new one
        written.append(path)

    if "json" in settings.formats:
        put("report.json", json_report.iter_json(result))  # streamed: one entry at a time
    if "html" in settings.formats:
        put("report.html", html.render_html(result))
    if "sarif" in settings.formats:
        put("report.sarif", sarif.render_sarif(result, prefix=ci_path_prefix(result, settings)))
    if "bib" in settings.formats or settings.emit_fixed:
        root = project_root(result)
        for bib in _bib_files(result):
            try:
                text, encoding = decode_copy((root / bib).read_bytes())
            except OSError:
                continue
            mine = [v for v in result.verdicts if v.entry.file == bib]
            stem = Path(bib).stem
            copies: list[tuple[str, Iterable[str]]] = []
            if "bib" in settings.formats:  # streamed piece by piece
                copies.append((f"{stem}.annotated.bib",
                               annotated_bib.iter_annotated(text, mine)))
            if settings.emit_fixed:
                copies.append((f"{stem}.fixed.bib", [annotated_bib.render_fixed(text, mine)]))
            for name, copy in copies:  # in the original's encoding (UTF-16 stays UTF-16)
                write_atomic(out_dir / name, iter_encode_copy(copy, encoding))
                written.append(out_dir / name)
    return written


def ci_path_prefix(result: RunResult, settings: Settings) -> str:
    """The paper's folder relative to the repository root (``--path-root``,
    ``$GITHUB_WORKSPACE`` or ``git rev-parse --show-toplevel``), for SARIF and GitHub
    annotation paths; '' when the paper is at the root or no root is found."""
    from citecheck_tex.repo import find_path_root, folder_prefix

    folder = project_root(result)
    return folder_prefix(folder, find_path_root(folder, settings.path_root))


def project_root(result: RunResult) -> Path:
    """The folder entry and site file names are relative to (the main file's)."""
    from citecheck_tex.ignore import project_folder

    return project_folder(result.project)


def _bib_files(result: RunResult) -> list[str]:
    files: list[str] = []
    for e in result.project.all_entries:
        # a file outside the project (outside-project) is never copied into the reports
        if e.file.endswith(".bib") and e.file not in files and not e.outside_project:
            files.append(e.file)
    return files


def run_check(argv: Sequence[str], *, shown_as: str = "") -> int:
    """``citecheck-tex INPUT ...``; ``shown_as`` names the input in the reports when it is
    not INPUT itself (the .zip a temporary folder was unpacked from)."""
    ns = check_parser().parse_args(argv)
    input_path = Path(ns.input)
    if input_path.suffix.lower() == ".zip" and input_path.is_file():
        return _run_check_zip(input_path, list(argv), ns)
    settings = load_settings(input_path if input_path.exists() else Path.cwd(), _overrides(ns))
    _setup_logging(settings)
    from citecheck_tex import pipeline
    from citecheck_tex.tex.project import load_project

    if not input_path.exists():
        raise UsageError(f"{input_path}: no such file or folder",
                         hint="give a .tex, .bib, .bbl, .txt or .md file, or a folder")
    out_dir = Path(settings.out_dir) if settings.out_dir else default_out_dir(input_path)
    if writes_files(settings):
        from citecheck_tex.outfiles import check_out_dir

        # before the run: an unwritable folder must not cost the run (nothing is left
        # behind: the run may still end without reports)
        check_out_dir(out_dir, keep=False)
    project = load_project(input_path, project_root=settings.resolved_project_root())
    if not project.all_entries and not project.entries:
        codes = {p.code for p in project.problems}
        for p in project.problems:
            print(_problem_line(p), file=sys.stderr)
        if "missing-file" in codes and "no-bibliography" not in codes:
            raise UsageError(f"{input_path}: no bibliography could be read",
                             hint="see the missing-file line above")
        if "no-bibliography" in codes or not project.resources:
            raise UsageError(
                f"{input_path}: no bibliography found",
                hint="add \\bibliography{...} or \\addbibresource{...}, or pass the .bib directly",
            )
    progress: pipeline.ProgressCallback | None = None
    # no progress bar where tools read us (latexmk logs, CI): only on an interactive terminal
    if ("terminal" in settings.formats and not settings.quiet
            and sys.stdout.isatty() and sys.stderr.isatty()):
        from citecheck_tex.report.terminal import Progress

        progress_display = Progress(sys.stderr)

        def progress(st: pipeline.ProgressState) -> None:
            progress_display.update(st.done, st.total, st.counts, st.slowest)

    result = pipeline.check(project, settings, progress=progress)
    if shown_as:
        from dataclasses import replace

        result = replace(result, input=shown_as)
    if progress is not None and hasattr(progress_display, "finish"):
        progress_display.finish()
    write_error: OutputError | None = None
    try:
        written = write_reports(result, settings, out_dir)
    except OutputError as exc:  # e.g. the disk filled up: still show the result below
        written, write_error = [], exc
    if "terminal" in settings.formats:
        from citecheck_tex.report.terminal import render_terminal

        color = sys.stdout.isatty() and "NO_COLOR" not in os.environ
        sys.stdout.write(render_terminal(result, color=color, verbose=settings.verbose,
                                         quiet=settings.quiet))
        if written:
            print(f"Reports written to {out_dir}{os.sep}: " + ", ".join(p.name for p in written))
    if "github" in settings.formats:
        from citecheck_tex.report.github import render_github

        sys.stdout.write(render_github(result, prefix=ci_path_prefix(result, settings)))
    if write_error is not None:
        raise write_error
    if result.partial == "interrupted":
        return EXIT_INTERRUPTED
    return exit_status(result, settings.fail_on)


def _run_check_zip(archive: Path, argv: list[str], ns: argparse.Namespace) -> int:
    """A project ``.zip`` (e.g. Overleaf's download): checked unpacked in a temporary
    folder; the reports go beside the archive unless ``--out`` says otherwise."""
    from citecheck_tex.archive import unpacked

    rest = list(argv)
    rest.remove(ns.input)
    if ns.out is None:
        rest += ["--out", str(default_out_dir(archive))]
    with unpacked(archive) as folder:
        return run_check([str(folder), *rest], shown_as=str(archive))


def _problem_line(p: Any) -> str:
    from citecheck_tex.report.controls import strip_controls

    where = f"{p.file}:{p.line}: " if p.file and p.line else (f"{p.file}: " if p.file else "")
    return strip_controls(f"{where}{p.code}: {p.message}")


def index_parser() -> argparse.ArgumentParser:
    """The argument parser of ``citecheck-tex index`` (also for completion and the man page)."""
    p = _Parser(prog="citecheck-tex index", description="Manage the local offline index.")
    sub = p.add_subparsers(dest="action", required=True, parser_class=_Parser)
    add = sub.add_parser("add", help="import BibTeX, arXiv snapshot, INSPIRE, OpenAlex or "
                         "Crossref JSON lines (gzip ok)")
    add.add_argument("files", nargs="+", metavar="FILE")
    add.add_argument("--index", metavar="PATH")
    stats = sub.add_parser("stats", help="counts per source and format")
    stats.add_argument("--index", metavar="PATH")
    return p


def run_index(argv: Sequence[str]) -> int:
    """``citecheck-tex index add FILE... | index stats``."""
    ns = index_parser().parse_args(argv)
    settings = load_settings(Path.cwd(), {"index_path": ns.index})
    _setup_logging(settings)
    from citecheck_tex.sources import local_index

    path = settings.resolved_index_path()
    if ns.action == "add":
        files = [Path(f) for f in ns.files]
        missing = [f for f in files if not f.is_file()]
        if missing:
            raise UsageError(f"{missing[0]}: no such file", hint="give files to import")
        path.parent.mkdir(parents=True, exist_ok=True)

        def show(n: int) -> None:
            if sys.stderr.isatty():
                sys.stderr.write(f"\r  {n:,} records")
                sys.stderr.flush()

        all_stats = local_index.import_files(path, files, progress=show)
        if sys.stderr.isatty():
            sys.stderr.write("\r")
        print(local_index.format_stats(all_stats))  # lists each file's first problems
        print(f"index: {path}")
        empty = [st for st in all_stats if not st.records and st.problems]
        if empty:
            names = ", ".join(st.path for st in empty)
            print(f"citecheck-tex: error: nothing imported from {names}: not a BibTeX file or "
                  "a dump of a known format (one JSON record per line; see "
                  "docs/local-index.md)", file=sys.stderr)
            return EXIT_USAGE
        return EXIT_OK
    idx = local_index.LocalIndex.open(path, create=False, readonly=True)
    try:
        print(local_index.format_stats(idx.stats()))
    finally:
        idx.close()
    return EXIT_OK


def _setup_logging(settings: Settings) -> None:
    from citecheck_tex.redact import install_filter

    level = logging.DEBUG if settings.verbose else logging.WARNING
    logging.basicConfig(level=level, format="%(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:  # every record, from any logger: no secrets
        install_filter(handler)


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``citecheck-tex`` console script."""
    args = list(sys.argv[1:] if argv is None else argv)
    try:
        if args and args[0] == "index":
            return run_index(args[1:])
        if args and args[0] == "watch":
            from citecheck_tex import watch

            return watch.main(args[1:])
        if args and args[0] == "gate":
            from citecheck_tex import gate

            return gate.main(args[1:])
        if args and args[0] == "ignore":
            from citecheck_tex import ignore

            return ignore.main(args[1:])
        if args and args[0] == "latexmk-rc":
            from citecheck_tex import latexmk

            return latexmk.main(args[1:])
        if args and args[0] in ("completion", "man"):
            from citecheck_tex import manual

            return manual.main(args[1:], command=args[0])
        return run_check(args)
    except CitecheckError as exc:
        print(f"citecheck-tex: error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        print("citecheck-tex: interrupted", file=sys.stderr)
        return EXIT_INTERRUPTED
    except Exception as exc:  # a bug: one line by default, the traceback with --verbose
        if "-v" in args or "--verbose" in args:
            raise
        print(f"citecheck-tex: internal error: {type(exc).__name__}: {exc} "
              "(re-run with --verbose for the traceback and please report it)", file=sys.stderr)
        return EXIT_USAGE
