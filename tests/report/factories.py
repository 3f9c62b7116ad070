"""Model objects for the reporter tests, built from real records (see data/PROVENANCE.md).

The entries mirror ``data/refs.bib`` (their ``line`` is the line of ``@type{key,``
in that file); the records carry the real metadata of the works.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from citecheck_tex.model import (
    Attempt,
    CiteSite,
    Discrepancy,
    DiscrepancyCode,
    Entry,
    FieldCheck,
    Label,
    Person,
    Problem,
    Project,
    Record,
    RunResult,
    SourceStatus,
    Verdict,
    VerdictCode,
)

DATA = Path(__file__).resolve().parent / "data"
BIB = "paper/refs.bib"
TEX = "paper/main.tex"


def bib_text() -> str:
    """The test .bib file as text, exactly as stored (LF line endings)."""
    return (DATA / "refs.bib").read_bytes().decode("utf-8")


def line_of(text: str, key: str) -> int:
    """1-based line of ``@...{key,`` in ``text``."""
    for n, line in enumerate(text.split("\n"), start=1):
        if "{" + key + "," in line and "@" in line:
            return n
    raise AssertionError(f"{key} not in text")


def person(family: str, given: str = "", von: str = "") -> Person:
    """A person."""
    return Person(family=family, given=given, von=von)


def entry(key: str, *, text: str | None = None, file: str = BIB, **kw: object) -> Entry:
    """An Entry of ``key`` located in ``text`` (the test .bib by default)."""
    text = bib_text() if text is None else text
    return Entry(key=key, entry_type=str(kw.pop("entry_type", "article")), file=file,
                 line=line_of(text, key), **kw)  # type: ignore[arg-type]


def _deoliveira() -> Verdict:
    authors = (person("Oliveira", "Luke", "de"), person("Kagan", "Michael"),
               person("Mackey", "Lester"), person("Nachman", "Benjamin"),
               person("Schwartzman", "Ariel"))
    e = entry(
        "deOliveira:2015xxd",
        fields={"author": "de Oliveira, Luke and Kagan, Michael and Mackey, Lester and Nachman, "
                          "Benjamin and Schwartzman, Ariel",
                "title": "Jet-images — deep learning edition", "journal": "JHEP",
                "volume": "07", "year": "2015", "pages": "69", "eprint": "1511.05190",
                "archiveprefix": "arXiv", "primaryclass": "hep-ph"},
        raw_fields={"author": '"de Oliveira, Luke and Kagan, Michael and Mackey, Lester\n and '
                              'Nachman, Benjamin and Schwartzman, Ariel"',
                    "title": '"{Jet-images — deep learning edition}"', "journal": '"JHEP"',
                    "volume": '"07"', "year": '"2015"', "pages": '"69"',
                    "eprint": '"1511.05190"', "archivePrefix": '"arXiv"',
                    "primaryClass": '"hep-ph"'},
        authors=authors, title="Jet-images — deep learning edition", year="2015",
        venue="JHEP", volume="07", pages="69", arxiv="1511.05190",
    )
    rec = Record(source="crossref", id="10.1007/JHEP07(2016)069",
                 url="https://doi.org/10.1007/JHEP07(2016)069",
                 title="Jet-images — deep learning edition", authors=authors, year="2016",
                 venue="Journal of High Energy Physics", volume="2016", pages="069",
                 doi="10.1007/jhep07(2016)069", arxiv="1511.05190", entry_type="article")
    return Verdict(
        entry=e, label=Label.MINOR, score=8.4, confidence=0.94,
        code=VerdictCode.FIELD_MISMATCH,
        match=rec,
        discrepancies=(Discrepancy("year", "2015", "2016", note="2015 is the arXiv year",
                                   code=DiscrepancyCode.YEAR_OFF_BY_ONE),
                       Discrepancy("pages", "69", "069", code=DiscrepancyCode.PAGES_MISMATCH)),
        suggested={"year": "2016", "pages": "069", "doi": "10.1007/JHEP07(2016)069"},
        attempts=(Attempt("arxiv", "arxiv", SourceStatus.FOUND, 412.0),
                  Attempt("crossref", "title", SourceStatus.FOUND, 1310.5)),
        sites=(CiteSite("deOliveira:2015xxd", TEX, 12, "cite"),
               CiteSite("deOliveira:2015xxd", "paper/sections/intro.tex", 7, "citep")),
        checks=(FieldCheck("title", True, 1.0), FieldCheck("year", False, 0.0, "2015", "2016"),
                FieldCheck("authors", True, 1.0)),
    )


def _larkoski() -> Verdict:
    authors = (person("Larkoski", "Andrew J."), person("Moult", "Ian"),
               person("Nachman", "Benjamin"))
    title = ("Jet Substructure at the Large Hadron Collider: A Review of Recent Advances in "
             "Theory and Machine Learning")
    e = entry("Larkoski:2017jix", fields={"title": title, "year": "2020", "journal": "Phys. Rept.",
                                          "volume": "841", "pages": "1--63",
                                          "doi": "10.1016/j.physrep.2019.11.001"},
              authors=authors, title=title, year="2020", venue="Phys. Rept.", volume="841",
              pages="1–63", doi="10.1016/j.physrep.2019.11.001", arxiv="1709.04464")
    rec = Record(source="inspire", id="1623915", url="https://inspirehep.net/literature/1623915",
                 title=title, authors=authors, year="2020", venue="Phys.Rept.", volume="841",
                 pages="1-63", doi="10.1016/j.physrep.2019.11.001", arxiv="1709.04464")
    return Verdict(entry=e, label=Label.EXACT, score=10.0, confidence=0.99,
                   code=VerdictCode.EXACT, match=rec,
                   attempts=(Attempt("inspire", "doi", SourceStatus.FOUND, 250.0, cached=True),),
                   sites=(CiteSite("Larkoski:2017jix", TEX, 14, "cite"),))


def _carrazza() -> Verdict:
    authors = (person("Carrazza", "Stefano"), person("Dreyer", "Frédéric A."))
    e = entry("Carrazza:2019efs",
              fields={"title": "Jet grooming through reinforcement learning", "year": "2018",
                      "journal": "Phys. Rev. D", "volume": "100", "pages": "014014",
                      "number": "1"},
              raw_fields={"author": '"Carrazza, Stefano and Dreyer, Frédéric A."',
                          "title": '"{Jet grooming through reinforcement learning}"',
                          "year": '"2018"'},
              authors=authors, title="Jet grooming through reinforcement learning",
              year="2018", venue="Phys. Rev. D", volume="100", pages="014014",
              doi="10.1103/physrevd.100.014014", arxiv="1903.09644")
    rec = Record(source="crossref", id="10.1103/PhysRevD.100.014014", url="",
                 title="Jet grooming through reinforcement learning", authors=authors,
                 year="2019", venue="Physical Review D", volume="100", pages="014014",
                 doi="10.1103/physrevd.100.014014")
    return Verdict(entry=e, label=Label.MINOR, score=9.1, confidence=0.97,
                   code=VerdictCode.FIELD_MISMATCH, match=rec,
                   discrepancies=(Discrepancy("year", "2018", "2019", code=DiscrepancyCode.YEAR_OFF_BY_ONE),),
                   suggested={"year": "2019"},
                   attempts=(Attempt("crossref", "doi", SourceStatus.FOUND, 640.2),),
                   sites=(CiteSite("Carrazza:2019efs", TEX, 20, "cite"),))


def _smith() -> Verdict:
    title = "Quantum <gravity> corrections to jet substructure & top tagging"
    e = entry("Smith:2021qgj",
              fields={"title": title, "journal": "Phys. Rev. Lett.", "volume": "126",
                      "pages": "101801", "year": "2021"},
              authors=(person("Smith", "John"), person("Müller", "Anna")), title=title,
              year="2021", venue="Phys. Rev. Lett.", volume="126", pages="101801")
    return Verdict(
        entry=e, label=Label.MAJOR, score=1.2, confidence=0.9,
        code=VerdictCode.NO_MATCH, facts={"identity": "0.12"},
        discrepancies=(Discrepancy("title", title,
                                   "Search for an Invisibly Decaying <Z'> Boson & friends",
                                   code=DiscrepancyCode.TITLE_MISMATCH),),
        attempts=(Attempt("crossref", "journal_ref", SourceStatus.FOUND, 980.0),
                  Attempt("inspire", "title", SourceStatus.NOT_FOUND, 300.0),
                  Attempt("semanticscholar", "title", SourceStatus.RATE_LIMITED, 55.0,
                          message="HTTP 429 Too Many Requests")),
        sites=(CiteSite("Smith:2021qgj", TEX, 31, "cite"),),
    )


def _kasieczka() -> Verdict:
    e = entry("Kasieczka:2019dbj",
              fields={"title": "The Machine Learning Landscape of Top Taggers", "year": "2019"},
              authors=(person("Butter", "Anja"),), authors_truncated=True,
              title="The Machine Learning Landscape of Top Taggers", year="2019",
              venue="SciPost Phys.", volume="7", pages="014",
              doi="10.21468/scipostphys.7.1.014", arxiv="1902.09914")
    return Verdict(entry=e, label=Label.UNVERIFIED, score=0.0, confidence=0.0,
                   code=VerdictCode.SOURCE_FAILED, facts={"sources": "arxiv, crossref"},
                   attempts=(Attempt("crossref", "doi", SourceStatus.ERROR, 20000.0,
                                     message="timed out after 20 s"),
                             Attempt("arxiv", "arxiv", SourceStatus.ERROR, 120.0,
                                     message="HTTP 503")))


def _software() -> Verdict:
    e = Entry(key="numpy", entry_type="software", file=BIB, line=0,
              fields={"title": "NumPy"}, title="NumPy")
    return Verdict(entry=e, label=Label.SKIPPED, score=0.0, confidence=0.0,
                   code=VerdictCode.NOT_SCHOLARLY,
                   facts={"why": "not a scholarly work (@software: software)"})


def verdicts() -> tuple[Verdict, ...]:
    """The verdicts of the sample run, in file order."""
    return (_deoliveira(), _larkoski(), _carrazza(), _smith(), _kasieczka(), _software())


def problems() -> tuple[Problem, ...]:
    """Frontend problems of the sample run."""
    return (
        Problem("undefined-key", "\\cite{Nachmann:2020xyz} has no entry in paper/refs.bib",
                key="Nachmann:2020xyz", file=TEX, line=44),
        Problem("unused-entry", "entry Kasieczka:2019dbj is never cited",
                key="Kasieczka:2019dbj", file=BIB, line=line_of(bib_text(), "Kasieczka:2019dbj")),
        Problem("network", "semanticscholar: HTTP 429, retried 3 times"),
    )


def run_result(**changes: object) -> RunResult:
    """A RunResult with every label, some problems, and realistic timings."""
    vs = verdicts()
    entries = tuple(v.entry for v in vs)
    sites = tuple(s for v in vs for s in v.sites)
    project = Project(input=TEX, main_file=TEX, files=(TEX,), resources=(BIB,),
                      entries=entries, all_entries=entries, sites=sites, problems=problems())
    result = RunResult(input=TEX, offline=False, project=project, verdicts=vs,
                       problems=problems(), tool_version="0.1.0", elapsed_s=3.42,
                       http_requests=11)
    return replace(result, **changes)  # type: ignore[arg-type]
