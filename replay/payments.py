"""Payments: who pays whom for a win, a draw and the final ranking, as pure functions.

Nothing here reads the replay state: callers pass what a payment depends on
(the hand's points, seats, counters, the rule set) and get the deltas and the
:class:`~kansa.replay.ledger.Transfer` records that make them up.  A win is priced from
its points as logs record them (the ron payment, or all tsumo payments together:
Tenhou's ``ten``), which fix the tsumo split (:func:`split_tsumo`).

>>> tenhou = RuleSet.preset("tenhou")
>>> win = WinInput(winner=Seat(1), target=Seat(0), points=3900)
>>> p = settle_wins([win], dealer=Seat(0), honba=2, sticks=1, rules=tenhou)[0]
>>> p.deltas, p.value, p.honba, p.sticks
((-4500, 5500, 0, 0), 3900, 600, 1000)
>>> noten_payments((True, False, False, True), rules=tenhou).deltas
(1500, -1500, -1500, 1500)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from kansa.replay.frozen import frozen_reduce, frozen_state, set_frozen_state
from kansa.replay.ledger import Reason, Transfer, settle_differences
from kansa.replay.rules import HonbaMultiRon, PaoHonbaPayer, PaoScope, RuleSet, SticksMultiRon
from kansa.replay.scoring import ron_points
from kansa.replay.tiles import Seat

RIICHI_STICK: Final = 1000
MAX_SCORE: Final = 10**9
"""No game reaches a score this large; past it a log's numbers are garbage and are not priced
(the points are floats, and dividing a huge integer overflows)."""


def out_of_range(scores: Sequence[int]) -> bool:
    return any(abs(s) > MAX_SCORE for s in scores)


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class WinInput:
    """One win as payments see it."""

    winner: Final[Seat]
    target: Final[Seat]
    """The discarder (the kakan player for chankan); ``winner`` for tsumo."""
    points: Final[int]
    """The hand's value: the ron payment, or the sum of the tsumo payments."""
    liable: Final[Seat | None]
    """The player liable for a yakuman (pao)."""
    liable_points: Final[int]
    """The ron value of the yakuman the liable player answers for (scope ``yakuman_part``)."""
    riichi: Final[bool]
    """The winner's own riichi stick is on the table (declared this hand)."""
    event: Final[int]

    def __init__(self, *, winner: Seat, target: Seat, points: int,
                 liable: Seat | None = None, liable_points: int = 0, riichi: bool = False,
                 event: int = -1) -> None:
        self.winner = winner
        self.target = target
        self.points = points
        self.liable = liable
        self.liable_points = liable_points
        self.riichi = riichi
        self.event = event

    @property
    def is_tsumo(self) -> bool:
        return self.winner == self.target

    def __reduce__(self) -> tuple[Any, ...]:
        return frozen_reduce(self)


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class WinPayment:
    """What one win moves; ``deltas`` sum to ``sticks`` (the sticks come off the table)."""

    winner: Final[Seat]
    deltas: Final[tuple[int, ...]]
    value: Final[int]
    """Points paid for the hand itself (ron payment or all tsumo payments)."""
    honba: Final[int]
    """Honba points this winner collects."""
    sticks: Final[int]
    """Riichi-stick points this winner collects from the table."""
    liable: Final[Seat | None]
    transfers: Final[tuple[Transfer, ...]]

    def __init__(self, *, winner: Seat, deltas: tuple[int, ...], value: int, honba: int,
                 sticks: int, liable: Seat | None = None,
                 transfers: tuple[Transfer, ...] = ()) -> None:
        self.winner = winner
        self.deltas = deltas
        self.value = value
        self.honba = honba
        self.sticks = sticks
        self.liable = liable
        self.transfers = transfers

    def breakdown(self) -> str:
        text = f"value {self.value}, honba {self.honba}, sticks {self.sticks}"
        if self.liable is not None:
            text += f", seat {self.liable} liable"
        return text

    def __reduce__(self) -> tuple[Any, ...]:
        return frozen_reduce(self)


def closest_order(target: Seat, winners: Sequence[Seat], players: int) -> list[Seat]:
    """``winners`` in turn order from the discarder's right (atamahane order)."""
    return sorted(winners, key=lambda w: (w - target) % players)


def settle_wins(wins: Sequence[WinInput], *, dealer: Seat, honba: int, sticks: int,
                rules: RuleSet, hand: int | None = None) -> list[WinPayment]:
    """Payments of the wins of one hand (one tsumo, or every ron on one discard).

    ``sticks`` is the number of riichi sticks on the table when the hand was won.
    Honba and sticks go to the closest winner or to each winner as the rule set says
    (RULESETS.md row 5).  Results come in the order of ``wins``.
    """
    if not wins:
        return []
    n = rules.players
    order = closest_order(wins[0].target, [w.winner for w in wins], n)
    closest = order[0]
    own_back = rules.sticks_multi_ron is SticksMultiRon.OWN_BACK_REST_CLOSEST
    own = set(sorted(w.winner for w in wins if own_back and w.riichi)[:sticks])
    out: list[WinPayment] = []
    for w in wins:
        is_closest = w.winner == closest
        gets_honba = is_closest or rules.honba_multi_ron is HonbaMultiRon.EACH_WINNER
        stick_count = (1 if w.winner in own else 0)
        if is_closest:
            stick_count += sticks - len(own)
        out.append(_one_win(w, dealer=dealer, honba=honba if gets_honba else 0,
                            sticks=stick_count, rules=rules, hand=hand))
    return out


def _one_win(w: WinInput, *, dealer: Seat, honba: int, sticks: int, rules: RuleSet,
             hand: int | None) -> WinPayment:
    n = rules.players
    pays: list[tuple[Seat, int, Reason]] = []
    is_dealer = w.winner == dealer
    liable = w.liable if w.liable is not None and w.liable != w.winner else None
    whole = rules.pao_scope is PaoScope.WHOLE
    if w.is_tsumo:
        child, oya = split_tsumo(w.points, dealer=is_dealer, players=n,
                                 tsumo_loss=rules.tsumo_loss)
        honba_each = honba * rules.honba_value // (n - 1)
        if liable is not None:
            pao = w.points if whole else min(w.liable_points, w.points)
            pays.append((liable, pao, Reason.LIABILITY))
            pays.append((liable, honba_each * (n - 1), Reason.HONBA))
            rest = w.points - pao
            if rest:
                child, oya = split_tsumo(rest, dealer=is_dealer, players=n,
                                         tsumo_loss=rules.tsumo_loss)
                for s in _others(w.winner, n):
                    pays.append((s, oya if s == dealer else child, Reason.TSUMO))
        else:
            for s in _others(w.winner, n):
                pays.append((s, oya if s == dealer else child, Reason.TSUMO))
                pays.append((s, honba_each, Reason.HONBA))
    else:
        value = w.points
        honba_pts = honba * rules.honba_value
        if liable is not None and liable != w.target:
            pao_value = value if whole else min(w.liable_points, value)
            pays.append((liable, pao_value // 2, Reason.LIABILITY))
            pays.append((w.target, value - pao_value // 2, Reason.RON))
            honba_payer = (liable if rules.pao_ron_honba_payer is PaoHonbaPayer.LIABLE
                           else w.target)
            pays.append((honba_payer, honba_pts, Reason.HONBA))
        else:
            pays.append((w.target, value, Reason.RON))
            pays.append((w.target, honba_pts, Reason.HONBA))
    transfers = [Transfer(hand=hand, event=w.event, payer=s, payee=w.winner, amount=a,
                          reason=r) for s, a, r in pays if a]
    if sticks:
        transfers.append(Transfer(hand=hand, event=w.event, payer=None, payee=w.winner,
                                  amount=sticks * RIICHI_STICK, reason=Reason.STICKS))
    deltas = [0] * n
    for t in transfers:
        if t.payer is not None:
            deltas[t.payer] -= t.amount
        deltas[w.winner] += t.amount
    value_pts = sum(a for _, a, r in pays if r is not Reason.HONBA)
    honba_got = sum(a for _, a, r in pays if r is Reason.HONBA)
    return WinPayment(winner=w.winner, deltas=tuple(deltas), value=value_pts, honba=honba_got,
                      sticks=sticks * RIICHI_STICK, liable=liable, transfers=tuple(transfers))


def split_tsumo(points: int, *, dealer: bool, players: int, tsumo_loss: bool = True,
                ) -> tuple[int, int]:
    """(each non-dealer pays, the dealer pays) for a tsumo worth ``points`` in all.

    A non-dealer's tsumo of base ``b`` is paid ``up100(b)`` by each non-dealer and
    ``up100(2b)`` by the dealer, so its total is ``4c`` or ``4c - 100`` (``3c`` or
    ``3c - 100`` at three players with tsumo loss); that fixes ``c``.  Without tsumo loss
    each of the two payers adds half the absent seat's ``c``
    (:func:`~kansa.replay.scoring.tsumo_shares`).

    >>> split_tsumo(1100, dealer=False, players=4), split_tsumo(7900, dealer=False, players=4)
    ((300, 500), (2000, 3900))
    >>> split_tsumo(12000, dealer=True, players=4), split_tsumo(6000, dealer=False, players=3)
    ((4000, 4000), (2000, 4000))
    >>> split_tsumo(8000, dealer=False, players=3, tsumo_loss=False)
    (3000, 5000)
    """
    if dealer:
        each = points // (players - 1)
        return each, each
    if players < 4 and not tsumo_loss:
        guess = -(-points // 400) * 100
        for child in range(max(guess - 300, 100), guess + 400, 100):
            half = -(-child // 200) * 100
            for oya in (2 * child, 2 * child - 100):
                if child + oya + 2 * half == points:
                    return child + half, oya + half
    child = -(-points // (players * 100)) * 100
    return child, points - child * (players - 2)


def _others(seat: Seat, n: int) -> list[Seat]:
    return [Seat(s) for s in range(n) if s != seat]


# -- draws -----------------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class DrawPayment:
    deltas: tuple[int, ...]
    transfers: tuple[Transfer, ...] = field(default=(), repr=False)
    breakdown: str = ""

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)


def noten_payments(tenpai: Sequence[bool], *, rules: RuleSet, hand: int | None = None,
                   event: int = -1) -> DrawPayment:
    """Noten payments at an exhaustive draw: ``rules.noten_total`` split between the
    noten players and shared by the tenpai players (none when all or nobody is tenpai)."""
    n = len(tenpai)
    ten = [Seat(s) for s in range(n) if tenpai[s]]
    noten = [Seat(s) for s in range(n) if not tenpai[s]]
    if not ten or not noten:
        who = "everyone" if ten else "nobody"
        return DrawPayment(deltas=(0,) * n, breakdown=f"{who} tenpai: no payments")
    each = rules.noten_total // (len(ten) * len(noten))
    transfers = tuple(Transfer(hand=hand, event=event, payer=p, payee=r, amount=each,
                               reason=Reason.NOTEN) for p in noten for r in ten)
    deltas = [0] * n
    for s in ten:
        deltas[s] = each * len(noten)
    for s in noten:
        deltas[s] = -each * len(ten)
    seats = ", ".join(map(str, ten))
    return DrawPayment(deltas=tuple(deltas), transfers=transfers,
                       breakdown=f"tenpai: seat{'s' if len(ten) > 1 else ''} {seats}; "
                                 f"{rules.noten_total} noten payments")


def nagashi_payments(seats: Sequence[Seat], *, dealer: Seat, rules: RuleSet,
                     hand: int | None = None, event: int = -1) -> DrawPayment:
    """Nagashi mangan: each qualifying seat is paid a mangan tsumo without honba."""
    n = rules.players
    transfers: list[Transfer] = []
    for w in seats:
        mangan = ron_points(2000, dealer=w == dealer)
        child, oya = split_tsumo(mangan, dealer=w == dealer, players=n,
                                 tsumo_loss=rules.tsumo_loss)
        transfers.extend(Transfer(hand=hand, event=event, payer=s, payee=w,
                                  amount=oya if s == dealer else child, reason=Reason.NAGASHI)
                         for s in _others(w, n))
    deltas = [0] * n
    for t in transfers:
        assert t.payer is not None and t.payee is not None
        deltas[t.payer] -= t.amount
        deltas[t.payee] += t.amount
    names = ", ".join(map(str, seats))
    return DrawPayment(deltas=tuple(deltas), transfers=tuple(transfers),
                       breakdown=f"nagashi mangan: seat{'s' if len(seats) > 1 else ''} {names}")


# -- end of the game -------------------------------------------------------------

@dataclass(frozen=True, slots=True, kw_only=True)
class FinalResult:
    scores: tuple[int, ...]
    """Final scores, leftover sticks included."""
    points: tuple[float, ...]
    """Game points after uma and oka, rounded as the rule set rounds them."""
    ranks: tuple[int, ...]
    """0 for first place."""
    transfers: tuple[Transfer, ...] = field(default=(), repr=False)

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)


def ranking(scores: Sequence[int]) -> list[Seat]:
    """Seats from first to last; ties go to the earlier seat."""
    return sorted((Seat(s) for s in range(len(scores))), key=lambda s: (-scores[s], s))


def final_result(scores: Sequence[int], kyotaku: int, *, rules: RuleSet, event: int = -1,
                 rounding: str | None = None) -> FinalResult:
    """Final scores and points: leftover sticks, then uma and oka.

    ``rounding`` overrides ``rules.rounding``: ``none`` (exact), ``tenhou`` (whole
    points: each player but the first rounds the score to thousands, half away from
    zero, before the return score is taken off, and the first takes minus the sum of
    the others) or ``tenhou_tenths`` (tenths, the first takes minus the sum).
    """
    n = len(scores)
    final = list(scores)
    transfers: list[Transfer] = []
    order = ranking(final)
    if kyotaku and rules.leftover_sticks_to_top:
        final[order[0]] += kyotaku * RIICHI_STICK
        transfers.append(Transfer(hand=None, event=event, payer=None, payee=order[0],
                                  amount=kyotaku * RIICHI_STICK, reason=Reason.STICKS))
        order = ranking(final)
    uma = [0] * n
    oka = [0] * n
    pool = (rules.return_score - rules.start_score) * n
    table = rules.uma
    if table is None:  # unknown uma: scores only
        pool = 0
    elif rules.uma_ties_split:
        i = 0
        while i < n:
            j = i
            while j + 1 < n and final[order[j + 1]] == final[order[i]]:
                j += 1
            share = sum(table[i:j + 1]) // (j - i + 1)
            for k in range(i, j + 1):
                uma[order[k]] = share
                if i == 0:
                    oka[order[k]] = pool // (j - i + 1)
            i = j + 1
    else:
        for rank, s in enumerate(order):
            uma[s] = table[rank]
        oka[order[0]] = pool
    contribution = pool // n
    transfers += settle_differences(uma, hand=None, event=event, reason=Reason.UMA)
    transfers += settle_differences([o - contribution for o in oka], hand=None, event=event,
                                    reason=Reason.OKA)
    exact = [(final[i] - rules.return_score + uma[i] + oka[i]) / 1000 for i in range(n)]
    mode = rounding or rules.rounding
    if mode in ("tenhou", "tenhou_tenths"):
        top = order[0]
        points = [0.0] * n
        for i in range(n):
            if i == top:
                continue
            if mode == "tenhou":
                points[i] = float(_thousands(final[i]) - rules.return_score // 1000
                                  + (uma[i] + oka[i]) // 1000)
            else:
                points[i] = round(exact[i], 1)
        points[top] = round(-sum(points), 1)
    else:
        points = exact
    ranks = [0] * n
    for rank, s in enumerate(order):
        ranks[s] = rank
    return FinalResult(scores=tuple(final), points=tuple(points), ranks=tuple(ranks),
                       transfers=tuple(transfers))


def _thousands(score: int) -> int:
    """``score`` in whole thousands, half away from zero, as Tenhou's older logs show it.

    >>> _thousands(25500), _thousands(25400), _thousands(-4500), _thousands(-400)
    (26, 25, -5, 0)
    """
    q, r = divmod(abs(score), 1000)
    q += r >= 500
    return q if score >= 0 else -q
