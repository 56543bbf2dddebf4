"""The payments ledger: one record per transfer of points.

Replay emits a :class:`Transfer` for every movement of points: a riichi stick
put on the table, a ron or tsumo payment, honba, the sticks a winner collects,
noten and nagashi payments, liability, and at the end of the game the leftover
sticks and the uma and oka.  ``None`` as payer or payee is the table (the
riichi sticks on it).  Per hand the transfers move exactly the points the
scores moved, and what players gain plus what the table gains is zero.

>>> t = Transfer(hand=0, event=12, payer=Seat(1), payee=Seat(0), amount=3900, reason=Reason.RON)
>>> net([t], 4)
[3900, -3900, 0, 0]
>>> str(t)
'seat 1 -> seat 0: 3900 (ron)'
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Final

from kansa.replay.frozen import frozen_reduce
from kansa.replay.tiles import Seat


class Reason(Enum):
    RON = "ron"
    TSUMO = "tsumo"
    HONBA = "honba"
    RIICHI_DEPOSIT = "riichi_deposit"
    """A riichi declarer's 1000 points to the table."""
    STICKS = "sticks"
    """Riichi sticks collected from the table (by a winner, or by the top at the end)."""
    NOTEN = "noten"
    LIABILITY = "liability"
    """The liable player's (pao) share of a hand's value."""
    NAGASHI = "nagashi"
    UMA = "uma"
    OKA = "oka"
    ADJUSTMENT = "adjustment"
    """What the log moved beyond (or short of) what the rule set gives; always comes with a
    ``score.*`` finding, so that the ledger still reproduces the log's scores."""


@dataclass(slots=True, kw_only=True, init=False, unsafe_hash=True)
class Transfer:
    hand: Final[int | None]
    """Index of the hand in :attr:`ReplayResult.hands`; ``None`` for the end of the game."""
    event: Final[int]
    """Index of the event that made the transfer."""
    payer: Final[Seat | None]
    """``None``: the table (riichi sticks)."""
    payee: Final[Seat | None]
    amount: Final[int]
    """Points; uma and oka are in points too (20.0 game points = 20000)."""
    reason: Final[Reason]

    def __init__(self, *, hand: int | None, event: int, payer: Seat | None,
                 payee: Seat | None, amount: int, reason: Reason) -> None:
        self.hand = hand
        self.event = event
        self.payer = payer
        self.payee = payee
        self.amount = amount
        self.reason = reason

    def __str__(self) -> str:
        return f"{_party(self.payer)} -> {_party(self.payee)}: {self.amount} ({self.reason.value})"

    def to_dict(self) -> dict[str, object]:
        return {"hand": self.hand, "event": self.event, "from": self.payer, "to": self.payee,
                "amount": self.amount, "reason": self.reason.value}

    def __reduce__(self) -> tuple[Any, ...]:
        return frozen_reduce(self)


def _party(seat: Seat | None) -> str:
    return "table" if seat is None else f"seat {seat}"


def net(transfers: Iterable[Transfer], players: int) -> list[int]:
    """What each seat gained (negative: paid) over ``transfers``; the table is left out."""
    out = [0] * players
    for t in transfers:
        if t.payer is not None:
            out[t.payer] -= t.amount
        if t.payee is not None:
            out[t.payee] += t.amount
    return out


def table_net(transfers: Iterable[Transfer]) -> int:
    """What the table gained over ``transfers`` (riichi sticks in minus sticks out)."""
    total = 0
    for t in transfers:
        if t.payee is None:
            total += t.amount
        if t.payer is None:
            total -= t.amount
    return total


def settle_differences(diff: list[int], *, hand: int | None, event: int,
                       reason: Reason = Reason.ADJUSTMENT) -> list[Transfer]:
    """Transfers that move ``diff`` (gains per seat); what does not sum to zero goes to or
    comes from the table.

    >>> [str(t) for t in settle_differences([-3, 1, 0, 4], hand=0, event=0)]
    ['seat 0 -> seat 1: 1 (adjustment)', 'seat 0 -> seat 3: 2 (adjustment)', \
'table -> seat 3: 2 (adjustment)']
    """
    payers = [Seat(s) for s, d in enumerate(diff) if d < 0]
    owed = [-d for d in diff if d < 0]
    payees = [Seat(s) for s, d in enumerate(diff) if d > 0]
    due = [d for d in diff if d > 0]
    out: list[Transfer] = []
    i = j = 0
    while i < len(payers) and j < len(payees):
        amount = min(owed[i], due[j])
        out.append(Transfer(hand=hand, event=event, payer=payers[i], payee=payees[j],
                            amount=amount, reason=reason))
        owed[i] -= amount
        due[j] -= amount
        if owed[i] == 0:
            i += 1
        if due[j] == 0:
            j += 1
    out.extend(Transfer(hand=hand, event=event, payer=payers[k], payee=None, amount=owed[k],
                        reason=reason) for k in range(i, len(payers)) if owed[k])
    out.extend(Transfer(hand=hand, event=event, payer=None, payee=payees[k], amount=due[k],
                        reason=reason) for k in range(j, len(payees)) if due[k])
    return out
