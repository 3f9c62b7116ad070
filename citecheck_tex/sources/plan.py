"""The retrieval cascade's order, as data.

Identifiers come first because an identifier either pins the record down or,
when it resolves to a paper that does not fit, is itself evidence (kept for
the reviewer pass). Title search comes last because it is the most expensive
and the least precise question. Within a kind, the order is:

- **local** first everywhere: it is free, offline and instant, and users fill
  it with dumps they trust.
- **ARXIV**: arXiv itself is the authority for its ids (batched ``id_list``);
  INSPIRE also knows the journal version of hep papers; Semantic Scholar's
  batch endpoint covers the rest.
- **DOI**: Crossref registers most journal DOIs (batched ``filter=doi:``);
  DataCite registers the rest (arXiv's ``10.48550`` DOIs, Zenodo, datasets);
  INSPIRE and OpenAlex are independent confirmations when the first two fail.
- **TEXKEY**: only INSPIRE issues texkeys (``Maldacena:1997re``).
- **REPORT**: laboratory and collaboration report numbers (``CMS-PAS-HIG-11-024``,
  ``CERN-TH-2102``): INSPIRE indexes them for the HEP literature, including the
  collaboration notes that have no arXiv id or DOI.
- **JOURNAL_REF**: most physics citations carry no title; INSPIRE indexes
  (journal, volume, page) for the whole HEP literature.
- **AUTHOR_YEAR**: a title-less reference without identifiers whose journal
  reference is incomplete or corrupted (``Phys. Rev. D (2005)``, a wrong
  volume) asks no question above that can find it; first author + year (+ the
  journal, when stated) gives a few candidates and the verifier picks the one
  whose journal, volume, page and authors fit. It comes after JOURNAL_REF
  (an intact pubnote settles the reference with one precise lookup) and before
  TITLE (such references have no title). The local index answers from its
  ``author_year`` table; INSPIRE with ``fa NAME and date YEAR and j JOURNAL``.
- **TITLE**: Crossref's ``query.bibliographic`` is the broadest; INSPIRE is
  precise for physics; Semantic Scholar's match endpoint and OpenAlex cover
  preprints and other fields; DBLP is last (computer science, strict rate
  limits). arXiv itself can search titles but is not asked: at one request per
  3 s for the whole process it would be the slowest step, and Semantic Scholar,
  OpenAlex and INSPIRE index arXiv preprints. The optional LLM web search (``websearch``, off unless configured)
  is the very last resort, alone in its step: it is slow, it costs tokens, and
  an LLM can hallucinate, so it only *proposes* a work. It is asked only about
  references every scholarly source failed to settle, and a DOI or arXiv id it
  proposes is then looked up in the DOI/ARXIV sources above before it counts
  (see :func:`citecheck_tex.pipeline.run_cascade`).

Sources in one *group* (a nested tuple) are asked at the same time: they
serve only the references nobody settled before them (mostly fabricated
ones, which every source must be asked about before MAJOR), and asking them
one after the other would make the run as slow as the sum of their rate
limits instead of the slowest one.
"""

from __future__ import annotations

from collections.abc import Mapping

from citecheck_tex.model import QueryKind

#: Order of asking, per query kind.
PLAN: Mapping[QueryKind, tuple[str | tuple[str, ...], ...]] = {
    QueryKind.ARXIV: ("local", "arxiv", "inspire", "semanticscholar", "ads"),
    QueryKind.DOI: ("local", "crossref", "datacite", "inspire", "openalex", "semanticscholar", "ads"),
    QueryKind.TEXKEY: ("local", "inspire"),
    QueryKind.REPORT: ("local", "inspire"),
    QueryKind.JOURNAL_REF: ("local", "inspire"),
    QueryKind.AUTHOR_YEAR: ("local", "inspire"),
    QueryKind.TITLE: ("local", "crossref", "inspire", ("semanticscholar", "openalex", "dblp", "ads"),
                      "websearch"),
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


def groups_for(kind: QueryKind, enabled: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """Groups of sources to ask for ``kind``, in order, restricted to ``enabled``.

    Sources within a group are asked concurrently.
    """
    out = []
    for step in PLAN[kind]:
        group = (step,) if isinstance(step, str) else step
        names = tuple(s for s in group if s in enabled)
        if names:
            out.append(names)
    return tuple(out)
