"""``citecheck-tex batch INPUT...``: check many papers on Dask distributed.

:func:`run` is the batch as a typed function (inputs and settings in,
:class:`~citecheck_tex.batch.runner.BatchRun` out); :func:`cli` parses the command line,
loads the settings (from the current folder's configuration, the environment and the
options: a paper's own ``citecheck.toml`` does not apply, a submission must not
choose how it is checked) and prints the progress and the summary. See
:mod:`citecheck_tex.batch` and docs/batch.md.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from citecheck_tex.commands.options import Parser, add_check_options, overrides, setup_logging
from citecheck_tex.config import Settings, load_settings
from citecheck_tex.errors import UsageError

#: The batch's output folder unless --out says otherwise (in the current folder).
DEFAULT_OUT = "citecheck-batch"

if TYPE_CHECKING:  # without importing Dask at start-up
    from citecheck_tex.batch.runner import BatchOptions, BatchRun


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``citecheck-tex batch`` (also for completion and the man page)."""
    p = Parser(
        prog="citecheck-tex batch",
        description="Check many papers at once on Dask distributed: a LocalCluster on this "
        "machine by default, or an existing cluster with --scheduler. Each paper's "
        "report.json goes to OUT/papers/NAME/; OUT/references.parquet and "
        "OUT/references.jsonl hold one row per reference, OUT/summary.json the labels per "
        "paper. A paper checked before, unchanged, with the same settings, is not checked "
        "again. Needs pip install 'citecheck-tex[batch]'.",
    )
    p.add_argument("inputs", nargs="*", metavar="INPUT",
                   help="a folder of papers (paper folders, arXiv .tar.gz, .zip, .tex, .bib, "
                   ".bbl, .txt), a paper folder, one such file, or a manifest (*.manifest, "
                   "manifest.txt: one path per line)")
    p.add_argument("--manifest", action="append", default=[], metavar="FILE",
                   help="a file listing one paper path per line (repeatable)")
    p.add_argument("--workers", type=int, default=0, metavar="N",
                   help="worker processes of the local cluster (default: one per core)")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on an existing Dask cluster (e.g. tcp://host:8786, started with "
                   "`dask scheduler` and `dask worker ADDRESS`) instead of a local one")
    p.add_argument("--paper-timeout", type=float, default=600.0, metavar="SECONDS",
                   help="a paper still running after this long is listed as failed "
                   "(default 600; 0: no limit)")
    p.add_argument("--no-dashboard", action="store_true",
                   help="start no Dask dashboard for the local cluster (default: on port 8787, "
                   "or a free one, when bokeh is installed)")
    p.add_argument("--no-resume", action="store_true",
                   help="check every paper again, also those an earlier batch checked unchanged")
    add_check_options(p, out_help=f"output folder (default: ./{DEFAULT_OUT})",
                      format_help="per-paper report files, comma-separated: json,html,bib,sarif "
                      "(default json; report.json is always written)")
    return p


def run(inputs: Sequence[Path], settings: Settings, options: BatchOptions | None = None, *,
        manifests: Sequence[Path] = (), out_dir: Path | None = None,
        show: bool = False) -> BatchRun:
    """Discover the papers of ``inputs`` (and ``manifests``), check them on Dask, write
    the outputs into ``out_dir`` (default ``settings.out_dir``, else ./citecheck-batch).

    With ``show`` the progress line (on stderr) and Dask's dashboard link are printed.
    Raises :class:`~citecheck_tex.errors.UsageError` when there is nothing to check,
    Dask is missing or the scheduler cannot be reached.
    """
    from citecheck_tex.batch.inputs import discover
    from citecheck_tex.batch.runner import run_batch
    from citecheck_tex.batch.summary import ProgressLine

    out = out_dir or Path(settings.out_dir or DEFAULT_OUT)
    papers = discover(list(inputs), manifests=list(manifests), exclude=[out])
    if not papers:
        raise UsageError("no papers found in " + ", ".join(str(p) for p in inputs),
                         hint="give paper folders, a folder of papers, .tar.gz/.zip archives, "
                         ".tex/.bib/.bbl/.txt files or a manifest")
    display = ProgressLine(sys.stderr) if show else None

    def started(workers: int, dashboard: str) -> None:
        if show:
            where = "the Dask cluster" if options and options.scheduler else "a local cluster"
            print(f"citecheck-tex batch: {len(papers)} papers on {where} of {workers} "
                  "worker(s)" + (f"; dashboard: {dashboard}" if dashboard else ""),
                  file=sys.stderr, flush=True)

    try:
        return run_batch(papers, settings, out, options,
                         progress=display.update if display else None, started=started)
    finally:
        if display is not None:
            display.finish()


def _quiet_dask() -> None:
    """Dask logs every start and stop of its scheduler and workers at INFO: only its
    warnings are shown (``--verbose`` shows everything). Its loggers get their levels
    when it is imported, so it is imported first."""
    try:
        import distributed  # noqa: F401 - sets up its loggers
    except ImportError:  # the batch says what to install
        return
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] == "distributed"]
    for name in ["distributed", *names]:
        logging.getLogger(name).setLevel(logging.WARNING)


def cli(argv: Sequence[str]) -> int:
    """``citecheck-tex batch INPUT... [options]``: the exit status (as ``check``'s: 0, 1
    when a paper fails at --fail-on or could not be checked, 2 usage error, 130
    interrupted)."""
    from citecheck_tex.batch.runner import BatchOptions
    from citecheck_tex.batch.summary import render_summary

    ns = parser().parse_args(list(argv))
    if not ns.inputs and not ns.manifest:
        raise UsageError("no input", hint="give a folder of papers, archives, files or "
                         "--manifest FILE")
    given = overrides(ns)
    if ns.format is None:
        given["formats"] = "json"
    settings = load_settings(Path.cwd(), given)
    setup_logging(settings)
    if not settings.verbose:
        _quiet_dask()
    if ns.workers < 0 or ns.paper_timeout < 0:
        raise UsageError("--workers and --paper-timeout must not be negative")
    options = BatchOptions(workers=ns.workers, scheduler=ns.scheduler or "",
                           paper_timeout_s=ns.paper_timeout, resume=not ns.no_resume,
                           dashboard=not ns.no_dashboard)
    done = run([Path(p) for p in ns.inputs], settings, options,
               manifests=[Path(m) for m in ns.manifest], show=not settings.quiet)
    sys.stdout.write(render_summary(done, fail_on=settings.fail_on, verbose=settings.verbose,
                                    quiet=settings.quiet))
    return done.status
