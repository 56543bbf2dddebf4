"""Wins: a complete hand with a yaku (EMA RCR 3.2), and no ron while furiten (3.4.5).

Furiten is judged on the winning *shape*, yaku or not (RULESETS.md section 5):
the three kinds are kept by :mod:`kansa.replay.tracker`; tsumo is always allowed.
"""

from __future__ import annotations

from typing import Final

from kansa.replay import hand
from kansa.replay.checks.registry import check
from kansa.replay.checks.text import (
    hand_text,
    kinds_text,
    mask_kinds,
    reading_text,
    shanten_text,
)
from kansa.replay.context import CheckContext
from kansa.replay.events import Hora
from kansa.replay.rules import TempFuritenClear
from kansa.replay.scoring import hand_value
from kansa.replay.situation import win_situation
from kansa.replay.state import PlayerState, RoundState
from kansa.replay.tiles import Tile, format_tiles
from kansa.replay.violations import Severity, Violation, define

_TH: Final = "Tenhou.net rules (riichi.wiki/Tenhou.net_rules), "
_MS: Final = "Mahjong Soul rules (riichi.wiki/Mahjong_Soul), "

FURITEN_DISCARD: Final = define(
    "furiten.discard", "Ron while furiten on an own discard", Severity.ERROR, "EMA RCR 3.4.5",
    "A player wins on a discard while one of their waits is among the tiles they discarded "
    "this hand (tiles called away included), whether or not that tile would give a yaku.",
    tenhou=_TH + "furiten (sutehai furiten); EMA RCR 3.4.5",
    majsoul=_MS + "furiten; EMA RCR 3.4.5",
)
FURITEN_TEMPORARY: Final = define(
    "furiten.temporary", "Ron while temporarily furiten", Severity.ERROR, "EMA RCR 3.4.5",
    "A player who let a winning tile pass (a discard, or a tile added to a kong) wins on a "
    "discard before the furiten ended: EMA 2016 at the player's next draw or claim, Tenhou "
    "and Mahjong Soul at the player's next discard (RULESETS.md section 5).",
    tenhou=_TH + "temporary furiten (doujun furiten) lasts until the player's own next "
    "discard; skipping a chankan counts; EMA RCR 3.4.5",
    majsoul=_MS + "temporary furiten lasts until the player's own next discard; EMA RCR 3.4.5",
)
FURITEN_RIICHI: Final = define(
    "furiten.riichi", "Ron while furiten after passing a win in riichi", Severity.ERROR,
    "EMA RCR 3.3.12, 3.4.5",
    "A riichi player who let a winning tile pass is furiten for the rest of the hand.",
    tenhou=_TH + "riichi furiten lasts the rest of the hand; EMA RCR 3.3.12",
    majsoul=_MS + "riichi furiten lasts the rest of the hand; EMA RCR 3.3.12",
)
INCOMPLETE: Final = define(
    "win.incomplete", "Win with a hand that is not complete", Severity.ERROR, "EMA RCR 3.2",
    "The winner's hand with the winning tile is not four sets and a pair, seven pairs or "
    "thirteen orphans (called sets count as sets).",
    tenhou=_TH + "agari; EMA RCR 3.2",
)
NO_YAKU: Final = define(
    "win.no-yaku", "Win without a yaku", Severity.ERROR, "EMA RCR 3.2",
    "The winning hand is complete but has no yaku; dora, red fives and ura dora are not yaku.",
    tenhou=_TH + "one yaku required (no ryanhan shibari); EMA RCR 3.2",
    majsoul=_MS + "one yaku required; EMA RCR 3.2",
)

_TEMP_END: Final = {
    TempFuritenClear.OWN_DISCARD: "has not discarded since (temporary furiten ends at the "
    "player's own next discard)",
    TempFuritenClear.OWN_DRAW_OR_CLAIM: "has not drawn or claimed a tile since (temporary "
    "furiten ends when the player draws or claims)",
    TempFuritenClear.DRAW_OR_ANY_CALL: "since then has not drawn, and nobody has called "
    "(temporary furiten ends at the player's draw or at any call)",
}


def ron_tile(rs: RoundState, ev: Hora) -> Tile | None:
    """The tile won on by ron: the robbed kan tile, the North just set aside, the last
    discard, or the log's word."""
    if rs.kakan is not None and rs.kakan[0] == ev.target:
        return rs.kakan[1]
    if rs.kita is not None and rs.kita[0] == ev.target:
        return rs.kita[1]
    last = rs.last_discard
    if last is not None and last.seat == ev.target:
        return last.tile
    return ev.tile


@check(Hora, rules=("furiten.discard", "furiten.temporary", "furiten.riichi"))
def ron_furiten(ctx: CheckContext, ev: Hora) -> list[Violation] | None:
    if ev.actor == ev.target:
        return None  # tsumo is allowed while furiten
    rs = ctx.round
    p = rs.players[ev.actor]
    if p.waits <= 0:
        return None
    tile = ron_tile(rs, ev)
    if tile is None or not p.waits >> tile.index & 1:
        return None  # not a winning shape: win.incomplete says so
    who = f"seat {ev.actor} wins by ron on {tile.mpsz} from seat {ev.target}"
    own = [k for k in mask_kinds(p.waits) if p.discarded34[k]]
    if own:
        return [ctx.violation(
            "furiten.discard", f"{who} with {hand_text(p)}, waiting on "
            f"{kinds_text(mask_kinds(p.waits))}, but is furiten: "
            + "; ".join(_discarded(p, k) for k in own), seat=ev.actor)]
    if p.riichi_furiten is not None:
        return [ctx.violation(
            "furiten.riichi", f"{who}, but in riichi it let {p.riichi_furiten.describe()} "
            f"pass without winning; {hand_text(p)} waits on {kinds_text(mask_kinds(p.waits))}, "
            "so it is furiten for the rest of the hand", seat=ev.actor)]
    if p.temp_furiten is not None:
        return [ctx.violation(
            "furiten.temporary", f"{who}, but it let {p.temp_furiten.describe()} pass "
            f"without winning, although {hand_text(p)} waits on "
            f"{kinds_text(mask_kinds(p.waits))}, and "
            f"{_TEMP_END[ctx.rules.temp_furiten_clear]}", seat=ev.actor)]
    return None


def _discarded(p: PlayerState, kind: int) -> str:
    for i, r in enumerate(p.river):
        if r.tile.index == kind:
            called = f", called by seat {r.called_by}" if r.called_by is not None else ""
            return f"it discarded {r.tile.mpsz} itself (discard {i + 1}{called})"
    return f"it discarded {kinds_text((kind,))} itself"


@check(Hora, rules=("win.incomplete", "win.no-yaku"))
def win_hand(ctx: CheckContext, ev: Hora) -> list[Violation] | None:
    rs = ctx.round
    p = rs.players[ev.actor]
    tsumo = ev.actor == ev.target
    tile = p.last_draw if tsumo else ron_tile(rs, ev)
    if p.hidden:
        if ev.hand is None:
            return None
        counts = [0] * 34
        for t in ev.hand:
            counts[t.index] += 1
    else:
        counts = list(p.c34)
        if not tsumo:
            if tile is None:
                return None
            counts[tile.index] += 1
    if sum(counts) != 14 - 3 * len(p.melds):
        return None  # a wrong hand size is tiles.hand-size's finding
    complete = hand.is_complete(counts)
    if complete:
        if p.riichi or (tsumo and p.is_closed):
            return None  # riichi, or menzen tsumo: a yaku at a glance
        sit = win_situation(ctx.game, ev, ctx.rules)
        # the scoring module's calculator (cached: the engine values the same win)
        if sit is None or hand_value(sit, ctx.rules).error != "no_yaku":
            return None
    name = tile.mpsz if tile is not None else "an unknown tile"
    how = f"by tsumo on {name}" if tsumo else f"by ron on {name} from seat {ev.target}"
    who = f"seat {ev.actor} wins {how}"
    if p.hidden:
        shown = f"the claimed hand {format_tiles(ev.hand or ())}"
    else:
        shown = hand_text(p, None if tsumo else tile)
    if not complete:
        return [ctx.violation("win.incomplete", f"{who} with {shown}, which is not a "
                              f"complete hand ({_shape(counts, p, tsumo, tile)})",
                              seat=ev.actor)]
    reading = ", ".join(reading_text(d.form, d.pair, d.sets) if d.form == "standard"
                        else d.form for d in hand.decompositions(counts))
    return [ctx.violation("win.no-yaku", f"{who} with {shown}: complete ({reading}) but "
                          "with no yaku (dora and red fives are not yaku)", seat=ev.actor)]


def _shape(counts: list[int], p: PlayerState, tsumo: bool, tile: Tile | None) -> str:
    if not tsumo and p.waits >= 0:
        if p.waits == 0:
            return f"the hand before it had no wait ({shanten_text(p.c34)})"
        return f"the hand before it waited on {kinds_text(mask_kinds(p.waits))}"
    n = sum(counts)
    if tile is not None and counts[tile.index] > 0 and n % 3 == 2 and n <= 14:  # 3k+1 before
        before = list(counts)
        before[tile.index] -= 1
        away = hand.shanten(before)
        if away > 0:
            return f"without {tile.mpsz} it is {away}-shanten"
        return f"without {tile.mpsz} it waits on {kinds_text(mask_kinds(hand.waits_mask(before)))}"
    return shanten_text(counts)
