"""One seat's takes and discards (tenhou.net/6 B.4) read into a script of steps.

Each seat's own actions come in a fixed order whatever the others do, so a
seat's script (take, discard, take, discard, ...) and its events are built
here once; :mod:`kansa.parsers.tenhou6.order` only decides how the four scripts
interleave.

A step and its event hold no position: the same draw or discard of a tile by a
seat is one shared step (from :data:`DRAW_STEPS`, :data:`DISCARD_STEPS` and
:data:`TSUMOGIRI_STEPS`), and a :class:`Script` keeps where each of its steps
was read (the game's ``runs``, see ``SourceRuns``).  Calls and riichi
discards are read each time they occur.

The steps' events are built in the canonical form of
:mod:`kansa.parsers.canonical`: a call's tiles are sorted, and a discard after a
call is never tsumogiri here (60 needs a drawn tile).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, TypeGuard

from kansa.parsers.canonical import sorted_tiles
from kansa.parsers.errors import LogFormatError
from kansa.parsers.tenhou6.jsontext import Where, as_list, is_int, show
from kansa.parsers.tenhou6.pointers import KyokuPointers
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Event,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    Tsumo,
)
from kansa.replay.game import TAKE_NEXT
from kansa.replay.tiles import BY_TENHOU6, Seat, Tile

TSUMOGIRI: Final = 60
PLACEHOLDER: Final = 0
CODES: Final = 54
"""Tile codes are below this (11-47, red fives 51-53)."""
TILE_OF_CODE: Final[list[Tile | None]] = [BY_TENHOU6.get(code) for code in range(CODES)]
"""The tile of each code below :data:`CODES` (``None`` for no tile)."""

DRAW: Final = "draw"
CHI: Final = "chi"
PON: Final = "pon"
KAN: Final = "daiminkan"
DAHAI: Final = "dahai"
KAKAN: Final = "kakan"
ANKAN: Final = "ankan"
KITA: Final = "kita"
KINDS: Final = (DRAW, CHI, PON, KAN, DAHAI, KAKAN, ANKAN, KITA)
"""The kinds of step, in the order of their numbers (:attr:`Step.op`)."""
OP_DRAW: Final = 0
"""The number of :data:`DRAW` (compiled, an integer compares without a call)."""
OP_KAN: Final = 3
"""The number of :data:`KAN`."""
OP_DAHAI: Final = 4
"""The number of :data:`DAHAI`."""

# marker position (in tiles) -> offset of the discarder from the caller, counted in
# four seats even in three-player logs (seat 0's "toimen" there is seat 2)
_TARGET_OFFSET: Final[dict[str, dict[int, int]]] = {
    "c": {0: 3},
    "p": {0: 3, 1: 2, 2: 1},
    "m": {0: 3, 1: 2, 2: 1, 3: 1},
}
_NAMES: Final = {"c": "chi", "p": "pon", "m": "kan"}
_MELD: Final = re.compile(r"(?:[0-9][0-9]|[a-z])+")
"""A call string: ASCII digit pairs and marker letters (``fullmatch``: no trailing newline)."""


@dataclass(slots=True, init=False, eq=False)
class Step:
    """One take or one discard of one seat, with its event ready to emit.

    Its fields are ``Final`` and set by a written ``__init__``, as the events' are
    (:mod:`kansa.replay.events`)."""

    take: Final[bool]
    kind: Final[str]
    op: Final[int]
    """The number of :attr:`kind` (its place in :data:`KINDS`)."""
    tile: Final[Tile]
    """Drawn, called, discarded, added (kakan), kanned (ankan) or extracted tile."""
    event: Final[Event]
    """Without a ``src``: a step may be shared between places."""
    written: Final[object]
    """The take or discard as the log writes it: a tile code or a call string."""
    target: Final[int]
    """The seat a call takes its tile from; -1 for every other step."""
    reach: Final[Reach | None]
    """The declaration that precedes a riichi discard."""
    code: Final[bytes]
    """Where the step is read, as the hand's order of ``SourceTracks`` codes it: the
    next element of its seat's takes or discards (one byte)."""

    def __init__(self, seat: Seat, take: bool, kind: str, tile: Tile, event: Event, *,
                 written: object, target: int = -1, reach: Reach | None = None
                 ) -> None:
        self.code = NEXT_OF_TRACK[track(seat, take)]
        self.take = take
        self.kind = kind
        self.op = KINDS.index(kind)
        self.tile = tile
        self.event = event
        self.written = written
        self.target = target
        self.reach = reach

    @property
    def text(self) -> str:
        """:attr:`written` as text, for messages."""
        return str(self.written)


def tile_code(where: Where, pointer: str, value: object) -> Tile:
    """A tenhou.net/6 tile code (11-47, 51-53)."""
    tile = BY_TENHOU6.get(value) if type(value) is int else None
    if tile is not None:
        return tile
    if not is_int(value):
        where.fail(pointer, f"expected a tile code, not {show(value)}")
    assert isinstance(value, int)
    try:
        return Tile.from_tenhou6(value)
    except ValueError:
        where.fail(pointer, f"unknown tile code {value}")


def tile_codes(where: Where, pointer: str, values: list[Any]) -> tuple[Tile, ...]:
    """The tiles of the tile codes ``values``, the array at ``pointer``."""
    tiles: list[Tile] = []  # known_codes' loop, written out: interpreted, a call costs more
    for v in values:
        tile = TILE_OF_CODE[v] if type(v) is int and 0 <= v < CODES else None
        if tile is None:  # the careful reading says what is wrong, and where
            return tuple(tile_code(where, f"{pointer}/{i}", v) for i, v in enumerate(values))
        tiles.append(tile)
    return tuple(tiles)


def known_codes(values: list[Any]) -> tuple[Tile, ...] | None:
    """The tiles of ``values`` where each is a tile code, else ``None``."""
    tiles: list[Tile] = []
    for v in values:
        tile = TILE_OF_CODE[v] if type(v) is int and 0 <= v < CODES else None
        if tile is None:
            return None
        tiles.append(tile)
    return tuple(tiles)


def _meld_tokens(where: Where, pointer: str, text: str) -> tuple[str, int, list[Tile]]:
    """``"47p4747"`` -> (``"p"``, marker position in tiles, tiles in written order)."""
    if not _MELD.fullmatch(text):
        where.fail(pointer, f"malformed call string {text!r}")
    marker = ""
    at = -1
    tiles: list[Tile] = []
    i = 0
    while i < len(text):
        ch = text[i]
        if ch.isalpha():
            if marker:
                where.fail(pointer, f"call string {text!r} has more than one marker")
            marker, at = ch, len(tiles)
            i += 1
            continue
        tiles.append(tile_code(where, pointer, int(text[i:i + 2])))
        i += 2
    if not marker:
        where.fail(pointer, f"call string {text!r} has no marker letter")
    return marker, at, tiles


def _same_kind(tiles: list[Tile]) -> bool:
    return len({t.index for t in tiles}) == 1


def _is_run(tiles: list[Tile]) -> bool:
    idx = sorted(t.index for t in tiles)
    return (not tiles[0].is_honor and len({t.suit for t in tiles}) == 1
            and idx == list(range(idx[0], idx[0] + 3)))


def read_take(where: Where, pointer: str, value: object, seat: Seat, players: int) -> Step:
    if is_int(value):
        tile = tile_code(where, pointer, value)
        return Step(seat, True, DRAW, tile, Tsumo(actor=seat, tile=tile), written=value)
    if not isinstance(value, str):
        where.fail(pointer, f"a take must be a tile code or a call string, not {show(value)}")
    marker, at, tiles = _meld_tokens(where, pointer, value)
    offsets = _TARGET_OFFSET.get(marker)
    if offsets is None:
        where.fail(pointer, f"call string {value!r}: marker {marker!r} does not belong in "
                            "takes (only c, p, m)")
    size = 3 if marker in "cp" else 4
    if len(tiles) != size or at not in offsets or at >= len(tiles):
        where.fail(pointer, f"call string {value!r}: a {marker!r} call has {size} tiles and "
                            f"its marker at tile position {sorted(offsets)}")
    target = (seat + offsets[at]) % 4
    if target >= players:
        where.fail(pointer, f"call string {value!r} names seat {target}, which is empty in a "
                            f"{players}-player game")
    called = tiles[at]
    consumed = sorted_tiles(tuple(tiles[:at] + tiles[at + 1:]))
    shape_ok = _is_run(tiles) if marker == "c" else _same_kind(tiles)
    if not shape_ok:
        where.fail(pointer, f"call string {value!r} is not a valid {_NAMES[marker]}")
    ev: Event
    if marker == "c":
        kind = CHI
        ev = Chi(actor=seat, target=Seat(target), tile=called, consumed=consumed)
    elif marker == "p":
        kind = PON
        ev = Pon(actor=seat, target=Seat(target), tile=called, consumed=consumed)
    else:
        kind = KAN
        ev = Daiminkan(actor=seat, target=Seat(target), tile=called, consumed=consumed)
    return Step(seat, True, kind, called, ev, written=value, target=target)


def read_discard(where: Where, pointer: str, value: object, seat: Seat,
                 last_draw: Tile | None) -> Step:
    riichi = False
    text = value
    if isinstance(value, str) and value.startswith("r"):
        riichi = True
        body = value[1:]
        if not (body.isascii() and body.isdigit()) or len(body) > 3:
            where.fail(pointer, f"malformed riichi discard {value!r}")
        text = int(body)
    if is_int(text):
        assert isinstance(text, int)
        tsumogiri = text == TSUMOGIRI
        if tsumogiri:
            if last_draw is None:
                where.fail(pointer, "tsumogiri marker 60 where the seat did not draw a tile")
            tile = last_draw
        elif text == PLACEHOLDER:
            where.fail(pointer, "placeholder 0 in discards that does not follow an open kan")
        else:
            tile = tile_code(where, pointer, text)
        reach = Reach(actor=seat) if riichi else None
        ev = Dahai(actor=seat, tile=tile, tsumogiri=tsumogiri)
        return Step(seat, False, DAHAI, tile, ev, written=value, reach=reach)
    if not isinstance(value, str):
        where.fail(pointer, f"a discard must be a tile code or a call string, not {show(value)}")
    if value.startswith("f"):
        body = value[1:]
        if not (body.isascii() and body.isdigit()) or len(body) != 2:
            where.fail(pointer, f"malformed nukidora {value!r}")
        code = int(body)
        if code == TSUMOGIRI:
            if last_draw is None:
                where.fail(pointer, "nukidora of the drawn tile where the seat did not draw")
            tile = last_draw
        else:
            tile = tile_code(where, pointer, code)
        return Step(seat, False, KITA, tile, Nukidora(actor=seat, tile=tile), written=value)
    marker, at, tiles = _meld_tokens(where, pointer, value)
    if marker not in "ka" or len(tiles) != 4 or at >= 4 or not _same_kind(tiles):
        where.fail(pointer, f"call string {value!r} is not a kakan (k) or an ankan (a) of "
                            "four tiles of one kind")
    if marker == "k":
        added = tiles[at]
        pon = sorted_tiles(tuple(tiles[:at] + tiles[at + 1:]))
        return Step(seat, False, KAKAN, added, Kakan(actor=seat, tile=added, consumed=pon),
                    written=value)
    return Step(seat, False, ANKAN, tiles[at],
                Ankan(actor=seat, consumed=sorted_tiles(tuple(tiles))), written=value)


@dataclass(slots=True, init=False, eq=False)
class Script:
    """One seat's steps in its own order, and where each was read."""

    steps: Final[list[Step]]
    takes: Final[str]
    """The pointer format of the seat's takes (``/log/3/5/{}``)."""
    discards: Final[str]
    """The pointer format of its discards (``/log/3/6/{}``)."""
    skipped: Final[tuple[int, ...]]
    """The indices of the placeholders (0 after an open kan) in the discards, which
    are no step."""
    discard_order: Final[tuple[int, ...] | None]
    """The discards' indices in the order they are read; ``None`` for 0, 1, 2, ... (no
    placeholder skipped).  The takes are always read in order."""
    calls: Final[int]
    """The calls among the steps (the takes with a target)."""

    def __init__(self, steps: list[Step], takes: str, discards: str,
                 skipped: tuple[int, ...], calls: int) -> None:
        self.steps = steps
        self.calls = calls
        self.takes = takes
        self.discards = discards
        self.skipped = skipped
        n = sum(1 for st in steps if not st.take) if skipped else 0
        self.discard_order = tuple([self._discard_index(k) for k in range(n)]) \
            if skipped else None

    def _discard_index(self, k: int) -> int:
        """The index in the discards array of the seat's ``k``-th discard step."""
        index = k
        for placeholder in self.skipped:  # ascending
            if placeholder > index:
                break
            index += 1
        return index

    def place(self, p: int) -> int:
        """The index of step ``p`` in its array (takes or discards)."""
        take = self.steps[p].take
        k = sum(1 for st in self.steps[:p] if st.take == take)
        return k if take else self._discard_index(k)

    def pointer(self, p: int) -> str:
        """The JSON pointer step ``p`` was read at."""
        return (self.takes if self.steps[p].take else self.discards).format(self.place(p))


def track(seat: int, take: bool) -> int:
    """The track (``SourceTracks``) of seat ``seat``'s takes or discards: ``2 seat`` and
    ``2 seat + 1``, as :func:`script_tracks` lists them."""
    return 2 * seat + (0 if take else 1)


NEXT_OF_TRACK: Final = tuple([bytes([TAKE_NEXT + t]) for t in range(8)])
"""The order code (one byte) of the next element of each track."""


def script_tracks(at: KyokuPointers, scripts: list[Script]
                  ) -> tuple[tuple[str, ...], tuple[tuple[int, ...] | None, ...]]:
    """The pointer formats and element orders of every seat's two tracks (``at``: the
    kyoku's pointers, which hold the formats)."""
    formats = at.tracks if len(scripts) == 4 else at.sanma_tracks
    if all(s.discard_order is None for s in scripts):
        return formats, _IN_ORDER[len(scripts)]
    return formats, tuple([e for s in scripts for e in (None, s.discard_order)])


_IN_ORDER: Final = {n: (None,) * (2 * n) for n in (3, 4)}
"""The element orders of ``n`` seats' tracks, all read in order."""




def _by_code(make: Callable[[Seat, int, Tile], Step]) -> tuple[list[Step | None], ...]:
    """Per seat, the step ``make`` gives for each tile code (``None`` for no tile)."""
    return tuple([make(Seat(seat), code, BY_TENHOU6[code]) if code in BY_TENHOU6 else None
                  for code in range(CODES)] for seat in range(4))


DRAW_STEPS: Final = _by_code(
    lambda seat, code, tile: Step(seat, True, DRAW, tile, Tsumo(actor=seat, tile=tile),
                                  written=code))
"""Per seat and tile code, the shared step of drawing that tile."""
DISCARD_STEPS: Final = _by_code(
    lambda seat, code, tile: Step(seat, False, DAHAI, tile,
                                  Dahai(actor=seat, tile=tile, tsumogiri=False), written=code))
"""Per seat and tile code, the shared step of discarding that tile from the hand."""
TSUMOGIRI_STEPS: Final = _by_code(
    lambda seat, code, tile: Step(seat, False, DAHAI, tile,
                                  Dahai(actor=seat, tile=tile, tsumogiri=True),
                                  written=TSUMOGIRI))
"""Per seat and the drawn tile's code, the shared step of discarding it (60)."""


_WRITTEN_KEPT: Final = 4096
"""Call strings and riichi discards whose step is kept (a game repeats few of them)."""
_WRITTEN_LENGTH: Final = 9
"""The longest of them (``m12121212``); a longer text is not kept, it is an error."""
_NOWHERE: Final = Where("")


_TAKES: Final[dict[int, dict[str, Step]]] = {}
"""The kept takes of each seat and player count (key ``seat + 4 players``), by call
string (a string key: its hash is kept, a tuple's is not)."""
_DISCARDS: Final[dict[tuple[str, int, Tile | None], Step]] = {}


def _kept_take(value: object, seat: Seat, players: int) -> Step | None:
    """The step of a take the tables do not hold (a well-formed call string), read
    once and then shared (its event has no position); ``None`` when the careful
    reading (which says what is wrong, and where) must read it."""
    if not _keepable(value):
        return None
    kept = _TAKES.get(seat + 4 * players)
    if kept is None:
        kept = _TAKES[seat + 4 * players] = {}
    step = kept.get(value)
    if step is not None:
        return step
    try:
        return _kept(kept, value, read_take(_NOWHERE, "", value, seat, players))
    except LogFormatError:
        return None


def _kept_discard(value: object, seat: Seat, last_draw: Tile | None) -> Step | None:
    """:func:`_kept_take` for a riichi discard, a nukidora, a kakan or an ankan
    (``last_draw``: the tile just drawn, if any)."""
    if not _keepable(value):
        return None
    key = (value, seat, last_draw)
    step = _DISCARDS.get(key)
    if step is not None:
        return step
    try:
        return _kept(_DISCARDS, key, read_discard(_NOWHERE, "", value, seat, last_draw))
    except LogFormatError:
        return None


def _kept(table: dict[Any, Step], key: object, step: Step) -> Step:
    """``step``, kept in ``table`` under ``key`` (emptied first when it is full)."""
    if len(table) >= _WRITTEN_KEPT:
        table.clear()
    table[key] = step
    return step


def _keepable(value: object) -> TypeGuard[str]:
    return type(value) is str and len(value) <= _WRITTEN_LENGTH


def read_script(where: Where, at: KyokuPointers, takes_v: object, discards_v: object, *,
                seat: Seat, players: int) -> Script:
    """Seat ``seat``'s steps in its own order; ``at``: the kyoku's pointers."""
    tp, dp = at.items[5 + 3 * seat], at.items[6 + 3 * seat]
    takes = as_list(where, tp, takes_v, "takes")
    discards = as_list(where, dp, discards_v, "discards")
    draws = DRAW_STEPS[seat]
    plain = DISCARD_STEPS[seat]
    tsumogiri = TSUMOGIRI_STEPS[seat]
    steps: list[Step] = []
    n_takes = len(takes)
    n_discards = len(discards)
    calls = 0
    skipped: list[int] = []
    di = 0
    ti = 0
    while ti < n_takes:
        value = takes[ti]
        take = draws[value] if type(value) is int and 0 <= value < CODES else None
        if take is None:
            take = _kept_take(value, seat, players) \
                or read_take(where, f"{tp}/{ti}", value, seat, players)
            if take.target >= 0:  # (the drawn tiles' steps above have none)
                calls += 1
        steps.append(take)
        ti += 1
        if take.op == OP_KAN:
            if di < n_discards and is_int(discards[di]) and discards[di] == PLACEHOLDER:
                skipped.append(di)
                di += 1
            continue  # the replacement draw is the next take
        if di >= n_discards:
            if ti < n_takes:
                where.fail(f"{tp}/{ti}", "takes go on after the seat's last discard")
            break
        value = discards[di]
        discard: Step | None = None
        if type(value) is int and 0 <= value < CODES:
            discard = plain[value]
        elif type(value) is int and value == TSUMOGIRI and take.kind == DRAW:
            discard = tsumogiri[take.tile.tenhou6]
        if discard is None:
            last_draw = take.tile if take.kind == DRAW else None
            discard = _kept_discard(value, seat, last_draw) \
                or read_discard(where, f"{dp}/{di}", value, seat, last_draw)
        steps.append(discard)
        di += 1
    if di < n_discards:
        where.fail(f"{dp}/{di}", "a discard without a take before it")
    return Script(steps, at.tracks[2 * seat], at.tracks[2 * seat + 1], tuple(skipped), calls)
