"""Every example in the docstrings of kansa's modules stays true: each module whose source
has a ``>>>`` example is found and its examples run."""

from __future__ import annotations

import doctest
import importlib
import importlib.machinery
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("kansa", "replay", "parsers", "reports", "sim")
"""The folders of the installed package: ``kansa/`` itself, and the layers it links."""


def module_name(path: Path) -> str:
    """``replay/engine.py`` -> ``kansa.replay.engine``; ``kansa/cli.py`` -> ``kansa.cli``."""
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts if parts[0] == "kansa" else ["kansa", *parts])


def modules_with_examples() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            if package == "kansa" and path.parent != ROOT / "kansa":
                continue  # the layers through their links: found under their own folder
            if ">>>" in path.read_text(encoding="utf-8"):
                found.append(module_name(path))
    return found


MODULES = modules_with_examples()


def test_the_examples_are_found_in_every_layer() -> None:
    layers = {name.split(".")[1] for name in MODULES if name != "kansa"}
    assert {"replay", "parsers", "reports", "sim"} <= layers
    assert len(MODULES) >= 15


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    if isinstance(getattr(module, "__loader__", None), importlib.machinery.ExtensionFileLoader):
        pytest.skip(f"{name} is compiled (mypyc keeps no docstrings, so no examples): "
                    "the pure build runs them")
    tests = doctest.DocTestFinder().find(module)
    examples = [e for t in tests for e in t.examples]
    assert examples, f"{name} has '>>>' in its source but no example doctest finds"
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0
