"""The quick reading of mjai lines (``parsers/mjai/fast.py``) against the reader's own
per-line code: the same games, positions, notes and errors on real, crafted and
mutated logs."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from kansa.parsers._json import decode_text
from kansa.parsers.errors import LogFormatError
from kansa.parsers.mjai import fast
from kansa.parsers.mjai.fast import quick_hand
from kansa.parsers.mjai.read import Reader, parse
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.replay.events import EndKyoku, SourceRef
from kansa.replay.game import Game
from kansa.replay.tiles import Tile

HANDS = [["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p"],
         ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "E", "S", "W", "N"],
         ["1p", "1p", "2p", "2p", "3p", "3p", "4p", "4p", "5p", "5p", "6p", "6p", "7p"],
         ["P", "P", "P", "F", "F", "F", "C", "C", "C", "5mr", "5pr", "5sr", "9p"]]
LINES: list[dict[str, Any]] = [
    {"type": "start_game", "names": ["a", "b", "c", "d"]},
    {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0, "oya": 0,
     "dora_marker": "1m", "scores": [25000] * 4, "tehais": HANDS},
    {"type": "tsumo", "actor": 0, "pai": "9s"},
    {"type": "dahai", "actor": 0, "pai": "9s", "tsumogiri": True},
    {"type": "tsumo", "actor": 1, "pai": "?"},
    {"type": "dahai", "actor": 1, "pai": "N", "tsumogiri": False, "logs": [None, "x"]},
    {"type": "pon", "actor": 3, "target": 1, "pai": "N", "consumed": ["N", "N"]},
    {"type": "dahai", "actor": 3, "pai": "9p", "tsumogiri": True},
    {"type": "tsumo", "actor": 0, "pai": "7z"},
    {"type": "reach", "actor": 0},
    {"type": "dahai", "actor": 0, "pai": "4p", "tsumogiri": False},
    {"type": "reach_accepted", "actor": 0, "scores": [24000, 25000, 25000, 25000]},
    {"type": "dora", "dora_marker": "2s"},
    {"type": "ryukyoku", "reason": "fanpai", "deltas": [3000, -1000, -1000, -1000]},
    {"type": "end_kyoku"},
    {"type": "end_game"},
]


def per_line(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """The reading before the quick one: every line through ``Reader.read_line``."""
    reader = Reader(source)
    rows = decode_text(data, source).split("\n")
    for number, raw in enumerate(rows, 1):
        if reader.read_line(raw, number, limits,
                            end=len(data) if number == len(rows) else None):
            break
    return reader.finish()


def outcome(read: Any, data: bytes, limits: Limits = DEFAULT_LIMITS) -> Any:
    """Everything a reading gives, positions included (events compare without them)."""
    try:
        games = read(data, "x.mjson", limits)
    except LogFormatError as exc:
        return ("error", str(exc), exc.src)
    # the positions as src_of gives them, whether kept in the events or in runs
    return [(g, [g.src_of(i) for i in range(len(g.events))], g.diagnostics) for g in games]


def by_slots(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """The quick reading with the lines read before looked up in their slots
    (``fast._SLOTS``), as the compiled build reads them, in either build."""
    reader = Reader(source)
    fast.read_pieces(reader, data, limits, by_slots=True)
    return reader.finish()


def same_reading(data: bytes, limits: Limits = DEFAULT_LIMITS) -> Any:
    quick = outcome(parse, data, limits)
    assert quick == outcome(per_line, data, limits)
    assert quick == outcome(by_slots, data, limits)
    return quick


def log(lines: list[Any]) -> bytes:
    return "".join((x if isinstance(x, str) else json.dumps(x)) + "\n"
                   for x in lines).encode()


def test_a_crafted_log_reads_the_same_with_positions() -> None:
    games = same_reading(log(LINES))
    assert games[0][0].events[1].tile is Tile.from_mjai("9s")
    assert [src.line for src in games[0][1]] == list(range(2, len(LINES) + 1))


def test_every_corpus_mjai_log_reads_the_same(corpus_dir: Path) -> None:
    files = [p for p in sorted((corpus_dir / "mjai").rglob("*")) if p.is_file()
             and p.suffix in (".mjson", ".json", ".jsonl")]
    assert files
    for path in files:
        same_reading(path.read_bytes())


ODD_VALUES: list[Any] = [
    None, True, 1.0, -1, 4, 7, "0", "?", "9s", "xx", "5mr", [], {}, [[["deep"]]],
    2 ** 70, 1.5,
]
ODD_TEXTS = [
    '{"type":"dahai","actor":0,"pai":"1m","tsumogiri":NaN}',
    '{"type":"tsumo","actor":0,"pai":"1m","x":1e999}',
    '{"type":"tsumo","actor":0,"pai":"1m","x":"\\ud800"}',
    '{"type":"tsumo","actor":0,"pai":"1m","actor":1}',
    '  {"type":"tsumo","actor":0,"pai":"1m"}\r',
    '\ufeff{"type":"tsumo","actor":0,"pai":"1m"}',
    '{"type":"tsumo","actor":0,"pai":"1m"} {"type":"tsumo","actor":1,"pai":"1m"}',
    '[{"type":"tsumo","actor":0,"pai":"1m"}]',
    '{"type":"tsumo","actor":0,"pai":"1m","meta":' + "[" * 70 + "]" * 70 + "}",
    '{"type":"tsumo","actor":0,"pai":"1m","meta":' + "[" * 62 + "]" * 62 + "}",
    '{"type":"dahai","actor":0,"pai":"1m","tsumogiri":true,"logs":' + "[" * 70
    + "]" * 70 + "}",
    '{"type":"tsumo","actor":0,"pai":"1m","n":' + "9" * 5000 + "}",
    '{"type":"end_kyoku","a":[1,',
    '{"type":"reach_accepted","actor":0,"scores":[1,2,3,4.0]}',
    '{"type":"reach_accepted","actor":0,"scores":[1,2,3]}',
    '{"type":"reach_accepted","actor":0,"scores":null}',
    '{"type":"dahai","actor":0,"pai":"1m"}',
    # long lines, read as annotated ones; the first "type" is not the one that counts
    '{"type":"hora","logs":"' + "x" * 120 + '","type":"dahai","actor":0,"pai":"1m",'
    '"tsumogiri":false}',
    '{"type":"dahai","actor":0,"pai":"1m","tsumogiri":false,"logs":"' + "x" * 120 + '"}',
    '{"type":"' + "x" * 120,
    '{"type": "hora", "logs": "' + "x" * 120 + '", "type": "dahai", "actor": 0, "pai": "1m", '
    '"tsumogiri": false}',
    '{"type": "reach_accepted", "actor": 0, "logs": "' + "x" * 120 + '"}',
]


@pytest.mark.parametrize("text", ODD_TEXTS)
def test_odd_lines_read_the_same(text: str) -> None:
    for where in (3, 11, len(LINES)):  # mid-hand, after riichi, the last line
        same_reading(log([*LINES[:where], text, *LINES[where:]]))


def test_mutated_lines_read_the_same() -> None:
    rng = random.Random(22)
    keys = ["actor", "pai", "tsumogiri", "dora_marker", "scores", "type", "extra"]
    for _ in range(400):
        lines = [dict(x) for x in LINES]
        for _ in range(rng.randint(1, 3)):
            line = rng.choice(lines[2:])
            key = rng.choice(keys)
            if rng.random() < 0.2:
                line.pop(key, None)
            else:
                line[key] = rng.choice(ODD_VALUES)
        same_reading(log(lines))


def test_the_depth_limit_holds_for_quick_lines() -> None:
    deep = '{"type":"tsumo","actor":0,"pai":"1m","logs":[[[1]]]}'
    data = log([*LINES[:3], deep, *LINES[3:]])
    assert same_reading(data, Limits(max_json_depth=4))[0][0].events
    error = same_reading(data, Limits(max_json_depth=3))
    assert error[0] == "error" and "deeper than 3" in error[1]
    assert (error[2].line, error[2].column) == (4, deep.index("[[[") + 3)
    flat = log([*LINES[:3], '{"type":"tsumo","actor":0,"pai":"1m","logs":[1]}'])
    assert same_reading(flat, Limits(max_json_depth=1))[0] == "error"


def test_quick_hand_reads_tile_names_and_leaves_the_rest() -> None:
    assert quick_hand(["1m", "?", "5mr"]) == (Tile.from_mjai("1m"), None,
                                              Tile.from_mjai("5mr"))
    assert quick_hand(["1m", "0m"]) is None
    assert quick_hand(["1m", ["1m"]]) is None
    assert quick_hand([1, None]) is None


def by_rows(lines: list[Any]) -> bytes:
    """A log that is not read whole (a blank first line): read line by line."""
    return b"\n" + log(lines)


def test_lines_read_before_read_the_same_again() -> None:
    """A draw or discard read before is taken from its text (``fast._PLAIN``): the same
    game and positions, in this file and in another."""
    data = by_rows(LINES)
    first = same_reading(data)
    assert '{"type": "dahai", "actor": 0, "pai": "9s", "tsumogiri": true}' in fast._PLAIN
    assert same_reading(data) == first
    moved = by_rows([*LINES[:3], LINES[2], *LINES[3:]])  # the same text on other lines
    assert [src.line for src in same_reading(moved)[0][1]] == list(range(3, len(LINES) + 3))


def test_a_line_read_before_is_checked_against_the_seats_of_its_game() -> None:
    fourth = {"type": "tsumo", "actor": 3, "pai": "1m"}
    same_reading(by_rows([*LINES[:3], fourth, *LINES[3:]]))  # kept from a four-player game
    assert json.dumps(fourth) in fast._PLAIN
    three = [{"type": "start_game", "names": ["a", "b", "c"]},
             {"type": "start_kyoku", "bakaze": "E", "kyoku": 1, "honba": 0, "kyotaku": 0,
              "oya": 0, "dora_marker": "1m", "scores": [35000] * 3, "tehais": HANDS[:3]},
             fourth, {"type": "end_kyoku"}, {"type": "end_game"}]
    reading = same_reading(by_rows(three))
    assert reading[0] == "error" and "outside 0..2" in reading[1]


def test_a_repeated_draw_or_discard_line_is_one_shared_event_placed_by_its_runs() -> None:
    head, kyoku, tail = LINES[:2], LINES[2:4], LINES[13:]
    rows = [*head, *kyoku, *kyoku, {"type": "none"}, *kyoku,
            {"type": "tsumo", "actor": 1, "pai": "?"}, *kyoku, *tail]
    data = "\n".join(json.dumps(r) for r in rows).encode()
    game = parse(data, "shared.mjson")[0]
    draws = [i for i, e in enumerate(game.events) if e == game.events[1]]
    assert len(draws) == 4
    shared = [game.events[i] for i in draws[1:]]  # the first was read, the others looked up
    assert shared[0] is shared[1] is shared[2] and shared[0].src is None
    # runs break at a line without an event (7) and at an event with its own position
    assert [game.src_of(i) for i in draws] == [
        SourceRef("shared.mjson", line) for line in (3, 5, 8, 11)]
    assert outcome(parse, data) == outcome(per_line, data)


@pytest.mark.parametrize("edit", [
    lambda d: d.replace(b'"a"', "\"東\"".encode(), 1),  # a name not ASCII
    lambda d: b"\xef\xbb\xbf" + d,
    lambda d: d.replace(b'"end_game"}', b'"end_game", "x": "\xff"}'),  # not UTF-8, after an error
    lambda d: d.replace(b'"pai": "9p"', b'"pai": "9\xff"'),
    lambda d: d.replace(b'"end_game"}\n', "{\"type\": \"end_game\", \"x\": \"東\"}".encode()[:-3]),
    lambda d: d.replace(b"\n", b"\r\n"),
    lambda d: d.rstrip(b"\n"),
])
def test_odd_bytes_read_as_line_by_line(edit: Any) -> None:
    """Names that are not ASCII, a byte-order mark, bytes that are not UTF-8 (after an
    error in a line, too), a last character cut off, CRLF line ends, no last newline."""
    data = edit(log([*LINES[:4], {"type": "hora", "actor": 9}, *LINES[4:]]))
    same_reading(data)
    same_reading(edit(log(LINES)))


def long_log(middle: dict[str, Any] | None = None) -> bytes:
    """A log of about 140 KB: a hand of 2,600 draws and discards, with ``middle`` after
    the first 600 (in the second of the three pieces ``fast.read_pieces`` reads)."""
    extra = [] if middle is None else [middle]
    return log([*LINES[:2], *LINES[2:4] * 300, *extra, *LINES[2:4] * 1000, *LINES[13:]])


@pytest.mark.parametrize("edit", [
    lambda d: d.replace(b'"a"', "\"東\"".encode(), 1),  # a name not ASCII
    lambda d: b"\xef\xbb\xbf" + d,
    lambda d: d.replace(b'"kansa": 0', "\"kansa\": \"東\"".encode()),  # half-way only
    lambda d: d.replace(b'"kansa": 0', b'"kansa": "\xff"'),  # not UTF-8 half-way
    lambda d: d.replace(b'"end_game"}', "\"end_game\", \"x\": \"東".encode() + b'\xff"}'),
    lambda d: d.replace(b'"end_game"}\n', "{\"type\": \"end_game\", \"x\": \"東\"}".encode()[:-3]),
    lambda d: d.replace(b"\n", b"\r\n").replace(b'"a"', "\"東\"".encode(), 1),
    lambda d: d.rstrip(b"\n").replace(b'"a"', "\"東\"".encode(), 1),
])
@pytest.mark.parametrize("error", [False, True])
def test_a_long_log_not_all_ascii_reads_as_line_by_line(edit: Any, error: bool) -> None:
    """A log whose text is not all ASCII is decoded in pieces (``fast.read_pieces``):
    text that is not ASCII, or not UTF-8, in its first, middle or last piece, a
    byte-order mark, a last character cut off, and an error in a line of the first
    piece before bytes that are not UTF-8 further on."""
    data = edit(long_log({"type": "none", "kansa": 0}))
    assert not data.isascii() and len(data) > 4096 + 2 * 65536
    assert 4096 < data.index(b'"kansa"') < 65536
    if error:
        data = data.replace(b'"kyoku": 1', b'"kyoku": "one"', 1)
    reading = same_reading(data)
    if b"\xff" in data:
        assert reading[0] == "error" and "not UTF-8" in reading[1]
    elif error:
        assert reading[0] == "error" and reading[2].line == 2
    else:
        game, places, _ = reading[0]
        ends = [i for i, e in enumerate(game.events) if isinstance(e, EndKyoku)]
        assert [places[i].line for i in ends] == [2605]  # 2 + 600 + 1 + 2,000 + 2


def test_a_line_in_the_slot_of_a_line_read_before_is_read_for_itself() -> None:
    """Two lines that differ only where ``fast._slot`` does not look share a slot: the
    second is compared with the line kept there, not taken for it."""
    draw = '{"type":"tsumo","actor":0,"pai":"9s"}'
    other = draw.replace("tsumo", "tsuxo")
    assert fast._slot(draw, 0) == fast._slot(other, 0)
    for second in (other, draw.replace('"9s"', '"9p"'), draw + " "):
        data = log([*LINES[:2], draw, LINES[3], draw, LINES[3], second, *LINES[13:]])
        same_reading(data)


def test_a_line_read_before_is_taken_only_whole() -> None:
    """A line kept in a slot is taken where it stands only with a newline right after
    it: not where the line goes on, not where the file ends without a newline, and not
    in a line that holds it further on."""
    draw = '{"type":"tsumo","actor":0,"pai":"9s"}'
    head = [*LINES[:2], draw, LINES[3]]
    for last in (draw, draw + ', "x": 1}', " " + draw):
        text = log([*head, draw, LINES[3]]).decode() + last
        same_reading(text.encode())
    # a kept line ending the text of a piece that is not the file's last
    data = log([*head, draw, LINES[3], *LINES[13:]])
    reader = Reader("x.mjson")
    text = data.decode()
    cut = text.index(draw, text.index(draw) + 1) + len(draw) + 1
    number = fast.read_rows(reader, text[:cut], DEFAULT_LIMITS, len(data), last=False,
                            by_slots=True)
    fast.read_rows(reader, text[cut:], DEFAULT_LIMITS, len(data), number, by_slots=True)
    assert outcome(lambda *_: reader.finish(), data) == outcome(per_line, data)
