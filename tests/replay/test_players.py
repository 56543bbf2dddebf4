"""The number of players comes from one place: the rule set, seated at the log's table."""

from __future__ import annotations

from kansa.replay.engine import Replayer
from kansa.replay.game import Game, RuleHints
from kansa.replay.rules import RuleSet
from kansa.replay.scoring import total_points
from kansa.replay.table import Table

TENHOU = RuleSet.preset("tenhou")


def test_the_logs_table_sets_the_number_of_players() -> None:
    game = Game(format="mjai", source="three.json", events=(), hints=RuleHints(players=3))
    replayer = Replayer(game, TENHOU)
    assert replayer.rules.players == 3 and replayer.state.rules.players == 3
    assert TENHOU.seated(RuleHints(players=4)) is TENHOU


def test_a_table_without_a_log_takes_players_or_the_rule_sets() -> None:
    assert Table(TENHOU, players=3).rules.players == 3
    assert Table(TENHOU).rules.players == 4


def test_a_tsumo_is_paid_by_the_others_at_the_table() -> None:
    assert total_points(2000, dealer=False, tsumo=True, players=4) == 8000  # 2000-4000
    assert total_points(2000, dealer=False, tsumo=True, players=3) == 6000  # 2000-4000


def test_the_same_hints_give_the_same_adjusted_rule_set() -> None:
    """``with_hints`` keeps its results: one rule set per table, not one per game."""
    chip = RuleHints(platform="tenhou", players=4, aka=False, uma=(15, 5, -5, -15),
                     lobby="L1234", start_score=30000)
    first = TENHOU.with_hints(chip)
    assert TENHOU.with_hints(RuleHints(platform="tenhou", players=4, aka=False,
                                       uma=(15, 5, -5, -15), lobby="L1234",
                                       start_score=30000, room="another label")) is first
    assert (first.aka, first.uma, first.start_score) == (False, (15, 5, -5, -15), 30000)
    assert first == TENHOU.replace(aka=False, uma=(15, 5, -5, -15), start_score=30000)
    other = TENHOU.with_hints(RuleHints(platform="tenhou", players=4, aka=True))
    assert other is not first and other.aka
    three = TENHOU.with_hints(RuleHints(players=3))
    assert three.players == 3 and TENHOU.with_hints(RuleHints(players=3)) is three
    ema = RuleSet.preset("ema")
    assert ema.with_hints(RuleHints(aka=False)) is not TENHOU.with_hints(RuleHints(aka=False))
