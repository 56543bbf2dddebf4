"""Payments and final points judged against the rule set, on games built from real logs.

Each test loads a corpus log, changes its bytes or its parsed events as a tool's writer
might, and audits it: the rule set's own numbers decide, a wrong claim is reported once,
and a writer's slip is a warning, not an accusation.
"""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest

from kansa.parsers import load, load_bytes
from kansa.replay.engine import replay
from kansa.replay.events import Event, Hora, Ryukyoku
from kansa.replay.game import Game
from kansa.replay.payments import final_result
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.tiles import Tile
from kansa.replay.violations import Severity, Violation
from kansa.replay.yaku import Yaku
from kansa.runner import rules_for

pytestmark = pytest.mark.corpus

JADE = "tenhou6/kbkn3__MahjongSoul-review-supporter/2025_1_1_Jade_Room_South.json"
HOUOU = "tenhou_xml/mjx-project__mjx/2010081709gm-00a9-0000-fe3371ad.mjlog"


def audit(game: Game, rules: RuleSet | None = None) -> ReplayResult:
    return replay(game, rules or rules_for(game, "auto"))


def found(result: ReplayResult, rule: str) -> list[Violation]:
    return [v for v in result.violations if v.rule == rule]


def with_event(game: Game, index: int, event: Event) -> Game:
    events = list(game.events)
    events[index] = event
    return dataclasses.replace(game, events=tuple(events))


# -- Mahjong Soul final points ------------------------------------------------------------

def _jade(corpus_dir: Path) -> tuple[dict[str, object], bytes]:
    data = (corpus_dir / JADE).read_bytes()
    return json.loads(data), data


def test_mahjong_soul_final_points_follow_its_own_formula(corpus_dir: Path) -> None:
    doc, data = _jade(corpus_dir)
    assert doc["sc"] == [7200, -32.8, 52400, 42.4, 15500, -14.5, 24900, 4.9]
    (game,) = load_bytes(data, JADE)
    result = audit(game)
    assert result.rules == "majsoul"
    assert not found(result, "score.final")
    assert not [v for v in result.violations if v.severity is Severity.ERROR]


def test_tampered_mahjong_soul_final_points_are_still_an_error(corpus_dir: Path) -> None:
    doc, _ = _jade(corpus_dir)
    sc = list(doc["sc"])  # type: ignore[call-overload]
    sc[3], sc[1] = 62.4, -42.8  # what Tenhou's return 30,000 and uma 20/10 would give
    doc["sc"] = sc
    (game,) = load_bytes(json.dumps(doc, ensure_ascii=False).encode(), JADE)
    (final,) = found(audit(game), "score.final")
    assert final.severity is Severity.ERROR
    assert "return 25000" in final.message and "-32.8" in final.message


def test_mahjong_soul_ties_go_to_the_earlier_seat() -> None:
    got = final_result([30000, 20000, 30000, 20000], 0, rules=RuleSet.preset("majsoul"))
    assert got.points == (20.0, -10.0, 10.0, -20.0)
    assert got.ranks == (0, 2, 1, 3)


def test_the_game_end_target_is_not_the_return_score(corpus_dir: Path) -> None:
    """The Jade game ends after South 4 with a top of 52,400: a target above that would
    have sent it to the West round; a return score above it changes the points only."""
    _, data = _jade(corpus_dir)
    (game,) = load_bytes(data, JADE)
    base = rules_for(game, "auto")
    assert (base.return_score, base.target_score) == (25000, 30000)
    assert not found(audit(game, base.replace(return_score=60000)), "flow.end")
    assert found(audit(game, base.replace(target_score=60000)), "flow.end")
    toml = RuleSet.from_mapping({"base": "majsoul", "target_score": 40000})
    assert toml.to_mapping()["target_score"] == 40000 and toml.return_score == 25000


# -- a win's payments against the rule set's value ----------------------------------------

def _houou(corpus_dir: Path) -> tuple[Game, int, Hora]:
    (game,) = load(str(corpus_dir / HOUOU))
    index = 141
    win = game.events[index]
    assert isinstance(win, Hora) and win.points == 7700
    assert win.deltas == (0, 8700, -7700, 0)
    return game, index, win


def test_a_raised_claim_with_right_payments_is_one_value_error(corpus_dir: Path) -> None:
    game, i, win = _houou(corpus_dir)
    result = audit(with_event(game, i, dataclasses.replace(win, points=8000)))
    (value,) = found(result, "score.value")
    assert value.severity is Severity.ERROR and "8000" in value.message
    assert not found(result, "score.payment")


def test_payments_that_follow_the_raised_claim_are_the_claims_finding(
        corpus_dir: Path) -> None:
    game, i, win = _houou(corpus_dir)
    raised = dataclasses.replace(win, points=8000, deltas=(0, 9000, -8000, 0))
    result = audit(with_event(game, i, raised))
    assert len(found(result, "score.value")) == 1
    assert not found(result, "score.payment")


def test_wrong_payments_name_the_rule_sets_value(corpus_dir: Path) -> None:
    game, i, win = _houou(corpus_dir)
    result = audit(with_event(game, i, dataclasses.replace(win, deltas=(0, 9700, -8700, 0))))
    (pay,) = found(result, "score.payment")
    assert "moves [0, 9700, -8700, 0]" in pay.message
    assert "it moves [0, 8700, -7700, 0]" in pay.message and "claimed" not in pay.message
    assert not found(result, "score.value")


def test_payments_matching_neither_name_both(corpus_dir: Path) -> None:
    game, i, win = _houou(corpus_dir)
    both_wrong = dataclasses.replace(win, points=8000, deltas=(0, 9700, -8700, 0))
    result = audit(with_event(game, i, both_wrong))
    (pay,) = found(result, "score.payment")
    assert "neither what the rule set's value gives under tenhou, [0, 8700, -7700, 0]" \
        in pay.message
    assert "nor what the log's own claimed value gives, [0, 9000, -8000, 0]" in pay.message
    assert len(found(result, "score.value")) == 1


def test_the_ledger_follows_the_payments_the_log_made(corpus_dir: Path) -> None:
    game, i, win = _houou(corpus_dir)
    raised = dataclasses.replace(win, points=8000, deltas=(0, 9000, -8000, 0))
    result = audit(with_event(game, i, raised))
    moved = [t for t in result.ledger if t.event == i]
    assert sum(t.amount for t in moved if t.payer == 2) == 8000
    assert not [t for t in moved if t.reason.value == "adjustment"]


# -- yaku names ---------------------------------------------------------------------------

def test_a_renamed_yaku_is_a_warning(corpus_dir: Path) -> None:
    game, i, win = _houou(corpus_dir)
    assert win.yaku is not None and (Yaku.SEAT_SOUTH, 1) in win.yaku
    renamed = tuple((Yaku.SEAT_WEST if y is Yaku.SEAT_SOUTH else y, h) for y, h in win.yaku)
    (value,) = found(audit(with_event(game, i, dataclasses.replace(win, yaku=renamed))),
                     "score.value")
    assert value.severity is Severity.WARNING
    assert "naming slip of the log's writer" in value.message
    red = tuple((Yaku.AKA_DORA if y is Yaku.DORA else y, h) for y, h in win.yaku)
    (value,) = found(audit(with_event(game, i, dataclasses.replace(win, yaku=red))),
                     "score.value")
    assert value.severity is Severity.WARNING


def test_a_yaku_with_other_han_is_still_an_error(corpus_dir: Path) -> None:
    game, i, win = _houou(corpus_dir)
    assert win.yaku is not None
    changed = tuple((Yaku.CHINITSU, 5) if y is Yaku.HONITSU else (y, h) for y, h in win.yaku)
    (value,) = found(audit(with_event(game, i, dataclasses.replace(win, yaku=changed))),
                     "score.value")
    assert value.severity is Severity.ERROR and "naming slip" not in value.message
    more = tuple((y, h + 1 if y is Yaku.DORA else h) for y, h in win.yaku)
    (value,) = found(audit(with_event(game, i, dataclasses.replace(win, yaku=more))),
                     "score.value")
    assert value.severity is Severity.ERROR


# -- tenpai hands at a draw ---------------------------------------------------------------

DRAW_AT = 292  # seat 1 in riichi and tenpai; seats 1 and 2 paid as tenpai


def _draw(corpus_dir: Path) -> tuple[Game, Ryukyoku]:
    (game,) = load(str(corpus_dir / HOUOU))
    draw = game.events[DRAW_AT]
    assert isinstance(draw, Ryukyoku) and draw.tenpai == (False, True, True, False)
    assert draw.deltas == (-1500, 1500, 1500, -1500) and draw.hands is not None
    return game, draw


def _blank(draw: Ryukyoku, seat: int, hand: tuple[Tile, ...] | None) -> Ryukyoku:
    assert draw.tenpai is not None and draw.hands is not None
    tenpai = tuple(False if s == seat else t for s, t in enumerate(draw.tenpai))
    hands = tuple(hand if s == seat else h for s, h in enumerate(draw.hands))
    return dataclasses.replace(draw, tenpai=tenpai, hands=hands)


@pytest.mark.parametrize("hand", [(), None], ids=["empty-list", "left-out"])
def test_a_tenpai_hand_written_blank_is_an_assumption(
        corpus_dir: Path, hand: tuple[Tile, ...] | None) -> None:
    game, draw = _draw(corpus_dir)
    result = audit(with_event(game, DRAW_AT, _blank(draw, 1, hand)))
    assert not found(result, "draw.tenpai-claim") and not found(result, "score.noten")
    (note,) = [v for v in found(result, "log.assumption") if v.hand == "E2-0"]
    assert note.severity is Severity.WARNING and "taken as tenpai" in note.message


def test_a_hand_left_out_of_the_xml_is_an_assumption(corpus_dir: Path) -> None:
    data = (corpus_dir / HOUOU).read_bytes()
    (game,) = load_bytes(data, HOUOU)
    text = data.decode()
    tag = text[text.index("<RYUUKYOKU"):]
    tag = tag[:tag.index(">") + 1]
    assert ' hai1="' in tag
    start = tag.index(' hai1="')
    cut = tag[:start] + tag[tag.index('"', start + 7) + 1:]
    (blank,) = load_bytes(text.replace(tag, cut, 1).encode(), HOUOU)
    assert not found(audit(game), "log.assumption")
    result = audit(blank)
    assert not found(result, "draw.tenpai-claim") and not found(result, "score.noten")
    assert len(found(result, "log.assumption")) == 1


def test_a_blank_hand_the_payments_call_noten_is_still_an_error(corpus_dir: Path) -> None:
    game, draw = _draw(corpus_dir)
    blank = dataclasses.replace(_blank(draw, 1, ()), deltas=(-1000, -1000, 3000, -1000))
    result = audit(with_event(game, DRAW_AT, blank))
    assert [v.severity for v in found(result, "draw.tenpai-claim")] == [Severity.ERROR]
    assert not [v for v in found(result, "log.assumption") if v.hand == "E2-0"]


def test_a_blank_hand_the_replay_finds_noten_is_still_an_error(corpus_dir: Path) -> None:
    game, draw = _draw(corpus_dir)
    paid = dataclasses.replace(_blank(draw, 0, ()), deltas=(1000, 1000, 1000, -3000))
    result = audit(with_event(game, DRAW_AT, paid))
    assert [v.severity for v in found(result, "score.noten")] == [Severity.ERROR]
    assert not [v for v in found(result, "log.assumption") if v.hand == "E2-0"]
