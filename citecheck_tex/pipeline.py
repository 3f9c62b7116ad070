"""The check pipeline: frontend -> retrieval cascade -> verification.

:func:`check` is the library entry point the CLI calls. The cascade runs
stage by stage over *all* unsettled entries at once, so that sources which
batch (arXiv ``id_list``, Crossref ``filter=doi:``, Semantic Scholar
``/paper/batch``) see many identifiers in one request. The order of sources
per query kind is data in :mod:`citecheck_tex.sources.plan`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import partial
from typing import TYPE_CHECKING

from citecheck_tex.config import Settings
from citecheck_tex.model import (
    Answer,
    Comparison,
    Entry,
    Label,
    Problem,
    Project,
    Query,
    QueryKind,
    Record,
    RunResult,
    SourceStatus,
    Verdict,
    VerdictCode,
)
from citecheck_tex.sources import plan
from citecheck_tex.sources.plan import BATCHED_KINDS, PLAN, STAGES, groups_for
from citecheck_tex.version import __version__
from citecheck_tex.vocab.ids import find_report_number

if TYPE_CHECKING:
    from citecheck_tex.cache import AnswerCache
    from citecheck_tex.llm import LlmSession, LlmSessions, LlmUsage
    from citecheck_tex.sources.base import Source
    from citecheck_tex.sources.http import Http

logger = logging.getLogger(__name__)


@dataclass(slots=True)
class ProgressState:
    """What a progress display needs; the pipeline updates it in place."""

    total: int
    done: int = 0
    counts: dict[str, int] = field(default_factory=dict)
    slowest: str = ""
    slowest_ms: float = 0.0
    stage: str = ""


ProgressCallback = Callable[[ProgressState], None]


@dataclass(slots=True)
class Stop:
    """Why retrieval ended early, filled in by :func:`run_cascade`.

    ``reason`` is "" (it ran to the end), "deadline" (the run's deadline,
    :meth:`Settings.run_deadline`, passed) or "interrupted" (the task was
    cancelled: Ctrl-C). ``unsettled`` counts the references still open then;
    they are UNVERIFIED. With ``absorb_cancel`` a cancellation is turned into a
    partial result instead of propagating (the CLI's Ctrl-C: the report is
    still written).

    ``ends_at`` (event-loop time) and ``budget_s`` are the run's deadline clock, set
    by :meth:`start_clock`: by :func:`check_project` before an LLM parse, else by
    :func:`run_cascade` before retrieval. It bounds the LLM parse, the retrieval
    and the LLM judge alike, so a held LLM answer cannot keep a run past it.
    """

    absorb_cancel: bool = False
    reason: str = ""
    deadline_s: float = 0.0
    unsettled: int = 0
    ends_at: float | None = None
    budget_s: float = 0.0

    def start_clock(self, deadline: float | None) -> None:
        """Start the run's deadline clock now (None: no deadline); a started one stays."""
        if self.ends_at is None and deadline is not None:
            self.ends_at = asyncio.get_running_loop().time() + deadline
            self.budget_s = deadline

    def passed(self) -> None:
        """Record that the deadline passed."""
        self.reason, self.deadline_s = "deadline", self.budget_s

    def absorbed(self) -> bool:
        """In ``except asyncio.CancelledError``: True when the cancellation (Ctrl-C) is
        absorbed (the task uncancelled, ``reason`` "interrupted"); False: re-raise it."""
        if not self.absorb_cancel:
            return False
        task = asyncio.current_task()
        if task is not None:
            task.uncancel()
        self.reason = "interrupted"
        return True

    def problem(self) -> Problem | None:
        """The run-level problem that says the report is partial, or None."""
        if not self.reason:
            return None
        if self.reason == "deadline":
            return Problem("deadline", (
                f"the run's deadline ({self.deadline_s:.0f} s) passed with {self.unsettled} "
                "reference(s) not yet settled: they are UNVERIFIED and this report is partial. "
                "Re-run to finish (answers received are cached), or raise deadline_s / "
                "deadline_per_reference_s (docs/sources.md)."))
        return Problem("interrupted", (
            f"interrupted with {self.unsettled} reference(s) not yet settled: they are "
            "UNVERIFIED and this report is partial. Re-run to finish (answers received "
            "are cached)."))


class RunSession:
    """What one check opens once and closes once: the HTTP client, the answer cache and
    the LLM session (shared by the LLM parse, the cascade's sources, the judge and the
    texkey hints).

    Each is opened at its first use (a watch cycle whose verdicts are all known opens
    nothing) and all are closed by :func:`open_run`'s exit, also after a deadline, an
    error or Ctrl-C. An HTTP client passed to :func:`open_run` is used, not closed.
    """

    def __init__(self, settings: Settings, stack: contextlib.AsyncExitStack,
                 http: Http | None = None) -> None:
        from citecheck_tex.llm import LlmSessions

        self.settings = settings
        self._stack = stack
        self._http = http
        self._cache: AnswerCache | None = None
        self._cache_opened = False
        #: the run's one LLM session, opened by its first user
        self.llm: LlmSessions = LlmSessions(settings)

    async def http(self) -> Http:
        """The run's HTTP stack (opened now at the first call)."""
        if self._http is None:
            from citecheck_tex.sources.http import open_http

            self._http = await self._stack.enter_async_context(open_http(self.settings))
        return self._http

    def cache(self, *, warn: bool = True) -> AnswerCache | None:
        """The run's answer cache, None when disabled or unusable (opened at the first call,
        which says so once when ``warn``); it also keeps the LLM's responses."""
        if not self._cache_opened:
            self._cache_opened = True
            self._cache = _open_cache(self.settings, warn=warn)
            from citecheck_tex.llm import ResponseStore

            if isinstance(self._cache, ResponseStore):  # a backend that keeps LLM replies
                self.llm.store = self._cache
        return self._cache

    def llm_session(self) -> LlmSession:
        """The run's LLM session (opened now at the first call, after the cache it keeps
        its responses in); raises :class:`~citecheck_tex.errors.UsageError` when the LLM
        cannot be used (no openai package, no model)."""
        self.cache()
        return self.llm.get()

    async def close(self) -> None:
        """Close the LLM session and the cache (the HTTP client closes with the stack)."""
        try:
            await self.llm.close()
        finally:
            if self._cache is not None:
                self._cache.close()
                self._cache = None


@contextlib.asynccontextmanager
async def open_run(settings: Settings, *, http: Http | None = None) -> AsyncIterator[RunSession]:
    """The session of one check (see :class:`RunSession`), closed once at the end."""
    async with contextlib.AsyncExitStack() as stack:
        run = RunSession(settings, stack, http)
        stack.push_async_callback(run.close)
        yield run


#: Kinds whose later sources are asked even when an earlier one found something: a
#: title or author+year search returns look-alikes, not proof (a local index holding
#: only the author's other papers must not keep INSPIRE from being asked).
_ASK_ALL = frozenset({QueryKind.TITLE, QueryKind.AUTHOR_YEAR})
#: Lowest identity of a record that settles a reference it contradicts in some field
#: (MINOR): reached through a stated identifier or the journal reference, it must still
#: fit title and authors this well (see :func:`_settled`).
_IDENTITY_FOR_MINOR_STOP = 0.6
_TEX_MARKUP = re.compile(r"[$\\]")
#: Fields a source's record cannot contradict for good: arXiv's journal reference is
#: free text its authors typed ("Int. J. Mod. Phys. A, Vol. 27 (2012) 1250098"), so the
#: journal version is left to the sources that register it (Crossref, INSPIRE).
_NOT_AUTHORITATIVE_FOR: Mapping[str, frozenset[str]] = {
    "arxiv": frozenset({"journal", "volume", "pages"}),
}

_PAGE_RE = re.compile(r"[A-Za-z]?\d+[A-Za-z]?")


def build_queries(entry: Entry) -> dict[QueryKind, Query]:
    """Every question the entry lets us ask, by kind."""
    queries: dict[QueryKind, Query] = {}
    families = tuple(p.full_family for p in entry.authors if p.family)[:6]
    if entry.arxiv:
        queries[QueryKind.ARXIV] = Query(QueryKind.ARXIV, entry.arxiv)
    if entry.doi:
        queries[QueryKind.DOI] = Query(QueryKind.DOI, entry.doi)
    if entry.texkey:
        queries[QueryKind.TEXKEY] = Query(QueryKind.TEXKEY, entry.texkey)
    report = find_report_number(entry.fields, entry.entry_type)
    if report:
        queries[QueryKind.REPORT] = Query(QueryKind.REPORT, report)
    if entry.venue and entry.volume and entry.pages:
        m = _PAGE_RE.search(entry.pages)
        if m:
            queries[QueryKind.JOURNAL_REF] = Query(
                QueryKind.JOURNAL_REF,
                f"{entry.venue},{entry.volume},{m.group(0)}",
                authors=families,
                year=entry.year,
                journal=entry.venue,
                volume=entry.volume,
                page=m.group(0),
            )
    if entry.title.strip():
        queries[QueryKind.TITLE] = Query(
            QueryKind.TITLE, entry.title.strip(), authors=families, year=entry.year
        )
    author_year = author_year_query(entry)
    if author_year is not None:
        queries[QueryKind.AUTHOR_YEAR] = author_year
    return queries


_YEAR_RE = re.compile(r"(1[6-9]\d\d|20\d\d)")


def author_year_query(entry: Entry) -> Query | None:
    """The AUTHOR_YEAR question of a title-less reference.

    Such a reference (``J. Maldacena, Adv. Theor. Math. Phys. 3, 231 (1998)``) is
    found by its journal reference alone; when that is incomplete or corrupted,
    first author + year (+ the journal) still finds candidates. Entries with a
    title have a better question and get none (None); so do entries without an
    author family name or a year. A DOI or an arXiv id does not stop the question:
    it is asked only when their look-ups found nothing (:func:`_should_ask`), as
    when the index holds only the preprint of a work cited by its journal DOI. A
    texkey does not count either: it is often only the citation key, and a texkey
    that INSPIRE does not know must not leave the reference without a question.
    """
    from citecheck_tex.verify.normalize import is_arxiv_venue

    if entry.title.strip():
        return None
    families = tuple(p.full_family for p in entry.authors if p.family)[:6]
    m = _YEAR_RE.search(entry.year)
    if not families or not m:
        return None
    journal = "" if is_arxiv_venue(entry.venue) else " ".join(entry.venue.split())
    page = _PAGE_RE.search(entry.pages) if entry.pages else None
    return Query(QueryKind.AUTHOR_YEAR, f"{families[0]} {m.group(1)}", authors=families,
                 year=m.group(1), journal=journal, volume=entry.volume.strip(),
                 page=page.group(0) if page else "")


async def _ask(source: Source, kind: QueryKind, queries: list[Query]) -> list[Answer]:
    """Ask one source many queries of one kind; never raises."""
    try:
        # one call for the kinds the source batches (INSPIRE's OR-ed searches), so that
        # the cache in front of it passes all its misses on together
        if kind in BATCHED_KINDS or kind in getattr(source, "batch_kinds", frozenset()):
            return list(await source.fetch_batch(queries))
        return list(await asyncio.gather(*(source.fetch(q) for q in queries)))
    except Exception as exc:  # a buggy adapter must not stop the run
        logger.exception("source %s failed on %d %s queries", source.name, len(queries), kind.value)
        return [
            Answer(source.name, q, SourceStatus.ERROR, message=f"internal error: {exc}")
            for q in queries
        ]


async def _timed_ask(
    source: Source, kind: QueryKind, queries: list[Query]
) -> tuple[list[Answer], float]:
    """:func:`_ask`, with the mean wall time per query in milliseconds."""
    t0 = time.perf_counter()
    got = await _ask(source, kind, queries)
    return got, (time.perf_counter() - t0) * 1000 / max(1, len(queries))


class _Comparisons:
    """:func:`policy.compare_all` of each entry of a cascade, computed again only when
    the entry's answers grew (the cascade only ever appends to them): whether a stage
    settled an entry, and then its verdict, are decided on one comparison of its records
    instead of two (the comparisons were a fifth of a check's CPU time)."""

    def __init__(self, entries: Sequence[Entry], answers: Sequence[list[Answer]]) -> None:
        self._entries = entries
        self._answers = answers
        self._known: dict[int, tuple[int, list[Comparison]]] = {}

    def of(self, i: int) -> list[Comparison]:
        """The comparisons of entry ``i`` with every record its answers found so far."""
        from citecheck_tex.verify import policy

        n = len(self._answers[i])
        known = self._known.get(i)
        if known is None or known[0] != n:
            known = (n, policy.compare_all(self._entries[i], self._answers[i]))
            self._known[i] = known
        return known[1]


def _ignored(entry: Entry, settings: Settings) -> bool:
    return entry.key in settings.ignore


async def run_cascade(
    entries: Sequence[Entry],
    sources: dict[str, Source],
    settings: Settings,
    progress: ProgressCallback | None = None,
    usage: dict[str, LlmUsage] | None = None,
    problems: list[Problem] | None = None,
    stop: Stop | None = None,
    llm: Callable[[], LlmSession] | None = None,
) -> list[Verdict]:
    """Retrieve candidates for every entry and decide each verdict.

    ``usage``, when given, receives what the LLM judge cost (key "judge"); ``problems``,
    when given, receives run-level problems (``index-incomplete``). Retrieval ends at
    the run's deadline (:meth:`Settings.run_deadline`); the references not settled by
    then are UNVERIFIED, and ``stop`` (when given) records why. ``llm`` gives the run's
    LLM session to the judge (None: the judge opens its own). A verdict is returned
    for every entry, always.
    """
    from citecheck_tex.verify import policy

    n = len(entries)
    state = ProgressState(total=n)
    verdicts: list[Verdict | None] = [None] * n
    answers: list[list[Answer]] = [[] for _ in range(n)]
    comparisons = _Comparisons(entries, answers)
    queries = [build_queries(e) for e in entries]
    active: set[int] = set()
    for i, entry in enumerate(entries):
        if _ignored(entry, settings):
            verdicts[i] = Verdict(entry, Label.SKIPPED, 0.0, 1.0, VerdictCode.IGNORED)
            continue
        reason = policy.skip_reason(entry)
        if reason:
            verdicts[i] = Verdict(entry, Label.SKIPPED, 0.0, 1.0, VerdictCode.NOT_SCHOLARLY,
                                  facts={"why": reason})
            continue
        active.add(i)
    state.done = n - len(active)
    stop = stop if stop is not None else Stop()

    async def retrieve() -> None:
        await _retrieve(entries, sources, settings, queries, answers, verdicts, active, state,
                        progress, comparisons)

    stop.start_clock(settings.run_deadline(len(active)))
    try:
        if not stop.reason:  # else stopped before (in the LLM parse): nothing is asked
            async with asyncio.timeout_at(stop.ends_at):
                await retrieve()
    except TimeoutError:
        stop.passed()
    except asyncio.CancelledError:
        if not stop.absorbed():
            raise
    stop.unsettled = len(active) if stop.reason else 0
    if stop.reason:
        logger.warning("retrieval stopped (%s) with %d reference(s) unsettled", stop.reason,
                       len(active))

    for i in sorted(active):
        verdict = _decide(entries[i], queries[i], answers[i], settings, sources,
                          comparisons.of(i))
        if stop.reason:
            verdict = _unsettled(verdict, stop)
        verdicts[i] = verdict
        state.done += 1
        state.counts[verdict.label.value] = state.counts.get(verdict.label.value, 0) + 1
    if progress:
        state.stage = "done" if not stop.reason else f"stopped ({stop.reason})"
        progress(state)
    result = [v for v in verdicts if v is not None]
    # before any LLM judge: the guard is about the index's silence, not a judge's opinion
    result, refused = policy.guard_index_complete(result, settings)
    if refused is not None and problems is not None:
        problems.append(refused)
    if settings.llm_mode != "off" and not stop.reason:
        from citecheck_tex.verify.llm import apply_llm

        pairs = [(v, v.match or _closest(entries[i], answers[i])) for i, v in enumerate(result)]
        try:
            async with asyncio.timeout_at(stop.ends_at):
                result, judged = await apply_llm(pairs, settings, session=llm)
        except TimeoutError:  # every verdict is settled: they stay, without the judge
            stop.passed()
            logger.warning("LLM judge stopped at the run's deadline: the verdicts are the "
                           "deterministic ones")
            return result
        except asyncio.CancelledError:  # Ctrl-C: every verdict is settled, without the judge
            if not stop.absorbed():
                raise
            logger.warning("LLM judge interrupted: the verdicts are the deterministic ones")
            return result
        logger.warning("LLM: %s", judged.describe())
        if usage is not None:
            usage["judge"] = usage["judge"] + judged if "judge" in usage else judged
    return result


def _unsettled(verdict: Verdict, stop: Stop) -> Verdict:
    """The verdict of a reference still open when retrieval stopped: UNVERIFIED (the
    sources not yet asked might have settled it), with what was known so far."""
    if verdict.label is Label.SKIPPED:
        return verdict
    from citecheck_tex.reasons import wrapped_facts

    code = (VerdictCode.UNSETTLED_DEADLINE if stop.reason == "deadline"
            else VerdictCode.UNSETTLED_INTERRUPTED)
    answered = any(not a.status.failed and a.status is not SourceStatus.SKIPPED
                   for a in verdict.attempts)
    facts = {**wrapped_facts(verdict), "so_far": verdict.code.value} if answered else {}
    return replace(verdict, label=Label.UNVERIFIED, confidence=0.0, discrepancies=(),
                   suggested=None, index_only=False, unsettled=True, code=code,
                   facts={**facts, "deadline_s": f"{stop.deadline_s:.0f}"})


async def _retrieve(
    entries: Sequence[Entry],
    sources: dict[str, Source],
    settings: Settings,
    queries: list[dict[QueryKind, Query]],
    answers: list[list[Answer]],
    verdicts: list[Verdict | None],
    active: set[int],
    state: ProgressState,
    progress: ProgressCallback | None,
    comparisons: _Comparisons,
) -> None:
    """The cascade's stages over every active entry; settles entries in place."""
    from citecheck_tex.verify import policy

    enabled = tuple(sources)
    cross_checked: set[int] = set()

    def settle(touched: set[int], kind: QueryKind) -> None:
        """An entry leaves the cascade as soon as a record identifies it."""
        for i in sorted(touched):
            if i in active and _settled(entries[i], queries[i], answers[i], kind, settings,
                                        i in cross_checked, partial(comparisons.of, i)):
                active.discard(i)
                verdict = _decide(entries[i], queries[i], answers[i], settings, sources,
                                  comparisons.of(i))
                verdicts[i] = verdict
                state.done += 1
                state.counts[verdict.label.value] = state.counts.get(verdict.label.value, 0) + 1

    for kind in STAGES:
        found_for_kind: set[int] = set()
        for group in groups_for(kind, enabled):
            jobs: list[tuple[str, list[int]]] = []
            for name in group:
                if kind not in sources[name].kinds:
                    continue
                todo = [i for i in sorted(active) if kind in queries[i]
                        and _should_ask(name, kind, entries[i], answers[i], found_for_kind, i,
                                        enabled, sources)]
                if getattr(sources[name], "last_resort", False):
                    # a last resort (the LLM web search) is asked only about works no
                    # authoritative record identifies yet
                    todo = [i for i in todo if not policy.has_real_candidate(
                        entries[i], answers[i], settings.tau_minor)]
                if todo:
                    jobs.append((name, todo))
            if not jobs:
                continue
            state.stage = f"{kind.value} via {', '.join(name for name, _ in jobs)}"
            if progress:
                progress(state)

            results = await asyncio.gather(*(
                _timed_ask(sources[name], kind, [queries[i][kind] for i in todo])
                for name, todo in jobs
            ))
            touched: set[int] = set()
            for (name, todo), (got, per_ref_ms) in zip(jobs, results, strict=True):
                if per_ref_ms > state.slowest_ms:
                    state.slowest, state.slowest_ms = name, per_ref_ms
                for i, ans in zip(todo, got, strict=True):
                    answers[i].append(ans)
                    touched.add(i)
                    if ans.status is SourceStatus.FOUND:
                        found_for_kind.add(i)
            settle(touched, kind)
            if progress:
                progress(state)
        if kind is QueryKind.DOI:
            checked = await _cross_check_arxiv(sorted(active), entries, queries, answers,
                                               sources)
            cross_checked.update(checked)
            settle(checked, kind)

    if active:
        state.stage = "confirming proposed identifiers"
        await _confirm_proposals(sorted(active), answers, sources)


def _should_ask(name: str, kind: QueryKind, entry: Entry, answers: Sequence[Answer],
                found_for_kind: set[int], i: int, enabled: tuple[str, ...],
                sources: dict[str, Source]) -> bool:
    """Is ``name`` to be asked the ``kind`` question of entry ``i`` (see sources.plan)?"""
    if not plan.routed(name, entry, kind):
        return False
    if kind not in _ASK_ALL and i in found_for_kind:
        return False
    if kind is QueryKind.AUTHOR_YEAR and any(
            a.query.kind in (QueryKind.DOI, QueryKind.ARXIV) and a.status is SourceStatus.FOUND
            for a in answers):
        return False  # an identifier found the work: first author + year is for the rest
    if name != "local" and plan.authority_answered(kind, answers):
        return False  # an authority answered for the identifier: nobody else is asked
    if name in plan.FALLBACK:
        general = [s for s in plan.GENERAL if s in enabled and s != name
                   and kind in sources[s].kinds]
        return len(plan.general_answers(answers)) < min(plan.MIN_GENERAL, len(general) + 1)
    return True


def _identifier_confirmed(entry: Entry, answers: Sequence[Answer]) -> bool:
    """Did a look-up of the cited arXiv id find a record with that id?"""
    from citecheck_tex.verify.normalize import norm_arxiv

    want = norm_arxiv(entry.arxiv)
    return any(a.query.kind is QueryKind.ARXIV and a.status is SourceStatus.FOUND
               and any(r.arxiv and norm_arxiv(r.arxiv) == want for r in a.records)
               for a in answers)


def _settled(entry: Entry, queries: dict[QueryKind, Query], answers: Sequence[Answer],
             kind: QueryKind, settings: Settings, cross_checked: bool,
             comparisons: Callable[[], Sequence[Comparison]]) -> bool:
    """True when a record identifies the entry and no question left can change its label.

    Every identifier the citation states must have been looked up first (its stage has
    run). EXACT: some record confirms every stated field. MINOR: the chosen record fits
    well enough (score at least tau_minor, identity at least
    :data:`_IDENTITY_FOR_MINOR_STOP`, not a chimera, no rival) and was reached through
    a stated identifier or the journal reference, so a title search elsewhere would find
    the same work; a contradicted year on a record that knows a single year, or a cited
    arXiv id no record confirms (before the cross-check), keeps the entry in.
    ``comparisons`` gives :func:`policy.compare_all` of the answers (asked only when
    needed).
    """
    from citecheck_tex.verify import policy
    from citecheck_tex.verify.review import resolved_by_identifier, review

    now = STAGES.index(kind)
    if any(k in queries and STAGES.index(k) > now for k in (QueryKind.ARXIV, QueryKind.DOI)):
        return False
    comps = [c for c in comparisons() if not c.record.proposed]
    if not comps:
        return False
    if entry.arxiv and not cross_checked and not _identifier_confirmed(entry, answers) \
            and QueryKind.DOI in queries and not any(c.record.arxiv for c in comps):
        return False
    if any(not c.discrepancies and c.identity >= 0.9 for c in comps):
        return True
    chosen = policy.select_candidate(entry, comps)
    rev = review(entry, chosen, [c for c in comps if c is not chosen])
    c = rev.comparison
    if c is None or c.score < settings.tau_minor or c.identity < _IDENTITY_FOR_MINOR_STOP:
        return False
    if policy.grafted_authors(entry, c) or policy.tied_candidates(entry, c, comps):
        return False
    fields = {d.field for d in c.discrepancies}
    if "year" in fields and not (c.record.other_years or c.record.extra_pubs):
        return False
    if "title" in fields and _TEX_MARKUP.search(c.record.title):
        return False  # a title with TeX math ($\beta$) is no final proof of a wrong title
    if fields & _NOT_AUTHORITATIVE_FOR.get(c.record.source, frozenset()):
        return False
    checks = {fc.field: fc.agree for fc in c.checks}
    pubnote = bool(entry.venue) and all(checks.get(f) is not False
                                        for f in ("journal", "volume", "pages")) \
        and checks.get("volume") is True
    return resolved_by_identifier(c) or bool(rev.other_work) or pubnote


def _decide(entry: Entry, queries: dict[QueryKind, Query], answers: Sequence[Answer],
            settings: Settings, sources: dict[str, Source],
            comparisons: Sequence[Comparison] | None = None) -> Verdict:
    """:func:`policy.decide`, with MAJOR kept only on the minimum evidence of
    :func:`sources.plan.missing_for_major`."""
    from citecheck_tex.verify import policy

    verdict = policy.decide(entry, answers, settings, comparisons)
    if verdict.label in (Label.EXACT, Label.MINOR):
        return _unknown_arxiv_id(entry, answers, verdict)
    if verdict.label is not Label.MAJOR or settings.offline:
        return verdict  # offline, the local index (declared complete or not) decides
    missing = plan.missing_for_major(entry, queries, answers, tuple(sources),
                                     {n: s.kinds for n, s in sources.items()})
    if not missing:
        return verdict
    from citecheck_tex.reasons import wrapped_facts

    return replace(verdict, label=Label.UNVERIFIED, confidence=min(verdict.confidence, 0.3),
                   match=None, suggested=None, code=VerdictCode.TOO_FEW_SOURCES,
                   facts={**wrapped_facts(verdict), "was": verdict.code.value,
                          "missing": ", ".join(missing)})


def _unknown_arxiv_id(entry: Entry, answers: Sequence[Answer], verdict: Verdict) -> Verdict:
    """A cited arXiv id that arXiv itself answered "no such paper" for, on a work found
    otherwise whose records know no arXiv id (so the comparison saw nothing to
    contradict): a MINOR naming the id, with nothing to suggest in its place."""
    from citecheck_tex.model import Discrepancy, DiscrepancyCode

    if not entry.arxiv or verdict.match is None or verdict.match.arxiv \
            or any(d.field == "eprint" for d in verdict.discrepancies):
        return verdict
    authority = plan.AUTHORITY[QueryKind.ARXIV][0]
    asked = [a for a in answers if a.query.kind is QueryKind.ARXIV]
    if not any(a.source == authority and a.status is SourceStatus.NOT_FOUND for a in asked) \
            or any(a.status is SourceStatus.FOUND for a in asked):
        return verdict
    d = Discrepancy("eprint", entry.arxiv, "", "arXiv has no paper with this id",
                    DiscrepancyCode.ARXIV_UNKNOWN)
    facts = {k: v for k, v in verdict.facts.items() if k != "other_work"}
    return replace(verdict, label=Label.MINOR, code=VerdictCode.FIELD_MISMATCH,
                   discrepancies=(*verdict.discrepancies, d),
                   facts={**facts, "arxiv_unknown": entry.arxiv})


async def _cross_check_arxiv(todo: Sequence[int], entries: Sequence[Entry],
                             queries: list[dict[QueryKind, Query]], answers: list[list[Answer]],
                             sources: dict[str, Source]) -> set[int]:
    """Find the arXiv id of works identified by their DOI whose cited arXiv id no record
    confirms (Crossref works carry no arXiv id): the DOI is asked of
    :data:`sources.plan.ARXIV_XREF` in order, batched, until a record of the work with an
    arXiv id is found; the comparison then reports the wrong id with the right value.
    Returns the entries asked about."""
    from citecheck_tex.vocab.ids import normalize_doi

    def needs(i: int) -> bool:
        e = entries[i]
        if not (e.arxiv and QueryKind.DOI in queries[i]) or _identifier_confirmed(e, answers[i]):
            return False
        doi = normalize_doi(e.doi)
        by_doi = [r for a in answers[i] if a.query.kind is QueryKind.DOI
                  and a.status is SourceStatus.FOUND for r in a.records]
        return bool(by_doi) and not any(r.arxiv for r in by_doi if normalize_doi(r.doi) == doi)

    pending = [i for i in todo if needs(i)]
    asked: set[int] = set()
    for name in plan.ARXIV_XREF:
        src = sources.get(name)
        if src is None or QueryKind.DOI not in src.kinds:
            continue
        batch = [i for i in pending if needs(i) and plan.routed(name, entries[i])]
        if not batch:
            continue
        got = await _ask(src, QueryKind.DOI, [queries[i][QueryKind.DOI] for i in batch])
        for i, ans in zip(batch, got, strict=True):
            answers[i].append(ans)
            asked.add(i)
    return asked


def _proposed_queries(answers: Sequence[Answer], kind: QueryKind) -> list[Query]:
    """DOI/ARXIV queries for the identifiers that proposals (``Record.proposed``) put
    forward and that nobody was asked about yet."""
    from citecheck_tex.vocab.ids import normalize_arxiv, normalize_doi

    norm = normalize_doi if kind is QueryKind.DOI else normalize_arxiv
    asked = {norm(a.query.value) for a in answers if a.query.kind is kind}
    out: list[Query] = []
    for a in answers:
        if a.status is not SourceStatus.FOUND:
            continue
        for r in a.records:
            value = norm(r.doi if kind is QueryKind.DOI else r.arxiv) if r.proposed else ""
            if value and value not in asked:
                asked.add(value)
                out.append(Query(kind, value))
    return out


async def _confirm_proposals(
    todo: Sequence[int], answers: list[list[Answer]], sources: dict[str, Source]
) -> None:
    """The follow-up of the TITLE stage: a DOI or arXiv id that a proposing source (the
    LLM web search) put forward is looked up in the authoritative DOI/ARXIV sources, in
    plan order, and their answers join the entry's answers. Only those records can
    confirm the work (see :mod:`citecheck_tex.verify.policy`)."""
    for kind in (QueryKind.ARXIV, QueryKind.DOI):
        pending = [(i, q) for i in todo for q in _proposed_queries(answers[i], kind)]
        if not pending:
            continue
        found: set[int] = set()
        for group in groups_for(kind, tuple(sources)):
            jobs = [(name, [(i, q) for i, q in pending if i not in found])
                    for name in group if kind in sources[name].kinds]
            jobs = [(name, items) for name, items in jobs if items]
            results = await asyncio.gather(*(
                _ask(sources[name], kind, [q for _, q in items]) for name, items in jobs))
            for (_, items), got in zip(jobs, results, strict=True):
                for (i, _q), ans in zip(items, got, strict=True):
                    answers[i].append(ans)
                    if ans.status is SourceStatus.FOUND:
                        found.add(i)


def _closest(entry: Entry, answers: list[Answer]) -> Record | None:
    """The best candidate record even when the verdict kept none (for the LLM judge)."""
    from citecheck_tex.verify import policy

    comps = policy.compare_all(entry, answers)
    return policy.select_candidate(entry, comps).record if comps else None


def _index_usable(settings: Settings) -> bool:
    path = settings.resolved_index_path()
    return path.is_file() and path.stat().st_size > 0


async def _build_sources(
    http: Http, settings: Settings, cache: object | None, llm: LlmSessions | None = None,
) -> tuple[dict[str, Source], list[Problem]]:
    from citecheck_tex.sources.base import make_source

    problems: list[Problem] = []
    sources: dict[str, Source] = {}
    for name in settings.sources:
        if name == "local":
            if not _index_usable(settings):
                problems.append(Problem(
                    "index-empty",
                    f"the local index {settings.resolved_index_path()} does not exist or is empty; "
                    "fill it with `citecheck-tex index add FILE...`",
                ))
                continue
            sources[name] = make_source(name, http, settings)
            continue
        try:
            src = make_source(name, http, settings)
        except Exception as exc:  # a configured source that cannot run: say so, go on
            logger.debug("source %s unavailable: %s", name, exc)
            hint = getattr(exc, "hint", "")
            problems.append(Problem(
                "source-unavailable",
                f"source {name} was configured but cannot be used: "
                f"{getattr(exc, 'message', str(exc))}" + (f" ({hint})" if hint else "")
                + "; it was left out of this run",
            ))
            continue
        bind_llm = getattr(src, "bind_llm", None)
        if llm is not None and callable(bind_llm):  # an LLM-backed source: the run's session
            bind_llm(llm)
        if cache is not None or settings.offline:
            from citecheck_tex.cache import CachedSource

            src = CachedSource(
                src, cache, refresh=settings.refresh, offline=settings.offline  # type: ignore[arg-type]
            )
        sources[name] = src
    return sources, problems


def _network_problems(verdicts: Sequence[Verdict],
                      given_up: Mapping[str, str] | None = None) -> list[Problem]:
    """One clear message per failing source instead of one per reference.

    ``given_up`` maps a source the HTTP layer stopped asking to the reason (which
    says when to retry); it is the message of that source's problem.
    """
    given_up = given_up or {}
    failures: dict[str, tuple[int, str]] = {}
    for v in verdicts:
        seen: set[str] = set()
        for a in v.attempts:
            if a.status.failed and a.source not in seen:
                seen.add(a.source)
                count, msg = failures.get(a.source, (0, a.message))
                failures[a.source] = (count + 1, msg or a.message)
    out = []
    for src, (count, msg) in sorted(failures.items()):
        if src == "local":  # a file on this machine: no network involved, no "re-run later"
            out.append(Problem(
                "index-unusable",
                f"the local index could not be read for {count} reference(s): {msg}. "
                "Affected references are UNVERIFIED, not MAJOR.",
            ))
            continue
        msg = given_up.get(src, msg).rstrip(".")
        out.append(Problem(
            "network",
            f"source {src} failed for {count} reference(s): {msg}. Affected references are "
            "UNVERIFIED, not MAJOR; re-run when the network is back, or use --offline with a "
            "local index.",
        ))
    return out


def _open_cache(settings: Settings, *, warn: bool = True) -> AnswerCache | None:
    """The answer cache of ``settings`` (SQLite file or Redis): None when disabled or unusable
    (one warning)."""
    from citecheck_tex.cache import open_cache

    return open_cache(settings, warn=warn)


async def check_entries_async(
    entries: Sequence[Entry],
    settings: Settings,
    *,
    http: Http | None = None,
    progress: ProgressCallback | None = None,
    usage: dict[str, LlmUsage] | None = None,
    stop: Stop | None = None,
    run: RunSession | None = None,
) -> tuple[list[Verdict], list[Problem], int]:
    """Verify entries; returns verdicts, run-level problems and the HTTP request count.

    ``usage``, when given, receives what the LLM parts cost, by part ("judge", and
    "websearch" when that source ran). ``stop`` receives why retrieval ended early
    (deadline, interruption); a ``deadline`` or ``interrupted`` problem says so.
    ``run``: the check's session (HTTP client, cache, LLM session), kept open; without
    it one is opened for this call (with ``http`` when given) and closed.
    """
    if run is not None:
        return await _check_entries(entries, settings, run, progress, usage, stop)
    async with open_run(settings, http=http) as own:
        return await _check_entries(entries, settings, own, progress, usage, stop)


async def _check_entries(
    entries: Sequence[Entry],
    settings: Settings,
    run: RunSession,
    progress: ProgressCallback | None,
    usage: dict[str, LlmUsage] | None,
    stop: Stop | None,
) -> tuple[list[Verdict], list[Problem], int]:
    stop = stop if stop is not None else Stop()
    http = await run.http()
    sources, problems = await _build_sources(http, settings, run.cache(), run.llm)
    verdicts = await run_cascade(entries, sources, settings, progress, usage, problems, stop,
                                 llm=run.llm_session)
    requests = http.requests
    given_up = {k: msg for k, (msg, _) in http.given_up.items()}
    if usage is not None:
        _add_source_usage(sources, usage)
    stopped = stop.problem()
    return (verdicts, problems + _network_problems(verdicts, given_up)
            + ([stopped] if stopped else []), requests)


async def resolve_texkeys_async(keys: Sequence[str], settings: Settings, *,
                                run: RunSession | None = None) -> dict[str, Record]:
    """The record behind each INSPIRE texkey in ``keys`` that the sources know.

    Used for citation keys that no bibliography defines (``undefined-key``): a key
    like ``Maldacena:1997re`` names a real paper, and saying which one helps the
    author add the missing entry. Asks the TEXKEY sources of the plan (the local
    index, then INSPIRE; one OR-ed search), through the cache; never raises. ``run``:
    the check's session (kept open); without it one is opened for this call.
    """
    queries = [Query(QueryKind.TEXKEY, k) for k in dict.fromkeys(keys)]
    found: dict[str, Record] = {}
    if not queries:
        return found
    texkey_sources = {n for step in PLAN[QueryKind.TEXKEY]
                      for n in ((step,) if isinstance(step, str) else step)}
    settings = replace(settings, sources=tuple(s for s in settings.sources
                                               if s in texkey_sources))
    if run is None:
        async with open_run(settings) as own:
            return await _resolve_texkeys(queries, settings, own)
    return await _resolve_texkeys(queries, settings, run)


async def _resolve_texkeys(queries: Sequence[Query], settings: Settings,
                           run: RunSession) -> dict[str, Record]:
    found: dict[str, Record] = {}
    cache = run.cache(warn=False)  # the main run has warned already
    sources, _ = await _build_sources(await run.http(), settings, cache, run.llm)
    for group in groups_for(QueryKind.TEXKEY, tuple(sources)):
        todo = [q for q in queries if q.value not in found]
        for name in group:
            if not todo or QueryKind.TEXKEY not in sources[name].kinds:
                continue
            for ans in await _ask(sources[name], QueryKind.TEXKEY, todo):
                if ans.status is SourceStatus.FOUND and ans.records:
                    found.setdefault(ans.query.value, ans.records[0])
    return found


async def _explain_undefined(problems: Sequence[Problem], settings: Settings,
                             run: RunSession) -> list[Problem]:
    """``undefined-key`` problems whose key is an INSPIRE texkey, told which paper it is."""
    from citecheck_tex.vocab.ids import looks_like_texkey

    keys = [p.key for p in problems
            if p.code == "undefined-key" and p.key and looks_like_texkey(p.key)]
    if not keys:
        return list(problems)
    try:
        # an optional hint: bounded like one request with its retries, never the run
        records = await asyncio.wait_for(resolve_texkeys_async(keys, settings, run=run),
                                         timeout=2 * settings.timeout_s)
    except Exception:  # an optional hint must never stop the run
        logger.debug("texkey lookup for undefined keys failed", exc_info=True)
        return list(problems)
    out = []
    for p in problems:
        rec = records.get(p.key) if p.code == "undefined-key" else None
        if rec is not None:
            who = rec.authors[0].family if rec.authors else (
                rec.collaborations[0] if rec.collaborations else "")
            what = ", ".join(x for x in (who, rec.year) if x)
            p = replace(p, message=f"{p.message}; it is the INSPIRE texkey of "
                           f"\u201c{rec.title}\u201d ({what}{', ' if what else ''}{rec.url or rec.id})"
                           ": add that entry to your bibliography")
        out.append(p)
    return out


def _add_source_usage(sources: dict[str, Source], usage: dict[str, LlmUsage]) -> None:
    """Add what LLM-backed sources (the web search) cost to ``usage``, by source name."""
    from citecheck_tex.llm import LlmUsage

    for name, src in sources.items():
        spent = getattr(getattr(src, "inner", src), "usage", None)  # CachedSource wraps it
        if isinstance(spent, LlmUsage):
            usage[name] = usage[name] + spent if name in usage else spent


def usage_counts(usage: LlmUsage) -> dict[str, int]:
    """The counts of one LLM part as :attr:`RunResult.llm_usage` holds them."""
    return {"requests": usage.requests, "calls": usage.calls, "cache_hits": usage.cache_hits,
            "failures": usage.failures, "prompt_tokens": usage.prompt_tokens,
            "completion_tokens": usage.completion_tokens}


def check_entries(entries: Sequence[Entry], settings: Settings) -> list[Verdict]:
    """Synchronous helper: verify entries and return their verdicts in order."""
    verdicts, _, _ = asyncio.run(check_entries_async(entries, settings))
    return verdicts


#: Verifies a batch of entries: (verdicts in order, run-level problems, HTTP requests).
VerifyFn = Callable[[Sequence[Entry], Settings], tuple[list[Verdict], list[Problem], int]]

#: An entry's identity for reusing its verdict: (key, content hash).
EntryId = tuple[str, str]


@dataclass(frozen=True, slots=True)
class Known:
    """Verdicts an earlier run settled, for entries unchanged since (watch mode).

    ``verdicts`` by (key, content hash), as the cascade gave them (before the user's
    ignore reasons and the citation sites were added); ``problems`` are that run's
    run-level problems (a source down, a deadline), kept when nothing is checked again.
    """

    verdicts: Mapping[EntryId, Verdict] = field(default_factory=dict)
    problems: tuple[Problem, ...] = ()


@dataclass(frozen=True, slots=True)
class Checked:
    """:func:`check_project`'s answer: the run's result, which entries were verified
    this time (the others reused a known verdict), and what a next run may reuse."""

    result: RunResult
    verified: tuple[Entry, ...]
    known: Known


def entry_id(entry: Entry) -> EntryId:
    """The identity a verdict is reused by: key and content hash."""
    return (entry.key, entry.content_hash)


def check(
    project: Project,
    settings: Settings,
    *,
    progress: ProgressCallback | None = None,
    known: Known | None = None,
) -> RunResult:
    """Check every entry of a loaded project and return the run's result (entries with a
    ``known`` verdict are not verified again; see :func:`check_project`)."""
    return check_project(project, settings, progress=progress, known=known).result


def check_project(
    project: Project,
    settings: Settings,
    *,
    progress: ProgressCallback | None = None,
    known: Known | None = None,
    verify: VerifyFn | None = None,
) -> Checked:
    """Check a loaded project: LLM parsing of free-text entries (``--llm``), the cascade,
    the user's ignore reasons, citation sites, texkey hints for undefined keys.

    Entries whose (key, content hash) has a verdict in ``known`` keep it (with the
    entry's current place in its file) and are neither parsed nor verified again; an
    entry ignored in ``.citecheck-ignore`` is always checked (it is skipped at no
    cost), and ``--refresh`` reuses nothing. ``verify`` replaces the cascade (tests, benchmarks).
    """
    from citecheck_tex.ignore import apply_ignores, explain_ignored, load_ignores
    from citecheck_tex.tex.project import project_folder

    t0 = time.perf_counter()
    settings, ignore_problems = apply_ignores(project, settings)
    ignored = set(settings.ignore)
    # --refresh bypasses every cached answer, known verdicts included
    reuse = dict(known.verdicts) if known is not None and not settings.refresh else {}
    entries = [e for e in project.entries
               if entry_id(e) not in reuse or e.key in ignored]
    usage: dict[str, LlmUsage] = {}
    # Ctrl-C cancels the run's task: the references not yet settled become UNVERIFIED
    # and the result is returned (partial) so that the reports are still written
    stop = Stop(absorb_cancel=True)

    async def session() -> tuple[list[Entry], list[Verdict], list[Problem], int, list[Problem]]:
        """The check's one event loop: one HTTP client, cache and LLM session for the
        LLM parse, the cascade, the judge and the texkey hints, closed once at the end."""
        todo = entries
        async with open_run(settings) as run:
            if settings.llm_mode != "off":
                from citecheck_tex.tex.llm_parse import llm_parse_entries, needs_parse

                if any(needs_parse(e) for e in todo):
                    # the run's deadline starts before the parse and bounds it too
                    stop.start_clock(settings.run_deadline(len(todo)))
                    try:
                        async with asyncio.timeout_at(stop.ends_at):
                            todo, usage["parse"] = await llm_parse_entries(
                                todo, settings, session=run.llm_session())
                    except TimeoutError:  # nothing is asked: every reference is unsettled
                        stop.passed()
                    except asyncio.CancelledError:  # Ctrl-C: report the entries as read
                        if not stop.absorbed():
                            raise
            fresh: list[Verdict]
            problems: list[Problem]
            if not todo and known is not None:  # every verdict is known: nothing is opened
                fresh, problems, requests = [], [], 0
            elif verify is not None:  # a synchronous replacement (it may run its own loop)
                fresh, problems, requests = await asyncio.to_thread(verify, todo, settings)
            else:
                fresh, problems, requests = await check_entries_async(
                    todo, settings, progress=progress, usage=usage, stop=stop, run=run)
            # after a network failure, name undefined texkeys from the index and cache only
            kept = known.problems if known is not None and all(
                e.key in ignored for e in todo) else ()
            offline = any(p.code == "network" for p in (*kept, *problems)) or bool(stop.reason)
            explained = await _explain_undefined(
                project.problems, replace(settings, offline=True) if offline else settings, run)
        return todo, fresh, problems, requests, explained

    entries, fresh, problems, requests, explained = asyncio.run(session())
    if known is not None and all(e.key in ignored for e in entries):
        problems = list(known.problems) + problems  # nothing new was asked: keep them
    verified = tuple(e for e in project.entries if entry_id(e) not in reuse or e.key in ignored)
    by_id: dict[EntryId, Verdict] = dict(zip((entry_id(e) for e in verified), fresh,
                                             strict=True))
    raw: list[Verdict] = []
    for e in project.entries:
        v = by_id.get(entry_id(e)) if (entry_id(e) not in reuse or e.key in ignored) else None
        if v is None:
            v = reuse[entry_id(e)]
            # the known verdict with the current entry (it may have moved in its file);
            # an entry the LLM parsed keeps its parsed fields, at the current place
            v = replace(v, entry=e if v.entry.content_hash == e.content_hash else replace(
                v.entry, file=e.file, line=e.line, end_line=e.end_line))
        raw.append(v)
    verdicts = list(explain_ignored(raw, load_ignores(project_folder(project)))
                    if settings.ignore_file else raw)
    problems = list(ignore_problems) + problems
    with_sites = [_with_sites(v, project) for v in verdicts]
    result = RunResult(
        input=project.input,
        offline=settings.offline,
        project=project,
        verdicts=tuple(with_sites),
        problems=tuple(explained) + tuple(problems),
        partial=stop.reason,
        tool_version=__version__,
        elapsed_s=time.perf_counter() - t0,
        http_requests=requests,
        llm_usage={part: usage_counts(u) for part, u in usage.items()} or None,
        llm_model=settings.llm_model if usage else "",
    )
    run_problems = tuple(problems[len(ignore_problems):])
    # an ignored entry's SKIPPED verdict is never reused: ignores can be removed
    return Checked(result, verified,
                   Known({entry_id(e): v for e, v in zip(project.entries, raw, strict=True)
                          if e.key not in ignored}, run_problems))


def _with_sites(v: Verdict, project: Project) -> Verdict:
    sites = project.sites_for(v.entry.key)
    return replace(v, sites=sites) if sites else v
