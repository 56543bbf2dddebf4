"""The runner audits three- and four-player games, and no other table size."""

from __future__ import annotations

from dataclasses import replace

import pytest

from kansa.runner import replay_games
from kansa.sim.scenario import Scenario

HANDS = ["19m19p19s123567z9m", "123p456p789p234s1s", "11m99m22p88p33s77s1z"]


@pytest.mark.parametrize(("players", "audited"), [(3, True), (2, False), (5, False)])
def test_the_runner_audits_three_and_four_player_games_only(players: int,
                                                            audited: bool) -> None:
    sc = Scenario(("A", "B", "C"), start_score=35000).start(HANDS, dora="5z")
    g = sc.ryukyoku().end_kyoku().end_game().game()
    g = replace(g, hints=replace(g.hints, players=players))
    out = replay_games([g], "<crafted>").outcome()
    if audited:  # a hand cut short: findings, but audited
        assert out.status in ("clean", "findings") and len(out.games) == 1
        assert out.games[0]["rules"] == "tenhou-sanma"
    else:
        assert out.status == "unsupported" and out.games == []
        assert out.error is not None and f"{players}-player game" in out.error.message
