"""Where CI tools expect paths to start: the repository root.

GitHub code scanning (SARIF) and workflow annotations attach to a file only when its
path is relative to the repository root, while the frontend names files relative to
the paper's folder (``refs.bib`` for ``papers/x/refs.bib``). :func:`find_path_root`
finds the root once (I/O: environment and ``git``); :func:`folder_prefix` gives the
prefix that the pure reporters put before the paper-relative names.
"""

from __future__ import annotations

import logging
import os
import subprocess
from pathlib import Path

logger = logging.getLogger(__name__)


def _below(path: Path, root: Path) -> bool:
    try:
        path.resolve().relative_to(root.resolve())
    except ValueError:
        return False
    return True


def git_toplevel(folder: Path) -> Path | None:
    """``git rev-parse --show-toplevel`` run in ``folder``; None without git or a repository."""
    try:
        out = subprocess.run(["git", "rev-parse", "--show-toplevel"], cwd=folder,
                             capture_output=True, text=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return None
    top = out.stdout.strip()
    return Path(top) if out.returncode == 0 and top else None


def find_path_root(project_folder: Path, explicit: str = "") -> Path | None:
    """The folder CI paths are relative to, in order: ``explicit`` (``--path-root``,
    ``path_root``), ``$GITHUB_WORKSPACE`` when the paper is inside it, the git
    repository holding the paper; None when none applies (paths stay paper-relative)."""
    if explicit:
        return Path(explicit).expanduser().resolve()
    workspace = os.environ.get("GITHUB_WORKSPACE", "")
    if workspace and _below(project_folder, Path(workspace)):
        return Path(workspace).resolve()
    return git_toplevel(project_folder)


def folder_prefix(project_folder: Path, root: Path | None) -> str:
    """``project_folder`` relative to ``root`` as a POSIX prefix ending in '/', '' when
    they are the same folder, when ``root`` is None or when the folder is outside it."""
    if root is None:
        return ""
    try:
        rel = project_folder.resolve().relative_to(root.resolve())
    except ValueError:
        logger.debug("%s is outside %s; paths stay relative to the paper", project_folder, root)
        return ""
    text = rel.as_posix()
    return "" if text in ("", ".") else text + "/"
