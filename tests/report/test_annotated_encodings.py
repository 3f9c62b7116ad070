"""Issue 12 row 14: UTF-16 and UTF-8-with-BOM .bib files are annotated like UTF-8 ones.

The annotated copy is written in the original's encoding: UTF-16 stays UTF-16
with its BOM and byte order, a UTF-8 BOM is kept. The .bib is the real
dark_matter_axions sample bibliography; one author name is given its accents
(Tobar -> Tóbar) so that decoding is tested beyond ASCII.
"""

from __future__ import annotations

import codecs
import json
from pathlib import Path

import pytest

from citecheck_tex.cli import main
from citecheck_tex.tex.encoding import decode_copy, encode_copy, sniff_utf16
from citecheck_tex.tex.project import load_project

ROOT = Path(__file__).resolve().parents[2]
BIB = (ROOT / "sample_papers" / "dark_matter_axions" / "refs.bib").read_text(
    encoding="utf-8").replace("Tobar, Michael E.", "Tóbar, Michael E.")

ENCODINGS = {
    "utf-8-bom": lambda t: codecs.BOM_UTF8 + t.encode("utf-8"),
    "utf-16": lambda t: codecs.BOM_UTF16_LE + t.encode("utf-16-le"),
    "utf-16-be": lambda t: codecs.BOM_UTF16_BE + t.encode("utf-16-be"),
    "utf-16-le-no-bom": lambda t: t.encode("utf-16-le"),
    "utf-16-crlf": lambda t: codecs.BOM_UTF16_LE + t.replace("\n", "\r\n").encode("utf-16-le"),
}


@pytest.fixture(scope="module")
def demo_index(tmp_path_factory: pytest.TempPathFactory) -> Path:
    index = tmp_path_factory.mktemp("idx") / "index.sqlite"
    files = sorted(str(f) for f in (ROOT / "sample_papers").glob("*/index_records*"))
    assert main(["index", "add", *files, "--index", str(index)]) == 0
    return index


def _check(bib: Path, index: Path, out: Path) -> tuple[bytes, dict[str, object]]:
    assert main([str(bib), "--offline", "--index", str(index), "--cache", "none", "--out",
                 str(out), "--format", "json,bib", "--fail-on", "never"]) == 0
    report = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return (out / f"{bib.stem}.annotated.bib").read_bytes(), report


@pytest.mark.parametrize("name", sorted(ENCODINGS))
def test_annotated_like_utf8_in_the_original_encoding(
        name: str, demo_index: Path, tmp_path: Path) -> None:
    plain = tmp_path / "u8" / "refs.bib"
    plain.parent.mkdir()
    plain.write_text(BIB, encoding="utf-8")
    want, want_report = _check(plain, demo_index, tmp_path / "out8")
    assert want.count(b"% citecheck:") > 20

    data = ENCODINGS[name](BIB)
    other = tmp_path / name / "refs.bib"
    other.parent.mkdir()
    other.write_bytes(data)
    got, got_report = _check(other, demo_index, tmp_path / f"out-{name}")

    # the same verdicts, and the accented name decoded
    def brief(report: dict[str, object]) -> list[tuple[object, ...]]:
        return [(e["key"], e["label"], e["line"], e["cited"], e["discrepancies"])
                for e in report["entries"]]  # type: ignore[attr-defined]

    assert brief(got_report) == brief(want_report)
    project = load_project(other)
    assert any(p.family == "Tóbar" for e in project.entries for p in e.authors)
    # the copy: the original's BOM and byte order, the same annotated text
    bom = next((b for b in (codecs.BOM_UTF8, codecs.BOM_UTF16_LE, codecs.BOM_UTF16_BE)
                if data.startswith(b)), b"")
    assert got.startswith(bom)
    text, enc = decode_copy(got)
    expected = want.decode("utf-8")
    if name == "utf-16-crlf":
        expected = expected.replace("\n", "\r\n")
    assert text.removeprefix("\ufeff") == expected
    assert enc == (sniff_utf16(data) or enc)


def test_copy_round_trips_bytes() -> None:
    for make in ENCODINGS.values():
        data = make(BIB)
        text, enc = decode_copy(data)
        assert encode_copy(text, enc) == data
    latin1 = BIB.encode("latin-1")
    assert encode_copy(*decode_copy(latin1)) == latin1
