"""``ruleset.mismatch``: the log shows a table rule the audit rule set does not have.

Auditing a game under a rule set other than its own (a Tenhou game under
``--rules ema``) is allowed and useful: every action is still checked under the
chosen rules.  What the log itself shows of its own rules (red fives, an abortive
draw the rule set does not have, nagashi mangan, a triple ron, kan indicators at
the other timing, a riichi below the rule set's points) is reported once per game
and difference, as a warning, so that a reader knows why the findings differ from
the platform's own verdict.

Other check modules report their differences with :func:`report_mismatch`.

Two kinds of difference:

* table features no action check judges (red fives, abortive draw types, nagashi
  mangan, several winners on one discard, robbing a concealed kan): reported
  whenever the log shows them;
* actions a check also reports as errors under the audit rule set (a riichi below
  the points, a riichi with too few tiles left, kan indicators at the other timing,
  play going on after four kans): reported when the log's own rule set
  (:meth:`~kansa.replay.rules.RuleSet.auto`, from its metadata) allows what the log shows,
  so the error is explained as a difference of rules rather than a player's fault.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from typing import Final

from kansa.replay.checks.registry import check
from kansa.replay.context import CheckContext
from kansa.replay.events import (
    Chi,
    Daiminkan,
    DrawReason,
    Event,
    Hora,
    Pon,
    Reach,
    Ryukyoku,
    StartKyoku,
)
from kansa.replay.melds import MeldType
from kansa.replay.memory import Memory
from kansa.replay.rules import MultiRon, RuleSet, UnknownRule
from kansa.replay.state import LEFT_OUT
from kansa.replay.tiles import Seat, Tile
from kansa.replay.violations import RULES, Severity, Violation, define
from kansa.replay.yaku import Yaku

MISMATCH: Final = define(
    "ruleset.mismatch", "The log follows different rules", Severity.WARNING, "kansa: rule set",
    "The log shows something the audit rule set does not have: red fives in a game "
    "audited without them, an abortive draw or nagashi mangan the rule set does not "
    "know, more winners on one discard than it allows, kan indicators revealed at the "
    "other timing, a riichi its points or wall rule forbids but the log's own rules "
    "allow. Reported once per game and difference; every action is still checked under "
    "the audit rule set.",
)

_REPORTED: Final[Memory[set[str]]] = Memory("ruleset.mismatch", set, per_hand=False)
"""The keys of the mismatches this game already reported."""


def report_mismatch(ctx: CheckContext, key: str, message: str, *,
                    seat: Seat | int | None = None) -> list[Violation] | None:
    """A ``ruleset.mismatch`` warning for ``key``, or ``None`` if this game already had one.

    ``message`` states what the log shows and what the audit rule set says.
    """
    seen = ctx.memos.get(_REPORTED)
    if key in seen:
        return None
    seen.add(key)
    return [ctx.violation("ruleset.mismatch", f"{message} (audited under "
                          f"{ctx.rules.name}; every action is still checked under it)",
                          seat=seat)]


def _tiles(n: int) -> str:
    return f"{n} tile" if n == 1 else f"{n} tiles"


# -- red fives -------------------------------------------------------------------


def _red(ctx: CheckContext, tiles: Iterable[Tile | None], where: str,
         seat: Seat | int | None = None) -> list[Violation] | None:
    for t in tiles:
        if t is not None and t.is_red:
            return report_mismatch(
                ctx, "aka", f"the log has red fives ({t} {where}); {ctx.rules.name} "
                "plays without red fives", seat=seat)
    return None


@check(StartKyoku, rules=("ruleset.mismatch",))
def red_fives_dealt(ctx: CheckContext, ev: StartKyoku) -> list[Violation] | None:
    if ctx.rules.aka:
        return None
    for seat, hand in enumerate(ev.tehais):
        found = _red(ctx, hand, f"dealt to seat {seat}", seat)
        if found:
            return found
    return _red(ctx, (ev.dora_marker,), "the dora indicator")


_REDS: Final = (Tile.M5R, Tile.P5R, Tile.S5R)


@check(Hora, Ryukyoku, rules=("ruleset.mismatch",))
def red_fives_seen(ctx: CheckContext, ev: Hora | Ryukyoku) -> list[Violation] | None:
    """Red fives drawn, discarded or revealed during the hand (checked once, at its end)."""
    rs = ctx.game.round
    if ctx.rules.aka or rs is None:
        return None
    seen = [t for t in _REDS if rs.seen37[t.code] not in (0, LEFT_OUT)]  # see seen_at_start
    if not seen:
        return None
    return report_mismatch(
        ctx, "aka", f"the log has red fives ({', '.join(map(str, seen))} in hand "
        f"{rs.label}); {ctx.rules.name} plays without red fives")


# -- results the rule set does not have ---------------------------------------------

_DRAW_NAMES: Final = {
    DrawReason.KYUUSHU_KYUUHAI: "nine terminals (kyuushu kyuuhai)",
    DrawReason.SUUFON_RENDA: "four winds (suufon renda)",
    DrawReason.SUUCHA_RIICHI: "four riichi (suucha riichi)",
    DrawReason.SUUKAIKAN: "four kans (suukaikan)",
    DrawReason.SANCHAHOU: "triple ron (sanchahou)",
}


@check(Ryukyoku, rules=("ruleset.mismatch",))
def draw_kinds(ctx: CheckContext, ev: Ryukyoku) -> list[Violation] | None:
    rules = ctx.rules
    reason = ev.reason
    if reason.is_abortive and reason not in rules.abortive:
        have = ", ".join(sorted(r.value for r in rules.abortive)) or "none"
        return report_mismatch(
            ctx, f"abortive:{reason.value}",
            f"the hand ends in an abortive draw by {_DRAW_NAMES.get(reason, reason.value)}; "
            f"{rules.name} has no such draw (its abortive draws: {have})")
    if reason is DrawReason.NAGASHI_MANGAN and not rules.nagashi:
        return report_mismatch(
            ctx, "nagashi", f"the hand ends with nagashi mangan; {rules.name} does not "
            "score it")
    return None


_RONS: Final[Memory[list[Seat]]] = Memory("ruleset.rons", list)
"""The winners on the hand's discard so far."""


@check(Hora, rules=("ruleset.mismatch",))
def several_winners(ctx: CheckContext, ev: Hora) -> list[Violation] | None:
    """Two winners on one discard under head bump, three under double-ron-only rules."""
    if ev.actor == ev.target:
        return None
    winners = ctx.memos.get(_RONS)
    winners.append(ev.actor)
    n = len(winners)
    multi = ctx.rules.multi_ron
    who = ", ".join(f"seat {s}" for s in winners)
    if n == 2 and multi is MultiRon.HEAD_BUMP:
        return report_mismatch(
            ctx, "multi_ron", f"{who} both win on seat {ev.target}'s discard; "
            f"{ctx.rules.name} lets only the winner closest to the discarder's right win "
            "(head bump)", seat=ev.actor)
    if n == 3 and multi is MultiRon.DOUBLE:
        return report_mismatch(
            ctx, "multi_ron", f"{who} all win on seat {ev.target}'s discard; "
            f"{ctx.rules.name} ends the hand in an abortive draw on a triple ron",
            seat=ev.actor)
    return None


@check(Hora, rules=("ruleset.mismatch",))
def robbed_ankan(ctx: CheckContext, ev: Hora) -> list[Violation] | None:
    """A win on a concealed kan (kokushi only) where the rule set does not allow it."""
    if ev.actor == ev.target or ctx.rules.chankan_ankan_kokushi:
        return None
    rs = ctx.round
    melds = rs.players[ev.target].melds if 0 <= ev.target < len(rs.players) else []
    if not (rs.after_kan and rs.kakan is None and rs.kita is None and rs.current == ev.target
            and melds and melds[-1].type is MeldType.ANKAN):  # (not a win on a kita)
        return None
    return report_mismatch(
        ctx, "chankan_ankan", f"seat {ev.actor} wins by robbing seat {ev.target}'s "
        f"concealed kan; {ctx.rules.name} does not let even thirteen orphans rob a "
        "concealed kan", seat=ev.actor)


# -- actions a check judges, explained when the log's own rules allow them ------------


@check(Reach, rules=("ruleset.mismatch",))
def riichi_rules(ctx: CheckContext, ev: Reach) -> list[Violation] | None:
    own = ctx.own_rules
    rules = ctx.rules
    if own is None:
        return None
    scores = ctx.game.scores
    points = scores[ev.actor] if scores is not None else None
    if points is not None and points < rules.riichi_min_points \
            and (own.riichi_min_points == 0 or points >= own.riichi_min_points):
        return report_mismatch(
            ctx, "riichi_points", f"seat {ev.actor} declares riichi with {points} points; "
            f"{rules.name} needs {rules.riichi_min_points}, the log's own rules "
            f"({own.name}) {own.riichi_min_points or 'no minimum'}", seat=ev.actor)
    left = ctx.round.live_wall
    if rules.riichi_min_live_wall > left >= own.riichi_min_live_wall:
        own_need = (f"{own.riichi_min_live_wall}" if own.riichi_min_live_wall
                    else "none (a riichi without a draw left is allowed)")
        return report_mismatch(
            ctx, "riichi_wall", f"seat {ev.actor} declares riichi with {_tiles(left)} left "
            f"in the wall; {rules.name} needs {rules.riichi_min_live_wall}, the log's own "
            f"rules ({own.name}) {own_need}", seat=ev.actor)
    return None


# -- rules the log's table has and kansa cannot tell ----------------------------------

def fold_unknown_rules(violations: list[Violation], rules: RuleSet) -> list[Violation]:
    """``violations`` with the rule-dependent errors made one ``log.assumption`` warning,
    where ``rules`` says kansa cannot tell some of the log's own rules
    (``RuleSet.unknown``): the log leaves them out, and kansa assumes it follows them.

    The warning stands at the first such finding and quotes the first of each rule, so
    that it says what the log does instead.
    """
    if not rules.unknown:
        return violations
    affected = frozenset().union(*(u.affects for u in rules.unknown))
    folded = [v for v in violations
              if v.rule in affected and v.severity is Severity.ERROR]
    if not folded:
        return violations
    by_rule: dict[str, list[Violation]] = {}
    for v in folded:
        by_rule.setdefault(v.rule, []).append(v)
    parts = []
    for rule, found in by_rule.items():
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        parts.append(f"{rule} in {found[0].hand or 'the game'}: {found[0].message}{more}")
    first = folded[0]
    causes = [u.what for u in rules.unknown if not u.affects.isdisjoint(by_rule)]
    warning = dataclasses.replace(
        first, rule="log.assumption", severity=Severity.WARNING,
        citation=RULES["log.assumption"].cite(rules.name, rules.base),
        message=(f"the log's table has rules kansa cannot tell ({'; '.join(causes)}); "
                 f"where the log differs from {rules.name} it is taken to follow them, not "
                 f"reported as an error: {' | '.join(parts)}"))
    dropped = {id(v) for v in folded}
    return [warning if v is first else v for v in violations
            if v is first or id(v) not in dropped]


# -- a header the play contradicts -------------------------------------------------------


def follow_the_play(events: Sequence[Event], rules: RuleSet) -> RuleSet:
    """``rules`` (the log's own, from its header) adjusted where the log's own wins
    contradict a rule bit.

    The header saying no open tanyao, with a tanyao win on a hand with an open call:
    ``kuitan`` is taken from the play and named in ``RuleSet.contradicted``.  The
    header saying no red fives, with a win counting aka dora: the parser has read the
    fives by the header, so which were red cannot be told; that goes to
    ``RuleSet.unknown`` (one warning for the values it changes).
    """
    kuitan = aka = False
    said: list[str] = []
    unknown: list[UnknownRule] = []
    opened: set[int] = set()
    # the classes bound once, and a tuple rather than a union (built anew at each use)
    start, hora, claim = StartKyoku, Hora, (Chi, Pon, Daiminkan)
    for ev in events:
        if isinstance(ev, start):
            opened.clear()
        elif isinstance(ev, claim):
            opened.add(ev.actor)
        elif isinstance(ev, hora) and ev.yaku:
            han = dict(ev.yaku)
            if not rules.aka and not aka and han.get(Yaku.AKA_DORA, 0) > 0:
                aka = True
                unknown.append(UnknownRule(
                    f"which fives are red: the header says none, but seat {ev.actor}'s "
                    f"win counts {han[Yaku.AKA_DORA]} aka dora",
                    frozenset({"score.value", "score.payment"})))
            if not rules.kuitan and not kuitan and ev.actor in opened \
                    and han.get(Yaku.TANYAO, 0) > 0:
                kuitan = True
                said.append(f"the header says no open tanyao, but seat {ev.actor} wins "
                            "with tanyao on an open hand")
    if not (kuitan or aka):
        return rules
    return rules.replace(kuitan=rules.kuitan or kuitan,
                         contradicted=rules.contradicted + tuple(said),
                         unknown=rules.unknown + tuple(unknown))


@check(StartKyoku, rules=("ruleset.mismatch",))
def header_contradicted(ctx: CheckContext, ev: StartKyoku) -> list[Violation] | None:
    out: list[Violation] = []
    for i, what in enumerate(ctx.rules.contradicted):
        found = report_mismatch(ctx, f"header:{i}", f"{what}: the rule is taken from the "
                                "play (a header the play contradicts)")
        out.extend(found or ())
    return out or None
