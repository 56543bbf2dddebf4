"""Player statistics, each written once as data: a numerator over a denominator.

A :class:`Count` says what is counted for a player and from which table; a
:class:`Metric` divides one count by another (or reports a total).  The players
table, the README's metric table and the HTML report's definitions are all made
from :data:`COUNTS` and :data:`METRICS`, so a definition cannot drift between
the code and the docs.  Names follow the statistics pages players already use
(amae-koromo for Mahjong Soul, Mortal's ``stat``): rates are per hand played,
riichi rates per declaration, and a turn is the player's number of wall draws.

A player's three- and four-player games are never counted together: every count,
and so every row of the players table, is keyed by the name and the table size
(``players``: 3 or 4), so one player who plays both has two rows.

Run ``python -m kansa.reports.metrics`` to print the Markdown table for the README.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pandas as pd

from kansa.reports.ledger import POOL_NAME, REASONS
from kansa.reports.tables import Tables

Rows = Callable[[pd.DataFrame], "pd.Series[Any]"]


@dataclass(frozen=True, slots=True)
class Count:
    name: str
    table: str
    """``seats``, ``player_hands``, ``riichi`` or ``payment_sides`` (a payment seen
    by each party: ``+amount`` for the payee, ``-amount`` for the payer)."""
    description: str
    value: Rows
    """Per row of the table: what this row adds to the player's count."""


@dataclass(frozen=True, slots=True)
class Metric:
    name: str
    numerator: Count
    denominator: Count | None
    """``None`` for a total."""
    description: str
    kind: str = "rate"
    """``rate`` (shown as a percentage), ``average`` or ``total``."""


def _col(name: str) -> Rows:
    return lambda df: df[name].fillna(False).astype("int64")


def _rows(df: pd.DataFrame) -> pd.Series[Any]:
    return pd.Series(1, index=df.index, dtype="int64")


def _where(cond: Callable[[pd.DataFrame], pd.Series[bool]],
           value: Rows = _rows) -> Rows:
    return lambda df: value(df).where(cond(df).fillna(False).astype(bool), 0)


def _num(name: str) -> Rows:
    return lambda df: df[name].astype("Float64").fillna(0)


def _placed(df: pd.DataFrame) -> pd.Series[bool]:
    return df["placement"].notna()


def _done(df: pd.DataFrame) -> pd.Series[bool]:
    return df["complete"].fillna(False).astype(bool)


def _at_draw(df: pd.DataFrame) -> pd.Series[bool]:
    return _done(df) & df["exhaustive_draw"].fillna(False).astype(bool) \
        & df["tenpai_end"].notna()


def _placement_is(k: int) -> Callable[[pd.DataFrame], pd.Series[bool]]:
    return lambda df: df["placement"] == k


def _reason(reason: str) -> Rows:
    return _where(lambda df: df["reason"] == reason, _num("amount"))


_COUNTS: list[Count] = [
    Count("games", "seats", "games played", _rows),
    Count("placed_games", "seats",
          "games played that have final scores (truncated games have no placement)",
          _where(_placed)),
    Count("placement_sum", "seats",
          "sum of the placements (1-4, or 1-3 at three players) in placed games",
          _where(_placed, _num("placement"))),
    *(Count(f"rank_{k}", "seats", f"placed games finished in place {k}",
            _where(_placement_is(k))) for k in (1, 2, 3, 4)),
    Count("hands", "player_hands", "hands played that reached a result (win or draw)",
          _where(_done)),
    Count("wins", "player_hands", "hands the player won", _where(_done, _col("won"))),
    Count("tsumo_wins", "player_hands", "hands the player won by tsumo",
          _where(_done, _col("tsumo"))),
    Count("deal_ins", "player_hands", "hands in which the player's discard (or added kan) "
          "was won on", _where(_done, _col("dealt_in"))),
    Count("called_hands", "player_hands",
          "hands in which the player called chi, pon or an open kan", _where(_done,
                                                                             _col("called"))),
    Count("riichi", "riichi", "riichi declarations", _rows),
    Count("riichi_wins", "riichi", "declarations after which the declarer won",
          _where(lambda df: df["outcome"].isin(["tsumo", "ron"]))),
    Count("riichi_deal_ins", "riichi",
          "declarations after which the declarer dealt in (the declaration tile included)",
          _where(lambda df: df["outcome"] == "dealt_in")),
    Count("draws_known", "player_hands",
          "exhaustive draws (nagashi mangan included) where the player's tenpai is known",
          _where(_at_draw)),
    Count("tenpai_at_draw", "player_hands", "exhaustive draws at which the player was tenpai",
          _where(_at_draw, _col("tenpai_end"))),
    Count("valued_wins", "player_hands", "wins whose value the log gives",
          _where(lambda df: _done(df) & df["win_value"].notna())),
    Count("win_value_sum", "player_hands",
          "value of the player's winning hands (before honba and riichi sticks)",
          _where(_done, _num("win_value"))),
    Count("valued_deal_ins", "player_hands", "deal-ins whose value the log gives",
          _where(lambda df: _done(df) & df["deal_in_value"].notna())),
    Count("deal_in_value_sum", "player_hands",
          "value of the hands the player dealt into (before honba and riichi sticks)",
          _where(_done, _num("deal_in_value"))),
    Count("win_turn_sum", "player_hands", "turns (wall draws) at which the player won",
          _where(_done, _num("win_turn"))),
    *(Count(f"net_{r.replace(' ', '_')}", "payment_sides",
            f"points received minus paid for '{r}'", _reason(r)) for r in REASONS),
]
COUNTS: dict[str, Count] = {c.name: c for c in _COUNTS}
"""Every count, by name."""

_C = COUNTS
METRICS: tuple[Metric, ...] = (
    Metric("avg_rank", _C["placement_sum"], _C["placed_games"], "average placement",
           "average"),
    *(Metric(f"rank_{k}_rate", _C[f"rank_{k}"], _C["placed_games"],
             f"share of placed games finished in place {k}"
             + (" (four players only)" if k == 4 else "")) for k in (1, 2, 3, 4)),
    Metric("win_rate", _C["wins"], _C["hands"], "share of hands won (和牌率)"),
    Metric("deal_in_rate", _C["deal_ins"], _C["hands"], "share of hands dealt in (放铳率)"),
    Metric("tsumo_rate", _C["tsumo_wins"], _C["wins"], "share of wins by tsumo (自摸率)"),
    Metric("call_rate", _C["called_hands"], _C["hands"],
           "share of hands with an open call (副露率)"),
    Metric("riichi_rate", _C["riichi"], _C["hands"], "share of hands with a riichi (立直率)"),
    Metric("riichi_win_rate", _C["riichi_wins"], _C["riichi"],
           "share of riichi declarations that won (立直和了)"),
    Metric("riichi_deal_in_rate", _C["riichi_deal_ins"], _C["riichi"],
           "share of riichi declarations that dealt in (立直放铳)"),
    Metric("tenpai_at_draw_rate", _C["tenpai_at_draw"], _C["draws_known"],
           "share of exhaustive draws at which the player was tenpai (流听率)"),
    Metric("avg_win_value", _C["win_value_sum"], _C["valued_wins"],
           "average value of a winning hand (平均打点)", "average"),
    Metric("avg_deal_in_value", _C["deal_in_value_sum"], _C["valued_deal_ins"],
           "average value of the hands dealt into (平均铳点)", "average"),
    Metric("avg_win_turn", _C["win_turn_sum"], _C["wins"],
           "average turn of a win (和了巡数)", "average"),
    *(Metric(c.name, c, None, f"net points from '{c.name[4:].replace('_', ' ')}' transfers",
             "total") for c in _COUNTS if c.table == "payment_sides"),
)
"""Every player metric, in the players table's column order."""


def payment_sides(payments: pd.DataFrame) -> pd.DataFrame:
    """Each payment twice: as the payee sees it (+amount) and as the payer does (-amount)."""
    cols = ["game", "hand", "reason"]
    got = payments[payments["payee"].notna()][[*cols, "payee_name", "amount"]]
    got = got.rename(columns={"payee_name": "name"})
    paid = payments[payments["payer"].notna()][[*cols, "payer_name", "amount"]]
    paid = paid.rename(columns={"payer_name": "name"}).assign(amount=-paid["amount"])
    out = pd.concat([got, paid], ignore_index=True)
    return out[out["name"] != POOL_NAME]


KEY = ["name", "players"]
"""What a players-table row is about: a player at a table of that size."""


def with_table_size(df: pd.DataFrame, games: pd.DataFrame) -> pd.DataFrame:
    """``df`` (rows with a ``game`` key) with its game's number of players, ``players``."""
    sizes = games[["game", "players"]].drop_duplicates("game")
    return df.drop(columns=["players"], errors="ignore").merge(sizes, on="game", how="left")


def counts(tables: Tables) -> pd.DataFrame:
    """Every :data:`COUNTS` entry per player name and table size (integers)."""
    sources = {"seats": tables.seats, "player_hands": tables.player_hands,
               "riichi": tables.riichi, "payment_sides": payment_sides(tables.payments)}
    sized = {name: with_table_size(df, tables.games) for name, df in sources.items()}
    empty = pd.Series(dtype="int64", index=pd.MultiIndex.from_arrays([[], []], names=KEY))
    cols: dict[str, pd.Series[Any]] = {}
    for c in _COUNTS:
        df = sized[c.table]
        cols[c.name] = c.value(df).groupby([df["name"], df["players"]]).sum() \
            if len(df) else empty
    out = pd.DataFrame(cols).fillna(0)
    out.index.names = KEY
    return out.round().astype("int64")


def players_table(tables: Tables) -> pd.DataFrame:
    """One row per player and table size: the counts, then every metric (``<NA>`` where
    undefined, as the rate of a fourth place at a three-player table)."""
    c = counts(tables)
    out = c.copy()
    for m in METRICS:
        num = c[m.numerator.name].astype("Float64")
        if m.denominator is None:
            out[m.name] = c[m.numerator.name]
            continue
        den = c[m.denominator.name].astype("Float64")
        out[m.name] = (num / den.where(den > 0)).astype("Float64")
    size = pd.Series(out.index.get_level_values("players"), index=out.index)
    for k in (1, 2, 3, 4):
        out[f"rank_{k}_rate"] = out[f"rank_{k}_rate"].mask(size < k)
    ordered = ["games", "placed_games", "hands"] + [m.name for m in METRICS] + [
        x for x in c.columns if x not in ("games", "placed_games", "hands")
        and x not in {m.name for m in METRICS}]
    out = out[ordered].sort_values(["games", "hands"], ascending=False,
                                   kind="stable").reset_index()
    out["players"] = out["players"].astype("Int64")
    return out


def markdown() -> str:
    """The README table: metric, numerator, denominator, meaning."""
    lines = ["| metric | numerator | denominator | meaning |", "|---|---|---|---|"]
    for m in METRICS:
        den = (f"`{m.denominator.name}`: {m.denominator.description}"
               if m.denominator is not None else "(total)")
        lines.append(f"| `{m.name}` | `{m.numerator.name}`: {m.numerator.description} "
                     f"| {den} | {m.description} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.stdout.write(markdown())
