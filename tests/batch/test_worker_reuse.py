"""What a batch worker keeps from one paper to the next (bench/RESULTS.md, "Batch on
Dask"): the local index stays open on the thread that checks (``sources/index_pool.py``),
and the LocalCluster's own workers send their messages in batches; a separately
started cluster's workers are left as they are."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("distributed", reason="the batch extra is not installed "
                    "(pip install -e '.[batch]')")
pytest.importorskip("pyarrow.parquet", reason="the batch extra is not installed")

from citecheck_tex.batch.inputs import content_hash, discover  # noqa: E402
from citecheck_tex.batch.runner import (  # noqa: E402
    WORKER_SEND_INTERVAL_S,
    BatchOptions,
    batch_settings,
    coalesce_worker_messages,
    run_batch,
    settings_key,
)
from citecheck_tex.batch.task import check_paper  # noqa: E402
from citecheck_tex.sources import index_pool  # noqa: E402
from tests.batch.samples import AXIONS, HOLO, offline  # noqa: E402


@pytest.fixture(autouse=True)
def _empty_pool() -> Iterator[None]:
    index_pool.close_all()
    yield
    index_pool.close_all()


def test_a_worker_thread_keeps_the_index_open_between_papers(index: Path,
                                                             tmp_path: Path) -> None:
    """Papers checked one after the other on one thread (no time limit: the check runs
    on the calling thread) share one open index, and their reports are the same as
    with an index opened per paper."""
    settings = batch_settings(offline(index))
    key = settings_key(settings)
    papers = discover([AXIONS, HOLO / "refs.bib"])
    outcomes = []
    for paper in papers:
        outcomes.append(check_paper(paper, settings, out_dir=str(tmp_path / "out"),
                                    content=content_hash(paper), settings_key=key))
        assert index_pool.kept() == 1
    assert [o.status for o in outcomes] == ["checked", "checked"]
    index_pool.close_all()

    # the same papers with the index opened and closed per paper (no pool) agree
    from citecheck_tex import pipeline
    from citecheck_tex.tex.project import load_project

    for paper, outcome in zip(papers, outcomes, strict=True):
        path = Path(paper.path)
        root = path if path.is_dir() else path.parent
        result = pipeline.check(load_project(path, project_root=root),
                                replace(settings, project_root=str(root)))
        assert index_pool.kept() == 0
        assert [r.label for r in outcome.rows] == [v.label.value for v in result.verdicts]
        assert [r.match_id for r in outcome.rows] == [
            v.match.id if v.match else "" for v in result.verdicts]


def test_coalesce_worker_messages_on_a_real_worker() -> None:
    from distributed import Client, LocalCluster

    cluster = LocalCluster(n_workers=1, processes=False, threads_per_worker=1,
                           dashboard_address=":0")
    try:
        with Client(cluster) as client:
            before = set(client.run(_interval).values())
            assert before == {0.002}  # Dask's own: each message alone
            assert set(client.run(coalesce_worker_messages).values()) == \
                {WORKER_SEND_INTERVAL_S}
            assert set(client.run(_interval).values()) == {WORKER_SEND_INTERVAL_S}
            # never shortens a longer interval someone chose
            assert set(client.run(coalesce_worker_messages, interval_s=0.01).values()) == \
                {WORKER_SEND_INTERVAL_S}
    finally:
        cluster.close()


def test_the_batch_tunes_its_own_local_cluster_workers(index: Path,
                                                          tmp_path: Path) -> None:
    from distributed import Worker

    seen: list[set[float]] = []
    ticks: list[set[float]] = []

    def started(workers: int, dashboard: str) -> None:
        # a threads LocalCluster: its workers are objects of this process
        running = [w for w in list(Worker._instances) if w.status.name == "running"]
        seen.append({w.batched_stream.interval for w in running})
        ticks.append({w.periodic_callbacks["tick"].callback_time for w in running})

    run = run_batch(discover([HOLO / "refs.bib"]), offline(index), tmp_path / "out",
                    BatchOptions(workers=1, processes=False, dashboard=False),
                    started=started)
    assert [o.status for o in run.outcomes] == ["checked"]
    assert seen == [{WORKER_SEND_INTERVAL_S}]
    assert ticks == [{1000.0}]  # ms: LOCAL_CLUSTER_CONFIG's 1 s (Dask: 20 ms)


def _interval(dask_worker: object) -> float:
    return float(dask_worker.batched_stream.interval)  # type: ignore[attr-defined]
