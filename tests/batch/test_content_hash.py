"""What a batch reads of a paper folder to know whether it changed (``content_hash``), and
what it takes for a paper (``discover``).

Found 2026-12-02: a named pipe in a paper folder held the whole batch before any paper
ran (``--paper-timeout`` does not cover the driver's hashing), and a symbolic link to a
figure that moved away failed the paper with the folder's name, not the link's.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

from citecheck_tex.batch.inputs import Paper, content_hash


def _paper(tmp_path: Path) -> Paper:
    folder = tmp_path / "paper"
    folder.mkdir()
    (folder / "main.tex").write_text("\\documentclass{article}\\begin{document}\\end{document}")
    return Paper(name="paper", path=str(folder), kind="folder")


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_named_pipe_is_not_read(tmp_path: Path) -> None:
    paper = _paper(tmp_path)
    before = content_hash(paper)
    os.mkfifo(Path(paper.path) / "latex.pipe")  # nothing ever writes to it
    with_pipe = content_hash(paper)  # returns: the pipe is not opened
    assert with_pipe != before and content_hash(paper) == with_pipe


@pytest.mark.skipif(sys.platform == "win32", reason="symbolic links need privileges there")
def test_a_link_to_nothing_stands_for_the_path_it_names(tmp_path: Path) -> None:
    paper = _paper(tmp_path)
    link = Path(paper.path) / "fig1.pdf"
    link.symlink_to(tmp_path / "moved" / "fig1.pdf")
    first = content_hash(paper)
    link.unlink()
    link.symlink_to(tmp_path / "moved" / "fig2.pdf")
    assert content_hash(paper) != first


@pytest.mark.skipif(sys.platform == "win32" or os.geteuid() == 0,
                    reason="root reads every file")
def test_an_unreadable_file_is_named(tmp_path: Path) -> None:
    paper = _paper(tmp_path)
    secret = Path(paper.path) / "notes.txt"
    secret.write_text("x")
    secret.chmod(0)
    with pytest.raises(OSError) as exc:
        content_hash(paper)
    assert exc.value.filename == str(secret)


def test_an_earlier_batchs_output_folder_is_no_paper(tmp_path: Path) -> None:
    # an earlier batch's output kept inside the collection under another name was
    # listed as a failed paper, "no .tex file" (2026-12-02)
    from citecheck_tex.batch.inputs import discover

    collection = tmp_path / "papers"
    collection.mkdir()
    paper = _paper(collection)
    old = collection / "checked-2026-11"
    (old / "papers" / "paper").mkdir(parents=True)
    (old / "summary.json").write_text("{}")
    (old / "references.jsonl").write_text("")
    assert [p.path for p in discover([collection])] == [paper.path]
