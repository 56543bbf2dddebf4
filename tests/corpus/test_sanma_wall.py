"""A three-player Tenhou game against its shuffle seed, through the audit: the 108-tile
wall deals, draws and (after each kita) replaces as the seed says, and an edited tile is
found."""

from __future__ import annotations

import dataclasses
from collections import Counter
from pathlib import Path

import pytest

from kansa.cli import main
from kansa.parsers import load
from kansa.replay.engine import replay
from kansa.replay.events import Dahai, Event, Nukidora, StartKyoku, Tsumo
from kansa.replay.game import Game
from kansa.replay.result import ReplayResult
from kansa.replay.tiles import Tile
from kansa.runner import rules_for

pytestmark = pytest.mark.corpus


@pytest.fixture
def sanma(corpus_dir: Path) -> Game:
    path = corpus_dir / "tenhou_xml" / "dnovikoff__tenhou" / "sanma2.xml"
    if not path.is_file():
        pytest.skip("sanma2.xml not in the corpus")
    (game,) = load(path)
    assert game.hints.players == 3 and game.wall_seed is not None
    return game


def audit(game: Game) -> ReplayResult:
    return replay(game, rules_for(game, "auto"))


def _hand_of(events: tuple[Event, ...], index: int) -> int:
    return sum(1 for e in events[:index] if isinstance(e, StartKyoku)) - 1


def _rare_tile(events: tuple[Event, ...], hand: int, avoid: Tile) -> Tile:
    """A kind of the three-player set seen least in ``hand`` (no fifth copy from it)."""
    seen: Counter[int] = Counter()
    current = -1
    for e in events:
        if isinstance(e, StartKyoku):
            current += 1
            if current == hand:
                seen.update(t.index for h in e.tehais for t in h if t is not None)
                seen[e.dora_marker.index] += 1
        elif current == hand and isinstance(e, Tsumo) and e.tile is not None:
            seen[e.tile.index] += 1
    kinds = [Tile.from_index(i) for i in (0, *range(8, 34)) if i != avoid.index]
    return min(kinds, key=lambda t: (seen[t.index], t.index))


def _edit_tsumogiri(game: Game, after_kita: bool) -> tuple[Game, int]:
    """The game with one draw discarded straight away (a kita's replacement draw, or a
    live draw) changed to another tile, and the hand it is in."""
    ev = game.events
    for i in range(1, len(ev) - 1):
        draw, discard = ev[i], ev[i + 1]
        if not (isinstance(draw, Tsumo) and isinstance(discard, Dahai)
                and discard.tsumogiri and draw.tile is not None):
            continue
        if isinstance(ev[i - 1], Nukidora) != after_kita:
            continue
        hand = _hand_of(ev, i)
        other = _rare_tile(ev, hand, draw.tile)
        events = list(ev)
        events[i] = dataclasses.replace(draw, tile=other)
        events[i + 1] = dataclasses.replace(discard, tile=other)
        return dataclasses.replace(game, events=tuple(events)), hand
    raise AssertionError("no such draw in the game")


def test_every_hand_of_a_three_player_game_verifies_against_its_seed(sanma: Game) -> None:
    result = audit(sanma)
    assert [v for v in result.violations if v.rule.startswith("wall.")] == []
    assert [h.wall for h in result.hands] == ["verified"] * len(result.hands)
    assert sum(isinstance(e, Nukidora) for e in sanma.events) >= 10  # replacement draws


@pytest.mark.parametrize(("after_kita", "rule"), [(True, "wall.replacement"),
                                                  (False, "wall.draw")])
def test_an_edited_draw_of_a_three_player_game_is_found(sanma: Game, after_kita: bool,
                                                        rule: str) -> None:
    edited, hand = _edit_tsumogiri(sanma, after_kita)
    result = audit(edited)
    walls = [v for v in result.violations if v.rule.startswith("wall.")]
    assert [v.rule for v in walls] == [rule], walls
    statuses = [h.wall for h in result.hands]
    assert statuses[hand] == "mismatched"
    assert statuses.count("verified") == len(statuses) - 1


def test_kansa_wall_says_why_it_draws_no_three_player_wall(
        sanma: Game, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["wall", sanma.source]) == 1
    assert "a 3-player game: the replay's wall checks compare it" in capsys.readouterr().err
