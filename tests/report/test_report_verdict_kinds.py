"""This session's verdict kinds in every report: a web-search proposal nobody confirmed,
a reference a partial local index cannot match (offline), a chimera (MAJOR with the
real work as evidence), and what the LLM parts cost.

The verdicts come from the real policy (:func:`citecheck_tex.verify.policy.decide`)
on hand-made answers, so a change of the policy's wording or rules that the reports
rely on fails here. The works are real: the PLoS ONE paper of
``tests/sources/test_websearch.py`` and Maldacena's AdS/CFT paper.
"""

from __future__ import annotations

import json
import re
from dataclasses import replace
from html import unescape
from pathlib import Path

import jsonschema
import pytest

from citecheck_tex.config import Settings
from citecheck_tex.model import (
    Answer,
    Entry,
    Label,
    Person,
    Project,
    Query,
    QueryKind,
    Record,
    RunResult,
    SourceStatus,
    Verdict,
    VerdictCode,
)
from citecheck_tex.report.base import (
    describe_usage,
    is_index_only,
    proposed_by,
    real_work_caption,
    reason_without_advice,
)
from citecheck_tex.report.html import render_html
from citecheck_tex.report.json import render_json
from citecheck_tex.report.sarif import render_sarif
from citecheck_tex.report.terminal import render_terminal
from citecheck_tex.sources.websearch import answer_from, validate_proposal
from citecheck_tex.tex.bib import parse_bib_text
from citecheck_tex.verify.policy import decide

SCHEMA = json.loads(
    (Path(__file__).resolve().parents[2] / "docs" / "report.schema.json").read_text("utf-8")
)

MODEL = "gpt-4o-mini-search"
#: The URL the model gave, with characters HTML must escape.
URL = "https://journals.plos.org/plosone/article?id=10.1371/journal.pone.0033693&v=1"
PONE_TITLE = ("Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of Microglia "
              "in the Basal Ganglia of Mice")

BIB = r"""@article{sadasivan2012,
  author = {Sadasivan, Shankar and Pond, Brooks B. and Pani, Amar K. and Qu, Chunxu and
            Jiao, Yun and Smeyne, Richard J.},
  title = {Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of
           Microglia in the Basal Ganglia of Mice},
  journal = {PLoS ONE}, year = {2012}, volume = {7}, pages = {e33693}}

@article{maldacena1999,
  author = {Smith, John and Doe, Jane and Roe, Richard and Maldacena, Juan},
  title = {The Large N Limit of Superconformal Field Theories and Supergravity},
  journal = {Int. J. Theor. Phys.}, year = {1999}, volume = {38}, pages = {1113--1133},
  doi = {10.1023/A:1026654312961}}

@article{missing2020,
  author = {Nobody, Anne},
  title = {A Study That The Local Index Does Not Hold},
  journal = {Phys. Rev. D}, year = {2020}, volume = {101}, pages = {012345}}

@article{missing2021,
  author = {Nobody, Anne},
  title = {Another Study Missing From The Index},
  journal = {Phys. Rev. D}, year = {2021}, volume = {103}, pages = {054321}}
"""


def _entries() -> dict[str, Entry]:
    entries, problems = parse_bib_text(BIB, "paper/refs.bib")
    assert not problems
    return {e.key: e for e in entries}


def _title_query(e: Entry) -> Query:
    return Query(QueryKind.TITLE, e.title, authors=tuple(p.family for p in e.authors),
                 year=e.year)


def proposal_verdict() -> Verdict:
    """Crossref finds nothing by title; the web search proposes the work (with a URL)."""
    e = _entries()["sadasivan2012"]
    q = _title_query(e)
    value = validate_proposal({
        "found": True, "title": PONE_TITLE,
        "authors": ["Shankar Sadasivan", "Brooks B. Pond", "Amar K. Pani", "Chunxu Qu",
                    "Yun Jiao", "Richard J. Smeyne"],
        "year": "2012", "venue": "PLoS ONE", "doi": "", "arxiv_id": "", "url": URL,
        "evidence": "the article page on journals.plos.org"})
    answers = [Answer("crossref", q, SourceStatus.NOT_FOUND, latency_ms=300.0),
               answer_from(q, value, "", MODEL, "chat", latency_ms=2100.0, requests=1)]
    return decide(e, answers, Settings())


def chimera_verdict() -> Verdict:
    """The DOI and title are Maldacena's; three of the four cited authors are not."""
    e = _entries()["maldacena1999"]
    record = Record(
        source="crossref", id="10.1023/A:1026654312961",
        url="https://doi.org/10.1023/A:1026654312961",
        title="The Large N Limit of Superconformal Field Theories and Supergravity",
        authors=(Person("Maldacena", "Juan"),), year="1999",
        venue="International Journal of Theoretical Physics", volume="38", pages="1113-1133",
        doi="10.1023/a:1026654312961", entry_type="article")
    q = Query(QueryKind.DOI, e.doi)
    return decide(e, [Answer("crossref", q, SourceStatus.FOUND, (record,), latency_ms=400.0)],
                  Settings())


def index_only_verdicts() -> list[Verdict]:
    """Offline, a local index that is not declared complete holds neither work."""
    entries = _entries()
    settings = replace(Settings(), offline=True, index_complete=False)
    out = []
    for key in ("missing2020", "missing2021"):
        e = entries[key]
        answers = [Answer("local", _title_query(e), SourceStatus.NOT_FOUND, latency_ms=2.0),
                   Answer("crossref", _title_query(e), SourceStatus.SKIPPED, message="offline")]
        out.append(decide(e, answers, settings))
    return out


USAGE = {"judge": {"requests": 3, "calls": 3, "cache_hits": 1, "failures": 0,
                   "prompt_tokens": 900, "completion_tokens": 120},
         "websearch": {"requests": 2, "calls": 2, "cache_hits": 0, "failures": 1,
                       "prompt_tokens": 400, "completion_tokens": 60}}


def result(*verdicts: Verdict, **changes: object) -> RunResult:
    """A run of ``verdicts`` (all four kinds by default)."""
    vs = verdicts or (proposal_verdict(), chimera_verdict(), *index_only_verdicts())
    entries = tuple(v.entry for v in vs)
    project = Project(input="paper/refs.bib", main_file="", files=(),
                      resources=("paper/refs.bib",), entries=entries, all_entries=entries,
                      sites=(), problems=())
    run = RunResult(input="paper/refs.bib", offline=False, project=project, verdicts=vs,
                    problems=(), tool_version="0.1.0", elapsed_s=1.5, http_requests=4)
    return replace(run, **changes)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- the policy's side


def test_the_policy_yields_the_four_kinds() -> None:
    """Preconditions of the rendering tests below."""
    p = proposal_verdict()
    assert p.label is Label.UNVERIFIED and p.match is not None and p.match.proposed
    assert proposed_by(p.match) == MODEL and p.match.url == URL
    c = chimera_verdict()
    assert c.label is Label.MAJOR and c.match is not None and not c.match.proposed
    assert c.suggested is None
    assert real_work_caption(c) == "The real work with this title and identifier"
    for v in index_only_verdicts():
        assert v.label is Label.UNVERIFIED and is_index_only(v)
    assert not is_index_only(p) and not is_index_only(c)


def test_index_only_needs_only_the_local_index_asked() -> None:
    v = index_only_verdicts()[0]
    e = _entries()["missing2020"]
    failed = decide(e, [Answer("local", _title_query(e), SourceStatus.NOT_FOUND),
                        Answer("inspire", _title_query(e), SourceStatus.ERROR, message="down")],
                    replace(Settings(), index_complete=False))
    assert failed.label is Label.UNVERIFIED and not is_index_only(failed)
    assert "index-complete" not in reason_without_advice(v)
    assert reason_without_advice(v).startswith("Not in the local index")
    assert "re-run online" in v.reason and "re-run online" not in reason_without_advice(v)


def test_real_work_caption_names_what_the_citation_borrows() -> None:
    c = chimera_verdict()
    assert c.match is not None
    no_doi = replace(c, entry=replace(c.entry, doi=""))
    assert real_work_caption(no_doi) == "The real work with this title"
    other_title = replace(c, entry=replace(c.entry, title="Something else entirely"),
                          checks=tuple(ch for ch in c.checks if ch.field != "title"))
    assert real_work_caption(other_title) == "The real work with this identifier"
    assert real_work_caption(replace(c, label=Label.MINOR,
                                     code=VerdictCode.FIELD_MISMATCH)) == ""


# --------------------------------------------------------------------------- terminal


def test_terminal_gives_the_index_advice_once_after_the_summary() -> None:
    out = render_terminal(result(), color=False)
    lines = out.rstrip("\n").split("\n")
    summary = next(i for i, ln in enumerate(lines) if ln.startswith("Summary:"))
    assert lines[summary + 1] == ("2 references are not in your local index: re-run online "
                                  "(without --offline) to check them")
    # issue 14: declaring a general index complete turns what it lacks into false MAJORs
    assert "--index-complete" not in out
    assert out.count("re-run online") == 1
    rows = [ln for ln in lines if ln.startswith("UNVERIFIED") and "missing20" in ln]
    assert len(rows) == 2 and all("Not in the local index" in r for r in rows)


def test_terminal_singular_advice_and_none_without_index_only() -> None:
    one = render_terminal(result(index_only_verdicts()[0]), color=False)
    assert "1 reference is not in your local index" in one
    assert "local index" not in render_terminal(result(proposal_verdict()), color=False)


def test_terminal_marks_a_proposal() -> None:
    out = render_terminal(result(proposal_verdict()), color=False)
    row = next(ln for ln in out.split("\n") if "sadasivan2012" in ln)
    assert row.startswith("UNVERIFIED")
    assert row.endswith(f"(proposed by {MODEL}, unconfirmed)")
    verbose = render_terminal(result(proposal_verdict()), color=False, verbose=True)
    assert "proposed: Methylphenidate" in verbose and URL in verbose
    assert "found: websearch" not in verbose


def test_terminal_chimera_is_evidence_not_a_correction() -> None:
    out = render_terminal(result(chimera_verdict()), color=False, verbose=True)
    row = next(ln for ln in out.split("\n") if "maldacena1999" in ln)
    assert row.startswith("MAJOR") and "chimera" in row.lower() and "→" not in row
    assert "real work with this title and identifier (evidence, not a correction)" in out


def test_terminal_shows_llm_usage_only_when_an_llm_ran() -> None:
    out = render_terminal(result(llm_usage=USAGE, llm_model=MODEL), color=False)
    line = next(ln for ln in out.split("\n") if ln.startswith("LLM"))
    assert line.startswith(f"LLM {MODEL}: 5 requests, 1 cached, 1480 tokens")
    assert "web search 2 requests, 460 tokens" in line
    assert "LLM" not in render_terminal(result(), color=False)
    assert describe_usage(result()) == ""


# --------------------------------------------------------------------------- HTML


def _card(html: str, key: str) -> str:
    """The detail card of ``key`` (its <tr class="detail ...">)."""
    start = html.index('<article class="card', html.index(f'data-key="{key}"'))
    return html[start:html.index("</article>", start)]


def _row(html: str, key: str) -> str:
    start = html.index(f'data-key="{key}"')
    return html[start:html.index("</tr>", start)]


def test_html_badges_a_proposal_with_its_url_escaped() -> None:
    html = render_html(result())
    badge = f"proposed by {MODEL} — unconfirmed"
    assert badge in _row(html, "sadasivan2012")  # visible without opening the details
    card = _card(html, "sadasivan2012")
    assert badge in card
    escaped = URL.replace("&", "&amp;")
    assert f'href="{escaped}"' in card and URL not in html
    assert "Proposed record (unconfirmed)" in card and f"Proposed by {MODEL}" in card
    assert ">add<" not in card  # an unconfirmed lead suggests nothing to add
    assert badge not in _row(html, "maldacena1999")


def test_html_proposal_url_is_never_a_script_link() -> None:
    v = proposal_verdict()
    assert v.match is not None
    bad = replace(v, match=replace(v.match, url="javascript:alert(1)"))
    html = render_html(result(bad))
    assert "javascript:" not in html
    assert "(no URL given)" in html


def test_html_chimera_shows_the_real_work_and_no_correction() -> None:
    html = render_html(result())
    card = _card(html, "maldacena1999")
    assert "The real work with this title and identifier" in card
    assert "not a correction" in card
    assert "Suggested BibTeX" not in card and "Record found" not in card
    assert "Real work (crossref)" in card
    assert "borrows a real work" in _row(html, "maldacena1999")
    assert 'class="card evidence"' in card


def test_html_index_only_notice_once_and_flags() -> None:
    html = render_html(result())
    notice = re.search(r'<p class="notice"[^>]*data-index-only="(\d+)"', html)
    assert notice is not None and notice.group(1) == "2"
    assert "2 references are not in your local index" in html
    assert "not in the local index" in _row(html, "missing2020")
    assert 'class="notice"' not in render_html(result(proposal_verdict()))


def test_html_websearch_attempts_show_the_model() -> None:
    html = render_html(result(proposal_verdict()))
    card = _card(html, "sadasivan2012")
    assert re.search(r"<td>websearch <span class=\"sub\" data-model>\(" + re.escape(MODEL)
                     + r"\)</span></td>", card)
    # a web search that found nothing: the run's model is shown
    e = _entries()["missing2020"]
    q = _title_query(e)
    nothing = answer_from(q, {"found": False, "evidence": ""}, "", "other-model", "none")
    v = decide(e, [Answer("crossref", q, SourceStatus.NOT_FOUND), nothing], Settings())
    html = render_html(result(v, llm_model="other-model"))
    assert "data-model>(other-model)</span>" in html


def test_html_shows_usage_in_the_header() -> None:
    html = render_html(result(llm_usage=USAGE, llm_model=MODEL))
    m = re.search(r"<span data-usage>([^<]*)</span>", html)
    assert m is not None and unescape(m.group(1)).startswith(f"LLM {MODEL}: 5 requests")
    assert "data-usage" not in render_html(result())


# --------------------------------------------------------------------------- JSON


def test_json_marks_proposals_and_validates() -> None:
    data = json.loads(render_json(result()))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    by_key = {e["key"]: e for e in data["entries"]}
    assert by_key["sadasivan2012"]["match"]["proposed"] is True
    assert by_key["sadasivan2012"]["match"]["id"] == MODEL
    assert by_key["sadasivan2012"]["match"]["url"] == URL
    assert by_key["maldacena1999"]["match"]["proposed"] is False
    assert by_key["maldacena1999"]["suggested"] is None
    assert by_key["missing2020"]["match"] is None
    assert data["usage"] is None
    # schema 2: the codes tell the kinds apart without reading the reason
    assert by_key["sadasivan2012"]["code"] == "proposed-unconfirmed"
    assert by_key["maldacena1999"]["code"] == "chimera"
    assert by_key["missing2020"]["code"] == "index-only"
    for e in data["entries"]:
        for d in e["discrepancies"]:
            assert d["codes"][0] == d["code"]


def test_json_usage_totals_and_parts() -> None:
    data = json.loads(render_json(result(llm_usage=USAGE, llm_model=MODEL)))
    jsonschema.Draft202012Validator(SCHEMA).validate(data)
    usage = data["usage"]
    assert usage["model"] == MODEL
    assert (usage["requests"], usage["prompt_tokens"], usage["completion_tokens"],
            usage["total_tokens"], usage["failures"]) == (5, 1300, 180, 1480, 1)
    assert usage["parts"]["websearch"]["requests"] == 2
    assert set(usage["parts"]) == {"judge", "websearch"}


@pytest.mark.parametrize("path, bad", [
    (("usage", "requests"), -1),
    (("usage", "parts", "judge", "prompt_tokens"), "900"),
    (("entries", 0, "match", "proposed"), "yes"),
])
def test_schema_rejects_malformed_new_fields(path: tuple[object, ...], bad: object) -> None:
    data = json.loads(render_json(result(llm_usage=USAGE, llm_model=MODEL)))
    data["entries"].sort(key=lambda e: e["match"] is None)  # entry 0 has a match
    target = data
    for step in path[:-1]:
        target = target[step]  # type: ignore[index]
    target[path[-1]] = bad  # type: ignore[index]
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.Draft202012Validator(SCHEMA).validate(data)


# --------------------------------------------------------------------------- SARIF


def _sarif_results(run: RunResult) -> dict[str, dict[str, object]]:
    log = json.loads(render_sarif(run))
    return {r["properties"]["key"]: r for r in log["runs"][0]["results"] if "properties" in r}


def test_sarif_messages_say_what_each_kind_is() -> None:
    res = _sarif_results(result())
    for key in ("missing2020", "missing2021"):
        assert "re-run online" in res[key]["message"]["text"]  # type: ignore[index]
        assert "--index-complete" not in res[key]["message"]["text"]  # type: ignore[index]
        assert res[key]["properties"]["notInLocalIndex"] is True  # type: ignore[index]
    proposal = res["sadasivan2012"]
    assert f"Proposed by {MODEL}, unconfirmed: {URL}" in proposal["message"]["text"]  # type: ignore[index]
    assert proposal["properties"]["proposedBy"] == MODEL  # type: ignore[index]
    chimera = res["maldacena1999"]["message"]["text"]  # type: ignore[index]
    assert "(evidence, not a correction): https://doi.org/" in chimera
    assert "Suggested:" not in chimera
    assert "notInLocalIndex" not in res["maldacena1999"]["properties"]  # type: ignore[operator]


def test_terminal_survives_a_malformed_proposal_url() -> None:
    v = proposal_verdict()
    assert v.match is not None
    bad = replace(v, match=replace(v.match, url="http://[not-a-host/paper"))
    row = next(ln for ln in render_terminal(result(bad), color=False).split("\n")
               if "sadasivan2012" in ln)
    assert row.endswith(f"(proposed by {MODEL}, unconfirmed)") and "<" not in row
