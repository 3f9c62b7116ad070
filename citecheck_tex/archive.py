"""A project downloaded as an archive checked without unpacking it by hand: a ``.zip``
(Overleaf's "Download source", a colleague's e-mail) or an arXiv source download
(``.tar.gz``, or a single gzipped ``.tex`` as arXiv serves one-file submissions).

:func:`unpacked` extracts the archive into a temporary folder that lives as long as the
``with`` block, refusing what a hostile archive could do: members outside the folder
(``../``, absolute paths), more than :data:`MAX_FILES` files, more than
:data:`MAX_BYTES` bytes unpacked, or one member over :data:`MAX_MEMBER_BYTES`. Links
in a ``.zip`` are skipped; links, devices and pipes in a tar archive are refused (arXiv
accepts none). A single top folder (``paper/...``) is entered. The user's archive is
only read. The kind of archive is read from its first bytes, not from its name (arXiv
names a gzipped single ``.tex`` ``.tar.gz`` too).
"""

from __future__ import annotations

import gzip
import logging
import shutil
import stat
import tarfile
import tempfile
import zipfile
import zlib
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path, PurePosixPath
from typing import IO, Protocol

from citecheck_tex.errors import InputError

logger = logging.getLogger(__name__)

#: Limits of what an archive may unpack to (a LaTeX project is far smaller).
MAX_FILES = 20_000
MAX_BYTES = 1 << 30  # 1 GiB
#: Largest single member (arXiv refuses submissions over 50 MB compressed).
MAX_MEMBER_BYTES = 256 << 20  # 256 MiB

#: File names :func:`extract_archive` unpacks (by content, whatever the name says).
ARCHIVE_SUFFIXES = (".zip", ".tar.gz", ".tgz", ".tar", ".gz")

_GZIP_MAGIC = b"\x1f\x8b"
_ZIP_MAGIC = b"PK\x03\x04"
_TAR_MAGIC_AT = 257  # "ustar" in a POSIX tar header

_SKIP = ("__MACOSX/",)


def _member_path(name: str) -> PurePosixPath | None:
    """The member's relative path, or None when it would leave the folder."""
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts or (path.parts and ":" in path.parts[0]):
        return None
    return path


def is_archive_name(name: str) -> bool:
    """Whether a file name says archive (:data:`ARCHIVE_SUFFIXES`)."""
    return name.lower().endswith(ARCHIVE_SUFFIXES)


def archive_stem(name: str) -> str:
    """``2101.01234v2.tar.gz`` -> ``2101.01234v2``: the name without its archive suffix."""
    lower = name.lower()
    for suffix in ARCHIVE_SUFFIXES:
        if lower.endswith(suffix) and len(name) > len(suffix):
            return name[: -len(suffix)]
    return name


def extract_archive(archive: Path, dest: Path) -> Path:
    """Unpack a ``.zip``, a tar archive (gzipped or not) or a gzipped single file into
    ``dest`` and return the project folder (``dest``, or its single top folder).

    The kind is read from the first bytes. A gzipped file that is not a tar archive is
    arXiv's form of a one-file submission: it becomes ``<name>.tex`` (a PDF is refused:
    there is no source to check). Raises :class:`InputError` for an unreadable or
    unsafe archive, naming the archive, the member and what to do.
    """
    try:
        with archive.open("rb") as fh:
            head = fh.read(512)
    except OSError as exc:
        raise InputError(f"{archive}: cannot read it ({exc.strerror or exc})",
                         hint="check the file's permissions") from exc
    if head.startswith(_ZIP_MAGIC):
        return extract_project(archive, dest)
    if head.startswith(_GZIP_MAGIC):
        return _extract_gzip(archive, dest)
    if head[_TAR_MAGIC_AT:_TAR_MAGIC_AT + 5] == b"ustar":
        return _extract_tar(archive, dest, gzipped=False)
    raise InputError(f"{archive}: not a .zip, tar or gzip archive",
                     hint="give an arXiv source download (.tar.gz), a .zip, or the unpacked "
                     "folder")


def _extract_gzip(archive: Path, dest: Path) -> Path:
    """A gzipped tar archive, or a gzipped single file (arXiv's one-file submissions)."""
    try:
        with gzip.open(archive, "rb") as fh:
            head = fh.read(512)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"{archive}: not a readable gzip archive ({exc})",
                         hint="download it again, or unpack it and give the folder") from exc
    if head[_TAR_MAGIC_AT:_TAR_MAGIC_AT + 5] == b"ustar" or _old_tar_header(head):
        return _extract_tar(archive, dest, gzipped=True)
    if head.startswith(b"%PDF"):
        raise InputError(f"{archive}: a gzipped PDF, not a LaTeX source",
                         hint="arXiv serves only the PDF of this paper; nothing to check")
    name = archive_stem(archive.name)
    target = dest / (name if name.lower().endswith(".tex") else f"{name}.tex")
    try:
        with gzip.open(archive, "rb") as src, target.open("wb") as out:
            _copy_capped(src, out, archive, target.name)
    except (OSError, EOFError, zlib.error) as exc:
        raise InputError(f"{archive}: cannot unpack it ({exc})",
                         hint="download it again, or unpack it and give the folder") from exc
    return dest


def _old_tar_header(head: bytes) -> bool:
    """A pre-POSIX tar header (no ``ustar`` magic): its checksum field adds up."""
    if len(head) < 512:
        return False
    try:
        tarfile.TarInfo.frombuf(head[:512], "utf-8", "surrogateescape")
    except (tarfile.HeaderError, ValueError):
        return False
    return True


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


def _copy_capped(src: _Readable, out: IO[bytes], archive: Path, member: str) -> int:
    """Copy ``src`` to ``out``, refusing more than :data:`MAX_MEMBER_BYTES` (a gzip bomb)."""
    total = 0
    while chunk := src.read(1 << 20):
        total += len(chunk)
        if total > MAX_MEMBER_BYTES:
            raise InputError(f"{archive}: member {member!r} unpacks to more than "
                             f"{MAX_MEMBER_BYTES:,} bytes", hint="refusing to unpack it; "
                             "unpack it yourself and give the paper's folder")
        out.write(chunk)
    return total


def _extract_tar(archive: Path, dest: Path, *, gzipped: bool) -> Path:
    """Unpack a tar archive member by member, refusing what could escape ``dest``."""
    try:
        tf = tarfile.open(archive, "r:gz" if gzipped else "r:")
    except (OSError, EOFError, zlib.error, tarfile.TarError) as exc:
        raise InputError(f"{archive}: not a readable tar archive ({exc})",
                         hint="download it again, or unpack it and give the folder") from exc
    count = total = 0
    try:
        with tf:
            for m in tf:
                count += 1
                if count > MAX_FILES:
                    raise InputError(f"{archive}: more than {MAX_FILES:,} files",
                                     hint="unpack it and give the paper's folder")
                rel = _member_path(m.name)
                if rel is None:
                    raise InputError(f"{archive}: member {m.name!r} points outside the "
                                     "archive", hint="refusing to unpack it; unpack it "
                                     "yourself and check")
                if m.issym() or m.islnk():
                    raise InputError(f"{archive}: member {m.name!r} is a link (to "
                                     f"{m.linkname!r})", hint="refusing to unpack it; arXiv "
                                     "accepts no links: replace it by the file")
                if not (m.isreg() or m.isdir()):
                    raise InputError(f"{archive}: member {m.name!r} is a device or a pipe",
                                     hint="refusing to unpack it")
                if m.size > MAX_MEMBER_BYTES:
                    raise InputError(f"{archive}: member {m.name!r} is {m.size:,} bytes, more "
                                     f"than {MAX_MEMBER_BYTES:,}", hint="refusing to unpack "
                                     "it; unpack it yourself and give the paper's folder")
                total += m.size
                if total > MAX_BYTES:
                    raise InputError(f"{archive}: unpacks to more than {MAX_BYTES:,} bytes",
                                     hint="unpack it and give the paper's folder")
                if not rel.parts:
                    continue
                target = dest.joinpath(*rel.parts)
                if m.isdir():
                    target.mkdir(parents=True, exist_ok=True)
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                src = tf.extractfile(m)
                if src is None:  # pragma: no cover - a regular member always has data
                    continue
                with src, target.open("wb") as out:
                    _copy_capped(src, out, archive, m.name)
    except (OSError, EOFError, zlib.error, tarfile.TarError) as exc:
        raise InputError(f"{archive}: cannot unpack it ({exc})",
                         hint="download it again, or unpack it and give the folder") from exc
    if count == 0:
        raise InputError(f"{archive}: an empty archive", hint="download it again")
    return _project_folder(dest)


def _project_folder(dest: Path) -> Path:
    entries = [p for p in dest.iterdir() if p.name != "__MACOSX"]
    if len(entries) == 1 and entries[0].is_dir():
        return entries[0]
    return dest


def extract_project(archive: Path, dest: Path) -> Path:
    """Unpack the ``.zip`` ``archive`` into ``dest`` and return the project folder (``dest``,
    or its single top folder). Raises :class:`InputError` for an unreadable or unsafe
    archive."""
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
    return _project_folder(dest)


@contextmanager
def unpacked(archive: Path) -> Iterator[Path]:
    """The project folder of ``archive`` (any kind :func:`extract_archive` reads),
    unpacked for the duration of the block."""
    with tempfile.TemporaryDirectory(prefix="citecheck-zip-") as tmp:
        yield extract_archive(archive, Path(tmp))
