"""The wall.* checks on games built from a seed's own wall, then edited."""

from __future__ import annotations

import base64
import dataclasses
import struct

from kansa.replay.engine import replay
from kansa.replay.events import (
    Ankan,
    Dahai,
    Dora,
    DrawReason,
    EndGame,
    EndKyoku,
    Event,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from kansa.replay.game import Game, RuleHints
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.tiles import Seat, Tile
from kansa.replay.violations import Violation
from kansa.replay.wall import BASE64_PREFIX, Wall, game_walls


def _seed(first: int) -> str:
    words = [first, *range(1, 624)]
    return BASE64_PREFIX + base64.b64encode(struct.pack("<624I", *words)).decode()


def _wall(seed: str) -> Wall:
    walls = game_walls(seed)
    assert walls is not None
    return next(walls)


def _tile(wall: Wall, position: int) -> Tile:
    return Tile.from_tenhou_id(wall.at(position), True)


def _start(wall: Wall) -> StartKyoku:
    return StartKyoku(
        bakaze=Tile.EAST, kyoku=1, honba=0, kyotaku=0, oya=Seat(0), scores=(25000,) * 4,
        dora_marker=Tile.from_tenhou_id(wall.dora(0), True),
        tehais=tuple(tuple(Tile.from_tenhou_id(i, True) for i in wall.deal(k))
                     for k in range(4)))


def _draws(wall: Wall, first: int, count: int, seat: int) -> list[Event]:
    """``count`` live draws from live draw ``first`` on, each discarded at once."""
    out: list[Event] = []
    for i in range(first, first + count):
        tile = _tile(wall, wall.live_position(i))
        out += [Tsumo(actor=Seat(seat), tile=tile), Dahai(actor=Seat(seat), tile=tile,
                                                          tsumogiri=True)]
        seat = (seat + 1) % 4
    return out


def _end(draws: int = 70) -> list[Event]:
    reason = DrawReason.EXHAUSTIVE
    return [Ryukyoku(reason=reason, deltas=(0,) * 4, tenpai=(False,) * 4, hands=(None,) * 4),
            EndKyoku(), EndGame()] if draws else [EndKyoku(), EndGame()]


def _game(seed: str | None, events: list[Event], dice: tuple[int, int] | None) -> Game:
    return Game(format="tenhou_xml", source="built.xml", events=tuple(events),
                hints=RuleHints(players=4, aka=True, platform="tenhou"), wall_seed=seed,
                dice=(dice,))


def _run(game: Game) -> tuple[ReplayResult, list[Violation]]:
    result = replay(game, RuleSet.preset("tenhou"))
    return result, [v for v in result.violations if v.rule.startswith("wall.")]


def _plain(seed: str = _seed(1)) -> tuple[Wall, list[Event]]:
    wall = _wall(seed)
    return wall, [_start(wall), *_draws(wall, 0, 70, 0), *_end()]


def test_a_game_of_the_walls_own_tiles_verifies() -> None:
    wall, events = _plain()
    result, found = _run(_game(_seed(1), events, wall.dice))
    assert found == []
    assert [h.wall for h in result.hands] == ["verified"]
    assert result.wall_counts() == {"verified": 1, "mismatched": 0, "partial": 0,
                                    "no_seed": 0}


def test_no_seed_is_no_finding() -> None:
    wall, events = _plain()
    result, found = _run(_game(None, events, wall.dice))
    assert found == [] and [h.wall for h in result.hands] == ["no_seed"]
    result, found = _run(_game(_seed(1).replace(BASE64_PREFIX, "mt19937ar,"), events, None))
    assert found == [] and [h.wall for h in result.hands] == ["no_seed"]


def test_another_seed_is_found_at_the_deal() -> None:
    wall, events = _plain()
    result, found = _run(_game(_seed(2), events, wall.dice))
    assert found[0].rule == "wall.deal"
    assert len(found) == 1  # one finding for the hand, the rest counted in it
    assert "other tiles of this hand differ from the wall too" in found[0].message
    assert [h.wall for h in result.hands] == ["mismatched"]


def test_one_draw_changed() -> None:
    wall, events = _plain()
    i = 1 + 2 * 9  # the tenth live draw: seat 1's third
    draw, discard = events[i], events[i + 1]
    assert isinstance(draw, Tsumo) and isinstance(discard, Dahai)
    other = next(t for t in (Tile.M1, Tile.P9) if t.index != draw.tile.index)  # type: ignore[union-attr]
    events[i] = dataclasses.replace(draw, tile=other)
    events[i + 1] = dataclasses.replace(discard, tile=other)
    _, found = _run(_game(_seed(1), events, wall.dice))
    assert [(v.rule, v.hand, v.seat, v.turn) for v in found] == [("wall.draw", "E1-0", 1, 3)]
    assert found[0].message.startswith(
        f"E1-0 turn 3: seat 1 draws {other.mpsz}, but the wall's next tile (live draw 10 "
        f"of 70) is {draw.tile.mpsz}")  # type: ignore[union-attr]
    assert found[0].event == i


def test_the_dice_and_the_first_indicator() -> None:
    wall, events = _plain()
    thrown = ((wall.dice[0] + 1) % 6, wall.dice[1])
    _, found = _run(_game(_seed(1), events, thrown))
    assert [v.rule for v in found] == ["wall.dice"]
    assert "but the seed throws" in found[0].message
    start = events[0]
    assert isinstance(start, StartKyoku)
    other = Tile.HAKU if start.dora_marker is not Tile.HAKU else Tile.HATSU
    events[0] = dataclasses.replace(start, dora_marker=other)
    _, found = _run(_game(_seed(1), events, wall.dice))
    assert [v.rule for v in found] == ["wall.indicator"]


def test_the_live_walls_end() -> None:
    wall, events = _plain()
    short = [events[0], *_draws(wall, 0, 60, 0), *_end()]
    _, found = _run(_game(_seed(1), short, wall.dice))
    assert [v.rule for v in found] == ["wall.length"]
    assert "exhaustive draw with 10 live tiles still in the wall" in found[0].message
    extra = _tile(wall, 130)
    long = [*events[:-3], Tsumo(actor=Seat(2), tile=extra), *events[-3:]]
    _, found = _run(_game(_seed(1), long, wall.dice))
    assert [v.rule for v in found] == ["wall.length"]
    assert "the wall's live tiles are all drawn" in found[0].message


def _quad_seed() -> tuple[str, Wall, Tile]:
    """A seed whose first hand deals the dealer a kind it can conceal-kan at once."""
    for first in range(1, 5000):
        seed = _seed(first)
        wall = _wall(seed)
        tiles = [_tile(wall, p) for p in [*wall.deal_positions(0), wall.live_position(0)]]
        kinds = [t.index for t in tiles]
        quad = next((k for k in set(kinds) if kinds.count(k) == 4), None)
        if quad is not None:
            return seed, wall, next(t for t in tiles if t.index == quad)
    raise AssertionError("no seed deals a quad")


def _kan_game() -> tuple[str, Wall, list[Event]]:
    seed, wall, tile = _quad_seed()
    start = _start(wall)
    first = _tile(wall, wall.live_position(0))
    held = [*start.tehais[0], first]
    quad = tuple(t for t in held if t.index == tile.index)
    replacement = _tile(wall, wall.replacement_position(0))
    discard = replacement
    events: list[Event] = [
        start, Tsumo(actor=Seat(0), tile=first), Ankan(actor=Seat(0), consumed=quad),
        Dora(dora_marker=Tile.from_tenhou_id(wall.dora(1), True)),
        Tsumo(actor=Seat(0), tile=replacement),
        Dahai(actor=Seat(0), tile=discard, tsumogiri=True),
        *_draws(wall, 1, 68, 1), *_end()]
    return seed, wall, events


def test_a_kan_takes_its_replacement_and_indicator_from_the_dead_wall() -> None:
    seed, wall, events = _kan_game()
    result, found = _run(_game(seed, events, wall.dice))
    assert found == [] and [h.wall for h in result.hands] == ["verified"]
    replacement = events[4]
    assert isinstance(replacement, Tsumo) and replacement.tile is not None
    other = Tile.CHUN if replacement.tile.index != Tile.CHUN.index else Tile.HAKU
    edited = list(events)
    edited[4] = dataclasses.replace(replacement, tile=other)
    edited[5] = Dahai(actor=Seat(0), tile=other, tsumogiri=True)
    _, found = _run(_game(seed, edited, wall.dice))
    assert [v.rule for v in found] == ["wall.replacement"]
    assert "but the wall's replacement tile 1 is" in found[0].message
    dora = events[3]
    assert isinstance(dora, Dora)
    edited = list(events)
    edited[3] = Dora(dora_marker=Tile.CHUN if dora.dora_marker is not Tile.CHUN else Tile.HAKU)
    _, found = _run(_game(seed, edited, wall.dice))
    assert [v.rule for v in found] == ["wall.indicator"]
    assert "kan dora 1: the indicator revealed is" in found[0].message
