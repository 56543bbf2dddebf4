"""Tiles and seats: the only place where a tile is ever a number.

Every log format converts its tile codes here (Tenhou's 136 ids, tenhou.net/6's
two-digit codes, mjai strings, majiang strings), so the rest of kansa only sees
:class:`Tile` values.  A hidden tile is ``None``.

>>> Tile.parse("5mr"), Tile.parse("0p"), Tile.parse("E")
(Tile.M5R, Tile.P5R, Tile.EAST)
>>> format_tiles(parse_tiles("406m11z"))
'406m11z'
>>> Tile.NORTH.dora(), Tile.CHUN.dora(), Tile.M9.dora()
(Tile.EAST, Tile.HAKU, Tile.M1)
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import Enum
from typing import NewType

Seat = NewType("Seat", int)
"""Absolute seat 0-3 (0 = the game's first dealer)."""

SUITS = "mpsz"
_MJAI_HONORS = ("E", "S", "W", "N", "P", "F", "C")
_RED_INDEX = (4, 13, 22)


class Tile(Enum):
    """One of the 34 tile kinds, or one of the three red fives.

    ``Tile`` is deliberately not an ``IntEnum``: ``Tile.M1 + 1`` raises, so tile
    arithmetic stays in this module.  ``index`` (0-33) is the kind's position in a
    34-entry count array, the one integer view the hand analysis uses.
    """

    M1 = 0
    M2 = 1
    M3 = 2
    M4 = 3
    M5 = 4
    M6 = 5
    M7 = 6
    M8 = 7
    M9 = 8
    P1 = 9
    P2 = 10
    P3 = 11
    P4 = 12
    P5 = 13
    P6 = 14
    P7 = 15
    P8 = 16
    P9 = 17
    S1 = 18
    S2 = 19
    S3 = 20
    S4 = 21
    S5 = 22
    S6 = 23
    S7 = 24
    S8 = 25
    S9 = 26
    EAST = 27
    SOUTH = 28
    WEST = 29
    NORTH = 30
    HAKU = 31
    HATSU = 32
    CHUN = 33
    M5R = 34
    P5R = 35
    S5R = 36

    def __init__(self, value: int) -> None:
        index = value if value < 34 else _RED_INDEX[value - 34]
        self.code: int = value
        """0-36: the position in a 37-entry count array (red fives apart); a plain
        attribute, much faster than ``Enum.value`` in the replay's hot paths."""
        self.index: int = index
        self.order: int = 2 * index + (value >= 34)
        """Sort key: by kind, a red five right after its plain five."""
        self.is_red: bool = value >= 34
        self.suit: str = SUITS[index // 9] if index < 27 else "z"
        self.number: int = index % 9 + 1 if index < 27 else index - 26
        self.is_honor: bool = index >= 27
        self.is_terminal: bool = index < 27 and self.number in (1, 9)
        self.is_yaochu: bool = self.is_honor or self.is_terminal
        self.mjai: str = (_MJAI_HONORS[index - 27] if self.is_honor
                          else f"{self.number}{self.suit}" + ("r" if self.is_red else ""))

    def __str__(self) -> str:
        return self.mjai

    def __repr__(self) -> str:
        return f"Tile.{self.name}"

    def __lt__(self, other: Tile) -> bool:
        """Order by kind, a red five right after its plain five."""
        return self.order < other.order

    @property
    def normal(self) -> Tile:
        """The same kind without the red mark."""
        return _BY_INDEX[self.index]

    @property
    def is_wind(self) -> bool:
        return 27 <= self.index <= 30

    @property
    def is_dragon(self) -> bool:
        return self.index >= 31

    @property
    def mpsz(self) -> str:
        """Single-tile mpsz notation: ``0m`` for a red five, ``1z`` for East."""
        return f"{0 if self.is_red else self.number}{self.suit}"

    def same_kind(self, other: Tile) -> bool:
        return self.index == other.index

    def dora(self) -> Tile:
        """The dora this tile indicates (wrapping 9->1, North->East, Chun->Haku)."""
        i = self.index
        if i < 27:
            return _BY_INDEX[i - 8 if i % 9 == 8 else i + 1]
        if i <= 30:
            return _BY_INDEX[27 if i == 30 else i + 1]
        return _BY_INDEX[31 if i == 33 else i + 1]

    def red(self) -> Tile:
        """The red copy of a five (``ValueError`` for any other kind)."""
        if self.index not in _RED_INDEX:
            raise ValueError(f"{self} has no red copy")
        return BY_VALUE[34 + _RED_INDEX.index(self.index)]

    @property
    def is_five(self) -> bool:
        return self.index in _RED_INDEX

    @staticmethod
    def from_index(index: int) -> Tile:
        """The plain tile of kind ``index`` (0-33)."""
        if not 0 <= index < 34:
            raise ValueError(f"tile kind index out of range: {index}")
        return _BY_INDEX[index]

    @staticmethod
    def parse(text: str) -> Tile:
        """Parse an mjai tile (``5mr``, ``E``, ``P``) or an mpsz tile (``0m``, ``5z``).

        :raises ValueError: for anything else, including the hidden tile ``?``.
        """
        tile = _PARSE.get(text)
        if tile is None:
            raise ValueError(f"not a tile: {text!r}")
        return tile

    # -- format conversions ---------------------------------------------------

    @staticmethod
    def from_tenhou_id(tile_id: int, aka: bool) -> Tile:
        """Tenhou 136-id: kind = id // 4; ids 16/52/88 are red only in red-five games."""
        if not 0 <= tile_id < 136:
            raise ValueError(f"Tenhou tile id out of range: {tile_id}")
        if aka and tile_id in _TENHOU_RED_IDS:
            return _TENHOU_RED_IDS[tile_id]
        return _BY_INDEX[tile_id // 4]

    @staticmethod
    def from_tenhou6(code: int) -> Tile:
        """tenhou.net/6 code: 11-19, 21-29, 31-39, 41-47, red 51/52/53."""
        tile = _FROM_T6.get(code)
        if tile is None:
            raise ValueError(f"not a tenhou.net/6 tile code: {code!r}")
        return tile

    @property
    def tenhou6(self) -> int:
        if self.is_red:
            return 51 + _RED_INDEX.index(self.index)
        return (self.index // 9 + 1) * 10 + (self.index % 9 + 1)

    @staticmethod
    def from_mjai(text: str) -> Tile | None:
        """mjai tile string; ``?`` (hidden) gives ``None``."""
        if text == "?":
            return None
        return Tile.parse(text)

    @staticmethod
    def from_majiang(text: str) -> Tile:
        """kobalab/majiang tile: suit letter then digit (``m0`` = red 5m, ``z1`` = East)."""
        if len(text) != 2 or text[0] not in SUITS or not text[1].isdigit():
            raise ValueError(f"not a majiang tile: {text!r}")
        return Tile.parse(text[1] + text[0])

    @property
    def majiang(self) -> str:
        return self.suit + ("0" if self.is_red else str(self.number))


_BY_INDEX: tuple[Tile, ...] = tuple(Tile(i) for i in range(34))
BY_VALUE: tuple[Tile, ...] = tuple(Tile)
"""Every tile indexed by :attr:`Tile.code` (a fast ``Tile(code)``)."""
_TENHOU_RED_IDS = {16: Tile.M5R, 52: Tile.P5R, 88: Tile.S5R}
_FROM_T6: dict[int, Tile] = {t.tenhou6: t for t in Tile}
_PARSE: dict[str, Tile] = {}
for _t in Tile:
    _PARSE[_t.mjai] = _t
    _PARSE[_t.mpsz] = _t
del _t

WINDS: tuple[Tile, ...] = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
DRAGONS: tuple[Tile, ...] = (Tile.HAKU, Tile.HATSU, Tile.CHUN)
ALL_KINDS: tuple[Tile, ...] = _BY_INDEX
YAOCHU: tuple[Tile, ...] = tuple(t for t in _BY_INDEX if t.is_yaochu)


def parse_tiles(text: str) -> list[Tile]:
    """Parse mpsz hand notation (``123m406p11z``; ``0`` is a red five).

    Spaces are ignored.  mjai strings separated by spaces also work
    (``"1m 5mr E"``).

    :raises ValueError: on an unknown character or a digit without a suit.
    """
    if any(c in text for c in "ESWNPFC") or "r" in text:
        return [Tile.parse(part) for part in text.split()]
    tiles: list[Tile] = []
    digits: list[str] = []
    for ch in text.replace(" ", ""):
        if ch.isdigit():
            digits.append(ch)
        elif ch in SUITS:
            if not digits:
                raise ValueError(f"suit {ch!r} without digits in {text!r}")
            tiles.extend(Tile.parse(d + ch) for d in digits)
            digits = []
        else:
            raise ValueError(f"unexpected {ch!r} in tile notation {text!r}")
    if digits:
        raise ValueError(f"digits without a suit at the end of {text!r}")
    return tiles


def format_tiles(tiles: Iterable[Tile]) -> str:
    """Sorted mpsz notation, ``0`` for red fives: the inverse of :func:`parse_tiles`."""
    groups: dict[str, list[str]] = {s: [] for s in SUITS}
    for t in sorted(tiles):
        groups[t.suit].append("0" if t.is_red else str(t.number))
    return "".join("".join(d) + s for s, d in groups.items() if d)


def kind_counts(tiles: Iterable[Tile]) -> list[int]:
    """A 34-entry count array of the tiles' kinds (red fives count as fives)."""
    counts = [0] * 34
    for t in tiles:
        counts[t.index] += 1
    return counts


def seat_wind(seat: Seat, oya: Seat, players: int) -> Tile:
    """The seat wind of ``seat`` when ``oya`` is the dealer."""
    return WINDS[(seat - oya) % players]


def relative(seat: Seat, other: Seat, players: int) -> int:
    """Position of ``other`` as seen from ``seat``: 0 self, 1 shimocha, 2 toimen, 3 kamicha."""
    return (other - seat) % players


def kamicha(seat: Seat, players: int) -> Seat:
    """The player on ``seat``'s left, who discards just before ``seat``."""
    return Seat((seat - 1) % players)


def shimocha(seat: Seat, players: int) -> Seat:
    """The player on ``seat``'s right, who plays just after ``seat``."""
    return Seat((seat + 1) % players)
