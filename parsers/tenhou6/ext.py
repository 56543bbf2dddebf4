"""The ``kansa`` extension of a tenhou.net/6 object: what the format cannot hold.

kansa's writer keeps every standard key exactly as the tenhou.net/6 viewer
expects it and puts nothing of its own inside ``log``; a claim the standard
keys cannot carry, or would read back differently, goes into one top-level
object that viewers ignore::

    "kansa": {
      "version": 1,
      "kyoku": [                        # one entry per "log" kyoku (may stop early)
        {
          "hora": [{FIELD: VALUE}, ...],           # the n-th win of the hand
          "ryukyoku": {FIELD: VALUE},              # the draw
          "reach_accepted": [{"scores": [..]}, ...],  # the n-th accepted riichi
          "early_dora": [N, ...],                  # open kans (0-based, daiminkan and
                                                   # kakan in play order) whose indicator
                                                   # the log reveals right after the call
          "tail": [EVENT, ...],                    # an interrupted hand only (result
                                                   # ["中断"]): events after its last
                                                   # take or discard
          "end_kyoku": false                       # the log stops right after the result
        },
        ...
      ],
      "end_game": null | {"scores": [..] | null, "points": [..] | null},
      "players": [{"name": "", "rank": null, "rating": null, "sex": null}, ...],
      "hints": {FIELD: VALUE},          # RuleHints fields other than players
      "title": "..." | null,
      "log_id": "..." | null
    }

Every key is optional; a present key replaces what the standard keys say
(``null`` included: ``"end_game": null`` means the log has no end of game,
``{"tile": null}`` a win whose winning tile the log does not name).  Values:
tiles as tenhou.net/6 codes (11-47, 51-53), yaku as ``[Yaku member name, han]``,
``limit`` and ``reason`` as :class:`~kansa.replay.yaku.Limit` /
:class:`~kansa.replay.events.DrawReason` member names, seats 0-3, and the other fields
as the :mod:`kansa.replay.events` dataclasses hold them.  The ``FIELD`` names are
those dataclasses' fields: for a win ``tile, deltas, hand, yaku, fu, han,
points, limit, dora_markers, ura_markers, pao, honba, kyotaku``; for a draw
``reason, deltas, tenpai, hands, actor``.  A tail ``EVENT`` is
``{"type": "reach", "actor": 1}``, ``{"type": "reach_accepted", "actor": 1,
"scores": [...]}`` or ``{"type": "dora", "dora_marker": 25}``.

The standard keys read an open kan's new indicator as revealed after the
replacement draw, before the discard (Tenhou's timing); an ``early_dora`` kan
has its Dora event moved to right after the call instead.  The n-th Dora event
of a hand is the n-th kan's (every kan counted, closed ones included).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, NoReturn, TypeVar

from kansa.parsers.tenhou6.items import known_codes, tile_code, tile_codes
from kansa.parsers.tenhou6.jsontext import Where, as_int, as_list, is_int, show
from kansa.replay.events import (
    Ankan,
    Daiminkan,
    Dora,
    DrawReason,
    EndGame,
    Event,
    Hora,
    Kakan,
    Reach,
    ReachAccepted,
    Ryukyoku,
)
from kansa.replay.game import Player, RuleHints
from kansa.replay.tiles import Seat, Tile
from kansa.replay.yaku import Limit, Yaku

EXT = "kansa"
VERSION = 1
_E = TypeVar("_E", Yaku, Limit, DrawReason)

HORA_FIELDS = ("tile", "deltas", "hand", "yaku", "fu", "han", "points", "limit",
               "dora_markers", "ura_markers", "pao", "honba", "kyotaku")
RYUKYOKU_FIELDS = ("reason", "deltas", "tenpai", "hands", "actor")
REACH_FIELDS = ("scores",)
PATCHABLE: dict[type, tuple[str, ...]] = {
    Hora: HORA_FIELDS, Ryukyoku: RYUKYOKU_FIELDS, ReachAccepted: REACH_FIELDS}
"""The claims the extension may set, per event type; the play itself is never patched."""
_HORA_KEYS = frozenset(HORA_FIELDS)
_RYUKYOKU_KEYS = frozenset(RYUKYOKU_FIELDS)
_REACH_KEYS = frozenset(REACH_FIELDS)
PATCH_KEYS: dict[type, str] = {Hora: "hora", Ryukyoku: "ryukyoku",
                               ReachAccepted: "reach_accepted"}
HINT_FIELDS = ("aka", "kuitan", "hanchan", "platform", "lobby", "room", "raw_type",
               "start_score", "uma", "return_score")
TAIL_TYPES: dict[type, str] = {Reach: "reach", ReachAccepted: "reach_accepted", Dora: "dora"}

_TILE = frozenset({"tile", "dora_marker"})
_TILES = frozenset({"hand", "dora_markers", "ura_markers"})
_SEAT = frozenset({"pao", "actor"})
_PER_SEAT = frozenset({"deltas", "scores"})
_INT = frozenset({"fu", "han", "points", "honba", "kyotaku"})
_EXT_KEYS = frozenset({"version", "kyoku", "end_game", "players", "hints", "title", "log_id"})
_KYOKU_KEYS = frozenset({"hora", "ryukyoku", "reach_accepted", "early_dora", "tail",
                         "end_kyoku"})


# The entries are made per kyoku: fields ``Final``, set by a written ``__init__`` (as the
# events' are), which compiles to native code where a generated one does not.

@dataclass(slots=True, init=False)
class KyokuExt:
    """The extension entry of one kyoku, decoded."""

    hora: Final[tuple[dict[str, Any], ...]]
    ryukyoku: Final[dict[str, Any]]
    reach_accepted: Final[tuple[dict[str, Any], ...]]
    tail: Final[tuple[Event, ...]]
    early_dora: Final[frozenset[int]]
    """Open kans (0-based, in play order) whose indicator follows the call at once."""
    end_kyoku: Final[bool]
    """``False``: the log stops after the hand's result, before its EndKyoku."""
    pointer: Final[str]

    def __init__(self, *, hora: tuple[dict[str, Any], ...] = (),
                 ryukyoku: dict[str, Any] | None = None,
                 reach_accepted: tuple[dict[str, Any], ...] = (), tail: tuple[Event, ...] = (),
                 early_dora: frozenset[int] = frozenset(), end_kyoku: bool = True,
                 pointer: str = "") -> None:
        self.hora = hora
        self.ryukyoku = {} if ryukyoku is None else ryukyoku
        self.reach_accepted = reach_accepted
        self.tail = tail
        self.early_dora = early_dora
        self.end_kyoku = end_kyoku
        self.pointer = pointer


NO_KYOKU_EXT = KyokuExt()


@dataclass(slots=True, init=False)
class GameExt:
    """The whole extension, decoded; ``meta`` holds the keys present among
    ``end_game`` (an :class:`EndGame` or ``None``), ``players``, ``title``, ``log_id``."""

    kyoku: Final[tuple[KyokuExt, ...]]
    meta: Final[dict[str, Any]]
    hints: Final[dict[str, Any]]

    def __init__(self, *, kyoku: tuple[KyokuExt, ...] = (), meta: dict[str, Any] | None = None,
                 hints: dict[str, Any] | None = None) -> None:
        self.kyoku = kyoku
        self.meta = {} if meta is None else meta
        self.hints = {} if hints is None else hints

    def of_kyoku(self, i: int) -> KyokuExt:
        return self.kyoku[i] if i < len(self.kyoku) else NO_KYOKU_EXT


# -- writing -----------------------------------------------------------------------

def encode(key: str, value: Any) -> Any:
    """A claim field's value as the extension writes it."""
    if value is None:
        return None
    if key in _TILE:
        return value.tenhou6
    if key in _TILES:
        return [t.tenhou6 for t in value]
    if key == "hands":
        return [None if h is None else [t.tenhou6 for t in h] for h in value]
    if key == "yaku":
        return [[y.name, h] for y, h in value]
    if key in ("limit", "reason"):
        return value.name
    if isinstance(value, tuple):
        return list(value)
    return value


def patch(want: Event, got: Event) -> dict[str, Any] | None:
    """The fields that turn ``got`` (what the standard keys read as) into ``want``;
    ``None`` when the two differ in something the extension does not patch."""
    fields = PATCHABLE.get(type(want))
    if fields is None or type(got) is not type(want):
        return None
    out: dict[str, Any] = {}
    for f in dataclasses.fields(want):
        if not f.compare:
            continue
        a, b = getattr(want, f.name), getattr(got, f.name)
        if a == b:
            continue
        if f.name not in fields:
            return None
        out[f.name] = encode(f.name, a)
    return out


def encode_tail(ev: Event) -> dict[str, Any] | None:
    """An event after an interrupted hand's last take or discard; ``None`` if not one."""
    if isinstance(ev, Reach):
        return {"type": "reach", "actor": int(ev.actor)}
    if isinstance(ev, ReachAccepted):
        out: dict[str, Any] = {"type": "reach_accepted", "actor": int(ev.actor)}
        if ev.scores is not None:
            out["scores"] = list(ev.scores)
        return out
    if isinstance(ev, Dora):
        return {"type": "dora", "dora_marker": ev.dora_marker.tenhou6}
    return None


def reveal_early(events: Sequence[Event], early: frozenset[int]
                 ) -> tuple[list[Event], frozenset[int]]:
    """``events`` with the indicator of each open kan listed in ``early`` moved to
    right after the call, and the open kans that had one to move."""
    doras = [e for e in events if isinstance(e, Dora)]
    out: list[Event] = []
    moved: set[int] = set()
    done: set[int] = set()
    kan_n = open_n = dora_n = 0
    for ev in events:
        if isinstance(ev, Dora):
            if dora_n not in moved:
                out.append(ev)
            dora_n += 1
            continue
        out.append(ev)
        if not isinstance(ev, Ankan | Daiminkan | Kakan):
            continue
        if not isinstance(ev, Ankan):
            if open_n in early and dora_n <= kan_n < len(doras):
                out.append(doras[kan_n])
                moved.add(kan_n)
                done.add(open_n)
            open_n += 1
        kan_n += 1
    return out, frozenset(done)


def early_kans(events: Sequence[Event]) -> frozenset[int]:
    """The open kans (0-based, in play order) whose own indicator comes right after
    the call in ``events``."""
    kans: list[tuple[int, int | None]] = []  # (position, open kan number or None)
    doras: list[int] = []
    opens = 0
    for i, ev in enumerate(events):
        if isinstance(ev, Dora):
            doras.append(i)
        elif isinstance(ev, Ankan):
            kans.append((i, None))
        elif isinstance(ev, Daiminkan | Kakan):
            kans.append((i, opens))
            opens += 1
    return frozenset(o for (pos, o), d in zip(kans, doras, strict=False)
                     if o is not None and d == pos + 1)


def encode_end_game(ev: EndGame | None) -> dict[str, Any] | None:
    if ev is None:
        return None
    return {"scores": None if ev.scores is None else list(ev.scores),
            "points": None if ev.points is None else list(ev.points)}


def encode_player(p: Player) -> dict[str, Any]:
    return {"name": p.name, "rank": p.rank, "rating": p.rating, "sex": p.sex}


# -- reading -----------------------------------------------------------------------

def read_ext(where: Where, obj: dict[str, Any], players: int, kyokus: int) -> GameExt:
    """The document's ``kansa`` object, checked; an empty one when there is none.

    :raises LogFormatError: for an extension kansa would not have written.
    """
    value = obj.get(EXT)
    if value is None:
        return GameExt()
    r = _Reader(where, players)
    ext = r.obj(f"/{EXT}", value, "the kansa extension")
    r.only(f"/{EXT}", ext, _EXT_KEYS)
    version = ext.get("version", VERSION)
    if version != VERSION:
        where.fail(f"/{EXT}/version", f"kansa extension version {show(version)} is not "
                                      f"{VERSION}, the one this kansa reads")
    entries = as_list(where, f"/{EXT}/kyoku", ext.get("kyoku", []), "kansa kyoku entries")
    if len(entries) > kyokus:
        where.fail(f"/{EXT}/kyoku", f"{len(entries)} kansa kyoku entries for {kyokus} kyokus")
    kyoku = tuple(r.kyoku(f"/{EXT}/kyoku/{i}", v) for i, v in enumerate(entries))
    meta: dict[str, Any] = {}
    if "end_game" in ext:
        meta["end_game"] = r.end_game(f"/{EXT}/end_game", ext["end_game"])
    if "players" in ext:
        items = as_list(where, f"/{EXT}/players", ext["players"], "kansa players")
        if len(items) > 4:
            where.fail(f"/{EXT}/players", "more than four players")
        meta["players"] = tuple(r.player(f"/{EXT}/players/{i}", v)
                                for i, v in enumerate(items))
    for key in ("title", "log_id"):
        if key in ext:
            meta[key] = r.opt_text(f"/{EXT}/{key}", ext[key])
    hints = r.hints(f"/{EXT}/hints", ext.get("hints", {}))
    return GameExt(kyoku=kyoku, meta=meta, hints=hints)


class _Reader:
    """Checked decoding of extension values; every problem names its JSON pointer."""

    def __init__(self, where: Where, players: int) -> None:
        self.where = where
        self.players = players

    def fail(self, ptr: str, message: str) -> NoReturn:
        self.where.fail(ptr, message)

    def obj(self, ptr: str, value: Any, what: str) -> dict[str, Any]:
        if not isinstance(value, dict):
            self.fail(ptr, f"{what} must be an object, not {show(value)}")
        out: dict[str, Any] = value
        return out

    def only(self, ptr: str, obj: dict[str, Any], keys: set[str] | frozenset[str]) -> None:
        for k in obj:
            if k not in keys:
                self.fail(f"{ptr}/{k}", f"unknown key {k!r} in the kansa extension")

    def kyoku(self, ptr: str, value: Any) -> KyokuExt:
        o = self.obj(ptr, value, "a kansa kyoku entry")
        self.only(ptr, o, _KYOKU_KEYS)
        end_kyoku = o.get("end_kyoku", True)
        if not isinstance(end_kyoku, bool):
            self.fail(f"{ptr}/end_kyoku", f"'end_kyoku' is true or false, not "
                                          f"{show(end_kyoku)}")
        hora = self.patches(ptr, o, "hora", _HORA_KEYS, "hora patches")
        ryukyoku = self.patch(f"{ptr}/ryukyoku", o["ryukyoku"], _RYUKYOKU_KEYS) \
            if "ryukyoku" in o else {}
        reach = self.patches(ptr, o, "reach_accepted", _REACH_KEYS, "reach_accepted patches")
        tail = () if "tail" not in o else tuple(
            self.tail(f"{ptr}/tail/{i}", v)
            for i, v in enumerate(as_list(self.where, f"{ptr}/tail", o["tail"], "tail events")))
        early = self.early_dora(f"{ptr}/early_dora", o["early_dora"]) \
            if "early_dora" in o else frozenset()
        return KyokuExt(hora=hora, ryukyoku=ryukyoku, reach_accepted=reach, tail=tail,
                        early_dora=early, end_kyoku=end_kyoku, pointer=ptr)

    def early_dora(self, ptr: str, value: Any) -> frozenset[int]:
        items = [as_int(self.where, f"{ptr}/{i}", v, "an open kan number")
                 for i, v in enumerate(as_list(self.where, ptr, value, "open kan numbers"))]
        if any(n < 0 for n in items) or items != sorted(set(items)):
            self.fail(ptr, f"'early_dora' lists open kans in increasing order from 0, not "
                           f"{show(value)}")
        return frozenset(items)

    def patches(self, ptr: str, o: dict[str, Any], key: str, fields: frozenset[str],
                what: str) -> tuple[dict[str, Any], ...]:
        """The patches of the list ``o[key]`` (none where ``o`` has no ``key``)."""
        if key not in o:
            return ()
        at = f"{ptr}/{key}"
        return tuple(self.patch(f"{at}/{i}", v, fields)
                     for i, v in enumerate(as_list(self.where, at, o[key], what)))

    def patch(self, ptr: str, value: Any, fields: frozenset[str]) -> dict[str, Any]:
        o = self.obj(ptr, value, "a patch")
        self.only(ptr, o, fields)
        return {k: self.value(ptr, k, v) for k, v in o.items()}

    def tail(self, ptr: str, value: Any) -> Event:
        o = self.obj(ptr, value, "a tail event")
        kind = o.get("type")
        src = self.where.ref(ptr)
        if kind == "dora":
            self.only(ptr, o, {"type", "dora_marker"})
            return Dora(dora_marker=self.value(ptr, "dora_marker", o.get("dora_marker"),
                                               nullable=False), src=src)
        if kind in ("reach", "reach_accepted"):
            self.only(ptr, o, {"type", "actor"} | ({"scores"} if kind != "reach" else set()))
            actor = self.value(ptr, "actor", o.get("actor"), nullable=False)
            if kind == "reach":
                return Reach(actor=actor, src=src)
            return ReachAccepted(actor=actor, scores=self.value(ptr, "scores", o.get("scores")),
                                 src=src)
        self.fail(f"{ptr}/type", f"a tail event is a reach, reach_accepted or dora, "
                                       f"not {show(kind)}")

    def value(self, parent: str, key: str, value: Any, *, nullable: bool = True) -> Any:
        """The value of field ``key`` of the object at ``parent``, checked."""
        kind = type(value)
        if kind is int and key in _INT:  # the usual values, read before a pointer is made
            return value
        if kind is list and key in _TILES:
            tiles = known_codes(value)
            if tiles is not None:
                return tiles
        elif kind is list and key in _PER_SEAT and len(value) == self.players \
                and all(type(x) is int for x in value):
            return tuple(value)
        ptr = f"{parent}/{key}"
        if value is None:
            if not nullable or key == "reason":
                self.fail(ptr, f"{key!r} cannot be null")
            return None
        w = self.where
        if key in _TILE:
            return tile_code(w, ptr, value)
        if key in _TILES:
            return self.tiles(ptr, value)
        if key == "hands":
            hands = self.per_seat(ptr, value, "hands")
            return tuple(None if h is None else self.tiles(f"{ptr}/{i}", h)
                         for i, h in enumerate(hands))
        if key == "yaku":
            return tuple(self.yaku(f"{ptr}/{i}", v)
                         for i, v in enumerate(as_list(w, ptr, value, "yaku")))
        if key == "limit":
            return self.member(ptr, value, Limit)
        if key == "reason":
            return self.member(ptr, value, DrawReason)
        if key in _SEAT:
            seat = as_int(w, ptr, value, "a seat")
            if not 0 <= seat < self.players:
                self.fail(ptr, f"seat {seat} out of range")
            return Seat(seat)
        if key in _PER_SEAT:
            return tuple(as_int(w, f"{ptr}/{i}", v, key)
                         for i, v in enumerate(self.per_seat(ptr, value, key)))
        if key == "tenpai":
            flags = self.per_seat(ptr, value, key)
            if not all(isinstance(f, bool) for f in flags):
                self.fail(ptr, f"'tenpai' must be true/false per seat, not {show(value)}")
            return tuple(flags)
        assert key in _INT, key
        return as_int(w, ptr, value, key)

    def per_seat(self, ptr: str, value: Any, what: str) -> list[Any]:
        items = as_list(self.where, ptr, value, what)
        if len(items) != self.players:
            self.fail(ptr, f"{what!r} needs {self.players} entries, not {len(items)}")
        return items

    def tiles(self, ptr: str, value: Any) -> tuple[Tile, ...]:
        return tile_codes(self.where, ptr, as_list(self.where, ptr, value, "tiles"))

    def yaku(self, ptr: str, value: Any) -> tuple[Yaku, int]:
        if not (isinstance(value, list) and len(value) == 2 and isinstance(value[0], str)):
            self.fail(ptr, f"a yaku is [name, han], not {show(value)}")
        return self.member(f"{ptr}/0", value[0], Yaku), as_int(self.where, f"{ptr}/1",
                                                               value[1], "han")

    def member(self, ptr: str, value: Any, enum: type[_E]) -> _E:
        if not isinstance(value, str) or value not in enum.__members__:
            self.fail(ptr, f"unknown {enum.__name__} {show(value)}")
        member: _E = enum[value]
        return member

    def opt_text(self, ptr: str, value: Any) -> str | None:
        if value is None or isinstance(value, str):
            return value
        self.fail(ptr, f"expected a text or null, not {show(value)}")

    def number(self, ptr: str, value: Any) -> float:
        if not (is_int(value) or isinstance(value, float)) or not math.isfinite(value):
            self.fail(ptr, f"expected a number, not {show(value)}")
        return float(value)

    def end_game(self, ptr: str, value: Any) -> EndGame | None:
        if value is None:
            return None
        o = self.obj(ptr, value, "the end of the game")
        self.only(ptr, o, {"scores", "points"})
        scores = self.value(ptr, "scores", o.get("scores"))
        points_v = o.get("points")
        points = None if points_v is None else tuple(
            self.number(f"{ptr}/points/{i}", v)
            for i, v in enumerate(self.per_seat(f"{ptr}/points", points_v, "points")))
        return EndGame(scores=scores, points=points, src=self.where.ref(ptr))

    def player(self, ptr: str, value: Any) -> Player:
        o = self.obj(ptr, value, "a player")
        self.only(ptr, o, {"name", "rank", "rating", "sex"})
        name = o.get("name")
        if not isinstance(name, str):
            self.fail(f"{ptr}/name", f"a player's name is a text, not {show(name)}")
        rating = o.get("rating")
        return Player(name=name, rank=self.opt_text(f"{ptr}/rank", o.get("rank")),
                      rating=None if rating is None else self.number(f"{ptr}/rating", rating),
                      sex=self.opt_text(f"{ptr}/sex", o.get("sex")))

    def hints(self, ptr: str, value: Any) -> dict[str, Any]:
        o = self.obj(ptr, value, "the rule hints")
        self.only(ptr, o, frozenset(HINT_FIELDS))
        out: dict[str, Any] = {}
        for k, v in o.items():
            p = f"{ptr}/{k}"
            if v is None:
                out[k] = None
            elif k in ("aka", "kuitan", "hanchan"):
                if not isinstance(v, bool):
                    self.fail(p, f"{k!r} is true, false or null, not {show(v)}")
                out[k] = v
            elif k in ("platform", "lobby", "room"):
                out[k] = self.opt_text(p, v)
            elif k == "uma":
                out[k] = tuple(as_int(self.where, f"{p}/{i}", x, "uma")
                               for i, x in enumerate(as_list(self.where, p, v, "uma")))
            else:
                out[k] = as_int(self.where, p, v, k)
        return out


def encode_hints(want: RuleHints, got: RuleHints) -> dict[str, Any]:
    """The hint fields that differ, as the extension writes them."""
    out: dict[str, Any] = {}
    for k in HINT_FIELDS:
        a = getattr(want, k)
        if a != getattr(got, k):
            out[k] = list(a) if isinstance(a, tuple) else a
    return out
