"""``citecheck-tex INPUT``: check a paper's references and write the reports.

:func:`run` is the check as a typed function (settings in, :class:`CheckRun` out);
:func:`cli` parses the command line, loads the settings and calls it. The other
commands that check (``watch``, ``gate``, the latexmk hook) call :func:`run` or
the pipeline, never this command line.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from citecheck_tex.commands.options import (
    EXIT_INTERRUPTED,
    Parser,
    add_check_options,
    default_out_dir,
    exit_status,
    out_dir_of,
    overrides,
    problem_line,
    setup_logging,
)
from citecheck_tex.config import Settings, load_settings
from citecheck_tex.errors import OutputError, UsageError
from citecheck_tex.model import Project, RunResult
from citecheck_tex.version import __version__

if TYPE_CHECKING:
    from citecheck_tex.pipeline import ProgressCallback, ProgressState


@dataclass(frozen=True, slots=True)
class CheckRun:
    """What one check did: the result, where its reports went and its exit status.

    ``write_error`` is set when a report file could not be written (the result was
    still shown); the command line raises it after showing the result.
    """

    result: RunResult
    out_dir: Path
    written: tuple[Path, ...]
    status: int
    write_error: OutputError | None = None


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``citecheck-tex INPUT`` (also for completion and the man page)."""
    p = Parser(
        prog="citecheck-tex",
        description="Check the references of a LaTeX paper against real scholarly sources. "
        "Subcommands: index add|stats (the offline index), watch (re-check on save), gate "
        "(arXiv pre-submission gate), latexmk-rc (a latexmkrc hook), ignore (accept a "
        "reference you checked by hand), completion bash|zsh (shell completion), man (the "
        "manual page), batch (many papers on Dask); `citecheck-tex SUBCOMMAND --help` for "
        "each.",
    )
    p.add_argument("input", metavar="INPUT",
                   help="a .tex file (or its folder), a project .zip, .bib, .bbl, .txt or .md")
    p.add_argument("--version", action="version", version=f"citecheck-tex {__version__}")
    add_check_options(p)
    return p


def load(input_path: Path, settings: Settings, *, echo: bool = True) -> Project:
    """Load the paper; a paper without any readable bibliography is a usage error.

    With ``echo`` its problems are printed to stderr first and the error points at them
    (the command line); without, nothing is printed and the error's hint holds them
    (the library, :func:`citecheck_tex.check`).
    """
    from citecheck_tex.tex.project import load_project

    if not input_path.exists():
        raise UsageError(f"{input_path}: no such file or folder",
                         hint="give a .tex, .bib, .bbl, .txt or .md file, or a folder")
    project = load_project(input_path, project_root=settings.resolved_project_root())
    if not project.all_entries and not project.entries:
        codes = {p.code for p in project.problems}
        if echo:
            for p in project.problems:
                print(problem_line(p), file=sys.stderr)
        if "missing-file" in codes and "no-bibliography" not in codes:
            missing = "; ".join(problem_line(p) for p in project.problems
                                if p.code == "missing-file")
            raise UsageError(f"{input_path}: no bibliography could be read",
                             hint="see the missing-file line above" if echo else missing)
        if "no-bibliography" in codes or not project.resources:
            raise UsageError(
                f"{input_path}: no bibliography found",
                hint="add \\bibliography{...} or \\addbibresource{...}, or pass the .bib directly",
            )
    return project


def run(input_path: Path, settings: Settings, *, shown_as: str = "") -> CheckRun:
    """Check the paper at ``input_path``: load it, verify its references, write the report
    files, print the terminal and GitHub reports chosen in ``settings``.

    ``shown_as`` names the input in the reports when it is not ``input_path`` itself
    (the .zip a temporary folder was unpacked from). Raises
    :class:`~citecheck_tex.errors.UsageError` for a missing input or bibliography and
    :class:`~citecheck_tex.errors.OutputError` when the report folder is unwritable.
    """
    from citecheck_tex import pipeline
    from citecheck_tex.outfiles import (
        check_out_dir,
        print_stream_reports,
        write_reports,
        writes_files,
    )

    if not input_path.exists():
        raise UsageError(f"{input_path}: no such file or folder",
                         hint="give a .tex, .bib, .bbl, .txt or .md file, or a folder")
    out_dir = out_dir_of(input_path, settings)
    if writes_files(settings):
        # before the run: an unwritable folder must not cost the run (nothing is left
        # behind: the run may still end without reports)
        check_out_dir(out_dir, keep=False)
    project = load(input_path, settings)
    progress: ProgressCallback | None = None
    progress_display = None
    # no progress bar where tools read us (latexmk logs, CI): only on an interactive terminal
    if ("terminal" in settings.formats and not settings.quiet
            and sys.stdout.isatty() and sys.stderr.isatty()):
        from citecheck_tex.report.terminal import Progress

        progress_display = Progress(sys.stderr)

        def progress(st: ProgressState) -> None:
            progress_display.update(st.done, st.total, st.counts, st.slowest)

    # a warning logged during the run starts on a line of its own, not after the bar
    with (progress_display.logging_cleared() if progress_display is not None
          else contextlib.nullcontext()):
        result = pipeline.check(project, settings, progress=progress)
    if shown_as:
        result = replace(result, input=shown_as)
    if progress_display is not None and hasattr(progress_display, "finish"):
        progress_display.finish()
    write_error: OutputError | None = None
    try:
        written = write_reports(result, settings, out_dir)
    except OutputError as exc:  # e.g. the disk filled up: still show the result below
        written, write_error = [], exc
    if "terminal" in settings.formats:
        from citecheck_tex.report.terminal import render_terminal, wants_color

        sys.stdout.write(render_terminal(result, color=wants_color(sys.stdout),
                                         verbose=settings.verbose,
                                         quiet=settings.quiet))
        if written:
            print(f"Reports written to {out_dir}{os.sep}: "
                  + ", ".join(str(p.relative_to(out_dir)) for p in written))
    if "github" in settings.formats:
        from citecheck_tex.report.base import ci_path_prefix
        from citecheck_tex.report.github import render_github

        sys.stdout.write(render_github(result, prefix=ci_path_prefix(result, settings)))
    print_stream_reports(result, settings, sys.stdout)
    status = (EXIT_INTERRUPTED if result.partial == "interrupted"
              else exit_status(result, settings.fail_on))
    return CheckRun(result, out_dir, tuple(written), status, write_error)


def cli(argv: Sequence[str]) -> int:
    """``citecheck-tex INPUT [check options]``: the exit status (see :mod:`citecheck_tex.cli`)."""
    ns = parser().parse_args(list(argv))
    input_path = Path(ns.input)
    if input_path.suffix.lower() == ".zip" and input_path.is_file():
        return _cli_zip(input_path, ns)
    settings = load_settings(input_path if input_path.exists() else Path.cwd(), overrides(ns))
    setup_logging(settings)
    return _status(run(input_path, settings))


def _status(done: CheckRun) -> int:
    if done.write_error is not None:
        raise done.write_error
    return done.status


def _cli_zip(archive: Path, ns: argparse.Namespace) -> int:
    """A project ``.zip`` (e.g. Overleaf's download): checked unpacked in a temporary
    folder (its own settings file applies); the reports go beside the archive unless
    ``--out`` says otherwise."""
    from citecheck_tex.archive import unpacked

    given = overrides(ns)
    given.setdefault("out_dir", str(default_out_dir(archive)))
    with unpacked(archive) as folder:
        settings = load_settings(folder, given)
        setup_logging(settings)
        return _status(run(folder, settings, shown_as=str(archive)))
