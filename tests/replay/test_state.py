"""Meld shapes as the game state sees them (the scoring oracle is given only well-formed
ones), and taking a meld's tiles from a hand."""

from __future__ import annotations

import copy
import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from kansa.replay.melds import Meld, MeldType
from kansa.replay.state import LastDiscard, PlayerState, RiverTile
from kansa.replay.tiles import ALL_TILES, Seat, Tile, parse_tiles


@pytest.mark.parametrize(("mtype", "tiles", "ok"), [
    (MeldType.CHI, "123m", True),
    (MeldType.CHI, "406p", True),  # a red five (0p) in a chow
    (MeldType.CHI, "13p", False),  # two tiles
    (MeldType.CHI, "135p", False),
    (MeldType.CHI, "89m1p", False),  # across suits
    (MeldType.CHI, "123z", False),  # honors make no chow
    (MeldType.PON, "555z", True),
    (MeldType.PON, "505s", True),
    (MeldType.PON, "55z", False),
    (MeldType.PON, "556z", False),
    (MeldType.DAIMINKAN, "1111m", True),
    (MeldType.KAKAN, "111m", False),
    (MeldType.ANKAN, "7777z", True),
    (MeldType.ANKAN, "77777z", False),
])
def test_well_formed(mtype: MeldType, tiles: str, ok: bool) -> None:
    assert Meld(type=mtype, tiles=tuple(parse_tiles(tiles))).well_formed is ok


def _remove_all_by_counting(p: PlayerState, tiles: tuple[Tile, ...]) -> Tile | None:
    """``remove_all`` written the plain way: count what is needed of all 37 values."""
    need = [0] * 37
    for t in tiles:
        need[t.code] += 1
    short = sum(max(0, n - p.c37[v]) for v, n in enumerate(need))
    if short > p.hidden:
        return next(ALL_TILES[v] for v, n in enumerate(need) if n > p.c37[v])
    for v, n in enumerate(need):
        take = min(n, p.c37[v])
        p.c37[v] -= take
        p.c34[ALL_TILES[v].index] -= take
        p.known_count -= take
        p.hidden -= n - take
    return None


@given(st.lists(st.sampled_from(list(ALL_TILES)), max_size=14),
       st.lists(st.sampled_from(list(ALL_TILES)), min_size=1, max_size=4),
       st.integers(0, 3))
def test_remove_all_takes_every_tile_or_none(hand: list[Tile], tiles: list[Tile],
                                             hidden: int) -> None:
    def player() -> PlayerState:
        p = PlayerState(seat=Seat(0), hidden=hidden)
        for t in hand:
            p.add(t)
        return p
    fast, plain = player(), player()
    assert fast.remove_all(tuple(tiles)) == _remove_all_by_counting(plain, tuple(tiles))
    assert (fast.c37, fast.c34, fast.known_count, fast.hidden) == (
        plain.c37, plain.c34, plain.known_count, plain.hidden)
    assert fast.pairs == fast.c34.count(2)


@given(st.lists(st.one_of(st.none(), st.sampled_from(list(ALL_TILES))), max_size=14))
def test_add_all_counts_as_add_does_one_by_one(tiles: list[Tile | None]) -> None:
    bulk, single = PlayerState(seat=Seat(0)), PlayerState(seat=Seat(0))
    bulk.add_all(tiles)
    for t in tiles:
        single.add(t)
    assert (bulk.c37, bulk.c34, bulk.known_count, bulk.hidden, bulk.pairs) == (
        single.c37, single.c34, single.known_count, single.hidden, single.pairs)
    assert bulk.pairs == bulk.c34.count(2)


@given(st.lists(st.sampled_from(list(ALL_TILES)), max_size=14), st.data())
def test_the_pair_count_follows_every_add_and_remove(tiles: list[Tile],
                                                     data: st.DataObject) -> None:
    p = PlayerState(seat=Seat(0))
    for t in tiles:
        p.add(t)
        assert p.pairs == p.c34.count(2)
    for t in data.draw(st.permutations(tiles)):
        assert p.remove(t)
        assert p.pairs == p.c34.count(2)


def test_state_classes_with_written_inits_pickle_and_copy() -> None:
    """A compiled class's default recipe would call ``__init__`` without arguments."""
    p = PlayerState(seat=Seat(2), hidden=1)
    p.add_all(parse_tiles("123m55p"))
    p.river.append(RiverTile(Tile.M9, True, riichi=True, called_by=Seat(1)))
    p.riichi = True
    values = [p, RiverTile(Tile.S5R, False),
              LastDiscard(Seat(1), Tile.EAST, 17, claimable=False, last_tile=True, time=2.5)]
    for value in values:
        for back in (pickle.loads(pickle.dumps(value)), copy.copy(value), copy.deepcopy(value)):
            assert type(back) is type(value) and back == value
