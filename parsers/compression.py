"""Compressed logs: gzip, bzip2, xz and zstd, recognised by their magic bytes.

Each stream is inflated a bounded piece at a time, so a compression bomb stops at
``max_decompressed_bytes`` instead of after inflating; concatenated members,
streams and frames are all read (``cat a.gz b.gz`` is one log).  A stream that
stops before its end marker is refused: the checksum that proves the inflated
bytes are the log's own is in its last bytes.
"""

from __future__ import annotations

import bz2
import io
import lzma
import zlib
from collections.abc import Callable

import zstandard

from kansa.parsers.errors import CutOffError, LimitExceededError, LogFormatError
from kansa.replay.events import SourceRef

GZIP_MAGIC = b"\x1f\x8b"
BZIP2_MAGIC = b"BZh"
XZ_MAGIC = b"\xfd7zXZ\x00"
ZSTD_MAGIC = b"\x28\xb5\x2f\xfd"
_CHUNK = 1 << 16
"""Compressed bytes handed to a decompressor at a time."""


def compression_of(data: bytes) -> str | None:
    """``gzip``, ``bzip2``, ``xz`` or ``zstd`` when ``data`` starts with that magic."""
    if data.startswith(GZIP_MAGIC):
        return "gzip"
    if data.startswith(BZIP2_MAGIC) and data[3:4] in b"123456789" and len(data) > 3:
        return "bzip2"
    if data.startswith(XZ_MAGIC):
        return "xz"
    if data.startswith(ZSTD_MAGIC):
        return "zstd"
    return None


def decompress(data: bytes, src: SourceRef, cap: int) -> bytes:
    """``data`` inflated when it is compressed (see :func:`compression_of`), else itself.

    :raises LogFormatError: for a corrupt or cut-off stream, or one that expands past
        ``cap`` bytes (``--max-decompressed-bytes``).
    """
    kind = compression_of(data)
    if kind is None:
        return data
    return _READERS[kind](data, src, cap)


def _bomb(kind: str, cap: int, src: SourceRef) -> LimitExceededError:
    return LimitExceededError(
        f"{kind} stream expands past {cap} bytes (--max-decompressed-bytes); "
        f"refusing a possible {kind} bomb", src)


def _cut(kind: str, pos: int, out: int, src: SourceRef) -> CutOffError:
    return CutOffError(
        f"{kind} stream is truncated: the file stops at byte {pos} before the stream's "
        f"end, after {out} decompressed bytes (a cut-off compressed file is not read: "
        "its checksum is lost)", src)


def _gunzip(data: bytes, src: SourceRef, cap: int) -> bytes:
    """Gzip members one after another.  The input is fed in chunks: zlib copies whatever
    follows a member into ``unused_data``, so handing it the whole rest each time made
    a file of a million empty members take quadratic time."""
    out = bytearray()
    view = memoryview(data)
    pos = 0
    try:
        while data.startswith(GZIP_MAGIC, pos):
            dec = zlib.decompressobj(16 + zlib.MAX_WBITS)
            while not dec.eof:
                chunk = view[pos:pos + _CHUNK]
                if not chunk:
                    raise _cut("gzip", len(data), len(out), src)
                out += dec.decompress(chunk, cap - len(out) + 1)
                if len(out) > cap or dec.unconsumed_tail:
                    raise _bomb("gzip", cap, src)
                pos += len(chunk) - len(dec.unused_data)
    except zlib.error as exc:
        raise LogFormatError(f"corrupt gzip data: {exc}", src) from None
    return bytes(out)


def _stdlib_streams(kind: str, magic: bytes,
                    new: Callable[[], bz2.BZ2Decompressor | lzma.LZMADecompressor]
                    ) -> Callable[[bytes, SourceRef, int], bytes]:
    """A reader of concatenated bzip2 or xz streams (each a fresh decompressor)."""

    def read(data: bytes, src: SourceRef, cap: int) -> bytes:
        out = bytearray()
        view = memoryview(data)
        pos = 0
        try:
            while data.startswith(magic, pos):
                dec = new()
                while not dec.eof:
                    # fed one chunk at a time; needs_input is False while output is held back
                    chunk = view[pos:pos + _CHUNK] if dec.needs_input else b""
                    if dec.needs_input and not chunk:
                        raise _cut(kind, len(data), len(out), src)
                    out += dec.decompress(chunk, cap - len(out) + 1)
                    if len(out) > cap:
                        raise _bomb(kind, cap, src)
                    pos += len(chunk) - (len(dec.unused_data) if dec.eof else 0)
                while kind == "xz" and data.startswith(b"\0\0\0\0", pos):
                    pos += 4  # xz allows stream padding between streams
        except LogFormatError:
            raise
        except (OSError, lzma.LZMAError, ValueError, EOFError) as exc:
            raise LogFormatError(f"corrupt {kind} data: {exc}", src) from None
        if pos < len(data):
            raise LogFormatError(f"corrupt {kind} data: {len(data) - pos} bytes of trailing "
                                 f"garbage after byte {pos}", src)
        return bytes(out)
    return read


def _unzstd(data: bytes, src: SourceRef, cap: int) -> bytes:
    """Zstandard frames, read across frames a bounded piece at a time; a second pass
    checks every frame is whole (the reader ends a cut frame without an error)."""
    out = bytearray()
    reader = zstandard.ZstdDecompressor().stream_reader(
        io.BytesIO(data), read_size=_CHUNK, read_across_frames=True)
    view = memoryview(data)
    pos = 0
    try:
        while piece := reader.read(min(_CHUNK, cap - len(out) + 1)):
            out += piece
            if len(out) > cap:
                raise _bomb("zstd", cap, src)
        while pos < len(data):  # the output is known to fit the cap now
            dec = zstandard.ZstdDecompressor().decompressobj()
            while not dec.eof:
                chunk = view[pos:pos + _CHUNK]
                if not chunk:
                    raise _cut("zstd", len(data), len(out), src)
                dec.decompress(chunk)
                pos += len(chunk) - (len(dec.unused_data) if dec.eof else 0)
    except zstandard.ZstdError as exc:
        raise LogFormatError(f"corrupt zstd data: {exc}", src) from None
    return bytes(out)


_READERS: dict[str, Callable[[bytes, SourceRef, int], bytes]] = {
    "gzip": _gunzip,
    "bzip2": _stdlib_streams("bzip2", BZIP2_MAGIC, bz2.BZ2Decompressor),
    "xz": _stdlib_streams("xz", XZ_MAGIC, lzma.LZMADecompressor),
    "zstd": _unzstd,
}
