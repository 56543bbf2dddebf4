"""Kans: how many, when, and the indicators they reveal.

EMA RCR 3.3.2 (open kong: reveal the kan dora, then draw the replacement),
3.3.7 and 3.3.8 (added and concealed kongs only after a draw), 3.3.9 (never a
fifth kong), 3.4.1 (no kong on the last tile), 3.4.3 and the rule set's
``abortive`` (four kans by two or more players end the hand on Tenhou), and
RULESETS.md section 3 for when each kind of kan shows its indicator.  Section
numbers are those of the EMA edition in the seeds.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Final

from kansa.replay.checks.registry import check
from kansa.replay.checks.ruleset import report_mismatch
from kansa.replay.context import CheckContext
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    DrawReason,
    Hora,
    Kakan,
    Pon,
    Ryukyoku,
    Tsumo,
)
from kansa.replay.melds import MeldType
from kansa.replay.memory import Memory
from kansa.replay.rules import KanDoraTiming
from kansa.replay.state import RoundState
from kansa.replay.tiles import Seat, Tile
from kansa.replay.violations import Severity, Violation, define

define(
    "kan.fifth", "A fifth kan", Severity.ERROR, "EMA RCR 3.3.9",
    "After the fourth kong no further kong may be declared by anyone, under every rule set.",
)
define(
    "kan.four-kan-draw-missed", "Play went on after four kans by different players",
    Severity.ERROR, "EMA RCR 3.3.9, 3.4.3 (the edition in the seeds); Tenhou rules: suukaikan",
    "Where the rule set has the four-kan abortive draw (`suukaikan` in `abortive`), the "
    "hand ends when the discard after the fourth kan is not won on and the four kans are "
    "not all one player's. Reported when the log goes on with a draw or a call instead.",
    ema="EMA RCR 2016 3.4.3: no four-kan draw (never reported under ema)",
)
define(
    "kan.last-tile", "Kan with no tile left to replace it", Severity.ERROR, "EMA RCR 3.4.1",
    "No added or concealed kong after the last wall tile has been drawn: there is no "
    "replacement draw left. (A call of the last discard for a kong is claim.last-tile.)",
)
define(
    "kan.after-call", "Added or concealed kan in a turn that began with a call",
    Severity.ERROR, "EMA RCR 3.3.7, 3.3.8",
    "An added or concealed kong may be declared only after a draw from the wall or a "
    "replacement draw, not in a turn where a tile was claimed for a chow or pung.",
)
define(
    "kan.dora", "Kan indicator at the wrong time or missing", Severity.ERROR,
    "EMA RCR 3.3.2, 3.3.7, 3.3.8",
    "Every kan reveals one new indicator: a concealed kan before its replacement draw "
    "under every rule set; an open or added kan before the replacement draw where "
    "`open_kan_dora` is immediate, after it and by the kanner's discard where it is "
    "after_discard (an added kan revealed before the draw is accepted: real Tenhou logs "
    "show both orders). A robbed added kan reveals nothing, and under after_discard a "
    "rinshan win does not see the pending indicator. An indicator shown late, or one with "
    "no kan to account for it, is an error; one the log never shows by the end of the hand "
    "is a warning (the log may have lost it).",
    tenhou="EMA RCR 3.3.2, 3.3.7, 3.3.8; Tenhou rules: a concealed kan reveals at once, "
           "open and added kans with the kanner's discard",
)



@dataclass(slots=True)
class _Kan:
    seat: Seat
    type: MeldType
    kind: Tile
    event: int
    rinshan: bool = False
    """The replacement tile was drawn."""
    discarded: bool = False
    """The kanner discarded after the replacement draw."""
    revealed: bool = False
    revealed_after_draw: bool = False
    overdue: str | None = None
    """The moment by which the indicator should have been shown, once it has passed."""
    reported: bool = False

    def describe(self) -> str:
        what = {MeldType.ANKAN: "concealed kan", MeldType.KAKAN: "added kan"}.get(
            self.type, "open kan")
        return f"seat {self.seat}'s {what} of {self.kind}"


@dataclass(slots=True)
class _Kans:
    kans: list[_Kan] = field(default_factory=list)
    called: tuple[Seat, int] | None = None
    """The last chi or pon: the caller and its number of wall draws then."""
    after_discard_due: bool = False
    """The kanner discarded: open-kan indicators are due by the next other event."""
    four_kan: int = 0
    """1: four kans by several players, waiting for the kanner's discard; 2: discarded."""


def indicators_missing(ctx: CheckContext) -> int:
    """Kan indicators that were due and have not appeared in the log so far: a log that
    lost one (a converter's defect) cannot have its dora counted."""
    m = ctx.memos.peek(_MEMORY)
    return 0 if m is None else sum(1 for k in m.kans if k.overdue is not None and not k.revealed)


_MEMORY: Final = Memory("kans", _Kans)


def _kan_kind(ev: Daiminkan | Kakan | Ankan) -> Tile:
    if isinstance(ev, Ankan):
        return ev.consumed[0].normal if ev.consumed else Tile.M1
    return ev.tile.normal


def _kan_list(rs: RoundState) -> str:
    parts = []
    for p in rs.players:
        for m in p.melds:
            if m.type.is_kan:
                parts.append(f"seat {p.seat} {m.type.value} {m.kind}")
    return ", ".join(parts)


# -- how many and when -------------------------------------------------------------


@check(Daiminkan, Kakan, Ankan, rules=("kan.fifth",))
def fifth(ctx: CheckContext, ev: Daiminkan | Kakan | Ankan) -> list[Violation] | None:
    rs = ctx.round
    if rs.kans < 4:
        return None
    return [ctx.violation(
        "kan.fifth", f"seat {ev.actor} declares a kan of {_kan_kind(ev)}, but four kans "
        f"are already on the table ({_kan_list(rs)}); a fifth kan is never allowed",
        seat=ev.actor)]


@check(Kakan, Ankan, rules=("kan.last-tile",))
def last_tile(ctx: CheckContext, ev: Kakan | Ankan) -> list[Violation] | None:
    if ctx.round.live_wall > 0:
        return None
    return [ctx.violation(
        "kan.last-tile", f"seat {ev.actor} declares a kan of {_kan_kind(ev)} after drawing "
        "the last wall tile; no tile is left to replace it", seat=ev.actor)]


@check(Chi, Pon, rules=("kan.after-call",), phase="after")
def _note_call(ctx: CheckContext, ev: Chi | Pon) -> None:
    ctx.memos.get(_MEMORY).called = (ev.actor, ctx.player(ev.actor).draws)


@check(Kakan, Ankan, rules=("kan.after-call",))
def after_call(ctx: CheckContext, ev: Kakan | Ankan) -> list[Violation] | None:
    m = ctx.memos.get(_MEMORY)
    if m.called != (ev.actor, ctx.player(ev.actor).draws):
        return None  # no chi or pon since the player's last wall draw
    what = "an added" if isinstance(ev, Kakan) else "a concealed"
    melds = ctx.player(ev.actor).melds
    called = f" (its {melds[-1].type.value} of {melds[-1].called})" if melds \
        and melds[-1].called is not None else ""
    return [ctx.violation(
        "kan.after-call", f"seat {ev.actor} declares {what} kan of {_kan_kind(ev)} in the "
        f"turn it began with a call{called}; such a kan needs a draw first", seat=ev.actor)]


# -- four kans ------------------------------------------------------------------------


@check(Daiminkan, Kakan, Ankan, rules=("kan.four-kan-draw-missed", "kan.dora"), phase="after")
def _note_kan(ctx: CheckContext, ev: Daiminkan | Kakan | Ankan) -> None:
    m = ctx.memos.get(_MEMORY)
    mtype = MeldType.DAIMINKAN if isinstance(ev, Daiminkan) else (
        MeldType.KAKAN if isinstance(ev, Kakan) else MeldType.ANKAN)
    m.kans.append(_Kan(seat=ev.actor, type=mtype, kind=_kan_kind(ev), event=ctx.index))
    if len(m.kans) == 4 and len({k.seat for k in m.kans}) > 1:
        m.four_kan = 1


@check(Dahai, rules=("kan.four-kan-draw-missed", "kan.dora"), phase="after")
def _kanner_discard(ctx: CheckContext, ev: Dahai) -> None:
    rs = ctx.game.round
    if rs is None or rs.kans == 0:
        return
    m = ctx.memos.get(_MEMORY)
    for k in m.kans:
        if k.seat == ev.actor and k.rinshan and not k.discarded:
            k.discarded = True
            if not k.revealed:
                m.after_discard_due = True
    if m.four_kan == 1 and m.kans[3].seat == ev.actor:
        m.four_kan = 2


def four_kans(ctx: CheckContext, ev: Tsumo | Chi | Pon | Daiminkan | Hora | Ryukyoku,
              ) -> list[Violation] | None:
    """kan.four-kan-draw-missed, judged at the first draw, call or result after the discard
    that follows the fourth kan."""
    rs = ctx.round
    if rs.kans < 4:
        return None
    m = ctx.memos.get(_MEMORY)
    if m.four_kan != 2:
        return None
    m.four_kan = 0
    if isinstance(ev, Hora | Ryukyoku):
        return None
    rules = ctx.rules
    if DrawReason.SUUKAIKAN not in rules.abortive:
        return None
    seats = sorted({k.seat for k in m.kans})
    out = [ctx.violation(
        "kan.four-kan-draw-missed",
        f"four kans by seats {', '.join(map(str, seats))} ({_kan_list(rs)}) and nobody won on "
        f"the discard after the fourth, yet play goes on; {rules.name} ends the hand in an "
        "abortive draw (suukaikan)", seat=getattr(ev, "actor", None))]
    own = ctx.own_rules
    if own is not None and DrawReason.SUUKAIKAN not in own.abortive:
        more = report_mismatch(
            ctx, "suukaikan", f"play goes on after four kans by different players; "
            f"{rules.name} ends the hand there, the log's own rules ({own.name}) do not")
        out.extend(more or ())
    return out


# -- kan indicators ---------------------------------------------------------------------


def _timing_mismatch(ctx: CheckContext, shown: KanDoraTiming) -> list[Violation] | None:
    own = ctx.own_rules
    if own is None or own.open_kan_dora is not shown or ctx.rules.open_kan_dora is shown:
        return None
    text = ("after the replacement draw, with the kanner's discard"
            if shown is KanDoraTiming.AFTER_DISCARD else "before the replacement draw")
    return report_mismatch(
        ctx, "open_kan_dora", f"the log reveals open-kan indicators {text} (the rules of "
        f"{own.name}); {ctx.rules.name} reveals them "
        + ("immediately" if ctx.rules.open_kan_dora is KanDoraTiming.IMMEDIATE
           else "after the replacement draw"))


@check(Dora, rules=("kan.dora",))
def indicator(ctx: CheckContext, ev: Dora) -> list[Violation] | None:
    rs = ctx.round
    m = ctx.memos.get(_MEMORY)
    k = next((k for k in m.kans if not k.revealed), None)
    if k is None:
        n = len(m.kans)
        return [ctx.violation(
            "kan.dora", f"a new indicator ({ev.dora_marker}) is revealed, but "
            + (f"all {n} kans already have theirs" if n else "no kan has been made")
            + f": that makes {len(rs.dora_markers) + 1} indicators for {n} kans (one plus "
            "one per kan)")]
    k.revealed = True
    k.revealed_after_draw = k.rinshan
    out: list[Violation] = []
    if k.overdue is not None and not k.reported:
        k.reported = True
        out.append(ctx.violation(
            "kan.dora", f"the indicator for {k.describe()} is revealed only after "
            f"{k.overdue}; {_rule(ctx, k)}", seat=k.seat))
    if k.type is MeldType.ANKAN:
        return out or None
    rules = ctx.rules
    if not k.rinshan and rules.open_kan_dora is KanDoraTiming.AFTER_DISCARD \
            and k.type is MeldType.DAIMINKAN:
        if not k.reported:
            k.reported = True
            out.append(ctx.violation(
                "kan.dora", f"the indicator for {k.describe()} is revealed before the "
                f"replacement draw; under {rules.name} an open kan reveals it after the "
                "draw, with the kanner's discard", seat=k.seat))
        out.extend(_timing_mismatch(ctx, KanDoraTiming.IMMEDIATE) or ())
    elif k.rinshan and rules.open_kan_dora is KanDoraTiming.IMMEDIATE:
        out.extend(_timing_mismatch(ctx, KanDoraTiming.AFTER_DISCARD) or ())
    return out or None


def _n(n: int, what: str) -> str:
    return f"{n} {what}" if n == 1 else f"{n} {what}s"


def _rule(ctx: CheckContext, k: _Kan) -> str:
    if k.type is MeldType.ANKAN:
        return "a concealed kan reveals it before the replacement draw"
    return f"under {ctx.rules.name} an open kan reveals it " + (
        "before the replacement draw" if ctx.rules.open_kan_dora is KanDoraTiming.IMMEDIATE
        else "by the kanner's discard")


def _overdue(due: list[_Kan], when: str) -> None:
    """Mark indicators not shown by ``when``: an error if they come later, a warning
    at the end of the hand if they never come."""
    for k in due:
        if k.overdue is None:
            k.overdue = when


def _never_shown(ctx: CheckContext, m: _Kans) -> list[Violation]:
    """At the end of the hand: indicators that were due and never appeared in the log."""
    out = []
    shown = sum(k.revealed for k in m.kans)
    for k in m.kans:
        if k.overdue is None or k.revealed or k.reported:
            continue
        k.reported = True
        out.append(ctx.violation(
            "kan.dora", f"the log shows no indicator for {k.describe()} ({_n(len(m.kans), 'kan')}"
            f", {_n(shown, 'kan indicator')} by the end of the hand); {_rule(ctx, k)}. The table "
            "may have shown it and the log lost it, so this is a warning",
            seat=k.seat, severity=Severity.WARNING))
    return out


def replacement_draw(ctx: CheckContext, ev: Tsumo) -> list[Violation] | None:
    """kan.dora at a draw: what is due before a replacement draw, or after a discard."""
    rs = ctx.round
    if not (rs.after_kan and rs.current == ev.actor):
        return _due_after_discard(ctx)
    m = ctx.memos.get(_MEMORY)
    if m.called is not None and m.called[0] == ev.actor:
        m.called = None  # a replacement draw (after an open kan) lets the caller kan again
    immediate = ctx.rules.open_kan_dora is KanDoraTiming.IMMEDIATE
    due = [k for k in m.kans if not k.revealed and not k.reported
           and (k.type is MeldType.ANKAN or immediate or k.rinshan)]
    for k in m.kans:
        if k.seat == ev.actor and not k.rinshan:
            k.rinshan = True
            break
    _overdue(due, "the replacement draw")
    return None


def _due_after_discard(ctx: CheckContext) -> list[Violation] | None:
    m = ctx.memos.peek(_MEMORY)
    if m is None or not m.after_discard_due:
        return None
    m.after_discard_due = False
    _overdue([k for k in m.kans if k.discarded and not k.revealed], "the kanner's discard")
    return None


def win(ctx: CheckContext, ev: Hora) -> list[Violation] | None:
    """kan.dora at a win: a robbed kakan shows none; a rinshan win does not see a pending one."""
    rs = ctx.round
    m = ctx.memos.get(_MEMORY)
    _due_after_discard(ctx)
    out: list[Violation] = []
    if ev.actor != ev.target and rs.kakan is not None and rs.kakan[0] == ev.target:
        robbed = m.kans[-1]
        if robbed.type is MeldType.KAKAN and robbed.revealed and not robbed.reported:
            robbed.reported = True
            out.append(ctx.violation(
                "kan.dora", f"{robbed.describe()} is robbed, yet its indicator was revealed; "
                "a robbed kan reveals none", seat=robbed.seat))
    elif ev.actor == ev.target and rs.rinshan_draw \
            and ctx.rules.open_kan_dora is KanDoraTiming.AFTER_DISCARD:
        k = next((k for k in reversed(m.kans) if k.seat == ev.actor and k.rinshan), None)
        if k is not None and k.type is not MeldType.ANKAN and k.revealed_after_draw \
                and not k.discarded and not k.reported:
            k.reported = True
            out.append(ctx.violation(
                "kan.dora", f"seat {ev.actor} wins on the replacement tile of {k.describe()}"
                f" with its indicator already revealed; under {ctx.rules.name} that "
                "indicator comes with the kanner's discard, so a rinshan win does not "
                "see it", seat=ev.actor))
    return out or None


# -- dispatch: one cheap gate per event, the kan checks only once a kan was made -----------


@check(Tsumo, rules=("kan.dora", "kan.four-kan-draw-missed"))
def at_draw(ctx: CheckContext, ev: Tsumo) -> list[Violation] | None:
    rs = ctx.game.round
    if rs is None or rs.kans == 0:
        return None
    out = four_kans(ctx, ev) or []
    out.extend(replacement_draw(ctx, ev) or ())
    return out or None


@check(Chi, Pon, Daiminkan, Ryukyoku, rules=("kan.dora", "kan.four-kan-draw-missed"))
def at_call_or_draw_result(ctx: CheckContext, ev: Chi | Pon | Daiminkan | Ryukyoku,
                           ) -> list[Violation] | None:
    rs = ctx.game.round
    if rs is None or rs.kans == 0:
        return None
    out = four_kans(ctx, ev) or []
    _due_after_discard(ctx)
    if isinstance(ev, Ryukyoku):
        out.extend(_never_shown(ctx, ctx.memos.get(_MEMORY)))
    return out or None


@check(Hora, rules=("kan.dora", "kan.four-kan-draw-missed"))
def at_win(ctx: CheckContext, ev: Hora) -> list[Violation] | None:
    rs = ctx.game.round
    if rs is None or rs.kans == 0:
        return None
    out = four_kans(ctx, ev) or []
    out.extend(win(ctx, ev) or ())
    out.extend(_never_shown(ctx, ctx.memos.get(_MEMORY)))
    return out or None
