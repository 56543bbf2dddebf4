"""Late claims: a draw or a call that a later event of the log takes back.

EMA 3.3.1: a discard claimed after the next player drew (within three seconds) sends
the drawn tile back to the wall; a discard called twice (``claim.precedence``) keeps
the second call only.  The claim checks judge whether that was allowed; the engine
only follows what the log records, with the records kept here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from kansa.replay.events import Chi, Daiminkan, Dora, Hora, Pon
from kansa.replay.melds import Meld, MeldType
from kansa.replay.state import PlayerState, RiverTile, RoundState
from kansa.replay.tiles import Seat, Tile

KEEPS_UNDO: Final = frozenset({Chi, Pon, Daiminkan, Hora, Dora})
"""Events after which a draw or a call can still be taken back."""

DrawUndo = tuple[Seat, Tile | None, Seat | None, bool]
"""A wall draw that a claim of the discard before it can still send back: the drawer,
the tile, whose turn it was and whether the first go-around was still on.  (A tuple:
one is made at nearly every draw.)"""


@dataclass(slots=True)
class CallUndo:
    """A call that a second call of the same discard replaces."""

    seat: Seat
    meld: Meld
    consumed: tuple[Tile, ...]
    entry: RiverTile
    current: Seat | None
    first_go_around: bool


def undo_draw(rs: RoundState, d: DrawUndo) -> None:
    """A claim right after a wall draw: the drawn tile goes back to the wall."""
    seat, tile, current, first_go_around = d
    p = rs.players[seat]
    if tile is not None:
        p.remove(tile)
        rs.seen37[tile.code] -= 1  # it will be drawn again
    elif p.hidden:
        p.hidden -= 1
    rs.live_wall += 1
    p.draws -= 1
    p.last_draw = None
    rs.current = current
    rs.first_go_around = first_go_around


def undo_call(rs: RoundState, c: CallUndo) -> None:
    """A second call of the same discard: the first one is taken back."""
    p = rs.players[c.seat]
    p.melds.remove(c.meld)
    for t in c.consumed:
        p.add(t)
    c.entry.called_by = None
    rs.current = c.current
    rs.first_go_around = c.first_go_around
    if c.meld.type is MeldType.DAIMINKAN:
        rs.kans -= 1
        rs.after_kan = False


def claimed_entry(target: PlayerState, tile: Tile, called: CallUndo | None,
                  ) -> tuple[RiverTile | None, bool]:
    """The river tile a call takes, and whether it takes it from the call ``called``
    (which must then be undone): the target's last discard, or failing that an older
    one still in the river (``claim.late`` reports it), or ``None``."""
    river = target.river
    if not river:
        return None, False
    last = river[-1]
    if last.tile is tile:
        if last.called_by is None:
            return last, False
        if called is not None and called.entry is last:
            return last, True  # claim.precedence reports the two calls
        return None, False
    for entry in reversed(river):
        if entry.tile is tile and entry.called_by is None:
            return entry, False
    return None, False
