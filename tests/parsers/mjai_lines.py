"""Lines of mjai logs for the tests of the quick line readers: the corpus's lines, the
per-line code's reading of one line, and lines mutated at random."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

from hypothesis import strategies as st

from kansa.parsers.errors import LogFormatError
from kansa.parsers.mjai.read import Reader
from kansa.parsers.source import DEFAULT_LIMITS


def corpus_lines(corpus_dir: Path) -> Iterator[str]:
    """Every line of the corpus's mjai logs, without its line ending."""
    for path in sorted((corpus_dir / "mjai").rglob("*")):
        if path.is_file() and path.suffix in (".mjson", ".json", ".jsonl"):
            for raw in path.read_text(encoding="utf-8").split("\n"):
                yield raw.rstrip("\r")


def read_by_line(reader: Reader, raw: str, number: int, state: Callable[[Reader], Any]) -> Any:
    """``state(reader)`` after the per-line code reads ``raw`` as line ``number`` (or its
    error)."""
    try:
        reader.read_line(raw, number, DEFAULT_LIMITS)
    except LogFormatError as exc:
        return ("error", str(exc))
    return state(reader)


MARKS = '"0123456789 ,:[]{}?rmpsESWNPFC.-e\\'
"""The characters the mutated lines take in."""
EDITS = st.lists(st.tuples(st.integers(0, 400), st.integers(0, 2), st.sampled_from(list(MARKS))),
                 min_size=1, max_size=3)
"""Up to three edits of a line: where (taken modulo its length), how (replace, delete,
insert) and what."""


def edited(raw: str, edits: list[tuple[int, int, str]]) -> str:
    """``raw`` with each of ``edits`` made in turn (empty once nothing is left)."""
    for place, how, mark in edits:
        if not raw:
            break
        at = place % len(raw)
        if how == 0:
            raw = raw[:at] + mark + raw[at + 1:]
        elif how == 1:
            raw = raw[:at] + raw[at + 1:]
        else:
            raw = raw[:at] + mark + raw[at:]
    return raw
