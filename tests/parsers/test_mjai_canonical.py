"""The mjai reader builds every event in canonical form (kansa.parsers.canonical), by
each way a line is read: the per-line code, the quick reading, shared plain lines, and
the stream reader."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from kansa.parsers import load
from kansa.parsers.canonical import canonical
from kansa.parsers.mjai import fast
from kansa.parsers.mjai.read import parse
from kansa.parsers.mjai.stream import MjaiStream
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Event,
    Hora,
    Kakan,
    Pon,
    Ryukyoku,
    StartKyoku,
)
from kansa.replay.game import Game
from kansa.replay.tiles import Tile
from tests.parser_helpers import built_canonical
from tests.parsers.test_mjai_fast import by_slots, per_line
from tests.parsers.test_mjai_stream import mjai_files


def _start(tehais: list[list[str]]) -> dict[str, Any]:
    return {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0,
            "oya": 0, "scores": [25000] * 4, "dora_marker": "1p", "tehais": tehais}


def _dahai(actor: int, pai: str, tsumogiri: bool) -> dict[str, Any]:
    return {"type": "dahai", "actor": actor, "pai": pai, "tsumogiri": tsumogiri}


HANDS = [
    ["9m", "1m", "5m", "2m", "3m", "4m", "6m", "7m", "8m", "1p", "1p", "2p", "3p"],
    ["E", "1s", "S", "1s", "W", "9s", "N", "P", "F", "C", "1p", "9p", "9m"],
    ["3s", "2s", "1s", "6s", "5s", "4s", "9s", "8s", "7s", "3p", "2p", "1p", "5p"],
    ["2p", "2p", "2p", "4p", "5p", "6p", "7p", "8p", "9p", "5s", "5s", "E", "E"],
]
LINES: list[dict[str, Any]] = [
    {"type": "start_game", "names": ["a", "b", "c", "d"]},
    _start(HANDS),
    {"type": "tsumo", "actor": 0, "pai": "5s"}, _dahai(0, "9m", False),
    # a pon and a chi (its consumed tiles written out of order) whose callers' discards
    # the writer flags tsumogiri
    {"type": "pon", "actor": 1, "target": 0, "pai": "9m", "consumed": ["9m", "9m"]},
    _dahai(1, "E", True),
    {"type": "tsumo", "actor": 2, "pai": "4p"}, _dahai(2, "5p", False),
    {"type": "chi", "actor": 3, "target": 2, "pai": "5p", "consumed": ["6p", "4p"]},
    _dahai(3, "E", True),
    {"type": "tsumo", "actor": 0, "pai": "2m"},
    {"type": "ankan", "actor": 0, "consumed": ["5p", "5pr", "5p", "5p"]},
    {"type": "dora", "dora_marker": "2s"},
    {"type": "tsumo", "actor": 0, "pai": "7p"}, _dahai(0, "7p", True),
    {"type": "tsumo", "actor": 1, "pai": "3s"}, _dahai(1, "3s", True),
    {"type": "tsumo", "actor": 2, "pai": "2s"},
    {"type": "hora", "actor": 2, "target": 2, "pai": "2s",
     "hora_tehais": ["3s", "2s", "1s", "6s", "5s", "4s", "9s", "8s", "7s", "3p", "2p", "1p",
                     "4p", "2s"],
     "deltas": [-2000, -1000, 4000, -1000], "yakus": [["menzenchin_tsumoho", 1],
                                                    ["ittsu", 2], ["uradora", 0]],
     "fu": 30, "fan": 3},
    {"type": "end_kyoku"},
    _start(HANDS),
    # a hand that ends right after a pon: the next hand's discards are read as written
    {"type": "tsumo", "actor": 0, "pai": "5s"}, _dahai(0, "9m", False),
    {"type": "pon", "actor": 2, "target": 0, "pai": "9m", "consumed": ["9m", "9m"]},
    {"type": "ryukyoku", "reason": "sanchaho"},
    {"type": "end_kyoku"},
    _start(HANDS),
    _dahai(2, "3p", True),  # (no draw before it: a log's slip, read as written)
    {"type": "tsumo", "actor": 0, "pai": "1s"}, _dahai(0, "1s", True),
    {"type": "tsumo", "actor": 1, "pai": "2s"}, _dahai(1, "2s", True),
    {"type": "tsumo", "actor": 2, "pai": "3s"}, _dahai(2, "3s", True),
    {"type": "tsumo", "actor": 3, "pai": "4s"},
    {"type": "kakan", "actor": 3, "pai": "5p", "consumed": ["5pr", "5p", "5p"]},
    {"type": "tsumo", "actor": 3, "pai": "6s"}, _dahai(3, "6s", True),
    {"type": "ryukyoku", "deltas": [1500, 1500, -1500, -1500], "tenpais": [True, True,
                                                                            False, False],
     "tehais": [HANDS[0], ["9m", "1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "1p", "1p",
                           "2p", "3p"], ["?"] * 13, ["?"] * 13]},
    {"type": "end_kyoku"},
    {"type": "end_game"},
]


def _text(lines: list[dict[str, Any]]) -> bytes:
    return ("\n".join(json.dumps(x, separators=(",", ":")) for x in lines) + "\n").encode()


def _check(events: tuple[Event, ...] | list[Event]) -> None:
    assert canonical(events) == tuple(events)
    starts = [e for e in events if isinstance(e, StartKyoku)]
    assert [t.order for t in starts[0].tehais[0]] == sorted(t.order for t in starts[0].tehais[0])
    calls = [e for e in events if isinstance(e, (Chi, Pon, Ankan, Kakan))]
    chi = next(e for e in calls if isinstance(e, Chi))
    assert chi.consumed == (Tile.from_mjai("4p"), Tile.from_mjai("6p"))
    ankan = next(e for e in calls if isinstance(e, Ankan))
    assert [t.mjai for t in ankan.consumed] == ["5p", "5p", "5p", "5pr"]
    flags = [(e.actor, e.tsumogiri) for e in events if isinstance(e, Dahai)]
    assert flags[:4] == [(0, False), (1, False), (2, False), (3, False)]
    assert flags[4:] == [(0, True), (1, True), (0, False), (2, True), (0, True), (1, True),
                         (2, True), (3, True)]
    kakan = next(e for e in calls if isinstance(e, Kakan))
    assert [t.mjai for t in kakan.consumed] == ["5p", "5p", "5pr"]
    hora = next(e for e in events if isinstance(e, Hora))
    assert hora.hand is not None and list(hora.hand) == sorted(hora.hand, key=lambda t: t.order)
    draws = [e for e in events if isinstance(e, Ryukyoku)]
    assert draws[0].deltas == (0, 0, 0, 0)  # abortive: no points move
    shown = draws[1].hands
    assert shown is not None and shown[1] is not None
    assert [t.order for t in shown[1]] == sorted(t.order for t in shown[1])


@pytest.mark.parametrize("read", [parse, per_line, by_slots],
                         ids=["parse", "per_line", "by_slots"])
def test_a_files_events_are_built_canonical(read: Callable[[bytes, str], list[Game]]) -> None:
    data = _text(LINES)
    fast._PLAIN.clear()  # a cache: each plain line is read in full first
    fast._SLOTS[:] = [None] * len(fast._SLOTS)
    _check(read(data, "first.mjson")[0].events)
    _check(read(data, "again.mjson")[0].events)  # its plain lines now shared ones


def test_a_streams_events_are_built_canonical() -> None:
    stream = MjaiStream("<stdin>")
    items = []
    for line in _text(LINES).split(b"\n")[:-1]:
        items += stream.feed(line + b"\n")
    items += stream.end(b"")
    events = [x for x in items if isinstance(x, Event)]
    _check(events)
    assert tuple(events) == parse(_text(LINES), "<stdin>")[0].events


def test_every_mjai_game_is_built_canonical() -> None:
    """Sample and corpus games (the corpus where it is beside the project): no event
    changes in canonical form, and none is copied for it."""
    files = mjai_files()
    assert files
    for path in files:
        assert all(built_canonical(game) for game in load(path)), path


def test_a_dealt_hand_with_any_hidden_tile_is_a_hidden_seats() -> None:
    """Sorted, a hand's hidden tiles go last; one of them is enough to hide the seat."""
    hidden = ["?"] * 13
    partly = ["?"] * 12 + ["1m"]
    data = _text([LINES[0], _start([HANDS[0], hidden, partly, hidden]), {"type": "end_kyoku"}])
    game = parse(data, "view.mjson")[0]
    start = game.events[0]
    assert isinstance(start, StartKyoku)
    assert start.tehais[2] == (Tile.from_mjai("1m"), *(None,) * 12)
    assert game.perspective == 0
