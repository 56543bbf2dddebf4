"""Applying a kyoku's ``kansa`` extension entry (:mod:`kansa.parsers.tenhou6.ext`) to
the events its standard keys give: its patches, and its kan indicators revealed early."""

from __future__ import annotations

from typing import Any, Final

from kansa.parsers.canonical import Canonical
from kansa.parsers.tenhou6.ext import NO_KYOKU_EXT, PATCH_KEYS, KyokuExt, reveal_early
from kansa.parsers.tenhou6.jsontext import Where
from kansa.replay.events import EndKyoku, Event, Hora, ReachAccepted, Ryukyoku


def apply_kyoku(where: Where, ext: KyokuExt, events: list[Event], players: int
                ) -> list[Event]:
    """``events`` with the entry's claims patched in (its tail is the caller's), each
    patched event in canonical form (:mod:`kansa.parsers.canonical`).  The events
    without a ``src`` (draws and discards, placed by the hand's tracks) keep their
    order: a patch replaces an event in its place, and the indicators moved and the
    tail's events carry their own ``src``."""
    if ext is NO_KYOKU_EXT:
        return events
    if ext.early_dora:
        events, done = reveal_early(events, ext.early_dora)
        if done != ext.early_dora:
            n = min(ext.early_dora - done)
            where.fail(f"{ext.pointer}/early_dora", f"open kan {n} of the hand has no kan "
                       "dora indicator to reveal early")
    ryukyoku = (ext.ryukyoku,) if ext.ryukyoku else ()
    wanted = ((Hora, ext.hora), (Ryukyoku, ryukyoku), (ReachAccepted, ext.reach_accepted))
    found = [0] * len(wanted)  # each kind's patches go to its events in order
    out = list(events)
    for i in range(0 if ext.reach_accepted else _result_start(out), len(out)):
        ev = out[i]
        kind = type(ev)
        if kind is not Hora and kind is not Ryukyoku and kind is not ReachAccepted:
            continue
        for k, (patched, patches) in enumerate(wanted):
            if kind is patched:
                n = found[k]
                if n < len(patches):
                    out[i] = Canonical(players).event(_patched(ev, patches[n]))
                found[k] = n + 1
    for k, (kind, patches) in enumerate(wanted):
        n = found[k]
        if len(patches) > n:
            key = PATCH_KEYS[kind]
            where.fail(f"{ext.pointer}/{key}", f"the extension patches {len(patches)} "
                       f"{key} event(s), the hand has {n}")
    return out


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
    each kind's constructor called with its fields, which compiles to a direct call."""
    get = patch.get
    if isinstance(ev, Hora):
        return Hora(actor=ev.actor, target=ev.target, tile=get("tile", ev.tile),
                    deltas=get("deltas", ev.deltas), hand=get("hand", ev.hand),
                    yaku=get("yaku", ev.yaku), fu=get("fu", ev.fu), han=get("han", ev.han),
                    points=get("points", ev.points), limit=get("limit", ev.limit),
                    dora_markers=get("dora_markers", ev.dora_markers),
                    ura_markers=get("ura_markers", ev.ura_markers), pao=get("pao", ev.pao),
                    honba=get("honba", ev.honba), kyotaku=get("kyotaku", ev.kyotaku),
                    src=ev.src, time=ev.time)
    if isinstance(ev, ReachAccepted):
        return ReachAccepted(actor=ev.actor, scores=get("scores", ev.scores), src=ev.src,
                             time=ev.time)
    assert isinstance(ev, Ryukyoku), ev
    return Ryukyoku(reason=get("reason", ev.reason), deltas=get("deltas", ev.deltas),
                    tenpai=get("tenpai", ev.tenpai), hands=get("hands", ev.hands),
                    actor=get("actor", ev.actor), src=ev.src, time=ev.time)
