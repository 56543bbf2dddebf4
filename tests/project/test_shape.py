"""The shape of the code: modules a reader can hold in mind, and no import cycle."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("kansa", "replay", "parsers", "reports", "sim")
MAX_LINES = 600
OVERSIZED: dict[str, int] = {}
"""Modules allowed over the limit for now, each capped at its size (none today)."""


def source_files() -> dict[str, Path]:
    """Every module of the installed package by its dotted name (the layers by their own
    folder, not again through the links in ``kansa/``)."""
    out: dict[str, Path] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if package == "kansa" and path.parent != ROOT / "kansa":
                continue
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[0] != "kansa":
                parts.insert(0, "kansa")
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join(parts)] = path
    return out


def lines(path: Path) -> int:
    return len(path.read_text(encoding="utf-8").splitlines())


def test_no_module_is_over_600_lines() -> None:
    too_long = {}
    for path in source_files().values():
        rel = path.relative_to(ROOT).as_posix()
        cap = OVERSIZED.get(rel, MAX_LINES)
        if lines(path) > cap:
            too_long[rel] = (lines(path), cap)
    assert too_long == {}


def test_the_oversized_list_names_real_oversized_modules() -> None:
    for rel in OVERSIZED:
        assert lines(ROOT / rel) > MAX_LINES, f"{rel} is short enough now: remove it"


def _package_of(name: str, path: Path) -> str:
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def module_imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The project modules that must be loaded before ``name`` can finish loading: its
    module-level imports (``if TYPE_CHECKING:`` blocks and imports inside functions
    excluded), each resolved to what it loads.  ``from kansa.sim import bots`` needs
    ``kansa.sim.bots``; ``from kansa.parsers import load`` needs ``kansa.parsers`` itself;
    the packages a dotted import passes through count unless ``name`` is inside them
    (they are being loaded already)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    own = _package_of(name, path)
    needed: set[str] = set()

    def through(module: str) -> None:
        parts = module.split(".")
        for i in range(1, len(parts) + 1):
            step = ".".join(parts[:i])
            if not (own == step or own.startswith(step + ".")):
                needed.add(step)

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, ast.Import):
                for a in node.names:
                    through(a.name)
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    pkg = own.split(".")
                    pkg = pkg[:len(pkg) - node.level + 1]
                    base = ".".join([*pkg, base] if base else pkg)
                through(base)
                for a in node.names:
                    if f"{base}.{a.name}" in known:
                        needed.add(f"{base}.{a.name}")
                    else:
                        needed.add(base)  # a name the module defines: it must be loaded
            elif isinstance(node, ast.If) and not _is_type_checking(node.test):
                visit(node.body)
                visit(node.orelse)
            elif isinstance(node, ast.Try):
                visit(node.body)
                for h in node.handlers:
                    visit(h.body)
                visit(node.orelse)
                visit(node.finalbody)

    visit(tree.body)
    needed &= known
    needed.discard(name)
    return needed


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING")


def import_graph() -> dict[str, set[str]]:
    files = source_files()
    known = set(files)
    return {name: module_imports(name, path, known) for name, path in files.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm), each
    sorted."""
    edges = graph
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def connect(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in edges[v]:
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(edges):
        if v not in index:
            connect(v)
    return sorted(groups)


def test_the_import_graph_is_read() -> None:
    graph = import_graph()
    assert "kansa.replay.tiles" in graph["kansa.replay.events"]
    assert "kansa.sim.hand" in graph["kansa.sim.table"]
    assert "kansa.sim.bots" in graph["kansa.sim.hand"]
    assert "kansa.reports.tables" in graph["kansa.reporting"]
    assert "kansa.reporting" not in graph["kansa.cli"]  # imported inside a function
    assert "kansa.options" in graph["kansa.reporting"]
    assert "kansa.cli" not in graph["kansa.reporting"]
    assert "kansa.parsers.archive" in graph["kansa.parsers"]
    assert "kansa.parsers" in graph["kansa.cli"]  # from kansa.parsers import FORMATS


def test_the_cycle_finder_finds_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"d", "f"}, "f": {"e"}}
    assert cycles(graph) == [["a", "b", "c"], ["e", "f"]]


def test_no_import_cycle() -> None:
    assert cycles(import_graph()) == []
