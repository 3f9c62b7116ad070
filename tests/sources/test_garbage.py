"""Malformed API answers never raise out of a source: each becomes an answer."""

from __future__ import annotations

import asyncio

import pytest

from citecheck_tex.model import Answer, Query, QueryKind
from citecheck_tex.sources.base import make_source
from citecheck_tex.sources.http import open_http
from tests.replay import ReplayServer, Reply
from tests.sources.conftest import FAST, settings_for

BODIES = ["", "null", "[]", "{}", "[1, 2]", '{"message": []}', '{"message": {"items": 5}}',
          '{"hits": 5}', '{"hits": {"hits": [1, {"metadata": 3}]}}', '{"data": "x"}',
          '{"data": {"attributes": []}}', '{"results": {"a": 1}}', '{"result": []}',
          '{"message": {"title": 5, "issued": {"date-parts": [["x"]]}, "author": [3]}}',
          '<feed xmlns="http://www.w3.org/2005/Atom"><entry><id>oops',
          '<?xml version="1.0"?><feed xmlns="http://www.w3.org/2005/Atom"><entry>'
          '<id>http://arxiv.org/abs/1234.5678v1</id></entry></feed>']
KINDS = {
    "arxiv": (QueryKind.ARXIV, QueryKind.TITLE),
    "crossref": (QueryKind.DOI, QueryKind.TITLE),
    "datacite": (QueryKind.DOI,),
    "inspire": (QueryKind.ARXIV, QueryKind.DOI, QueryKind.TEXKEY, QueryKind.JOURNAL_REF,
                QueryKind.TITLE),
    "semanticscholar": (QueryKind.DOI, QueryKind.ARXIV, QueryKind.TITLE),
    "openalex": (QueryKind.DOI, QueryKind.TITLE),
    "dblp": (QueryKind.TITLE,),
}


@pytest.mark.parametrize("name", sorted(KINDS))
def test_garbage_bodies_become_answers(name: str) -> None:
    queries = []
    for kind in KINDS[name]:
        queries += [Query(kind, "1234.5678", journal="Phys.Rev.D", volume="1", page="2"),
                    Query(kind, "10.1000/x", journal="Phys.Rev.D", volume="1", page="3")]
    current = [""]
    with ReplayServer() as server:
        server.add_handler(lambda req: Reply.make(200, current[0],
                                                  content_type="application/json"))
        settings = settings_for(server, max_retries=0)

        async def go() -> list[list[Answer]]:
            out = []
            async with open_http(settings, limits=FAST) as http:
                src = make_source(name, http, settings)
                for body in BODIES:
                    current[0] = body
                    out.append(list(await src.fetch_batch(queries)))
            return out

        results = asyncio.run(go())
    assert len(results) == len(BODIES)
    for body, answers in zip(BODIES, results, strict=True):
        assert [a.query for a in answers] == queries, body
