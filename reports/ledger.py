"""The payments ledger: one transfer per payment, with its reason.

:func:`payments` is the one place the reports get money movements from.  When
a :class:`~kansa.replay.result.ReplayResult` carries the scoring layer's ``ledger``
(issue 5) it is used as it is; until then the transfers are derived from what
replay records today: the riichi sticks accepted in each hand and the score
deltas the log claims for each win and draw (see :func:`derived_payments`).

Every transfer has a payer and a payee; ``None`` stands for the riichi-stick
pool on the table, so a deposit is ``seat -> None`` and a collection
``None -> seat``.  Per hand, the ledger therefore sums to zero once the pool is
counted as a party: what the players lose, the others and the pool gain.

>>> REASONS[:3]
('ron', 'tsumo', 'honba')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from kansa.replay.events import DrawReason
from kansa.replay.result import HandRecord, ReplayResult, WinRecord

RIICHI_STICK = 1000

REASONS: tuple[str, ...] = (
    "ron", "tsumo", "honba", "riichi_deposit", "sticks", "noten", "liability", "nagashi",
    "uma", "oka", "adjustment",
)
"""Every reason a transfer can have, in display order: the scoring layer's
``kansa.replay.ledger.Reason`` values (``sticks`` = riichi sticks collected from the
table; ``adjustment`` = what a log moved beyond what the rule set gives)."""

POOL_NAME = "(riichi sticks)"
"""How the stick pool is named in tables and plots."""


@dataclass(frozen=True, slots=True)
class Payment:
    hand: int | None
    """Index of the hand in the game; ``None`` for transfers at the end of the game
    (leftover riichi sticks, uma, oka)."""
    payer: int | None
    """Seat that pays; ``None`` = the riichi-stick pool."""
    payee: int | None
    amount: int
    reason: str


def payments(result: ReplayResult) -> list[Payment]:
    """Every transfer of the game, in order.

    The scoring layer's ledger (``ReplayResult.ledger``, issue 5) when the
    replay kept one; otherwise :func:`derived_payments`.  This is the one place
    the reports read money movements from.
    """
    ledger = getattr(result, "ledger", None)
    if ledger and isinstance(ledger, list):
        return [Payment(hand=t.hand, payer=t.payer, payee=t.payee, amount=int(t.amount),
                        reason=str(getattr(t.reason, "value", t.reason))) for t in ledger]
    return derived_payments(result)


def derived_payments(result: ReplayResult) -> list[Payment]:
    """Transfers rebuilt from the facts replay records (no scoring layer needed).

    Per hand: one ``riichi_deposit`` per accepted riichi; per win, each payer's
    loss as ``ron`` or ``tsumo`` (``liability`` for the pao player), the part
    above the hand's value as ``honba`` (when the log gives the value), and the
    winner's gain above what the players paid as ``sticks``; per
    exhaustive draw, ``noten`` (or ``nagashi``) payments split between payers
    and receivers in proportion.  At the end of the game, sticks left on the
    table that the final scores give to a player are a ``sticks``.
    """
    out: list[Payment] = []
    for i, hand in enumerate(result.hands):
        out.extend(_hand_payments(i, hand))
    out.extend(_leftover_sticks(result))
    return out


def _hand_payments(i: int, hand: HandRecord) -> list[Payment]:
    out = [Payment(i, r.seat, None, RIICHI_STICK, "riichi_deposit")
           for r in hand.riichi if r.accepted]
    logged = [d for d in (*(w.deltas for w in hand.wins), hand.draw_deltas) if d is not None]
    for w in hand.wins:
        out.extend(_win_payments(i, w))
    if hand.draw is not None and hand.draw_deltas is not None:
        reason = "nagashi" if hand.draw is DrawReason.NAGASHI_MANGAN else "noten"
        out.extend(_split(i, hand.draw_deltas, reason))
    if logged:
        out.extend(_adjustment(i, out, [sum(col) for col in zip(*logged, strict=True)]))
    return out


def _adjustment(i: int, made: list[Payment], deltas: list[int]) -> list[Payment]:
    """What the log's deltas move that the named transfers do not (a log whose winner
    is not the one who gains, say): ``adjustment`` transfers, the pool taking any
    imbalance, so the ledger always reproduces the log's scores."""
    implied = [0] * len(deltas)
    for p in made:
        if p.reason == "riichi_deposit":
            continue
        if p.payee is not None:
            implied[p.payee] += p.amount
        if p.payer is not None:
            implied[p.payer] -= p.amount
    rest = [d - m for d, m in zip(deltas, implied, strict=True)]
    if not any(rest):
        return []
    out = _split(i, rest, "adjustment")
    gap = sum(rest)
    if gap:  # the players gained (lost) more than they paid (got): the pool evens it
        moved = [0] * len(rest)
        for p in out:
            if p.payee is not None:
                moved[p.payee] += p.amount
            if p.payer is not None:
                moved[p.payer] -= p.amount
        for s, (want, got) in enumerate(zip(rest, moved, strict=True)):
            if want - got > 0:
                out.append(Payment(i, None, s, want - got, "adjustment"))
            elif want - got < 0:
                out.append(Payment(i, s, None, got - want, "adjustment"))
    return out


def _win_payments(i: int, w: WinRecord) -> list[Payment]:
    if w.deltas is None:
        return []
    d = w.deltas
    winner = int(w.actor)
    paid = {s: -x for s, x in enumerate(d) if x < 0 and s != winner}
    total = sum(paid.values())
    honba = 0
    value = win_value(w)
    if value is not None and total >= value:
        honba = total - value
    shares = _honba_shares(paid, honba, int(w.target))
    base = "tsumo" if w.is_tsumo else "ron"
    out: list[Payment] = []
    for s, amount in paid.items():
        reason = "liability" if w.pao is not None and s == w.pao and s != w.target else base
        h = shares.get(s, 0)
        if amount - h:
            out.append(Payment(i, s, winner, amount - h, reason))
        if h:
            out.append(Payment(i, s, winner, h, "honba"))
    sticks = d[winner] - total
    if sticks > 0:
        out.append(Payment(i, None, winner, sticks, "sticks"))
    return out


def win_value(w: WinRecord) -> int | None:
    """The hand's value before honba and sticks: replay's own where the scoring
    layer computed it, else the log's claim."""
    points: int | None = getattr(w, "points", None)
    return points if points is not None else w.claimed_points


def _honba_shares(paid: dict[int, int], honba: int, target: int) -> dict[int, int]:
    """Split the honba bonus evenly between the payers (the discarder takes a remainder)."""
    if not honba or not paid:
        return {}
    each, rest = divmod(honba, len(paid))
    shares = dict.fromkeys(paid, each)
    first = target if target in shares else next(iter(shares))
    shares[first] += rest
    if any(shares[s] > paid[s] for s in paid):
        return {first: min(honba, paid[first])}
    return shares


def _split(i: int, deltas: Sequence[int], reason: str) -> list[Payment]:
    """Pairwise transfers from the seats that lose to those that gain, in proportion."""
    payers = [(s, -x) for s, x in enumerate(deltas) if x < 0]
    payees = [(s, x) for s, x in enumerate(deltas) if x > 0]
    gained = sum(x for _, x in payees)
    out: list[Payment] = []
    if not gained:
        return out
    for s, lost in payers:
        left = lost
        for k, (r, x) in enumerate(payees):
            amount = left if k == len(payees) - 1 else lost * x // gained
            left -= amount
            if amount:
                out.append(Payment(i, s, r, amount, reason))
    return out


def sticks_after(hand: HandRecord) -> int:
    """Riichi sticks on the table when ``hand`` is over."""
    if hand.wins:
        return 0
    return hand.kyotaku + sum(1 for r in hand.riichi if r.accepted)


def _leftover_sticks(result: ReplayResult) -> list[Payment]:
    """Sticks left after the last hand that the claimed final scores hand out."""
    if not result.hands or result.final_scores is None:
        return []
    last = result.hands[-1]
    if last.end_scores is None or len(last.end_scores) != len(result.final_scores):
        return []
    left = sticks_after(last) * RIICHI_STICK
    gains = [f - e for f, e in zip(result.final_scores, last.end_scores, strict=True)]
    if not left or sum(gains) != left or any(g < 0 for g in gains):
        return []
    return [Payment(None, None, s, g, "sticks") for s, g in enumerate(gains) if g]
