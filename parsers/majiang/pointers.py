"""Where a majiang paipu's events were read: the JSON pointers of its hands' entries,
kept across games (every game's hands have the same, ``/log/3/12/dapai``), and for its
shared draws and discards, which carry none, a game's :class:`Log` of the entries they
were read from and :func:`track_order`."""

from __future__ import annotations

from typing import Final

from kansa.replay.events import Event, SourceRef
from kansa.replay.game import TAKE_NEXT

TRACK_KINDS: Final = ("zimo", "dapai")
"""The entry kind of each track of a hand's ``SourceTracks``."""
_ENTRIES: Final[dict[str, list[dict[str, str]]]] = {}
_FORMATS: Final[dict[str, tuple[str, ...]]] = {}
HANDS_KEPT: Final = 64
"""Hands (by pointer, ``/log/3``) whose pointers are kept."""
ENTRIES_KEPT: Final = 512
"""Entries of a hand whose pointers are kept."""
KEPT_KINDS: Final = frozenset({"qipai", "zimo", "dapai", "fulou", "gang", "gangzimo",
                               "kaigang", "penuki", "hule", "pingju"})
"""The entry kinds whose pointers are kept (any other is an error or a diagnostic)."""


def pointer_ref(src: SourceRef, key: int | str) -> SourceRef:
    """The position of ``key`` inside the value at ``src``'s pointer."""
    return SourceRef(src.file, pointer=f"{src.pointer or ''}/{key}")


def entry_pointers(base: str) -> list[dict[str, str]]:
    """Per entry index and kind, the kept pointers of the entries of the hand at
    ``base`` (a list to fill); a new list, not kept, past :data:`HANDS_KEPT` hands."""
    rows = _ENTRIES.get(base)
    if rows is None:
        rows = []
        if len(_ENTRIES) < HANDS_KEPT:
            _ENTRIES[base] = rows
    return rows


def track_formats(base: str) -> tuple[str, ...]:
    """The pointer formats of the draws and discards of the hand at ``base``
    (``/log/3/{}/zimo``, ``/log/3/{}/dapai``: ``SourceTracks.formats``)."""
    formats = _FORMATS.get(base)
    if formats is None:
        formats = tuple([f"{base}/{{}}/{kind}" for kind in TRACK_KINDS])
        if len(_FORMATS) < HANDS_KEPT:
            _FORMATS[base] = formats
    return formats


_ALTERNATING: Final = tuple(bytes([TAKE_NEXT + (t + k) % 2 for k in range(256)]) for t in (0, 1))
"""The codes of takes from tracks 0 and 1 in turn, from track 0 and from track 1."""


def track_order(elements: tuple[tuple[int, ...], tuple[int, ...]], runs: list[int]) -> bytes:
    """``SourceTracks.orders`` of a hand's takes of the entries ``elements`` of tracks 0
    and 1 (each the next element of its track), whose tracks alternate but where a
    take in ``runs`` (by its index) is from the track of the take before."""
    draws, discards = elements
    count = len(draws) + len(discards)
    track = 0 if draws and (not discards or draws[0] < discards[0]) else 1
    pieces: list[bytes] = []
    start = 0
    for r in range(len(runs) + 1):
        end = runs[r] if r < len(runs) else count
        pattern = _ALTERNATING[track]
        if end - start > len(pattern):
            pattern = pattern * ((end - start) // len(pattern) + 1)
        pieces.append(pattern[:end - start])
        track ^= (end - start - 1) & 1  # the last take's track, the next run's
        start = end
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)


class Log:
    """A game's events, and the entries its shared draws and discards were read from
    (:class:`~kansa.replay.game.SourceTracks`), in lists of the whole game, where each
    hand's follow the previous hand's."""

    __slots__ = ("discards", "draws", "events")

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.draws: list[int] = []
        self.discards: list[int] = []
