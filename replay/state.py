"""Game state kept while replaying: players' hands, melds, rivers, the wall, scores.

The state is mutable and updated by :mod:`kansa.replay.engine`.  A new
:class:`RoundState` is built for every hand; nothing is reset field by field.
Hands are kept as count arrays: ``c37`` by :attr:`Tile.code` (red fives apart)
and ``c34`` by kind, plus ``hidden`` for tiles a one-seat log does not show.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any, Final

from kansa.replay.events import Ryukyoku, StartKyoku
from kansa.replay.frozen import frozen_reduce
from kansa.replay.melds import Meld
from kansa.replay.rules import RuleSet
from kansa.replay.tiles import ALL_TILES, Seat, Tile

DEAD_WALL: Final = 14
"""Tiles kept back from the live wall (indicators and replacement tiles)."""


def set_size(players: int) -> int:
    """The tiles of the set: 136, or 108 at a three-player table (2m-8m left out)."""
    return 136 - (28 if players == 3 else 0)


LEFT_OUT: Final = 1 << 40
"""Where the count of a kind the set leaves out starts (see :func:`seen_at_start`): far
above any count a log can reach, so its first copy in play is told apart from a fifth
copy of a kind the set has."""
THREE_PLAYER_LEFT_OUT: Final = (*range(1, 8), 34)
"""The tile codes a three-player set does without: 2m-8m and the red 5m."""


def seen_at_start(players: int) -> list[int]:
    """The known-tile counts a hand starts from, by value: none, except that at a
    three-player table 2m-8m (and the red 5m) start at :data:`LEFT_OUT`."""
    seen = [0] * 37
    if players == 3:
        for code in THREE_PLAYER_LEFT_OUT:
            seen[code] = LEFT_OUT
    return seen


@dataclass(slots=True, init=False)
class RiverTile:
    # (a written __init__: compiled, the one dataclasses writes runs interpreted)
    tile: Tile
    tsumogiri: bool
    riichi: bool
    """Turned sideways: the riichi declaration tile."""
    called_by: Seat | None

    def __init__(self, tile: Tile, tsumogiri: bool, riichi: bool = False,
                 called_by: Seat | None = None) -> None:
        self.tile = tile
        self.tsumogiri = tsumogiri
        self.riichi = riichi
        self.called_by = called_by

    def __reduce__(self) -> tuple[Any, ...]:
        return frozen_reduce(self, ("tile", "tsumogiri"))


@dataclass(frozen=True, slots=True)
class MissedWin:
    """A win a player let pass: the source of temporary and riichi furiten."""

    tile: Tile
    seat: Seat
    """Who discarded the tile (or added it to a kan)."""
    event: int
    """Event index of the discard or the added kan."""
    turn: int
    """The passing player's turn number (wall draws) at that moment."""
    chankan: bool = False
    """The tile was added to a kan (a robbable kan was not robbed)."""

    def describe(self) -> str:
        what = "added to a kan" if self.chankan else "discarded"
        return f"{self.tile.mpsz} {what} by seat {self.seat} (event {self.event}, turn {self.turn})"


@dataclass(slots=True, init=False)
class PlayerState:
    # (a written __init__: compiled, the one dataclasses writes runs interpreted)
    seat: Seat
    c37: list[int]
    c34: list[int]
    hidden: int
    """Concealed tiles the log does not show (one-seat logs)."""
    known_count: int
    """``sum(c34)``, kept up to date."""
    pairs: int
    """``c34.count(2)``, kept up to date: the kinds held exactly twice."""
    melds: list[Meld]
    river: list[RiverTile]
    discarded34: list[bool]
    """Kinds this player ever discarded this hand, called-away tiles included."""
    nukidora: int
    draws: int
    """Wall draws this hand (replacement draws excluded): the player's turn number."""
    last_draw: Tile | None
    """The tile just drawn, while the player has not discarded it yet."""
    riichi_pending: bool
    """``Reach`` seen, the declaration discard or its acceptance not yet."""
    riichi: bool
    riichi_turn: int | None
    riichi_discard_index: int | None
    double_riichi: bool
    ippatsu: bool
    size_reported: bool
    """A wrong hand size was already reported for this player this hand."""
    # -- hand analysis, kept by kansa.replay.tracker --------------------------------------
    waits: int
    """Shape waits (bit ``k`` = kind ``k``) of the concealed hand as it was after the
    player's last discard (or the deal); -1 while the hand is hidden or of the wrong size."""
    tenpai: bool
    """That hand is tenpai: a wait on a kind it does not hold four times (EMA 3.4.2)."""
    tenpai_turn: int | None
    """The turn (wall draws so far; 0 = dealt) of the first discard that left it tenpai."""
    temp_furiten: MissedWin | None
    """A win passed that still makes the player furiten (``RuleSet.temp_furiten_clear``)."""
    riichi_furiten: MissedWin | None
    """A win passed after riichi: furiten for the rest of the hand."""

    def __init__(self, seat: Seat, hidden: int = 0) -> None:
        self.seat = seat
        self.c37 = [0] * 37
        self.c34 = [0] * 34
        self.hidden = hidden
        self.known_count = 0
        self.pairs = 0
        self.melds = []
        self.river = []
        self.discarded34 = [False] * 34
        self.nukidora = 0
        self.draws = 0
        self.last_draw = None
        self.riichi_pending = False
        self.riichi = False
        self.riichi_turn = None
        self.riichi_discard_index = None
        self.double_riichi = False
        self.ippatsu = False
        self.size_reported = False
        self.waits = -1
        self.tenpai = False
        self.tenpai_turn = None
        self.temp_furiten = None
        self.riichi_furiten = None

    def __reduce__(self) -> tuple[Any, ...]:
        return frozen_reduce(self, ("seat",))

    # -- hand contents ----------------------------------------------------------

    @property
    def concealed_count(self) -> int:
        return self.known_count + self.hidden

    @property
    def size(self) -> int:
        """Concealed tiles plus three per meld (a kan counts three)."""
        return self.concealed_count + 3 * len(self.melds)

    @property
    def is_closed(self) -> bool:
        return all(not m.is_open for m in self.melds)

    @property
    def known(self) -> bool:
        return self.hidden == 0

    def concealed_tiles(self) -> list[Tile]:
        """The known concealed tiles, sorted."""
        out: list[Tile] = []
        for value, n in enumerate(self.c37):
            if n:
                out.extend([ALL_TILES[value]] * n)
        out.sort()
        return out

    def holds(self, tile: Tile, n: int = 1) -> bool:
        """True when the concealed hand has ``n`` copies of exactly ``tile`` (or hidden tiles)."""
        return self.c37[tile.code] >= n or self.hidden >= n

    def add(self, tile: Tile | None) -> None:
        if tile is None:
            self.hidden += 1
            return
        self.c37[tile.code] += 1
        n = self.c34[tile.index] = self.c34[tile.index] + 1
        self.pairs += (n == 2) - (n == 3)
        self.known_count += 1

    def add_all(self, tiles: Iterable[Tile | None]) -> None:
        """:meth:`add` for each of ``tiles`` (a deal), in one call."""
        c37, c34 = self.c37, self.c34
        for tile in tiles:
            if tile is None:
                self.hidden += 1
            else:
                c37[tile.code] += 1
                n = c34[tile.index] = c34[tile.index] + 1
                self.pairs += (n == 2) - (n == 3)
                self.known_count += 1

    def remove(self, tile: Tile) -> bool:
        """Take ``tile`` from the concealed hand; ``False`` when it is not there."""
        if self.c37[tile.code] > 0:
            self.c37[tile.code] -= 1
            n = self.c34[tile.index] = self.c34[tile.index] - 1
            self.pairs += (n == 2) - (n == 1)
            self.known_count -= 1
            return True
        if self.hidden > 0:
            self.hidden -= 1
            return True
        return False

    def remove_all(self, tiles: tuple[Tile, ...]) -> Tile | None:
        """Take every tile or none; returns the first missing tile, ``None`` on success."""
        need: dict[int, int] = {}
        for t in tiles:
            need[t.code] = need.get(t.code, 0) + 1
        c37 = self.c37
        short = 0
        missing: Tile | None = None
        for value in sorted(need):  # the first missing tile in tile order
            n = need[value]
            if n > c37[value]:
                short += n - c37[value]
                if missing is None:
                    missing = ALL_TILES[value]
        if short > self.hidden:
            return missing
        for value, n in need.items():
            take = min(n, c37[value])
            c37[value] -= take
            kind = ALL_TILES[value].index
            before = self.c34[kind]
            self.c34[kind] = before - take
            self.pairs += (before - take == 2) - (before == 2)
            self.known_count -= take
            self.hidden -= n - take
        return None


@dataclass(slots=True, init=False)
class LastDiscard:
    # (a written __init__, as for RiverTile: one of each is made per discard)
    seat: Seat
    tile: Tile
    event: int
    """Event index of the discard."""
    claimable: bool
    """False once the next player drew or someone called it."""
    last_tile: bool
    """Discarded after the live wall ran out (houtei)."""
    time: float | None
    """When the discard was made, where the log records times (the claim window)."""

    def __init__(self, seat: Seat, tile: Tile, event: int, *, claimable: bool = True,
                 last_tile: bool = False, time: float | None = None) -> None:
        self.seat = seat
        self.tile = tile
        self.event = event
        self.claimable = claimable
        self.last_tile = last_tile
        self.time = time

    def __reduce__(self) -> tuple[Any, ...]:
        return frozen_reduce(self, ("seat", "tile", "event"))


@dataclass(slots=True)
class RoundState:
    """Everything about the hand being played."""

    start: StartKyoku
    players: list[PlayerState]
    live_wall: int
    dora_markers: list[Tile]
    kans: int = 0
    last_discard: LastDiscard | None = None
    current: Seat | None = None
    """The seat whose turn it is (who drew or called last)."""
    after_kan: bool = False
    """The next draw of ``current`` is a replacement draw."""
    rinshan_draw: bool = False
    """``current``'s last draw was a replacement tile (a win on it is rinshan kaihou)."""
    kakan: tuple[Seat, Tile] | None = None
    """An added kan that can still be robbed (chankan), until the replacement draw."""
    kita: tuple[Seat, Tile] | None = None
    """A North just set aside (three players), which can be won on until its
    replacement draw."""
    first_go_around: bool = True
    """No call (an ankan included) and no player's second draw yet."""
    riichi_count: int = 0
    ended: bool = False
    """A result (win or draw) was recorded."""
    desync: str | None = None
    """Why the state could no longer be followed; the rest of the hand is skipped."""
    unchecked: int = 0
    """Events skipped after a desync."""
    seen37: list[int] = field(default_factory=lambda: [0] * 37)
    """Tiles whose identity is known so far (dealt, drawn, revealed), by value."""
    draw: Ryukyoku | None = None
    """The draw that ended the hand."""
    settled: bool = False
    """The hand's payments were worked out (see :mod:`kansa.replay.settle`)."""

    @property
    def label(self) -> str:
        """The hand as ``E2-1``: round wind, hand number, honba."""
        s = self.start
        return f"{s.bakaze.mjai}{s.kyoku}-{s.honba}"

    def validate(self) -> list[str]:
        """What is inconsistent in this state, as text (nothing on a state the replay
        follows): every tile of the set accounted for across hands, melds, rivers, North
        set aside, the live wall and the dead wall; hand sizes (14 only for the seat whose
        turn it is, unless a size finding was made); count arrays that agree; no fifth
        copy of a tile and no second red five among the tiles shown."""
        problems: list[str] = []
        held = 0
        shown = [0] * 37
        for p in self.players:
            river = [r.tile for r in p.river if r.called_by is None]
            melded = [t for m in p.melds for t in m.tiles]
            held += p.concealed_count + len(melded) + len(river) + p.nukidora
            for t in (*river, *melded):
                shown[t.code] += 1
            for code, n in enumerate(p.c37):
                shown[code] += n
            kinds = [0] * 34
            for code, n in enumerate(p.c37):
                kinds[ALL_TILES[code].index] += n
            if kinds != p.c34 or sum(p.c37) != p.known_count \
                    or p.c34.count(2) != p.pairs:
                problems.append(f"seat {p.seat}'s tile counts disagree")
            sizes = (13, 14) if p.seat == self.current else (13,)
            if p.size not in sizes and not p.size_reported:
                problems.append(f"seat {p.seat} holds {p.size} tiles; "
                                f"{' or '.join(map(str, sizes))} expected")
        total = held + self.live_wall + DEAD_WALL
        full = set_size(len(self.players))
        if total != full:
            problems.append(f"{total} tiles accounted for ({held} with the players, "
                            f"{self.live_wall} in the live wall, {DEAD_WALL} in the dead "
                            f"wall); the set has {full}")
        for t in self.dora_markers:
            shown[t.code] += 1
        copies = [0] * 34
        for code, n in enumerate(shown):
            copies[ALL_TILES[code].index] += n
        problems.extend(f"{n} copies of {ALL_TILES[kind]} are shown"
                        for kind, n in enumerate(copies) if n > 4)
        problems.extend(f"{shown[code]} red {ALL_TILES[code].normal} are shown"
                        for code in range(34, 37) if shown[code] > 1)
        return problems

    @staticmethod
    def initial(start: StartKyoku, rules: RuleSet) -> RoundState:
        n = rules.players
        players = [PlayerState(seat=Seat(i)) for i in range(n)]
        for p, tiles in zip(players, start.tehais, strict=False):
            p.add_all(tiles)
        wall = set_size(n) - DEAD_WALL - 13 * n
        rs = RoundState(start=start, players=players, live_wall=wall,
                        dora_markers=[start.dora_marker], current=start.oya,
                        seen37=seen_at_start(n))
        return rs


@dataclass(slots=True)
class GameState:
    """What carries from hand to hand."""

    rules: RuleSet
    scores: list[int] | None = None
    """Current scores; ``None`` when the log gave no way to know them."""
    honba: int = 0
    kyotaku: int = 0
    round: RoundState | None = None
    hands_played: int = 0
