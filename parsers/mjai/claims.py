"""The claims of mjai ``hora`` and ``ryukyoku`` lines, read and written symmetrically.

The writer encodes a claim with the standard fields, reads it back with the same
functions the reader uses, and puts any field that would not come back equal
into the ``kansa`` extension object, which the reader applies last.
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Final

from kansa.parsers.errors import LogFormatError
from kansa.parsers.fields import Fields, check_int, short, tile_or_fail
from kansa.parsers.mjai.fast import quick_hand
from kansa.parsers.mjai.names import (
    DRAGON_NAMES,
    DRAGON_YAKU,
    REASON_BY_NAME,
    ROUND_WIND_NAMES,
    ROUND_WIND_YAKU,
    SEAT_WIND_NAMES,
    SEAT_WIND_YAKU,
    VALUE_TILE_NAMES,
    WRITE_NAME,
    WRITE_REASON,
    YAKU_BY_NAME,
    YAKUMAN_FAN,
)
from kansa.replay.events import DrawReason, SourceRef
from kansa.replay.tiles import DRAGONS, Seat, Tile
from kansa.replay.yaku import Limit, Yaku

EXT = "kansa"
"""The extension object for what mjai has no field for."""

Note = Callable[[str, SourceRef], None]


# The context and the claims declare Final fields set by a written __init__: compiled,
# a dataclass's generated __init__ runs interpreted and sets each field of a frozen one
# generically.

@dataclass(slots=True, init=False)
class WinContext:
    """What a ``hora`` line's names need from the rest of the log."""

    players: Final[int]
    seat_wind: Final[Tile]
    round_wind: Final[Tile]
    meld_tiles: Final[tuple[Tile, ...]]
    """The winner's called and kan tiles (to tell which dragon ``sangenpai`` means)."""

    def __init__(self, *, players: int, seat_wind: Tile, round_wind: Tile,
                 meld_tiles: tuple[Tile, ...] = ()) -> None:
        self.players = players
        self.seat_wind = seat_wind
        self.round_wind = round_wind
        self.meld_tiles = meld_tiles


@dataclass(slots=True, kw_only=True, init=False)
class HoraClaims:
    tile: Final[Tile | None]
    deltas: Final[tuple[int, ...] | None]
    hand: Final[tuple[Tile, ...] | None]
    yaku: Final[tuple[tuple[Yaku, int], ...] | None]
    fu: Final[int | None]
    han: Final[int | None]
    points: Final[int | None]
    limit: Final[Limit | None]
    dora_markers: Final[tuple[Tile, ...] | None]
    ura_markers: Final[tuple[Tile, ...] | None]
    pao: Final[Seat | None]
    honba: Final[int | None]
    kyotaku: Final[int | None]

    def __init__(self, *, tile: Tile | None = None, deltas: tuple[int, ...] | None = None,
                 hand: tuple[Tile, ...] | None = None,
                 yaku: tuple[tuple[Yaku, int], ...] | None = None, fu: int | None = None,
                 han: int | None = None, points: int | None = None,
                 limit: Limit | None = None, dora_markers: tuple[Tile, ...] | None = None,
                 ura_markers: tuple[Tile, ...] | None = None, pao: Seat | None = None,
                 honba: int | None = None, kyotaku: int | None = None) -> None:
        self.tile = tile
        self.deltas = deltas
        self.hand = hand
        self.yaku = yaku
        self.fu = fu
        self.han = han
        self.points = points
        self.limit = limit
        self.dora_markers = dora_markers
        self.ura_markers = ura_markers
        self.pao = pao
        self.honba = honba
        self.kyotaku = kyotaku


HORA_FIELDS: Final = tuple(field.name for field in dataclasses.fields(HoraClaims))


@dataclass(slots=True, kw_only=True, init=False)
class DrawClaims:
    reason: Final[DrawReason]
    deltas: Final[tuple[int, ...] | None]
    tenpai: Final[tuple[bool, ...] | None]
    hands: Final[tuple[tuple[Tile, ...] | None, ...] | None]
    actor: Final[Seat | None]

    def __init__(self, *, reason: DrawReason, deltas: tuple[int, ...] | None = None,
                 tenpai: tuple[bool, ...] | None = None,
                 hands: tuple[tuple[Tile, ...] | None, ...] | None = None,
                 actor: Seat | None = None) -> None:
        self.reason = reason
        self.deltas = deltas
        self.tenpai = tenpai
        self.hands = hands
        self.actor = actor


DRAW_FIELDS: Final = tuple(field.name for field in dataclasses.fields(DrawClaims))


# -- reading ---------------------------------------------------------------------

def _tiles(f: Fields, key: str) -> tuple[Tile | None, ...]:
    items = f.array(key)
    quick = quick_hand(items)
    if quick is not None:
        return quick
    return tuple(Tile.from_mjai(t) if t == "?" else tile_or_fail(Tile.from_mjai, t,
                 f.at(key), key) for t in items)


def _known(f: Fields, key: str) -> tuple[Tile, ...]:
    tiles = _tiles(f, key)
    if any(t is None for t in tiles):
        f.fail(key, f"{key!r} has a hidden tile '?'")
    return tuple(t for t in tiles if t is not None)


def _seat(f: Fields, key: str, players: int) -> Seat | None:
    value = f.opt_int(key, 0, players - 1)
    return None if value is None else Seat(value)


def read_hora(f: Fields, ctx: WinContext, note: Note) -> HoraClaims:
    """The claims of one ``hora`` line (Mortal fields plus gimite's extras)."""
    n = ctx.players
    pai = f.get("pai")
    tile = None if pai is None or pai == "?" else tile_or_fail(Tile.from_mjai, pai,
                                                                f.at("pai"), "'pai'")
    ura_key = "ura_markers" if f.get("ura_markers") is not None else "uradora_markers"
    hand = _hand(f, tile, note)
    yaku = _yakus(f, ctx, hand, note) if f.has("yakus") else None
    fan = f.opt_int("fan", 0)
    if fan is not None and fan >= YAKUMAN_FAN and fan % YAKUMAN_FAN == 0:
        fan = fan // YAKUMAN_FAN * 13
    claims = HoraClaims(
        tile=tile,
        deltas=f.ints("deltas", n) if f.has("deltas") else None,
        hand=hand, yaku=yaku, fu=f.opt_int("fu", 0), han=fan,
        points=f.opt_int("hora_points", 0),
        ura_markers=_known(f, ura_key) if f.has(ura_key) else None,
        pao=_seat(f, "pao", n),
    )
    changes = _ext_changes(f, HORA_FIELDS, n)
    return _hora_with(claims, changes) if changes else claims


def _hand(f: Fields, tile: Tile | None, note: Note) -> tuple[Tile, ...] | None:
    """``hora_tehais`` as the hand including the winning tile.

    gimite's server writes the hand as held (a ron tile not yet in it); its Tenhou
    converter drops the winning tile even on tsumo.  The size tells which.
    """
    if not f.has("hora_tehais"):
        return None
    tiles = _tiles(f, "hora_tehais")
    if any(t is None for t in tiles):
        note("hora_tehais has hidden tiles; the hand is not read", f.at("hora_tehais"))
        return None
    hand = tuple(t for t in tiles if t is not None)
    if len(hand) % 3 == 1 and tile is not None:
        return (*hand, tile)
    if len(hand) % 3 != 2:
        note(f"hora_tehais has {len(hand)} tiles, not a winning hand's size",
             f.at("hora_tehais"))
    return hand


def _yakus(f: Fields, ctx: WinContext, hand: tuple[Tile, ...] | None,
           note: Note) -> tuple[tuple[Yaku, int], ...]:
    out: list[tuple[Yaku, int]] = []
    src = f.at("yakus")
    held: Counter[int] | None = None  # counted for the first value-tile entry
    for item in f.array("yakus"):
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], str)):
            raise LogFormatError(f"'yakus' entries should be [name, fan], not {short(item)}",
                                 src)
        name = item[0].lower()
        fan = item[1] if type(item[1]) is int else check_int(item[1], src, f"fan of {item[0]}")
        if name in YAKU_BY_NAME:
            yaku = YAKU_BY_NAME[name]  # (is_yakuman, an enum's property, is looked up last)
            if fan >= YAKUMAN_FAN and fan % YAKUMAN_FAN == 0 and yaku.is_yakuman:
                fan = fan // YAKUMAN_FAN * 13
            out.append((yaku, fan))
        elif name in SEAT_WIND_NAMES:
            out.append((SEAT_WIND_YAKU[ctx.seat_wind.index - 27], fan))
        elif name in ROUND_WIND_NAMES:
            out.append((ROUND_WIND_YAKU[ctx.round_wind.index - 27], fan))
        elif name in DRAGON_NAMES or name in VALUE_TILE_NAMES:
            if held is None:
                held = Counter(t.index for t in (*(hand or ()), *ctx.meld_tiles))
            out.extend(_value_tiles(name, fan, held, ctx, src=src, note=note))
        else:
            note(f"unknown yaku name {item[0]!r} ({fan} han) left out", src)
    return tuple(out)


def _value_tiles(name: str, fan: int, held: Counter[int], ctx: WinContext, *,
                 src: SourceRef, note: Note) -> list[tuple[Yaku, int]]:
    """Split a ``sangenpai`` (dragons) or ``fanpai`` (any value tile) entry by the hand."""
    found: list[Yaku] = [y for d, y in zip(DRAGONS, DRAGON_YAKU, strict=True)
                         if held[d.index] >= 3]
    if name in VALUE_TILE_NAMES:
        if held[ctx.seat_wind.index] >= 3:
            found.append(SEAT_WIND_YAKU[ctx.seat_wind.index - 27])
        if held[ctx.round_wind.index] >= 3:
            found.append(ROUND_WIND_YAKU[ctx.round_wind.index - 27])
    if len(found) != fan:
        note(f"{name} {fan} does not match the value-tile pungs the hand shows "
             f"({len(found)}); read as {fan} dragon pung(s)", src)
        found = [*found, *(y for y in DRAGON_YAKU if y not in found)][:max(fan, 0)]
    return [(y, 1) for y in found]


def read_ryukyoku(f: Fields, players: int, note: Note) -> DrawClaims:
    name = f.get("reason")
    if name is None:
        reason = DrawReason.EXHAUSTIVE
        note("ryukyoku without a reason; read as an exhaustive draw", f.src)
    else:
        if not isinstance(name, str) or name.lower() not in REASON_BY_NAME:
            f.fail("reason", f"unknown draw reason {short(name)} (known: "
                             f"{', '.join(WRITE_REASON.values())})")
        reason = REASON_BY_NAME[name.lower()]
    tenpai = None
    if f.has("tenpais"):
        flags = f.array("tenpais")
        if len(flags) != players or not all(isinstance(b, bool) for b in flags):
            f.fail("tenpais", f"'tenpais' should be {players} booleans")
        tenpai = tuple(flags)
    hands = None
    if f.has("tehais"):
        rows = f.array("tehais")
        if len(rows) != players:
            f.fail("tehais", f"'tehais' should have {players} hands, not {len(rows)}")
        hands = tuple(_shown(Fields({"h": r}, f.at("tehais")), note) for r in rows)
    claims = DrawClaims(
        reason=reason,
        deltas=f.ints("deltas", players) if f.has("deltas") else None,
        tenpai=tenpai, hands=hands, actor=_seat(f, "actor", players))
    changes = _ext_changes(f, DRAW_FIELDS, players)
    return _draw_with(claims, changes) if changes else claims


def _shown(f: Fields, note: Note) -> tuple[Tile, ...] | None:
    tiles = _tiles(f, "h")
    if all(t is None for t in tiles):
        return None  # not shown (noten), written as '?' tiles
    if any(t is None for t in tiles):
        note("a shown hand mixes hidden and known tiles; read as not shown", f.src)
        return None
    return tuple(t for t in tiles if t is not None)


# -- the extension object --------------------------------------------------------

def _ext_changes(f: Fields, fields: Iterable[str], players: int) -> dict[str, Any]:
    """The values of ``fields`` the line's extension object claims, decoded."""
    ext = f.get(EXT)
    if ext is None:
        return {}
    e = Fields(ext, f.at(EXT), "an object")
    return {k: _decode(e, k, players) for k in fields if k in e.obj}


def _hora_with(c: HoraClaims, changes: dict[str, Any]) -> HoraClaims:
    """``c`` with the extension's ``changes`` (built directly: a call with ``**`` to a
    compiled class costs ten times as much)."""
    get = changes.get
    return HoraClaims(
        tile=get("tile", c.tile), deltas=get("deltas", c.deltas), hand=get("hand", c.hand),
        yaku=get("yaku", c.yaku), fu=get("fu", c.fu), han=get("han", c.han),
        points=get("points", c.points), limit=get("limit", c.limit),
        dora_markers=get("dora_markers", c.dora_markers),
        ura_markers=get("ura_markers", c.ura_markers), pao=get("pao", c.pao),
        honba=get("honba", c.honba), kyotaku=get("kyotaku", c.kyotaku))


def _draw_with(c: DrawClaims, changes: dict[str, Any]) -> DrawClaims:
    """``c`` with the extension's ``changes``."""
    get = changes.get
    return DrawClaims(
        reason=get("reason", c.reason), deltas=get("deltas", c.deltas),
        tenpai=get("tenpai", c.tenpai), hands=get("hands", c.hands),
        actor=get("actor", c.actor))


def _decode(e: Fields, key: str, players: int) -> Any:
    value = e.obj[key]
    if value is None:
        return None
    if key in ("hand", "dora_markers", "ura_markers"):
        return _known(e, key)
    if key == "tile":
        return tile_or_fail(Tile.from_mjai, value, e.at(key), key)
    if key == "yaku":
        entries: list[tuple[Yaku, int]] = []
        for v in e.array(key):
            yaku = _yaku_name(e, v)
            han = v[1]  # a list of two (_yaku_name checks it)
            entries.append((yaku, han if type(han) is int else check_int(han, e.at(key), key)))
        return tuple(entries)
    if key == "limit":
        limit = _LIMITS.get(value) if type(value) is str else None
        if limit is None:
            e.fail(key, f"unknown limit {short(value)}")
        return limit
    if key == "reason":
        reason = _REASONS.get(value) if type(value) is str else None
        if reason is None:
            e.fail(key, f"unknown draw reason {short(value)}")
        return reason
    if key == "deltas":
        return e.ints(key, players)
    if key == "tenpai":
        flags = e.array(key)
        if not all(isinstance(b, bool) for b in flags):
            e.fail(key, "'tenpai' should be booleans")
        return tuple(flags)
    if key == "hands":
        return tuple(None if h is None else _known(Fields({"h": h}, e.at(key)), "h")
                     for h in e.array(key))
    if key in ("pao", "actor"):
        return Seat(e.integer(key, 0, players - 1))
    return e.integer(key)


_YAKUS: Final[dict[str, Yaku]] = dict(Yaku.__members__)
_LIMITS: Final[dict[str, Limit]] = dict(Limit.__members__)
_REASONS: Final[dict[str, DrawReason]] = dict(DrawReason.__members__)
"""The members by name (``Enum.__members__`` builds a mapping proxy at each use and
``Enum[name]`` runs interpreted)."""


def _yaku_name(e: Fields, item: Any) -> Yaku:
    yaku = _YAKUS.get(item[0]) if isinstance(item, list) and len(item) == 2 \
        and type(item[0]) is str else None
    if yaku is None:
        e.fail("yaku", f"kansa yaku entries should be [MEMBER, han], not {short(item)}")
    return yaku


def _encode(key: str, value: Any) -> Any:
    if value is None:
        return None
    if key in ("hand", "dora_markers", "ura_markers"):
        return [t.mjai for t in value]
    if key == "tile":
        return value.mjai
    if key == "yaku":
        return [[y.name, h] for y, h in value]
    if key in ("limit", "reason"):
        return value.name
    if key == "hands":
        return [None if h is None else [t.mjai for t in h] for h in value]
    if isinstance(value, tuple):
        return list(value)
    return int(value)


# -- writing ---------------------------------------------------------------------

def write_hora(claims: HoraClaims, ctx: WinContext, is_tsumo: bool) -> dict[str, Any]:
    """The claim fields of a ``hora`` line (``actor``/``target`` are the caller's)."""
    out: dict[str, Any] = {}
    c = claims
    if c.tile is not None:
        out["pai"] = c.tile.mjai
    if c.deltas is not None:
        out["deltas"] = list(c.deltas)
    if c.ura_markers is not None:
        out["ura_markers"] = [t.mjai for t in c.ura_markers]
    if c.hand is not None:
        held = list(c.hand)
        if not is_tsumo and c.tile in held and len(held) % 3 == 2:
            held.reverse()
            held.remove(c.tile)  # gimite: the hand as held before the ron tile
            held.reverse()
        out["hora_tehais"] = [t.mjai for t in held]
    if c.yaku is not None:
        out["yakus"] = [[_write_yaku_name(y, ctx), _to_fan(y.is_yakuman, h)] for y, h in c.yaku]
    if c.fu is not None:
        out["fu"] = c.fu
    if c.han is not None:
        yakuman = c.yaku is not None and any(y.is_yakuman for y, _ in c.yaku)
        out["fan"] = _to_fan(yakuman, c.han)
    if c.points is not None:
        out["hora_points"] = c.points
    if c.pao is not None:
        out["pao"] = int(c.pao)
    back = read_hora(Fields(out, SourceRef("<write>")), ctx, _ignore)
    _add_ext(out, claims, back, HORA_FIELDS)
    return out


def _write_yaku_name(yaku: Yaku, ctx: WinContext) -> str:
    if yaku is SEAT_WIND_YAKU[ctx.seat_wind.index - 27]:
        return "jikaze"
    if yaku is ROUND_WIND_YAKU[ctx.round_wind.index - 27]:
        return "bakaze"
    return WRITE_NAME[yaku]


def _to_fan(yakuman: bool, han: int) -> int:
    return han // 13 * YAKUMAN_FAN if yakuman and han > 0 and han % 13 == 0 else han


def write_ryukyoku(claims: DrawClaims, players: int,
                   hidden_sizes: tuple[int, ...]) -> dict[str, Any]:
    """The fields of a ``ryukyoku`` line; a hand not shown is written as ``?`` tiles."""
    c = claims
    out: dict[str, Any] = {"reason": WRITE_REASON[c.reason]}
    if c.deltas is not None:
        out["deltas"] = list(c.deltas)
    if c.tenpai is not None:
        out["tenpais"] = list(c.tenpai)
    if c.hands is not None:
        out["tehais"] = [["?"] * hidden_sizes[i] if h is None else [t.mjai for t in h]
                         for i, h in enumerate(c.hands)]
    if c.actor is not None:
        out["actor"] = int(c.actor)
    back = read_ryukyoku(Fields(out, SourceRef("<write>")), players, _ignore)
    _add_ext(out, claims, back, DRAW_FIELDS)
    return out


def _add_ext(out: dict[str, Any], want: Any, got: Any, fields: Iterable[str]) -> None:
    ext = {k: _encode(k, getattr(want, k)) for k in fields
           if _canon(k, getattr(want, k)) != _canon(k, getattr(got, k))}
    if ext:
        out[EXT] = ext


def _canon(key: str, value: Any) -> Any:
    """A claim as :func:`kansa.parsers.canonical.canonical` leaves it (shown hands sorted)."""
    if value is None:
        return None
    if key == "hand":
        return sorted(value)
    if key == "hands":
        return [None if h is None else sorted(h) for h in value]
    return value


def _ignore(message: str, src: SourceRef) -> None:
    """A note sink for the writer's read-back."""
