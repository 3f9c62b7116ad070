"""The .citecheck-ignore file: ignores expire when the entry changes."""

from __future__ import annotations

from pathlib import Path

import pytest

from citecheck_tex import ignore, pipeline
from citecheck_tex.commands import ignore as ignore_command
from citecheck_tex.config import Settings
from citecheck_tex.ignore import IGNORE_FILE, apply_ignores, load_ignores, parse_ignore_text
from citecheck_tex.model import Entry, Label
from citecheck_tex.tex.project import load_project

from .conftest import FAKE_AUTHORS, bib_entry, load_records

WRONG_TITLE = "Quantum error correction with topological codes in six dimensions"


def _entry(title: str = "A title") -> Entry:
    return Entry(key="k1", entry_type="article", file="refs.bib", line=3,
                 fields={"title": title, "year": "2001"}, title=title, year="2001")


def test_parse_comments_reasons_and_bad_lines() -> None:
    e = _entry()
    text = (f"# header\n\n{e.key}  {e.content_hash}  a talk, no record\n"
            "broken-line-without-hash\nk2 nothex1234567890 reason\n")
    ign = parse_ignore_text(text, "x/.citecheck-ignore")
    assert ign.reason_for(e) == "a talk, no record"
    assert [(p.code, p.line) for p in ign.problems] == [("parse-error", 4), ("parse-error", 5)]
    assert all(p.file == "x/.citecheck-ignore" for p in ign.problems)


def test_ignore_expires_when_the_entry_changes() -> None:
    old = _entry()
    ign = parse_ignore_text(ignore.format_ignore_line(old, "why") + "\n")
    edited = _entry(title="Another title")
    assert edited.content_hash != old.content_hash
    assert ign.reason_for(edited) is None
    problems = ign.expired([edited])
    assert [(p.code, p.key, p.line) for p in problems] == [("ignore-expired", "k1", 1)]
    assert ign.expired([old]) == []


def test_whitespace_only_edit_does_not_expire() -> None:
    old = _entry("A  title")
    ign = parse_ignore_text(ignore.format_ignore_line(old, "why"))
    assert ign.reason_for(_entry("A title")) == "why"


def test_add_ignore_round_trip(tmp_path: Path) -> None:
    e = _entry()
    path = ignore.add_ignore(tmp_path, e, "  multi   word reason ")
    assert path == tmp_path / IGNORE_FILE
    ignore.add_ignore(tmp_path, Entry("k2", "misc", "refs.bib", 9), "other")
    ign = load_ignores(tmp_path)
    assert not ign.problems
    assert ign.reason_for(e) == "multi word reason"
    assert [r.key for r in ign.rules] == ["k1", "k2"]
    # the same entry ignored again for the same reason: no second line (2026-12-02)
    ignore.add_ignore(tmp_path, e, "multi word reason")
    assert [r.key for r in load_ignores(tmp_path).rules] == ["k1", "k2"]


def test_apply_ignores_skips_then_expires(paper: Path, settings: Settings) -> None:
    recs = load_records()
    bib = paper.parent / "refs.bib"
    bib.write_text("\n".join(bib_entry(r, title=WRONG_TITLE, authors=FAKE_AUTHORS) if i == 0
                             else bib_entry(r)
                             for i, r in enumerate(recs)), encoding="utf-8")
    project = load_project(paper)
    bad = project.entries[0]
    ignore.add_ignore(paper.parent, bad, "title differs on purpose")
    s2, problems = apply_ignores(project, settings)
    assert s2.ignore == (bad.key,) and problems == ()
    result = pipeline.check(project, s2)
    assert result.verdicts[0].label is Label.SKIPPED
    assert ignore.explain_ignored(result.verdicts, load_ignores(paper.parent))[0].reason == \
        "ignored: title differs on purpose"
    # the author edits the entry: the ignore expires and the entry is checked again
    bib.write_text(bib.read_text().replace(WRONG_TITLE, WRONG_TITLE + " revisited"),
                   encoding="utf-8")
    project = load_project(paper)
    s3, problems = apply_ignores(project, settings)
    assert s3.ignore == ()
    assert [p.code for p in problems] == ["ignore-expired"]
    assert problems[0].file.endswith(IGNORE_FILE) and problems[0].line == 2
    assert pipeline.check(project, s3).verdicts[0].label is Label.MAJOR


def test_ignore_command_writes_a_valid_line(paper: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    key = load_records()[1]["texkeys"][0]  # type: ignore[index]
    assert ignore_command.cli([key, "--reason", "checked by hand", "--in", str(paper)]) == 0
    assert key in capsys.readouterr().out
    project = load_project(paper)
    entry = next(e for e in project.entries if e.key == key)
    assert load_ignores(paper.parent).reason_for(entry) == "checked by hand"


def test_an_empty_reason_is_refused(paper: Path) -> None:
    from citecheck_tex.errors import UsageError

    key = load_records()[1]["texkeys"][0]  # type: ignore[index]
    with pytest.raises(UsageError, match="--reason is empty"):
        ignore_command.cli([key, "--reason", "  ", "--in", str(paper)])
    assert not (paper.parent / IGNORE_FILE).exists()
