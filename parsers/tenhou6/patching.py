"""Applying a kyoku's ``kansa`` extension entry (:mod:`kansa.parsers.tenhou6.ext`) to
the events its standard keys give: its patches, and its kan indicators revealed early."""

from __future__ import annotations

from typing import Any, Final, NoReturn

from kansa.parsers.canonical import Canonical
from kansa.parsers.tenhou6.ext import NO_KYOKU_EXT, PATCH_KEYS, KyokuExt, reveal_early
from kansa.parsers.tenhou6.jsontext import Where
from kansa.replay.events import EndKyoku, Event, Hora, ReachAccepted, Ryukyoku


def apply_kyoku(where: Where, ext: KyokuExt, events: list[Event], players: int
                ) -> list[Event]:
    """``events`` (changed in place) with the entry's claims patched in (its tail is the
    caller's), each patched event in canonical form (:mod:`kansa.parsers.canonical`).
    The events without a ``src`` (draws and discards, placed by the hand's tracks) keep
    their order: a patch replaces an event in its place, and the indicators moved and
    the tail's events carry their own ``src``."""
    if ext is NO_KYOKU_EXT:
        return events
    if ext.early_dora:
        events, done = reveal_early(events, ext.early_dora)
        if done != ext.early_dora:
            n = min(ext.early_dora - done)
            where.fail(f"{ext.pointer}/early_dora", f"open kan {n} of the hand has no kan "
                       "dora indicator to reveal early")
    hora = ext.hora
    ryukyoku = (ext.ryukyoku,) if ext.ryukyoku else ()
    reach = ext.reach_accepted
    # each kind's patches go to its events in order
    n_hora = n_ryukyoku = n_reach = 0
    for i in range(0 if reach else _result_start(events), len(events)):
        ev = events[i]
        kind = type(ev)
        if kind is Hora:
            if n_hora < len(hora):
                events[i] = Canonical(players).event(_patched(ev, hora[n_hora]))
            n_hora += 1
        elif kind is Ryukyoku:
            if n_ryukyoku < len(ryukyoku):
                events[i] = Canonical(players).event(_patched(ev, ryukyoku[n_ryukyoku]))
            n_ryukyoku += 1
        elif kind is ReachAccepted:
            if n_reach < len(reach):
                events[i] = Canonical(players).event(_patched(ev, reach[n_reach]))
            n_reach += 1
    if len(hora) > n_hora:
        _too_many(where, ext, Hora, len(hora), n_hora)
    if len(ryukyoku) > n_ryukyoku:
        _too_many(where, ext, Ryukyoku, len(ryukyoku), n_ryukyoku)
    if len(reach) > n_reach:
        _too_many(where, ext, ReachAccepted, len(reach), n_reach)
    return events


def _too_many(where: Where, ext: KyokuExt, kind: type, patches: int, n: int) -> NoReturn:
    key = PATCH_KEYS[kind]
    where.fail(f"{ext.pointer}/{key}", f"the extension patches {patches} "
               f"{key} event(s), the hand has {n}")


def _result_start(events: list[Event]) -> int:
    """Where the events after a hand's play start (its last ``ReachAccepted``, its wins
    or its draw, its ``EndKyoku``): the only ones that can be wins or draws."""
    start = len(events)
    while start > 0 and type(events[start - 1]) in _AFTER_PLAY:
        start -= 1
    return start


_AFTER_PLAY: Final = frozenset({ReachAccepted, Hora, Ryukyoku, EndKyoku})


def _patched(ev: Event, patch: dict[str, Any]) -> Event:
    """``dataclasses.replace(ev, **patch)`` for an event of a kind :data:`PATCHABLE`
    names, whose claims ``patch`` sets (its keys are among the kind's fields there):
    each kind's constructor called with its fields, which compiles to a direct call,
    and only the patch's own keys looked at (a win's patch sets two or three)."""
    if isinstance(ev, Hora):
        tile, deltas, hand, yaku = ev.tile, ev.deltas, ev.hand, ev.yaku
        fu, han, points, limit = ev.fu, ev.han, ev.points, ev.limit
        dora, ura, pao, honba, kyotaku = ev.dora_markers, ev.ura_markers, ev.pao, ev.honba, \
            ev.kyotaku
        for key, value in patch.items():
            if key == "hand":
                hand = value
            elif key == "kyotaku":
                kyotaku = value
            elif key == "tile":
                tile = value
            elif key == "deltas":
                deltas = value
            elif key == "yaku":
                yaku = value
            elif key == "fu":
                fu = value
            elif key == "han":
                han = value
            elif key == "points":
                points = value
            elif key == "limit":
                limit = value
            elif key == "dora_markers":
                dora = value
            elif key == "ura_markers":
                ura = value
            elif key == "pao":
                pao = value
            else:
                assert key == "honba", key
                honba = value
        return Hora(actor=ev.actor, target=ev.target, tile=tile, deltas=deltas, hand=hand,
                    yaku=yaku, fu=fu, han=han, points=points, limit=limit,
                    dora_markers=dora, ura_markers=ura, pao=pao, honba=honba,
                    kyotaku=kyotaku, src=ev.src, time=ev.time)
    get = patch.get
    if isinstance(ev, ReachAccepted):
        return ReachAccepted(actor=ev.actor, scores=get("scores", ev.scores), src=ev.src,
                             time=ev.time)
    assert isinstance(ev, Ryukyoku), ev
    return Ryukyoku(reason=get("reason", ev.reason), deltas=get("deltas", ev.deltas),
                    tenpai=get("tenpai", ev.tenpai), hands=get("hands", ev.hands),
                    actor=get("actor", ev.actor), src=ev.src, time=ev.time)
