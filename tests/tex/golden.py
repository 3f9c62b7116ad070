"""Turn a Project into the JSON shape stored in tests/tex/cases/*/expected.json."""

from __future__ import annotations

from typing import Any

from citecheck_tex.model import Project


def project_summary(p: Project) -> dict[str, Any]:
    """The comparable parts of a Project (paths relative to the case folder)."""
    return {
        "files": list(p.files),
        "resources": list(p.resources),
        "entries": [e.key for e in p.entries],
        "all_entries": [e.key for e in p.all_entries],
        "sites": [[s.key, s.file, s.line, s.command] for s in p.sites],
        # missing-field has its own tests (test_missing_field.py); the golden cases' short
        # entries lack fields on purpose
        "problems": sorted([pr.code, pr.key, pr.file, pr.line] for pr in p.problems
                           if pr.code != "missing-field"),
        "fields": {
            e.key: {
                "authors": [a.display() for a in e.authors],
                "literal": [a.family for a in e.authors if a.literal],
                "truncated": e.authors_truncated,
                "title": e.title, "year": e.year, "venue": e.venue, "volume": e.volume,
                "pages": e.pages, "doi": e.doi, "arxiv": e.arxiv, "texkey": e.texkey,
                "origin": e.origin.value, "line": e.line,
            }
            for e in p.entries
        },
    }
