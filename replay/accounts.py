"""The money of a replay: wins valued, hands settled, every transfer in the ledger.

The engine hands each result here once the state has taken it; the checks of the
settlement then look at what :meth:`Accounts.settle_hand` and :meth:`Accounts.settle_draw`
return.
"""

from __future__ import annotations

from kansa.replay.events import Hora, Ryukyoku
from kansa.replay.ledger import Reason, Transfer
from kansa.replay.payments import RIICHI_STICK, final_result
from kansa.replay.rules import RuleSet
from kansa.replay.scoring import claimed_value, hand_value
from kansa.replay.settle import (
    Settlement,
    WinEntry,
    liability,
    mark_extra,
    settle_draw,
    settle_wins_of_hand,
)
from kansa.replay.situation import win_situation
from kansa.replay.state import GameState, RoundState
from kansa.replay.tiles import Seat
from kansa.replay.transitions import apply_deltas
from kansa.replay.yaku import Yaku


class Accounts:
    """The ledger of one game and the counts of what could be priced."""

    __slots__ = ("hands_compared", "ledger", "rules", "wins_valued")

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.ledger: list[Transfer] = []
        self.wins_valued = 0
        """Wins the replay could value itself."""
        self.hands_compared = 0
        """Hands whose computed payments were compared with the logged ones."""

    def riichi_deposit(self, hand: int | None, index: int, seat: Seat) -> None:
        self.ledger.append(Transfer(hand=hand, event=index, payer=seat, payee=None,
                                    amount=RIICHI_STICK, reason=Reason.RIICHI_DEPOSIT))

    def value_win(self, st: GameState, rs: RoundState, wins: list[WinEntry], ev: Hora,
                  index: int) -> WinEntry:
        """The win as the replay sees it, before the state records it (RULESETS rows
        4-16), added to the hand's ``wins``."""
        rules = self.rules
        ws = win_situation(st, ev, rules)
        value = hand_value(ws, rules) if ws is not None else None
        liable = None
        liable_yaku: tuple[Yaku, ...] = ()
        if value is not None and value.error is None:
            self.wins_valued += 1
            assert ws is not None
            liable, liable_yaku = liability(ws.melds, [y for y, _ in value.yaku], rules)
        kyotaku = wins[0].kyotaku if wins else st.kyotaku
        entry = WinEntry(
            event=ev, index=index, situation=ws, value=value,
            claim=claimed_value(ev.yaku, ev.han, ev.fu, rules), liable=liable,
            liable_yaku=liable_yaku, honba=st.honba, kyotaku=kyotaku,
            riichi=rs.players[ev.actor].riichi, players=rules.players,
            tsumo_loss=rules.tsumo_loss)
        wins.append(entry)
        mark_extra(wins, rules, index)
        return entry

    def win_scores(self, st: GameState, ev: Hora, entry: WinEntry) -> None:
        """The scores after a win: the logged deltas, or later the computed ones."""
        left = 0
        if ev.deltas is not None and len(ev.deltas) == self.rules.players:
            apply_deltas(st, ev.deltas)
            if entry.situation is not None and entry.situation.kita_ron:
                # what no rule text settles: the sticks a ron on a kita leaves (score.sticks)
                left = max(0, st.kyotaku - max(0, sum(ev.deltas)) // 1000)
        elif entry.points is None:
            st.scores = None  # no deltas and no value to compute them from
        # else: the computed deltas are applied when the hand is settled
        st.kyotaku = left

    def settle_hand(self, st: GameState, rs: RoundState, wins: list[WinEntry],
                    hand: int | None) -> Settlement | None:
        """Price the hand's wins once all of them are known; apply computed deltas where
        the log gives none; record the transfers.  ``None`` when there is nothing (more)
        to settle."""
        if rs.settled or not wins or rs.desync is not None:
            return None
        rs.settled = True
        settlement = settle_wins_of_hand(wins, dealer=rs.start.oya, rules=self.rules,
                                         hand=hand)
        for w in settlement.wins:
            if w.logged is None and st.scores is not None:
                if w.expected is None:
                    st.scores = None
                    break
                apply_deltas(st, w.expected.deltas)
        self._record(settlement)
        return settlement

    def settle_draw(self, st: GameState, rs: RoundState, ev: Ryukyoku, index: int,
                    hand: int | None) -> Settlement:
        """The draw's payments, logged or computed, applied and recorded."""
        rs.settled = True
        settlement = settle_draw(rs, ev, index, rules=self.rules, hand=hand)
        expected = settlement.draw.expected if settlement.draw is not None else None
        deltas = ev.deltas if ev.deltas is not None else (
            expected.deltas if expected is not None else None)
        if deltas is not None and st.scores is not None and len(deltas) == len(st.scores):
            apply_deltas(st, deltas)
        elif deltas is not None or not _no_payment(ev):
            st.scores = None  # payments happened that the log does not show
        self._record(settlement)
        return settlement

    def final(self, scores: list[int], kyotaku: int, index: int) -> None:
        """The transfers of the game's final points."""
        self.ledger.extend(final_result(scores, kyotaku, rules=self.rules,
                                        event=index).transfers)

    def _record(self, settlement: Settlement) -> None:
        self.ledger.extend(settlement.transfers)
        if settlement.compared:
            self.hands_compared += 1


def _no_payment(ev: Ryukyoku) -> bool:
    """True when the draw moves no points: abortive, or everyone (not) tenpai."""
    if ev.reason.is_abortive:
        return True
    return ev.tenpai is not None and len(set(ev.tenpai)) == 1
