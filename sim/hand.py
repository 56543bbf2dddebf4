"""One hand at kansa's simulated table: the wall, the players' tiles and every action.

:class:`HandTable` plays one hand from a shuffled wall of the rule set's tiles (136,
or 108 at three players; 14 in the dead wall: five dora and five ura indicators,
four replacement tiles, topped up from the end of the live wall after each
replacement draw) with the choices of :mod:`kansa.sim.bots`, and records it as kansa
events.  At a three-player table a North may be set aside (kita): a dora for its
owner, replaced from the dead wall, open to a ron by a player waiting on North, and
ending the first go-around and every ippatsu as a call does.  The table keeps its own
state, independent of the replay engine's, so that replaying the result checks the
engine as much as the simulator; the values and payments it records come from
kansa's own modules (:func:`kansa.replay.scoring.hand_value` on a
:class:`~kansa.replay.situation.WinSituation` built here, :mod:`kansa.replay.payments`), so a
simulated log is consistent by construction.

What the table never does: a ron while furiten (on an own discard, after letting a
winning tile pass, or in riichi after passing one; passing a tile that would not
have given a yaku counts), a riichi below the rule set's points or with fewer than
four tiles left, a call in riichi or of the last discard, a kan after a call in the
same turn or with no tile left to replace it, a fifth kan, a swap call (kuikae).
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

from kansa.replay import hand as H
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    DrawReason,
    Event,
    Hora,
    Kakan,
    Nukidora,
    Pon,
    Reach,
    ReachAccepted,
    Ryukyoku,
    StartKyoku,
    Tsumo,
)
from kansa.replay.melds import Meld, MeldType
from kansa.replay.payments import WinInput, nagashi_payments, noten_payments, settle_wins
from kansa.replay.rules import KanDoraTiming, MultiRon, RuleSet
from kansa.replay.scoring import HandValue, hand_value, ron_points
from kansa.replay.settle import liability
from kansa.replay.situation import WinSituation
from kansa.replay.state import DEAD_WALL
from kansa.replay.tiles import WINDS, Seat, Tile
from kansa.sim import bots
from kansa.sim.players import HandResult, KanRecord, SimPlayer, full_set, table_shape

RIICHI_STICK = 1000
_INDICATORS = 0
"""Dead-wall positions: dora indicators 0-4, ura indicators 5-9, replacement tiles 10-13."""
_URA = 5
_RINSHAN = 10


@dataclass(slots=True)
class _Ron:
    seat: Seat
    situation: WinSituation
    value: HandValue


class HandTable:
    """Plays one hand; :meth:`play` appends its events to ``events``."""

    def __init__(self, rules: RuleSet, rng: random.Random, events: list[Event], *,
                 bakaze: Tile, kyoku: int, oya: Seat, honba: int, kyotaku: int,
                 scores: Sequence[int]) -> None:
        self.rules = rules
        self.shape = table_shape(rules)
        self.rng = rng
        self.events = events
        self.bakaze = bakaze
        self.kyoku = kyoku
        self.oya = oya
        self.honba = honba
        self.kyotaku = kyotaku
        self.scores = list(scores)
        wall = full_set(rules)
        rng.shuffle(wall)
        self.dead = wall[-DEAD_WALL:]
        self.live = wall[:-DEAD_WALL]
        self.replacements = self.dead[_RINSHAN:]
        """The dead wall's replacement tiles, in the order they are drawn."""
        self.next = 0
        self.live_end = len(self.live)
        self.players = [SimPlayer(seat=Seat(s)) for s in range(rules.players)]
        self.dora: list[Tile] = [self.dead[_INDICATORS]]
        self.kans: list[KanRecord] = []
        self.first_go_around = True
        self.suukaikan_by: Seat | None = None
        """The kanner whose next discard ends the hand (four kans by several players)."""
        self.discards = 0

    # -- the wall ------------------------------------------------------------------

    @property
    def live_left(self) -> int:
        return self.live_end - self.next

    def _wall_tile(self) -> Tile:
        t = self.live[self.next]
        self.next += 1
        return t

    def _reveal(self) -> None:
        t = self.dead[_INDICATORS + len(self.dora)]
        self.dora.append(t)
        self.events.append(Dora(dora_marker=t))

    def _reveal_due(self, before_rinshan: bool) -> None:
        """Reveal the kan indicators that are due: before a replacement draw those of
        concealed kans, of every kan where the rule set reveals at once, and of kans
        whose replacement was drawn; at the kanner's discard all the rest."""
        immediate = self.rules.open_kan_dora is KanDoraTiming.IMMEDIATE
        for k in self.kans:
            if k.revealed:
                continue
            if before_rinshan and not (k.type is MeldType.ANKAN or immediate or k.rinshan):
                continue
            k.revealed = True
            self._reveal()

    # -- seats -----------------------------------------------------------------------

    def seat_wind(self, seat: int) -> Tile:
        return WINDS[(seat - self.oya) % len(self.players)]

    def is_yakuhai(self, seat: int, kind: int) -> bool:
        return kind >= 31 or kind == self.seat_wind(seat).index or kind == self.bakaze.index

    def visible(self) -> list[int]:
        """Tile kinds everyone can see: rivers, melds and dora indicators."""
        seen = [0] * 34
        for p in self.players:
            for t in p.river:
                seen[t.index] += 1
            for m in p.melds:
                for t in m.tiles:
                    seen[t.index] += 1
                if m.called is not None:  # already counted in its discarder's river
                    seen[m.called.index] -= 1
        for t in self.dora:
            seen[t.index] += 1
        return seen

    # -- playing ---------------------------------------------------------------------

    def deal(self) -> None:
        """Deal 13 tiles to each seat, the dealer first, and record the hand's start."""
        n = len(self.players)
        for _ in range(3):
            for i in range(n):
                p = self.players[(self.oya + i) % n]
                for _ in range(4):
                    p.add(self._wall_tile())
        for i in range(n):
            self.players[(self.oya + i) % n].add(self._wall_tile())
        for p in self.players:
            p.update_waits()
        self.events.append(StartKyoku(
            bakaze=self.bakaze, kyoku=self.kyoku, honba=self.honba, kyotaku=self.kyotaku,
            oya=self.oya, scores=tuple(self.scores), dora_marker=self.dora[0],
            tehais=tuple(tuple(sorted(p.tiles)) for p in self.players)))

    def play(self) -> HandResult:
        """Deal and play the hand to its result."""
        self.deal()
        seat = self.oya
        draw, rinshan = True, False
        while True:
            p = self.players[seat]
            riichi = False
            if draw:
                if not rinshan and self.live_left == 0:
                    return self.exhaustive_draw()
                self._draw(p, rinshan)
                act = bots.self_action(self, p)
                if act.kind == "tsumo":
                    return self._tsumo(p)
                if act.kind == "kyuushu":
                    return self._abort(DrawReason.KYUUSHU_KYUUHAI, actor=seat)
                if act.kind == "kita":
                    assert act.tile is not None
                    result = self._kita(p, act.tile)
                    if result is not None:
                        return result
                    rinshan = True
                    continue
                if act.kind in ("ankan", "kakan"):
                    assert act.tile is not None
                    result = self._kan(p, act.kind, act.tile)
                    if result is not None:
                        return result
                    rinshan = True
                    continue
                assert act.tile is not None
                tile, riichi = act.tile, act.riichi
            else:
                tile = bots.discard_after_call(self, p)
            result = self._discard(p, tile, riichi)
            if result is not None:
                return result
            call = None if self.live_left == 0 else bots.call(self, tile, seat)
            if call is None:
                seat = Seat((seat + 1) % len(self.players))
                draw, rinshan = True, False
                continue
            self._call(call, seat, tile)
            seat = call.seat
            draw = rinshan = call.kind == "daiminkan"

    def _draw(self, p: SimPlayer, rinshan: bool) -> None:
        if rinshan:
            # a replacement draw (after a kan or a kita) first shows the indicators due
            self._reveal_due(before_rinshan=True)
            after_kan = any(k.seat == p.seat and not k.rinshan for k in self.kans)
            for k in self.kans:
                if k.seat == p.seat and not k.rinshan:
                    k.rinshan = True
            if after_kan and self.kans[-1].type is MeldType.KAKAN:
                for q in self.players:  # the added kan was not robbed
                    q.ippatsu = False
            t = self.replacements.pop(0)
            self.live_end -= 1  # the live wall's last tile tops up the dead wall
            self.replacements.append(self.live[self.live_end])
        else:
            t = self._wall_tile()
            p.draws += 1
            if p.draws > 1:
                self.first_go_around = False
        p.add(t)
        p.last_draw = t
        p.rinshan = rinshan
        p.forbidden = ()
        self.events.append(Tsumo(actor=p.seat, tile=t))

    def _discard(self, p: SimPlayer, tile: Tile, riichi: bool) -> HandResult | None:
        self._reveal_due(before_rinshan=False)  # Tenhou's logs show it before the discard
        if riichi:
            self.events.append(Reach(actor=p.seat))
        tsumogiri = p.last_draw is tile
        p.remove(tile)
        p.river.append(tile)
        p.discarded34[tile.index] = True
        self.events.append(Dahai(actor=p.seat, tile=tile, tsumogiri=tsumogiri))
        self.discards += 1
        if p.riichi:
            p.ippatsu = False
        p.temp_furiten = False
        p.last_draw = None
        p.forbidden = ()
        p.update_waits()
        houtei = self.live_left == 0
        result = self._rons(p.seat, tile, chankan=False, houtei=houtei)
        if result is not None:
            return result
        if riichi:
            p.riichi = True
            p.ippatsu = True
            p.double_riichi = self.first_go_around and p.draws <= 1
            self.scores[p.seat] -= RIICHI_STICK
            self.kyotaku += 1
            self.events.append(ReachAccepted(actor=p.seat, scores=tuple(self.scores)))
            if all(q.riichi for q in self.players) \
                    and DrawReason.SUUCHA_RIICHI in self.rules.abortive:
                return self._abort(DrawReason.SUUCHA_RIICHI)
        if self._four_winds():
            return self._abort(DrawReason.SUUFON_RENDA)
        if self.suukaikan_by == p.seat:
            return self._abort(DrawReason.SUUKAIKAN)
        return None

    def _four_winds(self) -> bool:
        if DrawReason.SUUFON_RENDA not in self.rules.abortive or self.discards != 4 \
                or not self.first_go_around:
            return False
        firsts = [q.river[0] if len(q.river) == 1 else None for q in self.players]
        first = firsts[0]
        return first is not None and first.is_wind \
            and all(t is not None and t.index == first.index for t in firsts)

    # -- calls and kans ----------------------------------------------------------------

    def _call(self, call: bots.Call, target: Seat, tile: Tile) -> None:
        p = self.players[call.seat]
        for t in call.consumed:
            p.remove(t)
        self.players[target].river_called = True
        mtype = {"chi": MeldType.CHI, "pon": MeldType.PON}.get(call.kind, MeldType.DAIMINKAN)
        p.melds.append(Meld(type=mtype, tiles=(*call.consumed, tile), called=tile,
                            target=target))
        consumed = tuple(sorted(call.consumed))
        ev: Chi | Pon | Daiminkan
        if call.kind == "chi":
            ev = Chi(actor=call.seat, target=target, tile=tile, consumed=consumed)
        elif call.kind == "pon":
            ev = Pon(actor=call.seat, target=target, tile=tile, consumed=consumed)
        else:
            ev = Daiminkan(actor=call.seat, target=target, tile=tile, consumed=consumed)
        self.events.append(ev)
        self.first_go_around = False
        for q in self.players:
            q.ippatsu = False
        p.last_draw = None
        p.forbidden = bots.kuikae_kinds(self.rules, call.kind, tile, call.consumed)
        if mtype is MeldType.DAIMINKAN:
            self._note_kan(p, MeldType.DAIMINKAN)

    def _note_kan(self, p: SimPlayer, mtype: MeldType) -> None:
        self.kans.append(KanRecord(seat=p.seat, type=mtype))
        if len(self.kans) == 4 and len({k.seat for k in self.kans}) > 1 \
                and DrawReason.SUUKAIKAN in self.rules.abortive:
            self.suukaikan_by = p.seat

    def _kan(self, p: SimPlayer, kind: str, tile: Tile) -> HandResult | None:
        if kind == "ankan":
            four = p.of_kind(tile.index, 4)
            for t in four:
                p.remove(t)
            p.melds.append(Meld(type=MeldType.ANKAN, tiles=four))
            self.events.append(Ankan(actor=p.seat, consumed=tuple(sorted(four))))
            self.first_go_around = False
            for q in self.players:
                q.ippatsu = False
            self._note_kan(p, MeldType.ANKAN)
            # the bots never rob a concealed kan; thirteen orphans waiting on it lets it
            # pass, which is furiten where the rule set would have allowed the win
            if self.rules.chankan_ankan_kokushi:
                for q in self.players:
                    if q is not p and q.waits >> tile.index & 1 and not q.melds \
                            and all(t.is_yaochu for t in q.tiles):
                        q.temp_furiten = True
                        q.riichi_furiten = q.riichi_furiten or q.riichi
            return None
        at = next(i for i, m in enumerate(p.melds)
                  if m.type is MeldType.PON and m.tiles[0].index == tile.index)
        p.remove(tile)
        p.melds[at] = pon = p.melds[at].kakan(tile)
        self.events.append(Kakan(actor=p.seat, tile=tile, consumed=tuple(sorted(
            t for t in pon.tiles[:3]))))
        self._note_kan(p, MeldType.KAKAN)
        return self._rons(p.seat, tile, chankan=True, houtei=False)

    def _kita(self, p: SimPlayer, tile: Tile) -> HandResult | None:
        """``p`` sets a North aside; a player waiting on North may win on it."""
        p.remove(tile)
        p.kita += 1
        p.last_draw = None
        self.events.append(Nukidora(actor=p.seat, tile=tile))
        self.first_go_around = False
        won = self._rons(p.seat, tile, chankan=False, houtei=False)
        if won is None:  # a kita not won on ends every ippatsu, as a call does
            for q in self.players:
                q.ippatsu = False
        return won

    # -- wins --------------------------------------------------------------------------

    def situation(self, p: SimPlayer, target: Seat, tile: Tile, *, tsumo: bool,
                  chankan: bool = False, houtei: bool = False) -> WinSituation:
        concealed = list(p.tiles)
        if not tsumo:
            concealed.append(tile)
        first = self.first_go_around and not p.melds
        dealer = p.seat == self.oya
        ura = tuple(self.dead[_URA:_URA + len(self.dora)]) if p.riichi else ()
        return WinSituation(
            winner=p.seat, target=target, win_tile=tile, concealed=tuple(sorted(concealed)),
            melds=tuple(Meld(type=m.type, tiles=m.tiles, called=m.called, target=m.target,
                             added=m.added) for m in p.melds),
            is_tsumo=tsumo, is_dealer=dealer, seat_wind=self.seat_wind(p.seat),
            round_wind=self.bakaze, riichi=p.riichi, double_riichi=p.double_riichi,
            ippatsu=p.riichi and p.ippatsu, rinshan=tsumo and p.rinshan, chankan=chankan,
            haitei=tsumo and self.live_left == 0 and not p.rinshan, houtei=houtei,
            tenhou=tsumo and first and dealer and p.draws == 1,
            chiihou=tsumo and first and not dealer and p.draws == 1,
            renhou=(not tsumo and self.rules.renhou and self.first_go_around
                    and p.draws == 0 and not p.melds),
            dora_markers=tuple(self.dora), ura_markers=ura, nukidora=p.kita, honba=self.honba,
            kyotaku=self.kyotaku)

    def tsumo_value(self, p: SimPlayer) -> HandValue | None:
        """The value of a tsumo on the tile just drawn, or ``None`` (no win, no yaku)."""
        if p.last_draw is None or not H.is_complete(p.c34):
            return None
        v = hand_value(self.situation(p, p.seat, p.last_draw, tsumo=True), self.rules)
        return v if v.error is None else None

    def _tsumo(self, p: SimPlayer) -> HandResult:
        assert p.last_draw is not None
        ws = self.situation(p, p.seat, p.last_draw, tsumo=True)
        return self._pay([_Ron(seat=p.seat, situation=ws, value=hand_value(ws, self.rules))])

    def _rons(self, target: Seat, tile: Tile, *, chankan: bool, houtei: bool,
              ) -> HandResult | None:
        """Everyone who wins on ``tile``; those who could have and do not are furiten."""
        wins: list[_Ron] = []
        n = len(self.players)
        for i in range(1, n):
            q = self.players[(target + i) % n]
            if not q.waits >> tile.index & 1:
                continue
            if not q.furiten:
                ws = self.situation(q, target, tile, tsumo=False, chankan=chankan,
                                    houtei=houtei)
                v = hand_value(ws, self.rules)
                if v.error is None:
                    wins.append(_Ron(seat=q.seat, situation=ws, value=v))
                    continue
            q.temp_furiten = True  # a winning shape passed (yaku or not)
            q.riichi_furiten = q.riichi_furiten or q.riichi
        if not wins:
            return None
        multi = self.rules.multi_ron
        if multi is MultiRon.HEAD_BUMP:
            wins = wins[:1]
        elif multi is MultiRon.DOUBLE and len(wins) > 2:
            if DrawReason.SANCHAHOU in self.rules.abortive:
                return self._abort(DrawReason.SANCHAHOU)
            wins = wins[:2]
        return self._pay(wins)

    def _pay(self, wins: list[_Ron]) -> HandResult:
        rules = self.rules
        inputs = []
        pao: list[Seat | None] = []
        for w in wins:
            ws, v = w.situation, w.value
            liable, which = liability(ws.melds, [y for y, _ in v.yaku], rules)
            pao.append(liable)
            inputs.append(WinInput(
                winner=ws.winner, target=ws.target, points=v.points, liable=liable,
                liable_points=ron_points(8000 * len(which), dealer=ws.is_dealer)
                if liable is not None else 0,
                riichi=self.players[ws.winner].riichi))
        paid = settle_wins(inputs, dealer=self.oya, honba=self.honba, sticks=self.kyotaku,
                           rules=rules)
        for w, pay, liable in zip(wins, paid, pao, strict=True):
            ws, v = w.situation, w.value
            self.events.append(Hora(
                actor=ws.winner, target=ws.target, tile=ws.win_tile, deltas=pay.deltas,
                hand=ws.concealed, yaku=tuple((y, h) for y, h in v.yaku if h),
                fu=v.fu, han=v.han, points=v.points, limit=v.limit,
                dora_markers=ws.dora_markers,
                ura_markers=ws.ura_markers if ws.riichi else None, pao=liable,
                honba=self.honba, kyotaku=pay.sticks // RIICHI_STICK))
            self.scores = [s + d for s, d in zip(self.scores, pay.deltas, strict=True)]
        self.kyotaku = 0
        return HandResult(scores=self.scores, kyotaku=0,
                          winners=tuple(w.situation.winner for w in wins))

    # -- draws -------------------------------------------------------------------------

    def _abort(self, reason: DrawReason, actor: Seat | None = None) -> HandResult:
        hands = None
        if actor is not None:
            hands = tuple(tuple(sorted(p.tiles)) if p.seat == actor else None
                          for p in self.players)
        self.events.append(Ryukyoku(reason=reason, deltas=(0,) * len(self.players), hands=hands,
                                    actor=actor))
        return HandResult(scores=self.scores, kyotaku=self.kyotaku, draw=reason,
                          dealer_tenpai=True)

    def exhaustive_draw(self) -> HandResult:
        """End the hand on an empty wall: nagashi mangan where a seat qualifies and the
        rule set has it, else noten payments; tenpai hands are shown."""
        tenpai = tuple(H.is_tenpai(p.c34) for p in self.players)
        nagashi = [p.seat for p in self.players
                   if self.rules.nagashi and p.river and not p.river_called
                   and all(t.is_yaochu for t in p.river)]
        if nagashi:
            reason = DrawReason.NAGASHI_MANGAN
            deltas = nagashi_payments(nagashi, dealer=self.oya, rules=self.rules).deltas
        else:
            reason = DrawReason.EXHAUSTIVE
            deltas = noten_payments(tenpai, rules=self.rules).deltas
        hands = tuple(tuple(sorted(p.tiles)) if ten else None
                      for p, ten in zip(self.players, tenpai, strict=True))
        self.events.append(Ryukyoku(reason=reason, deltas=deltas, tenpai=tenpai, hands=hands))
        self.scores = [s + d for s, d in zip(self.scores, deltas, strict=True)]
        return HandResult(scores=self.scores, kyotaku=self.kyotaku, draw=reason,
                          dealer_tenpai=tenpai[self.oya])
