"""The reporter protocol, its registry and helpers shared by the reporters.

A reporter takes a :class:`~citecheck_tex.model.RunResult` and returns text:
one ``str`` for a single report, or a mapping file name -> content when it
produces one file per input (the annotated .bib reporter). A reporter whose
output is a file also has ``files(result, settings)`` (:class:`FileReporter`):
the files it produces as :class:`ReportFile` (a path inside the report folder
and the bytes in pieces). Reporters never write files: the one writer,
:func:`citecheck_tex.outfiles.write_reports`, asks the registry for the chosen
formats and writes what their ``files`` give. Built-in reporters register
themselves exactly as a third-party one would, through :func:`register_reporter`.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn, Protocol, cast, runtime_checkable
from urllib.parse import quote

from citecheck_tex.errors import UsageError
from citecheck_tex.model import CiteSite, Label, Record, Verdict
from citecheck_tex.reasons import render_reason

if TYPE_CHECKING:
    from citecheck_tex.config import Settings
    from citecheck_tex.model import RunResult

logger = logging.getLogger(__name__)


@runtime_checkable
class Reporter(Protocol):
    """Something that renders a run.

    ``name`` is the registry name (the ``--format`` value). ``render`` returns
    the report text, or a mapping file name -> content for per-file reports.
    """

    name: str

    def render(self, result: RunResult, settings: Settings) -> str | dict[str, str]:
        """Render ``result``; never writes files."""
        ...


@dataclass(frozen=True, slots=True)
class ReportFile:
    """One file of a report: ``name`` is its POSIX path inside the report folder (it may
    have folders: ``a/refs.annotated.bib``), ``data`` its bytes in pieces (streamed)."""

    name: str
    data: Iterable[bytes]


@runtime_checkable
class FileReporter(Reporter, Protocol):
    """A reporter whose output is written as files into the report folder."""

    def files(self, result: RunResult, settings: Settings) -> Iterator[ReportFile]:
        """The files of the report (none when there is nothing to write)."""
        ...


def utf8_pieces(text: str | Iterable[str]) -> Iterator[bytes]:
    """``text`` (or its pieces) as UTF-8 bytes, lone surrogates from the input kept as bytes."""
    for piece in [text] if isinstance(text, str) else text:
        yield piece.encode("utf-8", errors="surrogateescape")


#: A factory builds a reporter; it takes no argument (settings come with ``render``).
ReporterFactory = Callable[[], Reporter]

_REGISTRY: dict[str, ReporterFactory] = {}

_BUILTIN_MODULES = ("terminal", "json", "html", "annotated_bib", "sarif", "github")


def register_reporter(name: str) -> Callable[[ReporterFactory], ReporterFactory]:
    """Register a reporter factory under ``name`` (used as a class decorator)."""

    def deco(factory: ReporterFactory) -> ReporterFactory:
        _REGISTRY[name] = factory
        return factory

    return deco


def reporter_names() -> tuple[str, ...]:
    """Names of all registered reporters and of the installed plugin reporters (entry
    points of group ``citecheck_tex.reporters``; listed without importing them)."""
    from citecheck_tex import plugins

    _load_builtins()
    return tuple(sorted({*_REGISTRY, *plugins.names(plugins.REPORTERS)}))


def make_reporter(name: str) -> Reporter:
    """Build a registered reporter, or fail with the list of valid names.

    A name that is not registered is looked up among the entry points of group
    ``citecheck_tex.reporters`` and its factory loaded (once). A plugin that cannot be
    loaded or built, or that builds something that is not a :class:`Reporter`, raises
    :class:`PluginError` naming the plugin, and is logged as one warning the first time.
    """
    _load_builtins()
    if name in _BROKEN:
        raise PluginError(_BROKEN[name])
    factory = _REGISTRY.get(name) or _plugin_factory(name)
    if name not in _PLUGINS:
        return factory()
    try:
        reporter = factory()
    except Exception as exc:  # third-party code: one message, no traceback
        _broken(name, f"plugin report format {_PLUGINS[name]} cannot be built: "
                      f"{type(exc).__name__}: {exc}")
    if not isinstance(reporter, Reporter):
        _broken(name, f"plugin report format {_PLUGINS[name]} built a "
                      f"{type(reporter).__name__}, which is not a reporter (it needs name and "
                      "render(result, settings); see docs/api.md)")
    return reporter


class PluginError(UsageError):
    """A plugin reporter that cannot be used; the run goes on without its report."""


#: Reporters that came from entry points: name -> how messages name the plugin.
_PLUGINS: dict[str, str] = {}
#: Plugin reporters that cannot be used: name -> why (warned about once).
_BROKEN: dict[str, str] = {}


def _broken(name: str, why: str) -> NoReturn:
    _BROKEN[name] = why
    logger.warning("%s; its report is not written", why)
    raise PluginError(why)


def is_plugin(name: str) -> bool:
    """Whether the reporter ``name`` comes from a third-party entry point (its faults are
    warnings: the other reports are still written)."""
    return name in _PLUGINS or name in _BROKEN or (
        name not in _REGISTRY and name in reporter_names())


def _plugin_factory(name: str) -> ReporterFactory:
    from citecheck_tex import plugins

    plugin = plugins.plugins(plugins.REPORTERS).get(name)
    if plugin is None:
        raise UsageError(f"unknown report format {name!r}",
                         hint="valid formats: " + ", ".join(reporter_names()))
    factory, why = plugins.load(plugin)
    if factory is None:
        _broken(name, f"plugin report format {plugin.describe()} {why}")
    _PLUGINS[name] = plugin.describe()
    _REGISTRY[name] = cast(ReporterFactory, factory)  # what it builds is checked above
    return _REGISTRY[name]


def _load_builtins() -> None:
    import importlib

    for mod in _BUILTIN_MODULES:
        importlib.import_module(f"citecheck_tex.report.{mod}")


# --------------------------------------------------------------------------- helpers


def ci_path_prefix(result: RunResult, settings: Settings) -> str:
    """The paper's folder relative to the repository root (``--path-root``,
    ``$GITHUB_WORKSPACE`` or ``git rev-parse --show-toplevel``), for SARIF and GitHub
    annotation paths; '' when the paper is at the root or no root is found."""
    from citecheck_tex.repo import find_path_root, folder_prefix
    from citecheck_tex.tex.project import project_folder

    folder = project_folder(result.project)
    return folder_prefix(folder, find_path_root(folder, settings.path_root))

#: Labels in the order reports list them (most severe first).
LABEL_ORDER: tuple[Label, ...] = tuple(sorted(Label, key=lambda lab: lab.rank))

#: Fields compared side by side, in display order: (key, human name).
DISPLAY_FIELDS: tuple[tuple[str, str], ...] = (
    ("title", "Title"),
    ("authors", "Authors"),
    ("year", "Year"),
    ("venue", "Venue"),
    ("volume", "Volume"),
    ("pages", "Pages"),
    ("doi", "DOI"),
    ("arxiv", "arXiv"),
)

_SAFE_URL = re.compile(r"^https?://", re.IGNORECASE)


def safe_url(url: str) -> str:
    """``url`` when it is an http(s) URL, else the empty string (no javascript: links)."""
    url = url.strip()
    return url if _SAFE_URL.match(url) else ""


def doi_url(doi: str) -> str:
    """The resolver URL of a DOI."""
    return "https://doi.org/" + quote(doi.strip(), safe="/:;()._-<>[]")


def arxiv_url(arxiv: str) -> str:
    """The abstract page of an arXiv identifier."""
    return "https://arxiv.org/abs/" + quote(arxiv.strip(), safe="/._-")


def record_links(record: Record) -> list[tuple[str, str]]:
    """Links to a found record as (text, url): the source's page, DOI, arXiv.

    The source page comes first (INSPIRE, Crossref, ... as the adapter gave it);
    identifier links follow. Only http(s) URLs are kept.
    """
    links: list[tuple[str, str]] = []
    seen: set[str] = set()

    def add(text: str, url: str) -> None:
        url = safe_url(url)
        if url and url not in seen:
            seen.add(url)
            links.append((text, url))

    add(record.source, record.url)
    if record.doi:
        add(f"doi:{record.doi}", doi_url(record.doi))
        if record.source.lower() == "crossref" and not record.url:
            add("crossref", "https://api.crossref.org/works/" + quote(record.doi, safe="/"))
    if record.arxiv:
        add(f"arXiv:{record.arxiv}", arxiv_url(record.arxiv))
    if record.source.lower() == "inspire" and not record.url and record.id.isdigit():
        add("inspire", f"https://inspirehep.net/literature/{record.id}")
    return links


def primary_link(record: Record | None) -> str:
    """The single most useful link to a record, or ''."""
    if record is None:
        return ""
    links = record_links(record)
    for text, url in links:
        if text.startswith("doi:"):
            return url
    return links[0][1] if links else ""


def record_field(record: Record, name: str) -> str:
    """A record's field as display text (``authors`` joined with '; ')."""
    if name == "authors":
        names = [p.display() for p in record.authors]
        if record.collaborations:
            names = [*record.collaborations, *names]
        text = "; ".join(names)
        return text + ("; et al." if record.authors_truncated and text else "")
    value = getattr(record, name, "")
    return value if isinstance(value, str) else ""


def entry_field(verdict: Verdict, name: str) -> str:
    """An entry's field as display text, by the same names as :func:`record_field`."""
    entry = verdict.entry
    if name == "authors":
        text = "; ".join(p.display() for p in entry.authors)
        return text + ("; et al." if entry.authors_truncated and text else "")
    value = getattr(entry, name, "")
    if isinstance(value, str) and value:
        return value
    alias = {"venue": ("journal", "booktitle", "journaltitle"), "arxiv": ("eprint",)}
    for field_name in alias.get(name, (name,)):
        if entry.get(field_name):
            return entry.get(field_name)
    return ""


def wrong_fields(verdict: Verdict) -> tuple[str, ...]:
    """Names of the fields that disagree, in discrepancy order, without repeats."""
    out: list[str] = []
    for d in verdict.discrepancies:
        if d.field not in out:
            out.append(d.field)
    return tuple(out)


def sites_of(verdict: Verdict, result: RunResult) -> tuple[CiteSite, ...]:
    """Citation sites of a verdict: its own, else the project's sites of its key."""
    if verdict.sites:
        return verdict.sites
    return result.project.sites_for(verdict.entry.item_key)


def sorted_verdicts(verdicts: tuple[Verdict, ...] | list[Verdict]) -> list[Verdict]:
    """Verdicts by severity, then file, line and key (a stable reading order)."""
    return sorted(
        verdicts, key=lambda v: (v.label.rank, v.entry.file, v.entry.line, v.entry.key)
    )


def location(file: str, line: int) -> str:
    """``file:line``, or ``file`` when the line is unknown."""
    if not file:
        return ""
    return f"{file}:{line}" if line > 0 else file


def shorten(text: str, width: int) -> str:
    """One line of at most ``width`` characters, ending in '…' when cut."""
    text = " ".join(text.split())
    return text if len(text) <= width else text[: max(0, width - 1)] + "…"


# --------------------------------------------------------------------------- verdict kinds


#: The once-per-run advice of the terminal report for index-only UNVERIFIED references.
INDEX_ONLY_ADVICE = "re-run online (without --offline) to check them"

#: Counts of :attr:`RunResult.llm_usage`, in display order.
USAGE_COUNTS: tuple[str, ...] = ("requests", "calls", "cache_hits", "failures",
                                 "prompt_tokens", "completion_tokens")


def describe_partial(result: RunResult) -> str:
    """One line saying the report is partial and why, or "" for a complete run."""
    if not result.partial:
        return ""
    why = {"deadline": "the run's deadline passed",
           "interrupted": "the run was interrupted"}.get(result.partial, result.partial)
    open_refs = sum(1 for v in result.verdicts if v.unsettled)
    return (f"PARTIAL REPORT: {why} before every source was asked; {open_refs} "
            f"reference{'' if open_refs == 1 else 's'} not yet settled "
            f"{'is' if open_refs == 1 else 'are'} UNVERIFIED. Re-run to finish.")


def proposed_by(record: Record | None) -> str:
    """Who proposed an unconfirmed record (the model of the LLM web search), else ''.

    The web-search source names its records by the model that proposed them.
    """
    if record is None or not record.proposed:
        return ""
    return record.id or record.source


def is_index_only(verdict: Verdict) -> bool:
    """True for an UNVERIFIED reference that only a partial local index was asked about.

    Such a reference is not shown fabricated: it is missing from the index. The
    policy marks it (:attr:`Verdict.index_only`) and says what to do in the reason.
    """
    return verdict.label is Label.UNVERIFIED and verdict.index_only


def reason_without_advice(verdict: Verdict) -> str:
    """The verdict's reason without run-level advice ("re-run online ..."), for reports
    that give that advice once per run."""
    return render_reason(verdict, advice=False)


def _loose_title(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def real_work_caption(verdict: Verdict) -> str:
    """For a MAJOR verdict that names a record (a chimera, a hijacked identifier): what
    that record is, e.g. "The real work with this title and identifier"; else ''.

    Such a record is evidence that the citation borrows a real work's title or
    identifier, never a correction of the citation.
    """
    record, entry = verdict.match, verdict.entry
    if verdict.label is not Label.MAJOR or record is None:
        return ""
    same_id = bool((entry.doi and record.doi
                    and entry.doi.strip().lower() == record.doi.strip().lower())
                   or (entry.arxiv and record.arxiv
                       and entry.arxiv.strip().lower() == record.arxiv.strip().lower()))
    title_check = next((c.agree for c in verdict.checks if c.field == "title"), None)
    same_title = title_check is True or bool(
        title_check is None and entry.title and record.title
        and _loose_title(entry.title) == _loose_title(record.title))
    if same_title and same_id:
        return "The real work with this title and identifier"
    if same_id:
        return "The real work with this identifier"
    if same_title:
        return "The real work with this title"
    return "The real work this citation points to"


#: Display names of the LLM parts of :attr:`RunResult.llm_usage`.
_PART_NAMES = {"websearch": "web search", "judge": "judge", "parse": "parsing"}


def usage_totals(usage: Mapping[str, Mapping[str, int]]) -> dict[str, int]:
    """Every count of :attr:`RunResult.llm_usage` summed over its parts."""
    return {name: sum(int(part.get(name, 0)) for part in usage.values())
            for name in USAGE_COUNTS}


def describe_usage(result: RunResult) -> str:
    """One line on what the LLM parts cost, e.g. ``LLM gpt-4o: 3 requests, 120 tokens
    (web search 2 requests, 80 tokens)``; '' when no LLM part ran."""
    if not result.llm_usage:
        return ""
    total = usage_totals(result.llm_usage)

    def cost(counts: Mapping[str, int]) -> str:
        tokens = int(counts.get("prompt_tokens", 0)) + int(counts.get("completion_tokens", 0))
        hits = int(counts.get("cache_hits", 0))
        cached = f", {hits} cached" if hits else ""
        return f"{int(counts.get('requests', 0))} requests{cached}, {tokens} tokens"

    parts = ", ".join(f"{_PART_NAMES.get(name, name)} {cost(counts)}"
                      for name, counts in sorted(result.llm_usage.items()))
    model = f" {result.llm_model}" if result.llm_model else ""
    return f"LLM{model}: {cost(total)} ({parts})"
