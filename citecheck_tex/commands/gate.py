"""arXiv pre-submission gate: ``citecheck-tex gate DIR``.

Looks at a submission folder the way arXiv will, then verifies the references:

1. **main file**: the ``toplevel`` file of ``00README`` / ``00README.XXX``
   (``filename toplevel`` lines) or of ``00README.yaml``/``.json``
   (``sources: - filename: ... usage: toplevel``); else the one candidate of
   the project's main-file rule (:func:`citecheck_tex.tex.project.main_file_candidates`;
   includes are followed by its walker, :func:`citecheck_tex.tex.project.walk_tex`).
2. **bibliography**: arXiv runs neither Biber nor (reliably) BibTeX: it needs
   ``<main>.bbl`` beside the main file. A ``.bbl`` under another name is not used.
3. **bbl format**: a biblatex ``.bbl`` must declare the format version that
   arXiv's biblatex reads (:data:`ARXIV_BBL_FORMAT`).
4. **bbl/bib agreement**: every cited key is in the ``.bbl``; the ``.bbl`` holds
   no key the ``.bib`` files lack (a stale ``.bbl``).
5. **arXiv ids**: ids written so that arXiv's reference extraction finds them
   (``arXiv:2101.01234``, ``hep-th/9901001``; not split by spaces or braces).
6. **references**: the usual check; fails at or above ``--fail-on`` (MAJOR).

Every check is one PASS/WARN/FAIL/SKIP line, suitable for CI logs.
"""

from __future__ import annotations

import argparse
import json
import logging
import re
import sys
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from citecheck_tex.commands.options import Parser, add_check_options, overrides
from citecheck_tex.config import Settings
from citecheck_tex.model import RunResult
from citecheck_tex.tex.bbl import parse_bbl_text
from citecheck_tex.tex.bib import parse_bib_text
from citecheck_tex.vocab.ids import has_split_arxiv

logger = logging.getLogger(__name__)

#: The biblatex ``.bbl`` format version arXiv's current TeX Live reads.
ARXIV_BBL_FORMAT = "3.3"

PASS, WARN, FAIL, SKIP = "PASS", "WARN", "FAIL", "SKIP"

_README_NAMES = ("00README", "00README.XXX")
_README_STRUCTURED = ("00README.yaml", "00README.yml", "00README.json")
_BBL_VERSION = re.compile(r"^%\s*\$\s*biblatex bbl format version\s+([0-9.]+)\s*\$", re.M)


@dataclass(frozen=True, slots=True)
class GateCheck:
    """One line of the gate's summary."""

    name: str
    status: str  # PASS | WARN | FAIL | SKIP
    message: str
    file: str = ""
    line: int = 0

    def render(self) -> str:
        """``FAIL  bbl-file      message (file:line)``."""
        where = ""
        if self.file:
            where = f" ({self.file}:{self.line})" if self.line else f" ({self.file})"
        return f"{self.status:<4}  {self.name:<12}  {self.message}{where}"


@dataclass(frozen=True, slots=True)
class GateReport:
    """Everything the gate found; ``result`` is None when references were not verified."""

    folder: str
    main_file: str
    checks: tuple[GateCheck, ...]
    result: RunResult | None = None

    @property
    def passed(self) -> bool:
        """True when no check failed."""
        return all(c.status != FAIL for c in self.checks)

    def render(self) -> str:
        """The CI-log summary: one line per check, then the verdict."""
        from citecheck_tex.report.controls import strip_controls

        # file names and keys come from the submission: no escape sequences in the CI log
        lines = [strip_controls(f"citecheck-tex gate: {self.folder}")]
        lines += [strip_controls(c.render()) for c in self.checks]
        n_fail = sum(c.status == FAIL for c in self.checks)
        n_warn = sum(c.status == WARN for c in self.checks)
        verdict = "PASS" if self.passed else "FAIL"
        lines.append(f"gate: {verdict} ({n_fail} failed, {n_warn} warning(s), "
                     f"{len(self.checks)} checks)")
        return "\n".join(lines) + "\n"


# ------------------------------------------------------------------ main file


def parse_readme_toplevel(text: str, name: str) -> list[str]:
    """Toplevel file names declared by an arXiv ``00README`` file (old or new format)."""
    if name.endswith(".json"):
        try:
            data = json.loads(text)
        except ValueError:
            return []
        sources = data.get("sources", []) if isinstance(data, dict) else []
        return [str(s.get("filename", "")) for s in sources
                if isinstance(s, dict) and s.get("usage") == "toplevel" and s.get("filename")]
    if name.endswith((".yaml", ".yml")):
        return _yaml_toplevel(text)
    out = []
    for raw in text.splitlines():
        words = raw.split("#", 1)[0].split()
        if len(words) >= 2 and words[1].lower() == "toplevel":
            out.append(words[0])
    return out


def _unquote(s: str) -> str:
    s = s.strip()
    if len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'":
        return s[1:-1]
    return s


def _yaml_toplevel(text: str) -> list[str]:
    """The ``sources`` list of arXiv's YAML 00README, read without a YAML library."""
    items: list[dict[str, str]] = []
    in_sources = False
    for raw in text.splitlines():
        line = raw.split(" #", 1)[0].rstrip()
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith((" ", "-", "\t")):
            in_sources = line.split(":", 1)[0].strip() == "sources"
            continue
        if not in_sources:
            continue
        m = re.match(r"^\s*-\s*([A-Za-z_]+)\s*:\s*(.*)$", line)
        if m:
            items.append({m.group(1): _unquote(m.group(2))})
            continue
        m = re.match(r"^\s+([A-Za-z_]+)\s*:\s*(.*)$", line)
        if m and items:
            items[-1][m.group(1)] = _unquote(m.group(2))
    return [it["filename"] for it in items if it.get("usage") == "toplevel" and it.get("filename")]


def _read(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""


def find_main_file(folder: Path) -> tuple[Path | None, GateCheck]:
    """The file arXiv will compile, and the check line that says how it was found.

    arXiv's rules on top of the project's (:func:`citecheck_tex.tex.project.main_file_candidates`):
    a ``00README`` that names a toplevel file decides; else a candidate in the folder
    itself wins over ones in subfolders, and two candidates are an error (arXiv would
    compile both), whatever .bbl lies beside them.
    """
    from citecheck_tex.tex.project import main_file_candidates

    for name in (*_README_STRUCTURED, *_README_NAMES):
        readme = folder / name
        if readme.is_file():
            tops = parse_readme_toplevel(_read(readme), name)
            if tops:
                main = folder / tops[0]
                if not main.is_file():
                    return None, GateCheck("main-file", FAIL,
                                           f"{name} names {tops[0]} as toplevel, but it is "
                                           "not in the folder", str(readme))
                return main, GateCheck("main-file", PASS,
                                       f"{tops[0]} (toplevel in {name})", str(main))
    candidates = main_file_candidates(folder)
    if not candidates:
        return None, GateCheck("main-file", FAIL,
                               "no .tex file with \\documentclass that no other file includes",
                               str(folder))
    top = [c for c in candidates if c.parent == folder] or candidates
    if len(top) > 1:
        names = ", ".join(c.name for c in top)
        return None, GateCheck("main-file", FAIL,
                               f"several main-file candidates ({names}); arXiv compiles only "
                               "one: add a 00README with `NAME.tex toplevel`", str(folder))
    rel = top[0].relative_to(folder)
    return top[0], GateCheck("main-file", PASS,
                             f"{rel} (the only \\documentclass not included by another file)",
                             str(top[0]))


# ------------------------------------------------------------------ bibliography


@dataclass(frozen=True, slots=True)
class _Bibliography:
    files: tuple[Path, ...]  # main + included .tex files
    bib_paths: tuple[Path, ...]  # the .bib files named (found, else where they were expected)
    biblatex: bool
    inline: bool  # thebibliography in the source
    cited: dict[str, tuple[str, int]]  # key -> first (file, line)


def _collect(main: Path) -> _Bibliography:
    """The project's include walk (:func:`citecheck_tex.tex.project.walk_tex`) of ``main``."""
    from citecheck_tex.tex.project import walk_tex

    walk = walk_tex(main)
    folder = main.parent
    cited: dict[str, tuple[str, int]] = {}
    for site in walk.sites:
        cited.setdefault(site.key, (str(folder / site.file), site.line))
    paths = dict.fromkeys(found if found is not None else folder / name
                          for found, name, _file, _line in walk.resources)
    return _Bibliography(walk.files, tuple(paths), walk.biblatex, walk.bibliography_env, cited)


def bbl_keys(text: str) -> list[str]:
    """Keys of a BibTeX (``\\bibitem``) or biblatex (``\\entry``) ``.bbl``."""
    entries, _ = parse_bbl_text(text, "submission.bbl")
    return list(dict.fromkeys(e.key for e in entries if e.key))


def bib_keys(text: str) -> list[str]:
    """Entry keys of a ``.bib`` text (``@string``/``@preamble``/``@comment`` excluded)."""
    entries, _ = parse_bib_text(text, "submission.bib")
    return [e.key for e in entries]


def is_biblatex_bbl(text: str) -> bool:
    """True for a ``.bbl`` written by Biber for biblatex."""
    return "biblatex auxiliary file" in text or "\\abx@aux@" in text or "\\datalist" in text


def split_arxiv_lines(text: str) -> list[int]:
    """1-based lines holding an arXiv id split by spaces or braces."""
    return [i for i, line in enumerate(text.splitlines(), start=1)
            if not line.lstrip().startswith("%") and has_split_arxiv(line)]


def check_structure(folder: Path, *, bbl_format: str = ARXIV_BBL_FORMAT) -> tuple[
    Path | None, list[GateCheck]
]:
    """The structural checks (no retrieval): main file, bbl, format, keys, arXiv ids."""
    main, main_check = find_main_file(folder)
    checks = [main_check]
    if main is None:
        return None, checks
    bib = _collect(main)
    mfolder = main.parent
    bbl = main.with_suffix(".bbl")
    bib_paths = list(bib.bib_paths)
    missing_bibs = [p for p in bib_paths if not p.is_file()]
    others = sorted(p.name for p in mfolder.glob("*.bbl") if p != bbl)

    bbl_text = _read(bbl) if bbl.is_file() else ""
    if not bib.bib_paths and not bib.inline and not bbl.is_file():
        checks.append(GateCheck("bibliography", SKIP, "no \\bibliography or \\addbibresource"))
    elif bib.inline and not bib.bib_paths:
        checks.append(GateCheck("bbl-file", PASS, "thebibliography is in the source; no .bbl "
                                "needed"))
    elif bbl.is_file():
        checks.append(GateCheck("bbl-file", PASS, f"{bbl.name} is present", str(bbl)))
    elif others:
        checks.append(GateCheck(
            "bbl-file", FAIL,
            f"found {', '.join(others)} but arXiv reads {bbl.name} (named after {main.name}): "
            f"rename it, or regenerate it from {main.name}", str(mfolder / others[0])))
    elif bib.biblatex:
        checks.append(GateCheck(
            "bbl-file", FAIL,
            f"{bbl.name} is missing and arXiv does not run Biber: run biber locally and "
            f"include {bbl.name}", str(main)))
    elif missing_bibs:
        checks.append(GateCheck(
            "bbl-file", FAIL,
            f"{bbl.name} is missing and so is {missing_bibs[0].name}: the references cannot "
            f"be built; include {bbl.name}", str(main)))
    else:
        checks.append(GateCheck(
            "bbl-file", WARN,
            f"{bbl.name} is missing; arXiv asks for the .bbl that BibTeX made (only the .bib "
            f"files are here): include {bbl.name}", str(main)))

    if bbl.is_file():
        if is_biblatex_bbl(bbl_text):
            m = _BBL_VERSION.search(bbl_text)
            if m is None:
                checks.append(GateCheck("bbl-format", FAIL,
                                        "biblatex .bbl without a format version line",
                                        str(bbl), 1))
            elif m.group(1) != bbl_format:
                line = bbl_text.count("\n", 0, m.start()) + 1
                checks.append(GateCheck(
                    "bbl-format", FAIL,
                    f"biblatex .bbl format {m.group(1)}, arXiv's TeX Live expects {bbl_format}: "
                    "regenerate it with the biblatex/biber versions arXiv uses",
                    str(bbl), line))
            else:
                checks.append(GateCheck("bbl-format", PASS, f"biblatex .bbl format {bbl_format}",
                                        str(bbl)))
        else:
            checks.append(GateCheck("bbl-format", SKIP, "BibTeX .bbl (no format version)"))

    checks.append(_key_check(bib, bbl, bbl_text, bib_paths))
    checks.append(_arxiv_check(bbl, bbl_text, [p for p in bib_paths if p.is_file()]))
    return main, checks


def _key_check(bib: _Bibliography, bbl: Path, bbl_text: str, bib_paths: list[Path]) -> GateCheck:
    present_bibs = [p for p in bib_paths if p.is_file()]
    if not bbl.is_file():
        return GateCheck("bbl-keys", SKIP, "no .bbl to compare")
    in_bbl = set(bbl_keys(bbl_text))
    not_in_bbl = [k for k in bib.cited if k not in in_bbl]
    if not_in_bbl:
        file, line = bib.cited[not_in_bbl[0]]
        shown = ", ".join(not_in_bbl[:5]) + (" ..." if len(not_in_bbl) > 5 else "")
        return GateCheck("bbl-keys", FAIL,
                         f"{len(not_in_bbl)} cited key(s) missing from {bbl.name} ({shown}): the "
                         ".bbl is stale; re-run bibtex/biber", file, line)
    if present_bibs:
        in_bib: set[str] = set()
        for p in present_bibs:
            in_bib.update(bib_keys(_read(p)))
        stale = sorted(in_bbl - in_bib)
        if stale:
            shown = ", ".join(stale[:5]) + (" ..." if len(stale) > 5 else "")
            return GateCheck("bbl-keys", FAIL,
                             f"{bbl.name} has {len(stale)} key(s) that no .bib file has "
                             f"({shown}): the .bbl and .bib disagree; re-run bibtex/biber",
                             str(bbl))
        return GateCheck("bbl-keys", PASS, f"{bbl.name} and the .bib files agree "
                         f"({len(in_bbl)} keys, every cited key present)")
    return GateCheck("bbl-keys", PASS, f"every cited key is in {bbl.name}")


def _arxiv_check(bbl: Path, bbl_text: str, bibs: list[Path]) -> GateCheck:
    sources = [(bbl, bbl_text)] if bbl.is_file() else [(p, _read(p)) for p in bibs]
    bad: list[tuple[Path, int]] = []
    for path, text in sources:
        bad += [(path, n) for n in split_arxiv_lines(text)]
    if not sources:
        return GateCheck("arxiv-ids", SKIP, "no .bbl or .bib to read")
    if bad:
        path, line = bad[0]
        return GateCheck("arxiv-ids", FAIL,
                         f"{len(bad)} arXiv id(s) split by spaces or braces, which arXiv's "
                         "reference extraction misses: write arXiv:YYMM.NNNNN or "
                         "archive/YYMMNNN in one piece", str(path), line)
    return GateCheck("arxiv-ids", PASS, "arXiv ids are written in one piece")


# ------------------------------------------------------------------ references


def verify_references(main: Path, settings: Settings) -> tuple[RunResult, GateCheck]:
    """Check the references of the main file; the check line counts labels."""
    from citecheck_tex import pipeline
    from citecheck_tex.ignore import apply_ignores
    from citecheck_tex.tex.project import load_project

    project = load_project(main, project_root=settings.resolved_project_root())
    settings, _ = apply_ignores(project, settings)
    result = pipeline.check(project, settings)
    counts = result.summary()
    text = ", ".join(f"{n} {k}" for k, n in counts.items() if n) or "no references"
    from citecheck_tex.verify.policy import failures

    bad, broken = failures(result, settings.fail_on)
    if broken and not bad:
        p = broken[0]
        return result, GateCheck("references", FAIL,
                                 f"{len(broken)} input error(s): {p.code}: {p.message} "
                                 f"({text})", p.file, p.line)
    if bad:
        first = bad[0]
        keys = ", ".join(v.entry.key for v in bad[:5]) + (" ..." if len(bad) > 5 else "")
        # input errors too (an undefined key): the one line must not hide them
        also = f"; and {len(broken)} input error(s): {broken[0].code}: {broken[0].message}" \
            if broken else ""
        return result, GateCheck("references", FAIL,
                                 f"{len(bad)} at or above {settings.fail_on.upper()}: {keys}"
                                 f"{also} ({text})", first.entry.file, first.entry.line)
    return result, GateCheck("references", PASS, f"{len(result.verdicts)} checked: {text}")


def run_gate(folder: Path, settings: Settings, *, verify: bool = True,
             bbl_format: str = ARXIV_BBL_FORMAT) -> GateReport:
    """All checks on a submission folder; never raises for a bad submission."""
    main, checks = check_structure(folder, bbl_format=bbl_format)
    result = None
    if main is not None and verify:
        try:
            result, line = verify_references(main, settings)
        except Exception as exc:  # the summary must still be printed
            logger.debug("verification failed", exc_info=True)
            line = GateCheck("references", FAIL, f"could not verify: {exc}", str(main))
        checks.append(line)
    elif main is not None:
        checks.append(GateCheck("references", SKIP, "--no-verify"))
    shown = tuple(replace(c, file=_relative(folder, c.file)) for c in checks)
    return GateReport(str(folder), str(main) if main else "", shown, result)


def _relative(folder: Path, name: str) -> str:
    """``name`` relative to the submission folder when it lies inside it."""
    if not name:
        return ""
    try:
        return Path(name).resolve().relative_to(folder.resolve()).as_posix()
    except (ValueError, OSError):
        return name


def parser() -> argparse.ArgumentParser:
    """The argument parser of ``citecheck-tex gate`` (also for completion and the man page)."""
    p = Parser(prog="citecheck-tex gate",
               description="Check an arXiv submission folder before uploading it.")
    p.add_argument("folder", metavar="DIR", help="the submission folder")
    p.add_argument("--no-verify", action="store_true",
                   help="structural checks only (no reference retrieval)")
    p.add_argument("--bbl-format", default=ARXIV_BBL_FORMAT, metavar="VERSION",
                   help=f"biblatex .bbl format arXiv expects (default {ARXIV_BBL_FORMAT})")
    add_check_options(p)
    return p


def run(folder: Path, settings: Settings, *, verify: bool = True,
        bbl_format: str = ARXIV_BBL_FORMAT) -> GateReport:
    """The gate as a typed function: :func:`run_gate`."""
    return run_gate(folder, settings, verify=verify, bbl_format=bbl_format)


def cli(argv: Sequence[str]) -> int:
    """``citecheck-tex gate DIR [check options] [--no-verify] [--bbl-format V]``."""
    from citecheck_tex.config import load_settings
    from citecheck_tex.errors import UsageError
    from citecheck_tex.outfiles import print_stream_reports, write_reports
    from citecheck_tex.report.base import ci_path_prefix

    ns = parser().parse_args(list(argv))
    folder = Path(ns.folder)
    if not folder.is_dir():
        raise UsageError(f"{folder}: not a folder", hint="give the submission folder")
    settings = load_settings(folder, overrides(ns))
    report = run(folder, settings, verify=not ns.no_verify, bbl_format=ns.bbl_format)
    sys.stdout.write(report.render())
    if report.result is not None:
        if ns.out:
            written = write_reports(report.result, settings, Path(ns.out))
            print(f"Reports written to {ns.out}: "
                  + ", ".join(str(w.relative_to(ns.out)) for w in written))
        if "github" in settings.formats:
            from citecheck_tex.report.github import render_github

            sys.stdout.write(render_github(report.result,
                                           prefix=ci_path_prefix(report.result, settings)))
        print_stream_reports(report.result, settings, sys.stdout)
    return 0 if report.passed else 1
