"""The report tables on crafted games whose every number is worked out by hand."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest
from report_games import EVIL, H_E1, NAMES, TENHOU, sample_results

from kansa.replay.engine import replay
from kansa.replay.result import RiichiRecord
from kansa.reports.ledger import REASONS
from kansa.reports.metrics import COUNTS, METRICS, markdown
from kansa.reports.stats import build
from kansa.reports.tables import SCHEMAS, Tables, build_tables, placements
from kansa.sim.scenario import Scenario


@pytest.fixture(scope="module")
def tables() -> Tables:
    return build(sample_results())


def test_every_table_has_its_schema(tables: Tables) -> None:
    for name, schema in SCHEMAS.items():
        df = tables[name]
        assert list(df.columns) == list(schema), name
        assert {c: str(t) for c, t in df.dtypes.items()} == {
            c: str(pd.Series(dtype=t).dtype) for c, t in schema.items()}, name


def test_hands(tables: Tables) -> None:
    h = tables.hands.set_index(["game", "hand"])
    one = h.loc["game-one.xml#0"]
    assert list(one["label"]) == ["E1-0", "E2-0", "E3-1"]
    assert list(one["result"]) == ["ron", "exhaustive", "tsumo"]
    assert list(one["winners"]) == ["1", "", "3"]
    assert one["loser"].tolist() == [2, pd.NA, pd.NA]
    assert one["value"].tolist() == [2600, pd.NA, 2000]
    assert list(one["riichi"]) == [2, 1, 0]
    assert list(one["dealer"]) == [0, 1, 2]
    assert one.loc[1, "tenpai"] == "0,3"
    assert one.loc[1, "tenpai_source"] == "replay"
    # replay knows everyone's hand at the end of a won hand too
    assert list(one["tenpai"]) == ["0,1,2", "0,3", "0,3"]
    two = h.loc["game-two.xml#0"]
    assert list(two["result"]) == ["exhaustive", "unfinished"]
    assert list(two["complete"]) == [True, False]


def test_riichi_rows_outcomes_and_points(tables: Tables) -> None:
    r = tables.riichi
    assert list(r["seat"]) == [1, 2, 3]
    assert list(r["turn"]) == [2, 2, 2]
    assert list(r["outcome"]) == ["ron", "dealt_in", "exhaustive_draw"]
    assert list(r["chasing"]) == [False, True, False]
    assert list(r["chased"]) == [True, False, False]
    # the declarer's score change over the hand, own stick included
    assert list(r["points"]) == [4600 - 1000, -2600 - 1000, 1500 - 1000]
    facts = r[["waits", "live", "furiten", "good_shape"]]
    if "waits" in RiichiRecord.__dataclass_fields__:
        assert list(r["waits"]) == ["56s", "19p", "56s"]
        assert list(r["live"]) == [4, 3, 4]  # 9p is the dora indicator
        assert list(r["furiten"]) == [False, False, False]
        assert list(r["good_shape"]) == [True, True, True]  # shanpon counts as good
        assert list(r["dama_turns"]) == [2, 2, 2]  # tenpai since the deal
    else:  # replay without the tracker: missing, never invented
        assert facts.isna().all().all()


def test_tenpai_by_turn(tables: Tables) -> None:
    curve = tables.extra["tenpai_by_turn"]
    # 16 player-hands in the four finished hands; 10 were dealt tenpai
    assert curve.iloc[0].to_dict() == {"players": 4, "turn": 1, "hands": 16, "tenpai": 10,
                                       "rate": 0.625}
    assert (curve["hands"].diff().dropna() <= 0).all()


def test_payments_balance_per_hand_with_the_pool(tables: Tables) -> None:
    p = tables.payments
    assert set(p["reason"]) <= set(REASONS)
    e31 = p[p["label"] == "E3-1"]
    assert e31.groupby("reason")["amount"].sum().to_dict() == {
        "tsumo": 2000, "honba": 300, "sticks": 1000}
    ph = tables.player_hands
    done = ph[ph["complete"]]
    assert (done["delta"] == done["end_score"] - done["start_score"]).all()


def test_players(tables: Tables) -> None:
    pl = tables.extra["players"].set_index("name")
    assert pl.loc["Dai", "games"] == 2 and pl.loc["Dai", "placed_games"] == 1
    assert pl.loc["Dai", "avg_rank"] == 1 and pl.loc[EVIL, "avg_rank"] == 4
    assert pl.loc["Botan", "hands"] == 4  # the cut-off hand does not count
    assert pl.loc["Botan", "win_rate"] == 0.25
    assert pl.loc[EVIL, "deal_in_rate"] == 0.25
    assert pl.loc[EVIL, "avg_deal_in_value"] == 2600
    assert pl.loc["Dai", "tsumo_rate"] == 1.0
    assert pd.isna(pl.loc["Aki", "tsumo_rate"])  # no wins: undefined, not 0
    assert pl.loc["Botan", "riichi_win_rate"] == 1.0
    assert pl.loc["Aki", "tenpai_at_draw_rate"] == 1.0
    assert pl.loc["Dai", "tenpai_at_draw_rate"] == 0.5
    assert pl.loc["Dai", "net_sticks"] == 1000
    assert pl.loc["Dai", "net_honba"] == 300
    assert pl["wins"].sum() == len(tables.wins) == 2


def test_player_filter() -> None:
    mine = build(sample_results(), player="Dai")
    assert list(mine.extra["players"]["name"]) == ["Dai"]
    assert set(mine.riichi["name"]) == {"Dai"}
    assert ((mine.payments["payer_name"] == "Dai")
            | (mine.payments["payee_name"] == "Dai")).all()
    with pytest.raises(KeyError):
        build(sample_results(), player="nobody")


def test_strangers_who_share_a_placeholder_name_are_not_one_player() -> None:
    """Tenhou's guests are all ``NoName`` and its anonymised logs call everyone
    ``Aさん``..``Dさん``; a nameless seat, or one named by its number, is as anonymous."""
    one, two = sample_results()
    results = [dataclasses.replace(one, names=("NoName", "Aさん", "", "Dai")),
               dataclasses.replace(two, names=("NoName", "Aさん", " 2 ", "Dai"))]
    pl = build(results).extra["players"].set_index("name")
    assert pl.loc["Dai", "games"] == 2  # a real name is one player across games
    assert sorted(pl.index) == sorted([
        "Dai", "NoName (game-one.xml, seat 0)", "NoName (game-two.xml, seat 0)",
        "Aさん (game-one.xml, seat 1)", "Aさん (game-two.xml, seat 1)",
        "(no name) (game-one.xml, seat 2)", "2 (game-two.xml, seat 2)"])
    assert (pl.drop(index="Dai")["games"] == 1).all()
    assert pl["wins"].sum() == 2  # the same wins, only credited to their own seats


def test_placements_break_ties_by_seat() -> None:
    assert placements((30000, 30000, 20000, 20000)) == [1, 2, 3, 4]
    assert placements((20000, 30000, 20000, 30000)) == [3, 1, 4, 2]


def test_metric_definitions_are_complete() -> None:
    for m in METRICS:
        assert m.numerator.name in COUNTS
        assert m.denominator is None or m.denominator.name in COUNTS
        assert m.kind in ("rate", "average", "total")
        assert m.description
    table = markdown()
    assert all(f"`{m.name}`" in table for m in METRICS)


@pytest.mark.parametrize("deltas", [(0, 1300, -1300, 0), (0, 0, -1300, 1300),
                                    (0, 3000, -1000, 0), (-2000, 4000, -1000, 0)])
def test_payments_reproduce_odd_logged_deltas(deltas: tuple[int, ...]) -> None:
    """A log whose deltas do not fit its win (the gain goes elsewhere, points appear from
    nowhere) still gets payments that move exactly what the log moved."""
    sc = Scenario(NAMES, source="odd.xml")
    sc.start(H_E1, dora="9p", oya=0)
    sc.go_around(0, 4)
    sc.draw(0).discard(0)
    sc.draw(1).discard(1)
    sc.draw(2, "5s").discard(2)
    sc.ron(1, deltas).end_kyoku()
    (result,) = [replay(sc.game(), TENHOU)]
    pay = build_tables([result]).payments
    assert (pay["amount"] > 0).all()
    net = [int(pay.loc[pay["payee"] == s, "amount"].sum()
               - pay.loc[pay["payer"] == s, "amount"].sum()) for s in range(4)]
    assert net == list(deltas)
    fits = deltas == (0, 1300, -1300, 0)
    assert set(pay["reason"]) == ({"ron"} if fits else {"ron", "adjustment"})
