"""Watch-mode latency: from saving an edited entry to its new verdict.

    python -m bench.bench_watch [--entries 200] [--edits 5]

A temporary paper cites 200 real INSPIRE records (``sample_papers/*/index_records.jsonl``)
whose ``.bib`` is written from the records; the records go into a temporary local
index (offline). After a first full check (the warm state), each round corrupts the
title of one entry with an editor-style save (temp file + rename, or a rewrite in
place, which waits out the debounce) and measures the
wall time until the watch loop reports the new verdict. The target is < 1 s.
"""

from __future__ import annotations

import argparse
import json
import os
import queue
import statistics
import tempfile
import threading
import time
from pathlib import Path
from typing import Any

from citecheck_tex.commands.watch import Diff, WatchSession, watch_loop
from citecheck_tex.config import Settings
from citecheck_tex.model import Label

ROOT = Path(__file__).resolve().parent.parent
RECORD_FILES = sorted((ROOT / "sample_papers").glob("*/index_records.jsonl"))


def _bib(meta: dict[str, Any], title: str = "") -> str:
    key = (meta.get("texkeys") or [f"rec{meta.get('control_number')}"])[0]
    authors = " and ".join(a["full_name"] for a in meta.get("authors", [])[:10])
    fields = {"author": authors, "title": "{" + (title or meta["titles"][0]["title"]) + "}"}
    pubs = meta.get("publication_info") or [{}]
    pub = pubs[0]
    if pub.get("journal_title"):
        fields["journal"] = pub["journal_title"]
        fields["volume"] = str(pub.get("journal_volume", ""))
        fields["pages"] = str(pub.get("page_start", pub.get("artid", "")))
    year = pub.get("year") or str(meta.get("earliest_date", ""))[:4]
    if year:
        fields["year"] = str(year)
    if meta.get("dois"):
        fields["doi"] = meta["dois"][0]["value"]
    if meta.get("arxiv_eprints"):
        fields["eprint"] = meta["arxiv_eprints"][0]["value"]
    body = ",\n".join(f"  {k} = \"{v}\"" for k, v in fields.items() if v)
    return f"@article{{{key},\n{body}\n}}\n"


def _records(n: int) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    seen: set[str] = set()
    for path in RECORD_FILES:
        for line in path.read_text(encoding="utf-8").splitlines():
            meta = json.loads(line).get("metadata", {})
            keys = meta.get("texkeys") or []
            if not keys or keys[0] in seen or not meta.get("titles") or not meta.get("authors"):
                continue
            seen.add(keys[0])
            out.append(meta)
            if len(out) == n:
                return out
    return out


def _save(path: Path, text: str, atomic: bool = True) -> None:
    if not atomic:  # an editor that rewrites the file in place
        path.write_text(text, encoding="utf-8")
        return
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


def run(entries: int, edits: int, debounce: float, atomic: bool = True) -> dict[str, Any]:
    """One scenario: returns timings in seconds."""
    from citecheck_tex.sources.local_index import import_files

    recs = _records(entries)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        index = folder / "index.sqlite"
        import_files(index, RECORD_FILES)
        bib = folder / "refs.bib"
        texts = [_bib(m) for m in recs]
        bib.write_text("\n".join(texts), encoding="utf-8")
        keys = [m["texkeys"][0] for m in recs]
        cites = "\n".join(f"\\cite{{{k}}}" for k in keys)
        (folder / "paper.tex").write_text(
            "\\documentclass{article}\n\\begin{document}\n" + cites +
            "\n\\bibliography{refs}\n\\end{document}\n", encoding="utf-8")
        settings = Settings(offline=True, index_path=str(index),
                            cache_path=str(folder / "cache.sqlite"), formats=("json",))
        session = WatchSession(folder / "paper.tex", settings, out_dir=folder / "report")
        t0 = time.perf_counter()
        session.run_once()
        cold = time.perf_counter() - t0

        diffs: queue.Queue[Diff] = queue.Queue()
        stop = threading.Event()
        thread = threading.Thread(target=watch_loop, args=(session,), kwargs={
            "debounce": debounce, "stop": stop, "on_cycle": diffs.put})
        thread.start()
        time.sleep(0.5)  # let the observer start
        latencies: list[float] = []
        recheck_times: list[float] = []
        ok = 0
        try:
            for i in range(edits):
                target = (i * 37) % len(recs)
                edited = list(texts)
                edited[target] = _bib(recs[target], title=f"A fabricated title number {i}")
                t_write = time.perf_counter()
                _save(bib, "\n".join(edited), atomic)
                diff = diffs.get(timeout=30)
                latencies.append(time.perf_counter() - t_write)
                recheck_times.append(diff.elapsed_s)
                labels = {v.entry.key: v.label for v in session.result.verdicts}  # type: ignore[union-attr]
                ok += diff.rechecked == (keys[target],) and labels[keys[target]] is not Label.EXACT
                texts = edited
        finally:
            stop.set()
            thread.join(timeout=10)
    return {"entries": len(recs), "debounce": debounce, "save": "rename" if atomic else "in place", "cold": cold, "lat": latencies,
            "recheck": recheck_times, "ok": ok}


def main() -> None:
    """Print the latency table."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--entries", type=int, default=200)
    p.add_argument("--edits", type=int, default=5)
    ns = p.parse_args()
    rows = [run(ns.entries, ns.edits, 0.2), run(ns.entries, ns.edits, 0.2, atomic=False),
            run(ns.entries, ns.edits, 0.1, atomic=False)]
    print(f"{'entries':>7} {'save':>8} {'debounce s':>10} {'first check s':>13} {'save->verdict med s':>19} "
          f"{'max s':>6} {'re-check med s':>14} {'edits ok':>8} {'< 1 s':>5}")
    for r in rows:
        med, worst = statistics.median(r["lat"]), max(r["lat"])
        print(f"{r['entries']:>7} {r['save']:>8} {r['debounce']:>10.1f} {r['cold']:>13.2f} {med:>19.3f} "
              f"{worst:>6.3f} {statistics.median(r['recheck']):>14.3f} "
              f"{r['ok']:>4}/{len(r['lat']):<3} {'yes' if worst < 1 else 'NO':>5}")


if __name__ == "__main__":
    main()
