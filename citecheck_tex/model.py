"""Core immutable types that cross stage boundaries.

No I/O lives here. The stages are:

    tex frontend  ->  Project (entries, citation sites, problems)
    sources       ->  Answer (status + Records) for a Query
    verify        ->  Comparison (score, discrepancies) -> Verdict (label)
    report        ->  renders a RunResult

Raw API JSON never leaves the source adapter that read it: it becomes a
:class:`Record`. A BibTeX/bbl/text reference becomes an :class:`Entry`.
"""

from __future__ import annotations

import enum
import hashlib
import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


class Label(enum.Enum):
    """Verdict of one reference, ordered from most to least severe by ``rank``."""

    MAJOR = "MAJOR"
    MINOR = "MINOR"
    UNVERIFIED = "UNVERIFIED"
    EXACT = "EXACT"
    SKIPPED = "SKIPPED"

    @property
    def rank(self) -> int:
        """Sort key: 0 is the most severe."""
        return _LABEL_RANK[self]


_LABEL_RANK = {
    Label.MAJOR: 0,
    Label.MINOR: 1,
    Label.UNVERIFIED: 2,
    Label.EXACT: 3,
    Label.SKIPPED: 4,
}


class VerdictCode(enum.Enum):
    """Why a verdict has its label: one stable code per kind of decision.

    Each code belongs to exactly one :class:`Label` (:attr:`label`); its docstring
    (:attr:`meaning`) is what the reports publish as the code's help (the SARIF rule,
    the table in ``docs/codes.md``). The prose reason of a verdict is rendered from
    its code and data (:mod:`citecheck_tex.reasons`): never search that text, compare
    codes. Codes are never renamed; new ones may be added.
    """

    label: Label
    meaning: str

    def __new__(cls, code: str, label: Label, meaning: str) -> VerdictCode:
        obj = object.__new__(cls)
        obj._value_ = code
        obj.label = label
        obj.meaning = meaning
        obj.__doc__ = meaning
        return obj

    EXACT = ("exact", Label.EXACT,
             "Every field the citation states agrees with a record that identifies the work.")
    EXACT_SPARSE = ("exact-sparse", Label.EXACT,
                    "Every stated field agrees, but the citation states little to compare "
                    "(score below tau_exact): confidence at most 0.5.")
    FIELD_MISMATCH = ("field-mismatch", Label.MINOR,
                      "The real work was found, but one or more stated fields contradict it "
                      "(see the discrepancy codes); the record's values are suggested.")
    NO_RECORD = ("no-record", Label.MAJOR,
                 "No source consulted has any record for this citation, and every one "
                 "answered.")
    NO_MATCH = ("no-match", Label.MAJOR,
                "Records were found, but the closest one contradicts the citation (title, "
                "authors, journal reference or identifier): likely fabricated or corrupted.")
    AMBIGUOUS_NO_MATCH = ("ambiguous-no-match", Label.MAJOR,
                          "A title-less citation that several works by the cited authors fit "
                          "equally badly: its journal reference points to none of them.")
    IDENTIFIER_MISMATCH = ("identifier-mismatch", Label.MAJOR,
                           "The cited DOI or arXiv id resolves to another work, which the "
                           "title and authors do not describe, and no record matches them "
                           "(a hijacked identifier).")
    CHIMERA = ("chimera", Label.MAJOR,
               "The work exists, but most of the cited authors are not its authors (a real "
               "title or identifier grafted onto other authors).")
    SOURCE_FAILED = ("source-failed", Label.UNVERIFIED,
                     "A source that could have held the work could not be consulted (network "
                     "error, rate limit), and the others do not settle the reference.")
    NO_SOURCE = ("no-source", Label.UNVERIFIED,
                 "No source could be consulted (offline with no local record, or the "
                 "reference gives nothing to look it up by).")
    INDEX_ONLY = ("index-only", Label.UNVERIFIED,
                  "Only the local index was consulted and it is not declared complete: it "
                  "holds no record that fits, which is no evidence. Re-run online.")
    INDEX_COMPLETE_REFUTED = ("index-complete-refuted", Label.UNVERIFIED,
                        "The index was declared complete, but it lacks most of the checked "
                        "references: its silence is no evidence (see the index-incomplete "
                        "problem).")
    POOR_PARSE = ("poor-parse", Label.UNVERIFIED,
                  "No record fits, but the reference was read too poorly (no title nor "
                  "authors, or leftovers of a publisher's page) to call it fabricated.")
    UNRELIABLE_PARSE = ("unreliable-parse", Label.UNVERIFIED,
                        "Would be MAJOR, but the free-text parser flagged its reading of the "
                        "reference as unreliable: what looks fabricated may be a misread.")
    TOO_FEW_SOURCES = ("too-few-sources", Label.UNVERIFIED,
                       "Would be MAJOR, but not enough of the sources that could hold the work "
                       "answered (online): the minimum evidence for MAJOR is missing.")
    UNSETTLED_DEADLINE = ("unsettled-deadline", Label.UNVERIFIED,
                          "The run's deadline passed before every source that could settle "
                          "the reference was asked: the report is partial (see the deadline "
                          "problem); re-run to finish.")
    UNSETTLED_INTERRUPTED = ("unsettled-interrupted", Label.UNVERIFIED,
                             "The run was interrupted (Ctrl-C) before every source that could "
                             "settle the reference was asked: the report is partial.")
    GREY_LITERATURE = ("grey-literature", Label.UNVERIFIED,
                       "Would be MAJOR, but the citation is of a kind scholarly sources list "
                       "only in part (a technical report, a thesis, an unpublished or "
                       "submitted work, a private communication): finding no record of it "
                       "is no evidence it does not exist.")
    PROPOSED_UNCONFIRMED = ("proposed-unconfirmed", Label.UNVERIFIED,
                            "Only the LLM web search proposes a work that fits; no "
                            "authoritative record confirms it.")
    ANOTHER_EDITION = ("another-edition", Label.UNVERIFIED,
                       "A recurring title (a review, proceedings) whose cited edition is not "
                       "among the records found; another edition exists.")
    AMBIGUOUS = ("ambiguous", Label.UNVERIFIED,
                 "Several works by the cited authors fit this incomplete (title-less) "
                 "reference equally; the volume and page would tell which is meant.")
    AMBIGUOUS_INCONCLUSIVE = ("ambiguous-inconclusive", Label.UNVERIFIED,
                              "Several works by the cited authors differ from this title-less "
                              "reference, and the cited work may be missing from what was "
                              "searched (a source failed, or only a partial index was asked).")
    CANNOT_CONFIRM = ("cannot-confirm", Label.UNVERIFIED,
                      "The closest record contradicts nothing the citation states but lacks "
                      "the fields the citation is identified by.")
    NOT_SCHOLARLY = ("not-scholarly", Label.SKIPPED,
                     "Not a scholarly work (software, dataset, web page, standard, manual, "
                     "a bare URL): not checked.")
    WEB_PAGE = ("web-page", Label.SKIPPED,
                "A web page (a URL, no DOI, arXiv id or venue) that no scholarly record "
                "matches: not verified.")
    IGNORED = ("ignored", Label.SKIPPED,
               "Ignored by the user (--ignore, ignore setting or .citecheck-ignore).")
    LLM_EXACT = ("llm-exact", Label.EXACT,
                 "The LLM judge (--llm judge/fallback/review) overruled the deterministic "
                 "label: the record is the cited work and nothing stated contradicts it.")
    LLM_MINOR = ("llm-minor", Label.MINOR,
                 "The LLM judge overruled the deterministic label: the record is the cited "
                 "work with wrong fields.")
    LLM_MAJOR = ("llm-major", Label.MAJOR,
                 "The LLM judge overruled the deterministic label: the record is not the "
                 "cited work.")


class DiscrepancyCode(enum.Enum):
    """What kind of contradiction a :class:`Discrepancy` is: one stable code each.

    Its docstring (:attr:`meaning`) is published as the code's help (SARIF rules,
    ``docs/codes.md``). Codes are never renamed; new ones may be added.
    """

    meaning: str

    def __new__(cls, code: str, meaning: str) -> DiscrepancyCode:
        obj = object.__new__(cls)
        obj._value_ = code
        obj.meaning = meaning
        obj.__doc__ = meaning
        return obj

    TITLE_MISMATCH = ("title-mismatch", "The cited title differs from the record's.")
    AUTHOR_ADDED = ("author-added", "A cited author is not an author of the record.")
    AUTHOR_MISSING = ("author-missing",
                      "An author of the record is missing from the cited list (which is not "
                      "truncated with 'and others').")
    AUTHOR_MISSPELT = ("author-misspelt", "A cited family name is a misspelling of the "
                       "record's.")
    AUTHOR_NAME_FORM = ("author-name-form",
                        "A cited name mixes up given and family names, or the parts of a "
                        "compound family name are in another order.")
    INITIAL_MISMATCH = ("initial-mismatch", "A cited author's initials differ from the "
                        "record's.")
    AUTHOR_ORDER = ("author-order", "The cited authors are in a different order.")
    COLLABORATION_MISMATCH = ("collaboration-mismatch",
                              "The cited collaboration differs from the record's.")
    YEAR_OFF_BY_ONE = ("year-off-by-one",
                       "The cited year is one year from every year the work appeared in "
                       "(preprint, journal, erratum): often the preprint or print year.")
    YEAR_MISMATCH = ("year-mismatch", "The cited year is two or more years from every year "
                     "the work appeared in.")
    DOI_MISMATCH = ("doi-mismatch", "The cited DOI differs from the record's.")
    ARXIV_MISMATCH = ("arxiv-mismatch", "The cited arXiv id differs from the record's.")
    ARXIV_UNKNOWN = ("arxiv-unknown", "arXiv itself answered that no paper has the cited "
                     "arXiv id (the work was found otherwise).")
    IDENTIFIER_OTHER_WORK = ("identifier-other-work",
                             "The cited DOI or arXiv id belongs to another paper; the record "
                             "found by title and authors has its own.")
    URL_MISMATCH = ("url-mismatch", "The cited link differs from the record's (another host, "
                    "or a mangled path).")
    JOURNAL_MISMATCH = ("journal-mismatch", "The cited journal or venue differs from the "
                        "record's (also a site named after the title).")
    VOLUME_MISMATCH = ("volume-mismatch", "The cited volume differs from the record's.")
    PAGES_MISMATCH = ("pages-mismatch", "The cited page or article number differs from the "
                      "record's.")
    JOURNAL_OMITTED = ("journal-omitted", "A title-less reference without identifier omits "
                       "the journal it needs to be found.")
    VOLUME_OMITTED = ("volume-omitted", "A title-less reference without identifier omits the "
                      "volume it needs to be found.")
    PAGES_OMITTED = ("pages-omitted", "A title-less reference without identifier omits the "
                     "page it needs to be found.")
    LLM_REPORTED = ("llm-reported", "A discrepancy the LLM judge reported.")
    OTHER = ("other", "A field that contradicts the record, of no more specific kind.")


@dataclass(frozen=True, slots=True)
class Person:
    """An author name split BibTeX-style.

    ``family`` keeps particles that belong to it in the bibliography sense
    ("van der Waals" has ``von="van der"``, ``family="Waals"``).
    ``literal`` is True for braced corporate names (``{ATLAS Collaboration}``).
    """

    family: str
    given: str = ""
    von: str = ""
    jr: str = ""
    literal: bool = False

    @property
    def full_family(self) -> str:
        """Family name with its particle ("van der Waals")."""
        return f"{self.von} {self.family}".strip()

    def display(self) -> str:
        """A human-readable "Given von Family, Jr" form."""
        if self.literal:
            return self.family
        parts = [p for p in (self.given, self.von, self.family) if p]
        s = " ".join(parts)
        return f"{s}, {self.jr}" if self.jr else s


@dataclass(frozen=True, slots=True)
class Location:
    """A place in a source file (1-based line)."""

    file: str
    line: int


@dataclass(frozen=True, slots=True)
class CiteSite:
    """One occurrence of a key in a citation command."""

    key: str
    file: str
    line: int
    command: str


class EntryOrigin(enum.Enum):
    """Where an entry came from: decides how much structure to expect."""

    BIB = "bib"
    BBL = "bbl"
    TEXT = "text"  # free-text reference list (.txt/.md) or thebibliography in .tex


@dataclass(frozen=True, slots=True)
class Entry:
    """A reference as the author wrote it, decoded to Unicode.

    ``fields`` holds every field in lowercase name -> Unicode text (LaTeX
    decoded). ``raw_fields`` holds the original field text as written (for
    the annotated .bib). Convenience attributes hold normalised identifiers.
    """

    key: str
    entry_type: str
    file: str
    line: int
    origin: EntryOrigin = EntryOrigin.BIB
    fields: Mapping[str, str] = field(default_factory=dict)
    raw_fields: Mapping[str, str] = field(default_factory=dict)
    authors: tuple[Person, ...] = ()
    authors_truncated: bool = False  # "and others" / "et al."
    editors: tuple[Person, ...] = ()
    title: str = ""
    year: str = ""
    venue: str = ""  # journal, booktitle, or archive name
    volume: str = ""
    pages: str = ""
    doi: str = ""  # normalised: lowercase, no resolver prefix
    arxiv: str = ""  # normalised: no "arXiv:" prefix, no version
    url: str = ""
    texkey: str = ""  # an INSPIRE texkey when the key or a field looks like one
    raw_text: str = ""  # the free text of a bibitem / list line, when any
    end_line: int = 0  # last line of the entry in its file, when known
    # why the free-text parse of this entry is unreliable ("" when fine, and always for
    # BibTeX): the policy never calls such an entry MAJOR (see verify.policy.decide)
    parse_issue: str = ""
    # defined in a file outside the project folder: only key, file and line are kept,
    # and the entry is not checked (problem ``outside-project``)
    outside_project: bool = False
    # the key of the bibliography item this reference was written in, when the item
    # holds several references ("KEY#2" is the second of item KEY; see tex.merged)
    part_of: str = ""

    @property
    def item_key(self) -> str:
        """The key the paper cites this reference by (its item's, for a merged part)."""
        return self.part_of or self.key

    def get(self, name: str, default: str = "") -> str:
        """A decoded field by lowercase name."""
        return self.fields.get(name, default)

    @property
    def content_hash(self) -> str:
        """Hash of the normalised content: changes when a checked field changes."""
        payload = json.dumps(
            {
                "t": self.entry_type.lower(),
                "f": sorted((k, " ".join(v.split())) for k, v in self.fields.items()),
                "x": " ".join(self.raw_text.split()),
            },
            ensure_ascii=False,
        )
        return hashlib.sha256(payload.encode("utf-8")).hexdigest()[:16]


#: Problem codes that mean the input is broken (a ``?`` in the PDF, a bibliography
#: BibTeX or biber cannot read, an index that refutes its own declaration): severity
#: "error", they fail the run at every ``--fail-on`` level but ``never``. Every other
#: code is a "warning" (style, hygiene, degraded sources), failing only ``--fail-on
#: warning``.
ERROR_CODES = frozenset({
    "undefined-key", "parse-error", "missing-file", "no-bibliography", "empty-bib",
    "include-cycle", "index-incomplete",
})


@dataclass(frozen=True, slots=True)
class Problem:
    """A finding of the frontend or the pipeline that is not a verdict.

    Stable codes: undefined-key, unused-entry, duplicate-key, parse-error,
    empty-bib, missing-file, missing-field, bbl-mismatch, artefact-mismatch,
    no-bibliography, missing-title-and-id, arxiv-id-form, doi-syntax,
    unbraced-collaboration (an author "ATLAS Collaboration" that BibTeX reads as a
    person), mangled-name (a name BibTeX itself prints otherwise than written: an
    accent \\~ outside braces, run-together initials, "Neilsen, Jr." for
    "Neilsen, Jr., Eric H."), ambiguous-main,
    index-incomplete, index-unusable (the local index could not be read),
    outside-project (a file read from outside the project folder), network (a source
    could not be reached, throttled us or did not answer like the API), deadline and
    interrupted (retrieval stopped early: the report is partial). Its
    :attr:`severity` follows from the code (:data:`ERROR_CODES`).
    """

    code: str
    message: str
    key: str = ""
    file: str = ""
    line: int = 0
    level: str = ""  # "error" or "warning" when not the code's (e.g. a .bib replaced by the .bbl)

    @property
    def severity(self) -> str:
        """``"error"`` (broken input, see :data:`ERROR_CODES`) or ``"warning"``."""
        if self.level:
            return self.level
        return "error" if self.code in ERROR_CODES else "warning"


@dataclass(frozen=True, slots=True)
class Project:
    """What the frontend found: entries to check, citation sites, problems.

    ``entries`` holds the entries to verify (cited ones for a .tex input, all
    for a .bib/.bbl/.txt input), in file order. ``all_entries`` holds every
    parsed entry (for unused-key and annotation). ``resources`` lists the
    bibliography files in scope.
    """

    input: str
    main_file: str
    files: tuple[str, ...]
    resources: tuple[str, ...]
    entries: tuple[Entry, ...]
    all_entries: tuple[Entry, ...]
    sites: tuple[CiteSite, ...]
    problems: tuple[Problem, ...]
    #: bibliography files named but not found, where they were looked for (relative to
    #: the main file's folder): watch mode waits for them to come (back)
    missing: tuple[str, ...] = ()

    def sites_for(self, key: str) -> tuple[CiteSite, ...]:
        """Every citation site of ``key``."""
        return tuple(s for s in self.sites if s.key == key)


class QueryKind(enum.Enum):
    """What a source is asked by."""

    ARXIV = "arxiv"
    DOI = "doi"
    TEXKEY = "texkey"
    REPORT = "report"  # a laboratory/collaboration report number ("CMS-PAS-HIG-11-024")
    JOURNAL_REF = "journal_ref"
    AUTHOR_YEAR = "author_year"  # title-less reference: first author + year (+ journal)
    TITLE = "title"


@dataclass(frozen=True, slots=True)
class Query:
    """One question to a source.

    For identifier kinds ``value`` is the normalised identifier. For TITLE,
    ``value`` is the title and ``authors``/``year`` help ranking. For
    JOURNAL_REF, ``journal``, ``volume``, ``page`` are set. For AUTHOR_YEAR,
    ``authors`` (family names, first author first) and ``year`` are set, and
    ``journal``/``volume``/``page`` when the reference states them (for ranking).
    """

    kind: QueryKind
    value: str = ""
    authors: tuple[str, ...] = ()  # family names
    year: str = ""
    journal: str = ""
    volume: str = ""
    page: str = ""

    def cache_key(self) -> str:
        """Stable text form of the query for cache keys."""
        return json.dumps(
            [self.kind.value, self.value.strip().lower(), list(self.authors), self.year,
             self.journal.lower(), self.volume.lower(), self.page.lower()],
            ensure_ascii=False,
        )


@dataclass(frozen=True, slots=True)
class Record:
    """A bibliographic record as a source returned it."""

    source: str
    id: str
    url: str = ""
    title: str = ""
    authors: tuple[Person, ...] = ()
    authors_truncated: bool = False  # the source itself lists only some authors
    collaborations: tuple[str, ...] = ()
    year: str = ""
    other_years: tuple[str, ...] = ()  # preprint (arXiv v1) year, print year, ...
    venue: str = ""
    venue_aliases: tuple[str, ...] = ()
    volume: str = ""
    pages: str = ""
    doi: str = ""
    arxiv: str = ""
    texkeys: tuple[str, ...] = ()
    entry_type: str = ""  # article, inproceedings, book, preprint, dataset, software ...
    extra_pubs: tuple[tuple[str, str, str, str], ...] = ()  # (venue, volume, pages, year) alternates
    score: float = 0.0  # the source's own relevance/confidence, 0..1 when known
    # A lead from a non-authoritative source (the LLM web search): it never
    # confirms a work by itself, see citecheck_tex.verify.policy.
    proposed: bool = False
    # laboratory/collaboration report numbers, normalised ("CMS-PAS-HIG-11-024")
    report_numbers: tuple[str, ...] = ()
    # True when the record's only dates are catalogue or feed dates (when a database
    # created the record, not when the work appeared): its years contradict no cited
    # year (see citecheck_tex.verify.compare)
    catalogue_dates: bool = False


class SourceStatus(enum.Enum):
    """Outcome of asking one source."""

    FOUND = "found"
    NOT_FOUND = "not_found"
    ERROR = "error"
    RATE_LIMITED = "rate_limited"
    SKIPPED = "skipped"

    @property
    def failed(self) -> bool:
        """True when the source could not give an answer."""
        return self in (SourceStatus.ERROR, SourceStatus.RATE_LIMITED)


@dataclass(frozen=True, slots=True)
class Answer:
    """What one source said to one query."""

    source: str
    query: Query
    status: SourceStatus
    records: tuple[Record, ...] = ()
    message: str = ""
    latency_ms: float = 0.0
    cached: bool = False
    http_requests: int = 0


@dataclass(frozen=True, slots=True)
class Attempt:
    """A summary of one source consultation, kept for provenance."""

    source: str
    kind: str
    status: SourceStatus
    latency_ms: float = 0.0
    message: str = ""
    cached: bool = False


@dataclass(frozen=True, slots=True)
class Discrepancy:
    """A field the citation states that contradicts the record.

    ``code`` says what kind of contradiction it is; ``also`` lists further kinds found
    in the same field (an author list can be misspelt and reordered at once).
    """

    field: str
    cited: str
    found: str
    note: str = ""
    code: DiscrepancyCode = DiscrepancyCode.OTHER
    also: tuple[DiscrepancyCode, ...] = ()

    @property
    def codes(self) -> tuple[DiscrepancyCode, ...]:
        """Every kind of contradiction in this field, the main one first."""
        return (self.code, *self.also)


@dataclass(frozen=True, slots=True)
class FieldCheck:
    """Agreement of one field: ``agree`` is None when the field was not comparable."""

    field: str
    agree: bool | None
    similarity: float
    cited: str = ""
    found: str = ""
    note: str = ""


@dataclass(frozen=True, slots=True)
class Comparison:
    """Deterministic comparison of an entry with one record."""

    record: Record
    score: float  # 0..10
    confidence: float  # 0..1
    checks: tuple[FieldCheck, ...]
    discrepancies: tuple[Discrepancy, ...]
    identity: float  # 0..1: how sure we are that the record is the work meant


#: The facts of a verdict that needs none: one shared, read-only mapping (no dict per
#: verdict on 100,000 references).
_NO_FACTS: Mapping[str, str] = MappingProxyType({})


@dataclass(frozen=True, slots=True)
class Verdict:
    """The decided label of one entry with its evidence.

    ``code`` says why (one :class:`VerdictCode`, which belongs to ``label``); ``facts``
    holds the data the reason sentence needs beyond the verdict's own fields (source
    names, record ids, counts, the LLM's opinion), by name. :attr:`reason` renders
    the sentence from both (:mod:`citecheck_tex.reasons`).
    """

    entry: Entry
    label: Label
    score: float
    confidence: float
    code: VerdictCode
    match: Record | None = None
    discrepancies: tuple[Discrepancy, ...] = ()
    suggested: Mapping[str, str] | None = None
    attempts: tuple[Attempt, ...] = ()
    sites: tuple[CiteSite, ...] = ()
    checks: tuple[FieldCheck, ...] = ()
    # UNVERIFIED only because a local index not declared complete was all that was
    # consulted (offline): the reports give the advice once instead of per entry
    index_only: bool = False
    # UNVERIFIED because retrieval stopped (deadline, Ctrl-C) before every source
    # that could settle it was asked: the report is partial
    unsettled: bool = False
    facts: Mapping[str, str] = field(default_factory=lambda: _NO_FACTS)

    def __post_init__(self) -> None:
        if self.code.label is not self.label:
            raise ValueError(f"verdict code {self.code.value!r} belongs to "
                             f"{self.code.label.value}, not {self.label.value}")

    @property
    def reason(self) -> str:
        """The reason as one English sentence (or a few), rendered from code and data."""
        from citecheck_tex.reasons import render_reason

        return render_reason(self)


@dataclass(frozen=True, slots=True)
class RunResult:
    """Everything a reporter needs."""

    input: str
    offline: bool
    project: Project
    verdicts: tuple[Verdict, ...]
    problems: tuple[Problem, ...]
    tool_version: str
    elapsed_s: float = 0.0
    http_requests: int = 0
    # What the optional LLM parts cost, by part ("parse", "judge", "websearch"): counts
    # of requests, calls, cache_hits, failures, prompt_tokens, completion_tokens.
    # None when no LLM part was configured for the run.
    llm_usage: Mapping[str, Mapping[str, int]] | None = None
    llm_model: str = ""  # the model those parts asked, when any
    # "" for a complete run; "deadline" or "interrupted" when retrieval stopped early:
    # the report is partial (references not yet settled are UNVERIFIED)
    partial: str = ""

    def summary(self) -> dict[str, int]:
        """Counts per label, every label present."""
        counts = {lab.value: 0 for lab in (Label.EXACT, Label.MINOR, Label.MAJOR,
                                            Label.UNVERIFIED, Label.SKIPPED)}
        for v in self.verdicts:
            counts[v.label.value] += 1
        return counts
