"""The canonical form every parser gives its events, so that one game read from
two formats compares equal.

* Tile collections without a meaningful order are sorted: dealt hands, the
  tiles a call consumes, a winner's shown hand, hands shown at a draw.
* A zero-han ura dora entry (Tenhou writes ``53,0`` for a riichi winner
  without ura) is dropped: it says nothing.
* An abortive draw moves no points: its deltas are zeros, not unknown.
* A discard right after a chi or pon is never tsumogiri: the seat has no drawn
  tile then (some mjai writers flag it when the tile is the seat's last draw).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from operator import attrgetter
from types import FunctionType
from typing import Any, Final

from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Event,
    Hora,
    Kakan,
    Pon,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from kansa.replay.tiles import Tile
from kansa.replay.yaku import Yaku

_ORDER: Final = attrgetter("order")


def sorted_tiles(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """``tiles`` in canonical order (the same tuple when it already is, as most are)."""
    last = -1
    for tile in tiles:
        if tile.order < last:
            return _insertion_sorted(tiles) if _COMPILED else tuple(sorted(tiles, key=_ORDER))
        last = tile.order
    return tiles


def _insertion_sorted(tiles: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """``tiles`` sorted by ``order``, as ``sorted`` sorts them (stably), by insertion:
    a hand is at most 14 tiles, mostly in order."""
    out = list(tiles)
    for k in range(1, len(out)):
        tile = out[k]
        j = k - 1
        while j >= 0 and out[j].order > tile.order:
            out[j + 1] = out[j]
            j -= 1
        out[j + 1] = tile
    return tuple(out)


def is_empty_ura(item: tuple[Yaku, int]) -> bool:
    """A zero-han ura dora entry, which the canonical form drops."""
    return item[0] is Yaku.URA_DORA and item[1] == 0


def sorted_hidden(tiles: tuple[Tile | None, ...]) -> tuple[Tile | None, ...]:
    """A dealt hand in canonical order: its known tiles sorted, then its hidden ones."""
    if _COMPILED:
        hidden = False
        for tile in tiles:
            if tile is None:
                hidden = True
                break
    else:
        hidden = None in tiles
    if hidden:
        known = sorted((t for t in tiles if t is not None), key=_ORDER)
        return (*known, *(None for t in tiles if t is None))
    return sorted_tiles(tiles)  # type: ignore[arg-type]


_COMPILED: Final = not isinstance(sorted_tiles, FunctionType)
"""Whether this module runs compiled: then a loop over a hand's tiles costs less than
``sorted`` with a key and ``in`` (which compares each tile through its rich
comparison); interpreted, those builtins cost less than the loop."""


def _start(ev: StartKyoku) -> Event:
    tehais = tuple(sorted_hidden(h) for h in ev.tehais)
    return ev if tehais == ev.tehais else dataclasses.replace(ev, tehais=tehais)


def _meld(ev: Chi | Pon | Daiminkan | Kakan | Ankan) -> Event:
    consumed = sorted_tiles(ev.consumed)
    return ev if consumed is ev.consumed else dataclasses.replace(ev, consumed=consumed)


def _hora(ev: Hora) -> Event:
    changes: dict[str, Any] = {}
    if ev.hand is not None:
        hand = sorted_tiles(ev.hand)
        if hand is not ev.hand:
            changes["hand"] = hand
    if ev.yaku is not None and any(is_empty_ura(item) for item in ev.yaku):
        changes["yaku"] = tuple(item for item in ev.yaku if not is_empty_ura(item))
    return dataclasses.replace(ev, **changes) if changes else ev


def _ryukyoku(ev: Ryukyoku) -> Event:
    changes: dict[str, Any] = {}
    if ev.hands is not None:
        hands = tuple(None if h is None else sorted_tiles(h) for h in ev.hands)
        if hands != ev.hands:
            changes["hands"] = hands
    return dataclasses.replace(ev, **changes) if changes else ev


_CANON: Final[dict[type, Callable[[Any], Event]]] = {
    StartKyoku: _start, Chi: _meld, Pon: _meld, Daiminkan: _meld, Kakan: _meld,
    Ankan: _meld, Hora: _hora, Ryukyoku: _ryukyoku,
}


def canonical(events: Iterable[Event], players: int = 4) -> tuple[Event, ...]:
    """The events in canonical form (unchanged events are kept as they are)."""
    put = Canonical(players)
    return tuple([put.event(ev) for ev in events])


def canonical_shared(events: list[Event], players: int = 4) -> tuple[Event, ...]:
    """:func:`canonical` of events whose draws and discards without a ``src`` (a
    reader's shared events) are built canonical: only a discard right after a call
    may change, so those go through :class:`Canonical` only while a seat's last take
    was a call."""
    put = Canonical(players)
    return tuple([ev if ev.src is None and not put.called else put.event(ev)
                  for ev in events])


def after_call(called: int, ev: Event) -> tuple[int, Event]:
    """``called`` (a bit mask of the seats whose last take was a chi or pon) after the
    event ``ev``, and ``ev`` in canonical form: a seat's draw or discard clears its
    bit, and a discard right after its call is never tsumogiri.  Other events pass
    unchanged (the caller sets the bits of its chis and pons)."""
    if isinstance(ev, (Tsumo, Dahai)) and called >> ev.actor & 1:
        called &= ~(1 << ev.actor)
        if isinstance(ev, Dahai) and ev.tsumogiri:
            return called, dataclasses.replace(ev, tsumogiri=False)
    return called, ev


class Canonical:
    """Puts events in canonical form one at a time, in game order (a stream's reader
    calls it per event; :func:`canonical` runs it over a game)."""

    __slots__ = ("called", "players")

    def __init__(self, players: int = 4) -> None:
        self.players = players
        self.called = 0
        """Bit mask of the seats whose last take was a chi or pon."""

    def __call__(self, ev: Event) -> Event:
        return self.event(ev)

    def event(self, ev: Event) -> Event:
        """``ev`` in canonical form."""
        kind = type(ev)  # the vocabulary's classes have no subclasses
        if kind is Dahai or kind is Tsumo:
            if self.called:
                self.called, ev = after_call(self.called, ev)
            return ev
        if kind is Chi or kind is Pon:
            assert isinstance(ev, (Chi, Pon))
            self.called |= 1 << ev.actor
        elif kind is StartKyoku:
            self.called = 0
        fn = _CANON.get(kind)
        if fn is None:
            return ev
        new = fn(ev)
        if isinstance(new, Ryukyoku) and new.reason.is_abortive and new.deltas is None:
            new = dataclasses.replace(new, deltas=(0,) * self.players)
        return new

