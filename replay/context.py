"""What a check sees: the game state, the rule set and a way to report."""

from __future__ import annotations

from dataclasses import dataclass

from replay.events import Event
from replay.rules import RuleSet
from replay.state import GameState, PlayerState, RoundState
from replay.tiles import Seat
from replay.violations import RULES, Severity, Violation


@dataclass(slots=True)
class CheckContext:
    game: GameState
    rules: RuleSet
    index: int = -1
    """Index of the event being checked."""
    event: Event | None = None

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
            citation=spec.cite(self.rules.name),
            hand=rs.label if rs is not None else None,
            turn=turn,
            seat=seat,
            event=self.index,
            src=self.event.src if self.event is not None else None,
        )
