"""Waits, tenpai and furiten of every player, kept up to date as a hand is replayed.

The engine calls :class:`Tracker` after applying an event (and only while the
hand can be followed).  It keeps, on each :class:`~kansa.replay.state.PlayerState`:

* ``waits``: the shape waits of the concealed hand left by the player's last
  discard (or the deal), a 34-bit mask; recomputed once per discard, the only
  moment a hand of 3n+1 tiles changes (a call, a kan and its replacement draw
  are always followed by the player's discard);
* ``tenpai`` and ``tenpai_turn``;
* ``temp_furiten`` and ``riichi_furiten`` (RULESETS.md section 5).

When temporary furiten ends follows ``RuleSet.temp_furiten_clear``.  On legal
play ``own_discard`` (Tenhou) and ``own_draw_or_claim`` (EMA 2016) judge every
ron alike, since nobody can ron between their own draw and their own discard;
``draw_or_any_call`` (the seed's older EMA text) also forgives a pass once
anyone calls.

A player *could have won* on a discard (or on a tile added to a kan: chankan)
when its kind is one of their waits, yaku or not.  The pass is only known when
play goes on: the next draw or call makes it final.  A ron by the player is not
a pass, and neither is one by another player (the hand ends).

It also writes the facts the reports need into the hand's
:class:`~kansa.replay.result.HandRecord` (riichi waits, live tiles, furiten, shape;
first tenpai turn and tenpai at the end).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from kansa.replay import hand
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Kakan,
    Nukidora,
    Pon,
    StartKyoku,
    Tsumo,
)
from kansa.replay.hand_tables import HONOR_INFO, SUIT_INFO, honor_info, suit_info
from kansa.replay.result import HandRecord, RiichiRecord
from kansa.replay.rules import RuleSet, TempFuritenClear
from kansa.replay.state import MissedWin, PlayerState, RoundState
from kansa.replay.tiles import YAOCHU, Seat, Tile

_YAOCHU_KINDS: Final = tuple(t.index for t in YAOCHU)



def kinds(mask: int) -> list[int]:
    """The kinds set in a waits mask, in order."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def effective_waits(p: PlayerState) -> list[int]:
    """``p``'s wait kinds, leaving out kinds the hand holds four times."""
    c = p.c34
    return [k for k in kinds(p.waits) if c[k] < 4] if p.waits > 0 else []


def waits_mask(c: list[int], n: int, pairs: int) -> int:
    """:func:`kansa.replay.hand.waits_mask` of a 3n+1 hand of ``n`` tiles holding ``pairs``
    kinds exactly twice, made cheaper for the per-discard tracking: the standard form is
    read straight off the per-suit tables of :mod:`kansa.replay.hand_tables` (the same
    combination as ``hand.waits_mask``, without its argument checks), and seven pairs and
    thirteen orphans are left to ``hand.waits_mask`` only when the hand could be one (13
    concealed tiles with six pairs, or with six or more honors).  Tested equal on random
    and tenpai hands.
    """
    kz = tuple(c[27:34])
    info = HONOR_INFO.get(kz) or honor_info(kz)
    if n == 13 and (pairs == 6 or info[3] >= 6):
        return hand.waits_mask(c)
    # groups are read honors first, each rejected as early as it can be: a group of
    # 0 mod 3 tiles must split into sets, only one group may hold 1 mod 3 tiles, and
    # only two may hold 2 mod 3 tiles (then with no 1 mod 3 group)
    r = info[0]
    if r == 0:
        if not info[1]:
            return 0
        one = two = three = None
    elif r == 1:
        one, two, three = (info, 27), None, None
    else:
        one, two, three = None, (info, 27), None
    si = SUIT_INFO
    for lo in (0, 9, 18):
        k = tuple(c[lo:lo + 9])
        info = si.get(k) or suit_info(k)
        r = info[0]
        if r == 0:
            if not info[1]:
                return 0
        elif r == 1:
            if one is not None or two is not None:
                return 0
            one = (info, lo)
        elif one is not None or three is not None:
            return 0
        elif two is None:
            two = (info, lo)
        else:
            three = (info, lo)
    if one is not None:
        return one[0][2] << one[1]
    if two is None or three is None:
        return 0
    mask = two[0][2] << two[1] if three[0][1] else 0
    if two[0][1]:
        mask |= three[0][2] << three[1]
    return mask


def update_waits(p: PlayerState) -> None:
    """Recompute ``p.waits`` and ``p.tenpai`` from the concealed hand (3n+1 tiles)."""
    c = p.c34
    # the engine checks every discard's hand size, so unless a wrong size was
    # reported the concealed tiles number 13 less three per meld
    n = sum(c) if p.size_reported else 13 - 3 * len(p.melds)
    if p.hidden or n % 3 != 1:
        p.waits = -1
        p.tenpai = False
        return
    mask = p.waits = waits_mask(c, n, p.pairs)
    tenpai = False
    while mask:
        low = mask & -mask
        if c[low.bit_length() - 1] < 4:
            tenpai = True
            break
        mask ^= low
    p.tenpai = tenpai
    if tenpai and p.tenpai_turn is None:
        p.tenpai_turn = p.draws


def visible_counts(rs: RoundState, viewer: PlayerState) -> list[int]:
    """Copies of each kind ``viewer`` can see: own concealed hand, every river (a tile
    called away counted once, in its meld), every meld, the dora indicators."""
    seen = list(viewer.c34)
    for q in rs.players:
        for r in q.river:
            if r.called_by is None:
                seen[r.tile.index] += 1
        for m in q.melds:
            for t in m.tiles:
                seen[t.index] += 1
    for t in rs.dora_markers:
        seen[t.index] += 1
    return seen


def riichi_facts(rs: RoundState, p: PlayerState, rec: RiichiRecord) -> None:
    """Fill ``rec`` from ``p``'s hand right after its declaration discard."""
    if p.waits < 0:
        return
    waits = kinds(p.waits)
    rec.waits = tuple(Tile.from_index(k) for k in waits)
    seen = visible_counts(rs, p)
    rec.live = sum(max(0, 4 - seen[k]) for k in waits)
    rec.furiten = any(p.discarded34[k] for k in waits)
    rec.good_shape = len(effective_waits(p)) >= 2


class Tracker:
    """Follows one game; the engine calls the function :data:`TRACK` has for the event's
    type after applying it, with the tracker, the round, the event, the hand's record
    and the event's index."""

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        clear = rules.temp_furiten_clear
        self.clear_on_discard = clear is TempFuritenClear.OWN_DISCARD
        self.clear_on_draw = clear is not TempFuritenClear.OWN_DISCARD
        self.clear_on_claim = clear is TempFuritenClear.OWN_DRAW_OR_CLAIM
        self.clear_on_any_call = clear is TempFuritenClear.DRAW_OR_ANY_CALL
        self.drawn = [-1] * rules.players
        """Per seat, the kind of its last wall draw, while its hand is otherwise the one
        whose waits are known: discarding that kind again leaves the waits as they are."""
        self.pending = 0
        """Seats (bit mask) that could win on :attr:`offered` if play stopped now."""
        self.offered: tuple[Tile, Seat, int, bool] = (Tile.M1, Seat(0), -1, False)
        """The tile, who offered it, the event index, and whether it was added to a kan."""

    # -- passes -------------------------------------------------------------------

    def _offer(self, rs: RoundState, seat: Seat, tile: Tile, index: int, *,
               chankan: bool = False, only: int = -1) -> None:
        """Note who could win on ``tile`` from ``seat`` (among the seats in ``only``);
        the pass becomes final at the next draw or call."""
        bit = 1 << tile.index
        pending = 0
        for q in rs.players:
            if q.seat != seat and q.waits > 0 and q.waits & bit:
                pending |= 1 << q.seat
        self.pending = pending & only
        if self.pending:
            self.offered = (tile, seat, index, chankan)

    def _resolve(self, rs: RoundState) -> None:
        """Play went on: everyone who could have won on the offered tile passed."""
        tile, seat, index, chankan = self.offered
        for q in rs.players:
            if self.pending >> q.seat & 1:
                missed = MissedWin(tile=tile, seat=seat, event=index, turn=q.draws,
                                   chankan=chankan)
                q.temp_furiten = missed
                if q.riichi and q.riichi_furiten is None:
                    q.riichi_furiten = missed
        self.pending = 0

    def _any_call(self, rs: RoundState) -> None:
        if self.clear_on_any_call:
            for q in rs.players:
                q.temp_furiten = None

    # -- events -------------------------------------------------------------------

    def _start(self, rs: RoundState, ev: StartKyoku, rec: HandRecord | None,
               index: int) -> None:
        self.pending = 0
        self.drawn = [-1] * len(rs.players)
        for p in rs.players:
            update_waits(p)

    def _tsumo(self, rs: RoundState, ev: Tsumo, rec: HandRecord | None, index: int) -> None:
        if self.pending:
            self._resolve(rs)
        tile = ev.tile
        self.drawn[ev.actor] = -1 if tile is None or rs.rinshan_draw else tile.index
        if self.clear_on_draw:
            rs.players[ev.actor].temp_furiten = None

    def _dahai(self, rs: RoundState, ev: Dahai, rec: HandRecord | None, index: int) -> None:
        if self.pending:
            self._resolve(rs)
        actor = ev.actor
        tile = ev.tile
        kind = tile.index
        players = rs.players
        p = players[actor]
        if self.clear_on_discard:
            p.temp_furiten = None
        drawn = self.drawn
        if drawn[actor] != kind:
            update_waits(p)  # else the hand holds the same kinds as before the draw
        drawn[actor] = -1
        if p.riichi_pending and p.riichi_discard_index == len(p.river) - 1 \
                and rec is not None:
            for r in reversed(rec.riichi):
                if r.seat == actor:
                    riichi_facts(rs, p, r)
                    break
        # self._offer(rs, actor, tile, index), inline: this runs at every discard
        bit = 1 << kind
        pending = 0
        for q in players:
            w = q.waits
            if w > 0 and w & bit and q.seat != actor:
                pending |= 1 << q.seat
        if pending:
            self.pending = pending
            self.offered = (tile, actor, index, False)

    def _call(self, rs: RoundState, ev: Chi | Pon | Daiminkan, rec: HandRecord | None,
              index: int) -> None:
        if self.pending:
            self._resolve(rs)
        if self.clear_on_claim:
            rs.players[ev.actor].temp_furiten = None
        self.drawn[ev.actor] = -1
        self._any_call(rs)

    def _kakan(self, rs: RoundState, ev: Kakan, rec: HandRecord | None, index: int) -> None:
        if self.pending:
            self._resolve(rs)
        self.drawn[ev.actor] = -1
        self._any_call(rs)
        self._offer(rs, ev.actor, ev.tile, index, chankan=True)

    def _ankan(self, rs: RoundState, ev: Ankan, rec: HandRecord | None, index: int) -> None:
        if self.pending:
            self._resolve(rs)
        self.drawn[ev.actor] = -1
        self._any_call(rs)
        if self.rules.chankan_ankan_kokushi:
            # only a thirteen-orphans hand may rob a concealed kan
            kokushi = 0
            for q in rs.players:
                if not q.melds and sum(q.c34[k] for k in _YAOCHU_KINDS) == 13:
                    kokushi |= 1 << q.seat
            if kokushi:
                self._offer(rs, ev.actor, ev.consumed[0], index, chankan=True, only=kokushi)

    def _nukidora(self, rs: RoundState, ev: Nukidora, rec: HandRecord | None,
                  index: int) -> None:
        """A North set aside can be won on until its replacement draw: whoever waits on
        it and lets it pass misses a win, as on a discard."""
        if self.pending:
            self._resolve(rs)
        self.drawn[ev.actor] = -1
        self._offer(rs, ev.actor, ev.tile, index)


TrackFn = Callable[[Tracker, RoundState, Any, HandRecord | None, int], None]
TRACK: Final[dict[type, TrackFn]] = {
    StartKyoku: Tracker._start,
    Tsumo: Tracker._tsumo,
    Dahai: Tracker._dahai,
    Chi: Tracker._call,
    Pon: Tracker._call,
    Daiminkan: Tracker._call,
    Kakan: Tracker._kakan,
    Ankan: Tracker._ankan,
    Nukidora: Tracker._nukidora,
}
"""What the tracker does after each event type (plain functions: a tracker holding its
own bound methods would be a reference cycle)."""
