"""Reading log bytes from disk or a stream: decompressed transparently, with size limits."""

from __future__ import annotations

import re
import stat
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Final

from kansa.parsers.compression import GZIP_MAGIC, decompress
from kansa.parsers.errors import LimitExceededError, LogFormatError
from kansa.replay.events import SourceRef

__all__ = ["DEFAULT_LIMITS", "GZIP_MAGIC", "Limits", "check_items", "maybe_gunzip",
           "read_file_bytes", "read_log_bytes", "read_stream_bytes"]

_CHUNK = 1 << 16
"""Bytes read from a stream at a time."""


@dataclass(frozen=True, slots=True)
class Limits:
    """Input limits; every one has a command-line flag."""

    max_file_bytes: int = 64 * 1024 * 1024
    """Largest file read from disk or standard input (the compressed size)."""
    max_decompressed_bytes: int = 256 * 1024 * 1024
    """Largest decompressed gzip, bzip2, xz or zstd stream: a bomb stops here."""
    max_json_depth: int = 64
    """Deepest JSON nesting accepted."""
    max_items: int = 1_000_000
    """Most XML tags and JSON list items or values in one log (counted as ``<``, ``,``,
    ``[`` and ``{``), which bounds the memory a log's tree takes: real logs hold at
    most about 13,000 (a long mjai log), an mjlog about 5,000."""
    max_seconds: float = 60.0
    """Longest time spent reading and replaying one log (an archive member counts alone);
    real logs take milliseconds.  Enforced in any thread (``kansa.deadline``)."""


DEFAULT_LIMITS = Limits()


_ITEM = re.compile(rb"[<,\[{]")
_ITEM_BYTES: Final = b"<,[{"


def item_count(data: bytes) -> int:
    """The items of ``data`` as :attr:`Limits.max_items` counts them (``<``, ``,``, ``[``
    and ``{``), in one pass: the bytes ``translate`` deletes."""
    return len(data) - len(data.translate(None, _ITEM_BYTES))


def check_items(data: bytes, limit: int, source: str) -> None:
    """Refuse a log with more than ``limit`` items before any parser builds a tree of it.

    :raises LogFormatError: at the first item past the limit.
    """
    if len(data) <= limit:  # an item takes a byte at least: no need to count
        return
    count = item_count(data)
    if count <= limit:
        return
    offset = next(m.start() for k, m in enumerate(_ITEM.finditer(data)) if k == limit)
    line = data.count(b"\n", 0, offset) + 1
    column = offset - (data.rfind(b"\n", 0, offset) + 1) + 1
    raise LimitExceededError(
        f"the log holds {count} tags, list items or values, over the limit of {limit} "
        "(--max-items)", SourceRef(source, line, column))


def read_log_bytes(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The file's content, decompressed when it starts with a compression's magic.

    :raises LogFormatError: for an unreadable, oversized or corrupt file.
    """
    return maybe_gunzip(read_file_bytes(path, limits), SourceRef(str(path)), limits)


def read_file_bytes(path: str | Path, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """The file's raw bytes, refused past ``max_file_bytes``.

    :raises LogFormatError: for a file that cannot be read or is too large.
    """
    src = SourceRef(str(path))
    try:
        info = Path(path).stat()
        if not stat.S_ISREG(info.st_mode):
            raise LogFormatError("not a regular file (a folder, device, pipe or socket)", src)
        size = info.st_size
        if size > limits.max_file_bytes:
            raise LimitExceededError(
                f"file is {size} bytes, over the limit of {limits.max_file_bytes} "
                "(--max-file-bytes)", src)
        with open(path, "rb") as fh:
            data = fh.read(limits.max_file_bytes + 1)
    except OSError as exc:
        raise LogFormatError(f"cannot read file: {exc.strerror or exc}", src) from None
    if len(data) > limits.max_file_bytes:  # it grew since stat() (or is a device)
        raise LimitExceededError(
            f"file is over the limit of {limits.max_file_bytes} bytes (--max-file-bytes)", src)
    return data


def read_stream_bytes(stream: BinaryIO, source: str = "<stdin>",
                      limits: Limits = DEFAULT_LIMITS) -> bytes:
    """A stream's content (standard input), decompressed as a file's is, within the
    same limits: at most ``max_file_bytes`` are read (one byte more tells a larger
    stream), then :func:`maybe_gunzip` applies ``max_decompressed_bytes``.

    :raises LogFormatError: for a stream that cannot be read, is too large or corrupt.
    """
    src = SourceRef(source)
    data = bytearray()
    try:
        while len(data) <= limits.max_file_bytes:
            piece = stream.read(min(_CHUNK, limits.max_file_bytes + 1 - len(data)))
            if not piece:
                break
            data += piece
    except OSError as exc:
        raise LogFormatError(f"cannot read the stream: {exc.strerror or exc}", src) from None
    if len(data) > limits.max_file_bytes:
        raise LimitExceededError(
            f"the stream is over the limit of {limits.max_file_bytes} bytes "
            "(--max-file-bytes)", src)
    return maybe_gunzip(bytes(data), src, limits)


def maybe_gunzip(data: bytes, src: SourceRef, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """``data`` decompressed when it is gzip, bzip2, xz or zstd (recognised by its magic
    bytes; concatenated streams too), never past ``max_decompressed_bytes``.

    :raises LogFormatError: for a corrupt, cut-off or too expansive stream.
    """
    return decompress(data, src, limits.max_decompressed_bytes)
