"""Every JSON reader takes JSON with one tolerance (kansa.parsers._json): encoding, depth,
NaN and integral floats are answered the same by tenhou.net/6, mjai, majiang and Mahjong
Soul, at the same position."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from kansa.parsers import parse_bytes
from kansa.parsers._json import (
    NOT_READ,
    SHALLOW_DEPTH,
    holds,
    loads,
    nesting,
    plainly_within,
    quick_value,
    shallow_value,
)
from kansa.parsers.errors import LogFormatError
from kansa.parsers.fields import Fields, check_int, integer_value
from kansa.parsers.registry import REGISTRY
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.parsers.tenhou6.jsontext import Where, as_int
from kansa.replay.events import SourceRef

HOLE = "@"
DOCUMENTS = {
    # a document of each format with a place (HOLE) for any JSON value, and how many
    # arrays and objects are open there
    "tenhou6": ('{"log": [[[0, @]]]}', 4),
    "mjai": ('{"type": "start_game", "names": @}\n', 1),
    "majiang": ('{"title": "x", "log": [[{"qipai": @}]]}', 4),
    "majsoul": ('{"events": [{"name": "NewRound", "data": @}]}', 3),
}


def test_every_json_format_is_tested() -> None:
    assert set(DOCUMENTS) == {f.name for f in REGISTRY if f.syntax == "json"}


def _read(fmt: str, value: str, limits: Limits = DEFAULT_LIMITS, prefix: bytes = b""
          ) -> LogFormatError:
    text = DOCUMENTS[fmt][0].replace(HOLE, value)
    with pytest.raises(LogFormatError) as info:
        parse_bytes(prefix + text.encode(), f"x.{fmt}", fmt, limits)
    return info.value


def _nest(depth: int) -> str:
    return "[" * depth + "0" + "]" * depth


@pytest.mark.parametrize("fmt", sorted(DOCUMENTS))
@pytest.mark.parametrize("limit", [8, 20])
def test_the_depth_limit_has_one_boundary(fmt: str, limit: int) -> None:
    template, open_at_hole = DOCUMENTS[fmt]
    at_limit = _read(fmt, _nest(limit - open_at_hole), Limits(max_json_depth=limit))
    assert "--max-json-depth" not in at_limit.reason  # refused for what it is, not its depth
    past = _read(fmt, _nest(limit - open_at_hole + 1), Limits(max_json_depth=limit))
    assert past.reason == f"JSON nested deeper than {limit} levels (--max-json-depth)"
    # the first bracket past the limit, in the text: the last one the hole opens
    column = template.index(HOLE) + (limit - open_at_hole) + 1
    assert (past.src.line, past.src.column) == (1, column)


@pytest.mark.parametrize("fmt", sorted(DOCUMENTS))
def test_brackets_inside_strings_are_not_depth(fmt: str) -> None:
    error = _read(fmt, json.dumps("[" * 50), Limits(max_json_depth=5))
    assert "--max-json-depth" not in error.reason


@pytest.mark.parametrize("fmt", sorted(DOCUMENTS))
@pytest.mark.parametrize("word", ["NaN", "Infinity", "-Infinity"])
def test_nan_and_infinity_are_refused_where_they_stand(fmt: str, word: str) -> None:
    error = _read(fmt, f'[1, "NaN", {word}]')
    assert error.reason == f"not valid JSON: {word} is not a number JSON allows"
    at = DOCUMENTS[fmt][0].index(HOLE) + len('[1, "NaN", ') + 1
    assert (error.src.line, error.src.column) == (1, at)


@pytest.mark.parametrize("fmt", sorted(DOCUMENTS))
def test_a_byte_order_mark_is_skipped_and_wide_text_refused(fmt: str) -> None:
    plain = _read(fmt, "NaN")
    assert _read(fmt, "NaN", prefix=b"\xef\xbb\xbf").src == plain.src
    for bom, name in ((b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"),
                      (b"\xff\xfe\x00\x00", "UTF-32")):
        error = _read(fmt, "0", prefix=bom)
        assert error.reason == f"the file is {name} text; JSON logs are read as UTF-8 only"


@pytest.mark.parametrize("fmt", sorted(DOCUMENTS))
def test_bytes_that_are_not_utf8_are_refused_at_their_column(fmt: str) -> None:
    template = DOCUMENTS[fmt][0]
    data = template.replace(HOLE, '"é\xff"').encode("utf-8").replace(b"\xc3\xbf", b"\xff")
    with pytest.raises(LogFormatError) as info:
        parse_bytes(data, f"x.{fmt}", fmt)
    assert info.value.reason == "not UTF-8 text (byte 0xff)"
    column = template.index(HOLE) + len('"é') + 1  # in characters
    assert (info.value.src.line, info.value.src.column) == (1, column)


def test_an_integer_longer_than_python_reads_is_infinity_like_1e999() -> None:
    long = "9" * 5000  # past sys.get_int_max_str_digits (4,300 by default)
    src = SourceRef("x", line=1)
    assert loads(f'[{long}, -{long}, 1e999, {"9" * 300}]', src, 4) == \
        [float("inf"), -float("inf"), float("inf"), int("9" * 300)]
    with pytest.raises(LogFormatError) as info:  # and a field that wants an integer refuses it
        Fields(loads(f'{{"n": {long}}}', src, 4), src).integer("n")
    assert info.value.reason == "'n' should be an integer, not Infinity"


INTEGERS = [(7, 7), (-3, -3), (25000.0, 25000), (0.0, 0), (2.0 ** 53, 2 ** 53),
            (2.0 ** 54, None), (0.5, None), (float("inf"), None), (float("nan"), None),
            (True, None), (False, None), ("3", None), (None, None), ([3], None)]


@pytest.mark.parametrize(("value", "expected"), INTEGERS)
def test_every_reader_reads_an_integer_one_way(value: object, expected: int | None) -> None:
    assert integer_value(value) == expected
    src = SourceRef("x.json", pointer="/k")
    readings = []
    for read in (lambda: check_int(value, src, "k"),
                 lambda: Fields({"k": value}, src).integer("k"),
                 lambda: as_int(Where("x.json"), "/k", value, "k")):
        try:
            readings.append(read())
        except LogFormatError:
            readings.append(None)
    assert readings == [expected] * 3


def test_json_lines_count_depth_and_positions_from_their_own_line() -> None:
    text = "[[[0]]]"
    assert loads(text, SourceRef("x", line=9), 3) == [[[0]]]
    with pytest.raises(LogFormatError) as info:
        loads(text, SourceRef("x", line=9), 2)
    assert (info.value.src.line, info.value.src.column) == (9, 3)
    with pytest.raises(LogFormatError) as info:
        loads("\n[NaN]", SourceRef("x", line=9), 5)
    assert (info.value.src.line, info.value.src.column) == (10, 2)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet='[]{}"\\ a,0é', max_size=40), st.integers(0, 6))
def test_the_quick_depth_count_never_passes_what_the_exact_one_refuses(text: str,
                                                                        limit: int) -> None:
    # plainly_within answers True only where nesting agrees; where it is unsure (a
    # backslash, a string left open, unbalanced brackets) nesting decides
    if plainly_within(text, limit):
        assert nesting(text) <= limit


_STRINGS_WITH_BRACKETS = st.text(alphabet="[]{} aé", max_size=6)
_DOCUMENTS = st.recursive(
    st.none() | st.integers() | _STRINGS_WITH_BRACKETS,
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(_STRINGS_WITH_BRACKETS, inner, max_size=3),
    max_leaves=30)


@settings(max_examples=1000, deadline=None)
@given(_DOCUMENTS, st.integers(0, 8))
def test_the_quick_depth_count_decides_every_document_without_an_escape(
        document: object, limit: int) -> None:
    text = json.dumps(document, ensure_ascii=False)
    assert plainly_within(text, limit) == (nesting(text) <= limit)


_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.integers(2**63, 2**70)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=4),
    lambda inner: st.lists(inner, max_size=2) | st.dictionaries(st.text(max_size=2), inner,
                                                                max_size=2),
    max_leaves=20)


@settings(max_examples=1000, deadline=None)
@given(_VALUES, st.integers(0, 6), st.booleans())
def test_the_shallow_reading_is_the_quick_one_within_its_depth(
        value: object, wrap: int, ascii_only: bool) -> None:
    text = ("[" * wrap + json.dumps(value, ensure_ascii=ascii_only) + "]" * wrap).encode()
    got = shallow_value(text, 64)
    if nesting(text.decode()) > SHALLOW_DEPTH:
        assert got is NOT_READ  # the depth is left to the count
    else:
        assert repr(got) == repr(quick_value(text))  # bool, int and float kept apart


def test_the_shallow_reading_leaves_a_lower_limit_and_other_texts_alone() -> None:
    assert shallow_value(b"[[1]]", SHALLOW_DEPTH) == [[1]]
    assert shallow_value(b"[[1]]", SHALLOW_DEPTH - 1) is NOT_READ  # the limit is counted
    for text in (b"[NaN]", b"[1e999]", b"[1] [2]", b'["\\ud800"]', b"\xef\xbb\xbf[1]"):
        assert shallow_value(text, 64) is NOT_READ


def test_the_quick_depth_count_ignores_brackets_in_strings() -> None:
    assert plainly_within('{"a": "[[[[[[", "b": [1]}', 2)
    assert not plainly_within('{"a": "[[[[[[", "b": [[[1]]]}', 3)
    assert not plainly_within('["\\"[[[[["]', 5)  # an escape: left to the exact count
    assert nesting('["\\"[[[[["]') == 1


@settings(max_examples=1000, deadline=None)
@given(st.lists(st.sampled_from([b'"type"', b'"typ', b"ype", b'"', b"y", b"yy" * 9, b"t", b"x"]),
                max_size=40),
       st.sampled_from([(b'"type"', 2), (b'"type"', 0), (b'"type"', 5), (b'"log"', 3)]))
def test_holds_answers_what_in_answers(parts: list[bytes], key: tuple[bytes, int]) -> None:
    # many hits of the rare byte (past the count after which the key is searched) too
    text = b"".join(parts)
    needle, rare = key
    assert holds(text, needle, rare) == (needle in text)


def test_holds_finds_a_key_after_many_hits_of_its_rare_byte() -> None:
    assert holds(b"y" * 40 + b'"type"', b'"type"', 2)
    assert holds(b"y" * 15 + b'"type"', b'"type"', 2)
    assert not holds(b"y" * 40 + b'"typ"', b'"type"', 2)
    assert holds(b'"type"', b'"type"', 2) and not holds(b'"typ', b'"type"', 2)
