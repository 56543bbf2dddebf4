"""The slot-setting constructors build exactly what the dataclass constructors build."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from parsers.fast_events import dahai, source_ref, tsumo
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
