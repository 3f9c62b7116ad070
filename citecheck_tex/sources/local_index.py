"""The local offline index: SQLite built from real dumps and trusted BibTeX libraries.

Schema (version :data:`SCHEMA_VERSION`, kept in the ``meta`` table):

* ``records``: one row per identity of a dump (``uid`` unique: re-importing a file
  replaces its rows, so imports are idempotent); the :class:`Record` as JSON plus the
  normalised title, surnames and year used for ranking.
* ``doi``, ``arxiv``, ``texkey``, ``report``: identifier -> record lookup tables.
* ``jref``: (journal key, volume, first page) -> record, journal names normalised
  with :func:`citecheck_tex.vocab.journals.split_volume_letter`.
* ``author_year``: (author key, year) -> record, for title-less references whose
  journal reference is incomplete or corrupted (:meth:`LocalIndex.by_author_year`).
  Keys are the family names of the first :data:`AUTHOR_YEAR_AUTHORS` authors and the
  collaborations (:func:`author_key`), under every year of the record (print,
  preprint, other publications). Schema version 2 added it; a version-1 index is
  upgraded in place when opened (:meth:`LocalIndex._upgrade`).
* ``title_fts``: an FTS5 table over normalised titles (rowid = record rid), and
  ``title_vocab`` (fts5vocab) for the document frequency of each title word.
* ``title_terms``: (word, document frequency), a plain copy of ``title_vocab``
  refreshed at the end of every import. A title search looks up the rarity of its
  words here: a primary-key lookup is about ten times cheaper than the same lookup in
  the ``fts5vocab`` virtual table, which was a sixth of the time of a title search.
  Schema version 3 added it; older indexes are upgraded in place when opened.
* ``files``: what was imported from where, in which format.

Import (:meth:`LocalIndex.add_file`): processes parse chunks of the file (JSON lines
by byte ranges they read themselves) into table-shaped lists; this process writes
them in file order. The records go to ``records`` and their titles to the title
index at once (in rid order); the lookup keys of new records go to TEMP staging
tables and are merged into the lookup tables sorted, once, at the end (B-trees
filled in key order, sorted in small runs by SQLite's helper threads; FTS5
``optimize`` when the import added a good part of the index). A new index is written
with an in-memory journal, without syncs and without FTS5's automerge meanwhile. A
``meta`` marker (``import_pending``) stands while keys are staged: the next writable
opening removes the records of an interrupted import (they have no keys yet) and
their titles, and a new index whose import was killed is refused (delete it and
import again).

The ``local`` source answers DOI, arXiv, texkey, journal-reference, author+year
and title queries from the index. Its SQLite calls run directly on the event loop: every
lookup is an indexed point query or a small FTS5 match, well under a millisecond
(``python -m bench.bench_index`` measures p95), which is cheaper than the thread
hop of ``asyncio.to_thread``.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import gc
import gzip
import heapq
import io
import json
import logging
import marshal
import multiprocessing
import os
import re
import sqlite3
import sys
import time
import zlib
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

import orjson
from rapidfuzz import fuzz

from citecheck_tex.errors import LocalIndexError
from citecheck_tex.model import (
    Answer,
    Entry,
    Person,
    Problem,
    Query,
    QueryKind,
    Record,
    SourceStatus,
)
from citecheck_tex.sources import dblp_xml
from citecheck_tex.sources.base import register
from citecheck_tex.sources.importers import (
    IndexRow,
    bib_row,
    classify_json,
    journal_ref_key,
    normalize_arxiv,
    normalize_doi,
    normalize_title,
    pub_key,
    rows_from_json,
)
from citecheck_tex.tex.bib import parse_bib_text
from citecheck_tex.tex.encoding import decode_source
from citecheck_tex.vocab.ids import normalize_report_number
from citecheck_tex.vocab.journals import series_keys

logger = logging.getLogger(__name__)

SCHEMA_VERSION = "4"
#: Older schema versions :meth:`LocalIndex.open` upgrades in place.
UPGRADABLE_VERSIONS = frozenset({"1", "2", "3"})
#: Authors of a record indexed under (family name, year): the first few, because a
#: citation names the first author (and a swapped order rarely goes further).
AUTHOR_YEAR_AUTHORS = 3
#: Years a preprint-only record may precede the journal version a reference cites.
PREPRINT_LEAD_YEARS = 2
#: Candidates an author+year lookup returns at most.
MAX_AUTHOR_YEAR_RECORDS = 5
#: Candidates of one (author, year) decoded for ranking at most (a prolific author).
MAX_AUTHOR_YEAR_SCAN = 400
#: Rows of one (author, year) counted at most when choosing which cited author an
#: author+year narrowing starts from.
AUTHOR_YEAR_COUNT_BOUND = 1000
SOURCE_NAME = "local"
MAX_ANSWER_RECORDS = 5
#: Lines (JSON) or records (DBLP) parsed per task and rows written per transaction:
#: bounds the memory of an import.
CHUNK_ROWS = 2000
#: Bytes of an uncompressed JSON-lines file per parsing task (about 2,000 dump lines).
CHUNK_BYTES = 2**20
#: Rows an import writes per transaction, and its page cache (KiB) meanwhile.
COMMIT_ROWS = 50_000
IMPORT_CACHE_KIB = 131072
#: Page cache (KiB) while the staged keys are merged into the lookup tables. SQLite's
#: sorter sorts runs of this size and merges them: small runs fit the CPU caches, and
#: with :data:`MERGE_THREADS` they are sorted by helper threads while the next is read.
#: Sorting the 2.3 million author+year keys of 1 million records took 3.3 s with a
#: 256-MiB cache, 1.9 s with 4 MiB and 1.3 s (2.2 s CPU) with 4 MiB and two helper
#: threads; adding records to a filled index (sorted inserts into its B-trees) was not
#: slower with the small cache (1.9 s against 2.1 s for 300,000 records into 1 million).
MERGE_CACHE_KIB = 4096
#: Helper threads of SQLite's sorter during the merge (``PRAGMA threads``): the parsing
#: processes have finished by then, so the other cores are free.
MERGE_THREADS = min(8, os.cpu_count() or 1)
#: An import that adds at least this share of an index's records merges its title
#: index into one segment afterwards (FTS5 ``optimize``).
FTS_OPTIMIZE_SHARE = 0.25
#: FTS5's default ``automerge``; a new index is filled with 0 (no merging of the title
#: index's segments while they are written, only the final 'optimize'): 1 us less CPU
#: per record at 1 million records, with an optimize no slower (0.47 s against 0.56 s).
FTS_AUTOMERGE = 4
#: FTS5's default ``crisismerge``, and what a new index is filled with. FTS5 merges
#: the segments of one level when they reach ``crisismerge`` even with automerge off:
#: with 16, the title index of 10 million records was merged step by step while it was
#: written, work the final 'optimize' does again (10 million generated titles: 55.2 s
#: CPU to insert and 7.1 s to optimize with 16; 44.5 s and 7.2 s with 1,000, which
#: merged once). 1,000 is half of FTS5's limit of 2,000 segments per index, which a
#: higher value would come close to.
FTS_CRISISMERGE = 16
FTS_BULK_CRISISMERGE = 1000
#: ``add_file(jobs=0)`` parses in every core from this file size on (a pool of
#: processes costs a few hundred milliseconds to start and feed).
PARALLEL_MIN_BYTES = 8 * 2**20
#: BibTeX entries parsed at a time.
BIB_CHUNK_ENTRIES = 400
#: How many bad lines are remembered (all are counted).
MAX_REPORTED = 50
#: Records of these origins come first when several answer one identifier: curated
#: INSPIRE and publisher metadata before preprint and user-library records.
ORIGIN_ORDER = {"inspire": 0, "crossref": 1, "dblp": 2, "openalex": 2, "arxiv": 3, "bib": 4}
#: SQLite page cache per connection (KiB) and memory-mapped size (bytes) of the index.
CACHE_KIB = 32768
MMAP_BYTES = 64 * 1024 * 1024
#: Title search: the rarest words are matched alone while their posting lists hold
#: at most this many titles together; the other rare words must occur in pairs
#: (bm25 ranking costs per matching title: this bounds the latency at any size).
TITLE_POSTINGS_BUDGET = 300
#: Title search: a misspelt word's four-letter prefix is searched only when at most
#: this many titles have a word with that prefix.
PREFIX_POSTINGS_BUDGET = 2000
#: Title search: the answer of the precise stage (all three rarest words) is taken
#: when its best similarity reaches this; else the typo-tolerant expression runs.
PRECISE_ACCEPT = 0.8
#: Title search: candidates of one stage (the matching titles most similar to the cited
#: one), re-ranked by similarity, authors and year.
TITLE_CANDIDATES = 40
#: Title search: titles matching an expression read and compared with the cited one at
#: most; a match of more is ranked by FTS5's bm25 first (see ``_title_candidates``).
TITLE_SCAN = 2000
#: Two formats of one dump family give the same Record.id; the richer one is kept.
FORMAT_ORDER = {"inspire": 0, "inspire-corpus": 1, "arxiv": 0, "arxiv-corpus": 1}

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS records(
    rid INTEGER PRIMARY KEY,
    uid TEXT NOT NULL UNIQUE,
    origin TEXT NOT NULL,
    format TEXT NOT NULL,
    file TEXT NOT NULL,
    year TEXT NOT NULL,
    norm_title TEXT NOT NULL,
    surnames TEXT NOT NULL,
    data TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS doi(key TEXT NOT NULL, rid INTEGER NOT NULL,
    PRIMARY KEY(key, rid)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS arxiv(key TEXT NOT NULL, rid INTEGER NOT NULL,
    PRIMARY KEY(key, rid)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS texkey(key TEXT NOT NULL, rid INTEGER NOT NULL,
    PRIMARY KEY(key, rid)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS jref(jkey TEXT NOT NULL, volume TEXT NOT NULL, page TEXT NOT NULL,
    rid INTEGER NOT NULL, PRIMARY KEY(jkey, volume, page, rid)) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS doi_rid ON doi(rid);
CREATE INDEX IF NOT EXISTS arxiv_rid ON arxiv(rid);
CREATE INDEX IF NOT EXISTS jref_rid ON jref(rid);
CREATE TABLE IF NOT EXISTS files(path TEXT PRIMARY KEY, format TEXT NOT NULL,
    records INTEGER NOT NULL, bad INTEGER NOT NULL, imported_at REAL NOT NULL);
"""

#: The table schema version 2 added (created by new indexes and by the upgrade).
_AUTHOR_YEAR_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS author_year(name TEXT NOT NULL, year TEXT NOT NULL,"
    " rid INTEGER NOT NULL, PRIMARY KEY(name, year, rid)) WITHOUT ROWID",
)
#: The tables schema version 3 added: the document frequency of each title word, and
#: report numbers ("CMS-PAS-HIG-11-023"; filled by imports from version 3 on).
_TITLE_TERMS_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS title_terms(term TEXT PRIMARY KEY, doc INTEGER NOT NULL)"
    " WITHOUT ROWID",
    "CREATE TABLE IF NOT EXISTS report(key TEXT NOT NULL, rid INTEGER NOT NULL,"
    " PRIMARY KEY(key, rid)) WITHOUT ROWID",
)
#: Schema version 4: the title index reads its text from ``records.norm_title``
#: (external content: the titles are stored once), and the lookup tables whose keys
#: are derived from the stored record alone (author_year, texkey, report) have no
#: rid index: a replaced record's keys are recomputed from its old JSON instead.
#: Built since 2026-12-02 without a prefix index and without word positions (older
#: indexes have ``prefix = '4'`` and FTS5's default ``detail = 'full'``; both answer
#: every query alike). The one prefix query, a misspelt word's four-letter stem, runs
#: only when ``title_terms`` says a few titles have a word with that stem
#: (:data:`PREFIX_POSTINGS_BUDGET`), and FTS5 answers it from the term range of the
#: main index. Positions serve phrase and NEAR queries, which title search never
#: asks: its phrases are single words of :func:`normalize_title` (runs of letters and
#: digits, one unicode61 token each), and bm25 only orders matches of over
#: :data:`TITLE_SCAN` titles before they are re-ranked by similarity. 600,000
#: real-shaped titles: 7.5 us CPU per title to fill and 0.7 to optimize with both,
#: 4.1 and 0.2 without; the title index 48 -> 13 bytes per title.
_FTS_SCHEMA = (
    "CREATE VIRTUAL TABLE IF NOT EXISTS title_fts USING fts5(norm_title,"
    " content='records', content_rowid='rid',"
    " tokenize = 'unicode61 remove_diacritics 2', detail = 'none')",
    "CREATE VIRTUAL TABLE IF NOT EXISTS title_vocab USING fts5vocab(title_fts, row)",
)
_SCHEMA += "".join(f"{statement};\n" for statement in
                   (*_AUTHOR_YEAR_SCHEMA, *_TITLE_TERMS_SCHEMA, *_FTS_SCHEMA))
#: Indexes of schema 3 and older that version 4 drops.
_DROPPED_INDEXES = ("author_year_rid", "texkey_rid", "report_rid")

_LOOKUP_TABLES = ("doi", "arxiv", "texkey", "jref", "author_year", "report")
#: An import appends the lookup keys of its new records to these TEMP tables (no
#: index: appending costs the same at any size) and merges them into the lookup
#: tables sorted, at the end (:meth:`LocalIndex._merge_staged`): a B-tree filled in key
#: order touches each page once, where one insert per record at a random key misses
#: the page cache once the index outgrows it (the writer cost 42 us per record at 1
#: million records and 81 at 10 million that way).
_STAGE_COLUMNS = {"doi": "key, rid", "arxiv": "key, rid", "texkey": "key, rid",
                  "report": "key, rid", "jref": "jkey, volume, page, rid",
                  "author_year": "name, year, rid"}
#: The rid indexes a bulk load into an empty index builds after the merge.
_RID_INDEXES = {"doi_rid": "doi(rid)", "arxiv_rid": "arxiv(rid)", "jref_rid": "jref(rid)"}
#: ``meta`` key of an import whose staged keys are not merged yet: "<first rid> <mode>",
#: mode "journal" or "unjournaled" (a new index built without a rollback journal).
_PENDING_KEY = "import_pending"
_STOP_WORDS = frozenset(
    "a an and the of in on for to with by from at as is are be its via or into".split()
)


@dataclass(frozen=True, slots=True)
class ImportStats:
    """What importing one file did. ``records`` counts rows written (new or replaced)."""

    path: str
    format: str
    lines: int = 0
    records: int = 0
    skipped: int = 0  # well-formed records with neither title nor identifier
    bad: int = 0  # lines or blocks that could not be read (counted, never fatal)
    problems: tuple[Problem, ...] = ()  # the first bad lines, with file and line
    formats: Mapping[str, int] = field(default_factory=dict)
    elapsed_s: float = 0.0


@dataclass(frozen=True, slots=True)
class IndexStats:
    """Counts of an index, per source (dump family) and per format."""

    path: str
    schema_version: str
    records: int
    by_source: Mapping[str, int]
    by_format: Mapping[str, int]
    dois: int
    arxiv_ids: int
    texkeys: int
    journal_refs: int
    files: tuple[tuple[str, str, int, int], ...] = ()  # (path, format, records, bad)


# --------------------------------------------------------------------------- records <-> JSON


def _default_url(ident: str) -> str:
    """The URL a record id implies; stored URLs equal to it are left out of the JSON."""
    kind, _, value = ident.partition(":")
    if kind == "inspire" and value.isdigit():
        return f"https://inspirehep.net/literature/{value}"
    if kind == "arxiv":
        return f"https://arxiv.org/abs/{value}"
    if kind == "doi":
        return f"https://doi.org/{value}"
    return ""


def _person_list(p: Person) -> tuple[Any, ...]:
    """A person as stored: (family, given, von, jr, literal), trailing empty parts left out
    (the family always stays)."""
    if p.literal:
        return (p.family, p.given, p.von, p.jr, p.literal)
    if p.jr:
        return (p.family, p.given, p.von, p.jr)
    if p.von:
        return (p.family, p.given, p.von)
    if p.given:
        return (p.family, p.given)
    return (p.family,)


#: What an import stores of one person: (stored list, has a family name, surname key of
#: the family, of the family with its von part or None, author+year key of each).
_PersonKeys = tuple[tuple[Any, ...], bool, str, str | None, str, str | None]


#: id(person) -> (person, its keys): the persons of an import come from the name
#: parsers' caches, so the same objects recur; looked up by identity, because hashing a
#: Person (five fields, in Python) costs as much as working its keys out again. The
#: person is kept with its keys, so its id is not reused while it is in here.
_PERSON_KEYS: dict[int, tuple[Person, _PersonKeys]] = {}
_PERSON_KEYS_MAX = 262144


def _person_keys(p: Person) -> _PersonKeys:
    got = _PERSON_KEYS.get(id(p))
    if got is not None:
        return got[1]
    if len(_PERSON_KEYS) >= _PERSON_KEYS_MAX:
        _PERSON_KEYS.clear()
    keys = _work_person_keys(p)
    _PERSON_KEYS[id(p)] = (p, keys)
    return keys


def _work_person_keys(p: Person) -> _PersonKeys:
    if not p.family:
        return _person_list(p), False, "", None, "", None
    full = p.full_family if p.von else None
    return (_person_list(p), True, _surname_key(p.family),
            _surname_key(full) if full is not None else None, author_key(p.family),
            author_key(full) if full is not None else None)


def _record_to_json(rec: Record) -> str:
    """Compact JSON of a record: empty fields and the URL its id implies are left out
    (schema 4; the decoder reads the full form of older indexes too)."""
    return _record_json(rec, [_person_keys(p)[0] for p in rec.authors])


def _record_json(rec: Record, persons: list[tuple[Any, ...]]) -> str:
    """:func:`_record_to_json` with the stored lists of the authors given."""
    data: dict[str, Any] = {"id": rec.id}
    if rec.url != _default_url(rec.id):
        data["url"] = rec.url
    # tuples serialise as lists; the keys always in this order (the stored text of a
    # record does not change between imports), empty values left out; one test per
    # field: a loop over (key, value) pairs cost more than a quarter more per record
    # (3.5 against 2.75 us)
    if rec.title:
        data["title"] = rec.title
    if persons:
        data["authors"] = persons
    if rec.authors_truncated:
        data["at"] = rec.authors_truncated
    if rec.collaborations:
        data["collab"] = rec.collaborations
    if rec.year:
        data["year"] = rec.year
    if rec.other_years:
        data["oy"] = rec.other_years
    if rec.venue:
        data["venue"] = rec.venue
    if rec.venue_aliases:
        data["va"] = rec.venue_aliases
    if rec.volume:
        data["volume"] = rec.volume
    if rec.pages:
        data["pages"] = rec.pages
    if rec.doi:
        data["doi"] = rec.doi
    if rec.arxiv:
        data["arxiv"] = rec.arxiv
    if rec.texkeys:
        data["texkeys"] = rec.texkeys
    if rec.entry_type:
        data["type"] = rec.entry_type
    if rec.extra_pubs:
        data["xp"] = rec.extra_pubs
    if rec.report_numbers:
        data["rn"] = rec.report_numbers
    if rec.catalogue_dates:
        data["cd"] = rec.catalogue_dates
    try:  # orjson: a sixth of the cost; the same compact text
        return orjson.dumps(data).decode()
    except orjson.JSONEncodeError:  # a lone surrogate: let json say what it makes of it
        return json.dumps(data, ensure_ascii=False, separators=(",", ":"))


def _loads(text: str | bytes) -> Any:
    """Parse JSON with orjson (twice as fast), or with json what orjson refuses (NaN,
    lone surrogate escapes), so that no line reads differently than before. A lone
    surrogate becomes U+FFFD: SQLite stores UTF-8, which has no surrogates (such a
    record used to stop the whole import with an encoding error)."""
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return _without_surrogates(json.loads(text))


_SURROGATE = re.compile("[\ud800-\udfff]")


def _without_surrogates(value: Any) -> Any:
    """``value`` (parsed JSON) with each lone surrogate replaced by U+FFFD."""
    if isinstance(value, str):
        return _SURROGATE.sub("\ufffd", value)
    if isinstance(value, list):
        return [_without_surrogates(v) for v in value]
    if isinstance(value, dict):
        return {_without_surrogates(k): _without_surrogates(v) for k, v in value.items()}
    return value


def _person_from_list(a: Sequence[Any]) -> Person:
    a = [*a, "", "", "", "", False][:5]
    return Person(family=a[0], given=a[1], von=a[2], jr=a[3], literal=bool(a[4]))


def _record_from_json(text: str, score: float = 0.0) -> Record:
    return _record_from_doc(_loads(text), score)


def _record_from_doc(d: Mapping[str, Any], score: float = 0.0) -> Record:
    """The Record of a parsed stored JSON (compact or full form)."""
    g = d.get
    return Record(
        source=SOURCE_NAME, id=d["id"], url=d["url"] if "url" in d else _default_url(d["id"]),
        title=g("title", ""), authors=tuple(_person_from_list(a) for a in g("authors", ())),
        authors_truncated=g("at", False), collaborations=tuple(g("collab", ())),
        year=g("year", ""), other_years=tuple(g("oy", ())), venue=g("venue", ""),
        venue_aliases=tuple(g("va", ())), volume=g("volume", ""), pages=g("pages", ""),
        doi=g("doi", ""), arxiv=g("arxiv", ""), texkeys=tuple(g("texkeys", ())),
        entry_type=g("type", ""),
        extra_pubs=tuple((x[0], x[1], x[2], x[3]) for x in g("xp", ())), score=score,
        report_numbers=tuple(g("rn", ())), catalogue_dates=bool(g("cd", False)),
    )


@functools.lru_cache(maxsize=65536)  # surnames repeat: a dump's import asks for each often
def _surname_key(name: str) -> str:
    return normalize_title(name).replace(" ", "")


def _surnames(rec: Record) -> str:
    # the family with and without its von part: "Garcia de Andrade" is von "Garcia de"
    # + family "Andrade" by BibTeX's grammar, and cited either way
    keys = [_surname_key(p.family) for p in rec.authors[:50] if p.family]
    keys += [_surname_key(p.full_family) for p in rec.authors[:50] if p.family and p.von]
    return " ".join(keys)


_COLLAB_WORDS = re.compile(r"\b(collaborations?|collab|consortium|team|group)\b")


@functools.lru_cache(maxsize=65536)
def author_key(name: str) -> str:
    """The author+year lookup key of a family or collaboration name.

    Accents, case, punctuation and spaces go ("García-Pérez" -> "garciaperez");
    collaboration words too ("ATLAS Collaboration" -> "atlas"), so a record's
    collaboration and a cited ``{ATLAS Collaboration}`` author meet.
    """
    return _COLLAB_WORDS.sub(" ", normalize_title(name)).replace(" ", "")


def author_year_keys(rec: Record) -> set[tuple[str, str]]:
    """The (author key, year) pairs a record is indexed under in ``author_year``."""
    years = {y for y in (rec.year, *rec.other_years, *(pub[3] for pub in rec.extra_pubs))
             if len(y) == 4 and y.isdigit()}
    if not years:
        return set()
    names: set[str] = set()
    taken = 0
    for person in rec.authors:
        if person.family:
            names.add(author_key(person.family))
            if person.von:
                names.add(author_key(person.full_family))
            taken += 1
            if taken == AUTHOR_YEAR_AUTHORS:
                break
    names.update(author_key(c) for c in rec.collaborations)
    names.discard("")
    return {(n, y) for n in names for y in years}


# --------------------------------------------------------------------------- file reading


def _is_gzip(path: Path) -> bool:
    with path.open("rb") as fh:
        return fh.read(2) == b"\x1f\x8b"


def _open_text(path: Path, encoding: str = "utf-8") -> IO[str]:
    """Open a file as text, transparently gunzipping it (detected by magic bytes)."""
    with path.open("rb") as fh:
        magic = fh.read(2)
    if magic == b"\x1f\x8b":
        return io.TextIOWrapper(gzip.open(path, "rb"), encoding=encoding, errors="replace")
    return path.open("r", encoding=encoding, errors="replace")


def _bib_text(path: Path) -> IO[str]:
    """A BibTeX file, read as the paper's own .bib files are (UTF-16 by its byte order
    mark, else UTF-8, else Latin-1: an old Latin-1 .bib read as UTF-8 had every accented
    letter replaced by U+FFFD, which then differed from the paper's correct citation)."""
    with (gzip.open(path, "rb") if _is_gzip(path) else path.open("rb")) as raw:
        return io.StringIO(decode_source(raw.read()))


def _head_bytes(path: Path, size: int = 4096) -> bytes:
    with path.open("rb") as fh:
        magic = fh.read(2)
    opener = gzip.open if magic == b"\x1f\x8b" else open
    with opener(path, "rb") as raw:
        return bytes(raw.read(size))


def _text_head(fh: IO[str], size: int) -> str:
    """Up to ``size`` characters of the start of ``fh``: those before the end of a
    truncated gzip too (reading on fails where the import reads on, see _guarded)."""
    parts: list[str] = []
    got = 0
    with contextlib.suppress(EOFError, zlib.error):
        while got < size and (line := fh.readline(size - got)):
            parts.append(line)
            got += len(line)
    return "".join(parts)


def detect_format(path: Path) -> str:
    """"bibtex", "jsonl", "dblp" (DBLP XML) or "" from the first characters of the file."""
    with _open_text(path) as fh:
        head = _text_head(fh, 65536)
    stripped = head.lstrip("\ufeff \t\r\n")
    if stripped.startswith(("{", "[")):
        return "jsonl"
    if dblp_xml.looks_like_dblp(head):
        return "dblp"
    if "@" in head and re.search(r"^\s*@\s*[A-Za-z]+\s*[{(]", head, re.MULTILINE):
        return "bibtex"
    base = path.name.lower().removesuffix(".gz")
    if base.endswith(".bib"):
        return "bibtex"
    if base.endswith((".jsonl", ".json", ".ndjson")):
        return "jsonl"
    if base.endswith(".xml") and base.startswith("dblp"):
        return "dblp"
    return ""


def _bib_chunks(lines: Iterable[str], per_chunk: int) -> Iterator[tuple[int, str, int]]:
    """Split BibTeX text into chunks of whole entries: (first line, text, prefix lines).

    ``@string`` definitions seen so far are prepended to every later chunk, so
    macros keep resolving; ``prefix lines`` says how many lines they take.
    """
    strings: list[str] = []
    buf: list[str] = []
    start, count, in_string = 1, 0, False
    for lineno, line in enumerate(lines, 1):
        head = line.lstrip()
        if head.startswith("@"):
            in_string = head[1:].lower().startswith("string")
            if not in_string:
                count += 1
            if count > per_chunk:
                prefix = "".join(strings)
                yield start, prefix + "".join(buf), prefix.count("\n")
                buf, start, count = [], lineno, 1
        if in_string:
            strings.append(line if line.endswith("\n") else line + "\n")
        buf.append(line)
    if buf:
        prefix = "".join(strings)
        yield start, prefix + "".join(buf), prefix.count("\n")


def _parse_bib(text: str, filename: str) -> tuple[list[Entry], list[tuple[int, str]]]:
    """Parse BibTeX with the project's parser; parse errors as (line, message)."""
    entries, problems = parse_bib_text(text, filename)
    errors = [(p.line, p.message) for p in problems if p.code == "parse-error"]
    return list(entries), errors


# --------------------------------------------------------------------------- the index


#: What reading a dump can fail with part-way: a truncated gzip (``EOFError``), a damaged
#: one (``zlib.error``, ``gzip.BadGzipFile``), bytes the declared encoding cannot read.
_READ_ERRORS = (OSError, EOFError, zlib.error, UnicodeError)


def _read_error(exc: BaseException) -> str:
    if isinstance(exc, EOFError):
        return "the file ends early (a truncated download?)"
    return f"{type(exc).__name__}: {exc}" if not isinstance(exc, OSError) else str(exc)


def _guarded(lines: Iterable[str], acc: _Accumulator) -> Iterator[str]:
    """The lines of a file being imported; a read that fails part-way ends them, as one
    bad line where it happened: what was read before it is imported."""
    n = 0
    try:
        for n, line in enumerate(lines, 1):  # noqa: B007 - n is the last line read
            yield line
    except _READ_ERRORS as exc:
        acc.add_bad(n + 1, f"cannot read on from here: {_read_error(exc)}")


def _lock_file(path: Path) -> Path:
    """The file whose lock says an import into the index at ``path`` is running."""
    return path.with_name(path.name + ".lock")


def _try_lock(path: Path) -> IO[bytes] | None:
    """The import lock of the index at ``path``, held (an exclusive advisory lock on
    ``INDEX.lock`` beside it, dropped by the kernel when its process ends, so a killed
    import leaves none behind); None when another process holds it. Where locks are
    not available (no ``fcntl``: Windows) or the lock file cannot be made, a handle
    without a lock: nothing is worse than without this check."""
    try:
        fh = open(_lock_file(path), "a+b")  # noqa: SIM115 - held until _unlock
    except OSError:
        return io.BytesIO()
    try:
        import fcntl
    except ImportError:
        return fh
    try:
        fcntl.flock(fh.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        fh.close()
        return None
    except OSError:  # a file system without locks
        return fh
    return fh


def _import_running(path: Path) -> bool:
    """True when a process holds the import lock of the index at ``path`` (asked without
    creating the lock file: a reader may not write beside the index)."""
    try:
        import fcntl

        with open(_lock_file(path), "rb") as fh:
            try:
                fcntl.flock(fh.fileno(), fcntl.LOCK_SH | fcntl.LOCK_NB)
            except BlockingIOError:
                return True
            fcntl.flock(fh.fileno(), fcntl.LOCK_UN)
    except (ImportError, OSError):
        pass
    return False


def _dblp_encoding(head: bytes, acc: _Accumulator) -> str:
    """The encoding to read a DBLP XML file in: the one its declaration names, unless
    Python does not know it or it cannot be the file's (a declared UTF-16 whose bytes
    start ``<?xml`` one byte per character): then UTF-8, said as a bad first line."""
    declared = dblp_xml.xml_encoding(head)
    try:
        fits = "<?xml".encode(declared) == b"<?xml" or not head.lstrip().startswith(b"<?xml")
    except LookupError:
        acc.add_bad(1, f"unknown encoding {declared!r} in the XML declaration; read as UTF-8")
        return "utf-8"
    if not fits:
        acc.add_bad(1, f"the XML declaration names {declared!r}, which the file is not "
                       "written in; read as UTF-8")
        return "utf-8"
    return declared


def _connect_readonly(path: Path) -> tuple[sqlite3.Connection, bool]:
    """A read-only connection: ``mode=ro``, or ``immutable`` (True) on read-only storage.

    An index is written in WAL mode; reading a WAL database needs its ``-shm``
    file, which SQLite cannot create in a read-only folder or file system
    ("attempt to write a readonly database"). When the plain read-only opening
    fails that way, the file is opened as immutable: no locks, no ``-shm``, no
    ``-wal``, nothing written (nobody can be writing to it there either).
    """
    from urllib.parse import quote

    uri = "file:" + quote(str(Path(path).resolve()))
    conn = sqlite3.connect(f"{uri}?mode=ro", uri=True)
    try:
        conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()
        return conn, False
    except sqlite3.OperationalError as exc:
        conn.close()
        logger.debug("local index %s: read-only opening failed (%s); opening it as immutable",
                     path, exc)
    return sqlite3.connect(f"{uri}?mode=ro&immutable=1", uri=True), True


def _parse_pending(mark: str) -> tuple[int, str, bool]:
    """(first rid, journal mode, titles indexed) of an ``import_pending`` marker:
    "<first> <mode>" (titles staged, as imports before the marker's "titles" did) or
    "<first> <mode> titles" (titles indexed as the records were written)."""
    first, mode, *rest = [*mark.split(), "journal"]
    return int(first), mode, "titles" in rest


class LocalIndex:
    """An SQLite index of bibliographic records; see the module docstring."""

    def __init__(self, conn: sqlite3.Connection, path: Path, readonly: bool, *,
                 immutable: bool = False) -> None:
        self._conn = conn
        self.path = path
        self.readonly = readonly
        self._size_cache: int | None = None  # MAX(rid), the index size for word rarity
        #: First rid whose lookup keys and title are staged, not yet merged (an import
        #: is under way); None outside an import.
        self._stage_from: int | None = None
        #: The import under way fills a new index (no journal, title merging off).
        self._bulk = False
        #: Opened as immutable: the file is on storage this process cannot write.
        self.immutable = immutable

    # ----------------------------------------------------------------- lifecycle

    @classmethod
    def open(cls, path: Path, *, create: bool = True, readonly: bool = False) -> LocalIndex:
        """Open (and with ``create`` make) the index at ``path``.

        Raises :class:`~citecheck_tex.errors.LocalIndexError` when the file is missing
        (without ``create``), not an index, or of another schema version.
        """
        path = Path(path)
        if not path.exists() and (readonly or not create):
            raise LocalIndexError("no local index here", file=str(path),
                              hint="build one with: citecheck-tex index add FILE...")
        if path.is_dir():
            raise LocalIndexError("this is a folder, not a local index", file=str(path),
                                  hint="give --index the index file, e.g. FOLDER/index.sqlite")
        try:
            immutable = False
            if readonly:
                conn, immutable = _connect_readonly(path)
            else:
                path.parent.mkdir(parents=True, exist_ok=True)
                conn = sqlite3.connect(path, timeout=30.0)
            index = cls(conn, path, readonly, immutable=immutable)
            index._prepare(create and not readonly)
        except sqlite3.DatabaseError as exc:
            raise LocalIndexError(f"unusable local index: {exc}", file=str(path),
                                  hint="check the --index path; if this file is your index, "
                                       "it is damaged: delete it and import your dumps "
                                       "again") from exc
        return index

    def _prepare(self, create: bool) -> None:
        conn = self._conn
        has_meta = conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
        if not has_meta:
            if not create:
                raise LocalIndexError("not a citecheck-tex index", file=str(self.path),
                                  hint="build one with: citecheck-tex index add FILE...")
            if conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchone():
                # another program's database (a mistyped --index): never written to
                raise LocalIndexError(
                    "not a citecheck-tex index: another program's SQLite database; "
                    "it was left as it is", file=str(self.path),
                    hint="give --index the path of a citecheck-tex index, or a new file")
            conn.execute("PRAGMA journal_mode=WAL")
            conn.executescript(_SCHEMA)
            conn.execute("INSERT OR REPLACE INTO meta VALUES('schema_version', ?)",
                         (SCHEMA_VERSION,))
            conn.commit()
        row = conn.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        version = row[0] if row else ""
        if version in UPGRADABLE_VERSIONS:
            self._upgrade(version)
            version = SCHEMA_VERSION
        if version != SCHEMA_VERSION:
            raise LocalIndexError(
                f"index schema version {version or '?'} is not {SCHEMA_VERSION}",
                file=str(self.path), hint="delete it and re-import your dumps")
        pending = conn.execute("SELECT value FROM meta WHERE key=?", (_PENDING_KEY,)).fetchone()
        if pending:
            self._recover(str(pending[0]))
        if not self.readonly:
            conn.execute("PRAGMA synchronous=NORMAL")
        # Title searches touch pages all over the FTS and records tables: a page cache
        # bigger than the default 2 MiB and memory-mapped reads spare most read()
        # calls (about a tenth of a title search; the cache grows only as used).
        conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
        conn.execute(f"PRAGMA mmap_size={MMAP_BYTES}")

    def _upgrade(self, version: str) -> None:
        """Upgrade an index of an older ``version`` in place, from the rows it holds.

        Version 2 added the ``author_year`` lookup table, version 3 the ``title_terms``
        word frequencies, version 4 a title index without its own copy of the titles
        and fewer rid indexes; all are derived from what is stored, so no dump has to
        be imported again (the upgrade to 4 rebuilds the title index: about a minute
        per million records, announced with a warning). A read-only opening upgrades through a short-lived writable
        connection (the index is a derived file, like a cache); when even that fails
        (a read-only file system) the error says what to do. The version is re-read
        inside the write transaction, so two processes opening one old index upgrade
        it once.
        """
        if self.immutable:  # nothing can be written where it lies: say so, try nothing
            raise LocalIndexError(
                f"index schema version {version} needs an upgrade to {SCHEMA_VERSION}, and "
                "it lies on storage that cannot be written", file=str(self.path),
                hint="open it once where it is writable (citecheck-tex index stats), or "
                     "re-import your dumps")
        try:
            conn = sqlite3.connect(self.path, timeout=30.0) if self.readonly else self._conn
            try:
                conn.execute("BEGIN IMMEDIATE")
                row = conn.execute(
                    "SELECT value FROM meta WHERE key='schema_version'").fetchone()
                if row and row[0] in UPGRADABLE_VERSIONS:
                    logger.warning("upgrading the local index %s from schema %s to %s "
                                   "(rebuilds its title index; about a minute per million "
                                   "records)", self.path, row[0], SCHEMA_VERSION)
                    if row[0] == "1":
                        _add_author_year(conn)
                    for statement in _TITLE_TERMS_SCHEMA:
                        conn.execute(statement)
                    _upgrade_to_4(conn)
                    _refresh_title_terms(conn)
                    conn.execute("UPDATE meta SET value=? WHERE key='schema_version'",
                                 (SCHEMA_VERSION,))
                    logger.info("local index %s upgraded from schema %s to %s",
                                self.path, row[0], SCHEMA_VERSION)
                conn.execute("COMMIT")
            finally:
                if conn is not self._conn:
                    conn.close()
        except sqlite3.Error as exc:
            raise LocalIndexError(
                f"index schema version {version} needs an upgrade to {SCHEMA_VERSION}, "
                f"which failed: {exc}", file=str(self.path),
                hint="open it once where it is writable (citecheck-tex index stats), or "
                     "delete it and re-import your dumps") from exc

    def _recover(self, pending: str, *, in_process: bool = False) -> None:
        """Deal with an import that did not finish (its ``meta`` marker is still there).

        The records it wrote from rid ``first`` on have no lookup keys (those are
        merged at the end); their titles, indexed as they were written (a marker
        ending in ``titles``; older imports staged them too), are taken out of the
        title index, and removing the records gives back the index as it was before
        the import (replaced records were rewritten whole, in place). A new index built without a journal may be damaged when its process
        died: it is refused (``in_process``: the import failed in this process, whose
        in-memory journal undid the open transaction, so the file is sound).
        """
        first, mode, titles = _parse_pending(pending)
        if in_process:
            self._remove_pending(first, titles)
            return
        lock = None if self.readonly else _try_lock(self.path)
        running = lock is None if not self.readonly else _import_running(self.path)
        try:
            if mode == "unjournaled":
                raise LocalIndexError(
                    "this index is being built by an import that is still running"
                    if running else "this index was being built by an import that did not "
                    "finish (a new index is written without a journal, so it may be damaged)",
                    file=str(self.path),
                    hint="wait for the import to end" if running else
                    "delete the index and import your dumps again")
            if running:  # another process is importing: its records are not debris
                logger.warning("local index %s: an import into it is running; its records "
                               "are not searchable until it ends", self.path)
            elif self.readonly:
                logger.warning("local index %s: an import was interrupted; its records are "
                               "not searchable (the next `citecheck-tex index add` into this "
                               "index removes them: import that file again)", self.path)
            else:
                self._remove_pending(first, titles)
        finally:
            if lock is not None:
                lock.close()

    def _remove_pending(self, first: int, titles: bool) -> None:
        """Remove what an import that no process runs any more wrote (see :meth:`_recover`)."""
        conn = self._conn
        with conn:
            if titles:  # its titles were indexed as they were written: unindex them
                conn.execute("INSERT INTO title_fts(title_fts, rowid, norm_title) SELECT"
                             " 'delete', rid, norm_title FROM records WHERE rid >= ?"
                             " AND norm_title != ''", (first,))
            removed = conn.execute("DELETE FROM records WHERE rid >= ?", (first,)).rowcount
            conn.execute("DELETE FROM meta WHERE key=?", (_PENDING_KEY,))
        if removed:
            logger.warning("local index %s: an interrupted import left %d records without lookup "
                           "keys; they were removed (import that file again)", self.path,
                           removed)

    def close(self) -> None:
        """Close the database connection."""
        self._conn.close()

    def __enter__(self) -> LocalIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----------------------------------------------------------------- import

    def add_file(self, path: Path, *, progress: Callable[[int], None] | None = None,
                 jobs: int = 0) -> ImportStats:
        """Import one dump or BibTeX file (format detected from content, gzip too).

        Bad lines are counted and reported with their line number; they never abort
        the import. Importing the same file again replaces its rows. ``jobs``
        processes parse chunks of the file in parallel while this one writes them,
        in file order, in one stream of transactions (0: every core for files of at
        least :data:`PARALLEL_MIN_BYTES`, else 1, which parses in this process).
        """
        if self.readonly:
            raise LocalIndexError("the index is open read-only", file=str(self.path))
        # one import at a time: a second one would take the first one's unfinished
        # records for an interrupted import's and remove them (see _recover)
        lock = _try_lock(self.path)
        if lock is None:
            raise LocalIndexError("another import into this index is running",
                                  file=str(self.path),
                                  hint="wait for it to end, then import this file; checks "
                                       "can read the index meanwhile")
        try:
            return self._add_file(Path(path), progress, jobs)
        finally:
            lock.close()

    def _add_file(self, path: Path, progress: Callable[[int], None] | None,
                  jobs: int) -> ImportStats:
        """:meth:`add_file`, with the import lock held."""
        t0 = time.perf_counter()
        try:
            kind = detect_format(path)
            size = path.stat().st_size
        except _READ_ERRORS as exc:
            code = "missing-file" if isinstance(exc, FileNotFoundError) else "parse-error"
            problem = Problem(code, f"cannot read {path}: {_read_error(exc)}", file=str(path))
            return ImportStats(path=str(path), format="", bad=1, problems=(problem,))
        if not kind:
            problem = Problem("parse-error", "unknown format: expected BibTeX, DBLP XML or "
                              "JSON lines (INSPIRE, arXiv snapshot, OpenAlex, Crossref)",
                              file=str(path))
            return ImportStats(path=str(path), format="", bad=1, problems=(problem,))
        if jobs <= 0:
            jobs = (os.cpu_count() or 1) if size >= PARALLEL_MIN_BYTES else 1
        acc = _Accumulator(str(path))
        file_id = self._file_id(path)
        encoding = _dblp_encoding(_head_bytes(path), acc) if kind == "dblp" else "utf-8"
        try:
            opened = _bib_text(path) if kind == "bibtex" else _open_text(path, encoding)
        except _READ_ERRORS as exc:
            problem = Problem("parse-error", f"cannot read {path}: {_read_error(exc)}",
                              file=str(path))
            return ImportStats(path=str(path), format=kind, bad=1, problems=(problem,))
        with opened as fh:
            tasks: Iterator[Any]
            parse: Callable[[Any], _Parsed]
            relative = kind == "jsonl" and jobs > 1 and not _is_gzip(path)
            lines = _guarded(fh, acc)
            if relative:
                tasks, parse = _byte_tasks(path, CHUNK_BYTES), _parse_range_task
            elif kind == "jsonl":
                tasks, parse = _line_tasks(lines, CHUNK_ROWS), _parse_jsonl_task
            elif kind == "dblp":
                tasks, parse = _dblp_tasks(lines, CHUNK_ROWS), _parse_dblp_task
            else:
                label = path.name.removesuffix(".gz")
                tasks = ((str(path), label, start, text, prefix) for start, text, prefix
                         in _bib_chunks(lines, BIB_CHUNK_ENTRIES))
                parse = _parse_bib_task
            # Transactions of COMMIT_ROWS rows and a bigger page cache while writing:
            # each random-key index insert dirties a page, and a page dirtied by many
            # inserts of one transaction is written to the log once.
            self._conn.execute(f"PRAGMA cache_size=-{IMPORT_CACHE_KIB}")
            unjournaled = self._begin_import()
            try:
                pending = 0
                line_base = 0
                for parsed in _parallel_map(parse, tasks, jobs):
                    if relative:  # line numbers of a byte range count from its start
                        parsed.bad = [(line_base + n, m) for n, m in parsed.bad]
                        parsed.last_line += line_base
                        line_base = parsed.last_line
                    acc.take(parsed)
                    if parsed.records:
                        written = self._write(parsed, file_id)
                        acc.records += written
                        pending += written
                    if pending >= COMMIT_ROWS:
                        self._conn.commit()
                        pending = 0
                    if progress is not None and acc.records:
                        progress(acc.records)
                self._merge_staged(final=True)
                # One refresh per file, in the transaction that records the file: a full
                # copy of the vocabulary (tens of milliseconds for the 15,000-record
                # corpus) is cheaper than keeping counts per written chunk.
                _refresh_title_terms(self._conn)
                fmt = acc.formats.most_common(1)[0][0] if acc.formats else kind
                self._conn.execute("UPDATE files SET format=?, records=?, bad=?, imported_at=?"
                                   " WHERE rowid=?",
                                   (fmt, acc.records, acc.bad, time.time(), file_id))
                self._conn.commit()
            except BaseException:
                self._conn.rollback()
                self._stage_from = None
                # an error or an interrupt in this process: the journal (in memory for a
                # new index) undid the open transaction; the committed records without
                # keys go (only a killed process leaves a new index in doubt)
                pending_mark = self._conn.execute(
                    "SELECT value FROM meta WHERE key=?", (_PENDING_KEY,)).fetchone()
                if pending_mark:
                    self._recover(str(pending_mark[0]), in_process=True)
                if unjournaled:
                    with contextlib.suppress(sqlite3.Error):  # the first error is the one to tell
                        _set_title_merging(self._conn, bulk=False)
                        self._conn.commit()
                raise
            finally:
                self._stage_from = None
                self._conn.execute(f"PRAGMA cache_size=-{CACHE_KIB}")
                if unjournaled:
                    self._conn.execute("PRAGMA journal_mode=WAL")
                    self._conn.execute("PRAGMA synchronous=NORMAL")
        if progress is not None:
            progress(acc.records)
        stats = ImportStats(path=str(path), format=fmt, lines=acc.lines, records=acc.records,
                            skipped=acc.skipped, bad=acc.bad, problems=tuple(acc.problems),
                            formats=dict(acc.formats), elapsed_s=time.perf_counter() - t0)
        logger.info("imported %s: %d records (%s), %d bad, %d skipped", path, stats.records,
                    fmt, stats.bad, stats.skipped)
        return stats

    def _begin_import(self) -> bool:
        """Start staging the keys of new records (see :data:`_STAGE_COLUMNS`); True when
        the index is new and is written without a journal until the import ends.

        A new (empty) index is written with an in-memory rollback journal and without
        syncs, and without its rid indexes (built after the merge): nothing of the
        user's is lost if the import dies, and the ``meta`` marker makes the next
        opening refuse the half-built file with the advice to delete it. An index that
        holds records keeps its write-ahead log; an interrupted import into it is
        removed again when it is next opened (:meth:`_recover`).
        """
        conn = self._conn
        conn.commit()
        first = int(conn.execute("SELECT COALESCE(MAX(rid), 0) FROM records").fetchone()[0]) + 1
        unjournaled = False
        if first == 1 and conn.execute("SELECT COUNT(*) FROM files WHERE records > 0"
                                       ).fetchone()[0] == 0:
            mode = conn.execute("PRAGMA journal_mode=MEMORY").fetchone()[0]
            unjournaled = str(mode).lower() == "memory"  # another reader keeps the WAL
            if unjournaled:
                conn.execute("PRAGMA synchronous=OFF")
                for name in _RID_INDEXES:
                    conn.execute(f"DROP INDEX IF EXISTS {name}")
                # the import ends with an 'optimize' (it adds all the records): merging
                # the title index's segments meanwhile would be work done twice
                _set_title_merging(conn, bulk=True)
        self._bulk = unjournaled
        for table, columns in _STAGE_COLUMNS.items():
            conn.execute(f"CREATE TEMP TABLE IF NOT EXISTS stage_{table}({columns})")
            conn.execute(f"DELETE FROM temp.stage_{table}")
        mode = "unjournaled" if unjournaled else "journal"
        conn.execute("INSERT OR REPLACE INTO meta VALUES(?, ?)",
                     (_PENDING_KEY, f"{first} {mode} titles"))
        conn.commit()
        self._stage_from = first
        return unjournaled

    def _merge_staged(self, *, final: bool = False) -> None:
        """Merge the staged keys into the lookup tables, in key order (in the open
        transaction; the marker moves on with it, or goes when ``final``)."""
        conn = self._conn
        if self._stage_from is None:
            return
        conn.execute(f"PRAGMA cache_size=-{MERGE_CACHE_KIB}")
        conn.execute(f"PRAGMA threads={MERGE_THREADS}")
        for table, columns in _STAGE_COLUMNS.items():
            conn.execute(f"INSERT OR IGNORE INTO {table}({columns}) SELECT {columns}"
                         f" FROM temp.stage_{table} ORDER BY {columns}")
            conn.execute(f"DELETE FROM temp.stage_{table}")
        for name, target in _RID_INDEXES.items():
            conn.execute(f"CREATE INDEX IF NOT EXISTS {name} ON {target}")
        conn.execute(f"PRAGMA cache_size=-{IMPORT_CACHE_KIB}")
        conn.execute("PRAGMA threads=0")
        if final:
            size = int(conn.execute("SELECT COALESCE(MAX(rid), 0) FROM records").fetchone()[0])
            if size - self._stage_from + 1 >= FTS_OPTIMIZE_SHARE * size:
                # one segment: a title word is then one b-tree lookup, not one per
                # segment (a tenth of a title search at 200,000 records); rewriting
                # the title index costs about as much as the FTS inserts did, so
                # only an import that grew the index by a good part pays for it
                conn.execute("INSERT INTO title_fts(title_fts) VALUES('optimize')")
            if self._bulk:
                _set_title_merging(conn, bulk=False)
            conn.execute("DELETE FROM meta WHERE key=?", (_PENDING_KEY,))
            self._stage_from = None
            return
        first = int(conn.execute("SELECT COALESCE(MAX(rid), 0) FROM records").fetchone()[0]) + 1
        mark = conn.execute("SELECT value FROM meta WHERE key=?", (_PENDING_KEY,)).fetchone()
        mode = str(mark[0]).partition(" ")[2] if mark else "journal"
        conn.execute("INSERT OR REPLACE INTO meta VALUES(?, ?)", (_PENDING_KEY, f"{first} {mode}"))
        self._stage_from = first

    def _file_id(self, path: Path) -> int:
        """The ``files`` row of ``path`` (created empty; kept, so its rowid is stable)."""
        key = str(path.resolve())
        with self._conn:
            self._conn.execute("INSERT OR IGNORE INTO files VALUES(?, '', 0, 0, ?)",
                               (key, time.time()))
        return int(self._conn.execute("SELECT rowid FROM files WHERE path=?",
                                      (key,)).fetchone()[0])

    def _write(self, parsed: _Parsed, file_id: int) -> int:
        """Upsert a parsed chunk (in the open transaction); returns the number written.

        New records only, during an import (the usual case): their lists go to
        SQLite as parsed, the records taking the next free rids in order (no Python
        loop per record here: the writer is the one process an import cannot spread
        over the cores). Whether a record is new is not asked first: the ``uid``
        constraint answers that as the records are inserted, and a chunk that
        repeats a stored uid (or one of its own) is taken out again and written by
        :meth:`_upsert`.
        """
        conn = self._conn
        records = parsed.records
        if self._stage_from is None:
            return self._upsert(parsed.rows(), file_id,
                                self._old_rows([r[0] for r in records]))
        first = int(conn.execute("SELECT COALESCE(MAX(rid), 0) FROM records").fetchone()[0]) + 1
        before = conn.total_changes
        # an INTEGER PRIMARY KEY left out takes MAX(rid) + 1: rid = first + position
        conn.executemany(
            "INSERT OR IGNORE INTO records(uid, origin, format, file, year, norm_title,"
            f" surnames, data) VALUES(?, ?, ?, {file_id:d}, ?, ?, ?, ?)", records)
        if conn.total_changes - before != len(records):
            # a uid stored already, or twice in the chunk: its rows go again, and the
            # chunk is written by _upsert (not in a savepoint: FTS5 writes its pending
            # terms out as a new segment at every savepoint)
            conn.execute("DELETE FROM records WHERE rid >= ?", (first,))
            return self._upsert(parsed.rows(), file_id,
                                self._old_rows([r[0] for r in records]))
        for table, pairs in zip(_KEY_TABLES, parsed.keys, strict=True):
            if pairs:
                marks = ",".join("?" * (len(pairs[0]) - 1))
                conn.executemany(f"INSERT INTO temp.stage_{table} VALUES({marks}, {first} + ?)",
                                 pairs)
        # titles go to the title index at once, in rid order (the writer has time to
        # spare while the parsers work, and none while it merges the keys at the end)
        conn.executemany(f"INSERT INTO title_fts(rowid, norm_title) VALUES({first} + ?, ?)",
                         [(i, r[4]) for i, r in enumerate(records) if r[4]])
        self._size_cache = None
        return len(records)

    def _upsert(self, rows: Sequence[_Row], file_id: int,
                old: dict[str, tuple[int, str, str]]) -> int:
        """Upsert a chunk of rows (in the open transaction); returns the number written.

        A replaced record keeps its rid; its old keys are deleted first: through the
        rid indexes for DOIs, arXiv ids and journal references (an INSPIRE record's
        extra DOIs are not in its JSON), recomputed from its old JSON for the others,
        and its old title from the external-content title index. ``old``: the stored
        records among the chunk's (:meth:`_old_rows`).
        """
        by_uid = {row[0]: row for row in rows}  # a later duplicate in a chunk wins
        conn = self._conn
        staged = self._stage_from
        if staged is not None and any(rid >= staged for rid, _, _ in old.values()):
            # a record of this import comes again: its keys must be in the lookup
            # tables before they can be deleted
            self._merge_staged()
            staged = self._stage_from
        if old:
            params = [(rid,) for rid, _, _ in old.values()]
            for table in ("doi", "arxiv", "jref"):
                conn.executemany(f"DELETE FROM {table} WHERE rid=?", params)
            ay, tk, rn = [], [], []
            for rid, _, data in old.values():
                rec = _record_from_json(data)
                ay += [(name, year, rid) for name, year in author_year_keys(rec)]
                tk += [(t.lower(), rid) for t in rec.texkeys]
                rn += [(n, rid) for n in rec.report_numbers]
            conn.executemany("DELETE FROM author_year WHERE name=? AND year=? AND rid=?",
                             ay)
            conn.executemany("DELETE FROM texkey WHERE key=? AND rid=?", tk)
            conn.executemany("DELETE FROM report WHERE key=? AND rid=?", rn)
            conn.executemany(
                "INSERT INTO title_fts(title_fts, rowid, norm_title) VALUES('delete',?,?)",
                [(rid, title) for rid, title, _ in old.values() if title])
            conn.executemany(
                "UPDATE records SET origin=?, format=?, file=?, year=?, norm_title=?,"
                " surnames=?, data=? WHERE rid=?",
                [(*by_uid[uid][1:3], file_id, *by_uid[uid][3:7], old[uid][0])
                 for uid in old])
        rid = int(conn.execute("SELECT COALESCE(MAX(rid), 0) FROM records").fetchone()[0])
        rids: dict[str, int] = {}
        for uid in by_uid:
            if uid in old:
                rids[uid] = old[uid][0]
            else:
                rid += 1
                rids[uid] = rid
        conn.executemany(
            "INSERT INTO records(rid, uid, origin, format, file, year, norm_title, surnames,"
            " data) VALUES(?,?,?,?,?,?,?,?,?)",
            [(rids[uid], uid, *r[1:3], file_id, *r[3:7]) for uid, r in by_uid.items()
             if uid not in old])
        items = [(rids[uid], r) for uid, r in by_uid.items()]
        # the keys of new records are staged (merged sorted at the end of the import);
        # a replaced record's go straight to the lookup tables
        direct = items if staged is None else [it for it in items if it[0] < staged]
        later = [] if staged is None else [it for it in items if it[0] >= staged]
        for part, prefix in ((direct, ""), (later, "temp.stage_")):
            if not part:
                continue
            conn.executemany(f"INSERT OR IGNORE INTO {prefix}doi VALUES(?,?)",
                             [(k, rid) for rid, r in part for k in r[7]])
            conn.executemany(f"INSERT OR IGNORE INTO {prefix}arxiv VALUES(?,?)",
                             [(k, rid) for rid, r in part for k in r[8]])
            conn.executemany(f"INSERT OR IGNORE INTO {prefix}texkey VALUES(?,?)",
                             [(k, rid) for rid, r in part for k in r[9]])
            conn.executemany(f"INSERT OR IGNORE INTO {prefix}report VALUES(?,?)",
                             [(k, rid) for rid, r in part for k in r[10]])
            conn.executemany(f"INSERT OR IGNORE INTO {prefix}jref VALUES(?,?,?,?)",
                             [(*k, rid) for rid, r in part for k in r[11]])
            conn.executemany(f"INSERT OR IGNORE INTO {prefix}author_year VALUES(?,?,?)",
                             [(*k, rid) for rid, r in part for k in r[12]])
        conn.executemany("INSERT INTO title_fts(rowid, norm_title) VALUES(?,?)",
                         [(rid, r[4]) for rid, r in items if r[4]])
        self._size_cache = None
        return len(by_uid)

    def _old_rows(self, uids: Sequence[str]) -> dict[str, tuple[int, str, str]]:
        """uid -> (rid, norm_title, data) of the stored records among ``uids``."""
        found: dict[str, tuple[int, str, str]] = {}
        for i in range(0, len(uids), 500):
            part = uids[i:i + 500]
            marks = ",".join("?" * len(part))
            found.update((uid, (rid, title, data)) for uid, rid, title, data in
                         self._conn.execute("SELECT uid, rid, norm_title, data FROM records"
                                            f" WHERE uid IN ({marks})", part))
        return found

    # ----------------------------------------------------------------- stats

    def stats(self) -> IndexStats:
        """Counts per source (dump family) and per format, and of each lookup table."""
        c = self._conn

        def count(sql: str) -> int:
            return int(c.execute(sql).fetchone()[0])

        return IndexStats(
            path=str(self.path), schema_version=SCHEMA_VERSION,
            records=count("SELECT COUNT(*) FROM records"),
            by_source=dict(c.execute(
                "SELECT origin, COUNT(*) FROM records GROUP BY origin ORDER BY origin")),
            by_format=dict(c.execute(
                "SELECT format, COUNT(*) FROM records GROUP BY format ORDER BY format")),
            dois=count("SELECT COUNT(DISTINCT key) FROM doi"),
            arxiv_ids=count("SELECT COUNT(DISTINCT key) FROM arxiv"),
            texkeys=count("SELECT COUNT(DISTINCT key) FROM texkey"),
            journal_refs=count("SELECT COUNT(*) FROM jref"),
            files=tuple((str(p), str(f), int(n), int(b)) for p, f, n, b in c.execute(
                "SELECT path, format, records, bad FROM files ORDER BY path")),
        )

    # ----------------------------------------------------------------- lookups

    def _records(self, sql: str, params: Sequence[Any]) -> list[Record]:
        rows = self._conn.execute(sql, params).fetchall()
        rows.sort(key=lambda r: (ORIGIN_ORDER.get(r[0], 9), FORMAT_ORDER.get(r[1], 0), r[2]))
        return _unique_ids(_record_from_json(r[3]) for r in rows)

    def _by_key(self, table: str, key: str) -> list[Record]:
        if not key:
            return []
        return self._records(
            f"SELECT r.origin, r.format, r.rid, r.data FROM {table} k JOIN records r ON r.rid = k.rid"
            f" WHERE k.key = ? LIMIT 50", (key,))

    def by_report(self, number: str) -> list[Record]:
        """Records with this report number (case, spaces and slashes ignored)."""
        return self._by_key("report", normalize_report_number(number))

    def by_doi(self, doi: str) -> list[Record]:
        """Records with this DOI (any resolver prefix or case)."""
        return self._by_key("doi", normalize_doi(doi))

    def by_arxiv(self, arxiv_id: str) -> list[Record]:
        """Records with this arXiv id (old or new style, prefix and version ignored)."""
        return self._by_key("arxiv", normalize_arxiv(arxiv_id))

    def by_texkey(self, texkey: str) -> list[Record]:
        """Records with this INSPIRE texkey (case-insensitive)."""
        return self._by_key("texkey", texkey.strip().lower())

    def by_journal_ref(self, journal: str, volume: str, page: str) -> list[Record]:
        """Records published at (journal, volume, first page), any journal spelling."""
        key = journal_ref_key(journal, volume, page)
        if key is None:
            return []
        sql = ("SELECT r.origin, r.format, r.rid, r.data FROM jref k JOIN records r"
               " ON r.rid = k.rid WHERE k.jkey = ? AND k.volume = ? AND k.page = ? LIMIT 50")
        found = self._records(sql, key)
        if not found and key[1].isdigit():
            # "Nucl. Phys. 148, 145" (1970): the series letter left out; the volume
            # and page tell the series
            for series in series_keys(journal):
                found.extend(self._records(sql, (series, key[1], key[2])))
        return found

    def by_author_year(self, authors: Sequence[str], year: str, *, journal: str = "",
                       volume: str = "", page: str = "",
                       limit: int = MAX_AUTHOR_YEAR_RECORDS) -> list[Record]:
        """Records of the first of ``authors`` (family names) in ``year``, best fit first.

        A record qualifies when the first cited author is among its first
        :data:`AUTHOR_YEAR_AUTHORS` authors (or is its collaboration) and ``year`` is
        one of its years. Candidates are ranked by how many of the stated journal,
        volume and first page one of their publications repeats, then by how many
        of the other cited authors they list, then by origin. Nothing is filtered
        out by the journal, volume or page: those are what may be wrong.
        """
        if not authors or not (len(year) == 4 and year.isdigit()):
            return []
        first = authors[0]
        names = sorted({author_key(first), author_key(first.split()[-1]) if first.split()
                        else ""} - {""})
        if not names:
            return []
        marks = ",".join("?" * len(names))
        rids = [r for (r,) in self._conn.execute(
            f"SELECT DISTINCT rid FROM author_year WHERE name IN ({marks}) AND year = ?"
            f" LIMIT {MAX_AUTHOR_YEAR_SCAN + 1}", (*names, year))]
        others = {_surname_key(a.split()[-1]) for a in authors[1:] if a.split()}
        second = sorted({author_key(a.split()[-1]) for a in authors[1:] if a.split()} - {""})
        if len(rids) > MAX_AUTHOR_YEAR_SCAN and others:
            # A common name in a big index: the records that also list one of the
            # other cited authors among their first ones (bounded, as the lookups).
            # Rarest first: the join walks the rows of its first table and looks each
            # up in the second, so it starts from the name with fewer records that
            # year (counted up to a bound: "Wang" has thousands a year at 10 million
            # records, the second cited author usually a few dozen).
            first_table, other_table = ("a", "b")
            if self._count_author_year(second, year) < self._count_author_year(names, year):
                first_table, other_table = ("b", "a")
            narrowed = [r for (r,) in self._conn.execute(
                f"SELECT DISTINCT a.rid FROM author_year {first_table} CROSS JOIN"
                f" author_year {other_table} ON b.year = a.year AND b.rid = a.rid"
                f" WHERE a.name IN ({marks}) AND a.year = ?"
                f" AND b.name IN ({','.join('?' * len(second))})"
                f" LIMIT {MAX_AUTHOR_YEAR_SCAN}", (*names, year, *second))]
            rids = narrowed or rids
        rows = self._conn.execute(
            "SELECT rid, origin, format, surnames, data FROM records"
            f" WHERE rid IN ({','.join('?' * len(rids[:MAX_AUTHOR_YEAR_SCAN]))})",
            rids[:MAX_AUTHOR_YEAR_SCAN]).fetchall() if rids else []
        decoded: dict[int, dict[str, Any]] = {}
        if journal or volume or page:
            # a record that knows only the preprint is dated a year or two before the
            # journal version the reference cites (PREPRINT_LEAD_YEARS)
            earlier = [str(int(year) - k) for k in range(1, PREPRINT_LEAD_YEARS + 1)]
            seen = {row[0] for row in rows}
            years = ",".join("?" * len(earlier))
            crowded = second and sum(self._count_author_year(names, y) for y in earlier) \
                > MAX_AUTHOR_YEAR_SCAN
            if crowded and all(self._count_author_year(second, y) < AUTHOR_YEAR_COUNT_BOUND
                               for y in earlier):
                # a common name: only the preprints that also list another cited
                # author (hundreds of a common name's preprints fit nothing; the
                # cited work's own preprint lists its co-authors), from the rows of
                # those co-authors when they are fewer (both names common: the
                # bounded scan below, as that costs less than walking either)
                more = self._conn.execute(
                    "SELECT DISTINCT r.rid, r.origin, r.format, r.surnames, r.data FROM"
                    " author_year b CROSS JOIN author_year k ON k.year = b.year AND"
                    " k.rid = b.rid JOIN records r ON r.rid = k.rid"
                    f" WHERE b.name IN ({','.join('?' * len(second))}) AND b.year IN ({years})"
                    f" AND k.name IN ({marks}) AND {_PREPRINT_ONLY_SQL}"
                    f" LIMIT {MAX_AUTHOR_YEAR_SCAN}", (*second, *earlier, *names)).fetchall()
            else:
                more = self._conn.execute(
                    "SELECT DISTINCT r.rid, r.origin, r.format, r.surnames, r.data FROM"
                    f" author_year k JOIN records r ON r.rid = k.rid WHERE k.name IN ({marks})"
                    f" AND k.year IN ({years}) AND {_PREPRINT_ONLY_SQL}"
                    f" LIMIT {MAX_AUTHOR_YEAR_SCAN}", (*names, *earlier)).fetchall()
            for row in more:
                if row[0] not in seen and _preprint_only_json(doc := _loads(row[4])):
                    decoded[row[0]] = doc
                    rows.append(row)
        if not rows:
            return []
        want = pub_key(journal, volume, page)
        # Ranked on the parsed JSON; only the best few become Records (a common name
        # has hundreds of candidates in a big index, and a Record with its authors
        # costs several times the parse).
        scored = []
        for rid, origin, fmt, surnames, data in rows:
            doc = decoded.get(rid) or _loads(data)
            fit = _pub_fit_json(doc, want)
            overlap = len(others & set(surnames.split()))
            scored.append(((-fit, -overlap, ORIGIN_ORDER.get(origin, 9),
                            FORMAT_ORDER.get(fmt, 0), rid), doc))
        scored.sort(key=lambda item: item[0])
        found: list[Record] = []
        seen_ids: set[str] = set()
        for _, doc in scored:
            if doc["id"] not in seen_ids:
                seen_ids.add(doc["id"])
                found.append(_record_from_doc(doc))
                if len(found) == limit:
                    break
        return found

    def _count_author_year(self, names: Sequence[str], year: str) -> int:
        """Rows of ``names`` in ``year`` in ``author_year``, counted up to
        :data:`AUTHOR_YEAR_COUNT_BOUND`."""
        if not names:
            return AUTHOR_YEAR_COUNT_BOUND
        return int(self._conn.execute(
            f"SELECT COUNT(*) FROM (SELECT 1 FROM author_year WHERE name IN"
            f" ({','.join('?' * len(names))}) AND year = ? LIMIT {AUTHOR_YEAR_COUNT_BOUND})",
            (*names, year)).fetchone()[0])

    def search_title(self, title: str, *, authors: Sequence[str] = (), year: str = "",
                     limit: int = 5, min_score: float = 0.5) -> list[Record]:
        """Records whose title resembles ``title``, best first, typos tolerated.

        FTS5 finds candidates sharing the query's rarer words (OR; unknown words
        become prefix terms), rapidfuzz re-ranks them by normalised-title
        similarity; among candidates within 0.03 of the best similarity, author
        surname overlap and then year proximity break ties. ``Record.score`` is the
        title similarity (0..1); results below ``min_score`` are dropped.
        """
        norm = normalize_title(title)
        words, freq = self._title_words(norm)
        wanted = {_surname_key(a) for a in authors if a.strip()}
        scored: list[tuple[float, float, int, tuple[int, int], int, int]] = []
        # Rarest token first: the titles holding all three rarest words (a handful,
        # at any index size) usually contain the cited one; only when none of them
        # is close enough does the typo-tolerant expression run.
        stages: list[tuple[Callable[[], str], float]] = [
            (lambda: self._precise_expression(words, freq), PRECISE_ACCEPT),
            (lambda: self._match_expression(norm, (words, freq)), 0.0)]
        for expression, accept in stages:
            match = expression()  # the tolerant one only when the precise one failed
            if not match:
                continue
            cand = self._title_candidates(norm, match)
            scored = []
            for rid, cand_title, surnames, cand_year, origin, fmt in cand:
                score = fuzz.ratio(norm, cand_title) / 100.0
                if score < min_score:
                    continue
                names = set(surnames.split())
                overlap = len(wanted & names) / len(wanted) if wanted else 0.0
                # then, between equal sources, the record with the fewest names not
                # cited (three technical reports of one title: 2 authors cited, 2 or
                # 15 listed)
                extra = len(names - wanted) if wanted else 0
                gap = abs(int(cand_year) - int(year)) \
                    if cand_year.isdigit() and year.isdigit() else 99
                scored.append((score, overlap, gap,
                               (ORIGIN_ORDER.get(origin, 9), FORMAT_ORDER.get(fmt, 0)), rid,
                               extra))
            if scored and max(s[0] for s in scored) >= accept:
                break
        if not scored:
            return []
        best = max(s[0] for s in scored)
        scored.sort(key=lambda s: (s[0] < best - 0.03, -s[1], s[2], -s[0], s[3], s[5], s[4]))
        # Decode only the best few, and only until ``limit`` distinct works are found:
        # a record's JSON (authors!) costs more than its score.
        top = scored[:limit * 2]
        data = dict(self._conn.execute(
            f"SELECT rid, data FROM records WHERE rid IN ({','.join('?' * len(top))})",
            [s[4] for s in top]).fetchall())
        found: list[Record] = []
        seen: set[str] = set()
        for s in top:
            rec = _record_from_json(data[s[4]], round(s[0], 4))
            if rec.id not in seen:
                seen.add(rec.id)
                found.append(rec)
                if len(found) == limit:
                    break
        return found

    def _title_candidates(self, norm: str,
                          match: str) -> list[tuple[int, str, str, str, str, str]]:
        """(rid, norm_title, surnames, year, origin, format) of the :data:`TITLE_CANDIDATES`
        titles matching ``match`` most similar to ``norm``.

        When at most :data:`TITLE_SCAN` titles match (the expressions are built to match
        a few hundred at any index size), all are read and the most similar kept. FTS5's
        bm25 ranking is what takes over above that: it weighs each word by its rarity,
        which FTS5 counts by reading the word's whole posting list on every query, so a
        common word of a big index (a million titles hold "model" at ten million
        records) costs far more than reading the matching titles themselves; and bm25's
        best forty need not hold the most similar title.
        """
        cols = "r.rid, r.norm_title, r.surnames, r.year, r.origin, r.format"
        sql = ("SELECT {} FROM records r WHERE r.rid IN"
               " (SELECT rowid FROM title_fts WHERE title_fts MATCH ? {} LIMIT ?)")
        titles = self._conn.execute(sql.format("r.rid, r.norm_title", ""),
                                    (match, TITLE_SCAN + 1)).fetchall()
        if len(titles) > TITLE_SCAN:
            return self._conn.execute(sql.format(cols, "ORDER BY rank"),
                                      (match, TITLE_CANDIDATES)).fetchall()
        if not titles:
            return []
        if len(titles) > TITLE_CANDIDATES:
            titles = heapq.nlargest(TITLE_CANDIDATES, titles,
                                    key=lambda t: (fuzz.ratio(norm, t[1]), -t[0]))
        return self._conn.execute(
            f"SELECT {cols} FROM records r WHERE r.rid IN ({','.join('?' * len(titles))})",
            [t[0] for t in titles]).fetchall()

    def _title_words(self, norm: str) -> tuple[list[str], dict[str, int]]:
        """The query's content words, and the document frequency of the known ones."""
        words = [w for w in dict.fromkeys(norm.split())
                 if w not in _STOP_WORDS and (len(w) > 1 or w.isdigit())]
        if not words:
            return [], {}
        marks = ",".join("?" * len(words))
        return words, dict(self._conn.execute(
            f"SELECT term, doc FROM title_terms WHERE term IN ({marks})", words).fetchall())

    def _size(self) -> int:
        if self._size_cache is None:
            self._size_cache = int(self._conn.execute(
                "SELECT COALESCE(MAX(rid), 0) FROM records").fetchone()[0])
        return max(1, self._size_cache)

    @staticmethod
    def _precise_expression(words: Sequence[str], freq: Mapping[str, int]) -> str:
        """The three rarest known words together (two when only two are known)."""
        rare = sorted((w for w in words if w in freq), key=lambda w: _rarity(w, freq))[:3]
        return " AND ".join(f'"{w}"' for w in rare) if len(rare) >= 2 else ""

    def _titles_with(self, a: str, b: str) -> int:
        """How many titles hold both words, counted up to one more than
        :data:`TITLE_POSTINGS_BUDGET`."""
        return int(self._conn.execute(
            "SELECT COUNT(*) FROM (SELECT 1 FROM title_fts WHERE title_fts MATCH ? LIMIT ?)",
            (f'"{a}" AND "{b}"', TITLE_POSTINGS_BUDGET + 1)).fetchone()[0])

    def _match_expression(self, norm: str,
                          known: tuple[list[str], dict[str, int]] | None = None) -> str:
        """An FTS5 expression over the query's rarest known words, of bounded cost.

        Word rarity (document frequency) comes from ``title_terms``. The cost of a
        match is the length of the posting lists it reads plus the bm25 ranking of
        every title it matches, so the expression is built to stay within
        :data:`TITLE_POSTINGS_BUDGET` whatever the size of the index (rarest token
        first): the rarest words are matched alone while their frequencies add up
        to at most the budget; the rest of the four rarest words must occur in
        pairs (``"a" AND "b"``) that share at most the budget of titles: as if
        independent (their frequencies' product over the index size), and counted
        when both are common, for words that come together ("monte carlo",
        "reissner nordstrom": 10,000 titles at ten million records) share far more;
        a pair over the budget needs a third word. Four words suffice: a typo drops one word
        (a misspelt word is unknown and left out, unless it happens to be another
        real word), not the title, and two typos still leave a matching word or
        pair. A title of fewer than three known words also gets prefix terms
        (``"supe"*``) for its misspelt words, when the prefix is itself rare.
        """
        words, freq = known if known is not None else self._title_words(norm)
        if not words:
            return ""
        rare = sorted((w for w in words if w in freq), key=lambda w: _rarity(w, freq))[:4]
        singles: list[str] = []
        spent = 0
        for w in rare:
            if spent + freq[w] > TITLE_POSTINGS_BUDGET and (singles or len(rare) > 1):
                break
            singles.append(w)
            spent += freq[w]
        rest = rare[len(singles):]
        terms = [f'"{w}"' for w in singles]
        size = self._size()
        for i, a in enumerate(rest):
            for j, b in enumerate(rest[i + 1:], i + 1):
                if freq[a] * freq[b] / size <= TITLE_POSTINGS_BUDGET and (
                        min(freq[a], freq[b]) <= TITLE_POSTINGS_BUDGET
                        or self._titles_with(a, b) <= TITLE_POSTINGS_BUDGET):
                    terms.append(f'("{a}" AND "{b}")')
                else:  # two common words ("gamma ray"): a third must be there too
                    terms += [f'("{a}" AND "{b}" AND "{c}")' for c in rest[j + 1:]]
        if len(rare) < 3:
            # A misspelt word becomes a prefix term, unless its stem is a stop word
            # ("withoit" would match every title with "with") or common.
            unknown = [w for w in words if w not in freq and len(w) >= 5 and w.isalpha()
                       and w[:4] not in _STOP_WORDS]
            # One common known word: it must come with one of the prefixes, which may
            # then be ten times as common (the intersection is what gets ranked).
            anded = len(rare) == 1 and freq[rare[0]] > TITLE_POSTINGS_BUDGET
            budget = PREFIX_POSTINGS_BUDGET * (10 if anded else 1)
            prefixes = []
            dead = False
            for w in sorted(unknown, key=len, reverse=True)[:2]:
                stem = w[:4]
                count = self._conn.execute(
                    "SELECT COALESCE(SUM(doc), 0) FROM title_terms WHERE term >= ? AND term < ?",
                    (stem, stem[:-1] + chr(ord(stem[-1]) + 1))).fetchone()[0]
                if not count:
                    # No title word starts so: the term would match nothing. (Nor is it
                    # then known to be one FTS5 token: a letter of a newer Unicode than
                    # SQLite's tables, U+19B0, splits it, and a phrase of two tokens is
                    # an error in a title index without positions.)
                    dead = True
                elif count <= budget:
                    prefixes.append(f'"{stem}"*')
            if anded and prefixes:
                return f'"{rare[0]}" AND ({" OR ".join(prefixes)})'
            if anded and dead:
                return ""  # the common word and a stem no title has: nothing matches
            terms += prefixes
        return " OR ".join(terms)


def _rarity(word: str, freq: Mapping[str, int]) -> tuple[bool, int, int]:
    """Sort key of title words, rarest first; two-letter words last: "ni", "na" are
    more often typos of "in", "an" than the rare words they look like."""
    return len(word) < 3 and word.isalpha(), freq[word], -len(word)


def _set_title_merging(conn: sqlite3.Connection, *, bulk: bool) -> None:
    """Set how the title index merges its segments while it is written (settings FTS5
    stores in the index): not at all, as far as FTS5 allows, while a new index is
    filled (``bulk``: its import ends with an 'optimize'), else FTS5's defaults."""
    conn.execute("INSERT INTO title_fts(title_fts, rank) VALUES('automerge', ?)",
                 (0 if bulk else FTS_AUTOMERGE,))
    conn.execute("INSERT INTO title_fts(title_fts, rank) VALUES('crisismerge', ?)",
                 (FTS_BULK_CRISISMERGE if bulk else FTS_CRISISMERGE,))


def _add_author_year(conn: sqlite3.Connection) -> None:
    """Create and fill the ``author_year`` table from the stored records (upgrade from 1)."""
    for statement in _AUTHOR_YEAR_SCHEMA:
        conn.execute(statement)
    rows = conn.execute("SELECT rid, data FROM records").fetchall()
    conn.executemany("INSERT OR IGNORE INTO author_year VALUES(?,?,?)",
                     [(name, year, rid) for rid, data in rows
                      for name, year in author_year_keys(_record_from_json(data))])


def _upgrade_to_4(conn: sqlite3.Connection) -> None:
    """Rebuild the title index over ``records.norm_title`` and drop the rid indexes
    schema 4 does without (minutes for millions of records; seconds for thousands)."""
    for name in _DROPPED_INDEXES:
        conn.execute(f"DROP INDEX IF EXISTS {name}")
    conn.execute("DROP TABLE IF EXISTS title_vocab")
    conn.execute("DROP TABLE IF EXISTS title_fts")
    for statement in _FTS_SCHEMA:
        conn.execute(statement)
    conn.execute("INSERT INTO title_fts(title_fts) VALUES('rebuild')")


def _refresh_title_terms(conn: sqlite3.Connection) -> None:
    """Copy the document frequency of every title word from ``title_vocab``."""
    conn.execute("DELETE FROM title_terms")
    conn.execute("INSERT INTO title_terms SELECT term, doc FROM title_vocab")


#: :func:`_preprint_only_json` in SQL, on the stored JSON (compact or full form), so that
#: SQLite drops the published records before Python decodes any: a common name has
#: hundreds of records a year in a big index.
_PREPRINT_ONLY_SQL = (
    "COALESCE(json_extract(r.data, '$.volume'), '') = ''"
    " AND COALESCE(json_extract(r.data, '$.pages'), '') = ''"
    " AND json_array_length(COALESCE(json_extract(r.data, '$.xp'), '[]')) = 0"
    " AND lower(COALESCE(json_extract(r.data, '$.venue'), '')) IN ('', 'arxiv')"
)


def _pub_fit_json(doc: Mapping[str, Any], want: tuple[str, str, str]) -> int:
    """How many of the stated journal, volume and first page one publication of a
    stored record (its parsed JSON: no Record built) repeats."""
    if not any(want):
        return 0
    best = 0
    pubs = [(doc.get("venue", ""), doc.get("volume", ""), doc.get("pages", "")),
            *((x[0], x[1], x[2]) for x in doc.get("xp", ()))]
    for venue, vol, pages in pubs:
        got = pub_key(venue, vol, pages)
        best = max(best, sum(1 for a, b in zip(want, got, strict=True) if a and a == b))
    return best


def _preprint_only_json(doc: Mapping[str, Any]) -> bool:
    """True when a stored record (its parsed JSON) states no publication (journal,
    volume or pages)."""
    venue = doc.get("venue", "")
    return not ((venue and venue.lower() != "arxiv") or doc.get("volume") or doc.get("pages")
                or doc.get("xp"))


def _unique_ids(records: Iterable[Record]) -> list[Record]:
    """Drop later records with an id already seen (one work from two dump formats)."""
    seen: set[str] = set()
    out = []
    for rec in records:
        if rec.id not in seen:
            seen.add(rec.id)
            out.append(rec)
    return out


#: A record ready for SQLite, made by the parsing processes: (uid, origin, format,
#: year, norm_title, surnames, data, DOIs, arXiv ids, texkeys, report numbers,
#: journal references, (author, year) keys). Plain tuples pickle fast.
_Row = tuple[str, str, str, str, str, str, str, tuple[str, ...], tuple[str, ...],
             tuple[str, ...], tuple[str, ...], tuple[tuple[str, str, str], ...],
             tuple[tuple[str, str], ...]]


def _prepare(row: IndexRow) -> _Row:
    """Everything :meth:`LocalIndex._write` stores of a row, computed off the writer.

    One pass over the authors gives what :func:`_surnames`, :func:`author_year_keys`
    and :func:`_record_to_json` give (the same values: ``tests/index`` compares them),
    each person's part looked up once (:func:`_person_keys`).
    """
    rec = row.record
    persons = []
    family_keys = []
    von_keys = []
    names: set[str] = set()
    taken = 0
    cache = _PERSON_KEYS
    for i, p in enumerate(rec.authors):
        got = cache.get(id(p))  # (the lookup of _person_keys, without its call)
        stored, has_family, skey, skey_full, akey, akey_full = \
            got[1] if got is not None else _person_keys(p)
        persons.append(stored)
        if has_family:
            if i < 50:
                family_keys.append(skey)
                if skey_full is not None:
                    von_keys.append(skey_full)
            if taken < AUTHOR_YEAR_AUTHORS:
                names.add(akey)
                if akey_full is not None:
                    names.add(akey_full)
                taken += 1
    candidates = [rec.year, *rec.other_years]
    if rec.extra_pubs:
        candidates += [pub[3] for pub in rec.extra_pubs]
    years = {y for y in candidates if len(y) == 4 and y.isdigit()}
    author_year: tuple[tuple[str, str], ...] = ()
    if years:
        if rec.collaborations:
            names.update(author_key(c) for c in rec.collaborations)
        names.discard("")
        if len(years) == 1:  # most records: the names sorted give the pairs sorted
            (year,) = years
            author_year = tuple([(n, year) for n in sorted(names)])
        else:
            author_year = tuple(sorted((n, y) for n in names for y in years))
    texkeys = tuple(t.lower() for t in row.texkeys) if row.texkeys else ()
    return (row.uid, row.origin, row.format, rec.year, row.norm_title,
            " ".join(family_keys + von_keys), _record_json(rec, persons), row.dois,
            row.arxivs, texkeys, rec.report_numbers, row.jrefs, author_year)


#: The lookup tables, in the order of :attr:`_Parsed.keys`.
_KEY_TABLES = ("doi", "arxiv", "texkey", "report", "jref", "author_year")


@dataclass(slots=True)
class _Parsed:
    """What parsing one chunk of a file gave (sent from a parsing process).

    Shaped like the tables it goes to, so that the writer hands the lists to SQLite
    as they are: ``records`` holds (uid, origin, format, year, norm_title, surnames,
    data) and ``keys`` one list per lookup table (:data:`_KEY_TABLES`) of (key...,
    i), ``i`` being the record's position in ``records``.
    """

    last_line: int = 0
    records: list[tuple[str, str, str, str, str, str, str]] = field(default_factory=list)
    keys: tuple[list[tuple[Any, ...]], ...] = field(
        default_factory=lambda: tuple([] for _ in _KEY_TABLES))
    skipped: int = 0
    bad: list[tuple[int, str]] = field(default_factory=list)
    formats: dict[str, int] = field(default_factory=dict)

    def add(self, row: IndexRow | None, fmt: str, count: bool = True) -> None:
        if row is None:
            self.skipped += 1
            return
        (uid, origin, fmt_, year, title, surnames, data, dois, arxivs, texkeys, reports,
         jrefs, author_year_keys_) = _prepare(row)
        i = len(self.records)
        self.records.append((uid, origin, fmt_, year, title, surnames, data))
        doi, arxiv, texkey, report, jref, author_year = self.keys
        if dois:
            doi.extend([(k, i) for k in dois])
        if arxivs:
            arxiv.extend([(k, i) for k in arxivs])
        if texkeys:
            texkey.extend([(k, i) for k in texkeys])
        if reports:
            report.extend([(k, i) for k in reports])
        if jrefs:
            jref.extend([(*k, i) for k in jrefs])
        if author_year_keys_:
            author_year.extend([(*k, i) for k in author_year_keys_])
        if count:
            self.formats[fmt] = self.formats.get(fmt, 0) + 1

    def rows(self) -> list[_Row]:
        """The records with their keys, one tuple each (:data:`_Row`)."""
        per: list[list[list[Any]]] = [[[] for _ in _KEY_TABLES] for _ in self.records]
        for t, pairs in enumerate(self.keys):
            for *key, i in pairs:
                per[i][t].append(key[0] if len(key) == 1 else tuple(key))
        return [(*rec, *(tuple(k) for k in keys))  # type: ignore[misc]
                for rec, keys in zip(self.records, per, strict=True)]


def _line_tasks(fh: Iterable[str], per_task: int) -> Iterator[tuple[int, list[str]]]:
    """(first line number, lines) chunks of a text file."""
    buf: list[str] = []
    start = 1
    for lineno, line in enumerate(fh, 1):
        buf.append(line)
        if len(buf) >= per_task:
            yield start, buf
            buf, start = [], lineno + 1
    if buf:
        yield start, buf


def _byte_tasks(path: Path, chunk_bytes: int) -> Iterator[tuple[str, int, int]]:
    """(path, offset, length) chunks of whole lines of an uncompressed file: the
    parsing processes read them themselves, so the writer neither reads nor sends
    the text (line numbers are counted in the chunks: see :func:`_parse_range_task`)."""
    size = path.stat().st_size
    with path.open("rb") as fh:
        offset = 0
        while offset < size:
            fh.seek(min(size, offset + chunk_bytes))
            fh.readline()
            end = min(size, fh.tell())
            yield str(path), offset, end - offset
            offset = end


_NEWLINE = re.compile(r"\r\n|\r|\n")
#: No JSON value read yet (``None`` is one: the line ``null``).
_UNREAD = object()


def _parse_range_task(task: tuple[str, int, int]) -> _Parsed:
    """Parse a byte range of JSON lines (runs in a parsing process). Its line numbers
    count from the start of the range; ``last_line`` is its number of lines."""
    path, offset, length = task
    with open(path, "rb") as fh:
        fh.seek(offset)
        data = fh.read(length)
    # split as text-mode reading does (universal newlines; a chunk ends after a
    # newline byte, never inside a UTF-8 sequence); without a carriage return, as
    # bytes, which orjson reads as they are (decoding and splitting the text of a
    # chunk cost 2 us per line, splitting its bytes 0.3)
    lines: list[str] | list[bytes] = _NEWLINE.split(data.decode("utf-8", errors="replace")) \
        if b"\r" in data else data.split(b"\n")
    if lines and not lines[-1]:
        lines.pop()
    return _parse_jsonl_task((1, lines))


def _parse_jsonl_task(task: tuple[int, Sequence[str | bytes]]) -> _Parsed:
    """Parse a chunk of JSON lines, as text or as UTF-8 bytes (runs in a parsing
    process). A line of bytes that orjson refuses is read again as text, as a text
    file gives it (invalid UTF-8 replaced, Unicode white space stripped), so both
    read every line alike."""
    start, lines = task
    out = _Parsed(last_line=start + len(lines) - 1)
    for lineno, line in enumerate(lines, start):
        text = line.strip()
        if not text:
            continue
        if lineno == 1:  # the file may start with a byte order mark
            text = text.removeprefix(b"\xef\xbb\xbf") if isinstance(text, bytes) \
                else text.removeprefix("\ufeff")
        obj: Any = _UNREAD
        if type(text) is bytes:
            try:
                obj = orjson.loads(text)
            except orjson.JSONDecodeError:
                text = text.decode("utf-8", errors="replace").strip()
                if not text:
                    continue
        if obj is _UNREAD:
            try:
                obj = _loads(text)
            except json.JSONDecodeError as exc:
                out.bad.append((lineno, f"invalid JSON: {exc.msg}"))
                continue
            except RecursionError:  # (orjson refuses it too: over 1,024 levels)
                out.bad.append((lineno, "invalid JSON: nested too deeply"))
                continue
        fmt = classify_json(obj)
        if not fmt:
            out.bad.append((lineno, "not a record of a known dump format"))
            continue
        try:
            rows = rows_from_json(obj, fmt)
        except (AttributeError, TypeError, ValueError, KeyError, IndexError) as exc:
            out.bad.append((lineno, f"malformed {fmt} record: {_malformed(exc)}"))
            continue
        out.formats[fmt] = out.formats.get(fmt, 0) + 1  # one per line, as before
        for row in rows:
            out.add(row, fmt, count=False)
    return out


def _malformed(exc: Exception) -> str:
    """What is wrong with a record whose converter failed, in words ("0" was a KeyError's)."""
    if isinstance(exc, KeyError):
        return f"the field {exc.args[0]!r} is missing" if exc.args else "a field is missing"
    if isinstance(exc, IndexError):
        return "a list field is empty"
    if isinstance(exc, (TypeError, AttributeError)):
        return f"a field is not of the form the format has ({exc})"
    return str(exc) or type(exc).__name__


def _parse_bib_task(task: tuple[str, str, int, str, int]) -> _Parsed:
    """Parse a chunk of whole BibTeX entries (runs in a parsing process)."""
    path, label, start, text, prefix_lines = task
    out = _Parsed(last_line=start + text.count("\n") - prefix_lines)
    try:
        entries, errors = _parse_bib(text, path)
    except Exception as exc:  # noqa: BLE001 - a parser bug must not abort the import
        out.bad.append((start, f"BibTeX chunk could not be parsed: {exc}"))
        return out
    for line, message in errors:
        out.bad.append((max(start, start + line - 1 - prefix_lines), message))
    for entry in entries:
        out.add(bib_row(entry, label), "bibtex")
    return out


def _dblp_tasks(fh: Iterable[str], per_task: int) -> Iterator[tuple[int, str]]:
    """(first line, text) chunks of whole DBLP records."""
    yield from dblp_xml.record_chunks(fh, per_task)


def _parse_dblp_task(task: tuple[int, str]) -> _Parsed:
    """Parse a chunk of DBLP XML records (runs in a parsing process)."""
    start, text = task
    out = _Parsed(last_line=start + text.count("\n"))
    for line, row_or_error in dblp_xml.parse_records(text, start):
        if isinstance(row_or_error, str):
            out.bad.append((line, row_or_error))
        else:
            out.add(row_or_error, "dblp")
    return out


def _pool_context() -> Any:
    # fork starts a parsing process in milliseconds and shares the loaded modules;
    # where it is unsafe or missing (macOS, Windows) the platform default is used.
    methods = multiprocessing.get_all_start_methods()
    return multiprocessing.get_context("fork" if sys.platform.startswith("linux")
                                       and "fork" in methods else None)


def _init_parser() -> None:
    """Set up a parsing process: fewer garbage collections.

    Parsing allocates millions of small objects that live a few microseconds, and a
    collection also walks the name and journal caches, which only grow: with the
    default thresholds, parsing 200,000 generated lines in one process took 5-8%
    longer (measured with ``gc.set_threshold``; noisy on a shared machine). The
    objects inherited from the importing process are frozen (never walked); cycles
    (pylatexenc's parse states, tracebacks) are still collected, ten times less often.
    """
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


def _parallel_map(func: Callable[[Any], _Parsed], tasks: Iterable[Any],
                  jobs: int) -> Iterator[_Parsed]:
    """``func`` over ``tasks`` in ``jobs`` processes, results in task order.

    At most two tasks per process are in flight, so a 10-GB dump never sits in
    memory (``Pool.imap`` would read all of it ahead).
    """
    if jobs <= 1:
        yield from map(func, tasks)
        return
    with _pool_context().Pool(jobs, initializer=_init_parser) as pool:
        pending: collections.deque[Any] = collections.deque()
        for task in tasks:
            pending.append(pool.apply_async(_packed, (func, task)))
            if len(pending) >= 2 * jobs:
                yield _unpack(pending.popleft().get())
        while pending:
            yield _unpack(pending.popleft().get())


def _packed(func: Callable[[Any], _Parsed], task: Any) -> bytes:
    """``func(task)`` as :mod:`marshal` bytes (runs in a parsing process).

    A parsed chunk is lists of tuples of strings and numbers, which marshal writes
    and reads in about half the time pickle takes (pickle remembers every object it
    wrote); the bytes then cross the pipe as one object. The writer is the process
    that reads them all, so what it saves counts twice.
    """
    out = func(task)
    return marshal.dumps((out.last_line, out.records, out.keys, out.skipped, out.bad,
                          out.formats))


def _unpack(data: bytes) -> _Parsed:
    """The :class:`_Parsed` of :func:`_packed` bytes."""
    last_line, records, keys, skipped, bad, formats = marshal.loads(data)
    return _Parsed(last_line=last_line, records=records, keys=keys, skipped=skipped, bad=bad,
                   formats=formats)


@dataclass(slots=True)
class _Accumulator:
    """Mutable counters of one import (private to :meth:`LocalIndex.add_file`)."""

    file: str
    lines: int = 0
    records: int = 0
    skipped: int = 0
    bad: int = 0
    problems: list[Problem] = field(default_factory=list)
    formats: collections.Counter[str] = field(default_factory=collections.Counter)

    def add_bad(self, line: int, message: str) -> None:
        self.bad += 1
        if len(self.problems) < MAX_REPORTED:
            self.problems.append(Problem("parse-error", message, file=self.file, line=line))

    def take(self, parsed: _Parsed) -> None:
        self.lines = max(self.lines, parsed.last_line)
        self.skipped += parsed.skipped
        self.formats.update(parsed.formats)
        for line, message in parsed.bad:
            self.add_bad(line, message)


# --------------------------------------------------------------------------- CLI helpers


def import_files(index_path: Path, files: Sequence[Path], *,
                 progress: Callable[[int], None] | None = None,
                 jobs: int = 0) -> list[ImportStats]:
    """Import every file into the index at ``index_path`` (created when missing);
    ``jobs`` as in :meth:`LocalIndex.add_file`."""
    index = LocalIndex.open(Path(index_path), create=True)
    try:
        return [index.add_file(Path(f), progress=progress, jobs=jobs) for f in files]
    finally:
        index.close()


def format_stats(stats: IndexStats | ImportStats | Sequence[ImportStats]) -> str:
    """Plain-text rendering of index counts, or of the outcome of imports."""
    if isinstance(stats, IndexStats):
        lines = [f"index {stats.path} (schema {stats.schema_version}): "
                 f"{stats.records} records"]
        lines += [f"  source {name:<10} {n:>9}" for name, n in stats.by_source.items()]
        lines += [f"  format {name:<16} {n:>9}" for name, n in stats.by_format.items()]
        lines.append(f"  lookup keys: {stats.dois} DOIs, {stats.arxiv_ids} arXiv ids, "
                     f"{stats.texkeys} texkeys, {stats.journal_refs} journal references")
        lines += [f"  file {p} ({f}): {n} records, {b} bad" for p, f, n, b in stats.files]
        return "\n".join(lines)
    items = [stats] if isinstance(stats, ImportStats) else list(stats)
    lines = []
    for s in items:
        lines.append(f"{s.path}: {s.records} records ({s.format or 'unknown format'}), "
                     f"{s.bad} bad, {s.skipped} skipped, {s.elapsed_s:.1f} s")
        lines += [f"  {p.file}:{p.line}: {p.message}" for p in s.problems[:10]]
        if s.bad > 10:
            lines.append(f"  ... {s.bad - 10} more bad lines")
    return "\n".join(lines)


# --------------------------------------------------------------------------- the source


def _open_readonly(path: Path) -> LocalIndex:
    return LocalIndex.open(path, create=False, readonly=True)


class LocalIndexSource:
    """The ``local`` source: answers queries from the offline index.

    A missing index gives NOT_FOUND for everything (with one logged warning); an
    unusable one gives ERROR, so the pipeline says "could not check".
    """

    name = SOURCE_NAME
    kinds = frozenset({QueryKind.DOI, QueryKind.ARXIV, QueryKind.TEXKEY, QueryKind.REPORT,
                       QueryKind.JOURNAL_REF, QueryKind.AUTHOR_YEAR, QueryKind.TITLE})
    version = "1"

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self._index: LocalIndex | None = None
        self._missing_warned = False
        #: the index is this thread's kept one (:mod:`.index_pool`): not closed here
        self._borrowed = False

    def _open(self) -> LocalIndex | None:
        if self._index is None:
            if not self.path.exists():
                if not self._missing_warned:
                    logger.warning("local index %s does not exist: the local source finds "
                                   "nothing (build it with: citecheck-tex index add FILE...)",
                                   self.path)
                    self._missing_warned = True
                return None
            from citecheck_tex.sources import index_pool

            self._borrowed = index_pool.enabled()  # a batch worker: kept between papers
            self._index = (index_pool.borrow(self.path, _open_readonly) if self._borrowed
                           else _open_readonly(self.path))
        return self._index

    def lookup(self, query: Query) -> list[Record]:
        """The records answering ``query`` (synchronous; raises LocalIndexError)."""
        index = self._open()
        if index is None:
            return []
        if query.kind is QueryKind.DOI:
            found = index.by_doi(query.value)
        elif query.kind is QueryKind.ARXIV:
            found = index.by_arxiv(query.value)
        elif query.kind is QueryKind.TEXKEY:
            found = index.by_texkey(query.value)
        elif query.kind is QueryKind.REPORT:
            found = index.by_report(query.value)
        elif query.kind is QueryKind.JOURNAL_REF:
            found = index.by_journal_ref(query.journal, query.volume, query.page)
        elif query.kind is QueryKind.AUTHOR_YEAR:
            found = index.by_author_year(query.authors, query.year, journal=query.journal,
                                         volume=query.volume, page=query.page)
        else:
            found = index.search_title(query.value, authors=query.authors, year=query.year,
                                       limit=MAX_ANSWER_RECORDS, min_score=0.6)
        return found[:MAX_ANSWER_RECORDS]

    async def fetch(self, query: Query) -> Answer:
        """Answer one query from the index; never raises."""
        t0 = time.perf_counter()
        try:
            records = self.lookup(query)
        except (LocalIndexError, sqlite3.Error) as exc:
            return Answer(self.name, query, SourceStatus.ERROR, message=str(exc),
                          latency_ms=(time.perf_counter() - t0) * 1000)
        status = SourceStatus.FOUND if records else SourceStatus.NOT_FOUND
        return Answer(self.name, query, status, records=tuple(records),
                      latency_ms=(time.perf_counter() - t0) * 1000)

    async def fetch_batch(self, queries: Sequence[Query]) -> list[Answer]:
        """Answer several queries, one indexed lookup each."""
        return [await self.fetch(q) for q in queries]

    def close(self) -> None:
        """Close the index connection, if open (a borrowed one stays open in its pool)."""
        if self._index is not None:
            if not self._borrowed:
                self._index.close()
            self._index = None


@register("local")
def make_local_source(http: Any, settings: Any) -> LocalIndexSource:
    """Factory of the ``local`` source; ``http`` is unused (no network)."""
    return LocalIndexSource(settings.resolved_index_path())
