"""Log formats in, one event vocabulary out.

``load(path)`` reads any supported log (gzip and zip containers included) and
returns its games; the format is recognised from the content, never the file
name.  The formats are the records of :mod:`kansa.parsers.registry`: each names a
reader module offering ``sniff(head) -> bool`` and ``parse(data, source, limits) ->
list[Game]``, and the interchange formats a writer offering ``write(game) -> str``.

Positions: ``game.src_of(i)`` says where event ``i`` was read, for every format, as a
:class:`~kansa.replay.events.SourceRef`: Tenhou XML the line and ``tag 376 <N .../>``
(the tag's number among the root's children, and its text), mjai the line, the JSON
formats a JSON pointer (``/log/3/5``, with the line in a JSON-lines file).  Each reader
fills it, either in the event's own ``src`` or, for events it shares between places
(the draws and discards of Tenhou XML, tenhou.net/6 and mjai), in ``Game.runs``; read
it through ``src_of`` only.
"""

from __future__ import annotations

from pathlib import Path

from kansa.parsers.archive import is_zip, iter_members
from kansa.parsers.errors import LogFormatError, UnknownFormatError, UnsupportedLogError
from kansa.parsers.registry import FORMATS_BY_NAME, REGISTRY, Format, ReaderModule
from kansa.parsers.source import DEFAULT_LIMITS, Limits, check_items, read_log_bytes
from kansa.replay.events import SourceRef
from kansa.replay.game import Game

__all__ = [
    "DEFAULT_LIMITS", "FORMATS", "REGISTRY", "Format", "Limits", "LogFormatError",
    "UnknownFormatError", "UnsupportedLogError", "iter_members", "load", "load_bytes",
    "parse_bytes", "sniff",
]

FORMATS: tuple[str, ...] = tuple(f.name for f in REGISTRY)
"""Format names, in the order they are tried when sniffing (see :mod:`kansa.parsers.registry`)."""

SNIFF_BYTES = 8192


def format_module(name: str) -> ReaderModule:
    """The module that reads format ``name`` (``KeyError`` for an unknown one; an
    ``ImportError``, not cached, for one whose reader is not installed)."""
    return FORMATS_BY_NAME[name].read_module()


def available_formats() -> list[str]:
    """Formats whose reader is installed."""
    out = []
    for fmt in REGISTRY:
        try:
            fmt.read_module()
        except ImportError:
            continue
        out.append(fmt.name)
    return out


def sniff(data: bytes) -> str | None:
    """The format of ``data`` judged from its content, or ``None``."""
    head = data[:SNIFF_BYTES].lstrip(b"\xef\xbb\xbf \t\r\n")
    for fmt in REGISTRY:
        try:
            if fmt.sniff(head):
                return fmt.name
        except ImportError:
            continue
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
        known = ", ".join(f.title for f in REGISTRY)
        raise UnknownFormatError(f"not a log in any known format ({known})", src)
    try:
        module = format_module(name)
    except (KeyError, ImportError):
        raise UnsupportedLogError(f"no reader for the {name} format", src) from None
    try:
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
