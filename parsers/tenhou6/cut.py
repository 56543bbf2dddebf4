"""A tenhou.net/6 document cut off part-way: the complete kyoku entries before the cut.

Only text the JSON decoder finds nothing wrong with up to its end is taken as cut off
(:func:`kansa.parsers._json.is_cut_off`).  A single document is then read key by key: the
cut must fall inside (or after) the ``log`` array, so that every key written before
it (``name``, ``rule``...) is whole; each kyoku entry of ``log`` completed before the
cut is kept, and the one the cut falls in is dropped.  Without its ``rule`` the red
five rule would be guessed, so a document whose ``rule`` is lost is not recovered.
JSON lines (one kyoku per line) lose their last, unfinished line only.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from typing import Any

__all__ = ["Prefix", "complete_prefix"]

_SPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


@dataclass(frozen=True, slots=True)
class Prefix:
    """The object read before the cut, and how much of its ``log``."""

    obj: dict[str, Any]
    kyokus: int
    """Complete entries of ``log``."""
    log_whole: bool
    """The cut falls after the ``log`` array."""


def complete_prefix(text: str) -> Prefix | str:
    """The keys of the top-level object of cut-off ``text`` read before the cut, with the
    complete entries of ``log``; or why nothing can be kept (the cut falls before the
    first complete hand, or ``rule`` is lost)."""
    pos = _skip(text, 0)
    if not text.startswith("{", pos):
        return "before its first object"
    obj: dict[str, Any] = {}
    pos += 1
    kyokus, log_whole = 0, False
    while True:
        try:
            key, pos = _DECODER.raw_decode(text, _skip(text, pos))
            pos = _skip(text, pos)
            if not text.startswith(":", pos):
                raise ValueError("cut after a key")
            pos = _skip(text, pos + 1)
            if key == "log" and text.startswith("[", pos):
                entries: list[Any] = []
                obj["log"] = entries
                pos = _read_array(text, pos + 1, entries)
                kyokus, log_whole = len(entries), True
            else:
                value, pos = _DECODER.raw_decode(text, pos)
                obj[key] = value
            pos = _skip(text, pos)
            if not text.startswith(",", pos):
                raise ValueError("cut after a value")
            pos += 1
        except _Cut as cut:
            kyokus = cut.kept
            break
        except ValueError:
            break
    if "log" not in obj:
        return "before its \"log\" array"
    if "rule" not in obj:
        return "and its \"rule\", which comes after \"log\", is lost"
    if not kyokus:
        return "before its first complete hand"
    return Prefix(obj, kyokus, log_whole)


class _Cut(Exception):
    def __init__(self, kept: int) -> None:
        self.kept = kept


def _read_array(text: str, pos: int, into: list[Any]) -> int:
    """Read array entries from ``pos`` into ``into``; the position after ``]``, or
    :class:`_Cut` when the text ends first."""
    pos = _skip(text, pos)
    if text.startswith("]", pos):
        return pos + 1
    while True:
        try:
            value, pos = _DECODER.raw_decode(text, pos)
        except ValueError:
            raise _Cut(len(into)) from None
        into.append(value)
        pos = _skip(text, pos)
        if text.startswith("]", pos):
            return pos + 1
        if not text.startswith(",", pos):
            raise _Cut(len(into))
        pos = _skip(text, pos + 1)


def _skip(text: str, pos: int) -> int:
    match = _SPACE.match(text, pos)
    return match.end() if match else pos
