"""The wall against the shuffle seed: every dealt, drawn and revealed tile is the wall's.

Where the log carries a seed kansa can reproduce (Tenhou's ``<SHUFFLE seed>``, see
:mod:`kansa.replay.wall`), each hand's wall is rebuilt and the log's tiles are compared
with it position by position.  A hand's first difference is reported with its proof;
the others of the same hand are counted in that finding.  Each hand gets a status
(``verified``, ``mismatched``, ``partial`` when the replay lost the hand, ``no_seed``):
:func:`close_walls` writes it into the hand records.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field

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
from kansa.replay.result import HandRecord
from kansa.replay.state import GameState, RoundState
from kansa.replay.tiles import Tile, format_tiles
from kansa.replay.violations import Severity, Violation, define
from kansa.replay.wall import LEGACY_SEEN, Wall, game_walls
from kansa.replay.yaku import Yaku

_CITE = "Tenhou's published shuffle (mt19937ar-sha512-n288): the wall follows from the seed"
_ALL = "; the first difference of a hand is reported, with the number of the others"
DEAL = define(
    "wall.deal", "Dealt tiles that the seed's wall does not deal", Severity.ERROR, _CITE,
    "A player's starting hand differs from the 13 tiles the wall rebuilt from the log's "
    "shuffle seed deals that seat" + _ALL + ".")
DRAW = define(
    "wall.draw", "A draw that is not the wall's next tile", Severity.ERROR, _CITE,
    "A live-wall draw differs from the next tile of the wall rebuilt from the log's "
    "shuffle seed" + _ALL + ".")
REPLACEMENT = define(
    "wall.replacement", "A replacement draw that is not the dead wall's tile", Severity.ERROR,
    _CITE, "The draw after a kan differs from the dead-wall tile the seed's wall gives for "
    "that kan" + _ALL + ".")
INDICATOR = define(
    "wall.indicator", "A dora, kan-dora or ura indicator that is not the wall's",
    Severity.ERROR, _CITE,
    "A revealed indicator (the first dora, a kan dora, or an ura indicator shown at a win) "
    "differs from the dead-wall tile of the seed's wall" + _ALL + ".")
DICE = define(
    "wall.dice", "Dice that the seed did not throw", Severity.ERROR, _CITE,
    "The dice the hand's INIT records differ from the two the seed throws for that hand"
    + _ALL + ".")
LENGTH = define(
    "wall.length", "A hand whose live wall ends elsewhere than the seed's", Severity.ERROR,
    _CITE, "A draw from a live wall that the seed's wall has already emptied, an "
    "exhaustive draw while live tiles remain, or a last-tile win (haitei, houtei) that is "
    "not on the last tile" + _ALL + ".")

_MEMO = "wall"


@dataclass(slots=True)
class _Hand:
    wall: Wall
    number: int
    """The hand's place in the game (0 = the first INIT)."""
    live: int = 0
    """Live draws so far."""
    kans: int = 0
    """Replacement draws so far."""
    doras: int = 0
    """Kan-dora indicators revealed so far."""
    first: Violation | None = None
    more: int = 0
    unknown: bool = False
    """A tile was left uncompared (a dead-wall place of the hex-seed era no real log
    has shown): the hand is ``partial`` at best."""

    def known(self, kan: int) -> bool:
        """Whether the dead-wall tiles of kan ``kan`` (0 = the first kan: its replacement
        draw and the kan-dora indicator it reveals) are known for this wall."""
        if self.wall.legacy and kan >= LEGACY_SEEN:
            self.unknown = True
            return False
        return True

    @property
    def live_size(self) -> int:
        return Wall.live_size(self.wall.players, self.kans)


@dataclass(slots=True)
class _Walls:
    """One game's walls and what the hands so far made of them."""

    walls: Iterator[Wall] | None
    aka: bool
    dice: Sequence[tuple[int, int] | None]
    hand: _Hand | None = None
    statuses: list[str] = field(default_factory=list)
    pending: list[Violation] = field(default_factory=list)


def _walls(ctx: CheckContext) -> _Walls:
    memo = ctx.game.memo
    w: _Walls | None = memo.get(_MEMO)
    if w is None:
        log = ctx.log
        seeded = log is not None and ctx.rules.players == 4 and log.hints.players == 4
        w = memo[_MEMO] = _Walls(
            walls=game_walls(log.wall_seed) if seeded and log is not None else None,
            aka=log is None or log.hints.aka is not False, dice=log.dice if log else ())
    return w


def _close(w: _Walls, rs: RoundState | None) -> None:
    """Give the hand being played its status, and its finding, if any."""
    h = w.hand
    if h is None:
        return
    w.hand = None
    v = h.first
    if v is not None:
        if h.more:
            s = "s" if h.more > 1 else ""
            v = dataclasses.replace(v, message=f"{v.message}; {h.more} other tile{s} of this "
                                               f"hand differ{'' if s else 's'} from the wall too")
        w.pending.append(v)
        w.statuses[h.number] = "mismatched"
    elif h.unknown or (rs is not None and rs.desync is not None):
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


def _flush(ctx: CheckContext) -> list[Violation] | None:
    w = _walls(ctx)
    _close(w, ctx.game.round)
    found, w.pending = w.pending, []
    return found or None


def _tile(w: _Walls, tile_id: int) -> Tile:
    return Tile.from_tenhou_id(tile_id, w.aka)


def _proof(h: _Hand) -> str:
    return f"(the wall of hand {h.number + 1} of the game, from the log's shuffle seed)"


# -- the hand's start ----------------------------------------------------------------------


@check(StartKyoku, rules=(DEAL.id, DRAW.id, REPLACEMENT.id, INDICATOR.id, DICE.id, LENGTH.id))
def next_wall(ctx: CheckContext, ev: StartKyoku) -> list[Violation] | None:
    """Close the previous hand and take the next wall from the seed."""
    found = _flush(ctx)
    w = _walls(ctx)
    number = len(w.statuses)
    w.statuses.append("no_seed")
    if w.walls is not None:
        w.hand = _Hand(next(w.walls), number)
    return found


@check(StartKyoku, rules=(DEAL.id, INDICATOR.id, DICE.id), phase="after")
def deal(ctx: CheckContext, ev: StartKyoku) -> None:
    w = _walls(ctx)
    h = w.hand
    if h is None:
        return
    wall = h.wall
    n = len(ev.tehais)
    for seat, tiles in enumerate(ev.tehais):
        dealt = [_tile(w, t) for t in wall.deal((seat - ev.oya) % n)]
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
    marker = _tile(w, wall.dora(0))
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
    h = _walls(ctx).hand
    if h is None:
        return
    rs = ctx.round
    seat = ev.actor
    wall = h.wall
    if rs.after_kan and rs.current == seat:
        if h.kans >= 4:
            _found(ctx, h, REPLACEMENT.id, f"turn {rs.players[seat].draws}: seat {seat} "
                   f"draws a fifth replacement tile; the dead wall gives four {_proof(h)}",
                   seat=seat)
            return
        tile_id = wall.replacement(h.kans)
        h.kans += 1
        if not h.known(h.kans - 1):
            return
        what, rule = f"replacement tile {h.kans}", REPLACEMENT.id
    else:
        if h.live >= h.live_size:
            _found(ctx, h, LENGTH.id, f"turn {rs.players[seat].draws + 1}: seat {seat} "
                   f"draws, but the wall's live tiles are all drawn ({h.live} draws after "
                   f"{h.kans} replacement draws) {_proof(h)}", seat=seat)
            return
        tile_id = wall.live(h.live)
        h.live += 1
        what, rule = f"next tile (live draw {h.live} of {h.live_size})", DRAW.id
    expected = _tile(_walls(ctx), tile_id)
    if ev.tile is not None and ev.tile != expected:
        turn = rs.players[seat].draws + (rule == DRAW.id)
        _found(ctx, h, rule, f"turn {turn}: seat {seat} draws {ev.tile.mpsz}, but the "
               f"wall's {what} is {expected.mpsz} {_proof(h)}", seat=seat, turn=turn)


@check(Dora, rules=(INDICATOR.id,))
def kan_dora(ctx: CheckContext, ev: Dora) -> None:
    w = _walls(ctx)
    h = w.hand
    if h is None:
        return
    h.doras += 1
    if h.doras > 4:
        _found(ctx, h, INDICATOR.id, f"kan dora {h.doras}: the dead wall holds only four "
               f"kan-dora indicators {_proof(h)}")
        return
    if not h.known(h.doras - 1):
        return
    marker = _tile(w, h.wall.dora(h.doras))
    if ev.dora_marker != marker:
        _found(ctx, h, INDICATOR.id, f"kan dora {h.doras}: the indicator revealed is "
               f"{ev.dora_marker.mpsz}, but the wall's is {marker.mpsz} {_proof(h)}")


@check(Hora, rules=(INDICATOR.id, LENGTH.id))
def win(ctx: CheckContext, ev: Hora) -> None:
    w = _walls(ctx)
    h = w.hand
    if h is None:
        return
    for name, shown, position in (("dora", ev.dora_markers, h.wall.dora),
                                  ("ura", ev.ura_markers, h.wall.ura)):
        for i, t in enumerate(shown or ()):
            if i and not h.known(i - 1):
                continue
            marker = _tile(w, position(i)) if i <= 4 else None
            if t != marker:
                wall_text = marker.mpsz if marker is not None else "none"
                _found(ctx, h, INDICATOR.id, f"win of seat {ev.actor}: {name} indicator "
                       f"{i + 1} is {t.mpsz}, but the wall's is {wall_text} {_proof(h)}",
                       seat=ev.actor)
    last = [y.name.lower() for y, _ in ev.yaku or () if y in (Yaku.HAITEI, Yaku.HOUTEI)]
    if last and h.live != h.live_size:
        _found(ctx, h, LENGTH.id, f"win of seat {ev.actor} counts {last[0]}, but "
               f"{h.live_size - h.live} live tiles are left in the wall {_proof(h)}",
               seat=ev.actor)


@check(Ryukyoku, rules=(LENGTH.id,))
def exhaustive(ctx: CheckContext, ev: Ryukyoku) -> None:
    h = _walls(ctx).hand
    if h is None or ev.reason not in (DrawReason.EXHAUSTIVE, DrawReason.NAGASHI_MANGAN):
        return
    if h.live < h.live_size:
        _found(ctx, h, LENGTH.id, f"exhaustive draw with {h.live_size - h.live} live tiles "
               f"still in the wall ({h.live} of {h.live_size} drawn) {_proof(h)}")


# -- the hand's end ------------------------------------------------------------------------


@check(EndKyoku, rules=(DEAL.id, DRAW.id, REPLACEMENT.id, INDICATOR.id, DICE.id, LENGTH.id),
       phase="after")
def hand_end(ctx: CheckContext, ev: EndKyoku) -> list[Violation] | None:
    return _flush(ctx)


@check(EndGame, rules=(DEAL.id, DRAW.id, REPLACEMENT.id, INDICATOR.id, DICE.id, LENGTH.id))
def game_end(ctx: CheckContext, ev: EndGame) -> list[Violation] | None:
    return _flush(ctx)


def close_walls(state: GameState, hands: Sequence[HandRecord]) -> list[Violation]:
    """At the end of a replay: the findings of a hand still open, and each hand's wall
    status written into ``hands`` (left ``None`` when the wall checks did not run)."""
    w: _Walls | None = state.memo.get(_MEMO)
    if w is None:
        return []
    _close(w, state.round)
    found, w.pending = w.pending, []
    for record, status in zip(hands, w.statuses, strict=False):
        record.wall = status
    return found
