"""The majiang reader builds every event in canonical form (kansa.parsers.canonical),
in the full reading and in each build's quick one."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from kansa.parsers import load
from kansa.parsers.canonical import canonical
from kansa.parsers.majiang.read import read_full, read_quick
from kansa.replay.events import Ankan, Chi, Dahai, Event, Kakan, Ryukyoku
from kansa.replay.game import Game
from tests.parser_helpers import built_canonical, corpus_files
from tests.parsers.test_majiang import _paipu, _qipai

FIRST = [
    _qipai(),
    {"zimo": {"l": 0, "p": "m5"}}, {"dapai": {"l": 0, "p": "m5"}},
    # a chi whose own tiles are written out of order; the caller's discard flagged as
    # from the draw
    {"fulou": {"l": 1, "m": "m5-43"}}, {"dapai": {"l": 1, "p": "s1_"}},
    {"zimo": {"l": 2, "p": "z7"}}, {"gang": {"l": 2, "m": "m0555"}},
    {"gangzimo": {"l": 2, "p": "z6"}}, {"dapai": {"l": 2, "p": "z6_"}},
    {"zimo": {"l": 3, "p": "m5"}}, {"gang": {"l": 3, "m": "m505=5"}},
    {"gangzimo": {"l": 3, "p": "z5"}}, {"dapai": {"l": 3, "p": "z5_"}},
    {"zimo": {"l": 0, "p": "m1"}}, {"dapai": {"l": 0, "p": "m1"}},
    {"fulou": {"l": 1, "m": "m111-"}}, {"dapai": {"l": 1, "p": "p9_"}},
    {"zimo": {"l": 2, "p": "p1"}}, {"dapai": {"l": 2, "p": "p1"}},
    # a draw right after a pon (a log's slip): the discard after it is read as written
    {"fulou": {"l": 3, "m": "p111-"}}, {"zimo": {"l": 3, "p": "p2"}},
    {"dapai": {"l": 3, "p": "p2_"}},
    {"pingju": {"name": "三家和了"}},
]
SECOND = [
    _qipai(jushu=1),
    {"dapai": {"l": 0, "p": "p5_"}},  # (no draw before it: a log's slip, read as written)
    {"pingju": {"name": "九種九牌"}},
]


def _check(events: tuple[Event, ...]) -> None:
    assert all(a is b for a, b in zip(canonical(events), events, strict=True))
    chi = next(e for e in events if isinstance(e, Chi))
    assert [t.majiang for t in chi.consumed] == ["m3", "m4"]
    ankan = next(e for e in events if isinstance(e, Ankan))
    assert [t.majiang for t in ankan.consumed] == ["m5", "m5", "m5", "m0"]
    kakan = next(e for e in events if isinstance(e, Kakan))
    assert [t.majiang for t in kakan.consumed] == ["m5", "m5", "m0"]
    flags = [(e.actor, e.tsumogiri) for e in events if isinstance(e, Dahai)]
    assert flags == [(0, False), (1, False), (2, True), (3, True), (0, False), (1, False),
                     (2, False), (3, True), (1, True)]
    draws = [e for e in events if isinstance(e, Ryukyoku)]
    assert [d.deltas for d in draws] == [(0, 0, 0, 0), (0, 0, 0, 0)]  # abortive


READINGS: dict[str, Callable[[bytes], Game]] = {
    "full": lambda d: read_full(d, "c.json"),
    "quick, from the bytes": lambda d: read_quick(d, "c.json", 64, by_bytes=True),
    "quick, from the entry texts": lambda d: read_quick(d, "c.json", 64, by_bytes=False),
}


@pytest.mark.parametrize("reading", READINGS)
def test_a_paipus_events_are_built_canonical(reading: str) -> None:
    data = _paipu(FIRST, SECOND)
    read = READINGS[reading]
    _check(read(data).events)
    _check(read(data).events)  # its draws and discards now shared ones


@pytest.mark.corpus
def test_every_corpus_majiang_game_is_built_canonical(corpus_dir: Path) -> None:
    files = corpus_files(corpus_dir, "majiang")
    assert files
    for path in files:
        assert all(built_canonical(game) for game in load(path)), path
