"""The simulated table's pieces: the tile set, a player's tiles and state, a hand's result,
and :class:`TableView`, what the players' policy (:mod:`kansa.sim.bots`) may see of a table.

See :mod:`kansa.sim.hand` for the table that plays with them.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from kansa.replay import hand as H
from kansa.replay.events import DrawReason
from kansa.replay.melds import Meld, MeldType
from kansa.replay.rules import RuleSet
from kansa.replay.scoring import HandValue
from kansa.replay.tiles import Seat, Tile


@dataclass(frozen=True, slots=True)
class TableShape:
    """What the number of players makes of a table: the one place the simulator asks."""

    players: int
    kinds: tuple[int, ...]
    """The tile kinds in play, four of each."""
    chi: bool
    """Whether a player may chi (never at a three-player table)."""
    kita: Tile | None
    """The tile a player may set aside as a dora and replace (North at three players)."""


THREE_PLAYER_GAP = frozenset(range(Tile.M2.index, Tile.M8.index + 1))
"""The kinds a three-player set leaves out: 2m to 8m (108 tiles, 1m next to 9m)."""


def table_shape(rules: RuleSet) -> TableShape:
    """The table of ``rules.players``: 136 tiles with chi, or 108 with kita and no chi."""
    three = rules.players == 3
    gap = THREE_PLAYER_GAP if three else frozenset()
    return TableShape(players=rules.players,
                      kinds=tuple(k for k in range(34) if k not in gap),
                      chi=not three, kita=Tile.NORTH if three else None)


def full_set(rules: RuleSet) -> list[Tile]:
    """Four of each kind in play, one five of each suit in play red when ``rules.aka``."""
    kinds_in_play = table_shape(rules).kinds
    tiles = [Tile.from_index(i) for i in kinds_in_play for _ in range(4)]
    if rules.aka:
        for red in (Tile.M5R, Tile.P5R, Tile.S5R):
            if red.normal.index in kinds_in_play:
                tiles[tiles.index(red.normal)] = red
    return tiles


def kinds(mask: int) -> list[int]:
    """The tile kinds set in a waits mask."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(slots=True, eq=False)
class SimPlayer:
    seat: Seat
    tiles: list[Tile] = field(default_factory=list)
    """Concealed tiles, red fives as themselves."""
    c34: list[int] = field(default_factory=lambda: [0] * 34)
    melds: list[Meld] = field(default_factory=list)
    river: list[Tile] = field(default_factory=list)
    river_called: bool = False
    """One of the player's discards was called (no nagashi mangan)."""
    discarded34: list[bool] = field(default_factory=lambda: [False] * 34)
    draws: int = 0
    """Wall draws this hand (replacement draws excluded)."""
    kita: int = 0
    """Norths set aside this hand (three players)."""
    last_draw: Tile | None = None
    rinshan: bool = False
    """The last draw was a replacement tile."""
    riichi: bool = False
    double_riichi: bool = False
    ippatsu: bool = False
    temp_furiten: bool = False
    riichi_furiten: bool = False
    waits: int = 0
    """Shape waits of the 13-tile hand left by the last discard (or the deal)."""
    forbidden: tuple[int, ...] = ()
    """Kinds the player may not discard now (kuikae, right after a call)."""

    def add(self, t: Tile) -> None:
        self.tiles.append(t)
        self.c34[t.index] += 1

    def remove(self, t: Tile) -> None:
        self.tiles.remove(t)
        self.c34[t.index] -= 1

    def of_kind(self, kind: int, n: int) -> tuple[Tile, ...]:
        """``n`` held tiles of ``kind``, plain fives before the red one."""
        held = sorted((t for t in self.tiles if t.index == kind), key=lambda t: t.is_red)
        return tuple(held[:n])

    @property
    def is_closed(self) -> bool:
        return all(m.type is MeldType.ANKAN for m in self.melds)

    @property
    def is_open(self) -> bool:
        return not self.is_closed

    @property
    def furiten(self) -> bool:
        if self.temp_furiten or self.riichi_furiten:
            return True
        return any(self.discarded34[k] for k in kinds(self.waits))

    def update_waits(self) -> None:
        self.waits = H.waits_mask(self.c34)


@dataclass(slots=True)
class KanRecord:
    seat: Seat
    type: MeldType
    rinshan: bool = False
    revealed: bool = False


@dataclass(slots=True)
class HandResult:
    scores: list[int]
    kyotaku: int
    winners: tuple[Seat, ...] = ()
    draw: DrawReason | None = None
    dealer_tenpai: bool = False


class TableView(Protocol):
    """What a simulated player sees of the table it plays at (the hand in progress)."""

    @property
    def rules(self) -> RuleSet: ...

    @property
    def shape(self) -> TableShape: ...

    @property
    def rng(self) -> random.Random:
        """The table's seeded random numbers, for the choices made only "sometimes"."""

    @property
    def players(self) -> Sequence[SimPlayer]: ...

    @property
    def scores(self) -> Sequence[int]: ...

    @property
    def dora(self) -> Sequence[Tile]:
        """The dora indicators shown."""

    @property
    def kans(self) -> Sequence[KanRecord]: ...

    @property
    def live_left(self) -> int:
        """Live wall tiles left to draw."""

    @property
    def first_go_around(self) -> bool:
        """Still the first go-around of the hand, with no call, kan or kita so far."""

    def is_yakuhai(self, seat: int, kind: int) -> bool: ...

    def visible(self) -> list[int]:
        """Tile kinds everyone can see, counted by kind."""

    def tsumo_value(self, p: SimPlayer) -> HandValue | None:
        """The value of a tsumo on the tile just drawn, or ``None``."""
