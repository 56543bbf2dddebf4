"""What a check sees: the game state, the rule set and a way to report."""

from __future__ import annotations

from dataclasses import dataclass, field

from kansa.replay.events import Event, SourceRef
from kansa.replay.game import Game
from kansa.replay.memory import Memos
from kansa.replay.rules import RuleSet
from kansa.replay.settle import WinEntry
from kansa.replay.state import GameState, PlayerState, RoundState
from kansa.replay.tiles import Seat, format_tiles
from kansa.replay.violations import RULES, Severity, Snapshot, Violation


@dataclass(slots=True)
class CheckContext:
    game: GameState
    rules: RuleSet
    own_rules: RuleSet | None = None
    """The rule set the log's own metadata points to (``RuleSet.auto``), which may
    differ from the one the game is audited under."""
    index: int = -1
    """Index of the event being checked."""
    event: Event | None = None
    log: Game | None = None
    """The game being replayed, for the positions of events that carry none."""
    memos: Memos = field(default_factory=Memos)
    """What the checks remember between events (see :mod:`kansa.replay.memory`)."""
    wins: list[WinEntry] = field(default_factory=list)
    """The wins of the hand being played (or the last one) with their replayed value,
    in log order."""

    @property
    def round(self) -> RoundState:
        """The hand being played (checks only run inside a hand)."""
        rs = self.game.round
        assert rs is not None, "checks run only between StartKyoku and the hand's end"
        return rs

    def player(self, seat: Seat) -> PlayerState:
        return self.round.players[seat]

    def violation(
        self,
        rule: str,
        message: str,
        *,
        seat: Seat | int | None = None,
        severity: Severity | None = None,
    ) -> Violation:
        """A finding at the current event, with the rule's citation for this rule set."""
        spec = RULES[rule]
        rs = self.game.round
        turn = None
        if rs is not None and seat is not None and 0 <= seat < len(rs.players):
            turn = rs.players[seat].draws
        return Violation(
            rule=rule,
            severity=severity or spec.severity,
            message=message,
            citation=spec.cite(self.rules.name, self.rules.base),
            hand=rs.label if rs is not None else None,
            turn=turn,
            seat=seat,
            event=self.index,
            src=self.src(),
            state=snapshot(self.game) if rs is not None else None,
        )

    def src(self) -> SourceRef | None:
        """Where the current event was read (see :meth:`Game.src_of`)."""
        ev = self.event
        if ev is None:
            return None
        log = self.log
        if ev.src is None and log is not None and 0 <= self.index < len(log.events) \
                and log.events[self.index] is ev:
            return log.src_of(self.index)
        return ev.src


def snapshot(st: GameState) -> Snapshot:
    """The table as it is now (see :class:`~kansa.replay.violations.Snapshot`)."""
    rs = st.round
    assert rs is not None
    return Snapshot(
        hands=tuple(format_tiles(p.concealed_tiles()) for p in rs.players),
        hidden=tuple(p.hidden for p in rs.players),
        melds=tuple(tuple(f"{m.type.value}:{format_tiles(m.tiles)}" for m in p.melds)
                    for p in rs.players),
        rivers=tuple(tuple(r.tile.mpsz + ("*" if r.riichi else "")
                           + (">" if r.called_by is not None else "") for r in p.river)
                     for p in rs.players),
        dora_markers=tuple(t.mpsz for t in rs.dora_markers),
        scores=tuple(st.scores) if st.scores is not None else None,
        live_wall=rs.live_wall,
        riichi=tuple(p.riichi for p in rs.players),
    )
