"""The decision: from the sources' answers to one labelled :class:`Verdict`.

Steps (each a small function):

1. :func:`skip_reason` - not a scholarly work -> SKIPPED (decided before asking).
2. candidate selection (:func:`select_candidate`): every record of every FOUND
   answer, records of one work merged (preprint and journal versions), ranked
   by normalised-Levenshtein title similarity; author overlap, year proximity
   and the source's confidence break ties within a small title-score window.
3. comparison (:mod:`citecheck_tex.verify.compare`) and the reviewer pass
   (:mod:`citecheck_tex.verify.review`).
4. thresholds: ``score >= tau_minor`` identifies the work: EXACT when no
   stated field contradicts the record, MINOR when one does; below -> MAJOR
   when every consulted source answered, UNVERIFIED when one failed or none
   could be asked. ``tau_exact`` separates a well-supported EXACT from one whose
   citation states too little to be sure (score below it: confidence at most
   0.5 and a note); it never turns a faithful citation into MINOR.
   Offline, when only the local index was consulted, its silence is evidence
   only if the user declares it complete (``index_complete``); otherwise the
   entries it cannot match are UNVERIFIED, with what to do next.

Every verdict carries the :class:`~citecheck_tex.model.VerdictCode` of the step that
decided it and the data its sentence needs (``Verdict.facts``); the sentence itself is
rendered by :mod:`citecheck_tex.reasons`. Code that needs to know why compares codes.

Proposals (``Record.proposed``: the LLM web search) are leads, not evidence.
The rule is: a proposal never settles an entry nor lends years or
publications to a confirmed record of the same work (the confirmed record is
always the primary one); when the candidate chosen is a proposal that would
make the entry EXACT or MINOR, the entry is UNVERIFIED instead ("proposed, not
confirmed"): so a proposal alone can lift MAJOR to UNVERIFIED, never further.
A proposal whose DOI or arXiv id every authoritative source asked answered
NOT_FOUND is refuted and ignored. A proposed identifier that resolves makes
the resolved (authoritative) record a candidate like any other.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Sequence
from dataclasses import replace
from functools import lru_cache

from citecheck_tex.config import Settings
from citecheck_tex.model import (
    Answer,
    Attempt,
    Comparison,
    Entry,
    EntryOrigin,
    Label,
    Problem,
    QueryKind,
    Record,
    RunResult,
    SourceStatus,
    Verdict,
    VerdictCode,
)
from citecheck_tex.reasons import describe_fields
from citecheck_tex.verify import normalize as nz
from citecheck_tex.verify.compare import compare, match_authors
from citecheck_tex.verify.review import DESCRIBES_AUTHORS, GOOD_FIT, review
from citecheck_tex.verify.suggest import suggest
from citecheck_tex.vocab.ids import find_report_number

logger = logging.getLogger(__name__)

#: Candidates whose title similarity is within this window of the best one are
#: ranked by authors, year and source confidence instead.
TITLE_WINDOW = 0.05
#: ``index_complete`` is not believed when more than this share of the checked
#: references (and at least :data:`INCOMPLETE_MIN` of them) would be MAJOR only because
#: the local index, the one source asked, lacks them.
INCOMPLETE_SHARE = 0.5
INCOMPLETE_MIN = 3
#: Highest confidence of a verdict that rests on an unconfirmed proposal.
PROPOSAL_CONFIDENCE = 0.3

_SKIP_TYPES = {
    "software": "software", "online": "web page", "webpage": "web page", "www": "web page",
    "electronic": "web page", "dataset": "dataset", "data": "dataset", "standard": "standard",
    "manual": "manual", "patent": "patent", "video": "video", "audio": "recording",
    "music": "recording", "image": "image", "artwork": "artwork", "codefragment": "software",
    "repository": "software",
}
_SOFTWARE_HOSTS = re.compile(
    r"(github\.com|gitlab\.|bitbucket\.org|zenodo\.org|pypi\.org|cran\.r-project|"
    r"readthedocs|sourceforge\.net|hub\.docker|"
    # models, datasets and spaces; huggingface.co/papers/ mirrors arXiv papers
    r"huggingface\.co/(?!papers/)|kaggle\.com/(?:datasets|competitions|code|models))",
    re.IGNORECASE)
_STANDARD_TITLE = re.compile(r"^\s*(ISO|IEC|IEEE Std|RFC|ANSI|DIN|ECMA)[\s\-]?\d", re.IGNORECASE)


#: Hosts of scholarly records: a ``@misc`` pointing there cites a paper, not a page.
_SCHOLARLY_HOSTS = re.compile(
    r"(arxiv\.org|doi\.org|inspirehep\.net|adsabs\.|semanticscholar\.org|openreview\.net|"
    r"aclanthology\.org|aclweb\.org|papers\.nips\.cc|neurips\.cc|proceedings\.|pmlr|"
    r"dl\.acm\.org|ieeexplore|springer\.com|sciencedirect\.com|elsevier|journals\.aps\.org|"
    r"iop\.org|iopscience|nature\.com|science\.org|wiley\.com|tandfonline|jstor\.org|"
    r"biorxiv\.org|medrxiv\.org|ssrn\.com|ncbi\.nlm\.nih\.gov|pubmed|osti\.gov|"
    r"cds\.cern\.ch|hal\.science|hal\.archives|dblp\.org|jmlr\.org|aaai\.org|ijcai\.org|"
    r"cvf\.com|thecvf\.com|mdpi\.com|frontiersin\.org|plos|oup\.com|cambridge\.org|"
    r"aip\.org|scitation|acs\.org|rsc\.org|sissa\.it|annualreviews\.org|researchgate)",
    re.IGNORECASE)


#: Paths of article pages on any host: ``/articles/s41586-...``, ``/pdf/2204.09521.pdf``,
#: ``/abs/...``, ``/doi/10...``, ``/chapters/62111``, ``/book/10.1007/...``, PMC ids.
_ARTICLE_PATH = re.compile(
    r"^https?://[^/\s]+/(?:[^\s]*/)?(?:articles?|pdf|abs|doi|full|fulltext|chapters?|book|"
    r"paper|papers|publication)/[^\s/]|/PMC\d+|pubmed\.ncbi", re.IGNORECASE)


def is_article_url(url: str) -> bool:
    """True when ``url`` points to an article page: a scholarly host or an article path.

    A fabricated citation usually comes with a fabricated link of this shape (a PMC
    id, an ``/articles/`` path on an invented journal's host): such a reference
    claims to be a scholarly work and is checked as one, never skipped as a web page.
    """
    return bool(_SCHOLARLY_HOSTS.search(url) or _ARTICLE_PATH.search(url.strip()))


def is_web_like(entry: Entry) -> bool:
    """A reference to a web page rather than a scholarly work.

    Either a list item with a title and a URL but no authors, year or
    identifier, or a BibTeX ``@misc`` with a title and a URL (or
    ``howpublished``) on a host that publishes no scholarly records, and no
    DOI, arXiv id or venue (a blog post, a project page, a company's
    announcement). Such an entry is looked up by title, and when no scholarly
    record matches it is SKIPPED (scholarly sources cannot show a web page
    fabricated), not MAJOR.
    """
    if not entry.title or entry.doi or entry.arxiv or entry.venue:
        return False
    if entry.url and not entry.authors and not entry.year:
        # a link to an article page ("/articles/", "/pdf/", PubMed, a journal's host)
        # cites a scholarly work, whatever the host: not finding it is evidence
        return not is_article_url(entry.url)
    url = entry.url or entry.get("howpublished")
    return bool(entry.entry_type.lower() == "misc" and entry.origin.value in ("bib", "bbl")
                and url and re.search(r"https?://|www\.", url)
                and not _SCHOLARLY_HOSTS.search(url))


#: Entry types of works the scholarly sources index only in part (an institution's
#: report, a thesis, a manuscript): not finding one is no evidence it does not exist.
_GREY_TYPES = {
    "techreport": "technical report", "report": "report", "unpublished": "unpublished work",
    "phdthesis": "thesis", "mastersthesis": "thesis", "thesis": "thesis",
    "booklet": "booklet", "letter": "letter",
}
#: The entry types of BibTeX and biblatex (and the aliases biber knows): any other type
#: (``@LiveLink``, ``@Other``) is a document class of its own, indexed nowhere.
_STANDARD_TYPES = frozenset((
    "article", "book", "booklet", "conference", "inbook", "incollection", "inproceedings",
    "manual", "mastersthesis", "misc", "phdthesis", "proceedings", "techreport",
    "unpublished", "mvbook", "bookinbook", "suppbook", "collection", "mvcollection",
    "suppcollection", "dataset", "online", "patent", "periodical", "suppperiodical",
    "mvproceedings", "reference", "mvreference", "inreference", "report", "set",
    "software", "thesis", "xdata", "artwork", "audio", "bibnote", "commentary", "image",
    "jurisdiction", "legislation", "legal", "letter", "movie", "music", "performance",
    "review", "standard", "video", "electronic", "www", "webpage", "preprint", "data",
    "codefragment", "repository", "customa", "customb", "customc", "customd", "custome",
    "customf", "",
))
#: What a reference says of a work that is not (yet) in the literature: a private
#: communication, a work in preparation or submitted, a thesis, a technical report.
_GREY_NOTE = re.compile(
    r"\b(?:(?P<comm>(?:private|personal)\s+comm\w*|priv\.\s*comm\b)"
    r"|(?P<prep>in\s+prep(?:aration\b|\.)|inpreparation\b)"
    r"|(?P<unpub>unpublished\b|forthcoming\b|submitted\b|to\s+(?:be\s+published|appear)\b"
    r"|in\s+press\b|inpress\b)"
    r"|(?P<thesis>thesis\b|theses\b|dissertation\b|habilitation\b)"
    r"|(?P<report>tech(?:nical|\.)\s*(?:rep(?:ort)?|note|memo)\b|internal\s+(?:note|report|memo)\b"
    r"|lecture\s+notes\b(?!\s+in\b)|white\s*paper\b))",  # (not Springer's "Lecture Notes in")
    re.IGNORECASE)
_GREY_KINDS = {"comm": "private communication", "prep": "work in preparation",
               "unpub": "work not yet published", "thesis": "thesis",
               "report": "technical report"}
#: Fields where an entry says what kind of document it is (biblatex ``pubstate``:
#: ``inpreparation``, ``submitted``, ``forthcoming``, ``inpress``).
_GREY_FIELDS = ("note", "howpublished", "type", "addendum", "pubstate", "journal")


def grey_kind(entry: Entry) -> str | None:
    """The kind of document ``entry`` cites when scholarly sources list few of its kind
    ("thesis", "technical report", "private communication", "document (@livelink)"),
    or None for a journal article, a paper, a book or a preprint.

    An ESA technical note, a CCSDS Blue Book, a 1998 thesis of a Swiss university or a
    colleague's "in preparation" is in none of Crossref, OpenAlex, INSPIRE, Semantic
    Scholar or DBLP, so finding no record of it is no evidence of fabrication. An entry
    with a DOI or an arXiv id is checked at that identifier as any other.
    """
    if entry.doi or entry.arxiv:
        return None
    etype = entry.entry_type.lower()
    if etype in _GREY_TYPES:
        return _GREY_TYPES[etype]
    if etype not in _STANDARD_TYPES:
        return f"document (@{etype})"
    if etype == "misc" and entry.get("school"):
        return "thesis"
    if etype == "misc" and entry.get("institution"):
        return "technical report"
    said = " ".join(entry.get(f) for f in _GREY_FIELDS)
    if entry.raw_text:  # a .bbl or list item: what it says besides the title
        said += " " + (entry.raw_text.replace(entry.title, " ") if entry.title
                       else entry.raw_text)
    m = _GREY_NOTE.search(said)
    if m is not None and m.lastgroup:
        return _GREY_KINDS[m.lastgroup]
    # a free-text title that swallowed the note ("Ph.D. thesis, University of Geneva",
    # "Unpublished lecture notes", "..., Blue Book, Tech. Rep. CCSDS 301.0-B-3"): a cue
    # that opens the title or follows a comma or period (not "The thesis of ...")
    for m in _GREY_NOTE.finditer(entry.title):
        before = _DEGREE_END.sub("", entry.title[:m.start()]).rstrip()
        if m.lastgroup and (not before or before[-1] in ",.;:("):
            return _GREY_KINDS[m.lastgroup]
    return None


#: A degree before "thesis" ("Ph.D.", "PhD", "Master's", "Diploma"), at the end of a text.
_DEGREE_END = re.compile(r"(?:ph\.?\s?d\.?|doctoral|master'?s?|diploma|bachelor'?s?|"
                         r"m\.?\s?sc\.?|b\.?\s?sc\.?|d\.?\s?phil\.?)\s*$", re.IGNORECASE)


def skip_reason(entry: Entry) -> str | None:
    """Why ``entry`` is not a scholarly work to verify, or None when it is one.

    Software, web pages, datasets, standards and manuals, and ``@misc``
    entries (or bare list items) that give only a URL, are skipped.
    """
    if entry.outside_project:
        return "defined in a file outside the project folder: not checked"
    etype = entry.entry_type.lower()
    kind = _SKIP_TYPES.get(etype)
    if kind == "web page" and (entry.arxiv or entry.doi):
        # biblatex's @online with an e-print or a DOI is a paper online: Better BibTeX
        # exports every arXiv preprint so, and a fabricated one must not pass unchecked
        kind = None
    if kind:
        return f"not a scholarly work (@{etype}: {kind})"
    has_id = bool(entry.doi or entry.arxiv or find_report_number(entry.fields, etype))
    url = entry.url or entry.get("howpublished")
    if _STANDARD_TITLE.match(entry.title or ""):
        return "a technical standard"
    if not has_id and url and _SOFTWARE_HOSTS.search(url) and not entry.venue:
        return "software or dataset (repository URL, no DOI or arXiv id)"
    unpublished = "" if has_id or entry.title else grey_kind(entry) or ""
    if unpublished in ("private communication", "work in preparation", "work not yet published"):
        return f"a {unpublished}: nothing published to check"
    if etype in ("misc", "") or entry.origin.value == "text":
        if not has_id and not entry.venue:
            if url and not entry.title and not entry.authors:
                return "a bare URL"
            if not entry.title and not entry.authors and not entry.raw_text:
                return "nothing to verify (no title, authors or identifier)"
    return None


def attempts_of(answers: Sequence[Answer]) -> tuple[Attempt, ...]:
    """One :class:`Attempt` per answer, for the verdict's provenance."""
    return tuple(_attempt(a.source, a.query.kind.value, a.status, a.latency_ms, a.message,
                          a.cached) for a in answers)


@lru_cache(maxsize=4096)
def _attempt(source: str, kind: str, status: SourceStatus, latency_ms: float, message: str,
             cached: bool) -> Attempt:
    """Equal attempts are one object: offline, each of 100,000 references holds the same
    dozen "skipped: offline" attempts (140 MB when each was its own)."""
    return Attempt(source, kind, status, latency_ms, message, cached)


def _same_work(a: Record, b: Record) -> bool:
    if a.doi and b.doi and nz.norm_doi(a.doi) == nz.norm_doi(b.doi):
        return True
    if a.arxiv and b.arxiv and nz.norm_arxiv(a.arxiv) == nz.norm_arxiv(b.arxiv):
        return True
    if a.report_numbers and b.report_numbers \
            and not set(a.report_numbers) & set(b.report_numbers):
        return False  # two reports of a series that share a title (CMS-PAS-TOP-11-005, -12-007)
    if a.title and b.title and nz.title_key(a.title) == nz.title_key(b.title):
        fa = nz.name_key(a.authors[0].full_family) if a.authors else ""
        fb = nz.name_key(b.authors[0].full_family) if b.authors else ""
        if not fa and not fb:
            # no authors to tell editions of a recurring title apart: the year must agree
            return a.year == b.year
        return fa == fb
    return False


def _merge(primary: Record, siblings: Sequence[Record]) -> Record:
    """One record for a work known in several versions: years, publications and
    missing identifiers of the siblings are added as alternates."""
    if not siblings:
        return primary
    years = list(primary.other_years)
    pubs = list(primary.extra_pubs)
    doi, arxiv = primary.doi, primary.arxiv
    aliases = list(primary.venue_aliases)
    for s in siblings:
        for y in (s.year, *s.other_years):
            if y and y != primary.year and y not in years:
                years.append(y)
        if s.venue or s.volume or s.pages:
            pubs.append((s.venue, s.volume, s.pages, s.year))
        pubs.extend(s.extra_pubs)
        doi = doi or s.doi
        arxiv = arxiv or s.arxiv
    return replace(primary, other_years=tuple(years), extra_pubs=tuple(pubs), doi=doi,
                   arxiv=arxiv, venue_aliases=tuple(aliases))


def refuted(record: Record, answers: Sequence[Answer]) -> bool:
    """True when ``record`` is a proposal whose DOI or arXiv id was looked up and every
    source asked answered NOT_FOUND."""
    if not record.proposed:
        return False
    for kind, value, norm in ((QueryKind.DOI, record.doi, nz.norm_doi),
                              (QueryKind.ARXIV, record.arxiv, nz.norm_arxiv)):
        if not value:
            continue
        asked = [a for a in answers
                 if a.query.kind is kind and norm(a.query.value) == norm(value)]
        if asked and all(a.status is SourceStatus.NOT_FOUND for a in asked):
            return True
    return False


def _records(answers: Sequence[Answer]) -> list[Record]:
    seen: set[tuple[str, str]] = set()
    out: list[Record] = []
    for a in answers:
        if a.status is not SourceStatus.FOUND:
            continue
        for r in a.records:
            k = (r.source, r.id)
            if k in seen or refuted(r, answers):
                continue
            seen.add(k)
            out.append(r)
    return out


def _groups(records: list[Record]) -> list[list[Record]]:
    groups: list[list[Record]] = []
    for r in records:
        for g in groups:
            if any(_same_work(r, o) for o in g):
                g.append(r)
                break
        else:
            groups.append([r])
    return groups


def _check(c: Comparison, name: str) -> float:
    for fc in c.checks:
        if fc.field == name:
            return fc.similarity if fc.agree is not None else -1.0
    return -1.0


#: Titles of corrections: an erratum repeats the title of the paper it corrects.
_ERRATUM_TITLE = re.compile(r"^\W*(erratum|errata|corrigendum|addendum|publisher'?s note|"
                            r"correction|retraction)\b", re.IGNORECASE)


def is_erratum(record: Record) -> bool:
    """True when the record is a correction notice (erratum, corrigendum, addendum)."""
    return bool(_ERRATUM_TITLE.match(record.title)) or record.entry_type == "erratum"


def select_candidate(entry: Entry, comparisons: Sequence[Comparison]) -> Comparison:
    """The comparison with the record most likely meant.

    An exact identifier beats a title match: when the cited DOI, arXiv id, report
    number or journal+volume+page agree with some records, the choice is among
    those (periodic reports and conference series share titles across years; the
    reviewer still sets aside an identifier that resolves to a work the title and
    authors do not describe). An erratum never beats the paper it corrects (unless
    the citation names an erratum). Then, with a title: highest title similarity;
    within ``TITLE_WINDOW`` of it, author overlap, then year proximity, then
    identity and the source's own confidence. Without a title: highest identity.
    """
    def tail(c: Comparison) -> tuple[float, float, float, float]:
        return (_check(c, "author"), _check(c, "year"), c.identity, c.record.score)

    if not _ERRATUM_TITLE.match(entry.title):
        papers = [c for c in comparisons if not is_erratum(c.record)]
        comparisons = papers or list(comparisons)
    pinned = [c for c in comparisons if pinned_by_identifier(c)]
    if pinned and len(pinned) < len(comparisons):
        from citecheck_tex.verify.review import describes

        fitting = [c for c in pinned if describes(c)]
        comparisons = fitting or comparisons

    if entry.title:
        best_t = max(_check(c, "title") for c in comparisons)
        if best_t >= 0:
            window = [c for c in comparisons if _check(c, "title") >= best_t - TITLE_WINDOW]
            return max(window, key=tail)
    return max(comparisons, key=lambda c: (c.identity, c.score, *tail(c)))


def compare_all(entry: Entry, answers: Sequence[Answer]) -> list[Comparison]:
    """Compare ``entry`` with every found record, versions of one work merged."""
    out = []
    for g in _groups(_records(answers)):
        if len(g) == 1:
            out.append(compare(entry, g[0]))
            continue
        # the version that fits best is primary; the others lend years and publications
        # (a confirmed record always wins over a proposal, which lends nothing)
        scored = sorted((compare(entry, r) for r in g),
                        key=lambda c: (c.record.proposed, -c.identity))
        primary = scored[0].record
        out.append(compare(entry, _merge(primary, [r for r in g if r is not primary
                                                   and not r.proposed])))
    return out


def has_real_candidate(entry: Entry, answers: Sequence[Answer], tau_minor: float) -> bool:
    """True when a record of an authoritative source already identifies the work
    (score at least ``tau_minor``): the last-resort sources need not be asked."""
    return any(c.score >= tau_minor and not c.record.proposed
               for c in compare_all(entry, answers))


def is_settled(entry: Entry, answers: Sequence[Answer]) -> bool:
    """True when some found record confirms every field the citation states."""
    for c in compare_all(entry, answers):
        if not c.discrepancies and c.identity >= 0.9 and not c.record.proposed:
            return True
    return False


def _label_for(c: Comparison, tau_minor: float) -> Label:
    # MINOR means a stated field contradicts the record: a work identified well enough
    # (score >= tau_minor) with nothing contradicted is EXACT, however little the
    # citation states (a title and a report number; real references do that).
    # An exact identifier (DOI, arXiv id, journal+volume+page) that agrees makes the
    # record the cited work whatever the score (the reviewer has already set aside
    # identifiers that resolve to a work the title and authors do not describe), and
    # so does an identity at which the reviewer calls a record "clearly the work
    # meant" (GOOD_FIT): several small errors lower the score, not the identity.
    if c.score < tau_minor and not pinned_by_identifier(c) and c.identity < GOOD_FIT:
        return Label.MAJOR
    return Label.MINOR if c.discrepancies else Label.EXACT


def _agrees(c: Comparison, name: str) -> bool:
    return any(fc.field == name and fc.agree is True for fc in c.checks)


def pinned_by_identifier(c: Comparison) -> bool:
    """True when the DOI, the arXiv id, the report number, or journal, volume and page
    together agree."""
    # JHEP-like volumes are issues ("JHEP 10, 174" exists every year): the journal
    # reference pins the work only when the year does not contradict it, and not when
    # none of the cited authors wrote it (a real journal reference under someone
    # else's names is a chimera, decided by the score)
    year_ok = not any(fc.field == "year" and fc.agree is False for fc in c.checks)
    authors_ok = not any(fc.field == "author" and fc.agree is False and fc.similarity <= 0
                         for fc in c.checks)
    return _agrees(c, "doi") or _agrees(c, "eprint") or _agrees(c, "report") or (
        year_ok and authors_ok and all(_agrees(c, f) for f in ("journal", "volume", "pages")))


def contradicted(c: Comparison, entry: Entry | None = None) -> bool:
    """True when the closest record is positive evidence against the citation.

    That is a stated title that disagrees, authors most of whom are not the
    record's, or a stated year, journal, volume, page or identifier that disagrees.
    Omissions are no evidence, and neither are a few authors missing from a record
    whose title, journal reference and year all fit or cannot be compared (a
    preprint record that lacks the journal version's added author).

    Unless nothing but the authors and the year can identify the record (a
    title-less citation against a preprint record: no title, identifier or part of
    the journal reference agrees) and of two or more cited authors (``entry``) the
    record lists at most one: that is the first author the author+year lookup
    asked for, which every record of that author in those years shares. A big
    index holds many such records (a fabricated title-less reference became
    UNVERIFIED instead of MAJOR once the index held a million records); the cited
    work's own preprint lists its co-authors too. A co-author counts only when
    his initials agree (:func:`compare.same_initials`): with authors the only
    evidence, "P. Wang" on a preprint is not the cited "H.X. Wang" (a fabricated
    reference stayed UNVERIFIED at 10 million records through such a Wang).
    """
    identified = any(fc.agree is True and fc.field in _IDENTIFYING_FIELDS for fc in c.checks)
    if entry is not None and not identified and not entry.title.strip() and c.record.authors:
        am = match_authors(entry.authors, entry.authors_truncated, c.record.authors,
                           c.record.authors_truncated, c.record.collaborations)
        if am.similarity is not None and am.cited >= 2 and am.same_people <= 1:
            return True
    for fc in c.checks:
        if fc.agree is not False or not fc.cited:
            continue
        if fc.field != "author" or fc.similarity < DESCRIBES_AUTHORS:
            return True
    return False


#: Fields whose agreement identifies a record as the cited work (author and year do
#: not: an author publishes many works a year).
_IDENTIFYING_FIELDS = frozenset({"title", "doi", "eprint", "report", "url", "journal", "volume",
                                 "pages"})


#: Leftovers of a publisher's reference page pasted into a reference: link labels
#: ("Crossref:", "[ADS]", "URL"), ADS bibcodes ("hLB..759..131G"), MR numbers.
_PAGE_LEFTOVERS = re.compile(
    r"\b(?:crossref|ads|inspire|google scholar|pubmed|mathscinet|zbmath|web of science)"
    r"\s*[:\]]|\[(?:inspire|ads|crossref)\]|[A-Za-z&]\.{2,}\d|\bURL\b|\bMR\s?\d{5,}",
    re.IGNORECASE)


def poor_parse(entry: Entry) -> str:
    """Why the reference was read too poorly to call it fabricated, or "".

    A reference with neither a title nor authors gives nothing to tell a fabricated
    work from a real one missing from the sources (its identifiers or journal
    reference may be misread or incomplete): not finding it is no evidence. Nor is
    it for a free-text reference holding leftovers of a publisher's page (link
    labels, bibcodes): its fields were read from text that is partly not reference.
    """
    if not entry.title.strip() and not entry.authors:
        return "the reference states neither a title nor authors (or they could not be read)"
    if entry.parse_issue:  # what the free-text parser itself found wrong with its reading
        return f"the reference could not be read reliably ({entry.parse_issue})"
    if entry.origin is not EntryOrigin.BIB and _PAGE_LEFTOVERS.search(entry.raw_text):
        return ("the reference text holds leftovers of a publisher's page (link labels, "
                "bibcodes), so its fields may be misread")
    return ""


#: A chimera is a real work cited with someone else's authors: with at least
#: ``GRAFT_MIN_AUTHORS`` cited persons, an author agreement below
#: ``GRAFT_MAX_SIMILARITY`` (fewer than half of them are authors of the record)
#: is no longer "an author misspelt,
#: added or dropped" (MINOR) but a grafted author list (MAJOR), however well the
#: title and identifiers fit. Two cited authors of whom one is wrong stay MINOR.
GRAFT_MIN_AUTHORS = 3
GRAFT_MAX_SIMILARITY = 0.5


def grafted_authors(entry: Entry, c: Comparison) -> bool:
    """True when most of the cited authors are not authors of the record.

    Persons are counted (a misspelt name or other initials still count as the
    same person); a record that lists only its first authors cannot contradict
    the later cited ones (see :func:`compare.match_authors`).
    """
    if not c.record.authors:
        return False
    am = match_authors(entry.authors, entry.authors_truncated, c.record.authors,
                       c.record.authors_truncated, c.record.collaborations)
    return (am.similarity is not None and am.cited >= GRAFT_MIN_AUTHORS
            and am.matched / am.cited < GRAFT_MAX_SIMILARITY)


#: Titles that recur by design, one edition a year or a meeting: reviews, averages,
#: working-group reports, proceedings.
_PERIODIC_TITLE = re.compile(
    r"review of particle physics|\bflag review\b|\baverag(e|es|ing)\b|working group|"
    r"\bproceedings\b|\bworkshop\b|\bsymposium\b|\bconference\b|\bsummer school\b|"
    r"\bannual report\b|status report|\bedition\b", re.IGNORECASE)


def other_editions(entry: Entry, chosen: Comparison,
                   comparisons: Sequence[Comparison]) -> list[Comparison]:
    """Records of the chosen one's other editions when the cited edition is not found.

    A title that recurs across years (siblings with the same title among the
    records found, or a periodic review, report or proceedings) cited with a year
    that matches none of them is an edition the sources did not return, not the
    found edition with a wrong year: offering that edition's year, volume and page
    as a "fix" would be wrong. Empty when an identifier pins the chosen record or
    the title or year do not make it an edition question.
    """
    if pinned_by_identifier(chosen) or not entry.title or not entry.year:
        return []
    fields = {d.field for d in chosen.discrepancies}
    title_ok = any(fc.field == "title" and fc.agree is True for fc in chosen.checks)
    if "year" not in fields or not title_ok:
        return []
    key = nz.title_key(chosen.record.title)
    siblings = [x for x in comparisons if x.record is not chosen.record
                and nz.title_key(x.record.title) == key and x.record.year != entry.year]
    if siblings or _PERIODIC_TITLE.search(chosen.record.title):
        return [chosen, *siblings]
    return []


def _describe(c: Comparison) -> str:
    return describe_fields(c.discrepancies)


def tied_candidates(entry: Entry, chosen: Comparison,
                    comparisons: Sequence[Comparison]) -> list[Comparison]:
    """Other works that fit a title-less citation exactly as well as ``chosen``.

    Without a title, candidates differ only in authors, year, journal, volume
    and page, and the author+year question (``QueryKind.AUTHOR_YEAR``) returns
    every paper the first author published that year. When two of them fit the
    citation equally (same identity and score: the cited volume and page match
    neither, or the citation states too little to tell them apart),
    :func:`select_candidate` can only pick one arbitrarily, and a MINOR verdict
    would present that one as "the real work" with its volume and page as the
    correction. So :func:`decide` never labels such a citation MINOR (see
    :func:`_ambiguous`). A candidate resolved by the citation's DOI or arXiv id
    is never tied: the identifier decides.
    """
    from citecheck_tex.verify.review import resolved_by_identifier

    if entry.title.strip() or resolved_by_identifier(chosen):
        return []
    pub = (chosen.record.volume, chosen.record.pages)
    return [c for c in comparisons
            if c.record is not chosen.record and not resolved_by_identifier(c)
            and abs(c.identity - chosen.identity) < 1e-6 and abs(c.score - chosen.score) < 1e-6
            # one paper from two sources that were not merged is no rival
            and not (pub[0] and (c.record.volume, c.record.pages) == pub)]


def _ambiguous(entry: Entry, chosen: Comparison, tied: Sequence[Comparison],
               attempts: tuple[Attempt, ...], conclusive: bool,
               failed_sources: str) -> Verdict:
    """The verdict of a title-less citation that several works fit equally.

    MAJOR when they contradict a field it states (its journal reference points
    to none of them: corrupted beyond repair, or fabricated) and the sources
    asked could have held the cited work (``conclusive``: no source failed and
    not only a partial local index was asked); UNVERIFIED when they only supply
    what it omits (a real work, but which one cannot be told), or when the search
    was not conclusive (``failed_sources`` names the sources that failed; none: only
    a partial local index was asked). No record is offered as the match or as a
    correction.
    """
    facts = {"n": str(len(tied) + 1),
             "ids": ", ".join(f"{c.record.source} {c.record.id}" for c in (chosen, *tied[:3])),
             "fields": _describe(chosen)}
    contradicted = any(d.cited for d in chosen.discrepancies)
    if contradicted and not conclusive:
        return Verdict(entry, Label.UNVERIFIED, chosen.score, 0.2,
                       VerdictCode.AMBIGUOUS_INCONCLUSIVE, attempts=attempts,
                       checks=chosen.checks, index_only=not failed_sources,
                       facts={**facts, "sources": failed_sources})
    if contradicted:
        return Verdict(entry, Label.MAJOR, chosen.score, 0.6, VerdictCode.AMBIGUOUS_NO_MATCH,
                       attempts=attempts, checks=chosen.checks, facts=facts)
    return Verdict(entry, Label.UNVERIFIED, chosen.score, 0.3, VerdictCode.AMBIGUOUS,
                   attempts=attempts, checks=chosen.checks, facts=facts)


def decide(entry: Entry, answers: Sequence[Answer], settings: Settings,
           comparisons: Sequence[Comparison] | None = None) -> Verdict:
    """Label one entry from the answers of the sources consulted for it.

    A free-text reference the parser could not read well (``Entry.parse_issue``) is
    never MAJOR, also with ``index_complete``: what looks fabricated or hijacked may
    be a misread; it is UNVERIFIED with the reason. ``comparisons``: what
    :func:`compare_all` gives for these answers, when the caller has it already (the
    cascade compares an entry once per new answer, not once per question about it).
    """
    verdict = _decide(entry, answers, settings, comparisons)
    if verdict.label is Label.MAJOR and entry.parse_issue:
        return replace(verdict, label=Label.UNVERIFIED, confidence=0.0, suggested=None,
                       code=VerdictCode.UNRELIABLE_PARSE,
                       facts={**verdict.facts, "issue": entry.parse_issue,
                              "was": verdict.code.value})
    if verdict.code in _ABSENCE_CODES:
        kind = grey_kind(entry)
        if kind is not None:
            return replace(verdict, label=Label.UNVERIFIED, confidence=0.0, suggested=None,
                           match=None, code=VerdictCode.GREY_LITERATURE,
                           facts={**verdict.facts, "kind": kind, "was": verdict.code.value})
    return verdict


#: MAJOR verdicts that rest on the absence of a fitting record (not on a record that
#: identifies the work and contradicts the citation): no evidence for a grey document.
_ABSENCE_CODES = frozenset((VerdictCode.NO_RECORD, VerdictCode.NO_MATCH,
                            VerdictCode.AMBIGUOUS_NO_MATCH))


def _decide(entry: Entry, answers: Sequence[Answer], settings: Settings,
            comparisons: Sequence[Comparison] | None = None) -> Verdict:
    attempts = attempts_of(answers)
    reason = skip_reason(entry)
    if reason is not None:
        return Verdict(entry, Label.SKIPPED, 0.0, 1.0, VerdictCode.NOT_SCHOLARLY,
                       attempts=attempts, facts={"why": reason})
    failed = [a for a in answers if a.status.failed]
    failed_names = ", ".join(sorted({a.source for a in failed}))
    asked = [a for a in answers if a.status is not SourceStatus.SKIPPED]
    comps = list(comparisons) if comparisons is not None else compare_all(entry, answers)

    def unverified(code: VerdictCode, **facts: str) -> Verdict:
        return Verdict(entry, Label.UNVERIFIED, 0.0, 0.0, code, attempts=attempts,
                       facts=facts)

    # Only a local index that is not declared complete was consulted (offline): its
    # silence is no evidence of fabrication, the work may just be missing from it.
    index_only = (bool(asked) and all(a.source == "local" for a in asked)
                  and not settings.index_complete)

    web = is_web_like(entry)
    if web and (not comps or max(c.identity for c in comps) < 0.6):
        return Verdict(entry, Label.SKIPPED, 0.0, 0.5, VerdictCode.WEB_PAGE,
                       attempts=attempts)
    if not comps:
        if failed:
            return unverified(VerdictCode.SOURCE_FAILED, sources=failed_names)
        if not asked:  # offline without a record, or nothing to look the entry up by
            return unverified(VerdictCode.NO_SOURCE, **({} if answers else {
                "why": "it gives no title, identifier or journal reference to look it up by"}))
        if index_only:
            return Verdict(entry, Label.UNVERIFIED, 0.0, 0.0, VerdictCode.INDEX_ONLY,
                           attempts=attempts, index_only=True)
        if poor_parse(entry):
            return unverified(VerdictCode.POOR_PARSE, why=poor_parse(entry))
        return Verdict(entry, Label.MAJOR, 0.0, 0.6 if len(asked) < 2 else 0.8,
                       VerdictCode.NO_RECORD, attempts=attempts)

    tau_minor, tau_exact = settings.tau_minor, settings.tau_exact
    # a proposal (the LLM web search) is chosen only when no real record identifies
    # the work: repeating the cited title must not displace a real, if corrected, match
    real = [c for c in comps if not c.record.proposed]
    pool = real if any(c.score >= tau_minor for c in real) else comps
    chosen = select_candidate(entry, pool)
    rev = review(entry, chosen, [c for c in comps if c is not chosen])
    if rev.comparison is None:
        if failed:
            return unverified(VerdictCode.SOURCE_FAILED, sources=failed_names,
                              resolved="other-paper", other_work=rev.other_work)
        best = max(comps, key=lambda c: c.score)
        if index_only:
            return Verdict(entry, Label.UNVERIFIED, 0.0, 0.0, VerdictCode.INDEX_ONLY,
                           attempts=attempts, checks=best.checks, index_only=True,
                           facts={"resolved": "other-paper", "other_work": rev.other_work})
        return Verdict(entry, Label.MAJOR, 0.0, max(0.6, 1 - best.identity),
                       VerdictCode.IDENTIFIER_MISMATCH, attempts=attempts, checks=best.checks,
                       facts={"other_work": rev.other_work})
    c = rev.comparison
    label = _label_for(c, tau_minor)
    if label is not Label.MAJOR and not c.record.proposed and grafted_authors(entry, c):
        author = next(f for f in c.checks if f.field == "author")
        return Verdict(entry, Label.MAJOR, c.score, max(0.6, 1 - author.similarity),
                       VerdictCode.CHIMERA, match=c.record, discrepancies=c.discrepancies,
                       attempts=attempts, checks=c.checks, facts={"authors": author.note})
    tied = tied_candidates(entry, c, comps) if label is Label.MINOR else []
    if tied:
        return _ambiguous(entry, c, tied, attempts, conclusive=not (index_only or failed),
                          failed_sources="" if index_only else failed_names)
    if c.record.proposed and label is not Label.MAJOR:
        return Verdict(entry, Label.UNVERIFIED, c.score, min(c.confidence, PROPOSAL_CONFIDENCE),
                       VerdictCode.PROPOSED_UNCONFIRMED, match=c.record, attempts=attempts,
                       checks=c.checks,
                       facts={"fits": "fits" if label is Label.EXACT else "nearly fits"})
    if label is Label.EXACT:
        if c.score >= tau_exact:
            return Verdict(entry, label, c.score, c.confidence, VerdictCode.EXACT,
                           match=c.record, attempts=attempts, checks=c.checks)
        return Verdict(entry, label, c.score, min(c.confidence, 0.5), VerdictCode.EXACT_SPARSE,
                       match=c.record, attempts=attempts, checks=c.checks,
                       facts={"tau_exact": f"{tau_exact:g}"})
    editions = other_editions(entry, c, comps) if label is Label.MINOR else []
    if editions:
        listed = ", ".join(f"{x.record.source} {x.record.id} ({x.record.year or '?'})"
                           for x in editions[:4])
        return Verdict(entry, Label.UNVERIFIED, c.score, 0.3, VerdictCode.ANOTHER_EDITION,
                       attempts=attempts, checks=c.checks, facts={"editions": listed})
    if label is Label.MINOR:
        return Verdict(entry, label, c.score, c.confidence, VerdictCode.FIELD_MISMATCH,
                       match=c.record, discrepancies=c.discrepancies,
                       suggested=suggest(entry, c), attempts=attempts, checks=c.checks,
                       facts={"other_work": rev.other_work} if rev.other_work else {})
    misfit = {"resolved": "misfit", "fields": _describe(c)}
    if failed:
        return unverified(VerdictCode.SOURCE_FAILED, sources=failed_names, **misfit)
    if index_only:
        return Verdict(entry, Label.UNVERIFIED, c.score, 0.0, VerdictCode.INDEX_ONLY,
                       attempts=attempts, checks=c.checks, index_only=True, facts=misfit)
    if poor_parse(entry):
        return Verdict(entry, Label.UNVERIFIED, c.score, 0.0, VerdictCode.POOR_PARSE,
                       attempts=attempts, checks=c.checks,
                       facts={**misfit, "why": poor_parse(entry)})
    located = any(_agrees(x, "doi") or _agrees(x, "eprint")
                  or all(_agrees(x, f) for f in ("journal", "volume", "pages")) for x in comps)
    if not contradicted(c, entry) and not located:
        # MAJOR needs positive evidence: the closest record contradicts nothing stated,
        # it only cannot confirm the work (a preprint record for a cited journal
        # version); when the cited identifier or journal reference locates another
        # work (a chimera), that work is the evidence
        return Verdict(entry, Label.UNVERIFIED, c.score, 0.2, VerdictCode.CANNOT_CONFIRM,
                       attempts=attempts, checks=c.checks,
                       facts={"record": f"{c.record.source} {c.record.id}"})
    # MAJOR: never offer the closest record as a "correction" of a fabricated work
    return Verdict(entry, Label.MAJOR, c.score, max(0.5, 1 - c.identity), VerdictCode.NO_MATCH,
                   discrepancies=c.discrepancies, attempts=attempts, checks=c.checks,
                   facts={"identity": f"{c.identity:.2f}"})


def _index_silence(verdict: Verdict) -> bool:
    """MAJOR only because the local index, the one source asked, has no fitting record."""
    asked = [a for a in verdict.attempts if a.status is not SourceStatus.SKIPPED]
    return (verdict.label is Label.MAJOR and verdict.match is None and bool(asked)
            and all(a.source == "local" for a in asked))


def guard_index_complete(verdicts: Sequence[Verdict], settings: Settings,
                         ) -> tuple[list[Verdict], Problem | None]:
    """Refuse an ``index_complete`` declaration that the run itself refutes.

    When most checked references (more than :data:`INCOMPLETE_SHARE`, at least
    :data:`INCOMPLETE_MIN`) would be MAJOR only because the local index lacks them,
    the index was not built for this paper: those verdicts become UNVERIFIED
    (index-only) and an ``index-incomplete`` problem says so. A paper whose
    references are mostly fabricated is still caught online.
    """
    if not settings.index_complete:
        return list(verdicts), None
    checked = [v for v in verdicts if v.label is not Label.SKIPPED]
    silent = [v for v in checked if _index_silence(v)]
    if len(silent) < INCOMPLETE_MIN or len(silent) <= INCOMPLETE_SHARE * len(checked):
        return list(verdicts), None
    out = [replace(v, label=Label.UNVERIFIED, score=v.score, confidence=0.0, match=None,
                   discrepancies=(), suggested=None, index_only=True,
                   code=VerdictCode.INDEX_COMPLETE_REFUTED, facts={})
           if _index_silence(v) else v for v in verdicts]
    problem = Problem(
        "index-incomplete",
        f"--index-complete was given, but the local index lacks {len(silent)} of the "
        f"{len(checked)} checked references: it was not built for this paper, so its "
        "silence is no evidence and they are UNVERIFIED, not MAJOR. Re-run online, or "
        "drop --index-complete (index_complete = true).")
    return out, problem


#: Labels that fail each ``--fail-on`` level (see :data:`citecheck_tex.config.FAIL_ON_CHOICES`).
FAIL_LABELS: dict[str, frozenset[Label]] = {
    "never": frozenset(),
    "error": frozenset(),
    "major": frozenset({Label.MAJOR}),
    "minor": frozenset({Label.MAJOR, Label.MINOR}),
    "unverified": frozenset({Label.MAJOR, Label.MINOR, Label.UNVERIFIED}),
    "warning": frozenset({Label.MAJOR, Label.MINOR, Label.UNVERIFIED}),
}


def failures(result: RunResult, fail_on: str) -> tuple[list[Verdict], list[Problem]]:
    """The verdicts and problems that make a run fail at level ``fail_on``.

    Error-level problems (broken input) fail every level but ``never``; warning-level
    problems only ``warning``.
    """
    if fail_on == "never":
        return [], []
    labels = FAIL_LABELS[fail_on]
    bad = [v for v in result.verdicts if v.label in labels]
    severities = {"error", "warning"} if fail_on == "warning" else {"error"}
    return bad, [p for p in result.problems if p.severity in severities]


def fails(result: RunResult, fail_on: str) -> bool:
    """Whether the run fails at level ``fail_on`` (the exit policy of every command:
    ``check``, ``watch --once``, ``gate``, the latexmk hook)."""
    bad, problems = failures(result, fail_on)
    return bool(bad or problems)
