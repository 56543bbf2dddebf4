"""Lookup tables and quick readings shared by the Tenhou XML reader's modules.

Built once at import: tiles by id and by id text, the draw and discard tags with
their (shared) events, seats, yaku, and the quick readings each tag handler tries
first.  The names keep their leading underscore: they are
private to :mod:`kansa.parsers.tenhou_xml`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from functools import lru_cache
from operator import attrgetter
from types import FunctionType
from typing import TYPE_CHECKING, Final

from kansa.parsers.canonical import sorted_tiles
from kansa.parsers.tenhou_xml.meld import Meld, decode_meld
from kansa.replay.events import (
    Dahai,
    Event,
    Tsumo,
)
from kansa.replay.tiles import ALL_TILES, Seat, Tile
from kansa.replay.yaku import Limit, Yaku

if TYPE_CHECKING:
    from mypy_extensions import i64

# -- lookup tables built once -------------------------------------------------

_TILES_PLAIN: Final[tuple[Tile, ...]] = tuple(Tile.from_tenhou_id(i, False) for i in range(136))
_TILES_AKA: Final[tuple[Tile, ...]] = tuple(Tile.from_tenhou_id(i, True) for i in range(136))
_TILE_TEXT_PLAIN: Final[dict[str, Tile]] = {str(i): t for i, t in enumerate(_TILES_PLAIN)}
_TILE_TEXT_AKA: Final[dict[str, Tile]] = {str(i): t for i, t in enumerate(_TILES_AKA)}
"""Canonical id text -> tile; anything else takes the validating slow path."""
_ORDER: Final = attrgetter("order")
_BY_ORDER: Final[tuple[Tile, ...]] = tuple(sorted(ALL_TILES, key=_ORDER))
_ORDER_TEXT_PLAIN: Final[dict[str, int]] = {
    text: _BY_ORDER.index(t) for text, t in _TILE_TEXT_PLAIN.items()}
_ORDER_TEXT_AKA: Final[dict[str, int]] = {
    text: _BY_ORDER.index(t) for text, t in _TILE_TEXT_AKA.items()}
"""Canonical id text -> the tile's place in canonical order (in ``_BY_ORDER``)."""
_HAI: Final = ("hai0", "hai1", "hai2", "hai3")
_SEAT_TEXT: Final[dict[str | None, Seat]] = {str(i): Seat(i) for i in range(4)}
_YAKU_BY_ID: Final[tuple[Yaku, ...]] = tuple(Yaku.from_tenhou_id(i) for i in range(55))

_PLAY_TAGS: Final[dict[str, tuple[bool, Seat, int]]] = {
    f"{letter}{tile_id}": (is_discard, Seat(seat), tile_id)
    for is_discard, letters in ((False, "TUVW"), (True, "DEFG"))
    for seat, letter in enumerate(letters)
    for tile_id in range(136)
}
"""``T56`` -> (is a discard, seat, tile id) for every draw and discard tag."""


_Play = tuple[Seat, int, int, Event, Event]
"""A draw or discard tag read as (seat, ``match``, ``leaves``, event, matched): the
event is ``matched`` when the seat's last draw (``_Reader.last_draw``) equals
``match``, ``event`` otherwise, and the seat's last draw becomes ``leaves``.  A draw
never matches (``match`` -2) and leaves its tile id; a discard matches the id of the
tile it discards (then it is tsumogiri) and leaves -1."""
_NEVER: Final = -2


def _plays(table: tuple[Tile, ...]) -> dict[str, _Play]:
    """``_PLAY_TAGS`` with the events themselves, built once and shared by every game
    (events are immutable; a shared event has no ``src``, see ``SourceRuns``)."""
    draws: dict[tuple[Seat, Tile], tuple[Event, Event]] = {}
    discards: dict[tuple[Seat, Tile], tuple[Event, Event]] = {}
    plays: dict[str, _Play] = {}
    for tag, (is_discard, seat, tile_id) in _PLAY_TAGS.items():
        tile = table[tile_id]
        if is_discard:
            pair = discards.setdefault((seat, tile), (
                Dahai(actor=seat, tile=tile, tsumogiri=False),
                Dahai(actor=seat, tile=tile, tsumogiri=True)))
            plays[tag] = (seat, tile_id, -1, *pair)
        else:
            draw = Tsumo(actor=seat, tile=tile)
            plays[tag] = (seat, _NEVER, tile_id,
                          *draws.setdefault((seat, tile), (draw, draw)))
    return plays


_PLAYS_AKA: Final = _plays(_TILES_AKA)
_PLAYS_PLAIN: Final = _plays(_TILES_PLAIN)
"""``_PLAY_TAGS`` with their events, one table per red-five rule (chosen at INIT)."""
_PLAY_LETTERS: Final = "TUVWDEFG"
_LETTER_BY_CODE: Final[tuple[int, ...]] = tuple(
    _PLAY_LETTERS.find(chr(c)) for c in range(128))
"""A character's place in ``_PLAY_LETTERS`` by its code (below 128), -1 for others."""
_PLAY_CODES_AKA: Final[list[_Play]] = [
    _PLAYS_AKA[f"{c}{i}"] for c in _PLAY_LETTERS for i in range(136)]
_PLAY_CODES_PLAIN: Final[list[_Play]] = [
    _PLAYS_PLAIN[f"{c}{i}"] for c in _PLAY_LETTERS for i in range(136)]
"""The same by code: letter (its place in ``_PLAY_LETTERS``) times 136 plus tile id."""
_POINTER: Final = "tag {}"
"""An event's position: the number of its tag among the root's children (from 1)."""
_PLAY_LIKE: Final = re.compile(r"[TUVWDEFG]\d+")
"""A tag that looks like a draw or discard (refused when not in ``_PLAY_TAGS``)."""


_LOG_ID: Final = re.compile(r"\d{10}gm-[0-9a-f]{4}-\d{4,5}-[0-9a-f]{8}")



def _decode_canonical(m: int, who: int, aka: bool) -> Meld:
    """:func:`decode_meld` with ``consumed`` in canonical (sorted) order."""
    meld = decode_meld(m, who, aka)
    consumed = sorted_tiles(meld.consumed)
    return meld if consumed is meld.consumed else dataclasses.replace(meld, consumed=consumed)


_decode_meld: Callable[[int, int, bool], Meld] = lru_cache(maxsize=4096)(_decode_canonical)
"""Meld codes repeat a lot across a corpus; the decoded value is immutable."""


# -- quick readings ---------------------------------------------------------------
# A handler first reads its tag with these, for the shape every real log has, and
# reads it again with the careful helpers of _Reader when they raise: those give the
# same value for anything the quick reading takes, and the exact message otherwise.

_UNUSUAL: Final = (AttributeError, IndexError, KeyError, TypeError, ValueError)
"""What a quick reading raises on a missing attribute, a number or id in a form other
than Tenhou's own, a wrong count or an out-of-range value."""
_LIMIT_TEXT: Final[dict[str, Limit]] = {str(limit.value): limit for limit in Limit}
_YAKU_TEXT: Final[dict[str, Yaku]] = {str(i): yaku for i, yaku in enumerate(_YAKU_BY_ID)}


def _ints(text: str) -> list[int]:
    return [int(part) for part in text.split(",")]


def _tiles(tile_text: dict[str, Tile], text: str) -> tuple[Tile, ...]:
    return tuple([tile_text[part] for part in text.split(",")])


def _quick_deltas(sc_text: str, n: int) -> tuple[int, ...]:
    """:meth:`_Reader.deltas` of an ``sc`` attribute: s0,d0,...,s3,d3 in hundreds."""
    sc = _ints(sc_text)
    if len(sc) < 8:
        raise ValueError("left to the careful reading")
    return tuple([d * 100 for d in sc[1:2 * n:2]])


_ORDER_OF_ID_AKA: Final[list[int]] = [_BY_ORDER.index(t) for t in _TILES_AKA]
_ORDER_OF_ID_PLAIN: Final[list[int]] = [_BY_ORDER.index(t) for t in _TILES_PLAIN]
"""Tile id -> the tile's place in canonical order, per red-five rule."""


def _interpreted() -> None:
    """A function: compiled, its type is not Python's function type."""


_COMPILED: Final = not isinstance(_interpreted, FunctionType)
"""Whether the reader runs compiled (its modules are compiled together): then it reads
draws, discards and hands character by character (``TagReader.run_text``,
:func:`_hand_by_character`), where making and hashing a string per tag or tile costs
more than the loop; interpreted, splitting the text costs less."""


def _hand_by_character(order_of_id: list[int], text: str) -> tuple[Tile, ...]:
    """:func:`_hand` read character by character (``order_of_id`` is
    ``_ORDER_OF_ID_AKA`` or ``_ORDER_OF_ID_PLAIN``): the same tiles for the same
    texts (tile ids 0-135 as Tenhou writes them, comma-separated), and ``ValueError``
    for any other.  The counters are native integers when compiled."""
    orders: list[int] = []
    n: i64 = len(text)
    i: i64 = 0
    while True:
        if i >= n:
            raise ValueError("left to the careful reading")
        tile: i64 = ord(text[i]) - 48
        i += 1
        if tile < 0 or tile > 9:
            raise ValueError("left to the careful reading")
        if tile != 0:  # more digits; a leading 0 stands alone
            while i < n and tile < 136:
                digit: i64 = ord(text[i]) - 48
                if digit < 0 or digit > 9:
                    break
                tile = tile * 10 + digit
                i += 1
        if tile >= 136:
            raise ValueError("left to the careful reading")
        orders.append(order_of_id[tile])
        if i == n:
            break
        if ord(text[i]) != 44:  # ","
            raise ValueError("left to the careful reading")
        i += 1
    orders.sort()
    return tuple([_BY_ORDER[o] for o in orders])


def _hand(order_text: dict[str, int], text: str) -> tuple[Tile, ...]:
    """The tiles in canonical order (see :meth:`_Reader.tiles`): their places in that
    order, sorted (``order_text`` is ``_ORDER_TEXT_AKA`` or ``_ORDER_TEXT_PLAIN``)."""
    orders = [order_text[t] for t in text.split(",")]
    orders.sort()
    return tuple([_BY_ORDER[o] for o in orders])


FORMAT = "tenhou_xml"
