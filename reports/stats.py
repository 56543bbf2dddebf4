"""All the report tables at once, optionally narrowed to one player: the base tables
(:mod:`kansa.reports.tables`) and the derived ones registered here.

>>> tables = build(results)                        # doctest: +SKIP
>>> tables.extra["players"].head()                 # doctest: +SKIP
>>> mine = build(results, player="ASAPIN")         # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from kansa.replay.result import ReplayResult
from kansa.reports.metrics import players_table, with_table_size
from kansa.reports.registry import BASE, DERIVED, Tables, derived_table
from kansa.reports.tables import build_tables
from kansa.reports.tenpai import tenpai_by_turn


@derived_table("players")
def _players(tables: Tables, mine: Tables, player: str | None) -> pd.DataFrame:
    """Every player's statistics (computed over all the games: with ``player``, that
    player's row)."""
    players = players_table(tables)
    if player is None:
        return players
    return players[players["name"] == player].reset_index(drop=True)


@derived_table("tenpai_by_turn")
def _tenpai_by_turn(tables: Tables, mine: Tables, player: str | None) -> pd.DataFrame:
    ph = with_table_size(mine.player_hands, mine.games)
    return tenpai_by_turn(ph if player is None else ph[ph["name"] == player])


def build(results: Iterable[ReplayResult], *, player: str | None = None) -> Tables:
    """The base tables plus the derived ones (``players`` and ``tenpai_by_turn``, in
    ``extra``).

    With ``player``, keep the games that player sat in; the riichi, wins,
    payments and players tables keep only the rows that involve the player, and
    the tenpai rate by turn is the player's own.

    :raises KeyError: if ``player`` played none of the games.
    """
    return complete(build_tables(results), player=player)


def complete(tables: Tables, *, player: str | None = None) -> Tables:
    """Add the derived tables to base tables (from replay results or a results store);
    with ``player``, narrowed to that player first.

    :raises KeyError: if ``player`` played none of the games.
    """
    if player is not None and player not in set(tables.seats["name"]):
        raise KeyError(player)
    mine = tables if player is None else filter_player(tables, player)
    for name, table in DERIVED.items():
        mine.extra[name] = table.make(tables, mine, player)
    return mine


def filter_player(tables: Tables, name: str) -> Tables:
    """The tables of the games ``name`` played, narrowed to rows about ``name``."""
    games = set(tables.seats.loc[tables.seats["name"] == name, "game"])
    out = {}
    for table_name, table in BASE.items():
        df = tables[table_name]
        df = df[df["game"].isin(games)].reset_index(drop=True)
        if table.player_rows is not None:
            df = table.player_rows(df, name).reset_index(drop=True)
        out[table_name] = df
    return Tables(out)
