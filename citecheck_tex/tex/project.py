"""Load a paper: a .tex (with its includes and bibliography), a folder, a .bib/.bbl or a list.

This is the frontend's I/O edge: it reads files and hands text to the pure
parsers (:mod:`cites`, :mod:`bib`, :mod:`bbl`, :mod:`textlist`, :mod:`aux`).
Only a missing, unreadable or unsupported *input* raises
:class:`~citecheck_tex.errors.InputError`; everything else is a Problem.
"""

from __future__ import annotations

import contextlib
import difflib
import logging
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from citecheck_tex.errors import InputError
from citecheck_tex.model import CiteSite, Entry, EntryOrigin, Problem, Project
from citecheck_tex.repo import git_toplevel
from citecheck_tex.tex.aux import Artefact, parse_aux_text, parse_bcf_text
from citecheck_tex.tex.bbl import parse_bbl_text
from citecheck_tex.tex.bib import parse_bib_text
from citecheck_tex.tex.cites import (
    BibliographyEnvEvent,
    CiteEvent,
    IncludeEvent,
    IncludeOnlyEvent,
    MacroTable,
    ResourceEvent,
    scan_tex,
)
from citecheck_tex.tex.encoding import decode_source
from citecheck_tex.tex.textlist import parse_text_list
from citecheck_tex.vocab.latex_text import blank_ignored

logger = logging.getLogger(__name__)

SUPPORTED = (".tex", ".bib", ".bbl", ".txt", ".md")
_HYGIENE = frozenset({"missing-title-and-id", "arxiv-id-form", "doi-syntax", "missing-field"})
_MAX_DEPTH = 50
#: A bibliography resource that is a URL (biblatex's location=remote).
_REMOTE = re.compile(r"(?i)(?:https?|ftp)://")
#: Files read for one paper at most: a real paper reads tens; files that each include
#: the next one twice read 2**25 files (a run that never ended).
_MAX_READS = 5000
#: A main file's class line; ``\documentstyle`` is LaTeX 2.09's (old arXiv papers).
_DOCCLASS = re.compile(r"\\document(?:class|style)\s*(?:\[[^\]]*\])?\s*\{([^}]*)\}")
#: Classes of a file that is compiled alone but is part of another document.
_PART_CLASSES = ("subfiles", "standalone")
_BIBLATEX_PKG = re.compile(r"\\usepackage\s*(?:\[[^\]]*\])?\s*\{[^}]*\bbiblatex\b[^}]*\}")


def project_folder(project: Project) -> Path:
    """The folder a project's file names are relative to: the main file's, else the input's
    (its ignore file and the report copies of its .bib files are placed by this folder)."""
    base = Path(project.main_file or project.input)
    return base if base.is_dir() else base.parent


def read_text(path: Path) -> str:
    """Read a file as UTF-16 (by its BOM or NUL bytes), else UTF-8, else Latin-1
    (old arXiv sources)."""
    return decode_source(path.read_bytes())


#: The encoding biber wrote a .bbl in, as its control file (.bcf) states it.
_BCF_OUTPUT_ENCODING = re.compile(r"<bcf:key>\s*output_encoding\s*</bcf:key>\s*"
                                  r"<bcf:value>\s*([\w.:-]+)\s*</bcf:value>")


def read_bbl(path: Path) -> str:
    """Read a .bbl as :func:`read_text` does, unless it is no UTF-8 and the .bcf beside it
    names the encoding biber wrote it in (``texencoding``: caspervector's default GBK,
    an ``inputenc`` latin1 document). Read as Latin-1, a GBK "Téramond" was "T¨¦ramond"
    (a false MINOR author)."""
    data = path.read_bytes()
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        bcf = path.with_suffix(".bcf")
        with contextlib.suppress(OSError, LookupError, UnicodeDecodeError):
            m = _BCF_OUTPUT_ENCODING.search(bcf.read_text(encoding="utf-8", errors="replace"))
            if m and m.group(1).lower().replace("-", "") not in ("utf8", "ascii"):
                return data.decode(m.group(1))
    return decode_source(data)


def load_project(path: Path, *, project_root: Path | None = None) -> Project:
    """Load what to check from a .tex, a folder, a .bib/.bbl or a .txt/.md reference list.

    ``project_root`` is the folder the paper's files may come from (default: the git
    repository holding the main file, so a shared ``\bibliography{../refs}`` in the
    same repository is checked; outside git, the main file's folder). A file read from outside it (``\\input{../../etc/x}``,
    ``\\addbibresource{/etc/passwd}``) is read as TeX reads it, but reported as
    ``outside-project`` and nothing from it reaches the reports or the sources
    beyond citation keys: its entries keep only key, file and line and are not checked.

    Raises InputError only when the input itself is missing, unreadable or
    unsupported, or when a folder has no or several candidate main files.
    """
    path = Path(path)
    if not path.exists():
        raise InputError(f"{path} does not exist", hint="give a .tex, .bib, .bbl, .txt/.md file "
                         "or a folder holding the paper")
    if path.is_dir():
        return _load_tex(find_main_file(path), input_=path, project_root=project_root)
    suffix = path.suffix.lower()
    if suffix not in SUPPORTED:
        raise InputError(f"unsupported input {path.name!r}",
                         hint="give a .tex, .bib, .bbl, .txt or .md file, or a folder")
    if suffix == ".tex":
        return _load_tex(path, input_=path, project_root=project_root)
    text = _read_input(path)
    name = path.name
    if suffix == ".bib":
        entries, problems = parse_bib_text(text, name)
        problems.extend(_empty_bib(name, entries, problems))
    elif suffix == ".bbl":
        entries, problems = parse_bbl_text(text, name)
    else:
        entries, problems = parse_text_list(text, name)
    return Project(input=str(path), main_file=str(path), files=(name,), resources=(name,),
                   entries=tuple(entries), all_entries=tuple(entries), sites=(),
                   problems=tuple(problems))


def _read_input(path: Path) -> str:
    try:
        return read_bbl(path) if path.suffix.lower() == ".bbl" else read_text(path)
    except OSError as exc:
        raise InputError(f"cannot read {path}: {exc.strerror or exc}",
                         hint="check the file's permissions") from exc


def _tex_files(folder: Path) -> list[Path]:
    return sorted(p for p in folder.rglob("*.tex")
                  if p.is_file() and len(p.relative_to(folder).parts) <= 4)


def main_file_candidates(folder: Path) -> list[Path]:
    """The .tex files of ``folder`` (up to 4 levels deep) that can be a main file: with
    ``\\documentclass`` (or ``\\documentstyle``), not of a part class (``subfiles``,
    ``standalone``), included by no other file. The one rule for ``check`` on a folder
    and for ``gate`` (which adds arXiv's ``00README`` on top)."""
    texs = _tex_files(folder)
    included: set[Path] = set()
    roots: list[Path] = []
    for p in texs:
        try:
            text = read_text(p)
        except OSError:
            continue
        clean = blank_ignored(text)
        m = _DOCCLASS.search(clean)
        if m and m.group(1).strip() not in _PART_CLASSES:
            roots.append(p)
        for ev in scan_tex(text):
            if isinstance(ev, IncludeEvent):
                for base in (folder, p.parent, folder / ev.folder, p.parent / ev.folder):
                    for cand in (base / ev.target, base / f"{ev.target}.tex"):
                        included.add(cand.resolve())
    return [p for p in roots if p.resolve() not in included]


def find_main_file(folder: Path) -> Path:
    """The main file of ``folder``: the only :func:`main_file_candidates` one.

    When several remain, the one with a .bbl/.aux beside it wins if it is
    the only one; otherwise InputError lists the candidates.
    """
    if not _tex_files(folder):
        raise InputError(f"no .tex file in {folder}", hint="give the main .tex file itself")
    candidates = main_file_candidates(folder)
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        raise InputError(f"no main .tex (with \\documentclass, not included by another file) in "
                         f"{folder}", hint="give the main .tex file itself")
    built = [p for p in candidates if p.with_suffix(".bbl").exists() or
             p.with_suffix(".aux").exists()]
    if len(built) == 1:
        return built[0]
    names = ", ".join(str(p.relative_to(folder)) for p in candidates)
    raise InputError(f"several main files in {folder}: {names}",
                     hint="give the one to check, e.g. citecheck-tex " +
                     str(candidates[0]))


@dataclass
class _State:
    main: Path
    root: Path
    fence: Path  # the project folder (resolved): files outside it are reported
    table: MacroTable = field(default_factory=MacroTable)
    files: list[str] = field(default_factory=list)
    sites: list[CiteSite] = field(default_factory=list)
    resources: list[tuple[Path | None, str, str, int]] = field(default_factory=list)
    inline: list[Entry] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    includeonly: set[str] | None = None
    nocite_all: bool = False
    stack: list[Path] = field(default_factory=list)
    paths: list[Path] = field(default_factory=list)  # the .tex files read, in reading order
    biblatex: bool = False  # \usepackage{biblatex} or a biblatex resource command seen
    reads: int = 0  # files read (one file included twice is read twice, as TeX does)
    aux_file_of: dict[str, str] = field(default_factory=dict)  # keys of included .aux files
    bibliography_env: bool = False  # a thebibliography environment in the source

    def rel(self, p: Path) -> str:
        """``p`` as the reports name it: relative to the main file's folder, with ``..``
        for a project file beside it (a shared ``\\bibliography{../refs}``: reports,
        annotated copies and SARIF find it from the main file's folder whatever folder
        the run started in); a file outside the project as it was given."""
        resolved = p.resolve()
        root = self.root.resolve()
        try:
            return resolved.relative_to(root).as_posix()
        except ValueError:
            pass
        if resolved.is_relative_to(self.fence):
            with contextlib.suppress(ValueError):  # (another drive)
                return Path(os.path.relpath(resolved, root)).as_posix()
        return str(p)

    def outside(self, p: Path) -> bool:
        """Whether ``p`` (symbolic links followed, as TeX follows them) lies outside the project."""
        return not p.resolve().is_relative_to(self.fence)

    def report_outside(self, p: Path, what: str, file: str, line: int) -> None:
        self.problems.append(Problem(
            "outside-project",
            f"{what} reads {p.resolve()}, a file outside the project folder {self.fence}: "
            "it is read as TeX reads it, but its entries are not checked and nothing from "
            "it but citation keys appears in the reports (move it into the project folder, "
            "or pass --project-root)", file=file, line=line))


def _resolve(bases: list[Path], target: str, exts: tuple[str, ...] = ("", ".tex")) -> Path | None:
    for base in bases:
        for ext in exts:
            cand = base / f"{target}{ext}"
            if cand.is_file():
                return cand
    return None


def _redact(entry: Entry) -> Entry:
    """``entry`` reduced to key, file and line: it comes from outside the project."""
    return Entry(key=entry.key, entry_type="misc", file=entry.file, line=entry.line,
                 origin=entry.origin, end_line=entry.end_line, outside_project=True)


@dataclass(frozen=True, slots=True)
class TexWalk:
    """What following a main file's includes found, before any bibliography is read.

    ``files``: the .tex files read, main first, in reading order. ``resources``: per
    bibliography named, (the file found or None, the name with ``.bib`` added for
    ``\\bibliography``, the .tex file naming it, its line). ``sites``: the citations.
    ``biblatex``: biblatex is loaded or a biblatex resource command is used.
    ``bibliography_env``: a ``thebibliography`` environment is in the source.
    """

    main: Path
    files: tuple[Path, ...]
    resources: tuple[tuple[Path | None, str, str, int], ...]
    sites: tuple[CiteSite, ...]
    biblatex: bool
    bibliography_env: bool
    problems: tuple[Problem, ...]


def walk_tex(main: Path, *, project_root: Path | None = None) -> TexWalk:
    """Follow ``main``'s includes as :func:`load_project` does (the one include walker;
    ``project_root`` as there) without reading the bibliographies."""
    st = _new_state(main, project_root)
    _walk(st, main, main.parent, 0)
    return TexWalk(main, tuple(st.paths), tuple(st.resources), tuple(st.sites), st.biblatex,
                   st.bibliography_env, tuple(st.problems))


def _new_state(main: Path, project_root: Path | None) -> _State:
    fence = project_root if project_root is not None else (git_toplevel(main.parent)
                                                           or main.parent)
    return _State(main=main, root=main.parent, fence=fence.resolve())


def _walk(st: _State, path: Path, base: Path, depth: int) -> None:
    try:
        text = read_text(path)
    except OSError as exc:
        st.problems.append(Problem("missing-file", f"cannot read {st.rel(path)}: {exc}",
                                   file=st.rel(path)))
        return
    st.reads += 1
    st.files.append(st.rel(path))
    st.paths.append(path)
    st.stack.append(path.resolve())
    if "biblatex" in text and _BIBLATEX_PKG.search(blank_ignored(text)):
        st.biblatex = True
    here = st.rel(path)
    for ev in scan_tex(text, st.table):
        if isinstance(ev, CiteEvent):
            for key, line in ev.keys:
                if key == "*":
                    st.nocite_all = True
                else:
                    st.sites.append(CiteSite(key, here, line, ev.command))
        elif isinstance(ev, IncludeOnlyEvent):
            st.includeonly = set(ev.names)
        elif isinstance(ev, IncludeEvent):
            _follow(st, ev, path, base, depth)
        elif isinstance(ev, ResourceEvent):
            st.biblatex = st.biblatex or ev.command.lower() != "bibliography"
            for name in ev.names:
                if _REMOTE.match(name):  # \addbibresource[location=remote]{https://...}
                    st.problems.append(Problem(
                        "missing-file", f"\\{ev.command}{{{name}}}: a remote bibliography "
                        "is not fetched; its entries are not checked (save it beside the "
                        "paper to check them)", file=here, line=ev.line, level="warning"))
                    continue
                if ev.command == "bibliography" and not name.lower().endswith(".bib"):
                    name = f"{name}.bib"
                found = _resolve([st.root, path.parent, base], name, ("",))
                st.resources.append((found, name, here, ev.line))
        elif isinstance(ev, BibliographyEnvEvent):
            st.bibliography_env = True
            entries, problems = parse_bbl_text(ev.text, here, line_offset=ev.line - 1,
                                               origin=EntryOrigin.TEXT)
            if st.outside(path):  # its text stays out of the reports
                st.inline.extend(_redact(e) for e in entries)
                continue
            st.inline.extend(entries)
            st.problems.extend(problems)
    st.stack.pop()


def _follow(st: _State, ev: IncludeEvent, path: Path, base: Path, depth: int) -> None:
    here = st.rel(path)
    cmd = ev.command.lower()
    target = ev.target
    if len(target) > 2 and target[0] == target[-1] == '"':  # \input{"my section"}
        target = target[1:-1]
    if cmd == "include" and st.includeonly is not None and target not in st.includeonly \
            and target.removesuffix(".tex") not in st.includeonly:
        return
    if cmd in ("import", "inputfrom", "includefrom"):
        new_base = (st.root / ev.folder) if not Path(ev.folder).is_absolute() else Path(ev.folder)
        bases = [new_base]
    elif cmd in ("subimport", "subinputfrom", "subincludefrom"):
        new_base = base / ev.folder
        bases = [new_base, path.parent / ev.folder]
    elif cmd == "subfile":
        new_base = base
        bases = [path.parent, base, st.root]
    else:
        new_base = base
        bases = [base, st.root, path.parent]
    found = _resolve(bases, target)
    if found is None:
        st.problems.append(Problem("missing-file", f"\\{ev.command}{{{target}}}: file not found "
                                   f"(looked in {', '.join(sorted({st.rel(b) or '.' for b in bases}))})",
                                   file=here, line=ev.line))
        return
    if found.resolve() in st.stack or depth >= _MAX_DEPTH:
        st.problems.append(Problem("include-cycle", f"\\{ev.command}{{{target}}} includes a file "
                                   "that is already being read; not followed again",
                                   file=here, line=ev.line))
        return
    if st.reads >= _MAX_READS:  # files that include the same files twice, 20 deep
        if st.reads == _MAX_READS:
            st.reads += 1
            st.problems.append(Problem(
                "include-cycle", f"\\{ev.command}{{{target}}}: over {_MAX_READS:,} files "
                "read for this paper (the same files included again and again?); the rest "
                "is not followed", file=here, line=ev.line))
        return
    if cmd == "subfile":
        new_base = found.parent
    if st.outside(found) and not st.outside(path):  # said once, where the way out starts
        st.report_outside(found, f"\\{ev.command}{{{target}}}", here, ev.line)
    _walk(st, found, new_base, depth + 1)


def _artefacts(st: _State) -> list[tuple[str, Artefact]]:
    out: list[tuple[str, Artefact]] = []
    aux = st.main.with_suffix(".aux")
    if aux.is_file():
        try:
            art = parse_aux_text(read_text(aux))
            keys = list(art.keys)
            for sub in art.inputs:
                p = st.root / sub
                if p.is_file():
                    sub_keys = parse_aux_text(read_text(p)).keys
                    keys.extend(sub_keys)
                    for k in sub_keys:  # (\@input{chap.aux}: the key is chap.aux's)
                        st.aux_file_of.setdefault(k, st.rel(p))
            out.append((st.rel(aux), Artefact(tuple(dict.fromkeys(keys)), art.resources)))
        except OSError:
            logger.debug("cannot read %s", aux)
    bcf = st.main.with_suffix(".bcf")
    if bcf.is_file():
        try:
            out.append((st.rel(bcf), parse_bcf_text(read_text(bcf))))
        except OSError:
            logger.debug("cannot read %s", bcf)
    return out


def _check_project_root(main: Path, project_root: Path) -> None:
    """A project root that is no folder, or does not hold the main file, is a mistake
    (a typo): every file would be outside it and no entry checked, a silent pass."""
    if not project_root.is_dir():
        raise InputError(f"project root {project_root} is not a folder",
                         hint="give --project-root (project_root) the folder that holds "
                              "the paper, or leave it out")
    if not main.resolve().is_relative_to(project_root.resolve()):
        raise InputError(f"{main} is not inside the project root {project_root}",
                         hint="give --project-root (project_root) a folder that holds the "
                              "paper, or leave it out")


def _load_tex(main: Path, *, input_: Path, project_root: Path | None = None) -> Project:
    try:
        read_text(main)
    except OSError as exc:
        raise InputError(f"cannot read {main}: {exc}", hint="check the file's permissions") from exc
    if project_root is not None:
        _check_project_root(main, project_root)
    st = _new_state(main, project_root)
    _walk(st, main, main.parent, 0)
    problems = st.problems
    # --- bibliography resources
    bib_entries: list[Entry] = []
    bib_problems: list[Problem] = []
    resource_names: list[str] = []
    first_def: dict[str, Entry] = {}
    bbl_path = main.with_suffix(".bbl")
    has_bbl = bbl_path.is_file()
    seen_res: set[Path] = set()
    missing_bibs: list[str] = []
    looked_for: list[str] = []  # where the missing ones would be
    for found, name, file, line in st.resources:
        if found is None:
            expected = name if name.lower().endswith(".bib") else f"{name}.bib"
            looked_for.append(st.rel(st.root / expected))
            if has_bbl:
                problems.append(Problem("missing-file", f"bibliography {name!r} not found; "
                                        f"using {bbl_path.name}", file=file, line=line,
                                        level="warning"))
            else:
                problems.append(Problem("missing-file", _missing_bib_message(st, name),
                                        file=file, line=line))
                missing_bibs.append(name)
            continue
        if found.resolve() in seen_res:
            continue
        seen_res.add(found.resolve())
        resource_names.append(st.rel(found))
        try:
            text = read_text(found)
        except OSError as exc:
            problems.append(Problem("missing-file", f"cannot read {name}: {exc}", file=file,
                                    line=line))
            continue
        # biber reads % lines as comments (a commented-out old entry), BibTeX does not
        entries, probs = parse_bib_text(text, st.rel(found), percent_comments=st.biblatex)
        if st.outside(found):  # keys only: its fields and its problems' texts stay out
            st.report_outside(found, f"bibliography {name!r}", file, line)
            entries = [_redact(e) for e in entries]
            probs = [p for p in probs if p.code == "duplicate-key"]
        bib_problems.extend(probs)
        problems.extend(_empty_bib(st.rel(found), entries, probs))
        for e in entries:
            prev = first_def.get(e.key)
            if prev is not None:
                for a, b in ((prev, e), (e, prev)):
                    bib_problems.append(Problem(
                        "duplicate-key", f"key {e.key!r} is defined at {a.file}:{a.line} and "
                        f"{b.file}:{b.line}; the first ({prev.file}:{prev.line}) is used",
                        key=e.key, file=a.file, line=a.line))
                continue
            first_def[e.key] = e
            bib_entries.append(e)
    bbl_entries: list[Entry] = []
    if has_bbl:
        try:
            bbl_entries, bbl_probs = parse_bbl_text(read_bbl(bbl_path), st.rel(bbl_path))
            resource_names.append(st.rel(bbl_path))
            bib_problems.extend(p for p in bbl_probs if p.code not in _HYGIENE or not bib_entries)
        except OSError:
            logger.debug("cannot read %s", bbl_path)
    pool: list[Entry] = list(bib_entries) if bib_entries or not bbl_entries else list(bbl_entries)
    pool.extend(st.inline)
    if not st.resources and not has_bbl and not st.inline:
        problems.append(Problem("no-bibliography", "no \\bibliography, \\addbibresource, .bbl or "
                                "thebibliography found: nothing to check",
                                file=st.rel(main), line=1))
    # --- cited keys: source sites plus build artefacts
    cited: dict[str, CiteSite | None] = {}
    build_file: dict[str, str] = {}  # keys only a build file (.aux, .bcf) cites: which
    for s in st.sites:
        cited.setdefault(s.key, s)
    source_keys = set(cited)
    for art_name, art in _artefacts(st):
        art_keys = {k for k in art.keys if k != "*"}
        if "*" in art.keys:
            st.nocite_all = True
        for k in sorted(art_keys - source_keys):
            where = st.aux_file_of.get(k, art_name)
            problems.append(Problem("artefact-mismatch", f"{where} cites {k!r}, which the "
                                    "source files do not cite (stale build or unread macro?)",
                                    key=k, file=where))
            cited.setdefault(k, None)
            build_file.setdefault(k, where)
        for k in sorted(source_keys - art_keys):
            site = cited[k]
            problems.append(Problem("artefact-mismatch", f"{k!r} is cited in the source but not "
                                    f"in {art_name} (rebuild the paper?)", key=k,
                                    file=site.file if site else "", line=site.line if site else 0))
    by_key = {e.key: e for e in pool}
    by_lower = {e.key.lower(): e for e in pool}
    first_of: dict[str, Entry] = {}
    for e in pool:  # BibTeX's "Repeated entry": keys are one key in any case
        other = first_of.setdefault(e.key.lower(), e)
        if other.key != e.key and e.origin is EntryOrigin.BIB and other.origin is EntryOrigin.BIB:
            problems.append(Problem(
                "duplicate-key", f"key {e.key!r} differs from {other.key!r} "
                f"({other.file}:{other.line}) only in case: BibTeX takes them for one key "
                "(\"Repeated entry\"), biber for two", key=e.key, file=e.file, line=e.line,
                level="warning"))
    used: set[str] = set()
    unreadable = {p.key.lower(): p for p in bib_problems if p.code == "parse-error" and p.key}
    for key, site in cited.items():
        entry = by_key.get(key) or by_lower.get(key.lower())
        if entry is None:
            count = sum(1 for s in st.sites if s.key == key)
            broken = unreadable.get(key.lower())
            if broken is not None:  # defined, but its entry could not be read
                problems.append(Problem(
                    "undefined-key", f"{key!r} is cited ({count} time"
                    f"{'s' if count != 1 else ''}) but its entry at {broken.file}:"
                    f"{broken.line} could not be read (see the parse error there)", key=key,
                    file=site.file if site else build_file.get(key, ""),
                    line=site.line if site else 0))
                continue
            if site is None and key in build_file:  # cited by the build file alone
                problems.append(Problem("undefined-key", f"{key!r} is cited in the build "
                                        f"file {build_file[key]} (not in the source files) "
                                        "but defined in no bibliography", key=key,
                                        file=build_file[key]))
                continue
            problems.append(Problem("undefined-key", f"{key!r} is cited ({count} time"
                                    f"{'s' if count != 1 else ''}) but defined in no "
                                    "bibliography", key=key, file=site.file if site else "",
                                    line=site.line if site else 0))
        else:
            used.add(entry.key)
            parent = entry.fields.get("crossref", "")
            if parent:  # BibTeX matches it in any case ("conf2019" uses "Conf2019")
                parent_entry = by_key.get(parent) or by_lower.get(parent.lower())
                used.add(parent_entry.key if parent_entry is not None else parent)
    # the other references of a cited item ("KEY#2" of "KEY", see tex.merged) are cited too
    used.update(e.key for e in pool if e.part_of and e.part_of in used)
    if missing_bibs:
        problems = _collapse_undefined(problems, missing_bibs)
    reported_undefined = {p.key for p in problems if p.code == "undefined-key"}
    bib_problems = [p for p in bib_problems
                    if not (p.code == "undefined-key" and p.key in reported_undefined)]
    if st.nocite_all:
        checked = list(pool)
    else:
        checked = [e for e in pool if e.key in used]
        for e in pool:
            if e.key not in used and not e.part_of:  # an item is unused once, by its key
                problems.append(Problem("unused-entry", f"{e.key!r} is defined but never cited",
                                        key=e.key, file=e.file, line=e.line))
    checked_keys = {e.key for e in checked}
    problems.extend(p for p in bib_problems if p.code not in _HYGIENE or p.key in checked_keys)
    if bib_entries and bbl_entries:
        bib_keys = {e.key for e in bib_entries}
        bbl_keys = {e.key for e in bbl_entries}
        for e in bbl_entries:
            if e.key not in bib_keys and not e.part_of:
                problems.append(Problem("bbl-mismatch", f"{e.key!r} is in {e.file} but in no .bib "
                                        "(stale .bbl?)", key=e.key, file=e.file, line=e.line))
        for e in checked:
            if e.origin is EntryOrigin.BIB and e.key not in bbl_keys:
                problems.append(Problem("bbl-mismatch", f"{e.key!r} is cited and in {e.file} but "
                                        f"not in {bbl_path.name} (rebuild the .bbl)", key=e.key,
                                        file=e.file, line=e.line))
    return Project(
        input=str(input_), main_file=str(main), files=tuple(st.files),
        resources=tuple(resource_names), entries=tuple(checked),
        all_entries=tuple(pool), sites=tuple(st.sites), problems=tuple(problems),
        missing=tuple(dict.fromkeys(looked_for)),
    )


def _empty_bib(name: str, entries: list[Entry], problems: list[Problem]) -> list[Problem]:
    """An ``empty-bib`` error for a .bib that yields no entry and no other error."""
    if entries or any(p.code == "parse-error" for p in problems):
        return []
    return [Problem("empty-bib", f"{name} defines no entries (an empty or truncated file?)",
                    file=name, line=1)]


def _missing_bib_message(st: _State, name: str) -> str:
    """What was looked for and, when one is near, the .bib the author probably meant."""
    looked = st.rel(st.root / name)
    found = sorted({p for p in st.root.rglob("*.bib")
                    if "citecheck-report" not in p.parts and p.is_file()})[:200]
    rels = [st.rel(p) for p in found]
    msg = f"bibliography {name!r} not found (looked for {looked} in {st.root.resolve()})"
    if not rels:
        return msg + "; no .bib file is in the project folder"
    stem = Path(name).stem.lower()
    close = difflib.get_close_matches(stem, [Path(r).stem.lower() for r in rels], n=1, cutoff=0.5)
    guess = next((r for r in rels if close and Path(r).stem.lower() == close[0]),
                 rels[0] if len(rels) == 1 else "")
    if guess:
        return msg + f"; did you mean {guess!r}? (write \\bibliography{{{guess[:-4]}}})"
    return msg + "; .bib files in the project folder: " + ", ".join(rels[:5])


def _collapse_undefined(problems: list[Problem], missing: list[str]) -> list[Problem]:
    """The undefined keys a missing bibliography causes, as one line instead of a flood."""
    undefined = [p for p in problems if p.code == "undefined-key"]
    if len(undefined) < 2:
        return problems
    keys = ", ".join(p.key for p in undefined[:3]) + (", ..." if len(undefined) > 3 else "")
    first = undefined[0]
    names = ", ".join(repr(n) for n in missing)
    one = Problem("undefined-key", f"{len(undefined)} cited keys are undefined ({keys}), "
                  f"probably because bibliography {names} was not found", file=first.file,
                  line=first.line)
    out = [p for p in problems if p.code != "undefined-key"]
    out.insert(next((i for i, p in enumerate(out) if p.code == "missing-file"), len(out)) + 1, one)
    return out
