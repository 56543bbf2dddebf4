"""A parsed game: metadata plus the event stream."""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, Final

from kansa.replay.events import Event, SourceRef, StartKyoku
from kansa.replay.frozen import frozen_state, set_frozen_state
from kansa.replay.tiles import Tile


@dataclass(frozen=True, slots=True, kw_only=True)
class Player:
    name: str
    rank: str | None = None
    """Rank label as the platform shows it (e.g. ``七段``)."""
    rating: float | None = None
    sex: str | None = None

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleHints:
    """What the log itself says about its rules; ``None`` where it says nothing."""

    players: int = 4
    aka: bool | None = None
    """Red fives in play."""
    kuitan: bool | None = None
    """Open tanyao allowed."""
    hanchan: bool | None = None
    """East-South game (``False`` = East only)."""
    platform: str | None = None
    """``tenhou``, ``majsoul``, ... where the log shows it."""
    lobby: str | None = None
    room: str | None = None
    """The platform's room label, e.g. Tenhou ``鳳南喰赤``."""
    raw_type: int | None = None
    """Tenhou ``GO type`` bits."""
    start_score: int | None = None
    uma: tuple[int, ...] | None = None
    return_score: int | None = None
    """The points taken off each final score (a Tenhou custom lobby's ``csrule``)."""

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A recoverable oddity noticed while parsing (the log was still read)."""

    message: str
    src: SourceRef | None = None
    level: str = "info"
    """``info``, or ``warning`` when the audit should report it (an assumption made)."""
    rule: str = "log.assumption"
    """The finding a ``warning`` is reported as (``log.truncated`` for a cut-off file)."""

    def to_dict(self) -> dict[str, str | None]:
        """The note as the per-game JSON lists it (``source`` as a finding's)."""
        return {"level": self.level, "message": self.message,
                "source": str(self.src) if self.src is not None else None}

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)


@dataclass(frozen=True, slots=True)
class SourceRuns:
    """Where the events that carry no ``src`` of their own were read.

    A parser may share one event object between all the places it occurs (every draw
    of the red five by seat 0 is the same ``Tsumo``), which then cannot hold its own
    position.  It records runs here instead: run ``j`` starts at event ``starts[j]``,
    read from element ``elements[j]`` on line ``lines[j]``, and each following event of
    the run comes from the next element (on the same line).  Without a ``pointer``
    (mjai, one event a line) each following event of a run is on the next line.
    """

    events: tuple[Event, ...] = field(compare=False, repr=False)
    """The events described: a game given other events (``dataclasses.replace``) has no
    positions for its shared events rather than wrong ones."""
    file: str
    pointer: str | None
    """The pointer's format, with ``{}`` for the element's number (``tag {}``); ``None``
    for runs of lines (``elements`` then unused)."""
    starts: tuple[int, ...]
    elements: tuple[int, ...]
    lines: tuple[int | None, ...]

    def at(self, index: int) -> SourceRef | None:
        """The position of event ``index`` (``None`` before the first run)."""
        run = bisect_right(self.starts, index) - 1
        if run < 0:
            return None
        if self.pointer is None:
            line = self.lines[run]
            return SourceRef(self.file, None if line is None else line + index - self.starts[run])
        element = self.elements[run] + index - self.starts[run]
        return SourceRef(self.file, self.lines[run], None, self.pointer.format(element))

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)


TAKE_NEXT: Final = 0
"""A :class:`SourceTracks` code ``TAKE_NEXT + t``: the next element of track ``t``."""
PEEK_NEXT: Final = 64
"""Code ``PEEK_NEXT + t``: the element track ``t`` gives next, not taken."""
SAME_PLACE: Final = 128
"""Code ``SAME_PLACE``: the place of the event before."""


@dataclass(frozen=True, slots=True)
class SourceTracks:
    """Where the events that carry no ``src`` of their own were read, when play takes
    them from several arrays in turn (tenhou.net/6 keeps each seat's takes and discards
    in arrays of their own): positions found again on request, not stored per event.

    Hand ``h`` starts at event ``firsts[h]`` and was read on line ``lines[h]``.  Its
    track ``t`` is the array whose pointer ``formats[h][t]`` formats (``/log/3/5/{}``),
    read in the order of its elements ``elements[h][t]`` (``None``: 0, 1, 2, ...).  The
    hand's events without a ``src``, in order, follow the codes of ``orders[h]``
    (:data:`TAKE_NEXT`, :data:`PEEK_NEXT`, :data:`SAME_PLACE`).
    """

    events: tuple[Event, ...] = field(compare=False, repr=False)
    """The events described (see :attr:`SourceRuns.events`)."""
    file: str
    firsts: tuple[int, ...]
    lines: tuple[int | None, ...]
    formats: tuple[tuple[str, ...], ...]
    elements: tuple[tuple[tuple[int, ...] | None, ...], ...]
    orders: tuple[bytes, ...]

    def places(self, hand: int) -> list[tuple[int, int]]:
        """Hand ``hand``'s events without a ``src``, in order: each one's track and
        element."""
        taken = [0] * len(self.formats[hand])
        elements = self.elements[hand]
        out: list[tuple[int, int]] = []
        for code in self.orders[hand]:
            if code == SAME_PLACE:
                out.append(out[-1] if out else (-1, -1))
                continue
            track = code - PEEK_NEXT if code >= PEEK_NEXT else code - TAKE_NEXT
            n = taken[track]
            order = elements[track]
            out.append((track, n if order is None else order[n]))
            if code < PEEK_NEXT:
                taken[track] = n + 1
        return out

    def at(self, index: int) -> SourceRef | None:
        """The position of event ``index`` (``None`` where no track has it)."""
        hand = bisect_right(self.firsts, index) - 1
        if hand < 0 or not 0 <= index < len(self.events) \
                or self.events[index].src is not None:
            return None
        rank = sum(1 for ev in self.events[self.firsts[hand]:index] if ev.src is None)
        places = self.places(hand)
        if rank >= len(places) or places[rank][0] < 0:
            return None
        track, element = places[rank]
        return SourceRef(self.file, self.lines[hand], None,
                         self.formats[hand][track].format(element))

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)


@dataclass(frozen=True, slots=True, kw_only=True)
class Game:
    format: str
    """``tenhou_xml``, ``tenhou6``, ``mjai``, ``majiang``, ``majsoul``."""
    source: str
    """The file the game was read from."""
    events: tuple[Event, ...]
    players: tuple[Player, ...] = ()
    hints: RuleHints = field(default_factory=RuleHints)
    log_id: str | None = None
    title: str | None = None
    index: int = 0
    """Position of the game within its file (0 for single-game files)."""
    perspective: int | None = None
    """Seat whose view the log records, when other hands are hidden (``?`` tiles)."""
    diagnostics: tuple[Diagnostic, ...] = ()
    assumed_scores: frozenset[int] = frozenset()
    """Indices of the ``StartKyoku`` events whose scores the log did not give (the parser
    filled them in; replay uses the rule set's start, then its own running scores)."""
    runs: SourceRuns | SourceTracks | None = field(default=None, compare=False)
    """The positions of the events whose ``src`` is ``None`` (see :meth:`src_of`); like
    the events' own, they take no part in equality."""
    wall_seed: str | None = field(default=None, compare=False)
    """The seed of the platform's shuffle as the log writes it (Tenhou's ``<SHUFFLE
    seed>``), from which :mod:`kansa.replay.wall` rebuilds every hand's wall."""
    dice: tuple[tuple[int, int] | None, ...] = field(default=(), compare=False)
    """Per hand (each ``StartKyoku`` in order), the two dice 0-5 the log shows, or
    ``None`` where it shows none."""
    walls: tuple[tuple[Tile, ...] | None, ...] = field(default=(), compare=False)
    """Per hand, the whole wall in draw order where the log lists it (Mahjong Soul's
    ``paishan``), ``None`` where it does not."""

    def __repr__(self) -> str:
        """``<Game FORMAT ID 4p N hands>``: the log id, else the file's name (with
        ``#index`` for a later game of the file), not the events."""
        name = self.log_id or self.source.replace("\\", "/").rsplit("/", 1)[-1]
        if self.log_id is None and self.index:
            name += f"#{self.index}"
        hands = sum(1 for ev in self.events if type(ev) is StartKyoku)
        return (f"<Game {self.format} {name} {self.hints.players}p {hands} "
                f"hand{'' if hands == 1 else 's'}>")

    def src_of(self, index: int) -> SourceRef | None:
        """Where event ``index`` was read: its own ``src``, or its place in :attr:`runs`.
        Read positions through this, not ``event.src``: shared events carry none."""
        src = self.events[index].src
        runs = self.runs
        if src is None and runs is not None and runs.events is self.events:
            return runs.at(index)
        return src

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)
