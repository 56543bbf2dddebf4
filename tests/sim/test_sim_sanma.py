"""Three-player self-play: 108 tiles, no chi, kita, three dealers a wind, under both
three-player presets, replayed by kansa without a finding.

The four-player games are the same code at a table of four (``test_simulate.py``
holds them to that); here the table of three.
"""

from __future__ import annotations

import importlib.util
from collections import Counter
from functools import cache
from pathlib import Path

import pytest

from kansa.parsers import load
from kansa.parsers.mjai import read as mjai
from kansa.parsers.tenhou6 import format as tenhou6
from kansa.replay.engine import replay
from kansa.replay.events import Chi, EndGame, Hora, Nukidora, StartKyoku, Tsumo
from kansa.replay.game import Game
from kansa.replay.tiles import Tile
from kansa.replay.yaku import Yaku
from kansa.sim.players import full_set, table_shape
from kansa.sim.table import rule_set, simulate, summary

SANMA = ("tenhou-sanma", "majsoul-sanma")
SEEDS = range(200)
@cache
def _game(seed: int, rules: str) -> Game:
    return simulate(seed, rules)


def _findings(seed: int, rules: str) -> list[str]:
    game = _game(seed, rules)
    result = replay(game, rule_set(rules))
    assert result.complete
    assert result.wins_valued == sum(isinstance(e, Hora) for e in game.events)
    return [f"seed {seed} {v.hand} event {v.event}: [{v.rule}] {v.message}"
            for v in result.violations]


@pytest.mark.parametrize("rules", SANMA)
def test_two_hundred_three_player_games_replay_without_a_finding(rules: str) -> None:
    found = [f for seed in SEEDS for f in _findings(seed, rules)]
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize("rules", SANMA)
def test_the_same_seed_gives_the_same_three_player_game(rules: str) -> None:
    a, b = simulate(41, rules), simulate(41, rules)
    assert a.events == b.events and a.log_id == b.log_id
    assert simulate(42, rules).events != a.events


def test_the_two_presets_play_different_games_from_one_seed() -> None:
    tenhou, majsoul = (simulate(9, r) for r in SANMA)
    assert tenhou.log_id != majsoul.log_id
    assert tenhou.hints.platform == "tenhou" and majsoul.hints.platform == "majsoul"


def test_the_set_has_108_tiles_without_2m_to_8m() -> None:
    rs = rule_set("tenhou-sanma")
    tiles = full_set(rs)
    assert len(tiles) == 108
    assert not any(Tile.M2.index <= t.index <= Tile.M8.index for t in tiles)
    assert sorted(t for t in tiles if t.is_red) == [Tile.P5R, Tile.S5R]
    shape = table_shape(rs)
    assert not shape.chi and shape.kita is Tile.NORTH
    four = table_shape(rule_set("tenhou"))
    assert four.chi and four.kita is None and len(full_set(rule_set("tenhou"))) == 136


@pytest.mark.parametrize("rules", SANMA)
def test_a_three_player_game_has_three_seats_three_dealers_a_wind_and_kita(
        rules: str) -> None:
    rs = rule_set(rules)
    kita = chi = 0
    labels: set[str] = set()
    for seed in range(30):
        game = _game(seed, rules)
        assert len(game.players) == 3 and game.hints.players == 3
        starts = [e for e in game.events if isinstance(e, StartKyoku)]
        assert starts[0].scores == (rs.start_score,) * 3
        assert all(len(s.tehais) == 3 and s.oya == s.kyoku - 1 for s in starts)
        labels.update(s.label.split("-")[0] for s in starts)
        seen = [t for s in starts for h in s.tehais for t in h if t is not None]
        seen += [e.tile for e in game.events if isinstance(e, Tsumo) and e.tile is not None]
        assert not any(Tile.M2.index <= t.index <= Tile.M8.index for t in seen)
        kita += sum(isinstance(e, Nukidora) for e in game.events)
        chi += sum(isinstance(e, Chi) for e in game.events)
        end = game.events[-1]
        assert isinstance(end, EndGame) and end.scores is not None
        assert len(end.scores) == 3 and sum(end.scores) == 3 * rs.start_score
    assert chi == 0 and kita > 0
    assert {"E1", "E2", "E3", "S1", "S2", "S3"} <= labels and "E4" not in labels
    assert "S4" not in labels


@pytest.mark.parametrize("rules", SANMA)
def test_kita_is_counted_in_the_value_of_its_owners_wins(rules: str) -> None:
    counted = 0
    for seed in range(30):
        game = _game(seed, rules)
        kita: Counter[int] = Counter()
        for ev in game.events:
            if isinstance(ev, StartKyoku):
                kita.clear()
            elif isinstance(ev, Nukidora):
                kita[ev.actor] += 1
            elif isinstance(ev, Hora) and kita[ev.actor]:
                # each kita is one han of dora (named apart as nukidora where the
                # scoring does), and more where an indicator makes North the dora
                dora = sum(h for y, h in ev.yaku or () if y in (Yaku.DORA, Yaku.NUKIDORA))
                assert dora >= kita[ev.actor], ev.yaku
                counted += 1
    assert counted


@pytest.mark.parametrize("rules", SANMA)
def test_three_player_games_round_trip_through_mjai_and_tenhou6(rules: str) -> None:
    game = simulate(3, rules)
    for mod in (mjai, tenhou6):
        (back,) = mod.parse(mod.write(game).encode(), f"sim.{mod.__name__}")
        assert back.events == game.events, mod.__name__
        assert back.hints == game.hints and back.players == game.players


def test_the_three_player_games_show_what_a_table_shows() -> None:
    total: Counter[str] = Counter()
    for seed in range(60):
        s = summary(_game(seed, "tenhou-sanma"))
        total.update(riichi=s.riichi, calls=s.calls, kans=s.kans, tsumo=s.tsumo, ron=s.ron)
        total.update(s.draws)
    for key in ("riichi", "calls", "kans", "tsumo", "ron", "exhaustive"):
        assert total[key] > 0, key


def test_bench_generate_writes_three_player_games(tmp_path: Path) -> None:
    spec = importlib.util.spec_from_file_location(
        "bench_generate", Path(__file__).resolve().parents[2] / "bench" / "generate.py")
    assert spec is not None and spec.loader is not None
    generate = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(generate)
    assert generate.main(["--games", "1", "--seed", "3", "--rules", "majsoul-sanma",
                          "--to", "tenhou6", "--out", str(tmp_path)]) == 0
    (written,) = tmp_path.iterdir()
    assert written.name == "majsoul-sanma-000003.json"
    (game,) = load(written)
    assert game.hints.players == 3 and game.events == _game(3, "majsoul-sanma").events
