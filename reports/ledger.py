"""The payments ledger as the reports read it: replay's transfers, with their reasons.

:func:`payments` is the one place the reports get money movements from: the
scoring layer's ledger (:attr:`~kansa.replay.result.ReplayResult.ledger`, one
:class:`~kansa.replay.ledger.Transfer` per payment).

Every transfer has a payer and a payee; ``None`` stands for the riichi-stick
pool on the table, so a deposit is ``seat -> None`` and a collection
``None -> seat``.  Per hand, the ledger therefore sums to zero once the pool is
counted as a party: what the players lose, the others and the pool gain.

>>> REASONS[:3]
('ron', 'tsumo', 'honba')
"""

from __future__ import annotations

from kansa.replay.ledger import Reason, Transfer
from kansa.replay.result import ReplayResult, WinRecord

REASONS: tuple[str, ...] = tuple(r.value for r in Reason)
"""Every reason a transfer can have, in display order: the values of
:class:`kansa.replay.ledger.Reason` (``sticks`` = riichi sticks collected from the
table; ``adjustment`` = what a log moved beyond what the rule set gives)."""

POOL_NAME = "(riichi sticks)"
"""How the stick pool is named in tables and plots."""


def payments(result: ReplayResult) -> list[Transfer]:
    """Every transfer of the game, in order."""
    return result.ledger


def win_value(w: WinRecord) -> int | None:
    """The hand's value before honba and sticks: replay's own where the scoring
    layer computed it, else the log's claim."""
    return w.points if w.points is not None else w.claimed_points
