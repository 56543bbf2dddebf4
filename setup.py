"""kansa's build: mypyc compiles the replay engine and the hot readers to C extensions.

``pip install .`` builds the compiled core (the modules of :data:`COMPILED_FOLDERS`, but
those in :data:`PURE_MODULES`, and :data:`COMPILED_MODULES`) when it can, and the
pure-Python package, which gives the same results, when it cannot.  The pure build is
chosen, with a line on standard error saying why,

* when ``KANSA_PURE=1`` is set (``KANSA_PURE=1 pip install .``),
* for an editable install (``pip install -e .``: the sources are what runs),
* when mypyc (the build requirement ``mypy``) cannot be imported, or
* when no working C compiler is found (a one-line test program is compiled first).

``KANSA_OPT_LEVEL`` sets mypyc's optimisation level (default 3; 0 compiles faster into
slower code).  Everything else (name, dependencies, packages) is in pyproject.toml.
``kansa --version`` says which build is installed.
"""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

from setuptools import Extension, setup

ROOT = Path(__file__).resolve().parent

COMPILED_FOLDERS = ("kansa/replay", "kansa/replay/checks", "kansa/parsers/tenhou_xml")
"""The folders compiled, named through the kansa/replay and kansa/parsers links so that
mypyc gives the modules their installed names (kansa.replay.engine, ...): the replay
engine and the Tenhou XML reader."""
PURE_MODULES = {"__init__.py", "tag.py"}
"""Modules of those folders that stay Python: the package files, and the mjlog reader's
protocol of a tag (mypyc compiles no overload without an implementation)."""
COMPILED_MODULES = (
    "kansa/parsers/canonical.py", "kansa/parsers/fields.py",
    "kansa/parsers/majiang/hand.py", "kansa/parsers/majiang/pointers.py",
    "kansa/parsers/majiang/read.py",
    "kansa/parsers/majiang/scan.py", "kansa/parsers/majiang/tiles.py",
    "kansa/parsers/mjai/chars.py", "kansa/parsers/mjai/claims.py", "kansa/parsers/mjai/deal.py",
    "kansa/parsers/mjai/fast.py",
    "kansa/parsers/mjai/read.py",
    "kansa/parsers/mjai/tiles.py",
    "kansa/parsers/tenhou6/ext.py", "kansa/parsers/tenhou6/items.py",
    "kansa/parsers/tenhou6/jsontext.py",
    "kansa/parsers/tenhou6/kyoku.py", "kansa/parsers/tenhou6/order.py",
    "kansa/parsers/tenhou6/patching.py", "kansa/parsers/tenhou6/pointers.py",
    "kansa/parsers/tenhou6/read.py", "kansa/parsers/tenhou6/result.py",
)
"""Single modules compiled besides: the mjai reader's loop over lines, its per-line
code, its reading of win and draw claims and of tile names, the tenhou.net/6 reader with
its extension (but its writer and cut-file reading), the majiang reader, the JSON readers' typed
access to decoded values (``Fields``), and the canonical pass every reader's games go
through.

No compiled module defines an exception class: compiled by mypy 2.4.1, an ``except``
of such a class also catches any exception of its base class (and then fails to bind
it), so the JSON helper (``parsers/_json.py``), which defines one, stays Python
(tests/project/test_build.py checks the rule)."""


def compiled_paths() -> list[str]:
    paths = []
    for folder in COMPILED_FOLDERS:
        for path in sorted((ROOT / folder).glob("*.py")):
            if path.name not in PURE_MODULES:
                paths.append(f"{folder}/{path.name}")
    return paths + list(COMPILED_MODULES)


def _say(message: str) -> None:
    print(f"kansa build: {message}", file=sys.stderr)


def _compiler_works() -> bool:
    """Compile a two-line C program that includes Python.h with the compiler Python's
    build tools would use (no compiler, or no Python headers: python3-dev on Debian)."""
    from setuptools._distutils import ccompiler, sysconfig  # noqa: PLC0415

    compiler = ccompiler.new_compiler()
    sysconfig.customize_compiler(compiler)
    with tempfile.TemporaryDirectory() as tmp:
        source = Path(tmp) / "probe.c"
        source.write_text("#include <Python.h>\nint kansa_probe(void) { return 0; }\n")
        try:
            compiler.compile([str(source)], output_dir=tmp,
                             include_dirs=[sysconfig.get_python_inc()])
        except Exception as error:  # CompileError, a missing executable, ...
            _say(f"no working C compiler with Python's headers "
                 f"({type(error).__name__}: {error})")
            return False
    return True


BUILD_COMMANDS = {"build", "build_ext", "bdist_wheel", "install"}
"""The setup.py commands that compile; the others (egg_info, sdist, pip's metadata step)
skip mypyc's minute of code generation."""
EDITABLE_COMMANDS = {"develop", "editable_wheel"}
"""An editable install (``pip install -e .``) is pure: compiled modules beside the sources
would be imported instead of the sources being edited."""


def extensions() -> list[Extension]:
    if os.environ.get("KANSA_PURE", "") not in ("", "0"):
        _say("KANSA_PURE is set: pure-Python build")
        return []
    try:
        from mypyc.build import mypycify  # noqa: PLC0415
    except ImportError:
        _say("mypyc (mypy) is not installed: pure-Python build")
        return []
    if not _compiler_works():
        _say("pure-Python build")
        return []
    _say("compiling kansa.replay and the log readers with mypyc (a few minutes; "
         "KANSA_PURE=1 skips it)")
    return mypycify(compiled_paths(), opt_level=os.environ.get("KANSA_OPT_LEVEL", "3"),
                    group_name="kansa.native")


def extensions_for(commands: set[str]) -> list[Extension]:
    """The extensions the setup.py ``commands`` build."""
    if EDITABLE_COMMANDS & commands:
        _say("editable install: pure-Python build (compiled modules would hide edits)")
        return []
    return extensions() if BUILD_COMMANDS & commands else []


if __name__ == "__main__":  # also under pip: setuptools runs this file as __main__
    setup(ext_modules=extensions_for(set(sys.argv[1:])))
