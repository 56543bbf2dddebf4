"""Table tests for the ``<N m=>`` decoder: every worked example of FORMATS.md §A.6."""

from __future__ import annotations

import pytest

from kansa.parsers.tenhou_xml.meld import MeldKind, decode_meld
from kansa.replay.tiles import Tile, parse_tiles

K = MeldKind

# (m, who, kind, target, ids, called_id, added_id)
EXAMPLES = [
    (63647, 1, K.CHI, 0, (99, 100, 105), 105, None),  # 789s from kamicha, called 9s
    (12535, 3, K.CHI, 2, (18, 23, 25), 18, None),  # 567m, called 5m copy 2
    (51722, 0, K.PON, 2, (133, 134, 135), 135, None),  # chun from toimen, copy 0 unused
    (43593, 3, K.PON, 0, (112, 113, 115), 113, None),  # South from shimocha
    (1539, 3, K.DAIMINKAN, 2, (4, 5, 6, 7), 6, None),  # 2m from kamicha
    (10769, 0, K.KAKAN, 1, (28, 29, 30, 31), 29, 28),  # 8m, pon was from shimocha
    (23040, 0, K.ANKAN, 0, (88, 89, 90, 91), None, None),  # 5s
    (18944, 0, K.ANKAN, 0, (72, 73, 74, 75), None, None),  # 1s (TPB #6 live log)
    (30752, 1, K.NUKIDORA, 1, (120,), None, None),  # sanma North
    (31008, 0, K.NUKIDORA, 0, (121,), None, None),
]


Example = tuple[int, int, MeldKind, int, tuple[int, ...], int | None, int | None]


@pytest.mark.parametrize("case", EXAMPLES, ids=[str(e[0]) for e in EXAMPLES])
def test_formats_examples(case: Example) -> None:
    m, who, kind, target, ids, called_id, added_id = case
    meld = decode_meld(m, who, aka=True)
    assert meld.kind is kind
    assert meld.who == who
    assert meld.target == target
    assert meld.ids == ids
    assert meld.called_id == called_id
    assert meld.added_id == added_id
    assert meld.tiles == tuple(Tile.from_tenhou_id(i, True) for i in ids)


def test_chi_tiles_and_consumed() -> None:
    meld = decode_meld(63647, 1, aka=True)
    assert meld.tiles == tuple(parse_tiles("789s"))
    assert meld.called == Tile.S9
    assert meld.consumed == tuple(parse_tiles("78s"))


def test_chi_with_copy_2_five_is_not_red() -> None:
    meld = decode_meld(12535, 3, aka=True)
    assert meld.called == Tile.M5
    assert not any(t.is_red for t in meld.tiles)


def test_red_five_only_in_red_games() -> None:
    ankan = decode_meld(23040, 0, aka=True)
    assert ankan.tiles == (Tile.S5R, Tile.S5, Tile.S5, Tile.S5)
    assert ankan.consumed == ankan.tiles
    plain = decode_meld(23040, 0, aka=False)
    assert plain.tiles == (Tile.S5,) * 4


def test_red_five_in_pon_consumed() -> None:
    # pon of 5m, unused copy 3, called copy 1: the caller's own tiles are 16 (red) and 18
    m = ((4 * 3 + 1) << 9) | (3 << 5) | 0x8 | 3
    meld = decode_meld(m, 0, aka=True)
    assert meld.ids == (16, 17, 18)
    assert meld.called == Tile.M5
    assert meld.consumed == (Tile.M5R, Tile.M5)


def test_kakan_added_and_pon_tiles() -> None:
    meld = decode_meld(10769, 0, aka=False)
    assert meld.added == Tile.M8
    assert meld.consumed == (Tile.M8,) * 3
    # red 5p added to a pon: kind 13, added copy 0
    m = ((13 * 3 + 2) << 9) | (0 << 5) | 0x10 | 2
    red = decode_meld(m, 1, aka=True)
    assert red.kind is MeldKind.KAKAN
    assert red.added == Tile.P5R
    assert red.consumed == (Tile.P5,) * 3
    assert red.target == 3


def test_daiminkan_consumed_excludes_called_copy() -> None:
    m = (16 << 8) | 1  # 5m copy 0 (red) called from shimocha
    meld = decode_meld(m, 2, aka=True)
    assert meld.kind is MeldKind.DAIMINKAN
    assert meld.called == Tile.M5R
    assert meld.consumed == (Tile.M5,) * 3
    assert meld.target == 3


def test_from_is_relative() -> None:
    # the same pon code called by each seat comes from each seat's toimen
    for who in range(4):
        assert decode_meld(51722, who, aka=True).target == (who + 2) % 4


@pytest.mark.parametrize(("m", "who"), [
    ((63 << 10) | 0x4 | 3, 0),  # chi base 21: suit 3 does not exist
    ((102 << 9) | 0x8 | 1, 0),  # pon of kind 34
    ((102 << 9) | 0x10 | 1, 0),  # kakan of kind 34
    ((136 << 8) | 1, 0),  # daiminkan of tile id 136
    ((255 << 8), 0),  # ankan of tile id 255
    ((12 << 10) | 0x4, 0),  # chi from oneself
    ((85 << 9) | 0x8, 0),  # pon from oneself
    ((0 << 8) | 0x20, 0),  # nukidora of 1m
    ((120 << 8) | 0x20 | 1, 0),  # nukidora "from" another seat
    (-1, 0),
    (1 << 16, 0),
    (63647, 4),
])
def test_invalid_codes_raise_value_error(m: int, who: int) -> None:
    with pytest.raises(ValueError):
        decode_meld(m, who, aka=True)


def test_every_16_bit_code_decodes_or_raises_value_error() -> None:
    for m in range(1 << 16):
        try:
            meld = decode_meld(m, 0, aka=True)
        except ValueError:
            continue
        assert all(0 <= i < 136 for i in meld.ids)
        assert len(meld.consumed) == {K.CHI: 2, K.PON: 2, K.DAIMINKAN: 3, K.KAKAN: 3,
                                      K.ANKAN: 4, K.NUKIDORA: 1}[meld.kind]
