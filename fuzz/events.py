"""Event-stream mutations for the replay engine.

Every mutation keeps to the event vocabulary (the dataclasses of
:mod:`kansa.replay.events`) but not to the game's logic: events are deleted,
duplicated, swapped, moved, retargeted to seats that do not exist, given other
tiles, or invented outright (a kakan without a pon, a win with no hand, a second
end of the game).
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Sequence
from typing import Any

from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    DrawReason,
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
from kansa.replay.tiles import ALL_TILES, Seat, Tile

SEATS = (-1, 0, 1, 2, 3, 4, 7)
"""Seats a mutation may pick: the real ones and some that do not exist."""
_TILES = ALL_TILES


def _seat(rng: random.Random) -> Seat:
    return Seat(rng.choice(SEATS) if rng.random() < 0.3 else rng.randrange(4))


def _tile(rng: random.Random) -> Tile:
    return rng.choice(_TILES)


def _tiles(rng: random.Random, n: int) -> tuple[Tile, ...]:
    return tuple(_tile(rng) for _ in range(n))


def random_event(rng: random.Random) -> Event:
    """Any event of the vocabulary with random fields, sensible or not."""
    actor, target = _seat(rng), _seat(rng)
    n = rng.choice((3, 4, 4, 4, 5))
    maker: list[Callable[[], Event]] = [
        lambda: Tsumo(actor=actor, tile=None if rng.random() < 0.1 else _tile(rng)),
        lambda: Dahai(actor=actor, tile=_tile(rng), tsumogiri=rng.random() < 0.5),
        lambda: Chi(actor=actor, target=target, tile=_tile(rng), consumed=_tiles(rng, 2)),
        lambda: Pon(actor=actor, target=target, tile=_tile(rng), consumed=_tiles(rng, 2)),
        lambda: Daiminkan(actor=actor, target=target, tile=_tile(rng),
                          consumed=_tiles(rng, 3)),
        lambda: Kakan(actor=actor, tile=_tile(rng), consumed=_tiles(rng, 3)),
        lambda: Ankan(actor=actor, consumed=_tiles(rng, rng.choice((3, 4, 5)))),
        lambda: Nukidora(actor=actor, tile=_tile(rng)),
        lambda: Reach(actor=actor),
        lambda: ReachAccepted(actor=actor, scores=tuple(rng.randrange(-10**6, 10**6)
                                                        for _ in range(n))
                              if rng.random() < 0.5 else None),
        lambda: Dora(dora_marker=_tile(rng)),
        lambda: Hora(actor=actor, target=target,
                     tile=_tile(rng) if rng.random() < 0.7 else None,
                     deltas=tuple(rng.randrange(-10**5, 10**5) for _ in range(n))
                     if rng.random() < 0.7 else None,
                     hand=_tiles(rng, rng.randrange(0, 15)) if rng.random() < 0.5 else None,
                     ura_markers=_tiles(rng, 2) if rng.random() < 0.3 else None,
                     pao=_seat(rng) if rng.random() < 0.2 else None),
        lambda: Ryukyoku(reason=rng.choice(list(DrawReason)),
                         deltas=tuple(rng.randrange(-10**5, 10**5) for _ in range(n))
                         if rng.random() < 0.5 else None,
                         tenpai=tuple(rng.random() < 0.5 for _ in range(n))
                         if rng.random() < 0.5 else None,
                         actor=_seat(rng) if rng.random() < 0.3 else None),
        EndKyoku,
        lambda: EndGame(scores=tuple(rng.randrange(-10**6, 10**6) for _ in range(n))
                        if rng.random() < 0.5 else None),
        lambda: StartKyoku(
            bakaze=_tile(rng), kyoku=rng.randrange(-1, 6), honba=rng.randrange(0, 3),
            kyotaku=rng.randrange(0, 3), oya=_seat(rng),
            scores=tuple(rng.randrange(-10**6, 10**6) for _ in range(n)),
            dora_marker=_tile(rng),
            tehais=tuple(_tiles(rng, rng.choice((12, 13, 13, 14))) for _ in range(n))),
    ]
    return rng.choice(maker)()


def retarget(ev: Event, rng: random.Random) -> Event:
    """The same event with another actor, target, pao or tile."""
    changes: dict[str, Any] = {}
    fields = {f.name for f in dataclasses.fields(ev)}
    for name in ("actor", "target", "pao", "oya"):
        if name in fields and rng.random() < 0.6:
            changes[name] = _seat(rng)
    for name in ("tile", "dora_marker"):
        if name in fields and rng.random() < 0.5:
            changes[name] = _tile(rng)
    if "consumed" in fields and rng.random() < 0.3:
        changes["consumed"] = _tiles(rng, rng.choice((2, 3, 4)))
    if not changes:
        return random_event(rng)
    return dataclasses.replace(ev, **changes)


def mutate_events(events: Sequence[Event], rng: random.Random,
                  rounds: int | None = None) -> list[Event]:
    """``events`` after 1-4 random edits (or ``rounds``)."""
    out = list(events)
    for _ in range(rounds if rounds is not None else rng.randint(1, 4)):
        n = len(out)
        op = rng.randrange(8)
        i = rng.randrange(n) if n else 0
        if op == 0 and n:  # delete one
            del out[i]
        elif op == 1 and n:  # delete a run
            del out[i:i + rng.randint(2, 40)]
        elif op == 2 and n:  # duplicate
            out.insert(rng.randrange(n + 1), out[i])
        elif op == 3 and n > 1:  # swap two
            j = rng.randrange(n)
            out[i], out[j] = out[j], out[i]
        elif op == 4 and n:  # move one elsewhere
            ev = out.pop(i)
            out.insert(rng.randrange(n), ev)
        elif op == 5 and n:  # retarget
            out[i] = retarget(out[i], rng)
        elif op == 6 and n:  # truncate
            out = out[:i]
        else:  # invent
            out.insert(rng.randrange(n + 1), random_event(rng))
    return out
