"""What the mjlog reader asks of a child of the root.

Its own module, left uncompiled: mypyc compiles no overload without an implementation,
and a protocol's methods have none.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol, TypeVar, overload

_T = TypeVar("_T")


class Tag(Protocol):
    """An lxml element or a :class:`~kansa.parsers.tenhou_xml.scan.ScannedTag`."""

    tag: str
    sourceline: Any  # lxml-stubs leave it untyped; lxml gives int | None

    @overload
    def get(self, key: str, /) -> str | None: ...
    @overload
    def get(self, key: str, default: _T, /) -> str | _T: ...

    def items(self) -> Iterable[tuple[Any, Any]]: ...  # lxml: str | bytes, always str here
