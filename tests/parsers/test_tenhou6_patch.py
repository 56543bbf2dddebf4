"""The tenhou.net/6 extension's patching of one event (``patching._patched``): what
``dataclasses.replace`` gives, for every claim of every kind patched."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from kansa.parsers.tenhou6 import ext, patching, read
from kansa.parsers.tenhou6.jsontext import Where
from kansa.replay.events import DrawReason, Event, Hora, ReachAccepted, Ryukyoku, SourceRef
from kansa.replay.game import RuleHints
from kansa.replay.tiles import Seat, parse_tiles
from kansa.replay.yaku import Limit, Yaku

SRC = SourceRef("x.json", pointer="/log/0/16")
HAND = tuple(parse_tiles("123m456p789s11z"))
# every constructor field of each kind set, none to its default
FULL: dict[type, dict[str, Any]] = {
    Hora: {"actor": Seat(1), "target": Seat(2), "tile": HAND[0],
           "deltas": (0, 8000, -8000, 0), "hand": HAND, "yaku": ((Yaku.RIICHI, 1),), "fu": 40,
           "han": 3, "points": 7700, "limit": Limit.MANGAN, "dora_markers": HAND[:1],
           "ura_markers": HAND[1:2], "pao": Seat(3), "honba": 1, "kyotaku": 2, "src": SRC,
           "time": 1.5},
    ReachAccepted: {"actor": Seat(2), "scores": (24000, 25000, 26000, 25000), "src": SRC,
                    "time": 2.5},
    Ryukyoku: {"reason": DrawReason.EXHAUSTIVE, "deltas": (1500, -1500, 1500, -1500),
               "tenpai": (True, False, True, False), "hands": (HAND, None, HAND, None),
               "actor": Seat(0), "src": SRC, "time": 3.5},
}
# a second value for each claim a patch may set
OTHER: dict[str, Any] = {
    "tile": HAND[1], "deltas": (0, 0, 0, 0), "hand": HAND[::-1],
    "yaku": ((Yaku.MENZEN_TSUMO, 1),), "fu": 30, "han": 4, "points": 8000, "limit": None,
    "dora_markers": (), "ura_markers": None, "pao": None, "honba": 0, "kyotaku": 0,
    "scores": None, "reason": DrawReason.KYUUSHU_KYUUHAI, "tenpai": None, "hands": None,
    "actor": Seat(2)}


@pytest.mark.parametrize("kind", list(FULL), ids=lambda k: k.__name__)
def test_a_patch_sets_its_claims_and_keeps_every_other_field(kind: type) -> None:
    values = FULL[kind]
    assert set(values) == {f.name for f in dataclasses.fields(kind) if f.init}
    event: Event = kind(**values)
    assert patching._patched(event, {}) == event
    keys = ext.PATCHABLE[kind]
    for key in keys:
        patch = {key: OTHER[key]}
        assert patching._patched(event, patch) == dataclasses.replace(event, **patch)
    every = {key: OTHER[key] for key in keys}
    patched = patching._patched(event, every)
    assert patched == dataclasses.replace(event, **every)
    assert patched.src == SRC and patched.time == values["time"]


DOC: dict[str, Any] = {"rule": {"disp": "三鳳南喰赤", "aka": 1}, "lobby": "L1",
                       "log": [], "name": ["a", "b", "c"]}
"""A document whose standard keys set some hints."""
OTHER_HINTS: dict[str, Any] = {
    "aka": False, "kuitan": None, "hanchan": False, "platform": "majsoul", "lobby": None,
    "room": "x", "raw_type": 1, "start_score": 25000, "uma": (15, 5, -5, -15),
    "return_score": 30000}
"""A value for each hint field, none what :data:`DOC` gives."""


def _hints(patch: dict[str, Any] | None) -> RuleHints:
    return read.read_meta(Where("x.json"), DOC, 3, False, [], hints=patch).hints


def test_the_hints_patch_sets_its_fields_and_keeps_the_players() -> None:
    assert {f.name for f in dataclasses.fields(RuleHints)} == {"players", *ext.HINT_FIELDS}
    plain = _hints(None)
    assert _hints({}) == plain and plain.players == 3
    assert all(getattr(plain, k) != v for k, v in OTHER_HINTS.items())
    for key in ext.HINT_FIELDS:
        patch = {key: OTHER_HINTS[key]}
        assert _hints(patch) == dataclasses.replace(plain, **patch)
    every = _hints(OTHER_HINTS)
    assert every == dataclasses.replace(plain, **OTHER_HINTS) and every.players == 3
