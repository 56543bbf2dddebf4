"""Kita (nukidora): a North set aside at a three-player table, and the calls such a table
does without.

At Tenhou's and Mahjong Soul's three-player tables (riichi.wiki, Sanma; Tenhou's
three-player rules, 三人打ち 北抜きドラ) a player may set a North aside in their own
turn, after a draw, and draw a replacement tile from the dead wall; the North counts as
a dora for its owner and may be won on by a player waiting on it.  There is no chi.
The engine itself reports a kita out of turn (log.out-of-order) and of a tile the player
does not hold (tiles.not-in-hand); the checks here judge the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kansa.replay.checks.registry import check
from kansa.replay.context import CheckContext
from kansa.replay.events import Chi, Nukidora, Pon
from kansa.replay.memory import Memory
from kansa.replay.tiles import Seat, Tile
from kansa.replay.violations import Severity, Violation, define

_SANMA: Final = "Tenhou and Mahjong Soul three-player rules (riichi.wiki Sanma)"

define(
    "kita.not-north", "Kita of a tile that is not North", Severity.ERROR,
    _SANMA + ": only North (4z) is set aside as kita",
    "Only a North may be set aside as kita (nukidora). A kita of another tile is reported "
    "here; a kita of a North the player does not hold is tiles.not-in-hand.",
)
define(
    "kita.no-replacement", "Kita with no tile left to replace it", Severity.ERROR,
    _SANMA + "; EMA RCR 3.4.1 (no kong on the last tile, as for a kan)",
    "A kita is replaced by a draw from the dead wall, which the live wall refills: after "
    "the last live tile has been drawn there is no replacement, so no North may be set "
    "aside.",
)
define(
    "kita.timing", "Kita at a moment the rules do not allow", Severity.ERROR,
    _SANMA + ": kita in the player's own turn after a draw; EMA RCR 3.3.12 (riichi)",
    "A North may be set aside only at a three-player table, in the player's own turn after "
    "a draw or a replacement draw (not in a turn that began with a chi or pon), and after "
    "riichi only the North just drawn (the rest of the hand is locked).",
)
define(
    "claim.chi-three-player", "Chi at a three-player table", Severity.ERROR,
    _SANMA + ": no chi",
    "Three-player riichi has no chow: a discard may be claimed for a pung, a kong or a "
    "win, never for a chi.",
)


@dataclass(slots=True)
class _Kita:
    called: tuple[Seat, int] | None = None
    """The last chi or pon: the caller and its number of wall draws then."""


_MEMORY: Final = Memory("kita", _Kita)


@check(Nukidora, rules=("kita.not-north",))
def not_north(ctx: CheckContext, ev: Nukidora) -> list[Violation] | None:
    if ev.tile.index == Tile.NORTH.index:
        return None
    return [ctx.violation(
        "kita.not-north", f"seat {ev.actor} sets {ev.tile} aside as kita; only a North may "
        "be set aside", seat=ev.actor)]


@check(Nukidora, rules=("kita.no-replacement",))
def no_replacement(ctx: CheckContext, ev: Nukidora) -> list[Violation] | None:
    if ctx.round.live_wall > 0:
        return None
    return [ctx.violation(
        "kita.no-replacement", f"seat {ev.actor} sets a North aside after drawing the last "
        "wall tile; no tile is left to replace it", seat=ev.actor)]


@check(Chi, Pon, rules=("kita.timing",), phase="after")
def _note_call(ctx: CheckContext, ev: Chi | Pon) -> None:
    ctx.memos.get(_MEMORY).called = (ev.actor, ctx.player(ev.actor).draws)


@check(Nukidora, rules=("kita.timing",))
def timing(ctx: CheckContext, ev: Nukidora) -> list[Violation] | None:
    players = ctx.rules.players
    who = f"seat {ev.actor} sets a North aside"
    if players != 3:
        return [ctx.violation(
            "kita.timing", f"{who} at a {players}-player table; only three-player games "
            "have kita", seat=ev.actor)]
    p = ctx.player(ev.actor)
    rs = ctx.round
    if p.size != 14 or rs.after_kan:
        when = "before its replacement draw" if rs.after_kan else "after its discard"
        return [ctx.violation(
            "kita.timing", f"{who} {when}, holding {p.size} tiles; a kita comes in the "
            "player's own turn after a draw", seat=ev.actor)]
    if ctx.memos.get(_MEMORY).called == (ev.actor, p.draws):
        return [ctx.violation(
            "kita.timing", f"{who} in the turn it began with a call; a kita needs a draw "
            "first", seat=ev.actor)]
    drawn = p.last_draw
    if p.riichi and drawn is not None and drawn.index != Tile.NORTH.index:
        return [ctx.violation(
            "kita.timing", f"{who} from its hand after riichi, having drawn {drawn}; after "
            "riichi only a North just drawn may be set aside", seat=ev.actor)]
    return None


@check(Chi, rules=("claim.chi-three-player",))
def chi_three_player(ctx: CheckContext, ev: Chi) -> list[Violation] | None:
    if ctx.rules.players != 3:
        return None
    return [ctx.violation(
        "claim.chi-three-player", f"seat {ev.actor} calls chi on {ev.tile} from seat "
        f"{ev.target} at a three-player table, which has no chi", seat=ev.actor)]
