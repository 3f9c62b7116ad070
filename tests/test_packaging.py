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
