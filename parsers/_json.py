"""Shared helpers of the JSON readers: text decoding, loading with positions, typed fields.

Every problem becomes a :class:`~kansa.parsers.errors.LogFormatError` naming the line
(and column) or the JSON pointer, so the readers never let a ``KeyError`` or a
``TypeError`` escape on odd input.
"""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any, NoReturn

from kansa.parsers.errors import LogFormatError
from kansa.replay.events import SourceRef
from kansa.replay.tiles import Tile

BOM = "\ufeff"


def decode_text(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text without a byte-order mark."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.reason == "unexpected end of data":  # cut off inside a character
            text = data[:exc.start].decode("utf-8")
            return text[1:] if text.startswith(BOM) else text
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        raise LogFormatError(f"not UTF-8 text (byte 0x{data[exc.start]:02x})",
                             SourceRef(source, line=line, column=column)) from None
    return text[1:] if text.startswith(BOM) else text


def load_document(text: str, data: bytes, src: SourceRef, max_depth: int, what: str) -> Any:
    """:func:`loads` for a file that is one JSON document (``what``: the format's name);
    a document cut off part-way is refused saying so (its hands are not recovered)."""
    try:
        return loads(text, src, max_depth)
    except LogFormatError:
        if not is_cut_off(text):
            raise
        line = data.count(b"\n") + 1
        column = len(data) - (data.rfind(b"\n") + 1) + 1
        raise LogFormatError(
            f"the file is cut off: it stops at byte {len(data)} before the end of the JSON "
            f"document; a cut-off {what} is not read (its hands are read whole only)",
            SourceRef(src.file, line, column)) from None


def loads(text: str, src: SourceRef, max_depth: int) -> Any:
    """Parse one JSON value; syntax errors give the line and column within ``text``.

    ``src.line`` (when set) is the line ``text`` starts on, so a JSON-lines reader
    passes the file line and errors keep pointing into the file.
    """
    try:
        value = json.loads(text)
    except json.JSONDecodeError as exc:
        first = src.line or 1
        raise LogFormatError(f"not valid JSON: {exc.msg}",
                             SourceRef(src.file, line=first + exc.lineno - 1,
                                       column=exc.colno)) from None
    except RecursionError:
        raise LogFormatError(f"JSON nested deeper than {max_depth} levels (--max-json-depth)",
                             src) from None
    except ValueError as exc:  # e.g. an integer with too many digits
        raise LogFormatError(f"not valid JSON: {exc}", src) from None
    if text.count("[") + text.count("{") > max_depth and nesting(text) > max_depth:
        raise LogFormatError(
            f"JSON nested deeper than {max_depth} levels (--max-json-depth)", src)
    return value


_PARTIAL_NUMBER = re.compile(r"-?(?:\d+(?:\.\d*)?(?:[eE][+-]?\d*)?)?")
"""The start of a JSON number (which the decoder reports at its first character)."""
_NUMBER_TAIL = re.compile(r"\.\d*|(?:\.\d+)?[eE][+-]?")
"""A number's fraction or exponent begun (the decoder stops after its digits)."""


def is_cut_off(text: str) -> bool:
    """Whether ``text`` is the start of a JSON value that stops before its end: the
    decoder (which reads left to right) finds nothing wrong before the end of the text."""
    try:
        json.loads(text)
    except json.JSONDecodeError as exc:
        rest = text[exc.pos:].rstrip()
        if not rest:
            return True
        if exc.msg.startswith("Unterminated string"):
            return '"' not in rest[1:]
        if exc.msg == "Expecting value":  # a number or a word begun
            return _PARTIAL_NUMBER.fullmatch(rest) is not None or \
                any(word.startswith(rest) for word in ("true", "false", "null"))
        if exc.msg.startswith("Invalid \\uXXXX"):  # an escape begun
            return re.fullmatch(r"u[0-9A-Fa-f]{0,4}", rest) is not None
        if exc.msg == "Expecting ',' delimiter" and text[exc.pos - 1:exc.pos].isdigit():
            return _NUMBER_TAIL.fullmatch(rest) is not None  # 1. or 1e: the number goes on
        return False
    except (ValueError, RecursionError):
        return False
    return False


def excerpt(text: str, size: int = 60) -> str:
    """``text`` quoted, shortened to about ``size`` characters."""
    return repr(text if len(text) <= size else text[:size - 3] + "...")


_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
_BRACKETS = re.compile(r"[\[\]{}]")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def nesting(text: str) -> int:
    """The deepest bracket nesting of valid JSON ``text`` (brackets in strings ignored)."""
    marks = _BRACKETS.findall(_STRINGS.sub("", text))
    return max(accumulate(map(_STEP.__getitem__, marks)), default=0)


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
        return None if value is None else check_int(value, self.at(key), key, lo, hi)

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
        return tuple(check_int(v, self.at(key), key) for v in items)


def check_int(value: Any, src: SourceRef, what: str, lo: int | None = None,
              hi: int | None = None) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise LogFormatError(f"{what!r} should be an integer, not {short(value)}", src)
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        bounds = f"{lo}..{hi}" if hi is not None else f">= {lo}"
        raise LogFormatError(f"{what!r} is {value}, outside {bounds}", src)
    return value


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
