"""The mjai stream reader reads as the file reader does: same games, same errors."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import corpus_path

from kansa.parsers.errors import LogFormatError
from kansa.parsers.mjai.read import parse
from kansa.parsers.mjai.stream import GameStart, MjaiStream
from kansa.parsers.mjai.write import write
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.replay.events import EndGame, StartKyoku
from kansa.replay.game import Diagnostic
from kansa.sim.table import simulate

ROOT = Path(__file__).resolve().parents[2]


def mjai_files() -> list[Path]:
    found = sorted((ROOT / "sample_logs").rglob("*.mjson"))
    corpus = corpus_path() / "mjai"
    if corpus.is_dir():
        found += sorted(p for p in corpus.rglob("*") if p.is_file())
    return found


def streamed(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> MjaiStream:
    stream = MjaiStream(source, limits, keep_games=True)
    *lines, rest = data.split(b"\n")
    for line in lines:
        stream.feed(line + b"\n")
    stream.end(rest)
    return stream


@pytest.mark.parametrize("path", mjai_files(), ids=lambda p: p.name)
def test_a_stream_gives_the_files_games(path: Path) -> None:
    data = path.read_bytes()
    try:
        games = parse(data, str(path))
    except LogFormatError as exc:
        with pytest.raises(LogFormatError) as got:
            streamed(data, str(path)).games()
        assert str(got.value) == str(exc)
        return
    assert streamed(data, str(path)).games() == games


def test_events_come_out_one_line_at_a_time_in_canonical_form() -> None:
    game = simulate(4)
    lines = write(game).splitlines(keepends=True)
    stream = MjaiStream("<stdin>")
    items = [stream.feed(line) for line in lines]
    assert isinstance(items[0][0], GameStart) and items[0][0].game.players == game.players
    events = [x for got in items for x in got if not isinstance(x, GameStart | Diagnostic)]
    assert tuple(events) == parse("".join(lines).encode(), "<stdin>")[0].events
    assert all(len(got) <= 1 for got in items)  # no line waits for another
    assert isinstance(events[0], StartKyoku) and isinstance(events[-1], EndGame)
    assert events[0].src is not None and events[0].src.line == 2


@pytest.mark.parametrize("text", [
    '{"type":"start_game"}\nnot json\n',
    '{"type":"start_game"}\n{"type":"start_kyoku",\n',
    '{"type":"start_game"}\n{"type":"tsumo","actor":0,"pai":"9z"}\n',
    '{"type":"start_game"}\n{"type":"dahai","actor":7,"pai":"1m"}\n',
    '{"type":"start_game"}\n{"type":"start_game","kansa":{"hints":{"uma":[[[[1]]]]}}}\n',
])
def test_a_bad_line_is_the_same_error(text: str) -> None:
    limits = Limits(max_json_depth=4)
    with pytest.raises(LogFormatError) as in_file:
        parse(text.encode(), "x.mjson", limits)
    with pytest.raises(LogFormatError) as in_stream:
        streamed(text.encode(), "x.mjson", limits)
    assert str(in_stream.value) == str(in_file.value)
    assert in_stream.value.src.line == 2


def test_each_game_is_held_to_the_limits() -> None:
    text = write(simulate(4)).encode()
    size = len(text)
    twice = text + text
    streamed(twice, "two.mjson", Limits(max_file_bytes=size + 10))  # per game: fine
    with pytest.raises(LogFormatError, match="--max-file-bytes"):
        streamed(text, "one.mjson", Limits(max_file_bytes=size // 2))
    with pytest.raises(LogFormatError, match="--max-items") as exc:
        streamed(text, "one.mjson", Limits(max_items=200))
    assert exc.value.src.line is not None and exc.value.src.line > 1


def test_not_utf8_names_the_line() -> None:
    stream = MjaiStream("<stdin>")
    stream.feed(b'{"type":"start_game"}\n')
    with pytest.raises(LogFormatError, match=r"^<stdin>:2:4: not UTF-8 text \(byte 0xff\)"):
        stream.feed(b'{"t\xff":1}\n')


def test_a_stream_cut_in_its_last_line_is_a_file_cut_there() -> None:
    data = write(simulate(4)).encode()[:-25]  # into the end_game line
    games = parse(data, "cut.mjson")
    assert games[0].diagnostics[-1].rule == "log.truncated"
    assert streamed(data, "cut.mjson").games() == games
