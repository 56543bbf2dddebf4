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
from typing import ClassVar, Final, NewType, final

Seat = NewType("Seat", int)
"""Absolute seat 0-3 (0 = the game's first dealer)."""

SUITS: Final = "mpsz"
_MJAI_HONORS: Final = ("E", "S", "W", "N", "P", "F", "C")
_RED_INDEX: Final = (4, 13, 22)


_NAMES: Final = (
    "M1", "M2", "M3", "M4", "M5", "M6", "M7", "M8", "M9",
    "P1", "P2", "P3", "P4", "P5", "P6", "P7", "P8", "P9",
    "S1", "S2", "S3", "S4", "S5", "S6", "S7", "S8", "S9",
    "EAST", "SOUTH", "WEST", "NORTH", "HAKU", "HATSU", "CHUN",
    "M5R", "P5R", "S5R",
)


@final
class Tile:
    """One of the 34 tile kinds, or one of the three red fives.

    There are exactly 37 ``Tile`` objects, made once here and named as class
    attributes (``Tile.M1`` ... ``Tile.CHUN``, ``Tile.M5R``); :data:`ALL_TILES` lists
    them in :attr:`code` order.  Equality and hash are identity (the fastest dict
    key in both builds), and a pickled or copied tile is the same object.  A tile is
    not a number: ``Tile.M1 + 1`` raises, so tile arithmetic stays in this module.
    ``index`` (0-33) is the kind's position in a 34-entry count array, the one
    integer view the hand analysis uses.

    The attributes are plain fields set once (no properties, no Enum machinery):
    the replay reads them in its innermost loops.
    """

    __slots__ = (
        "code",
        "index",
        "is_dragon",
        "is_five",
        "is_honor",
        "is_red",
        "is_terminal",
        "is_wind",
        "is_yaochu",
        "majiang",
        "mjai",
        "mpsz",
        "name",
        "normal",
        "number",
        "order",
        "suit",
        "tenhou6",
    )

    M1: ClassVar[Tile]
    M2: ClassVar[Tile]
    M3: ClassVar[Tile]
    M4: ClassVar[Tile]
    M5: ClassVar[Tile]
    M6: ClassVar[Tile]
    M7: ClassVar[Tile]
    M8: ClassVar[Tile]
    M9: ClassVar[Tile]
    P1: ClassVar[Tile]
    P2: ClassVar[Tile]
    P3: ClassVar[Tile]
    P4: ClassVar[Tile]
    P5: ClassVar[Tile]
    P6: ClassVar[Tile]
    P7: ClassVar[Tile]
    P8: ClassVar[Tile]
    P9: ClassVar[Tile]
    S1: ClassVar[Tile]
    S2: ClassVar[Tile]
    S3: ClassVar[Tile]
    S4: ClassVar[Tile]
    S5: ClassVar[Tile]
    S6: ClassVar[Tile]
    S7: ClassVar[Tile]
    S8: ClassVar[Tile]
    S9: ClassVar[Tile]
    EAST: ClassVar[Tile]
    SOUTH: ClassVar[Tile]
    WEST: ClassVar[Tile]
    NORTH: ClassVar[Tile]
    HAKU: ClassVar[Tile]
    HATSU: ClassVar[Tile]
    CHUN: ClassVar[Tile]
    M5R: ClassVar[Tile]
    P5R: ClassVar[Tile]
    S5R: ClassVar[Tile]

    def __init__(self, code: int) -> None:
        index = code if code < 34 else _RED_INDEX[code - 34]
        number = index % 9 + 1 if index < 27 else index - 26
        suit = SUITS[index // 9] if index < 27 else "z"
        self.code: Final = code
        """0-36: the position in a 37-entry count array (red fives apart)."""
        self.index: Final = index
        self.order: Final = 2 * index + (code >= 34)
        """Sort key: by kind, a red five right after its plain five."""
        self.is_red: Final = code >= 34
        self.suit: Final = suit
        self.number: Final = number
        self.is_honor: Final = index >= 27
        self.is_terminal: Final = index < 27 and number in (1, 9)
        self.is_yaochu: Final = index >= 27 or number in (1, 9)
        self.is_wind: Final = 27 <= index <= 30
        self.is_dragon: Final = index >= 31
        self.is_five: Final = index in _RED_INDEX
        self.mjai: Final = (_MJAI_HONORS[index - 27] if index >= 27
                            else f"{number}{suit}" + ("r" if code >= 34 else ""))
        self.mpsz: Final = f"{0 if code >= 34 else number}{suit}"
        """Single-tile mpsz notation: ``0m`` for a red five, ``1z`` for East."""
        self.majiang: Final = suit + ("0" if code >= 34 else str(number))
        self.tenhou6: Final = (51 + _RED_INDEX.index(index) if code >= 34
                               else (index // 9 + 1) * 10 + (index % 9 + 1))
        self.name: Final = _NAMES[code]
        self.normal: Tile = self
        """The same kind without the red mark (set for the red fives below)."""

    def __hash__(self) -> int:
        # Equality is identity (one object per code); a compiled class needs the hash
        # spelled out, and the code gives the same set order in both builds.
        return self.code

    def __str__(self) -> str:
        return self.mjai

    def __repr__(self) -> str:
        return f"Tile.{self.name}"

    def __reduce__(self) -> tuple[object, tuple[int]]:
        return _tile_of, (self.code,)

    def __copy__(self) -> Tile:
        return self

    def __deepcopy__(self, memo: object) -> Tile:
        return self

    def __lt__(self, other: Tile) -> bool:
        """Order by kind, a red five right after its plain five."""
        return self.order < other.order

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
        if not self.is_five:
            raise ValueError(f"{self} has no red copy")
        return ALL_TILES[34 + _RED_INDEX.index(self.index)]

    @staticmethod
    def from_code(code: int) -> Tile:
        """The tile of :attr:`code` ``code`` (0-36)."""
        if not 0 <= code < 37:
            raise ValueError(f"tile code out of range: {code}")
        return ALL_TILES[code]

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
        tile = BY_TENHOU6.get(code)
        if tile is None:
            raise ValueError(f"not a tenhou.net/6 tile code: {code!r}")
        return tile

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


def _tile_of(code: int) -> Tile:
    """The unpickler of a tile: the one object of ``code``."""
    return Tile.from_code(code)


ALL_TILES: Final[tuple[Tile, ...]] = tuple(Tile(code) for code in range(37))
"""The 37 tiles in :attr:`Tile.code` order: the 34 kinds, then the red 5m, 5p, 5s."""
_BY_INDEX: Final[tuple[Tile, ...]] = ALL_TILES[:34]
Tile.M1 = ALL_TILES[0]
Tile.M2 = ALL_TILES[1]
Tile.M3 = ALL_TILES[2]
Tile.M4 = ALL_TILES[3]
Tile.M5 = ALL_TILES[4]
Tile.M6 = ALL_TILES[5]
Tile.M7 = ALL_TILES[6]
Tile.M8 = ALL_TILES[7]
Tile.M9 = ALL_TILES[8]
Tile.P1 = ALL_TILES[9]
Tile.P2 = ALL_TILES[10]
Tile.P3 = ALL_TILES[11]
Tile.P4 = ALL_TILES[12]
Tile.P5 = ALL_TILES[13]
Tile.P6 = ALL_TILES[14]
Tile.P7 = ALL_TILES[15]
Tile.P8 = ALL_TILES[16]
Tile.P9 = ALL_TILES[17]
Tile.S1 = ALL_TILES[18]
Tile.S2 = ALL_TILES[19]
Tile.S3 = ALL_TILES[20]
Tile.S4 = ALL_TILES[21]
Tile.S5 = ALL_TILES[22]
Tile.S6 = ALL_TILES[23]
Tile.S7 = ALL_TILES[24]
Tile.S8 = ALL_TILES[25]
Tile.S9 = ALL_TILES[26]
Tile.EAST = ALL_TILES[27]
Tile.SOUTH = ALL_TILES[28]
Tile.WEST = ALL_TILES[29]
Tile.NORTH = ALL_TILES[30]
Tile.HAKU = ALL_TILES[31]
Tile.HATSU = ALL_TILES[32]
Tile.CHUN = ALL_TILES[33]
Tile.M5R = ALL_TILES[34]
Tile.P5R = ALL_TILES[35]
Tile.S5R = ALL_TILES[36]
for _t in ALL_TILES[34:]:
    _t.normal = _BY_INDEX[_t.index]
_TENHOU_RED_IDS: Final = {16: ALL_TILES[34], 52: ALL_TILES[35], 88: ALL_TILES[36]}
BY_TENHOU6: Final[dict[int, Tile]] = {t.tenhou6: t for t in ALL_TILES}
"""Every tile by its :attr:`Tile.tenhou6` code (the parsers' lookup of a code)."""
BY_MJAI: Final[dict[str, Tile]] = {t.mjai: t for t in ALL_TILES}
"""Every tile by its :attr:`Tile.mjai` name (``?``, a hidden tile, is not one)."""
_PARSE: Final[dict[str, Tile]] = {}
for _t in ALL_TILES:
    _PARSE[_t.mjai] = _t
    _PARSE[_t.mpsz] = _t
del _t

WINDS: Final[tuple[Tile, ...]] = (Tile.EAST, Tile.SOUTH, Tile.WEST, Tile.NORTH)
DRAGONS: Final[tuple[Tile, ...]] = (Tile.HAKU, Tile.HATSU, Tile.CHUN)
ALL_KINDS: Final[tuple[Tile, ...]] = _BY_INDEX
YAOCHU: Final[tuple[Tile, ...]] = tuple(t for t in _BY_INDEX if t.is_yaochu)


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
