"""Table.legal(): what each seat may do, on crafted positions."""

from __future__ import annotations

from kansa.replay.legal import Action
from kansa.replay.rules import RuleSet
from kansa.replay.table import Table
from kansa.replay.tiles import Seat, Tile
from kansa.sim.scenario import Scenario

HANDS = ["123456789m1234p", "234m1p789s123466z", "111m99p456s55677z", "345m147p258s1237z"]
TENHOU = RuleSet.preset("tenhou")


def table(sc: Scenario, rules: RuleSet = TENHOU) -> Table:
    game = sc.game()
    t = Table(rules, game=game)
    for ev in game.events:
        t.push(ev)
    return t


def dealt(hands: list[str] = HANDS, **start: object) -> Scenario:
    sc = Scenario()
    sc.start(hands, dora="9s", **start)  # type: ignore[arg-type]
    return sc


def of(legal: list[Action], seat: int, kind: str = "") -> list[Action]:
    return [a for a in legal if a.seat == seat and (not kind or a.kind == kind)]


def test_nobody_acts_before_the_deal_and_the_dealer_draws_first() -> None:
    assert Table(TENHOU).legal() == []
    assert table(dealt()).legal() == [Action(Seat(0), "tsumo")]


def test_after_a_draw_the_drawer_discards_any_tile_or_declares_riichi_when_tenpai() -> None:
    legal = table(dealt().draw(0, "1s")).legal()
    assert {a.seat for a in legal} == {0}
    assert len(of(legal, 0, "dahai")) == 14  # fourteen different tiles
    assert Action(Seat(0), "riichi") in legal  # 1s out leaves 123456789m1234p, tenpai
    assert of(legal, 0, "hora") == []


def test_riichi_needs_the_points_for_the_stick() -> None:
    sc = dealt(scores=(900, 25000, 25000, 49100)).draw(0, "1s")
    assert Action(Seat(0), "riichi") not in table(sc).legal()


def test_after_a_discard_the_others_may_call_or_pass_and_the_next_seat_draws() -> None:
    legal = table(dealt().draw(0, "1s").discard(0, "1m")).legal()
    assert Action(Seat(2), "pon", (Tile.M1, Tile.M1)) in legal
    assert Action(Seat(2), "daiminkan", (Tile.M1, Tile.M1, Tile.M1)) in legal
    assert of(legal, 1, "chi") == [Action(Seat(1), "chi", (Tile.M2, Tile.M3))]
    assert of(legal, 3, "chi") == []  # only the next seat chows
    assert {a.seat for a in legal if a.kind == "pass"} == {1, 2, 3}
    assert Action(Seat(1), "tsumo") in legal and of(legal, 0) == []


def test_kuikae_forbids_the_called_kind_and_the_other_end_of_the_chow() -> None:
    legal = table(dealt().draw(0, "1s").discard(0, "1m").chi(1, "23m")).legal()
    discards = {a.tiles[0] for a in of(legal, 1, "dahai")}
    assert Tile.M4 not in discards  # 1m called with 23m: 4m is the swap
    assert Tile.P1 in discards and of(legal, 1, "riichi") == []


def test_a_waiting_seat_may_ron_unless_furiten() -> None:
    waiting = dealt().draw(0, "1s").discard(0, "1s").draw(1, "4p").discard(1, "4p")
    assert Action(Seat(0), "hora", (Tile.P4,)) in table(waiting).legal()
    furiten = dealt().draw(0, "4p").discard(0, "1p").draw(1, "4p").discard(1, "4p")
    assert of(table(furiten).legal(), 0, "hora") == []  # 1p, one of the waits, discarded


def test_a_win_on_the_draw() -> None:
    complete = dealt().draw(0, "4p")  # 123456789m 1234p + 4p: 123p 44p
    assert Action(Seat(0), "hora") in table(complete).legal()


def test_no_fifth_kan() -> None:
    hands = [HANDS[0], HANDS[1], "111m99p456s555z67z", HANDS[3]]
    sc = dealt(hands, oya=2).draw(2, "5z")
    t = table(sc)
    assert Action(Seat(2), "ankan", (Tile.HAKU,) * 4) in t.legal()
    assert t.state.round is not None
    t.state.round.kans = 4
    assert of(t.legal(), 2, "ankan") == []


def test_nine_terminals_at_the_first_draw() -> None:
    hands = ["19m19p19s1234567z", HANDS[1], "222m99p456s55677z", HANDS[3]]
    legal = table(dealt(hands).draw(0, "2m")).legal()
    assert Action(Seat(0), "ryukyoku") in legal
    later = table(dealt().draw(0, "1s")).legal()
    assert of(later, 0, "ryukyoku") == []


def test_nothing_after_the_hand_ends() -> None:
    sc = dealt().draw(0, "1s").discard(0, "1s").draw(1, "4p").discard(1, "4p")
    sc.ron(0, (1000, -1000, 0, 0), target=1, tile="4p")
    assert table(sc).legal() == []
