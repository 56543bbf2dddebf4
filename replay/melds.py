"""Melds: chi, pon and the three kans, as frozen records, and the rules of their shape.

A meld never changes once made: an added kan is a new :class:`Meld` (:meth:`Meld.kakan`)
that replaces the pon in the seat's melds.

>>> from kansa.replay.tiles import Tile
>>> pon = Meld(type=MeldType.PON, tiles=(Tile.M3,) * 3, called=Tile.M3, target=1)
>>> kan = pon.kakan(Tile.M3)
>>> kan.type.value, len(kan.tiles), pon.type.value
('kakan', 4, 'pon')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from kansa.replay.frozen import frozen_reduce
from kansa.replay.tiles import Seat, Tile


class MeldType(Enum):
    CHI = "chi"
    PON = "pon"
    DAIMINKAN = "daiminkan"
    KAKAN = "kakan"
    ANKAN = "ankan"

    @property
    def is_kan(self) -> bool:
        return self in (MeldType.DAIMINKAN, MeldType.KAKAN, MeldType.ANKAN)


@dataclass(slots=True, init=False, unsafe_hash=True)
class Meld:
    """A meld: its fields are ``Final`` and set once (see :mod:`kansa.replay.frozen`); an
    added kan is a new meld that replaces the pon (:meth:`kakan`)."""

    type: Final[MeldType]
    tiles: Final[tuple[Tile, ...]]
    """All tiles of the meld, the called tile included."""
    called: Final[Tile | None]
    """The tile taken from another player (``None`` for an ankan)."""
    target: Final[Seat | None]
    """Who discarded the called tile."""
    added: Final[Tile | None]
    """The tile added to a pon to make a kakan."""

    def __init__(self, type: MeldType, tiles: tuple[Tile, ...], called: Tile | None = None,
                 target: Seat | None = None, added: Tile | None = None) -> None:
        self.type = type
        self.tiles = tiles
        self.called = called
        self.target = target
        self.added = added

    @property
    def kind(self) -> Tile:
        """The meld's lowest tile kind (the pung's or kong's kind)."""
        return min(self.tiles).normal

    @property
    def is_open(self) -> bool:
        return self.type is not MeldType.ANKAN

    @property
    def well_formed(self) -> bool:
        """Whether the tiles make the chow, pung or kong the type names (a log may say
        otherwise: ``claim.meld-shape``)."""
        return meld_well_formed(self.type, self.tiles)

    def kakan(self, tile: Tile) -> Meld:
        """This pon with ``tile`` added: the added kan that replaces it."""
        return Meld(type=MeldType.KAKAN, tiles=(*self.tiles, tile), called=self.called,
                    target=self.target, added=tile)

    def __reduce__(self) -> tuple[Any, ...]:
        return frozen_reduce(self)


def meld_well_formed(mtype: MeldType, tiles: Sequence[Tile]) -> bool:
    """Three consecutive tiles of one suit for a chi, three of a kind for a pon, four of
    a kind for a kan."""
    if mtype is MeldType.CHI:
        if len(tiles) != 3 or any(t.is_honor for t in tiles) or len({t.suit for t in tiles}) != 1:
            return False
        low, mid, high = sorted(t.number for t in tiles)
        return mid == low + 1 and high == low + 2
    size = 3 if mtype is MeldType.PON else 4
    return len(tiles) == size and len({t.index for t in tiles}) == 1


def added_kan_base(melds: Sequence[Meld], tile: Tile) -> int | None:
    """The position in ``melds`` of the pon that ``tile`` can be added to, or ``None``."""
    for i, m in enumerate(melds):
        if m.type is MeldType.PON and m.tiles[0].index == tile.index:
            return i
    return None
