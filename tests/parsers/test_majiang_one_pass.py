"""The majiang quick reading plays each shared draw and discard as it is read, and every
other entry once the entries it looks at are read: any sequence of entries reads as the
full reading reads it, and a hand's codes of its shared events are found from where
their tracks do not alternate.  A game's players and its log id read as they always
did."""

from __future__ import annotations

from pathlib import PurePath
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kansa.parsers.majiang.paipu import NotQuick
from kansa.parsers.majiang.pointers import track_order
from kansa.parsers.majiang.read import _stem, read_full, read_quick
from kansa.replay.game import TAKE_NEXT
from tests.parsers.test_majiang import _outcome, _paipu, _qipai

_HULE = {"hule": {"l": 2, "shoupai": "m123p456s789z1122", "baojia": 1, "fu": 30,
                  "defen": 1000, "fenpei": [0, -1000, 1000, 0],
                  "hupai": [{"name": "ドラ", "fanshu": 1}]}}
_ENTRIES: list[dict[str, Any]] = [
    {"zimo": {"l": 0, "p": "m1"}}, {"zimo": {"l": 1, "p": "p9"}},
    {"zimo": {"p": "z5", "l": 2}}, {"dapai": {"l": 0, "p": "m1_"}},
    {"dapai": {"l": 1, "p": "p9"}}, {"dapai": {"p": "z5_", "l": 2}},
    {"dapai": {"l": 3, "p": "s3*"}}, {"dapai": {"l": 1, "p": "p9_*"}},
    {"fulou": {"l": 1, "m": "z5555="}}, {"fulou": {"l": 2, "m": "m1-23"}},
    {"fulou": {"l": 3, "m": "p999+"}}, {"gang": {"l": 0, "m": "z1111"}},
    {"gang": {"l": 1, "m": "m111+1"}}, {"gangzimo": {"l": 1, "p": "p9"}},
    {"gangzimo": {"l": 0, "p": "z3"}}, {"kaigang": {"baopai": "s1"}},
    {"penuki": {"l": 1, "p": "z4"}}, {"other": {"l": 0}}, _HULE,
    {"pingju": {"name": "三家和了", "shoupai": ["", "", "", ""]}},
    {"pingju": {"name": "流局", "shoupai": ["", "", "", ""], "fenpei": [0, 0, 0, 0]}},
]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.lists(st.sampled_from(_ENTRIES), max_size=14), min_size=1, max_size=3))
def test_any_entries_read_quickly_as_in_full(hands: list[list[dict[str, Any]]]) -> None:
    """Kans and their indicators, riichi discards and what follows them, shared entries
    after each: the quick reading (which reads every such paipu) gives the full one's
    events, positions and notes, or the full reading words an error."""
    data = _paipu(*([_qipai(jushu=k % 4), *entries] for k, entries in enumerate(hands)))
    full = _outcome(lambda d: read_full(d, "t.json"), data)
    for by_bytes in (True, False):
        try:
            quick = _outcome(lambda d, b=by_bytes: read_quick(d, "t.json", 64, by_bytes=b),
                             data)
        except NotQuick:  # never for these entries, only for other texts
            pytest.fail("the quick reading gave way")
        assert quick == full


def test_every_entry_kind_follows_shared_entries() -> None:
    """Each kind right before, between and after shared entries, as in full."""
    shared = [{"zimo": {"l": 0, "p": "m1"}}, {"dapai": {"l": 0, "p": "m1_"}}]
    for entry in _ENTRIES:
        for before in range(3):
            data = _paipu([_qipai(), *shared[:before], entry, *shared, entry, *shared])
            full = _outcome(lambda d: read_full(d, "t.json"), data)
            quick = _outcome(lambda d: read_quick(d, "t.json", 64, by_bytes=True), data)
            assert quick == full, entry


@pytest.mark.parametrize("path", [
    "a/b.json", "b.json", "a/.json", "a/..", "a/.", "a/", "", ".", "..", "x.tar.gz", "/a/b",
    "a//b.c", ".a", "a.", "a..", "a/b.c/", "a/b.json/.", "a\\b.c", "a/ b .c", "a/b..c",
    "1700000000gm-00a9-0000-12345678.json", "d/1700000000gm-00a9-0000-12345678"])
def test_a_log_id_is_the_stem_pathlib_finds(path: str) -> None:
    assert _stem(path) == PurePath(path).stem


def test_players_read_again_read_the_same() -> None:
    names = ["名前 (七段 R2112)", "名前\n(七段 R2112)", "plain", "名前 (七段 R2112)"]
    for _ in range(2):
        data = _paipu([_qipai()]).replace(
            b'"player": ["p0", "p1", "p2", "p3"]',
            ('"player": ' + str(names).replace("'", '"').replace("\n", "\\n")).encode())
        game = read_quick(data, "t.json", 64)
        assert [(p.name, p.rank, p.rating) for p in game.players] == [
            ("名前", "七段", 2112.0), ("名前", "七段", 2112.0), ("plain", None, None),
            ("名前", "七段", 2112.0)]
        assert game.players == read_full(data, "t.json").players


def test_a_shared_discard_played_at_once_after_an_open_kan_follows_its_indicator() -> None:
    """The kan played, and the draws after it, before the discard is read: the discard
    still waits for the indicator that follows it."""
    data = _paipu([_qipai(), {"fulou": {"l": 1, "m": "z5555="}}, {"zimo": {"l": 1, "p": "p9"}},
                   {"zimo": {"l": 1, "p": "p8"}}, {"dapai": {"l": 1, "p": "p9"}},
                   {"kaigang": {"baopai": "s1"}}, {"zimo": {"l": 2, "p": "s2"}}])
    game = read_quick(data, "t.json", 64, by_bytes=True)
    assert [type(e).__name__ for e in game.events[1:]] == [
        "Daiminkan", "Tsumo", "Tsumo", "Dora", "Dahai", "Tsumo"]
    assert _outcome(lambda d: read_quick(d, "t.json", 64, by_bytes=True), data) == \
        _outcome(lambda d: read_full(d, "t.json"), data)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 1), max_size=700), st.lists(st.integers(1, 3), max_size=700))
def test_a_hands_track_order_is_its_takes_codes(tracks: list[int], gaps: list[int]) -> None:
    """Takes from tracks 0 and 1 at growing entries: their codes from where the tracks
    do not alternate, over runs longer than the patterns kept too."""
    elements: tuple[list[int], list[int]] = ([], [])
    entry = 0
    for k, track in enumerate(tracks):
        entry += gaps[k] if k < len(gaps) else 1
        elements[track].append(entry)
    runs = [k for k in range(1, len(tracks)) if tracks[k] == tracks[k - 1]]
    assert track_order((tuple(elements[0]), tuple(elements[1])), runs) == \
        bytes(TAKE_NEXT + t for t in tracks)


def test_a_long_run_of_takes_in_turn() -> None:
    tracks = [k % 2 for k in range(1000)]
    elements = (tuple(range(0, 1000, 2)), tuple(range(1, 1000, 2)))
    assert track_order(elements, []) == bytes(TAKE_NEXT + t for t in tracks)
