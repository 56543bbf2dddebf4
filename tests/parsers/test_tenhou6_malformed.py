"""Bad input: LogFormatError with a position, never any other exception."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from conftest import corpus_path
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tenhou6_helpers import EQUIM, FILES, MJX, obj

from kansa.parsers import load as load_any
from kansa.parsers.errors import LogFormatError
from kansa.parsers.source import Limits
from kansa.parsers.tenhou6 import format as tenhou6
from kansa.parsers.tenhou6 import items
from kansa.parsers.tenhou6 import kyoku as tenhou6_kyoku
from kansa.parsers.tenhou6 import order as tenhou6_order
from kansa.parsers.tenhou6.items import read_script
from kansa.parsers.tenhou6.jsontext import Where
from kansa.parsers.tenhou6.pointers import kyoku_pointers
from kansa.replay.tiles import WINDS, Seat
from kansa.sim.table import simulate

needs_corpus = pytest.mark.usefixtures("corpus_dir")
"""For the tests that read corpus files: skipped when the corpus is absent."""


def _error(data: bytes | dict[str, Any], limits: Limits | None = None) -> LogFormatError:
    raw = json.dumps(data, ensure_ascii=False).encode() if isinstance(data, dict) else data
    with pytest.raises(LogFormatError) as info:
        tenhou6.parse(raw, "bad.json", limits or Limits())
    return info.value


def test_empty() -> None:
    assert "empty" in str(_error(b""))
    assert "empty" in str(_error(b" \n\t"))


def test_not_json() -> None:
    e = _error(b"hello, world")
    assert (e.src.line, e.src.column) == (1, 1) and "not valid JSON" in e.reason


@needs_corpus
def test_truncated_json() -> None:
    data = (EQUIM / "chankan.json").read_bytes()[:700]
    e = _error(data)
    assert e.src.line == 1 and e.src.column is not None and e.src.column > 600


@needs_corpus
def test_truncated_json_lines_names_the_line() -> None:
    lines = (MJX / "2020081220gm-00a9-0000-9ee6ab3b.json").read_bytes().split(b"\n")
    lines[3] = lines[3][:100]
    e = _error(b"\n".join(lines))
    assert e.src.line == 4 and "line 4" in e.position


def test_not_a_log() -> None:
    assert _error(b"[1, 2]").src.pointer == "/"
    assert _error(b'{"log": 3}').src.pointer == "/log"
    assert "no kyoku" in _error(b'{"log": []}').reason


def _bad(change: Any) -> LogFormatError:
    o = obj(EQUIM / "chankan.json")
    change(o["log"][0])
    return _error(o)


@needs_corpus
def test_unknown_tile_code() -> None:
    e = _bad(lambda k: k[5].__setitem__(3, 58))
    assert e.src.pointer == "/log/0/5/3" and "58" in e.reason
    assert "bad.json#/log/0/5/3" in str(e)


@needs_corpus
def test_bad_call_marker() -> None:
    e = _bad(lambda k: k[5].__setitem__(3, "12x1212"))
    assert e.src.pointer == "/log/0/5/3" and "marker" in e.reason
    for text in ("p1212", "p121213", "c121315", "1212k1212", "p1212p12", "4141p4"):
        e = _bad(lambda k, text=text: k[5].__setitem__(3, text))
        assert e.src.pointer == "/log/0/5/3", text
    e = _bad(lambda k: k[6].__setitem__(2, "12q121212"))
    assert e.src.pointer == "/log/0/6/2"


@needs_corpus
def test_wrong_kyoku_length() -> None:
    e = _bad(lambda k: k.pop())
    assert e.src.pointer == "/log/0" and "17" in e.reason


@needs_corpus
def test_bad_header_and_scores() -> None:
    assert _bad(lambda k: k.__setitem__(0, [0, 0])).src.pointer == "/log/0/0"
    assert _bad(lambda k: k.__setitem__(1, [25000, "x", 0, 0])).src.pointer == "/log/0/1/1"
    assert _bad(lambda k: k.__setitem__(2, [])).src.pointer == "/log/0/2"


@needs_corpus
def test_missing_take_or_discard() -> None:
    e = _bad(lambda k: k[8].pop(3))  # seat 1 loses a take: its discards no longer line up
    assert e.src.pointer is not None and e.src.pointer.startswith("/log/0/")
    e = _bad(lambda k: k[6].pop(0))  # the dealer's first discard
    assert e.src.pointer is not None


@needs_corpus
def test_order_that_cannot_be_played() -> None:
    def change(k: list[Any]) -> None:
        k[8][0] = "p333333"  # seat 1 "pons" a 3s nobody discarded
        k[9][0] = 11

    e = _bad(change)
    assert "cannot reconstruct the order of play" in e.reason
    assert e.src.pointer == "/log/0/8/0"


@needs_corpus
def test_bad_result() -> None:
    assert _bad(lambda k: k.__setitem__(16, ["何か"])).src.pointer == "/log/0/16/0"
    assert _bad(lambda k: k.__setitem__(16, [])).src.pointer == "/log/0/16"
    assert _bad(lambda k: k.__setitem__(16, ["和了", [0, 0, 0, 0]])).src.pointer == "/log/0/16"
    e = _bad(lambda k: k[16][2].__setitem__(0, 7))
    assert e.src.pointer == "/log/0/16/2/0"


def test_depth_bomb() -> None:
    e = _error(b'{"log":' + b"[" * 100_000)
    assert e.src.line == 1 and e.src.column == 71 and "--max-json-depth" in e.reason
    e = _error(b'{"log": [[[[[]]]]]}', Limits(max_json_depth=3))
    assert "deeper than 3" in e.reason


@needs_corpus
def test_size_limit() -> None:
    e = _error((EQUIM / "chankan.json").read_bytes(), Limits(max_decompressed_bytes=100))
    assert "limit" in e.reason


def test_not_utf8() -> None:
    e = _error(b'{"log": "\xff"}')
    assert "UTF-8" in e.reason and e.src.line == 1


def _named(name: bytes) -> bytes:
    """A whole game written by kansa, its first player's name replaced by ``name``."""
    doc = json.loads(tenhou6.write(simulate(1)))
    doc["name"][0] = "@NAME@"
    return json.dumps(doc).encode().replace(b"@NAME@", name)


@pytest.mark.parametrize("name", [b"\xff", b"\xed\xa0\x80", b"\xe6\x9d", b"\xc0\xae"])
def test_a_whole_game_with_bytes_not_utf8_in_a_name(name: bytes) -> None:
    """Read from its bytes, a document whose strings are not UTF-8 is still refused
    where the byte is (a lone surrogate's, a character cut short, an overlong form)."""
    data = _named(name)
    e = _error(data)
    assert "UTF-8" in e.reason and (e.src.line, e.src.column) == (1, data.index(name) + 1)


def test_a_whole_game_reads_the_same_with_a_byte_order_mark_or_a_name_not_ascii() -> None:
    plain = tenhou6.parse(_named(b"a"), "x.json")
    assert tenhou6.parse(b"\xef\xbb\xbf" + _named(b"a"), "x.json") == plain
    named = tenhou6.parse(_named("東".encode()), "x.json")[0]
    assert named.players[0].name == "東"
    assert named.events == plain[0].events


# -- any input: a game or LogFormatError, nothing else ---------------------------------


def _parses_or_log_format_error(data: bytes) -> None:
    try:
        games = tenhou6.parse(data, "fuzz.json")
    except LogFormatError as exc:
        assert "internal error" not in exc.reason, exc
        return
    for game in games:
        tenhou6.write(game)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_random_bytes(data: bytes) -> None:
    _parses_or_log_format_error(data)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=300))
def test_random_bytes_after_a_log_prefix(data: bytes) -> None:
    _parses_or_log_format_error(b'{"log":[[[0,0,0],[25000,25000,25000,25000],' + data)


CORPUS_BYTES = [p.read_bytes() for p in FILES[:: max(1, len(FILES) // 12)]]
corpus_file = st.sampled_from(CORPUS_BYTES) if CORPUS_BYTES else st.nothing()


@needs_corpus
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus_file, st.data())
def test_truncated_corpus_files(data: bytes, draw: st.DataObject) -> None:
    _parses_or_log_format_error(data[: draw.draw(st.integers(0, len(data)))])


@needs_corpus
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus_file, st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 255)),
                             min_size=1, max_size=6))
def test_byte_flips(data: bytes, flips: list[tuple[int, int]]) -> None:
    raw = bytearray(data)
    for at, value in flips:
        raw[at % len(raw)] = value
    _parses_or_log_format_error(bytes(raw))


_JUNK = st.one_of(st.integers(-5, 70), st.sampled_from(
    [0, 60, 51, 58, "p121212", "r60", "x", None, [], {}, 10**20, 1.5, True, "k11", "a11",
     "1212k1212", "c111213", "13m131313", "f44", "424242a42", "r", "和了", "流局"]))


def _containers(value: Any) -> list[Any]:
    out = []
    if isinstance(value, list | dict):
        out.append(value)
        for v in value if isinstance(value, list) else value.values():
            out.extend(_containers(v))
    return out


@needs_corpus
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(corpus_file, st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 10**9),
                                       st.sampled_from(["del", "set", "dup"]), _JUNK),
                             min_size=1, max_size=4))
def test_edited_corpus_logs(data: bytes, edits: list[tuple[int, int, str, Any]]) -> None:
    lines = [x for x in data.split(b"\n") if x.strip()]
    try:
        docs = [json.loads(data)]
    except ValueError:
        docs = [json.loads(x) for x in lines]
    for pick, index, op, junk in edits:
        doc = docs[pick % len(docs)]
        containers = _containers(doc)
        target = containers[pick % len(containers)]
        if isinstance(target, dict):
            if target:
                key = list(target)[index % len(target)]
                if op == "del":
                    del target[key]
                else:
                    target[key] = junk
        elif target:
            i = index % len(target)
            if op == "del":
                del target[i]
            elif op == "set":
                target[i] = junk
            else:
                target.insert(i, target[i])
    raw = b"\n".join(json.dumps(d, ensure_ascii=False).encode() for d in docs)
    _parses_or_log_format_error(raw)


def test_corpus_present_for_fuzzing(corpus_dir: Path) -> None:
    assert CORPUS_BYTES


def test_search_budget_bounds_the_order_search(monkeypatch: pytest.MonkeyPatch,
                                               corpus_dir: Path) -> None:
    monkeypatch.setattr(tenhou6_order, "SEARCH_BUDGET", 10)
    e = _error((EQUIM / "confusing_nakis_2.json").read_bytes())
    assert "search budget" in e.reason and e.src.pointer is not None


# -- kansa's extension: any edit of it gives a game or LogFormatError ---------------------

def _written(paths: list[Path]) -> list[bytes]:
    out = []
    for path in paths:
        if path.is_file():
            out.extend(tenhou6.write(g).encode() for g in load_any(path))
    return out


_XML = corpus_path() / "tenhou_xml" / "mjx-project__mjx"
_MAJIANG = corpus_path() / "majiang"
WRITTEN = _written([_XML / "double-ron.mjlog", _XML / "upd-sutehai-furiten.mjlog",
                    _XML / "upd-aft-draw-kanclosed-dora+draw.mjlog", _XML / "nm.mjlog",
                    *sorted(_MAJIANG.glob("*/*.json"))[:2]])
_EXT_JUNK = st.one_of(_JUNK, st.sampled_from(
    ["RIICHI", "MANGAN", "EXHAUSTIVE", "KYUUSHU_KYUUHAI", [11, 12], [[None], None],
     {"type": "dora", "dora_marker": 11}, {"type": "reach", "actor": 0},
     {"type": "reach_accepted", "actor": 2, "scores": [1, 2, 3, 4]}, -1, 4, 99, 0.5, False,
     [25000, 25000, 25000, 25000], [True, False, True, False], {"tile": None},
     {"deltas": None}, {"hands": [None, None, None, None]}, {"reason": "SANCHAHOU"}]))


def test_written_files_for_the_extension_fuzz(corpus_dir: Path) -> None:
    assert len(WRITTEN) >= 6 and all(b'"kansa":' in w for w in WRITTEN)


@needs_corpus
@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(WRITTEN) if WRITTEN else st.nothing(),
       st.lists(st.tuples(st.integers(0, 10**9), st.integers(0, 10**9),
                          st.sampled_from(["del", "set", "dup"]), _EXT_JUNK),
                min_size=1, max_size=4))
def test_edited_extensions(data: bytes, edits: list[tuple[int, int, str, Any]]) -> None:
    doc = json.loads(data)
    for pick, index, op, shared in edits:
        junk = copy.deepcopy(shared)  # never nest a value into itself
        containers = _containers(doc["kansa"])
        target = containers[pick % len(containers)]
        if isinstance(target, dict):
            if target:
                key = list(target)[index % len(target)]
                if op == "del":
                    del target[key]
                else:
                    target[key] = junk
        elif target:
            i = index % len(target)
            if op == "del":
                del target[i]
            elif op == "set":
                target[i] = junk
            else:
                target.insert(i, target[i])
    _parses_or_log_format_error(json.dumps(doc, ensure_ascii=False).encode())


def test_each_step_knows_where_it_was_read_past_kan_placeholders() -> None:
    # seat 0 draws, discards, calls two open kans (each leaving a placeholder 0 in its
    # discards), draws their replacements and discards
    script = read_script(Where("x.json"), kyoku_pointers(2),
                         [11, "m13131313", 21, "m14141414", 22], [12, 0, 60, 0, 60],
                         seat=Seat(0), players=4)
    assert [script.pointer(p) for p in range(len(script.steps))] == [
        "/log/2/5/0", "/log/2/6/0", "/log/2/5/1", "/log/2/5/2", "/log/2/6/2",
        "/log/2/5/3", "/log/2/5/4", "/log/2/6/4"]
    assert script.discard_order == (0, 2, 4)
    plain = read_script(Where("x.json"), kyoku_pointers(0), [11, 21], [12, 60],
                        seat=Seat(1), players=4)
    assert [plain.pointer(p) for p in range(4)] == ["/log/0/8/0", "/log/0/9/0", "/log/0/8/1",
                                                     "/log/0/9/1"]
    assert plain.discard_order is None


def _walked(path: Path) -> list[tenhou6_order.Walker]:
    """A walker of each kyoku of a four-player tenhou.net/6 log, run as ``read_kyoku``
    runs it (built here: the compiled reader's calls cannot be patched)."""
    where = Where(path.name)
    walkers = []
    for i, k in enumerate(json.loads(path.read_bytes())["log"]):
        at = kyoku_pointers(i)
        oya = Seat(k[0][0] % 4)
        scripts = [read_script(where, at, k[5 + 3 * s], k[6 + 3 * s], seat=Seat(s), players=4)
                   for s in range(4)]
        result = tenhou6_kyoku._read_result(where, at, k[16], players=4, oya=oya,
                                            bakaze=WINDS[k[0][0] // 4], diags=[])
        indicators = [(items.TILE_OF_CODE[c], where.ref(at.items[2])) for c in k[2]]
        walker = tenhou6_order.Walker(
            where, scripts, oya, indicators,
            lambda e, r=result: r is None or tenhou6_kyoku._fits(e, r),
            interrupted=result is None)
        walker.run()
        walkers.append(walker)
    return walkers


def test_the_search_counts_the_steps_it_takes_back(corpus_dir: Path) -> None:
    # a hand whose calls the search first places where they do not fit: it takes
    # those steps back and plays another order
    walkers = _walked(EQUIM / "confusing_nakis_2.json")
    backtracked = [w for w in walkers if w.undone]
    assert backtracked
    for w in backtracked:
        assert w.left == 0 and w.work() == w.total + w.undone > w.total


def test_a_steps_number_is_its_kinds() -> None:
    assert (items.KINDS[items.OP_DRAW], items.KINDS[items.OP_KAN],
            items.KINDS[items.OP_DAHAI]) == (items.DRAW, items.KAN, items.DAHAI)
    pon = items._kept_take("p121212", Seat(1), 4)
    steps = [pon, items.DRAW_STEPS[0][11], items.DISCARD_STEPS[2][53],
             items.TSUMOGIRI_STEPS[3][47]]
    assert all(st is not None and items.KINDS[st.op] == st.kind for st in steps)


def test_call_strings_are_read_once_and_kept_within_a_bound() -> None:
    # malformed: left to the careful reading, which says where
    assert items._kept_take("p1212", Seat(0), 4) is None
    assert items._kept_discard("r99", Seat(0), None) is None
    pon = items._kept_take("p121212", Seat(1), 4)
    assert pon is not None and pon is items._kept_take("p121212", Seat(1), 4)
    assert pon.target == 0 and pon.kind == items.PON
    # kept apart per seat and player count: seat 0's pon from seat 3 is no pon at three
    east = items._kept_take("p121212", Seat(0), 4)
    assert east is not None and east.target == 3
    assert items._kept_take("p121212", Seat(0), 3) is None
    codes = [c for c in range(items.CODES) if items.TILE_OF_CODE[c] is not None]
    kept = 0  # riichi discards of every tile by every seat after every draw: all different
    for seat in range(4):
        for code in codes:
            for drawn in codes:
                assert items._kept_discard(f"r{code}", Seat(seat),
                                           items.TILE_OF_CODE[drawn]) is not None
                kept += 1
    assert kept > items._WRITTEN_KEPT >= len(items._DISCARDS)
