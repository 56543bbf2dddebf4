from __future__ import annotations

import copy
import pickle

import pytest

from kansa.replay.tiles import (
    ALL_TILES,
    Tile,
    format_tiles,
    kamicha,
    kind_counts,
    parse_tiles,
    relative,
    seat_wind,
    shimocha,
)


def test_37_members_and_kinds() -> None:
    assert len(ALL_TILES) == 37
    assert {t.index for t in ALL_TILES} == set(range(34))
    assert [t for t in ALL_TILES if t.is_red] == [Tile.M5R, Tile.P5R, Tile.S5R]
    assert Tile.M5R.index == Tile.M5.index and Tile.M5R.normal is Tile.M5


def test_not_an_integer() -> None:
    with pytest.raises(TypeError):
        Tile.M1 + 1  # type: ignore[operator]


@pytest.mark.parametrize("text", [t.mjai for t in ALL_TILES] + [t.mpsz for t in ALL_TILES])
def test_parse_round_trip(text: str) -> None:
    t = Tile.parse(text)
    assert Tile.parse(t.mjai) is t and Tile.parse(t.mpsz) is t


@pytest.mark.parametrize("bad", ["", "?", "0z", "8z", "5x", "10m", "5pr5"])
def test_parse_rejects(bad: str) -> None:
    with pytest.raises(ValueError):
        Tile.parse(bad)


def test_format_conversions() -> None:
    for t in ALL_TILES:
        assert Tile.from_tenhou6(t.tenhou6) is t
        assert Tile.from_majiang(t.majiang) is t
        assert Tile.from_mjai(t.mjai) is t
    assert Tile.from_mjai("?") is None
    assert Tile.P5R.tenhou6 == 52 and Tile.EAST.tenhou6 == 41 and Tile.CHUN.tenhou6 == 47
    assert Tile.HAKU.mjai == "P" and Tile.HATSU.mjai == "F" and Tile.CHUN.mjai == "C"


def test_tenhou_ids_red_only_in_red_games() -> None:
    assert Tile.from_tenhou_id(16, aka=True) is Tile.M5R
    assert Tile.from_tenhou_id(16, aka=False) is Tile.M5
    assert Tile.from_tenhou_id(17, aka=True) is Tile.M5
    assert Tile.from_tenhou_id(52, aka=True) is Tile.P5R
    assert Tile.from_tenhou_id(88, aka=True) is Tile.S5R
    assert Tile.from_tenhou_id(135, aka=True) is Tile.CHUN
    with pytest.raises(ValueError):
        Tile.from_tenhou_id(136, aka=True)


def test_dora_wraps_within_group() -> None:
    assert Tile.M9.dora() is Tile.M1 and Tile.P9.dora() is Tile.P1 and Tile.S4.dora() is Tile.S5
    assert Tile.NORTH.dora() is Tile.EAST and Tile.WEST.dora() is Tile.NORTH
    assert Tile.CHUN.dora() is Tile.HAKU and Tile.HAKU.dora() is Tile.HATSU
    assert Tile.M4.dora() is Tile.M5 and Tile.M5R.dora() is Tile.M6


def test_notation() -> None:
    tiles = parse_tiles("123m406p789s11777z")
    assert len(tiles) == 14 and Tile.P5R in tiles
    assert format_tiles(tiles) == "123m406p789s11777z"
    assert parse_tiles("1m 5mr E") == [Tile.M1, Tile.M5R, Tile.EAST]
    assert kind_counts(parse_tiles("055m"))[Tile.M5.index] == 3
    for bad in ("12", "m", "12x"):
        with pytest.raises(ValueError):
            parse_tiles(bad)


def test_seats() -> None:
    assert seat_wind(2, 1, 4) is Tile.SOUTH and seat_wind(0, 1, 4) is Tile.NORTH
    assert kamicha(0, 4) == 3 and shimocha(3, 4) == 0 and relative(1, 0, 4) == 3
    assert kamicha(0, 3) == 2 and shimocha(2, 3) == 0 and seat_wind(0, 1, 3) is Tile.WEST


def test_tiles_are_singletons_through_pickle_and_copy() -> None:
    for t in ALL_TILES:
        assert pickle.loads(pickle.dumps(t)) is t
        assert copy.copy(t) is t and copy.deepcopy([t])[0] is t
        assert getattr(Tile, t.name) is t and Tile.from_code(t.code) is t
        assert t.normal is Tile.from_index(t.index)
    assert len({*ALL_TILES}) == 37
    with pytest.raises(ValueError):
        Tile.from_code(37)
