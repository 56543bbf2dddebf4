"""Riichi: who may declare it, and what a declarer may still do (EMA RCR 3.3.12)."""

from __future__ import annotations

from typing import Final

from kansa.replay import hand
from kansa.replay.checks.registry import check
from kansa.replay.checks.text import hand_text, kinds_text, mask_kinds, reading_text, shanten_text
from kansa.replay.context import CheckContext
from kansa.replay.events import Ankan, Chi, Dahai, Daiminkan, Kakan, Pon, Reach, ReachAccepted
from kansa.replay.rules import RiichiAnkan
from kansa.replay.state import PlayerState
from kansa.replay.violations import Severity, Violation, define

_TH: Final = "Tenhou.net rules (riichi.wiki/Tenhou.net_rules), "
_MS: Final = "Mahjong Soul rules (riichi.wiki/Mahjong_Soul), "

WALL: Final = define(
    "riichi.wall", "Riichi with fewer than four tiles left in the wall", Severity.ERROR,
    "EMA RCR 3.3.12",
    "Riichi declared when fewer tiles than the rule set's minimum (four: the declarer must "
    "still have a draw) are left in the live wall.",
    tenhou=_TH + "riichi: at least 4 tiles left in the wall; EMA RCR 3.3.12",
    majsoul=_MS + "riichi: at least 4 tiles left in the wall; EMA RCR 3.3.12",
    wrc="WRC 2015 (as EMA RCR 3.3.12): no riichi with fewer than four tiles in the wall",
)
OPEN_HAND: Final = define(
    "riichi.open-hand", "Riichi with an open hand", Severity.ERROR, "EMA RCR 3.3.12",
    "Riichi declared by a player who has called a chow, pung or open kong (a concealed "
    "kong keeps the hand concealed, EMA RCR 3.3.8).",
    tenhou=_TH + "riichi needs a closed hand; EMA RCR 3.3.12",
    majsoul=_MS + "riichi needs a closed hand; EMA RCR 3.3.12",
)
NOT_TENPAI: Final = define(
    "riichi.not-tenpai", "Riichi without a waiting hand", Severity.ERROR,
    "EMA RCR 3.3.12, 3.4.2",
    "The hand left after the declaration discard is not tenpai: no tile completes it, or "
    "it waits only on a kind it holds four times (EMA RCR 3.4.2).",
    tenhou=_TH + "riichi requires tenpai (a wait only on a tile held four times is not "
    "one); EMA RCR 3.3.12",
    majsoul=_MS + "riichi requires tenpai; EMA RCR 3.3.12",
)
POINTS: Final = define(
    "riichi.points", "Riichi without enough points for the stick", Severity.ERROR,
    "rule set: riichi_min_points (EMA RCR 3.3.12 sets no minimum)",
    "Riichi declared by a player holding fewer points than the rule set requires before "
    "paying the 1000-point stick (Tenhou and Mahjong Soul: 1000).",
    tenhou=_TH + "riichi needs at least 1000 points",
    majsoul=_MS + "riichi needs at least 1000 points",
)
TWICE: Final = define(
    "riichi.twice", "Riichi declared twice", Severity.ERROR, "EMA RCR 3.3.12",
    "A player who is already in riichi declares it again.",
    tenhou=_TH + "riichi; EMA RCR 3.3.12",
)
HAND_CHANGED: Final = define(
    "riichi.hand-changed", "Hand changed after riichi", Severity.ERROR, "EMA RCR 3.3.12",
    "After riichi the hand is locked: every discard must be the tile just drawn, and no "
    "tile may be called except to win (a concealed kong is judged by riichi.kan-changes-wait).",
    tenhou=_TH + "after riichi only the drawn tile is discarded; EMA RCR 3.3.12",
    majsoul=_MS + "after riichi only the drawn tile is discarded; EMA RCR 3.3.12",
)
KAN_CHANGES_WAIT: Final = define(
    "riichi.kan-changes-wait", "Concealed kong after riichi that is not allowed",
    Severity.ERROR, "EMA RCR 3.3.12; riichi.wiki Riichi, Kan during riichi",
    "After riichi a concealed kong is allowed only of the tile just drawn (no okurikan), "
    "when it does not change the waits and, under EMA, when the three tiles held can only "
    "be read as a pung (RULESETS.md section 2).",
    tenhou=_TH + "ankan after riichi only of the drawn tile and only if the waits do not "
    "change (RULESETS.md section 2); EMA RCR 3.3.12",
    majsoul=_MS + "ankan after riichi only if the waits do not change; EMA RCR 3.3.12",
)


# -- the declaration ------------------------------------------------------------------


@check(Reach, rules=("riichi.wall", "riichi.open-hand", "riichi.points", "riichi.twice"))
def riichi_declaration(ctx: CheckContext, ev: Reach) -> list[Violation] | None:
    rs = ctx.round
    rules = ctx.rules
    p = rs.players[ev.actor]
    found: list[Violation] = []
    who = f"seat {ev.actor}"
    if p.riichi or (p.riichi_pending and p.riichi_discard_index is not None):
        found.append(ctx.violation(
            "riichi.twice", f"{who} declares riichi again; it is already in riichi since its "
            f"turn {p.riichi_turn if p.riichi_turn is not None else p.draws}", seat=ev.actor))
    if not p.is_closed:
        opened = ", ".join(f"{m.type.value} {m.kind.mpsz}" for m in p.melds if m.is_open)
        found.append(ctx.violation(
            "riichi.open-hand", f"{who} declares riichi with an open hand ({opened}): "
            f"{hand_text(p)}", seat=ev.actor))
    if rs.live_wall < rules.riichi_min_live_wall:
        found.append(ctx.violation(
            "riichi.wall", f"{who} declares riichi with {rs.live_wall} tile"
            f"{'' if rs.live_wall == 1 else 's'} left in the live wall; at least "
            f"{rules.riichi_min_live_wall} are needed", seat=ev.actor))
    scores = ctx.game.scores
    if rules.riichi_min_points > 0 and scores is not None and ev.actor < len(scores) \
            and scores[ev.actor] < rules.riichi_min_points:
        found.append(ctx.violation(
            "riichi.points", f"{who} declares riichi holding {scores[ev.actor]} points, "
            f"before paying the stick; the {rules.name} rules need at least "
            f"{rules.riichi_min_points}", seat=ev.actor))
    return found or None


@check(ReachAccepted, rules=("riichi.not-tenpai",))
def riichi_tenpai(ctx: CheckContext, ev: ReachAccepted) -> list[Violation] | None:
    """Judged when the declaration stands (a declaration discard won on is void)."""
    p = ctx.round.players[ev.actor]
    if p.waits < 0 or p.tenpai or p.riichi_discard_index is None:
        return None
    tile = p.river[p.riichi_discard_index].tile
    waits = mask_kinds(p.waits)
    if waits:
        why = (f"it waits only on {kinds_text(waits)}, of which it holds all four, so it "
               "is not tenpai")
    else:
        why = f"no tile completes it ({shanten_text(p.c34)})"
    return [ctx.violation(
        "riichi.not-tenpai", f"seat {ev.actor} declares riichi discarding {tile.mpsz} and keeps "
        f"{hand_text(p)}: {why}", seat=ev.actor)]


# -- after the declaration -----------------------------------------------------------------


@check(Dahai, rules=("riichi.hand-changed",))
def riichi_discard(ctx: CheckContext, ev: Dahai) -> list[Violation] | None:
    p = ctx.game.round.players[ev.actor]  # type: ignore[union-attr]
    if not p.riichi or ev.tile is p.last_draw or (p.last_draw is None and p.hidden):
        return None  # (a one-seat log hides the other players' draws)
    if p.last_draw is None:
        why = "without having drawn a tile"
    else:
        why = f"instead of the tile just drawn, {p.last_draw.mpsz}"
    return [ctx.violation(
        "riichi.hand-changed", f"seat {ev.actor} is in riichi and discards {ev.tile.mpsz} from "
        f"{hand_text(p)} {why}", seat=ev.actor)]


@check(Chi, Pon, Daiminkan, Kakan, rules=("riichi.hand-changed",))
def riichi_call(ctx: CheckContext, ev: Chi | Pon | Daiminkan | Kakan) -> list[Violation] | None:
    p = ctx.round.players[ev.actor]
    if not p.riichi:
        return None
    name = type(ev).__name__.lower()
    return [ctx.violation(
        "riichi.hand-changed", f"seat {ev.actor} is in riichi and calls {name} on {ev.tile.mpsz}; "
        "after riichi a tile may be claimed only to win", seat=ev.actor)]


@check(Ankan, rules=("riichi.kan-changes-wait",))
def riichi_ankan(ctx: CheckContext, ev: Ankan) -> list[Violation] | None:
    p = ctx.round.players[ev.actor]
    if not p.riichi or p.hidden:
        return None
    kan = ev.consumed[0]
    kind = kan.index
    who = f"seat {ev.actor} is in riichi and declares a concealed kong of {kan.normal.mpsz}"
    drawn = p.last_draw
    if drawn is None or drawn.index != kind:
        what = f"the tile just drawn is {drawn.mpsz}" if drawn is not None else "no tile was drawn"
        return [ctx.violation(
            "riichi.kan-changes-wait", f"{who}, but {what}: only the drawn tile may complete "
            f"a kong after riichi (no okurikan); hand {hand_text(p)}", seat=ev.actor)]
    mode = ctx.rules.riichi_ankan
    if mode is RiichiAnkan.FORBIDDEN:
        return [ctx.violation(
            "riichi.kan-changes-wait", f"{who}; the {ctx.rules.name} rules allow no kong "
            "after riichi", seat=ev.actor)]
    counts = list(p.c34)
    counts[kind] -= 1
    if counts[kind] != 3 or sum(counts) % 3 != 1:
        return None  # the kan itself is impossible; tiles.* checks say so
    why = _ankan_problem(p, counts, kind, mode)
    if why is None:
        return None
    before = hand_text(p)
    return [ctx.violation("riichi.kan-changes-wait", f"{who} from {before}: {why}",
                          seat=ev.actor)]


def _ankan_problem(p: PlayerState, counts: list[int], kind: int,
                   mode: RiichiAnkan) -> str | None:
    """Why the kan of ``kind`` breaks ``mode``; ``None`` when it is allowed."""
    kan = kind_name(kind)
    waits = [k for k in mask_kinds(hand.waits_mask(counts)) if counts[k] < 4]
    if not hand.ankan_keeps_waits(counts, kind):
        after = list(counts)
        after[kind] = 0
        new = [k for k in mask_kinds(hand.waits_mask(after)) if k in waits]
        return (f"before the draw the hand waited on {kinds_text(waits)}; with the four "
                f"{kan} set aside as a kong it waits on {kinds_text(new)}, so the kong "
                "changes the waits")
    if mode is RiichiAnkan.STRICT and not hand.ankan_is_only_pung(counts, kind):
        for w in waits:
            h = list(counts)
            h[w] += 1
            for d in hand.decompositions(h):
                if (kind, "pon") not in d.sets:
                    reading = reading_text(d.form, d.pair, d.sets)
                    return (f"the waits ({kinds_text(waits)}) stay the same, but with "
                            f"{kind_name(w)} the hand also reads {reading}, where the three "
                            f"{kan} are not a pung; under EMA they must read only as a pung")
        return "the three tiles held can be read as something other than a pung"
    return None


def kind_name(kind: int) -> str:
    return kinds_text((kind,))

