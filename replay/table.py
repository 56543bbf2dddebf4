"""A table you push events into, one at a time, as a game is played.

>>> table = Table("tenhou")
>>> table.state.round is None          # no hand dealt yet
True
>>> table
<Table tenhou no hand yet, 0 events, 0 findings>
"""

from __future__ import annotations

from collections.abc import Callable

from kansa.replay.engine import Replayer
from kansa.replay.events import Event
from kansa.replay.game import Game, RuleHints
from kansa.replay.result import HandRecord, ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.state import GameState
from kansa.replay.violations import Violation


class Table:
    """The game so far: :meth:`push` an event, get the findings it proves.

    ``rules`` is a :class:`RuleSet` or a preset's name.  ``game`` gives the log's
    metadata (players, rule hints, diagnostics) when the events come from a log;
    without it the table knows only the rule set.  Checks that need the end of a
    hand run when the hand's result arrives; :meth:`finish` closes the game.
    """

    def __init__(self, rules: RuleSet | str = "tenhou", *, players: int | None = None,
                 game: Game | None = None,
                 enabled: Callable[[str], bool] | None = None) -> None:
        ruleset = RuleSet.preset(rules) if isinstance(rules, str) else rules
        if game is None:
            game = Game(format="stream", source="<stream>", events=(),
                        hints=RuleHints(players=players or ruleset.players))
        self._replayer = Replayer(game, ruleset, enabled=enabled)
        self._replayer.start()

    @property
    def rules(self) -> RuleSet:
        return self._replayer.rules

    @property
    def state(self) -> GameState:
        """The current position: every seat's hand, melds and river, the wall, the scores."""
        return self._replayer.state

    @property
    def hands(self) -> list[HandRecord]:
        """The hands so far, as the result will list them (the last one may be open)."""
        return self._replayer.hands

    @property
    def violations(self) -> list[Violation]:
        """Every finding so far, in the order found."""
        return self._replayer.violations

    def __repr__(self) -> str:
        rs = self.state.round
        where = rs.label if rs is not None else "no hand yet"
        n = len(self._replayer.violations)
        return (f"<Table {self.rules.name} {where}, {self._replayer.index + 1} events, "
                f"{n} finding{'' if n == 1 else 's'}>")

    def push(self, event: Event) -> list[Violation]:
        """Apply ``event`` and return the findings it proves."""
        found = self._replayer.violations
        before = len(found)
        self._replayer.step(event)
        return found[before:]

    def finish(self) -> ReplayResult:
        """Close the game (a log that stops early is reported as cut off) and give
        the whole result, as :func:`~kansa.replay.engine.replay` does."""
        return self._replayer.finish()
