"""Zip archives of logs: every member read on its own, within the size limits.

A bad member is reported as that member's error and the others are still read,
so a zip of 14 games with one broken file yields 13 games and one error.  The
archive as a whole may expand to at most ``max_decompressed_bytes``: members
past that are refused one by one (a zip bomb of many small members stops
there), and a member is never inflated past the limit whatever its header
claims.  An archive of more members than ``max_items`` is refused whole.
Members are not searched for further archives.
"""

from __future__ import annotations

import io
import lzma
import zipfile
import zlib
from collections.abc import Iterator

from kansa.parsers.errors import LimitExceededError, LogFormatError
from kansa.parsers.source import Limits, maybe_gunzip
from kansa.replay.events import SourceRef

ZIP_MAGICS = (b"PK\x03\x04", b"PK\x05\x06")
"""A local file header, or the end record of an empty archive."""

_MEMBER_ERRORS = (zipfile.BadZipFile, zlib.error, lzma.LZMAError, OSError, ValueError,
                  EOFError, NotImplementedError, RuntimeError)
"""What :mod:`zipfile` raises for a damaged, encrypted or exotic member."""


def is_zip(data: bytes) -> bool:
    return data.startswith(ZIP_MAGICS)


def iter_members(data: bytes, source: str, limits: Limits
                 ) -> Iterator[tuple[str, bytes | LogFormatError]]:
    """``(source!member, content)`` for every file member in name order; ``content`` is
    the gunzipped bytes, or the :class:`LogFormatError` that member gives.

    :raises LogFormatError: when the archive itself (its directory) cannot be read.
    """
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = sorted((i for i in archive.infolist() if not i.is_dir()),
                         key=lambda i: i.filename)
    except (*_MEMBER_ERRORS, UnicodeDecodeError) as exc:
        raise LogFormatError(f"corrupt zip archive: {exc}", SourceRef(source)) from None
    if len(members) > limits.max_items:
        raise LimitExceededError(
            f"the archive holds {len(members)} files, more than {limits.max_items} "
            "(--max-items); refusing it whole", SourceRef(source))
    cap = limits.max_decompressed_bytes
    total = 0
    with archive:
        for info in members:
            name = f"{source}!{info.filename}"
            src = SourceRef(name)
            if total + info.file_size > cap:
                yield name, LimitExceededError(
                    f"the archive expands past {cap} bytes (--max-decompressed-bytes): "
                    f"this member declares {info.file_size} bytes after {total} already "
                    "read; refusing a possible zip bomb", src)
                continue
            try:
                with archive.open(info) as fh:
                    raw = fh.read(cap - total + 1)
            except _MEMBER_ERRORS as exc:
                yield name, LogFormatError(f"corrupt zip member: {exc}", src)
                continue
            total += len(raw)
            if total > cap:
                yield name, LimitExceededError(
                    f"the archive expands past {cap} bytes (--max-decompressed-bytes); "
                    "refusing a possible zip bomb", src)
                continue
            try:
                yield name, maybe_gunzip(raw, src, limits)
            except LogFormatError as exc:
                yield name, exc
