"""Typed access to decoded JSON for every JSON reader: :class:`Fields` over one object,
and the reading of integers and tiles, each problem a
:class:`~kansa.parsers.errors.LogFormatError` naming the value's position (the
tolerance of :mod:`kansa.parsers._json`).  Compiled with the readers that call it."""

from __future__ import annotations

import json
import math
from typing import Any, Final, NoReturn

from kansa.parsers.errors import LogFormatError
from kansa.replay.events import SourceRef
from kansa.replay.tiles import Tile

_LARGEST_INTEGRAL_FLOAT: Final = 2.0 ** 53
"""Integral floats up to this read as integers exactly."""


def short(value: Any) -> str:
    """A value for an error message, cut to a readable length."""
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else repr(value)
    return text if len(text) <= 60 else text[:57] + "..."


class Fields:
    """Typed access to one JSON object; errors name the field's position."""

    __slots__ = ("obj", "src")

    def __init__(self, obj: Any, src: SourceRef, what: str = "an object") -> None:
        if not isinstance(obj, dict):
            raise LogFormatError(f"expected {what}, got {short(obj)}", src)
        self.obj: dict[str, Any] = obj
        self.src = src

    def at(self, key: str | int) -> SourceRef:
        """The position of ``key`` inside this object."""
        s = self.src
        return SourceRef(s.file, line=s.line, column=s.column,
                         pointer=f"{s.pointer or ''}/{key}")

    def fail(self, key: str | int, message: str) -> NoReturn:
        raise LogFormatError(message, self.at(key))

    def has(self, key: str) -> bool:
        return self.obj.get(key) is not None

    def get(self, key: str) -> Any:
        return self.obj.get(key)

    def req(self, key: str) -> Any:
        value = self.obj.get(key)
        if value is None:
            self.fail(key, f"missing field {key!r}")
        return value

    def integer(self, key: str, lo: int | None = None, hi: int | None = None) -> int:
        value = self.obj.get(key)
        if type(value) is int and (lo is None or value >= lo) and (hi is None or value <= hi):
            return value
        return check_int(self.req(key), self.at(key), key, lo, hi)

    def opt_int(self, key: str, lo: int | None = None, hi: int | None = None) -> int | None:
        value = self.obj.get(key)
        if value is None or (type(value) is int and (lo is None or value >= lo)
                             and (hi is None or value <= hi)):
            return value
        return check_int(value, self.at(key), key, lo, hi)

    def text(self, key: str) -> str:
        value = self.req(key)
        if not isinstance(value, str):
            self.fail(key, f"{key!r} should be a string, not {short(value)}")
        return value

    def flag(self, key: str, default: bool | None = None) -> bool:
        value = self.obj.get(key)
        if value is None and default is not None:
            return default
        if not isinstance(value, bool):
            self.fail(key, f"{key!r} should be true or false, not {short(value)}")
        return value

    def array(self, key: str) -> list[Any]:
        value = self.req(key)
        if not isinstance(value, list):
            self.fail(key, f"{key!r} should be a list, not {short(value)}")
        return value

    def ints(self, key: str, n: int | None = None) -> tuple[int, ...]:
        items = self.array(key)
        if n is not None and len(items) != n:
            self.fail(key, f"{key!r} should have {n} entries, not {len(items)}")
        if all(type(v) is int for v in items):
            return tuple(items)
        return tuple(check_int(v, self.at(key), key) for v in items)


def integer_value(value: object) -> int | None:
    """``value`` as an integer where one is expected: an ``int`` (not a ``bool``), or a
    float with an integral value (``25000.0``) up to 2**53; ``None`` for anything else."""
    if type(value) is int:
        return value
    if isinstance(value, float):
        if math.isfinite(value) and value.is_integer() and abs(value) <= _LARGEST_INTEGRAL_FLOAT:
            return int(value)
        return None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def check_int(value: Any, src: SourceRef, what: str, lo: int | None = None,
              hi: int | None = None) -> int:
    """``value`` read by :func:`integer_value`, within ``lo``..``hi``.

    :raises LogFormatError: for a value that is not an integer, or out of bounds.
    """
    number = integer_value(value)
    if number is None:
        raise LogFormatError(f"{what!r} should be an integer, not {short(value)}", src)
    if (lo is not None and number < lo) or (hi is not None and number > hi):
        bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise LogFormatError(f"{what!r} is {number}, outside {bounds}", src)
    return number


def tile_or_fail(parse: Any, text: Any, src: SourceRef, what: str) -> Tile:
    """``parse(text)`` as a tile, or a format error naming ``what``."""
    if not isinstance(text, str):
        raise LogFormatError(f"{what} should be a tile string, not {short(text)}", src)
    try:
        tile: Tile | None = parse(text)
    except ValueError:
        raise LogFormatError(f"{what}: {short(text)} is not a tile", src) from None
    if tile is None:
        raise LogFormatError(f"{what} is hidden ('?') where a tile is required", src)
    return tile
