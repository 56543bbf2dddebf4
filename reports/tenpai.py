"""The tenpai rate by turn (the rate at exhaustive draws is a player metric,
``tenpai_at_draw_rate`` in :mod:`kansa.reports.metrics`).

Both come from the per-seat facts in ``player_hands`` (see :mod:`kansa.reports.facts`
for where they come from): ``tenpai_end`` and ``first_tenpai_turn``.

The rate by turn *N* is, over the hands that lasted at least *N* turns (the
hand's longest run of wall draws, ``turns``), the share of player-hands whose
hand had become tenpai on turn *N* or earlier.  Hands that ended before turn
*N* leave the denominator instead of counting as "not tenpai", so a short hand
does not pull the curve down.  Three- and four-player hands make separate curves
(rows keyed by ``players``, the table size).
"""

from __future__ import annotations

import pandas as pd

TENPAI_BY_TURN_COLUMNS = {"players": "Int64", "turn": "Int64", "hands": "Int64",
                          "tenpai": "Int64", "rate": "Float64"}


def tenpai_by_turn(player_hands: pd.DataFrame, max_turn: int = 18) -> pd.DataFrame:
    """Rows ``players, turn, hands, tenpai, rate`` for turns 1..``max_turn``, per table
    size (``player_hands`` carries its games' ``players``, see
    :func:`kansa.reports.metrics.with_table_size`).

    Only player-hands that replay followed count (``tenpai_replayed``): a hidden
    hand, or a replay without the hand tracker, says nothing about when a hand
    became tenpai, and the table is empty when no hand qualifies.
    """
    ph = player_hands[player_hands["complete"].fillna(False).astype(bool)
                      & player_hands["tenpai_replayed"].fillna(False).astype(bool)]
    rows = []
    for size, group in ph.groupby("players", sort=True):
        first = group["first_tenpai_turn"]
        turns = group["turns"]
        for n in range(1, max_turn + 1):
            alive = turns >= n
            tenpai = alive & first.notna() & (first <= n)
            hands = int(alive.fillna(False).sum())
            if not hands:
                continue
            k = int(tenpai.fillna(False).sum())
            rows.append({"players": size, "turn": n, "hands": hands, "tenpai": k,
                         "rate": k / hands})
    return pd.DataFrame(rows, columns=list(TENPAI_BY_TURN_COLUMNS)).astype(
        TENPAI_BY_TURN_COLUMNS)

