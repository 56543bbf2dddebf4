"""mjai tile names (``1m`` to ``9s``, ``5mr`` for a red five, ``E S W N P F C`` for the
honours, ``?`` for a tile not shown) read from their characters, which compiled costs
less than hashing each new string to look it up in :data:`~kansa.replay.tiles.BY_MJAI`."""

from __future__ import annotations

from types import FunctionType
from typing import TYPE_CHECKING, Final

from kansa.replay.tiles import BY_MJAI, Tile

if TYPE_CHECKING:  # native integers where compiled; only annotations name them
    from mypy_extensions import i64

__all__ = ["COMPILED", "HIDDEN", "TILE_AT", "name_index"]

_HONOURS: Final = b"ESWNPFC"
_INDEXES: Final = 40
"""Tile indexes: ten for each of ``m``, ``p``, ``s`` (0 for the red five), then the
honours from 31 (``E``) to 37 (``C``)."""


def _index_of(name: str) -> int:
    """The index of the name ``name`` of :data:`BY_MJAI`."""
    if len(name) == 1:
        return 31 + _HONOURS.index(name.encode())
    return "mps".index(name[1]) * 10 + (0 if name.endswith("r") else int(name[0]))


TILE_AT: Final[list[Tile | None]] = [None] * _INDEXES
"""The tile of each tile index."""
for _name, _tile in BY_MJAI.items():
    TILE_AT[_index_of(_name)] = _tile

HIDDEN: Final = -2
""":func:`name_index` of ``?``."""


def name_index(name: str) -> i64:
    """The tile index of the mjai tile name ``name`` (a name of :data:`BY_MJAI`),
    :data:`HIDDEN` for ``?``, -1 for anything else."""
    size = len(name)
    if size == 1:
        c: i64 = ord(name)
        if c == 0x3F:  # ?
            return HIDDEN
        k: i64
        for k in range(len(_HONOURS)):
            if c == _HONOURS[k]:
                return 31 + k
        return -1
    if size not in (2, 3):
        return -1
    c = ord(name[0])
    if not 0x31 <= c <= 0x39:
        return -1
    s: i64 = ord(name[1])
    if s == 0x6D:  # m
        suit: i64 = 0
    elif s == 0x70:  # p
        suit = 10
    elif s == 0x73:  # s
        suit = 20
    else:
        return -1
    if size == 2:
        return suit + c - 0x30
    if c == 0x35 and ord(name[2]) == 0x72:  # 5mr
        return suit
    return -1


COMPILED: Final = not isinstance(name_index, FunctionType)
"""Whether this module runs compiled: then :func:`name_index` reads a name for less
than a dictionary lookup costs; interpreted, the lookup costs less."""
