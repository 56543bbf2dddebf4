"""Rules the state itself needs: tiles that exist, hands of the right size, scores that add up.

The engine enforces these while applying events (it cannot follow a hand
otherwise); they are defined here so that the catalog lists them with the rest.
"""

from __future__ import annotations

from typing import Final

from kansa.replay.violations import Severity, define

CONSERVATION: Final = define(
    "tiles.conservation", "A fifth copy of a tile", Severity.ERROR, "EMA RCR 1.1",
    "More copies of a tile kind (or more than one red five of a suit) are in play than "
    "the set holds: four of each kind, red fives replacing one five each. A three-player "
    "set (108 tiles) has no 2m-8m: any of them in play is reported too.",
)
NOT_IN_HAND: Final = define(
    "tiles.not-in-hand", "Discard or call of a tile the player does not hold",
    Severity.ERROR, "EMA RCR 3.3.5",
    "A discard, a call or a kan uses a tile that is not in the player's concealed hand. "
    "The hand cannot be followed after this; the rest of it is not checked.",
)
HAND_SIZE: Final = define(
    "tiles.hand-size", "Hand of the wrong size", Severity.ERROR, "EMA RCR 3.3.5",
    "A player draws, discards or calls holding the wrong number of tiles (a dead hand).",
)
SCORES: Final = define(
    "flow.scores", "Scores that do not follow from the last result", Severity.ERROR,
    "EMA RCR 3.4",
    "The scores at the start of a hand, after a riichi stick or at the end of the game "
    "differ from the previous scores plus the recorded deltas.",
)
TRUNCATED: Final = define(
    "log.truncated", "The log stops before the game ends", Severity.WARNING,
    "kansa: log completeness",
    "The log ends mid-hand or without the end of the game; it is replayed as far as it goes.",
)
OUT_OF_ORDER: Final = define(
    "log.out-of-order", "An event where the game cannot be at that point", Severity.ERROR,
    "kansa: log consistency",
    "An event that cannot happen in the state the game is in (a draw before the hand "
    "starts, a discard by a player whose turn it is not). The rest of the hand is not checked.",
)
ASSUMPTION: Final = define(
    "log.assumption", "The log leaves out something the audit had to assume", Severity.WARNING,
    "kansa: log completeness",
    "The log lacks information the replay needs (e.g. starting scores); kansa assumed a "
    "value, said which, and checked the rest.",
)
