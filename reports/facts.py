"""Per-hand facts the tables need beyond what a log shows.

Replay's hand analysis (issue 4) adds, per hand and seat, whether the player
was tenpai at the end and on which turn the hand first became tenpai, and, per
riichi declaration, the waits, how many of those tiles were still live, furiten
and the wait's shape.  The tables read those facts only through the functions
here, so the switch from "what the log claims" to "what replay computed" is
made in one place.

Until replay records them:

- tenpai at the end is the log's own claim at an exhaustive draw (Tenhou shows
  the tenpai hands) and the winners of a won hand; everyone else is unknown;
- the first tenpai turn, and the riichi waits, live count, furiten and shape,
  are unknown (``None``), and the tables show them as missing.
"""

from __future__ import annotations

from dataclasses import dataclass

from replay.result import HandRecord, RiichiRecord


@dataclass(frozen=True, slots=True)
class TenpaiAtEnd:
    flags: tuple[bool | None, ...]
    """Per seat: tenpai when the hand ended, ``None`` where unknown."""
    source: str
    """``replay`` (computed), ``claim`` (the log's draw record) or ``win`` (winners only)."""


def tenpai_at_end(hand: HandRecord, players: int) -> TenpaiAtEnd | None:
    """Who was tenpai when ``hand`` ended, or ``None`` when nothing is known."""
    if hand.tenpai_claim is not None and len(hand.tenpai_claim) == players:
        return TenpaiAtEnd(tuple(hand.tenpai_claim), "claim")
    if hand.wins:
        winners = {int(w.actor) for w in hand.wins}
        return TenpaiAtEnd(tuple(True if s in winners else None for s in range(players)),
                           "win")
    return None


def first_tenpai_turn(hand: HandRecord, players: int) -> tuple[int | None, ...]:
    """Per seat: the turn (wall draws) on which the hand first became tenpai.

    ``None`` where the player never was tenpai or replay did not say.
    """
    return (None,) * players


@dataclass(frozen=True, slots=True)
class RiichiFacts:
    waits: str | None = None
    """The waits as mpsz (``47m``)."""
    live: int | None = None
    """How many of the waiting tiles were not visible to the declarer."""
    furiten: bool | None = None
    good_shape: bool | None = None
    """Two or more waiting kinds (ryanmen-like), as replay classifies it."""


def riichi_facts(record: RiichiRecord) -> RiichiFacts:
    """What replay knew about the declaring hand (all ``None`` for now)."""
    return RiichiFacts()
