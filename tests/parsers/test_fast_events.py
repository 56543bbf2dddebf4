"""The slot-setting constructors build exactly what the dataclass constructors build."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any

import pytest

from kansa.parsers.fast_events import constructor, source_ref
from kansa.replay.events import (
    Ankan,
    Chi,
    Daiminkan,
    Dora,
    DrawReason,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    SourceRef,
    StartKyoku,
)
from kansa.replay.tiles import Seat, Tile
from kansa.replay.yaku import Limit, Yaku


def test_source_ref() -> None:
    fast = source_ref("f.xml", 3, "/mjloggm/*[2]")
    slow = SourceRef("f.xml", 3, None, "/mjloggm/*[2]")
    assert fast == slow
    assert hash(fast) == hash(slow)
    assert str(fast) == str(slow) == "f.xml:3 /mjloggm/*[2]"


def same_event(fast: Event, slow: Event) -> None:
    assert type(fast) is type(slow)
    assert fast == slow
    assert hash(fast) == hash(slow)
    assert repr(fast) == repr(slow)
    for f in dataclasses.fields(slow):
        assert getattr(fast, f.name) == getattr(slow, f.name)
    assert fast.src == slow.src
    assert fast.time == slow.time
    assert dataclasses.replace(fast) == slow
    assert copy.deepcopy(fast) == slow
    assert pickle.loads(pickle.dumps(fast)) == slow
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.src = None  # type: ignore[misc]


SRC = SourceRef("f", 2, None, "/t")
M5, P5R = Tile.M5, Tile.P5R


@pytest.mark.parametrize(("cls", "values"), [
    (StartKyoku, {"bakaze": Tile.EAST, "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": Seat(0),
                  "scores": (25000,) * 4, "dora_marker": M5, "tehais": ((M5,), (), (), ())}),
    (Chi, {"actor": Seat(1), "target": Seat(0), "tile": M5, "consumed": (Tile.M4, Tile.M6)}),
    (Pon, {"actor": Seat(2), "target": Seat(0), "tile": P5R, "consumed": (Tile.P5, Tile.P5)}),
    (Daiminkan, {"actor": Seat(2), "target": Seat(0), "tile": M5, "consumed": (M5,) * 3}),
    (Kakan, {"actor": Seat(3), "tile": M5, "consumed": (M5,) * 3}),
    (Ankan, {"actor": Seat(0), "consumed": (M5,) * 4}),
    (Nukidora, {"actor": Seat(0), "tile": Tile.NORTH}),
    (Reach, {"actor": Seat(1)}),
    (ReachAccepted, {"actor": Seat(1), "scores": (24000, 25000, 25000, 25000)}),
    (ReachAccepted, {"actor": Seat(1)}),
    (Dora, {"dora_marker": P5R}),
    (Hora, {"actor": Seat(0), "target": Seat(1), "tile": M5, "deltas": (8000, -8000, 0, 0),
            "hand": (M5,) * 2, "yaku": ((Yaku.RIICHI, 1),), "fu": 30, "han": 1,
            "points": 1000, "limit": Limit.NONE, "dora_markers": (M5,), "ura_markers": None,
            "pao": None, "honba": 0, "kyotaku": 1}),
    (Hora, {"actor": Seat(0), "target": Seat(0)}),
    (Ryukyoku, {"reason": DrawReason.EXHAUSTIVE, "deltas": (0,) * 4,
                "tenpai": (True, False, False, False), "hands": ((M5,), None, None, None)}),
    (EndKyoku, {}),
    (EndGame, {"scores": (25000,) * 4, "points": (5.0, -5.0, 0.0, 0.0)}),
])
def test_constructor_stands_in_for_the_dataclass(cls: Any, values: dict[str, Any]) -> None:
    fast = constructor(cls)
    assert inspect.signature(fast) == inspect.signature(cls)
    same_event(fast(**values, src=SRC), cls(**values, src=SRC))
    same_event(fast(**values, src=SRC, time=1.5), cls(**values, src=SRC, time=1.5))
    assert fast(**values, time=1.5).time == 1.5
    assert fast(**values).src is None


def test_constructor_refuses_a_wrong_call_as_the_dataclass_does() -> None:
    with pytest.raises(TypeError) as slow:
        Reach()  # type: ignore[call-arg]
    with pytest.raises(TypeError) as fast:
        constructor(Reach)()  # type: ignore[call-arg]
    assert str(fast.value) == str(slow.value)
    with pytest.raises(TypeError):
        constructor(Reach)(actor=Seat(0), wind=Tile.EAST)  # type: ignore[call-arg]


@pytest.mark.parametrize("cls", [Seat, Tile, dataclasses.make_dataclass("Open", ["a"])])
def test_constructor_takes_only_frozen_slotted_dataclasses(cls: Any) -> None:
    with pytest.raises(TypeError):
        constructor(cls)
