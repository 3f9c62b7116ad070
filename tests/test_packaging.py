"""Packaging as users install tools (issue 14, item 7): the wheel holds what the
program needs at run time and declares its licence the modern way.

The wheel is built without network or build isolation, with the setuptools of this
environment (a dev dependency); the test skips when that setuptools is too old.
"""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _setuptools_at_least(major: int) -> bool:
    try:
        import setuptools
    except ImportError:
        return False
    return int(setuptools.__version__.split(".")[0]) >= major


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    if not _setuptools_at_least(77):
        pytest.skip("needs setuptools>=77 (pip install -e '.[dev]')")
    out = tmp_path_factory.mktemp("wheel")
    build = tmp_path_factory.mktemp("build")
    proc = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
         "--no-index", "-q", "-w", str(out), str(ROOT)],
        capture_output=True, text=True, check=False, cwd=build,
        env={"PATH": "/usr/bin:/bin", "HOME": str(build), "PIP_NO_INPUT": "1"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    # a build from the work tree must not warn about the licence metadata any more
    assert "License classifiers are deprecated" not in proc.stderr
    assert "project.license` as a TOML table is deprecated" not in proc.stderr
    (whl,) = out.glob("citecheck_tex-*.whl")
    return whl


def test_wheel_has_runtime_files_and_licence(wheel: Path) -> None:
    names = set(zipfile.ZipFile(wheel).namelist())
    for needed in ("citecheck_tex/cli.py", "citecheck_tex/commands/check.py",
                   "citecheck_tex/templates/report.html.j2",
                   "citecheck_tex/data/thresholds.json", "citecheck_tex/py.typed"):
        assert needed in names, needed
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names)
    meta_name = next(n for n in names if n.endswith(".dist-info/METADATA"))
    meta = zipfile.ZipFile(wheel).read(meta_name).decode()
    assert "License-Expression: MIT" in meta
    assert "Requires-Python: >=3.11" in meta
    assert "Classifier: Environment :: Console" in meta
    entry_points = zipfile.ZipFile(wheel).read(meta_name.replace("METADATA", "entry_points.txt"))
    assert b"citecheck-tex = citecheck_tex.cli:main" in entry_points
    assert not any(n.startswith(("tests/", "bench/", "sample_papers/")) for n in names)


#: A tiny program using the library API, type-checked against the installed wheel.
CONSUMER = '''
from __future__ import annotations

import citecheck_tex
from citecheck_tex import Discrepancy, Label, RunResult, Verdict, VerdictCode


def majors(result: RunResult) -> list[Verdict]:
    return [v for v in result.verdicts if v.label is Label.MAJOR]


def codes(d: Discrepancy) -> list[str]:
    return [c.value for c in d.codes]


result: RunResult = citecheck_tex.check("paper.tex", offline=True, index="i.sqlite")
why: list[VerdictCode] = [v.code for v in majors(result)]
text: str = citecheck_tex.render(result, "json")
failed: bool = citecheck_tex.fails(result, "minor")
'''


def test_the_installed_wheel_is_typed_for_library_users(wheel: Path, tmp_path: Path) -> None:
    """py.typed ships and the facade's exports are visible to ``mypy --strict`` (a
    consumer of the installed package, not of the source tree); a type error in the
    consumer is found, so the types really flow through the lazy facade."""
    pytest.importorskip("mypy")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    python = venv / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    zipfile.ZipFile(wheel).extractall(purelib)  # what pip puts into site-packages
    work = tmp_path / "consumer"
    work.mkdir()

    def mypy(source: str) -> subprocess.CompletedProcess[str]:
        (work / "consumer.py").write_text(source, encoding="utf-8")
        return subprocess.run(
            [sys.executable, "-m", "mypy", "--strict", "--no-incremental",
             "--python-executable", str(python), "consumer.py"],
            cwd=work, capture_output=True, text=True, check=False)

    ok = mypy(CONSUMER)
    assert ok.returncode == 0, ok.stdout + ok.stderr
    bad = mypy(CONSUMER + 'wrong: int = citecheck_tex.check("paper.tex")\n')
    assert bad.returncode == 1
    assert 'expression has type "RunResult", variable has type "int"' in bad.stdout
