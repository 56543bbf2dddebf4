"""Acceptance of the report tables on the real Tenhou games, checked against the XML.

Each test counts what the raw files say (``REACH step="1"``, ``AGARI``,
``RYUUKYOKU hai*``, the ``INIT seed`` stick counts) with plain regular
expressions, independent of kansa's parser, and compares with the tables.
"""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pandas as pd
import pytest

from kansa.replay.result import HandRecord
from kansa.reports.stats import build
from kansa.reports.tables import Tables
from kansa.runner import iter_results
from tests.corpus_counts import check_documented, four_player_xml, total, xml_counts

pytestmark = pytest.mark.corpus

@pytest.fixture(scope="module")
def xml(corpus_dir: Path) -> dict[str, str]:
    """Path -> text of every four-player game file (three-player ones are unsupported)."""
    texts = four_player_xml(corpus_dir / "tenhou_xml")
    check_documented(texts)
    return texts


@pytest.fixture(scope="module")
def tables(xml: dict[str, str]) -> Tables:
    """The tables of the four-player files (three-player reports are tested apart)."""
    return build(r for fr in iter_results(sorted(xml)) for r in fr.results)


def test_one_riichi_row_per_declaration(xml: dict[str, str], tables: Tables) -> None:
    declared = total(xml).riichi
    assert len(tables.riichi) == declared
    per_file = tables.riichi.assign(file=tables.riichi["game"].str.rsplit("#", n=1).str[0])
    counts = per_file.groupby("file").size()
    for path, text in xml.items():
        assert counts.get(path, 0) == len(re.findall(r'<REACH who="\d" step="1"', text)), path


def test_player_wins_equal_hand_wins(xml: dict[str, str], tables: Tables) -> None:
    agari = total(xml).wins
    winners = tables.hands["winners"].fillna("")
    hand_wins = int(winners.map(lambda w: len(w.split(",")) if w else 0).sum())
    players = tables.extra["players"]
    assert int(players["wins"].sum()) == hand_wins == len(tables.wins) == agari
    by_name = tables.wins.groupby("winner_name").size()
    assert (players.set_index("name")["wins"][by_name.index] == by_name).all()
    by_file = tables.wins["game"].str.rsplit("#", n=1).str[0].value_counts()
    for path, text in xml.items():
        assert by_file.get(path, 0) == xml_counts(text).wins, path


def test_ledger_sums_to_zero_per_hand_with_the_sticks(tables: Tables) -> None:
    p = tables.payments
    assert len(p)
    # every transfer has two parties, so players plus pool always sum to zero ...
    side = pd.concat([
        p.assign(party=p["payee"].astype("string").fillna("pool"), net=p["amount"]),
        p.assign(party=p["payer"].astype("string").fillna("pool"), net=-p["amount"]),
    ])
    per_hand = side.groupby(["game", "label"])["net"].sum()
    assert (per_hand == 0).all()
    # ... and the substance: what the pool gains in a hand is the change in the sticks
    # the log shows on the table at the next hand (INIT seed), and what each player
    # gains is the change in the scores.
    pool = side[side["party"] == "pool"].groupby(["game", "hand"])["net"].sum()
    h = tables.hands.sort_values(["game", "hand"])
    checked = 0
    for _game, g in h.groupby("game"):
        rows = g.to_dict("records")
        for cur, nxt in itertools.pairwise(rows):
            if not cur["complete"]:
                continue
            gained = int(pool.get((cur["game"], cur["hand"]), 0))
            assert gained == 1000 * (nxt["kyotaku"] - cur["kyotaku"]), (
                cur["game"], cur["label"])
            checked += 1
    assert checked > 1500
    # at the end of a finished game the top player takes what is left (Tenhou's rule)
    whole = side[side["party"] == "pool"].groupby("game")["net"].sum()
    finished = tables.games.loc[tables.games["placed"], "game"]
    assert (whole.reindex(finished, fill_value=0) == 0).all()
    ph = tables.player_hands[tables.player_hands["complete"]]
    assert (ph["delta"] == ph["end_score"] - ph["start_score"]).all()


def test_final_scores_follow_from_the_ledger(tables: Tables) -> None:
    """Start scores plus every transfer of the game give the claimed final scores
    (uma and oka, in the scoring layer's ledger, count toward points, not scores)."""
    p = tables.payments[~tables.payments["reason"].isin(["uma", "oka"])]
    got = p[p["payee"].notna()].groupby(["game", "payee"])["amount"].sum()
    paid = p[p["payer"].notna()].groupby(["game", "payer"])["amount"].sum()
    got.index.names = paid.index.names = ["game", "seat"]
    net = got.sub(paid, fill_value=0)
    first = tables.player_hands[tables.player_hands["hand"] == 0].set_index(["game", "seat"])
    seats = tables.seats[tables.seats["final_score"].notna()]
    assert len(seats) > 600
    for row in seats.itertuples():
        start = first.loc[(row.game, row.seat), "start_score"]
        assert start + net.get((row.game, row.seat), 0) == row.final_score, row


def test_tenpai_flags_equal_the_draw_records(xml: dict[str, str], tables: Tables) -> None:
    draws = tables.hands[tables.hands["result"].isin(["exhaustive", "nagashi_mangan"])]
    by_file = draws.assign(file=draws["game"].str.rsplit("#", n=1).str[0]) \
        .sort_values(["file", "hand"]).groupby("file")["tenpai"].apply(list)
    total = 0
    for path, text in xml.items():
        shown = []
        for m in re.finditer(r"<RYUUKYOKU ([^>]*)/>", text):
            attrs = m.group(1)
            kind = re.search(r'type="(\w+)"', attrs)
            if kind and kind.group(1) != "nm":
                continue  # abortive draws show no tenpai
            shown.append(",".join(re.findall(r"hai(\d)=", attrs)))
        assert by_file.get(path, []) == shown, path
        total += len(shown)
    assert total == len(draws) > 250
    if "tenpai_end" in HandRecord.__dataclass_fields__:
        # the flags are replay's own reading of the hands, which agrees with the log
        assert (draws["tenpai_source"] == "replay").all()


def test_placements_only_for_games_with_final_scores(tables: Tables) -> None:
    games = tables.games
    unplaced = games[~games["placed"]]
    seats = tables.seats.merge(games[["game", "placed"]], on="game")
    assert seats.loc[~seats["placed"], "placement"].isna().all()
    assert seats.loc[seats["placed"], "placement"].notna().all()
    assert (~games.loc[~games["complete"], "placed"]).all()
    assert len(unplaced) == (~games["complete"]).sum()
