"""Claims of a discard: when, by whom, over whom, and what may follow them.

EMA RCR 3.3.1 (the most recent discard, precedence, three seconds), 3.3.2 to
3.3.4 (what a kong, pung or chow is made of and from whom), 3.3.12 (after riichi
the hand does not change), 3.4.1 (the last discard may only be won on) and the
kuikae rule (RULESETS.md row 29).

The engine follows a late claim (it puts the drawn tile back to the wall) and a
second call of one discard (the first is taken back); these checks say whether
the table allowed it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from kansa.replay.checks.registry import check
from kansa.replay.context import CheckContext
from kansa.replay.events import Ankan, Chi, Dahai, Daiminkan, Hora, Kakan, Pon
from kansa.replay.melds import MeldType, meld_well_formed
from kansa.replay.memory import Memory, Memos
from kansa.replay.rules import Kuikae, LateClaim
from kansa.replay.state import LastDiscard, RoundState
from kansa.replay.tiles import Seat, Tile, format_tiles, kamicha
from kansa.replay.violations import Severity, Violation, define

define(
    "claim.late", "Claim of a tile that is no longer the most recent discard",
    Severity.ERROR, "EMA RCR 3.3.1",
    "Only the most recent discard may be claimed. A claim recorded after the next "
    "player's draw is allowed where the rule set has the three-second window (EMA: the "
    "drawn tile goes back to the wall): an error when the log's times show more than "
    "`claim_seconds`, a warning when the log has no times; on online platforms, which "
    "settle every claim before the next draw, it is an error. Taking the draw declines "
    "a chow: a chi by the player who already drew is an error everywhere.",
    tenhou="EMA RCR 3.3.1; Tenhou settles every claim before the next draw",
    majsoul="EMA RCR 3.3.1; Mahjong Soul settles every claim before the next draw",
)
define(
    "claim.chi-not-from-left", "Chi from a player other than the one on the left",
    Severity.ERROR, "EMA RCR 3.3.4",
    "A chow may only be claimed from the discard of the player on the left (kamicha).",
)
define(
    "claim.precedence", "A claim that another claim of the same discard overrides",
    Severity.ERROR, "EMA RCR 3.3.1",
    "A win takes precedence over every other claim, and a pung or kong over a chow. "
    "Reported when the log records a call of a discard that another player also won "
    "on, or both a chi and a pon/kan of one discard.",
)
define(
    "claim.last-tile", "Call of the last discard other than for a win",
    Severity.ERROR, "EMA RCR 3.4.1",
    "The discard after the last wall tile may only be claimed to win, not for a chow, "
    "pung or kong.",
)
define(
    "claim.kuikae", "Swap-calling (kuikae)", Severity.ERROR, "EMA RCR 2016 3.3.2",
    "After a chi or pon the player may not discard, in the same turn, a tile of the "
    "called kind, nor (per `kuikae`) the tile at the other end of a called chow "
    "(suji swap: call 3m with 45m, discard 6m). A call that leaves only such tiles in the "
    "hand is reported itself: no legal discard can follow it.",
    tenhou="Tenhou rules: kuikae forbidden (same tile and suji swap)",
)
define(
    "claim.in-riichi", "Call by a player in riichi", Severity.ERROR, "EMA RCR 3.3.12",
    "After riichi the hand may not change: the player may win, or declare a concealed "
    "kong that the rule set allows (riichi.kan-changes-wait judges that), but not chi, "
    "pon, an open kong or an added kong.",
)
define(
    "claim.meld-shape", "A meld that is not a chow, pung or kong",
    Severity.ERROR, "EMA RCR 3.2",
    "A chi must make three consecutive tiles of one suit, a pon three of a kind, a kan "
    "four of a kind, from the called tile and the tiles the log says came from the hand.",
)



@dataclass(slots=True)
class _Claims:
    kuikae: tuple[Seat, tuple[int, ...]] | None = None
    """After a chi or pon: the caller and the kinds it may not discard now."""


_MEMORY: Final = Memory("claims", _Claims)


def forbidden_discards(memos: Memos, seat: Seat) -> tuple[int, ...]:
    """The kinds ``seat`` may not discard now, after its chi or pon (kuikae)."""
    m = memos.peek(_MEMORY)
    if m is None or m.kuikae is None or m.kuikae[0] != seat:
        return ()
    return m.kuikae[1]


def _is_chankan(rs: RoundState, ev: Hora) -> bool:
    """A win on an added kan, or on a concealed kan (thirteen orphans)."""
    if rs.kakan is not None and rs.kakan[0] == ev.target:
        return True
    if not (0 <= ev.target < len(rs.players)):
        return False
    melds = rs.players[ev.target].melds
    return rs.after_kan and rs.kita is None and rs.current == ev.target and bool(melds) \
        and melds[-1].type is MeldType.ANKAN


def _same(a: Tile, b: Tile | None, exact: bool) -> bool:
    if b is None:
        return True
    return a is b if exact else a.index == b.index


_CLAIM_NAMES: Final[dict[type, str]] = {Chi: "chi", Pon: "pon", Daiminkan: "kan"}


def _name(ev: Chi | Pon | Daiminkan | Hora) -> str:
    return _CLAIM_NAMES.get(type(ev), "ron")


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 < 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@check(Chi, Pon, Daiminkan, Hora, rules=("claim.late",))
def late(ctx: CheckContext, ev: Chi | Pon | Daiminkan | Hora) -> list[Violation] | None:
    rs = ctx.round
    is_ron = isinstance(ev, Hora)
    if isinstance(ev, Hora) and (ev.actor == ev.target or _is_chankan(rs, ev)
                                 or (rs.kita is not None and rs.kita[0] == ev.target)):
        return None  # a tsumo, or a win on a kan or on a North set aside
    last = rs.last_discard
    what = f"seat {ev.actor} calls {_name(ev)}" if not is_ron else f"seat {ev.actor} wins"
    tile = ev.tile
    on = f"on {tile} " if tile is not None else ""
    if last is None or last.seat != ev.target or not _same(last.tile, tile, not is_ron):
        text = _older_discard(rs, ev, last, what, on)
        return [ctx.violation("claim.late", text, seat=ev.actor)] if text else None
    if last.claimable:
        return None
    target = rs.players[ev.target]
    if target.river and target.river[-1].called_by is not None:
        return None  # called already: claim.precedence
    return _after_draw(ctx, ev, last, what, on)


def _older_discard(rs: RoundState, ev: Chi | Pon | Daiminkan | Hora,
                   last: LastDiscard | None, what: str, on: str) -> str | None:
    """The finding for a claim of an older discard; ``None`` when the target never
    discarded that tile (the engine reports that as a log it cannot follow)."""
    river = rs.players[ev.target].river if 0 <= ev.target < len(rs.players) else []
    where = None
    for i in range(len(river) - 1, -1, -1):
        if ev.tile is None or river[i].tile.index == ev.tile.index:
            where = f" ({_ordinal(i + 1)} discard of seat {ev.target})"
            break
    if where is None:
        return None
    now = (f"the most recent discard is {last.tile} by seat {last.seat}"
           if last is not None else "nothing has been discarded")
    return (f"{what} {on}from seat {ev.target}{where}, but {now}: only the most recent "
            "discard may be claimed")


def _after_draw(ctx: CheckContext, ev: Chi | Pon | Daiminkan | Hora, last: LastDiscard,
                what: str, on: str) -> list[Violation] | None:
    rs = ctx.round
    rules = ctx.rules
    drawer = rs.current
    drawn = rs.players[drawer].last_draw if drawer is not None else None
    drew = f"seat {drawer} drew" + (f" {drawn}" if drawn is not None else "")
    head = f"{what} {on}from seat {ev.target} after {drew}"
    if isinstance(ev, Chi) and ev.actor == drawer:
        return [ctx.violation(
            "claim.late", f"{head}: drawing from the wall declines the chow", seat=ev.actor)]
    if isinstance(ev, Hora) and rules.ron_until_next_discard:
        return None
    if rules.late_claim is LateClaim.FORBIDDEN:
        return [ctx.violation(
            "claim.late", f"{head}; under {rules.name} every claim is settled before the "
            "next draw", seat=ev.actor)]
    start = last.time
    if ev.time is not None and start is not None:
        seconds = ev.time - start
        if seconds <= rules.claim_seconds:
            return None
        return [ctx.violation(
            "claim.late", f"{head}, {seconds:.1f} s after the discard; a claim after the "
            f"next draw must come within {rules.claim_seconds:g} s", seat=ev.actor)]
    return [ctx.violation(
        "claim.late", f"{head}; the log records no times, so whether the claim came within "
        f"{rules.claim_seconds:g} s of the discard (when the drawn tile goes back to the "
        "wall) cannot be told", seat=ev.actor, severity=Severity.WARNING)]


@check(Chi, rules=("claim.chi-not-from-left",))
def chi_from_left(ctx: CheckContext, ev: Chi) -> list[Violation] | None:
    left = kamicha(ev.actor, ctx.rules.players)
    if ev.target == left:
        return None
    return [ctx.violation(
        "claim.chi-not-from-left",
        f"seat {ev.actor} calls chi on {ev.tile} from seat {ev.target}; a chow may only "
        f"be claimed from the player on the left (seat {left})", seat=ev.actor)]


@check(Chi, Pon, Daiminkan, Hora, rules=("claim.precedence",))
def precedence(ctx: CheckContext, ev: Chi | Pon | Daiminkan | Hora) -> list[Violation] | None:
    rs = ctx.round
    last = rs.last_discard
    if last is None or last.seat != ev.target or not (0 <= ev.target < len(rs.players)):
        return None
    river = rs.players[ev.target].river
    if not river or river[-1].called_by is None:
        return None
    is_ron = isinstance(ev, Hora)
    if isinstance(ev, Hora) and (ev.actor == ev.target or _is_chankan(rs, ev)
                                 or (rs.kita is not None and rs.kita[0] == ev.target)):
        return None  # a tsumo, or a win on a kan or on a North set aside
    if not _same(last.tile, ev.tile, not is_ron):
        return None
    caller = river[-1].called_by
    melds = rs.players[caller].melds
    earlier = melds[-1].type if melds else MeldType.PON
    earlier_name = "chi" if earlier is MeldType.CHI else (
        "pon" if earlier is MeldType.PON else "kan")
    tile = last.tile
    if is_ron:
        return [ctx.violation(
            "claim.precedence",
            f"seat {caller}'s {earlier_name} of {tile} (seat {ev.target}'s discard) is "
            f"recorded, but seat {ev.actor} wins on the same discard: a win takes "
            "precedence over every other claim", seat=caller)]
    if isinstance(ev, Chi):
        return [ctx.violation(
            "claim.precedence",
            f"seat {ev.actor} calls chi on {tile} from seat {ev.target} after seat "
            f"{caller}'s {earlier_name} of the same discard was recorded: a pung or kong "
            "takes precedence over a chow", seat=ev.actor)]
    if earlier is MeldType.CHI:
        return [ctx.violation(
            "claim.precedence",
            f"seat {caller}'s chi of {tile} is recorded, then seat {ev.actor}'s "
            f"{_name(ev)} of the same discard: a pung or kong takes precedence over a "
            "chow, so the chi should not have been made", seat=caller)]
    return [ctx.violation(
        "claim.precedence",
        f"seat {ev.actor} calls {_name(ev)} on {tile} from seat {ev.target}, which seat "
        f"{caller} had already claimed", seat=ev.actor)]


@check(Chi, Pon, Daiminkan, rules=("claim.last-tile",))
def last_tile(ctx: CheckContext, ev: Chi | Pon | Daiminkan) -> list[Violation] | None:
    last = ctx.round.last_discard
    if last is None or not last.last_tile or last.seat != ev.target or last.tile is not ev.tile:
        return None
    return [ctx.violation(
        "claim.last-tile",
        f"seat {ev.actor} calls {_name(ev)} on {ev.tile}, discarded by seat {ev.target} "
        "after the last wall tile was drawn; the last discard may only be claimed to win",
        seat=ev.actor)]


@check(Chi, Pon, Daiminkan, Kakan, rules=("claim.in-riichi",))
def in_riichi(ctx: CheckContext, ev: Chi | Pon | Daiminkan | Kakan) -> list[Violation] | None:
    if not ctx.player(ev.actor).riichi:
        return None
    what = {Chi: "chi", Pon: "pon", Daiminkan: "an open kan", Kakan: "an added kan"}[type(ev)]
    return [ctx.violation(
        "claim.in-riichi",
        f"seat {ev.actor} is in riichi and calls {what} on {ev.tile}; after riichi the hand "
        "may not change except by a win or a concealed kong", seat=ev.actor)]


# -- kuikae -------------------------------------------------------------------------


@check(Chi, Pon, rules=("claim.kuikae",), phase="after")
def call_leaves_only_swaps(ctx: CheckContext, ev: Chi | Pon) -> list[Violation] | None:
    """Note what the caller may not discard now; a call that leaves nothing else is
    itself the swap (Tenhou does not offer it)."""
    rule = ctx.rules.kuikae
    if rule is Kuikae.ALLOWED:
        return None
    kinds = [ev.tile.index]
    if isinstance(ev, Chi) and rule is Kuikae.SAME_AND_SUJI and not ev.tile.is_honor:
        run = sorted({t.index for t in ev.consumed} | {ev.tile.index})
        n = ev.tile.number
        if len(run) == 3 and ev.tile.index == run[0] and n + 3 <= 9:
            kinds.append(ev.tile.index + 3)
        elif len(run) == 3 and ev.tile.index == run[2] and n - 3 >= 1:
            kinds.append(ev.tile.index - 3)
    memo = ctx.memos.get(_MEMORY)
    memo.kuikae = (ev.actor, tuple(kinds))
    p = ctx.player(ev.actor)
    if p.hidden or not any(p.c34) or any(n and k not in kinds for k, n in enumerate(p.c34)):
        return None
    memo.kuikae = None  # reported here, not again at the discard
    return [ctx.violation(
        "claim.kuikae",
        f"seat {ev.actor} calls {_name(ev)} on {ev.tile} with {format_tiles(ev.consumed)}, "
        f"keeping only {format_tiles(p.concealed_tiles())}: every discard left is "
        f"{_swaps_text(kinds)}, so the call cannot be followed by a legal discard",
        seat=ev.actor)]


def _swaps_text(kinds: Sequence[int]) -> str:
    """What the caller may not discard (``kinds``: the called kind, then the chow's
    other end where that is forbidden too); written only for a finding."""
    why = f"the called kind ({Tile.from_index(kinds[0])})"
    if len(kinds) == 2:
        why += f" or {Tile.from_index(kinds[1])} (the other end of the chow)"
    return why


@check(Dahai, rules=("claim.kuikae",))
def kuikae(ctx: CheckContext, ev: Dahai) -> list[Violation] | None:
    m: _Claims | None = ctx.memos.hand.get(_MEMORY)  # (peek, inline: every discard)
    if m is None or m.kuikae is None or m.kuikae[0] != ev.actor:
        return None
    seat, kinds = m.kuikae
    m.kuikae = None
    if ev.tile.index not in kinds:
        return None
    called = ctx.player(seat).melds[-1] if ctx.player(seat).melds else None
    meld = f" ({called.type.value} {format_tiles(called.tiles)})" if called else ""
    return [ctx.violation(
        "claim.kuikae",
        f"seat {seat} discards {ev.tile} in the turn of its call{meld}; after a call the "
        f"player may not discard {_swaps_text(kinds)}", seat=seat)]


# -- meld shapes ----------------------------------------------------------------------


@check(Chi, Pon, Daiminkan, rules=("claim.meld-shape",))
def meld_shape(ctx: CheckContext, ev: Chi | Pon | Daiminkan) -> list[Violation] | None:
    tiles = [*ev.consumed, ev.tile]
    mtype = {Chi: MeldType.CHI, Pon: MeldType.PON}.get(type(ev), MeldType.DAIMINKAN)
    if meld_well_formed(mtype, tiles):
        return None
    need = {MeldType.CHI: "three consecutive tiles of one suit",
            MeldType.PON: "3 tiles of one kind"}.get(mtype, "4 tiles of one kind")
    return [ctx.violation(
        "claim.meld-shape",
        f"seat {ev.actor} calls {_name(ev)} on {ev.tile} with {format_tiles(ev.consumed)} "
        f"from the hand, making {format_tiles(sorted(tiles))}: a {_name(ev)} is {need}",
        seat=ev.actor)]


@check(Ankan, rules=("claim.meld-shape",))
def ankan_shape(ctx: CheckContext, ev: Ankan) -> list[Violation] | None:
    if meld_well_formed(MeldType.ANKAN, ev.consumed):
        return None
    return [ctx.violation(
        "claim.meld-shape",
        f"seat {ev.actor} declares a concealed kan of {format_tiles(sorted(ev.consumed))}: "
        "a kong is four tiles of one kind", seat=ev.actor)]
