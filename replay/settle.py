"""What a hand's result should move, next to what the log moved.

The engine keeps a :class:`WinEntry` per win (the replayed situation, its
value, the liable player) and settles a hand once all its wins are known (at
``EndKyoku``, or when the next hand or the end of the game shows up first):
:func:`settle_wins_of_hand` allocates honba and sticks across the winners as
the rule set says, and :func:`settle_draw` prices a draw.  The resulting
:class:`Settlement` carries the expected payments, the logged deltas and the
ledger transfers; the ``score.*`` checks register for it like for an event.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Final

from kansa.replay.events import DrawReason, Hora, Ryukyoku
from kansa.replay.ledger import Reason, Transfer, settle_differences
from kansa.replay.melds import Meld, MeldType
from kansa.replay.payments import (
    DrawPayment,
    WinInput,
    WinPayment,
    closest_order,
    nagashi_payments,
    noten_payments,
    settle_wins,
)
from kansa.replay.rules import MultiRon, PaoScope, RuleSet
from kansa.replay.scoring import HandValue, ron_points, total_points
from kansa.replay.situation import WinSituation
from kansa.replay.state import RoundState
from kansa.replay.tiles import Seat
from kansa.replay.yaku import Limit, Yaku

_DRAGONS: Final = frozenset(range(31, 34))
_WINDS: Final = frozenset(range(27, 31))


@dataclass(slots=True, kw_only=True)
class WinEntry:
    """One win of the hand, as the replay saw it when it was declared."""

    event: Hora
    index: int
    """The event's index."""
    situation: WinSituation | None
    value: HandValue | None
    """The replay's value; ``None`` when the hand could not be seen."""
    claim: tuple[int, Limit, int] | None
    """The log's own (base points, limit, yakuman multiples), from its han and fu."""
    liable: Seat | None
    liable_yaku: tuple[Yaku, ...]
    """The yakuman the liable player answers for."""
    honba: int
    kyotaku: int
    """Riichi sticks on the table when the hand was won."""
    riichi: bool
    """The winner's own riichi stick is among them."""
    players: int
    """Seats at the table (who pays a tsumo)."""
    tsumo_loss: bool = True
    """The rule set's :attr:`~kansa.replay.rules.RuleSet.tsumo_loss` (three players)."""
    extra: bool = False
    """A winner the rule set does not allow (head bump, or a third ron that aborts)."""
    extra_at: int | None = None
    """The index of the win event that made this winner one too many."""

    @property
    def own_points(self) -> int | None:
        """The hand's value under the rule set, as the replay found it."""
        if self.value is not None and self.value.error is None:
            return self.value.points
        return None

    @property
    def claimed_points(self) -> int | None:
        """The hand's value as the log claims it: its points, else its han and fu."""
        ev = self.event
        if ev.points is not None:
            return ev.points
        dealer = self.situation.is_dealer if self.situation is not None else None
        if self.claim is not None and dealer is not None:
            return total_points(self.claim[0], dealer=dealer, tsumo=ev.is_tsumo,
                                players=self.players, tsumo_loss=self.tsumo_loss)
        return None

    @property
    def points(self) -> int | None:
        """The value the scores moved by where the log gives no deltas: the log's own claim
        (the table paid what its platform computed), else the replay's value."""
        claimed = self.claimed_points
        return claimed if claimed is not None else self.own_points


@dataclass(slots=True, kw_only=True)
class SettledWin:
    entry: WinEntry
    expected: WinPayment | None
    """The payments the rule set gives: priced from the replay's own value of the hand
    where it has one, else from the log's claim (and from the claim where the log gives no
    deltas, as those are what the scores moved by)."""
    logged: tuple[int, ...] | None
    claimed: WinPayment | None = None
    """The payments the log's own claimed value gives, where they differ from
    ``expected``: scores that moved by them follow the claim (``score.value`` says the
    claim is wrong), not a payment error."""

    @property
    def explained(self) -> WinPayment | None:
        """The payment (the rule set's or the claim's) the logged deltas match, if any."""
        for p in (self.expected, self.claimed):
            if p is not None and self.logged == p.deltas:
                return p
        return None


@dataclass(slots=True, kw_only=True)
class SettledDraw:
    event: Ryukyoku
    index: int
    expected: DrawPayment | None
    logged: tuple[int, ...] | None
    nagashi: tuple[Seat, ...]
    """Seats whose discards qualify for nagashi mangan in the replay."""
    tenpai: tuple[bool, ...] | None


@dataclass(slots=True, kw_only=True)
class Settlement:
    """A hand's result priced: dispatched to the checks registered for this type."""

    hand: int | None
    wins: list[SettledWin] = field(default_factory=list)
    draw: SettledDraw | None = None
    transfers: list[Transfer] = field(default_factory=list)

    @property
    def compared(self) -> bool:
        """Whether logged deltas were compared with expected ones."""
        if self.draw is not None:
            return self.draw.expected is not None and self.draw.logged is not None
        return any(w.expected is not None and w.logged is not None for w in self.wins)


# -- liability ---------------------------------------------------------------------

def liability(melds: Sequence[Meld], yaku: Sequence[Yaku], rules: RuleSet,
              ) -> tuple[Seat | None, tuple[Yaku, ...]]:
    """Who is liable (pao) for a yakuman in ``yaku``, and for which ones.

    The player who discarded the tile of the pon or open kan that completed the third
    dragon set (daisangen) or the fourth wind set (daisuushii); under rule sets that
    include suukantsu, the discarder of a fourth kan called as an open kan.
    """
    liable: Seat | None = None
    which: list[Yaku] = []
    for target, kinds, need in ((Yaku.DAISANGEN, _DRAGONS, 3), (Yaku.DAISUUSHII, _WINDS, 4)):
        if target not in rules.pao_yakuman or target not in yaku:
            continue
        count = 0
        for m in melds:
            if m.type is MeldType.CHI or m.tiles[0].index not in kinds:
                continue
            count += 1
            if count == need:
                if m.type is not MeldType.ANKAN and m.target is not None:
                    liable = m.target
                    which.append(target)
                break
    if Yaku.SUUKANTSU in rules.pao_yakuman and Yaku.SUUKANTSU in yaku:
        kans = [m for m in melds if m.type.is_kan]
        if len(kans) == 4 and kans[3].type is MeldType.DAIMINKAN and kans[3].target is not None:
            liable = liable if liable is not None else kans[3].target
            which.append(Yaku.SUUKANTSU)
    return liable, tuple(which)


def allowed_winners(rules: RuleSet) -> int:
    """How many players may win on one discard."""
    if rules.multi_ron is MultiRon.HEAD_BUMP:
        return 1
    if rules.multi_ron is MultiRon.DOUBLE:
        return 2
    return rules.players - 1


def mark_extra(entries: Sequence[WinEntry], rules: RuleSet, index: int) -> None:
    """Flag the winners the rule set does not allow on one discard (the farthest ones);
    ``index`` is the event of the latest win, which may push an earlier winner out."""
    rons = [e for e in entries if not e.event.is_tsumo]
    allowed = allowed_winners(rules)
    if len(rons) <= allowed:
        return
    # the closest winners keep their win; the others are reported (win.multi-ron) and
    # priced as plain extra winners, so that their payments are not reported twice
    order = closest_order(rons[0].event.target, [e.event.actor for e in rons], rules.players)
    keep = set(order[:allowed])
    for e in rons:
        extra = e.event.actor not in keep
        if extra and not e.extra:
            e.extra_at = index
        e.extra = extra


# -- settling ----------------------------------------------------------------------

def settle_wins_of_hand(entries: Sequence[WinEntry], *, dealer: Seat, rules: RuleSet,
                        hand: int | None) -> Settlement:
    """Expected payments of every win in the hand, against the logged deltas."""
    out = Settlement(hand=hand)
    if not entries:
        return out
    own = _price(entries, lambda e: _first(e.own_points, e.claimed_points), dealer=dealer,
                 rules=rules, hand=hand)
    claimed = _price(entries, lambda e: _first(e.claimed_points, e.own_points), dealer=dealer,
                     rules=rules, hand=hand)
    for e in entries:
        exp, alt = own.get(id(e)), claimed.get(id(e))
        logged = e.event.deltas
        if logged is None:  # nothing to compare: the scores move by the claim
            exp, alt = alt or exp, None
        elif alt is not None and exp is not None and alt.deltas == exp.deltas:
            alt = None
        win = SettledWin(entry=e, expected=exp, logged=logged, claimed=alt)
        out.wins.append(win)
        out.transfers.extend(_transfers(win, hand))
    return out


def _first(a: int | None, b: int | None) -> int | None:
    return a if a is not None else b


def _price(entries: Sequence[WinEntry], points_of: Callable[[WinEntry], int | None], *,
           dealer: Seat, rules: RuleSet, hand: int | None) -> dict[int, WinPayment]:
    """Each win's payments (by ``id`` of its entry) with its value from ``points_of``."""
    inputs: list[tuple[WinEntry, WinInput]] = []
    for e in entries:
        points = points_of(e)
        if points is None:
            continue
        liable_points = 0
        if e.liable is not None and rules.pao_scope is PaoScope.YAKUMAN_PART:
            liable_points = ron_points(8000 * len(e.liable_yaku),
                                       dealer=e.event.actor == dealer)
        inputs.append((e, WinInput(winner=e.event.actor, target=e.event.target, points=points,
                                   liable=e.liable, liable_points=liable_points,
                                   riichi=e.riichi, event=e.index)))
    first = entries[0]
    legit = [(e, w) for e, w in inputs if not e.extra]
    paid = settle_wins([w for _, w in legit], dealer=dealer, honba=first.honba,
                       sticks=first.kyotaku, rules=rules, hand=hand)
    out: dict[int, WinPayment] = {id(e): p for (e, _), p in zip(legit, paid, strict=True)}
    for e, w in inputs:
        if e.extra:  # paid like an ordinary extra winner: the hand value only
            out[id(e)] = settle_wins([w], dealer=dealer, honba=0, sticks=0, rules=rules,
                                     hand=hand)[0]
    return out


def _transfers(win: SettledWin, hand: int | None) -> list[Transfer]:
    """The win's ledger records: the payment its deltas follow, else the rule set's with
    adjustments up to what the log moved."""
    exp, logged, e = win.expected, win.logged, win.entry
    if exp is None:
        if logged is None:
            return []
        reason = Reason.TSUMO if e.event.is_tsumo else Reason.RON
        return settle_differences(list(logged), hand=hand, event=e.index, reason=reason)
    followed = win.explained
    if followed is not None:
        return list(followed.transfers)
    out = list(exp.transfers)
    if logged is not None and len(logged) == len(exp.deltas):
        diff = [a - b for a, b in zip(logged, exp.deltas, strict=True)]
        out += settle_differences(diff, hand=hand, event=e.index)
    return out


def nagashi_seats(rs: RoundState) -> tuple[Seat, ...]:
    """Seats whose every discard is a terminal or honor and none was called."""
    out = []
    for p in rs.players:
        if p.river and all(r.tile.is_yaochu and r.called_by is None for r in p.river):
            out.append(p.seat)
    return tuple(out)


def shown_tenpai(ev: Ryukyoku, seat: int) -> bool | None:
    """Whether the log shows ``seat`` as tenpai at the draw; ``None`` where it says nothing."""
    if ev.tenpai is not None and seat < len(ev.tenpai):
        return ev.tenpai[seat]
    if ev.hands is not None and seat < len(ev.hands):
        return ev.hands[seat] is not None
    return None


def assumed_tenpai(rs: RoundState, ev: Ryukyoku) -> tuple[Seat, ...]:
    """Seats a log shows as not tenpai at an exhaustive draw, with no hand written for them
    (left out or an empty list), whom the payments pay as tenpai (a noten split: the tenpai
    players gain alike, the others pay alike) and the replay finds waiting: a blank of the
    log's writer, taken as tenpai."""
    deltas = ev.deltas
    if ev.reason is not DrawReason.EXHAUSTIVE or deltas is None \
            or len(deltas) != len(rs.players):
        return ()
    gains = {d for d in deltas if d > 0}
    losses = {d for d in deltas if d <= 0}
    paid = tuple(d > 0 for d in deltas)
    if len(gains) != 1 or len(losses) != 1 \
            or gains.pop() * sum(paid) + losses.pop() * (len(paid) - sum(paid)) != 0:
        return ()
    out = []
    for p in rs.players:
        s = p.seat
        written = ev.hands[s] if ev.hands is not None and s < len(ev.hands) else None
        if shown_tenpai(ev, s) is False and paid[s] and not written \
                and p.waits >= 0 and p.tenpai:
            out.append(s)
    return tuple(out)


def settle_draw(rs: RoundState, ev: Ryukyoku, index: int, *, rules: RuleSet,
                hand: int | None) -> Settlement:
    """Expected payments of a draw: none for an abortive draw, nagashi mangan where a
    seat qualifies (and the rule set has it), else noten payments."""
    n = rules.players
    nagashi: tuple[Seat, ...] = ()
    tenpai = ev.tenpai
    assumed = assumed_tenpai(rs, ev)
    if tenpai is not None and assumed:
        tenpai = tuple(t or s in assumed for s, t in enumerate(tenpai))
    expected: DrawPayment | None
    if ev.reason.is_abortive:
        expected = DrawPayment(deltas=(0,) * n, breakdown=f"abortive draw ({ev.reason.value})")
    else:
        if rules.nagashi:
            nagashi = nagashi_seats(rs)
        if nagashi:
            expected = nagashi_payments(nagashi, dealer=rs.start.oya, rules=rules, hand=hand,
                                        event=index)
        elif tenpai is not None and len(tenpai) == n:
            expected = noten_payments(tenpai, rules=rules, hand=hand, event=index)
        else:
            expected = None
    logged = ev.deltas
    transfers: list[Transfer] = []
    if expected is not None:
        transfers = list(expected.transfers)
        if logged is not None and len(logged) == n and logged != expected.deltas:
            diff = [a - b for a, b in zip(logged, expected.deltas, strict=True)]
            transfers += settle_differences(diff, hand=hand, event=index)
    elif logged is not None:
        reason = Reason.NAGASHI if ev.reason is DrawReason.NAGASHI_MANGAN else Reason.NOTEN
        transfers = settle_differences(list(logged), hand=hand, event=index, reason=reason)
    draw = SettledDraw(event=ev, index=index, expected=expected, logged=logged,
                       nagashi=nagashi, tenpai=tenpai)
    return Settlement(hand=hand, draw=draw, transfers=transfers)
