"""Fixtures of the source tests: a replay server and settings pointing at it."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from citecheck_tex.config import Settings
from citecheck_tex.model import Answer, Query
from citecheck_tex.sources.base import make_source
from citecheck_tex.sources.http import HostLimit, open_http
from tests.replay import ReplayServer

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "api"

#: Small limits: fast tests, same code path as real runs.
FAST: dict[str, HostLimit] = {
    name: HostLimit(1000, 1.0, concurrency=8, backoff_base=0.01, backoff_max=0.05,
                    max_retry_after=2.0)
    for name in ("arxiv", "crossref", "datacite", "inspire", "semanticscholar", "openalex",
                 "dblp", "ads")
}


def load(name: str) -> list[dict[str, Any]]:
    """The JSON lines of a fixture file."""
    with (FIXTURES / name).open(encoding="utf-8") as fh:
        return [json.loads(line) for line in fh]


def recorded(name: str, url_part: str, status: int | None = None) -> dict[str, Any]:
    """The first exchange of ``name`` whose URL contains ``url_part``."""
    for rec in load(name):
        if url_part in (rec.get("request_url") or "") and (status is None
                                                             or rec["status"] == status):
            return rec
    raise KeyError(url_part)


def settings_for(server: ReplayServer, **overrides: Any) -> Settings:
    """Settings pointing every source at the replay server."""
    base = replace(Settings(), base_urls=server.base_urls(), timeout_s=2.0, max_retries=2)
    return replace(base, **overrides)


@pytest.fixture
def server() -> Iterator[ReplayServer]:
    """A running replay server."""
    with ReplayServer() as srv:
        yield srv


def ask(server: ReplayServer, name: str, queries: list[Query], **overrides: Any) -> list[Answer]:
    """Ask source ``name`` (through the real Http stack) the ``queries`` as one batch."""
    async def go() -> list[Answer]:
        settings = settings_for(server, **overrides)
        async with open_http(settings, limits=FAST) as http:
            return await make_source(name, http, settings).fetch_batch(queries)
    return asyncio.run(go())


#: A real PLoS ONE paper whose Crossref record is in ``crossref.jsonl``, and its
#: BibTeX entry cited without the DOI (so only a title search can find it).
PONE_DOI = "10.1371/journal.pone.0033693"
PONE_TITLE = ("Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of Microglia "
              "in the Basal Ganglia of Mice")
PONE_BIB = r"""
@article{sadasivan2012,
  author = {Sadasivan, Shankar and Pond, Brooks B. and Pani, Amar K. and Qu, Chunxu and
            Jiao, Yun and Smeyne, Richard J.},
  title = {Methylphenidate Exposure Induces Dopamine Neuron Loss and Activation of
           Microglia in the Basal Ganglia of Mice},
  journal = {PLoS ONE}, year = {2012}, volume = {7}, pages = {e33693}}
"""
