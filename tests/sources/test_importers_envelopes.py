"""Whole-file envelopes the index importer accepts besides one record per line.

Crossref's public data release ships files of the form ``{"items": [work, ...]}``
and users save OpenAlex API list responses (``{"meta": ..., "results": [...]}``).
The records inside are real (the ``message.items`` of a recorded Crossref works search and the
bundled OpenAlex works excerpt); the envelopes are the documented ones, written
here around them.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path

from citecheck_tex.sources.importers import classify_json
from citecheck_tex.sources.local_index import LocalIndex
from tests.sources.conftest import load

OPENALEX = Path(__file__).resolve().parents[1] / "index" / "data" / "openalex_works.jsonl"


def _crossref_items() -> list[dict[str, object]]:
    """A real ``message.items`` list of a Crossref works search (refchecker's cache)."""
    for rec in load("crossref_payloads.jsonl"):
        body = rec.get("body_json")
        if isinstance(body, list) and len(body) > 1 and all(
                isinstance(i, dict) and "DOI" in i for i in body):
            return body
    raise AssertionError("no recorded Crossref work list")


def test_crossref_release_file_imports(tmp_path: Path) -> None:
    items = _crossref_items()
    path = tmp_path / "0.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write(json.dumps({"items": items}))
    assert classify_json({"items": items}) == "crossref"
    with LocalIndex.open(tmp_path / "i.sqlite") as index:
        stats = index.add_file(path)
        assert stats.records == len(items) and stats.records > 1
        doi = str(items[0]["DOI"]).lower()
        [rec] = index.by_doi(doi)[:1]
        assert rec.doi == doi


def test_openalex_list_response_imports(tmp_path: Path) -> None:
    works = [json.loads(line) for line in OPENALEX.read_text(encoding="utf-8").splitlines()]
    path = tmp_path / "openalex_page.json"
    path.write_text(json.dumps({"meta": {"count": len(works)}, "results": works}),
                    encoding="utf-8")
    with LocalIndex.open(tmp_path / "i.sqlite") as index:
        assert index.add_file(path).records == len(works)


def test_an_items_list_of_something_else_is_not_crossref() -> None:
    assert classify_json({"items": [{"name": "x"}]}) == ""
    assert classify_json({"results": [{"id": "x"}]}) == ""
