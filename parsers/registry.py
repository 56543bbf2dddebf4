"""The one list of log formats: a frozen :class:`Format` per format, in sniffing order.

Everything that names formats reads :data:`REGISTRY`: the loader
(:func:`kansa.parsers.sniff`, :func:`kansa.parsers.parse_bytes`), ``kansa audit
--format``, ``kansa convert --to``, the README's table of formats
(:mod:`kansa.docs`) and the fuzz tests.  Adding a format is one record here and its
reader module (``sniff(head) -> bool`` and ``parse(data, source, limits) ->
list[Game]``; a writable format's writer module has ``write(game) -> str``).

Reader and writer modules are imported on first use, so a format whose reader needs
a missing dependency costs nothing until a file is read as it.

>>> " ".join(f.name for f in REGISTRY)
'tenhou_xml tenhou6 mjai majiang majsoul'
>>> [f.name for f in WRITABLE], FORMATS_BY_NAME["mjai"].suffix
(['tenhou6', 'mjai'], '.mjson')
"""

from __future__ import annotations

import functools
import importlib
from dataclasses import dataclass
from typing import Protocol, cast

from kansa.parsers.source import Limits
from kansa.replay.game import Game

__all__ = ["FORMATS_BY_NAME", "REGISTRY", "WRITABLE", "Format", "ReaderModule", "WriterModule",
           "format_named"]


class ReaderModule(Protocol):
    """What a format's reader module offers."""

    def sniff(self, head: bytes) -> bool: ...

    def parse(self, data: bytes, source: str, limits: Limits = ...) -> list[Game]: ...


class WriterModule(Protocol):
    """What a writable format's writer module offers."""

    def write(self, game: Game) -> str: ...


@functools.cache
def _imported(module: str) -> object:
    """The module named ``module`` (an ``ImportError``, not cached, when it cannot load)."""
    return importlib.import_module(module)


@dataclass(frozen=True, slots=True)
class Format:
    """One log format kansa reads (and perhaps writes)."""

    name: str
    """The name on the command line and in ``Game.format``."""
    title: str
    """What a person calls it (``Tenhou mjlog XML``)."""
    description: str
    """What kansa reads of it, for the README's table of formats."""
    syntax: str
    """``xml`` or ``json`` (every JSON format is read through :mod:`kansa.parsers._json`)."""
    reader: str
    """The module with ``sniff`` and ``parse``."""
    writer: str | None = None
    """The module with ``write(game) -> str``, or ``None`` when kansa does not write it."""
    suffix: str | None = None
    """The file suffix of a written file (``None`` when not writable)."""

    def read_module(self) -> ReaderModule:
        """The reader module (``ImportError`` when a dependency of it is missing)."""
        return cast(ReaderModule, _imported(self.reader))

    def sniff(self, head: bytes) -> bool:
        """Whether the first bytes of a file (BOM and leading whitespace removed) are
        in this format."""
        return self.read_module().sniff(head)

    def parse(self, data: bytes, source: str, limits: Limits) -> list[Game]:
        """The games in ``data`` read as this format."""
        return self.read_module().parse(data, source, limits)

    def write(self, game: Game) -> str:
        """``game`` written in this format.

        :raises ValueError: when the format is not writable, or cannot hold the game.
        """
        if self.writer is None:
            raise ValueError(f"kansa does not write the {self.name} format")
        return cast(WriterModule, _imported(self.writer)).write(game)


REGISTRY: tuple[Format, ...] = (
    Format("tenhou_xml", "Tenhou mjlog XML",
           "every tag of FORMATS.md §A; red fives only when the `GO` type has them; `BYE` "
           "and reconnect `UN` become diagnostics",
           "xml", "kansa.parsers.tenhou_xml.read"),
    Format("tenhou6", "tenhou.net/6 JSON",
           "single objects and mjx's one-kyoku-per-line files; the turn order is rebuilt by "
           "a bounded backtracking search when several players could have called the same "
           "discard; Mahjong Soul converter spellings of the results",
           "json", "kansa.parsers.tenhou6.format", "kansa.parsers.tenhou6.format", ".json"),
    Format("mjai", "mjai JSON lines",
           "Mortal's fields and gimite's older claims (`yakus`, `fu`, `fan`, "
           "`uradora_markers`, `reason`, `tenpais`); one-seat logs (`?` tiles) are audited "
           "for what can be seen",
           "json", "kansa.parsers.mjai.read", "kansa.parsers.mjai.write", ".mjson"),
    Format("majiang", "kobalab majiang JSON", "loose files and zip archives of games",
           "json", "kansa.parsers.majiang.read"),
    Format("majsoul", "Mahjong Soul record",
           "logs converted to tenhou.net/6 (tensoul and similar) read as tenhou.net/6; the "
           "decoded record form (`NewRound`, `DealTile`, `DiscardTile`, `ChiPengGang`, "
           "`AnGangAddGang`, `Hule`, `NoTile`, `LiuJu`) is read directly. Not read from it: "
           "the hand value (`dadian`), liability, and the deltas of a multiple win (left "
           "unknown, with a diagnostic). The raw protobuf `.bin` from the client is not "
           "read: decode it first",
           "json", "kansa.parsers.majsoul.read"),
)
"""Every format, in the order they are tried when sniffing (the first that accepts a
file's head reads it)."""

FORMATS_BY_NAME: dict[str, Format] = {f.name: f for f in REGISTRY}
WRITABLE: tuple[Format, ...] = tuple(f for f in REGISTRY if f.writer is not None)
"""The formats kansa writes (``kansa convert --to``)."""


def format_named(name: str) -> Format:
    """The format called ``name``.

    :raises KeyError: for a name no format has.
    """
    return FORMATS_BY_NAME[name]
