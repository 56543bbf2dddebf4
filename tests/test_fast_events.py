"""The slot-setting constructors build exactly what the dataclass constructors build."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from parsers.fast_events import dahai, dahai_at, source_ref, tsumo, tsumo_at
from replay.events import Dahai, SourceRef, Tsumo
from replay.tiles import Seat, Tile


def test_source_ref() -> None:
    fast = source_ref("f.xml", 3, "/mjloggm/*[2]")
    slow = SourceRef("f.xml", 3, None, "/mjloggm/*[2]")
    assert fast == slow
    assert hash(fast) == hash(slow)
    assert str(fast) == str(slow) == "f.xml:3 /mjloggm/*[2]"


@pytest.mark.parametrize(("fast", "slow"), [
    (tsumo(Seat(2), Tile.P5R, source_ref("f", 1, "/p")),
     Tsumo(actor=Seat(2), tile=Tile.P5R, src=SourceRef("f", 1, None, "/p"))),
    (dahai(Seat(3), Tile.EAST, True, source_ref("f", None, "/q")),
     Dahai(actor=Seat(3), tile=Tile.EAST, tsumogiri=True, src=SourceRef("f", None, None, "/q"))),
    (tsumo_at(Seat(1), Tile.S9, "f", 7, "/r"),
     Tsumo(actor=Seat(1), tile=Tile.S9, src=SourceRef("f", 7, None, "/r"))),
    (dahai_at(Seat(0), Tile.M5R, False, "f", None, "/s"),
     Dahai(actor=Seat(0), tile=Tile.M5R, tsumogiri=False, src=SourceRef("f", None, None, "/s"))),
])
def test_events_match_the_dataclass_constructor(fast: Tsumo | Dahai, slow: Tsumo | Dahai) -> None:
    assert type(fast) is type(slow)
    assert fast == slow
    assert hash(fast) == hash(slow)
    assert repr(fast) == repr(slow)
    for f in dataclasses.fields(slow):
        assert getattr(fast, f.name) == getattr(slow, f.name)
    assert fast.src == slow.src
    assert fast.time is None
    assert dataclasses.replace(fast) == slow
    assert copy.deepcopy(fast) == slow
    assert pickle.loads(pickle.dumps(fast)) == slow
    with pytest.raises(dataclasses.FrozenInstanceError):
        fast.actor = Seat(0)  # type: ignore[misc]
