"""tenhou.net/6 JSON logs (FORMATS.md B): sniff, read, write.

What the format does not carry, so the reader leaves it ``None`` (and the
writer drops it): the winner's hand (``Hora.hand``), the sticks each winner
took (``Hora.kyotaku``), fu on limit hands (unless written before the limit
name), shown hands at a draw, tenpai when nobody paid, deltas of abortive
draws, scores after a riichi stick, times.  The winning tile, the kyuushu
declarer and Dora/ReachAccepted positions are not written either; they follow
from the order of play, which the reader reconstructs.

The reader lives in :mod:`parsers.tenhou6_read` (games and metadata),
:mod:`parsers.tenhou6_kyoku` (one kyoku), :mod:`parsers.tenhou6_items` (takes
and discards), :mod:`parsers.tenhou6_order` (turn order search) and
:mod:`parsers.tenhou6_result` (result arrays); the writer in
:mod:`parsers.tenhou6_write`.
"""

from __future__ import annotations

import re

from parsers.source import DEFAULT_LIMITS, Limits
from parsers.tenhou6_json import decode
from parsers.tenhou6_read import read_games
from parsers.tenhou6_write import write_game
from replay.game import Game

__all__ = ["parse", "sniff", "write"]

_LOG_OF_KYOKUS = re.compile(rb'"log"\s*:\s*\[\s*\[\s*\[\s*-?\d')


def sniff(head: bytes) -> bool:
    """A JSON object (or JSON lines of objects) whose ``log`` holds kyoku arrays."""
    head = head.lstrip(b"\xef\xbb\xbf \t\r\n")
    return head.startswith(b"{") and _LOG_OF_KYOKUS.search(head) is not None


def parse(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """The games in a tenhou.net/6 file (JSON lines of one game's kyokus give one game).

    :raises LogFormatError: for anything that is not a readable tenhou.net/6 log.
    """
    return read_games(decode(data, source, limits))


def write(game: Game) -> str:
    """``game`` as one tenhou.net/6 JSON object, as the tenhou.net/6 viewer opens it.

    :raises ValueError: for a game the format cannot hold (hidden tiles, no hands).
    """
    return write_game(game)
