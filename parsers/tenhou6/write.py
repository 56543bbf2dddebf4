"""Games -> one tenhou.net/6 JSON object (the format the tenhou.net/6 viewer opens).

Takes and discards are rebuilt per seat from the events; calls are written with
their marker where the discarder sits (B.4).  Score and yaku texts come from
the :class:`Hora` claims; what a claim does not say is left out.  A hand the
log stops in gets the result ``["中断"]``.

The writer then reads each kyoku back with the reader's own functions and
puts whatever would not come back equal (the winner's hand, the sticks each
winner took, scores after a riichi stick, shown hands, a claim the log lacks,
an open kan's indicator revealed before its replacement draw, the events after
an interrupted hand's last discard, ...) into the ``kansa``
extension (:mod:`kansa.parsers.tenhou6.ext`), so that what it writes reads back to
equal events.  A game whose play itself would read back differently raises
:class:`~kansa.parsers.errors.LogWriteError`.
"""

from __future__ import annotations

import json
from typing import Any

from kansa.parsers.canonical import canonical
from kansa.parsers.errors import LogFormatError, LogWriteError
from kansa.parsers.tenhou6.ext import (
    EXT,
    PATCH_KEYS,
    VERSION,
    early_kans,
    encode_end_game,
    encode_hints,
    encode_player,
    encode_tail,
    patch,
    reveal_early,
)
from kansa.parsers.tenhou6.items import TSUMOGIRI
from kansa.parsers.tenhou6.jsontext import Where
from kansa.parsers.tenhou6.kyoku import read_kyoku
from kansa.parsers.tenhou6.pointers import kyoku_pointers
from kansa.parsers.tenhou6.read import end_game_of, players_of, read_meta
from kansa.parsers.tenhou6.result import AGARI, INTERRUPTED, draw_text, score_text, yaku_text
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from kansa.replay.game import Game
from kansa.replay.tiles import WINDS, Tile
from kansa.replay.yaku import Limit

SEATS = 4
"""tenhou.net/6 always has four seats; a three-player game leaves the fourth empty."""

# relative seat of the discarder (1 shimocha, 2 toimen, 3 kamicha) -> marker position in tiles
_PON_AT = {3: 0, 2: 1, 1: 2}
_KAN_AT = {3: 0, 2: 1, 1: 3}


class _Unwritable(Exception):
    """What the writer cannot hold, before :func:`write_game` names the game."""

    def __init__(self, message: str, event: int | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.event = event


def _hands(game: Game) -> tuple[list[list[Event]], EndGame | None]:
    hands: list[list[Event]] = []
    end: EndGame | None = None
    for i, ev in enumerate(game.events):
        if end is not None:
            raise _Unwritable(f"a {type(ev).__name__} after the end of the game", i)
        if isinstance(ev, StartKyoku):
            hands.append([ev])
        elif isinstance(ev, EndGame):
            end = ev
        elif hands:
            hands[-1].append(ev)
        else:
            raise _Unwritable(f"a {type(ev).__name__} before the first hand", i)
    if not hands:
        raise _Unwritable("the game has no hands to write")
    return hands, end


def write_game(game: Game) -> str:
    """The game as one tenhou.net/6 JSON object.

    :raises LogWriteError: for a game the format cannot hold.
    """
    try:
        return _write_game(game)
    except _Unwritable as exc:
        event = exc.event if exc.event is not None else _hidden_at(game, exc)
        raise LogWriteError(exc.message, fmt="tenhou6", source=game.source, game=game.index,
                            event=event) from None


def _hidden_at(game: Game, exc: _Unwritable) -> int | None:
    """The first event with a hidden tile, when that is what cannot be written."""
    if exc.message != _HIDDEN:
        return None
    for i, ev in enumerate(game.events):
        if isinstance(ev, StartKyoku) and any(t is None for hand in ev.tehais for t in hand):
            return i
        if isinstance(ev, Tsumo) and ev.tile is None:
            return i
    return None


def _write_game(game: Game) -> str:
    hands, end = _hands(game)
    players = game.hints.players
    obj: dict[str, Any] = {
        "title": _title(game.title),
        "name": [p.name for p in game.players[:SEATS]] + [""] * (SEATS - len(game.players)),
        "rule": _rule(game),
        "log": [_kyoku(hand, players) for hand in hands],
    }
    if game.log_id:
        obj["ref"] = game.log_id
    obj["ratingc"] = f"PF{players}"
    if game.hints.lobby is not None and game.hints.lobby.isascii() \
            and game.hints.lobby.isdigit():
        obj["lobby"] = int(game.hints.lobby)
    if any(p.rank for p in game.players):
        obj["dan"] = _pad([p.rank or "" for p in game.players], "")
    if any(p.rating is not None for p in game.players):
        obj["rate"] = _pad([_num(p.rating or 0.0) for p in game.players], 0)
    if any(p.sex for p in game.players):
        obj["sx"] = _pad([p.sex or "C" for p in game.players], "C")
    if end is not None and end.scores is not None:
        # tenhou.net/6 keeps score and points together; points the log lacks are written as 0
        points = end.points or (0.0,) * len(end.scores)
        sc: list[int | float] = []
        for s, p in zip(_pad(list(end.scores), 0), _pad(list(points), 0.0), strict=True):
            sc += [s, _num(p)]
        obj["sc"] = sc
    ext = _extension(game, obj, hands, end)
    if ext:
        obj[EXT] = {"version": VERSION, **ext}
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


# -- the extension: what the standard keys would not read back equal ----------------

_WHERE = Where("<tenhou.net/6 writer>")


def _extension(game: Game, obj: dict[str, Any], hands: list[list[Event]],
               end: EndGame | None) -> dict[str, Any]:
    players = game.hints.players
    if players_of(obj) != players:
        raise _Unwritable(f"a {players}-player game whose hands read as {players_of(obj)} "
                          "players")
    entries: list[dict[str, Any]] = []
    has_red = False
    first = 0  # the index in game.events of the hand's first event
    for i, (hand, kyoku) in enumerate(zip(hands, obj["log"], strict=True)):
        label = _label(hand)
        try:
            got = read_kyoku(_WHERE, kyoku_pointers(i), kyoku, players)
        except LogFormatError as exc:
            raise _Unwritable(f"hand {label} does not read back as tenhou.net/6: "
                              f"{exc.reason}") from None
        has_red |= got.has_red
        # compared in canonical form, which is what the reader gives
        entries.append(_kyoku_ext(list(canonical(hand, players)),
                                  canonical(got.events, players), label, first))
        first += len(hand)
    while entries and not entries[-1]:
        entries.pop()
    ext: dict[str, Any] = {"kyoku": entries} if entries else {}
    meta = read_meta(_WHERE, obj, players, has_red, [])
    events = [e for hand in hands for e in hand]
    if end_game_of(events, _WHERE, obj, players, game.hints) != end:
        ext["end_game"] = encode_end_game(end)
    if meta.players != game.players:
        ext["players"] = [encode_player(p) for p in game.players]
    hints = encode_hints(game.hints, meta.hints)
    if hints:
        ext["hints"] = hints
    if meta.title != game.title:
        ext["title"] = game.title
    if meta.log_id != game.log_id:
        ext["log_id"] = game.log_id
    return ext


def _label(hand: list[Event]) -> str:
    start = hand[0]
    assert isinstance(start, StartKyoku)
    return start.label


def _kyoku_ext(want: list[Event], got: tuple[Event, ...], label: str,
               first: int) -> dict[str, Any]:
    """The kyoku's extension entry: the claims to patch, open kans whose indicator the
    log reveals before the replacement draw, an interrupted hand's tail, a missing
    EndKyoku; :class:`_Unwritable` if the play itself would read back differently."""
    moved, early = reveal_early(got, early_kans(want))
    got = tuple(moved)
    patches: dict[type, list[dict[str, Any]]] = {kind: [] for kind in PATCH_KEYS}
    for i, (w, g) in enumerate(zip(want, got, strict=False)):  # lengths checked below
        if type(w) in patches:
            p = patch(w, g)
            if p is not None:
                patches[type(w)].append(p)
                continue
        elif w == g:
            continue
        raise _Unwritable(f"hand {label}: event {i} would read back as {_show(g)} instead of "
                          f"{_show(w)}; tenhou.net/6 cannot hold this game", first + i)
    interrupted = not any(isinstance(e, Hora | Ryukyoku) for e in want)
    no_end = not interrupted and len(got) == len(want) + 1 and isinstance(got[-1], EndKyoku)
    if no_end:  # the log stops right after the result
        got = got[:-1]
    if len(got) > len(want) or (len(got) < len(want) and not interrupted):
        i = min(len(got), len(want))
        extra = got[i] if len(got) > len(want) else want[i]
        raise _Unwritable(f"hand {label}: {'an extra' if len(got) > len(want) else 'no'} "
                          f"{_show(extra)} at event {i} when read back; tenhou.net/6 cannot "
                          "hold this game", first + i if i < len(want) else None)
    entry: dict[str, Any] = {}
    for kind, key in PATCH_KEYS.items():
        items = patches[kind]
        while items and not items[-1]:
            items.pop()
        if items:
            entry[key] = items[0] if kind is Ryukyoku else items
    if early:
        entry["early_dora"] = sorted(early)
    tail = []
    for i, ev in enumerate(want[len(got):], start=len(got)):
        encoded = encode_tail(ev)
        if encoded is None:
            raise _Unwritable(f"hand {label} stops with a {type(ev).__name__} after its last "
                              "take or discard; tenhou.net/6 cannot hold it", first + i)
        tail.append(encoded)
    if tail:
        entry["tail"] = tail
    if no_end:
        entry["end_kyoku"] = False
    return entry


def _show(ev: Event) -> str:
    return f"{type(ev).__name__}" + (f" of seat {ev.actor}" if hasattr(ev, "actor") else "")


def _pad(items: list[Any], fill: Any) -> list[Any]:
    return items[:SEATS] + [fill] * (SEATS - len(items))


def _num(x: float) -> int | float:
    return int(x) if float(x).is_integer() else x


def _title(title: str | None) -> list[str]:
    parts = (title or "").split(" / ", 1)
    return parts + [""] * (2 - len(parts))


def _rule(game: Game) -> dict[str, Any]:
    h = game.hints
    # where the log does not say, red fives in play tell the viewer (the extension
    # restores the hint's None)
    aka = 1 if h.aka or (h.aka is None and _has_red(game)) else 0
    rule: dict[str, Any] = {}
    disp = h.room
    if disp is None and (h.hanchan is not None or h.kuitan is not None):
        disp = ("三" if h.players == 3 else "") + ("東" if h.hanchan is False else "南") \
            + ("喰" if h.kuitan is not False else "") + ("赤" if h.aka else "")
    if disp is not None:
        rule["disp"] = disp
    rule.update(aka=aka, aka51=aka if h.players == 4 else 0, aka52=aka, aka53=aka)
    return rule


def _has_red(game: Game) -> bool:
    for ev in game.events:
        if isinstance(ev, StartKyoku):
            if any(t is not None and t.is_red for hand in ev.tehais for t in hand):
                return True
        elif isinstance(ev, Tsumo) and ev.tile is not None and ev.tile.is_red:
            return True
    return False


_HIDDEN = "tenhou.net/6 cannot hold hidden tiles (a one-seat log); write it as mjai"


def _code(tile: Tile | None) -> int:
    if tile is None:
        raise _Unwritable(_HIDDEN)
    return tile.tenhou6


def _codes(tiles: tuple[Tile | None, ...]) -> str:
    return "".join(str(_code(t)) for t in tiles)


def _kyoku(hand: list[Event], players: int) -> list[Any]:
    start = hand[0]
    assert isinstance(start, StartKyoku)
    takes: list[list[int | str]] = [[] for _ in range(SEATS)]
    discards: list[list[int | str]] = [[] for _ in range(SEATS)]
    last_draw: list[Tile | None] = [None] * SEATS
    pons: list[list[str]] = [[] for _ in range(SEATS)]
    reach: set[int] = set()
    dora = [_code(start.dora_marker)]
    ura: list[int] = []
    horas: list[Hora] = []
    draw: Ryukyoku | None = None
    for ev in hand[1:]:
        if isinstance(ev, Tsumo):
            takes[ev.actor].append(_code(ev.tile))
            last_draw[ev.actor] = ev.tile
            continue
        if isinstance(ev, Dahai):
            code: int | str = TSUMOGIRI if ev.tsumogiri and last_draw[ev.actor] is ev.tile \
                else _code(ev.tile)
            if ev.actor in reach:
                reach.discard(ev.actor)
                code = f"r{code}"
            discards[ev.actor].append(code)
        elif isinstance(ev, Chi):
            takes[ev.actor].append(f"c{_code(ev.tile)}{_codes(ev.consumed)}")
        elif isinstance(ev, Pon | Daiminkan):
            rel = (ev.target - ev.actor) % SEATS
            table, mark = (_PON_AT, "p") if isinstance(ev, Pon) else (_KAN_AT, "m")
            parts = [str(_code(t)) for t in ev.consumed]
            parts.insert(table.get(rel, 0), f"{mark}{_code(ev.tile)}")
            text = "".join(parts)
            takes[ev.actor].append(text)
            if isinstance(ev, Pon):
                pons[ev.actor].append(text)
            else:
                discards[ev.actor].append(0)  # Tenhou's placeholder: no discard this turn
        elif isinstance(ev, Kakan):
            discards[ev.actor].append(_kakan(ev, pons[ev.actor]))
        elif isinstance(ev, Ankan):
            c = ev.consumed
            discards[ev.actor].append(f"{_codes(c[:-1])}a{_codes(c[-1:])}")
        elif isinstance(ev, Nukidora):
            discards[ev.actor].append(f"f{_code(ev.tile)}")
        elif isinstance(ev, Reach):
            reach.add(ev.actor)
            continue
        elif isinstance(ev, Dora):
            dora.append(_code(ev.dora_marker))
            continue
        elif isinstance(ev, Hora):
            horas.append(ev)
            if ev.ura_markers and len(ev.ura_markers) > len(ura):
                ura = [_code(t) for t in ev.ura_markers]
            continue
        elif isinstance(ev, Ryukyoku):
            draw = ev
            continue
        elif isinstance(ev, EndKyoku):
            break
        else:
            continue
        last_draw[ev.actor] = None  # a discard or a call: a 60 needs a fresh draw
    head = [WINDS.index(start.bakaze) * 4 + start.kyoku - 1, start.honba, start.kyotaku]
    out: list[Any] = [head, _pad(list(start.scores), 0), dora, ura]
    for seat in range(SEATS):
        hand_codes = [_code(t) for t in start.tehais[seat]] if seat < len(start.tehais) else []
        out += [hand_codes, takes[seat], discards[seat]]
    out.append(_result(horas, draw, start, players))
    return out


def _kakan(ev: Kakan, pons: list[str]) -> str:
    kind = ev.tile.index
    for text in pons:
        i = text.index("p")
        if Tile.from_tenhou6(int(text[i + 1:i + 3])).index == kind:
            return text.replace("p", f"k{_code(ev.tile)}", 1)
    return f"k{_code(ev.tile)}{_codes(ev.consumed)}"  # no pon in this hand's events


def _result(horas: list[Hora], draw: Ryukyoku | None, start: StartKyoku,
            players: int = 4) -> list[Any]:
    if horas:
        out: list[Any] = [AGARI]
        for h in horas:
            # the viewer needs score changes; a win without them gets zeros (a last resort)
            out.append(_pad(list(h.deltas), 0) if h.deltas is not None else [0] * SEATS)
            detail: list[Any] = [h.actor, h.target, h.pao if h.pao is not None else h.actor]
            if (h.fu, h.han, h.points, h.limit, h.yaku) != (None, None, None, None, None):
                kazoe = h.limit is Limit.YAKUMAN and h.yaku is not None \
                    and not any(y.is_yakuman for y, _ in h.yaku)
                detail.append(score_text(fu=h.fu, han=h.han, points=h.points, limit=h.limit,
                                         kazoe=kazoe, tsumo=h.actor == h.target,
                                         dealer=h.actor == start.oya, players=players))
                detail += [yaku_text(y, han) for y, han in h.yaku or ()]
            out.append(detail)
        return out
    if draw is None:
        return [INTERRUPTED]  # the log stops in this hand
    text = draw_text(draw.reason, draw.tenpai, draw.deltas is None or not any(draw.deltas))
    if draw.deltas is None or text.startswith("全員"):
        return [text]
    return [text, _pad(list(draw.deltas), 0)]
