"""Title-less physics references found by first author + year (QueryKind.AUTHOR_YEAR).

Offline end to end against a small local index of real INSPIRE records (ten papers of
S. Hod, 2012-2014: tests/index/data/inspire_author_year.jsonl), and online against the
loopback replay server serving a real recorded INSPIRE search response.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from citecheck_tex.config import Settings
from citecheck_tex.model import (
    Comparison,
    Entry,
    Label,
    Person,
    Query,
    QueryKind,
    Record,
    Verdict,
    VerdictCode,
)
from citecheck_tex.pipeline import author_year_query, build_queries, check_entries
from citecheck_tex.sources.local_index import LocalIndex
from citecheck_tex.sources.plan import PLAN, STAGES
from citecheck_tex.tex.bib import parse_bib_text
from citecheck_tex.verify.compare import compare, omitted_pubnote
from citecheck_tex.verify.policy import tied_candidates
from tests.replay import ReplayServer, Reply, Request
from tests.sources.conftest import FAST, load, settings_for

HOD = Path(__file__).resolve().parent / "index" / "data" / "inspire_author_year.jsonl"


def entry(**fields: Any) -> Entry:
    base: dict[str, Any] = {"key": "k", "entry_type": "article", "file": "x.bib", "line": 1,
                            "authors": (Person("Hod", "S."),), "year": "2013"}
    base.update(fields)
    return Entry(**base)


# --------------------------------------------------------------------------- golden units


def test_author_year_query_golden() -> None:
    e = entry(venue="Class. Quant. Grav.", volume="31", pages="237002-237010",
              authors=(Person("Hod", "S."), Person("Waals", "J.", von="van der")))
    assert author_year_query(e) == Query(
        QueryKind.AUTHOR_YEAR, "Hod 2013", authors=("Hod", "van der Waals"), year="2013",
        journal="Class. Quant. Grav.", volume="31", page="237002")
    assert author_year_query(entry(year="c. 2013a")) == Query(
        QueryKind.AUTHOR_YEAR, "Hod 2013", authors=("Hod",), year="2013")
    assert author_year_query(entry(venue="arXiv")).journal == ""  # type: ignore[union-attr]
    assert author_year_query(entry(texkey="Hod:2013abc")) is not None
    for no in (entry(title="A title"), entry(year=""), entry(authors=())):
        assert author_year_query(no) is None
    # an identifier does not stop the question: it is asked when the identifier's
    # look-ups found nothing (the index may hold only the preprint)
    assert author_year_query(entry(doi="10.1/x")) is not None
    assert author_year_query(entry(arxiv="1302.6658")) is not None
    assert QueryKind.AUTHOR_YEAR in build_queries(entry(venue="JHEP"))
    assert QueryKind.AUTHOR_YEAR not in build_queries(entry(title="A title"))


def test_plan_asks_author_year_after_journal_refs_and_before_titles() -> None:
    assert STAGES.index(QueryKind.JOURNAL_REF) < STAGES.index(QueryKind.AUTHOR_YEAR) \
        < STAGES.index(QueryKind.TITLE)
    assert PLAN[QueryKind.AUTHOR_YEAR] == ("local", "inspire")


CQG = Record("inspire", "1281996", title="Asymptotic late-time tails", authors=(Person("Hod",
             "Shahar"),), year="2013", venue="Class.Quant.Grav.", volume="30", pages="237002")


def test_omitted_pubnote_golden() -> None:
    checks = compare(entry(venue="Class. Quant. Grav."), CQG).checks
    pub = [c for c in checks if c.field in ("journal", "volume", "pages")]
    assert [(d.field, d.cited, d.found) for d in omitted_pubnote(entry(venue="CQG"), pub)] == [
        ("volume", "", "30"), ("pages", "", "237002")]
    assert omitted_pubnote(entry(title="Asymptotic late-time tails"), pub) == []
    assert omitted_pubnote(entry(doi="10.1/x"), pub) == []
    assert omitted_pubnote(entry(venue="arXiv"), pub) == []
    # a link or a report number finds the work as an identifier does (mnras prints no
    # article title: "Estrade V., ..., 2017. \url{...pdf}", "{ATLAS Collaboration} 2012,
    # ATLAS-CONF-2012-107"); a link that is blank is none
    assert omitted_pubnote(entry(venue="CQG", fields={"url": "https://x.org/a.pdf"}), pub) == []
    assert omitted_pubnote(entry(venue="CQG", fields={"reportnumber": "ATLAS-CONF-2012-107"}),
                           pub) == []
    assert len(omitted_pubnote(entry(venue="CQG", fields={"url": " "}), pub)) == 2
    full = compare(entry(venue="Class. Quant. Grav.", volume="30", pages="237002"), CQG)
    assert full.discrepancies == () and full.identity == 1.0


def _comparisons(e: Entry, *records: Record) -> list[Comparison]:
    return [compare(e, r) for r in records]


def test_tied_candidates_golden() -> None:
    plb = [Record("inspire", i, title=f"Paper {i}", authors=(Person("Hod", "S."),), year="2013",
                  venue="Phys.Lett.B", volume=v, pages=p)
           for i, v, p in (("1", "726", "533"), ("2", "727", "345"))]
    bad = _comparisons(entry(venue="Phys. Lett. B", volume="710", pages="100"), *plb)
    assert [c.record.id for c in tied_candidates(entry(), bad[0], bad)] == ["2"]
    good = _comparisons(entry(venue="Phys. Lett. B", volume="726", pages="100"), *plb)
    assert tied_candidates(entry(), good[0], good) == []  # the volume tells them apart
    # with a title the title decides; one paper from two sources is no rival
    assert tied_candidates(entry(title="Paper 1"), bad[0], bad) == []
    twin = _comparisons(entry(venue="Phys. Lett. B", volume="710", pages="100"), plb[0],
                        replace(plb[0], source="local", id="x"))
    assert tied_candidates(entry(), twin[0], twin) == []


# --------------------------------------------------------------------------- end to end


@pytest.fixture(scope="module")
def hod_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("ay") / "index.sqlite"
    with LocalIndex.open(path) as index:
        assert index.add_file(HOD).records == 10
    return path


BIB = """
@article{wrong_page, author = {Hod, Shahar}, journal = {Class. Quant. Grav.},
  volume = {30}, pages = {237003}, year = {2013}}
@article{wrong_volume, author = {Hod, Shahar}, journal = {Phys. Lett. B},
  volume = {725}, pages = {533}, year = {2013}}
@article{missing_volume, author = {Hod, Shahar}, journal = {Class. Quant. Grav.},
  year = {2013}}
@article{fabricated, author = {Hod, Shahar}, journal = {Nucl. Phys. B},
  volume = {870}, pages = {100}, year = {2013}}
@article{exact, author = {Hod, Shahar}, journal = {JHEP}, volume = {1309}, pages = {056},
  year = {2013}}
@article{equally_bad, author = {Hod, Shahar}, journal = {Phys. Lett. B},
  volume = {710}, pages = {100}, year = {2013}}
@article{which_one, author = {Hod, Shahar}, journal = {Phys. Lett. B}, year = {2013}}
"""


@pytest.fixture(scope="module")
def verdicts(hod_index: Path) -> dict[str, Verdict]:
    entries, problems = parse_bib_text(BIB, "refs.bib")
    # the frontend flags the incomplete ones (only author+year can be looked up)
    assert {p.key for p in problems if p.code == "missing-title-and-id"} == {
        "missing_volume", "which_one"}
    settings = replace(Settings(), offline=True, index_complete=True,
                       index_path=str(hod_index), cache_path="none", sources=("local",))
    return {v.entry.key: v for v in check_entries(entries, settings)}


def test_wrong_page_is_minor_with_the_page(verdicts: dict[str, Verdict]) -> None:
    v = verdicts["wrong_page"]
    assert v.label is Label.MINOR, v.reason
    assert v.suggested == {"pages": "237002", "eprint": "1402.4819"}
    assert v.match is not None and v.match.id == "inspire:1281996"
    assert any(a.kind == "author_year" for a in v.attempts)


def test_wrong_volume_is_minor_with_the_volume(verdicts: dict[str, Verdict]) -> None:
    v = verdicts["wrong_volume"]
    assert v.label is Label.MINOR, v.reason
    assert v.suggested == {"volume": "726", "eprint": "1312.4969"}


def test_missing_volume_is_minor_with_volume_and_pages(verdicts: dict[str, Verdict]) -> None:
    v = verdicts["missing_volume"]
    assert v.label is Label.MINOR, v.reason
    assert v.suggested == {"volume": "30", "pages": "237002", "eprint": "1402.4819"}


def test_fabricated_is_major(verdicts: dict[str, Verdict]) -> None:
    v = verdicts["fabricated"]
    assert v.label is Label.MAJOR, v.reason
    assert v.suggested is None and v.match is None


def test_complete_reference_is_settled_by_its_journal_reference(
        verdicts: dict[str, Verdict]) -> None:
    v = verdicts["exact"]
    assert v.label is Label.EXACT, v.reason
    assert [a.kind for a in v.attempts] == ["journal_ref"]  # never asked by author + year


def test_equally_bad_candidates_are_never_an_arbitrary_minor(
        verdicts: dict[str, Verdict]) -> None:
    # three Phys.Lett.B papers of 2013 (713, 726, 727): the cited volume and page fit none
    v = verdicts["equally_bad"]
    assert v.label is Label.MAJOR, v.reason
    assert "3 works" in v.reason and v.suggested is None and v.match is None
    assert v.code is VerdictCode.AMBIGUOUS_NO_MATCH


def test_equally_bad_candidates_in_a_partial_index_are_unverified(hod_index: Path) -> None:
    """Not declared complete, the index may lack the cited paper: no MAJOR from a tie."""
    entries, _ = parse_bib_text(BIB, "refs.bib")
    settings = replace(Settings(), offline=True, index_path=str(hod_index), cache_path="none",
                       sources=("local",))
    got = {v.entry.key: v for v in check_entries(entries, settings)}
    v = got["equally_bad"]
    assert v.label is Label.UNVERIFIED, v.reason
    assert "3 works" in v.reason and "re-run online" in v.reason
    assert v.code is VerdictCode.AMBIGUOUS_INCONCLUSIVE and v.index_only
    assert got["fabricated"].label is Label.UNVERIFIED
    assert got["wrong_page"].label is Label.MINOR  # what the index holds is still corrected


def test_incomplete_reference_several_works_fit_is_unverified(
        verdicts: dict[str, Verdict]) -> None:
    v = verdicts["which_one"]
    assert v.label is Label.UNVERIFIED, v.reason
    assert "add the volume and page" in v.reason and v.suggested is None
    assert v.code is VerdictCode.AMBIGUOUS


# --------------------------------------------------------------------------- INSPIRE replay

RECORDED = load("inspire.jsonl")[0]  # real /api/literature response: Tabar et al. 2021


def test_inspire_author_year_through_the_pipeline(tmp_path: Path) -> None:
    """Wrong volume, no title: the journal reference finds nothing, the author+year search
    finds the paper. The recorded response was recorded for another query (a title
    search); it is served here for the author+year URL."""
    searches: list[str] = []

    def literature(req: Request) -> Reply | None:
        q = req.param("q")
        searches.append(q)
        if q == 'fa Tabar and date 2021 and j "Nucl.Phys.A"':
            return Reply.make(200, RECORDED["body_json"])
        # any other search (the journal reference): an empty result in the same envelope
        return Reply.make(200, {"hits": {"total": 0, "hits": []}, "links": {}})

    bib = ("@article{tabar, author = {Tabar, E. and Yakut, H. and Kemah, E. and Demirci "
           "Sayg{\\i}, N. and Ho{\\c{s}}g{\\\"o}r, G. and Quliyev, H. and Kuliev, A. A.},"
           " journal = {Nucl. Phys. A}, volume = {1009}, pages = {122138}, year = {2021}}")
    entries, _ = parse_bib_text(bib, "refs.bib")
    with ReplayServer() as server:
        server.add_handler(literature)
        settings = replace(settings_for(server), sources=("inspire",), cache_path="none",
                           index_path=str(tmp_path / "none.sqlite"))

        async def go() -> list[Verdict]:
            from citecheck_tex.pipeline import check_entries_async
            from citecheck_tex.sources.http import open_http

            async with open_http(settings, limits=FAST) as http:
                got, _, _ = await check_entries_async(entries, settings, http=http)
                return got
        [v] = asyncio.run(go())
    assert searches == ['j "Nucl.Phys.A,1009,122138"', 'fa Tabar and date 2021 and j "Nucl.Phys.A"']
    assert v.label is Label.MINOR, v.reason
    assert v.suggested is not None and v.suggested["volume"] == "1008"
    assert v.suggested["doi"] == "10.1016/j.nuclphysa.2021.122138"


def test_record_without_publication_cannot_confirm_a_title_less_pubnote() -> None:
    """A chimera of the synthetic benchmark: real authors (whose 2014 paper has no
    publication) with another paper's journal reference. Authors alone never vouch."""
    from citecheck_tex.verify.compare import UNCONFIRMED_PUBNOTE_IDENTITY

    preprint = Record("local", "p", title="Open Problems", authors=(Person("Hod", "S."),),
                      year="2013")
    c = compare(entry(venue="Astrophys. J.", volume="788", pages="15"), preprint)
    assert c.identity == UNCONFIRMED_PUBNOTE_IDENTITY and c.discrepancies == ()
    assert compare(entry(), preprint).identity == 1.0  # nothing stated to confirm


def test_cache_round_trips_author_year_queries() -> None:
    from citecheck_tex.cache import query_from_json, query_to_json

    q = author_year_query(entry(venue="Phys. Lett. B", volume="725", pages="533"))
    assert q is not None and query_from_json(query_to_json(q)) == q
    assert '"author_year"' in q.cache_key()


class _Fixed:
    """A source that answers every AUTHOR_YEAR query with the same records."""

    kinds = frozenset({QueryKind.AUTHOR_YEAR})
    version = "test"

    def __init__(self, name: str, records: tuple[Record, ...]) -> None:
        self.name = name
        self.records = records
        self.asked = 0

    async def fetch(self, query: Query) -> Any:
        from citecheck_tex.model import Answer, SourceStatus

        self.asked += 1
        return Answer(self.name, query, SourceStatus.FOUND, records=self.records)

    async def fetch_batch(self, queries: Any) -> list[Any]:
        return [await self.fetch(q) for q in queries]


def test_a_local_look_alike_does_not_keep_inspire_from_being_asked() -> None:
    """Author+year hits are look-alikes, not proof: later sources are still asked."""
    from citecheck_tex.pipeline import run_cascade

    e = entry(venue="Phys. Lett. B", volume="718", pages="1489",
              year="2013", authors=(Person("Hod", "Shahar"),))
    other = Record(source="local", id="x", title="Another paper", authors=(Person("Hod", "S."),),
                   year="2013", venue="Phys. Rev. D", volume="87", pages="024036")
    right = Record(source="inspire", id="y", title="The paper", authors=(Person("Hod", "S."),),
                   year="2013", venue="Phys. Lett. B", volume="718", pages="1489")
    local, inspire = _Fixed("local", (other,)), _Fixed("inspire", (right,))
    settings = replace(Settings(), offline=False, cache_path="none", sources=("local", "inspire"))
    sources: dict[str, Any] = {"local": local, "inspire": inspire}
    [v] = asyncio.run(run_cascade([e], sources, settings))
    assert inspire.asked == 1
    assert v.label is Label.EXACT and v.match == right


# bench.accuracy.dataset case major-0310 as rendered to .bib (a fabricated title-less
# reference, aps style: a real first author, an invented co-author, "H.X.Wang").
FABRICATED_0310 = """
@article{major-0310,
    author = {M. Dvornikov and K. Kakanor and H.X.Wang},
    journal = {J. Phys. A},
    volume = {57},
    pages = {2947},
    year = {2015}
}
"""


def _preprint_line(number: str, authors: list[tuple[str, str]]) -> str:
    """An arXiv-snapshot line as bench/gen_index_records.py makes them (a preprint,
    no journal reference): the first author a real one of the corpus, then others."""
    return json.dumps({
        "id": number, "submitter": authors[0][1], "title": "Neutrino spin oscillations in "
        "a rotating magnetized medium", "comments": None, "journal-ref": None, "doi": None,
        "report-no": None, "categories": "hep-ph", "license": None, "abstract": "",
        "authors": " and ".join(f"{g} {f}" for f, g in authors),
        "versions": [{"version": "v1", "created": "Tue, 3 Jun 2014 10:00:00 GMT"}],
        "update_date": "2014-06-03", "authors_parsed": [[f, g, ""] for f, g in authors]})


@pytest.mark.parametrize(("wang", "label"), [
    ("Peng", Label.MAJOR),  # another Wang: the preprint shares only the first author
    ("Hong-Xia", Label.UNVERIFIED),  # the cited Wang: a preprint of the cited authors
])
def test_title_less_reference_is_not_confirmed_by_another_person_of_a_co_authors_name(
        tmp_path: Path, wang: str, label: Label) -> None:
    # At 10 million records a preprint of Dvornikov with a "P. Wang" kept major-0310
    # UNVERIFIED: two of three cited family names on the record, but P. Wang is not
    # H.X. Wang (bench/RESULTS.md, the local index at scale).
    dump = tmp_path / "preprints.jsonl"
    dump.write_text(_preprint_line("1406.00999", [("Dvornikov", "Maxim"), ("Wang", wang)])
                    + "\n", encoding="utf-8")
    with LocalIndex.open(tmp_path / "index.sqlite") as index:
        assert index.add_file(dump).records == 1
        found = index.by_author_year(["Dvornikov", "Kakanor", "Wang"], "2015",
                                     journal="J. Phys. A", volume="57", page="2947")
        assert [r.id for r in found] == ["arxiv:1406.00999"]  # the candidate is offered
    entries, _ = parse_bib_text(FABRICATED_0310, "refs.bib")
    settings = replace(Settings(), offline=True, index_complete=True,
                       index_path=str(tmp_path / "index.sqlite"), cache_path="none",
                       sources=("local",))
    [v] = check_entries(entries, settings)
    assert v.label is label, v.reason
    assert any(a.kind == "author_year" for a in v.attempts)
