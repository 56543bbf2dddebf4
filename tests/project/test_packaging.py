"""The wheel installs one top-level package, ``kansa``, with every subpackage of the layers."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LAYERS = ("replay", "parsers", "reports", "sim")


def configured() -> tuple[list[str], dict[str, str]]:
    setuptools = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["setuptools"]
    return setuptools["packages"], setuptools["package-dir"]


def source_packages() -> set[str]:
    found = {"kansa"}
    for layer in LAYERS:
        for init in (ROOT / layer).rglob("__init__.py"):
            parts = init.parent.relative_to(ROOT).parts
            found.add(".".join(("kansa", *parts)))
    return found


def test_only_kansa_is_installed() -> None:
    packages, _ = configured()
    assert {p.split(".")[0] for p in packages} == {"kansa"}


def test_every_subpackage_is_installed() -> None:
    packages, _ = configured()
    assert sorted(packages) == sorted(source_packages())


def test_each_layer_folder_is_mapped_and_linked() -> None:
    _, package_dir = configured()
    for layer in LAYERS:
        assert package_dir[f"kansa.{layer}"] == layer
        link = ROOT / "kansa" / layer
        assert link.is_symlink() and link.resolve() == (ROOT / layer).resolve(), link
