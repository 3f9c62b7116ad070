"""A citecheck-tex source serving a group's records from a JSON file.

The file is a list of ``{"id", "title", "authors": ["Family, Given", ...], "year",
"journal", "volume", "pages", "doi", "arxiv", "url"}``. Its path is the source's
"base URL": ``[base_urls] groupdb = "/path/to/records.json"`` in citecheck.toml.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from citecheck_tex import Answer, Person, Query, QueryKind, Record, Settings, SourceStatus


def _words(text: str) -> str:
    return " ".join(re.findall(r"\w+", text.casefold()))


def _person(name: str) -> Person:
    family, _, given = name.partition(",")
    return Person(family=family.strip(), given=given.strip())


class GroupSource:
    """Answers DOI, arXiv and title queries from the group's JSON file."""

    name = "groupdb"
    kinds = frozenset({QueryKind.DOI, QueryKind.ARXIV, QueryKind.TITLE})
    version = "1"

    def __init__(self, http: Any, settings: Settings) -> None:
        # `http` is the run's shared HTTP stack (unused: this source reads a file)
        path = settings.base_url(self.name)
        if not path:
            raise ValueError("set [base_urls] groupdb to the records file")
        data = json.loads(Path(path).read_text(encoding="utf-8"))
        self.records = [self._record(item) for item in data]

    def _record(self, item: dict[str, Any]) -> Record:
        return Record(
            source=self.name, id=str(item["id"]), url=item.get("url", ""),
            title=item.get("title", ""),
            authors=tuple(_person(a) for a in item.get("authors", [])),
            year=str(item.get("year", "")), venue=item.get("journal", ""),
            volume=item.get("volume", ""), pages=item.get("pages", ""),
            doi=item.get("doi", "").lower(), arxiv=item.get("arxiv", ""))

    async def fetch(self, query: Query) -> Answer:
        """Records whose identifier or title equals the query's."""
        if query.kind is QueryKind.DOI:
            hits = [r for r in self.records if r.doi and r.doi == query.value.lower()]
        elif query.kind is QueryKind.ARXIV:
            hits = [r for r in self.records if r.arxiv and r.arxiv == query.value]
        else:
            hits = [r for r in self.records if _words(r.title) == _words(query.value)]
        status = SourceStatus.FOUND if hits else SourceStatus.NOT_FOUND
        return Answer(self.name, query, status, records=tuple(hits))

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """One answer per query, in order."""
        return [await self.fetch(q) for q in queries]
