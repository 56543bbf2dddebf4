"""Meld shapes as the game state sees them (the scoring oracle is given only well-formed ones)."""

from __future__ import annotations

import pytest

from replay.state import Meld, MeldType
from replay.tiles import parse_tiles


@pytest.mark.parametrize(("mtype", "tiles", "ok"), [
    (MeldType.CHI, "123m", True),
    (MeldType.CHI, "406p", True),  # a red five (0p) in a chow
    (MeldType.CHI, "13p", False),  # two tiles
    (MeldType.CHI, "135p", False),
    (MeldType.CHI, "89m1p", False),  # across suits
    (MeldType.CHI, "123z", False),  # honors make no chow
    (MeldType.PON, "555z", True),
    (MeldType.PON, "505s", True),
    (MeldType.PON, "55z", False),
    (MeldType.PON, "556z", False),
    (MeldType.DAIMINKAN, "1111m", True),
    (MeldType.KAKAN, "111m", False),
    (MeldType.ANKAN, "7777z", True),
    (MeldType.ANKAN, "77777z", False),
])
def test_well_formed(mtype: MeldType, tiles: str, ok: bool) -> None:
    assert Meld(type=mtype, tiles=tuple(parse_tiles(tiles))).well_formed is ok
