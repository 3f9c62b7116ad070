"""Writing the report files: the folder is checked before the run, files replaced atomically.

A check can take minutes of network time; learning only at the end that the
report folder cannot be written loses all of it. :func:`check_out_dir` is
called before the run starts. :func:`write_reports` is the one writer of report
files: it asks the reporter registry for the chosen formats. Each file is written to a temporary file in the
same folder and moved over the old one with :func:`os.replace`, so a full disk
or a crash leaves the previous report (or none), never a truncated one.
"""

from __future__ import annotations

import contextlib
import logging
import os
import tempfile
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import IO, TYPE_CHECKING

from citecheck_tex.errors import OutputError

if TYPE_CHECKING:
    from citecheck_tex.config import Settings
    from citecheck_tex.model import RunResult
    from citecheck_tex.report.base import Reporter, ReportFile

logger = logging.getLogger(__name__)

_HINT = "pass --out DIR with a folder you can write to"


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc) or type(exc).__name__


def check_out_dir(out_dir: Path, *, keep: bool = True) -> None:
    """Create ``out_dir`` if needed and prove a file can be written in it.

    With ``keep`` False the folders this call created are removed again (the check
    before a run that may still end without reports). Raises
    :class:`~citecheck_tex.errors.OutputError` (one line: the folder and why).
    """
    if out_dir.exists() and not out_dir.is_dir():
        raise OutputError(f"cannot write reports to {out_dir}: it is a file, not a folder",
                          hint=_HINT)
    created = [p for p in (out_dir, *out_dir.parents) if not p.exists()]
    try:
        out_dir.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(dir=out_dir, prefix=".citecheck-probe-")
        try:
            os.write(fd, b"ok\n")
        finally:
            os.close(fd)
            os.unlink(probe)
    except OSError as exc:
        raise OutputError(f"cannot write reports to {out_dir}: {_reason(exc)}",
                          hint=_HINT) from exc
    finally:
        if not keep:
            for folder in created:  # leaf first
                with contextlib.suppress(OSError):
                    folder.rmdir()


def new_file_mode() -> int:
    """The mode of a new file under the current umask (``0o666 & ~umask``): temporary files
    (``mkstemp`` makes ``0o600``) get it before they replace a report."""
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


def write_atomic(path: Path, data: bytes | Iterable[bytes]) -> None:
    """Replace ``path`` with ``data`` atomically (temporary file + :func:`os.replace`).

    ``data`` may come in pieces (a large report is then never whole in memory).

    On failure the temporary file is removed, ``path`` keeps its old content and
    :class:`~citecheck_tex.errors.OutputError` says which file and why.
    """
    try:
        mode = path.stat().st_mode & 0o777
    except OSError:
        mode = new_file_mode()
    tmp = ""
    try:
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
        with os.fdopen(fd, "wb") as fh:
            if isinstance(data, bytes):
                fh.write(data)
            else:
                for piece in data:
                    fh.write(piece)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError as exc:
        if tmp:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
        raise OutputError(f"cannot write {path}: {_reason(exc)}; the previous file, if any, "
                          "is unchanged", hint="free some disk space, or " + _HINT) from exc


def write_text_atomic(path: Path, text: str | Iterable[str]) -> None:
    """:func:`write_atomic` of ``text`` (or its pieces) as UTF-8 (lone surrogates from the
    input kept as bytes)."""
    if isinstance(text, str):
        write_atomic(path, text.encode("utf-8", errors="surrogateescape"))
    else:
        write_atomic(path, (t.encode("utf-8", errors="surrogateescape") for t in text))


def _usable(settings: Settings) -> list[tuple[str, Reporter]]:
    """The chosen formats' reporters (``bib`` also for ``emit_fixed``); a plugin reporter
    that cannot be used is left out (the registry has warned about it once)."""
    from citecheck_tex.report.base import PluginError, make_reporter

    names = list(dict.fromkeys(settings.formats))
    if settings.emit_fixed and "bib" not in names:
        names.append("bib")
    out: list[tuple[str, Reporter]] = []
    for name in names:
        try:
            out.append((name, make_reporter(name)))
        except PluginError:
            continue
    return out


def file_formats(settings: Settings) -> list[str]:
    """The chosen formats whose reporter writes files (``bib`` also for ``emit_fixed``)."""
    from citecheck_tex.report.base import FileReporter

    return [n for n, r in _usable(settings) if isinstance(r, FileReporter)]


def stream_formats(settings: Settings) -> list[str]:
    """The chosen plugin formats whose reporter only renders text (no ``files``): the
    command line prints them to standard output, as it does the ``github`` report."""
    from citecheck_tex.report.base import FileReporter, is_plugin

    return [n for n, r in _usable(settings)
            if is_plugin(n) and not isinstance(r, FileReporter)]


def print_stream_reports(result: RunResult, settings: Settings, out: IO[str]) -> None:
    """Write the chosen plugin reports that are text, not files (:func:`stream_formats`),
    to ``out``; every command that prints its result calls this. A fault of one is a
    warning: the check's result stands."""
    from citecheck_tex.report.base import make_reporter

    for name in stream_formats(settings):
        try:
            text = make_reporter(name).render(result, settings)
        except Exception as exc:  # third-party code
            logging.getLogger(__name__).warning(
                "plugin report format %r failed: %s: %s", name, type(exc).__name__, exc)
            continue
        if isinstance(text, str) and text:
            out.write(text if text.endswith("\n") else text + "\n")


def writes_files(settings: Settings) -> bool:
    """Whether ``settings`` ask for report files (so the folder must be writable)."""
    return bool(file_formats(settings))


def write_reports(result: RunResult, settings: Settings, out_dir: Path) -> list[Path]:
    """Write the file reports of the formats chosen in ``settings`` into ``out_dir``
    (the reporter registry says which formats are files and what they contain);
    returns the written paths.

    Each file is replaced atomically; raises :class:`~citecheck_tex.errors.OutputError`
    when one cannot be written. Two reports never share a path: a later file with an
    already written name is an error, not an overwrite.
    """
    from citecheck_tex.report.base import FileReporter, is_plugin, make_reporter

    written: list[Path] = []
    if not writes_files(settings):  # (terminal, github: no folder to make or to check)
        return written
    check_out_dir(out_dir)
    inputs = _input_files(result)
    for name in file_formats(settings):
        reporter = make_reporter(name)
        assert isinstance(reporter, FileReporter)
        try:
            _write_files(name, reporter.files(result, settings), out_dir, written, inputs)
        except Exception as exc:
            if not is_plugin(name):
                raise
            # a third-party report's fault costs its own files, not the others
            logger.warning("plugin report format %r failed: %s: %s; its report is not "
                           "(completely) written", name, type(exc).__name__, exc)
    return written


def _input_files(result: RunResult) -> set[Path]:
    """The files the run read (resolved): no report is written over one of them."""
    project = result.project
    main = Path(project.main_file)
    folder = main.parent
    return {p.resolve() for p in (main, *(folder / name for name in
                                          (*project.files, *project.resources)))}


def _write_files(name: str, reports: Iterable[ReportFile], out_dir: Path,
                 written: list[Path], inputs: set[Path]) -> None:
    for report in reports:
        rel = PurePosixPath(report.name)
        if rel.is_absolute() or ".." in rel.parts:
            raise OutputError(f"report {name!r} names a file outside {out_dir}: "
                              f"{report.name}", hint="report this bug")
        path = out_dir.joinpath(*rel.parts)
        if path in written:
            raise OutputError(f"two reports would both be written to {path}",
                              hint="report this bug")
        if path.parent != out_dir:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
            except OSError as exc:
                raise OutputError(f"cannot write reports to {path.parent}: "
                                  f"{_reason(exc)}", hint=_HINT) from exc
        if path.resolve() in inputs:  # (refs.annotated.bib, once adopted as the .bib)
            logger.warning("%s is not written: it is a file of the paper, which a report "
                           "never replaces (give --out another folder)", path)
            continue
        write_atomic(path, report.data)  # a full disk leaves the old file
        written.append(path)
