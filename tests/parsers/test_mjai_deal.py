"""Deals read from their characters (``kansa.parsers.mjai.deal``) read as the per-line
code reads them, or are left to it."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from kansa.parsers.fields import Fields
from kansa.parsers.mjai.deal import DEAL_OPENINGS, read_deal
from kansa.parsers.mjai.read import Reader
from kansa.replay.events import SourceRef
from tests.parsers.mjai_lines import EDITS, corpus_lines, edited, read_by_line

HANDS = [["1m", "2m", "3m", "4m", "5mr", "6m", "7m", "8m", "9m", "1p", "2p", "3p", "4p"],
         ["1s", "2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "E", "S", "W", "N"],
         ["?"] * 13,
         ["P", "P", "P", "F", "F", "F", "C", "C", "C", "5pr", "5sr", "9p", "1m"]]
DEAL: dict[str, Any] = {
    "type": "start_kyoku", "bakaze": "S", "dora_marker": "5sr", "kyoku": 3, "honba": 2,
    "kyotaku": 1, "oya": 2, "scores": [25000, -1200, 31000, 0], "tehais": HANDS}
COMPACT = json.dumps(DEAL, separators=(",", ":"))
SPACED = json.dumps(DEAL)


def taken(raw: str, players: int | None = None) -> Any:
    """What the reader holds after taking ``raw`` read by ``read_deal``; ``None`` where
    it is left to the per-line code."""
    deal = read_deal(raw, players)
    if deal is None:
        return None
    reader = started(players)
    assert reader.deal(deal, 2)
    return state(reader)


def fed(raw: str, players: int | None = None) -> Any:
    """What the reader holds after the per-line code reads ``raw`` (or its error)."""
    return read_by_line(started(players), raw, 2, state)


def started(players: int | None) -> Reader:
    reader = Reader("x.mjson")
    start: dict[str, Any] = {"type": "start_game"}
    if players is not None:
        start["num_players"] = players
    reader.feed(Fields(start, SourceRef("x.mjson", 1)), 1)
    return reader


def state(reader: Reader) -> Any:
    g = reader.cur
    assert g is not None
    return (g.events, g.n, sorted(g.hidden), g.oya, g.bakaze, g.start_scores, g.sticks,
            g.melds, g.diagnostics, reader.lines)


def same(raw: str, players: int | None = None) -> Any:
    """``raw`` read by ``read_deal`` reads as the per-line code reads it."""
    quick = taken(raw, players)
    if quick is not None:
        assert quick == fed(raw, players)
    return quick


def test_the_usual_spellings_are_read_as_the_per_line_code_reads_them() -> None:
    for raw in (COMPACT, SPACED):
        assert raw.startswith(DEAL_OPENINGS)
        quick = same(raw)
        assert quick is not None
        event = quick[0][0]
        assert event.tehais[2] == (None,) * 13 and quick[2] == [2]
        assert (event.kyoku, event.honba, event.kyotaku, event.oya) == (3, 2, 1, 2)
        assert event.scores == (25000, -1200, 31000, 0)
        assert same(raw, 4) is not None


def test_every_corpus_deal_reads_as_the_per_line_code_reads_it(corpus_dir: Path) -> None:
    read = sum(same(raw) is not None for raw in corpus_lines(corpus_dir)
               if raw.startswith(DEAL_OPENINGS))
    assert read > 0


ODD = [
    ('"kyoku":3', '"kyoku":0'), ('"kyoku":3', '"kyoku":5'), ('"kyoku":3', '"kyoku":03'),
    ('"kyoku":3', '"kyoku":3.0'), ('"kyoku":3', '"kyoku":3e0'), ('"kyoku":3', '"kyoku":"3"'),
    ('"honba":2', '"honba":-1'), ('"honba":2', '"honba":-0'), ('"honba":2', '"honba":2:'),
    ('-1200', '-12:0'), ('-1200', '-12/0'), ('-1200', '--1200'), ('-1200', '-'),
    ('"honba":2', '"honba":123456789012345678901'), ('"honba":2', '"honba":99999999999999'),
    ('"oya":2', '"oya":4'), ('"oya":2', '"oya":-1'), ('"bakaze":"S"', '"bakaze":"P"'),
    ('"bakaze":"S"', '"bakaze":"?"'), ('"dora_marker":"5sr"', '"dora_marker":"?"'),
    ('"dora_marker":"5sr"', '"dora_marker":"0s"'), ('"dora_marker":"5sr"', '"dora_marker":"4sr"'),
    ('"dora_marker":"5sr"', '"dora_marker":"5s"'), ('"5mr"', '"5m"'), ('"5mr"', '"5xr"'),
    ('"5mr"', '"5mrr"'), ('"5mr"', '"\\u0035mr"'), ('"1m"', '"1z"'), ('"1m"', '"X"'),
    ('"1m"', "1"), ('"1m"', '"1m" '), ('25000,', '25000, '), ('25000,', '25000 ,'),
    ('[25000,', '[25000,25000,'), (',0]', ']'), ('"type":"start_kyoku"', '"type":"start_kyokuX"'),
    ('"kyotaku":1,', '"kyotaku":1,"kyotaku":0,'), ('"honba":2,', ''), ('}', ',"x":1}'),
    ('}', '} '), ('}', '}\r'), ('{', ' {'), ('"P","P"', '"P",  "P"'), ('"P","P"', '"P",\t"P"'),
    ('["1s"', '[]'), ('["1s"', '[["1s"]'),
]


def test_odd_deals_are_read_as_the_per_line_code_reads_them_or_left() -> None:
    for old, new in ODD:
        assert old in COMPACT
        raw = COMPACT.replace(old, new, 1)
        for players in (None, 3, 4):
            same(raw, players)
    assert taken(COMPACT.replace('"kyoku":3', '"kyoku":0')) is None
    assert taken(COMPACT.replace('"honba":2', '"honba":-0')) is not None
    hands3 = {**DEAL, "scores": [1, 2, 3], "tehais": HANDS[:3], "oya": 1}
    assert same(json.dumps(hands3), None) is not None and same(json.dumps(hands3), 4) is None
    empty = {**DEAL, "tehais": [[], [], [], []]}
    assert same(json.dumps(empty)) is not None


@settings(max_examples=1500, deadline=None)
@given(st.sampled_from([COMPACT, SPACED]), EDITS)
def test_mutated_deals_are_read_as_the_per_line_code_reads_them_or_left(
        raw: str, edits: list[tuple[int, int, str]]) -> None:
    raw = edited(raw, edits)
    if not raw:
        return
    for players in (None, 4):
        same(raw, players)
