"""Watch mode runs the pipeline's own check (``pipeline.check_project`` with the known
verdicts handed in): it keeps what the pipeline adds to a run (texkey hints)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from citecheck_tex.commands import check, watch
from citecheck_tex.config import Settings
from citecheck_tex.model import RunResult

from .conftest import bib_entry, load_records, tex_source

ROOT = Path(__file__).resolve().parents[2]
PAPERS = sorted(p for p in (ROOT / "sample_papers").iterdir() if (p / "expected.json").is_file())


@pytest.fixture(scope="module")
def sample_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    from citecheck_tex.sources.local_index import import_files

    path = tmp_path_factory.mktemp("samples") / "index.sqlite"
    files = sorted((ROOT / "sample_papers").glob("*/index_records*"))
    assert files, "the sample papers ship their index records"
    import_files(path, files)
    return path


def _verdicts(result: RunResult) -> dict[str, tuple[Any, ...]]:
    return {v.entry.key: (v.label.value, v.reason, v.match.id if v.match else "",
                          tuple((d.field, d.cited, d.found) for d in v.discrepancies))
            for v in result.verdicts}


def _options(index: Path, out: Path) -> dict[str, Any]:
    return {"offline": True, "index_path": str(index), "cache_path": "none",
            "out_dir": str(out), "formats": "json"}


def test_watch_keeps_the_texkey_hint_of_the_check(tmp_path: Path, index_path: Path) -> None:
    """An undefined key that is an INSPIRE texkey in the index is named by ``check``; watch
    once rebuilt the run itself and dropped that hint."""
    recs = load_records()
    folder = tmp_path / "paper"
    folder.mkdir()
    keys = [r["texkeys"][0] for r in recs]  # type: ignore[index]
    (folder / "refs.bib").write_text("\n".join(bib_entry(r) for r in recs[1:]), encoding="utf-8")
    (folder / "paper.tex").write_text(tex_source(keys), encoding="utf-8")
    settings = Settings(offline=True, index_complete=True, index_path=str(index_path),
                        cache_path="none", formats=("json",), out_dir=str(tmp_path / "out"))
    by_check = check.run(folder / "paper.tex", settings).result
    hinted = [p.message for p in by_check.problems if p.code == "undefined-key"]
    assert len(hinted) == 1 and "INSPIRE texkey" in hinted[0] and keys[0] in hinted[0]

    session = watch.run(folder / "paper.tex", settings)
    assert session.result is not None
    assert [p.message for p in session.result.problems if p.code == "undefined-key"] == hinted
    session.run_once()  # a second cycle reuses every verdict and keeps the hint
    assert [p.message for p in session.result.problems if p.code == "undefined-key"] == hinted


def test_known_verdicts_are_reused_but_never_an_ignored_ones(paper: Path,
                                                             settings: Settings) -> None:
    """``check_project(known=...)``: unchanged entries are not verified again; an entry
    ignored in the first run is verified once its ignore line is gone; --refresh
    reuses nothing."""
    from dataclasses import replace

    from citecheck_tex import ignore, pipeline
    from citecheck_tex.tex.project import load_project

    asked: list[list[str]] = []

    def spy(entries: Any, s: Settings) -> Any:
        asked.append([e.key for e in entries])
        return watch.default_check(entries, s)

    project = load_project(paper)
    keys = [e.key for e in project.entries]
    ignore.add_ignore(paper.parent, project.entries[0], "checked by hand")
    first = pipeline.check_project(project, settings, verify=spy)
    assert asked == [keys] and first.result.verdicts[0].label.value == "SKIPPED"
    again = pipeline.check_project(project, settings, known=first.known, verify=spy)
    assert asked[1:] == [[keys[0]]]  # only the ignored entry (skipped at no cost)
    assert _verdicts(again.result) == _verdicts(first.result)

    (paper.parent / ignore.IGNORE_FILE).unlink()
    freed = pipeline.check_project(project, settings, known=again.known, verify=spy)
    assert asked[2:] == [[keys[0]]] and freed.result.verdicts[0].label.value == "EXACT"
    pipeline.check_project(project, replace(settings, refresh=True), known=freed.known,
                           verify=spy)
    assert asked[3:] == [keys]
