"""``check``, ``watch``, ``gate`` and the latexmk hook give the same verdicts on the
sample papers: they share one check (``pipeline.check_project``), one project loader
and one exit policy. Also: watch keeps what the pipeline adds to a run (texkey hints)."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest

from citecheck_tex.commands import check, gate, latexmk, watch
from citecheck_tex.config import Settings, load_settings
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


@pytest.mark.parametrize("sample", PAPERS, ids=lambda p: p.name)
def test_every_command_gives_the_same_verdicts(sample: Path, sample_index: Path,
                                               tmp_path: Path) -> None:
    folder = tmp_path / sample.name
    shutil.copytree(sample, folder, ignore=shutil.ignore_patterns("citecheck-report"))
    paper = folder / "paper.tex"

    def settings(name: str) -> Settings:  # the paper's citecheck.toml applies to each
        return load_settings(folder, _options(sample_index, tmp_path / name))

    by_check = check.run(paper, settings("check"))
    expected = json.loads((sample / "expected.json").read_text(encoding="utf-8"))
    assert {k: v[0] for k, v in _verdicts(by_check.result).items()} == expected["labels"]

    session = watch.run(paper, settings("watch"))
    assert session.result is not None
    gate_report = gate.run(folder, settings("gate"))
    assert gate_report.result is not None
    hook_out = tmp_path / "latexmk"
    status = latexmk.run_hook([str(paper), "--offline", "--index", str(sample_index),
                               "--cache", "none", "--out", str(hook_out), "--format", "json"])
    hook = json.loads((hook_out / "report.json").read_text(encoding="utf-8"))

    want = _verdicts(by_check.result)
    assert _verdicts(session.result) == want
    assert _verdicts(gate_report.result) == want
    assert {e["key"]: e["label"] for e in hook["entries"]} == {k: v[0] for k, v in want.items()}
    assert status == by_check.status
    assert [p.code for p in session.result.problems] == [p.code for p in by_check.result.problems]


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
