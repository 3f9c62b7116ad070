"""``citecheck-tex index add FILE... | index stats``: build and inspect the local index."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from citecheck_tex.commands.options import EXIT_OK, EXIT_USAGE, Parser, setup_logging
from citecheck_tex.config import Settings, load_settings
from citecheck_tex.errors import UsageError

if TYPE_CHECKING:
    from citecheck_tex.sources.local_index import ImportStats, IndexStats


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``citecheck-tex index`` (also for completion and the man page)."""
    p = Parser(prog="citecheck-tex index", description="Manage the local offline index.")
    sub = p.add_subparsers(dest="action", required=True, parser_class=Parser)
    add = sub.add_parser("add", help="import BibTeX, DBLP XML, arXiv snapshot, INSPIRE, "
                         "OpenAlex or Crossref JSON lines (gzip ok)")
    add.add_argument("files", nargs="+", metavar="FILE")
    add.add_argument("--index", metavar="PATH")
    add.add_argument("--jobs", type=int, default=0, metavar="N",
                     help="processes parsing each file (default: every core for files of "
                          "8 MiB or more)")
    stats = sub.add_parser("stats", help="counts per source and format")
    stats.add_argument("--index", metavar="PATH")
    return p


def run_add(files: Sequence[Path], settings: Settings, *, jobs: int = 0) -> list[ImportStats]:
    """Import ``files`` into the settings' index; one statistics record per file.

    ``jobs`` processes parse each file (0: every core for large files)."""
    from citecheck_tex.sources import local_index

    for f in files:
        if not f.is_file():
            what = (" is a folder" if f.is_dir() else " is not a regular file (a pipe or a "
                    "device)" if f.exists() else ": no such file")
            raise UsageError(f"{f}{what}", hint="give the dump or BibTeX files to import")
    path = settings.resolved_index_path()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"cannot make the index's folder {path.parent}: "
                         f"{exc.strerror or exc}", hint="give --index another path") from exc

    def show(n: int) -> None:
        if sys.stderr.isatty():
            sys.stderr.write(f"\r  {n:,} records")
            sys.stderr.flush()

    all_stats = local_index.import_files(path, list(files), progress=show, jobs=jobs)
    if sys.stderr.isatty():
        sys.stderr.write("\r")
    return all_stats


def run_stats(settings: Settings) -> IndexStats:
    """The statistics of the settings' index."""
    from citecheck_tex.sources import local_index

    idx = local_index.LocalIndex.open(settings.resolved_index_path(), create=False,
                                      readonly=True)
    try:
        return idx.stats()
    finally:
        idx.close()


def cli(argv: Sequence[str]) -> int:
    """``citecheck-tex index add FILE... | index stats``."""
    from citecheck_tex.sources.local_index import format_stats

    ns = parser().parse_args(list(argv))
    settings = load_settings(Path.cwd(), {"index_path": ns.index})
    setup_logging(settings)
    if ns.action != "add":
        print(format_stats(run_stats(settings)))
        return EXIT_OK
    all_stats = run_add([Path(f) for f in ns.files], settings, jobs=ns.jobs)
    print(format_stats(all_stats))  # lists each file's first problems
    print(f"index: {settings.resolved_index_path()}")
    empty = [st for st in all_stats if not st.records and st.problems]
    if empty:
        names = ", ".join(st.path for st in empty)
        print(f"citecheck-tex: error: nothing imported from {names}: not a BibTeX file, "
              "a DBLP XML dump or a dump of a known format (one JSON record per line; "
              "see docs/local-index.md)", file=sys.stderr)
        return EXIT_USAGE
    return EXIT_OK
