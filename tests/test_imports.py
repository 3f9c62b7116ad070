"""The package's import graph: no cycles, no module importing another's private name.

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
