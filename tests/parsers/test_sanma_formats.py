"""Three-player games across formats: every reader gives the three-player stream (kita
as ``Nukidora``, no 2m-8m), the writers write it back, and the same game written to the
other format audits to the same findings."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from kansa.parsers import load
from kansa.parsers.mjai import read as mjai_read
from kansa.parsers.mjai import write as mjai_write
from kansa.parsers.registry import FORMATS_BY_NAME
from kansa.parsers.tenhou6 import format as tenhou6
from kansa.replay.engine import replay
from kansa.replay.events import Dahai, Hora, Nukidora, StartKyoku, Tsumo
from kansa.replay.game import Game
from kansa.replay.result import ReplayResult
from kansa.replay.tiles import Seat, Tile
from kansa.runner import rules_for
from kansa.sim.scenario import Scenario
from tests.corpus_counts import manifest

WRITERS: dict[str, tuple[Callable[[Game], str], Callable[[bytes, str], list[Game]]]] = {
    "mjai": (mjai_write.write, mjai_read.parse),
    "tenhou6": (tenhou6.write, tenhou6.parse),
}


def three_player_games(corpus: Path) -> list[Game]:
    games = []
    for row in manifest(corpus):
        if row.players == 3:
            games.extend(g for g in load(corpus / row.file) if g.hints.players == 3)
    return games


def verdict(result: ReplayResult) -> list[tuple[str, str, str | None, int | None, str]]:
    return sorted((v.rule, v.severity.value, v.hand, v.seat, v.message)
                  for v in result.violations)


def audit(game: Game) -> ReplayResult:
    return replay(game, rules_for(game, "auto"))


@pytest.mark.corpus
def test_every_three_player_game_reads_as_three_players(corpus_dir: Path) -> None:
    games = three_player_games(corpus_dir)
    assert len(games) == sum(r.games for r in manifest(corpus_dir) if r.players == 3)
    formats = {g.format for g in games}
    assert set(FORMATS_BY_NAME) <= formats  # every format has a three-player game in the corpus
    kitas = 0
    for game in games:
        for ev in game.events:
            tiles = []
            if isinstance(ev, StartKyoku):
                assert len(ev.tehais) == 3, game.source
                tiles = [t for hand in ev.tehais for t in hand if t is not None]
            elif isinstance(ev, Tsumo | Dahai) and ev.tile is not None:
                tiles = [ev.tile]
            elif isinstance(ev, Nukidora):
                kitas += 1
                tiles = [ev.tile]
                assert ev.tile.mpsz == "4z", game.source
            elif isinstance(ev, Hora) and ev.deltas is not None:
                assert len(ev.deltas) == 3, game.source
            assert not [t for t in tiles if t.index in range(1, 8)], game.source
    assert kitas > 0


@pytest.mark.corpus
@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_a_three_player_game_written_to_another_format_has_the_same_verdict(
        corpus_dir: Path, fmt: str) -> None:
    write, parse = WRITERS[fmt]
    compared: set[str] = set()
    for game in three_player_games(corpus_dir):
        if game.format == fmt:
            continue
        text = write(game)
        (again,) = parse(text.encode(), f"written.{fmt}")
        assert again.events == game.events, game.source
        assert again.hints.players == 3
        before, after = audit(game), audit(again)
        assert before.rules == after.rules, game.source
        assert verdict(after) == verdict(before), game.source
        assert not any(v.rule.startswith(("kita.", "tiles.")) for v in before.violations), \
            (game.source, verdict(before))
        compared.add(game.format)
    # the other formats of the corpus's three-player games
    assert compared == set(FORMATS_BY_NAME) - {fmt}


def crafted() -> Game:
    """A three-player hand with a kita after riichi, its replacement draw, and a win on
    the last North set aside."""
    north = Tile.NORTH
    sc = Scenario(("A", "B", "C"), start_score=35000)
    sc.start(["1m9m11p3456p789p44z", "123p456p789p99s55z", "1m9m1p99p11s9s55667z"],
             dora="1z")
    sc.draw(0, "3z").riichi(0, "3z").turn(1, "2z").turn(2, "6z").draw(0, "4z")
    sc.events.append(Nukidora(actor=Seat(0), tile=north))
    sc.draw(0, "7z").discard(0, "7z").turn(1, "2z").turn(2, "7z").draw(0, "4z")
    sc.events.append(Nukidora(actor=Seat(0), tile=north))
    return sc.ron(1, (-8000, 9000, 0), target=0, tile="4z").end_kyoku().end_game().game()


@pytest.mark.parametrize("fmt", sorted(WRITERS))
def test_a_crafted_three_player_game_round_trips(fmt: str) -> None:
    write, parse = WRITERS[fmt]
    game = crafted()
    text = write(game)
    (again,) = parse(text.encode(), f"crafted.{fmt}")
    assert again.events == game.events
    assert sum(isinstance(e, Nukidora) for e in again.events) == 2
    if fmt == "tenhou6":
        kyoku = json.loads(text)["log"][0]
        assert kyoku[6].count(44) + kyoku[6].count("f44") >= 2  # seat 0's discards
