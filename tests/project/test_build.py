"""The compiled and the pure build: setup.py's choice, and ``kansa --version`` naming it."""

from __future__ import annotations

import ast
import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

import kansa
from kansa.buildinfo import compiled_modules, which_build

ROOT = Path(__file__).resolve().parents[2]


def load_setup() -> ModuleType:
    """setup.py as a module: its functions, without running ``setup()``."""
    spec = importlib.util.spec_from_file_location("kansa_setup", ROOT / "setup.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_build_in_use_is_the_one_ci_expects() -> None:
    """.ci/run sets KANSA_EXPECT_BUILD for each run of the suite."""
    expected = os.environ.get("KANSA_EXPECT_BUILD")
    if expected is None:
        pytest.skip("KANSA_EXPECT_BUILD is not set")
    assert which_build() == expected


def test_version_names_the_build(tmp_path: Path) -> None:
    """Run on the kansa this suite imports (the source tree or the installed package)."""
    home = Path(kansa.__file__).resolve().parents[1]
    run = subprocess.run([sys.executable, "-m", "kansa", "--version"], cwd=tmp_path,
                         env={**os.environ, "PYTHONPATH": str(home)},
                         capture_output=True, text=True, check=True)
    build = which_build()
    assert ("(compiled build" in run.stdout) == (build == "compiled"), run.stdout
    assert ("(pure-Python build)" in run.stdout) == (build == "pure"), run.stdout
    assert run.stdout.count("\n") == 1, run.stdout  # argparse wraps a long one


def test_a_compiled_build_has_its_probes_compiled_together() -> None:
    """setup.py compiles every probe module, so they are all compiled or none is."""
    assert len(compiled_modules()) in (0, 3)


def test_every_replay_and_mjlog_reader_module_but_the_listed_ones_is_compiled() -> None:
    """And the single modules listed (each exists)."""
    setup = load_setup()
    paths = setup.compiled_paths()
    expected = sorted(
        f"kansa/{p.relative_to(ROOT).as_posix()}"
        for folder in ("replay", "replay/checks", "parsers/tenhou_xml")
        for p in (ROOT / folder).glob("*.py") if p.name not in setup.PURE_MODULES)
    assert sorted(paths) == sorted(expected + list(setup.COMPILED_MODULES))
    assert all((ROOT / path).is_file() for path in setup.COMPILED_MODULES)
    assert "kansa/replay/engine.py" in paths and "kansa/replay/tiles.py" in paths
    assert "kansa/replay/events.py" in paths and "kansa/parsers/tenhou_xml/reader.py" in paths
    assert "kansa/replay/__init__.py" not in paths
    assert "kansa/parsers/tenhou_xml/scan.py" in paths


def _exception_classes(tree: ast.Module) -> list[str]:
    """The classes of a module whose bases name an exception class of the standard
    library or one defined before them in the module (the names tell: ...Error,
    Exception, ...)."""
    found: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ClassDef):
            bases = [ast.unparse(b).rsplit(".", 1)[-1] for b in node.bases]
            if any(b.endswith(("Error", "Exception", "Warning")) or b in found
                   or b in ("BaseException", "KeyboardInterrupt", "SystemExit")
                   for b in bases):
                found.append(node.name)
    return found


def test_no_compiled_module_defines_an_exception_class() -> None:
    """Compiled, an ``except`` of an exception class defined in a compiled module also
    catches every exception of its base class (and then fails to bind it)."""
    assert _exception_classes(ast.parse("class A(ValueError): pass\nclass B(A): pass\n"
                                        "class C: pass")) == ["A", "B"]
    for path in load_setup().compiled_paths():
        tree = ast.parse((ROOT / path.removeprefix("kansa/")).read_text(encoding="utf-8"))
        assert _exception_classes(tree) == [], path


def test_kansa_pure_forces_the_pure_build(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("KANSA_PURE", "1")
    assert load_setup().extensions() == []


def test_the_compiled_build_is_the_default(monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    """With mypyc and a working C compiler, setup.py compiles every listed module (mypyc
    itself is replaced here: its code generation takes a minute)."""
    build = pytest.importorskip("mypyc.build")
    setup = load_setup()
    if not setup._compiler_works():
        pytest.skip("no working C compiler with Python's headers here")
    asked: list[Any] = []

    def mypycify(paths: list[str], **options: Any) -> list[str]:
        asked.append((paths, options))
        return ["extensions"]

    monkeypatch.setattr(build, "mypycify", mypycify)
    monkeypatch.delenv("KANSA_PURE", raising=False)
    assert setup.extensions() == ["extensions"]
    [(paths, options)] = asked
    assert paths == setup.compiled_paths() and options["group_name"] == "kansa.native"
    assert "compiling kansa.replay and the log readers with mypyc" in \
        capsys.readouterr().err


def test_no_working_compiler_gives_the_pure_build(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    pytest.importorskip("mypyc.build")
    monkeypatch.delenv("KANSA_PURE", raising=False)
    monkeypatch.setenv("CC", "/nonexistent/cc")
    assert load_setup().extensions() == []
    assert "no working C compiler" in capsys.readouterr().err


def test_an_editable_install_is_pure(capsys: pytest.CaptureFixture[str]) -> None:
    setup = load_setup()
    assert setup.extensions_for({"editable_wheel"}) == []
    assert setup.extensions_for({"develop"}) == []
    assert "editable install: pure-Python build" in capsys.readouterr().err
    assert setup.extensions_for({"egg_info"}) == []  # pip's metadata step compiles nothing
