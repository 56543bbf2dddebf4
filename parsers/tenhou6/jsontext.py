"""tenhou.net/6 JSON text in, checked Python values out, every problem with a position.

A file is one JSON object, or JSON lines with one object per line (mjx writes
one kyoku per line).  The text is read with the tolerance of every JSON reader
(:mod:`kansa.parsers._json`: encoding, depth, ``NaN``, integral floats).
:class:`Where` turns a JSON pointer into a :class:`SourceRef` and raises
:class:`LogFormatError` there.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, Final, NoReturn

from kansa.parsers._json import (
    NOT_READ,
    check_depth,
    decode_text,
    excerpt,
    is_cut_off,
    line_column,
    parse_json,
    plainly_within,
    quick_value,
    shallow_value,
    utf8_of,
)
from kansa.parsers.errors import LogFormatError
from kansa.parsers.fields import integer_value
from kansa.parsers.source import Limits
from kansa.parsers.tenhou6.cut import Prefix, complete_prefix
from kansa.replay.events import SourceRef
from kansa.replay.game import Diagnostic


@dataclass(slots=True, init=False)
class Where:
    """Positions inside one JSON document of a file (``line`` for JSON lines).

    Its fields are ``Final`` and set by a written ``__init__`` (one is made per JSON
    line), which compiles to native code where a generated one does not."""

    file: Final[str]
    line: Final[int | None]

    def __init__(self, file: str, line: int | None = None) -> None:
        self.file = file
        self.line = line

    def ref(self, pointer: str) -> SourceRef:
        return SourceRef(self.file, line=self.line, pointer=pointer or "/")

    def fail(self, pointer: str, message: str) -> NoReturn:
        raise LogFormatError(message, self.ref(pointer))


def _json_error(exc: json.JSONDecodeError, source: str, line_offset: int = 0
                ) -> LogFormatError:
    return LogFormatError(f"not valid JSON: {exc.msg}",
                          SourceRef(source, line=exc.lineno + line_offset, column=exc.colno))


def _end(text: str) -> tuple[int, int]:
    """The line and column just past the end of ``text``."""
    return line_column(text, len(text))


_COUNTED: Final = 4096
"""The longest document whose brackets :func:`decode` counts before it looks at their
nesting."""


def decode(data: bytes, source: str, limits: Limits
           ) -> tuple[list[tuple[Where, Any]], Diagnostic | None]:
    """The JSON documents in ``data``: one object, or one per non-empty line; and, for
    a file cut off part-way, the ``log.truncated`` warning saying where it stops (the
    documents then hold what came before the cut, see :mod:`kansa.parsers.tenhou6.cut`).

    :raises LogFormatError: for bytes that are not UTF-8 JSON within the limits.
    """
    if len(data) > limits.max_decompressed_bytes:
        raise LogFormatError(
            f"{len(data)} bytes of JSON, over the limit of {limits.max_decompressed_bytes}",
            SourceRef(source))
    limit = limits.max_json_depth
    utf8 = utf8_of(data)
    if utf8 is not None:  # one document of the usual depth, whose depth needs no count
        value = shallow_value(utf8, limit)
        if value is not NOT_READ:
            return [(Where(source), value)], None
    # within: the depth as check_depth finds it plainly (the brackets of the bytes are
    # the text's; counted in a short file only, as a long one holds more than the limit)
    within = False
    if utf8 is not None and (
            (len(utf8) <= _COUNTED and utf8.count(b"[") + utf8.count(b"{") <= limit)
            or plainly_within(utf8, limit)):
        within = True
        # one document, read from its bytes without decoding the text: msgspec refuses
        # a string that is not UTF-8, and outside strings JSON is ASCII, so the checks
        # below would pass and give this value
        value = quick_value(utf8)
        if value is not NOT_READ:
            return [(Where(source), value)], None
    text = decode_text(data, source)
    if not text.strip():
        raise LogFormatError("the file is empty", SourceRef(source))
    if not within:
        # the whole text's depth: a JSON-lines file's lines are documents that each
        # close every bracket they open, so its depth is the deepest line's
        check_depth(text, limit, SourceRef(source), utf8)
        value = quick_value(text if utf8 is None else utf8)
        if value is not NOT_READ:
            return [(Where(source), value)], None
    rows = text.split("\n")
    utf8_rows = None if utf8 is None else utf8.split(b"\n")  # line for line
    first = next((n for n, row in enumerate(rows) if row.strip()), 0)
    if quick_value(rows[first] if utf8_rows is None else utf8_rows[first]) is not NOT_READ:
        # JSON lines: the first line is a whole document and the whole text is not, so
        # json would stop after that line with "Extra data"
        return _lines(data, rows, utf8_rows, source)
    try:
        return [(Where(source), parse_json(text, SourceRef(source)))], None
    except json.JSONDecodeError as exc:
        # the error as made, not the exception: a kept exception holds its traceback's
        # frames, and through them the reader's values, in a reference cycle
        lines = exc.msg == "Extra data"  # JSON lines: one document per line
        whole = _json_error(exc, source)
    if not lines:
        if is_cut_off(text):
            prefix = complete_prefix(text)
            if isinstance(prefix, Prefix):
                return [(Where(source), prefix.obj)], _cut_note(data, text, source, prefix)
            line, column = _end(text)
            raise LogFormatError(
                f"the file is cut off: it stops at byte {len(data)} {prefix}; nothing "
                "before the cut can be audited", SourceRef(source, line, column))
        raise whole from None
    return _lines(data, rows, utf8_rows, source)


def _lines(data: bytes, rows: list[str], utf8_rows: list[bytes] | None, source: str
           ) -> tuple[list[tuple[Where, Any]], Diagnostic | None]:
    """The documents of a JSON-lines text's ``rows`` (``utf8_rows``: the same lines'
    bytes, when :func:`~kansa.parsers._json.utf8_of` gives them; see :func:`decode`)."""
    docs: list[tuple[Where, Any]] = []
    for number, row in enumerate(rows, start=1):
        if not row.strip():
            continue
        value = NOT_READ if utf8_rows is None else quick_value(utf8_rows[number - 1])
        if value is not NOT_READ:
            docs.append((Where(source, number), value))
            continue
        try:
            docs.append((Where(source, number), parse_json(row, SourceRef(source, number))))
        except json.JSONDecodeError as exc:
            if number == len(rows) and docs and is_cut_off(row):  # last line, unfinished
                return docs, Diagnostic(
                    f"the file is cut off: it stops at byte {len(data)} (line {number}, "
                    f"column {len(row) + 1}) in the middle of its last line, "
                    f"{excerpt(row.strip())}, which is lost",
                    SourceRef(source, number, len(row) + 1), "warning", "log.truncated")
            raise _json_error(exc, source, number - 1) from None
    return docs, None


def _cut_note(data: bytes, text: str, source: str, prefix: Prefix) -> Diagnostic:
    line, column = _end(text)
    where = "after the \"log\" array" if prefix.log_whole else \
        f"in entry {prefix.kyokus} of the \"log\" array (counting from 0)"
    lost = "what follows the log" if prefix.log_whole else \
        "that hand and everything after it are lost"
    return Diagnostic(
        f"the file is cut off: it stops at byte {len(data)} (line {line}, column {column}) "
        f"{where}; the {prefix.kyokus} complete hand{'s' if prefix.kyokus > 1 else ''} "
        f"before it are read, {lost}", SourceRef(source, line, column), "warning",
        "log.truncated")


# -- typed access with positions ---------------------------------------------------


def is_int(value: object) -> bool:
    """Whether ``value`` is a JSON integer (not a float, not a boolean)."""
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def as_int(where: Where, pointer: str, value: object, what: str) -> int:
    """An integer, read as every JSON reader reads one (:func:`~kansa.parsers.fields.integer_value`:
    a float with an integral value is accepted, some writers emit ``0.0``)."""
    number = integer_value(value)
    if number is None:
        where.fail(pointer, f"{what} must be an integer, not {_show(value)}")
    return number


def as_list(where: Where, pointer: str, value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        where.fail(pointer, f"{what} must be an array, not {_show(value)}")
    return value


def int_list(where: Where, pointer: str, value: object, what: str) -> list[int]:
    items = as_list(where, pointer, value, what)
    out: list[int] = []
    for v in items:
        if type(v) is not int:  # as every JSON reader reads one, with its position
            return [as_int(where, f"{pointer}/{i}", v, what) for i, v in enumerate(items)]
        out.append(v)
    return out


def enumerate_at(pointer: str, items: list[Any]) -> Iterator[tuple[str, Any]]:
    for i, v in enumerate(items):
        yield f"{pointer}/{i}", v


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def show(value: object) -> str:
    """A short JSON rendering of ``value`` for messages."""
    return _show(value)
