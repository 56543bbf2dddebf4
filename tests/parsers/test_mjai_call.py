"""Calls read from their characters (``kansa.parsers.mjai.chars.read_call``) read as
the per-line code reads them, or are left to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kansa.parsers.fields import Fields
from kansa.parsers.mjai.chars import read_call
from kansa.parsers.mjai.read import Reader
from kansa.replay.events import SourceRef
from tests.parsers.mjai_lines import EDITS, corpus_lines, edited, read_by_line

CALLS: list[dict[str, Any]] = [
    {"type": "pon", "actor": 3, "target": 0, "pai": "F", "consumed": ["F", "F"]},
    {"type": "chi", "actor": 1, "target": 0, "pai": "5pr", "consumed": ["7p", "6p"]},
    {"type": "daiminkan", "actor": 2, "target": 1, "pai": "5m",
     "consumed": ["5mr", "5m", "5m"]},
]
SPELLINGS = [json.dumps(c, separators=(",", ":")) for c in CALLS] + [json.dumps(c)
                                                                    for c in CALLS]


def started(players: int) -> Reader:
    """A reader in the first hand of a game of ``players`` seats, seat 1 having called
    once already."""
    reader = Reader("x.mjson")
    hands = [["1m"] * 13] * players
    for number, line in enumerate([
            {"type": "start_game", "num_players": players},
            {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0,
             "oya": 0, "dora_marker": "1m", "scores": [25000] * players, "tehais": hands},
            {"type": "chi", "actor": 1, "target": 0, "pai": "3s", "consumed": ["1s", "2s"]},
    ], 1):
        reader.feed(Fields(line, SourceRef("x.mjson", number)), number)
    return reader


def state(reader: Reader) -> Any:
    g = reader.cur
    assert g is not None
    return (g.events, g.called, g.melds, g.diagnostics, reader.lines)


def taken(raw: str, players: int = 4) -> Any:
    call = read_call(raw, players)
    if call is None:
        return None
    reader = started(players)
    assert reader.call(call, 4)
    return state(reader)


def fed(raw: str, players: int = 4) -> Any:
    return read_by_line(started(players), raw, 4, state)


def same(raw: str, players: int = 4) -> Any:
    quick = taken(raw, players)
    if quick is not None:
        assert quick == fed(raw, players)
    return quick


def test_the_usual_spellings_are_read_as_the_per_line_code_reads_them() -> None:
    for raw in SPELLINGS:
        quick = same(raw)
        assert quick is not None
        assert quick[0][-1].src == SourceRef("x.mjson", 4)
    assert same(SPELLINGS[0], 3) is None  # seat 3 in a game of three
    assert same(SPELLINGS[1], 3) is not None


def test_every_corpus_call_reads_as_the_per_line_code_reads_it(corpus_dir: Path) -> None:
    read = sum(same(raw) is not None for raw in corpus_lines(corpus_dir)
               if '"consumed"' in raw and '"pai"' in raw)
    assert read > 0


ODD = [
    ('"actor":3', '"actor":4'), ('"actor":3', '"actor":-1'), ('"actor":3', '"actor":03'),
    ('"actor":3', '"actor":3.0'), ('"actor":3', '"actor":"3"'), ('"target":0', '"target":4'),
    ('"target":0', '"target":-0'), ('"pai":"F"', '"pai":"?"'), ('"pai":"F"', '"pai":"X"'),
    ('"pai":"F"', '"pai":"0m"'), ('["F","F"]', '[]'), ('["F","F"]', '["F"]'),
    ('["F","F"]', '["F","F","F","F","F"]'), ('["F","F"]', '["F","?"]'),
    ('["F","F"]', '["F", "F"]'), ('["F","F"]', '["F" ,"F"]'), ('"pon"', '"pom"'),
    ('"pon"', '"kakan"'), ('"pon"', '"ankan"'), ('}', ',"x":1}'), ('}', '} '),
    ('"target":0,', ''), ('"actor":3,', '"actor":3,"actor":2,'), ('{', ' {'),
    ('"pai":"F"', '"pai":"\\u0046"'),
]


def test_odd_calls_are_read_as_the_per_line_code_reads_them_or_left() -> None:
    for old, new in ODD:
        assert old in SPELLINGS[0]
        raw = SPELLINGS[0].replace(old, new, 1)
        for players in (3, 4):
            same(raw, players)
    assert taken(SPELLINGS[0].replace('"target":0', '"target":-0')) is not None
    assert taken(SPELLINGS[0].replace('"actor":3', '"actor":4')) is None


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from(SPELLINGS), EDITS)
def test_mutated_calls_are_read_as_the_per_line_code_reads_them_or_left(
        raw: str, edits: list[tuple[int, int, str]]) -> None:
    raw = edited(raw, edits)
    if not raw:
        return
    for players in (3, 4):
        same(raw, players)
