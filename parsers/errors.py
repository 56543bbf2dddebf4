"""The one error a parser raises for input it cannot read."""

from __future__ import annotations

from kansa.replay.events import SourceRef


class LogFormatError(ValueError):
    """A log that cannot be read, with the position of the problem.

    ``str(error)`` reads ``file:line: message`` (or ``file#/json/pointer: message``).
    """

    def __init__(self, message: str, src: SourceRef) -> None:
        super().__init__(f"{src}: {message}")
        self.reason = message
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


class UnknownFormatError(LogFormatError):
    """Content that matches none of the formats kansa reads."""


class UnsupportedLogError(Exception):
    """A readable log that kansa does not audit yet (e.g. a three-player game)."""

    def __init__(self, reason: str, src: SourceRef) -> None:
        super().__init__(f"{src}: {reason}")
        self.reason = reason
        self.src = src
