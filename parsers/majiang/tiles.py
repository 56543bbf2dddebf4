"""kobalab majiang tiles and hand strings (``m1``, ``p0`` a red five, ``z1`` East; a
hand ``m123p406s789z11,m1-23``, its melds after the commas), read for the majiang
reader, each problem a :class:`~kansa.parsers.errors.LogFormatError` at its place."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, Final

from kansa.parsers.errors import LogFormatError
from kansa.parsers.fields import Fields, short
from kansa.parsers.majiang.scan import NOT_SHARED, TILE_INDEXES
from kansa.replay.events import SourceRef
from kansa.replay.tiles import ALL_TILES, Tile

if TYPE_CHECKING:  # native integers where compiled; only annotations name them
    from mypy_extensions import i64

__all__ = ["INDEX_OF", "KNOWN", "TILE_AT", "all_known", "field_tile", "haisi", "haisi_with_error",
           "meld", "plain_haisi", "shared_code", "tile_of"]

_PAI = re.compile(r"([mpsz])([0-9])([_*+=\-]*)")

KNOWN: dict[str, tuple[Tile, str]] = {
    t.majiang + marks: (t, marks) for t in ALL_TILES for marks in ("", "_", "*", "_*")}


def tile_of(text: Any, src: SourceRef, what: str) -> tuple[Tile, str]:
    """A majiang tile and its trailing marks (``_`` ``*`` ``+=-``)."""
    if type(text) is str and text in KNOWN:
        return KNOWN[text]
    m = _PAI.fullmatch(text) if isinstance(text, str) else None
    if m is None:
        raise LogFormatError(f"{what}: {short(text)} is not a majiang tile", src)
    try:
        return Tile.from_majiang(m.group(1) + m.group(2)), m.group(3)
    except ValueError:
        raise LogFormatError(f"{what}: {short(text)} is not a majiang tile", src) from None


def field_tile(f: Fields, key: str, what: str) -> tuple[Tile, str]:
    """``_tile`` of field ``key``; the position is only built for an error."""
    value = f.get(key)
    if type(value) is str and value in KNOWN:
        return KNOWN[value]
    return tile_of(f.req(key), f.at(key), what)


_DIGITS: Final[dict[str, dict[str, Tile]]] = {
    suit: {t.majiang[1]: t for t in ALL_TILES if t.majiang[0] == suit} for suit in "mpsz"}
"""Per suit letter, the tile of each digit that follows it."""


def haisi(f: Fields, key: str, text: Any) -> tuple[Tile | None, ...]:
    """The concealed tiles of the hand string ``text`` in field ``key`` of ``f`` (melds
    after ``,`` left out, ``_`` hidden)."""
    if isinstance(text, str):
        tiles = plain_haisi(text.encode())
        if tiles is not None:
            return tiles
    return haisi_with_error(text, f.at(key))


def all_known(tiles: tuple[Tile | None, ...]) -> tuple[Tile, ...] | None:
    """``tiles`` where none is hidden, else ``None``."""
    for tile in tiles:
        if tile is None:
            return None
    return tiles  # type: ignore[return-value]


def plain_haisi(data: bytes) -> tuple[Tile | None, ...] | None:
    """:func:`_haisi` of a hand string's bytes; ``None`` for anything it should refuse."""
    tiles: list[Tile | None] = []
    suit: i64 = -1  # ten times the index of the suit letter last met
    k: i64
    for k in range(len(data)):
        c: i64 = data[k]
        if 0x30 <= c <= 0x39:
            tile = TILE_AT[suit + c - 0x30] if suit >= 0 else None
            if tile is None:
                return None
            tiles.append(tile)
        elif c == 0x6D:  # m
            suit = 0
        elif c == 0x70:  # p
            suit = 10
        elif c == 0x73:  # s
            suit = 20
        elif c == 0x7A:  # z
            suit = 30
        elif c == 0x5F:  # _
            tiles.append(None)
        elif c == 0x2C:  # ,
            break
        elif c not in (0x2A, 0x2B, 0x3D, 0x2D):  # * + = -
            return None
    return tuple(tiles)


def haisi_with_error(text: Any, src: SourceRef) -> tuple[Tile | None, ...]:
    """:func:`_haisi`, character by character, with the error of the first problem."""
    if not isinstance(text, str):
        raise LogFormatError(f"a hand should be a string, not {short(text)}", src)
    tiles: list[Tile | None] = []
    suit = ""
    digits: dict[str, Tile] | None = None
    for ch in text.split(",", 1)[0]:
        if ch in _DIGITS:
            suit, digits = ch, _DIGITS[ch]
        elif ch.isdigit() and digits is not None:
            tile = digits.get(ch)
            if tile is None:
                raise LogFormatError(f"{suit}{ch} in hand {short(text)} is not a tile", src)
            tiles.append(tile)
        elif ch == "_":
            tiles.append(None)
        elif ch not in "*+=-":
            raise LogFormatError(f"unexpected {ch!r} in hand {short(text)}", src)
    return tuple(tiles)


TILE_AT: Final[list[Tile | None]] = [None] * TILE_INDEXES
"""The tile of each index of :func:`~kansa.parsers.majiang.scan.entry_code`."""
for _t in ALL_TILES:
    TILE_AT["mpsz".index(_t.majiang[0]) * 10 + int(_t.majiang[1])] = _t
INDEX_OF: Final[dict[Tile, int]] = {t: k for k, t in enumerate(TILE_AT) if t is not None}
"""The index of each tile in :data:`TILE_AT`."""


def shared_code(kind: str, f: Fields | None, players: int) -> int:
    """The :func:`~kansa.parsers.majiang.scan.entry_code` code of a decoded draw or
    discard (an entry of ``kind`` with fields ``f``) whose event is shared, else
    ``NOT_SHARED``."""
    track = ("zimo", "dapai").index(kind) if kind in ("zimo", "dapai") else -1
    if f is None or track < 0:
        return NOT_SHARED
    actor, name = f.get("l"), f.get("p")
    if type(actor) is not int or not 0 <= actor < players \
            or type(name) is not str or name not in KNOWN:
        return NOT_SHARED
    tile, marks = KNOWN[name]
    if track == 1 and "*" in marks:  # a riichi discard: its declaration follows
        return NOT_SHARED
    tsumogiri = 1 if track == 1 and "_" in marks else 0
    return ((track * 4 + actor) * TILE_INDEXES + INDEX_OF[tile]) * 2 + tsumogiri


_MELD = re.compile(r"[mpsz](?:\d[+=\-]?)+\d*")
_MELDS: Final[dict[str, tuple[tuple[Tile, ...], int | None, str | None]]] = {}
""":func:`meld` of each meld text read before."""
_MELDS_MOST: Final = 4096
"""Melds kept, a bound for hostile input: the 707 calls and kans of the 30 corpus
games are 158 distinct melds."""


def meld(f: Fields) -> tuple[tuple[Tile, ...], int | None, str | None]:
    """The meld in field ``m`` of ``f``: its tiles in written order, the called tile's
    index and its mark."""
    m = f.req("m")
    if type(m) is str:
        read = _MELDS.get(m)
        if read is not None:
            return read
    if not isinstance(m, str) or not _MELD.fullmatch(m):
        f.fail("m", f"{short(m)} is not a majiang meld")
    tiles: list[Tile] = []
    called = mark = None
    for ch in m[1:]:
        if ch.isdigit():
            try:
                tiles.append(Tile.from_majiang(m[0] + ch))
            except ValueError:
                f.fail("m", f"{m[0]}{ch} in meld {short(m)} is not a tile")
        else:
            called, mark = len(tiles) - 1, ch
    read = tuple(tiles), called, mark
    if len(_MELDS) < _MELDS_MOST:
        _MELDS[m] = read
    return read
