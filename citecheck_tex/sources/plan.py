"""The retrieval cascade's order, routing and stopping rules, as data.

Identifiers come first because an identifier either pins the record down or,
when it resolves to a paper that does not fit, is itself evidence (kept for
the reviewer pass). Title search comes last because it is the most expensive
and the least precise question.

Order per query kind (:data:`PLAN`)
-----------------------------------

- **local** first everywhere: it is free, offline and instant, and users fill
  it with dumps they trust.
- **third-party sources** (entry points of group ``citecheck_tex.sources``, enabled
  by naming them in ``sources``; :mod:`citecheck_tex.plugins`) come right after
  ``local``, all in one group, for every kind they declare: a group's own database
  is, like the local index, data the user trusts, and what it settles costs the
  public APIs nothing.
- **ARXIV**: arXiv itself is the authority for its ids (``id_list``, hundreds
  per request). INSPIRE and Semantic Scholar are asked only when arXiv failed
  (see :data:`AUTHORITY`).
- **DOI**: Crossref registers most journal DOIs (batched ``filter=doi:``) and,
  for a DOI it does not know, asks ``/works/{doi}/agency`` and follows DataCite
  DOIs itself; DataCite is asked directly for the DOIs Crossref could not
  answer. INSPIRE, OpenAlex and Semantic Scholar are asked only when neither
  authority answered.
- **TEXKEY**, **REPORT**: only INSPIRE issues texkeys and indexes laboratory
  report numbers (``CMS-PAS-HIG-11-024``, ``CERN-TH-2102``).
- **JOURNAL_REF**: most physics citations carry no title. INSPIRE indexes
  (journal, volume, page) for the HEP literature (``j`` searches, ten OR-ed
  per request). What INSPIRE does not hold (quant-ph, cond-mat, math-ph:
  ``S. Bravyi, Phys. Rev. A 76, 052319 (2007)``) is asked of the general
  sources: Crossref's ``query.bibliographic`` with journal, volume, page, year
  and authors (50 requests/s: it settles most), then, for what it did not
  settle, OpenAlex's ``biblio.volume``/``biblio.first_page`` filters (10/s).
- **AUTHOR_YEAR**: a title-less reference without identifiers whose journal
  reference is incomplete or corrupted (``Phys. Rev. D (2005)``, a wrong
  volume) asks no question above that can find it; first author + year (+ the
  journal, when stated) gives a few candidates and the verifier picks the one
  whose journal, volume, page and authors fit. It comes after JOURNAL_REF
  (an intact pubnote settles the reference with one precise lookup) and before
  TITLE (such references have no title). The local index answers from its
  ``author_year`` table; INSPIRE with ``fa NAME and date YEAR and j JOURNAL``.
- **TITLE**: INSPIRE first (precise for physics, ten OR-ed ``t "..."`` per
  request at 15 requests / 5 s), then Crossref's ``query.bibliographic`` (the
  broadest, 50 requests/s) together with DBLP for computer-science-looking
  references and NASA ADS for astronomy (when a token is set), then OpenAlex
  (preprints and other fields; 10 requests/s) for what they did not settle: a
  fabricated reference is asked of all of them (the minimum evidence below), a
  real one mostly stops at the first that knows it. Semantic Scholar (one request per second
  without a key) is a fallback: it is asked only about references for which
  fewer than :data:`MIN_GENERAL` general sources answered (one failed or is
  disabled). arXiv itself is not asked for titles (one request per 3 s for the
  whole process; INSPIRE, OpenAlex and Semantic Scholar index arXiv). The
  optional LLM web search (``websearch``, off unless configured) is the very
  last resort, alone in its step: it is slow, it costs tokens, and an LLM can
  hallucinate, so it only *proposes* a work. It is asked only about references
  every scholarly source failed to settle, and a DOI or arXiv id it proposes is
  then looked up in the DOI/ARXIV sources above before it counts (see
  :func:`citecheck_tex.pipeline.run_cascade`).

Sources in one *group* (a nested tuple) are asked at the same time: they
serve only the references nobody settled before them, and asking them one
after the other would make the run as slow as the sum of their rate limits
instead of the slowest one.

Routing by field (:func:`routed`)
---------------------------------

Crossref and OpenAlex are asked for the journal reference only of title-less
references (:data:`TITLE_LESS_ONLY`): with a title, their title search finds the work
whatever the journal reference says. A source is asked only about references of its
field: DBLP only about
computer-science-looking references (CS venues, DOI prefixes 10.1145 (ACM) and
10.1109 (IEEE), arXiv ``cs.*``), NASA ADS only about astronomy-looking ones
(astronomy journals and AAS macros, arXiv ``astro-ph``), INSPIRE about every
reference that does not look like computer science. The general sources are
asked about everything.

When a reference is settled (:func:`citecheck_tex.pipeline.run_cascade`)
--------------------------------------------------------------------------

A reference leaves the cascade as soon as a record *identifies* it: the
record fits the title and authors (or, without a title, the journal
reference), every identifier the citation states has been looked up at its
authority, and either every stated field agrees (EXACT) or the record was
reached through a stated identifier or the journal reference (MINOR: a title
search elsewhere would only find the same work again). Look-alikes from a
title search that disagree on a field keep the reference in the cascade.

Evidence for MAJOR (:func:`missing_for_major`)
----------------------------------------------

"No record matches" is positive evidence only when enough independent
sources were asked the question that could have found the work and answered.
The minimum set, among the enabled sources, is:

- the **domain source** of the reference's field: INSPIRE for physics (every
  reference not computer-science-looking), DBLP for computer science;
- **two general sources** (:data:`GENERAL`: Crossref, OpenAlex; Semantic
  Scholar stands in for one that failed), asked the title or, for a title-less
  reference, the journal reference; when fewer general sources are enabled, all
  of them.

A record found at the cited journal reference of a title-less reference
answers the question by itself (the pubnote belongs to that work, and the
general sources could only find the same one): the general sources are then not
needed. A title-less reference with neither a journal reference nor an
identifier, which no general source can look up, or one whose minimum set did
not answer, is UNVERIFIED, never MAJOR.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence

from citecheck_tex.model import Answer, Entry, QueryKind, SourceStatus

#: Order of asking, per query kind.
PLAN: Mapping[QueryKind, tuple[str | tuple[str, ...], ...]] = {
    QueryKind.ARXIV: ("local", "arxiv", ("inspire", "semanticscholar"), "ads"),
    QueryKind.DOI: ("local", "crossref", "datacite", ("inspire", "openalex", "semanticscholar"),
                    "ads"),
    QueryKind.TEXKEY: ("local", "inspire"),
    QueryKind.REPORT: ("local", "inspire"),
    QueryKind.JOURNAL_REF: ("local", "inspire", "crossref", ("openalex", "ads")),
    QueryKind.AUTHOR_YEAR: ("local", "inspire"),
    QueryKind.TITLE: ("local", "inspire", ("crossref", "dblp", "ads"), "openalex",
                      "semanticscholar", "websearch"),
}

#: Stages of the cascade, in order.
STAGES: tuple[QueryKind, ...] = (
    QueryKind.ARXIV,
    QueryKind.DOI,
    QueryKind.TEXKEY,
    QueryKind.REPORT,
    QueryKind.JOURNAL_REF,
    QueryKind.AUTHOR_YEAR,
    QueryKind.TITLE,
)

#: Kinds whose sources batch several queries into one request.
BATCHED_KINDS: frozenset[QueryKind] = frozenset({QueryKind.ARXIV, QueryKind.DOI})

#: The authorities of an identifier kind, first the one that can say "no such
#: identifier": once it answered (found or not found), or another authority found the
#: identifier, the later sources of the kind are not asked about it; they stand in only
#: when the authorities failed. (Crossref's "not found" follows the DOI's registration
#: agency, DataCite included; DataCite's alone says nothing of a Crossref DOI.)
AUTHORITY: Mapping[QueryKind, tuple[str, ...]] = {
    QueryKind.ARXIV: ("arxiv",),
    QueryKind.DOI: ("crossref", "datacite"),
}

#: Where the arXiv id of a work found by its DOI is looked up when the cited arXiv id
#: is not confirmed (Crossref works carry none): INSPIRE (HEP, batched OR-ed DOIs),
#: OpenAlex (arXiv copies among its locations, 50 DOIs per request), Semantic Scholar
#: (``externalIds.ArXiv``, 500 per request but one request per second).
ARXIV_XREF: tuple[str, ...] = ("inspire", "openalex", "semanticscholar")

#: General (all-field) sources; MAJOR needs :data:`MIN_GENERAL` of them.
GENERAL: tuple[str, ...] = ("crossref", "openalex", "semanticscholar")
MIN_GENERAL = 2
#: Sources asked about a reference only when fewer than MIN_GENERAL general
#: sources answered for it (slow: one request per second without a key).
FALLBACK: frozenset[str] = frozenset({"semanticscholar"})
#: The kinds whose answers count as a search for the work (not an identifier look-up).
SEARCH_KINDS: frozenset[QueryKind] = frozenset({QueryKind.TITLE, QueryKind.JOURNAL_REF,
                                                QueryKind.AUTHOR_YEAR})

_CS_VENUE = re.compile(
    r"\b(acm|ieee|neurips|nips|icml|iclr|aaai|ijcai|cvpr|iccv|eccv|acl|emnlp|naacl|sigir|"
    r"sigmod|vldb|kdd|www|usenix|lecture notes in computer science|lncs|"
    r"neural information processing systems|learning representations|"
    r"artificial intelligence|knowledge discovery|"
    r"comput(er|ing|ational)? (science|linguistics|vision)|machine learning research|jmlr|"
    r"transactions on (pattern|neural|information|software|computers))\b", re.IGNORECASE)
_CS_DOI = ("10.1145/", "10.1109/", "10.5555/", "10.18653/")
_ASTRO_VENUE = re.compile(
    r"(astrophys|astron|\\(apj|aj|mnras|aap|pasp|apjs|apjl|araa)\b|\bapj\b|\bmnras\b|"
    r"\ba&a\b|\baj\b|\bpasp\b|icarus|solar phys)", re.IGNORECASE)


def _arxiv_class(entry: Entry) -> str:
    cls = (entry.get("primaryclass") or entry.get("eprintclass")).strip().lower()
    if not cls and "/" in entry.arxiv:  # old-style ids carry their archive: cs/0101001
        cls = entry.arxiv.split("/", 1)[0].lower()
    return cls


def is_cs(entry: Entry) -> bool:
    """Does ``entry`` look like computer science (venue, DOI prefix, arXiv class)?"""
    venue = " ".join((entry.venue, entry.get("booktitle"), entry.get("publisher")))
    return (bool(_CS_VENUE.search(venue)) or entry.doi.lower().startswith(_CS_DOI)
            or _arxiv_class(entry).startswith("cs"))


def is_astro(entry: Entry) -> bool:
    """Does ``entry`` look like astronomy (journal or AAS macro, arXiv astro-ph)?"""
    return (bool(_ASTRO_VENUE.search(entry.venue) or _ASTRO_VENUE.search(
        entry.raw_fields.get("journal", ""))) or _arxiv_class(entry).startswith("astro-ph"))


#: Field routes: a source listed here is asked only about references its test accepts.
ROUTES: Mapping[str, tuple[str, ...]] = {
    "dblp": ("cs",),
    "ads": ("astro",),
    "inspire": ("not-cs",),
}


def fields_of(entry: Entry) -> frozenset[str]:
    """The routing labels of ``entry``: "cs" or "not-cs", and "astro"."""
    cs = is_cs(entry)
    out = {"cs" if cs else "not-cs"}
    if is_astro(entry):
        out.add("astro")
    return frozenset(out)


#: Sources asked for journal references only of title-less references: with a title,
#: their title search (stage TITLE) finds the work whatever its journal reference says,
#: so asking both would cost two requests for one answer.
TITLE_LESS_ONLY: Mapping[QueryKind, frozenset[str]] = {
    QueryKind.JOURNAL_REF: frozenset({"crossref", "openalex", "ads"}),
}


def routed(source: str, entry: Entry, kind: QueryKind | None = None) -> bool:
    """May ``source`` be asked about ``entry`` (its field; for ``kind``, whether it has
    a title, see :data:`TITLE_LESS_ONLY`)?"""
    if kind is not None and source in TITLE_LESS_ONLY.get(kind, frozenset()) \
            and entry.title.strip():
        return False
    need = ROUTES.get(source)
    return need is None or bool(fields_of(entry) & set(need))


#: Every source the plan names (the built-ins).
PLANNED: frozenset[str] = frozenset(
    name for steps in PLAN.values() for step in steps
    for name in ((step,) if isinstance(step, str) else step))


def groups_for(kind: QueryKind, enabled: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Groups of sources to ask for ``kind``, in order, restricted to ``enabled``.

    Sources within a group are asked concurrently. Enabled sources the plan does not
    name (third-party sources from entry points, :mod:`citecheck_tex.plugins`: a group's
    own database) form one group right after ``local``, for every kind (the pipeline
    asks a source only the kinds it declares): like the local index they hold what the
    user trusts, and asking them before the public APIs spares those requests.
    """
    out = []
    extra = tuple(s for s in enabled if s not in PLANNED)
    for step in PLAN[kind]:
        group = (step,) if isinstance(step, str) else step
        names = tuple(s for s in group if s in enabled)
        if names:
            out.append(names)
        if step == "local" and extra:
            out.append(extra)
    if extra and "local" not in PLAN[kind]:  # pragma: no cover - every kind starts local
        out.insert(0, extra)
    return tuple(out)


def answered(a: Answer) -> bool:
    """A definite answer (found or not found), not a failure or a skip."""
    return a.status in (SourceStatus.FOUND, SourceStatus.NOT_FOUND)


def authority_answered(kind: QueryKind, answers: Iterable[Answer]) -> bool:
    """Has an authority of identifier ``kind`` settled it for this reference (the first
    authority answered, or any found it; see :data:`AUTHORITY`)?"""
    names = AUTHORITY.get(kind, ())
    return any(a.query.kind is kind and a.source in names and (
        a.status is SourceStatus.FOUND or (a.source == names[0] and answered(a)))
        for a in answers)


def general_answers(answers: Iterable[Answer]) -> set[str]:
    """The general sources that answered a search for this reference."""
    return {a.source for a in answers
            if a.source in GENERAL and a.query.kind in SEARCH_KINDS and answered(a)}


def missing_for_major(entry: Entry, kinds: Iterable[QueryKind], answers: Sequence[Answer],
                      enabled: Iterable[str], can_answer: Mapping[str, frozenset[QueryKind]]
                      ) -> tuple[str, ...]:
    """The sources of the minimum set (module docstring) that have not answered.

    ``kinds`` are the query kinds the reference allows; ``enabled`` the run's sources
    and ``can_answer`` the kinds each can answer. An empty tuple: a MAJOR verdict
    rests on enough evidence.
    """
    kinds = set(kinds)
    search = kinds & {QueryKind.TITLE, QueryKind.JOURNAL_REF}
    enabled = [s for s in enabled if s != "local"]
    if not enabled:
        return ()  # offline: the local index (complete or not) is the policy's business
    asked_ok = {a.source for a in answers if a.query.kind in SEARCH_KINDS and answered(a)}
    missing: list[str] = []
    if not search:
        if QueryKind.AUTHOR_YEAR in kinds and not (kinds & {QueryKind.ARXIV, QueryKind.DOI}):
            # title-less, no journal reference, no identifier: no general source can
            # look it up, so its absence proves nothing
            missing.append("a general source (no title or journal reference to search)")
        return tuple(missing)
    if QueryKind.TITLE not in kinds and any(
            a.query.kind is QueryKind.JOURNAL_REF and a.status is SourceStatus.FOUND
            for a in answers):
        # a record sits at the cited journal reference: what the general sources could
        # find there is that same work, and it is not the one cited
        search = set()
    domain = [s for s in ("inspire", "dblp") if s in enabled and routed(s, entry)
              and can_answer.get(s, frozenset()) & search]
    missing += [s for s in domain if s not in asked_ok]
    general = [s for s in GENERAL if s in enabled and can_answer.get(s, frozenset()) & search]
    if search and QueryKind.TITLE not in search and not general:
        # title-less: INSPIRE holds only the HEP literature
        missing.append("a general source (Crossref or OpenAlex: none is enabled)")
    need = min(MIN_GENERAL, len(general))
    got = len(general_answers(answers))
    if got < need:
        missing += [s for s in general if s not in asked_ok][: need - got]
    return tuple(missing)
