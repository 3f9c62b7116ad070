"""arXiv source downloads: tar.gz and gzipped single .tex unpacked, hostile members refused.

The archives are made here in the form arXiv serves them (a gzipped tar of the
submission's files at top level; a one-file submission as the gzipped .tex alone, under
the same ``.tar.gz``-style name), from the repository's sample papers.
"""

from __future__ import annotations

import gzip
import io
import os
import tarfile
from pathlib import Path

import pytest

from citecheck_tex import archive
from citecheck_tex.archive import archive_stem, extract_archive
from citecheck_tex.errors import InputError

ROOT = Path(__file__).resolve().parents[2]
SAMPLE = ROOT / "sample_papers" / "holography_qcd"


def arxiv_tarball(path: Path, files: dict[str, bytes], *, top: str = "") -> Path:
    """A gzipped tar with ``files`` (name -> bytes), as arXiv's e-print download."""
    with tarfile.open(path, "w:gz") as tf:
        for name, data in files.items():
            info = tarfile.TarInfo(f"{top}{name}")
            info.size, info.mode = len(data), 0o644
            tf.addfile(info, io.BytesIO(data))
    return path


def sample_files() -> dict[str, bytes]:
    return {"paper.tex": (SAMPLE / "paper.tex").read_bytes(),
            "refs.bib": (SAMPLE / "refs.bib").read_bytes()}


def test_tarball_is_unpacked_with_its_files(tmp_path: Path) -> None:
    tgz = arxiv_tarball(tmp_path / "2101.00001v2.tar.gz", sample_files())
    dest = tmp_path / "out"
    dest.mkdir()
    folder = extract_archive(tgz, dest)
    assert folder == dest
    assert (folder / "refs.bib").read_bytes() == (SAMPLE / "refs.bib").read_bytes()
    assert (folder / "paper.tex").is_file()


def test_single_top_folder_is_entered(tmp_path: Path) -> None:
    tgz = arxiv_tarball(tmp_path / "p.tgz", sample_files(), top="submission/")
    dest = tmp_path / "out"
    dest.mkdir()
    assert extract_archive(tgz, dest) == dest / "submission"


def test_gzipped_single_tex_becomes_a_tex_file(tmp_path: Path) -> None:
    """arXiv serves a one-file submission as the gzipped .tex itself."""
    text = (SAMPLE / "paper.tex").read_bytes()
    gz = tmp_path / "2101.00002.tar.gz"
    gz.write_bytes(gzip.compress(text))
    dest = tmp_path / "out"
    dest.mkdir()
    folder = extract_archive(gz, dest)
    assert [p.name for p in folder.iterdir()] == ["2101.00002.tex"]
    assert (folder / "2101.00002.tex").read_bytes() == text


def test_gzipped_pdf_is_refused(tmp_path: Path) -> None:
    gz = tmp_path / "2101.00003.gz"
    gz.write_bytes(gzip.compress(b"%PDF-1.5\n..."))
    (tmp_path / "out").mkdir()
    with pytest.raises(InputError, match="PDF"):
        extract_archive(gz, tmp_path / "out")


@pytest.mark.parametrize("name", ["/etc/evil.tex", "../evil.tex", "a/../../evil.tex"])
def test_member_outside_the_folder_is_refused(tmp_path: Path, name: str) -> None:
    tgz = tmp_path / "evil.tar.gz"
    with tarfile.open(tgz, "w:gz") as tf:
        info = tarfile.TarInfo(name)
        info.size = 3
        tf.addfile(info, io.BytesIO(b"bad"))
    (tmp_path / "out").mkdir()
    with pytest.raises(InputError, match="points outside the archive") as err:
        extract_archive(tgz, tmp_path / "out")
    assert str(tgz) in str(err.value)
    assert not (tmp_path / "evil.tex").exists()


@pytest.mark.parametrize("kind", [tarfile.SYMTYPE, tarfile.LNKTYPE])
def test_links_are_refused(tmp_path: Path, kind: bytes) -> None:
    tgz = tmp_path / "links.tar.gz"
    with tarfile.open(tgz, "w:gz") as tf:
        info = tarfile.TarInfo("refs.bib")
        info.type, info.linkname = kind, "/etc/passwd"
        tf.addfile(info)
    (tmp_path / "out").mkdir()
    with pytest.raises(InputError, match="is a link"):
        extract_archive(tgz, tmp_path / "out")
    assert not (tmp_path / "out" / "refs.bib").exists()


def test_device_is_refused(tmp_path: Path) -> None:
    tgz = tmp_path / "fifo.tar.gz"
    with tarfile.open(tgz, "w:gz") as tf:
        info = tarfile.TarInfo("pipe")
        info.type = tarfile.FIFOTYPE
        tf.addfile(info)
    (tmp_path / "out").mkdir()
    with pytest.raises(InputError, match="device or a pipe"):
        extract_archive(tgz, tmp_path / "out")


def test_huge_member_is_refused_by_its_header(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive, "MAX_MEMBER_BYTES", 1000)
    tgz = arxiv_tarball(tmp_path / "big.tar.gz", {"big.tex": b"%" * 5000})
    (tmp_path / "out").mkdir()
    with pytest.raises(InputError, match="more than 1,000"):
        extract_archive(tgz, tmp_path / "out")


def test_gzip_bomb_single_file_is_refused(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(archive, "MAX_MEMBER_BYTES", 10_000)
    gz = tmp_path / "bomb.gz"
    gz.write_bytes(gzip.compress(b"\\documentclass{article}" + b" " * 100_000))
    (tmp_path / "out").mkdir()
    with pytest.raises(InputError, match="unpacks to more than"):
        extract_archive(gz, tmp_path / "out")


def test_truncated_and_foreign_files_are_clear_errors(tmp_path: Path) -> None:
    good = arxiv_tarball(tmp_path / "good.tar.gz", sample_files())
    truncated = tmp_path / "truncated.tar.gz"
    truncated.write_bytes(good.read_bytes()[:300])
    foreign = tmp_path / "foreign.tar.gz"
    foreign.write_bytes(b"<html>not found</html>")
    for path, words in ((truncated, "cannot unpack"), (foreign, "not a .zip, tar or gzip")):
        out = tmp_path / f"out-{path.stem}"
        out.mkdir()
        with pytest.raises(InputError, match=words) as err:
            extract_archive(path, out)
        assert str(path) in str(err.value)


def test_the_archive_is_only_read(tmp_path: Path) -> None:
    tgz = arxiv_tarball(tmp_path / "p.tar.gz", sample_files())
    before = (tgz.read_bytes(), os.stat(tgz).st_mtime_ns)
    (tmp_path / "out").mkdir()
    extract_archive(tgz, tmp_path / "out")
    assert (tgz.read_bytes(), os.stat(tgz).st_mtime_ns) == before


def test_archive_stem() -> None:
    assert archive_stem("2101.01234v2.tar.gz") == "2101.01234v2"
    assert archive_stem("paper.TGZ") == "paper"
    assert archive_stem("hep-th9901001.gz") == "hep-th9901001"
    assert archive_stem("refs.bib") == "refs.bib"
