"""The event vocabulary as values: equal and hashed on their fields but not on where they
were read or when, copied and pickled whole, built only with their own keywords, and (in
the compiled build) read-only."""

from __future__ import annotations

import copy
import dataclasses
import inspect
import pickle
from typing import Any

import pytest

from kansa.buildinfo import which_build
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    DrawReason,
    EndGame,
    EndKyoku,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    SourceRef,
    StartKyoku,
    Tsumo,
)
from kansa.replay.tiles import Seat, Tile
from kansa.replay.yaku import Limit, Yaku

SRC = SourceRef("f", 2, None, "/t")
M5, P5R = Tile.M5, Tile.P5R
EXAMPLES: list[tuple[Any, dict[str, Any]]] = [
    (StartKyoku, {"bakaze": Tile.EAST, "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": Seat(0),
                  "scores": (25000,) * 4, "dora_marker": M5, "tehais": ((M5,), (), (), ())}),
    (Tsumo, {"actor": Seat(0), "tile": M5}),
    (Tsumo, {"actor": Seat(1), "tile": None}),
    (Dahai, {"actor": Seat(0), "tile": P5R, "tsumogiri": True}),
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
]


@pytest.mark.parametrize(("cls", "values"), EXAMPLES)
def test_an_event_is_its_fields(cls: Any, values: dict[str, Any]) -> None:
    ev = cls(**values, src=SRC, time=1.5)
    names = {f.name for f in dataclasses.fields(ev)}
    assert {*values, "src", "time"} <= names == set(inspect.signature(cls).parameters)
    assert all(getattr(ev, name) == value for name, value in values.items())
    assert (ev.src, ev.time) == (SRC, 1.5)
    plain = cls(**values)
    assert (plain.src, plain.time) == (None, None)
    # where and when it was read take no part in equality, the hash or the text
    assert ev == plain and hash(ev) == hash(plain) and repr(ev) == repr(plain)
    assert "src=" not in repr(ev) and "time=" not in repr(ev)
    for back in (copy.copy(ev), copy.deepcopy(ev), pickle.loads(pickle.dumps(ev)),
                 dataclasses.replace(ev)):
        assert type(back) is cls and back == ev and (back.src, back.time) == (SRC, 1.5)


def test_events_differ_by_any_field_and_by_type() -> None:
    a = Dahai(actor=Seat(0), tile=M5, tsumogiri=False)
    assert a != Dahai(actor=Seat(0), tile=M5, tsumogiri=True)
    assert a != Dahai(actor=Seat(1), tile=M5, tsumogiri=False)
    assert Chi(actor=Seat(1), target=Seat(0), tile=M5, consumed=(Tile.M4, Tile.M6)) != Pon(
        actor=Seat(1), target=Seat(0), tile=M5, consumed=(Tile.M4, Tile.M6))
    assert len({a, Dahai(actor=Seat(0), tile=M5, tsumogiri=False, src=SRC)}) == 1


@pytest.mark.parametrize(("cls", "values"), EXAMPLES)
def test_an_event_takes_its_fields_by_keyword_only(cls: Any, values: dict[str, Any]) -> None:
    params = inspect.signature(cls).parameters
    assert all(p.kind is inspect.Parameter.KEYWORD_ONLY for p in params.values())
    with pytest.raises(TypeError):
        cls(**values, wind=Tile.EAST)


def test_a_missing_field_is_refused() -> None:
    with pytest.raises(TypeError, match="actor"):
        Reach()  # type: ignore[call-arg]
    with pytest.raises(TypeError):
        Dahai(Seat(0), M5, False)  # type: ignore[misc]


def test_source_ref() -> None:
    ref = SourceRef("f.xml", 3, None, "/mjloggm/*[2]")
    assert ref == SourceRef("f.xml", 3, pointer="/mjloggm/*[2]")
    assert hash(ref) == hash(SourceRef("f.xml", 3, pointer="/mjloggm/*[2]"))
    assert str(ref) == "f.xml:3 /mjloggm/*[2]"
    assert str(SourceRef("a.json", 4, 7)) == "a.json:4:7"
    assert str(SourceRef("a.json", pointer="/log/0")) == "a.json#/log/0"
    assert pickle.loads(pickle.dumps(ref)) == ref and copy.deepcopy(ref) == ref


@pytest.mark.skipif(which_build() != "compiled", reason="the pure build does not refuse it")
def test_the_compiled_events_are_read_only() -> None:
    ev = Dahai(actor=Seat(0), tile=M5, tsumogiri=False)
    with pytest.raises(AttributeError):
        ev.tile = Tile.P5  # type: ignore[misc]
    with pytest.raises(AttributeError):
        SRC.line = 5  # type: ignore[misc]
