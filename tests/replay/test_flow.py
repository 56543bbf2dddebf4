"""The flow of the game (next dealer, counters, sticks, end) and the final points."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from kansa.replay.checks.flow import next_hand
from kansa.replay.engine import replay
from kansa.replay.events import DrawReason, Ryukyoku, StartKyoku
from kansa.replay.ledger import Reason, net
from kansa.replay.payments import final_result
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.state import RoundState
from kansa.replay.tiles import WINDS, Seat, Tile
from kansa.sim.scenario import Scenario

TENHOU = RuleSet.preset("tenhou")
EMA = RuleSet.preset("ema")


def rules_of(result: ReplayResult) -> list[str]:
    """The findings' rule ids, leaving out the ruleset.mismatch warnings a crafted game
    audited under another rule set than its hints gets (tests/replay/test_table_checks.py)."""
    return [v.rule for v in result.violations if v.rule != "ruleset.mismatch"]


# -- next_hand on hands built directly -----------------------------------------------

def finished(pos: int, *, winners: Sequence[int] = (), draw: DrawReason | None = None,
             tenpai: Sequence[bool] | None = None, honba: int = 0,
             rules: RuleSet = TENHOU) -> tuple[RoundState, list[Seat]]:
    """The hand at ``pos`` (E1 = 0 ... S4 = 7, W1 = 8) with its result, and its winners."""
    oya = Seat(pos % 4)
    start = StartKyoku(bakaze=WINDS[pos // 4], kyoku=pos % 4 + 1, honba=honba, kyotaku=0,
                       oya=oya, scores=(25000,) * 4, dora_marker=Tile.M1,
                       tehais=((),) * 4)
    rs = RoundState.initial(start, rules)
    rs.ended = True
    if draw is not None:
        rs.draw = Ryukyoku(reason=draw, tenpai=tuple(map(bool, tenpai)) if tenpai else None)
    return rs, [Seat(w) for w in winners]


S4, W1, W4 = 7, 8, 11
TOP_DEALER = (20000, 20000, 20000, 40000)  # seat 3 is the S4 dealer
TOP_OTHER = (40000, 20000, 20000, 20000)
LOW = (25000, 25000, 25000, 25000)


@pytest.mark.parametrize(("hand", "scores", "ends", "then"), [
    (finished(S4, winners=[1]), TOP_OTHER, "S4 is over and someone has 30000", None),
    (finished(S4, winners=[1]), LOW, None, ("W", 1, 0)),
    (finished(S4, winners=[3]), TOP_DEALER, "all-last dealer seat 3 is top", None),
    (finished(S4, winners=[3]), TOP_OTHER, None, ("S", 4, 3)),
    (finished(S4, draw=DrawReason.EXHAUSTIVE, tenpai=(0, 0, 0, 1)), TOP_DEALER,
     "all-last dealer seat 3 is top", None),
    (finished(S4, draw=DrawReason.KYUUSHU_KYUUHAI), TOP_DEALER, None, ("S", 4, 3)),
    (finished(W1, winners=[1]), TOP_OTHER, "W1 is over and someone has 30000", None),
    (finished(W1, winners=[0]), (20000, 40000, 20000, 20000), None, ("W", 1, 0)),  # renchan
    (finished(W1, winners=[0]), TOP_OTHER, "all-last dealer seat 0 is top", None),
    (finished(W4, winners=[1]), LOW, "West 4 was the last hand", None),
    (finished(2, winners=[1]), (25000, -100, 25100, 50000), "seat 1 is below zero", None),
    (finished(2, winners=[1]), (25000, 0, 25000, 50000), None, ("E", 4, 3)),
])
def test_when_a_tenhou_game_ends(hand: tuple[RoundState, list[Seat]], scores: Sequence[int],
                                 ends: str | None, then: tuple[str, int, int] | None) -> None:
    nh = next_hand(*hand, scores, TENHOU)
    if ends is None:
        assert nh.end is None and nh.end_known and then is not None
        assert (nh.bakaze.mjai, nh.kyoku, nh.oya) == then
    else:
        assert nh.end is not None and ends in nh.end


def test_ema_has_no_bankruptcy_no_west_and_no_dealer_stop() -> None:
    assert next_hand(*finished(S4, winners=[3], rules=EMA), TOP_DEALER, EMA).end is None
    assert next_hand(*finished(S4, winners=[1], rules=EMA), LOW, EMA).end == "S4 was the last hand"
    assert next_hand(*finished(2, winners=[1], rules=EMA), (25000, -100, 25100, 50000),
                     EMA).end is None


def test_east_only_game_extends_into_south() -> None:
    east = TENHOU.replace(hanchan=False)
    assert next_hand(*finished(3, winners=[1]), TOP_OTHER, east).end is not None
    nh = next_hand(*finished(3, winners=[1]), LOW, east)
    assert nh.end is None and (nh.bakaze, nh.kyoku) == (Tile.SOUTH, 1)


def test_counters() -> None:
    assert next_hand(*finished(0, winners=[0], honba=2), LOW, TENHOU).honba == 3
    assert next_hand(*finished(0, winners=[1, 0], honba=2), LOW, TENHOU).honba == 3
    assert next_hand(*finished(0, winners=[1], honba=2), LOW, TENHOU).honba == 0
    nh = next_hand(*finished(0, draw=DrawReason.EXHAUSTIVE, tenpai=(0, 1, 0, 0), honba=2),
                   LOW, TENHOU)
    assert (nh.honba, nh.oya, nh.kyoku) == (3, 1, 2)
    unknown = next_hand(*finished(0, draw=DrawReason.EXHAUSTIVE), LOW, TENHOU)
    assert unknown.oya is None and unknown.honba == 1


# -- the same on crafted games ---------------------------------------------------------

HANDS = ["2345678m234p111z", "2345678p234s999m", "2345678s234m777p", "3456m3456p3456s8m"]


def draw_hand(sc: Scenario, tenpai: Sequence[bool], deltas: Sequence[int], *,
              oya: int = 0, kyoku: int | None = None, honba: int | None = None,
              kyotaku: int | None = None, riichi: int | None = None) -> Scenario:
    sc.start(HANDS, dora="9m", oya=oya, kyoku=kyoku, honba=honba, kyotaku=kyotaku)
    for k in range(4):
        seat = (oya + k) % 4
        tile = ("2m", "2p", "2s", "3m")[seat]
        sc.draw(seat, tile)  # and discard it: the tenpai hands stay tenpai
        if seat == riichi:
            sc.riichi(seat, tile)
        else:
            sc.discard(seat, tile)
    return sc.ryukyoku(DrawReason.EXHAUSTIVE, deltas, tenpai=tuple(map(bool, tenpai))).end_kyoku()


def test_a_dealer_tenpai_draw_repeats_and_carries_the_stick() -> None:
    sc = Scenario()
    draw_hand(sc, (1, 0, 0, 0), (3000, -1000, -1000, -1000), riichi=0)
    sc.honba += 1
    draw_hand(sc, (0, 0, 0, 0), (0, 0, 0, 0)).end_game()
    result = replay(sc.game(), TENHOU)
    assert rules_of(result) == ["flow.end"]  # two hands are not a game
    assert result.hands[1].label == "E1-1" and result.hands[1].kyotaku == 1
    # the ledger: riichi deposit, noten payments; per hand it moves what the scores moved
    first = [t for t in result.ledger if t.hand == 0]
    assert first[0].reason is Reason.RIICHI_DEPOSIT and first[0].payee is None
    assert net(first, 4) == [2000, -1000, -1000, -1000]


def test_wrong_dealer_honba_and_sticks() -> None:
    sc = Scenario()
    draw_hand(sc, (0, 1, 0, 0), (-1000, 3000, -1000, -1000), riichi=1)
    # the dealer was noten: E2 with dealer seat 1, 1 honba and the stick
    draw_hand(sc, (0, 0, 0, 0), (0, 0, 0, 0), oya=0, kyoku=1, honba=0, kyotaku=0).end_game()
    result = replay(sc.game(), TENHOU)
    found = {v.rule: v.message for v in result.violations}
    assert set(found) == {"flow.dealer", "flow.honba", "flow.sticks", "flow.end"}
    assert "the next hand is E2 with dealer seat 1" in found["flow.dealer"]
    assert "starts with 0 honba" in found["flow.honba"] and "it has 1" in found["flow.honba"]
    assert "1 were left" in found["flow.sticks"]


def test_a_game_played_past_its_end() -> None:
    sc = Scenario()
    draw_hand(sc, (1, 0, 0, 0), (3000, -1000, -1000, -1000), oya=3, kyoku=4)
    sc.start(HANDS, dora="9m", bakaze="S", oya=3, kyoku=4, honba=0)
    sc.draw(3).discard(3, "3m").ryukyoku(DrawReason.KYUUSHU_KYUUHAI).end_kyoku().end_game()
    result = replay(sc.game(), TENHOU.replace(hanchan=False))
    # E4 ended with the dealer noten in an East-only game and nobody at 30000: South goes
    # on, so the S4 start is a wrong round; then the game ends after an abortive draw
    rules = rules_of(result)
    assert "flow.dealer" in rules and "flow.end" in rules


# -- final points ----------------------------------------------------------------------

@pytest.mark.parametrize(("scores", "points", "rounding"), [
    ((25500, 20700, 32500, 21300), (6.0, -29.0, 42.0, -19.0), "tenhou"),
    ((66200, 5200, 33100, -4500), (77.0, -35.0, 13.0, -55.0), "tenhou"),
    ((16300, 22100, 31300, 30300), (-34.0, -18.0, 42.0, 10.0), "tenhou"),
    ((35700, 17800, 24200, 22300), (45.7, -32.2, 4.2, -17.7), "tenhou_tenths"),
    ((25000, 25000, 25000, 25000), (35.0, 5.0, -15.0, -25.0), "tenhou"),
])
def test_tenhou_final_points(scores: tuple[int, ...], points: tuple[float, ...],
                             rounding: str) -> None:
    """Values from the owari attributes of the corpus's logs (the last one: ties go to
    the earlier seat)."""
    assert final_result(scores, 0, rules=TENHOU, rounding=rounding).points == points


def test_leftover_sticks_go_to_the_top_before_the_points() -> None:
    got = final_result((29000, 25000, 24000, 20000), 2, rules=TENHOU)
    assert got.scores == (31000, 25000, 24000, 20000) and got.ranks == (0, 1, 2, 3)
    assert got.points == (41.0, 5.0, -16.0, -30.0)
    uma = [t for t in got.transfers if t.reason is Reason.UMA]
    oka = [t for t in got.transfers if t.reason is Reason.OKA]
    assert net(uma, 4) == [20000, 10000, -10000, -20000]
    assert net(oka, 4) == [15000, -5000, -5000, -5000]


def test_ema_splits_uma_between_tied_players() -> None:
    got = final_result((35000, 35000, 25000, 25000), 0, rules=EMA)
    assert got.points == (15.0, 15.0, -15.0, -15.0)


def test_final_points_claimed_wrongly() -> None:
    sc = Scenario()
    draw_hand(sc, (1, 0, 0, 0), (3000, -1000, -1000, -1000))
    sc.end_game(points=(44.0, 4.0, -16.0, -32.0))
    result = replay(sc.game(), TENHOU, enabled=lambda r: r != "flow.end")
    assert rules_of(result) == ["score.final"]
    # seats 1-3 tie at 24000: the earlier seat ranks higher
    assert "[38.0, 4.0, -16.0, -26.0]" in result.violations[0].message
    right = Scenario()
    draw_hand(right, (1, 0, 0, 0), (3000, -1000, -1000, -1000))
    right.end_game(points=(38.0, 4.0, -16.0, -26.0))
    assert replay(right.game(), TENHOU, enabled=lambda r: r != "flow.end").violations == []
