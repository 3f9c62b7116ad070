"""What the batch tests share: the repository's sample papers (real references, real
records in their ``index_records*.jsonl``), fast in-process options, offline settings.
The ``index`` fixture built from those records is in ``conftest.py``."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from citecheck_tex.batch.runner import BatchOptions
from citecheck_tex.config import Settings

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "sample_papers"
AXIONS = SAMPLES / "dark_matter_axions"
HOLO = SAMPLES / "holography_qcd"
#: two in-process workers (threads): quick to start, same code path as processes
FAST = BatchOptions(workers=2, processes=False, dashboard=False, paper_timeout_s=120)


def offline(index: Path, **kw: object) -> Settings:
    """Offline settings against ``index`` (declared complete), JSON reports only."""
    return replace(Settings(), offline=True, index_path=str(index), cache_path="none",
                   index_complete=True, sources=("local",), formats=("json",),
                   **kw)  # type: ignore[arg-type]
