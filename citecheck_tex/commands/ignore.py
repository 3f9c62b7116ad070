"""``citecheck-tex ignore KEY... --reason TEXT``: accept references checked by hand.

The ignore file itself (parsing, expiry, how the pipeline applies it) is
:mod:`citecheck_tex.ignore`; this is only the command.
"""

from __future__ import annotations

import argparse
from collections.abc import Mapping, Sequence
from pathlib import Path

from citecheck_tex.errors import UsageError
from citecheck_tex.ignore import add_ignore
from citecheck_tex.model import Entry


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``citecheck-tex ignore`` (also for completion and the man page)."""
    p = argparse.ArgumentParser(prog="citecheck-tex ignore",
                                description="Ignore references until they change.")
    p.add_argument("keys", nargs="+", metavar="KEY")
    p.add_argument("--reason", required=True, help="why the reference is not checked")
    p.add_argument("--in", dest="input", default=".", metavar="INPUT",
                   help="the paper (.tex, its folder, .bib or .bbl); default: this folder")
    return p


def run(input_path: Path, keys: Sequence[str], reason: str) -> list[tuple[Entry, Path]]:
    """Append an ignore line for each of ``keys`` of the paper at ``input_path``; returns
    (entry, ignore file) per key. An unknown key is a usage error (nothing is written)."""
    from citecheck_tex.tex.project import load_project, project_folder

    if not input_path.exists():
        raise UsageError(f"{input_path}: no such file or folder")
    project = load_project(input_path)
    pool: Mapping[str, Entry] = {e.key: e for e in (*project.all_entries, *project.entries)}
    missing = [k for k in keys if k not in pool]
    if missing:
        raise UsageError(f"no entry {missing[0]!r} in {input_path}",
                         hint="give a key of the bibliography")
    return [(pool[key], add_ignore(project_folder(project), pool[key], reason)) for key in keys]


def cli(argv: Sequence[str]) -> int:
    """``citecheck-tex ignore KEY [KEY...] --reason TEXT [--in INPUT]``: append ignore lines."""
    p = parser()
    try:
        ns = p.parse_args(list(argv))
    except SystemExit as exc:  # argparse exits on --help and on errors
        if exc.code == 0:
            return 0
        raise UsageError("bad arguments", hint="see `citecheck-tex ignore --help`") from None
    if not ns.reason.strip():  # the reason is what a co-author reads later
        raise UsageError("--reason is empty", hint="say why the reference is accepted, e.g. "
                         "--reason 'conference talk, checked by hand'")
    for entry, written in run(Path(ns.input), ns.keys, ns.reason):
        print(f"ignored {entry.key} (hash {entry.content_hash}) in {written}")
    return 0
