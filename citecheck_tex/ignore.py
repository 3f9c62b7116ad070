"""The ``.citecheck-ignore`` file: references the author decided not to check.

One line per ignored reference, beside the main ``.tex`` file (or beside the
input when it is a ``.bib``/``.bbl``)::

    # key                  hash              reason
    Corrigan:1975hd        3f0c2a9b1d4e5f60  a conference talk, no record exists

``hash`` is :attr:`~citecheck_tex.model.Entry.content_hash` of the entry when
the line was written. When the entry changes, its hash changes and the ignore
*expires*: the reference is checked again and an ``ignore-expired`` problem
says so, because an edited reference deserves a fresh look.

Pure parsing lives in :func:`parse_ignore_text`; :func:`load_ignores` and
:func:`add_ignore` are the only functions that touch the disk.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from citecheck_tex.model import Entry, Problem, Project, Verdict, VerdictCode
from citecheck_tex.tex.project import project_folder

if TYPE_CHECKING:
    from citecheck_tex.config import Settings

logger = logging.getLogger(__name__)

IGNORE_FILE = ".citecheck-ignore"

_HASH_RE = re.compile(r"^[0-9a-f]{16}$")


@dataclass(frozen=True, slots=True)
class IgnoreRule:
    """One line of the ignore file."""

    key: str
    hash: str
    reason: str
    file: str
    line: int


@dataclass(frozen=True, slots=True)
class IgnoreList:
    """The parsed ignore file; ``problems`` holds its malformed lines."""

    rules: tuple[IgnoreRule, ...] = ()
    problems: tuple[Problem, ...] = ()
    file: str = ""

    def rule_for(self, key: str) -> IgnoreRule | None:
        """The last rule written for ``key`` (later lines win), or None."""
        found = None
        for rule in self.rules:
            if rule.key == key:
                found = rule
        return found

    def reason_for(self, entry: Entry) -> str | None:
        """The reason ``entry`` is ignored, or None (not listed, or the ignore expired)."""
        rule = self.rule_for(entry.key)
        if rule is None or rule.hash != entry.content_hash:
            return None
        return rule.reason or "ignored (no reason given)"

    def active_keys(self, entries: Iterable[Entry]) -> tuple[str, ...]:
        """Keys of ``entries`` whose ignore is still valid, in entry order."""
        out: list[str] = []
        for e in entries:
            if e.key not in out and self.reason_for(e) is not None:
                out.append(e.key)
        return tuple(out)

    def expired(self, entries: Iterable[Entry]) -> list[Problem]:
        """One ``ignore-expired`` problem per listed entry whose content changed."""
        problems: list[Problem] = []
        seen: set[str] = set()
        for e in entries:
            rule = self.rule_for(e.key)
            if rule is None or e.key in seen or rule.hash == e.content_hash:
                continue
            seen.add(e.key)
            problems.append(Problem(
                "ignore-expired",
                f"the ignore of {e.key!r} was written for another version of the entry "
                f"(hash {rule.hash}, now {e.content_hash}); it is checked again. If it "
                f"should stay ignored, run `citecheck-tex ignore {e.key} --reason "
                f"\"...\"` or update the hash in {IGNORE_FILE}",
                key=e.key,
                file=rule.file,
                line=rule.line,
            ))
        return problems


def parse_ignore_text(text: str, filename: str = IGNORE_FILE) -> IgnoreList:
    """Parse the ignore file's text; malformed lines become ``parse-error`` problems."""
    rules: list[IgnoreRule] = []
    problems: list[Problem] = []
    for lineno, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        parts = line.split(None, 2)
        if len(parts) < 2 or not _HASH_RE.match(parts[1].lower()):
            problems.append(Problem(
                "parse-error",
                "an ignore line needs `KEY HASH REASON...` where HASH is the 16-hex-digit "
                "entry hash (write it with `citecheck-tex ignore KEY --reason ...`)",
                key=parts[0] if parts else "",
                file=filename,
                line=lineno,
            ))
            continue
        reason = parts[2].strip() if len(parts) > 2 else ""
        rules.append(IgnoreRule(parts[0], parts[1].lower(), reason, filename, lineno))
    return IgnoreList(tuple(rules), tuple(problems), filename)


def ignore_file_for(path: Path) -> Path:
    """Where the ignore file of an input lives: beside the file, or inside the folder."""
    folder = path if path.is_dir() else path.parent
    return folder / IGNORE_FILE


def load_ignores(folder: Path) -> IgnoreList:
    """Read ``folder/.citecheck-ignore`` (``folder`` may also be a file: its folder is used).

    A missing file is an empty list; an unreadable one is a ``parse-error`` problem.
    """
    path = ignore_file_for(folder)
    if not path.is_file():
        return IgnoreList(file=str(path))
    try:
        text = path.read_text(encoding="utf-8", errors="replace")
    except OSError as exc:
        return IgnoreList(
            problems=(Problem("parse-error", f"cannot read the ignore file: {exc}", file=str(path)),),
            file=str(path),
        )
    return parse_ignore_text(text, str(path))


def format_ignore_line(entry: Entry, reason: str) -> str:
    """The ignore line for ``entry`` (without newline)."""
    reason = " ".join(reason.split())
    return f"{entry.key}  {entry.content_hash}  {reason}".rstrip()


def add_ignore(folder: Path, entry: Entry, reason: str) -> Path:
    """Append an ignore line for ``entry`` to the ignore file in ``folder``; returns its path."""
    path = ignore_file_for(folder)
    prefix = ""
    line = format_ignore_line(entry, reason)
    if path.is_file():
        existing = path.read_text(encoding="utf-8", errors="replace")
        if line in (old.strip() for old in existing.splitlines()):
            return path  # said already (the same entry, the same reason)
        if existing and not existing.endswith("\n"):
            prefix = "\n"
    else:
        prefix = "# citecheck-tex ignore file: KEY  HASH  REASON (the ignore expires when the " \
                 "entry changes)\n"
    with path.open("a", encoding="utf-8") as fh:
        fh.write(prefix + line + "\n")
    return path


def project_paths(project: Project) -> list[Path]:
    """Absolute paths of a project's files and bibliographies (names are relative to the
    main file's folder)."""
    main = Path(project.main_file or project.input)
    root = project_folder(project)
    out: list[Path] = [main.resolve()] if not main.is_dir() else []
    for name in (*project.files, *project.resources):
        p = Path(name)
        p = (p if p.is_absolute() else root / p).resolve()
        if p not in out:
            out.append(p)
    return out


def apply_ignores(project: Project, settings: Settings) -> tuple[Settings, tuple[Problem, ...]]:
    """Settings with the still-valid ignores added, and the ignore file's problems.

    The pipeline skips the keys in ``settings.ignore``; this adds the keys whose
    ignore line matches the entry's current hash and reports expired ones. With
    ``settings.ignore_file`` off (a batch checking others' papers) the file is not read.
    """
    if not settings.ignore_file:
        return settings, ()
    ignores = load_ignores(project_folder(project))
    if not ignores.rules and not ignores.problems:
        return settings, ()
    keys = ignores.active_keys(project.entries)
    merged = tuple(dict.fromkeys((*settings.ignore, *keys)))
    problems = (*ignores.problems, *ignores.expired(project.entries))
    return replace(settings, ignore=merged), tuple(problems)


def explain_ignored(verdicts: Sequence[Verdict], ignores: IgnoreList) -> list[Verdict]:
    """Replace the pipeline's generic "ignored" reason with the user's reason."""
    out: list[Verdict] = []
    for v in verdicts:
        if v.code is VerdictCode.IGNORED and not v.facts.get("why"):
            reason = ignores.reason_for(v.entry)
            if reason is not None:
                v = replace(v, facts={**v.facts, "why": reason})
        out.append(v)
    return out
