"""Every event of every corpus game has a position a person can find in the file, asked
the one way every format answers: ``game.src_of(i)``.

Tenhou XML names the line and the tag's number among the root's children (and its
text); mjai the line; the JSON formats a JSON pointer (and, for JSON lines, the line).
Each position is followed back into the file here and must land on the thing read."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from kansa.parsers import is_zip, iter_members, parse_bytes
from kansa.parsers.errors import LogFormatError, UnsupportedLogError
from kansa.parsers.registry import REGISTRY
from kansa.parsers.source import DEFAULT_LIMITS, read_log_bytes
from kansa.replay.events import Event, SourceRef
from kansa.replay.game import Game
from tests.parser_helpers import corpus_files

pytestmark = pytest.mark.corpus

XML_TAGS: dict[str, tuple[str, ...]] = {
    # the tags an event of each kind is read from (EndKyoku and EndGame: the result tag)
    "StartKyoku": ("INIT",), "Chi": ("N",), "Pon": ("N",), "Daiminkan": ("N",),
    "Kakan": ("N",), "Ankan": ("N",), "Nukidora": ("N",), "Reach": ("REACH",),
    "ReachAccepted": ("REACH",), "Dora": ("DORA",), "Hora": ("AGARI",),
    "Ryukyoku": ("RYUUKYOKU",), "EndKyoku": ("AGARI", "RYUUKYOKU"),
    "EndGame": ("AGARI", "RYUUKYOKU"),
}
_TAG_NUMBER = re.compile(r"tag (\d+)(?:$| (<[A-Za-z0-9]+)[ />])")


def _logs(path: Path) -> Iterator[tuple[str, bytes]]:
    data = read_log_bytes(path)
    if not is_zip(data):
        yield str(path), data
        return
    for name, member in iter_members(data, str(path), DEFAULT_LIMITS):
        if isinstance(member, bytes):
            yield name, member


def _games(fmt: str, corpus: Path) -> Iterator[tuple[bytes, Game]]:
    for path in corpus_files(corpus, fmt):
        for source, data in _logs(path):
            try:
                games = parse_bytes(data, source)
            except (LogFormatError, UnsupportedLogError):
                continue  # the corpus's unreadable files are other tests' business
            for game in games:
                yield data, game


def _check_xml(data: bytes, game: Game) -> None:
    children = list(etree.fromstring(data.lstrip(b"\xef\xbb\xbf")))
    for i, event in enumerate(game.events):
        src = game.src_of(i)
        assert src is not None and src.line is not None and src.pointer, (i, event)
        m = _TAG_NUMBER.match(src.pointer)
        assert m is not None, src
        child = children[int(m.group(1)) - 1]
        name = type(event).__name__
        expected = XML_TAGS.get(name)
        if expected is None:  # a draw or discard: T56, D56, ...
            letters = "TUVW" if name == "Tsumo" else "DEFG"
            assert child.tag[0] in letters and child.tag[1:].isdigit(), (src, event)
        else:
            assert child.tag in expected, (src, event)
        if m.group(2) is not None:  # the tag's text, as written in the file
            assert m.group(2) == f"<{child.tag}", src
        if child.sourceline is not None and child.sourceline < 65535:
            assert child.sourceline == src.line, src


def _resolve(document: Any, pointer: str) -> Any:
    value = document
    for part in pointer.strip("/").split("/") if pointer.strip("/") else ():
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


def _check_json(data: bytes, game: Game) -> None:
    text = data.decode("utf-8-sig")
    lines = text.split("\n")
    documents: dict[int | None, Any] = {}  # by line (None: the whole file)
    for i, event in enumerate(game.events):
        src = game.src_of(i)
        assert src is not None and (src.line is not None or src.pointer), (i, event)
        if src.pointer is None:  # mjai: the line holds the event's JSON object
            row = json.loads(lines[src.line - 1])  # type: ignore[operator]
            assert isinstance(row, dict) and "type" in row, src
            if type(event).__name__ in ("Tsumo", "Dahai"):
                assert row["type"] == type(event).__name__.lower(), (src, event)
            continue
        if src.line not in documents:
            documents[src.line] = json.loads(lines[src.line - 1] if src.line else text)
        document = documents[src.line]
        try:
            _resolve(document, src.pointer)
        except (KeyError, IndexError, ValueError, TypeError):
            pytest.fail(f"{src} does not point into the file (event {i}, {event})")


@pytest.mark.parametrize("fmt", [f.name for f in REGISTRY])
def test_every_event_of_every_corpus_game_has_a_findable_position(
        fmt: str, corpus_dir: Path) -> None:
    syntax = next(f.syntax for f in REGISTRY if f.name == fmt)
    games = 0
    for data, game in _games(fmt, corpus_dir):
        games += 1
        assert game.events
        (_check_xml if syntax == "xml" else _check_json)(data, game)
    assert games, f"no {fmt} game read from the corpus"


def test_a_position_names_what_a_person_searches_for() -> None:
    shown = [str(SourceRef("a.mjlog", 1, None, "tag 376 <N who=\"2\" m=\"47723\"/>")),
             str(SourceRef("a.mjson", 412)), str(SourceRef("a.json", None, None, "/log/3/5"))]
    assert shown[0].startswith("a.mjlog:1") and "tag 376" in shown[0]
    assert shown[1] == "a.mjson:412" and "/log/3/5" in shown[2]


def _events_without_src(game: Game) -> list[Event]:
    return [e for e in game.events if e.src is None]


def test_shared_events_get_their_position_from_the_games_runs(corpus_dir: Path) -> None:
    _, game = next(_games("tenhou_xml", corpus_dir))
    assert _events_without_src(game), "draws and discards are shared events"
    assert all(game.src_of(i) is not None for i in range(len(game.events)))
