"""One seat's takes and discards (tenhou.net/6 B.4) read into a script of steps.

Each seat's own actions come in a fixed order whatever the others do, so a
seat's script (take, discard, take, discard, ...) and its events are built
here once; :mod:`kansa.parsers.tenhou6.order` only decides how the four scripts
interleave.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final, cast

from kansa.parsers.tenhou6.jsontext import Where, as_list, is_int, show
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
    SourceRef,
    Tsumo,
)
from kansa.replay.tiles import BY_TENHOU6, Seat, Tile

TSUMOGIRI: Final = 60
PLACEHOLDER: Final = 0

DRAW: Final = "draw"
CHI: Final = "chi"
PON: Final = "pon"
KAN: Final = "daiminkan"
DAHAI: Final = "dahai"
KAKAN: Final = "kakan"
ANKAN: Final = "ankan"
KITA: Final = "kita"
CALLS: Final = (CHI, PON, KAN)

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
    (:mod:`kansa.replay.events`): one is made per take and per discard."""

    take: Final[bool]
    kind: Final[str]
    tile: Final[Tile]
    """Drawn, called, discarded, added (kakan), kanned (ankan) or extracted tile."""
    event: Final[Event]
    src: Final[SourceRef]
    written: Final[object]
    """The take or discard as the log writes it: a tile code or a call string."""
    target: Final[int | None]
    reach: Final[Reach | None]
    """The declaration that precedes a riichi discard."""

    def __init__(self, take: bool, kind: str, tile: Tile, event: Event, src: SourceRef, *,
                 written: object, target: int | None = None, reach: Reach | None = None
                 ) -> None:
        self.take = take
        self.kind = kind
        self.tile = tile
        self.event = event
        self.src = src
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
    tiles = tuple([BY_TENHOU6.get(v) if type(v) is int else None for v in values])
    if None not in tiles:
        return cast(tuple[Tile, ...], tiles)
    return tuple(tile_code(where, f"{pointer}/{i}", v) for i, v in enumerate(values))


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
    src = where.ref(pointer)
    if is_int(value):
        tile = tile_code(where, pointer, value)
        return Step(True, DRAW, tile, Tsumo(actor=seat, tile=tile, src=src), src, written=value)
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
    consumed = tuple(tiles[:at] + tiles[at + 1:])
    shape_ok = _is_run(tiles) if marker == "c" else _same_kind(tiles)
    if not shape_ok:
        where.fail(pointer, f"call string {value!r} is not a valid {_NAMES[marker]}")
    ev: Event
    if marker == "c":
        kind = CHI
        ev = Chi(actor=seat, target=Seat(target), tile=called, consumed=consumed, src=src)
    elif marker == "p":
        kind = PON
        ev = Pon(actor=seat, target=Seat(target), tile=called, consumed=consumed, src=src)
    else:
        kind = KAN
        ev = Daiminkan(actor=seat, target=Seat(target), tile=called, consumed=consumed, src=src)
    return Step(True, kind, called, ev, src, written=value, target=target)


def read_discard(where: Where, pointer: str, value: object, seat: Seat,
                 last_draw: Tile | None) -> Step:
    src = where.ref(pointer)
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
        reach = Reach(actor=seat, src=src) if riichi else None
        ev = Dahai(actor=seat, tile=tile, tsumogiri=tsumogiri, src=src)
        return Step(False, DAHAI, tile, ev, src, written=value, reach=reach)
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
        return Step(False, KITA, tile, Nukidora(actor=seat, tile=tile, src=src), src,
                    written=value)
    marker, at, tiles = _meld_tokens(where, pointer, value)
    if marker not in "ka" or len(tiles) != 4 or at >= 4 or not _same_kind(tiles):
        where.fail(pointer, f"call string {value!r} is not a kakan (k) or an ankan (a) of "
                            "four tiles of one kind")
    if marker == "k":
        added = tiles[at]
        pon = tuple(tiles[:at] + tiles[at + 1:])
        return Step(False, KAKAN, added, Kakan(actor=seat, tile=added, consumed=pon, src=src),
                    src, written=value)
    return Step(False, ANKAN, tiles[at], Ankan(actor=seat, consumed=tuple(tiles), src=src), src,
                written=value)


def read_script(where: Where, base: str, takes_v: object, discards_v: object, *, seat: Seat,
                players: int) -> list[Step]:
    """Seat ``seat``'s steps in its own order; ``base`` is the kyoku's pointer."""
    tp, dp = f"{base}/{5 + 3 * seat}", f"{base}/{6 + 3 * seat}"
    takes = as_list(where, tp, takes_v, "takes")
    discards = as_list(where, dp, discards_v, "discards")
    script: list[Step] = []
    di = 0
    ti = 0
    while ti < len(takes):
        take = read_take(where, f"{tp}/{ti}", takes[ti], seat, players)
        script.append(take)
        ti += 1
        if take.kind == KAN:
            if di < len(discards) and is_int(discards[di]) and discards[di] == PLACEHOLDER:
                di += 1
            continue  # the replacement draw is the next take
        if di >= len(discards):
            if ti < len(takes):
                where.fail(f"{tp}/{ti}", "takes go on after the seat's last discard")
            break
        last_draw = take.tile if take.kind == DRAW else None
        script.append(read_discard(where, f"{dp}/{di}", discards[di], seat, last_draw))
        di += 1
    if di < len(discards):
        where.fail(f"{dp}/{di}", "a discard without a take before it")
    return script
