"""The JSON pointers of one kyoku of a tenhou.net/6 log (``/log/3``, ``/log/3/5``, ...).

Every kyoku needs the same few dozen: its items', each seat's takes and discards
(as the formats ``SourceTracks`` keeps), its dora indicators' and its wins'.  They
are made once per kyoku index and kept, as a log of any length starts its kyoku
at ``/log/0``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

ITEMS: Final = 17
"""The items of a kyoku array."""
_DORA: Final = 5
"""Dora indicators whose pointers are made ahead (a kyoku reveals at most five)."""
_RESULT: Final = 7
"""Result items whose pointers are made ahead (和了 and three wins' pairs)."""
_SEATS: Final = 4


@dataclass(slots=True, init=False)
class KyokuPointers:
    """The pointers of the kyoku at :attr:`base`."""

    base: Final[str]
    """``/log/i``."""
    items: Final[tuple[str, ...]]
    """``/log/i/n`` of each item ``n``."""
    tracks: Final[tuple[str, ...]]
    """The pointer formats of each seat's takes and discards: ``/log/i/5/{}``,
    ``/log/i/6/{}``, ``/log/i/8/{}``, ... (``SourceTracks.formats``)."""
    sanma_tracks: Final[tuple[str, ...]]
    """:attr:`tracks` of the first three seats."""
    dora: Final[tuple[str, ...]]
    """``/log/i/2/j`` of the first dora indicators."""
    results: Final[tuple[str, ...]]
    """``/log/i/16/j`` of the first result items."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.items = tuple([f"{base}/{n}" for n in range(ITEMS)])
        self.tracks = tuple([f"{base}/{n}/{{}}" for seat in range(_SEATS)
                             for n in (5 + 3 * seat, 6 + 3 * seat)])
        self.sanma_tracks = self.tracks[:6]
        self.dora = tuple([f"{base}/2/{j}" for j in range(_DORA)])
        self.results = tuple([f"{base}/16/{j}" for j in range(_RESULT)])

    def dora_at(self, j: int) -> str:
        """The pointer of dora indicator ``j``."""
        return self.dora[j] if j < _DORA else f"{self.base}/2/{j}"

    def result_at(self, j: int) -> str:
        """The pointer of result item ``j``."""
        return self.results[j] if j < _RESULT else f"{self.base}/16/{j}"


_KEPT: Final[list[KyokuPointers]] = []
_KEPT_MOST: Final = 256
"""Kyoku indices whose pointers are kept (a game has a few dozen kyoku)."""


def kyoku_pointers(index: int) -> KyokuPointers:
    """The pointers of the kyoku ``/log/index``."""
    if index < len(_KEPT):
        return _KEPT[index]
    while len(_KEPT) <= index < _KEPT_MOST:
        _KEPT.append(KyokuPointers(f"/log/{len(_KEPT)}"))
    return _KEPT[index] if index < len(_KEPT) else KyokuPointers(f"/log/{index}")
