"""tenhou.net/6 JSON logs (FORMATS.md B): sniff, read, write.

What the standard keys do not carry, so a plain tenhou.net/6 log leaves it
``None``: the winner's hand (``Hora.hand``), the sticks each winner took
(``Hora.kyotaku``), fu on limit hands (unless written before the limit name),
shown hands at a draw, tenpai when nobody paid, deltas of abortive draws,
scores after a riichi stick, times.  The winning tile, the kyuushu declarer
and Dora/ReachAccepted positions are not written either; they follow from the
order of play, which the reader reconstructs.

kansa's writer puts what the standard keys cannot say into a top-level
``kansa`` object (:mod:`kansa.parsers.tenhou6.ext`), which viewers ignore and this
reader applies, so a written game reads back to equal events; a hand the log
stops in is written with the result ``["中断"]`` and read back as a hand that
simply stops.

The reader lives in :mod:`kansa.parsers.tenhou6.read` (games and metadata),
:mod:`kansa.parsers.tenhou6.kyoku` (one kyoku), :mod:`kansa.parsers.tenhou6.items` (takes
and discards), :mod:`kansa.parsers.tenhou6.order` (turn order search) and
:mod:`kansa.parsers.tenhou6.result` (result arrays); the writer in
:mod:`kansa.parsers.tenhou6.write`; the extension in :mod:`kansa.parsers.tenhou6.ext`.
"""

from __future__ import annotations

import dataclasses
import re

from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.parsers.tenhou6.jsontext import decode
from kansa.parsers.tenhou6.read import read_games
from kansa.parsers.tenhou6.write import write_game
from kansa.replay.game import Game

__all__ = ["parse", "sniff", "write"]

_LOG_OF_KYOKUS = re.compile(rb'"log"\s*:\s*\[\s*\[\s*\[\s*-?\d')
_OBJECT_NEXT = re.compile(rb"\s*\{")


def sniff(head: bytes) -> bool:
    """A JSON object (or JSON lines of objects) whose ``log`` holds kyoku arrays."""
    head = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    if not head.startswith(b"{"):
        return False
    end = head.find(b"\n")
    if end > 0:
        line = head[:end].rstrip()
        if line.endswith(b"}") and _OBJECT_NEXT.match(head, end):
            # JSON lines (one JSON text never has an object right after a line that
            # ends in "}"): the first line is a document of its own, with its log
            head = line
    at = head.find(b'"log"')  # found faster than the pattern's search finds it
    while at >= 0:
        if _LOG_OF_KYOKUS.match(head, at):
            return True
        at = head.find(b'"log"', at + 5)
    return False


def parse(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """The games in a tenhou.net/6 file (JSON lines of one game's kyokus give one game).

    :raises LogFormatError: for anything that is not a readable tenhou.net/6 log.
    """
    docs, cut = decode(data, source, limits)
    games = read_games(docs)
    if cut is not None:  # the cut is in the last game
        games[-1] = dataclasses.replace(games[-1], diagnostics=(*games[-1].diagnostics, cut))
    return games


def write(game: Game) -> str:
    """``game`` as one tenhou.net/6 JSON object, as the tenhou.net/6 viewer opens it,
    plus a ``kansa`` extension with what :func:`parse` needs to give back equal events.

    :raises LogWriteError: for a game the format cannot hold (hidden tiles, no hands, a
        play the format cannot express).
    """
    return write_game(game)
