"""The one JSON helper of every JSON reader (tenhou.net/6, mjai, majiang, Mahjong Soul).

Every reader takes JSON with the same tolerance:

* **text**: UTF-8, with or without a byte-order mark.  A UTF-16 or UTF-32 file (told by
  its byte-order mark) is refused naming its encoding; other bytes that are not UTF-8
  are refused at their line and column; a file cut off inside its last character is
  read up to that character.
* **depth**: the number of arrays and objects open at a bracket, counted in the text of
  one JSON document (in a JSON-lines file, each line) before it is parsed, brackets
  inside strings not counted: ``0`` has depth 0, ``[]`` and ``{}`` 1, ``{"a": [0]}``
  2.  The first bracket past ``--max-json-depth`` is refused at its line and column.
* **NaN, Infinity, -Infinity** (which Python's ``json`` takes, JSON does not) are
  refused at their line and column.  A number too large for a float (``1e999``),
  and an integer longer than Python reads from text (``sys.get_int_max_str_digits``,
  4,300 digits by default), read as infinity, which every numeric field refuses.
* **integers**: where an integer is expected, a float with an integral value
  (``25000.0``: some writers emit them) is read as that integer
  (:func:`integer_value`); any other float, a boolean or a string is refused.
* **positions**: lines and columns count from 1, columns in characters; a problem
  inside a value names its JSON pointer.

Every problem becomes a :class:`~kansa.parsers.errors.LogFormatError` naming the line
(and column) or the JSON pointer, so the readers never let a ``KeyError`` or a
``TypeError`` escape on odd input.

Speed: a document is first decoded by msgspec (:func:`quick_value`), which gives the
same value as Python's ``json`` wherever it accepts the text; whatever it refuses
(``NaN``, ``1e999``, a lone surrogate escape, any syntax error) is decoded again by
``json``, whose reading and errors are the tolerance above.  The depth is counted
before either decodes.
"""

from __future__ import annotations

import functools
import json
import math
import re
from itertools import accumulate, repeat
from types import GenericAlias
from typing import Any, Final, Union

import msgspec

from kansa.parsers.errors import LogFormatError
from kansa.replay.events import SourceRef

BOM: Final = "\ufeff"
_WIDE_BOMS: Final = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"),
              (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def decode_text(data: bytes, source: str) -> str:
    """``data`` as UTF-8 text without a byte-order mark.

    :raises LogFormatError: for UTF-16 or UTF-32 text, or bytes that are not UTF-8.
    """
    for bom, name in _WIDE_BOMS:
        if data.startswith(bom):
            raise LogFormatError(f"the file is {name} text; JSON logs are read as UTF-8 only",
                                 SourceRef(source, line=1, column=1))
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        if exc.reason == "unexpected end of data":  # cut off inside a character
            text = data[:exc.start].decode("utf-8")
            return text[1:] if text.startswith(BOM) else text
        start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        column = len(data[start:exc.start].decode("utf-8")) + 1
        raise LogFormatError(f"not UTF-8 text (byte 0x{data[exc.start]:02x})",
                             SourceRef(source, line=line, column=column)) from None
    return text[1:] if text.startswith(BOM) else text


def line_column(text: str, offset: int, first_line: int = 1) -> tuple[int, int]:
    """The line and column of character ``offset`` of ``text`` (which starts on
    ``first_line``)."""
    line = first_line + text.count("\n", 0, offset)
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


_DEPTH_TOKEN: Final = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)
_OPENS: Final = frozenset("[{")
_DEPTH_STEP: Final = {"[": 1, "{": 1, "]": -1, "}": -1}
"""What each token of ``_DEPTH_TOKEN`` does to the depth (a string: nothing)."""


def nesting(text: str) -> int:
    """The greatest depth of ``text`` (as the module says), counted without a Python
    loop over its tokens."""
    steps = map(_DEPTH_STEP.get, _DEPTH_TOKEN.findall(text), repeat(0))
    return max(accumulate(steps), default=0)


_NOT_MARKS: Final = bytes(b for b in range(256) if b not in b'[]{}"')
"""Every byte but the brackets and the quote, for ``bytes.translate`` to delete."""
_BRACES_AS_BRACKETS: Final = bytes.maketrans(b"{}", b"[]")


def plainly_within(text: str | bytes, limit: int) -> bool:
    """True when ``text`` has no backslash and nests within ``limit``: without an
    escape every quote opens or closes a string, so the brackets between the quotes'
    pairs are those :func:`nesting` counts.  False otherwise, also when unsure (a
    backslash, an unclosed string, unbalanced brackets): :func:`nesting` then decides.
    ``text`` may be the UTF-8 bytes the text was decoded from (the same marks).

    The brackets outside the strings are balanced and nest at most ``limit`` deep
    exactly when ``limit`` rounds of deleting every adjacent ``[]`` (each round takes
    away the innermost level) leave nothing.
    """
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    if b"\\" in data:
        return False
    # two adjacent quotes (an empty string, or two strings with nothing between them
    # but non-marks) go first: no other mark changes side
    marks = data.translate(None, _NOT_MARKS).replace(b'""', b"")
    if b'"' in marks:
        parts = marks.split(b'"')
        if len(parts) % 2 == 0:  # a string left open
            return False
        marks = b"".join(parts[::2])
    marks = marks.translate(_BRACES_AS_BRACKETS)
    for _ in range(limit):
        if not marks:
            return True
        fewer = marks.replace(b"[]", b"")
        if len(fewer) == len(marks):  # no innermost pair: unbalanced
            return False
        marks = fewer
    return not marks


def check_depth(text: str, limit: int, src: SourceRef, utf8: bytes | None = None) -> None:
    """Refuse ``text`` (one JSON document) where it nests deeper than ``limit``
    (depth as the module says), before a parser recurses into it; ``utf8``: its UTF-8
    bytes (:func:`utf8_of`), which answer the plain case without encoding ``text``.

    :raises LogFormatError: at the line and column of the first bracket past the limit
        (``src.line``, when set, is the line ``text`` starts on).
    """
    if text.count("[") + text.count("{") <= limit \
            or plainly_within(text if utf8 is None else utf8, limit) or nesting(text) <= limit:
        return
    depth = 0
    for m in _DEPTH_TOKEN.finditer(text):
        mark = m.group()
        if mark in _OPENS:
            depth += 1
            if depth > limit:
                line, column = line_column(text, m.start(), src.line or 1)
                raise LogFormatError(
                    f"JSON nested deeper than {limit} levels (--max-json-depth)",
                    SourceRef(src.file, line=line, column=column))
        elif len(mark) == 1:
            depth -= 1


class _NotJSONConstant(ValueError):
    """``NaN``, ``Infinity`` or ``-Infinity`` met by the decoder."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


def _refuse_constant(name: str) -> Any:
    raise _NotJSONConstant(name)


def _read_integer(text: str) -> int | float:
    """An integer token as ``json`` reads it, or infinity (of its sign) when it is longer
    than Python reads (``int`` refuses it), as a number too large for a float reads."""
    try:
        return int(text)
    except ValueError:
        return -math.inf if text.startswith("-") else math.inf


_DECODER: Final = json.JSONDecoder(parse_constant=_refuse_constant, parse_int=_read_integer)
"""One decoder for every document: ``json.loads`` with an argument builds a new one
per call, which costs more than decoding a line of mjai."""

QUICK_DECODER: Final = msgspec.json.Decoder()
"""The decoder of :func:`quick_value`."""
NOT_READ: Final[Any] = object()
""":func:`quick_value`'s answer for a text it leaves to ``json``."""


def quick_value(text: str | bytes) -> Any:
    """``text`` (one JSON document, its depth checked; or its UTF-8 bytes, which msgspec
    reads without encoding them first) decoded by msgspec, which gives the value
    ``json`` gives wherever it accepts the text; :data:`NOT_READ` for any text it
    refuses (``json`` then reads it, or words the error)."""
    try:
        return QUICK_DECODER.decode(text)
    except (msgspec.DecodeError, RecursionError, UnicodeError):
        return NOT_READ


SHALLOW_DEPTH: Final = 8
"""The depth :func:`shallow_value` reads to: a tenhou.net/6 or majiang document with
kansa's extension nests 7 deep."""


@functools.cache
def _shallow_decoder() -> msgspec.json.Decoder[Any]:
    """A msgspec decoder of JSON values nesting at most :data:`SHALLOW_DEPTH` deep: at
    each depth a value is a scalar, an array or an object of the next depth's values,
    and a scalar is all the last depth holds (the type is built once, as it grows
    twice as large with each depth)."""
    scalars = (int, float, str, bool, None)
    value: Any = Union.__getitem__(scalars)
    for _ in range(SHALLOW_DEPTH):
        value = Union.__getitem__((*scalars, GenericAlias(list, (value,)),
                                   GenericAlias(dict, (str, value))))
    return msgspec.json.Decoder(value)


def shallow_value(text: bytes, limit: int) -> Any:
    """``text`` (one JSON document's UTF-8 bytes) decoded as :func:`quick_value` decodes
    it, where it nests at most :data:`SHALLOW_DEPTH` deep and ``limit`` allows that: its
    depth then needs no count.  :data:`NOT_READ` otherwise (deeper, or a text
    :func:`quick_value` refuses): the caller counts the depth and reads it as before.

    msgspec gives the untyped decoder's value for every text the type accepts (each
    depth takes every JSON value but arrays and objects at the last), and refuses the
    others with a validation error at the first value nested too deep."""
    if limit < SHALLOW_DEPTH:
        return NOT_READ
    try:
        return _shallow_decoder().decode(text)
    except (msgspec.DecodeError, RecursionError, UnicodeError):
        return NOT_READ


def holds(text: bytes, needle: bytes, rare: int) -> bool:
    """``needle in text``, found by searching for the byte ``needle[rare]`` (one byte:
    memchr) and checking each hit, which is faster for a key whose quotes fill JSON
    text.  After :data:`_RARE_HITS` hits the rest is searched for ``needle`` itself,
    so a text full of that byte costs about what ``in`` costs."""
    byte = needle[rare:rare + 1]
    at = text.find(byte, rare)
    hits = 0
    while at >= 0:
        if text.startswith(needle, at - rare):
            return True
        hits += 1
        if hits == _RARE_HITS:
            return text.find(needle, at - rare) >= 0
        at = text.find(byte, at + 1)
    return False


_RARE_HITS: Final = 16


_CONSTANT_TOKEN: Final = re.compile(r'"(?:[^"\\]|\\.)*"|(-?Infinity|NaN)', re.DOTALL)


def _constant_error(text: str, name: str, src: SourceRef) -> LogFormatError:
    """The error for the first ``NaN`` or ``Infinity`` of ``text``, at its position."""
    where = next((m.start(1) for m in _CONSTANT_TOKEN.finditer(text) if m.group(1)), None)
    line, column = line_column(text, where, src.line or 1) if where is not None \
        else (src.line, None)
    return LogFormatError(f"not valid JSON: {name} is not a number JSON allows",
                          SourceRef(src.file, line=line, column=column))


def utf8_of(data: bytes) -> bytes | None:
    """``data`` without its byte-order mark where those bytes are exactly the UTF-8 of
    the text :func:`decode_text` gives (their last byte is ASCII, so no character is
    cut off), for msgspec and the depth count to read without encoding the text
    again; else ``None``."""
    body = data[3:] if data.startswith(b"\xef\xbb\xbf") else data
    return body if body and body[-1] < 0x80 else None


def parse_json(text: str, src: SourceRef, utf8: bytes | None = None) -> Any:
    """Parse one JSON value whose depth is already checked (``utf8``: its UTF-8 bytes,
    :func:`utf8_of`); ``NaN`` and ``Infinity`` are refused.  Syntax errors give the
    line and column within ``text``.

    :raises json.JSONDecodeError: for a syntax error (for callers that look at it);
    :raises LogFormatError: for ``NaN``/``Infinity`` and numbers Python cannot hold.
    """
    value = quick_value(text if utf8 is None else utf8)
    if value is not NOT_READ:
        return value
    try:
        if text.startswith(BOM):  # as json.loads says it
            raise json.JSONDecodeError("Unexpected UTF-8 BOM (decode using utf-8-sig)", text, 0)
        return _DECODER.decode(text)
    except _NotJSONConstant as exc:
        raise _constant_error(text, exc.name, src) from None
    except json.JSONDecodeError:
        raise
    except ValueError as exc:
        raise LogFormatError(f"not valid JSON: {exc}", src) from None


def load_document(text: str, data: bytes, src: SourceRef, max_depth: int, what: str) -> Any:
    """:func:`loads` for a file that is one JSON document (``what``: the format's name);
    a document cut off part-way is refused saying so (its hands are not recovered)."""
    try:
        return loads(text, src, max_depth, utf8_of(data))
    except LogFormatError:
        if not is_cut_off(text):
            raise
        line, column = line_column(text, len(text))
        raise LogFormatError(
            f"the file is cut off: it stops at byte {len(data)} before the end of the JSON "
            f"document; a cut-off {what} is not read (its hands are read whole only)",
            SourceRef(src.file, line, column)) from None


def loads(text: str, src: SourceRef, max_depth: int, utf8: bytes | None = None) -> Any:
    """Parse one JSON document after :func:`check_depth` (``utf8``: its UTF-8 bytes,
    :func:`utf8_of`); syntax errors give the line and column within ``text``.

    ``src.line`` (when set) is the line ``text`` starts on, so a JSON-lines reader
    passes the file line and errors keep pointing into the file.
    """
    check_depth(text, max_depth, src, utf8)
    try:
        return parse_json(text, src, utf8)
    except json.JSONDecodeError as exc:
        first = src.line or 1
        raise LogFormatError(f"not valid JSON: {exc.msg}",
                             SourceRef(src.file, line=first + exc.lineno - 1,
                                       column=exc.colno)) from None
    except RecursionError:  # a limit above what Python's stack takes
        raise LogFormatError(f"JSON nested deeper than {max_depth} levels (--max-json-depth)",
                             src) from None


_PARTIAL_NUMBER: Final = re.compile(r"-?(?:\d+(?:\.\d*)?(?:[eE][+-]?\d*)?)?")
"""The start of a JSON number (which the decoder reports at its first character)."""
_NUMBER_TAIL: Final = re.compile(r"\.\d*|(?:\.\d+)?[eE][+-]?")
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
