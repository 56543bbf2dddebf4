"""The Tenhou XML reader's quick readings agree with its careful ones.

Each tag handler first reads the shape real logs have and, when that fails, reads the
tag again with the validating helpers.  Here the quick readings are switched off (their
lookup tables emptied, so every one of them raises and falls back) and the two readers
are compared on every corpus mjlog and on mutated ones: the same events, the same
positions, the same diagnostics, or the same error and position.
"""

from __future__ import annotations

import importlib.machinery
import random
import re
from pathlib import Path
from typing import Any

import pytest

from fuzz.harness import corpus_files
from fuzz.mutate import mutate
from kansa.parsers.errors import LogFormatError
from kansa.parsers.source import read_log_bytes
from kansa.parsers.tenhou_xml import hand, header, reader, result, tables
from kansa.parsers.tenhou_xml import read as tenhou_xml

MUTATED = 600
"""Mutated inputs per run (seeded); the session that added the quick readings ran
30,000 against the reader before them, with no difference."""


def reading(data: bytes) -> Any:
    try:
        games = tenhou_xml.parse(data, "case.mjlog")
    except LogFormatError as exc:
        return ("error", str(exc))
    return [(g.events, [repr(g.src_of(i)) for i in range(len(g.events))], g.diagnostics,
             g.players, g.hints, g.title) for g in games]


READER_MODULES = (tenhou_xml, tables, reader, header, hand, result)
"""The modules of the reader: each holds its own binding of the tables it reads."""

pytestmark = pytest.mark.skipif(
    any(isinstance(m.__loader__, importlib.machinery.ExtensionFileLoader)
        for m in READER_MODULES),
    reason="compiled, the reader reads its Final tables as C constants, which no "
           "monkeypatch reaches: the pure build compares the two readings")


def careful_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make every quick reading fail over to the careful one."""
    patched = set()
    for module in READER_MODULES:
        for table in ("_SEAT_TEXT", "_TILE_TEXT_AKA", "_TILE_TEXT_PLAIN", "_ORDER_TEXT_AKA",
                      "_ORDER_TEXT_PLAIN", "_LIMIT_TEXT", "_YAKU_TEXT"):
            if hasattr(module, table):
                monkeypatch.setattr(module, table, {})
                patched.add(table)
        if hasattr(module, "_PERCENT_ENCODED"):
            monkeypatch.setattr(module, "_PERCENT_ENCODED", re.compile("(?!)"))
            patched.add("_PERCENT_ENCODED")
    assert len(patched) == 8


@pytest.fixture(scope="module")
def inputs(corpus_dir: Path) -> list[bytes]:
    logs = [read_log_bytes(p) for p in corpus_files(corpus_dir)["tenhou_xml"]]
    rng = random.Random(20261130)
    return logs + [mutate(rng.choice(logs), "tenhou_xml", rng)[0] for _ in range(MUTATED)]


def test_quick_and_careful_readings_agree(inputs: list[bytes],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    quick = [reading(d) for d in inputs]
    careful_only(monkeypatch)
    careful = [reading(d) for d in inputs]
    differ = [i for i, (a, b) in enumerate(zip(quick, careful, strict=True)) if a != b]
    assert differ == []
    # the comparison means something: both kinds of outcome are among the inputs
    assert sum(isinstance(r, list) for r in quick) > 200
    assert sum(isinstance(r, tuple) for r in quick) > 100


def test_switching_the_quick_readings_off_is_seen(inputs: list[bytes],
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """The switch reaches the careful path: a wrong careful reading would be caught."""
    calls = {"start": 0, "hora": 0, "reach": 0}
    for name in calls:
        original = getattr(tenhou_xml._Reader, name)

        def counted(self: Any, *args: Any, _name: str = name, _fn: Any = original) -> Any:
            calls[_name] += 1
            return _fn(self, *args)
        monkeypatch.setattr(tenhou_xml._Reader, name, counted)
    reading(inputs[0])
    assert calls == {"start": 0, "hora": 0, "reach": 0}
    careful_only(monkeypatch)
    reading(inputs[0])
    assert all(n > 0 for n in calls.values()), calls
