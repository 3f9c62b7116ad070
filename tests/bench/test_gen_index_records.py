"""The generator of realistic index records (bench/gen_index_records.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench import gen_index_records as gen
from citecheck_tex.sources.importers import classify_json, normalize_arxiv, normalize_doi
from citecheck_tex.sources.local_index import LocalIndex

pytestmark = pytest.mark.skipif(not gen.CORPUS.is_dir(),
                                reason=f"the shared corpus is not at {gen.CORPUS}")


def test_same_seed_same_file_whatever_the_processes(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(gen, "SHARD", 700)  # several shards
    one, two = tmp_path / "one.jsonl", tmp_path / "two.jsonl"
    assert gen.generate(one, 2000, jobs=1, world=False) == 2000
    gen.generate(two, 2000, jobs=2, world=False)
    assert one.read_bytes() == two.read_bytes()
    gen.generate(two, 2000, seed=7, jobs=1, world=False)
    assert one.read_bytes() != two.read_bytes()


def test_records_import_and_never_take_a_world_identifier(tmp_path: Path) -> None:
    out = tmp_path / "gen.jsonl"
    world_lines = sum(1 for p in gen.WORLD_FILES
                      for line in p.read_text(encoding="utf-8").splitlines() if line.strip())
    assert gen.generate(out, 3000, jobs=1) == world_lines + 3000
    lines = out.read_text(encoding="utf-8").splitlines()
    made = [json.loads(line) for line in lines[world_lines:]]
    assert {classify_json(obj) for obj in made} == {"inspire", "arxiv"}
    pools = gen.load_pools()
    arxivs = {normalize_arxiv(o.get("id", "")) for o in made if "metadata" not in o}
    dois = {normalize_doi(d["value"]) for o in made if "metadata" in o
            for d in o["metadata"].get("dois", [])}
    assert arxivs and dois and not arxivs & pools.world_arxiv and not dois & pools.world_dois
    with LocalIndex.open(tmp_path / "i.sqlite") as index:
        stats = index.add_file(out, jobs=2)
        assert stats.bad == 0 and stats.records == len(lines) - stats.skipped
        # the world records are inside, answering as in the world index
        assert [r.id for r in index.by_doi("10.1016/0550-3213(76)90173-5")] == ["inspire:100761"]
