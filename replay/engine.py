"""The replay engine: walk a game's events, keep the state, run the checks.

>>> from kansa.replay.engine import replay                         # doctest: +SKIP
>>> result = replay(game, RuleSet.preset("tenhou"))          # doctest: +SKIP

The engine never raises on a rule break.  It records a
:class:`~kansa.replay.violations.Violation` and goes on; when the state can no longer
be followed (a discard of a tile the player never had) it reports that once,
skips the rest of the hand, counts the events it did not check, and starts the
next hand fresh.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from kansa.replay import checks as _checks  # noqa: F401  (registers the catalog)
from kansa.replay.checks.registry import CheckFn, dispatch_table
from kansa.replay.checks.ruleset import fold_unknown_rules
from kansa.replay.collector import collector_paused
from kansa.replay.context import CheckContext
from kansa.replay.events import (
    Ankan,
    Chi,
    Dahai,
    Daiminkan,
    Dora,
    EndGame,
    EndKyoku,
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
from kansa.replay.game import Game
from kansa.replay.ledger import Reason, Transfer
from kansa.replay.melds import Meld, MeldType, added_kan_base
from kansa.replay.payments import final_result, out_of_range
from kansa.replay.result import HandRecord, ReplayResult, RiichiRecord, WinRecord
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
from kansa.replay.state import (
    GameState,
    LastDiscard,
    PlayerState,
    RiverTile,
    RoundState,
)
from kansa.replay.tiles import BY_VALUE, Seat, Tile, format_tiles
from kansa.replay.tracker import TRACK, Tracker, TrackFn
from kansa.replay.violations import Violation
from kansa.replay.yaku import Yaku

RIICHI_STICK = 1000
_FIVES = {Tile.M5.code: Tile.M5R.code, Tile.P5.code: Tile.P5R.code, Tile.S5.code: Tile.S5R.code}
_RED_OF = {red: plain for plain, red in _FIVES.items()}
_SEATED: frozenset[type] = frozenset({
    Tsumo, Dahai, Chi, Pon, Daiminkan, Kakan, Ankan, Nukidora, Reach, ReachAccepted, Hora,
    Ryukyoku})
"""Event types that name seats (``actor``, and ``target``/``pao`` where they have them)."""
_ACTOR_ONLY: frozenset[type] = frozenset({
    Tsumo, Dahai, Kakan, Ankan, Nukidora, Reach, ReachAccepted})
"""Seated event types whose only seat is a required ``actor``: the step checks it inline
and calls :func:`seat_problem` only when it is out of range (for the message)."""


def seat_problem(ev: Event, players: int) -> str | None:
    """Why ``ev`` names a seat the game does not have, or ``None`` when its seats exist."""
    for name in ("actor", "target", "pao"):
        seat = getattr(ev, name, None)
        if seat is not None and not 0 <= seat < players:
            return (f"{type(ev).__name__} names seat {seat} as its {name}, but a "
                    f"{players}-player game has seats 0-{players - 1}")
    return None

_KEEPS_UNDO = frozenset({Chi, Pon, Daiminkan, Hora, Dora})
"""Events after which a draw or a call can still be taken back (see ``_DrawUndo``)."""


_DrawUndo = tuple[Seat, Tile | None, Seat | None, bool]
"""A wall draw that a claim of the discard before it can still send back: the drawer,
the tile, whose turn it was and whether the first go-around was still on.

EMA 3.3.1: a discard claimed after the next player drew (within three seconds)
sends the drawn tile back to the wall.  The claim checks judge whether that was
allowed; the engine only follows what the log records.  (A tuple: one is made
at nearly every draw.)"""


@dataclasses.dataclass(slots=True)
class _CallUndo:
    """A call that a second call of the same discard replaces (``claim.precedence``)."""

    seat: Seat
    meld: Meld
    consumed: tuple[Tile, ...]
    entry: RiverTile
    current: Seat | None
    first_go_around: bool


def replay(game: Game, rules: RuleSet, *, enabled: Callable[[str], bool] | None = None,
           ) -> ReplayResult:
    """Replay ``game`` under ``rules`` and return the findings and per-hand facts.

    :param enabled: keep only the checks with a rule id for which this returns true.
    """
    with collector_paused():
        return Replayer(game, rules, enabled=enabled).run()


class Replayer:
    """Step-by-step replay; :func:`replay` is the usual entry point."""

    def __init__(self, game: Game, rules: RuleSet, *,
                 enabled: Callable[[str], bool] | None = None) -> None:
        self.game = game
        self.rules = rules
        self.state = GameState(rules=rules)
        self.ctx = CheckContext(game=self.state, rules=rules,
                                own_rules=RuleSet.auto(game.hints), log=game)
        self._before = dispatch_table("before", enabled)
        self._after = dispatch_table("after", enabled)
        self.violations: list[Violation] = []
        self.hands: list[HandRecord] = []
        self.hand: HandRecord | None = None
        self.index = -1
        self.complete = False
        self.unchecked = 0
        self.final_scores: tuple[int, ...] | None = None
        self.final_points: tuple[float, ...] | None = None
        self.ledger: list[Transfer] = []
        self.wins_valued = 0
        self.hands_compared = 0
        self._desync_violation: Violation | None = None
        self._drawn: _DrawUndo | None = None
        self._called: _CallUndo | None = None
        self._tracker = Tracker(rules)
        self._pipeline: dict[type, tuple[int, tuple[CheckFn, ...], _ApplyFn, TrackFn | None,
                                         tuple[CheckFn, ...]]] = {
            kind: (1 if kind in _ACTOR_ONLY else 2 if kind in _SEATED else 0,
                   self._before.get(kind, ()), apply, TRACK.get(kind),
                   self._after.get(kind, ()))
            for kind, apply in _APPLY.items()}
        """Per event type: how its seats are checked (0 none, 1 the actor only, 2 every
        seat field), the before-checks, the state update, the hand tracker and the
        after-checks, looked up once per event.  Plain functions, not bound methods: a
        replayer holding its own bound methods is a reference cycle, and all of a game
        (every event, every river tile) would then wait for the cyclic garbage collector
        instead of going when the replay's result is returned."""
        self._players = rules.players

    # -- driving -----------------------------------------------------------------

    def run(self) -> ReplayResult:
        self.start()
        step = self.step
        for ev in self.game.events:
            step(ev)
        return self.finish()

    def start(self) -> None:
        """Report the log's own warnings before its first event."""
        for d in self.game.diagnostics:
            if d.level == "warning" and d.rule != "log.truncated":  # that one: in finish
                self.ctx.event = None
                v = self.ctx.violation(d.rule, d.message)
                self._emit(dataclasses.replace(v, src=d.src))

    def step(self, ev: Event) -> None:
        self.index = index = self.index + 1
        ctx = self.ctx
        ctx.index = index
        ctx.event = ev
        kind = ev.__class__
        rs = self.state.round
        if rs is None or self.complete or kind is StartKyoku or kind is EndGame:
            if rs is not None and rs.desync is not None and kind is not StartKyoku \
                    and kind is not EndGame:
                rs.unchecked += 1  # (the game is over, but the hand was already lost)
                return
            if self.complete:
                self._emit(ctx.violation("log.out-of-order",
                                         f"{kind.__name__} after the end of the game"))
                return
            if kind is StartKyoku or kind is EndGame:
                self._settle()  # a hand without EndKyoku: settle it before anything looks back
            elif rs is None:
                self._emit(ctx.violation(
                    "log.out-of-order", f"{kind.__name__} before the first hand starts"))
                return
        elif rs.desync is not None:
            rs.unchecked += 1
            return
        seated, before, apply, track, after = self._pipeline[kind]
        if seated:
            players = self._players
            if seated == 2 or not 0 <= ev.actor < players:  # type: ignore[union-attr,operator]
                problem = seat_problem(ev, players)
                if problem is not None:  # (rs is set: seated events before a hand returned)
                    self._desync("log.out-of-order", problem, None)
                    return
        if before:
            violations = self.violations
            for fn in before:
                found = fn(ctx, ev)
                if found:
                    violations.extend(found)
        if kind not in _KEEPS_UNDO:
            self._drawn = None
            self._called = None
        apply(self, ev)
        rs = self.state.round
        if rs is not None and rs.desync is None:
            if track is not None:
                track(self._tracker, rs, ev, self.hand, index)
            if after:
                violations = self.violations
                for fn in after:
                    found = fn(ctx, ev)
                    if found:
                        violations.extend(found)
        elif rs is None:
            for fn in after:
                found = fn(ctx, ev)
                if found:
                    self.violations.extend(found)

    def _run(self, fns: tuple[CheckFn, ...], ev: Event | Settlement) -> None:
        for fn in fns:
            found = fn(self.ctx, ev)
            if found:
                self.violations.extend(found)

    def finish(self) -> ReplayResult:
        rs = self.state.round
        mid_hand = rs is not None and not rs.ended
        self._settle()
        self._close_hand()
        cuts = [d for d in self.game.diagnostics
                if d.level == "warning" and d.rule == "log.truncated"]
        if not self.complete or cuts:
            where = "mid-hand" if mid_hand else "before the end of the game"
            self.ctx.index = self.index
            self.ctx.event = self.game.events[-1] if self.game.events else None
            stops = [] if self.complete else [
                f"the log stops {where}, after {self.index + 1} events; "
                "replayed as far as it goes"]
            v = self.ctx.violation("log.truncated", "; ".join([d.message for d in cuts] + stops))
            self._emit(dataclasses.replace(v, src=cuts[0].src) if cuts else v)
        self.violations.sort(key=lambda v: -1 if v.event is None else v.event)
        self.violations = fold_unknown_rules(self.violations, self.rules)
        return ReplayResult(
            source=self.game.source, index=self.game.index, format=self.game.format,
            rules=self.rules.name, players=self.game.hints.players,
            names=tuple(p.name for p in self.game.players), log_id=self.game.log_id,
            events=self.index + 1, hands=self.hands, violations=self.violations,
            complete=self.complete, final_scores=self.final_scores,
            final_points=self.final_points, unchecked=self.unchecked,
            ledger=self.ledger, wins_valued=self.wins_valued,
            hands_compared=self.hands_compared,
        )

    # -- reporting helpers -------------------------------------------------------

    def _emit(self, v: Violation) -> None:
        self.violations.append(v)

    def _desync(self, rule: str, message: str, seat: Seat | None) -> None:
        """Report that the hand can no longer be followed; the rest of it is skipped."""
        rs = self.state.round
        assert rs is not None
        rs.desync = message
        self._desync_violation = self.ctx.violation(rule, message, seat=seat)

    def _close_hand(self) -> None:
        rs = self.state.round
        if rs is None:
            return
        if rs.desync is not None and self._desync_violation is not None:
            v = self._desync_violation
            self._emit(dataclasses.replace(
                v, message=f"{v.message}; the state is lost, so the rest of the hand "
                           f"({rs.unchecked} events) was not checked"))
            self._desync_violation = None
            self.unchecked += rs.unchecked
        if self.hand is not None:
            self.hand.last_event = self.index
            self.hand.unchecked = rs.unchecked
            self.hand.turns = max(p.draws for p in rs.players)
            self.hand.tenpai_turn = [p.tenpai_turn for p in rs.players]
            self.hand.tenpai_end = [None if p.waits < 0 else p.tenpai for p in rs.players]
            if self.state.scores is not None:
                self.hand.end_scores = tuple(self.state.scores)
        self.hand = None

    def _check_size(self, p: PlayerState, expected: int, doing: str) -> None:
        if p.size != expected and not p.size_reported:
            p.size_reported = True
            self._emit(self.ctx.violation(
                "tiles.hand-size",
                f"seat {p.seat} {doing} holding {p.size} tiles "
                f"({p.concealed_count} concealed, {len(p.melds)} melds); "
                f"{expected} expected", seat=p.seat))

    def _see(self, rs: RoundState, tiles: Iterable[Tile | None]) -> None:
        """Count tiles whose identity became known; report a fifth copy once per kind."""
        seen = rs.seen37
        for t in tiles:
            if t is None:
                continue
            code = t.code
            seen[code] += 1
            # counts only grow within a hand: report the fifth copy (and the second red
            # five) once, not every copy after it (a dealt hand of thousands of one tile
            # made thousands of findings, each with a snapshot of that hand)
            if code < 34:
                if code in _FIVES:
                    total = seen[code] + seen[_FIVES[code]]
                    bad = total == 5
                else:
                    total = seen[code]
                    bad = total == 5
            else:
                total = seen[code] + seen[_RED_OF[code]]
                bad = total == 5 or seen[code] == 2
            if bad:
                kind = BY_VALUE[t.index]
                self._emit(self.ctx.violation(
                    "tiles.conservation",
                    f"{total} copies of {kind} are in play (a set has four)"
                    if total > 4 else f"a second red {kind} is in play"))

    def _take(self, p: PlayerState, tile: Tile, what: str) -> bool:
        """Remove ``tile`` from ``p``'s hand, or report and lose sync."""
        hidden_before = p.hidden
        if p.remove(tile):
            if p.hidden < hidden_before:
                self._see(self._rs, (tile,))
            return True
        self._desync("tiles.not-in-hand",
                     f"seat {p.seat} {what} {tile}, but holds {self._hand_text(p)}", p.seat)
        return False

    @staticmethod
    def _hand_text(p: PlayerState) -> str:
        text = format_tiles(p.concealed_tiles()) or "no known tiles"
        if p.hidden:
            text += f" and {p.hidden} hidden"
        return text

    @property
    def _rs(self) -> RoundState:
        rs = self.state.round
        assert rs is not None
        return rs

    # -- events ------------------------------------------------------------------

    def _start_kyoku(self, ev: StartKyoku) -> None:
        st = self.state
        prev = st.round
        if prev is not None and not prev.ended and prev.desync is None:
            self._emit(self.ctx.violation(
                "log.truncated",
                f"hand {prev.label} stops without a result; the next hand starts"))
        self._close_hand()
        if self.index in self.game.assumed_scores:
            # the log gave no scores here: the rule set's start, then the replay's own
            scores = st.scores if st.scores is not None and prev is not None else \
                [self.rules.start_score] * self.rules.players
            ev = dataclasses.replace(ev, scores=tuple(scores))
        if st.scores is not None and tuple(st.scores) != ev.scores:
            diff = [b - a for a, b in zip(st.scores, ev.scores, strict=False)]
            self._emit(self.ctx.violation(
                "flow.scores",
                f"hand starts with scores {list(ev.scores)}, but the previous hand ended "
                f"with {st.scores} (difference {diff})"))
        st.scores = list(ev.scores)
        st.honba = ev.honba
        st.kyotaku = ev.kyotaku
        rs = RoundState.initial(ev, self.rules)
        st.round = rs
        self.ctx.wins = []
        st.hands_played += 1
        self.hand = HandRecord(
            label=rs.label, bakaze=ev.bakaze, kyoku=ev.kyoku, honba=ev.honba,
            kyotaku=ev.kyotaku, oya=ev.oya, start_scores=ev.scores,
            first_event=self.index, calls=[0] * self.rules.players)
        self.hands.append(self.hand)
        for p, tiles in zip(rs.players, ev.tehais, strict=False):
            if len(tiles) != 13:
                p.size_reported = True
                self._emit(self.ctx.violation(
                    "tiles.hand-size", f"seat {p.seat} is dealt {len(tiles)} tiles, not 13",
                    seat=p.seat))
            self._see(rs, tiles)
        self._see(rs, (ev.dora_marker,))
        n = self.rules.players
        if not 0 <= ev.oya < n or len(ev.scores) != n or len(ev.tehais) != n:
            self._desync("log.out-of-order",
                         f"hand {rs.label} starts with dealer seat {ev.oya}, "
                         f"{len(ev.scores)} scores and {len(ev.tehais)} hands in a "
                         f"{n}-player game", None)
            st.scores = None
        elif max(map(len, ev.tehais), default=0) > 14:  # past a dealing slip: nothing to follow
            self._desync("log.out-of-order",
                         f"hand {rs.label} deals {max(map(len, ev.tehais))} tiles to one seat",
                         None)

    def _tsumo(self, ev: Tsumo) -> None:
        rs = self.state.round
        assert rs is not None
        actor = ev.actor
        if rs.ended:
            self._desync("log.out-of-order", f"seat {actor} draws after the hand ended", actor)
            return
        p = rs.players[actor]
        last = rs.last_discard
        rinshan = rs.after_kan and rs.current == actor
        if not rinshan:
            expected: int | None
            if last is None:
                expected = rs.start.oya if all(q.draws == 0 for q in rs.players) else None
            elif rs.current != last.seat:
                expected = None  # a call happened after the discard; the caller discards next
            else:
                expected = (last.seat + 1) % self._players
            if expected is not None and actor != expected:
                self._desync("log.out-of-order",
                             f"seat {actor} draws, but it is seat {expected}'s turn to draw",
                             actor)
                return
            if rs.live_wall <= 0:
                self._desync("log.out-of-order", f"seat {actor} draws from an empty wall",
                             actor)
                return
        if p.known_count + p.hidden + 3 * len(p.melds) != 13:
            self._check_size(p, 13, "draws")
        if rs.live_wall > 0:  # a replacement after a kan on the last tile (kan.last-tile)
            rs.live_wall -= 1
        tile = ev.tile
        self._drawn = None
        if not rinshan and last is not None and last.claimable:
            self._drawn = (actor, tile, rs.current, rs.first_go_around)
        if tile is None:
            p.hidden += 1
        else:
            p.c37[tile.code] += 1
            p.c34[tile.index] += 1
            p.known_count += 1
        p.last_draw = tile
        if not rinshan:
            p.draws += 1
            if p.draws > 1:
                rs.first_go_around = False
        if last is not None:
            last.claimable = False
        if rs.kakan is not None:  # the added kan was not robbed: now it breaks ippatsu
            rs.kakan = None
            for q in rs.players:
                q.ippatsu = False
        rs.current = actor
        rs.after_kan = False
        rs.rinshan_draw = rinshan
        if tile is not None:
            seen = rs.seen37
            code = tile.code
            seen[code] += 1
            if seen[code] > 1 and (code in _FIVES or code in _RED_OF or seen[code] > 4):
                seen[code] -= 1
                self._see(rs, (tile,))  # the full count, with the red fives

    def _undo_draw(self, rs: RoundState) -> None:
        """A claim right after a wall draw: the drawn tile goes back to the wall."""
        d = self._drawn
        if d is None:
            return
        self._drawn = None
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

    def _undo_call(self, rs: RoundState) -> None:
        """A second call of the same discard: the first one is taken back."""
        c = self._called
        assert c is not None
        self._called = None
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
        if self.hand is not None:
            self.hand.calls[c.seat] -= 1

    def _claimed_entry(self, rs: RoundState, target: PlayerState, tile: Tile,
                       ) -> RiverTile | None:
        """The river tile a call takes: the target's last discard, or failing that an
        older one still in the river (``claim.late`` reports it), or ``None``."""
        river = target.river
        if not river:
            return None
        last = river[-1]
        if last.tile is tile:
            if last.called_by is None:
                return last
            if self._called is not None and self._called.entry is last:
                self._undo_call(rs)  # claim.precedence reports the two calls
                return last
            return None
        for entry in reversed(river):
            if entry.tile is tile and entry.called_by is None:
                return entry
        return None

    def _next_drawer(self, rs: RoundState) -> Seat | None:
        """Who draws next from the wall, or ``None`` when it cannot be told."""
        last = rs.last_discard
        if last is None:
            return rs.start.oya if all(p.draws == 0 for p in rs.players) else None
        if rs.current != last.seat:
            return None  # a call happened after the discard; the caller discards next
        return Seat((last.seat + 1) % self.rules.players)

    def _dahai(self, ev: Dahai) -> None:
        rs = self.state.round
        assert rs is not None
        actor = ev.actor
        tile = ev.tile
        p = rs.players[actor]
        if rs.ended or rs.current != actor:
            who = "after the hand ended" if rs.ended else f"on seat {rs.current}'s turn"
            self._desync("log.out-of-order", f"seat {actor} discards {tile} {who}", actor)
            return
        if p.known_count + p.hidden + 3 * len(p.melds) != 14:
            self._check_size(p, 14, "discards")
        c37 = p.c37
        code = tile.code
        if c37[code] > 0:  # the usual case of PlayerState.remove, inline
            c37[code] -= 1
            p.c34[tile.index] -= 1
            p.known_count -= 1
        elif not self._take(p, tile, "discards"):
            return
        riichi = p.riichi_pending and p.riichi_discard_index is None
        river = p.river
        river.append(RiverTile(tile, ev.tsumogiri, riichi))
        if riichi:
            p.riichi_discard_index = len(river) - 1
        p.discarded34[tile.index] = True
        p.last_draw = None
        if p.riichi:
            p.ippatsu = False  # the first discard after the declaration ends the window
        rs.last_discard = LastDiscard(actor, tile, self.index, True, rs.live_wall == 0, ev.time)
        rs.after_kan = False
        rs.rinshan_draw = False

    def _call(self, ev: Chi | Pon | Daiminkan) -> None:
        rs = self._rs
        p = rs.players[ev.actor]
        name = type(ev).__name__.lower()
        last = rs.last_discard
        target = rs.players[ev.target] if 0 <= ev.target < len(rs.players) else None
        entry = None
        if not rs.ended and target is not None and ev.target != ev.actor:
            entry = self._claimed_entry(rs, target, ev.tile)
        if entry is None:
            shown = (f"{target.river[-1].tile}" if target is not None and target.river
                     else "nothing")
            self._desync("log.out-of-order",
                         f"seat {ev.actor} calls {name} on {ev.tile} from seat {ev.target}, "
                         f"whose last discard is {shown}", ev.actor)
            return
        self._undo_draw(rs)  # a claim after the next draw (claim.late judges it)
        self._check_size(p, 13, f"calls {name}")
        if self._remove_all(p, ev.consumed, f"calls {name} with") is False:
            return
        entry.called_by = ev.actor
        mtype = {Chi: MeldType.CHI, Pon: MeldType.PON}.get(type(ev), MeldType.DAIMINKAN)
        meld = Meld(type=mtype, tiles=(*ev.consumed, ev.tile), called=ev.tile,
                    target=ev.target)
        p.melds.append(meld)
        self._called = _CallUndo(seat=ev.actor, meld=meld, consumed=ev.consumed, entry=entry,
                                 current=rs.current, first_go_around=rs.first_go_around)
        if last is not None:
            last.claimable = False
        rs.current = ev.actor
        rs.first_go_around = False
        p.last_draw = None
        for q in rs.players:
            q.ippatsu = False
        if mtype is MeldType.DAIMINKAN:
            rs.kans += 1
            rs.after_kan = True
        if self.hand is not None:
            self.hand.calls[ev.actor] += 1

    def _remove_all(self, p: PlayerState, tiles: tuple[Tile, ...], what: str) -> bool:
        hidden_before = p.hidden
        missing = p.remove_all(tiles)
        if missing is not None:
            self._desync("tiles.not-in-hand",
                         f"seat {p.seat} {what} {format_tiles(tiles)}, but holds "
                         f"{self._hand_text(p)} (no {missing})", p.seat)
            return False
        if p.hidden < hidden_before:
            # a one-seat log reveals tiles the player held unseen
            self._see(self._rs, tiles[: hidden_before - p.hidden])
        return True

    def _kakan_ev(self, ev: Kakan) -> None:
        rs = self._rs
        p = rs.players[ev.actor]
        if rs.ended or rs.current != ev.actor:
            self._desync("log.out-of-order", f"seat {ev.actor} calls kakan out of turn",
                         ev.actor)
            return
        at = added_kan_base(p.melds, ev.tile)
        if at is None:
            self._desync("tiles.not-in-hand",
                         f"seat {ev.actor} adds {ev.tile} to a pon it does not have", ev.actor)
            return
        self._check_size(p, 14, "calls kakan")
        if not self._take(p, ev.tile, "adds to a kan"):
            return
        p.melds[at] = p.melds[at].kakan(ev.tile)
        rs.kans += 1
        rs.after_kan = True
        p.last_draw = None
        rs.kakan = (ev.actor, ev.tile)  # robbable until the replacement draw

    def _ankan(self, ev: Ankan) -> None:
        rs = self._rs
        p = rs.players[ev.actor]
        if rs.ended or rs.current != ev.actor:
            self._desync("log.out-of-order", f"seat {ev.actor} calls ankan out of turn",
                         ev.actor)
            return
        self._check_size(p, 14, "calls ankan")
        if not self._remove_all(p, ev.consumed, "calls ankan with"):
            return
        p.melds.append(Meld(type=MeldType.ANKAN, tiles=ev.consumed))
        rs.kans += 1
        rs.after_kan = True
        rs.first_go_around = False
        p.last_draw = None
        for q in rs.players:
            q.ippatsu = False

    def _nukidora(self, ev: Nukidora) -> None:
        rs = self._rs
        p = rs.players[ev.actor]
        if rs.ended or rs.current != ev.actor:
            self._desync("log.out-of-order", f"seat {ev.actor} extracts North out of turn",
                         ev.actor)
            return
        if not self._take(p, ev.tile, "extracts"):
            return
        p.nukidora += 1
        p.last_draw = None
        rs.after_kan = True  # a replacement tile follows

    def _reach(self, ev: Reach) -> None:
        rs = self._rs
        p = rs.players[ev.actor]
        p.riichi_pending = True
        p.riichi_discard_index = None
        if self.hand is not None:
            self.hand.riichi.append(RiichiRecord(seat=ev.actor, turn=p.draws, event=self.index))

    def _reach_accepted(self, ev: ReachAccepted) -> None:
        rs = self._rs
        st = self.state
        p = rs.players[ev.actor]
        p.riichi_pending = False
        p.riichi = True
        p.riichi_turn = p.draws
        p.ippatsu = True
        p.double_riichi = rs.first_go_around and p.draws <= 1
        rs.riichi_count += 1
        st.kyotaku += 1
        self.ledger.append(Transfer(hand=self._hand_no, event=self.index, payer=ev.actor,
                                    payee=None, amount=RIICHI_STICK,
                                    reason=Reason.RIICHI_DEPOSIT))
        if st.scores is not None:
            st.scores[ev.actor] -= RIICHI_STICK
            if ev.scores is not None and tuple(st.scores) != ev.scores:
                self._emit(self.ctx.violation(
                    "flow.scores",
                    f"after seat {ev.actor}'s riichi stick the log shows scores "
                    f"{list(ev.scores)}; the replay has {st.scores}", seat=ev.actor))
                # follow the log from here, unless it shows another number of seats
                st.scores = list(ev.scores) if len(ev.scores) == len(st.scores) else None
        if self.hand is not None:
            for r in reversed(self.hand.riichi):
                if r.seat == ev.actor:
                    r.accepted = True
                    if p.riichi_discard_index is not None:
                        r.tile = p.river[p.riichi_discard_index].tile
                    break

    def _dora(self, ev: Dora) -> None:
        rs = self._rs
        rs.dora_markers.append(ev.dora_marker)
        self._see(rs, (ev.dora_marker,))

    def _hora(self, ev: Hora) -> None:
        rs = self._rs
        st = self.state
        if ev.actor != ev.target:
            self._undo_draw(rs)  # a ron after the next draw (claim.late judges it)
        entry = self._value_win(rs, ev)
        first = not rs.ended
        rs.ended = True
        if first and ev.ura_markers:
            self._see(rs, ev.ura_markers)
        if ev.deltas is not None and len(ev.deltas) == self.rules.players:
            if st.scores is not None:
                st.scores = [s + d for s, d in zip(st.scores, ev.deltas, strict=True)]
        elif entry.points is None:
            st.scores = None  # no deltas and no value to compute them from
        # else: the computed deltas are applied when the hand is settled
        st.kyotaku = 0
        if self.hand is not None:
            self.hand.complete = True
            v = entry.value if entry.value is not None and entry.value.error is None else None
            self.hand.wins.append(WinRecord(
                actor=ev.actor, target=ev.target, tile=ev.tile,
                turn=rs.players[ev.actor].draws, deltas=ev.deltas, pao=ev.pao,
                han=v.han if v else None, fu=v.fu if v else None,
                points=v.points if v else None, limit=v.limit if v else None,
                liable=entry.liable, claimed_points=ev.points))

    def _value_win(self, rs: RoundState, ev: Hora) -> WinEntry:
        """The win as the replay sees it, before the state records it (RULESETS rows 4-16)."""
        st = self.state
        rules = self.rules
        ws = win_situation(st, ev, rules)
        value = hand_value(ws, rules) if ws is not None else None
        liable = None
        liable_yaku: tuple[Yaku, ...] = ()
        if value is not None and value.error is None:
            self.wins_valued += 1
            assert ws is not None
            liable, liable_yaku = liability(ws.melds, [y for y, _ in value.yaku], rules)
        wins = self.ctx.wins
        kyotaku = wins[0].kyotaku if wins else st.kyotaku
        entry = WinEntry(
            event=ev, index=self.index, situation=ws, value=value,
            claim=claimed_value(ev.yaku, ev.han, ev.fu, rules), liable=liable,
            liable_yaku=liable_yaku, honba=st.honba, kyotaku=kyotaku,
            riichi=rs.players[ev.actor].riichi)
        wins.append(entry)
        mark_extra(wins, rules, self.index)
        return entry

    @property
    def _hand_no(self) -> int | None:
        return len(self.hands) - 1 if self.hand is not None else None

    def _settle(self) -> None:
        """Price the hand's wins once all of them are known; apply computed deltas where the
        log gives none; record the transfers; run the checks of the settlement."""
        rs = self.state.round
        if rs is None or rs.settled or not self.ctx.wins or rs.desync is not None:
            return
        rs.settled = True
        settlement = settle_wins_of_hand(self.ctx.wins, dealer=rs.start.oya, rules=self.rules,
                                         hand=self._hand_no)
        st = self.state
        for w in settlement.wins:
            if w.logged is None and st.scores is not None:
                if w.expected is None:
                    st.scores = None
                    break
                st.scores = [s + d for s, d in zip(st.scores, w.expected.deltas, strict=True)]
        self._record(settlement)

    def _record(self, settlement: Settlement) -> None:
        self.ledger.extend(settlement.transfers)
        if settlement.compared:
            self.hands_compared += 1
        fns = self._after.get(Settlement)
        if fns:
            self._run(fns, settlement)

    def _ryukyoku(self, ev: Ryukyoku) -> None:
        rs = self._rs
        st = self.state
        rs.ended = True
        rs.draw = ev
        rs.settled = True
        settlement = settle_draw(rs, ev, self.index, rules=self.rules, hand=self._hand_no)
        expected = settlement.draw.expected if settlement.draw is not None else None
        deltas = ev.deltas if ev.deltas is not None else (
            expected.deltas if expected is not None else None)
        if deltas is not None and st.scores is not None and len(deltas) == len(st.scores):
            st.scores = [s + d for s, d in zip(st.scores, deltas, strict=True)]
        elif deltas is not None or not self._no_payment(ev):
            st.scores = None  # payments happened that the log does not show
        self._record(settlement)
        if self.hand is not None:
            self.hand.complete = True
            self.hand.draw = ev.reason
            self.hand.draw_deltas = ev.deltas
            self.hand.tenpai_claim = ev.tenpai

    @staticmethod
    def _no_payment(ev: Ryukyoku) -> bool:
        """True when the draw moves no points: abortive, or everyone (not) tenpai."""
        if ev.reason.is_abortive:
            return True
        return ev.tenpai is not None and len(set(ev.tenpai)) == 1

    def _end_kyoku(self, ev: EndKyoku) -> None:
        rs = self._rs
        if not rs.ended:
            self._desync("log.out-of-order", "the hand ends without a win or a draw", None)
            return
        self._settle()

    def _end_game(self, ev: EndGame) -> None:
        st = self.state
        rs = st.round
        if rs is not None and not rs.ended and rs.desync is None:
            self._emit(self.ctx.violation(
                "log.truncated", f"the game ends during hand {rs.label}, without its result"))
        self.complete = True
        self.final_scores = ev.scores
        self.final_points = ev.points
        if st.scores is not None and out_of_range(st.scores):
            self._emit(self.ctx.violation(
                "score.final", f"the replayed scores are beyond any game's range: "
                               f"{str(list(st.scores))[:80]}; the final points are not priced"))
        elif st.scores is not None:
            final = final_result(st.scores, st.kyotaku, rules=self.rules, event=self.index)
            self.ledger.extend(final.transfers)
        if ev.scores is None or st.scores is None:
            return
        expected = list(st.scores)
        note = f"with {st.kyotaku} riichi sticks left on the table"
        if st.kyotaku and self.rules.leftover_sticks_to_top:
            top = max(range(len(expected)), key=lambda s: (expected[s], -s))
            expected[top] += RIICHI_STICK * st.kyotaku
            note = f"after seat {top} (top) takes the {st.kyotaku} leftover riichi sticks"
        if tuple(expected) != ev.scores:
            self._emit(self.ctx.violation(
                "flow.scores",
                f"the game ends with scores {list(ev.scores)}, but the replay gives "
                f"{expected} {note}"))


_ApplyFn = Callable[[Replayer, Any], None]
_APPLY: dict[type, _ApplyFn] = {
    StartKyoku: Replayer._start_kyoku,
    Tsumo: Replayer._tsumo,
    Dahai: Replayer._dahai,
    Chi: Replayer._call,
    Pon: Replayer._call,
    Daiminkan: Replayer._call,
    Kakan: Replayer._kakan_ev,
    Ankan: Replayer._ankan,
    Nukidora: Replayer._nukidora,
    Reach: Replayer._reach,
    ReachAccepted: Replayer._reach_accepted,
    Dora: Replayer._dora,
    Hora: Replayer._hora,
    Ryukyoku: Replayer._ryukyoku,
    EndKyoku: Replayer._end_kyoku,
    EndGame: Replayer._end_game,
}
"""The state update of each event type, called with the replayer and the event."""
