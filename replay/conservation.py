"""Tile conservation, hand sizes and seats: the engine's own checks of the counts.

Each function changes at most the counts it is about and returns what is wrong as
text (the engine turns it into a finding): a fifth copy of a tile coming into play,
a hand of the wrong size, a tile taken from a hand that does not hold it.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    Tsumo,
)
from kansa.replay.state import LEFT_OUT, PlayerState
from kansa.replay.tiles import ALL_TILES, Tile, format_tiles

FIVES: Final = {Tile.M5.code: Tile.M5R.code, Tile.P5.code: Tile.P5R.code,
                Tile.S5.code: Tile.S5R.code}
"""The red five of each plain five, by code."""
RED_OF: Final = {red: plain for plain, red in FIVES.items()}


def see(seen37: list[int], tiles: Iterable[Tile | None]) -> list[str]:
    """Count the tiles whose identity became known (``None``: a hidden tile); the
    problem for each kind that reaches a fifth copy, or a second red five, now, and for
    the first copy of a tile the set leaves out (2m-8m at three players)."""
    problems: list[str] = []
    for t in tiles:
        if t is None:
            continue
        code = t.code
        seen37[code] += 1
        # counts only grow within a hand: a kind is reported when it reaches the fifth
        # copy (or the second red five), not at every copy after it
        if code < 34:
            total = seen37[code] + seen37[FIVES[code]] if code in FIVES else seen37[code]
            bad = total == 5
        else:
            total = seen37[code] + seen37[RED_OF[code]]
            bad = total == 5 or seen37[code] == 2
        if total > LEFT_OUT:  # a kind this set leaves out (2m-8m at three players)
            if seen37[code] == LEFT_OUT + 1:
                problems.append(f"{t} is in play, but the three-player set has no 2m-8m")
            continue
        if bad:
            kind = ALL_TILES[t.index]
            problems.append(f"{total} copies of {kind} are in play (a set has four)"
                            if total > 4 else f"a second red {kind} is in play")
    return problems


def see_one(seen37: list[int], tile: Tile) -> list[str]:
    """:func:`see` for one drawn tile, with the usual case (no red five, fewer than five
    copies) done in place."""
    code = tile.code
    n = seen37[code]
    if n == 0 or (n < 4 and code not in FIVES and code not in RED_OF):
        seen37[code] = n + 1
        return []
    return see(seen37, (tile,))


def size_problem(p: PlayerState, expected: int, doing: str) -> str | None:
    """Why ``p``'s hand has the wrong size for ``doing`` (once per hand and seat)."""
    if p.size == expected or p.size_reported:
        return None
    p.size_reported = True
    return (f"seat {p.seat} {doing} holding {p.size} tiles "
            f"({p.concealed_count} concealed, {len(p.melds)} melds); {expected} expected")


def hand_text(p: PlayerState) -> str:
    """The concealed hand as a finding shows it."""
    text = format_tiles(p.concealed_tiles()) or "no known tiles"
    if p.hidden:
        text += f" and {p.hidden} hidden"
    return text


def take(p: PlayerState, tile: Tile) -> tuple[tuple[Tile, ...], str | None]:
    """Take ``tile`` from ``p``'s concealed hand.

    Returns the tiles that were hidden until now (a one-seat log reveals them: they come
    into :func:`see`), and the problem when the hand does not hold it."""
    hidden_before = p.hidden
    if not p.remove(tile):
        return (), f"{tile}, but holds {hand_text(p)}"
    return (tile,) if p.hidden < hidden_before else (), None


def take_all(p: PlayerState, tiles: tuple[Tile, ...]) -> tuple[tuple[Tile, ...], str | None]:
    """:func:`take` for several tiles, all or none."""
    hidden_before = p.hidden
    missing = p.remove_all(tiles)
    if missing is not None:
        return (), f"{format_tiles(tiles)}, but holds {hand_text(p)} (no {missing})"
    return tiles[: hidden_before - p.hidden], None


SEATED: Final[frozenset[type]] = frozenset({
    Tsumo, Dahai, Chi, Pon, Daiminkan, Kakan, Ankan, Nukidora, Reach, ReachAccepted, Hora,
    Ryukyoku})
"""Event types that name seats (``actor``, and ``target``/``pao`` where they have them)."""
ACTOR_ONLY: Final[frozenset[type]] = frozenset({
    Tsumo, Dahai, Kakan, Ankan, Nukidora, Reach, ReachAccepted})
"""Seated event types whose only seat is a required ``actor``: the step checks it inline
and calls :func:`seat_problem` only when it is out of range
(for the message)."""


def seat_problem(ev: Event, players: int) -> str | None:
    """Why ``ev`` names a seat the game does not have, or ``None`` when its seats exist."""
    for name in ("actor", "target", "pao"):
        seat = getattr(ev, name, None)
        if seat is not None and not 0 <= seat < players:
            return (f"{type(ev).__name__} names seat {seat} as its {name}, but a "
                    f"{players}-player game has seats 0-{players - 1}")
    return None
