"""The bytes-level pieces of the majiang reader's quick reading: the draw and discard
entries it reads without a decoder, where a value ends and how deep it nests, and the
hand strings read byte by byte; each against what ``json`` and the character-by-
character reading give."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kansa.parsers.canonical import sorted_hidden, sorted_tiles
from kansa.parsers.errors import LogFormatError
from kansa.parsers.majiang.scan import NOT_SHARED, TILE_INDEXES, entry_code, value_span
from kansa.parsers.majiang.tiles import haisi_with_error, plain_haisi
from kansa.replay.events import SourceRef
from kansa.replay.tiles import ALL_TILES

_TILE_NAMES = sorted(t.majiang for t in ALL_TILES)


def _read(code: int) -> tuple[str, int, str]:
    """The entry an :func:`entry_code` code names: its kind, ``l`` and ``p``."""
    tsumogiri, rest = code % 2, code // 2
    tile = rest % TILE_INDEXES
    kind, actor = divmod(rest // TILE_INDEXES, 4)
    name = "mpsz"[tile // 10] + str(tile % 10)
    return ("zimo", "dapai")[kind], actor, name + ("_" if tsumogiri else "")


def _as_entry(text: bytes) -> tuple[str, int, str] | None:
    """The entry ``json`` reads from ``text`` where it has the shape of a shared draw
    or discard, else ``None``."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    if not isinstance(value, dict) or len(value) != 1:
        return None
    ((kind, body),) = value.items()
    if not isinstance(body, dict) or set(body) != {"l", "p"}:
        return None
    return kind, body["l"], body["p"]


_SPACE = st.sampled_from(["", "", "", " ", "\n  ", "\t", "\r\n"])


@st.composite
def _entries(draw: st.DrawFn, space: st.SearchStrategy[str] = _SPACE
             ) -> tuple[bytes, tuple[str, int, str]]:
    kind = draw(st.sampled_from(["zimo", "dapai"]))
    actor = draw(st.integers(0, 3))
    tile = draw(st.sampled_from(_TILE_NAMES))
    if kind == "dapai" and draw(st.booleans()):
        tile += "_"
    fields = [f'"l"{draw(space)}:{draw(space)}{actor}',
              f'"p"{draw(space)}:{draw(space)}"{tile}"']
    if draw(st.booleans()):
        fields.reverse()
    s = [draw(space) for _ in range(8)]
    text = (f'{{{s[0]}"{kind}"{s[1]}:{s[2]}{{{s[3]}{fields[0]}{s[4]},{s[5]}{fields[1]}'
            f'{s[6]}}}{s[7]}}}')
    return text.encode(), (kind, actor, tile)


_PADS = st.sampled_from([b"", b"]" * 40])
"""What follows an entry's next byte: nothing, or enough for the compact reading of
``entry_code`` (which only reads an entry with a few bytes after it) to run."""


@settings(max_examples=400, deadline=None)
@given(_entries(), st.sampled_from([b",", b"]", b" ,"]), _PADS)
def test_a_draw_or_discard_reads_as_json_reads_it(
        entry: tuple[bytes, tuple[str, int, str]], after: bytes, pad: bytes) -> None:
    text, expected = entry
    code, end = entry_code(text + after + pad, 0, 4)
    assert code != NOT_SHARED and end == len(text)
    assert _read(code) == expected


@settings(max_examples=1500, deadline=None)
@given(entry=_entries() | _entries(st.just("")), at=st.integers(0, 60),
       insert=st.binary(max_size=3), cut=st.integers(0, 3), players=st.integers(3, 4),
       pad=_PADS)
def test_an_edited_entry_is_read_only_as_json_reads_it(
        *, entry: tuple[bytes, tuple[str, int, str]], at: int, insert: bytes, cut: int,
        players: int, pad: bytes) -> None:
    """Whatever a few bytes changed make of an entry, a code is given only for a text
    ``json`` reads as that draw or discard, with a seat below ``players``."""
    text, _ = entry
    at = min(at, len(text))
    edited = text[:at] + insert + text[at + cut:]
    try:
        code, end = entry_code(edited + b"]" + pad, 0, players)
    except IndexError:  # the text ended inside the entry
        return
    if code == NOT_SHARED:
        assert end == 0
        return
    read = _as_entry(edited[:end])
    assert read is not None and read == _read(code), edited
    assert read[1] < players


@pytest.mark.parametrize("text", [
    b'{"zimo":{"l":0,"p":"m1","l":1}}',  # a field more
    b'{"zimo":{"l":0}}',
    b'{"zimo":{"l":0,"p":"m1_"}}',  # a draw is never tsumogiri
    b'{"dapai":{"l":0,"p":"m1*"}}',  # riichi: its declaration's events follow
    b'{"dapai":{"l":0,"p":"m1_*"}}',
    b'{"dapai":{"l":0,"p":"z8"}}', b'{"dapai":{"l":0,"p":"z0"}}',
    b'{"dapai":{"l":4,"p":"m1"}}', b'{"dapai":{"l":-0,"p":"m1"}}',
    b'{"dapai":{"l":0.0,"p":"m1"}}', b'{"dapai":{"l":0e0,"p":"m1"}}',
    b'{"dapai":{"l":01,"p":"m1"}}', b'{"dapai":{"l":"0","p":"m1"}}',
    b'{"gangzimo":{"l":0,"p":"m1"}}', b'{"zimo":{"l":0,"p":"m1"},"x":1}',
    b'["zimo":{"l":0,"p":"m1"}}', b'{"zimo":["l":0,"p":"m1"}}',
    b'{"zimo":{"l":0,"p":"m1"]}', b'{"zimo":{"l":0;"p":"m1"}}',
    b'{"zimo":{"l":0,"p":"\\u006d1"}}', b'{"zi\\u006do":{"l":0,"p":"m1"}}',
])
@pytest.mark.parametrize("pad", [b"", b"]" * 40])
def test_anything_else_is_left_to_the_decoder(text: bytes, pad: bytes) -> None:
    assert entry_code(text + b"]" + pad, 0, 4) == (NOT_SHARED, 0)


@pytest.mark.parametrize(("text", "read"), [
    (b'{"zimo":{"l":3,"p":"z7"}}', ("zimo", 3, "z7")),
    (b'{"dapai":{"l":2,"p":"p0"}}', ("dapai", 2, "p0")),
    (b'{"dapai":{"l":1,"p":"s9_"}}', ("dapai", 1, "s9_")),
    (b'{"zimo":{"p":"m5","l":0}}', ("zimo", 0, "m5")),
    (b'{"dapai":{"p":"z1","l":3}}', ("dapai", 3, "z1")),
    (b'{"dapai":{"p":"m0_","l":2}}', ("dapai", 2, "m0_")),
])
def test_a_compact_entry_reads_whatever_follows(text: bytes, read: tuple[str, int, str]
                                                ) -> None:
    for after in (b"", b",", b"]]}", b"," + text * 2):
        code, end = entry_code(text + after, 0, 4)
        assert _read(code) == read and end == len(text)
    for edit in (b'"l":1', b'"l":0', b'"l":-'):  # two digits, a leading 0, below 0
        assert entry_code(text.replace(b'"l":', edit) + b"]" * 40, 0, 4)[0] == NOT_SHARED
    assert entry_code(text + b"]" * 40, 0, 3)[0] == NOT_SHARED or read[1] < 3


_COMPACT = [b'{"zimo":{"l":3,"p":"z7"}}', b'{"dapai":{"l":1,"p":"s9_"}}',
            b'{"zimo":{"p":"m5","l":0}}', b'{"dapai":{"p":"m0_","l":2}}']


@pytest.mark.parametrize("text", _COMPACT)
def test_every_byte_of_a_compact_entry_is_checked(text: bytes) -> None:
    """Each byte of an entry changed in turn: a code only where ``json`` reads that draw
    or discard (a space), and the entry's end where it ends."""
    for at in range(len(text)):
        for byte in b' #019"_,:}':
            edited = text[:at] + bytes([byte]) + text[at + 1:]
            code, end = entry_code(edited + b"]" * 40, 0, 4)
            if code == NOT_SHARED:
                assert end == 0
                continue
            read = _as_entry(edited[:end])
            assert read is not None and read == _read(code), edited


_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.text(max_size=5),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner,
                                                                 max_size=3),
    max_leaves=12)


def _depth(value: Any) -> int:
    if isinstance(value, list):
        return 1 + max((_depth(v) for v in value), default=0)
    if isinstance(value, dict):
        return 1 + max((_depth(v) for v in value.values()), default=0)
    return 0


@settings(max_examples=400, deadline=None)
@given(_JSON, st.sampled_from([(",", ":"), (", ", ": ")]), st.booleans(),
       st.sampled_from([b",", b"]", b"}", b" ]"]))
def test_a_value_ends_where_json_says_and_nests_as_deep(
        value: Any, separators: tuple[str, str], ascii_only: bool, after: bytes) -> None:
    text = json.dumps(value, separators=separators, ensure_ascii=ascii_only).encode()
    end, deepest = value_span(b"[" + text + after, 1)
    assert (end, deepest) == (len(text) + 1, _depth(value))


_HAND_TEXT = st.text(alphabet="mpsz0123456789_*+=-,x五 ", max_size=20)


@settings(max_examples=600, deadline=None)
@given(_HAND_TEXT)
def test_a_hand_string_reads_as_character_by_character(text: str) -> None:
    plain = plain_haisi(text.encode())
    try:
        slow: Any = haisi_with_error(text, SourceRef("t"))
    except LogFormatError:
        slow = None
    assert plain == slow


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(ALL_TILES), max_size=14),
       st.lists(st.booleans(), max_size=14))
def test_tiles_sort_as_sorted_sorts_them(tiles: list[Any], hidden: list[bool]) -> None:
    def key(tile: Any) -> int:
        return int(tile.order)

    assert sorted_tiles(tuple(tiles)) == tuple(sorted(tiles, key=key))
    some = tuple(None if k < len(hidden) and hidden[k] else t for k, t in enumerate(tiles))
    known = [t for t in some if t is not None]
    assert sorted_hidden(some) == (*sorted(known, key=key), *(None,) * (len(some) - len(known)))
