"""What a replay produces: findings plus facts per hand for the reports."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from kansa.replay.events import DrawReason
from kansa.replay.game import Diagnostic
from kansa.replay.ledger import Transfer
from kansa.replay.tiles import Seat, Tile
from kansa.replay.violations import Severity, Violation
from kansa.replay.yaku import Limit

WALL_STATUSES: Final = ("verified", "mismatched", "partial", "no_seed")
"""The values of :attr:`HandRecord.wall`, in the order reports show them."""


@dataclass(slots=True)
class WinRecord:
    actor: Seat
    target: Seat
    tile: Tile | None
    turn: int
    deltas: tuple[int, ...] | None
    """As the log records them."""
    pao: Seat | None = None
    """The liable player as the log records it."""
    han: int | None = None
    """The replay's value (``None`` where the hand could not be valued)."""
    fu: int | None = None
    points: int | None = None
    limit: Limit | None = None
    liable: Seat | None = None
    """The liable player as the replay finds it."""
    claimed_points: int | None = None
    """The hand's value before honba and riichi sticks, as the log claims it."""

    @property
    def is_tsumo(self) -> bool:
        return self.actor == self.target


@dataclass(slots=True)
class RiichiRecord:
    seat: Seat
    turn: int
    event: int
    accepted: bool = False
    tile: Tile | None = None
    """The declaration discard."""
    waits: tuple[Tile, ...] | None = None
    """The kinds that complete the hand left by the declaration discard (plain tiles,
    shape waits: a kind the hand holds four times included); ``None`` when the hand is
    hidden."""
    live: int | None = None
    """Copies of the waits the declarer could still hope for, from the declarer's view
    at the declaration: four per wait kind minus the copies visible to them (their own
    hand, every river, every meld, the dora indicators)."""
    furiten: bool | None = None
    """Discard furiten at the declaration: a wait the declarer has already discarded
    (called-away tiles included)."""
    good_shape: bool | None = None
    """Good shape (ryoukei) = waits on two or more kinds not held four times (ryanmen,
    sanmenchan, nobetan; shanpon counts too under this definition); otherwise bad shape
    (kanchan, penchan, tanki)."""


@dataclass(slots=True)
class HandRecord:
    label: str
    bakaze: Tile
    kyoku: int
    honba: int
    kyotaku: int
    oya: Seat
    start_scores: tuple[int, ...]
    first_event: int
    last_event: int = -1
    end_scores: tuple[int, ...] | None = None
    wins: list[WinRecord] = field(default_factory=list)
    draw: DrawReason | None = None
    draw_deltas: tuple[int, ...] | None = None
    tenpai_claim: tuple[bool, ...] | None = None
    riichi: list[RiichiRecord] = field(default_factory=list)
    calls: list[int] = field(default_factory=list)
    """Chi, pon and open kan calls per seat."""
    turns: int = 0
    """The most wall draws by one player in this hand."""
    tenpai_turn: list[int | None] = field(default_factory=list)
    """Per seat, the turn (wall draws so far, 0 = dealt) at which the replayed hand was
    first tenpai; ``None`` if never (or if the hand is hidden)."""
    tenpai_end: list[bool | None] = field(default_factory=list)
    """Per seat, whether the replayed hand was tenpai when the hand ended (the last hand
    of 13 - 3 x melds tiles, before any final draw; winners count as tenpai), not what
    the log claims; ``None`` for a hidden hand."""
    complete: bool = False
    """The hand reached a result."""
    unchecked: int = 0
    wall: str | None = None
    """The wall against the log's shuffle seed: ``verified``, ``mismatched``, ``partial``
    (the log or the replay stops before the hand's result, or a tile was left
    uncompared), ``no_seed`` (no wall to compare with), or
    ``None`` when the wall checks did not run."""

    @property
    def result(self) -> str:
        if self.wins:
            return "tsumo" if self.wins[0].is_tsumo else "ron"
        if self.draw is not None:
            return self.draw.value
        return "unfinished"


@dataclass(slots=True, kw_only=True)
class ReplayResult:
    source: str
    index: int
    format: str
    rules: str
    players: int
    names: tuple[str, ...]
    log_id: str | None
    events: int
    hands: list[HandRecord]
    violations: list[Violation]
    complete: bool
    """The log reached the end of the game."""
    final_scores: tuple[int, ...] | None = None
    final_points: tuple[float, ...] | None = None
    unchecked: int = 0
    """Events not checked because the state was lost."""
    ledger: list[Transfer] = field(default_factory=list)
    """Every transfer of points, in event order (:mod:`kansa.replay.ledger`)."""
    wins_valued: int = 0
    """Wins whose value the replay recomputed."""
    hands_compared: int = 0
    """Hands whose logged deltas were compared with the rule set's payments."""
    notes: tuple[Diagnostic, ...] = ()
    """The reader's ``info`` diagnostics (a Tenhou ``BYE``, a reconnection, a default
    taken for a missing field), in the order read: facts about the log, not findings
    (its ``warning`` diagnostics are findings)."""

    @property
    def wins(self) -> int:
        return sum(len(h.wins) for h in self.hands)

    def wall_counts(self) -> dict[str, int]:
        """Hands by wall status (see :attr:`HandRecord.wall`)."""
        counts = dict.fromkeys(WALL_STATUSES, 0)
        for h in self.hands:
            if h.wall is not None:
                counts[h.wall] += 1
        return counts

    def count(self, severity: Severity | None = None) -> int:
        return sum(1 for v in self.violations if severity is None or v.severity is severity)

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.source,
            "index": self.index,
            "format": self.format,
            "rules": self.rules,
            "players": self.players,
            "log_id": self.log_id,
            "names": list(self.names),
            "hands": len(self.hands),
            "wins": self.wins,
            "events": self.events,
            "unchecked_events": self.unchecked,
            "wins_valued": self.wins_valued,
            "hands_compared": self.hands_compared,
            "transfers": len(self.ledger),
            "complete": self.complete,
            "wall": self.wall_counts(),
            "violations": [v.to_dict() for v in self.violations],
            "notes": [d.to_dict() for d in self.notes],
        }
