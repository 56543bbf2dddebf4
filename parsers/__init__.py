"""Log formats in, one event vocabulary out.

``load(path)`` reads any supported log (gzip and zip containers included) and
returns its games; the format is recognised from the content, never the file
name.  Each format module offers ``sniff(head) -> bool`` and
``parse(data, source, limits) -> list[Game]``; the interchange formats also
offer ``write(game) -> str``.
"""

from __future__ import annotations

import functools
import importlib
from pathlib import Path
from types import ModuleType
from typing import Protocol, cast

from kansa.parsers.archive import is_zip, iter_members
from kansa.parsers.errors import LogFormatError, UnknownFormatError, UnsupportedLogError
from kansa.parsers.source import DEFAULT_LIMITS, Limits, check_items, read_log_bytes
from kansa.replay.collector import collector_paused
from kansa.replay.events import SourceRef
from kansa.replay.game import Game

__all__ = [
    "DEFAULT_LIMITS", "FORMATS", "Limits", "LogFormatError", "UnknownFormatError",
    "UnsupportedLogError", "iter_members", "load", "load_bytes", "parse_bytes", "sniff",
]

FORMATS: tuple[str, ...] = ("tenhou_xml", "tenhou6", "mjai", "majiang", "majsoul")
"""Format names, in the order they are tried when sniffing."""

WRITABLE: tuple[str, ...] = ("mjai", "tenhou6")

_MODULES = {
    "tenhou_xml": "kansa.parsers.tenhou_xml.read",
    "tenhou6": "kansa.parsers.tenhou6.format",
    "mjai": "kansa.parsers.mjai.read",
    "majiang": "kansa.parsers.majiang.read",
    "majsoul": "kansa.parsers.majsoul.read",
}
SNIFF_BYTES = 8192


class FormatModule(Protocol):
    def sniff(self, head: bytes) -> bool: ...

    def parse(self, data: bytes, source: str, limits: Limits = ...) -> list[Game]: ...


@functools.cache
def format_module(name: str) -> FormatModule:
    """The module that reads format ``name`` (``KeyError`` for an unknown one; an
    ``ImportError``, not cached, for one whose reader is not installed)."""
    module: ModuleType = importlib.import_module(_MODULES[name])
    return cast(FormatModule, module)


def available_formats() -> list[str]:
    """Formats whose reader is installed."""
    out = []
    for name in FORMATS:
        try:
            format_module(name)
        except ImportError:
            continue
        out.append(name)
    return out


def sniff(data: bytes) -> str | None:
    """The format of ``data`` judged from its content, or ``None``."""
    head = data[:SNIFF_BYTES].lstrip(b"\xef\xbb\xbf \t\r\n")
    for name in FORMATS:
        try:
            module = format_module(name)
        except ImportError:
            continue
        if module.sniff(head):
            return name
    return None


def parse_bytes(data: bytes, source: str, fmt: str | None = None,
                limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """Parse decompressed log content.

    :raises LogFormatError: if the content is not a readable log.
    :raises UnsupportedLogError: if it is a log kansa recognises but cannot read.
    """
    src = SourceRef(source)
    if not data or data.isspace():  # (strip() would copy the log)
        raise LogFormatError("the file is empty", src)
    check_items(data, limits.max_items, source)
    name = fmt or sniff(data)
    if name is None:
        raise UnknownFormatError(
            "not a log in any known format (Tenhou XML, tenhou.net/6 JSON, mjai, "
            "majiang, Mahjong Soul record)", src)
    try:
        module = format_module(name)
    except (KeyError, ImportError):
        raise UnsupportedLogError(f"no reader for the {name} format", src) from None
    try:
        with collector_paused():
            return module.parse(data, source, limits)
    except RecursionError:  # a safety net: each JSON reader checks --max-json-depth first
        raise LogFormatError("the log is nested too deeply to read (see --max-json-depth)",
                             src) from None


def load(path: str | Path, fmt: str | None = None,
         limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """Every game in the file at ``path`` (a zip archive yields the games of each member).

    :raises LogFormatError: if the file (or an archive member) cannot be read.
    :raises UnsupportedLogError: if it is a log kansa does not read.
    """
    return load_bytes(read_log_bytes(path, limits), str(path), fmt, limits)


def load_bytes(data: bytes, source: str, fmt: str | None = None,
               limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """The games in a file's (gunzipped) content: a zip archive or one log.

    :raises LogFormatError: at the first member or log that cannot be read.
    :raises UnsupportedLogError: if it is a log kansa does not read.
    """
    if not is_zip(data):
        return parse_bytes(data, source, fmt, limits)
    games: list[Game] = []
    for name, member in iter_members(data, source, limits):
        if isinstance(member, LogFormatError):
            raise member
        games += parse_bytes(member, name, fmt, limits)
    return games
