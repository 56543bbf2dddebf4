"""The format registry is the one list of formats: every consumer reads it."""

from __future__ import annotations

import argparse
import gc
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fuzz.mutate import kind_of
from kansa import convert, docs
from kansa.cli import build_parser
from kansa.parsers import FORMATS, available_formats, parse_bytes, sniff
from kansa.parsers import registry as registry_module
from kansa.parsers.registry import REGISTRY, WRITABLE, Format, format_named
from kansa.replay.game import Game
from tests.parsers import test_fuzz

ROOT = Path(__file__).resolve().parents[2]
NAMES = [f.name for f in REGISTRY]


def _parsers(parser: argparse.ArgumentParser) -> Iterator[argparse.ArgumentParser]:
    yield parser
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _parsers(sub)


def _choices(option: str) -> list[list[Any]]:
    """The choices of ``option`` in every (sub)command that has it."""
    return [list(action.choices or ()) for p in _parsers(build_parser())
            for action in p._actions if option in action.option_strings]


def test_the_registry_names_each_format_once_with_a_reader() -> None:
    assert len(set(NAMES)) == len(NAMES) == 5
    for f in REGISTRY:
        assert f.syntax in ("xml", "json")
        assert (f.writer is None) == (f.suffix is None), f.name
        module = f.read_module()
        assert callable(module.sniff) and callable(module.parse)
        assert format_named(f.name) is f


def test_the_loaders_list_is_the_registrys() -> None:
    assert list(FORMATS) == NAMES
    assert available_formats() == NAMES


def test_the_command_line_offers_the_registrys_formats() -> None:
    formats = _choices("--format")
    assert formats and all(c == NAMES for c in formats)
    assert _choices("--to") == [[f.name for f in WRITABLE]]
    assert list(convert.TARGETS) == [f.name for f in WRITABLE] == ["tenhou6", "mjai"]


def test_the_fuzz_tests_cover_the_registrys_formats() -> None:
    assert list(test_fuzz.LOG_FORMATS) == NAMES
    assert {name: kind_of(name) for name in NAMES} == {f.name: f.syntax for f in REGISTRY}


def test_the_readme_table_of_formats_is_the_registrys() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    start, end = docs.readme_block(text, docs.FORMATS_BEGIN, docs.FORMATS_END)
    table = text[start:end].strip().splitlines()
    assert table == docs.formats_markdown().strip().splitlines()
    assert [re.findall(r"`([a-z0-9_]+)`", row)[0] for row in table[2:]] == NAMES


def test_no_other_module_lists_the_formats() -> None:
    listing = re.compile(r"""["']tenhou_xml["'],\s*["']tenhou6["']""")
    found = [str(path.relative_to(ROOT)) for folder in ("parsers", "kansa", "fuzz", "reports",
                                                        "sim", "tests")
             for path in (ROOT / folder).rglob("*.py")
             if not path.is_symlink() and listing.search(path.read_text(encoding="utf-8"))]
    assert listing.search(str(tuple(NAMES))) and found == []


def test_a_format_added_to_the_registry_is_sniffed_in_its_order(
        monkeypatch: pytest.MonkeyPatch) -> None:
    first = Format("first", "A test format", "none", "json", "kansa.parsers.mjai.read")
    monkeypatch.setattr(registry_module, "REGISTRY", (first, *REGISTRY))
    monkeypatch.setattr("kansa.parsers.REGISTRY", (first, *REGISTRY))
    assert sniff(b'{"type":"start_game"}\n') == "first"


def test_writing_a_format_kansa_only_reads_is_refused() -> None:
    with pytest.raises(ValueError, match="does not write the majiang format"):
        format_named("majiang").write(Game(format="x", source="x", events=()))


def test_reading_leaves_the_garbage_collector_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    seen: list[bool] = []
    module = format_named("mjai").read_module()
    real = module.parse

    def spy(data: bytes, source: str, limits: Any) -> list[Game]:
        seen.append(gc.isenabled())
        return real(data, source, limits)

    monkeypatch.setattr(module, "parse", spy)
    assert gc.isenabled()
    parse_bytes(b'{"type":"start_game","names":["a","b","c","d"]}\n{"type":"end_game"}\n',
                "a.mjson", "mjai")
    assert seen == [True] and gc.isenabled()
