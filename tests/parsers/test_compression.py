"""Compressed logs (gzip, bzip2, xz, zstd) and standard input: read by content, within
the limits, and refused clearly when cut off or corrupt."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import pytest
import zstandard

from kansa.parsers import FORMATS, load, load_bytes
from kansa.parsers.compression import compression_of, decompress
from kansa.parsers.errors import LogFormatError
from kansa.parsers.source import Limits, read_stream_bytes
from kansa.replay.events import SourceRef
from tests.parser_helpers import corpus_files

SRC = SourceRef("log")
COMPRESSORS: dict[str, Callable[[bytes], bytes]] = {
    "gzip": lambda b: gzip.compress(b, mtime=0),
    "bzip2": bz2.compress,
    "xz": lzma.compress,
    "zstd": lambda b: zstandard.ZstdCompressor(write_checksum=True).compress(b),
}
"""Each with its checksum, as the command-line tools write them."""
TEXT = b"<mjloggm ver=\"2.3\">" + b"<T8/>" * 20_000 + b"</mjloggm>"


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_each_compression_is_recognised_by_content(kind: str) -> None:
    packed = COMPRESSORS[kind](TEXT)
    assert compression_of(packed) == kind
    assert decompress(packed, SRC, len(TEXT)) == TEXT


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_concatenated_streams_are_one_log(kind: str) -> None:
    pack = COMPRESSORS[kind]
    assert decompress(pack(TEXT[:1000]) + pack(b"") + pack(TEXT[1000:]), SRC,
                      len(TEXT)) == TEXT


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_a_cut_off_stream_is_refused_with_where_it_stops(kind: str) -> None:
    packed = COMPRESSORS[kind](TEXT)
    for cut in (len(packed) // 2, len(packed) - 3):
        with pytest.raises(LogFormatError) as err:
            decompress(packed[:cut], SRC, len(TEXT))
        assert f"{kind} stream is truncated" in err.value.reason
        assert f"stops at byte {cut}" in err.value.reason


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_a_bomb_stops_at_the_cap_without_inflating(kind: str) -> None:
    """200 MB of zeros against a 1 MB cap: refused quickly, in little memory."""
    zeros = b"\0" * (1 << 20)
    if kind == "zstd":
        comp = zstandard.ZstdCompressor().compressobj()
        packed = b"".join(comp.compress(zeros) for _ in range(200)) + comp.flush()
    else:
        packed = COMPRESSORS[kind](zeros * 200)
    tracemalloc.start()
    started = time.perf_counter()
    try:
        with pytest.raises(LogFormatError, match=f"{kind} bomb"):
            decompress(packed, SRC, 1 << 20)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert time.perf_counter() - started < 5
    assert peak < 16 << 20  # xz's own 8 MB dictionary included


@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_corrupt_data_is_a_format_error(kind: str) -> None:
    packed = bytearray(COMPRESSORS[kind](TEXT))
    middle = len(packed) // 2
    packed[middle:middle + 8] = b"\xff" * 8
    with pytest.raises(LogFormatError, match=r"corrupt|truncated"):
        decompress(bytes(packed), SRC, len(TEXT))


def test_plain_text_is_left_as_it_is() -> None:
    assert decompress(TEXT, SRC, 10) is TEXT


# -- standard input --------------------------------------------------------------------

def test_a_stream_is_read_and_decompressed_like_a_file() -> None:
    packed = COMPRESSORS["xz"](TEXT)
    assert read_stream_bytes(io.BytesIO(packed)) == TEXT


def test_a_stream_over_max_file_bytes_is_refused_after_reading_one_byte_more() -> None:
    stream = io.BytesIO(TEXT)
    with pytest.raises(LogFormatError, match="--max-file-bytes") as err:
        read_stream_bytes(stream, "-", Limits(max_file_bytes=1000))
    assert stream.tell() == 1001
    assert str(err.value).startswith("-: ")


def test_a_stream_bomb_is_refused_at_max_decompressed_bytes() -> None:
    packed = COMPRESSORS["zstd"](b"\0" * (4 << 20))
    with pytest.raises(LogFormatError, match="--max-decompressed-bytes"):
        read_stream_bytes(io.BytesIO(packed), "<stdin>", Limits(max_decompressed_bytes=1 << 20))


# -- real logs ---------------------------------------------------------------------------

@pytest.mark.corpus
@pytest.mark.parametrize("kind", sorted(COMPRESSORS))
def test_corpus_logs_of_every_format_read_the_same_compressed(
        corpus_dir: Path, kind: str, tmp_path: Path) -> None:
    for fmt_dir in FORMATS:  # the corpus has a folder per format, named after it
        path = corpus_files(corpus_dir, fmt_dir)[0]
        raw = path.read_bytes()
        plain = decompress(raw, SourceRef(str(path)), 1 << 28)
        packed = tmp_path / "log.bin"  # a name that says nothing of the format
        packed.write_bytes(COMPRESSORS[kind](plain))
        want = [g.events for g in load(path)]
        assert [g.events for g in load(packed)] == want, path
        assert [g.events for g in load_bytes(read_stream_bytes(io.BytesIO(
            packed.read_bytes())), "-")] == want
