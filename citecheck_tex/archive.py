"""A project downloaded as a ``.zip`` (Overleaf's "Download source", an arXiv source
archive repacked, a colleague's e-mail) checked without unpacking it by hand.

:func:`unpacked` extracts the archive into a temporary folder that lives as long as the
``with`` block, refusing what a hostile archive could do: members outside the folder
(``../``, absolute paths), links, and more than :data:`MAX_FILES` files or
:data:`MAX_BYTES` bytes unpacked. A single top folder (``paper/...``) is entered.
The user's archive is only read.
"""

from __future__ import annotations

import logging
import shutil
import stat
import tempfile
import zipfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath

from citecheck_tex.errors import InputError

logger = logging.getLogger(__name__)

#: Limits of what an archive may unpack to (a LaTeX project is far smaller).
MAX_FILES = 20_000
MAX_BYTES = 1 << 30  # 1 GiB

_SKIP = ("__MACOSX/",)


def _member_path(name: str) -> PurePosixPath | None:
    """The member's relative path, or None when it would leave the folder."""
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or (path.parts and ":" in path.parts[0]):
        return None
    return path


def extract_project(archive: Path, dest: Path) -> Path:
    """Unpack ``archive`` into ``dest`` and return the project folder (``dest``, or its
    single top folder). Raises :class:`InputError` for an unreadable or unsafe archive."""
    try:
        zf = zipfile.ZipFile(archive)
    except (OSError, zipfile.BadZipFile) as exc:
        raise InputError(f"{archive}: not a readable .zip archive ({exc})",
                         hint="download the project again, or unpack it and give the folder"
                         ) from exc
    with zf:
        members = [m for m in zf.infolist() if not m.filename.startswith(_SKIP)]
        if len(members) > MAX_FILES:
            raise InputError(f"{archive}: {len(members)} files, more than {MAX_FILES:,}",
                             hint="unpack it and give the paper's folder")
        total = sum(m.file_size for m in members)
        if total > MAX_BYTES:
            raise InputError(f"{archive}: unpacks to {total:,} bytes, more than {MAX_BYTES:,}",
                             hint="unpack it and give the paper's folder")
        for m in members:
            rel = _member_path(m.filename)
            if rel is None:
                raise InputError(f"{archive}: member {m.filename!r} points outside the archive",
                                 hint="refusing to unpack it; unpack it yourself and check")
            if stat.S_ISLNK(m.external_attr >> 16):
                logger.debug("skipping link %s", m.filename)
                continue
            target = dest.joinpath(*rel.parts)
            if m.is_dir():
                target.mkdir(parents=True, exist_ok=True)
                continue
            target.parent.mkdir(parents=True, exist_ok=True)
            try:
                with zf.open(m) as src, target.open("wb") as out:
                    shutil.copyfileobj(src, out)
            except (OSError, zipfile.BadZipFile, RuntimeError) as exc:  # encrypted, corrupt
                raise InputError(f"{archive}: cannot unpack {m.filename!r} ({exc})",
                                 hint="unpack it and give the paper's folder") from exc
    entries = [p for p in dest.iterdir() if p.name != "__MACOSX"]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return dest


@contextmanager
def unpacked(archive: Path) -> Iterator[Path]:
    """The project folder of ``archive``, unpacked for the duration of the block."""
    with tempfile.TemporaryDirectory(prefix="citecheck-zip-") as tmp:
        yield extract_project(archive, Path(tmp))
