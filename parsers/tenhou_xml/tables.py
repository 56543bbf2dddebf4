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

from kansa.parsers.canonical import sorted_tiles
from kansa.parsers.tenhou_xml.meld import Meld, decode_meld
from kansa.replay.events import (
    Dahai,
    Event,
    Tsumo,
)
from kansa.replay.tiles import Seat, Tile
from kansa.replay.yaku import Limit, Yaku

# -- lookup tables built once -------------------------------------------------

_TILES_PLAIN: tuple[Tile, ...] = tuple(Tile.from_tenhou_id(i, False) for i in range(136))
_TILES_AKA: tuple[Tile, ...] = tuple(Tile.from_tenhou_id(i, True) for i in range(136))
_TILE_TEXT_PLAIN: dict[str, Tile] = {str(i): t for i, t in enumerate(_TILES_PLAIN)}
_TILE_TEXT_AKA: dict[str, Tile] = {str(i): t for i, t in enumerate(_TILES_AKA)}
"""Canonical id text -> tile; anything else takes the validating slow path."""
_HAI = ("hai0", "hai1", "hai2", "hai3")
_ORDER = attrgetter("order")
_SEAT_TEXT: dict[str | None, Seat] = {str(i): Seat(i) for i in range(4)}
_YAKU_BY_ID: tuple[Yaku, ...] = tuple(Yaku.from_tenhou_id(i) for i in range(55))

_PLAY_TAGS: dict[str, tuple[bool, Seat, int]] = {
    f"{letter}{tile_id}": (is_discard, Seat(seat), tile_id)
    for is_discard, letters in ((False, "TUVW"), (True, "DEFG"))
    for seat, letter in enumerate(letters)
    for tile_id in range(136)
}
"""``T56`` -> (is a discard, seat, tile id) for every draw and discard tag."""


_Play = tuple[Seat, int, int, tuple[Event, Event]]
"""A draw or discard tag read as (seat, ``match``, ``leaves``, events): the event is
``events[1]`` when the seat's last draw (``_Reader.last_draw``) equals ``match``,
``events[0]`` otherwise, and the seat's last draw becomes ``leaves``.  A draw never
matches (``match`` -2) and leaves its tile id; a discard matches the id of the tile
it discards (then it is tsumogiri) and leaves -1."""
_NEVER = -2


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
            plays[tag] = (seat, tile_id, -1, pair)
        else:
            draw = Tsumo(actor=seat, tile=tile)
            plays[tag] = (seat, _NEVER, tile_id, draws.setdefault((seat, tile), (draw, draw)))
    return plays


_PLAYS_AKA = _plays(_TILES_AKA)
_PLAYS_PLAIN = _plays(_TILES_PLAIN)
"""``_PLAY_TAGS`` with their events, one table per red-five rule (chosen at INIT)."""
_POINTER = "tag {}"
"""An event's position: the number of its tag among the root's children (from 1)."""
_PLAY_LIKE = re.compile(r"[TUVWDEFG]\d+")
"""A tag that looks like a draw or discard (refused when not in ``_PLAY_TAGS``)."""


_LOG_ID = re.compile(r"\d{10}gm-[0-9a-f]{4}-\d{4,5}-[0-9a-f]{8}")



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

_UNUSUAL = (AttributeError, IndexError, KeyError, TypeError, ValueError)
"""What a quick reading raises on a missing attribute, a number or id in a form other
than Tenhou's own, a wrong count or an out-of-range value."""
_LIMIT_TEXT: dict[str, Limit] = {str(limit.value): limit for limit in Limit}
_YAKU_TEXT: dict[str, Yaku] = {str(i): yaku for i, yaku in enumerate(_YAKU_BY_ID)}


def _ints(text: str) -> list[int]:
    return list(map(int, text.split(",")))


def _tiles(tile_text: dict[str, Tile], text: str) -> tuple[Tile, ...]:
    return tuple(map(tile_text.__getitem__, text.split(",")))


def _quick_deltas(sc_text: str, n: int) -> tuple[int, ...]:
    """:meth:`_Reader.deltas` of an ``sc`` attribute: s0,d0,...,s3,d3 in hundreds."""
    sc = _ints(sc_text)
    if len(sc) < 8:
        raise ValueError("left to the careful reading")
    return tuple([d * 100 for d in sc[1:2 * n:2]])


def _hand(tile_text: dict[str, Tile], text: str) -> tuple[Tile, ...]:
    """The tiles in canonical order (see :meth:`_Reader.tiles`)."""
    return tuple(sorted(map(tile_text.__getitem__, text.split(",")), key=_ORDER))


FORMAT = "tenhou_xml"
