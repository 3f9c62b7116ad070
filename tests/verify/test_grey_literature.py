"""Grey literature: a technical report, a thesis, an unpublished or submitted work, a
private communication. The scholarly sources list few of these, so finding no record
of one is no evidence it was fabricated: UNVERIFIED (``grey-literature``), never MAJOR.

The entries are real: the ``.bib`` ones from the shared corpus's ``lsst_refs.bib``
(lsst/lsst-texmf @ 4721872d, a hand-written bibliography of ESA/Gaia engineering
documents, standards and theses: online, each of these was a false MAJOR), the text
ones in the forms of INSPIRE's stored reference strings. The fabricated ``@misc`` is
HALLMARK's real-world hallucination (``gptzero_neurips2025.jsonl``): author, title and
year only, as LLMs write them; it stays MAJOR.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from citecheck_tex.model import Label, VerdictCode
from citecheck_tex.sources.http import open_http
from citecheck_tex.tex.bib import parse_bib_text
from citecheck_tex.tex.textlist import parse_text_list
from citecheck_tex.verify.policy import grey_kind, skip_reason
from tests.replay import ReplayServer, Reply, Request
from tests.sources.conftest import FAST, load, settings_for

LSST_BIB = r"""
@LiveLink{ecss:tailoring,
    author = "{ESA Publications Division}",
    title = "{P}roject {O}rganisation",
    institution = "{E}uropean {C}ooperation for {S}pace {S}tandardization",
    year = "2000",
    month = "April",
    livelinknumber = "ECSS-M-00-02A",
    livelinkshortnumber = "ECSS-M-00-02A"
}
@TechReport{gaia:llorbit,
    author = "Mignard, F.",
    title = "Considerations on the orbit of Gaia for simulations",
    institution = "Observatoire de la C{\^o}te D'Azur",
    year = "2002",
    note = "GAIA-FM-011"
}
@PhdThesis{crosta03,
    author = "Crosta, Maria Teresa",
    title = "Methods of relativistic astrometry for the analysis of astrometric data",
    school = "Torino/Padova, Italy",
    year = "2003"
}
@misc{gaia:jospriv,
    author = "de Bruijne, J.",
    year = "2004",
    note = "private communication"
}
@misc{hallmark,
    author = "Bernd Kerbl and Thomas M{\"u}ller and Paolo Favaro",
    title = "Efficient 3d gaussian splatting for real-time neural rendering",
    year = "2022"
}
"""

TEXT = """\
[1] L. Lehner, PhD Thesis
[2] C. Student, Ph.D. thesis, University of Geneva, 1998.
[3] CCSDS, Time Code Formats, Blue Book, Tech. Rep. CCSDS 301.0-B-3 (2002).
[4] E. Bruninx, High-energy nuclear reaction cross sections, CERN 64-17 vol.3, (unpublished) (1964).
[5] S. Johnson and W. Taylor, Flux vacua and their statistics, to appear.
[6] J. Smith, private communication (2019).
[7] D. Giulini, Lecture Notes in Phys. 721, 105 (2007).
[8] A. Writer, The thesis of the holographic bootstrap, Phys. Rev. D 97, 026004 (2018).
"""


def _bib() -> dict[str, Any]:
    entries, problems = parse_bib_text(LSST_BIB, "refs.bib")
    assert not [p for p in problems if p.level == "error"]
    return {e.key: e for e in entries}


def _text() -> dict[str, Any]:
    entries, _ = parse_text_list(TEXT, "refs.txt")
    return {e.key: e for e in entries}


def test_the_kinds_of_grey_documents() -> None:
    bib, text = _bib(), _text()
    assert grey_kind(bib["ecss:tailoring"]) == "document (@livelink)"
    assert grey_kind(bib["gaia:llorbit"]) == "technical report"
    assert grey_kind(bib["crosta03"]) == "thesis"
    assert grey_kind(bib["gaia:jospriv"]) == "private communication"
    # what free text says, also where the parser took it for the title
    assert [grey_kind(text[k]) for k in "12345"] == [
        "thesis", "thesis", "technical report", "work not yet published",
        "work not yet published"]


@pytest.mark.parametrize("which", ["hallmark", "7", "8"])
def test_articles_papers_and_hallucinated_misc_are_not_grey(which: str) -> None:
    """A fabricated ``@misc`` (author, title, year), Springer's "Lecture Notes in
    Physics" (a series every source indexes) and a title that only contains the word
    "thesis" are checked as any work: not finding them is evidence."""
    entry = _bib()[which] if which == "hallmark" else _text()[which]
    assert grey_kind(entry) is None


def test_an_identifier_is_checked_whatever_the_kind() -> None:
    (entry,), _ = parse_bib_text(
        "@phdthesis{t, author = {A. B}, title = {T}, school = {S}, year = {2001},"
        " eprint = {1234.5678}}", "refs.bib")
    assert grey_kind(entry) is None


def test_a_private_communication_without_a_title_is_skipped() -> None:
    assert "private communication" in (skip_reason(_bib()["gaia:jospriv"]) or "")
    assert "private communication" in (skip_reason(_text()["6"]) or "")
    assert skip_reason(_bib()["gaia:llorbit"]) is None


def _nothing_found(req: Request) -> Reply | None:
    """Every search answers with its service's envelope and no hits: INSPIRE's recorded
    search envelope emptied, Crossref's work-list envelope with no items."""
    if req.path == "/api/literature":
        body = dict(load("inspire.jsonl")[0]["body_json"])
        body["hits"] = {"total": 0, "hits": []}
        return Reply.make(200, body)
    if req.path == "/works":
        return Reply.make(200, {"status": "ok", "message-type": "work-list",
                                "message": {"items": [], "total-results": 0}})
    return None


def _check(entries: list[Any], **overrides: Any) -> dict[str, Any]:
    from citecheck_tex.pipeline import check_entries_async

    with ReplayServer() as server:
        server.add_handler(_nothing_found)
        settings = settings_for(server, sources=("inspire", "crossref"), cache_path="none",
                                max_retries=0, **overrides)

        async def go() -> list[Any]:
            async with open_http(settings, limits=FAST) as http:
                verdicts, _, _ = await check_entries_async(entries, settings, http=http)
                return verdicts
        return {v.entry.key: v for v in asyncio.run(go())}


def test_online_no_record_of_a_grey_document_is_unverified_not_major() -> None:
    bib = _bib()
    got = _check(list(bib.values()))
    for key in ("ecss:tailoring", "gaia:llorbit", "crosta03"):
        assert got[key].label is Label.UNVERIFIED, (key, got[key].reason)
        assert got[key].code is VerdictCode.GREY_LITERATURE
        assert got[key].facts["was"] == "no-record"
        assert "check it by hand" in got[key].reason
    assert "thesis" in got["crosta03"].reason
    assert got["gaia:jospriv"].label is Label.SKIPPED
    # the same answers make the hallucinated @misc MAJOR: the rule is about the kind
    assert got["hallmark"].label is Label.MAJOR, got["hallmark"].reason
    assert got["hallmark"].code is VerdictCode.NO_RECORD


def test_free_text_grey_references_online() -> None:
    text = _text()
    got = _check([text[k] for k in ("2", "3", "5", "8")])
    for key in ("2", "3", "5"):
        assert got[key].code is VerdictCode.GREY_LITERATURE, (key, got[key].reason)
    assert got["8"].label is Label.MAJOR


def test_the_terminal_counts_grey_literature_by_kind_instead_of_a_line_each() -> None:
    from dataclasses import replace

    from citecheck_tex.report.terminal import render_terminal
    from tests.report.factories import run_result

    base = run_result()
    kinds = ("technical report", "technical report", "thesis")
    vs = tuple(replace(v, label=Label.UNVERIFIED, discrepancies=(), suggested=None,
                       match=None, code=VerdictCode.GREY_LITERATURE,
                       facts={"kind": kind, "was": "no-record"})
               for v, kind in zip(base.verdicts, kinds, strict=False))
    res = replace(base, verdicts=vs)
    out = render_terminal(res, color=False)
    assert ("3 UNVERIFIED grey literature no scholarly source lists (technical report 2, "
            "thesis 1; --verbose lists them)") in out
    assert "check it by hand" not in out
    assert render_terminal(res, color=False, verbose=True).count("check it by hand") == 3


def test_online_an_entry_with_nothing_to_look_up_by_says_so() -> None:
    """lsst_refs.bib's 'gaia:elevreductcalc' (author and a note, no title): online it had
    said "offline with no local record"."""
    (entry,), _ = parse_bib_text("@misc{gaia:elevreductcalc, author = {Lammers, U.},\n"
                                 "  note = {see also the ground station visibility page}}",
                                 "refs.bib")
    got = _check([entry])["gaia:elevreductcalc"]
    assert got.code is VerdictCode.NO_SOURCE
    assert "look it up by" in got.reason
    assert "offline" not in got.reason
