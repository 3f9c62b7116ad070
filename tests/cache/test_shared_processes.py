"""One answer cache shared by several real processes (what ``citecheck-tex batch`` workers do).

- SQLite: processes that open a fresh file at the same moment and write at once
  lose no write and never fail on "database is locked" (a tiny busy timeout makes
  SQLite report the lock immediately, so the retry path is what is tested).
- The same answer is never fetched twice: two processes check the same references
  at the same moment, through the real pipeline and Http stack, against a loopback
  server replaying real recorded arXiv answers; with a shared cache (SQLite file,
  real Redis) the server sees each distinct request once; with no cache, twice
  (so the test can tell).
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

from citecheck_tex.cache import Cache
from tests.redis_server import RedisServer
from tests.replay import ARXIV_BIB, ReplayServer, Reply
from tests.test_pipeline_online import _feeds

ROOT = Path(__file__).resolve().parents[2]

WRITER = r"""
import sys, time
from citecheck_tex.cache import Cache
from citecheck_tex.model import Answer, Query, QueryKind, Record, SourceStatus
path, tag, start = sys.argv[1], sys.argv[2], float(sys.argv[3])
time.sleep(max(0.0, start - time.time()))
c = Cache.open(path, busy_timeout_s=0.001)
for i in range(0, 200, 4):
    qs = [Query(QueryKind.DOI, f'10.9/{tag}-{j}') for j in range(i, i + 4)]
    assert all(c.claim_sync('p', '1', qs, tag, 60.0))
    c.put_many_sync([Answer('p', q, SourceStatus.FOUND, (Record('p', q.value),)) for q in qs], '1')
    assert all(a is not None for a in c.get_many_sync('p', '1', qs))
c.close()
print('ok')
"""


def test_processes_opening_and_writing_at_once_lose_nothing(tmp_path: Path) -> None:
    path = tmp_path / "fresh" / "shared.sqlite"
    start = time.time() + 1.5
    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), f"w{n}", str(start)],
                              cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for n in range(4)]
    outs = [p.communicate(timeout=120) for p in procs]
    for (out, err), p in zip(outs, procs, strict=True):
        assert p.returncode == 0 and out.strip() == "ok", err[-2000:]
        assert "locked" not in err and "failed" not in err
    cache = Cache.open(path)
    rows = cache._conn.execute("SELECT COUNT(*) FROM answers").fetchone()[0]
    claims = cache._conn.execute("SELECT COUNT(*) FROM claims").fetchone()[0]
    mode = cache._conn.execute("PRAGMA journal_mode").fetchone()[0]
    cache.close()
    assert (rows, claims, mode) == (4 * 200, 0, "wal")


BIB = ARXIV_BIB + r"""@article{other, author = {Doe, J.},
  title = {A paper that arXiv does not know}, year = {2019}, eprint = {1901.99999}}
"""

CHECKER = r"""
import asyncio, json, sys, time
from dataclasses import replace
from citecheck_tex.config import Settings
from citecheck_tex.pipeline import check_entries_async
from citecheck_tex.sources.http import open_http
from citecheck_tex.tex.bib import parse_bib_text
from tests.sources.conftest import FAST
base, cache, start, bib = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4]
settings = replace(Settings(), base_urls={"arxiv": base + "/api"}, sources=("arxiv",),
                   cache_path=cache, timeout_s=10.0, max_retries=1)
entries, _ = parse_bib_text(open(bib).read(), "refs.bib")
async def go():
    async with open_http(settings, limits=FAST) as http:
        return await check_entries_async(entries, settings, http=http)
time.sleep(max(0.0, start - time.time()))
verdicts, problems, requests = asyncio.run(go())
print(json.dumps({"labels": {v.entry.key: v.label.value for v in verdicts},
                  "problems": [p.code for p in problems], "requests": requests}))
"""


def _check_twice_at_once(tmp_path: Path, cache: str) -> tuple[Counter[str], list[dict]]:  # type: ignore[type-arg]
    found, empty = _feeds()

    def handler(req):  # type: ignore[no-untyped-def]
        if not req.path.endswith("/query"):
            return None
        ids = req.param("id_list")
        body = found if "1605.08386" in ids else empty
        return Reply.make(200, body, content_type="application/atom+xml")

    bib = tmp_path / "refs.bib"
    bib.write_text(BIB, encoding="utf-8")
    # a slow server: the two processes are surely asking at the same time
    with ReplayServer(latency=0.3) as server:
        server.add_handler(handler)
        start = time.time() + 2.0
        procs = [subprocess.Popen([sys.executable, "-c", CHECKER, server.url, cache, str(start),
                                   str(bib)], cwd=ROOT, stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True) for _ in range(2)]
        outs = [p.communicate(timeout=120) for p in procs]
        for (_, err), p in zip(outs, procs, strict=True):
            assert p.returncode == 0, err[-3000:]
        seen = Counter(json.dumps([r.method, r.path, sorted(r.query)]) for r in server.requests)
    return seen, [json.loads(out) for out, _ in outs]


def _assert_same_verdicts(results: list[dict]) -> None:  # type: ignore[type-arg]
    assert results[0]["labels"] == results[1]["labels"]
    assert results[0]["labels"]["real"] == "EXACT" and results[0]["labels"]["fake"] == "MAJOR"
    assert not any("network" in r["problems"] for r in results)


def test_without_a_shared_cache_both_processes_ask_everything(tmp_path: Path) -> None:
    seen, results = _check_twice_at_once(tmp_path, "none")
    _assert_same_verdicts(results)
    assert seen and set(seen.values()) == {2}


def test_a_shared_sqlite_cache_sends_each_request_once(tmp_path: Path) -> None:
    seen, results = _check_twice_at_once(tmp_path, str(tmp_path / "shared.sqlite"))
    _assert_same_verdicts(results)
    assert seen and set(seen.values()) == {1}, seen
    assert sum(r["requests"] for r in results) == len(seen)


def test_a_shared_redis_cache_sends_each_request_once(tmp_path: Path) -> None:
    with RedisServer(tmp_path / "redis") as redis:
        seen, results = _check_twice_at_once(tmp_path, redis.url)
    _assert_same_verdicts(results)
    assert seen and set(seen.values()) == {1}, seen
    assert sum(r["requests"] for r in results) == len(seen)
