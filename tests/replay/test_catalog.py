"""Every rule id in the catalog is documented, and a crafted test makes replay report it.

:data:`TRIGGERS` names, for each rule, one test whose crafted log triggers it; the test
below runs those tests with :mod:`tests.rule_recorder`, which records the rule ids that
replay itself reports while each runs, and fails for a rule that no test triggers (a new
rule needs its entry) or whose test no longer reports it.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import kansa.replay.engine  # noqa: F401  (registers every check)
from kansa.buildinfo import which_build
from kansa.replay.violations import RULES

ROOT = Path(__file__).resolve().parents[2]

TRIGGERS: dict[str, str] = {
    "claim.chi-not-from-left": "test_table_checks.py::test_table_rule[chi from across, EMA]",
    "claim.chi-three-player": "test_sanma_checks.py::test_sanma_rule[chi at three players]",
    "claim.in-riichi": "test_table_checks.py::test_table_rule[pon in riichi]",
    "claim.kuikae": "test_table_checks.py::test_table_rule[pon, then the same tile, EMA]",
    "claim.last-tile": "test_table_checks.py::test_table_rule[pon of the last discard]",
    "claim.late": "test_table_checks.py::test_table_rule[pon of an older discard]",
    "claim.meld-shape": "test_table_checks.py::test_table_rule[pon of two kinds]",
    "claim.precedence":
        "test_table_checks.py::test_table_rule[chi, then a pon of the same discard]",
    "draw.abortive-invalid": "test_payments.py::test_abortive_draw_moves_nothing",
    "draw.tenpai-claim": "test_hand_checks.py::test_hand_check[riichi hand not shown [ema]]",
    "flow.dealer": "test_flow.py::test_a_game_played_past_its_end",
    "flow.end": "test_flow.py::test_a_dealer_tenpai_draw_repeats_and_carries_the_stick",
    "flow.honba": "test_flow.py::test_a_game_played_past_its_end",
    "flow.scores": "test_engine.py::test_scores_must_follow_from_the_last_result",
    "flow.sticks": "test_flow.py::test_wrong_dealer_honba_and_sticks",
    "furiten.discard": "test_hand_checks.py::test_hand_check[ron on 3m after discarding 6m [ema]]",
    "furiten.riichi":
        "test_hand_checks.py::test_hand_check[ron in riichi after passing a win [ema]]",
    "furiten.temporary": "test_hand_checks.py::test_hand_check[ron after passing a win [ema]]",
    "kan.after-call": "test_table_checks.py::test_table_rule[kakan right after the pon]",
    "kan.dora": "test_table_checks.py::test_table_rule[an indicator with no kan]",
    "kan.fifth": "test_table_checks.py::test_table_rule[fifth kan, EMA]",
    "kan.four-kan-draw-missed":
        "test_table_checks.py::test_table_rule[four kans by four players, play on, Tenhou]",
    "kan.last-tile": "test_table_checks.py::test_table_rule[ankan after the last draw]",
    "kita.no-replacement": "test_sanma_checks.py::test_sanma_rule[kita after the last tile]",
    "kita.not-north": "test_sanma_checks.py::test_sanma_rule[kita of East]",
    "kita.timing": "test_sanma_checks.py::test_sanma_rule[kita right after a pon]",
    "log.assumption": "test_engine.py::test_a_readers_warning_is_a_log_assumption_finding",
    "log.out-of-order": "test_engine.py::test_draw_out_of_turn",
    "log.truncated": "test_engine.py::test_missing_end_is_one_truncation_warning",
    "riichi.hand-changed":
        "test_hand_checks.py::test_hand_check[riichi then a discard from the hand [ema]]",
    "riichi.kan-changes-wait": "test_hand_checks.py::test_hand_check[okurikan after riichi [ema]]",
    "riichi.not-tenpai": "test_hand_checks.py::test_hand_check[noten riichi [ema]]",
    "riichi.open-hand": "test_hand_checks.py::test_hand_check[riichi after a pon [ema]]",
    "riichi.points": "test_hand_checks.py::test_hand_check[riichi with 900 points [tenhou]]",
    "riichi.twice": "test_hand_checks.py::test_hand_check[riichi declared twice [ema]]",
    "riichi.wall": "test_hand_checks.py::test_hand_check[riichi with 3 tiles left [ema]]",
    "ruleset.mismatch": "test_hand_checks.py::test_hand_check[four winds [ema]]",
    "score.final": "test_flow.py::test_final_points_claimed_wrongly",
    "score.indicators": "test_scoring.py::test_ura_indicators_must_match_the_dora_indicators",
    "score.noten": "test_payments.py::test_nagashi_mangan",
    "score.pao": "test_payments.py::test_liable_player_named_wrongly",
    "score.payment": "test_payments.py::test_double_ron_paid_the_tenhou_way_is_wrong_under_ema",
    "score.sticks": "test_payments.py::test_double_ron_paid_the_ema_way_is_wrong_under_tenhou",
    "score.value": "test_scoring.py::test_kiriage_under_wrc",
    "tiles.conservation": "test_engine.py::test_fifth_copy_is_reported",
    "tiles.hand-size": "test_engine.py::test_wrong_deal_size",
    "tiles.not-in-hand":
        "test_engine.py::test_discard_not_in_hand_loses_sync_for_the_rest_of_the_hand_only",
    "win.incomplete": "test_scoring.py::test_a_hand_that_is_not_complete_has_no_value",
    "win.multi-ron": "test_payments.py::test_head_bump_only_the_closest_wins[wrc]",
    "win.no-yaku": "test_hand_checks.py::test_hand_check[open hand without a yaku [ema]]",
    "wall.deal": "test_wall_checks.py::test_another_seed_is_found_at_the_deal",
    "wall.dice": "test_wall_checks.py::test_the_dice_and_the_first_indicator",
    "wall.draw": "test_wall_checks.py::test_one_draw_changed",
    "wall.indicator": "test_wall_checks.py::test_the_dice_and_the_first_indicator",
    "wall.length": "test_wall_checks.py::test_the_live_walls_end",
    "wall.replacement":
        "test_wall_checks.py::test_a_kan_takes_its_replacement_and_indicator_from_the_dead_wall",
}
"""Rule id: the test (its node id below ``tests/replay/``) in which replay reports it."""


def test_every_rule_has_a_title_description_and_citation() -> None:
    for rule_id, spec in RULES.items():
        assert re.fullmatch(r"[a-z]+\.[a-z0-9-]+", rule_id), rule_id
        assert spec.title and spec.description and spec.citation, rule_id


def test_every_rule_has_a_triggering_test() -> None:
    assert sorted(set(RULES) - set(TRIGGERS)) == [], "add a test that triggers it to TRIGGERS"
    assert sorted(set(TRIGGERS) - set(RULES)) == [], "no such rule in the catalog"


@pytest.mark.skipif(which_build() == "compiled",
                    reason="tests/rule_recorder.py wraps Violation.__init__ and reads its "
                           "caller's frame, which compiled classes and code do not have; the "
                           "pure build's run checks the catalog, the triggering tests run on both")
def test_each_triggering_test_passes_and_replay_reports_its_rule(tmp_path: Path) -> None:
    seen_file = tmp_path / "seen.json"
    nodes = sorted({f"tests/replay/{node}" for node in TRIGGERS.values()})
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "tests.rule_recorder", "-p", "no:cacheprovider",
         "-q", "-o", "addopts=", *nodes],
        cwd=ROOT, env={**os.environ, "KANSA_RULES_SEEN": str(seen_file)},
        capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-3000:]
    seen: dict[str, list[str]] = json.loads(seen_file.read_text(encoding="utf-8"))
    assert sorted(seen) == nodes, "a node id in TRIGGERS names no test"
    silent = {rule: node for rule, node in TRIGGERS.items()
              if rule not in seen[f"tests/replay/{node}"]}
    assert silent == {}
