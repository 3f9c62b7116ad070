"""The prose of a verdict, rendered from its code and data.

The policy decides a :class:`~citecheck_tex.model.VerdictCode` and records the data
the sentence needs (``Verdict.facts``: source names, record ids, counts, the
reviewer's finding, the LLM's opinion); this module is the one place that turns
them into English. Code that needs to know *why* a verdict was given compares
``verdict.code``, never this text (it may be reworded).

Run-level advice (what to do about references a partial local index cannot match)
is part of the sentence unless a report gives it once per run
(``render_reason(verdict, advice=False)``).

Fact names (all values are text):

``sources``      sources that failed, comma-separated
``record``       "source id" of the record a verdict names without offering it as a match
``fields``       the fields a closest record differs in ("year, pages")
``identity``     the closest record's identity ("0.42")
``other_work``   the title (or id) of the work a cited identifier resolves to (on a
                 MINOR: the identifier of another paper, the work found by title)
``resolved``     "misfit" / "other-paper" variants of source-failed and index-only
``tau_exact``    the threshold an EXACT's score fell below
``authors``      the author-match note of a chimera
``why``          why an entry was skipped or read too poorly (a clause)
``issue``        what the free-text parser found wrong with its reading
``was``          the code of the MAJOR verdict an unreliable-parse or too-few-sources
                 verdict is not called (its sentence is part of theirs)
``so_far``       the code of the verdict an unsettled one had reached when retrieval
                 stopped; ``deadline_s`` the deadline
``n_discrepancies`` how many discrepancies a replaced verdict had (see
                 :func:`wrapped_facts`)
``missing``      the sources whose answer MAJOR needs and did not get
``arxiv_unknown`` a cited arXiv id arXiv itself does not know (on a MINOR)
``n``, ``ids``   how many works tie, and their "source id" list
``fits``         "fits" / "nearly fits" for a proposal
``editions``     the other editions found ("inspire 1 (2018), ...")
``llm_*``        the LLM judge's opinion: ``llm_model``, ``llm_label``, ``llm_why``,
                 ``llm_keep`` (why the label was kept), ``llm_was`` (the
                 deterministic label it overruled)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from typing import Any

# This module imports nothing of the package: ``model.Verdict.reason`` calls it, so
# ``model`` must stay the one importer (no cycle). A verdict is typed ``Verdict`` by
# name only (a ``citecheck_tex.model.Verdict``), codes are looked up by their values.
Verdict = Any

#: What to do about a reference a partial local index cannot match (offline). It never
#: suggests ``--index-complete``: declaring a general-purpose index complete turns every
#: work it lacks into a false MAJOR (issue 14).
INDEX_HINT = "re-run online (without --offline) to check it"


def describe_fields(discrepancies: Sequence[Any]) -> str:
    """The fields of ``discrepancies``, once each, in order ("year, pages"), or "no field"."""
    return ", ".join(dict.fromkeys(d.field for d in discrepancies)) or "no field"


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _fields(v: Verdict) -> str:
    return v.facts.get("fields") or describe_fields(v.discrepancies)


def _match_id(v: Verdict) -> tuple[str, str]:
    m = v.match
    if m is not None:
        return m.source, m.id
    src, _, rid = v.facts.get("record", "? ?").partition(" ")
    return src, rid


def _hint(advice: bool, lead: str) -> str:
    """``lead`` + the index advice, or just the end of the sentence without it."""
    return f"{lead}{INDEX_HINT}." if advice else "."


def _exact(v: Verdict, advice: bool) -> str:
    src, rid = _match_id(v)
    return f"Every stated field agrees with {src} record {rid}."


def _exact_sparse(v: Verdict, advice: bool) -> str:
    return (_exact(v, advice) + " The citation states little to compare "
            f"(score {v.score:.1f} below {v.facts.get('tau_exact', '?')}).")


def _record(v: Verdict) -> str:
    """"source id" of the record the verdict names (its match, or the one it recorded)."""
    if v.match is not None:
        return f"{v.match.source} {v.match.id}"
    return str(v.facts.get("record", "? ?"))


def wrapped_facts(verdict: Verdict) -> dict[str, str]:
    """The facts of ``verdict`` plus what its sentence reads from the verdict itself
    (record, differing fields), for a verdict that replaces it and clears those
    (too-few-sources, unsettled-*): its sentence stays renderable from the facts alone."""
    own = {"fields": describe_fields(verdict.discrepancies),
           "n_discrepancies": str(len(verdict.discrepancies))}
    if verdict.match is not None:
        own["record"] = f"{verdict.match.source} {verdict.match.id}"
    return {**own, **verdict.facts}


def _field_mismatch(v: Verdict, advice: bool) -> str:
    src, rid = _match_id(v)
    note = (f" (the cited identifier resolves to another paper ({v.facts['other_work']!r}))"
            if v.facts.get("other_work") else "")
    if v.facts.get("arxiv_unknown"):
        note = f" (arXiv has no paper {v.facts['arxiv_unknown']})"
    n = int(v.facts.get("n_discrepancies", len(v.discrepancies)))
    verb = "contradicts" if n == 1 else "contradict"
    return f"Real work found in {src} ({rid}), but {_fields(v)} {verb} it{note}."


def _no_record(v: Verdict, advice: bool) -> str:
    return "No record matches this citation in any source consulted."


def _no_match(v: Verdict, advice: bool) -> str:
    return ("No record matches: the closest one found differs in "
            f"{_fields(v)} (identity {v.facts.get('identity', '?')}).")


def _ambiguous_no_match(v: Verdict, advice: bool) -> str:
    f = v.facts
    return (f"No record matches: {f.get('n', '?')} works by the cited authors "
            f"({f.get('ids', '')}) fit equally badly (each differs in {_fields(v)}).")


def _resolves(f: Mapping[str, str]) -> str:
    return f"the cited identifier resolves to {f.get('other_work', '?')!r}"


def _identifier_mismatch(v: Verdict, advice: bool) -> str:
    return (_cap(_resolves(v.facts)) + ", which the title and authors do not describe, and "
            "no record matches them (hijacked identifier).")


def _chimera(v: Verdict, advice: bool) -> str:
    return (f"A chimera: the work exists ({_record(v)}) but most of the cited authors are "
            f"not its authors ({v.facts.get('authors', '')}).")


def _source_failed(v: Verdict, advice: bool) -> str:
    f = v.facts
    sources = f.get("sources", "")
    if f.get("resolved") == "other-paper":
        return ("The identifier resolves to another paper and a source that could have "
                "found the work failed.")
    if f.get("resolved") == "misfit":
        return f"No record fits this citation well and a source failed: {sources}."
    return f"No record found and {sources} could not be consulted."


def _no_source(v: Verdict, advice: bool) -> str:
    if v.facts.get("why"):  # online: nothing could be asked
        return f"No source could be consulted: {v.facts['why']}."
    return "No source could be consulted (offline with no local record)."


def _index_only(v: Verdict, advice: bool) -> str:
    f = v.facts
    if f.get("resolved") == "other-paper":
        return (_cap(_resolves(f)) + ", which the title and authors do not describe, and no "
                "record matches them (hijacked identifier); the cited work itself is not in "
                "the local index, so this may be a real paper with a wrong identifier"
                + _hint(advice, ": "))
    if f.get("resolved") == "misfit":
        return ("No record in the local index fits this citation (the closest differs "
                f"in {_fields(v)}), and no online source was consulted" + _hint(advice, "; "))
    return "Not in the local index, and no online source was consulted" + _hint(advice, "; ")


def _index_incomplete(v: Verdict, advice: bool) -> str:
    return ("Not in the local index, which is not complete for this paper; no online "
            "source was consulted" + _hint(advice, "; "))


def _poor_parse(v: Verdict, advice: bool) -> str:
    why = v.facts.get("why", "")
    if v.facts.get("resolved") == "misfit":
        return (f"No record fits this citation well (the closest differs in {_fields(v)}), "
                f"but {why}: not enough to call it fabricated.")
    return f"No record found, but {why}: not enough to call it fabricated."


def _would_have_been(v: Verdict, advice: bool, key: str = "was") -> str:
    """The sentence of the verdict ``v`` replaced (its code in ``facts[key]``)."""
    was = next((c for c in type(v.code) if c.value == v.facts.get(key)), None)
    if was is None or was is v.code:
        return ""
    facts = {k: val for k, val in v.facts.items() if k != key}
    return _RENDER[was.value](replace(v, label=was.label, code=was, facts=facts), advice)


def _unreliable_parse(v: Verdict, advice: bool) -> str:
    head = (f"Could not read the reference reliably ({v.facts.get('issue', '')}); not called "
            "an error.")
    was = _would_have_been(v, advice)
    return f"{head} {was}" if was else head


def _too_few_sources(v: Verdict, advice: bool) -> str:
    tail = (f"Not enough sources answered to call it fabricated "
            f"({v.facts.get('missing', '?')} did not); not MAJOR.")
    was = _would_have_been(v, advice)
    return f"{was} {tail}" if was else tail


def _grey_literature(v: Verdict, advice: bool) -> str:
    kind = v.facts.get("kind", "document")
    head = (f"No scholarly source lists this {kind}, but they list few of its kind: "
            "not called fabricated; check it by hand")
    return head + (" (or accept it with `citecheck-tex ignore`)." if advice else ".")


def _unsettled(v: Verdict, advice: bool) -> str:
    why = (f"the run's deadline ({v.facts.get('deadline_s', '?')} s) passed"
           if v.code.value == "unsettled-deadline" else "the run was interrupted")
    so_far = _would_have_been(v, advice, "so_far")
    if so_far:
        return f"Not settled: {why} before every source was asked. So far: {so_far}"
    return f"Not settled: {why} before any source answered."


def _proposed(v: Verdict, advice: bool) -> str:
    src, rid = _match_id(v)
    url = v.match.url if v.match is not None else ""
    if not url.lower().startswith(("http://", "https://")):
        url = ""  # only a web link is worth naming (never a script link)
    return (f"No scholarly source found this work; {src} ({rid}) proposes "
            f"one{' at ' + url if url else ''} that {v.facts.get('fits', 'fits')}, but no "
            "authoritative record confirms it.")


def _another_edition(v: Verdict, advice: bool) -> str:
    return (f"The cited edition ({v.entry.year}) of this recurring title is not among "
            f"the records found; another edition exists: {v.facts.get('editions', '')}.")


def _ambiguous(v: Verdict, advice: bool) -> str:
    f = v.facts
    return (f"{f.get('n', '?')} works by the cited authors fit this incomplete reference "
            f"equally ({f.get('ids', '')}); add the volume and page to tell which is meant.")


def _ambiguous_inconclusive(v: Verdict, advice: bool) -> str:
    f = v.facts
    lead = (f"{f.get('n', '?')} works by the cited authors ({f.get('ids', '')}) differ from "
            f"it in {_fields(v)}, and the cited work itself may be missing from what was "
            "searched")
    if f.get("sources"):
        return f"{lead}: a source failed ({f['sources']})."
    return lead + _hint(advice, ": ")


def _cannot_confirm(v: Verdict, advice: bool) -> str:
    return (f"The closest record ({v.facts.get('record', '?')}) contradicts nothing the "
            "citation states but cannot confirm it (it lacks the fields the citation is "
            "identified by).")


def _not_scholarly(v: Verdict, advice: bool) -> str:
    return _cap(v.facts.get("why", "not a scholarly work")) + "."


def _web_page(v: Verdict, advice: bool) -> str:
    return ("A web page (a URL, no DOI, arXiv id or venue) that no scholarly record "
            "matches; not verified.")


def _ignored(v: Verdict, advice: bool) -> str:
    why = v.facts.get("why")
    return f"ignored: {why}" if why else "ignored by the user"


def _llm_overruled(v: Verdict, advice: bool) -> str:
    f = v.facts
    why = f": {f['llm_why']}" if f.get("llm_why") else ""
    return (f"LLM {f.get('llm_model', '?')} judged {v.label.value} "
            f"(deterministic: {f.get('llm_was', '?')}){why}")


_RENDER: dict[str, Callable[[Verdict, bool], str]] = {
    "exact": _exact,
    "exact-sparse": _exact_sparse,
    "field-mismatch": _field_mismatch,
    "no-record": _no_record,
    "no-match": _no_match,
    "ambiguous-no-match": _ambiguous_no_match,
    "identifier-mismatch": _identifier_mismatch,
    "chimera": _chimera,
    "source-failed": _source_failed,
    "no-source": _no_source,
    "index-only": _index_only,
    "index-complete-refuted": _index_incomplete,
    "poor-parse": _poor_parse,
    "unreliable-parse": _unreliable_parse,
    "too-few-sources": _too_few_sources,
    "grey-literature": _grey_literature,
    "unsettled-deadline": _unsettled,
    "unsettled-interrupted": _unsettled,
    "proposed-unconfirmed": _proposed,
    "another-edition": _another_edition,
    "ambiguous": _ambiguous,
    "ambiguous-inconclusive": _ambiguous_inconclusive,
    "cannot-confirm": _cannot_confirm,
    "not-scholarly": _not_scholarly,
    "web-page": _web_page,
    "ignored": _ignored,
    "llm-exact": _llm_overruled,
    "llm-minor": _llm_overruled,
    "llm-major": _llm_overruled,
}


def _llm_opinion(v: Verdict) -> str:
    """The LLM's opinion on a verdict whose label it did not change, or ""."""
    f = v.facts
    if not f.get("llm_label") or v.code.value in ("llm-exact", "llm-minor", "llm-major"):
        return ""
    who = f"LLM {f.get('llm_model', '?')}"
    why = f": {f['llm_why']}" if f.get("llm_why") else ""
    if f.get("llm_keep"):
        return f" {who} says {f['llm_label']}{why} ({f['llm_keep']})."
    return f" {who} agrees ({f['llm_label']}){why}"


def render_reason(verdict: Verdict, *, advice: bool = True) -> str:
    """The reason of ``verdict`` as English, from its code and facts.

    ``advice=False`` leaves out run-level advice (re-run online) that a report gives
    once for every reference it concerns.
    """
    return str(_RENDER[verdict.code.value](verdict, advice)) + _llm_opinion(verdict)
