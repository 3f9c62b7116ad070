"""The online cascade (issue 13): title-less citations outside HEP, every stated
identifier checked at its authority, routing by field, the minimum evidence for
MAJOR, batching and the configurable rate limits.

Every answer is a real recorded response (tests/fixtures/api, provenance there),
served at the URL the adapter requests; an empty answer is the recorded envelope of
the same service with no hits, as the test says where it does so.
"""

from __future__ import annotations

import asyncio
from dataclasses import replace
from typing import Any

import pytest

from citecheck_tex.config import Settings, load_settings
from citecheck_tex.errors import UsageError
from citecheck_tex.model import (
    DiscrepancyCode,
    Entry,
    Label,
    Query,
    QueryKind,
    SourceStatus,
    Verdict,
    VerdictCode,
)
from citecheck_tex.sources import plan
from citecheck_tex.sources.http import DEFAULT_LIMITS, open_http
from citecheck_tex.tex.bib import parse_bib_text
from tests.replay import ReplayServer, Reply, Request
from tests.sources.conftest import FAST, FIXTURES, ask, load, recorded, settings_for

CROSSREF_ITEMS = load("crossref_payloads.jsonl")
XGBOOST_SEARCH = CROSSREF_ITEMS[1]["body_json"]  # shared crossref_payloads.jsonl:47
HERDMAN = CROSSREF_ITEMS[2]["body_json"]["message"]  # Phys. Rev. B 89, 140501 (2014)
DONADI = CROSSREF_ITEMS[3]["body_json"]["message"]  # Phys. Rev. A 106, 022212 (2022)
XGBOOST_S2 = load("semantic_scholar_payloads.jsonl")[2]["body_json"][0]
INSPIRE_HITS = load("inspire_hits.jsonl")

APS_BIB = r"""
@article{herdman, author = {C. M. Herdman and P.-N. Roy and R. G. Melko and A. Del Maestro},
  journal = {Phys. Rev. B}, volume = {89}, pages = {140501}, year = {2014}}
@article{donadi, author = {S. Donadi and S. Hossenfelder},
  journal = {Phys. Rev. A}, volume = {106}, pages = {022212}, year = {2022}}
@article{nowhere, author = {Q. Farnsworth and L. Qanzar},
  journal = {Phys. Rev. A}, volume = {99}, pages = {123456}, year = {2019}}
"""


def _empty_inspire() -> dict[str, Any]:
    """INSPIRE's recorded search envelope (shared inspire.jsonl) with no hits."""
    body = dict(load("inspire.jsonl")[0]["body_json"])
    body["hits"] = {"total": 0, "hits": []}
    return body


def _crossref_list(items: list[dict[str, Any]]) -> dict[str, Any]:
    return {"status": "ok", "message-type": "work-list", "message": {"items": items}}


def _run(server: ReplayServer, bib: str, sources: tuple[str, ...]) -> dict[str, Verdict]:
    entries, problems = parse_bib_text(bib, "refs.bib")
    assert all(p.code == "missing-field" for p in problems)  # APS style: no title
    settings = settings_for(server, sources=sources, cache_path="none", max_retries=0)

    async def go() -> list[Verdict]:
        from citecheck_tex.pipeline import check_entries_async

        async with open_http(settings, limits=FAST) as http:
            verdicts, _, _ = await check_entries_async(entries, settings, http=http)
            return verdicts
    return {v.entry.key: v for v in asyncio.run(go())}


def _serve_aps(server: ReplayServer, crossref_fails: bool = False) -> list[Request]:
    """INSPIRE knows none of the APS works (quant-ph, cond-mat); Crossref's
    ``query.bibliographic`` answers every search with both recorded APS works (a
    search ranks look-alikes too); OpenAlex has nothing (its recorded envelope, empty)."""
    seen: list[Request] = []
    error = recorded("crossref.jsonl", "", status=500)

    def handler(req: Request) -> Reply | None:
        seen.append(req)
        if req.path == "/api/literature":
            return Reply.make(200, _empty_inspire())
        if req.path == "/works" and req.param("query.bibliographic"):
            if crossref_fails:
                return Reply.make(500, error["body_json"] or error.get("body_text") or "")
            return Reply.make(200, _crossref_list([HERDMAN, DONADI]))
        if req.path == "/works" and req.param("filter").startswith("biblio."):
            return Reply.make(200, {"meta": {"count": 0}, "results": []})
        return None

    server.add_handler(handler)
    return seen


def test_title_less_citations_outside_hep_are_found_by_the_general_sources() -> None:
    """Issue 13.1: ``Phys. Rev. B 89, 140501 (2014)`` is not in INSPIRE; Crossref
    finds it by journal, volume, page, year and authors."""
    with ReplayServer() as server:
        seen = _serve_aps(server)
        got = _run(server, APS_BIB, ("inspire", "crossref", "openalex"))
    for key, doi in (("herdman", "10.1103/physrevb.89.140501"),
                     ("donadi", "10.1103/physreva.106.022212")):
        assert got[key].label is Label.EXACT, got[key].reason
        assert got[key].match is not None and got[key].match.doi == doi
    # nothing sits at the fabricated pubnote: every source of the minimum set said so
    assert got["nowhere"].label is Label.MAJOR, got["nowhere"].reason
    inspire = [r.param("q") for r in seen if r.path == "/api/literature"]
    # the three journal references in one OR-ed search (a complete empty answer is not
    # asked again term by term); then first author + year for the unsettled one only
    assert inspire[0].count(" or ") == 2
    assert [q.split()[:2] for q in inspire[1:]] == [["fa", "Farnsworth"]] * 2
    # OpenAlex is asked only about the reference Crossref did not settle
    biblio = [r.param("filter") for r in seen if r.param("filter").startswith("biblio.")]
    assert biblio == ["biblio.volume:99,biblio.first_page:123456"]


def test_title_less_citation_only_inspire_can_look_up_is_unverified_not_major() -> None:
    """Issue 13.1: asked only of INSPIRE (which does not hold it), a correct APS
    citation used to be MAJOR."""
    with ReplayServer() as server:
        _serve_aps(server)
        got = _run(server, APS_BIB, ("inspire",))
    for key in ("herdman", "donadi", "nowhere"):
        assert got[key].label is Label.UNVERIFIED, got[key].reason
        assert "general source" in got[key].reason
        assert got[key].code is VerdictCode.TOO_FEW_SOURCES
        assert got[key].reason.endswith("did not); not MAJOR.")


def test_title_less_citation_is_unverified_when_a_general_source_fails() -> None:
    """Crossref answers its recorded HTTP 500: the minimum evidence for MAJOR is missing."""
    with ReplayServer() as server:
        _serve_aps(server, crossref_fails=True)
        got = _run(server, APS_BIB, ("inspire", "crossref", "openalex"))
    assert {v.label for v in got.values()} == {Label.UNVERIFIED}


XGBOOST_BIB = r"""
@inproceedings{chen2016, author = {Chen, Tianqi and Guestrin, Carlos},
  title = {XGBoost: A Scalable Tree Boosting System},
  booktitle = {Proceedings of the 22nd ACM SIGKDD International Conference on Knowledge
               Discovery and Data Mining}, year = {2016},
  doi = {10.1145/2939672.2939785}, eprint = {1603.02745}, archivePrefix = {arXiv}}
"""


def test_wrong_arxiv_id_beside_a_resolving_doi_is_minor_with_the_right_id() -> None:
    """Issue 13.2: the DOI resolves at Crossref, whose work carries no arXiv id; the
    cited arXiv id 1603.02745 does not exist (arXiv's recorded empty feed). The DOI is
    then asked of the cross-check sources: OpenAlex (nothing) and Semantic Scholar
    (the recorded paper, ArXiv 1603.02754). INSPIRE is never asked: an ACM DOI is
    computer science."""
    empty_feed = next(r for r in load("arxiv.jsonl")
                      if "id_list=0000.0000" in r["request_url"])["body_text"]
    work = XGBOOST_SEARCH[0]
    seen: list[Request] = []

    def handler(req: Request) -> Reply | None:
        seen.append(req)
        if req.path == "/api/query":
            return Reply.make(200, empty_feed, content_type="application/atom+xml")
        if req.path == "/works/10.1145/2939672.2939785":
            return Reply.make(200, {"status": "ok", "message-type": "work", "message": work})
        if req.path == "/works" and req.param("filter").startswith("doi:"):
            return Reply.make(200, {"meta": {"count": 0}, "results": []})
        if req.path == "/graph/v1/paper/batch":
            assert req.json()["ids"] == ["DOI:10.1145/2939672.2939785"]
            return Reply.make(200, [XGBOOST_S2])
        return None

    with ReplayServer() as server:
        server.add_handler(handler)
        got = _run(server, XGBOOST_BIB, ("arxiv", "crossref", "datacite", "inspire",
                                         "openalex", "semanticscholar", "dblp"))
    v = got["chen2016"]
    assert v.label is Label.MINOR, v.reason
    assert [(d.field, d.cited, d.found) for d in v.discrepancies] == [
        ("eprint", "1603.02745", "1603.02754")]
    assert v.suggested is not None and v.suggested.get("eprint") == "1603.02754"
    paths = [r.path for r in seen]
    assert "/api/literature" not in paths  # routing: not a HEP reference
    assert "/search/publ/api" not in paths  # settled before any title search
    assert paths.count("/api/query") == 1


def test_inspire_titles_are_or_ed_in_one_search() -> None:
    """Issue 13.4: ``t "a" or t "b"``; each real hit goes back to its own title, a
    title without a hit in a complete answer is NOT_FOUND without a second request."""
    titles = [h["metadata"]["titles"][0]["title"] for h in INSPIRE_HITS[:2]]
    seen: list[str] = []

    def literature(req: Request) -> Reply | None:
        if req.path != "/api/literature":
            return None
        seen.append(req.param("q"))
        return Reply.make(200, {"hits": {"total": 2, "hits": INSPIRE_HITS[:2]}, "links": {}})

    queries = [Query(QueryKind.TITLE, titles[1]), Query(QueryKind.TITLE, "Not a real title at all"),
               Query(QueryKind.TITLE, titles[0])]
    with ReplayServer() as server:
        server.add_handler(literature)
        answers = ask(server, "inspire", queries)
    assert len(seen) == 1 and seen[0].count(' or t "') == 2
    assert [a.status for a in answers] == [SourceStatus.FOUND, SourceStatus.NOT_FOUND,
                                           SourceStatus.FOUND]
    assert answers[0].records[0].id == str(INSPIRE_HITS[1]["metadata"]["control_number"])
    assert answers[2].records[0].id == str(INSPIRE_HITS[0]["metadata"]["control_number"])


def test_a_truncated_title_batch_asks_the_unmatched_titles_alone() -> None:
    seen: list[str] = []

    def literature(req: Request) -> Reply | None:
        if req.path != "/api/literature":
            return None
        seen.append(req.param("q"))
        # INSPIRE counted more hits than it returned: the answer is incomplete
        return Reply.make(200, {"hits": {"total": 99, "hits": INSPIRE_HITS[:1]}, "links": {}})

    title = INSPIRE_HITS[0]["metadata"]["titles"][0]["title"]
    with ReplayServer() as server:
        server.add_handler(literature)
        answers = ask(server, "inspire", [Query(QueryKind.TITLE, title),
                                          Query(QueryKind.TITLE, "Not a real title at all")])
    assert len(seen) == 2 and seen[1] == 't "Not a real title at all"'
    assert answers[0].status is SourceStatus.FOUND


def _entry(**kw: Any) -> Entry:
    base: dict[str, Any] = {"key": "k", "entry_type": "article", "file": "refs.bib", "line": 1}
    base.update(kw)
    return Entry(**base)


def test_routing_by_field() -> None:
    acm = _entry(doi="10.1145/2939672.2939785")
    cs_arxiv = _entry(arxiv="2004.12993", fields={"primaryclass": "cs.CL"})
    old_cs = _entry(arxiv="cs/0503050")
    hep = _entry(venue="Phys. Rev. D", arxiv="hep-ph/9905221")
    astro = _entry(venue="Astrophys. J.", fields={"journal": "Astrophys. J."})
    neurips = _entry(entry_type="inproceedings",
                     fields={"booktitle": "Advances in Neural Information Processing Systems"})
    for e in (acm, cs_arxiv, old_cs, neurips):
        assert plan.routed("dblp", e) and not plan.routed("inspire", e)
    # physics journals with "computer" or "machine learning" in the name stay physics
    for venue in ("Computer Physics Communications", "Machine Learning: Science and Technology"):
        e = _entry(venue=venue)
        assert plan.routed("inspire", e) and not plan.routed("dblp", e)
    assert plan.routed("inspire", hep) and not plan.routed("dblp", hep)
    assert not plan.routed("ads", hep) and plan.routed("ads", astro)
    assert all(plan.routed(s, e) for s in plan.GENERAL for e in (acm, hep, astro))


def _answer(source: str, kind: QueryKind, status: SourceStatus) -> Any:
    from citecheck_tex.model import Answer

    return Answer(source, Query(kind, "x"), status)


def test_minimum_evidence_for_major() -> None:
    kinds = {QueryKind.TITLE}
    enabled = ("local", "inspire", "crossref", "openalex", "semanticscholar")
    can = {"inspire": frozenset(QueryKind), "crossref": frozenset({QueryKind.TITLE}),
           "openalex": frozenset({QueryKind.TITLE}), "semanticscholar": frozenset(
               {QueryKind.TITLE})}
    nf = SourceStatus.NOT_FOUND
    hep = _entry(title="A title", venue="Phys. Rev. D")
    full = [_answer(s, QueryKind.TITLE, nf) for s in ("inspire", "crossref", "openalex")]
    assert plan.missing_for_major(hep, kinds, full, enabled, can) == ()
    # Semantic Scholar stands in for a general source that failed
    failed = full[:2] + [_answer("openalex", QueryKind.TITLE, SourceStatus.ERROR)]
    assert plan.missing_for_major(hep, kinds, failed, enabled, can) == ("openalex",)
    assert plan.missing_for_major(
        hep, kinds, [*failed, _answer("semanticscholar", QueryKind.TITLE, nf)], enabled,
        can) == ()
    # the domain source is part of the minimum
    assert plan.missing_for_major(hep, kinds, full[1:], enabled, can) == ("inspire",)
    # offline (the local index alone) is the policy's business
    assert plan.missing_for_major(hep, kinds, [], ("local",), can) == ()


def test_rate_limits_are_configurable_with_the_published_defaults() -> None:
    s = load_settings(None, environ={"CITECHECK_RATE_LIMITS": "semanticscholar=10, arxiv=1"})
    assert s.rate_limits == {"semanticscholar": 10.0, "arxiv": 1.0}

    async def limits() -> tuple[float, float, float]:
        async with open_http(s) as http:
            s2, ax, ins = (http.limit_for(n) for n in ("semanticscholar", "arxiv", "inspire"))
            return s2.rate / s2.per, ax.rate / ax.per, ins.rate / ins.per
    s2, ax, ins = asyncio.run(limits())
    assert (s2, ax) == (10.0, 1.0)
    published = DEFAULT_LIMITS["inspire"]
    assert ins == published.rate / published.per  # untouched: the published 15 per 5 s
    with pytest.raises(UsageError, match="unknown source"):
        load_settings(None, overrides={"rate_limits": {"scholar": 3}})
    with pytest.raises(UsageError, match="positive"):
        load_settings(None, overrides={"rate_limits": "crossref=0"})
    assert replace(Settings()).rate_limits == {}


def test_inspire_title_batches_survive_the_cache(tmp_path: Any) -> None:
    """Through the answer cache (on by default), the titles still reach INSPIRE as one
    OR-ed search, and a second run asks nothing."""
    hits = INSPIRE_HITS[:2]
    seen: list[str] = []

    def literature(req: Request) -> Reply | None:
        if req.path != "/api/literature":
            return None
        seen.append(req.param("q"))
        return Reply.make(200, {"hits": {"total": 2, "hits": hits}, "links": {}})

    bib = "".join(
        f"@article{{r{i}, author = {{{h['metadata']['authors'][0]['full_name']}}},\n"
        f"  title = {{{h['metadata']['titles'][0]['title']}}}, year = "
        f"{{{str(h['metadata'].get('preprint_date') or h['metadata']['earliest_date'])[:4]}}}}}\n"
        for i, h in enumerate(hits))
    entries, problems = parse_bib_text(bib, "refs.bib")
    assert all(p.code == "missing-field" for p in problems)  # no journal

    async def go(settings: Settings) -> list[Verdict]:
        from citecheck_tex.pipeline import check_entries_async

        async with open_http(settings, limits=FAST) as http:
            verdicts, _, _ = await check_entries_async(entries, settings, http=http)
            return verdicts

    with ReplayServer() as server:
        server.add_handler(literature)
        settings = settings_for(server, sources=("inspire",),
                                cache_path=str(tmp_path / "cache.sqlite"))
        first = asyncio.run(go(settings))
        assert len(seen) == 1 and seen[0].count(' or t "') == 1
        second = asyncio.run(go(settings))
        assert len(seen) == 1
    assert [v.match.id if v.match else "" for v in first] == [
        str(h["metadata"]["control_number"]) for h in hits]
    assert [v.label for v in second] == [v.label for v in first]


def test_an_identifier_its_authority_answered_is_asked_of_nobody_else() -> None:
    """Crossref answers the DOI with its recorded 404 ("Resource not found.") and no
    agency: INSPIRE, OpenAlex and Semantic Scholar are not asked about the DOI (they
    stand in only when the authorities fail). The title is still searched, and with the
    minimum set answering "no", the reference is MAJOR."""
    seen: list[Request] = []

    def handler(req: Request) -> Reply | None:
        seen.append(req)
        if req.path == "/api/literature":
            return Reply.make(200, _empty_inspire())
        if req.path == "/works" and req.param("query.bibliographic"):
            return Reply.make(200, _crossref_list([]))
        if req.path == "/works" and (req.param("search") or req.param("filter")):
            return Reply.make(200, {"meta": {"count": 0}, "results": []})
        if req.path == "/graph/v1/paper/search/match":
            return Reply.make(404, recorded("semantic_scholar.jsonl", "", status=404)
                              ["body_json"])
        return None

    bib = ("@article{ghost, author = {Q. Farnsworth}, title = {Temporal Dynamics of "
           "Quantum Gravitational Waves Using the HelioTrace Method}, journal = {PLoS ONE},"
           " year = {2012}, doi = {10.1371/notarealdoi}}\n")
    with ReplayServer() as server:
        server.add_handler(handler)
        server.add_file(FIXTURES / "crossref.jsonl")
        got = _run(server, bib, ("crossref", "datacite", "inspire", "openalex",
                                 "semanticscholar"))
    v = got["ghost"]
    assert v.label is Label.MAJOR, v.reason
    doi_kind = [(a.source, a.status) for a in v.attempts if a.kind == "doi"]
    assert doi_kind == [("crossref", SourceStatus.NOT_FOUND)]
    assert not [r for r in seen if r.path == "/api/literature" and "doi:" in r.param("q")]
    assert not [r for r in seen if r.param("filter").startswith("doi:")]
    assert not [r for r in seen if r.path.startswith("/dois/")]
    # Semantic Scholar's title search is a fallback: Crossref and OpenAlex answered
    assert not [r for r in seen if r.path.startswith("/graph/v1/")]


def test_an_arxiv_journal_reference_never_settles_a_journal_contradiction() -> None:
    """arXiv's recorded feed for astro-ph/0601001 carries the author-typed journal
    reference ``ActaAstron.56:1-50,2006``. A citation giving volume 57 is not settled
    as MINOR by that free text: the journal reference is still asked of INSPIRE (whose
    empty answer leaves arXiv's record the only one, so the verdict is still MINOR)."""
    feed = next(r for r in load("arxiv.jsonl")
                if "astro-ph%2F0601001" in r["request_url"])["body_text"]
    searches: list[str] = []

    def handler(req: Request) -> Reply | None:
        if req.path == "/api/query":
            return Reply.make(200, feed, content_type="application/atom+xml")
        if req.path == "/api/literature":
            searches.append(req.param("q"))
            return Reply.make(200, _empty_inspire())
        return None

    bib = ("@article{gould, author = {Gould, Andrew and Dorsher, Susan and Gaudi, B. Scott "
           "and Udalski, Andrzej}, title = {Frequency of Hot Jupiters and Very Hot Jupiters "
           "from the OGLE-III Transit Surveys Toward the Galactic Bulge and Carina}, "
           "journal = {Acta Astron.}, volume = {57}, pages = {1}, year = {2006}, "
           "eprint = {astro-ph/0601001}}\n")
    with ReplayServer() as server:
        server.add_handler(handler)
        got = _run(server, bib, ("arxiv", "inspire"))
    assert [q.split()[0] for q in searches] == ["j", "t"]
    v = got["gould"]
    assert v.label is Label.MINOR and [d.field for d in v.discrepancies] == ["volume"], v.reason


def test_an_arxiv_id_arxiv_does_not_know_is_minor_even_when_nobody_knows_the_right_one(
        ) -> None:
    """As above, but no cross-check source knows the work's arXiv id (OpenAlex: its
    empty envelope; Semantic Scholar not enabled): the cited id that arXiv answered
    "no such paper" for is still reported, with nothing to put in its place."""
    empty_feed = next(r for r in load("arxiv.jsonl")
                      if "id_list=0000.0000" in r["request_url"])["body_text"]

    def handler(req: Request) -> Reply | None:
        if req.path == "/api/query":
            return Reply.make(200, empty_feed, content_type="application/atom+xml")
        if req.path == "/works/10.1145/2939672.2939785":
            return Reply.make(200, {"status": "ok", "message-type": "work",
                                    "message": XGBOOST_SEARCH[0]})
        if req.path == "/works" and req.param("filter").startswith("doi:"):
            return Reply.make(200, {"meta": {"count": 0}, "results": []})
        return None

    with ReplayServer() as server:
        server.add_handler(handler)
        got = _run(server, XGBOOST_BIB, ("arxiv", "crossref", "openalex"))
    v = got["chen2016"]
    assert v.label is Label.MINOR, v.reason
    # The recorded Crossref item's title is "XGBoost" alone, without its subtitle: the
    # main title before the cited colon, so the title agrees and only the id is wrong.
    assert [(d.field, d.cited, d.found) for d in v.discrepancies] == [
        ("eprint", "1603.02745", "")]
    assert "1603.02745" in v.reason and "eprint" not in (v.suggested or {})
    assert v.code is VerdictCode.FIELD_MISMATCH
    assert v.discrepancies[0].code is DiscrepancyCode.ARXIV_UNKNOWN
    assert v.reason.endswith(f"contradicts it (arXiv has no paper {v.entry.arxiv}).")


def test_which_authority_answers_settle_an_identifier() -> None:
    nf, found, err = SourceStatus.NOT_FOUND, SourceStatus.FOUND, SourceStatus.ERROR
    doi = QueryKind.DOI
    assert plan.authority_answered(doi, [_answer("crossref", doi, nf)])
    assert plan.authority_answered(doi, [_answer("crossref", doi, err),
                                         _answer("datacite", doi, found)])
    # Crossref failed and DataCite does not know the DOI: maybe a Crossref DOI, so the
    # stand-ins (INSPIRE, OpenAlex, Semantic Scholar) are still asked
    assert not plan.authority_answered(doi, [_answer("crossref", doi, err),
                                             _answer("datacite", doi, nf)])
    assert not plan.authority_answered(doi, [_answer("openalex", doi, found)])
    assert plan.authority_answered(QueryKind.ARXIV, [_answer("arxiv", QueryKind.ARXIV, nf)])
