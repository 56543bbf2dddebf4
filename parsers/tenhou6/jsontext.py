"""tenhou.net/6 JSON text in, checked Python values out, every problem with a position.

A file is one JSON object, or JSON lines with one object per line (mjx writes
one kyoku per line).  :class:`Where` turns a JSON pointer into a
:class:`SourceRef` and raises :class:`LogFormatError` there.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any, NoReturn

from kansa.parsers._json import excerpt, is_cut_off
from kansa.parsers.errors import LogFormatError
from kansa.parsers.source import Limits
from kansa.parsers.tenhou6.cut import Prefix, complete_prefix
from kansa.replay.events import SourceRef
from kansa.replay.game import Diagnostic

_TOKEN = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]', re.DOTALL)


@dataclass(frozen=True, slots=True)
class Where:
    """Positions inside one JSON document of a file (``line`` for JSON lines)."""

    file: str
    line: int | None = None

    def ref(self, pointer: str) -> SourceRef:
        return SourceRef(self.file, line=self.line, pointer=pointer or "/")

    def fail(self, pointer: str, message: str) -> NoReturn:
        raise LogFormatError(message, self.ref(pointer))


def _line_col(text: bytes, offset: int) -> tuple[int, int]:
    line = text.count(b"\n", 0, offset) + 1
    start = text.rfind(b"\n", 0, offset) + 1
    return line, offset - start + 1


def check_depth(data: bytes, limit: int, source: str) -> None:
    """Refuse nesting deeper than ``limit`` before ``json`` recurses into it."""
    depth = 0
    for m in _TOKEN.finditer(data):
        ch = m.group()
        if ch in (b"[", b"{"):
            depth += 1
            if depth > limit:
                line, col = _line_col(data, m.start())
                raise LogFormatError(
                    f"JSON nesting deeper than {limit} levels (--max-json-depth)",
                    SourceRef(source, line=line, column=col))
        elif ch in (b"]", b"}"):
            depth -= 1


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def _loads(text: str) -> Any:
    return json.loads(text, parse_constant=_reject_constant)


def _json_error(exc: ValueError, source: str, line_offset: int = 0) -> LogFormatError:
    if isinstance(exc, json.JSONDecodeError):
        return LogFormatError(f"not valid JSON: {exc.msg}",
                              SourceRef(source, line=exc.lineno + line_offset, column=exc.colno))
    return LogFormatError(f"not valid JSON: {exc}",
                          SourceRef(source, line=line_offset + 1 if line_offset else None))


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
    check_depth(data, limits.max_json_depth, source)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        if exc.reason != "unexpected end of data":
            line, col = _line_col(data, exc.start)
            raise LogFormatError("not UTF-8 text",
                                 SourceRef(source, line=line, column=col)) from None
        text = data[:exc.start].decode("utf-8-sig")  # cut off inside a character
    if not text.strip():
        raise LogFormatError("the file is empty", SourceRef(source))
    try:
        return [(Where(source), _loads(text))], None
    except ValueError as exc:
        whole = exc
    if not (isinstance(whole, json.JSONDecodeError) and whole.msg == "Extra data"):
        if is_cut_off(text):
            prefix = complete_prefix(text)
            if isinstance(prefix, Prefix):
                return [(Where(source), prefix.obj)], _cut_note(data, source, prefix)
            line, column = _line_col(data, len(data))
            raise LogFormatError(
                f"the file is cut off: it stops at byte {len(data)} {prefix}; nothing "
                "before the cut can be audited", SourceRef(source, line, column))
        raise _json_error(whole, source) from None
    docs: list[tuple[Where, Any]] = []
    rows = text.split("\n")
    for number, row in enumerate(rows, start=1):
        if not row.strip():
            continue
        try:
            docs.append((Where(source, number), _loads(row)))
        except ValueError as exc:
            if number == len(rows) and docs and is_cut_off(row):  # last line, unfinished
                return docs, Diagnostic(
                    f"the file is cut off: it stops at byte {len(data)} (line {number}, "
                    f"column {len(row) + 1}) in the middle of its last line, "
                    f"{excerpt(row.strip())}, which is lost",
                    SourceRef(source, number, len(row) + 1), "warning", "log.truncated")
            raise _json_error(exc, source, number - 1) from None
    return docs, None


def _cut_note(data: bytes, source: str, prefix: Prefix) -> Diagnostic:
    line, column = _line_col(data, len(data))
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
    return type(value) is int or (isinstance(value, int) and not isinstance(value, bool))


def as_int(where: Where, pointer: str, value: object, what: str) -> int:
    """An integer (a float with an integral value is accepted: some writers emit ``0.0``)."""
    if is_int(value):
        assert isinstance(value, int)
        return value
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e15:
        return int(value)
    where.fail(pointer, f"{what} must be an integer, not {_show(value)}")


def as_list(where: Where, pointer: str, value: object, what: str) -> list[Any]:
    if not isinstance(value, list):
        where.fail(pointer, f"{what} must be an array, not {_show(value)}")
    return value


def int_list(where: Where, pointer: str, value: object, what: str) -> list[int]:
    items = as_list(where, pointer, value, what)
    return [as_int(where, f"{pointer}/{i}", v, what) for i, v in enumerate(items)]


def enumerate_at(pointer: str, items: list[Any]) -> Iterator[tuple[str, Any]]:
    for i, v in enumerate(items):
        yield f"{pointer}/{i}", v


def _show(value: object) -> str:
    text = json.dumps(value, ensure_ascii=False)
    return text if len(text) <= 40 else text[:37] + "..."


def show(value: object) -> str:
    """A short JSON rendering of ``value`` for messages."""
    return _show(value)
