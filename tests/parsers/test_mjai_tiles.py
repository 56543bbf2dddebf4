"""mjai tile names read from their characters (``parsers/mjai/tiles.py``), against
the table of names they stand for."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kansa.parsers.mjai import fast
from kansa.parsers.mjai.tiles import HIDDEN, TILE_AT, name_index
from kansa.replay.tiles import BY_MJAI


def test_a_tile_name_reads_as_the_names_table_has_it() -> None:
    """Every string of up to three characters from the names' alphabet (and a few
    others): the tile of :data:`BY_MJAI`, ``?`` hidden, anything else none."""
    alphabet = "0123456789mpsrzESWNPFC?x五 "
    names = [""] + [a + b + c for a in alphabet for b in ["", *alphabet]
                    for c in (["", *alphabet] if b else [""])]
    for name in names:
        k = name_index(name)
        if name == "?":
            assert k == HIDDEN
        elif name in BY_MJAI:
            assert k >= 0 and TILE_AT[k] is BY_MJAI[name], name
        else:
            assert k == -1, name


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from([*BY_MJAI, "?", "0m", "5r", "", "x"]) | st.integers(0, 9)
                | st.none(), min_size=1, max_size=14))
def test_a_hand_reads_the_same_by_name_and_by_lookup(row: list[Any]) -> None:
    by_name = fast._hand_by_name(row)
    assert by_name == fast._hand_by_lookup(row)
    if by_name is not None:
        assert by_name == tuple(None if n == "?" else BY_MJAI[n] for n in row)
