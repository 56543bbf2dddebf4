"""RoundState.validate: the counts of a followed state agree; a broken one is named."""

from __future__ import annotations

from kansa.replay.events import Event
from kansa.replay.rules import RuleSet
from kansa.replay.state import RoundState
from kansa.replay.table import Table
from kansa.replay.tiles import Tile
from kansa.sim.scenario import Scenario

HANDS = ["123456789m1234p", "234m1p789s123466z", "111m99p456s55677z", "345m147p258s1237z"]
TENHOU = RuleSet.preset("tenhou")


def played() -> Scenario:
    sc = Scenario()
    sc.start(HANDS, dora="9s")
    sc.draw(0, "1s").discard(0, "1m").pon(2, "11m", target=0, tile="1m").discard(2, "6z")
    return sc.draw(3, "8m").discard(3, "8m").draw(0, "9m").discard(0, "9m")


def replayed(sc: Scenario) -> tuple[Table, RoundState]:
    r = Table(TENHOU, game=sc.game(), validate=True)
    events: tuple[Event, ...] = sc.game().events
    for ev in events:
        r.push(ev)
    assert r.state.round is not None
    return r, r.state.round


def test_a_followed_hand_is_valid_after_every_step() -> None:
    r, rs = replayed(played())
    assert r.invalid == [] and rs.validate() == []
    assert r.index == len(played().game().events) - 1


def test_a_tile_lost_from_the_wall_is_counted() -> None:
    _, rs = replayed(played())
    rs.live_wall -= 1
    assert rs.validate() == [
        "135 tiles accounted for (55 with the players, 66 in the live wall, 14 in the dead "
        "wall); the set has 136"]


def test_a_hand_of_the_wrong_size_is_named() -> None:
    _, rs = replayed(played())
    p = rs.players[1]  # not the seat whose turn it is
    p.add(Tile.EAST)
    rs.live_wall -= 1  # (drawn from the wall: only the size is wrong)
    assert rs.validate() == ["seat 1 holds 14 tiles; 13 expected"]


def test_count_arrays_that_disagree_and_a_fifth_copy_are_named() -> None:
    _, rs = replayed(played())
    p = rs.players[1]
    p.c37[Tile.M1.code] += 1  # a fifth 1m, and c34 not told
    p.known_count += 1
    rs.live_wall -= 1
    problems = rs.validate()
    assert "seat 1's tile counts disagree" in problems
    assert "seat 1 holds 14 tiles; 13 expected" in problems
    assert "5 copies of 1m are shown" in problems


def test_a_second_red_five_is_named() -> None:
    _, rs = replayed(played())
    rs.dora_markers.extend([Tile.M5R, Tile.M5R])
    assert rs.validate() == ["2 red 5m are shown"]


def test_a_replayer_with_validation_collects_the_problems_by_event() -> None:
    sc = played()
    r = Table(TENHOU, game=sc.game(), validate=True)
    events = sc.game().events
    r.push(events[0])
    assert r.state.round is not None
    r.state.round.live_wall += 2  # as if the engine had lost count
    r.push(events[1])
    assert r.invalid and r.invalid[0][0] == 1 and "tiles accounted for" in r.invalid[0][1]
