"""The flow of the game: the next dealer, the counters, the sticks, and when the game ends.

:func:`next_hand` works out from a hand's result what the next hand must be
(RULESETS.md rows 32, 33, 37 and 40); the checks compare it with the hand the
log starts next, or with the log's end of the game.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Final

from kansa.replay.checks.registry import check
from kansa.replay.checks.ruleset import report_mismatch
from kansa.replay.context import CheckContext
from kansa.replay.events import DrawReason, EndGame, StartKyoku
from kansa.replay.memory import Memory
from kansa.replay.payments import ranking
from kansa.replay.rules import RuleSet
from kansa.replay.settle import assumed_tenpai
from kansa.replay.state import RoundState
from kansa.replay.tiles import WINDS, Seat, Tile
from kansa.replay.violations import Severity, Violation, define

DEALER: Final = define(
    "flow.dealer", "Wrong next dealer or round", Severity.ERROR, "EMA RCR 3.1, 3.4.10",
    "The next hand's dealer, round wind or hand number does not follow from the last result: "
    "the dealer repeats after a win (also as one of several winners), after tenpai at an "
    "exhaustive draw, and (where the rule set has them) after an abortive draw; otherwise the "
    "deal passes to the right.",
    tenhou="Tenhou rules: 連荘 (dealer win, dealer tenpai, abortive draws)",
)
HONBA: Final = define(
    "flow.honba", "Wrong honba count", Severity.ERROR, "EMA RCR 3.4.2, 3.4.10",
    "The next hand's honba count does not follow from the last result: one more after any "
    "draw and after a dealer's win, back to zero after a win by anyone else.",
    tenhou="Tenhou rules: 積み棒",
)
STICKS_ON_TABLE: Final = define(
    "flow.sticks", "Wrong riichi sticks on the table", Severity.ERROR, "EMA RCR 3.4.4",
    "The riichi sticks the next hand starts with are not those left on the table: the sticks "
    "of the last hands carried over draws, none after a win.",
)
END: Final = define(
    "flow.end", "The game ends when it should not, or goes on when it should end",
    Severity.ERROR, "EMA RCR 3.1 (East and South rounds)",
    "The game must end after the last hand of the South round (East round for an East-only "
    "game), when a score goes below zero where the rule set has bankruptcy, when the all-last "
    "dealer stops as top with the target score, and in a West extension as soon as someone "
    "reaches it (at the latest after West 4); and not before.",
    tenhou="Tenhou rules: 西入 sudden death, 飛び, all-last 和了止め/聴牌止め",
)


@dataclass(frozen=True, slots=True)
class NextHand:
    bakaze: Tile
    kyoku: int
    oya: Seat | None
    """``None`` when it cannot be told (the dealer's tenpai is not known)."""
    honba: int
    end: str | None
    """Why the game ends here, or ``None`` when it goes on (or when that is not known)."""
    end_known: bool
    """Whether the game goes on or not can be told (the dealer's tenpai may be unknown)."""
    why: str
    """What the last result was, for messages."""


def _position(bakaze: Tile, kyoku: int, players: int) -> int:
    """E1 = 0 ... S4 = 7, W1 = 8 ... at four players; each wind has one hand per dealer
    (E1 = 0 ... E3 = 2, S1 = 3 ... at three)."""
    return (bakaze.index - Tile.EAST.index) * players + kyoku - 1


def _label(pos: int, players: int) -> str:
    return f"{WINDS[(pos // players) % 4].mjai}{pos % players + 1}"


def dealer_tenpai(rs: RoundState) -> bool | None:
    draw = rs.draw
    if draw is None:
        return None
    oya = rs.start.oya
    if draw.tenpai is not None and len(draw.tenpai) > oya:
        return draw.tenpai[oya] or oya in assumed_tenpai(rs, draw)
    if draw.reason is DrawReason.EXHAUSTIVE and draw.deltas is not None:
        d = draw.deltas[oya]
        return None if d == 0 else d > 0  # the sign of a noten payment
    return None


def next_hand(rs: RoundState, winners: Sequence[Seat], scores: Sequence[int] | None,
              rules: RuleSet) -> NextHand:
    """What follows the finished hand ``rs``, won by ``winners`` (none for a draw; the
    wins that count), with ``scores`` after it."""
    start = rs.start
    oya = start.oya
    n = rules.players
    pos = _position(start.bakaze, start.kyoku, n)
    abortive = False
    renchan: bool | None
    if winners:
        renchan = oya in winners
        honba = start.honba + 1 if renchan else 0
        why = (f"dealer seat {oya} won" if renchan
               else f"seat{'s' if len(winners) > 1 else ''} "
                    f"{', '.join(map(str, winners))} won")
    else:
        draw = rs.draw
        honba = start.honba + 1
        if draw is not None and draw.reason.is_abortive:
            abortive = True
            renchan = True
            why = f"an abortive draw ({draw.reason.value})"
        else:
            renchan = dealer_tenpai(rs)
            state = {True: "tenpai", False: "noten", None: "tenpai or not"}[renchan]
            why = f"an exhaustive draw with dealer seat {oya} {state}"
    if renchan is None:
        ends = (_end(pos, oya, True, False, scores=scores, rules=rules),
                _end(pos, oya, False, False, scores=scores, rules=rules))
        end = ends[0] if ends[0] is not None and ends[1] is not None else None
        known = (ends[0] is None) == (ends[1] is None)
    else:
        end, known = _end(pos, oya, renchan, abortive, scores=scores,
                                rules=rules), True
    nxt = pos if renchan else pos + 1
    return NextHand(bakaze=WINDS[(nxt // n) % 4], kyoku=nxt % n + 1,
                    oya=None if renchan is None else Seat(oya if renchan else (oya + 1) % n),
                    honba=honba, end=end, end_known=known, why=why)


def _end(pos: int, oya: Seat, renchan: bool, abortive: bool, *,
         scores: Sequence[int] | None, rules: RuleSet) -> str | None:
    """Why the game ends after the hand at ``pos`` (Mortal's ``arena/game.rs`` models
    Tenhou's rule: bankruptcy first, abortive draws repeat, the all-last dealer stops as top
    with the target score, the West extension ends once someone has it)."""
    per_wind = rules.players
    length = (2 if rules.hanchan else 1) * per_wind
    target = rules.target_score
    if scores is not None and rules.tobi:
        low = [s for s, v in enumerate(scores) if v < 0]
        if low:
            return f"seat {low[0]} is below zero"
    reached = scores is not None and any(v >= target for v in scores)
    if abortive:
        if rules.west_extension and pos >= length and reached:
            return f"someone has {target} in the extension"
        return None
    if renchan:
        if rules.agari_yame and pos >= length - 1 and scores is not None \
                and scores[oya] >= target and ranking(scores)[0] == oya:
            return f"the all-last dealer seat {oya} is top with {scores[oya]}"
        return None
    nxt = pos + 1
    if rules.west_extension:
        if nxt >= length + per_wind:
            return f"West {per_wind} was the last hand"
        if nxt >= length and reached:
            return f"{_label(pos, per_wind)} is over and someone has {target}"
        return None
    if nxt >= length:
        return f"{_label(pos, per_wind)} was the last hand"
    return None


@dataclass(slots=True)
class _Length:
    played: RuleSet | None = None
    """The rule set of the other game length, once the play showed that one."""


_LENGTH: Final = Memory("flow.length", _Length, per_hand=False)


def _flow_rules(ctx: CheckContext) -> RuleSet:
    """The audit rule set, or its other game length once the play showed that one."""
    played = ctx.memos.get(_LENGTH).played
    return played if played is not None else ctx.rules


def _length(rules: RuleSet) -> str:
    return "East-South" if rules.hanchan else "East-only"


def _other_length(ctx: CheckContext, rules: RuleSet, rs: RoundState, goes_on: bool,
                  what: str) -> Iterator[Violation]:
    """One ``ruleset.mismatch`` when the play goes on past the end of the rule set's
    game length as a game of the other length would, where the rule set's length is the
    header's (a header the play contradicts); the flow then follows the play, so the
    fact is one finding, not one per hand.  A game that ends early is one finding
    already and stays the rule set's verdict, and so does the difference under a rule
    set of another length (``--rules ema`` on an East-only game).  Where the log does
    not say its length (a Mahjong Soul conversion's room name without 東 or 南), a game
    that ends as one of the other length would is followed as well, with no finding."""
    own = ctx.own_rules
    unstated = ctx.log is not None and ctx.log.hints.hanchan is None
    if ((not goes_on and not unstated) or ctx.memos.get(_LENGTH).played is not None
            or own is None or own.hanchan != rules.hanchan):
        return
    other = rules.replace(hanchan=not rules.hanchan)
    nh = next_hand(rs, _winners(ctx), ctx.game.scores, other)
    if (nh.end is None) != goes_on:
        return
    ctx.memos.get(_LENGTH).played = other
    if unstated:
        return  # no header to contradict: the play shows the length
    found = report_mismatch(ctx, "length", (
        f"{what}, as in an {_length(other)} game; the log's rules "
        f"({ctx.rules.name}) make it {_length(rules)}. The game's length is taken from "
        "the play (a header the play contradicts)"))
    if found:
        yield from found


def _winners(ctx: CheckContext) -> list[Seat]:
    """The winners of the hand that ended (an extra ron of a head bump left out)."""
    return [e.event.actor for e in ctx.wins if not e.extra]


def _previous(ctx: CheckContext) -> RoundState | None:
    rs = ctx.game.round
    if rs is None or not rs.ended or rs.desync is not None:
        return None
    return rs


@check(StartKyoku, rules=("flow.dealer", "flow.honba", "flow.sticks", "flow.end"),
       phase="before")
def next_hand_follows(ctx: CheckContext, ev: StartKyoku) -> Iterator[Violation]:
    rs = _previous(ctx)
    if rs is None:
        return
    st = ctx.game
    rules = _flow_rules(ctx)
    nh = next_hand(rs, _winners(ctx), st.scores, rules)
    after = f"after {rs.label} ({nh.why})"
    if nh.end is not None:
        before = ctx.memos.get(_LENGTH).played
        contradicted = list(_other_length(
            ctx, rules, rs, True, f"hand {ev.label} starts {after}"))
        if not contradicted and ctx.memos.get(_LENGTH).played is before:
            yield ctx.violation("flow.end", (
                f"hand {ev.label} starts, but the game should have ended {after}: {nh.end}"))
            return
        yield from contradicted
        rules = _flow_rules(ctx)
        nh = next_hand(rs, _winners(ctx), st.scores, rules)
        after = f"after {rs.label} ({nh.why})"
    if (ev.bakaze, ev.kyoku) != (nh.bakaze, nh.kyoku) or \
            (nh.oya is not None and ev.oya != nh.oya):
        dealer = f"dealer seat {nh.oya}" if nh.oya is not None else "its dealer"
        if nh.oya is None:  # either the dealer repeats or the deal passes
            repeat = (ev.bakaze, ev.kyoku, ev.oya) == (rs.start.bakaze, rs.start.kyoku,
                                                       rs.start.oya)
            passed = ev.oya == (rs.start.oya + 1) % rules.players and \
                (ev.bakaze, ev.kyoku) == (nh.bakaze, nh.kyoku)
            if repeat or passed:
                dealer = ""
        if dealer:
            yield ctx.violation("flow.dealer", (
                f"hand {ev.bakaze.mjai}{ev.kyoku} starts with dealer seat {ev.oya}; {after} "
                f"the next hand is {nh.bakaze.mjai}{nh.kyoku} with {dealer}"))
    if ev.honba != nh.honba:
        yield ctx.violation("flow.honba", (
            f"hand {ev.label} starts with {ev.honba} honba; {after} it has {nh.honba}"))
    if ev.kyotaku != st.kyotaku:
        yield ctx.violation("flow.sticks", (
            f"hand {ev.label} starts with {ev.kyotaku} riichi sticks on the table; "
            f"{st.kyotaku} were left {after}"))


@check(EndGame, rules=("flow.end",), phase="before")
def game_ends_in_time(ctx: CheckContext, ev: EndGame) -> Iterator[Violation]:
    rs = _previous(ctx)
    if rs is None:
        return
    rules = _flow_rules(ctx)
    nh = next_hand(rs, _winners(ctx), ctx.game.scores, rules)
    if nh.end is None and nh.end_known:
        before = ctx.memos.get(_LENGTH).played
        contradicted = list(_other_length(
            ctx, rules, rs, False, f"the game ends after {rs.label} ({nh.why})"))
        if contradicted or ctx.memos.get(_LENGTH).played is not before:
            yield from contradicted
            return
        yield ctx.violation("flow.end", (
            f"the game ends after {rs.label} ({nh.why}), but under {ctx.rules.name} it goes "
            f"on with {nh.bakaze.mjai}{nh.kyoku}"))
