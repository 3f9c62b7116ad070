"""Third-party sources and reporters through entry points (docs/api.md).

The example plugin (tests/plugin_example: a source serving a group's records from a
JSON file, a CSV report) is installed the way pip installs a distribution: its package
and a ``groupdb_plugin-1.0.dist-info`` (METADATA, entry_points.txt written from its
pyproject.toml) in a folder on PYTHONPATH, found by importlib.metadata. Nothing in the
registries is patched; the command line runs in a subprocess.

The group's records are the real INSPIRE metadata of two works the sample paper
``sample_papers/dark_matter_axions`` cites (its index_records.jsonl); the .bib entries
are that paper's. Nothing here touches the network: the only source is the plugin.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
EXAMPLE = Path(__file__).resolve().parent / "plugin_example"
SAMPLE = ROOT / "sample_papers" / "dark_matter_axions"
EXPECTED = json.loads((SAMPLE / "expected.json").read_text(encoding="utf-8"))["labels"]

#: Entries of the sample paper's refs.bib that the group's database holds.
IN_GROUP = {"McAllister:2015zcz": "Axion Dark Matter Coupling to Resonant Photons via "
                                  "Magnetic Field",
            "Hui2017": "Ultralight scalars as cosmological dark matter"}
#: Broken plugins declared beside the working ones (not in the example's pyproject).
BROKEN = {
    "citecheck_tex.sources": {"brokendb": "groupdb_plugin.missing:Source",
                              "oddsource": "groupdb_plugin.oddities:make_dict"},
    "citecheck_tex.reporters": {"brokencsv": "groupdb_plugin.missing:Reporter",
                                "notafactory": "groupdb_plugin.oddities:NUMBER",
                                "oddreport": "groupdb_plugin.oddities:make_dict",
                                "keys": "groupdb_plugin.oddities:KeysReporter"},
}
ODDITIES = '''NUMBER = 42


def make_dict(*args, **kwargs):
    return {}


class KeysReporter:  # render only, no files: printed to standard output
    name = "keys"

    def render(self, result, settings):
        return "".join(f"key {v.entry.key} {v.label.value}\\n" for v in result.verdicts)
'''


def _install(site: Path) -> Path:
    """The example plugin as an installed distribution in ``site``."""
    shutil.copytree(EXAMPLE / "groupdb_plugin", site / "groupdb_plugin")
    (site / "groupdb_plugin" / "oddities.py").write_text(ODDITIES, encoding="utf-8")
    project = tomllib.loads((EXAMPLE / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    info = site / f"groupdb_plugin-{project['version']}.dist-info"
    info.mkdir()
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {project['name']}\n"
                                   f"Version: {project['version']}\n", encoding="utf-8")
    groups = {g: {**eps, **BROKEN.get(g, {})} for g, eps in project["entry-points"].items()}
    (info / "entry_points.txt").write_text(
        "".join(f"[{group}]\n" + "".join(f"{n} = {v}\n" for n, v in eps.items()) + "\n"
                for group, eps in groups.items()), encoding="utf-8")
    (info / "RECORD").write_text("", encoding="utf-8")
    return site


def _group_records() -> list[dict[str, Any]]:
    """The group's database: the real INSPIRE records of IN_GROUP, in the plugin's form."""
    out = []
    for line in (SAMPLE / "index_records.jsonl").read_text(encoding="utf-8").splitlines():
        meta = json.loads(line)["metadata"]
        title = meta["titles"][0]["title"]
        if title not in IN_GROUP.values() or any(r["title"] == title for r in out):
            continue
        pub = (meta.get("publication_info") or [{}])[0]
        out.append({
            "id": f"group-{meta['control_number']}", "title": title,
            "authors": [a["full_name"] for a in meta["authors"]], "year": str(pub["year"]),
            "journal": pub.get("journal_title", ""), "volume": pub.get("journal_volume", ""),
            "pages": pub.get("artid") or pub.get("page_start", ""),
            "doi": (meta.get("dois") or [{}])[0].get("value", ""),
            "arxiv": (meta.get("arxiv_eprints") or [{}])[0].get("value", ""),
        })
    assert len(out) == len(IN_GROUP)
    return out


def _bib() -> str:
    """The IN_GROUP entries of the sample's refs.bib and one work the group lacks."""
    text = (SAMPLE / "refs.bib").read_text(encoding="utf-8")
    entries = re.split(r"\n(?=@)", text)
    chosen = [e for e in entries if re.match(r"@\w+\{(" + "|".join(
        re.escape(k) for k in IN_GROUP) + r"),", e)]
    assert len(chosen) == len(IN_GROUP)
    return "\n".join(chosen) + ("\n@article{NotInGroup,\n  author = {Nobody, Alice},\n"
                                "  title = {A study of nothing in particular},\n"
                                "  year = {2019}\n}\n")


@pytest.fixture()
def paper(tmp_path: Path) -> Path:
    """A folder with refs.bib, the group's records and a citecheck.toml enabling the source."""
    folder = tmp_path / "paper"
    folder.mkdir()
    (folder / "refs.bib").write_text(_bib(), encoding="utf-8")
    records = folder / "group_records.json"
    records.write_text(json.dumps(_group_records(), indent=1), encoding="utf-8")
    (folder / "citecheck.toml").write_text(
        'sources = ["groupdb"]\n[base_urls]\ngroupdb = "group_records.json"\n',
        encoding="utf-8")
    return folder


@pytest.fixture()
def site(tmp_path: Path) -> Path:
    return _install(tmp_path / "site")


def _cli(site: Path, cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("CITECHECK_")}
    env["PYTHONPATH"] = os.pathsep.join([str(site), str(ROOT)])
    return subprocess.run([sys.executable, "-m", "citecheck_tex", *args], cwd=cwd, env=env,
                          capture_output=True, text=True, timeout=300, check=False)


def _report(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / "report.json").read_text(encoding="utf-8"))
    return data


def test_a_plugin_source_answers_and_a_plugin_report_is_written(site: Path, paper: Path) -> None:
    out = paper / "out"
    proc = _cli(site, paper, "refs.bib", "--cache", "none", "--out", str(out),
                "--format", "json,csv,keys", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr and "WARNING" not in proc.stderr
    report = _report(out)
    entries = {e["key"]: e for e in report["entries"]}
    for key in IN_GROUP:
        assert entries[key]["match"]["source"] == "groupdb"
        assert entries[key]["match"]["id"].startswith("group-")
        assert entries[key]["label"] == EXPECTED[key]
    assert entries["NotInGroup"]["match"] is None
    # a plugin report without files is printed (as --format github is)
    assert [ln for ln in proc.stdout.splitlines() if ln.startswith("key ")] == [
        f"key {e['key']} {e['label']}" for e in report["entries"]]
    assert sorted(p.name for p in out.iterdir()) == ["report.csv", "report.json"]
    with (out / "report.csv").open(encoding="utf-8", newline="") as fh:
        rows = list(csv.DictReader(fh))
    assert {r["key"]: (r["label"], r["code"], r["source"]) for r in rows} == {
        e["key"]: (e["label"], e["code"], (e["match"] or {}).get("source", ""))
        for e in report["entries"]}


def _bbl(bib: str) -> str:
    """A thebibliography .bbl of the entries in ``bib`` (title, authors, year), as BibTeX
    with a plain style writes one."""
    items = []
    for key, body in re.findall(r"@\w+\{([^,]+),(.*?)\n\}", bib, re.S):
        fields = dict(re.findall(r"(\w+)\s*=\s*[{\"](.*?)[}\"],?\s*$", body, re.M))
        items.append(f"\\bibitem{{{key}}}\n{fields.get('author', '')}.\n"
                     f"\\newblock {fields.get('title', '').strip('{}')}.\n"
                     f"\\newblock {fields.get('year', '')}.\n\n")
    return ("\\begin{thebibliography}{9}\n\n" + "".join(items)
            + "\\end{thebibliography}\n")


def test_watch_and_gate_print_a_text_plugin_report_as_check_does(site: Path,
                                                                  paper: Path) -> None:
    """A plugin report without files goes to standard output from every command that
    prints its result: ``watch --once`` and the arXiv ``gate`` too, not only ``check``."""
    bib = (paper / "refs.bib").read_text(encoding="utf-8")
    keys = re.findall(r"@\w+\{([^,]+),", bib)
    (paper / "main.tex").write_text(
        "\\documentclass{article}\n\\begin{document}\nSee \\cite{" + ",".join(keys)
        + "}.\n\\bibliographystyle{plain}\n\\bibliography{refs}\n\\end{document}\n",
        encoding="utf-8")
    (paper / "main.bbl").write_text(_bbl(bib), encoding="utf-8")
    runs = {
        "watch": _cli(site, paper, "watch", "main.tex", "--once", "--cache", "none",
                      "--out", str(paper / "out-watch"), "--format", "json,keys",
                      "--fail-on", "never"),
        "gate": _cli(site, paper, "gate", ".", "--cache", "none",
                     "--out", str(paper / "out-gate"), "--format", "json,keys",
                     "--fail-on", "never"),
    }
    for name, proc in runs.items():
        assert "Traceback" not in proc.stderr, (name, proc.stderr)
        report = _report(paper / f"out-{name}")
        assert sorted(e["key"] for e in report["entries"]) == sorted(keys), name
        printed = [ln for ln in proc.stdout.splitlines() if ln.startswith("key ")]
        assert printed == [f"key {e['key']} {e['label']}" for e in report["entries"]], (
            name, proc.stdout)


def test_broken_plugins_are_one_warning_each_and_the_run_goes_on(site: Path,
                                                                 paper: Path) -> None:
    out = paper / "out"
    proc = _cli(site, paper, "refs.bib", "--cache", "none", "--out", str(out),
                "--sources", "groupdb,brokendb,oddsource",
                "--format", "json,brokencsv,notafactory,oddreport,csv", "--fail-on", "never")
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stderr
    # the reporters: one warning line each, naming the plugin, what it is and why
    warnings = [ln for ln in proc.stderr.splitlines() if ln.startswith("WARNING")]
    assert len(warnings) == 3, proc.stderr
    broken, notafactory, odd = sorted(warnings)
    assert "'brokencsv' (groupdb_plugin.missing:Reporter from groupdb-plugin 1.0)" in broken
    assert "ModuleNotFoundError" in broken and "its report is not written" in broken
    assert "'notafactory'" in notafactory and "is not callable (int 42)" in notafactory
    assert "'oddreport'" in odd and "built a dict, which is not a reporter" in odd
    # the sources: a source-unavailable problem each, in the report, naming the plugin
    report = _report(out)
    unavailable = {p["message"] for p in report["problems"] if p["code"] == "source-unavailable"}
    assert len(unavailable) == 2
    assert any("'brokendb' (groupdb_plugin.missing:Source from groupdb-plugin 1.0)" in m
               and "ModuleNotFoundError" in m for m in unavailable)
    assert any("'oddsource' (groupdb_plugin.oddities:make_dict from groupdb-plugin 1.0) "
               "built a dict, which is not a source" in m for m in unavailable)
    # ...and the working plugins still did their part
    assert {e["key"]: (e["match"] or {}).get("source") for e in report["entries"]} == {
        "McAllister:2015zcz": "groupdb", "Hui2017": "groupdb", "NotInGroup": None}
    assert (out / "report.csv").is_file()
    assert sorted(p.name for p in out.iterdir()) == ["report.csv", "report.json"]


def test_plugin_names_are_valid_settings_and_unknown_names_list_them(site: Path,
                                                                     paper: Path) -> None:
    proc = _cli(site, paper, "refs.bib", "--sources", "groupdbb", "--format", "json")
    assert proc.returncode == 2
    assert "unknown source 'groupdbb'" in proc.stderr and "groupdb" in proc.stderr
    assert "Traceback" not in proc.stderr
    proc = _cli(site, paper, "refs.bib", "--format", "json,cvs")
    assert proc.returncode == 2
    assert "unknown format 'cvs'" in proc.stderr and "csv" in proc.stderr.split("valid")[1]


def test_the_library_uses_plugins_too(site: Path, paper: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process: the installed distribution on sys.path, ``citecheck_tex.check`` and
    ``render`` find the plugins by name (sources from the paper's citecheck.toml)."""
    import citecheck_tex

    monkeypatch.syspath_prepend(str(site))
    monkeypatch.chdir(paper)  # the records file is relative, as in citecheck.toml
    result = citecheck_tex.check(paper / "refs.bib", cache="none")
    by_key = {v.entry.key: v for v in result.verdicts}
    assert all(by_key[k].match is not None and by_key[k].match.source == "groupdb"
               for k in IN_GROUP)
    assert [a.source for a in by_key["NotInGroup"].attempts] == ["groupdb"]
    text = citecheck_tex.render(result, "csv")
    assert text.splitlines()[0] == "key,label,code,discrepancies,source,id"
    assert len(text.splitlines()) == 1 + len(result.verdicts)


def test_plugin_sources_are_asked_right_after_the_local_index() -> None:
    from citecheck_tex.model import QueryKind
    from citecheck_tex.sources.plan import groups_for

    enabled = ("crossref", "local", "groupdb", "otherdb")
    assert groups_for(QueryKind.TITLE, enabled)[:3] == (
        ("local",), ("groupdb", "otherdb"), ("crossref",))
    assert groups_for(QueryKind.DOI, ("crossref", "groupdb")) == (("groupdb",), ("crossref",))
