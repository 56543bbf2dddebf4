"""tenhou.net/6 score texts at a three-player table: what the log's payers pay together."""

from __future__ import annotations

import pytest

from kansa.parsers.tenhou6.result import parse_score, score_text


@pytest.mark.parametrize(("text", "players", "points"), [
    ("30符2飜500-1000点", 3, 1500), ("30符2飜500-1000点", 4, 2000),
    ("満貫4000点∀", 3, 8000), ("満貫4000点∀", 4, 12000), ("満貫12000点", 3, 12000)])
def test_a_tsumo_text_sums_the_payers_at_the_table(text: str, players: int,
                                                   points: int) -> None:
    score = parse_score(text, players)
    assert score is not None and score.points == points
    tsumo = "-" in text or "∀" in text
    written = score_text(fu=score.fu, han=score.han, points=points, limit=score.limit,
                         kazoe=False, tsumo=tsumo, dealer="∀" in text, players=players)
    assert written == text
