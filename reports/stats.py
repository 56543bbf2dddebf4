"""All the report tables at once, optionally narrowed to one player.

>>> tables = build(results)                        # doctest: +SKIP
>>> tables.extra["players"].head()                 # doctest: +SKIP
>>> mine = build(results, player="ASAPIN")         # doctest: +SKIP
"""

from __future__ import annotations

from collections.abc import Iterable

import pandas as pd

from kansa.replay.result import ReplayResult
from kansa.reports.metrics import players_table
from kansa.reports.tables import Tables, build_tables
from kansa.reports.tenpai import tenpai_by_turn


def build(results: Iterable[ReplayResult], *, player: str | None = None) -> Tables:
    """The base tables plus ``players`` and ``tenpai_by_turn`` (in ``extra``).

    With ``player``, keep the games that player sat in; the riichi, wins,
    payments and players tables keep only the rows that involve the player, and
    the tenpai rate by turn is the player's own.

    :raises KeyError: if ``player`` played none of the games.
    """
    return complete(build_tables(results), player=player)


def complete(tables: Tables, *, player: str | None = None) -> Tables:
    """Add the derived tables to base tables (from replay results or a results store).

    :raises KeyError: if ``player`` played none of the games.
    """
    players = players_table(tables)
    if player is None:
        tables.extra["players"] = players
        tables.extra["tenpai_by_turn"] = tenpai_by_turn(tables.player_hands)
        return tables
    if player not in set(tables.seats["name"]):
        raise KeyError(player)
    mine = filter_player(tables, player)
    mine.extra["players"] = players[players["name"] == player].reset_index(drop=True)
    ph = mine.player_hands
    mine.extra["tenpai_by_turn"] = tenpai_by_turn(ph[ph["name"] == player])
    return mine


def filter_player(tables: Tables, name: str) -> Tables:
    """The tables of the games ``name`` played, narrowed to rows about ``name``."""
    games = set(tables.seats.loc[tables.seats["name"] == name, "game"])

    def in_games(df: pd.DataFrame) -> pd.DataFrame:
        return df[df["game"].isin(games)].reset_index(drop=True)

    wins = in_games(tables.wins)
    pay = in_games(tables.payments)
    return Tables(
        games=in_games(tables.games),
        seats=in_games(tables.seats),
        hands=in_games(tables.hands),
        player_hands=in_games(tables.player_hands),
        wins=wins[(wins["winner_name"] == name) | (wins["loser_name"] == name)
                  ].reset_index(drop=True),
        riichi=in_games(tables.riichi).query("name == @name").reset_index(drop=True),
        payments=pay[(pay["payer_name"] == name) | (pay["payee_name"] == name)
                     ].reset_index(drop=True),
        findings=in_games(tables.findings),
    )
