"""mjai JSON lines read as they arrive: one line in, the events it holds out.

The lines go through the file reader's own per-line code
(:meth:`kansa.parsers.mjai.read.Reader.read_line`), so a stream is read with the
same dialects, positions (line numbers) and errors as a file; each event comes out
in the canonical form a file's game has (:mod:`kansa.parsers.canonical`).  Each
game of the stream is held to the limits of a file: ``max_file_bytes`` and
``max_items`` count its own lines, ``max_json_depth`` applies to each line.

>>> stream = MjaiStream("<stdin>")
>>> [type(x).__name__ for x in stream.feed('{"type":"start_game","names":["a","b","c","d"]}')]
['GameStart']
>>> [(type(x).__name__, x.src.line) for x in stream.feed('{"type":"end_game"}')]
[('EndGame', 2)]
"""

from __future__ import annotations

from dataclasses import dataclass

from kansa.parsers._json import BOM
from kansa.parsers.errors import LogFormatError
from kansa.parsers.mjai.read import GameBuilder, Reader
from kansa.parsers.source import DEFAULT_LIMITS, Limits, item_count
from kansa.replay.events import Event, SourceRef
from kansa.replay.game import Diagnostic, Game

__all__ = ["GameStart", "MjaiStream", "StreamItem"]


@dataclass(frozen=True, slots=True)
class GameStart:
    """A game begins (a ``start_game`` line, or a hand without one): its metadata as
    the stream gives it (players, rule hints, log id), with no events yet."""

    game: Game


StreamItem = GameStart | Event | Diagnostic
"""What a line gives: a game's start, its events, and the warnings its reading notes."""


class MjaiStream:
    """Reads an mjai stream one line at a time (:meth:`feed`), ended by :meth:`end`."""

    def __init__(self, source: str, limits: Limits = DEFAULT_LIMITS, *,
                 keep_games: bool = False) -> None:
        self.source = source
        self.limits = limits
        self.line = 0
        """The number of the last line fed."""
        self.size = 0
        """Bytes fed so far."""
        self._reader = Reader(source, keep=keep_games)
        self._game: GameBuilder | None = None
        self._events = 0
        """Events of the current game given out so far."""
        self._notes = 0
        self._bytes = self._line_bytes = 0
        self._items = self._line_items = 0
        """Bytes and items of the current game (and of the last line)."""

    @property
    def assumed_scores(self) -> frozenset[int]:
        """Indices (in the current game) of the ``StartKyoku`` events whose scores the
        stream did not give: the reader filled them in, as :attr:`Game.assumed_scores`
        says of a file's game."""
        g = self._game
        return frozenset(g.assumed) if g is not None else frozenset()

    @property
    def players(self) -> int:
        """The current game's number of players, as read so far (4 until it says)."""
        g = self._game
        return g.n or 4 if g is not None else 4

    def feed(self, raw: str | bytes) -> list[StreamItem]:
        """Read the next line (with or without its newline).

        :raises LogFormatError: for a line that is not UTF-8 JSON object, a field that
            cannot be read, or a game past a limit, naming the line.
        """
        self.line += 1
        text = self._text(raw)
        self._reader.read_line(text[:-1] if text.endswith("\n") else text, self.line,
                               self.limits)
        return self._news()

    def end(self, rest: str | bytes = "") -> list[StreamItem]:
        """The stream has ended; ``rest`` is what it held after its last newline (a line
        cut off in the middle is lost, with a ``log.truncated`` warning)."""
        out: list[StreamItem] = []
        if rest.strip():
            self.line += 1
            text = self._text(rest)
            self._reader.read_line(text, self.line, self.limits, end=self.size)
            out = self._news()
            cut = self._reader.cut
            if cut is not None:
                out.append(cut)
        if self._game is not None:
            out.extend(self._game.closing_notes())
        return out

    def games(self) -> list[Game]:
        """Every game read, whole, as :func:`~kansa.parsers.mjai.read.parse` gives them
        (only with ``keep_games``).

        :raises LogFormatError: for a stream that held no game.
        """
        return self._reader.finish()

    def _text(self, raw: str | bytes) -> str:
        """The line as text, refused when it alone breaks a game's limits."""
        data = raw.encode("utf-8") if isinstance(raw, str) else raw
        self._line_bytes = len(data)
        self.size += len(data)
        self._line_items = item_count(data)
        self._check(self._line_bytes, self._line_items)
        try:
            text = raw if isinstance(raw, str) else raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            raise LogFormatError(f"not UTF-8 text (byte 0x{data[exc.start]:02x})",
                                 SourceRef(self.source, self.line, exc.start + 1)) from None
        return text[1:] if self.line == 1 and text.startswith(BOM) else text

    def _check(self, size: int, items: int) -> None:
        limits = self.limits
        if size > limits.max_file_bytes:
            raise LogFormatError(
                f"the game is over the limit of {limits.max_file_bytes} bytes "
                "(--max-file-bytes)", SourceRef(self.source, self.line))
        if items > limits.max_items:
            raise LogFormatError(
                f"the game holds more than {limits.max_items} list items or values "
                "(--max-items)", SourceRef(self.source, self.line))

    def _news(self) -> list[StreamItem]:
        """What the last line added: a new game, its events, its diagnostics."""
        out: list[StreamItem] = []
        g = self._reader.cur
        if g is None:
            return out
        if g is not self._game:
            if self._game is not None:
                out.extend(self._game.closing_notes())
            self._game = g
            self._events = self._notes = 0
            self._bytes = self._items = 0
            out.append(GameStart(g.header(self._reader.built)))
        self._bytes += self._line_bytes
        self._items += self._line_items
        self._check(self._bytes, self._items)
        events = g.events  # built canonical
        if len(events) > self._events:
            out.extend(events[self._events:])
            self._events = len(events)
        notes = g.diagnostics
        if len(notes) > self._notes:
            out.extend(notes[self._notes:])
            self._notes = len(notes)
        return out
