"""Long mjai lines (an AI's annotations beside the event) read through
``parsers/mjai/line.py``'s ``Line``, which skips the annotations unbuilt, against the
reader's per-line code: the same games, positions, notes and errors on crafted,
annotated and byte-mutated logs."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from kansa.parsers.source import Limits
from tests.parsers.test_mjai_fast import LINES, log, same_reading

NOTE = "| action | avgRank |\n|  -1.8s |  2.61 [x] {y} \"q\" \\ |"
"""An AI's annotation, as some writers add to every line: escapes, brackets and quotes
inside a string."""


def annotated(lines: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Each draw and discard with annotations of the two common shapes."""
    out: list[dict[str, Any]] = []
    for k, line in enumerate(lines):
        extra: dict[str, Any] = {}
        if line["type"] in ("tsumo", "dahai"):
            extra = {"logs": [None, NOTE]} if k % 2 else \
                {"meta": {"q_values": [0.5, -1.25, 3], "mask_bits": 2 ** 40, "shanten": 2}}
        out.append({**line, **extra})
    return out


def test_annotated_logs_read_the_same() -> None:
    for data in (log(annotated(LINES)), log(annotated(LINES))[:-1],
                 log(annotated([{"type": "start_game", "names": ["東", "南", "西", "北"]},
                                *LINES[1:]]))):
        games = same_reading(data)
        assert games[0][0].events and games[0][0].players[0].name in ("a", "東")


def test_annotations_do_not_change_the_game() -> None:
    plain, rich = same_reading(log(LINES)), same_reading(log(annotated(LINES)))
    assert [g for g, _, _ in plain] == [g for g, _, _ in rich]
    assert [srcs for _, srcs, _ in plain] == [srcs for _, srcs, _ in rich]


SHAPES = {
    "carriage returns": log(annotated(LINES)).replace(b"\n", b"\r\n"),
    "a line indented": log(LINES[:5]) + b"  " + log(annotated(LINES[5:])),
    "a blank line": log(LINES[:5]) + b"\n" + log(annotated(LINES[5:])),
    "blank lines at the end": log(annotated(LINES)) + b"\n\n",
    "a byte-order mark": b"\xef\xbb\xbf" + log(annotated(LINES)),
    "two objects on a line": log(LINES[:5]) + b'{"type":"reach","actor":0,"logs":[null,"'
    + b"x" * 99 + b'"]} {"type":"reach","actor":0}\n' + log(LINES[5:]),
    "an object across lines": log(LINES[:5]) + b'{"type":"reach","actor":1,\n"a":"'
    + b"x" * 99 + b'"}\n' + log(LINES[5:]),
    "a line cut off": log(annotated(LINES))[:-9],
    "a line that is not an object": log(LINES[:5]) + b"[" + b"1," * 60 + b"1]\n"
    + log(LINES[5:]),
    "too deep": log(annotated(LINES)).replace(b'"shanten"', b'"x":[[[[[[[[]]]]]]]],"shanten"'),
    "a long integer": log(LINES[:3]) + b'{"type":"dahai","actor":0,"pai":"9s",'
    + b'"tsumogiri":true,"n":' + b"9" * 5000 + b"}\n" + log(LINES[4:]),
    "a long integer read": log(LINES[:3]) + b'{"type":"dahai","actor":' + b"9" * 5000
    + b',"pai":"9s","tsumogiri":true,"logs":"' + b"x" * 99 + b'"}\n' + log(LINES[4:]),
    "NaN in an annotation": log(LINES[:3]) + b'{"type":"dahai","actor":0,"pai":"9s",'
    + b'"tsumogiri":true,"logs":NaN,"x":"' + b"x" * 99 + b'"}\n' + log(LINES[4:]),
}


@pytest.mark.parametrize("shape", SHAPES)
def test_logs_of_odd_shapes_read_the_same(shape: str) -> None:
    same_reading(SHAPES[shape], Limits(max_json_depth=8))


def test_the_depth_limit_holds_in_a_skipped_field() -> None:
    deep = {"type": "dahai", "actor": 0, "pai": "9s", "tsumogiri": True,
            "meta": {"q": [[1]], "s": "[[[[[[\\\"[[["}}
    data = log([*LINES[:3], deep, *LINES[4:]])
    assert same_reading(data, Limits(max_json_depth=4))[0][0].events
    error = same_reading(data, Limits(max_json_depth=3))
    assert error[0] == "error" and "deeper than 3" in error[1] and error[2].line == 4


def test_odd_bytes_in_a_skipped_string_read_the_same() -> None:
    for value in (b'"\\ud800"', b'"\xff"', b'"\\u00e9\\\\"', b"1e999", b"-0.0"):
        data = log(LINES[:3]) + b'{"type":"dahai","actor":0,"pai":"9s","tsumogiri":true,' \
            + b'"logs":' + value + b"}\n" + log(LINES[4:])
        same_reading(data)


def test_keys_written_with_escapes_or_twice_read_the_same() -> None:
    tail = ',"logs":' + json.dumps(NOTE) + "}"
    for line in ('{"typ\\u0065":"dahai","actor":0,"pai":"9s","tsumogiri":true',
                 '{"type":"dahai","actor":1,"pai":"9s","tsumogiri":true,"actor":0',
                 '{"type":"dahai","actor":0,"pai":"9s","tsumogiri":true,"pai":null'):
        same_reading(log([*LINES[:3], line + tail, *LINES[4:]]))


MARKS = [b"\n", b"{", b"}", b"[", b"]", b'"', b"\\", b",", b":", b"9" * 3, b" ", b"\r",
         b"\xff", b"null", b'"type":"tsumo"']


def test_byte_mutated_logs_read_the_same() -> None:
    """Bytes inserted, deleted or replaced anywhere in annotated logs: whichever reading
    takes the file, the outcome is the line-by-line one."""
    rng = random.Random(2022)
    base = log(annotated(LINES))
    for _ in range(600):
        data = bytearray(base)
        for _ in range(rng.randint(1, 3)):
            at = rng.randrange(len(data))
            roll = rng.random()
            if roll < 0.4:
                data[at:at] = rng.choice(MARKS)
            elif roll < 0.7:
                del data[at:at + rng.randint(1, 4)]
            else:
                data[at:at + 1] = rng.choice(MARKS)
        limits = Limits(max_json_depth=rng.choice([2, 3, 64]))
        same_reading(bytes(data), limits)


def test_line_mutated_logs_read_the_same() -> None:
    """Whole lines changed (the mutations of the quick reading) in the usual shape."""
    rng = random.Random(7)
    values: list[Any] = [None, True, 1.0, -1, 4, "9s", "?", [], {}, [[["x"]]], 2 ** 70]
    for _ in range(300):
        lines = annotated([dict(x) for x in LINES])
        for _ in range(rng.randint(1, 3)):
            line = rng.choice(lines[2:])
            line[rng.choice(["actor", "pai", "tsumogiri", "dora_marker", "scores",
                             "type", "logs"])] = rng.choice(values)
        same_reading("".join(json.dumps(x) + "\n" for x in lines).encode())
