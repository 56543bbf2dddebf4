"""Write any :class:`~kansa.replay.game.Game` as an mjai JSON-lines log.

Mortal's fields come first, then gimite's claim fields (``yakus``, ``fu``,
``fan``, ``hora_points``, ``hora_tehais``, ``pao``, ``reason``, ``tenpais``,
``tehais``, ``scores``).  What mjai has no field for (dora markers, limit,
honba and sticks of a win, final points, player ranks, rule hints, or a claim
that would not read back equal) goes into a ``kansa`` extension object, which
:func:`kansa.parsers.mjai.read.parse` reads back.
"""

from __future__ import annotations

import json
from typing import Any

from kansa.parsers.errors import LogWriteError
from kansa.parsers.mjai.claims import (
    EXT,
    DrawClaims,
    HoraClaims,
    WinContext,
    write_hora,
    write_ryukyoku,
)
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
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from kansa.replay.game import Game
from kansa.replay.tiles import WINDS, Tile


def write(game: Game) -> str:
    """The game as mjai JSON lines (one event per line, ending with a newline).

    :raises LogWriteError: for an object among the events that is no event of the
        vocabulary (mjai holds every event kansa reads).
    """
    w = _Writer(game.hints.players)
    lines = [_dump(_start_game(game))]
    for i, ev in enumerate(game.events):
        if not isinstance(ev, Event):
            raise LogWriteError(f"a {type(ev).__name__} is not an event", fmt="mjai",
                                source=game.source, game=game.index, event=i)
        lines.append(_dump(w.event(ev)))
    return "\n".join(lines) + "\n"


def _dump(obj: dict[str, Any]) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def _mjai(tile: Tile | None) -> str:
    return "?" if tile is None else tile.mjai


def _start_game(game: Game) -> dict[str, Any]:
    out: dict[str, Any] = {"type": "start_game"}
    if game.players:
        out["names"] = [p.name for p in game.players]
    if game.hints.players != 4:
        out["num_players"] = game.hints.players
    ext: dict[str, Any] = {}
    if any(p.rank is not None or p.rating is not None or p.sex is not None
           for p in game.players):
        ext["players"] = [{k: v for k, v in (("name", p.name), ("rank", p.rank),
                                             ("rating", p.rating), ("sex", p.sex))
                           if v is not None} for p in game.players]
    h = game.hints
    hints = {k: v for k, v in (("aka", h.aka), ("kuitan", h.kuitan), ("hanchan", h.hanchan),
                               ("platform", h.platform), ("lobby", h.lobby),
                               ("room", h.room), ("raw_type", h.raw_type),
                               ("start_score", h.start_score),
                               ("return_score", h.return_score),
                               ("uma", list(h.uma) if h.uma is not None else None))
             if v is not None}
    if hints:
        ext["hints"] = hints
    if game.title is not None:
        ext["title"] = game.title
    if game.log_id is not None:
        ext["log_id"] = game.log_id
    if ext:
        out[EXT] = ext
    return out


class _Writer:
    """Tracks what the claim encoding needs: winds and concealed hand sizes."""

    def __init__(self, players: int) -> None:
        self.n = players
        self.oya = 0
        self.bakaze = Tile.EAST
        self.sizes = [13] * players

    def event(self, ev: Event) -> dict[str, Any]:
        if isinstance(ev, StartKyoku):
            self.oya, self.bakaze = ev.oya, ev.bakaze
            self.n = len(ev.scores)
            self.sizes = [len(t) for t in ev.tehais]
            return {"type": "start_kyoku", "bakaze": ev.bakaze.mjai,
                    "dora_marker": ev.dora_marker.mjai, "kyoku": ev.kyoku,
                    "honba": ev.honba, "kyotaku": ev.kyotaku, "oya": ev.oya,
                    "scores": list(ev.scores),
                    "tehais": [[_mjai(t) for t in hand] for hand in ev.tehais]}
        if isinstance(ev, Tsumo):
            self._size(ev.actor, 1)
            return {"type": "tsumo", "actor": ev.actor, "pai": _mjai(ev.tile)}
        if isinstance(ev, Dahai):
            self._size(ev.actor, -1)
            return {"type": "dahai", "actor": ev.actor, "pai": ev.tile.mjai,
                    "tsumogiri": ev.tsumogiri}
        if isinstance(ev, (Chi, Pon, Daiminkan)):
            self._size(ev.actor, -len(ev.consumed))
            return {"type": type(ev).__name__.lower(), "actor": ev.actor,
                    "target": ev.target, "pai": ev.tile.mjai,
                    "consumed": [t.mjai for t in ev.consumed]}
        if isinstance(ev, Kakan):
            self._size(ev.actor, -1)
            return {"type": "kakan", "actor": ev.actor, "pai": ev.tile.mjai,
                    "consumed": [t.mjai for t in ev.consumed]}
        if isinstance(ev, Ankan):
            self._size(ev.actor, -len(ev.consumed))
            return {"type": "ankan", "actor": ev.actor,
                    "consumed": [t.mjai for t in ev.consumed]}
        if isinstance(ev, Nukidora):
            self._size(ev.actor, -1)
            return {"type": "kita", "actor": ev.actor, "pai": ev.tile.mjai}
        if isinstance(ev, Dora):
            return {"type": "dora", "dora_marker": ev.dora_marker.mjai}
        if isinstance(ev, Reach):
            return {"type": "reach", "actor": ev.actor}
        if isinstance(ev, ReachAccepted):
            out: dict[str, Any] = {"type": "reach_accepted", "actor": ev.actor}
            if ev.scores is not None:
                out["scores"] = list(ev.scores)
            return out
        if isinstance(ev, Hora):
            return self._hora(ev)
        if isinstance(ev, Ryukyoku):
            claims = DrawClaims(reason=ev.reason, deltas=ev.deltas, tenpai=ev.tenpai,
                                hands=ev.hands, actor=ev.actor)
            return {"type": "ryukyoku",
                    **write_ryukyoku(claims, self.n, tuple(max(s, 0) for s in self.sizes))}
        if isinstance(ev, EndKyoku):
            return {"type": "end_kyoku"}
        return self._end_game(ev)

    def _size(self, seat: int, change: int) -> None:
        if 0 <= seat < len(self.sizes):
            self.sizes[seat] += change

    def _hora(self, ev: Hora) -> dict[str, Any]:
        ctx = WinContext(players=self.n, seat_wind=WINDS[(ev.actor - self.oya) % self.n],
                         round_wind=self.bakaze)
        claims = HoraClaims(
            tile=ev.tile, deltas=ev.deltas, hand=ev.hand, yaku=ev.yaku, fu=ev.fu, han=ev.han,
            points=ev.points, limit=ev.limit, dora_markers=ev.dora_markers,
            ura_markers=ev.ura_markers, pao=ev.pao, honba=ev.honba, kyotaku=ev.kyotaku)
        return {"type": "hora", "actor": ev.actor, "target": ev.target,
                **write_hora(claims, ctx, ev.is_tsumo)}

    @staticmethod
    def _end_game(ev: EndGame) -> dict[str, Any]:
        out: dict[str, Any] = {"type": "end_game"}
        if ev.scores is not None:
            out["scores"] = list(ev.scores)
        if ev.points is not None:
            out[EXT] = {"points": list(ev.points)}
        return out
