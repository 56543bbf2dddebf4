"""mjai lines read from their characters (the compiled build's quick reading of the
most common lines, :mod:`kansa.parsers.mjai.deal` and :func:`read_call`): a position in
a line, moved on by what is read there.

Each reader takes the line ``text`` (``size`` characters long) and a position ``at``,
and gives the position after what it read, or -1 where that is not there; given -1,
it gives -1.  A line read this way is taken only when it is exactly the spelling
expected, every value of the type and within the bounds the per-line code wants; any
other line is left to that code, which reads it in full and words any error.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Final

from kansa.parsers.mjai.tiles import TILE_AT
from kansa.replay.tiles import Seat, Tile

if TYPE_CHECKING:  # native integers where compiled; only annotations name them
    from mypy_extensions import i64

__all__ = ["HIDDEN_TILE", "Call", "integer", "key", "past_tile", "read_call",
           "spaces", "tile_at", "word"]

HIDDEN_TILE: Final = -2
"""What :func:`tile_at` gives for ``?``."""
_DIGITS: Final = 15
"""Digits an integer may have here (any longer number is left to the per-line code)."""

def word(text: str, at: i64, size: i64, word: str) -> i64:
    """Read ``word``."""
    end = at + len(word)
    return end if at >= 0 and end <= size and text[at:end] == word else -1


def spaces(text: str, at: i64, size: i64) -> i64:
    """Pass any spaces."""
    if at < 0:
        return -1
    while at < size and text[at] == " ":
        at += 1
    return at


def key(text: str, at: i64, size: i64, key: str) -> i64:
    """Read a comma and ``key`` (quoted, with its colon), each with the spaces after
    it."""
    if at < 0 or at >= size or text[at] != ",":
        return -1
    return spaces(text, word(text, spaces(text, at + 1, size), size, key), size)


def integer(text: str, at: i64, size: i64) -> tuple[i64, i64]:
    """Read a JSON integer of fewer than :data:`_DIGITS` digits: its value and the
    position after it."""
    if at < 0:
        return 0, -1
    negative = at < size and text[at] == "-"
    if negative:
        at += 1
    first = at
    value: i64 = 0
    while at < size and at - first < _DIGITS:
        c: i64 = ord(text[at])
        if not 0x30 <= c <= 0x39:
            break
        value = value * 10 + c - 0x30
        at += 1
    digits = at - first
    if digits == 0 or digits >= _DIGITS or (digits > 1 and text[first] == "0"):
        return 0, -1
    return (-value if negative else value), at


def tile_at(text: str, at: i64, size: i64) -> i64:
    """The index in ``TILE_AT`` of the quoted mjai tile name at ``at``
    (:data:`HIDDEN_TILE` for ``?``), -1 where there is none; :func:`past_tile` passes
    it."""
    if at < 0 or at + 4 > size or text[at] != '"':
        return -1
    c: i64 = ord(text[at + 1])
    if text[at + 2] == '"':  # one character: an honour, or ?
        return _ONE_CHARACTER[c] if c < 128 else -1
    if not 0x31 <= c <= 0x39:
        return -1
    s: i64 = ord(text[at + 2])
    suit: i64 = 0 if s == 0x6D else 10 if s == 0x70 else 20 if s == 0x73 else -1
    if suit < 0:
        return -1
    if text[at + 3] == '"':
        return suit + c - 0x30
    if c == 0x35 and at + 5 <= size and text[at + 3] == "r" and text[at + 4] == '"':
        return suit
    return -1


def past_tile(at: i64, k: i64) -> i64:
    """The position after the tile name of index ``k`` read at ``at``."""
    if at < 0 or k == -1:
        return -1
    if k < 0 or k > 30:  # ? or an honour
        return at + 3
    return at + 5 if k % 10 == 0 else at + 4  # a red five, or another



@dataclass(slots=True, init=False, eq=False)
class Call:
    """The values of a chi, pon or open kan line, each as the per-line code reads it
    (``consumed`` as written)."""

    kind: Final[str]
    actor: Final[Seat]
    target: Final[Seat]
    tile: Final[Tile]
    consumed: Final[tuple[Tile, ...]]

    def __init__(self, kind: str, actor: Seat, target: Seat, tile: Tile,
                 consumed: tuple[Tile, ...]) -> None:
        self.kind = kind
        self.actor = actor
        self.target = target
        self.tile = tile
        self.consumed = consumed


def read_call(raw: str, players: int) -> Call | None:
    """The call of the line ``raw`` (``{"type":"pon","actor":..,"target":..,"pai":..,
    "consumed":[..]}``, compact or with ``json.dumps``'s spaces) in a game of ``players``
    seats, or ``None`` to leave the line to the per-line code (any other line: told
    from a few characters first)."""
    size: i64 = len(raw)
    if size < 40:
        return None
    at: i64 = 8 if raw[8] == '"' else 9  # the kind's opening quote, if the line is a call
    if raw[at] != '"':
        return None
    if raw[at + 1] == "p":
        kind = "pon"
    elif raw[at + 1] == "c":
        kind = "chi"
    elif raw[at + 1] == "d" and raw[at + 2] == "a" and raw[at + 3] == "i":
        kind = "daiminkan"
    else:
        return None
    at = spaces(raw, word(raw, 0, size, '{"type":'), size)
    at = word(raw, word(raw, word(raw, at, size, '"'), size, kind), size, '"')
    actor, at = integer(raw, key(raw, at, size, '"actor":'), size)
    target, at = integer(raw, key(raw, at, size, '"target":'), size)
    at = key(raw, at, size, '"pai":')
    tile = tile_at(raw, at, size)
    at = word(raw, key(raw, past_tile(at, tile), size, '"consumed":'), size, "[")
    consumed: list[Tile] = []
    while at >= 0:
        k = tile_at(raw, at, size)
        if k < 0:
            return None
        t = TILE_AT[k]
        if t is None:
            return None
        consumed.append(t)
        at = past_tile(at, k)
        if at < 0 or at >= size or raw[at] != ",":
            break
        at = spaces(raw, at + 1, size)
    at = word(raw, at, size, "]}")
    if at != size or tile < 0 or not 0 <= actor < players or not 0 <= target < players \
            or not 1 <= len(consumed) <= 4:
        return None
    pai = TILE_AT[tile]
    assert pai is not None
    return Call(kind, Seat(actor), Seat(target), pai, tuple(consumed))


_ONE_CHARACTER: Final[list[int]] = [-1] * 128
"""The tile index of each one-character name by its code (:data:`HIDDEN_TILE` for ``?``,
-1 for a character that names no tile)."""
_ONE_CHARACTER[ord("?")] = HIDDEN_TILE
for _k, _honour in enumerate("ESWNPFC"):
    _ONE_CHARACTER[ord(_honour)] = 31 + _k
