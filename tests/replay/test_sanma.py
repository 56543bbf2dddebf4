"""Three-player rules: the sanma presets, payments, honba, noten, final points and flow.

The crafted games here use only the 108 tiles of a three-player set (no 2m to 8m) and no
North, so no kita; the expected figures are written out by hand from the rules.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kansa.replay.checks.flow import next_hand
from kansa.replay.engine import replay
from kansa.replay.events import DrawReason, EndGame, Nukidora, Ryukyoku, StartKyoku
from kansa.replay.game import RuleHints
from kansa.replay.payments import (
    WinInput,
    final_result,
    noten_payments,
    settle_wins,
    split_tsumo,
)
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.scoring import total_points
from kansa.replay.state import RoundState
from kansa.replay.tiles import WINDS, Seat, Tile
from kansa.replay.violations import Severity
from kansa.sim.scenario import Scenario

TENHOU3 = RuleSet.preset("tenhou-sanma")
MAJSOUL3 = RuleSet.preset("majsoul-sanma")
NO_LOSS = TENHOU3.replace(name="no-tsumo-loss", tsumo_loss=False)
MANZU_GONE = ["2m", "3m", "4m", "5m", "6m", "7m", "8m", "4z"]


# -- the rule sets ---------------------------------------------------------------------

def test_the_sanma_presets_are_three_player_tables() -> None:
    for rules in (TENHOU3, MAJSOUL3):
        assert rules.players == 3 and rules.uma is not None and len(rules.uma) == 3
        assert (rules.honba_value, rules.noten_total, rules.start_score) == (200, 2000, 35000)
        assert DrawReason.SUUFON_RENDA not in rules.abortive
        assert DrawReason.SUUCHA_RIICHI not in rules.abortive
        assert DrawReason.KYUUSHU_KYUUHAI in rules.abortive
    assert TENHOU3.return_score == 40000 and TENHOU3.uma == (20000, 0, -20000)
    assert MAJSOUL3.return_score == 35000 and MAJSOUL3.uma == (15000, 0, -15000)
    assert TENHOU3.base == "tenhou" and MAJSOUL3.base == "majsoul"  # their citations


@pytest.mark.parametrize(("platform", "players", "name"), [
    ("tenhou", 3, "tenhou-sanma"), ("majsoul", 3, "majsoul-sanma"), (None, 3, "tenhou-sanma"),
    ("tenhou", 4, "tenhou"), ("majsoul", 4, "majsoul")])
def test_auto_takes_the_preset_for_the_logs_table(platform: str | None, players: int,
                                                  name: str) -> None:
    rules = RuleSet.auto(RuleHints(platform=platform, players=players))
    assert (rules.name, rules.players) == (name, players)


def test_a_preset_seated_at_the_other_table_size_is_its_counterpart() -> None:
    three = RuleHints(players=3)
    assert RuleSet.preset("tenhou").seated(three) is TENHOU3
    assert RuleSet.preset("majsoul").seated(three) is MAJSOUL3
    assert TENHOU3.seated(RuleHints(players=4)) is RuleSet.preset("tenhou")
    ema = RuleSet.preset("ema").seated(three)  # no counterpart: the table rules are unknown
    assert ema.players == 3 and ema.uma is None and ema.unknown
    assert "score.payment" in ema.unknown[-1].affects


def test_a_rule_file_for_three_players_starts_from_the_sanma_preset() -> None:
    rules = RuleSet.from_mapping({"base": "tenhou", "players": 3, "tsumo_loss": False})
    assert (rules.players, rules.honba_value, rules.tsumo_loss) == (3, 200, False)
    assert rules.uma == (20000, 0, -20000)
    own = RuleSet.from_mapping({"base": "majsoul-sanma", "uma": [10000, 0, -10000],
                                "kita_dora": False})
    assert own.uma == (10000, 0, -10000) and not own.kita_dora
    with pytest.raises(ValueError, match="one per player"):
        RuleSet.from_mapping({"base": "tenhou-sanma", "uma": [20000, 10000, -10000, -20000]})
    with pytest.raises(ValueError, match="expected 3 or 4"):
        RuleSet.from_mapping({"base": "tenhou", "players": 5})


# -- payments --------------------------------------------------------------------------

def pay(winner: int, target: int, points: int, rules: RuleSet, *, honba: int = 0,
        sticks: int = 0) -> tuple[int, ...]:
    win = WinInput(winner=Seat(winner), target=Seat(target), points=points)
    return settle_wins([win], dealer=Seat(0), honba=honba, sticks=sticks, rules=rules)[0].deltas


def test_a_tsumo_loses_the_absent_seats_share() -> None:
    mangan = total_points(2000, dealer=False, tsumo=True, players=3)
    assert mangan == 6000  # 2,000 + 4,000: the north share of 2,000 is lost
    assert pay(1, 1, mangan, TENHOU3) == (-4000, 6000, -2000)
    assert total_points(2000, dealer=True, tsumo=True, players=3) == 8000
    assert pay(0, 0, 8000, TENHOU3) == (8000, -4000, -4000)


def test_without_tsumo_loss_the_payers_split_the_absent_share() -> None:
    mangan = total_points(2000, dealer=False, tsumo=True, players=3, tsumo_loss=False)
    assert mangan == 8000
    assert pay(1, 1, mangan, NO_LOSS) == (-5000, 8000, -3000)
    # 30 fu 1 han (300 / 500 at four): the half of 300 rounds up to 200
    small = total_points(240, dealer=False, tsumo=True, players=3, tsumo_loss=False)
    assert small == 1200 and split_tsumo(small, dealer=False, players=3,
                                         tsumo_loss=False) == (500, 700)
    assert total_points(2000, dealer=True, tsumo=True, players=3, tsumo_loss=False) == 12000
    # the near miss: the same total under tsumo loss is another split
    assert split_tsumo(8000, dealer=False, players=3) != (3000, 5000)


def test_honba_is_two_hundred_a_counter_at_three_players() -> None:
    assert pay(1, 2, 3900, TENHOU3, honba=2) == (0, 4300, -4300)
    assert pay(1, 1, 6000, TENHOU3, honba=2, sticks=1) == (-4200, 7400, -2200)
    # the four-player amount is 300 a counter from the discarder
    assert pay(1, 2, 3900, RuleSet.preset("tenhou"), honba=2) == (0, 4500, -4500, 0)


@pytest.mark.parametrize(("tenpai", "deltas"), [
    ((True, False, False), (2000, -1000, -1000)),
    ((True, True, False), (1000, 1000, -2000)),
    ((True, True, True), (0, 0, 0)),
])
def test_noten_payments_total_two_thousand(tenpai: tuple[bool, ...],
                                           deltas: tuple[int, ...]) -> None:
    assert noten_payments(tenpai, rules=TENHOU3).deltas == deltas


def test_final_points_under_each_platform() -> None:
    scores = (50000, 35000, 20000)
    # Tenhou: return 40,000, oka 15,000 to first, uma 20/0/-20, whole thousands
    assert final_result(scores, 0, rules=TENHOU3).points == (45.0, -5.0, -40.0)
    # Mahjong Soul: start = return 35,000, uma 15/0/-15, exact
    assert final_result(scores, 0, rules=MAJSOUL3).points == (30.0, 0.0, -30.0)
    # a leftover stick goes to the top before the points
    assert final_result((49000, 35000, 20000), 1, rules=MAJSOUL3).scores == scores


# -- flow ------------------------------------------------------------------------------

def finished(bakaze: Tile, kyoku: int, *, winners: Sequence[int] = (),
             rules: RuleSet = TENHOU3) -> tuple[RoundState, list[Seat]]:
    start = StartKyoku(bakaze=bakaze, kyoku=kyoku, honba=0, kyotaku=0, oya=Seat(kyoku - 1),
                       scores=(35000,) * 3, dora_marker=Tile.M1, tehais=((),) * 3)
    rs = RoundState.initial(start, rules)
    rs.ended = True
    if not winners:
        rs.draw = Ryukyoku(reason=DrawReason.EXHAUSTIVE, tenpai=(False,) * 3)
    return rs, [Seat(w) for w in winners]


EAST, SOUTH = WINDS[0], WINDS[1]
EVEN = (35000, 35000, 35000)
TOP = (45000, 30000, 30000)


@pytest.mark.parametrize(("hand", "scores", "ends", "then"), [
    (finished(EAST, 2, winners=[0]), EVEN, None, ("E", 3, 2)),
    (finished(EAST, 3, winners=[1]), EVEN, None, ("S", 1, 0)),  # not E4: three dealers
    (finished(EAST, 3), EVEN, None, ("S", 1, 0)),  # the dealer noten
    (finished(SOUTH, 3, winners=[0]), TOP, "S3 is over and someone has 40000", None),
    (finished(SOUTH, 3, winners=[0]), (39000, 33000, 33000), None, ("W", 1, 0)),
    (finished(SOUTH, 3, winners=[2]), (30000, 30000, 45000), "dealer seat 2 is top", None),
    (finished(WINDS[2], 3, winners=[0]), EVEN, "West 3 was the last hand", None),
])
def test_three_dealers_per_wind(hand: tuple[RoundState, list[Seat]], scores: Sequence[int],
                                ends: str | None, then: tuple[str, int, int] | None) -> None:
    nh = next_hand(*hand, scores, TENHOU3)
    if ends is None:
        assert nh.end is None and then is not None
        assert (nh.bakaze.mjai, nh.kyoku, nh.oya) == then
    else:
        assert nh.end is not None and ends in nh.end


def test_an_east_only_game_ends_after_east_3() -> None:
    rules = TENHOU3.replace(hanchan=False)
    rs, winners = finished(EAST, 3, winners=[0], rules=rules)
    assert next_hand(rs, winners, TOP, rules).end == "E3 is over and someone has 40000"


# -- crafted three-player games --------------------------------------------------------

# Seat 1 waits on 1s with 123p 456p 789p 234s (ittsu); the others hold junk.
DEALER = "19m19p19s123567z9m"
SEAT1 = "123p456p789p234s1s"
SEAT2 = "11m99m22p88p33s77s1z"
HANDS = [DEALER, SEAT1, SEAT2]
AVOID = [*MANZU_GONE, "1s"]


def game(win: str, deltas: Sequence[int], *, honba: int = 0) -> Scenario:
    """One go-around, then seat 1 wins on 1s: a tsumo, or a ron on seat 2's discard."""
    sc = Scenario(("A", "B", "C"), start_score=35000).start(
        HANDS, dora="5z", honba=honba)
    sc.go_around(0, 3, avoid=AVOID)
    sc.draw(0, avoid=AVOID).discard(0)
    if win == "tsumo":
        sc.draw(1, "1s").tsumo(1, deltas)
    else:
        sc.draw(1, avoid=AVOID).discard(1)
        sc.draw(2, "1s").discard(2)
        sc.ron(1, deltas)
    return sc


def audit(sc: Scenario, rules: RuleSet | None = None) -> ReplayResult:
    """The game ended (if it is not yet) and replayed without the flow checks."""
    if not isinstance(sc.events[-1], EndGame):
        sc.end_kyoku().end_game()
    g = sc.game()
    return replay(g, rules or RuleSet.auto(g.hints),
                  enabled=lambda rule: not rule.startswith("flow."))


def rules_of(result: ReplayResult) -> list[str]:
    return [v.rule for v in result.violations if v.rule != "ruleset.mismatch"]


def test_a_crafted_tsumo_paid_with_tsumo_loss_and_honba_is_clean() -> None:
    # 3 han 30 fu: 1,000 from seat 2, 2,000 from the dealer, 100 each per counter
    result = audit(game("tsumo", (-2100, 3200, -1100), honba=1))
    assert rules_of(result) == []
    assert result.wins_valued == 1 and result.hands[0].wins[0].points == 3000


@pytest.mark.parametrize("deltas", [
    (-2150, 3300, -1150),  # the four-player honba, 300 a counter split over two payers
    (-2100, 4200, -2100),  # the dealer's share lost instead of north's: no such rule
])
def test_a_crafted_tsumo_paid_otherwise_is_a_payment_error(deltas: tuple[int, ...]) -> None:
    assert rules_of(audit(game("tsumo", deltas, honba=1))) == ["score.payment"]


def test_a_crafted_tsumo_without_tsumo_loss() -> None:
    # half of north's 1,000 from each payer: 1,500 and 2,500
    paid = (-2500, 4000, -1500)
    assert rules_of(audit(game("tsumo", paid), NO_LOSS)) == []
    assert rules_of(audit(game("tsumo", paid))) == ["score.payment"]


def test_a_crafted_ron_with_honba() -> None:
    # 2 han 40 fu ron: 2,600 and 200 a counter
    assert rules_of(audit(game("ron", (0, 3000, -3000), honba=2))) == []
    assert rules_of(audit(game("ron", (0, 3200, -3200), honba=2))) == ["score.payment"]


def drawn(deltas: Sequence[int]) -> Scenario:
    sc = Scenario(("A", "B", "C"), start_score=35000).start(HANDS, dora="5z")
    for seat in range(3):  # a simple in every river: no nagashi mangan
        sc.turn(seat, "6p")
    for _ in range(2):
        sc.go_around(0, 3, avoid=AVOID)
    return sc.ryukyoku(DrawReason.EXHAUSTIVE, deltas, tenpai=(False, True, False))


def test_noten_payments_in_a_crafted_draw() -> None:
    assert rules_of(audit(drawn((-1000, 2000, -1000)))) == []
    assert rules_of(audit(drawn((-1500, 3000, -1500)))) == ["score.noten"]


def test_final_points_of_a_crafted_game() -> None:
    def ended(points: Sequence[float]) -> ReplayResult:
        sc = game("tsumo", (-2000, 3000, -1000)).end_kyoku().end_game(points)
        return audit(sc)
    # scores 33,000, 38,000, 34,000: -7 - 20, top, -6 + 0 at whole thousands
    assert "score.final" not in rules_of(ended((-27.0, 33.0, -6.0)))
    assert "score.final" in rules_of(ended((-12.0, 13.0, -1.0)))  # four-player uma


def test_dealer_rotation_in_a_crafted_game() -> None:
    def next_start(bakaze: str, kyoku: int, oya: int) -> list[str]:
        # E3 (dealer seat 2): seat 1 wins by tsumo, so the deal passes on to seat 0
        sc = Scenario(("A", "B", "C"), start_score=35000).start(
            HANDS, dora="5z", oya=2, kyoku=3)
        sc.go_around(2, 3, avoid=AVOID).draw(2, avoid=AVOID).discard(2)
        sc.draw(0, avoid=AVOID).discard(0)
        sc.draw(1, "1s").tsumo(1, (-1000, 3000, -2000)).end_kyoku()
        sc.start(HANDS, dora="5z", oya=oya, bakaze=bakaze, kyoku=kyoku)
        g = sc.game()
        result = replay(g, RuleSet.auto(g.hints))
        assert "score.payment" not in [v.rule for v in result.violations]
        return [v.rule for v in result.violations if v.rule.startswith("flow.d")]
    assert next_start("S", 1, 0) == []
    assert next_start("E", 4, 0) == ["flow.dealer"]



# -- a ron on a kita -------------------------------------------------------------------

# Seat 2 waits on North alone (123p 456p 789p 111s 4z: ittsu, 2 han 40 fu, 2,600); seat 0
# sets a North aside (kita) with one riichi stick on the table.
KITA_HANDS = ["19m19p19s123567z4z", "11m99m22p88p33s77s1z", "123p456p789p111s4z"]


def kita_ron(deltas: Sequence[int], *, on_kita: bool = True) -> ReplayResult:
    sc = Scenario(("A", "B", "C"), start_score=35000).start(KITA_HANDS, dora="5z",
                                                           kyotaku=1)
    sc.go_around(0, 3, avoid=AVOID)
    sc.draw(0, avoid=AVOID)
    if on_kita:
        sc.events.append(Nukidora(actor=Seat(0), tile=Tile.NORTH))
    else:
        sc.discard(0, "4z")
    sc.ron(2, deltas, target=0, tile="4z")
    return audit(sc)


def test_a_ron_on_a_kita_that_leaves_the_stick_is_a_warning() -> None:
    assert rules_of(kita_ron((-2600, 0, 3600))) == []
    found = [v for v in kita_ron((-2600, 0, 2600)).violations if v.rule == "score.sticks"]
    assert [v.severity for v in found] == [Severity.WARNING]
    assert "a ron on a kita" in found[0].message
    # the near miss: the same payment on a discarded North is an error
    found = [v for v in kita_ron((-2600, 0, 2600), on_kita=False).violations
             if v.rule == "score.sticks"]
    assert [v.severity for v in found] == [Severity.ERROR]
