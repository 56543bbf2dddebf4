"""Crafted games for the report tests, with every number worked out by hand.

Game 1 (complete, four hands' worth of situations in three hands):

- E1 (dealer 0): seat 1 declares riichi, seat 2 chases; seat 2 deals in to
  seat 1 with 5s: riichi tanyao 40 fu, 2600, and two sticks: (0, +4600, -2600, 0).
- E2 (dealer 1): seat 3 declares riichi; exhaustive draw, seats 0 and 3 tenpai:
  noten payments (+1500, -1500, -1500, +1500); the stick stays on the table.
- E3-1 (dealer 2, one stick): seat 3 wins by tsumo, menzen tsumo tanyao 30 fu,
  2000 (500/1000), one honba (100 each) and the stick: (-600, -600, -1100, +3300).

Everyone discards a simple tile at least once in the drawn hands, so no
nagashi mangan.  The game is a three-hand excerpt: :func:`sample_results`
leaves out the ``flow.end`` check (a real game would go on to E4).

Game 2: an exhaustive draw with seat 3 alone noten (+1000 x3, -3000), then a
second hand cut off after a discard of a tile the player does not hold (an
error finding); the game has no final scores.
"""

from __future__ import annotations

from kansa.replay.engine import replay
from kansa.replay.events import DrawReason
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.tiles import YAOCHU
from kansa.sim.scenario import Scenario

TENHOU = RuleSet.preset("tenhou")
EVIL = '<script>alert("x")</script>&amp;'
"""A player name that must come out escaped in HTML."""
NAMES = ("Aki", "Botan", EVIL, "Dai")

H_E1 = ["123456789m1234p", "234567m234p5566s", "123456789s1199p", "147m258p369s1234z"]
H_E2 = ["123456789m1234p", "147m258p369s1234z", "258m369p147s5677z", "234567m234p5566s"]


def game_one() -> Scenario:
    sc = Scenario(NAMES, source="game-one.xml")
    sc.start(H_E1, dora="9p", oya=0)
    sc.go_around(0, 4)
    sc.turn(0)
    sc.draw(1).riichi(1)                 # seat 1, turn 2
    sc.draw(2).riichi(2)                 # seat 2 chases, turn 2
    sc.turn(3).turn(0).turn(1)
    sc.draw(2, "5s").discard(2)          # riichi: must throw the drawn tile
    sc.ron(1, (0, 4600, -2600, 0), points=2600).end_kyoku()

    sc.start(H_E2, dora="9p", oya=1, kyoku=2)
    sc.go_around(1, 4, avoid=YAOCHU)
    sc.turn(1).turn(2)
    sc.draw(3).riichi(3)                 # seat 3, turn 2
    sc.go_around(0, 8)
    sc.ryukyoku(DrawReason.EXHAUSTIVE, (1500, -1500, -1500, 1500),
                tenpai=(True, False, False, True)).end_kyoku()

    sc.start(H_E2, dora="9p", oya=2, kyoku=3, honba=1)
    sc.go_around(2, 5)
    sc.draw(3, "5s")                     # 234567m234p555s66s
    sc.tsumo(3, (-600, -600, -1100, 3300), points=2000).end_kyoku()
    sc.end_game()
    return sc


def game_two() -> Scenario:
    sc = Scenario(NAMES, source="game-two.xml")
    sc.start(H_E1, dora="9p", oya=0)
    sc.go_around(0, 4, avoid=YAOCHU).go_around(0, 4)
    sc.ryukyoku(DrawReason.EXHAUSTIVE, (1000, 1000, 1000, -3000),
                tenpai=(True, True, True, False))
    sc.end_kyoku()
    sc.start(H_E1, dora="9p", oya=0, honba=1)
    sc.draw(0, "5s").discard(0, "9s")    # seat 0 holds no 9s
    sc.go_around(1, 3)
    return sc


def _checked(rule: str) -> bool:
    return rule != "flow.end"


def sample_results() -> list[ReplayResult]:
    return [replay(game_one().game(), TENHOU, enabled=_checked),
            replay(game_two().game(), TENHOU, enabled=_checked)]
