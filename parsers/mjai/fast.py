"""The quick reading of mjai lines: most lines of a log (draws, discards, riichi, dora)
are built here straight from their decoded object; any other line, and any line
whose shape is not the plain one, goes to the reader's own per-line code
(:meth:`kansa.parsers.mjai.read.Reader.read_line`), which reads it in full.

A line read here gives the event, position and book-keeping that the per-line code
gives it: it takes only a line that code would accept (its object decoded by
:func:`~kansa.parsers._json.quick_value` after the same depth count, a known seat, a
tile the table knows, a boolean ``tsumogiri``), so the game and every error are the
same either way (``tests/parsers/test_mjai_fast.py`` compares the two).
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from typing import TYPE_CHECKING, Any, Final

import msgspec

from kansa.parsers._json import QUICK_DECODER
from kansa.parsers.fields import Fields
from kansa.parsers.source import Limits
from kansa.replay.events import Dahai, Dora, EndKyoku, Event, Reach, ReachAccepted, SourceRef, Tsumo
from kansa.replay.tiles import BY_MJAI, Seat, Tile

if TYPE_CHECKING:  # the reader imports this module
    from kansa.parsers.mjai.read import GameBuilder, Reader

__all__ = ["quick_hand", "read_rows"]

_HAND_TILES: Final[dict[str, Tile | None]] = {**BY_MJAI, "?": None}
_NOT_A_TILE: Final[Any] = object()

QuickLine = Callable[["GameBuilder", dict[str, Any], SourceRef], Event | None]
"""Builds a line's event from its object, or ``None`` to leave the line to the reader."""


def read_rows(reader: Reader, rows: list[str], limits: Limits, size: int) -> None:
    """Feed ``rows`` (a file's lines, the last without its newline; ``size``: the
    file's length in bytes) to ``reader``, as :func:`kansa.parsers.mjai.read.parse`
    feeds them one by one to :meth:`Reader.read_line`."""
    source = reader.source
    depth = limits.max_json_depth
    last = len(rows)
    decode = QUICK_DECODER.decode
    for number, raw in enumerate(rows, 1):
        if number == last:  # may be cut off: the reader looks at it whole
            reader.read_line(raw, number, limits, end=size)
            return
        seen = _PLAIN.get(raw) if len(raw) <= _PLAIN_TEXT else None
        if seen is not None:
            g = reader.cur
            seat = seen[1]
            if g is not None and g.n is not None and seat < g.n:
                src = SourceRef(source, number)
                reader.lines = number
                g.events.append(Dahai(actor=Seat(seat), tile=seen[2], tsumogiri=seen[3],
                                      src=src) if seen[0] else
                                Tsumo(actor=Seat(seat), tile=seen[2], src=src))
                continue
        try:
            obj = decode(raw)  # as quick_value, without its call
        except (msgspec.DecodeError, RecursionError, UnicodeError):
            obj = None
        if type(obj) is not dict:
            reader.read_line(raw, number, limits)
            continue
        src = SourceRef(source, number)
        kind = obj.get("type")
        g = reader.cur
        entry = _QUICK_LINES.get(kind) if type(kind) is str else None
        if entry is not None and g is not None and g.n is not None and (
                len(obj) <= entry[1] or _flat(obj, depth)):
            # the line nests within the limit: a tsumo or dahai is built here at once
            actor = obj.get("actor")
            pai = obj.get("pai")
            event: Event | None = None
            plain = len(obj) <= entry[1] and len(raw) <= _PLAIN_TEXT
            if kind == "dahai":
                tsumogiri = obj.get("tsumogiri")
                tile = BY_MJAI.get(pai) if type(pai) is str else None
                if type(actor) is int and 0 <= actor < g.n and tile is not None \
                        and type(tsumogiri) is bool:
                    event = Dahai(actor=Seat(actor), tile=tile, tsumogiri=tsumogiri, src=src)
                    if plain:
                        _remember(raw, (True, actor, tile, tsumogiri))
            elif kind == "tsumo" and pai != "?":
                tile = BY_MJAI.get(pai) if type(pai) is str else None
                if type(actor) is int and 0 <= actor < g.n and tile is not None:
                    event = Tsumo(actor=Seat(actor), tile=tile, src=src)
                    if plain:
                        _remember(raw, (False, actor, tile, False))
            else:
                event = entry[0](g, obj, src)
            if event is not None:
                reader.lines = number
                g.events.append(event)
                continue
        if raw.count("[") + raw.count("{") <= depth:  # else the reader refuses it
            reader.feed(Fields(obj, src), number)  # what read_line does with it
        else:
            reader.read_line(raw, number, limits)


_PLAIN: Final[dict[str, tuple[bool, int, Tile, bool]]] = {}
"""Draw and discard lines read before, by their exact text: (a discard, actor, tile,
tsumogiri).  Only lines of the plain shape (no field but ``type`` and the event's, so
nesting one deep whatever the limit) are kept, so a text kept reads the same in any
file; its actor is checked against each game's seats.  A log without annotations
repeats a few hundred such lines, and a lookup costs less than decoding one."""
_PLAIN_TEXT: Final = 96
_PLAIN_MOST: Final = 8192


def _remember(raw: str, seen: tuple[bool, int, Tile, bool]) -> None:
    if len(_PLAIN) >= _PLAIN_MOST:
        _PLAIN.clear()
    _PLAIN[raw] = seen


_SCALARS: Final = frozenset({str, int, float, bool, type(None)})


def _flat(obj: dict[str, Any], limit: int) -> bool:
    """Whether ``obj`` (a line's object) nests within ``limit``: its values are scalars
    or lists of scalars (an AI's ``logs``), or its text has few enough brackets."""
    if limit < 2:
        return False
    for value in obj.values():
        kind = type(value)
        if kind not in _SCALARS and (
                kind is not list or not _SCALARS.issuperset(map(type, value))):
            return False
    return True


def _seat(g: GameBuilder, value: Any) -> Seat | None:
    n = g.n
    return Seat(value) if type(value) is int and n is not None and 0 <= value < n else None


def _tsumo(g: GameBuilder, obj: dict[str, Any], src: SourceRef) -> Event | None:
    actor = _seat(g, obj.get("actor"))
    pai = obj.get("pai")
    if actor is None or type(pai) is not str:
        return None
    if pai == "?":
        g.hidden.add(actor)
        return Tsumo(actor=actor, tile=None, src=src)
    tile = BY_MJAI.get(pai)
    return None if tile is None else Tsumo(actor=actor, tile=tile, src=src)


def _dahai(g: GameBuilder, obj: dict[str, Any], src: SourceRef) -> Event | None:
    actor = _seat(g, obj.get("actor"))
    pai = obj.get("pai")
    tsumogiri = obj.get("tsumogiri")
    if actor is None or type(pai) is not str or type(tsumogiri) is not bool:
        return None
    tile = BY_MJAI.get(pai)
    return None if tile is None else Dahai(actor=actor, tile=tile, tsumogiri=tsumogiri,
                                           src=src)


def _reach(g: GameBuilder, obj: dict[str, Any], src: SourceRef) -> Event | None:
    actor = _seat(g, obj.get("actor"))
    return None if actor is None else Reach(actor=actor, src=src)


def _reach_accepted(g: GameBuilder, obj: dict[str, Any], src: SourceRef) -> Event | None:
    actor = _seat(g, obj.get("actor"))
    scores = obj.get("scores")
    if actor is None:
        return None
    if scores is not None:
        if type(scores) is not list or len(scores) != g.n \
                or not all(type(x) is int for x in scores):
            return None
        scores = tuple(scores)
    if actor < len(g.sticks):
        g.sticks[actor] += 1
    return ReachAccepted(actor=actor, scores=scores, src=src)


def _dora(g: GameBuilder, obj: dict[str, Any], src: SourceRef) -> Event | None:
    marker = obj.get("dora_marker")
    tile = BY_MJAI.get(marker) if type(marker) is str else None
    return None if tile is None else Dora(dora_marker=tile, src=src)


def _end_kyoku(g: GameBuilder, obj: dict[str, Any], src: SourceRef) -> Event | None:
    return EndKyoku(src=src)



_QUICK_LINES: Final[dict[str, tuple[QuickLine, int]]] = {
    "tsumo": (_tsumo, 3), "dahai": (_dahai, 4), "reach": (_reach, 2),
    "reach_accepted": (_reach_accepted, 2), "dora": (_dora, 2), "end_kyoku": (_end_kyoku, 1),
}
"""Each kind read here, and the fields of a line of that kind whose values are all
scalars (``type`` and what its event takes): a line with no others nests 1 deep."""


def quick_hand(row: list[Any]) -> tuple[Tile | None, ...] | None:
    """A dealt hand whose entries are all tile names or ``?`` (hidden: ``None``), as
    the reader reads it; ``None`` for any other (or empty) row, which it reads itself."""
    try:
        hand = tuple(map(_HAND_TILES.get, row, repeat(_NOT_A_TILE)))
    except TypeError:  # an entry that cannot be a key: a list, an object
        return None
    return None if _NOT_A_TILE in hand else hand
