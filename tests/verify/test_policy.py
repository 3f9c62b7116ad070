"""Decisions: labels, reviewer pass, UNVERIFIED/SKIPPED, suggestions, monotonicity."""

from __future__ import annotations

from dataclasses import replace

import pytest

from citecheck_tex.config import Settings
from citecheck_tex.model import (
    Answer,
    EntryOrigin,
    Label,
    Person,
    Query,
    QueryKind,
    Record,
    SourceStatus,
    VerdictCode,
)
from citecheck_tex.verify.policy import decide, is_settled, skip_reason
from tests.verify.records import MONOPOLES, STARS, entry

S = Settings(index_complete=True)  # the answers below are the whole world


def found(*records: Record, kind: QueryKind = QueryKind.TITLE, source: str = "local") -> Answer:
    return Answer(source, Query(kind, "q"), SourceStatus.FOUND, records=records, latency_ms=1.5)


def status(st: SourceStatus, source: str = "crossref") -> Answer:
    return Answer(source, Query(QueryKind.TITLE, "q"), st, message=st.value)


def test_exact_with_attempts() -> None:
    v = decide(entry(), [found(MONOPOLES), status(SourceStatus.NOT_FOUND)], S)
    assert v.label is Label.EXACT
    assert v.match == MONOPOLES
    assert [(a.source, a.kind, a.status) for a in v.attempts] == [
        ("local", "title", SourceStatus.FOUND), ("crossref", "title", SourceStatus.NOT_FOUND)]


def test_preprint_year_of_another_version_is_exact() -> None:
    arxiv_version = replace(MONOPOLES, source="arxiv", id="x", year="1975", other_years=(),
                            venue="", volume="", pages="")
    journal_version = replace(MONOPOLES, other_years=())
    e = entry(year="1975", doi=MONOPOLES.doi)
    v = decide(e, [found(journal_version, kind=QueryKind.DOI), found(arxiv_version)], S)
    assert v.label is Label.EXACT


def test_minor_with_suggestions() -> None:
    e = entry(year="1979", volume="107")
    v = decide(e, [found(MONOPOLES)], S)
    assert v.label is Label.MINOR
    assert {d.field for d in v.discrepancies} == {"year", "volume"}
    assert v.suggested == {"year": "1976", "volume": "106", "doi": MONOPOLES.doi}


def test_author_suggestion_in_bibtex_form() -> None:
    e = entry(authors=(Person("Corigan", "E."), Person("Olive", "D."), Person("Fairlie", "D."),
                       Person("Nuyts", "J.")))
    v = decide(e, [found(MONOPOLES)], S)
    assert v.label is Label.MINOR
    assert v.suggested is not None
    assert v.suggested["author"].startswith("Corrigan, Edward and Olive, David I.")


def test_fabricated_is_major_without_suggestion() -> None:
    e = entry(title="Temporal dynamics of quantum gravitational waves with HelioTrace",
              authors=(Person("Farnsworth", "T."),))
    v = decide(e, [found(MONOPOLES), status(SourceStatus.NOT_FOUND)], S)
    assert v.label is Label.MAJOR
    assert v.suggested is None and v.match is None


def test_nothing_found_anywhere_is_major() -> None:
    v = decide(entry(), [status(SourceStatus.NOT_FOUND, "local"),
                         status(SourceStatus.NOT_FOUND)], S)
    assert v.label is Label.MAJOR


@pytest.mark.parametrize("st", [SourceStatus.ERROR, SourceStatus.RATE_LIMITED])
def test_failed_source_gives_unverified_not_major(st: SourceStatus) -> None:
    v = decide(entry(), [status(SourceStatus.NOT_FOUND, "local"), status(st)], S)
    assert v.label is Label.UNVERIFIED


def test_all_skipped_is_unverified() -> None:
    v = decide(entry(), [status(SourceStatus.SKIPPED, "local")], S)
    assert v.label is Label.UNVERIFIED


def test_reviewer_wrong_identifier_on_real_paper_is_minor() -> None:
    # the cited arXiv id belongs to another paper; title search finds the real one
    other = replace(STARS, arxiv="astro-ph/0608208", id="other", doi="",
                    title="Cosmic rays from gamma ray bursts in the Galaxy",
                    authors=(Person("Someone", "A."),))
    e = entry(title=STARS.title, authors=(Person("Melioli", "C."),), authors_truncated=True,
              year="2006", venue="", volume="", pages="", arxiv="astro-ph/0608208")
    v = decide(e, [found(other, kind=QueryKind.ARXIV), found(STARS)], S)
    assert v.label is Label.MINOR
    assert v.match == STARS
    assert v.suggested is not None and v.suggested["eprint"] == "astro-ph/0608207"


def test_reviewer_hijacked_identifier_is_major() -> None:
    # title and authors disagree and no part of the journal reference agrees
    e = entry(title="Temporal dynamics of quantum gravitational waves with HelioTrace",
              authors=(Person("Farnsworth", "T."),), doi=MONOPOLES.doi, venue="", volume="",
              pages="")
    v = decide(e, [found(MONOPOLES, kind=QueryKind.DOI), status(SourceStatus.NOT_FOUND)], S)
    assert v.label is Label.MAJOR and v.code is VerdictCode.IDENTIFIER_MISMATCH
    assert "hijacked" in v.reason
    assert v.suggested is None


def test_identifier_and_journal_reference_agreeing_is_that_work() -> None:
    # issue 10: the DOI and journal+volume+page agree, so the reference is that work
    # with a garbled title and author: never MAJOR, never "another paper"
    e = entry(title="Temporal dynamics of quantum gravitational waves with HelioTrace",
              authors=(Person("Farnsworth", "T."),), doi=MONOPOLES.doi)
    v = decide(e, [found(MONOPOLES, kind=QueryKind.DOI), status(SourceStatus.NOT_FOUND)], S)
    assert v.label is Label.MINOR and v.code is VerdictCode.FIELD_MISMATCH
    assert {d.field for d in v.discrepancies} >= {"title", "author"}
    assert "another paper" not in v.reason and "other_work" not in v.facts


def test_more_wrong_fields_never_milder() -> None:
    steps = [{}, {"year": "1979"}, {"year": "1979", "volume": "107"},
             {"year": "1979", "volume": "107", "pages": "999"},
             {"year": "1979", "volume": "107", "pages": "999",
              "title": "Electric monopoles in SU(5) gauge models"},
             {"year": "1979", "volume": "107", "pages": "999",
              "title": "Electric monopoles in SU(5) gauge models",
              "authors": (Person("Farnsworth", "T."),)}]
    ranks = [decide(entry(**kw), [found(MONOPOLES)], S).label.rank for kw in steps]
    assert ranks == sorted(ranks, reverse=True)
    assert ranks[0] == Label.EXACT.rank and ranks[-1] == Label.MAJOR.rank


def test_is_settled() -> None:
    assert is_settled(entry(), [found(MONOPOLES)])
    assert not is_settled(entry(year="1979"), [found(MONOPOLES)])
    assert not is_settled(entry(), [status(SourceStatus.NOT_FOUND)])


@pytest.mark.parametrize("kw", [
    {"entry_type": "software"}, {"entry_type": "online"}, {"entry_type": "dataset"},
    {"entry_type": "misc", "title": "", "authors": (), "venue": "", "year": "",
     "url": "https://example.org/page"},
    {"entry_type": "misc", "title": "numpy", "authors": (), "venue": "",
     "url": "https://github.com/numpy/numpy"},
    {"entry_type": "misc", "title": "ISO 8601 Date and time format", "venue": ""},
    # HALLMARK dev: a dataset with an author and a year, found MAJOR before
    {"entry_type": "misc", "title": "code instructions", "authors": (Person("red1xe"),),
     "venue": "", "year": "2023", "url": "https://huggingface.co/datasets/red1xe/code_instructions"},
])
def test_skip_reason(kw: dict[str, object]) -> None:
    reason = skip_reason(entry(**kw))
    assert reason


def test_articles_are_not_skipped() -> None:
    assert skip_reason(entry()) is None
    # Hugging Face's paper pages mirror arXiv papers: those are checked
    assert skip_reason(entry(entry_type="misc", venue="",
                             url="https://huggingface.co/papers/2307.09288")) is None
    assert skip_reason(entry(entry_type="misc", venue="", arxiv="astro-ph/0608207")) is None


def test_web_page_without_matching_record_is_skipped_not_major() -> None:
    e = entry(entry_type="misc", origin=EntryOrigin.TEXT, authors=(), year="", venue="",
              volume="", pages="", title="The Higgs boson as a window into dark matter",
              url="https://cms.cern/news/higgs-boson-window-dark-matter")
    v = decide(e, [status(SourceStatus.NOT_FOUND, "local")], S)
    assert v.label is Label.SKIPPED


# --- offline with only a local index: its silence is evidence only when declared complete

PARTIAL = Settings(offline=True)  # index_complete defaults to False


def test_local_index_alone_not_finding_is_unverified_unless_complete() -> None:
    answers = [status(SourceStatus.NOT_FOUND, "local")]
    v = decide(entry(), answers, PARTIAL)
    assert v.label is Label.UNVERIFIED and v.code is VerdictCode.INDEX_ONLY and v.index_only
    assert "re-run online" in v.reason and "--index-complete" not in v.reason
    assert decide(entry(), answers, S).code is VerdictCode.NO_RECORD


def test_local_index_alone_with_only_a_distant_record_is_unverified() -> None:
    e = entry(title="Temporal dynamics of quantum gravitational waves with HelioTrace",
              authors=(Person("Farnsworth", "T."),))
    v = decide(e, [found(MONOPOLES)], PARTIAL)
    assert v.label is Label.UNVERIFIED and v.match is None and v.suggested is None
    assert v.code is VerdictCode.INDEX_ONLY and "the closest differs in" in v.reason
    assert decide(e, [found(MONOPOLES)], S).code is VerdictCode.NO_MATCH


def test_an_online_source_not_finding_it_is_evidence_even_with_a_partial_index() -> None:
    v = decide(entry(), [status(SourceStatus.NOT_FOUND, "local"),
                         status(SourceStatus.NOT_FOUND, "crossref")], PARTIAL)
    assert v.label is Label.MAJOR


def test_a_partial_index_still_confirms_what_it_holds() -> None:
    assert decide(entry(), [found(MONOPOLES)], PARTIAL).label is Label.EXACT
    assert decide(entry(year="1979"), [found(MONOPOLES)], PARTIAL).label is Label.MINOR


# --- chimera: a real work cited with someone else's authors

def _people(*names: str) -> tuple[Person, ...]:
    return tuple(Person(n, "X.") for n in names)


def test_a_real_title_with_grafted_authors_is_major() -> None:
    # refchecker's "real title, wrong coauthors": 1 of 4 cited authors is on the paper
    e = entry(authors=_people("Corrigan", "Foncea", "Hoeksma", "Roughgarden"),
              doi=MONOPOLES.doi)
    v = decide(e, [found(MONOPOLES, kind=QueryKind.DOI)], S)
    assert v.label is Label.MAJOR and v.code is VerdictCode.CHIMERA
    assert "chimera" in v.reason.lower() and v.suggested is None
    assert v.match == MONOPOLES  # the real work is shown, not offered as a correction


def test_half_the_authors_right_is_still_minor() -> None:
    e = entry(authors=_people("Corrigan", "Olive", "Hoeksma", "Roughgarden"))
    assert decide(e, [found(MONOPOLES)], S).label is Label.MINOR


def test_two_authors_one_wrong_is_minor() -> None:
    e = entry(authors=_people("Corrigan", "Roughgarden"))
    assert decide(e, [found(MONOPOLES)], S).label is Label.MINOR


def test_misspelt_authors_are_not_a_chimera() -> None:
    e = entry(authors=_people("Corigan", "Olivé", "Fairly", "Nuijts"))
    assert decide(e, [found(MONOPOLES)], S).label is Label.MINOR


# --- @misc web pages with authors and a year (refchecker's LLM benchmark cases)

def _misc(url: str, **kw: object) -> object:
    base: dict[str, object] = {"entry_type": "misc", "venue": "", "volume": "", "pages": "",
                               "title": "Leela Chess Zero", "year": "2019", "url": url,
                               "authors": (Person("Pascutto", "G."), Person("Linscott", "G."))}
    base.update(kw)
    return entry(**base)


def test_misc_web_page_with_authors_is_skipped_when_no_record_fits() -> None:
    e = _misc("https://lczero.org/")
    v = decide(e, [found(MONOPOLES), status(SourceStatus.NOT_FOUND)], S)
    assert v.label is Label.SKIPPED and "web page" in v.reason
    assert v.code is VerdictCode.WEB_PAGE


def test_misc_pointing_to_a_scholarly_host_is_still_checked() -> None:
    e = _misc("https://journals.aps.org/prl/abstract/10.1103/x")
    v = decide(e, [found(MONOPOLES), status(SourceStatus.NOT_FOUND)], S)
    assert v.label is Label.MAJOR


def test_free_text_items_with_authors_are_not_web_pages() -> None:
    e = _misc("https://example.org/post", origin=EntryOrigin.TEXT)
    v = decide(e, [found(MONOPOLES), status(SourceStatus.NOT_FOUND)], S)
    assert v.label is Label.MAJOR


def test_a_report_number_alone_is_checkable_not_skipped() -> None:
    # real reference (INSPIRE reference list): only "CMS-PAS-TOP-11-005" and a year
    e = entry(entry_type="misc", title="", authors=(), venue="", volume="", pages="",
              year="2011", fields={"number": "CMS-PAS-TOP-11-005"})
    assert skip_reason(e) is None


def test_a_proposal_never_displaces_a_real_record() -> None:
    """Review finding: a web-search proposal repeating the cited title used to win the
    selection and turn a real MINOR into UNVERIFIED."""
    # the citation changed a title word and the year; the model repeats the citation
    e = entry(year="1979", title="Magnetic monopoles in SU(4) gauge theories", doi="")
    proposal = Record(source="websearch", id="some-model", title=e.title,
                      authors=e.authors, year="1979", proposed=True,
                      url="https://example.org/monopoles")
    v = decide(e, [found(MONOPOLES), found(proposal, source="websearch")], S)
    assert v.label is Label.MINOR and v.match is not None and not v.match.proposed
