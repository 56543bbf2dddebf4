"""The self-play simulator: complete games that kansa replays without a single finding.

A simulated game is valued and paid by kansa's own scoring and payment modules but
played on the simulator's own table (wall, furiten, riichi, kans, flow of the game),
so a clean replay checks both: any finding is a bug in one of them.
"""

from __future__ import annotations

import doctest
import importlib
import importlib.util
import random
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from kansa.parsers import load
from kansa.parsers.mjai import read as mjai
from kansa.parsers.tenhou6 import format as tenhou6
from kansa.replay.engine import replay
from kansa.replay.events import DrawReason, EndGame, EndKyoku, Event, Hora, Ryukyoku, StartKyoku
from kansa.replay.game import Game
from kansa.replay.payments import noten_payments
from kansa.replay.rules import RuleSet
from kansa.replay.tiles import Seat, Tile
from kansa.sim.hand import HandTable
from kansa.sim.table import FORMAT, simulate, summary

ROOT = Path(__file__).resolve().parents[2]
TENHOU_SEEDS = range(200)
EMA_SEEDS = range(12)


@cache
def _game(seed: int, rules: str = "tenhou") -> Game:
    return simulate(seed, rules)


def _findings(seed: int, rules: str) -> list[str]:
    game = _game(seed, rules)
    result = replay(game, RuleSet.preset(rules))
    assert result.complete
    assert result.wins_valued == sum(isinstance(e, Hora) for e in game.events)
    return [f"seed {seed} {v.hand} event {v.event}: [{v.rule}] {v.message}"
            for v in result.violations]


def test_two_hundred_tenhou_games_replay_without_a_finding() -> None:
    found = [f for seed in TENHOU_SEEDS for f in _findings(seed, "tenhou")]
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize("seed", EMA_SEEDS)
def test_ema_games_replay_without_a_finding(seed: int) -> None:
    assert _findings(seed, "ema") == []


def test_the_same_seed_gives_the_same_game() -> None:
    a, b = simulate(11), simulate(11)
    assert a.events == b.events and a.log_id == b.log_id
    assert simulate(12).events != a.events
    assert simulate(11, "ema").events != a.events


def test_a_game_names_its_rules_and_ends_with_scores_and_points() -> None:
    for rules in ("tenhou", "ema"):
        game = simulate(5, rules)
        assert game.format == FORMAT
        assert RuleSet.auto(game.hints) == RuleSet.preset(rules)
        end = game.events[-1]
        assert isinstance(end, EndGame) and end.scores is not None and end.points is not None
        preset = RuleSet.preset(rules)
        assert sum(end.scores) == 4 * preset.start_score
        assert abs(sum(end.points)) < 1e-6
        starts = [e for e in game.events if isinstance(e, StartKyoku)]
        assert starts[0].scores == (preset.start_score,) * 4
        assert sum(isinstance(e, EndKyoku) for e in game.events) == len(starts)
        assert all(len(h) == 13 for s in starts for h in s.tehais)
        reds = any(t.is_red for s in starts for h in s.tehais for t in h if t is not None)
        assert reds == preset.aka


def test_the_games_show_what_a_table_shows() -> None:
    """Over the seeds the test replays: riichi, calls, kans, both kinds of win, double
    ron, exhaustive and abortive draws, a West round or a bankruptcy, many yaku."""
    total: Counter[str] = Counter()
    yaku: Counter[str] = Counter()
    extended = busted = 0
    for seed in TENHOU_SEEDS:
        game = _game(seed)
        s = summary(game)
        total.update(riichi=s.riichi, calls=s.calls, kans=s.kans, tsumo=s.tsumo, ron=s.ron,
                     multi_ron=s.multi_ron)
        total.update(s.draws)
        yaku.update(s.yaku)
        starts = [e for e in game.events if isinstance(e, StartKyoku)]
        extended += any(e.bakaze.mjai == "W" for e in starts)
        end = game.events[-1]
        assert isinstance(end, EndGame) and end.scores is not None
        busted += min(end.scores) < 0
    for key in ("riichi", "calls", "kans", "tsumo", "ron", "multi_ron", "exhaustive",
                "kyuushu_kyuuhai", "suucha_riichi"):
        assert total[key] > 0, key
    assert extended and busted
    assert len(yaku) >= 25, yaku
    assert {"riichi", "ippatsu", "pinfu", "tanyao", "chiitoitsu", "haku", "rinshan",
            "haitei", "houtei"} <= set(yaku)


@pytest.mark.parametrize("seed", [0, 3])
def test_simulated_games_round_trip_through_mjai_and_tenhou6(seed: int) -> None:
    game = simulate(seed)
    for mod in (mjai, tenhou6):
        (back,) = mod.parse(mod.write(game).encode(), f"sim.{mod.__name__}")
        assert back.events == game.events, mod.__name__
        assert back.hints == game.hints and back.players == game.players
        result = replay(back, RuleSet.auto(back.hints))
        assert result.violations == [] and result.rules == "tenhou"


def test_an_ema_game_round_trips_through_mjai() -> None:
    game = simulate(4, "ema")
    (back,) = mjai.parse(mjai.write(game).encode(), "sim.mjson")
    assert back.events == game.events
    assert replay(back, RuleSet.auto(back.hints)).violations == []


def test_draws_record_tenpai_and_shown_hands() -> None:
    seen = 0
    for seed in range(20):
        for ev in _game(seed).events:
            if isinstance(ev, Ryukyoku) and not ev.reason.is_abortive:
                assert ev.tenpai is not None and ev.hands is not None and ev.deltas is not None
                assert [h is not None for h in ev.hands] == list(ev.tenpai)
                seen += 1
    assert seen


def test_a_table_of_neither_three_nor_four_is_refused() -> None:
    with pytest.raises(ValueError, match="three- and four-player"):
        simulate(1, RuleSet.preset("tenhou").replace(players=2))


def test_bench_generate_writes_reproducible_games(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_generate", ROOT / "bench" /
                                                  "generate.py")
    assert spec is not None and spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    assert generate.main(["--games", "2", "--seed", "5", "--to", "mjai", "--out",
                          str(tmp_path), "--verify"]) == 0
    assert "0 findings when replayed" in capsys.readouterr().out
    files = sorted(tmp_path.iterdir())
    assert [f.name for f in files] == ["tenhou-000005.mjson", "tenhou-000006.mjson"]
    (game,) = load(files[0])
    assert game.events == _game(5).events


@pytest.mark.parametrize("name", ["kansa.sim.table", "kansa.sim.samples"])
def test_docstring_examples(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.attempted > 0 and result.failed == 0


@pytest.mark.parametrize("rules", ["tenhou", "ema"])
def test_nagashi_mangan_replaces_noten_payments_where_the_rules_have_it(rules: str) -> None:
    # too rare for the bots to play into (no case in thousands of seeds): the draw itself
    rs = RuleSet.preset(rules)
    events: list[Event] = []
    table = HandTable(rs, random.Random(3), events, bakaze=Tile.EAST, kyoku=1, oya=Seat(0),
                      honba=1, kyotaku=1, scores=[rs.start_score] * 4)
    table.deal()
    table.players[2].river = [Tile.EAST, Tile.M9, Tile.HAKU]
    table.players[1].river = [Tile.NORTH, Tile.P5]
    table.players[3].river = [Tile.S1]
    table.players[3].river_called = True
    result = table.exhaustive_draw()
    draw = events[-1]
    assert isinstance(draw, Ryukyoku) and draw.tenpai is not None
    if rs.nagashi:
        assert draw.reason is DrawReason.NAGASHI_MANGAN
        assert draw.deltas == (-4000, -2000, 8000, -2000)
    else:
        assert draw.reason is DrawReason.EXHAUSTIVE
        assert draw.deltas == noten_payments(draw.tenpai, rules=rs).deltas
    assert result.kyotaku == 1 and result.dealer_tenpai == draw.tenpai[0]
    assert result.scores == [rs.start_score + d for d in draw.deltas]
