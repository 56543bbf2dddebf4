"""Payments on crafted games: multiple ron, liability, nagashi, noten, under each rule set.

Every game here is one hand; the game-flow checks (a one-hand game ends too early)
are left out, and the expected deltas are written out by hand from the rules.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import pytest

from kansa.replay.engine import replay
from kansa.replay.events import DrawReason, EndGame, Hora, Ryukyoku
from kansa.replay.ledger import Reason, net
from kansa.replay.payments import WinInput, settle_wins
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.tiles import Seat
from kansa.sim.scenario import Scenario

TENHOU = RuleSet.preset("tenhou")
EMA = RuleSet.preset("ema")

# Seat 0 (dealer) holds junk and deals in 3m; seats 1-3 each wait on 3m with a dragon pung
# (1 han 40 fu, 1300 from a non-dealer): seat 1 penchan, seat 2 kanchan, seat 3 tanki.
DEALER = "159m159p159s1234z"
SEAT1 = "12m456p678p88s555z"
SEAT2 = "24m678s789s22s666z"
SEAT3 = "3m234p567p567s777z"
HANDS = [DEALER, SEAT1, SEAT2, SEAT3]


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


def deal_in(*, honba: int = 0, kyotaku: int = 0, riichi: int | None = None) -> Scenario:
    """Three go-arounds (seat ``riichi`` declares in the second: not a double riichi, and
    no ippatsu at the win), then seat 0 discards 3m."""
    sc = Scenario().start(HANDS, dora="9p", honba=honba, kyotaku=kyotaku)
    for k in range(12):
        seat = k % 4
        sc.draw(seat, avoid=["3m"])
        if seat == riichi and 4 <= k < 8:
            sc.riichi(seat)
        else:
            sc.discard(seat)
    return sc.turn(0, "3m", "3m")


def end(sc: Scenario) -> Scenario:
    return sc.end_kyoku().end_game()


# -- double ron ------------------------------------------------------------------------

def double_ron(deltas1: Sequence[int], deltas2: Sequence[int]) -> Scenario:
    """2 honba and a carried stick on the table; seat 2 declares riichi (2600 with hatsu)."""
    sc = deal_in(honba=2, kyotaku=1, riichi=2)
    sc.ron(1, deltas1).ron(2, deltas2)
    return end(sc)


TENHOU_DOUBLE = ((-1900, 3900, 0, 0), (-2600, 0, 2600, 0))
"""Tenhou: the closest winner (seat 1) takes 600 honba and both sticks; seat 2 the value."""
EMA_DOUBLE = ((-1900, 2900, 0, 0), (-3200, 0, 4200, 0))
"""EMA: each winner takes 600 honba; seat 2 takes back its own stick, seat 1 the other."""


def test_double_ron_under_tenhou() -> None:
    result = audit(double_ron(*TENHOU_DOUBLE), TENHOU)
    assert result.violations == []
    assert result.wins_valued == 2 and result.hands_compared == 1
    wins = result.hands[0].wins
    assert [(w.han, w.fu, w.points) for w in wins] == [(1, 40, 1300), (2, 40, 2600)]
    sticks = [t for t in result.ledger if t.reason is Reason.STICKS]
    assert [(t.payee, t.amount) for t in sticks] == [(1, 2000)]
    honba = [t for t in result.ledger if t.reason is Reason.HONBA]
    assert [(t.payer, t.payee, t.amount) for t in honba] == [(0, 1, 600)]


def test_double_ron_under_ema() -> None:
    result = audit(double_ron(*EMA_DOUBLE), EMA)
    assert result.violations == []
    sticks = sorted((t.payee, t.amount) for t in result.ledger if t.reason is Reason.STICKS)
    assert sticks == [(1, 1000), (2, 1000)]


def test_double_ron_paid_the_tenhou_way_is_wrong_under_ema() -> None:
    result = audit(double_ron(*TENHOU_DOUBLE), EMA)
    assert sorted(rules_of(result)) == ["score.payment", "score.sticks", "score.sticks"]
    payment = next(v for v in result.violations if v.rule == "score.payment")
    assert "seat 2's ron on seat 0 moves [-2600, 0, 2600, 0]" in payment.message
    assert "[-3200, 0, 4200, 0]" in payment.message and "honba 600" in payment.message
    # the ledger still reproduces the log's scores, through adjustments
    assert net([t for t in result.ledger if t.hand == 0], 4) == [-4500, 3900, 1600, 0]
    assert any(t.reason is Reason.ADJUSTMENT for t in result.ledger)


def test_double_ron_paid_the_ema_way_is_wrong_under_tenhou() -> None:
    result = audit(double_ron(*EMA_DOUBLE), TENHOU)
    assert sorted(rules_of(result)) == ["score.payment", "score.sticks", "score.sticks"]
    sticks = [v.message for v in result.violations if v.rule == "score.sticks"]
    assert any("seat 1 collects 1000" in m and "it collects 2000" in m for m in sticks)
    assert any("the closest winner takes them all" in m for m in sticks)


# -- triple ron ------------------------------------------------------------------------

def triple_ron(winners: Sequence[int], deltas: Sequence[Sequence[int]]) -> Scenario:
    sc = deal_in(honba=1)
    for seat, d in zip(winners, deltas, strict=True):
        sc.ron(seat, d)
    return end(sc)


CLOSEST_TAKES_HONBA = ((-1600, 1600, 0, 0), (-1300, 0, 1300, 0), (-1300, 0, 0, 1300))
EACH_TAKES_HONBA = ((-1600, 1600, 0, 0), (-1600, 0, 1600, 0), (-1600, 0, 0, 1600))


@pytest.mark.parametrize(("name", "deltas"), [("majsoul", CLOSEST_TAKES_HONBA),
                                              ("ema", EACH_TAKES_HONBA)])
def test_triple_ron_pays_all_three_where_allowed(name: str,
                                                 deltas: Sequence[Sequence[int]]) -> None:
    result = audit(triple_ron((1, 2, 3), deltas), RuleSet.preset(name))
    assert result.violations == []
    assert result.wins_valued == 3
    hand = [t for t in result.ledger if t.hand == 0]
    assert net(hand, 4) == [sum(d[0] for d in deltas), *(d[i + 1] for i, d in
                                                         enumerate(deltas))]


def test_triple_ron_is_an_abortive_draw_under_tenhou() -> None:
    sc = deal_in(honba=1).ryukyoku(DrawReason.SANCHAHOU)
    assert audit(end(sc), TENHOU).violations == []
    result = audit(triple_ron((1, 2, 3), CLOSEST_TAKES_HONBA), TENHOU)
    assert rules_of(result) == ["win.multi-ron"]
    v = result.violations[0]
    assert v.seat == 3 and "3 winners on one discard abort the hand (sanchahou)" in v.message


@pytest.mark.parametrize("name", ["wrc", "mleague"])
def test_head_bump_only_the_closest_wins(name: str) -> None:
    rules = RuleSet.preset(name)
    assert audit(triple_ron((1,), CLOSEST_TAKES_HONBA[:1]), rules).violations == []
    result = audit(triple_ron((1, 2, 3), CLOSEST_TAKES_HONBA), rules)
    assert rules_of(result) == ["win.multi-ron", "win.multi-ron"]
    assert [v.seat for v in result.violations] == [2, 3]
    assert "head bump" in result.violations[0].message


def test_double_ron_under_tenhou_is_fine_but_not_under_head_bump() -> None:
    sc = triple_ron((2, 1), (CLOSEST_TAKES_HONBA[1], CLOSEST_TAKES_HONBA[0]))
    assert audit(sc, TENHOU).violations == []  # log order does not matter: seat 1 is closest
    result = audit(sc, RuleSet.preset("wrc"))
    assert rules_of(result) == ["win.multi-ron"] and result.violations[0].seat == 2


# -- liability -------------------------------------------------------------------------

# Seat 1 holds two of each dragon; seats 0, 2 and 3 feed haku, hatsu and chun in turn.
PAO_HANDS = ["159m159p19s12345z", "55z66z77z234m567p9s", "258m258p258s1346z",
             "369m369p369s2347z"]


def daisangen(*, honba: int = 1) -> Scenario:
    sc = Scenario().start(PAO_HANDS, dora="9p", honba=honba)
    sc.draw(0, avoid=["9s"]).discard(0, "5z").pon(1).discard(1, "7p")
    sc.draw(2, avoid=["9s"]).discard(2, "6z").pon(1).discard(1, "6p")
    sc.turn(2, avoid=["9s"])
    sc.draw(3, avoid=["9s"]).discard(3, "7z").pon(1).discard(1, "5p")  # seat 3 is liable
    return sc


def test_liability_on_tsumo_the_liable_player_pays_everything() -> None:
    sc = daisangen()
    sc.turn(2, avoid=["9s"]).turn(3, avoid=["9s"]).turn(0, avoid=["9s"])
    sc.draw(1, "9s").tsumo(1, (0, 32300, 0, -32300), pao=3)
    result = audit(end(sc), TENHOU)
    assert result.violations == []
    assert result.hands[0].wins[0].liable == 3
    assert [(t.payer, t.amount, t.reason) for t in result.ledger if t.hand == 0] == [
        (3, 32000, Reason.LIABILITY), (3, 300, Reason.HONBA)]


def test_liability_on_tsumo_paid_as_an_ordinary_tsumo_is_reported() -> None:
    sc = daisangen()
    sc.turn(2, avoid=["9s"]).turn(3, avoid=["9s"]).turn(0, avoid=["9s"])
    sc.draw(1, "9s").tsumo(1, (-16100, 32300, -8100, -8100))
    result = audit(end(sc), TENHOU)
    assert rules_of(result) == ["score.pao"]
    assert "seat 3 liable" in result.violations[0].message


def ron_off_third_player(deltas: Sequence[int], pao: int | None = 3) -> Scenario:
    sc = daisangen()
    sc.turn(2, avoid=["9s"]).turn(3, avoid=["9s"])
    sc.draw(0, "9s").discard(0, "9s").ron(1, deltas, pao=pao)
    return end(sc)


def test_liability_on_ron_from_a_third_player_is_split() -> None:
    # Tenhou: half each, the liable player pays the honba
    result = audit(ron_off_third_player((-16000, 32300, 0, -16300)), TENHOU)
    assert result.violations == []
    # EMA: half each, the discarder pays the honba
    assert audit(ron_off_third_player((-16300, 32300, 0, -16000)), EMA).violations == []
    wrong = audit(ron_off_third_player((-16300, 32300, 0, -16000)), TENHOU)
    assert rules_of(wrong) == ["score.pao"]
    assert "[-16000, 32300, 0, -16300]" in wrong.violations[0].message


def test_liable_player_named_wrongly() -> None:
    result = audit(ron_off_third_player((-16000, 32300, 0, -16300), pao=2), TENHOU)
    assert "score.pao" in rules_of(result)
    assert any("the log makes seat 2 liable" in v.message and "finds seat 3 (for daisangen)"
               in v.message for v in result.violations)


# -- draws -----------------------------------------------------------------------------

DRAW_HANDS = ["2345678m234p111z", "2345678p234s999m", "2345678s234m777p", "3456m345p345s888s"]
"""Four tenpai hands (the claims at a draw are judged against the hands)."""


def first_go_around(sc: Scenario) -> Scenario:
    """Everyone draws and discards a simple tile: nobody can have nagashi mangan, and
    every hand stays tenpai."""
    for seat, tile in enumerate(("2m", "2p", "2s", "3m")):
        sc.draw(seat, tile).discard(seat, tile)
    return sc


@pytest.mark.parametrize(("tenpai", "deltas"), [
    ((True, False, False, False), (3000, -1000, -1000, -1000)),
    ((False, True, True, False), (-1500, 1500, 1500, -1500)),
    ((True, True, False, True), (1000, 1000, -3000, 1000)),
    ((True, True, True, True), (0, 0, 0, 0)),
    ((False, False, False, False), (0, 0, 0, 0)),
])
def test_noten_payments(tenpai: tuple[bool, ...], deltas: tuple[int, ...]) -> None:
    sc = first_go_around(Scenario().start(DRAW_HANDS, dora="9m"))
    sc.ryukyoku(DrawReason.EXHAUSTIVE, deltas, tenpai=tenpai)
    result = audit(end(sc), TENHOU)
    assert result.violations == []
    hand = [t for t in result.ledger if t.hand == 0]
    assert net(hand, 4) == list(deltas)
    assert all(t.reason is Reason.NOTEN for t in hand)


def test_noten_payments_wrongly_split() -> None:
    sc = first_go_around(Scenario().start(DRAW_HANDS, dora="9m"))
    sc.ryukyoku(DrawReason.EXHAUSTIVE, (2000, 2000, -2000, -2000), tenpai=(True, True,
                                                                            False, False))
    result = audit(end(sc), TENHOU)
    assert rules_of(result) == ["score.noten"]
    assert "[1500, 1500, -1500, -1500]" in result.violations[0].message
    assert "tenpai: seats 0, 1" in result.violations[0].message


def nagashi_game(deltas: Sequence[int], reason: DrawReason) -> Scenario:
    """The wall runs out; seat 2 only ever discards terminals and honors."""
    sc = Scenario().start(DRAW_HANDS, dora="5m")
    yaochu = ["1m", "9m", "1p", "9p", "1s", "9s", "E", "S", "W", "N", "P", "F", "C"]
    simples = [f"{n}{s}" for s in "mps" for n in range(2, 9)]
    for k in range(70):
        seat = k % 4
        if seat == 2:
            sc.draw(2, avoid=simples).discard(2)
            continue
        try:
            sc.draw(seat, avoid=yaochu)
        except ValueError:
            sc.draw(seat)
        sc.discard(seat)
    sc.ryukyoku(reason, deltas, tenpai=(False,) * 4)
    return end(sc)


def test_nagashi_mangan() -> None:
    paid = (-4000, -2000, 8000, -2000)  # seat 2, not the dealer: a mangan tsumo, no honba
    result = audit(nagashi_game(paid, DrawReason.NAGASHI_MANGAN), TENHOU)
    assert result.violations == []
    assert {t.reason for t in result.ledger if t.hand == 0} == {Reason.NAGASHI}
    # a log that misses it
    missed = audit(nagashi_game((0, 0, 0, 0), DrawReason.EXHAUSTIVE), TENHOU)
    assert rules_of(missed) == ["score.noten"]
    assert "nagashi mangan: seat 2" in missed.violations[0].message
    # EMA has no nagashi mangan
    ema = audit(nagashi_game(paid, DrawReason.NAGASHI_MANGAN), EMA)
    assert rules_of(ema) == ["score.noten"]
    assert "ema has no nagashi mangan" in ema.violations[0].message


def test_abortive_draw_moves_nothing() -> None:
    sc = first_go_around(Scenario().start(DRAW_HANDS, dora="9m"))
    sc.ryukyoku(DrawReason.SUUFON_RENDA, (1000, -1000, 0, 0))
    result = audit(end(sc), TENHOU)
    # the first discards are no winds, which draw.abortive-invalid reports besides
    assert [r for r in rules_of(result) if r != "draw.abortive-invalid"] == ["score.noten"]


# -- deltas the log does not give -------------------------------------------------------

def test_missing_deltas_are_computed_so_the_scores_go_on() -> None:
    sc = deal_in(honba=1)
    sc.ron(1, (0, 0, 0, 0))
    game = sc.end_kyoku().end_game().game()
    events = tuple(replace(e, deltas=None) if isinstance(e, Hora)
                   else replace(e, scores=(23400, 26600, 25000, 25000))
                   if isinstance(e, EndGame) else e for e in game.events)
    result = replay(replace(game, events=events), TENHOU, enabled=no_flow)
    assert result.violations == []
    assert result.hands[0].end_scores == (23400, 26600, 25000, 25000)
    assert result.hands_compared == 0 and result.wins_valued == 1


def test_liability_scope_whole_or_the_yakuman_part() -> None:
    """Daisangen with tsuuiisou (a double yakuman, 64000), seat 3 liable for daisangen."""
    tsumo = WinInput(winner=Seat(1), target=Seat(1), points=64000, liable=Seat(3),
                     liable_points=32000)
    whole = settle_wins([tsumo], dealer=Seat(0), honba=1, sticks=0, rules=TENHOU)[0]
    assert whole.deltas == (0, 64300, 0, -64300)
    part = settle_wins([tsumo], dealer=Seat(0), honba=1, sticks=0,
                       rules=RuleSet.preset("majsoul"))[0]
    # the liable player pays the daisangen part and the honba; the rest is an ordinary tsumo
    assert part.deltas == (-16000, 64300, -8000, -40300)
    ron = replace(tsumo, target=Seat(0))
    assert settle_wins([ron], dealer=Seat(0), honba=1, sticks=0,
                       rules=TENHOU)[0].deltas == (-32000, 64300, 0, -32300)
    assert settle_wins([ron], dealer=Seat(0), honba=1, sticks=0,
                       rules=RuleSet.preset("majsoul"))[0].deltas == (-48000, 64300, 0, -16300)


def test_a_draw_without_deltas_gets_the_computed_ones() -> None:
    sc = first_go_around(Scenario().start(DRAW_HANDS, dora="9m"))
    sc.ryukyoku(DrawReason.EXHAUSTIVE, (3000, -1000, -1000, -1000),
                tenpai=(True, False, False, False))
    game = end(sc).game()
    events = tuple(replace(e, deltas=None) if isinstance(e, Ryukyoku) else e
                   for e in game.events)
    result = replay(replace(game, events=events), TENHOU, enabled=no_flow)
    assert result.violations == []
    assert result.hands[0].end_scores == (28000, 24000, 24000, 24000)
