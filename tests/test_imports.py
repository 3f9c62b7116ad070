"""The package's import graph: no cycles, no module importing another's private name,
and the layers: ground (vocab/, llm/, model, config, ...) < the four stages (tex/, sources/,
verify/, report/, which never import one another) < the application (pipeline, cache,
commands, ...).

Every ``import`` statement counts, also those inside functions (a lazy import
still ties two modules together: the old ``cli`` <-> ``gate``/``latexmk``/``watch``
cycle was made of lazy imports of cli's private ``_Parser`` and ``_overrides``).
"""

from __future__ import annotations

import ast
from pathlib import Path

import citecheck_tex

PACKAGE = Path(citecheck_tex.__file__).resolve().parent


def _modules() -> dict[str, Path]:
    mods: dict[str, Path] = {}
    for f in sorted(PACKAGE.rglob("*.py")):
        parts = list(f.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = f
    return mods


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _scan(mods: dict[str, Path]) -> tuple[dict[str, set[str]], list[str]]:
    """(module -> the package modules it imports, "importer: module.private" findings)."""
    graph: dict[str, set[str]] = {m: set() for m in mods}
    private: list[str] = []
    for mod, path in mods.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        aliases: dict[str, str] = {}  # local name -> package module it is bound to
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module \
                    and node.module.split(".")[0] == "citecheck_tex":
                for alias in node.names:
                    full = f"{node.module}.{alias.name}"
                    target = full if full in mods else node.module
                    if full in mods:
                        aliases[alias.asname or alias.name] = full
                    if target != mod:
                        graph[mod].add(target)
                    if _private(alias.name) and full not in mods and node.module != mod:
                        private.append(f"{mod}: {node.module}.{alias.name}")
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name in mods and alias.name != mod:
                        graph[mod].add(alias.name)
                        if alias.asname:
                            aliases[alias.asname] = alias.name
        for node in ast.walk(tree):  # cli._Parser after `from citecheck_tex import cli`
            if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                    and node.value.id in aliases and _private(node.attr) \
                    and aliases[node.value.id] != mod:
                private.append(f"{mod}: {aliases[node.value.id]}.{node.attr}")
    return graph, private


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in graph:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp: list[str] = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_the_scan_sees_the_package() -> None:
    mods = _modules()
    graph, _ = _scan(mods)
    assert "citecheck_tex.commands.check" in mods
    assert "citecheck_tex.commands.options" in graph["citecheck_tex.commands.check"]


def test_the_scan_finds_a_cycle_and_a_private_import(tmp_path: Path) -> None:
    """The checks below can fail: a made-up pair of modules trips both."""
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    pkg = tmp_path / "citecheck_tex"
    pkg.mkdir()
    (pkg / "one.py").write_text("from citecheck_tex import two\nx = two._hidden\n")
    (pkg / "two.py").write_text("from citecheck_tex.one import _secret\n")
    mods = {"citecheck_tex.one": pkg / "one.py", "citecheck_tex.two": pkg / "two.py"}
    graph, private = _scan(mods)
    assert _cycles(graph) == [["citecheck_tex.one", "citecheck_tex.two"]]
    assert sorted(private) == ["citecheck_tex.one: citecheck_tex.two._hidden",
                               "citecheck_tex.two: citecheck_tex.one._secret"]


def test_no_import_cycles() -> None:
    graph, _ = _scan(_modules())
    assert _cycles(graph) == []


def test_no_module_imports_a_private_name_of_another() -> None:
    _, private = _scan(_modules())
    assert private == []


# ---------------------------------------------------------------------------
# layers: ground < stages < application

#: Modules below every stage: the vocabulary, the LLM session, the core types, settings,
#: the plugin finder and the version string.
GROUND = frozenset({"vocab", "llm", "model", "errors", "config", "reasons", "redact", "repo", "bounded",
                    "names", "plugins", "version"})
#: The four stages of a check: read the project, ask the sources, decide, render.
STAGES = frozenset({"tex", "sources", "verify", "report"})
#: Stage-to-stage imports that stay, each with its reason (importer, imported module).
ALLOWED = {
    # `index add refs.bib` reads BibTeX with the frontend's one parser
    ("citecheck_tex.sources.local_index", "citecheck_tex.tex.bib"):
        "one BibTeX parser for citations and for index imports",
    ("citecheck_tex.sources.local_index", "citecheck_tex.tex.encoding"):
        "an imported .bib is decoded as the paper's own .bib files are",
    # the annotated .bib copies are written in the user's files' own encodings and
    # at their places in the project
    ("citecheck_tex.report.annotated_bib", "citecheck_tex.tex.encoding"):
        "annotated copies keep the .bib file's encoding",
    ("citecheck_tex.report.annotated_bib", "citecheck_tex.tex.project"):
        "annotated copies sit at the .bib file's place in the project",
    ("citecheck_tex.report.base", "citecheck_tex.tex.project"):
        "report paths are relative to the project folder",
}


def _layer(mod: str) -> str:
    """``ground``, a stage's name, or ``app`` (pipeline, cache, commands, cli, the
    package's facade ``citecheck_tex`` that re-exports the library API, ...)."""
    parts = mod.split(".")
    if len(parts) < 2:
        return "app"
    return parts[1] if parts[1] in STAGES else "ground" if parts[1] in GROUND else "app"


def layer_violations(graph: dict[str, set[str]]) -> list[str]:
    """Imports against the layers: ground imports no stage and no application module; a
    stage imports no other stage (except :data:`ALLOWED`) and no application module."""
    found = []
    for mod, targets in sorted(graph.items()):
        mine = _layer(mod)
        for target in sorted(targets):
            theirs = _layer(target)
            if theirs == "ground" or theirs == mine or mine == "app":
                continue
            if mine != "ground" and theirs in STAGES and (mod, target) in ALLOWED:
                continue
            found.append(f"{mod} ({mine}) imports {target} ({theirs})")
    return found


def test_the_layer_rule_can_fail() -> None:
    graph = {
        "citecheck_tex.sources.importers": {"citecheck_tex.verify.journals"},
        "citecheck_tex.tex.bbl": {"citecheck_tex.vocab.journals"},
        "citecheck_tex.vocab.ids": {"citecheck_tex.tex.bib"},
        "citecheck_tex.verify.policy": {"citecheck_tex.pipeline"},
        "citecheck_tex.pipeline": {"citecheck_tex.sources.plan", "citecheck_tex.verify.policy"},
    }
    assert layer_violations(graph) == [
        "citecheck_tex.sources.importers (sources) imports citecheck_tex.verify.journals (verify)",
        "citecheck_tex.verify.policy (verify) imports citecheck_tex.pipeline (app)",
        "citecheck_tex.vocab.ids (ground) imports citecheck_tex.tex.bib (tex)",
    ]


def test_no_stage_imports_another_stage() -> None:
    """``sources`` never imports ``verify``, ``tex`` never ``verify``, ``verify`` and ``report``
    never ``sources``, ...: what several stages need lives in :data:`GROUND`."""
    graph, _ = _scan(_modules())
    assert layer_violations(graph) == []
    assert {(m, t) for m, ts in graph.items() for t in ts} >= set(ALLOWED), \
        "an allowed import is gone: drop it from ALLOWED"


def test_every_module_imports_without_openai() -> None:
    """The LLM is optional (the ``[llm]`` extra): no module imports ``openai`` at import
    time (the check runs in a fresh interpreter where ``import openai`` fails)."""
    import subprocess
    import sys

    names = sorted(m for m in _modules() if not m.endswith("__main__"))
    code = ("import importlib, sys\nsys.modules['openai'] = None\n"
            f"for name in {names!r}:\n    importlib.import_module(name)\n"
            "assert sys.modules['openai'] is None\nprint(len(sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "citecheck_tex.llm" in names and "citecheck_tex.sources.websearch" in names
