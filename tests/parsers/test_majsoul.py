"""The decoded Mahjong Soul record reader: the corpus excerpt, a full synthetic round, bad input."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kansa.parsers import load, sniff
from kansa.parsers.errors import LogFormatError
from kansa.parsers.majsoul.read import parse
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Dora,
    DrawReason,
    EndKyoku,
    Hora,
    Kakan,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from kansa.replay.tiles import Tile
from kansa.replay.yaku import Yaku
from tests.parser_helpers import check_error, corpus_files, run, structural_errors


@pytest.mark.corpus
def test_corpus_excerpt(corpus_dir: Path) -> None:
    files = corpus_files(corpus_dir, "majsoul")
    assert len(files) == 1
    (game,) = load(files[0])
    assert game.format == "majsoul" and game.hints.players == 3 and game.hints.hanchan
    start, draw, win, end = game.events
    assert isinstance(start, StartKyoku) and start.oya == 1 and start.kyoku == 2
    assert start.honba == 1 and start.scores == (25000, 50000, 30000)
    # the dealer's fourteenth tile is the last one dealt (the record's wall agrees)
    assert isinstance(draw, Tsumo) and draw.actor == 1 and draw.tile is Tile.P4
    assert isinstance(win, Hora) and win.is_tsumo and win.yaku == ((Yaku.TENHOU, 13),)
    assert win.deltas == (-16100, 32200, -16100) and win.han == 13
    assert win.tile is Tile.S9 and win.hand is not None and len(win.hand) == 14
    assert isinstance(end, EndKyoku)
    assert game.log_id == "250828-f11b2f40-b50f-4484-85f3-65678031db88"
    assert not structural_errors(run(game))


def _round(*events: tuple[str, dict[str, Any]], next_start: Any = "keep") -> dict[str, Any]:
    doc: dict[str, Any] = {"mode": 2, "events": [{"name": n, "data": d} for n, d in events]}
    if next_start != "keep":
        doc["next_start"] = next_start
    return doc


NEW_ROUND = ("NewRound", {
    "chang": 0, "ju": 0, "ben": 0, "liqibang": 0, "scores": [25000] * 4, "doras": ["9p"],
    "tiles0": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z", "5z", "5z", "5z",
               "9m"],
    "tiles1": ["7m", "8m", "1p", "1p", "2p", "3s", "4s", "6s", "6m", "6m", "7p", "8p", "9p"],
    "tiles2": ["1z", "2m", "4m", "5m", "3p", "3p", "2s", "2s", "5s", "7z", "7z", "6z", "6z"],
    "tiles3": ["1z", "1z", "4m", "4m", "6p", "6p", "8p", "1s", "1s", "4s", "4s", "3z", "3z"]})


def _deal(seat: int, tile: str, doras: list[str] | None = None) -> tuple[str, dict[str, Any]]:
    return ("DealTile", {"seat": seat, "tile": tile, "doras": doras or []})


def _discard(seat: int, tile: str, moqie: bool = True, liqi: bool = False,
             doras: list[str] | None = None) -> tuple[str, dict[str, Any]]:
    return ("DiscardTile", {"seat": seat, "tile": tile, "moqie": moqie, "is_liqi": liqi,
                            "is_wliqi": False, "doras": doras or []})


FULL = _round(
    NEW_ROUND, _discard(0, "9m"),
    ("ChiPengGang", {"seat": 1, "type": 0, "tiles": ["7m", "8m", "9m"], "froms": [1, 1, 0]}),
    _discard(1, "6s", moqie=False), _deal(2, "7p"), _discard(2, "1z", moqie=False),
    ("ChiPengGang", {"seat": 3, "type": 1, "tiles": ["1z", "1z", "1z"], "froms": [3, 3, 2]}),
    _discard(3, "3z", moqie=False),
    _deal(0, "5z"), ("AnGangAddGang", {"seat": 0, "type": 3, "tiles": "5z"}),
    _deal(0, "3s", ["9p", "8m"]), _discard(0, "3s"),
    _deal(1, "9m"), _discard(1, "9m"), _deal(2, "5p"), _discard(2, "5p"),
    _deal(3, "1z"), ("AnGangAddGang", {"seat": 3, "type": 2, "tiles": "1z"}),
    _deal(3, "4s"), _discard(3, "4s", doras=["9p", "8m", "3z"]),
    _deal(0, "6m"), _discard(0, "6m", liqi=True),
    _deal(1, "1s"), _discard(1, "1s"), _deal(2, "2m"), _discard(2, "2m"),
    _deal(3, "9s"), _discard(3, "9s"), _deal(0, "2z"),
    ("Hule", {"hules": [{
        "hand": ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "2z"], "hu_tile": "2z",
        "seat": 0, "zimo": True, "doras": ["9p", "8m", "3z"], "li_doras": ["1s"],
        "yiman": False, "count": 3, "fu": 60,
        "fans": [{"id": 2, "val": 1}, {"id": 1, "val": 1}, {"id": 7, "val": 1}]}],
        "scores": [36700, 21100, 21100, 21100]}),
    next_start={"scores": [36700, 21100, 21100, 21100], "chang": 0, "ju": 0, "ben": 1,
                "liqibang": 0})


def test_a_full_four_player_round_replays() -> None:
    data = json.dumps(FULL).encode()
    assert sniff(data) == "majsoul"
    (game,) = parse(data, "round.json")
    kinds = [type(e) for e in game.events]
    assert kinds[:4] == [StartKyoku, Tsumo, Dahai, Chi]
    ankan = kinds.index(Ankan)
    assert kinds[ankan:ankan + 4] == [Ankan, Dora, Tsumo, Dahai]
    kakan = kinds.index(Kakan)
    assert kinds[kakan:kakan + 4] == [Kakan, Tsumo, Dora, Dahai]
    reach = kinds.index(Reach)
    assert kinds[reach:reach + 3] == [Reach, Dahai, ReachAccepted]
    assert Pon in kinds and kinds[-2:] == [Hora, EndKyoku]
    win = game.events[-2]
    assert isinstance(win, Hora)
    assert win.deltas == (12700, -3900, -3900, -3900)
    assert win.yaku == ((Yaku.RIICHI, 1), (Yaku.MENZEN_TSUMO, 1), (Yaku.HAKU, 1))
    assert win.ura_markers == (Tile.S1,) and win.dora_markers == (Tile.P9, Tile.M8, Tile.WEST)
    kan = game.events[ankan]
    assert isinstance(kan, Ankan) and kan.consumed == (Tile.HAKU,) * 4
    result = run(game)
    # the round's claimed value is made up (this test is about reading the record), so only
    # the state is held to account here
    assert not structural_errors(result), [v.message for v in structural_errors(result)]


def test_kans_of_fives_use_the_tiles_held() -> None:
    doc = copy.deepcopy(FULL)
    nr = doc["events"][0]["data"]
    nr["tiles2"][1:4] = ["5m", "0m", "5m"]
    doc["events"] = doc["events"][:4] + [
        {"name": n, "data": d} for n, d in (
            _deal(2, "5m"), ("AnGangAddGang", {"seat": 2, "type": 3, "tiles": "5m"}))]
    (game,) = parse(json.dumps(doc).encode(), "r")
    kan = game.events[-1]
    assert isinstance(kan, Ankan) and kan.consumed == (Tile.M5, Tile.M5, Tile.M5, Tile.M5R)


def test_draws_and_multiple_winners() -> None:
    notile = _round(NEW_ROUND, ("NoTile", {
        "liujumanguan": False,
        "players": [{"tingpai": True, "hand": ["1m", "2m"]}, {"tingpai": False},
                    {"tingpai": False}, {"tingpai": True, "hand": ["E"]}],
        "scores": [{"old_scores": [25000] * 4, "delta_scores": [1500, -1500, -1500, 1500]}]}))
    draw = parse(json.dumps(notile).encode().replace(b'"E"', b'"1z"'), "r")[0].events[-2]
    assert isinstance(draw, Ryukyoku) and draw.reason is DrawReason.EXHAUSTIVE
    assert draw.tenpai == (True, False, False, True)
    assert draw.hands == ((Tile.M1, Tile.M2), None, None, (Tile.EAST,))
    assert draw.deltas == (1500, -1500, -1500, 1500)
    liuju = _round(NEW_ROUND, ("LiuJu", {"type": 1, "seat": 0, "tiles": ["1m", "9m"]}))
    draw = parse(json.dumps(liuju).encode(), "r")[0].events[-2]
    assert isinstance(draw, Ryukyoku) and draw.reason is DrawReason.KYUUSHU_KYUUHAI
    assert draw.actor == 0 and draw.hands == ((Tile.M1, Tile.M9), None, None, None)
    win = {"hand": ["1m"], "hu_tile": "1m", "zimo": False, "fans": [], "count": 1, "fu": 30}
    double = _round(NEW_ROUND, _discard(0, "9m"), ("Hule", {
        "hules": [{**win, "seat": 1}, {**win, "seat": 2}], "scores": [0, 1, 2, 3]}))
    game = parse(json.dumps(double).encode(), "r")[0]
    wins = [e for e in game.events if isinstance(e, Hora)]
    assert [w.target for w in wins] == [0, 0] and all(w.deltas is None for w in wins)
    assert "per-winner deltas are unknown" in game.diagnostics[0].message


# -- bad input ---------------------------------------------------------------------

def _error(data: bytes) -> LogFormatError:
    with pytest.raises(LogFormatError) as info:
        parse(data, "bad.json")
    check_error(info.value)
    return info.value


def test_bad_records() -> None:
    assert _error(b"[]").src.line == 1
    assert _error(b'{"events": []}').src.pointer == "/events"
    doc = copy.deepcopy(FULL)
    doc["events"][1]["data"]["tile"] = "5x"
    assert _error(json.dumps(doc).encode()).src.pointer == "/events/1/data/tile"
    doc = copy.deepcopy(FULL)
    doc["events"][1]["data"]["seat"] = 7
    assert _error(json.dumps(doc).encode()).src.pointer == "/events/1/data/seat"
    doc = copy.deepcopy(FULL)
    doc["events"][2]["data"]["froms"] = [1, 1, 1]
    assert _error(json.dumps(doc).encode()).src.pointer == "/events/2/data/froms"


def _paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out.extend(_paths(v, (*prefix, k)))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out.extend(_paths(v, (*prefix, i)))
    return out


_PATHS = _paths(FULL)[1:]
_VALUES = st.none() | st.booleans() | st.integers(-2, 5) | st.sampled_from(
    ["0m", "5z", "8z", "Hule", "NewRound", ""]) | st.lists(st.integers(-1, 5), max_size=4)


@settings(max_examples=400, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(_PATHS), _VALUES), min_size=1, max_size=3))
def test_mutated_records_give_only_format_errors(edits: list[tuple[tuple[Any, ...], Any]]) -> None:
    doc = copy.deepcopy(FULL)
    for path, value in edits:
        node: Any = doc
        try:
            for key in path[:-1]:
                node = node[key]
            node[path[-1]] = value
        except (KeyError, IndexError, TypeError):
            continue
    try:
        games = parse(json.dumps(doc).encode(), "fuzz.json")
    except LogFormatError as exc:
        check_error(exc)
        return
    for game in games:
        run(game)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200))
def test_random_bytes(data: bytes) -> None:
    try:
        parse(data, "fuzz.json")
    except LogFormatError as exc:
        check_error(exc)
