"""The tenhou.net/6 writer: round trips of every corpus game and of a hand-built game."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tenhou6_helpers import EQUIM, FILES, ids, load

from parsers import tenhou6
from replay.events import (
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
    StartKyoku,
    Tsumo,
)
from replay.game import Game, Player, RuleHints
from replay.tiles import Seat, Tile, parse_tiles
from replay.yaku import Limit, Yaku


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
    with pytest.raises(ValueError, match="hidden"):
        tenhou6.write(Game(format="mjai", source="x", events=tuple(events)))


def test_a_game_without_hands_cannot_be_written() -> None:
    with pytest.raises(ValueError, match="no hands"):
        tenhou6.write(Game(format="mjai", source="x", events=()))


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
