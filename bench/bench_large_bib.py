"""Time and memory of a whole offline run on a very large .bib (issue 12, row 12).

Run: ``python -m bench.bench_large_bib [--entries 100000] [--no-index]``.

Builds a .bib of N entries from the real ``HEPML.bib`` of the shared corpus (its
2,423 INSPIRE-exported entries repeated, each copy with new keys), imports
``dumps/inspire_literature.jsonl`` into a fresh local index (so that checks find
real records: a mix of EXACT, MINOR and UNVERIFIED, as in a real run; the import
is not part of the measurement), then runs the CLI once in a child process with
the shipped defaults::

    citecheck-tex big.bib --offline --index IDX --cache none --out OUT
                  --format json,html,bib --fail-on never

and prints one markdown row: wall and CPU time, the child's peak resident memory
(``ru_maxrss`` of RUSAGE_CHILDREN) and the size of each report. The shared folder is
found beside the repository (``<repo>/../shared``), else at /work/shared.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]


def shared_folder() -> Path:
    """``<repo>/../shared`` when present, else /work/shared."""
    beside = REPO.parent / "shared"
    # the folder that holds the corpus: a sibling work tree named "shared" is not it
    return beside if (beside / "corpus").is_dir() else Path("/work/shared")


def build_bib(n: int, source: Path) -> str:
    """``n`` entries: the entries of ``source`` repeated, copy k's keys suffixed ``-ck``."""
    text = source.read_text(encoding="utf-8", errors="replace")
    blocks = [b for b in re.split(r"\n(?=@)", text) if b.lstrip().startswith("@")]
    out: list[str] = []
    copy = 0
    while len(out) < n:
        suffix = f"-c{copy}" if copy else ""
        for b in blocks[: n - len(out)]:
            out.append(re.sub(r"^(\s*@\w+\s*\{\s*)([^,\s]+)", rf"\g<1>\g<2>{suffix}", b,
                              count=1))
        copy += 1
    return "\n".join(out) + "\n"


def main(argv: list[str] | None = None) -> None:
    """Build the inputs, run the check once, print the table row."""
    p = argparse.ArgumentParser(prog="python -m bench.bench_large_bib")
    p.add_argument("--entries", type=int, default=100_000)
    p.add_argument("--no-index", action="store_true", help="no local index (all UNVERIFIED)")
    p.add_argument("--keep", metavar="DIR", help="build in DIR and keep the files")
    p.add_argument("--pythonpath", metavar="DIR",
                   help="run the citecheck_tex found in DIR, to measure before/after: an "
                        "export of an older commit (git archive COMMIT | tar -x -C DIR; "
                        "ln -s ../templates DIR/citecheck_tex/templates)")
    ns = p.parse_args(argv)
    shared = shared_folder()
    hepml = shared / "corpus" / "bib" / "HEPML.bib"
    dump = shared / "corpus" / "dumps" / "inspire_literature.jsonl"
    if not hepml.is_file():
        sys.exit(f"no {hepml}: the shared corpus is needed")
    tmp_ctx = tempfile.TemporaryDirectory() if not ns.keep else None
    root = Path(ns.keep or (tmp_ctx.name if tmp_ctx else "."))
    root.mkdir(parents=True, exist_ok=True)
    bib = root / "big.bib"
    bib.write_text(build_bib(ns.entries, hepml), encoding="utf-8")
    index = root / "index.sqlite"
    cli = [sys.executable, "-m", "citecheck_tex"]
    if not ns.no_index and not index.exists():
        subprocess.run([*cli, "index", "add", str(dump), "--index", str(index)], check=True,
                       capture_output=True)
    out = root / "out"
    cmd = [*cli, str(bib), "--offline", "--index", str(index if not ns.no_index else
                                                        root / "none.sqlite"),
           "--cache", "none", "--out", str(out), "--format", "json,html,bib",
           "--fail-on", "never"]
    # the peak of this one child: GNU time when installed (the index import above is
    # another child, and RUSAGE_CHILDREN's ru_maxrss is the largest of all of them)
    gnu_time = Path("/usr/bin/time")
    wrapped = [str(gnu_time), "-v", *cmd] if gnu_time.is_file() else cmd
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    env = dict(os.environ)
    if ns.pythonpath:
        env["PYTHONPATH"] = ns.pythonpath
    # cwd: the temporary folder, so that ``-m`` does not pick up a package from the
    # current folder instead of --pythonpath's
    done = subprocess.run(wrapped, capture_output=True, text=True, check=False, env=env,
                          cwd=root)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode not in (0, 1):
        sys.exit(f"run failed ({done.returncode}): {done.stderr[-2000:]}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    found = re.search(r"Maximum resident set size \(kbytes\): (\d+)", done.stderr)
    peak_mb = int(found.group(1)) / 1024 if found else after.ru_maxrss / 1024
    summary = json.loads((out / "report.json").read_text(encoding="utf-8"))["summary"]
    size = {f.name: f.stat().st_size / 1e6 for f in out.iterdir()}
    print("| entries | wall s | CPU s | peak RSS MB | report.json MB | report.html MB | "
          "annotated.bib MB | labels |")
    print("|---|---|---|---|---|---|---|---|")
    labels = ", ".join(f"{k} {v}" for k, v in summary.items() if v)
    print(f"| {ns.entries:,} | {wall:.1f} | {cpu:.1f} | {peak_mb:,.0f} | "
          f"{size.get('report.json', 0):.1f} | {size.get('report.html', 0):.1f} | "
          f"{size.get('big.annotated.bib', 0):.1f} | {labels} |")
    print(f"\ncommand: {' '.join(wrapped)}")
    if tmp_ctx is not None:
        tmp_ctx.cleanup()


if __name__ == "__main__":
    main()
