"""The import rules of DESIGN.md, enforced on the source."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
STDLIB_IO = {"os", "io", "pathlib", "glob", "shutil", "tempfile", "gzip", "zipfile", "socket",
             "subprocess", "urllib", "http", "sqlite3"}
ALLOWED = {
    # package: (project packages it may import, third-party packages it may import)
    "replay": ({"replay"}, {"mahjong"}),
    "parsers": ({"parsers", "replay"}, {"lxml", "zstandard"}),
    "reports": ({"reports", "replay"}, {"pandas", "matplotlib", "numpy", "pyarrow"}),
}
PROJECT = {"replay", "parsers", "reports", "kansa"}


def imports(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(a.name.split(".")[0] for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module.split(".")[0])
    return found


def modules(package: str) -> list[Path]:
    return sorted((ROOT / package).rglob("*.py"))


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_layer_imports(package: str) -> None:
    project_ok, third_ok = ALLOWED[package]
    stdlib = sys.stdlib_module_names
    bad = []
    for path in modules(package):
        for name in imports(path):
            if name in PROJECT and name not in project_ok:
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
            elif name not in PROJECT and name not in stdlib and name not in third_ok:
                bad.append(f"{path.relative_to(ROOT)} imports third-party {name}")
            elif package == "replay" and name in STDLIB_IO:
                bad.append(f"{path.relative_to(ROOT)} imports {name} (replay does no I/O)")
    assert bad == []


def test_replay_does_no_file_io() -> None:
    for path in modules("replay"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = [n.func.id for n in ast.walk(tree)
                 if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)]
        assert "open" not in calls and "print" not in calls, path


def test_matplotlib_only_in_plots() -> None:
    for package in ("replay", "parsers", "kansa"):
        for path in modules(package):
            assert "matplotlib" not in imports(path), path
