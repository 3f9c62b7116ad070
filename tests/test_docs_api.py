"""docs/api.md's examples run: its Python blocks, in order, as one program (from a copy
of the sample paper, as a user with an empty home runs them after `make venv`)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "api.md"


def _blocks() -> list[str]:
    return re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)


def test_the_examples_of_docs_api_run(tmp_path: Path) -> None:
    blocks = _blocks()
    assert len(blocks) >= 8
    shutil.copytree(ROOT / "sample_papers" / "dark_matter_axions",
                    tmp_path / "sample_papers" / "dark_matter_axions",
                    ignore=shutil.ignore_patterns("citecheck-report"))
    (tmp_path / "examples.py").write_text("\n".join(blocks), encoding="utf-8")
    # what `make demo` leaves behind: an index of the sample papers' real records
    from citecheck_tex.sources.local_index import import_files

    demo = tmp_path / "citecheck-report" / "demo"
    demo.mkdir(parents=True)
    import_files(demo / "demo-index.sqlite",
                 sorted((ROOT / "sample_papers").glob("*/index_records*")))
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITECHECK_")}
    env.update({"PYTHONPATH": str(ROOT), "HOME": str(tmp_path / "home"),
                "XDG_DATA_HOME": str(tmp_path / "home" / "data"),
                "XDG_CACHE_HOME": str(tmp_path / "home" / "cache")})
    proc = subprocess.run([sys.executable, "examples.py"], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert proc.returncode == 0, proc.stderr
    out = proc.stdout
    # what the comments in the examples say they print
    assert "unknown setting 'ofline' (did you mean 'offline'? valid settings: ads_token_env," in out
    assert ("no/such/paper.tex: no such file or folder (give a .tex, .bib, .bbl, .txt or .md "
            "file, or a folder)") in out
    assert "['report.json', 'report.html', 'refs.annotated.bib', 'report.sarif']" in out
    expected = json.loads((ROOT / "sample_papers" / "dark_matter_axions" / "expected.json")
                          .read_text(encoding="utf-8"))["labels"]
    counts = {lab: list(expected.values()).count(lab)
              for lab in ("EXACT", "MINOR", "MAJOR", "UNVERIFIED", "SKIPPED")}
    assert out.startswith(str(counts) + "\n")  # the first example's comment says so
    assert str(counts) in DOC.read_text(encoding="utf-8")
    minor = [k for k, lab in expected.items() if lab == "MINOR"]
    assert all(f"\n{k}: " in out for k in minor)  # each MINOR's corrections are listed
    assert "the paper has broken input or a MAJOR reference" in out
    assert (tmp_path / "citecheck-report" / "api" / "report.sarif").is_file()
