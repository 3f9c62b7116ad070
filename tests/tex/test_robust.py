"""Property test: byte soup and truncated files never crash the frontend."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from citecheck_tex.tex.bbl import parse_bbl_text
from citecheck_tex.tex.bib import parse_bib_text
from citecheck_tex.tex.project import load_project

CASES = Path(__file__).parent / "cases"
SAMPLES = [
    (CASES / "multifile" / "refs.bib").read_text(encoding="utf-8"),
    (CASES / "biber_missing" / "main.bbl").read_text(encoding="utf-8"),
    (CASES / "revtex_apsrev" / "main.bbl").read_text(encoding="utf-8"),
    (CASES / "multifile" / "main.tex").read_text(encoding="utf-8"),
]
_SOUP = st.text(alphabet=st.sampled_from(list("@{}[]()\\%#\",=~$ \nabcAZ019:/.-*")), max_size=300)


@settings(max_examples=60, deadline=None)
@given(st.one_of(_SOUP, st.binary(max_size=200).map(lambda b: b.decode("latin-1"))))
def test_soup_never_crashes_parsers(text: str) -> None:
    parse_bib_text(text, "soup.bib")
    parse_bbl_text(text, "soup.bbl")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.sampled_from(range(len(SAMPLES))), st.floats(0, 1), st.sampled_from([".tex", ".bib", ".bbl", ".md"]))
def test_truncated_files_never_crash_load_project(tmp_path: Path, which: int, cut: float,
                                                  ext: str) -> None:
    text = SAMPLES[which]
    path = tmp_path / f"t{ext}"
    path.write_text(text[: int(len(text) * cut)], encoding="utf-8")
    (tmp_path / "refs.bib").write_text(SAMPLES[0][: int(len(SAMPLES[0]) * cut)], encoding="utf-8")
    project = load_project(path)
    assert all(p.code for p in project.problems)
