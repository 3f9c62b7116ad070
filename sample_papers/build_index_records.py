"""Rebuild the sample papers' offline index excerpts from the shared corpus.

Run from the repository root:  python sample_papers/build_index_records.py [CORPUS_DIR]

For each sample paper it copies, verbatim and in corpus order, the lines of
``dumps/inspire_literature.jsonl`` that hold the true record of every real work
the paper cites (plus any duplicate line sharing a DOI or arXiv id with one of
them) and about 200 distractor lines on the same topics, chosen
deterministically by a title regex.  arXiv-only truths come from
``dumps/arxiv_metadata_snapshot.jsonl``.  Nothing is invented or edited.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
DEFAULT_CORPUS = Path("/work/shared/corpus")
N_DISTRACTORS = 200

PAPERS: dict[str, dict[str, Any]] = {
    "dark_matter_axions": {
        # INSPIRE control numbers of the true records (cited works, the true
        # record behind the chimera title, the record owning the hijacked DOI,
        # and the unused entry).
        "inspire": [
            1410082,
            90004605,
            90004698,
            90004722,
            90004766,
            90004664,
            245285,
            1323646,
            1255022,
            90000940,
            1118732,
            1335297,
            1400775,
            1334466,
            1184893,
            1204942,
            1243840,
            90004424,
            90004409,
            90003522,
            90004508,
            90003033,
            90004156,
        ],
        "arxiv": ["0704.0169", "0705.0001"],
        "topics": [
            r"axion|peccei|hidden photon|dark photon|misalignment",
            r"dark matter|\bWIMP|minihalo|fuzzy|ultralight",
            r"inflation|cosmolog|dark energy|primordial black hole|sterile neutrino",
        ],
    },
    "holography_qcd": {
        "inspire": [
            90003344,
            90004271,
            90004972,
            90005006,
            90004749,
            90005232,
            1333688,
            1331429,
            90003526,
            90004086,
            90003057,
            90003022,
            90003037,
            90004915,
            90003292,
            90003769,
            507389,
            1254245,
            1124351,
            1262823,
            1311996,
            1330313,
            1351237,
            90004036,
            90005108,
            1234440,
            1408535,
        ],
        "arxiv": ["0704.0240", "0704.0940"],
        "topics": [
            r"AdS/QCD|holographic QCD|light-front holograph|gauge/gravity|gauge-string",
            r"\bAdS|holograph|anti-de Sitter|string dual",
            r"lattice QCD|lattice gauge|quark-gluon plasma|deconfin|confinement|Wilson loop"
            r"|instanton|glueball|Regge",
        ],
    },
}


def _ids(meta: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for d in meta.get("dois") or []:
        out.add("doi:" + str(d["value"]).lower())
    for e in meta.get("arxiv_eprints") or []:
        out.add("arxiv:" + str(e["value"]))
    return out


def build(corpus: Path) -> None:
    """Write index_records.jsonl / index_records_arxiv.jsonl for every paper."""
    lines = (corpus / "dumps" / "inspire_literature.jsonl").read_text(encoding="utf-8")
    inspire = [ln for ln in lines.splitlines() if ln.strip()]
    metas = [json.loads(ln)["metadata"] for ln in inspire]
    arxiv_lines = (corpus / "dumps" / "arxiv_metadata_snapshot.jsonl").read_text(encoding="utf-8")
    arxiv = {json.loads(ln)["id"]: ln for ln in arxiv_lines.splitlines() if ln.strip()}
    for paper, spec in PAPERS.items():
        wanted = set(spec["inspire"])
        truth_idx = [i for i, m in enumerate(metas) if m["control_number"] in wanted]
        missing = wanted - {metas[i]["control_number"] for i in truth_idx}
        if missing:
            raise SystemExit(f"{paper}: control numbers not in corpus: {sorted(missing)}")
        truth_ids: set[str] = set()
        for i in truth_idx:
            truth_ids |= _ids(metas[i])
        chosen = set(truth_idx)
        chosen |= {i for i, m in enumerate(metas) if _ids(m) & truth_ids}
        n_distr = 0
        for pattern in spec["topics"]:
            rx = re.compile(pattern, re.I)
            for i, m in enumerate(metas):
                if n_distr >= N_DISTRACTORS:
                    break
                title = ((m.get("titles") or [{}])[0]).get("title", "")
                if i not in chosen and rx.search(title):
                    chosen.add(i)
                    n_distr += 1
        out = HERE / paper / "index_records.jsonl"
        out.write_text("".join(inspire[i] + "\n" for i in sorted(chosen)), encoding="utf-8")
        arx = [arxiv[a] for a in spec["arxiv"]]
        (HERE / paper / "index_records_arxiv.jsonl").write_text(
            "".join(a + "\n" for a in arx), encoding="utf-8"
        )
        print(f"{paper}: {len(chosen)} INSPIRE lines ({n_distr} distractors), {len(arx)} arXiv")


if __name__ == "__main__":
    build(Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_CORPUS)
