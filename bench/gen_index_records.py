"""Realistic index records at any size, recombined from the real corpus (deterministic).

    python -m bench.gen_index_records --records 1000000 --out /tmp/citecheck-scale/1m.jsonl

Writes JSON lines ``citecheck-tex index add`` imports: about half INSPIRE literature
API hits (``{"id", "metadata": {...}}``) and half arXiv metadata snapshot lines, in
the proportions a physics group indexing INSPIRE + arXiv would have. With ``--world``
(the default) the real "world" dumps of the synthetic accuracy benchmark
(:func:`bench.accuracy.run_synthetic.build_world`: the INSPIRE literature dump and the
arXiv snapshot; HEPML.bib is imported beside this file) come first, unchanged, so
the accuracy of the cited works is measured against an index full of distractors.

Everything is drawn from ``../shared/corpus`` (INSPIRE records, both dumps, the
arXiv abstract records, refextract's journal and collaboration tables), weighted by
how often it occurs there:

* titles: phrases of two to four words from two or three real titles, sometimes
  one content word replaced by a word of another real title (so distractors share
  words and phrases with the cited works, never most of one); the first :data:`NEAR_COPIES` are near copies
  of world titles (one word changed), the hardest case for title ranking; one in
  four carries a coined word (a new particle, model or acronym), because a real
  vocabulary keeps growing with the corpus (Heaps' law) and rare words are what
  title search relies on;
* authors: real (family, given) pairs, one to eight per record; a third of the
  records lead with a surname of the world records (shared surnames); one in
  fifteen is a collaboration paper;
* journals: real journal names with their real frequencies (Phys.Rev.D first),
  plus the long tail of refextract's abbreviation table; years 1975..2025;
* identifiers: fresh arXiv ids, DOIs under real publisher prefixes, texkeys and
  (journal, volume, page) triples, never equal to one of a world record (checked),
  so no distractor answers an identifier lookup of a cited work.

The same ``--seed`` and ``--records`` give the same file, whatever ``--jobs``:
records are generated in shards of :data:`SHARD` with a seed per shard.
"""

from __future__ import annotations

import argparse
import csv
import json
import multiprocessing
import random
import re
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench import paths
from citecheck_tex.sources.importers import journal_ref_key, normalize_arxiv, normalize_doi

CORPUS = paths.CORPUS
WORLD_FILES = (CORPUS / "dumps" / "inspire_literature.jsonl",
               CORPUS / "dumps" / "arxiv_metadata_snapshot.jsonl")
SEED = 20261201
#: Distractors that are a world title with one word changed (the hardest case for title
#: ranking): the first ones generated, so every size from this one on holds the same
#: set, about one per world record. A real index holds a few such look-alikes per work
#: (errata, "Comment on", proceedings versions), not more as it grows.
NEAR_COPIES = 15_000
#: Records per shard (each shard has its own seed: output independent of --jobs).
SHARD = 20_000
#: First synthetic INSPIRE control number: above every real one in the corpus and
#: below importers.SYNTHETIC_INSPIRE_ID (records keep their inspirehep.net identity).
FIRST_RECID = 20_000_000
_WORD = re.compile(r"[A-Za-z][A-Za-z\-]{3,}")
_STOP = frozenset("with from that this their into using between through under over "
                  "about after within without study model models".split())
DOI_PREFIXES = ("10.1103", "10.1016", "10.1007", "10.1088", "10.1093", "10.1140",
                "10.1142", "10.1063", "10.3847", "10.1038")
_SYLLABLES = ("ka", "lo", "ne", "tri", "quon", "zeta", "ax", "ino", "gra", "vi", "ton",
              "phi", "mu", "sto", "rel", "dyn", "hel", "xi", "omni", "bar", "yon", "pla")


@dataclass(frozen=True, slots=True)
class Pools:
    """What records are drawn from (all from the real corpus)."""

    titles: tuple[str, ...]
    world_titles: tuple[str, ...]
    words: tuple[str, ...]  # one entry per occurrence: sampling is frequency-weighted
    people: tuple[tuple[str, str], ...]  # (family, given), one per occurrence
    world_people: tuple[tuple[str, str], ...]
    journals: tuple[str, ...]  # one per occurrence, plus the long tail once each
    collaborations: tuple[str, ...]
    world_arxiv: frozenset[str]
    world_dois: frozenset[str]
    world_texkeys: frozenset[str]
    world_jrefs: frozenset[tuple[str, str, str]]


def _lines(path: Path) -> Iterator[dict[str, object]]:
    with path.open(encoding="utf-8") as fh:
        for line in fh:
            if line.strip():
                yield json.loads(line)


def load_pools(corpus: Path = CORPUS) -> Pools:
    """Read titles, people, journals and the world's identifiers from the corpus."""
    titles: list[str] = []
    world_titles: list[str] = []
    people: list[tuple[str, str]] = []
    world_people: list[tuple[str, str]] = []
    journals: list[str] = []
    arxivs: set[str] = set()
    dois: set[str] = set()
    texkeys: set[str] = set()
    jrefs: set[tuple[str, str, str]] = set()
    for hit in _lines(corpus / "dumps" / "inspire_literature.jsonl"):
        md = hit["metadata"]
        assert isinstance(md, dict)
        for t in md.get("titles") or []:
            world_titles.append(t["title"])
            break
        for a in (md.get("authors") or [])[:10]:
            if a.get("last_name"):
                world_people.append((a["last_name"], a.get("first_name", "")))
        dois |= {normalize_doi(d["value"]) for d in md.get("dois") or []}
        arxivs |= {normalize_arxiv(e["value"]) for e in md.get("arxiv_eprints") or []}
        texkeys |= {t.lower() for t in md.get("texkeys") or []}
        for p in md.get("publication_info") or []:
            if p.get("journal_title"):
                journals.append(p["journal_title"])
                key = journal_ref_key(p["journal_title"], str(p.get("journal_volume", "")),
                                      str(p.get("page_start") or p.get("artid") or ""))
                if key:
                    jrefs.add(key)
    for obj in _lines(corpus / "dumps" / "arxiv_metadata_snapshot.jsonl"):
        world_titles.append(str(obj["title"]))
        arxivs.add(normalize_arxiv(str(obj["id"])))
        if obj.get("doi"):
            dois.add(normalize_doi(str(obj["doi"])))
        for p in obj.get("authors_parsed") or []:  # type: ignore[attr-defined]
            world_people.append((p[0], p[1]))
    for obj in _lines(corpus / "inspire_hep_records.jsonl"):
        titles.append(str(obj["title"]))
        for name in (obj.get("authors") or [])[:10]:  # type: ignore[index]
            family, _, given = str(name).partition(",")
            if family.strip():
                people.append((family.strip(), given.strip()))
        for p in obj.get("publication_info") or []:  # type: ignore[attr-defined]
            if p.get("journal"):
                journals.append(p["journal"])
    for obj in _lines(corpus / "arxiv_abs_records.jsonl"):
        titles.append(str(obj["title"]))
    table = corpus / "journal_abbreviations" / "inspire_refextract_journal_titles.csv"
    with table.open(encoding="utf-8") as fh:
        tail = sorted({row["inspire_abbreviation"] for row in csv.DictReader(fh)})
    with (corpus / "journal_abbreviations" / "inspire_refextract_collaborations.csv").open(
            encoding="utf-8") as fh:
        collabs = sorted({row["collaboration"] for row in csv.DictReader(fh)})
    titles = [" ".join(t.split()) for t in titles + world_titles if t and len(t) > 12]
    words = [w for t in titles for w in _WORD.findall(t) if w.lower() not in _STOP]
    return Pools(
        titles=tuple(titles), world_titles=tuple(" ".join(t.split()) for t in world_titles),
        words=tuple(words), people=tuple(people + world_people),
        world_people=tuple(world_people), journals=tuple(journals + tail),
        collaborations=tuple(collabs), world_arxiv=frozenset(arxivs),
        world_dois=frozenset(dois), world_texkeys=frozenset(texkeys),
        world_jrefs=frozenset(jrefs),
    )


def _coined(rng: random.Random) -> str:
    """A new word: a particle, model or detector name no title had before."""
    kind = rng.random()
    stem = "".join(rng.choice(_SYLLABLES) for _ in range(rng.randint(2, 3)))
    if kind < 0.4:
        return stem.capitalize()
    if kind < 0.7:
        return f"{stem[:3].upper()}-{rng.randint(1, 99)}"
    return f"{stem}{rng.choice(('on', 'ino', 'ics', 'ity'))}"


def _units(title: str) -> list[str]:
    """The words of a title, a formula (``$B \\to K$``) or a braced group being one:
    a phrase cut from a real title keeps its TeX whole, as real titles do (a cut
    ``$`` made about one generated title in eighty unbalanced TeX, which no dump holds)."""
    units: list[str] = []
    open_unit = ""
    for word in title.split():
        open_unit = f"{open_unit} {word}" if open_unit else word
        if open_unit.count("$") % 2 == 0 and open_unit.count("{") == open_unit.count("}"):
            units.append(open_unit)
            open_unit = ""
    if open_unit:
        units.append(open_unit)
    return units


def make_title(pools: Pools, rng: random.Random, near_copy: bool = False) -> str:
    """A title recombined from real titles (see the module docstring)."""
    if near_copy:
        words = rng.choice(pools.world_titles).split()
        changes = 1
    else:
        # Phrases of two to four words from two or three real titles: the phrases
        # are real, the title is new. Longer pieces would copy most of some real
        # title into hundreds of distractors at 10 million records (the corpus has
        # only ~27,000 titles), which no real index does.
        words = []
        for _ in range(rng.randint(2, 3)):
            source = _units(rng.choice(pools.titles))
            size = rng.randint(2, 4)
            start = rng.randint(0, max(0, len(source) - size))
            words += source[start:start + size]
        changes = rng.randint(0, 1)
    content = [i for i, w in enumerate(words) if _WORD.fullmatch(w) and w.lower() not in _STOP]
    for i in rng.sample(content, min(changes, len(content))):
        new = rng.choice(pools.words)
        words[i] = new.capitalize() if words[i][:1].isupper() else new.lower()
    if rng.random() < 0.25:
        words.insert(rng.randint(0, len(words)), _coined(rng))
    return " ".join(words)


def _people(pools: Pools, rng: random.Random) -> list[tuple[str, str]]:
    n = min(8, max(1, int(rng.expovariate(0.35)) + 1))
    chosen = [rng.choice(pools.people) for _ in range(n)]
    if rng.random() < 0.33:
        chosen[0] = rng.choice(pools.world_people)
    return chosen


class _Ids:
    """Fresh identifiers of one shard, never those of a world record."""

    def __init__(self, pools: Pools, shard: int, rng: random.Random) -> None:
        self.pools, self.shard, self.rng = pools, shard, rng
        self.serial = 0

    def next_serial(self) -> int:
        self.serial += 1
        return self.shard * SHARD + self.serial

    def arxiv(self, serial: int) -> str:
        """A new-style id: month 0707..2512 and a five-digit number from 50000, from the
        serial (unique up to 11 million records; beyond, old-style ids)."""
        months = 19 * 12
        if serial >= months * 50_000:
            return f"hep-ph/{serial % 10_000_000:07d}"
        index = serial % months
        return f"{7 + index // 12:02d}{index % 12 + 1:02d}.{50_000 + serial // months:05d}"

    def doi(self, serial: int, journal: str, year: int) -> str:
        slug = re.sub(r"[^A-Za-z]", "", journal).upper()[:8] or "J"
        return f"{self.rng.choice(DOI_PREFIXES)}/{slug}.{year}.{serial:08d}"


def _fresh_arxiv(ids: _Ids, serial: int) -> str:
    ident = ids.arxiv(serial)
    return "" if normalize_arxiv(ident) in ids.pools.world_arxiv else ident


def make_shard(pools: Pools, seed: int, shard: int, count: int) -> list[str]:
    """``count`` JSON lines of shard number ``shard`` (deterministic)."""
    rng = random.Random(f"{seed}:{shard}")
    ids = _Ids(pools, shard, rng)
    out = []
    for _ in range(count):
        serial = ids.next_serial()
        year = min(2025, max(1975, int(rng.triangular(1975, 2025, 2020))))
        title = make_title(pools, rng, near_copy=serial <= NEAR_COPIES)
        people = _people(pools, rng)
        collab = rng.choice(pools.collaborations) if rng.random() < 0.066 else ""
        journal = rng.choice(pools.journals) if rng.random() < 0.7 else ""
        volume = str(rng.randint(1, 999))
        page = str(rng.randint(1, 9999)) if rng.random() < 0.5 else f"{rng.randint(1, 99999):06d}"
        if journal and journal_ref_key(journal, volume, page) in pools.world_jrefs:
            journal = ""
        doi = ids.doi(serial, journal, year) if journal and rng.random() < 0.9 else ""
        if normalize_doi(doi) in pools.world_dois:
            doi = ""
        arxiv = _fresh_arxiv(ids, serial) if year >= 1992 and rng.random() < 0.8 else ""
        if rng.random() < 0.5:
            out.append(_inspire_line(serial, title, people, collab, journal, volume, page, year,
                                     doi, arxiv, pools, rng))
        else:
            out.append(_arxiv_line(arxiv or _fresh_arxiv(ids, serial) or f"hep-ex/{serial:07d}",
                                   title, people, collab, journal,
                                   volume, page, year, doi))
    return out


def _inspire_line(serial: int, title: str, people: list[tuple[str, str]], collab: str,
                  journal: str, volume: str, page: str, year: int, doi: str, arxiv: str,
                  pools: Pools, rng: random.Random) -> str:
    family = re.sub(r"[^A-Za-z]", "", people[0][0]) or "Anon"
    texkey = f"{family}:{year}{rng.choice('abcdefghijklmnopqrstuvwxyz')}" \
             f"{rng.choice('abcdefghijklmnopqrstuvwxyz')}{rng.choice('abcdefghijk')}"
    md: dict[str, object] = {
        "control_number": FIRST_RECID + serial,
        "titles": [{"title": title}],
        "authors": [{"full_name": f"{f}, {g}".strip(", "), "first_name": g, "last_name": f}
                    for f, g in people],
        "document_type": ["article"],
        "preprint_date": f"{year}-{serial % 12 + 1:02d}",
    }
    if texkey.lower() not in pools.world_texkeys:
        md["texkeys"] = [texkey]
    if collab:
        md["collaborations"] = [{"value": collab}]
    if journal:
        md["publication_info"] = [{"journal_title": journal, "journal_volume": volume,
                                   "page_start": page, "year": year}]
    if doi:
        md["dois"] = [{"value": doi}]
    if arxiv:
        md["arxiv_eprints"] = [{"value": arxiv}]
    return json.dumps({"id": str(FIRST_RECID + serial), "metadata": md},
                      ensure_ascii=False, separators=(",", ":"))


def _arxiv_line(arxiv: str, title: str, people: list[tuple[str, str]], collab: str,
                journal: str, volume: str, page: str, year: int, doi: str) -> str:
    names = [f"{g} {f}".strip() for f, g in people]
    if collab:
        names.append(collab)
    obj = {
        "id": arxiv, "submitter": names[0], "authors": ", ".join(names), "title": title,
        "journal-ref": f"{journal} {volume} ({year}) {page}" if journal else None,
        "doi": doi or None,
        "versions": [{"version": "v1", "created": f"Mon, 1 Jan {year} 00:00:00 GMT"}],
        "authors_parsed": [[f, g, ""] for f, g in people],
    }
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


_POOLS: Pools | None = None


def _init(pools: Pools) -> None:
    global _POOLS
    _POOLS = pools


def _work(job: tuple[int, int, int]) -> list[str]:
    seed, shard, count = job
    assert _POOLS is not None
    return make_shard(_POOLS, seed, shard, count)


def generate(out: Path, records: int, *, seed: int = SEED, world: bool = True,
             jobs: int = 0) -> int:
    """Write ``records`` distractors (after the world dumps with ``world``); returns lines."""
    pools = load_pools()
    out.parent.mkdir(parents=True, exist_ok=True)
    shards = [(seed, i, min(SHARD, records - i * SHARD))
              for i in range((records + SHARD - 1) // SHARD)]
    written = 0
    with out.open("w", encoding="utf-8") as fh:
        if world:
            for path in WORLD_FILES:
                with path.open(encoding="utf-8") as src:
                    for line in src:
                        if line.strip():
                            fh.write(line if line.endswith("\n") else line + "\n")
                            written += 1
        jobs = jobs or multiprocessing.cpu_count()
        if jobs == 1 or len(shards) == 1:
            results: Iterator[list[str]] = (make_shard(pools, *s) for s in shards)
            for lines in results:
                fh.write("\n".join(lines) + "\n")
                written += len(lines)
        else:
            with multiprocessing.get_context("fork").Pool(jobs, _init, (pools,)) as pool:
                for lines in pool.imap(_work, shards):
                    fh.write("\n".join(lines) + "\n")
                    written += len(lines)
    return written


def main(argv: list[str] | None = None) -> int:
    """Generate a file; print what was written."""
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", type=int, default=100_000, help="distractors to generate")
    ap.add_argument("--out", type=Path, required=True)
    ap.add_argument("--seed", type=int, default=SEED)
    ap.add_argument("--no-world", action="store_true", help="leave the world dumps out")
    ap.add_argument("--jobs", type=int, default=0, help="processes (default: every core)")
    args = ap.parse_args(argv)
    if not CORPUS.is_dir():
        print(f"corpus not found at {CORPUS}", file=sys.stderr)
        return 2
    t0 = time.perf_counter()
    n = generate(args.out, args.records, seed=args.seed, world=not args.no_world,
                 jobs=args.jobs)
    print(f"{args.out}: {n} lines ({args.records} generated), "
          f"{args.out.stat().st_size / 2**20:.0f} MiB, {time.perf_counter() - t0:.1f} s")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
