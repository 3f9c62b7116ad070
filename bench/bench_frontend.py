"""Speed of the TeX frontend: a 3,000-entry .bib and a generated 40-file project.

Run: ``python -m bench.bench_frontend``. Builds its inputs in a temporary folder
from the real corpus in ../shared/corpus/bib (HEPML.bib + lsst files) and prints a
markdown table. Target: each under 1 s on the 2-core dev machine. Both are timed
cold (first parse in the process) except that the project re-reads the same .bib,
whose repeated strings the parsers' memo caches then already hold; the CPU column
is less sensitive than wall time to other jobs on a shared machine.
"""

from __future__ import annotations

import re
import tempfile
import time
from pathlib import Path

from bench.paths import SHARED
from citecheck_tex.tex.bib import parse_bib_text
from citecheck_tex.tex.project import load_project

BIBS = SHARED / "corpus" / "bib"
FILES = ("HEPML.bib", "lsst_refs_ads.bib", "lsst_refs.bib")


def build_bib(n: int = 3000) -> str:
    """Concatenate the corpus .bib files, renaming keys of repeated copies, to n entries."""
    texts = [(BIBS / f).read_text(encoding="utf-8", errors="replace") for f in FILES]
    blocks = [b for t in texts for b in re.split(r"\n(?=@)", t) if b.lstrip().startswith("@")]
    out: list[str] = []
    copy = 0
    while len(out) < n:
        for b in blocks:
            if len(out) >= n:
                break
            out.append(re.sub(r"^(\s*@\w+\s*\{\s*)([^,\s]+)", rf"\g<1>\g<2>{'-c' + str(copy) if copy else ''}", b, count=1))
        copy += 1
    return "\n".join(out) + "\n"


def main() -> None:
    """Time both scenarios and print a markdown table."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        bib = build_bib()
        (root / "refs.bib").write_text(bib, encoding="utf-8")
        keys = re.findall(r"^\s*@\w+\s*\{\s*([^,\s]+),", bib, flags=re.M)
        t0, c0 = time.perf_counter(), time.process_time()
        entries, _ = parse_bib_text(bib, "refs.bib")
        t_bib, c_bib = time.perf_counter() - t0, time.process_time() - c0
        (root / "sections").mkdir()
        inputs = []
        for i in range(39):
            chunk = keys[i * 20:(i + 1) * 20]
            body = "\n".join(f"Paragraph {j} % comment\n\\citep{{{k}}}." for j, k in enumerate(chunk))
            (root / "sections" / f"s{i}.tex").write_text(body + "\n", encoding="utf-8")
            inputs.append(f"\\input{{sections/s{i}}}")
        (root / "main.tex").write_text(
            "\\documentclass{article}\n\\begin{document}\n" + "\n".join(inputs)
            + "\n\\bibliography{refs}\n\\end{document}\n", encoding="utf-8")
        t0, c0 = time.perf_counter(), time.process_time()
        project = load_project(root / "main.tex")
        t_proj, c_proj = time.perf_counter() - t0, time.process_time() - c0
    print("| scenario | items | seconds | cpu seconds | target |")
    print("| --- | ---: | ---: | ---: | ---: |")
    print(f"| parse 3,000-entry .bib | {len(entries)} entries | {t_bib:.2f} | {c_bib:.2f} "
          "| < 1 s |")
    print(f"| 40-file project (+ same .bib) | {len(project.files)} files, "
          f"{len(project.sites)} sites | {t_proj:.2f} | {c_proj:.2f} | < 1 s |")


if __name__ == "__main__":
    main()
