"""The quick reading of mjai lines: most lines of a log (draws, discards, riichi, dora)
are built here straight from their decoded object, and the compiled build reads deals
and calls from their characters (:mod:`kansa.parsers.mjai.chars`); any other line, and any line
whose shape is not the plain one, goes to the reader's own per-line code
(:meth:`kansa.parsers.mjai.read.Reader.read_line`), which reads it in full.

A line read here gives the event, position and book-keeping that the per-line code
gives it: it takes only a line that code would accept (its object decoded by
:func:`~kansa.parsers._json.quick_value` after the same depth count, a known seat, a
tile the table knows, a boolean ``tsumogiri``), so the game and every error are the
same either way (``tests/parsers/test_mjai_fast.py`` compares the two).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final

import msgspec

from kansa.parsers._json import BOM, QUICK_DECODER, decode_text
from kansa.parsers.errors import LogFormatError
from kansa.parsers.fields import Fields
from kansa.parsers.mjai.chars import read_call
from kansa.parsers.mjai.deal import DEAL_OPENINGS, read_deal
from kansa.parsers.mjai.line import LINE_DECODER
from kansa.parsers.mjai.tiles import COMPILED, HIDDEN, TILE_AT, name_index
from kansa.parsers.source import Limits
from kansa.replay.events import Dahai, Dora, EndKyoku, Event, Reach, ReachAccepted, SourceRef, Tsumo
from kansa.replay.tiles import BY_MJAI, Seat, Tile

if TYPE_CHECKING:  # the reader imports this module; native integers where compiled
    from mypy_extensions import i64

    from kansa.parsers.mjai.read import GameBuilder, Reader

__all__ = ["FIRST_PIECE", "QUICK_FIELDS", "quick_event", "quick_hand", "quick_tiles", "read_pieces",
           "read_rows"]


def read_pieces(reader: Reader, data: bytes, limits: Limits, *,
                by_slots: bool = COMPILED) -> None:
    """Feed the lines of ``data`` (a file's bytes) to ``reader`` as :func:`read_rows`
    does with the file's text, decoding it in pieces that each end with a line: the
    first of about 4 KB, the others of about 64 KB.

    A log's text that is not ASCII (players' names, most often) sits in its first
    lines.  Decoded whole, the text would be UCS-2 and each line sliced from it
    narrowed again; in pieces, the pieces without such text decode to ASCII.  (The
    reader decodes a log whose first piece is ASCII whole: in pieces it costs the
    interpreter more.)  Bytes that are not UTF-8 anywhere in the file are refused as
    :func:`~kansa.parsers._json.decode_text` refuses them, before any error in a line,
    as when the text was decoded first.  ``by_slots``: as :func:`read_rows` takes it."""
    size = len(data)
    view = memoryview(data)
    start = 0
    number = 0
    try:
        while True:
            piece_size = _PIECE if start else FIRST_PIECE
            cut = data.find(b"\n", start + piece_size) if start + piece_size < size else -1
            end = size if cut < 0 else cut + 1
            try:
                text = str(view[start:end], "utf-8")  # decoded where it lies, not copied
            except UnicodeDecodeError as exc:
                decode_text(data, reader.source)  # raises, but for a last character cut off
                text = str(view[start:start + exc.start], "utf-8")
            if start == 0 and text.startswith(BOM):
                text = text[1:]
            number = read_rows(reader, text, limits, size, number, last=cut < 0,
                               by_slots=by_slots)
            if cut < 0:
                return
            start = cut + 1
    except LogFormatError:
        decode_text(data, reader.source)  # bytes not UTF-8 further on are the error
        raise


FIRST_PIECE: Final = 4096
_PIECE: Final = 65536
"""Bytes of the first and of any other piece of :func:`read_pieces` before the end of
the line they fall in."""


def read_rows(reader: Reader, text: str, limits: Limits, size: int, number: int = 0, *,
              last: bool = True, by_slots: bool = COMPILED) -> int:
    """Feed the lines of ``text`` (a file's text; ``size``: its length in bytes) to
    ``reader``, as :func:`kansa.parsers.mjai.read.parse` would feed them one by one to
    :meth:`Reader.read_line`, and give the number of the last line read.

    ``number``: lines read before ``text``; ``last``: ``text`` ends the file (when it
    does not, it ends with a newline).  ``by_slots``: look a line up in :data:`_SLOTS`
    before :data:`_PLAIN` (:func:`_known`: the compiled build's faster way; the same
    reading either way)."""
    source = reader.source
    depth = limits.max_json_depth
    decode = QUICK_DECODER.decode
    start = 0
    while True:
        if by_slots:  # a draw or discard line read before: found without cutting it out
            kept = _kept_at(text, start)
            if kept is not None:
                line, hit = kept.line, kept.event
                g = reader.cur
                if g is not None and g.n is not None and hit.actor < g.n:
                    number += 1
                    start += len(line) + 1
                    reader.lines = number
                    g.shared(g.canonical(hit) if g.called else hit, number)
                    continue
        end = text.find("\n", start)
        if end < 0:
            if not last:
                return number
            # the last line may be cut off: the reader looks at it whole
            reader.read_line(text[start:], number + 1, limits, end=size)
            return number + 1
        number += 1
        raw = text[start:end]
        start = end + 1
        if len(raw) <= _PLAIN_TEXT:
            seen = _known(raw) if by_slots else _PLAIN.get(raw)
            if seen is not None:
                g = reader.cur
                if g is not None and g.n is not None and seen.actor < g.n:
                    reader.lines = number
                    g.shared(g.canonical(seen) if g.called else seen, number)
                    continue
            elif COMPILED and depth >= _CALL_DEPTH:
                g = reader.cur
                call = None if g is None or g.n is None else read_call(raw, g.n)
                if call is not None and reader.call(call, number):
                    continue
        elif COMPILED and depth >= _DEAL_DEPTH and raw.startswith(DEAL_OPENINGS):
            g = reader.cur
            deal = read_deal(raw, None if g is None else g.n)
            if deal is not None and reader.deal(deal, number):
                continue
        if len(raw) > _PLAIN_TEXT and _annotated(reader, raw, number, depth):
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
        most = QUICK_FIELDS.get(kind, 0) if type(kind) is str else 0
        if most and g is not None and g.n is not None and type(kind) is str and (
                len(obj) <= most or _flat(obj, depth)):
            # the line nests within the limit: its event is built here at once
            event = quick_event(g, kind, actor=obj.get("actor"), pai=obj.get("pai"),
                                tsumogiri=obj.get("tsumogiri"), marker=obj.get("dora_marker"),
                                scores=obj.get("scores"), src=src)
            if event is not None:
                if len(obj) <= most and len(raw) <= _PLAIN_TEXT:
                    if type(event) is Dahai:
                        _remember(raw, Dahai(actor=event.actor, tile=event.tile,
                                             tsumogiri=event.tsumogiri))
                    elif type(event) is Tsumo and event.tile is not None:
                        _remember(raw, Tsumo(actor=event.actor, tile=event.tile))
                reader.lines = number
                g.events.append(g.canonical(event) if g.called else event)
                continue
        if len(raw) <= 2 * depth + 1 or (_few_brackets(raw, depth) if COMPILED else
                                         raw.count("[") + raw.count("{") <= depth):
            # (nesting d deep takes 2d brackets: a line this short needs no count; a
            # longer one whose brackets might go deeper, read_line checks)
            reader.feed(Fields(obj, src), number)  # what read_line does with it
        else:
            reader.read_line(raw, number, limits)


def _annotated(reader: Reader, raw: str, number: int, depth: int) -> bool:
    """Read a long line of a kind :func:`quick_event` reads (an AI's annotations
    beside its event, most often) from :class:`~kansa.parsers.mjai.line.Line`, which
    msgspec fills without building the other fields, and True; or False, having read
    nothing, to leave the line to the rest of :func:`read_rows`.

    The line is taken only as the per-line code reads it: its brackets, strings' too,
    within the depth limit (msgspec checks a skipped field is JSON but not its depth),
    an object that decodes (msgspec refuses what ``json`` refuses, and ``NaN``, which
    the per-line code refuses too; what it skips but would refuse to build, a string
    with a lone surrogate, ``json`` reads), and a field the event cannot take leaves
    the line to the per-line code.

    A line that opens with its ``type`` (as most mjai writers write it) of a kind not
    read here is left at once (a later ``type`` key would count instead, and the rest of
    :func:`read_rows` reads that too)."""
    g = reader.cur
    if g is None or g.n is None:
        return False
    if raw.startswith(_TYPE_FIRST) and not raw.startswith(_QUICK_OPENINGS):
        return False
    if not _few_brackets(raw, depth):
        return False
    try:
        line = LINE_DECODER.decode(raw)
    except (msgspec.DecodeError, RecursionError, UnicodeError):
        return False
    kind = line.type
    if type(kind) is not str or kind not in QUICK_FIELDS:
        return False
    event = quick_event(g, kind, actor=line.actor, pai=line.pai, tsumogiri=line.tsumogiri,
                        marker=line.dora_marker, scores=line.scores,
                        src=SourceRef(reader.source, number))
    if event is None:
        return False
    reader.lines = number
    g.events.append(g.canonical(event) if g.called else event)
    return True


_TYPE_FIRST: Final = '{"type":'
"""How a line written by most mjai writers opens."""


def _few_brackets(raw: str, most: int) -> bool:
    """Whether ``raw`` holds at most ``most`` opening brackets, strings' included (so
    it nests no deeper).  Found one by one: an annotated line holds a few in hundreds
    of characters, which a search skips faster than a count looks at each."""
    count = 0
    for mark in ("[", "{"):
        at = raw.find(mark)
        while at >= 0:
            count += 1
            if count > most:
                return False
            at = raw.find(mark, at + 1)
    return True


_PLAIN: Final[dict[str, Tsumo | Dahai]] = {}
"""Draw and discard lines read before, by their exact text: the event each reads as,
shared by every line of that text (no ``src``: the game's runs say where each was
read, see ``GameBuilder.shared``).  Only lines of the plain shape (no field but
``type`` and the event's, so nesting one deep whatever the limit) are kept, so a text
kept reads the same in any file; its actor is checked against each game's seats.  A
log without annotations repeats a few hundred such lines, and a lookup costs less
than decoding one."""
_PLAIN_TEXT: Final = 96
_DEAL_DEPTH: Final = 3
_CALL_DEPTH: Final = 2
"""How deep a deal's line nests (its object, ``tehais``, a hand), and a call's."""
_PLAIN_MOST: Final = 8192


def _remember(raw: str, seen: Tsumo | Dahai) -> None:
    if len(_PLAIN) >= _PLAIN_MOST:
        _PLAIN.clear()
    _PLAIN[raw] = seen
    _keep(raw, seen)


def _known(raw: str) -> Tsumo | Dahai | None:
    """``_PLAIN.get(raw)``, kept in the slots of ``raw`` for :func:`_kept_at` to find."""
    seen = _PLAIN.get(raw)
    if seen is not None:
        _keep(raw, seen)
    return seen


def _keep(raw: str, seen: Tsumo | Dahai) -> None:
    """Keep the line ``raw`` in the first of its two slots, the line there before in the
    second."""
    if len(raw) < _SLOT_SHORTEST:
        return
    slot = _slot(raw, 0)
    first = _SLOTS[slot]
    if first is not None and first.line != raw:
        _SLOTS[slot + 1] = first
    _SLOTS[slot] = _Kept(raw, seen)


@dataclass(slots=True, init=False, eq=False)
class _Kept:
    """A line kept in a slot, and its event (a native object where compiled: the slots
    and :func:`_kept_at` pass it on without building a tuple)."""

    line: Final[str]
    event: Final[Tsumo | Dahai]

    def __init__(self, line: str, event: Tsumo | Dahai) -> None:
        self.line = line
        self.event = event


def _kept_at(text: str, start: i64) -> _Kept | None:
    """The line kept in a slot (with its event) that is the line of ``text`` at
    ``start``, ended by a newline; ``None`` when there is none.  The line is found
    where it starts, compared in place, without finding its end or cutting it out.

    A kept line holds no newline: where it stands at ``start`` with a newline right
    after it, it is the whole line there, as ``text.find("\\n", start)`` would end it."""
    size = len(text)
    if start + _SLOT_SHORTEST > size:
        return None
    slot = _slot(text, start)
    kept = _SLOTS[slot]
    if kept is not None and _stands_at(text, start, size, kept.line):
        return kept
    kept = _SLOTS[slot + 1]
    if kept is not None and _stands_at(text, start, size, kept.line):
        return kept
    return None


def _stands_at(text: str, start: i64, size: i64, line: str) -> bool:
    """Whether ``line`` stands at ``start`` of ``text`` (``size`` characters long)
    with a newline right after it."""
    end = start + len(line)
    return end < size and text[end] == "\n" and text[start:end] == line


_SLOT_MASK: Final = 4095
_SLOTS: Final[list[_Kept | None]] = [None] * (2 * (_SLOT_MASK + 1))
"""Lines of :data:`_PLAIN` with their events, two slots to each value of :func:`_slot`
(the last two lines met there): a line is found from a few of its characters and
compared where it stands in the text, which costs less than finding its end, cutting
it out and hashing it to look it up."""
_SLOT_SHORTEST: Final = 36
"""Lines shorter than this (none of a draw or discard in the usual spellings) are not
kept in slots: :func:`_slot` looks at their first 36 characters."""


def _slot(text: str, start: i64) -> i64:
    """The first of the two slots of :data:`_SLOTS` for the line at ``start`` of ``text``
    (at least :data:`_SLOT_SHORTEST` characters on): from the characters where draw and
    discard lines spelled as most mjai writers spell them differ (the kind, the seat,
    the tile).  A discard from the hand and a tsumogiri of the same tile share their
    slots."""
    h: i64 = ord(text[start + 9])
    h = h * 31 + ord(text[start + 24])
    h = h * 31 + ord(text[start + 33])
    h = h * 31 + ord(text[start + 34])
    h = h * 31 + ord(text[start + 35])
    return (h & _SLOT_MASK) * 2


_SCALARS: Final = frozenset({str, int, float, bool, type(None)})


def _flat(obj: dict[str, Any], limit: int) -> bool:
    """Whether ``obj`` (a line's object) nests within ``limit``: its values are scalars,
    lists of scalars (an AI's ``logs``) or empty objects (RiichiEnv's ``meta``), so it
    nests 2 deep at most."""
    if limit < 2:
        return False
    for value in obj.values():
        kind = type(value)
        if kind in _SCALARS:
            continue
        if kind is list:
            for item in value:
                if type(item) not in _SCALARS:
                    return False
        elif kind is not dict or value:
            return False
    return True


def quick_event(g: GameBuilder, kind: str, *, actor: Any, pai: Any, tsumogiri: Any,
                marker: Any, scores: Any, src: SourceRef) -> Event | None:
    """The event of a line of a kind in :data:`QUICK_FIELDS` (``kind``), from the values
    of its fields ``actor``, ``pai``, ``tsumogiri``, ``dora_marker`` (``marker``) and
    ``scores`` (``None`` where the line has none), in a game whose players are known
    (``g.n``); ``None`` to leave the line to the reader, which reads it in full."""
    n = g.n
    assert n is not None
    seat = Seat(actor) if type(actor) is int and 0 <= actor < n else None
    if kind == "dahai":
        tile = BY_MJAI.get(pai) if type(pai) is str else None
        if seat is None or tile is None or type(tsumogiri) is not bool:
            return None
        return Dahai(actor=seat, tile=tile, tsumogiri=tsumogiri, src=src)
    if kind == "tsumo":
        if seat is None or type(pai) is not str:
            return None
        if pai == "?":
            g.hidden.add(seat)
            return Tsumo(actor=seat, tile=None, src=src)
        tile = BY_MJAI.get(pai)
        return None if tile is None else Tsumo(actor=seat, tile=tile, src=src)
    if kind == "reach":
        return None if seat is None else Reach(actor=seat, src=src)
    if kind == "reach_accepted":
        if seat is None:
            return None
        if scores is not None:
            if type(scores) is not list or len(scores) != n \
                    or not all(type(x) is int for x in scores):
                return None
            scores = tuple(scores)
        if seat < len(g.sticks):
            g.sticks[seat] += 1
        return ReachAccepted(actor=seat, scores=scores, src=src)
    if kind == "dora":
        tile = BY_MJAI.get(marker) if type(marker) is str else None
        return None if tile is None else Dora(dora_marker=tile, src=src)
    if kind == "end_kyoku":
        return EndKyoku(src=src)
    return None


QUICK_FIELDS: Final[dict[str, int]] = {
    "tsumo": 3, "dahai": 4, "reach": 2, "reach_accepted": 2, "dora": 2, "end_kyoku": 1,
}
"""Each kind :func:`quick_event` reads, and the fields of a line of that kind whose
values are all scalars (``type`` and what its event takes): a line with no others
nests 1 deep."""
_QUICK_OPENINGS: Final = tuple(f'{_TYPE_FIRST}{space}"{kind}"' for kind in QUICK_FIELDS
                                for space in ("", " "))
"""The openings of lines of those kinds, as most mjai writers write them (compact, or
as Python's ``json.dumps``)."""


def quick_hand(row: list[Any]) -> tuple[Tile | None, ...] | None:
    """A dealt hand whose entries are all tile names or ``?`` (hidden: ``None``), as
    the reader reads it; ``None`` for any other (or empty) row, which it reads itself.
    Each build's faster way (:data:`~kansa.parsers.mjai.tiles.COMPILED`)."""
    if not row:
        return None
    return _hand_by_name(row) if COMPILED else _hand_by_lookup(row)


def _hand_by_name(row: list[Any]) -> tuple[Tile | None, ...] | None:
    """:func:`quick_hand` of a non-empty row, each name read by :func:`name_index`."""
    hand: list[Tile | None] = []
    k: i64  # native: a conditional expression here would box it
    for name in row:
        if type(name) is not str:
            return None
        k = name_index(name)
        if k == HIDDEN:
            hand.append(None)
        elif k < 0:
            return None
        else:
            hand.append(TILE_AT[k])
    return tuple(hand)


_HAND_TILES: Final[dict[str, Tile | None]] = {**BY_MJAI, "?": None}
_NOT_A_TILE: Final[Any] = object()
"""What :data:`_HAND_TILES` gives a name it does not know."""


def _hand_by_lookup(row: list[Any]) -> tuple[Tile | None, ...] | None:
    """:func:`quick_hand` of a non-empty row, each name looked up."""
    hand: list[Tile | None] = []
    for name in row:
        tile = _HAND_TILES.get(name, _NOT_A_TILE) if type(name) is str else _NOT_A_TILE
        if tile is _NOT_A_TILE:
            return None
        hand.append(tile)
    return tuple(hand)


def quick_tiles(row: list[Any]) -> tuple[Tile, ...] | None:
    """A list of tile names (no ``?``) as tiles; ``None`` for any other list, which the
    reader reads itself."""
    tiles: list[Tile] = []
    if not COMPILED:
        for name in row:
            tile = BY_MJAI.get(name) if type(name) is str else None
            if tile is None:
                return None
            tiles.append(tile)
        return tuple(tiles)
    k: i64
    for name in row:
        if type(name) is not str:
            return None
        k = name_index(name)
        tile = TILE_AT[k] if k >= 0 else None
        if tile is None:
            return None
        tiles.append(tile)
    return tuple(tiles)
