"""The modules of ``kansa.replay`` import each other along a line, without a cycle.

Every import counts: at module level, inside functions and under ``TYPE_CHECKING``.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

REPLAY = Path(__file__).resolve().parents[2] / "replay"
PACKAGE = "kansa.replay"
ORDER = ("tiles", "events", "melds", "rules", "state", "situation", "scoring", "payments",
         "settle", "engine")
"""The line: a module may import the ones before it, never one after it.  Modules not
in the line sit where they need, as long as no cycle forms."""


def module_name(path: Path) -> str:
    parts = path.relative_to(REPLAY).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join((PACKAGE, *parts))


def replay_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(REPLAY.rglob("*.py"))}


def imports_of(path: Path, known: set[str]) -> set[str]:
    """The ``kansa.replay`` modules that ``path`` imports."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name in known)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module in known:
                found.add(node.module)
            for a in node.names:  # ``from kansa.replay import hand`` names a module
                if f"{node.module}.{a.name}" in known:
                    found.add(f"{node.module}.{a.name}")
    return found


def import_graph() -> dict[str, set[str]]:
    modules = replay_modules()
    known = set(modules)
    return {name: imports_of(path, known) - {name} for name, path in modules.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import cycle as the list of its modules (first repeated at the end), or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(name: str) -> list[str] | None:
        if name in path:
            return [*path[path.index(name):], name]
        if name in done:
            return None
        path.append(name)
        for dep in sorted(graph.get(name, ())):
            cycle = visit(dep)
            if cycle is not None:
                return cycle
        path.pop()
        done.add(name)
        return None

    for name in sorted(graph):
        cycle = visit(name)
        if cycle is not None:
            return cycle
    return None


def against_order(graph: dict[str, set[str]]) -> list[str]:
    rank = {f"{PACKAGE}.{m}": i for i, m in enumerate(ORDER)}
    return sorted(f"{name} imports {dep}" for name, deps in graph.items() if name in rank
                  for dep in deps if dep in rank and rank[dep] > rank[name])


def test_every_module_of_the_line_exists() -> None:
    assert {f"{PACKAGE}.{m}" for m in ORDER} <= set(replay_modules())


def test_no_import_cycle_inside_replay() -> None:
    assert find_cycle(import_graph()) is None


def test_imports_follow_the_line() -> None:
    assert against_order(import_graph()) == []


@pytest.mark.parametrize(("graph", "cycle"), [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
    ({"a": {"b"}, "b": set(), "c": {"a", "b"}}, None),
    ({"a": {"a"}}, ["a", "a"]),
])
def test_find_cycle_finds_one(graph: dict[str, set[str]], cycle: list[str] | None) -> None:
    assert find_cycle(graph) == cycle


def test_an_import_back_along_the_line_is_reported() -> None:
    state, scoring = f"{PACKAGE}.state", f"{PACKAGE}.scoring"
    assert against_order({state: {scoring}, scoring: set()}) == [f"{state} imports {scoring}"]


def test_imports_are_read_from_every_form(tmp_path: Path) -> None:
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "from kansa.replay import hand\n"
        "import kansa.replay.tiles\n"
        "if TYPE_CHECKING:\n    from kansa.replay.settle import WinEntry\n"
        "def f():\n    from kansa.replay.state import RoundState\n", encoding="utf-8")
    known = {f"{PACKAGE}.{m}" for m in ("hand", "tiles", "settle", "state", "events")}
    assert imports_of(source, known) == known - {f"{PACKAGE}.events"}
