"""The replay engine on crafted games: what the state itself must catch."""

from __future__ import annotations

import dataclasses

from kansa.replay.engine import replay as _replay
from kansa.replay.events import DrawReason
from kansa.replay.game import Diagnostic, Game
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.violations import Severity
from kansa.sim.scenario import Scenario

TENHOU = RuleSet.preset("tenhou")


def core(rule: str) -> bool:
    """These games are one or two hands of filler: leave out the value, payment and game
    flow checks (tests/replay/test_scoring.py and tests/replay/test_flow.py cover those)."""
    return not rule.startswith(("score.", "flow.", "win."))


def replay(game: Game, rules: RuleSet) -> ReplayResult:
    return _replay(game, rules, enabled=core)


HANDS = ["123456789m1234p", "147m258p369s1234z", "258m369p147s5677z", "369m147p258s1156z"]


def rules_of(result: object) -> list[str]:
    return [v.rule for v in result.violations]  # type: ignore[attr-defined]


def clean_hand(sc: Scenario) -> Scenario:
    sc.start(HANDS, dora="9p")
    sc.go_around(0, 8)
    sc.ryukyoku(DrawReason.EXHAUSTIVE, tenpai=(False,) * 4).end_kyoku()
    return sc


def test_clean_game_has_no_findings() -> None:
    sc = clean_hand(Scenario())
    sc.end_game()
    result = replay(sc.game(), TENHOU)
    assert result.violations == []
    assert result.complete and len(result.hands) == 1
    hand = result.hands[0]
    assert hand.label == "E1-0" and hand.turns == 2 and hand.result == "exhaustive"


def test_missing_end_is_one_truncation_warning() -> None:
    sc = Scenario().start(HANDS, dora="9p").go_around(0, 3)
    result = replay(sc.game(), TENHOU)
    assert rules_of(result) == ["log.truncated"]
    assert result.violations[0].severity is Severity.WARNING
    assert "mid-hand" in result.violations[0].message


def test_discard_not_in_hand_loses_sync_for_the_rest_of_the_hand_only() -> None:
    sc = Scenario().start(HANDS, dora="9p")
    sc.draw(0, "5s").discard(0, "9s")  # seat 0 holds no 9s
    sc.go_around(1, 5)
    sc.ryukyoku(tenpai=(False,) * 4).end_kyoku()
    clean_hand(sc).end_game()
    result = replay(sc.game(), TENHOU)
    assert rules_of(result) == ["tiles.not-in-hand"]
    v = result.violations[0]
    assert v.severity is Severity.ERROR and v.seat == 0 and v.hand == "E1-0" and v.event == 2
    assert "discards 9s" in v.message and "123456789m1234p5s" in v.message
    assert "(12 events) was not checked" in v.message
    assert result.unchecked == 12 and result.hands[1].unchecked == 0


def test_fifth_copy_is_reported() -> None:
    sc = Scenario().start(HANDS, dora="9p")
    sc.turn(0, "1p", "1p").turn(1, "1p", "1p")  # seat 0 holds one 1p: 1+1+1+... makes five
    sc.turn(2, "1p", "1p").turn(3, "1p", "1p")
    result = replay(sc.game(), TENHOU)
    assert "tiles.conservation" in rules_of(result)
    assert "5 copies of 1p" in next(v.message for v in result.violations
                                    if v.rule == "tiles.conservation")


def test_second_red_five_is_reported() -> None:
    sc = Scenario().start(HANDS, dora="9p")
    sc.turn(0, "0m", "0m").turn(1, "0m", "0m")
    assert "tiles.conservation" in rules_of(replay(sc.game(), TENHOU))


def test_wrong_deal_size() -> None:
    hands = [HANDS[0] + "9p", *HANDS[1:]]
    sc = Scenario().start(hands, dora="8p")
    result = replay(sc.game(), TENHOU)
    assert "tiles.hand-size" in rules_of(result)


def test_scores_must_follow_from_the_last_result() -> None:
    sc = clean_hand(Scenario())
    sc.start(HANDS, dora="9p", scores=(26000, 25000, 25000, 24000))
    sc.go_around(0, 4).ryukyoku(tenpai=(False,) * 4).end_kyoku().end_game()
    result = replay(sc.game(), TENHOU)
    assert rules_of(result) == ["flow.scores"]
    assert "difference [1000, 0, 0, -1000]" in result.violations[0].message


def test_a_readers_warning_is_a_log_assumption_finding() -> None:
    sc = clean_hand(Scenario())
    sc.start(HANDS, dora="9p")
    sc.go_around(0, 4).ryukyoku(tenpai=(False,) * 4).end_kyoku().end_game()
    note = Diagnostic("start_kyoku gives no scores: assumed 25000 each", None, "warning")
    game = dataclasses.replace(sc.game(), diagnostics=(note,))
    result = replay(game, TENHOU)
    assert rules_of(result) == ["log.assumption"]
    assert result.violations[0].severity is Severity.WARNING
    assert result.violations[0].message == note.message
    assert replay(sc.game(), TENHOU).violations == []  # without the reader's warning


def test_riichi_stick_moves_scores_and_leftover_sticks_go_to_top() -> None:
    hands = [HANDS[0], "123m456p789s1122z", *HANDS[2:]]  # seats 0 and 1 end tenpai

    def game(sticks_to_top: bool) -> Scenario:
        sc = Scenario().start(hands, dora="9p")
        sc.draw(0, "1p").riichi(0, "4p")  # 123456789m1123p waits on 1p and 4p
        sc.go_around(1, 3, avoid=["1p", "4p", "1z", "2z"])
        sc.ryukyoku(deltas=(1500, 1500, -1500, -1500), tenpai=(True, True, False, False))
        sc.end_kyoku()
        return sc.end_game(sticks_to_top=sticks_to_top)

    result = replay(game(True).game(), TENHOU)
    assert result.violations == []
    assert result.hands[0].end_scores == (25500, 26500, 23500, 23500)
    assert result.hands[0].riichi[0].accepted
    # seat 1 is top and takes the stick
    assert result.final_scores == (25500, 27500, 23500, 23500)
    wrong = replay(game(False).game(), TENHOU)
    assert rules_of(wrong) == ["flow.scores"]
    assert "seat 1 (top) takes the 1 leftover" in wrong.violations[0].message


def test_call_of_a_tile_that_was_not_discarded() -> None:
    sc = Scenario().start(HANDS, dora="9p")
    sc.turn(0, "5p", "1m")
    sc.chi(1, "13m", tile="2m")
    result = replay(sc.game(), TENHOU)
    assert rules_of(result)[0] == "log.out-of-order"
    assert "last discard is 1m" in result.violations[0].message


def test_draw_out_of_turn() -> None:
    sc = Scenario().start(HANDS, dora="9p")
    sc.turn(0).turn(2)
    result = replay(sc.game(), TENHOU)
    assert rules_of(result)[0] == "log.out-of-order"
    assert "seat 1's turn" in result.violations[0].message


def test_win_applies_deltas() -> None:
    hands = [HANDS[0], "23m456p789s222z11z", *HANDS[2:]]  # 1m completes, South pung
    sc = Scenario().start(hands, dora="9p")
    sc.turn(0, "5p", "1m")
    sc.ron(1, (-1000, 1000, 0, 0)).end_kyoku().end_game()
    result = replay(sc.game(), TENHOU)
    assert result.violations == []
    assert result.hands[0].wins[0].actor == 1 and result.hands[0].result == "ron"
    assert result.final_scores == (24000, 26000, 25000, 25000)
