"""The engine follows late claims and replaced calls: the state after them is exact."""

from __future__ import annotations

from kansa.replay.events import Event
from kansa.replay.melds import MeldType
from kansa.replay.rules import RuleSet
from kansa.replay.state import RoundState
from kansa.replay.table import Table
from kansa.sim.scenario import Scenario

HANDS = ["123456789m1234p", "234m1p789s123466z", "111m99p456s55677z", "345m147p258s1237z"]
TENHOU = RuleSet.preset("tenhou")


def run(sc: Scenario, upto: int | None = None) -> Table:
    r = Table(TENHOU, game=sc.game())
    events: tuple[Event, ...] = sc.game().events
    for ev in events[:upto]:
        r.push(ev)
    return r


def state(r: Table) -> RoundState:
    rs = r.state.round
    assert rs is not None
    return rs


def opening() -> Scenario:
    sc = Scenario()
    sc.start(HANDS, dora="9s")
    return sc.draw(0, "1s").discard(0, "1m")


def test_pon_after_the_next_draw_puts_the_drawn_tile_back() -> None:
    sc = opening().draw(1, "9m")
    before = run(sc)
    wall_after_draw = state(before).live_wall
    assert state(before).players[1].concealed_count == 14
    sc.pon(2, "11m", target=0, tile="1m")
    r = run(sc)
    rs = state(r)
    p1 = rs.players[1]
    assert p1.concealed_count == 13 and p1.draws == 0 and p1.last_draw is None
    assert rs.live_wall == wall_after_draw + 1
    assert rs.seen37[8] == 1  # 9m: seat 0 was dealt one; the drawn copy went back unseen
    assert rs.current == 2 and rs.players[2].melds[-1].type is MeldType.PON
    # the tile that went back can be drawn again without a fifth copy being counted
    sc.discard(2, "6z").draw(3, "8m").discard(3, "8m").draw(0, "9m").discard(0, "9m")
    assert [v.rule for v in run(sc).violations if v.rule.startswith("tiles.")] == []


def test_ron_after_the_next_draw_puts_the_drawn_tile_back() -> None:
    sc = opening().draw(1, "9m").ron(2, (-1000, 0, 1000, 0), target=0, tile="1m")
    rs = state(run(sc))
    assert rs.players[1].concealed_count == 13 and rs.ended


def test_second_call_of_one_discard_takes_the_first_back() -> None:
    sc = opening().chi(1, "23m").pon(2, "11m", target=0, tile="1m")
    rs = state(run(sc))
    assert rs.players[1].melds == [] and rs.players[1].concealed_count == 13
    assert rs.players[1].c37[1] == 1 and rs.players[1].c37[2] == 1  # 2m and 3m back
    assert rs.players[2].melds[-1].type is MeldType.PON and rs.current == 2
    assert rs.players[0].river[-1].called_by == 2


def test_call_of_an_older_discard_is_followed() -> None:
    sc = opening()
    sc.draw(1, "9m").discard(1, "9m").draw(2, "8m").discard(2, "8m")
    sc.draw(3, "8p").discard(3, "8p").draw(0, "2s").discard(0, "2s")
    sc.pon(2, "11m", target=0, tile="1m")
    r = run(sc)
    rs = state(r)
    assert rs.desync is None
    assert rs.players[0].river[0].called_by == 2 and rs.players[0].river[1].called_by is None
    assert rs.current == 2


def test_replacement_draw_after_a_kan_on_the_last_tile() -> None:
    sc = Scenario()
    sc.start(["123456789m1234p", "147m258p369s1114z", "258m369p147s5777z",
              "369m147p258s2356z"], dora="9s")
    sc.go_around(0, 69, avoid=["1z"])
    sc.draw(1, "1z").ankan(1, "1111z").dora(sc.spare()).draw(1).discard(1)
    r = run(sc)
    rs = state(r)
    assert rs.desync is None and rs.live_wall == 0
    assert rs.players[1].concealed_count == 10
