"""Log formats in, one event vocabulary out.

``load(path)`` reads any supported log (gzip and zip containers included) and
returns its games; the format is recognised from the content, never the file
name.  Each format module offers ``sniff(head) -> bool`` and
``parse(data, source, limits) -> list[Game]``; the interchange formats also
offer ``write(game) -> str``.
"""

from __future__ import annotations

import importlib
import io
import zipfile
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Protocol, cast

from parsers.errors import LogFormatError, UnknownFormatError, UnsupportedLogError
from parsers.source import DEFAULT_LIMITS, Limits, maybe_gunzip, read_log_bytes
from replay.events import SourceRef
from replay.game import Game

__all__ = [
    "DEFAULT_LIMITS", "FORMATS", "Limits", "LogFormatError", "UnknownFormatError",
    "UnsupportedLogError",
    "load", "parse_bytes", "sniff",
]

FORMATS: tuple[str, ...] = ("tenhou_xml", "tenhou6", "mjai", "majiang", "majsoul")
"""Format names, in the order they are tried when sniffing."""

WRITABLE: tuple[str, ...] = ("mjai", "tenhou6")

_MODULES = {
    "tenhou_xml": "parsers.tenhou_xml",
    "tenhou6": "parsers.tenhou6",
    "mjai": "parsers.mjai",
    "majiang": "parsers.majiang",
    "majsoul": "parsers.majsoul",
}
SNIFF_BYTES = 8192


class FormatModule(Protocol):
    def sniff(self, head: bytes) -> bool: ...

    def parse(self, data: bytes, source: str, limits: Limits = ...) -> list[Game]: ...


def format_module(name: str) -> FormatModule:
    """The module that reads format ``name`` (``KeyError`` for an unknown one)."""
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
    for name in available_formats():
        if format_module(name).sniff(head):
            return name
    return None


def parse_bytes(data: bytes, source: str, fmt: str | None = None,
                limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """Parse decompressed log content.

    :raises LogFormatError: if the content is not a readable log.
    :raises UnsupportedLogError: if it is a log kansa recognises but cannot read.
    """
    src = SourceRef(source)
    if not data.strip():
        raise LogFormatError("the file is empty", src)
    name = fmt or sniff(data)
    if name is None:
        raise UnknownFormatError(
            "not a log in any known format (Tenhou XML, tenhou.net/6 JSON, mjai, "
            "majiang, Mahjong Soul record)", src)
    try:
        module = format_module(name)
    except (KeyError, ImportError):
        raise UnsupportedLogError(f"no reader for the {name} format", src) from None
    return module.parse(data, source, limits)


def load(path: str | Path, fmt: str | None = None,
         limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """Every game in the file at ``path`` (a zip archive yields the games of each member).

    :raises LogFormatError: if the file (or an archive member) cannot be read.
    :raises UnsupportedLogError: if it is a log kansa does not read.
    """
    data = read_log_bytes(path, limits)
    if data.startswith(b"PK\x03\x04"):
        return [g for _, games in iter_zip(data, str(path), fmt, limits) for g in games]
    return parse_bytes(data, str(path), fmt, limits)


def iter_zip(data: bytes, source: str, fmt: str | None,
             limits: Limits) -> Iterator[tuple[str, list[Game]]]:
    """Parse every file member of a zip archive, in name order."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [i for i in archive.infolist() if not i.is_dir()]
    except (zipfile.BadZipFile, ValueError) as exc:
        raise LogFormatError(f"corrupt zip archive: {exc}", SourceRef(source)) from None
    with archive:
        for info in sorted(members, key=lambda i: i.filename):
            name = f"{source}!{info.filename}"
            if info.file_size > limits.max_decompressed_bytes:
                raise LogFormatError(
                    f"archive member expands to {info.file_size} bytes, over the limit "
                    f"of {limits.max_decompressed_bytes} (--max-decompressed-bytes)",
                    SourceRef(name))
            try:
                with archive.open(info) as fh:
                    raw = fh.read(limits.max_decompressed_bytes + 1)
            except (zipfile.BadZipFile, OSError, ValueError, EOFError) as exc:
                raise LogFormatError(f"corrupt zip member: {exc}", SourceRef(name)) from None
            if len(raw) > limits.max_decompressed_bytes:
                raise LogFormatError("archive member is over the decompressed size limit",
                                     SourceRef(name))
            yield name, parse_bytes(maybe_gunzip(raw, SourceRef(name), limits), name, fmt,
                                    limits)
