"""Write games by hand: the scenario builder behind the tests and ``sample_logs/``.

A :class:`Scenario` records events the way a table would produce them, with
tiles in mpsz notation and the bookkeeping (targets, tsumogiri, the tiles left
in the wall) done for you.  Tiles not named explicitly come from a pool that
holds what the set has left, so a crafted log never has a fifth copy by accident.

>>> sc = Scenario()
>>> _ = sc.start(["123456789m1234p", "147m258p369s1234z", "258m369p147s5677z", "369m147p258s1156z"])
>>> _ = sc.draw(0, "5p"); _ = sc.discard(0, "1m")
>>> [type(e).__name__ for e in sc.game().events]
['StartKyoku', 'Tsumo', 'Dahai']
"""

from __future__ import annotations

import dataclasses
from collections import Counter
from collections.abc import Mapping, Sequence

from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    DrawReason,
    EndGame,
    EndKyoku,
    Event,
    Hora,
    Kakan,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from kansa.replay.game import Game, Player, RuleHints
from kansa.replay.tiles import WINDS, Seat, Tile, format_tiles, parse_tiles

TileLike = Tile | str


def _tile(t: TileLike) -> Tile:
    return t if isinstance(t, Tile) else Tile.parse(t)


def _tiles(ts: str | Sequence[TileLike]) -> tuple[Tile, ...]:
    if isinstance(ts, str):
        return tuple(parse_tiles(ts))
    return tuple(_tile(t) for t in ts)


class Scenario:
    """Records a game event by event."""

    def __init__(self, names: Sequence[str] = ("A", "B", "C", "D"), *, aka: bool = True,
                 kuitan: bool = True, platform: str | None = "tenhou",
                 source: str = "<scenario>", start_score: int = 25000) -> None:
        self.names = tuple(names)
        self.hints = RuleHints(players=len(names), aka=aka, kuitan=kuitan, hanchan=True,
                               platform=platform)
        self.source = source
        self.events: list[Event] = []
        self.scores = [start_score] * len(names)
        self.honba = 0
        self.kyotaku = 0
        self._pool: Counter[Tile] = Counter()
        self._last_draw: dict[int, Tile | None] = {}
        self._last_discard: tuple[int, Tile] | None = None

    # -- hands -------------------------------------------------------------------

    def start(self, hands: Sequence[str | Sequence[TileLike]], *, dora: TileLike = "1z",
              oya: int = 0, bakaze: TileLike = "E", kyoku: int | None = None,
              honba: int | None = None, kyotaku: int | None = None,
              scores: Sequence[int] | None = None) -> Scenario:
        """Deal a hand: each seat's 13 tiles; scores and counters default to the running ones."""
        tehais = tuple(_tiles(h) for h in hands)
        if scores is not None:
            self.scores = list(scores)
        if honba is not None:
            self.honba = honba
        if kyotaku is not None:
            self.kyotaku = kyotaku
        marker = _tile(dora)
        self._pool = self._full_set()
        for t in (*(t for h in tehais for t in h), marker):
            self._take_from_pool(t)
        self._last_draw = {}
        self._last_discard = None
        self.events.append(StartKyoku(
            bakaze=_tile(bakaze), kyoku=kyoku if kyoku is not None else oya + 1,
            honba=self.honba, kyotaku=self.kyotaku, oya=Seat(oya),
            scores=tuple(self.scores), dora_marker=marker, tehais=tehais))
        return self

    def _full_set(self) -> Counter[Tile]:
        pool: Counter[Tile] = Counter()
        for i in range(34):
            pool[Tile.from_index(i)] = 4
        if self.hints.aka:
            for five in (Tile.M5, Tile.P5, Tile.S5):
                pool[five] = 3
                pool[five.red()] = 1
        return pool

    def _take_from_pool(self, t: Tile) -> None:
        if self._pool[t] > 0:
            self._pool[t] -= 1
        # else: a deliberate fifth copy; the pool simply has none left

    def spare(self, avoid: Sequence[TileLike] = ()) -> Tile:
        """A tile still in the wall, preferring honors and terminals, not in ``avoid``."""
        banned = {_tile(a).index for a in avoid}
        order = sorted(self._pool, key=lambda t: (not t.is_honor, t.code))
        for t in order:
            if self._pool[t] > 0 and t.index not in banned:
                return t
        raise ValueError("no spare tile left in the wall")

    # -- turns -------------------------------------------------------------------

    def draw(self, seat: int, tile: TileLike | None = None, *,
             avoid: Sequence[TileLike] = ()) -> Scenario:
        t = _tile(tile) if tile is not None else self.spare(avoid)
        self._take_from_pool(t)
        self._last_draw[seat] = t
        self.events.append(Tsumo(actor=Seat(seat), tile=t))
        return self

    def discard(self, seat: int, tile: TileLike | None = None) -> Scenario:
        """Discard ``tile`` (default: the tile just drawn)."""
        drawn = self._last_draw.get(seat)
        t = _tile(tile) if tile is not None else drawn
        if t is None:
            raise ValueError(f"seat {seat} has no drawn tile to discard")
        self.events.append(Dahai(actor=Seat(seat), tile=t, tsumogiri=t is drawn))
        self._last_draw[seat] = None
        self._last_discard = (seat, t)
        return self

    def turn(self, seat: int, draw: TileLike | None = None,
             discard: TileLike | None = None, *, avoid: Sequence[TileLike] = ()) -> Scenario:
        """Draw then discard (the drawn tile unless ``discard`` is given)."""
        return self.draw(seat, draw, avoid=avoid).discard(seat, discard)

    def go_around(self, first: int, n: int = 4, *, avoid: Sequence[TileLike] = ()) -> Scenario:
        """``n`` turns of draw-and-discard-the-drawn-tile starting at ``first``."""
        for k in range(n):
            self.turn((first + k) % len(self.names), avoid=avoid)
        return self

    def riichi(self, seat: int, tile: TileLike | None = None, *,
               accepted: bool = True) -> Scenario:
        self.events.append(Reach(actor=Seat(seat)))
        self.discard(seat, tile)
        if accepted:
            self.accept(seat)
        return self

    def accept(self, seat: int) -> Scenario:
        self.scores[seat] -= 1000
        self.kyotaku += 1
        self.events.append(ReachAccepted(actor=Seat(seat)))
        return self

    def _claim(self, tile: TileLike | None = None, target: int | None = None,
               ) -> tuple[Seat, Tile]:
        """The call's target and tile: the last discard unless given."""
        if self._last_discard is None and (tile is None or target is None):
            raise ValueError("no discard to call")
        last_seat, last_tile = self._last_discard or (0, Tile.M1)
        return (Seat(target if target is not None else last_seat),
                _tile(tile) if tile is not None else last_tile)

    def chi(self, seat: int, consumed: str | Sequence[TileLike], *,
            tile: TileLike | None = None, target: int | None = None) -> Scenario:
        target, tile = self._claim(tile, target)
        self.events.append(Chi(actor=Seat(seat), target=target, tile=tile,
                               consumed=_tiles(consumed)))
        self._last_draw[seat] = None
        return self

    def pon(self, seat: int, consumed: str | Sequence[TileLike] | None = None, *,
            tile: TileLike | None = None, target: int | None = None) -> Scenario:
        target, tile = self._claim(tile, target)
        used = _tiles(consumed) if consumed is not None else (tile.normal, tile.normal)
        self.events.append(Pon(actor=Seat(seat), target=target, tile=tile, consumed=used))
        self._last_draw[seat] = None
        return self

    def daiminkan(self, seat: int, consumed: str | Sequence[TileLike] | None = None, *,
                  tile: TileLike | None = None, target: int | None = None) -> Scenario:
        target, tile = self._claim(tile, target)
        used = _tiles(consumed) if consumed is not None else (tile.normal,) * 3
        self.events.append(Daiminkan(actor=Seat(seat), target=target, tile=tile,
                                     consumed=used))
        return self

    def kakan(self, seat: int, tile: TileLike, consumed: str | Sequence[TileLike] | None = None,
              ) -> Scenario:
        t = _tile(tile)
        used = _tiles(consumed) if consumed is not None else (t.normal,) * 3
        self.events.append(Kakan(actor=Seat(seat), tile=t, consumed=used))
        return self

    def ankan(self, seat: int, consumed: str | Sequence[TileLike]) -> Scenario:
        self.events.append(Ankan(actor=Seat(seat), consumed=_tiles(consumed)))
        return self

    def at(self, seconds: float) -> Scenario:
        """Give the last event a time (seconds since the start), as timed logs record."""
        self.events[-1] = dataclasses.replace(self.events[-1], time=seconds)
        return self

    def dora(self, marker: TileLike) -> Scenario:
        t = _tile(marker)
        self._take_from_pool(t)
        self.events.append(Dora(dora_marker=t))
        return self

    # -- results -----------------------------------------------------------------

    def ron(self, seat: int, deltas: Sequence[int], *, target: int | None = None,
            tile: TileLike | None = None, **claims: object) -> Scenario:
        """A win on the last discard (or on ``tile`` from ``target``)."""
        last = self._last_discard
        tgt = target if target is not None else (last[0] if last else seat)
        t = _tile(tile) if tile is not None else (last[1] if last else None)
        return self._win(seat, tgt, t, deltas, claims)

    def tsumo(self, seat: int, deltas: Sequence[int], **claims: object) -> Scenario:
        return self._win(seat, seat, self._last_draw.get(seat), deltas, claims)

    def _win(self, seat: int, target: int, tile: Tile | None, deltas: Sequence[int],
             claims: dict[str, object]) -> Scenario:
        self.events.append(Hora(actor=Seat(seat), target=Seat(target), tile=tile,
                                deltas=tuple(deltas), **claims))  # type: ignore[arg-type]
        self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
        self.kyotaku = 0
        return self

    def ryukyoku(self, reason: DrawReason = DrawReason.EXHAUSTIVE,
                 deltas: Sequence[int] | None = None, *,
                 tenpai: Sequence[bool] | None = None, **claims: object) -> Scenario:
        d = tuple(deltas) if deltas is not None else (0,) * len(self.names)
        self.events.append(Ryukyoku(reason=reason, deltas=d,
                                    tenpai=tuple(tenpai) if tenpai is not None else None,
                                    **claims))  # type: ignore[arg-type]
        self.scores = [s + x for s, x in zip(self.scores, d, strict=True)]
        return self

    def end_kyoku(self) -> Scenario:
        self.events.append(EndKyoku())
        return self

    def end_game(self, points: Sequence[float] | None = None, *,
                 sticks_to_top: bool = True) -> Scenario:
        """End the game; leftover riichi sticks go to the top (earlier seat on a tie)."""
        if sticks_to_top and self.kyotaku:
            top = max(range(len(self.scores)), key=lambda s: (self.scores[s], -s))
            self.scores[top] += 1000 * self.kyotaku
            self.kyotaku = 0
        self.events.append(EndGame(scores=tuple(self.scores),
                                   points=tuple(points) if points is not None else None))
        return self

    def game(self) -> Game:
        return Game(format="scenario", source=self.source, events=tuple(self.events),
                    players=tuple(Player(name=n) for n in self.names), hints=self.hints)


def _filler_kinds(j: int) -> tuple[list[int], list[int]]:
    """The kinds filler number ``j`` takes one of each: every third number of each suit,
    shifted per suit and per filler (``147m258p369s``), and four honors; then, to make up
    for kinds already gone, honors, terminals and the rest."""
    first = [9 * suit + (j + suit) % 3 + 3 * n for suit in range(3) for n in range(3)]
    first += [27 + (4 * j + h) % 7 for h in range(4)]
    rest = sorted((k for k in range(34) if k not in first),
                  key=lambda k: (k < 27, k < 27 and k % 9 not in (0, 8), k))
    return first, rest


def fill_hands(hands: Mapping[int, str], *, reserve: str = "", dora: TileLike = "1z",
               players: int = 4) -> list[str]:
    """Deal the seats ``hands`` leaves out from what the set has left.

    A filler hand is scattered single tiles (``147m258p369s1234z``: no two tiles of a
    suit within two of each other), far from tenpai.  No copy of a kind in
    ``reserve`` (mpsz) goes to a filler, so the scenario can still draw it; the dora
    indicator (``dora``) is counted as used.

    >>> fill_hands({0: "123m456p789s1122z"}, reserve="3z")[1:]
    ['147m258p369s1245z', '258m369p147s2567z', '369m147p258s4566z']
    """
    left: Counter[int] = Counter(dict.fromkeys(range(34), 4))
    for t in (*(t for h in hands.values() for t in parse_tiles(h)), _tile(dora)):
        left[t.index] -= 1
    for t in parse_tiles(reserve) if reserve else ():
        left[t.index] = 0
    out: list[str] = []
    j = 0
    for seat in range(players):
        if seat in hands:
            out.append(hands[seat])
            continue
        first, rest = _filler_kinds(j)
        j += 1
        dealt = [k for k in first if left[k] > 0]
        for k in dealt:
            left[k] -= 1
        for k in rest:
            while len(dealt) < 13 and left[k] > 0:
                left[k] -= 1
                dealt.append(k)
        if len(dealt) < 13:
            raise ValueError("not enough tiles left to deal the filler hands")
        out.append(format_tiles(Tile.from_index(k) for k in dealt[:13]))
    return out


def wind(seat: int, oya: int) -> Tile:
    return WINDS[(seat - oya) % 4]
