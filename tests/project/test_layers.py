"""The import rules of DESIGN.md, enforced on the source."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
STDLIB_IO = {"os", "io", "pathlib", "glob", "shutil", "tempfile", "gzip", "zipfile", "socket",
             "subprocess", "urllib", "http", "sqlite3"}
ALLOWED = {
    # package: (project packages it may import, third-party packages it may import)
    "replay": ({"replay"}, {"mahjong"}),
    "parsers": ({"parsers", "replay"}, {"lxml", "msgspec", "zstandard"}),
    "reports": ({"reports", "replay"}, {"pandas", "matplotlib", "numpy", "pyarrow"}),
    "sim": ({"sim", "replay", "parsers"}, set()),
}
SIM_PARSERS = {
    # the parsers' modules the simulator uses: the canonical form, and the writers of the
    # sample logs, in the one module that writes files
    "kansa.parsers.canonical": {"table.py"},
    "kansa.parsers.mjai.write": {"samples.py"},
    "kansa.parsers.tenhou6.write": {"samples.py"},
}
SIM_IO = {"samples.py"}
"""The simulator's modules that may read and write files (``python -m kansa.sim.samples``)."""
LAYERS = {"replay", "parsers", "reports", "sim"}
PROJECT = {*LAYERS, "kansa"}


def layer(module: str) -> str:
    """The layer a module belongs to: ``kansa.replay.tiles`` -> ``replay``,
    ``kansa.cli`` -> ``kansa``; a third-party module gives its top-level name."""
    parts = module.split(".")
    if parts[0] == "kansa" and len(parts) > 1 and parts[1] in LAYERS:
        return parts[1]
    return parts[0]


def import_names_of(nodes: list[ast.stmt]) -> set[str]:
    """The modules the statements import by absolute name, nested ones included."""
    found: set[str] = set()
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Import):
                found.update(a.name for a in sub.names)
            elif isinstance(sub, ast.ImportFrom) and sub.module and sub.level == 0:
                found.add(sub.module)
    return found


def import_names(path: Path) -> set[str]:
    """Every module ``path`` imports by absolute name, anywhere in it."""
    return import_names_of(ast.parse(path.read_text(encoding="utf-8")).body)


TYPING_ONLY = {"mypy_extensions"}
"""Third-party packages any layer may import for annotations only, under
``if TYPE_CHECKING:``: mypy_extensions' native integer types (``i64``), which the compiled
build turns into C integers.  It comes with mypy, the build requirement, not with
``pip install .``, so the pure build must never import it at run time."""


def _imported(nodes: list[ast.stmt], found: set[str], *, typing_blocks: bool) -> None:
    """Add to ``found`` the modules the statements import at run time
    (``typing_blocks=False``: not inside ``if TYPE_CHECKING:``) or only for annotations
    (``typing_blocks=True``: only inside it)."""
    for node in nodes:
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) \
                and node.test.id == "TYPE_CHECKING":
            if typing_blocks:
                found |= import_names_of(node.body)
            _imported(node.orelse, found, typing_blocks=typing_blocks)
            continue
        if not typing_blocks and isinstance(node, ast.Import | ast.ImportFrom):
            found |= import_names_of([node])
        for field in ("body", "orelse", "finalbody", "handlers"):
            children = getattr(node, field, None)
            if isinstance(children, list):
                _imported([c for c in children if isinstance(c, ast.stmt)] +
                          [s for h in children if isinstance(h, ast.ExceptHandler)
                           for s in h.body], found, typing_blocks=typing_blocks)


def run_time_imports(path: Path) -> set[str]:
    """The modules a module imports outside ``if TYPE_CHECKING:`` blocks."""
    found: set[str] = set()
    _imported(ast.parse(path.read_text(encoding="utf-8")).body, found, typing_blocks=False)
    return found


def type_checking_imports(path: Path) -> set[str]:
    """The modules imported inside ``if TYPE_CHECKING:`` blocks (never at run time)."""
    found: set[str] = set()
    _imported(ast.parse(path.read_text(encoding="utf-8")).body, found, typing_blocks=True)
    return found


def imports(path: Path) -> set[str]:
    """The layers and third-party packages a module imports, but the packages of
    :data:`TYPING_ONLY` where it imports them for annotations only."""
    typing_only = {name for name in type_checking_imports(path) - run_time_imports(path)
                   if layer(name) in TYPING_ONLY}
    return {layer(name) for name in import_names(path) - typing_only}


def test_typing_only_packages_are_never_imported_at_run_time() -> None:
    bad = [f"{path.relative_to(ROOT)} imports {name}"
           for path in python_files()
           for name in run_time_imports(path) if layer(name) in TYPING_ONLY]
    assert bad == []


def python_files() -> list[Path]:
    """Every Python file of the repository once (not again through the kansa/* links)."""
    out = []
    for path in ROOT.rglob("*.py"):
        parts = path.relative_to(ROOT).parts
        if parts[0] in {".venv", ".git", "build"} or (parts[0] == "kansa" and len(parts) > 2):
            continue
        out.append(path)
    return sorted(out)


def test_layers_are_imported_only_through_kansa() -> None:
    """``replay``, ``parsers``, ``reports`` and ``sim`` are installed as ``kansa.*`` only:
    importing them by their folder name would load a second copy of every module."""
    bad = [f"{path.relative_to(ROOT)} imports {name}"
           for path in python_files() for name in import_names(path)
           if name.split(".")[0] in LAYERS]
    assert bad == []


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


def called_names(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    return {n.func.id for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}


def test_replay_does_no_file_io() -> None:
    for path in modules("replay"):
        calls = called_names(path)
        assert "open" not in calls and "print" not in calls, path


def test_sim_meets_the_parsers_in_two_places() -> None:
    """The simulator uses the parsers' canonical form and, to write the samples, the
    writers; nothing else of the parsers."""
    bad = []
    for path in modules("sim"):
        for name in import_names(path):
            if layer(name) == "parsers" and path.name not in SIM_PARSERS.get(name, set()):
                bad.append(f"{path.relative_to(ROOT)} imports {name}")
    assert bad == []


def test_sim_does_io_only_in_samples() -> None:
    bad = []
    for path in modules("sim"):
        if path.name in SIM_IO:
            continue
        io = {name for name in imports(path) if name in STDLIB_IO | {"sys"}}
        io |= called_names(path) & {"open", "print", "input"}
        if io:
            bad.append(f"{path.relative_to(ROOT)}: {sorted(io)}")
    assert bad == []


def test_matplotlib_only_in_plots() -> None:
    for package in ("replay", "parsers", "kansa"):
        for path in modules(package):
            assert "matplotlib" not in imports(path), path
