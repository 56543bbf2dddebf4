"""The per-hand facts the reports read: one :class:`~kansa.replay.result.HandRecord` a hand.

The engine tells the recorder what happened (a hand starts, a call, a riichi, a win,
a draw, the hand closes); the :class:`~kansa.replay.tracker.Tracker` it owns writes
the facts of waits, tenpai and furiten into the same record.
"""

from __future__ import annotations

from kansa.replay.events import Hora, Ryukyoku, StartKyoku
from kansa.replay.result import HandRecord, RiichiRecord, WinRecord
from kansa.replay.rules import RuleSet
from kansa.replay.settle import WinEntry
from kansa.replay.state import GameState, PlayerState, RoundState
from kansa.replay.tiles import Seat
from kansa.replay.tracker import Tracker


class Recorder:
    """The hands of one game, the last one open while it is played."""

    __slots__ = ("hand", "hands", "tracker")

    def __init__(self, rules: RuleSet) -> None:
        self.hands: list[HandRecord] = []
        self.hand: HandRecord | None = None
        """The hand being played (``None`` between hands)."""
        self.tracker = Tracker(rules)

    @property
    def number(self) -> int | None:
        """The position of the open hand in :attr:`hands`, or ``None``."""
        return len(self.hands) - 1 if self.hand is not None else None

    def open(self, rs: RoundState, index: int, players: int) -> None:
        ev: StartKyoku = rs.start
        self.hand = HandRecord(
            label=rs.label, bakaze=ev.bakaze, kyoku=ev.kyoku, honba=ev.honba,
            kyotaku=ev.kyotaku, oya=ev.oya, start_scores=ev.scores,
            first_event=index, calls=[0] * players)
        self.hands.append(self.hand)

    def close(self, st: GameState, rs: RoundState, index: int) -> None:
        h = self.hand
        if h is not None:
            h.last_event = index
            h.unchecked = rs.unchecked
            h.turns = max(p.draws for p in rs.players)
            h.tenpai_turn = [p.tenpai_turn for p in rs.players]
            h.tenpai_end = [None if p.waits < 0 else p.tenpai for p in rs.players]
            if st.scores is not None:
                h.end_scores = tuple(st.scores)
        self.hand = None

    def call(self, seat: Seat, n: int = 1) -> None:
        """``seat`` made ``n`` more calls (-1: one was taken back)."""
        if self.hand is not None:
            self.hand.calls[seat] += n

    def riichi(self, seat: Seat, turn: int, index: int) -> None:
        if self.hand is not None:
            self.hand.riichi.append(RiichiRecord(seat=seat, turn=turn, event=index))

    def riichi_accepted(self, p: PlayerState) -> None:
        if self.hand is None:
            return
        for r in reversed(self.hand.riichi):
            if r.seat == p.seat:
                r.accepted = True
                if p.riichi_discard_index is not None:
                    r.tile = p.river[p.riichi_discard_index].tile
                break

    def win(self, ev: Hora, entry: WinEntry, turn: int) -> None:
        h = self.hand
        if h is None:
            return
        h.complete = True
        v = entry.value if entry.value is not None and entry.value.error is None else None
        h.wins.append(WinRecord(
            actor=ev.actor, target=ev.target, tile=ev.tile, turn=turn, deltas=ev.deltas,
            pao=ev.pao, han=v.han if v else None, fu=v.fu if v else None,
            points=v.points if v else None, limit=v.limit if v else None,
            liable=entry.liable, claimed_points=ev.points))

    def draw(self, ev: Ryukyoku) -> None:
        h = self.hand
        if h is None:
            return
        h.complete = True
        h.draw = ev.reason
        h.draw_deltas = ev.deltas
        h.tenpai_claim = ev.tenpai
