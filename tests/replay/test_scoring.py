"""Hand values on crafted games, and the arithmetic behind them."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from kansa.replay.engine import replay
from kansa.replay.events import Hora
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.scoring import base_points, ron_points, total_points
from kansa.replay.tiles import Tile
from kansa.replay.yaku import Limit, Yaku
from kansa.sim.scenario import Scenario

TENHOU = RuleSet.preset("tenhou")
EMA = RuleSet.preset("ema")
WRC = RuleSet.preset("wrc")
Y = Yaku


def no_flow(rule: str) -> bool:
    """Scoring alone: no flow checks, and no ruleset.mismatch warnings for crafted games
    audited under another rule set than their hints
    (tests/replay/test_table_checks.py has those)."""
    return not rule.startswith("flow.") and rule != "ruleset.mismatch"


def audit(sc: Scenario, rules: RuleSet) -> ReplayResult:
    return replay(sc.game(), rules, enabled=no_flow)


def rules_of(result: ReplayResult) -> list[str]:
    """The findings' rule ids, leaving out the ruleset.mismatch warnings a crafted game
    audited under another rule set than its hints gets (tests/replay/test_table_checks.py)."""
    return [v.rule for v in result.violations if v.rule != "ruleset.mismatch"]


# -- arithmetic ------------------------------------------------------------------------

@pytest.mark.parametrize(("han", "fu", "rules", "base", "limit"), [
    (1, 30, TENHOU, 240, Limit.NONE),
    (3, 60, TENHOU, 1920, Limit.NONE),
    (3, 60, WRC, 2000, Limit.MANGAN),
    (4, 30, WRC, 2000, Limit.MANGAN),
    (4, 40, TENHOU, 2000, Limit.MANGAN),
    (7, 30, TENHOU, 3000, Limit.HANEMAN),
    (10, 30, TENHOU, 4000, Limit.BAIMAN),
    (12, 30, TENHOU, 6000, Limit.SANBAIMAN),
    (13, 30, TENHOU, 8000, Limit.YAKUMAN),
    (13, 30, EMA, 6000, Limit.SANBAIMAN),
    (15, 30, WRC, 6000, Limit.SANBAIMAN),
    (-(2**63), 30, TENHOU, 0, Limit.NONE),  # a log's garbage claim (a negative shift raised)
])
def test_base_points(han: int, fu: int, rules: RuleSet, base: int, limit: Limit) -> None:
    assert base_points(han, fu, 0, rules) == (base, limit)


def test_points_round_up_to_hundreds() -> None:
    assert ron_points(240, dealer=False) == 1000
    assert ron_points(240, dealer=True) == 1500
    assert total_points(240, dealer=False, tsumo=True, players=4) == 1100  # 300-500
    assert total_points(320, dealer=True, tsumo=True, players=4) == 2100  # 700 all
    assert total_points(16000, dealer=False, tsumo=True, players=4) == 64000  # double yakuman


# -- a riichi pinfu tanyao hand, 4 han 30 fu with one dora -----------------------------

PINFU = ["19m19p19s1234567z", "234m345p456s67s88p", "147m258p369s1236z", "258m369p147s4577z"]


def pinfu_ron(**claims: object) -> Scenario:
    """Seat 1 declares riichi in the second go-around and wins on seat 0's 8s.

    Riichi, pinfu, tanyao, dora 1 (the 1m indicator makes the 2m dora):
    4 han 30 fu: 7700 on Tenhou, a kiriage mangan (8000) under WRC.
    """
    sc = Scenario(aka=False).start(PINFU, dora="1m")
    avoid = ["5s", "8s"]
    for k in range(12):
        seat = k % 4
        sc.draw(seat, avoid=avoid)
        if seat == 1 and k == 5:
            sc.riichi(1)
        else:
            sc.discard(seat)
    sc.turn(0, "8s", "8s")
    points = int(str(claims.pop("points", 7700)))
    sc.ron(1, (-points, points + 1000, 0, 0), points=points, **claims)
    return sc.end_kyoku().end_game()


TENHOU_CLAIM = {"yaku": ((Y.RIICHI, 1), (Y.PINFU, 1), (Y.TANYAO, 1), (Y.DORA, 1),
                         (Y.URA_DORA, 0)),
                "han": 4, "fu": 30, "limit": Limit.NONE, "dora_markers": (Tile.M1,),
                "ura_markers": (Tile.M6,)}


def test_a_correct_claim_is_clean() -> None:
    result = audit(pinfu_ron(**TENHOU_CLAIM), TENHOU)
    assert result.violations == []
    win = result.hands[0].wins[0]
    assert (win.han, win.fu, win.points, win.limit) == (4, 30, 7700, Limit.NONE)


def test_kiriage_under_wrc() -> None:
    claim = dict(TENHOU_CLAIM, points=8000, limit=Limit.MANGAN)
    assert audit(pinfu_ron(**claim), WRC).violations == []
    result = audit(pinfu_ron(**claim), TENHOU)
    assert rules_of(result) == ["score.value"]
    message = result.violations[0].message
    assert "points, limit differ" in message
    assert ("log: riichi 1, pinfu 1, tanyao 1, dora 1 = 4 han 30 fu mangan 8000; "
            "replay under tenhou: riichi 1, pinfu 1, tanyao 1, dora 1 = 4 han 30 fu 7700"
            ) in message


def test_value_differences_are_listed_yaku_by_yaku() -> None:
    claim = dict(TENHOU_CLAIM, yaku=((Y.RIICHI, 1), (Y.IPPATSU, 1), (Y.PINFU, 1),
                                     (Y.TANYAO, 1), (Y.DORA, 1)), han=5, points=8000,
                 limit=Limit.MANGAN)
    result = audit(pinfu_ron(**claim), TENHOU)
    assert rules_of(result) == ["score.value"]
    message = result.violations[0].message
    assert "seat 1's ron on seat 0 (yaku, han, points, limit differ)" in message
    assert "log: riichi 1, ippatsu 1, pinfu 1, tanyao 1, dora 1 = 5 han 30 fu mangan 8000" \
        in message


def test_ura_indicators_must_match_the_dora_indicators() -> None:
    result = audit(pinfu_ron(**dict(TENHOU_CLAIM, ura_markers=(Tile.M6, Tile.M7))),
                   TENHOU)
    assert rules_of(result) == ["score.indicators"]
    assert "shown 2 ura indicators (6m 7m) for 1 dora indicators (1m)" in \
        result.violations[0].message


def test_dora_indicators_of_the_claim_must_be_those_revealed() -> None:
    result = audit(pinfu_ron(**dict(TENHOU_CLAIM, dora_markers=(Tile.M2,))), TENHOU)
    assert rules_of(result) == ["score.indicators"]


def test_ura_dora_counts_for_the_riichi_winner() -> None:
    # the ura indicator 3p makes the 4p dora: one ura
    claim = dict(TENHOU_CLAIM, ura_markers=(Tile.P3,), points=8000, han=5,
                 limit=Limit.MANGAN,
                 yaku=((Y.RIICHI, 1), (Y.PINFU, 1), (Y.TANYAO, 1), (Y.DORA, 1),
                       (Y.URA_DORA, 1)))
    assert audit(pinfu_ron(**claim), TENHOU).violations == []


def test_red_fives_only_where_the_game_has_them() -> None:
    hands = ["19m19p19s1234567z", "234m340p456s67s88p", "147m258p369s1236z",
             "258m369p147s4577z"]

    def game(points: int) -> Scenario:
        sc = Scenario(aka=True).start(hands, dora="9s")
        for k in range(8):
            sc.turn(k % 4, avoid=["5s", "8s"])
        sc.turn(0, "8s", "8s")
        return sc.ron(1, (-points, points, 0, 0), points=points).end_kyoku().end_game()

    # pinfu, tanyao, aka 1 = 3 han 30 fu (3900); without red fives 2 han (2000)
    assert audit(game(3900), TENHOU).violations == []
    assert audit(game(2000), TENHOU.replace(aka=False)).violations == []
    assert rules_of(audit(game(3900), TENHOU.replace(aka=False))) == ["score.value"]


# -- thirteen han ----------------------------------------------------------------------

CHINITSU = ["19m19s1234567z19p", "2233445566778p", "147m369s1236z258s", "258m147s4577z369s"]


def thirteen_han(deltas: Sequence[int], points: int, limit: Limit) -> Scenario:
    """Closed chinitsu ryanpeikou tanyao pinfu, riichi and tsumo: 13 han without dora."""
    sc = Scenario(aka=False).start(CHINITSU, dora="1m")
    for k in range(12):
        seat = k % 4
        sc.draw(seat, avoid=["8p"])
        if seat == 1 and k == 5:
            sc.riichi(1)
        else:
            sc.discard(seat)
    sc.turn(0, avoid=["8p"])
    sc.draw(1, "8p").tsumo(1, deltas, points=points, limit=limit)
    return sc.end_kyoku().end_game()


def test_thirteen_han_is_a_counted_yakuman_on_tenhou() -> None:
    result = audit(thirteen_han((-16000, 33000, -8000, -8000), 32000, Limit.YAKUMAN), TENHOU)
    assert result.violations == []
    win = result.hands[0].wins[0]
    assert (win.han, win.limit, win.points) == (13, Limit.YAKUMAN, 32000)


def test_thirteen_han_is_sanbaiman_under_ema() -> None:
    result = audit(thirteen_han((-12000, 25000, -6000, -6000), 24000, Limit.SANBAIMAN), EMA)
    assert result.violations == []
    tenhou_paid = audit(thirteen_han((-16000, 33000, -8000, -8000), 32000, Limit.YAKUMAN), EMA)
    assert rules_of(tenhou_paid) == ["score.value"]
    assert "13 han 20 fu sanbaiman 24000" in tenhou_paid.violations[0].message


# -- values the log claims but the replay cannot give -----------------------------------

def test_a_hand_that_is_not_complete_has_no_value() -> None:
    sc = Scenario().start(PINFU, dora="1m")
    sc.turn(0, "9s", "9s")
    sc.ron(1, (-1000, 1000, 0, 0), points=1000, han=1, fu=30)
    result = audit(sc.end_kyoku().end_game(), TENHOU)
    assert sorted(rules_of(result)) == ["score.value", "win.incomplete"]
    value = next(v for v in result.violations if v.rule == "score.value")
    assert "has no value under tenhou: hand not winning" in value.message
    assert result.wins_valued == 0


def test_claims_absent_nothing_to_compare() -> None:
    game = pinfu_ron().game()
    plain = tuple(Hora(actor=e.actor, target=e.target, deltas=e.deltas)
                  if isinstance(e, Hora) else e for e in game.events)
    result = replay(replace(game, events=plain), TENHOU, enabled=no_flow)
    assert result.violations == [] and result.wins_valued == 1
