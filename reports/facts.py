"""Per-hand facts the tables need beyond what a log shows.

Replay's hand tracker (issue 4) records, per hand and seat, the turn on which
the hand first became tenpai (``HandRecord.tenpai_turn``) and whether it was
tenpai when the hand ended (``HandRecord.tenpai_end``), and per riichi
declaration the waits, how many of those tiles were still live, furiten and
the wait's shape (``RiichiRecord.waits``, ``live``, ``furiten``,
``good_shape``).  The tables read those facts only through the functions
here, so "what the log claims" versus "what replay computed" is decided in one
place.

Where replay does not record them (a replay built before the tracker, or a
hand the log hides):

- tenpai at the end is the log's own claim at an exhaustive draw (Tenhou shows
  the tenpai hands), else only the winners of a won hand are known;
- the first tenpai turn and the riichi facts are unknown (``None``) and the
  tables show them as missing, never as a made-up value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from kansa.replay.result import HandRecord, RiichiRecord
from kansa.replay.tiles import format_tiles


@dataclass(frozen=True, slots=True)
class TenpaiAtEnd:
    flags: tuple[bool | None, ...]
    """Per seat: tenpai when the hand ended, ``None`` where unknown."""
    source: str
    """``replay`` (computed), ``claim`` (the log's draw record) or ``win`` (winners only)."""
    replayed: tuple[bool, ...] = ()
    """Per seat: the flag (and the first tenpai turn) come from replay following the
    hand; ``False`` for a hidden hand or a replay without the tracker."""


def _per_seat(hand: HandRecord, name: str, players: int) -> list[Any] | None:
    """A per-seat list replay recorded on ``hand`` (``None`` if it has none)."""
    values = getattr(hand, name, None)
    if not values or len(values) != players:
        return None
    return list(values)


def tenpai_at_end(hand: HandRecord, players: int) -> TenpaiAtEnd | None:
    """Who was tenpai when ``hand`` ended, or ``None`` when nothing is known.

    Replay's own computation wins; a seat it could not follow (hidden hand) falls
    back to the log's claim.
    """
    replayed = _per_seat(hand, "tenpai_end", players)
    claim = hand.tenpai_claim if hand.tenpai_claim is not None \
        and len(hand.tenpai_claim) == players else None
    if replayed is not None and hand.complete:
        flags = tuple(bool(r) if r is not None else (claim[s] if claim else None)
                      for s, r in enumerate(replayed))
        if any(f is not None for f in flags):
            return TenpaiAtEnd(flags, "replay", tuple(r is not None for r in replayed))
    if hand.tenpai_claim is not None and len(hand.tenpai_claim) == players:
        return TenpaiAtEnd(tuple(hand.tenpai_claim), "claim")
    if hand.wins:
        winners = {int(w.actor) for w in hand.wins}
        return TenpaiAtEnd(tuple(True if s in winners else None for s in range(players)),
                           "win")
    return None


def first_tenpai_turn(hand: HandRecord, players: int) -> tuple[int | None, ...]:
    """Per seat: the turn (wall draws) on which the hand first became tenpai.

    ``None`` where the player never was tenpai or replay did not say (0 = dealt
    tenpai).
    """
    turns = _per_seat(hand, "tenpai_turn", players)
    if turns is None:
        return (None,) * players
    return tuple(int(t) if t is not None else None for t in turns)


@dataclass(frozen=True, slots=True)
class RiichiFacts:
    waits: str | None = None
    """The waits as mpsz (``47m``)."""
    live: int | None = None
    """How many of the waiting tiles were not visible to the declarer."""
    furiten: bool | None = None
    good_shape: bool | None = None
    """Good shape (ryoukei): two or more waiting kinds not all held, as replay classifies it."""


def riichi_facts(record: RiichiRecord) -> RiichiFacts:
    """What replay knew about the declaring hand (``None`` where it did not say)."""
    waits = getattr(record, "waits", None)
    live = getattr(record, "live", None)
    furiten = getattr(record, "furiten", None)
    shape = getattr(record, "good_shape", None)
    return RiichiFacts(
        waits=format_tiles(waits) if waits is not None else None,
        live=int(live) if live is not None else None,
        furiten=bool(furiten) if furiten is not None else None,
        good_shape=bool(shape) if shape is not None else None)
