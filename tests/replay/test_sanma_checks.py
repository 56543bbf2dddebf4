"""Three-player tables on crafted games: kita (a North set aside), no chi, the 108-tile
set, the wall with replacement draws, and what a kita does to ippatsu, the first
go-around, a win on it and furiten.  Every rule has a game that triggers it and a near
miss that must not.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from kansa.replay.engine import replay
from kansa.replay.events import DrawReason, Nukidora
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.table import Table
from kansa.replay.tiles import Seat, Tile
from kansa.sim.scenario import Scenario

SANMA_RULES = {"kita.not-north", "kita.no-replacement", "kita.timing",
               "claim.chi-three-player", "tiles.conservation", "claim.late",
               "furiten.temporary", "furiten.discard", "furiten.riichi", "win.incomplete",
               "ruleset.mismatch"}
LOST = {"log.out-of-order", "tiles.not-in-hand", "tiles.hand-size"}

# Seat 0 holds two Norths and 11p; seat 1 a souzu run (chi of 1s); seat 2 honors.
HANDS = ["1m9m11p3456p789p44z", "1m9m1s2s3s4s5s6s7s8s9s55z", "1m9m1p99p11s99s5667z"]
# Seat 1 waits on North or 9s (shanpon); seat 0 sets a North aside, then discards 9s.
WAIT_HANDS = ["1m9m11p3456p789p44z", "123p456p789p99s44z", "1m9m1p99p11s9s55667z"]


class Sanma(Scenario):
    """A scenario at a three-player table: the wall it draws spare tiles from has no
    2m-8m."""

    def __init__(self, platform: str = "tenhou") -> None:
        super().__init__(("A", "B", "C"), platform=platform, start_score=35000)

    def _full_set(self) -> Counter[Tile]:
        pool = super()._full_set()
        for t in list(pool):
            if t.index in range(1, 8) or t is Tile.M5R:
                del pool[t]
        return pool

    def kita(self, seat: int, tile: str = "4z", replacement: str | None = None) -> Sanma:
        """Set ``tile`` aside and draw the replacement (a spare tile unless given)."""
        self.events.append(Nukidora(actor=Seat(seat), tile=Tile.parse(tile)))
        self.draw(seat, replacement, avoid=("4z",))
        return self


def audit(sc: Scenario, rules: str = "tenhou") -> ReplayResult:
    players = len(sc.names)
    return replay(sc.game(), RuleSet.preset(rules).replace(players=players))


def found(result: ReplayResult) -> Counter[str]:
    return Counter(v.rule for v in result.violations if v.rule in SANMA_RULES | LOST)


def end(sc: Scenario, first: int, n: int = 3) -> Scenario:
    sc.go_around(first, n, avoid=("4z",))
    return sc.ryukyoku(tenpai=(False,) * len(sc.names)).end_kyoku()


def start(hands: list[str] = HANDS, platform: str = "tenhou") -> Sanma:
    sc = Sanma(platform)
    sc.start(hands, dora="1z")
    return sc


# -- builders --------------------------------------------------------------------------


def kita_ok() -> Scenario:
    sc = start().draw(0, "3z").kita(0, replacement="2z").discard(0, "3z")
    return end(sc, 1)


def kita_of_east() -> Scenario:
    sc = start().draw(0, "1z").kita(0, "1z", "2z").discard(0, "2z")
    return end(sc, 1)


def kita_after_pon(wait: bool = False) -> Scenario:
    sc = start().turn(0, "3z").turn(1, "1p").pon(0, "1p1p", target=1)
    if wait:  # discard first, set the North aside in the next own turn
        sc.discard(0, "9m").turn(1, "2z").turn(2, "6z").draw(0, "7z")
        sc.kita(0).discard(0, "7z")
        return end(sc, 1)
    sc.kita(0).discard(0, "9m")
    return end(sc, 1)


def kita_after_discard() -> Scenario:
    sc = start().turn(0, "3z").kita(0)
    sc.discard(0)
    return end(sc, 1)


def kita_in_riichi(drawn_north: bool) -> Scenario:
    sc = start().draw(0, "3z").riichi(0, "3z").turn(1, "2z").turn(2, "6z")
    if drawn_north:
        sc.draw(0, "4z").kita(0, replacement="7z").discard(0, "7z")
    else:
        sc.draw(0, "7z").kita(0, replacement="2z").discard(0, "2z")
    return end(sc, 1)


def kita_at_the_end(last: bool) -> Scenario:
    """Draw the wall down (55 tiles at three players) and let seat 0 set a North aside
    on the last tile, or with three tiles left (and draw its replacement)."""
    sc = start()
    sc.go_around(0, 54 if last else 51, avoid=("4z",))
    sc.draw(0, avoid=("4z",))
    sc.events.append(Nukidora(actor=Seat(0), tile=Tile.NORTH))
    if not last:
        sc.draw(0, avoid=("4z",)).discard(0)
    return sc


def kita_four_player() -> Scenario:
    sc = Scenario()
    sc.start(["123456789m1234p", "147m258p369s1234z", "258m369p147s5677z",
              "369m147p258s1156z"], dora="9s")
    sc.draw(0, "4z").events.append(Nukidora(actor=Seat(0), tile=Tile.NORTH))
    sc.draw(0, "2z").discard(0, "2z")
    sc.go_around(1, 3)
    return sc.ryukyoku(tenpai=(False,) * 4).end_kyoku()


def chi_three_player() -> Scenario:
    sc = start().turn(0, "1s").chi(1, "2s3s").discard(1, "9m")
    return end(sc, 2)


def pon_three_player() -> Scenario:
    sc = start().turn(0, "3z").turn(1, "1p").pon(0, "1p1p", target=1).discard(0, "9m")
    return end(sc, 1)


def with_tile(drawn: str, dealt: str = "1m") -> Scenario:
    hands = [HANDS[0].replace("1m", dealt, 1), *HANDS[1:]]
    sc = start(hands).turn(0, drawn).turn(1, "2z")
    return end(sc, 2)


def kita_passed(ron_on: str) -> Scenario:
    """Seat 1 waits on North and 9s; seat 0 sets a North aside, then discards 9s."""
    sc = start(WAIT_HANDS).draw(0, "3z")
    if ron_on == "kita":
        sc.events.append(Nukidora(actor=Seat(0), tile=Tile.NORTH))
        return sc.ron(1, (0, 0, 0), target=0, tile="4z").end_kyoku()
    sc.kita(0, replacement="9s").discard(0, "9s")
    return sc.ron(1, (0, 0, 0)).end_kyoku()


def ron_on_kita_after_ankan() -> Scenario:
    """Seat 0 declares a concealed kan, later sets a North aside, and seat 1 wins on it:
    a win on the North, not a robbed concealed kan."""
    sc = start(["1m9m111p456p789p44z", "234p567p789p99s44z", "1m9m99p111s9s55667z"])
    sc.draw(0, "1p").ankan(0, "1p1p1p1p").draw(0, "3z").discard(0, "3z")
    sc.turn(1, "2z").turn(2, "6z").draw(0, "7z")
    sc.events.append(Nukidora(actor=Seat(0), tile=Tile.NORTH))
    return sc.ron(1, (0, 0, 0), target=0, tile="4z").end_kyoku()


@dataclass(frozen=True)
class Case:
    name: str
    build: Callable[[], Scenario]
    expect: dict[str, int]
    rules: str = "tenhou"
    broken: bool = False
    """The log cannot be followed after the finding (hand sizes go wrong)."""


CASES = [
    Case("kita after a draw", kita_ok, {}),
    Case("kita after a draw, Mahjong Soul", kita_ok, {}, "majsoul"),
    # kita.not-north
    Case("kita of East", kita_of_east, {"kita.not-north": 1}),
    # kita.timing
    Case("kita right after a pon", kita_after_pon, {"kita.timing": 1}),
    Case("kita in the turn after a pon", lambda: kita_after_pon(True), {}),
    Case("kita after the own discard", kita_after_discard, {"kita.timing": 1}, broken=True),
    Case("kita of a held North in riichi", lambda: kita_in_riichi(False), {"kita.timing": 1}),
    Case("kita of a drawn North in riichi", lambda: kita_in_riichi(True), {}),
    Case("kita at a four-player table", kita_four_player, {"kita.timing": 1}),
    # kita.no-replacement
    Case("kita after the last tile", lambda: kita_at_the_end(True), {"kita.no-replacement": 1}),
    Case("kita before the last tile", lambda: kita_at_the_end(False), {}),
    # claim.chi-three-player
    Case("chi at three players", chi_three_player, {"claim.chi-three-player": 1}),
    Case("pon at three players", pon_three_player, {}),
    # tiles.conservation: the set has no 2m-8m
    Case("2m drawn at three players", lambda: with_tile("2m"), {"tiles.conservation": 1}),
    Case("5m dealt at three players", lambda: with_tile("3z", "5m"), {"tiles.conservation": 1}),
    Case("9m drawn at three players", lambda: with_tile("9m"), {}),
    # a win on a North set aside, and furiten after passing it
    Case("ron on a kita", lambda: kita_passed("kita"), {}),
    Case("ron after passing a kita", lambda: kita_passed("discard"), {"furiten.temporary": 1}),
    Case("ron on a kita after the kita player's ankan", ron_on_kita_after_ankan, {}),
]


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_sanma_rule(case: Case) -> None:
    result = audit(case.build(), case.rules)
    got = found(result)
    assert case.broken or not any(got[r] for r in LOST), result.violations
    assert {r: n for r, n in got.items() if r not in LOST} == case.expect, result.violations


def test_two_copies_of_a_left_out_tile_are_one_finding_per_tile() -> None:
    result = audit(with_tile("2m", "2m"))
    texts = [v.message for v in result.violations if v.rule == "tiles.conservation"]
    assert texts == ["2m is in play, but the three-player set has no 2m-8m"]


def test_2m_is_a_plain_tile_at_four_players() -> None:
    sc = Scenario()
    sc.start(["123456789m1234p", "147m258p369s1234z", "258m369p147s5677z",
              "369m147p258s1156z"], dora="9s")
    sc.go_around(0, 4)
    sc.ryukyoku(tenpai=(False,) * 4).end_kyoku()
    assert not [v for v in audit(sc).violations if v.rule == "tiles.conservation"]


# -- the state a kita leaves --------------------------------------------------------------


def _table(events: list[object]) -> Table:
    table = Table(RuleSet.preset("tenhou"), players=3)
    for ev in events:
        table.push(ev)  # type: ignore[arg-type]
    return table


def test_a_kita_ends_the_first_go_around_and_ippatsu_at_the_replacement_draw() -> None:
    sc = start(["1m9m11p3456p789p44z", "1m9m1s2s3s4s5s6s7s8s9s55z", "1m9m1p99p11s9s45667z"])
    sc.turn(0, "3z").draw(1, "2z").riichi(1, "2z").draw(2, "6z")
    sc.events.append(Nukidora(actor=Seat(2), tile=Tile.NORTH))
    table = _table(list(sc.events))
    rs = table.state.round
    assert rs is not None
    assert not rs.first_go_around
    assert rs.players[1].ippatsu  # a win on the North would still be ippatsu
    assert rs.kita == (Seat(2), Tile.NORTH)
    sc.draw(2, "7z")
    table.push(sc.events[-1])
    assert not rs.players[1].ippatsu and rs.kita is None
    assert rs.live_wall == 55 - 4  # four draws, the replacement included


def test_legal_lists_kita_where_it_is_allowed() -> None:
    def kitas(sc: Scenario) -> list[str]:
        return [a.kind for a in _table(list(sc.events)).legal() if a.kind == "nukidora"]

    assert kitas(start().draw(0, "3z")) == ["nukidora"]
    assert kitas(start(["1m9m11p3456p789p55z", *HANDS[1:]]).draw(0, "3z")) == []
    assert kitas(start().turn(0, "3z").turn(1, "1p").pon(0, "1p1p", target=1)) == []
    riichi = start().draw(0, "3z").riichi(0, "3z").turn(1, "2z").turn(2, "6z")
    assert kitas(riichi.draw(0, "7z")) == []
    riichi = start().draw(0, "3z").riichi(0, "3z").turn(1, "2z").turn(2, "6z")
    assert kitas(riichi.draw(0, "4z")) == ["nukidora"]


def test_legal_offers_a_win_on_the_north_just_set_aside() -> None:
    sc = start(WAIT_HANDS).draw(0, "3z")
    sc.events.append(Nukidora(actor=Seat(0), tile=Tile.NORTH))
    legal = _table(list(sc.events)).legal()
    assert any(a.seat == 1 and a.kind == "hora" and a.tiles == (Tile.NORTH,) for a in legal)
    assert any(a.seat == 0 and a.kind == "tsumo" for a in legal)


def test_the_exhaustive_draw_comes_after_55_draws_with_kita_replacements() -> None:
    sc = start().draw(0, "3z").kita(0, replacement="2z").discard(0, "3z")
    sc.go_around(1, 54, avoid=("4z",))
    sc.ryukyoku(DrawReason.EXHAUSTIVE, tenpai=(False,) * 3).end_kyoku()
    table = _table(list(sc.events)[:-2])
    rs = table.state.round
    assert rs is not None and rs.live_wall == 0
    assert "tsumo" not in {a.kind for a in table.legal()}
