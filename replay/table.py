"""A table you push events into, one at a time, as a game is played.

>>> table = Table("tenhou")
>>> table.state.round is None          # no hand dealt yet
True
>>> table.legal()                      # nobody may do anything before the deal
[]
>>> table
<Table tenhou no hand yet, 0 events, 0 findings>
"""

from __future__ import annotations

from collections.abc import Callable

from kansa.replay.engine import Replayer
from kansa.replay.game import Game, RuleHints
from kansa.replay.legal import Action, legal_actions
from kansa.replay.result import HandRecord
from kansa.replay.rules import RuleSet


class Table(Replayer):
    """The game so far: :meth:`push` an event, get the findings it proves.

    ``rules`` is a :class:`RuleSet` or a preset's name.  ``game`` gives the log's
    metadata (players, rule hints, diagnostics) when the events come from a log;
    without it the table knows only the rule set and ``players`` (the rule set's by
    default).  :attr:`state` is the position: every seat's hand, melds and river, the
    live wall, the scores and the dora indicators.  Checks that need the end of a hand
    run when the hand's result arrives; :meth:`finish` closes the game and gives the
    whole result, as :func:`~kansa.replay.engine.replay` does (a loop over :meth:`push`).
    """

    def __init__(self, rules: RuleSet | str = "tenhou", *, players: int | None = None,
                 game: Game | None = None, enabled: Callable[[str], bool] | None = None,
                 validate: bool = False) -> None:
        ruleset = RuleSet.preset(rules) if isinstance(rules, str) else rules
        if game is None:
            game = Game(format="stream", source="<stream>", events=(),
                        hints=RuleHints(players=players or ruleset.players))
        super().__init__(game, ruleset, enabled=enabled, validate=validate)
        self.start()

    def legal(self) -> list[Action]:
        """What each seat may do now (see :mod:`kansa.replay.legal`)."""
        return legal_actions(self.state, self.rules, self.ctx.memos, self.ctx.wins)

    @property
    def hands(self) -> list[HandRecord]:
        """The hands so far, as the result will list them (the last one may be open)."""
        return self.recorder.hands

    def __repr__(self) -> str:
        rs = self.state.round
        where = rs.label if rs is not None else "no hand yet"
        n = len(self.violations)
        return (f"<Table {self.rules.name} {where}, {self.index + 1} events, "
                f"{n} finding{'' if n == 1 else 's'}>")
