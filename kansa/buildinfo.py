"""Which build of kansa is running: the mypyc-compiled replay engine or pure Python.

``pip install .`` compiles ``kansa.replay`` and the mjlog and mjai readers with mypyc
where it can (see setup.py); the compiled modules are C extensions beside (or instead of)
the ``.py`` files, and Python imports an extension before a source file of the same name.

>>> which_build() in ("compiled", "pure")
True
"""

from __future__ import annotations

import importlib.machinery
import importlib.util

__all__ = ["compiled_modules", "version_line", "which_build"]

PROBES = ("kansa.replay.engine", "kansa.replay.hand", "kansa.replay.checks.claims")
"""Modules setup.py always compiles: one of them imported from an extension means the
compiled build."""


def compiled_modules() -> list[str]:
    """Which of :data:`PROBES` are imported from C extensions (found, not imported)."""
    found = []
    for name in PROBES:
        spec = importlib.util.find_spec(name)
        if spec is not None and isinstance(spec.loader, importlib.machinery.ExtensionFileLoader):
            found.append(name)
    return found


def which_build() -> str:
    """``compiled`` or ``pure``."""
    return "compiled" if compiled_modules() else "pure"


def version_line(version: str) -> str:
    """What ``kansa --version`` prints."""
    if which_build() == "compiled":
        return f"kansa {version} (compiled build: engine and readers, mypyc)"
    return f"kansa {version} (pure-Python build)"
