"""The report tables, metrics, plots and HTML on a mix of three- and four-player games:
placements 1-3 at three players, and a player's three- and four-player statistics in
separate rows, never added together.

The games are simulated with the same three names at both table sizes (the
simulator names its seats Ando, Baker, Chen, Diaz), so a table that mixed them up
would count one player's games of both kinds as one row.
"""

from __future__ import annotations

from functools import cache

import pandas as pd
import pytest
from matplotlib.figure import Figure

from kansa.replay.engine import replay
from kansa.replay.result import ReplayResult
from kansa.reports.html import render_html
from kansa.reports.plots import placement_distribution, render_all
from kansa.reports.stats import build
from kansa.reports.tables import Tables
from kansa.sim.table import rule_set, simulate

FOUR = (1, 2)
THREE = (1, 2, 3)


@cache
def _results() -> tuple[ReplayResult, ...]:
    games = [(s, "tenhou") for s in FOUR] + [(s, "tenhou-sanma") for s in THREE]
    return tuple(replay(simulate(seed, rules), rule_set(rules)) for seed, rules in games)


@pytest.fixture(scope="module")
def tables() -> Tables:
    return build(_results())


def _seats(tables: Tables) -> pd.DataFrame:
    return tables.seats.merge(tables.games[["game", "players"]], on="game")


def test_three_player_games_place_their_seats_first_to_third(tables: Tables) -> None:
    seats = _seats(tables)
    three = seats[seats["players"] == 3]
    assert len(three) == 3 * len(THREE)
    for _, game in three.groupby("game"):
        assert sorted(game["placement"]) == [1, 2, 3]
    assert sorted(seats.loc[seats["players"] == 4, "placement"]) == [1, 1, 2, 2, 3, 3, 4, 4]


def test_a_player_has_one_row_per_table_size(tables: Tables) -> None:
    pl = tables.extra["players"]
    assert pl["players"].dtype == "Int64"
    ando = pl[pl["name"] == "Ando"].set_index("players")
    assert sorted(ando.index) == [3, 4]
    assert ando.loc[3, "games"] == len(THREE) and ando.loc[4, "games"] == len(FOUR)
    diaz = pl[pl["name"] == "Diaz"]
    assert list(diaz["players"]) == [4]  # the fourth seat plays only at four
    assert not pl.duplicated(["name", "players"]).any()


def test_each_rows_counts_come_from_its_own_table_size(tables: Tables) -> None:
    pl = tables.extra["players"].set_index(["name", "players"])
    seats = _seats(tables)
    ph = tables.player_hands.merge(tables.games[["game", "players"]], on="game")
    done = ph[ph["complete"]]
    for (name, size), row in pl.iterrows():
        mine = seats[(seats["name"] == name) & (seats["players"] == size)]
        assert row["placement_sum"] == mine["placement"].sum()
        assert row["avg_rank"] == pytest.approx(mine["placement"].mean())
        hands = done[(done["name"] == name) & (done["players"] == size)]
        assert row["hands"] == len(hands) and row["wins"] == hands["won"].sum()
    # the rows add up to the games: nothing is counted twice or lost
    assert pl["games"].sum() == len(seats) and pl["hands"].sum() == len(done)


def test_rank_rates_run_to_third_place_at_three_players(tables: Tables) -> None:
    pl = tables.extra["players"]
    three = pl[pl["players"] == 3]
    assert three["rank_4_rate"].isna().all()
    rates = three[["rank_1_rate", "rank_2_rate", "rank_3_rate"]].astype(float)
    assert (rates.sum(axis=1) - 1).abs().max() < 1e-9
    four = pl[pl["players"] == 4]
    rates4 = four[[f"rank_{k}_rate" for k in (1, 2, 3, 4)]].astype(float)
    assert (rates4.sum(axis=1) - 1).abs().max() < 1e-9


def test_tenpai_by_turn_keeps_the_table_sizes_apart(tables: Tables) -> None:
    curve = tables.extra["tenpai_by_turn"]
    assert set(curve["players"]) == {3, 4}
    first = curve[curve["turn"] == 1].set_index("players")
    ph = tables.player_hands.merge(tables.games[["game", "players"]], on="game")
    followed = ph[ph["complete"] & ph["tenpai_replayed"]]
    for size in (3, 4):
        assert first.loc[size, "hands"] == (followed["players"] == size).sum()


def test_the_placement_plot_has_a_bar_per_player_and_table_size(tables: Tables) -> None:
    ax = Figure().add_subplot()
    placement_distribution(ax, _seats(tables))
    labels = [t.get_text() for t in ax.get_yticklabels()]
    assert f"Ando, 3p ({len(THREE)})" in labels and f"Ando, 4p ({len(FOUR)})" in labels
    assert [t.get_text() for t in ax.get_legend().get_texts()] == ["1st", "2nd", "3rd", "4th"]
    only_three = Figure().add_subplot()
    seats = _seats(tables)
    placement_distribution(only_three, seats[seats["players"] == 3])
    assert [t.get_text() for t in only_three.get_legend().get_texts()] == ["1st", "2nd", "3rd"]
    assert "Ando (3)" in [t.get_text() for t in only_three.get_yticklabels()]


def test_the_html_report_shows_both_rows_of_a_player(tables: Tables) -> None:
    plots = render_all(tables, "svg")
    page = render_html(tables, plots, files=len(_results()))
    players = page[page.index('id="players"'):page.index('id="plots"')]
    assert players.count(">Ando<") == 4  # rates and net points, at three and at four
    assert '<th class="">players</th>' in players
