"""The tenhou.net/6 writer: round trips of every corpus game and of a hand-built game."""

from __future__ import annotations

import dataclasses
import gc
import itertools
import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
from tenhou6_helpers import EQUIM, FILES, ids, load

from kansa.cli import main
from kansa.parsers import load as load_any
from kansa.parsers.canonical import canonical
from kansa.parsers.errors import LogFormatError, LogWriteError, UnsupportedLogError
from kansa.parsers.tenhou6 import format as tenhou6
from kansa.parsers.tenhou6.items import TSUMOGIRI
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from kansa.replay.game import Game, Player, RuleHints
from kansa.replay.tiles import Seat, Tile, parse_tiles
from kansa.replay.yaku import Limit, Yaku
from kansa.sim.table import simulate
from tests.corpus_counts import manifest_games

SAMPLE_GAMES = Path(__file__).resolve().parents[2] / "sample_logs" / "games"


@pytest.mark.corpus
@pytest.mark.parametrize("path", FILES, ids=ids(FILES))
def test_round_trip(corpus_dir: Path, path: Path) -> None:
    for game in load(path):
        text = tenhou6.write(game)
        again = tenhou6.parse(text.encode(), "written.json")
        assert len(again) == 1
        assert again[0].events == game.events
        assert (again[0].hints, again[0].players, again[0].log_id, again[0].title) == (
            game.hints, game.players, game.log_id, game.title)
        assert not again[0].diagnostics


@pytest.mark.corpus
def test_written_json_has_the_viewer_shape(corpus_dir: Path) -> None:
    o = json.loads(tenhou6.write(load(EQUIM / "ranked_game.json")[0]))
    assert set(o) >= {"title", "name", "rule", "log", "ref", "sc"}
    assert len(o["title"]) == 2 and len(o["name"]) == 4
    assert o["rule"]["disp"] == "特南喰赤" and o["rule"]["aka"] == 1
    assert o["sc"] == [21100, -19, 55000, 65, -4900, -55, 28800, 9]
    for kyoku in o["log"]:
        assert len(kyoku) == 17
        assert kyoku[16][0] == "和了"
    assert o["log"][1][16][2][3] == "30符4飜3900点∀"
    original = json.loads((EQUIM / "ranked_game.json").read_text(encoding="utf-8"))
    assert o["log"] == original["log"]  # a Tenhou export comes back the same


def _synthetic() -> Game:
    """A small hand as another format's reader would give it (no sources, no pointers)."""
    tehais = tuple(tuple(parse_tiles(h)) for h in (
        "123m456p789s1122z", "1199m55p1199s334z", "234m234p234s5566z", "678m678p678s6677z"))
    s0, s1, s2, s3 = (Seat(i) for i in range(4))
    events: list[Event] = [
        StartKyoku(bakaze=Tile.EAST, kyoku=1, honba=0, kyotaku=0, oya=s0,
                   scores=(25000,) * 4, dora_marker=Tile.M1, tehais=tehais),
        Tsumo(actor=s0, tile=Tile.M9), Dahai(actor=s0, tile=Tile.M9, tsumogiri=True),
        Pon(actor=s1, target=s0, tile=Tile.M9, consumed=(Tile.M9, Tile.M9)),
        Dahai(actor=s1, tile=Tile.NORTH, tsumogiri=False),
        Tsumo(actor=s2, tile=Tile.P1), Dahai(actor=s2, tile=Tile.P1, tsumogiri=True),
        Tsumo(actor=s3, tile=Tile.P5R), Dahai(actor=s3, tile=Tile.S8, tsumogiri=False),
        Tsumo(actor=s0, tile=Tile.S5), Reach(actor=s0),
        Dahai(actor=s0, tile=Tile.S5, tsumogiri=True), ReachAccepted(actor=s0),
        Tsumo(actor=s1, tile=Tile.M2),
        Dahai(actor=s1, tile=Tile.M2, tsumogiri=True),
        Chi(actor=s2, target=s1, tile=Tile.M2, consumed=(Tile.M3, Tile.M4)),
        Dahai(actor=s2, tile=Tile.HATSU, tsumogiri=False),
        Tsumo(actor=s3, tile=Tile.CHUN),
        Hora(actor=s3, target=s3, tile=Tile.CHUN, deltas=(-2000, -1000, -1000, 5000),
             yaku=((Yaku.MENZEN_TSUMO, 1), (Yaku.CHUN, 1), (Yaku.AKA_DORA, 1)), fu=30, han=3,
             points=4000, limit=Limit.NONE, dora_markers=(Tile.M1,), honba=0),
        EndKyoku(),
        EndGame(scores=(22000, 24000, 24000, 30000), points=(-18.0, 4.0, -6.0, 20.0)),
    ]
    return Game(format="mjai", source="synthetic", events=tuple(events),
                players=tuple(Player(name=n) for n in "ABCD"),
                hints=RuleHints(aka=True, kuitan=True, hanchan=True), title="made up")


def test_round_trip_of_a_synthetic_game() -> None:
    game = _synthetic()
    text = tenhou6.write(game)
    back = tenhou6.parse(text.encode(), "synthetic.json")[0]
    assert back.events == game.events
    assert back.title == "made up" and [p.name for p in back.players] == list("ABCD")
    o = json.loads(text)
    assert o["rule"]["disp"] == "南喰赤"
    kyoku = o["log"][0]  # the kyoku array; seat i's takes at 5 + 3i, discards at 6 + 3i
    assert kyoku[5] == [19, 35] and kyoku[6] == [60, "r60"]
    assert kyoku[11] == [21, "c121314"] and kyoku[12] == [60, 46]
    assert kyoku[8] == ["p191919", 12] and kyoku[9] == [44, 60]
    assert kyoku[16] == ["和了", [-2000, -1000, -1000, 5000],
                         [3, 3, 3, "30符3飜1000-2000点", "門前清自摸和(1飜)", "役牌 中(1飜)",
                          "赤ドラ(1飜)"]]


def test_hidden_tiles_cannot_be_written() -> None:
    game = _synthetic()
    events = list(game.events)
    events[1] = Tsumo(actor=Seat(0), tile=None)
    with pytest.raises(LogWriteError, match="hidden") as info:
        tenhou6.write(Game(format="mjai", source="x", events=tuple(events), index=2))
    assert (info.value.source, info.value.game, info.value.event) == ("x", 2, 1)
    assert str(info.value).startswith("cannot write x game 2 as tenhou6 (event 1): ")


def test_a_game_without_hands_cannot_be_written() -> None:
    with pytest.raises(LogWriteError, match="no hands") as info:
        tenhou6.write(Game(format="mjai", source="x", events=()))
    assert info.value.event is None and info.value.fmt == "tenhou6"


def _rinshan_game(discard_after: bool) -> Game:
    """Seat 1 calls an open kan on the dealer's 9m and wins on (or discards) the replacement."""
    tehais = tuple(tuple(parse_tiles(h)) for h in (
        "123m456p789s1122z", "999m55p1199s3344z", "234m234p234s5566z", "678m678p678s6677z"))
    s0, s1 = Seat(0), Seat(1)
    events: list[Event] = [
        StartKyoku(bakaze=Tile.EAST, kyoku=1, honba=0, kyotaku=0, oya=s0,
                   scores=(25000,) * 4, dora_marker=Tile.M1, tehais=tehais),
        Tsumo(actor=s0, tile=Tile.M9), Dahai(actor=s0, tile=Tile.M9, tsumogiri=True),
        Daiminkan(actor=s1, target=s0, tile=Tile.M9, consumed=(Tile.M9,) * 3),
        Tsumo(actor=s1, tile=Tile.P5),
    ]
    if discard_after:
        events += [Dora(dora_marker=Tile.S3), Dahai(actor=s1, tile=Tile.WEST, tsumogiri=False),
                   Tsumo(actor=Seat(2), tile=Tile.S2),
                   Hora(actor=Seat(2), target=Seat(2), tile=Tile.S2,
                        deltas=(-2000, -1000, 4000, -1000), dora_markers=(Tile.M1, Tile.S3),
                        honba=0)]
    else:
        events += [Hora(actor=s1, target=s1, tile=Tile.P5, deltas=(-4000, 8000, -2000, -2000),
                        yaku=((Yaku.RINSHAN, 1), (Yaku.DORA, 4)), han=5, points=8000,
                        limit=Limit.MANGAN, dora_markers=(Tile.M1,), honba=0)]
    return Game(format="mjai", source="synthetic", events=(*events, EndKyoku()),
                hints=RuleHints(aka=True))


def test_rinshan_win_after_an_open_kan_reveals_no_dora() -> None:
    game = _rinshan_game(discard_after=False)
    o = json.loads(tenhou6.write(game))
    assert o["log"][0][2] == [11] and o["log"][0][8] == ["m19191919", 25]
    assert o["log"][0][9] == [0]
    back = tenhou6.parse(json.dumps(o).encode(), "r.json")[0]
    assert back.events == game.events and not back.diagnostics
    o["log"][0][2] = [11, 33]  # a writer that also lists the unrevealed indicator
    extra = tenhou6.parse(json.dumps(o).encode(), "r.json")[0]
    assert extra.events[:-2] == game.events[:-2]  # still no Dora event
    hora = extra.events[-2]
    assert isinstance(hora, Hora) and hora.dora_markers == (Tile.M1, Tile.S3)  # as claimed
    assert any("more than the kans reveal" in d.message for d in extra.diagnostics)


def test_open_kan_dora_comes_before_the_kanners_discard() -> None:
    game = _rinshan_game(discard_after=True)
    o = json.loads(tenhou6.write(game))
    assert o["log"][0][2] == [11, 33]
    back = tenhou6.parse(json.dumps(o).encode(), "r.json")[0]
    assert back.events == game.events
    o["log"][0][2] = [11]
    short = tenhou6.parse(json.dumps(o).encode(), "r.json")[0]
    assert not any(isinstance(e, Dora) for e in short.events)
    assert any("missing" in d.message for d in short.diagnostics)


def _two_kans_game(early: bool) -> Game:
    """Seat 1 calls an open kan on the dealer's 9m, declares a closed kan of 1s on its
    replacement draw and discards; ``early``: each indicator follows its kan at once."""
    tehais = tuple(tuple(parse_tiles(h)) for h in (
        "123m456p789s1122z", "999m5p111s99s3344z", "234m234p234s5566z", "678m678p678s6677z"))
    s0, s1 = Seat(0), Seat(1)
    dora1, dora2 = Dora(dora_marker=Tile.S3), Dora(dora_marker=Tile.P7)
    events: list[Event] = [
        StartKyoku(bakaze=Tile.EAST, kyoku=1, honba=0, kyotaku=0, oya=s0,
                   scores=(25000,) * 4, dora_marker=Tile.M1, tehais=tehais),
        Tsumo(actor=s0, tile=Tile.M9), Dahai(actor=s0, tile=Tile.M9, tsumogiri=True),
        Daiminkan(actor=s1, target=s0, tile=Tile.M9, consumed=(Tile.M9,) * 3),
        *([dora1] if early else []),
        Tsumo(actor=s1, tile=Tile.S1),
        Ankan(actor=s1, consumed=(Tile.S1,) * 4),
        *([dora2] if early else [dora1, dora2]),
        Tsumo(actor=s1, tile=Tile.P5),
        Dahai(actor=s1, tile=Tile.WEST, tsumogiri=False),
        Tsumo(actor=Seat(2), tile=Tile.S2),
        Hora(actor=Seat(2), target=Seat(2), tile=Tile.S2, deltas=(-2000, -1000, 4000, -1000),
             dora_markers=(Tile.M1, Tile.S3, Tile.P7), honba=0),
        EndKyoku(),
    ]
    return Game(format="tenhou_xml", source="synthetic", events=tuple(events),
                hints=RuleHints(aka=True))


@pytest.mark.parametrize("early", [False, True], ids=["after the draw", "before the draw"])
def test_an_open_kans_indicator_keeps_its_timing(early: bool) -> None:
    game = _two_kans_game(early)
    o = json.loads(tenhou6.write(game))
    assert o["log"][0][2] == [11, 33, 27]
    entry = o.get("kansa", {}).get("kyoku", [{}])[0]
    assert entry.get("early_dora") == ([0] if early else None)
    back = tenhou6.parse(json.dumps(o).encode(), "k.json")[0]
    assert back.events == game.events and not back.diagnostics
    if early:  # without the extension, the standard keys give Tenhou's usual timing
        del entry["early_dora"]
        plain = tenhou6.parse(json.dumps(o).encode(), "k.json")[0]
        assert plain.events == _two_kans_game(early=False).events


@pytest.mark.corpus
def test_a_kakans_indicator_before_its_replacement_draw_round_trips(corpus_dir: Path) -> None:
    path = corpus_dir / "tenhou_xml" / "dnovikoff__tenhou" / "chip.xml_"
    if not path.is_file():
        pytest.skip(f"{path} is not in the corpus")
    game = load_any(path)[0]
    o = json.loads(tenhou6.write(game))
    labels = [e.label for e in game.events if isinstance(e, StartKyoku)]
    entries = o["kansa"]["kyoku"]
    early = {labels[i]: e["early_dora"] for i, e in enumerate(entries) if "early_dora" in e}
    assert early == {"S4": [0]}
    assert tenhou6.parse(json.dumps(o).encode(), "chip.json")[0].events == game.events


@pytest.mark.corpus
def test_a_three_player_mjai_game_with_a_flagged_discard_after_a_pon_round_trips(
        corpus_dir: Path) -> None:
    path = corpus_dir / "mjai" / "yuufyu__wahaha" / "2020010100gm-00b9-0000-7a6863a8.mjson"
    if not path.is_file():
        pytest.skip(f"{path} is not in the corpus")
    game = load_any(path)[0]
    raw = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    assert any(a["type"] in ("pon", "chi") and b["type"] == "dahai" and b["tsumogiri"]
               for a, b in itertools.pairwise(raw))  # the log flags one
    events = game.events
    after_calls = [b for a, b in itertools.pairwise(events)
                   if isinstance(a, Pon | Chi) and isinstance(b, Dahai)]
    assert after_calls and not any(d.tsumogiri for d in after_calls)
    assert tenhou6.parse(tenhou6.write(game).encode(), "w.json")[0].events == events


def test_limit_hands_keep_fu_and_han_when_known() -> None:
    game = _rinshan_game(discard_after=False)
    events = list(game.events)
    hora = events[-2]
    assert isinstance(hora, Hora)
    events[-2] = Hora(**{**{f: getattr(hora, f) for f in hora.__dataclass_fields__}, "fu": 40})
    game = Game(format="mjai", source="x", events=tuple(events), hints=game.hints)
    o = json.loads(tenhou6.write(game))
    assert o["log"][0][16][2][3] == "40符5飜満貫2000-4000点"
    back = tenhou6.parse(json.dumps(o).encode(), "r.json")[0]
    assert back.events == game.events


# -- every corpus game of every format --------------------------------------------------

HIDDEN_TILES = {
    "kuikae.mjson": "gimite's one-seat snippet: three seats' tiles are '?', which "
                    "tenhou.net/6 has no code for (the writer refuses; write it as mjai)",
    "kuikae_only.mjson": "the same kind of one-seat snippet",
}
STANDARD_KEYS = {"title", "name", "rule", "log", "ref", "ratingc", "lobby", "dan", "rate", "sx",
                 "sc"}
RESULT_KINDS = {"和了", "流局", "全員聴牌", "全員不聴", "流し満貫", "九種九牌", "四風連打",
                "四家立直", "四槓散了", "三家和了", "中断"}


def _all_corpus_games(corpus: Path) -> list[Game]:
    games: list[Game] = []
    logs = (p for d in corpus.iterdir() if d.is_dir() for p in d.rglob("*") if p.is_file())
    for path in sorted(logs):
        try:
            games.extend(load_any(path))
        except UnsupportedLogError:
            continue
    return games


def _viewer_shape(o: dict[str, Any]) -> None:
    """Standard keys as the viewer expects them; kansa's own data only under "kansa"."""
    assert set(o) <= STANDARD_KEYS | {"kansa"}, set(o)
    assert len(o["title"]) == 2 and len(o["name"]) == 4
    for kyoku in o["log"]:
        assert len(kyoku) == 17
        assert kyoku[16][0] in RESULT_KINDS, kyoku[16]


@pytest.mark.corpus
def test_every_corpus_game_round_trips_through_tenhou6(corpus_dir: Path) -> None:
    written: Counter[str] = Counter()
    refused = []
    unwritable: list[tuple[str, str]] = []
    for game in _all_corpus_games(corpus_dir):
        if game.perspective is not None:  # one-seat logs: hidden tiles
            with pytest.raises(LogWriteError, match="hidden tiles"):
                tenhou6.write(game)
            refused.append(Path(game.source).name)
            continue
        try:
            text = tenhou6.write(game)
        except LogWriteError as exc:
            unwritable.append((game.source, str(exc)))
            written[game.format] += 1
            continue
        _viewer_shape(json.loads(text))
        back = tenhou6.parse(text.encode(), "rt.json")
        assert len(back) == 1
        again = back[0]
        assert again.events == game.events, game.source
        assert (again.players, again.hints, again.title, again.log_id) == \
            (game.players, game.hints, game.title, game.log_id), game.source
        # the written file adds no oddity the original did not have
        assert not again.diagnostics or game.diagnostics, (game.source, again.diagnostics)
        assert tenhou6.write(again) == text
        written[game.format] += 1
    # every game the manifest lists but the one-seat snippets, whatever its players
    assert written == manifest_games(corpus_dir, skip=frozenset(HIDDEN_TILES))
    assert sorted(refused) == sorted(HIDDEN_TILES)
    assert not unwritable, unwritable


@pytest.mark.corpus
def test_convert_writes_the_whole_xml_corpus_as_tenhou6(
        corpus_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    src = corpus_dir / "tenhou_xml"
    assert main(["convert", str(src), "--to", "tenhou6", "-o", f"{tmp_path}/"]) == 0
    assert capsys.readouterr().err == ""
    assert len(list(tmp_path.iterdir())) == len([p for p in src.rglob("*") if p.is_file()])
    for name in ("2011020401gm-00a9-0000-f6eff225-no-round-end", "obs-chi-discard",
                 "upd-sutehai-furiten", "upd-aft-draw-kanadded-draw"):
        original = load_any(next(src.rglob(f"{name}.mjlog")))[0]
        assert load(tmp_path / f"{name}.json")[0].events == original.events


# -- hands the log stops in -------------------------------------------------------------

def _cut(game: Game, n: int) -> Game:
    return dataclasses.replace(game, events=game.events[:n])


@pytest.mark.parametrize("make", [_synthetic, lambda: _rinshan_game(True),
                                  lambda: _rinshan_game(False)])
def test_every_prefix_of_a_game_round_trips(make: Any) -> None:
    game = make()
    for n in range(1, len(game.events) + 1):
        cut = _cut(game, n)
        back = tenhou6.parse(tenhou6.write(cut).encode(), "cut.json")[0]
        assert back.events == cut.events, n
        assert not back.diagnostics, n


def test_an_interrupted_hand_is_written_with_the_marker() -> None:
    game = _synthetic()
    after_riichi = next(i for i, e in enumerate(game.events) if isinstance(e, ReachAccepted))
    o = json.loads(tenhou6.write(_cut(game, after_riichi)))  # Reach, Dahai: no acceptance yet
    assert o["log"][0][16] == ["中断"]
    assert o["log"][0][6] == [60, "r60"]
    assert "kyoku" not in o["kansa"]  # every event reads back as it is
    back = tenhou6.parse(json.dumps(o).encode(), "i.json")[0]
    assert back.events[-1] == Dahai(actor=Seat(0), tile=Tile.S5, tsumogiri=True)
    assert not any(isinstance(e, EndKyoku | EndGame | ReachAccepted) for e in back.events)
    # events after the last take or discard travel in the extension's tail
    o = json.loads(tenhou6.write(_cut(game, after_riichi + 1)))
    assert o["kansa"]["kyoku"] == [{"tail": [{"type": "reach_accepted", "actor": 0}]}]
    o = json.loads(tenhou6.write(_cut(game, after_riichi - 1)))  # Reach, no discard
    assert o["log"][0][6] == [60]
    assert o["kansa"]["kyoku"] == [{"tail": [{"type": "reach", "actor": 0}]}]


def test_an_interrupted_hand_may_stop_right_after_a_call() -> None:
    game = _synthetic()
    after_pon = next(i for i, e in enumerate(game.events) if isinstance(e, Pon)) + 1
    o = json.loads(tenhou6.write(_cut(game, after_pon)))
    assert o["log"][0][8] == ["p191919"] and o["log"][0][9] == []
    back = tenhou6.parse(json.dumps(o).encode(), "p.json")[0]
    assert back.events == game.events[:after_pon]
    o["log"][0][16] = ["流局"]  # a finished hand cannot stop there
    with pytest.raises(LogFormatError, match="stop right after the call"):
        tenhou6.parse(json.dumps(o).encode(), "p.json")


@pytest.mark.corpus
def test_a_log_that_stops_in_its_last_hand_has_no_end_of_game(corpus_dir: Path) -> None:
    path = next((corpus_dir / "tenhou_xml").rglob("*-no-round-end.mjlog"))
    game = load_any(path)[0]
    assert not isinstance(game.events[-1], EndGame | EndKyoku)
    o = json.loads(tenhou6.write(game))
    assert o["log"][-1][16] == ["中断"] and "end_game" not in o["kansa"]
    assert tenhou6.parse(json.dumps(o).encode(), "x.json")[0].events == game.events
    o["sc"] = [30000, 10, 30000, 10, 20000, -10, 20000, -10]
    back = tenhou6.parse(json.dumps(o).encode(), "x.json")[0]
    assert not isinstance(back.events[-1], EndGame)
    assert any("no result; no EndGame" in d.message for d in back.diagnostics)


def test_a_log_that_stops_after_the_result_keeps_no_end_kyoku() -> None:
    game = _synthetic()
    cut = _cut(game, len(game.events) - 2)  # ... Hora, without EndKyoku and EndGame
    o = json.loads(tenhou6.write(cut))
    assert o["kansa"]["kyoku"][0]["end_kyoku"] is False
    assert tenhou6.parse(json.dumps(o).encode(), "x.json")[0].events == cut.events


# -- the extension -----------------------------------------------------------------------

def test_claims_the_format_cannot_hold_travel_in_the_extension() -> None:
    game = _synthetic()
    events = list(game.events)
    i = next(i for i, e in enumerate(events) if isinstance(e, Hora))
    hora = events[i]
    assert isinstance(hora, Hora)
    hand = tuple(sorted(parse_tiles("678m678p678s66777z")))
    events[i] = dataclasses.replace(hora, hand=hand, kyotaku=1, tile=None)
    j = next(i for i, e in enumerate(events) if isinstance(e, ReachAccepted))
    events[j] = ReachAccepted(actor=Seat(0), scores=(24000, 25000, 25000, 25000))
    events[-1] = EndGame(scores=(22000, 24000, 24000, 30000))  # no points
    game = dataclasses.replace(game, events=tuple(events),
                               players=(Player(name="A", rank="初段"), Player(name="B")),
                               hints=dataclasses.replace(game.hints, raw_type=169,
                                                         uma=(20, 10, -10, -20)))
    o = json.loads(tenhou6.write(game))
    assert o["kansa"] == {
        "version": 1,
        "kyoku": [{"hora": [{"tile": None, "hand": [t.tenhou6 for t in hand], "kyotaku": 1}],
                   "reach_accepted": [{"scores": [24000, 25000, 25000, 25000]}]}],
        "end_game": {"scores": [22000, 24000, 24000, 30000], "points": None},
        "players": [{"name": "A", "rank": "初段", "rating": None, "sex": None},
                    {"name": "B", "rank": None, "rating": None, "sex": None}],
        # "disp" is made up from the hints for the viewer; the room stays unknown
        "hints": {"platform": None, "room": None, "raw_type": 169, "uma": [20, 10, -10, -20]},
    }
    assert o["sc"] == [22000, 0, 24000, 0, 24000, 0, 30000, 0]  # the viewer needs points
    back = tenhou6.parse(json.dumps(o).encode(), "x.json")[0]
    assert back.events == game.events
    assert (back.players, back.hints) == (game.players, game.hints)
    plain = dict(o)
    del plain["kansa"]  # what any other reader sees: the same play, fewer claims
    lossy = tenhou6.parse(json.dumps(plain).encode(), "x.json")[0]
    assert [type(e) for e in lossy.events] == [type(e) for e in game.events]
    assert [e for e in lossy.events if not isinstance(e, Hora | ReachAccepted | EndGame)] == \
        [e for e in game.events if not isinstance(e, Hora | ReachAccepted | EndGame)]


_EXT_ERRORS: list[tuple[Any, str, str]] = [
    ([], "/kansa", "must be an object"),
    ({"version": 2}, "/kansa/version", "version 2"),
    ({"colour": 1}, "/kansa/colour", "unknown key"),
    ({"kyoku": [{}, {}]}, "/kansa/kyoku", "2 kansa kyoku entries for 1 kyokus"),
    ({"kyoku": [{"hora": [{"tile": 99}]}]}, "/kansa/kyoku/0/hora/0/tile", "tile code"),
    ({"kyoku": [{"hora": [{"hand": [11, "x"]}]}]}, "/kansa/kyoku/0/hora/0/hand/1", "tile"),
    ({"kyoku": [{"hora": [{"yaku": [["RIICH", 1]]}]}]}, "/kansa/kyoku/0/hora/0/yaku/0/0",
     "unknown Yaku"),
    ({"kyoku": [{"hora": [{"limit": "BIG"}]}]}, "/kansa/kyoku/0/hora/0/limit", "Limit"),
    ({"kyoku": [{"hora": [{"deltas": [1, 2]}]}]}, "/kansa/kyoku/0/hora/0/deltas",
     "needs 4 entries"),
    ({"kyoku": [{"hora": [{"pao": 4}]}]}, "/kansa/kyoku/0/hora/0/pao", "out of range"),
    ({"kyoku": [{"hora": [{"actor": 1}]}]}, "/kansa/kyoku/0/hora/0/actor", "unknown key"),
    ({"kyoku": [{"hora": [{}, {"fu": 30}]}]}, "/kansa/kyoku/0/hora",
     "patches 2 hora event(s), the hand has 1"),
    ({"kyoku": [{"ryukyoku": {"hands": None}}]}, "/kansa/kyoku/0/ryukyoku",
     "the hand has 0"),
    ({"kyoku": [{"reach_accepted": [{}] * 9}]}, "/kansa/kyoku/0/reach_accepted",
     "patches 9 reach_accepted event(s)"),
    ({"kyoku": [{"ryukyoku": {"reason": None}}]}, "/kansa/kyoku/0/ryukyoku/reason",
     "cannot be null"),
    ({"kyoku": [{"reach_accepted": [{"scores": [1, 2, 3, True]}]}]},
     "/kansa/kyoku/0/reach_accepted/0/scores/3", "integer"),
    ({"kyoku": [{"tail": [{"type": "dora", "dora_marker": 11}]}]}, "/kansa/kyoku/0/tail",
     "only an interrupted hand"),
    ({"kyoku": [{"end_kyoku": "no"}]}, "/kansa/kyoku/0/end_kyoku", "true or false"),
    ({"kyoku": [{"early_dora": [0]}]}, "/kansa/kyoku/0/early_dora",
     "no kan dora indicator"),
    ({"kyoku": [{"early_dora": [1, 0]}]}, "/kansa/kyoku/0/early_dora", "increasing order"),
    ({"kyoku": [{"early_dora": ["0"]}]}, "/kansa/kyoku/0/early_dora/0", "integer"),
    ({"end_game": {"scores": None, "points": [1, 2, 3, "4"]}}, "/kansa/end_game/points/3",
     "number"),
    ({"players": [{"name": 7}]}, "/kansa/players/0/name", "text"),
    ({"hints": {"aka": 1}}, "/kansa/hints/aka", "true, false or null"),
    ({"hints": {"players": 3}}, "/kansa/hints/players", "unknown key"),
    ({"title": 5}, "/kansa/title", "text or null"),
]


@pytest.mark.parametrize(("ext", "pointer", "message"), _EXT_ERRORS,
                         ids=[p for _, p, _ in _EXT_ERRORS])
def test_a_bad_extension_is_a_format_error_at_its_pointer(ext: Any, pointer: str,
                                                          message: str) -> None:
    o = json.loads(tenhou6.write(_synthetic()))
    o["kansa"] = ext
    with pytest.raises(LogFormatError) as info:
        tenhou6.parse(json.dumps(o).encode(), "bad.json")
    assert info.value.src.pointer == pointer
    assert message in info.value.reason


def test_an_interrupted_hands_tail_is_checked() -> None:
    game = _synthetic()
    o = json.loads(tenhou6.write(_cut(game, 5)))
    for tail, pointer in (([{"type": "tsumo", "actor": 1}], "/kansa/kyoku/0/tail/0/type"),
                          ([{"type": "reach", "actor": 1, "scores": []}],
                           "/kansa/kyoku/0/tail/0/scores"),
                          ([{"type": "dora"}], "/kansa/kyoku/0/tail/0/dora_marker")):
        o["kansa"] = {"kyoku": [{"tail": tail}]}
        with pytest.raises(LogFormatError) as info:
            tenhou6.parse(json.dumps(o).encode(), "bad.json")
        assert info.value.src.pointer == pointer
    o["kansa"] = {"kyoku": [{"end_kyoku": False}]}
    with pytest.raises(LogFormatError, match="no EndKyoku anyway"):
        tenhou6.parse(json.dumps(o).encode(), "bad.json")


def test_a_game_not_in_canonical_form_reads_back_in_canonical_form() -> None:
    game = _synthetic()
    start = game.events[0]
    assert isinstance(start, StartKyoku)
    shuffled = tuple(tuple(reversed(h)) for h in start.tehais)
    odd = dataclasses.replace(game, events=(dataclasses.replace(start, tehais=shuffled),
                                            *game.events[1:]))
    assert tenhou6.parse(tenhou6.write(odd).encode(), "x.json")[0].events == game.events


def test_the_extensions_claims_are_read_in_canonical_form() -> None:
    o = json.loads((SAMPLE_GAMES / "tenhou-12.json").read_text(encoding="utf-8"))
    kyokus = o["kansa"]["kyoku"]
    won, drawn = kyokus[0]["hora"][0], kyokus[9]["ryukyoku"]
    won["hand"] = won["hand"][::-1]
    won["yaku"] = [["RIICHI", 1], ["URA_DORA", 0]]  # Tenhou's "no ura" entry
    drawn["hands"] = [None if h is None else h[::-1] for h in drawn["hands"]]
    drawn.update(reason="SUUFON_RENDA", deltas=None)  # abortive: no points move
    events = tenhou6.parse(json.dumps(o).encode(), "x.json")[0].events
    assert all(a is b for a, b in zip(canonical(events), events, strict=True))
    hora = next(e for e in events if isinstance(e, Hora))
    assert hora.hand is not None and list(hora.hand) == sorted(hora.hand, key=_order)
    assert hora.yaku == ((Yaku.RIICHI, 1),)
    draw = next(e for e in events if isinstance(e, Ryukyoku))
    assert draw.deltas == (0, 0, 0, 0)
    assert draw.hands is not None
    assert all(h is None or list(h) == sorted(h, key=_order) for h in draw.hands)


def _order(tile: Tile) -> int:
    return tile.order


def test_json_lines_leave_nothing_for_the_cycle_collector() -> None:
    # a file of JSON lines is first tried as one document; the error of that try must
    # not keep the reader's frames (and through them the games) alive in a cycle
    whole = json.loads((SAMPLE_GAMES / "tenhou-12.json").read_text(encoding="utf-8"))
    lines = "\n".join(json.dumps({"title": whole["title"], "name": whole["name"],
                                  "rule": whole["rule"], "log": [kyoku]})
                      for kyoku in whole["log"])
    data = lines.encode()
    (game,) = tenhou6.parse(data, "lines.json")
    assert sum(isinstance(e, StartKyoku) for e in game.events) == len(whole["log"]) > 1
    gc.collect()
    gc.disable()
    try:
        games = tenhou6.parse(data, "lines.json")
        del games
        assert gc.collect() == 0
    finally:
        gc.enable()


def _pointed(document: Any, pointer: str) -> Any:
    value = document
    for part in pointer.strip("/").split("/"):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def _draws_and_discards_land_on_their_tiles(text: str) -> int:
    """Follow the position of every draw and discard of ``text`` read back into the
    file; how many were followed."""
    document = json.loads(text)
    game = tenhou6.parse(text.encode(), "w.json")[0]
    followed = 0
    for i, event in enumerate(game.events):
        if not isinstance(event, Tsumo | Dahai):
            continue
        src = game.src_of(i)
        assert src is not None and src.pointer is not None, (i, event)
        value = _pointed(document, src.pointer)
        code = event.tile.tenhou6 if event.tile is not None else None
        if isinstance(event, Dahai):
            written = TSUMOGIRI if event.tsumogiri else code
            assert value in (written, f"r{written}"), (src, event, value)
        else:
            assert value == code, (src, event, value)
        followed += 1
    return followed


@pytest.mark.parametrize("seed", range(4))
def test_where_the_extension_patches_a_hand_draws_and_discards_keep_their_place(
        seed: int) -> None:
    """A written game's extension (wins' hands, riichi scores, draws' hands) patches
    events in their place: each draw and discard read back still names its own entry."""
    text = tenhou6.write(simulate(seed))
    assert json.loads(text)["kansa"]["kyoku"], "the game's hands have extension entries"
    assert _draws_and_discards_land_on_their_tiles(text) > 100


@pytest.mark.parametrize("early", [False, True], ids=["after the draw", "before the draw"])
def test_an_indicator_revealed_early_leaves_the_draws_and_discards_in_place(
        early: bool) -> None:
    text = tenhou6.write(_two_kans_game(early))
    assert ("early_dora" in text) == early
    assert _draws_and_discards_land_on_their_tiles(text) == 6
