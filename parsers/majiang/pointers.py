"""The JSON pointers of a paipu's hands' entries, kept across games: every game's
hands have the same (``/log/3/12/dapai``)."""

from __future__ import annotations

from typing import Final

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
