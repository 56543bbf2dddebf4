"""The replay engine on event sequences no game can produce: it reports, it never raises.

Each case is a hand-built stream in the event vocabulary; the fuzzer in
``tests/parsers/test_fuzz.py`` covers the random ones.
"""

from __future__ import annotations

import dataclasses

import pytest

from kansa.replay.engine import replay
from kansa.replay.events import (
    Chi,
    Dahai,
    EndGame,
    Event,
    Hora,
    Kakan,
    Pon,
    Reach,
    ReachAccepted,
    StartKyoku,
    Tsumo,
)
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.tiles import Seat, Tile
from kansa.sim.scenario import Scenario

TENHOU = RuleSet.preset("tenhou")
HANDS = ["123456789m1234p", "147m258p369s1234z", "258m369p147s5677z", "369m147p258s1156z"]


def lost(result: ReplayResult) -> list[str]:
    """Messages of the desync findings (the state was lost)."""
    return [v.message for v in result.violations if "the state is lost" in v.message]


def with_events(sc: Scenario, *extra: Event, at: int | None = None) -> ReplayResult:
    game = sc.game()
    events = list(game.events)
    pos = len(events) if at is None else at
    events[pos:pos] = extra
    return replay(dataclasses.replace(game, events=tuple(events)), TENHOU)


def started() -> Scenario:
    return Scenario().start(HANDS, dora="9p")


def second_hand(sc: Scenario) -> Scenario:
    sc.ryukyoku(tenpai=(False,) * 4).end_kyoku()
    sc.start(HANDS, dora="9p").go_around(0, 4)
    sc.ryukyoku(tenpai=(False,) * 4).end_kyoku().end_game()
    return sc


@pytest.mark.parametrize("event", [
    Tsumo(actor=Seat(7), tile=Tile.M1),
    Dahai(actor=Seat(4), tile=Tile.M1, tsumogiri=False),
    Dahai(actor=Seat(-1), tile=Tile.M1, tsumogiri=False),
    Reach(actor=Seat(9)),
    ReachAccepted(actor=Seat(5)),
    Pon(actor=Seat(1), target=Seat(6), tile=Tile.M1, consumed=(Tile.M1, Tile.M1)),
    Hora(actor=Seat(0), target=Seat(0), pao=Seat(12)),
])
def test_a_seat_that_does_not_exist_loses_sync_once(event: Event) -> None:
    sc = started().go_around(0, 2)
    result = with_events(second_hand(sc), at=5)
    assert lost(result) == []
    result = with_events(sc, event, at=5)
    messages = lost(result)
    assert len(messages) == 1, result.violations
    assert "seat" in messages[0] and "4-player game has seats 0-3" in messages[0]


def test_seat_out_of_range_mid_game_skips_only_that_hand() -> None:
    sc = started().go_around(0, 2)
    result = with_events(second_hand(sc), Tsumo(actor=Seat(7), tile=Tile.M1), at=5)
    assert len(lost(result)) == 1
    assert result.hands[0].unchecked > 0 and result.hands[1].unchecked == 0
    assert result.complete


def test_call_from_oneself_loses_sync() -> None:
    sc = started().draw(0, "1z").discard(0, "1z")
    result = with_events(sc, Pon(actor=Seat(0), target=Seat(0), tile=Tile.EAST,
                                 consumed=(Tile.EAST, Tile.EAST)))
    assert len(lost(result)) == 1 and "calls pon" in lost(result)[0]


def test_chi_of_a_tile_never_discarded_loses_sync() -> None:
    sc = started().draw(0, "1z").discard(0, "1z")
    result = with_events(sc, Chi(actor=Seat(1), target=Seat(0), tile=Tile.M3,
                                 consumed=(Tile.M1, Tile.M2)))
    assert len(lost(result)) == 1


def test_kakan_without_a_pon_loses_sync() -> None:
    sc = started().draw(0, "1z")
    result = with_events(sc, Kakan(actor=Seat(0), tile=Tile.M1,
                                   consumed=(Tile.M1, Tile.M1, Tile.M1)))
    assert len(lost(result)) == 1 and "pon it does not have" in lost(result)[0]


def test_events_before_the_first_hand_and_after_the_end_are_reported() -> None:
    sc = started().go_around(0, 4)
    sc.ryukyoku(tenpai=(False,) * 4).end_kyoku().end_game()
    result = with_events(sc, Dahai(actor=Seat(0), tile=Tile.M1, tsumogiri=True), at=0)
    found = [v for v in result.violations if v.rule == "log.out-of-order"]
    assert len(found) == 1 and "before the first hand" in found[0].message
    result = with_events(sc, EndGame(), Tsumo(actor=Seat(0), tile=Tile.M1))
    found = [v for v in result.violations if v.rule == "log.out-of-order"]
    assert len(found) == 2 and all("after the end of the game" in v.message for v in found)


def test_a_win_with_no_hand_no_tile_and_no_deltas_is_replayed() -> None:
    sc = started().draw(0, "1z")
    result = with_events(sc, Hora(actor=Seat(0), target=Seat(0)))
    assert lost(result) == [] and result.wins == 1


@pytest.mark.parametrize("change", [
    {"oya": Seat(5)},
    {"scores": (25000, 25000, 25000)},
    {"tehais": ((Tile.M1,) * 13,) * 5},
])
def test_a_hand_start_that_does_not_fit_the_table_loses_sync(change: dict[str, object]) -> None:
    sc = started().go_around(0, 2)
    game = sc.game()
    start = game.events[0]
    assert isinstance(start, StartKyoku)
    events = (dataclasses.replace(start, **change), *game.events[1:])  # type: ignore[arg-type]
    result = replay(dataclasses.replace(game, events=events), TENHOU)
    assert len(lost(result)) == 1 and "-player game" in lost(result)[0]
    assert result.unchecked == len(events) - 1


def test_riichi_scores_of_another_table_size_are_not_adopted() -> None:
    sc = started().draw(0, "1z").discard(0, "1z").draw(1)
    result = with_events(sc, Reach(actor=Seat(1)), ReachAccepted(actor=Seat(1),
                                                                  scores=(1, 2, 3, 4, 5)))
    assert "flow.scores" in [v.rule for v in result.violations]


def test_a_deal_of_thousands_of_tiles_is_one_finding_not_thousands() -> None:
    sc = started().go_around(0, 2)
    game = sc.game()
    start = game.events[0]
    assert isinstance(start, StartKyoku)
    huge = dataclasses.replace(start, tehais=((Tile.M1,) * 5000, *start.tehais[1:]))
    result = replay(dataclasses.replace(game, events=(huge, *game.events[1:])), TENHOU)
    assert len(lost(result)) == 1 and "deals 5000 tiles to one seat" in lost(result)[0]
    assert len(result.violations) == 4  # deal size, one fifth copy, desync, truncated log


def test_a_fifth_copy_is_reported_once_per_kind() -> None:
    sc = started()
    for seat in (0, 1, 2, 3, 0, 1):
        sc.turn(seat, "1p", "1p")
    result = replay(sc.game(), TENHOU)
    assert [v.rule for v in result.violations].count("tiles.conservation") == 1


def test_final_scores_beyond_any_game_are_a_finding_not_an_overflow() -> None:
    sc = started().go_around(0, 4)
    sc.ryukyoku(tenpai=(False,) * 4).end_kyoku().end_game(points=(0.0, 0.0, 0.0, 0.0))
    game = sc.game()
    end = game.events[-1]
    assert isinstance(end, EndGame)
    huge = dataclasses.replace(end, scores=(10**400, 0, 0, -(10**400)))
    result = replay(dataclasses.replace(game, events=(*game.events[:-1], huge)), TENHOU)
    assert any(v.rule == "score.final" and "beyond any game's range" in v.message
               for v in result.violations)


def test_riichi_on_a_hand_of_the_wrong_size_is_judged_without_a_shanten_count() -> None:
    sc = started()  # the dealer draws four times: 17 tiles, then a riichi discard leaves 16
    sc.draw(0, "5z").draw(0, "6z").draw(0, "7z").draw(0, "7z").riichi(0, "1p")
    result = replay(sc.game(), TENHOU)  # (shanten() refuses 16 tiles: this once raised)
    [finding] = [v for v in result.violations if v.rule == "riichi.not-tenpai"]
    assert finding.message.endswith(
        "keeps 123456789m234p5677z: no tile completes it (16 tiles, which no hand holds)")
    assert "tiles.hand-size" in {v.rule for v in result.violations}


def test_replayed_scores_beyond_any_game_are_a_finding_not_an_overflow() -> None:
    sc = started().go_around(0, 4)
    sc.ryukyoku(tenpai=(False,) * 4).end_kyoku().end_game()
    game = sc.game()
    start = game.events[0]
    assert isinstance(start, StartKyoku)
    huge = dataclasses.replace(start, scores=(10**400, 0, 0, 0))
    result = replay(dataclasses.replace(game, events=(huge, *game.events[1:])), TENHOU)
    assert any(v.rule == "score.final" and "replayed scores are beyond any game's range"
               in v.message for v in result.violations)  # (pricing them once overflowed)


def test_final_points_that_are_not_finite_are_a_finding_not_an_overflow() -> None:
    sc = started().go_around(0, 4)
    sc.ryukyoku(tenpai=(False,) * 4).end_kyoku().end_game(points=(0.0, 0.0, 0.0, 0.0))
    game = sc.game()
    end = game.events[-1]
    assert isinstance(end, EndGame)
    for bad in (float("inf"), float("nan")):  # round() of either raises
        odd = dataclasses.replace(end, points=(bad, 0.0, 0.0, 0.0))
        result = replay(dataclasses.replace(game, events=(*game.events[:-1], odd)), TENHOU)
        assert any(v.rule == "score.final" and "beyond any game's range" in v.message
                   for v in result.violations)


def test_a_tenpai_claim_on_a_hand_of_the_wrong_size_is_judged_without_a_shanten_count() -> None:
    sc = started()
    sc.draw(0, "5z").draw(0, "6z").draw(0, "7z").draw(0, "7z").discard(0, "1p")
    sc.ryukyoku(tenpai=(True, False, False, False))
    result = replay(sc.game(), TENHOU)  # (shanten() refuses 16 tiles: this once raised)
    [finding] = [v for v in result.violations if v.rule == "draw.tenpai-claim"]
    assert finding.message.endswith("has no wait (16 tiles, which no hand holds)")
