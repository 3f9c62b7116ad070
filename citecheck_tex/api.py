"""The library API: check a paper from Python and get a :class:`~citecheck_tex.model.RunResult`.

::

    import citecheck_tex

    result = citecheck_tex.check("paper.tex", offline=True)
    for verdict in result.verdicts:
        print(verdict.entry.key, verdict.label.value, verdict.code.value, verdict.reason)

The keywords of :func:`check` are the configuration keys (``offline``, ``index``,
``cache``, ``sources``, ``tau_minor``, ...: the fields of
:class:`~citecheck_tex.config.Settings` and the short names ``index``, ``cache``,
``out``). They go on top of the same layers as the command line: defaults <
``citecheck.toml`` / ``[tool.citecheck-tex]`` beside the paper < ``CITECHECK_*``
environment < the keywords. Nothing is printed and no file is written;
:func:`render` and :func:`write_reports` turn a result into the reports.
Errors are :class:`~citecheck_tex.errors.CitecheckError` subclasses whose message is
the command line's one-line message. ``docs/api.md`` has runnable examples.
"""

from __future__ import annotations

import difflib
import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from citecheck_tex.errors import UsageError

if TYPE_CHECKING:
    from citecheck_tex.config import Settings
    from citecheck_tex.model import RunResult
    from citecheck_tex.pipeline import ProgressCallback

#: A path to check or write to: ``str`` or any :class:`os.PathLike`.
StrPath = str | os.PathLike[str]


def settings_for(path: StrPath | None = None, /, **settings: Any) -> Settings:
    """The run's :class:`~citecheck_tex.config.Settings`: defaults < the configuration file
    at or above ``path`` < ``CITECHECK_*`` environment < ``settings`` (configuration keys;
    a value of ``None`` means "not given").

    Raises :class:`~citecheck_tex.errors.UsageError` for an unknown key (naming the
    closest one and listing the valid keys) or an invalid value.
    """
    from citecheck_tex.config import load_settings, setting_keys

    valid = setting_keys()
    for name in settings:
        if name not in valid:
            close = difflib.get_close_matches(name, valid, n=1)
            hint = (f"did you mean {close[0]!r}? " if close else "") + \
                "valid settings: " + ", ".join(valid)
            raise UsageError(f"unknown setting {name!r}", hint=hint)
    start = Path(path) if path is not None else None
    if start is not None and not start.exists():
        start = Path.cwd()
    return load_settings(start, settings)


def check(path: StrPath, /, *, progress: ProgressCallback | None = None,
          **settings: Any) -> RunResult:
    """Check every reference of the paper at ``path`` and return the run's result.

    ``path`` is what the command line's INPUT is: a ``.tex`` file (includes are
    followed), a folder (its main file is found), a ``.bib``, ``.bbl``, ``.txt`` or
    ``.md``. ``settings`` are configuration keys (:func:`settings_for`), e.g.
    ``offline=True``, ``index="refs.sqlite"``, ``cache="none"``,
    ``sources=["local", "crossref"]``, ``tau_minor=6.0``. ``progress`` is called with a
    :class:`~citecheck_tex.pipeline.ProgressState` as references are settled.

    Nothing is printed, no report is written (see :func:`write_reports`). A
    reference that cannot be checked is a verdict, never an exception; a network
    fault makes it UNVERIFIED. Raises :class:`~citecheck_tex.errors.UsageError` for an
    unknown setting, a missing input or an input without bibliography (the same
    message as the command line), :class:`~citecheck_tex.errors.InputError` for an
    unreadable one.
    """
    from citecheck_tex import pipeline
    from citecheck_tex.commands.check import load

    where = Path(path)
    if where.suffix.lower() == ".zip" and where.is_file():
        raise UsageError(f"{where}: a project .zip is checked by the command line only",
                         hint="unpack it and pass its folder or main .tex file")
    resolved = settings_for(where, **settings)
    project = load(where, resolved, echo=False)
    return pipeline.check(project, resolved, progress=progress)


def render(result: RunResult, format: str = "json", /, **settings: Any) -> str:
    """One report of ``result`` as text: ``json``, ``html``, ``sarif``, ``github``,
    ``terminal``, or the name of a reporter registered by a plugin.

    ``settings`` are configuration keys that reporters read (``path_root`` for SARIF and
    GitHub paths). For ``bib`` (one annotated copy per ``.bib``) use :func:`write_reports`.
    Raises :class:`~citecheck_tex.errors.UsageError` naming the valid formats.
    """
    from citecheck_tex.report.base import make_reporter

    text = make_reporter(format).render(result, settings_for(None, **settings))
    if not isinstance(text, str):
        raise UsageError(f"report format {format!r} produces several files",
                         hint="write them with citecheck_tex.write_reports(result, out_dir)")
    return text


def write_reports(result: RunResult, out_dir: StrPath, /,
                  formats: str | tuple[str, ...] | list[str] = ("json", "html", "bib"),
                  **settings: Any) -> list[Path]:
    """Write the file reports of ``result`` into ``out_dir`` (created when missing) and
    return their paths: ``report.json``, ``report.html``, ``report.sarif``,
    ``<name>.annotated.bib`` ... as the command line writes them, atomically.

    ``formats`` is a list or a comma-separated string (formats that are not files,
    such as ``terminal``, are ignored); ``settings`` are further configuration keys
    (``emit_fixed=True`` adds the ``.fixed.bib`` copies). Raises
    :class:`~citecheck_tex.errors.OutputError` when a file cannot be written.
    """
    from citecheck_tex.outfiles import write_reports as write

    resolved = settings_for(None, formats=formats, **settings)
    return write(result, resolved, Path(out_dir))


def fails(result: RunResult, fail_on: str = "major") -> bool:
    """Whether ``result`` fails at level ``fail_on`` (``never``, ``error``, ``major``,
    ``minor``, ``unverified``, ``warning``): the command line's exit status 1."""
    from citecheck_tex.config import FAIL_ON_CHOICES
    from citecheck_tex.verify.policy import fails as policy_fails

    if fail_on not in FAIL_ON_CHOICES:
        raise UsageError(f"unknown fail_on level {fail_on!r}",
                         hint="valid levels: " + ", ".join(FAIL_ON_CHOICES))
    return policy_fails(result, fail_on)
