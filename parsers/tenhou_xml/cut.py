"""An mjlog cut off part-way (a download or a copy that stopped): its complete tags.

A document is taken as cut off only when lxml's error is at the very end of the data,
and a strict incremental parse of it (the same parser settings: no entities, DTDs,
network or huge trees) reads every byte without an error and fails only when told
the input is over.  A streaming parser reports an error as soon as it reads one, so
the text before the end is then well-formed XML, and the children whose end tag (or
``/>``) was read are whole.  lxml's ``recover`` mode is not used: it guesses at
broken markup anywhere in a file.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from lxml import etree

from kansa.parsers.errors import LogFormatError

__all__ = ["Cut", "read_cut"]

_Element = etree._Element
_SHOWN: Final = 60
"""Characters of the lost text quoted in the message."""


@dataclass(frozen=True, slots=True)
class Cut:
    """Where a cut-off document stops, and what of it could not be read."""

    offset: int
    """The file's length: the byte it stops at."""
    line: int
    column: int
    lost: str
    """The unfinished text after the last complete tag, quoted and shortened."""


def read_cut(data: bytes, source: str, error: LogFormatError,
             make_parser: Callable[..., Any]
             ) -> tuple[_Element, list[_Element], Cut] | None:
    """The root, its complete children and the :class:`Cut`, when ``error`` (lxml's, for
    ``data``) is the end of a cut-off document; ``None`` for any other error."""
    if not _at_end(data, error):
        return None
    parser = make_parser(events=("start", "end"))
    root: _Element | None = None
    children: list[_Element] = []
    try:
        parser.feed(data)
        for event, el in parser.read_events():
            if root is None:
                root = el
            elif event == "end" and el.getparent() is root:
                children.append(el)
        parser.close()
    except etree.XMLSyntaxError as exc:
        if not _at_end(data, exc.position):
            return None
    else:
        return None  # whole after all
    if root is None or root.tag != "mjloggm":
        return None
    line = data.count(b"\n") + 1
    column = len(data) - (data.rfind(b"\n") + 1) + 1
    tail = data[data.rfind(b">") + 1:].decode("utf-8", "replace").strip()
    shown = tail if len(tail) <= _SHOWN else tail[:_SHOWN - 3] + "..."
    lost = f"{len(tail.encode())} bytes, {shown!r}" if tail else "nothing but the end tags"
    return root, children, Cut(len(data), line, column, lost)


def _at_end(data: bytes, where: LogFormatError | tuple[int, int]) -> bool:
    """Whether an error's line and column are the end of ``data``: its last non-blank
    byte or past it (libxml2 reports some errors at the last byte it read)."""
    if isinstance(where, LogFormatError):
        line, column = where.src.line, where.src.column
    else:
        line, column = where
    if not line or not column:
        return False
    start = 0
    for _ in range(line - 1):
        start = data.find(b"\n", start) + 1
        if start == 0:
            return False
    return start + column >= len(data.rstrip())
