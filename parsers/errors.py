"""The errors about logs: one family for reading, one for writing.

Reading::

    LogError                      any input kansa does not audit; source and position
    ├── LogFormatError            a log that cannot be read (also a ValueError)
    │   ├── UnknownFormatError    content that matches no format
    │   ├── LimitExceededError    past a size, depth or count limit (--max-*)
    │   └── CutOffError           a file that stops part-way and cannot be recovered
    └── UnsupportedLogError       a readable log that kansa does not audit yet

Writing: :class:`LogWriteError`, a game that a format cannot hold, naming the game and
the event.
"""

from __future__ import annotations

from kansa.replay.events import SourceRef


class LogError(Exception):
    """An input that is not audited, with the source and the position of the problem.

    ``str(error)`` reads ``file:line: message`` (or ``file#/json/pointer: message``).
    """

    def __init__(self, message: str, src: SourceRef) -> None:
        super().__init__(f"{src}: {message}")
        self.reason = message
        """The message alone, without the position."""
        self.src = src

    @property
    def position(self) -> str:
        """The position alone (line, column, JSON pointer or XPath)."""
        parts = []
        if self.src.line is not None:
            parts.append(f"line {self.src.line}")
        if self.src.column is not None:
            parts.append(f"column {self.src.column}")
        if self.src.pointer is not None:
            parts.append(self.src.pointer)
        return ", ".join(parts) or "start of file"


class LogFormatError(LogError, ValueError):
    """A log that cannot be read."""


class UnknownFormatError(LogFormatError):
    """Content that matches none of the formats kansa reads."""


class LimitExceededError(LogFormatError):
    """An input past one of the limits that keep a batch safe (its size, the size it
    expands to, its count of items, its depth): the message names the ``--max-*`` flag."""


class CutOffError(LogFormatError):
    """A file that stops part-way where nothing of it can be recovered (a compressed
    stream without its end; a log cut off before its first hand)."""


class UnsupportedLogError(LogError):
    """A readable log that kansa does not audit yet (e.g. a format without a reader)."""


class LogWriteError(ValueError):
    """A game that a format cannot hold (hidden tiles in tenhou.net/6, a play it cannot
    express), naming the game and, where one is to blame, the event.

    ``str(error)`` reads ``cannot write FILE game N as FORMAT (event K): message``.
    """

    def __init__(self, message: str, *, fmt: str, source: str, game: int = 0,
                 event: int | None = None) -> None:
        at = f" (event {event})" if event is not None else ""
        super().__init__(f"cannot write {source} game {game} as {fmt}{at}: {message}")
        self.reason = message
        """The message alone."""
        self.fmt = fmt
        self.source = source
        """The file the game was read from."""
        self.game = game
        """The game's index within its file."""
        self.event = event
        """The index of the event that cannot be written (in ``Game.events``), if one."""
