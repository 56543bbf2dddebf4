"""The wall against the shuffle seed: every dealt, drawn and revealed tile is the wall's.

Where the log carries a seed kansa can reproduce (Tenhou's ``<SHUFFLE seed>``, see
:mod:`kansa.replay.wall`), each hand's wall is rebuilt and the log's tiles are compared
with it position by position.  A hand's first difference is reported with its proof;
the others of the same hand are counted in that finding.  Each hand gets a status
(``verified``, ``mismatched``, ``partial`` when the log or the replay stops before the
hand's result, ``no_seed``):
:func:`close_walls` writes it into the hand records.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from functools import cache
from operator import attrgetter, itemgetter
from typing import Any, Final

from kansa.replay.checks.registry import check
from kansa.replay.context import CheckContext
from kansa.replay.events import (
    Dora,
    DrawReason,
    EndGame,
    EndKyoku,
    Hora,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from kansa.replay.memory import Memory, Memos
from kansa.replay.result import HandRecord
from kansa.replay.state import GameState
from kansa.replay.tiles import Tile, format_tiles
from kansa.replay.violations import Severity, Violation, define
from kansa.replay.wall import DEAD_WALL, LEGACY_SEEN, TILES, Wall, game_walls
from kansa.replay.yaku import Yaku

_CITE: Final = "Tenhou's published shuffle (mt19937ar-sha512-n288): the wall follows from the seed"
_ALL: Final = "; the first difference of a hand is reported, with the number of the others"
DEAL: Final = define(
    "wall.deal", "Dealt tiles that the seed's wall does not deal", Severity.ERROR, _CITE,
    "A player's starting hand differs from the 13 tiles the wall rebuilt from the log's "
    "shuffle seed deals that seat" + _ALL + ".")
DRAW: Final = define(
    "wall.draw", "A draw that is not the wall's next tile", Severity.ERROR, _CITE,
    "A live-wall draw differs from the next tile of the wall rebuilt from the log's "
    "shuffle seed" + _ALL + ".")
REPLACEMENT: Final = define(
    "wall.replacement", "A replacement draw that is not the dead wall's tile", Severity.ERROR,
    _CITE, "The draw after a kan differs from the dead-wall tile the seed's wall gives for "
    "that kan" + _ALL + ".")
INDICATOR: Final = define(
    "wall.indicator", "A dora, kan-dora or ura indicator that is not the wall's",
    Severity.ERROR, _CITE,
    "A revealed indicator (the first dora, a kan dora, or an ura indicator shown at a win) "
    "differs from the dead-wall tile of the seed's wall" + _ALL + ".")
DICE: Final = define(
    "wall.dice", "Dice that the seed did not throw", Severity.ERROR, _CITE,
    "The dice the hand's INIT records differ from the two the seed throws for that hand"
    + _ALL + ".")
LENGTH: Final = define(
    "wall.length", "A hand whose live wall ends elsewhere than the seed's", Severity.ERROR,
    _CITE, "A draw from a live wall that the seed's wall has already emptied, an "
    "exhaustive draw while live tiles remain, or a last-tile win (haitei, houtei) that is "
    "not on the last tile" + _ALL + ".")

_AKA: Final = tuple(Tile.from_tenhou_id(i, True) for i in range(TILES))
_SANMA_REMOVED: Final = 7 * 4
"""2m-8m: a three-player wall holds 108 tiles."""
_PLAIN: Final = tuple(Tile.from_tenhou_id(i, False) for i in range(TILES))


_CODE: Final = attrgetter("code")
_BY_RANK: Final = tuple(sorted(range(TILES), key=lambda i: (_AKA[i].order, i)))
"""The tile ids in the order of their tiles (a red five right after its plain fives)."""
_RANK: Final = tuple(sorted(range(TILES), key=_BY_RANK.__getitem__))
"""Each tile id's place in :data:`_BY_RANK`."""
_AKA_BY_RANK: Final = tuple([_AKA[i] for i in _BY_RANK])
_PLAIN_BY_RANK: Final = tuple([_PLAIN[i] for i in _BY_RANK])
_LAST_TILE: Final = (Yaku.HAITEI, Yaku.HOUTEI)


@cache
def _deal_positions(players: int, k: int) -> itemgetter[Any]:
    """The 13 tiles dealt to the player ``k`` seats after the dealer, from a wall in
    draw order."""
    n = players
    return itemgetter(*[4 * n * r + 4 * k + i for r in range(3) for i in range(4)],
                      12 * n + k)


@cache
def _dealt_ids(players: int, k: int) -> itemgetter[Any]:
    """:func:`_deal_positions` from a wall's ``yama`` (its ids, last tile first)."""
    last = TILES - (_SANMA_REMOVED if players == 3 else 0) - 1
    return itemgetter(*[last - p for p in _deal_positions(players, k)(range(TILES))])


def _sorted_deal(wall: Wall, k: int, by_rank: tuple[Tile, ...]) -> tuple[Tile, ...]:
    """The tiles dealt to the player ``k`` seats after the dealer in tile order, as the
    log lists a hand: their ids sorted by rank, all in C."""
    ranks = sorted(itemgetter(*_dealt_ids(wall.players, k)(wall.yama))(_RANK))
    dealt: tuple[Tile, ...] = itemgetter(*ranks)(by_rank)
    return dealt


@dataclass(slots=True)
class _Hand:
    """One hand's wall and how far the log has taken from it."""

    tiles: tuple[Tile, ...]
    """The wall in draw order (position 0 = the dealer's first dealt tile)."""
    number: int
    """The hand's place in the game (0 = the first hand)."""
    players: int
    wall: Wall | None
    """The seed's wall, whose dead wall is known; ``None`` for a wall a log lists (its
    dead wall is not compared)."""
    base: int = 0
    """The position of the first live draw."""
    live: int = 0
    """Live draws so far."""
    size: int = 0
    """How many live draws the wall holds, after the replacement draws so far."""
    kans: int = 0
    """Replacement draws so far."""
    doras: int = 0
    """Kan-dora indicators revealed so far."""
    first: Violation | None = None
    more: int = 0
    unknown: bool = False
    """A tile was left uncompared (a dead-wall place not known for this wall): the hand
    is ``partial`` at best."""

    def __post_init__(self) -> None:
        self.base = 13 * self.players
        self.size = len(self.tiles) - DEAD_WALL - self.base

    def known(self, kan: int) -> bool:
        """Whether the dead-wall tiles of kan ``kan`` (0 = the first kan: its replacement
        draw and the kan-dora indicator it reveals; -1: the first indicator) are known."""
        wall = self.wall
        if wall is None:
            return False  # a listed wall: its deal and live draws are what is verified
        if wall.legacy and kan >= LEGACY_SEEN:
            self.unknown = True
            return False
        return True

    def deal(self, k: int) -> tuple[Tile, ...]:
        """The 13 tiles dealt to the player ``k`` seats after the dealer."""
        dealt: tuple[Tile, ...] = _deal_positions(self.players, k)(self.tiles)
        return dealt


@dataclass(slots=True)
class _Walls:
    """One game's walls and what the hands so far made of them."""

    walls: Iterator[Wall] | None
    tiles: tuple[Tile, ...]
    """Tenhou tile id to tile, under the game's red-five rule."""
    dice: Sequence[tuple[int, int] | None]
    listed: Sequence[tuple[Tile, ...] | None]
    """Per hand, the wall the log lists in draw order (Mahjong Soul's ``paishan``)."""
    hand: _Hand | None = None
    statuses: list[str] = field(default_factory=list)
    pending: list[Violation] = field(default_factory=list)


@dataclass(slots=True)
class _Box:
    """The wall checks' memory of one replay: the game's walls, once the first hand
    asks for them."""

    walls: _Walls | None = None


_MEMORY: Final[Memory[_Box]] = Memory("wall", _Box, per_hand=False)


def _walls(ctx: CheckContext) -> _Walls:
    box = ctx.memos.get(_MEMORY)
    w = box.walls
    if w is None:
        log = ctx.log
        seeded = log is not None and log.hints.players == ctx.rules.players
        w = box.walls = _Walls(
            walls=game_walls(log.wall_seed, ctx.rules.players)
            if seeded and log is not None else None,
            tiles=_PLAIN if log is not None and log.hints.aka is False else _AKA,
            dice=log.dice if log is not None else (),
            listed=log.walls if log is not None else ())
    return w


def _close(game: GameState, w: _Walls) -> None:
    """Give the hand being played its status, and its finding, if any."""
    h = w.hand
    if h is None:
        return
    w.hand = None
    rs = game.round
    v = h.first
    if v is not None:
        if h.more:
            s = "s" if h.more > 1 else ""
            v = dataclasses.replace(v, message=f"{v.message}; {h.more} other tile{s} of this "
                                               f"hand differ{'' if s else 's'} from the wall too")
        w.pending.append(v)
        w.statuses[h.number] = "mismatched"
    elif h.unknown or rs is None or rs.desync is not None or not rs.ended:
        w.statuses[h.number] = "partial"
    else:
        w.statuses[h.number] = "verified"


def _found(ctx: CheckContext, h: _Hand, rule: str, message: str, *,
           seat: int | None = None, turn: int | None = None) -> None:
    if h.first is not None:
        h.more += 1
        return
    v = ctx.violation(rule, f"{ctx.round.label} {message}", seat=seat)
    h.first = dataclasses.replace(v, turn=turn) if turn is not None else v


def _hand(ctx: CheckContext) -> _Hand | None:
    """The hand whose wall is being compared, if any."""
    box = ctx.memos.peek(_MEMORY)
    return box.walls.hand if box is not None and box.walls is not None else None


def _flush(ctx: CheckContext) -> list[Violation] | None:
    w = _walls(ctx)
    _close(ctx.game, w)
    found, w.pending = w.pending, []
    return found or None


def _proof(h: _Hand) -> str:
    if h.wall is None:
        return f"(the wall the log lists for hand {h.number + 1} of the game)"
    return f"(the wall of hand {h.number + 1} of the game, from the log's shuffle seed)"


# -- the hand's start ----------------------------------------------------------------------


@check(StartKyoku, rules=(DEAL.id, DRAW.id, REPLACEMENT.id, INDICATOR.id, DICE.id, LENGTH.id))
def next_wall(ctx: CheckContext, ev: StartKyoku) -> list[Violation] | None:
    """Close the previous hand and take the next wall: from the seed, or as listed."""
    found = _flush(ctx)
    w = _walls(ctx)
    number = len(w.statuses)
    w.statuses.append("no_seed")
    players = ctx.rules.players
    if w.walls is not None:
        wall = next(w.walls)
        tiles: tuple[Tile, ...] = itemgetter(*wall.yama)(w.tiles)[::-1]  # draw order
        w.hand = _Hand(tiles, number, players, wall)
    elif number < len(w.listed) and w.listed[number] is not None:
        listed = w.listed[number]
        assert listed is not None
        if len(listed) == TILES - (_SANMA_REMOVED if players == 3 else 0):
            w.hand = _Hand(listed, number, players, None)
    return found


@check(StartKyoku, rules=(DEAL.id, INDICATOR.id, DICE.id), phase="after")
def deal(ctx: CheckContext, ev: StartKyoku) -> None:
    w = _walls(ctx)
    h = w.hand
    if h is None:
        return
    n = len(ev.tehais)
    wall = h.wall
    by_rank = _PLAIN_BY_RANK if w.tiles is _PLAIN else _AKA_BY_RANK
    for seat, tiles in enumerate(ev.tehais):
        k = (seat - ev.oya) % n
        if wall is not None and k < h.players and _sorted_deal(wall, k, by_rank) == tiles:
            continue  # (the common case: the log's hand in tile order, as the wall dealt it)
        dealt = h.deal(k)
        if None not in tiles and sorted(map(_CODE, dealt)) == sorted(map(_CODE, tiles)):
            continue
        left = list(dealt)
        extra: list[Tile] = []
        for t in tiles:
            if t is None:
                continue
            if t in left:
                left.remove(t)
            else:
                extra.append(t)
        if extra:
            hidden = sum(1 for t in tiles if t is None)
            missing = left if not hidden else []
            _found(ctx, h, DEAL.id, f"deal: seat {seat} is dealt {format_tiles(extra)}, but "
                   f"the wall deals it {format_tiles(sorted(dealt))}"
                   + (f" ({format_tiles(missing)} instead)" if missing else "")
                   + f" {_proof(h)}", seat=seat, turn=0)
    if wall is None:
        return
    marker = h.tiles[wall.dora_position(0)]
    if ev.dora_marker != marker:
        _found(ctx, h, INDICATOR.id, f"start: the dora indicator is {ev.dora_marker.mpsz}, "
               f"but the wall's indicator is {marker.mpsz} {_proof(h)}")
    dice = w.dice[h.number] if h.number < len(w.dice) else None
    if dice is not None and dice != wall.dice:
        _found(ctx, h, DICE.id, f"start: the dice are {dice[0] + 1} and {dice[1] + 1}, but "
               f"the seed throws {wall.dice[0] + 1} and {wall.dice[1] + 1} {_proof(h)}")


# -- draws and indicators ------------------------------------------------------------------


@check(Tsumo, rules=(DRAW.id, REPLACEMENT.id, LENGTH.id))
def draw(ctx: CheckContext, ev: Tsumo) -> None:
    box: _Box | None = ctx.memos.game.get(_MEMORY)  # (_hand, inline: every draw)
    w = box.walls if box is not None else None
    h = w.hand if w is not None else None
    if h is None:
        return
    rs = ctx.game.round
    assert rs is not None
    seat = ev.actor
    if rs.after_kan and rs.current == seat:
        _replacement(ctx, h, ev)
        return
    live = h.live
    if live >= h.size:
        _found(ctx, h, LENGTH.id, f"turn {rs.players[seat].draws + 1}: seat {seat} "
               f"draws, but the wall's live tiles are all drawn ({live} draws after "
               f"{h.kans} replacement draws) {_proof(h)}", seat=seat)
        return
    h.live = live + 1
    expected = h.tiles[h.base + live]
    tile = ev.tile
    if tile is expected or tile is None:  # tiles are singletons: the common case is cheap
        return
    turn = rs.players[seat].draws + 1
    _found(ctx, h, DRAW.id, f"turn {turn}: seat {seat} draws {tile.mpsz}, but the wall's "
           f"next tile (live draw {live + 1} of {h.size}) is {expected.mpsz} {_proof(h)}",
           seat=seat, turn=turn)


def _replacement(ctx: CheckContext, h: _Hand, ev: Tsumo) -> None:
    seat = ev.actor
    turn = ctx.round.players[seat].draws
    kan = h.kans
    if kan >= 4 and (h.players == 4 or kan >= 8):  # three players: four kans, four kita
        _found(ctx, h, REPLACEMENT.id, f"turn {turn}: seat {seat} draws a "
               f"{'fifth' if kan == 4 else 'ninth'} replacement tile; the dead wall gives "
               f"{'four' if kan == 4 else 'eight'} {_proof(h)}", seat=seat)
        return
    h.kans = kan + 1
    h.size -= 1
    if kan >= 4:  # a three-player dead wall's later places: no real log shows them
        h.unknown = True
        return
    if not h.known(kan):
        return
    assert h.wall is not None
    expected = h.tiles[h.wall.replacement_position(kan)]
    if ev.tile is not None and ev.tile is not expected:
        _found(ctx, h, REPLACEMENT.id, f"turn {turn}: seat {seat} draws {ev.tile.mpsz}, "
               f"but the wall's replacement tile {kan + 1} is {expected.mpsz} {_proof(h)}",
               seat=seat, turn=turn)


@check(Dora, rules=(INDICATOR.id,))
def kan_dora(ctx: CheckContext, ev: Dora) -> None:
    h = _hand(ctx)
    if h is None:
        return
    h.doras += 1
    if h.doras > 4:
        _found(ctx, h, INDICATOR.id, f"kan dora {h.doras}: the dead wall holds only four "
               f"kan-dora indicators {_proof(h)}")
        return
    if h.players == 3:  # no real three-player log shows where its kan dora lie
        h.unknown = True
        return
    if not h.known(h.doras - 1):
        return
    assert h.wall is not None
    marker = h.tiles[h.wall.dora_position(h.doras)]
    if ev.dora_marker != marker:
        _found(ctx, h, INDICATOR.id, f"kan dora {h.doras}: the indicator revealed is "
               f"{ev.dora_marker.mpsz}, but the wall's is {marker.mpsz} {_proof(h)}")


@check(Hora, rules=(INDICATOR.id, LENGTH.id))
def win(ctx: CheckContext, ev: Hora) -> None:
    h = _hand(ctx)
    if h is None:
        return
    wall = h.wall
    for name, shown, ura in (("dora", ev.dora_markers, 0), ("ura", ev.ura_markers, 1)):
        for i, t in enumerate(shown or ()):
            if not h.known(i - 1):
                continue
            if i and h.players == 3:  # kan dora places of a three-player wall: unknown
                h.unknown = True
                continue
            assert wall is not None
            marker = h.tiles[wall.dora_position(i) ^ ura] if i <= 4 else None
            if t != marker:
                wall_text = marker.mpsz if marker is not None else "none"
                _found(ctx, h, INDICATOR.id, f"win of seat {ev.actor}: {name} indicator "
                       f"{i + 1} is {t.mpsz}, but the wall's is {wall_text} {_proof(h)}",
                       seat=ev.actor)
    last = [y.name.lower() for y, _ in ev.yaku or () if y in _LAST_TILE]
    if last and h.live != h.size:
        _found(ctx, h, LENGTH.id, f"win of seat {ev.actor} counts {last[0]}, but "
               f"{h.size - h.live} live tiles are left in the wall {_proof(h)}",
               seat=ev.actor)


@check(Ryukyoku, rules=(LENGTH.id,))
def exhaustive(ctx: CheckContext, ev: Ryukyoku) -> None:
    h = _hand(ctx)
    if h is None or ev.reason not in (DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN):
        return
    if h.live < h.size:
        _found(ctx, h, LENGTH.id, f"exhaustive draw with {h.size - h.live} live tiles "
               f"still in the wall ({h.live} of {h.size} drawn) {_proof(h)}")


# -- the hand's end ------------------------------------------------------------------------


@check(EndKyoku, rules=(DEAL.id, DRAW.id, REPLACEMENT.id, INDICATOR.id, DICE.id, LENGTH.id),
       phase="after")
def hand_end(ctx: CheckContext, ev: EndKyoku) -> list[Violation] | None:
    return _flush(ctx)


@check(EndGame, rules=(DEAL.id, DRAW.id, REPLACEMENT.id, INDICATOR.id, DICE.id, LENGTH.id))
def game_end(ctx: CheckContext, ev: EndGame) -> list[Violation] | None:
    return _flush(ctx)


def close_walls(memos: Memos, state: GameState,
                hands: Sequence[HandRecord]) -> list[Violation]:
    """At the end of a replay: the findings of a hand still open, and each hand's wall
    status written into ``hands`` (left ``None`` when the wall checks did not run)."""
    box = memos.peek(_MEMORY)
    w = box.walls if box is not None else None
    if w is None:
        return []
    _close(state, w)
    found, w.pending = w.pending, []
    for record, status in zip(hands, w.statuses, strict=False):
        record.wall = status
    return found
