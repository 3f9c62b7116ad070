"""What a batch checks: papers found in folders, archives, reference lists and manifests.

:func:`discover` turns the command line's inputs into :class:`Paper` objects:

- a folder that holds ``.tex`` files itself is **one paper**; any other folder is a
  **collection**: each of its entries is a paper (a paper folder, an arXiv source
  download ``.tar.gz``/``.tgz``/``.gz``/``.tar``, a ``.zip``, a single ``.tex``, a ``.bib``,
  ``.bbl`` or ``.txt`` reference list), a manifest in it is read, and anything else is
  listed as ignored (never silently dropped);
- a manifest (``--manifest FILE``, or a file named ``*.manifest`` or ``manifest.txt``)
  lists one path per line (relative to the manifest's folder; blank lines and ``#``
  comments skipped); each line is one paper, and a line naming nothing is a failed
  paper with its file and line;
- any other file is one paper.

Each paper gets a **name**, safe as a folder name and unique in the batch: the file or
folder name (an archive without its suffix), and when two papers would share it, a short
hash of their path appended. The name is stable for the same inputs, so a re-run finds
its earlier reports. :func:`content_hash` is what "unchanged" means for resumption.
:func:`opened` gives the path the project loader reads (an archive unpacked in a
temporary folder, refusing unsafe members: :mod:`citecheck_tex.archive`).
"""

from __future__ import annotations

import hashlib
import os
import re
import stat
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

from citecheck_tex.archive import archive_stem, extract_archive, is_archive_name
from citecheck_tex.errors import InputError

#: Files that are one paper each: LaTeX sources and reference lists (``.md`` lists are
#: read when named on the command line; in a collection a ``README.md`` is no paper).
PAPER_SUFFIXES = (".tex", ".bib", ".bbl", ".txt")
EXPLICIT_SUFFIXES = (*PAPER_SUFFIXES, ".md")
#: File names read as manifests (one path per line).
MANIFEST_SUFFIXES = (".manifest",)
MANIFEST_NAMES = ("manifest.txt",)
#: Folders a collection never treats as papers (report folders of earlier runs).
_SKIP_DIRS = frozenset({"citecheck-report", "__MACOSX", "__pycache__"})
_UNSAFE = re.compile(r"[^A-Za-z0-9._+-]+")
_MAX_NAME = 100

FOLDER, ARCHIVE, FILE, IGNORED = "folder", "archive", "file", "ignored"


@dataclass(frozen=True, slots=True)
class Paper:
    """One paper of a batch.

    ``kind`` is ``folder``, ``archive`` (unpacked before checking), ``file`` (a
    ``.tex`` or a reference list) or ``ignored`` (listed, not checked: ``error`` says
    why). ``origin`` says where it was named (``papers.manifest:12``) when that was a
    manifest. ``error`` set on a non-ignored paper means it cannot be checked (a
    manifest line naming nothing): it is listed as failed.
    """

    name: str
    path: str
    kind: str
    origin: str = ""
    error: str = ""


def is_manifest(path: Path) -> bool:
    """Whether ``path`` is read as a manifest by its name."""
    name = path.name.lower()
    return name.endswith(MANIFEST_SUFFIXES) or name in MANIFEST_NAMES


def _safe_name(text: str) -> str:
    name = _UNSAFE.sub("_", text).strip("._-")[:_MAX_NAME]
    return name or "paper"


def _base_name(path: Path, kind: str) -> str:
    if kind == ARCHIVE:
        return _safe_name(archive_stem(path.name))
    return _safe_name(path.name)


def _sniff_archive(path: Path) -> bool:
    """An extension-less arXiv download (``2101.01234``): gzip, zip or tar by content."""
    try:
        with path.open("rb") as fh:
            head = fh.read(262)
    except OSError:
        return False
    return head.startswith((b"\x1f\x8b", b"PK\x03\x04")) or head[257:262] == b"ustar"


def _has_tex(folder: Path) -> bool:
    try:
        return any(p.suffix.lower() == ".tex" and p.is_file() for p in folder.iterdir())
    except OSError:
        return False


def _classify(path: Path, *, explicit: bool) -> str:
    """The kind of one path; IGNORED for what is no paper."""
    if path.is_dir():
        return FOLDER
    name = path.name.lower()
    if is_archive_name(name):
        return ARCHIVE
    if name.endswith(EXPLICIT_SUFFIXES if explicit else PAPER_SUFFIXES):
        return FILE
    if _sniff_archive(path):  # an arXiv download saved as "2101.01234"
        return ARCHIVE
    return IGNORED


_IGNORED_WHY = ("not a paper input (papers are folders, .tar.gz/.tgz/.gz/.tar/.zip, .tex, "
                ".bib, .bbl or .txt files); ignored")


def read_manifest(path: Path) -> list[tuple[Path, int]]:
    """The paths a manifest lists, with their line numbers (relative paths are relative
    to the manifest's folder). Raises :class:`InputError` when it cannot be read."""
    try:
        text = path.read_text(encoding="utf-8-sig", errors="surrogateescape")
    except OSError as exc:
        raise InputError(f"cannot read manifest {path}: {exc.strerror or exc}",
                         hint="check the file's permissions") from exc
    out = []
    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        p = Path(os.path.expanduser(line))
        out.append((p if p.is_absolute() else path.parent / p, n))
    return out


def is_batch_output(folder: Path) -> bool:
    """Whether ``folder`` is the output of an earlier batch (its ``summary.json`` and
    ``papers/``, see :mod:`citecheck_tex.batch.runner`), under whatever name it was
    given: a collection that holds one has no paper there (it was listed as a failed
    paper, "no .tex file")."""
    return (folder / "summary.json").is_file() and (folder / "papers").is_dir()


def discover(inputs: Sequence[Path], *, manifests: Sequence[Path] = (),
             exclude: Sequence[Path] = ()) -> list[Paper]:
    """Every paper the inputs name, in input order (a collection's entries sorted by
    name), each once, with unique names. ``exclude`` lists folders never entered (the
    batch's own output folder). Raises :class:`InputError` for an input that does not
    exist or a manifest that cannot be read."""
    skip = {p.resolve() for p in exclude}
    found: list[Paper] = []
    seen: set[Path] = set()

    def add(path: Path, kind: str, origin: str = "", error: str = "") -> None:
        real = path.resolve()
        if real in seen or real in skip:
            return
        seen.add(real)
        found.append(Paper(_base_name(path, kind), str(real), kind, origin, error))

    def from_manifest(manifest: Path) -> None:
        for path, line in read_manifest(manifest):
            origin = f"{manifest}:{line}"
            if not path.exists():
                kind = ARCHIVE if is_archive_name(path.name) else FILE
                add(path, kind, origin, f"{origin}: {path}: no such file or folder")
                continue
            kind = _classify(path, explicit=True)
            if kind == IGNORED:
                add(path, IGNORED, origin, f"{origin}: {path.name}: {_IGNORED_WHY}")
            else:
                add(path, kind, origin)

    def from_collection(folder: Path) -> None:
        try:
            children = sorted(folder.iterdir(), key=lambda p: p.name)
        except OSError as exc:
            raise InputError(f"cannot list {folder}: {exc.strerror or exc}",
                             hint="check the folder's permissions") from exc
        for child in children:
            if child.name.startswith(".") or child.resolve() in skip:
                continue
            if child.is_dir() and (child.name in _SKIP_DIRS or is_batch_output(child)):
                continue
            if child.is_file() and is_manifest(child):
                from_manifest(child)
                continue
            kind = _classify(child, explicit=False)
            if kind == IGNORED:
                add(child, IGNORED, error=f"{child.name}: {_IGNORED_WHY}")
            else:
                add(child, kind)

    for given in inputs:
        if not given.exists():
            raise InputError(f"{given}: no such file or folder",
                             hint="give paper folders, a folder of papers, archives, "
                             "reference lists or a manifest")
        if given.is_dir():
            if _has_tex(given):
                add(given, FOLDER)
            else:
                from_collection(given)
        elif is_manifest(given):
            from_manifest(given)
        else:
            kind = _classify(given, explicit=True)
            add(given, FILE if kind == IGNORED else kind)  # named on purpose: try it
    for manifest in manifests:
        if not manifest.is_file():
            raise InputError(f"{manifest}: no such manifest", hint="give a file with one "
                             "path per line")
        from_manifest(manifest)
    return _unique_names(found)


def _unique_names(papers: list[Paper]) -> list[Paper]:
    """Append a short hash of the path to names two papers share (stable: it depends on
    the paper's own path only)."""
    count: dict[str, int] = {}
    for p in papers:
        count[p.name.lower()] = count.get(p.name.lower(), 0) + 1
    out = []
    taken: set[str] = set()
    for p in papers:
        name = p.name
        if count[name.lower()] > 1:
            name = f"{name}-{hashlib.sha256(p.path.encode()).hexdigest()[:8]}"
        while name.lower() in taken:  # a hash suffix equal to another's name: vanishingly rare
            name += "_"
        taken.add(name.lower())
        out.append(replace(p, name=name))
    return out


def content_hash(paper: Paper) -> str:
    """SHA-256 of what the paper is made of: a file's bytes, or every file of a folder
    (relative path and bytes, in sorted order; report folders and hidden files left
    out). Raises :class:`OSError` when something cannot be read."""
    digest = hashlib.sha256()
    path = Path(paper.path)
    if path.is_dir():
        for file in _folder_files(path):
            digest.update(str(file.relative_to(path)).encode("utf-8", "surrogateescape"))
            digest.update(b"\0")
            for chunk in _content(file):
                digest.update(chunk)
    else:
        for chunk in _content(path):
            digest.update(chunk)
    return digest.hexdigest()


def _content(file: Path) -> Iterator[bytes]:
    """What stands for a file in :func:`content_hash`: its bytes; for a symbolic link
    to nothing (a figure moved away), the path it names; for a named pipe or a device
    (reading one may never end: a FIFO held the whole batch before any paper ran), its
    kind. An unreadable file raises :class:`OSError` naming it."""
    try:
        mode = file.stat().st_mode
    except FileNotFoundError:
        if file.is_symlink():
            yield b"link:" + os.fsencode(os.readlink(file))
            return
        raise
    if not stat.S_ISREG(mode):
        yield b"special:" + str(stat.S_IFMT(mode)).encode()
        return
    yield from _chunks(file)


def _folder_files(folder: Path) -> list[Path]:
    out: list[Path] = []
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not d.startswith(".") and d not in _SKIP_DIRS)
        out.extend(Path(root) / f for f in sorted(files) if not f.startswith("."))
    return out


def _chunks(path: Path) -> Iterator[bytes]:
    with path.open("rb") as fh:
        while chunk := fh.read(1 << 20):
            yield chunk


@contextmanager
def opened(paper: Paper) -> Iterator[tuple[Path, Path]]:
    """``(path to load, project root)`` of the paper for the duration of the block: an
    archive is unpacked into a temporary folder (removed afterwards); the project root
    fences the paper's files so that one paper cannot read another's. Raises
    :class:`InputError` for an unreadable or unsafe archive."""
    path = Path(paper.path)
    if paper.kind == ARCHIVE:
        with tempfile.TemporaryDirectory(prefix="citecheck-batch-") as tmp:
            folder = extract_archive(path, Path(tmp))
            yield folder, folder
        return
    if path.is_dir():
        yield path, path
    else:
        yield path, path.parent
