"""The replay engine: walk a game's events, keep the state, run the checks.

The engine never raises on a rule break.  It records a
:class:`~kansa.replay.violations.Violation` and goes on; when the state can no longer
be followed (a discard of a tile the player never had) it reports that once,
skips the rest of the hand, counts the events it did not check, and starts the
next hand fresh.

Its parts: :mod:`~kansa.replay.transitions` changes the state, one function per
event kind; :mod:`~kansa.replay.conservation` counts tiles and hand sizes;
:mod:`~kansa.replay.undo` takes back a draw or a call a late claim replaces;
:mod:`~kansa.replay.recorder` writes the per-hand facts and
:mod:`~kansa.replay.accounts` the payments.  The :class:`Replayer` here drives
them and the registered checks, event by event.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any, Final

from kansa.replay import checks as _checks  # noqa: F401  (registers the catalog)
from kansa.replay import conservation, transitions
from kansa.replay.accounts import Accounts
from kansa.replay.checks.registry import CheckFn, dispatch_table
from kansa.replay.checks.ruleset import fold_unknown_rules
from kansa.replay.checks.wall import close_walls
from kansa.replay.conservation import ACTOR_ONLY, SEATED
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
from kansa.replay.melds import added_kan_base
from kansa.replay.payments import RIICHI_STICK, out_of_range
from kansa.replay.recorder import Recorder
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.settle import Settlement
from kansa.replay.state import GameState, PlayerState, RoundState
from kansa.replay.tiles import Seat, Tile
from kansa.replay.tracker import TRACK, TrackFn
from kansa.replay.undo import KEEPS_UNDO, CallUndo, DrawUndo, claimed_entry, undo_call, undo_draw
from kansa.replay.violations import Violation

# Final names of the classes every event is tested against: compiled, these are C statics,
# where a name imported from a Python module (the vocabulary) is a dict lookup per use.
_START_KYOKU: Final = StartKyoku
_END_GAME: Final = EndGame


def replay(game: Game, rules: RuleSet, *, enabled: Callable[[str], bool] | None = None,
           ) -> ReplayResult:
    """Replay ``game`` under ``rules`` and return the findings and per-hand facts.

    :param enabled: keep only the checks with a rule id for which this returns true.

    A loop over :meth:`Replayer.push` without its slice of each event's findings.
    The garbage collector is left as it is: pausing it over a batch of games is the
    application's choice (:mod:`kansa.replay.collector`, used by ``kansa.runner``).
    """
    table = Replayer(game, rules, enabled=enabled)
    table.start()
    for ev in game.events:
        table._step(ev)
    return table.finish()


class Replayer:
    """Step-by-step replay; :func:`replay` is the usual entry point.

    With ``validate``, the state is checked after every event
    (:meth:`RoundState.validate`) and what is wrong is kept in :attr:`invalid`: a test
    of the engine itself, off in normal runs.
    """

    def __init__(self, game: Game, rules: RuleSet, *,
                 enabled: Callable[[str], bool] | None = None, validate: bool = False,
                 ) -> None:
        rules = rules.seated(game.hints)
        self.game = game
        self.rules = rules
        self.state = GameState(rules=rules)
        self.ctx = CheckContext(game=self.state, rules=rules,
                                own_rules=RuleSet.auto(game.hints), log=game)
        self._before = dispatch_table("before", enabled)
        self._after = dispatch_table("after", enabled)
        self.violations: list[Violation] = []
        self.recorder = Recorder(rules)
        self._tracker = self.recorder.tracker  # (read at every event)
        self.accounts = Accounts(rules)
        self.index = -1
        self.complete = False
        self.unchecked = 0
        self.final_scores: tuple[int, ...] | None = None
        self.final_points: tuple[float, ...] | None = None
        self._desync_violation: Violation | None = None
        self._drawn: DrawUndo | None = None
        self._called: CallUndo | None = None
        self._pipeline: dict[type, tuple[int, tuple[CheckFn, ...], _ApplyFn, TrackFn | None,
                                         tuple[CheckFn, ...]]] = {
            kind: (1 if kind in ACTOR_ONLY else 2 if kind in SEATED else 0,
                   self._before.get(kind, ()), apply, TRACK.get(kind),
                   self._after.get(kind, ()))
            for kind, apply in _APPLY.items()}
        """Per event type: how its seats are checked (0 none, 1 the actor only, 2 all),
        the before-checks, the state update, the tracker and the after-checks.  Plain
        functions, not bound methods: those would make the replayer a reference cycle,
        and the whole game would wait for the cyclic garbage collector to go."""
        self._players = rules.players
        self._validate = validate
        self.invalid: list[tuple[int, str]] = []
        """With ``validate``: (event index, problem) for each inconsistent state."""

    # -- driving -----------------------------------------------------------------

    def start(self) -> None:
        """Report the log's own warnings before its first event."""
        for d in self.game.diagnostics:
            if d.level == "warning" and d.rule != "log.truncated":  # that one: in finish
                self.ctx.event = None
                v = self.ctx.violation(d.rule, d.message)
                self._emit(dataclasses.replace(v, src=d.src))

    def push(self, ev: Event) -> list[Violation]:
        """Apply one event (its checks, its state update, its facts) and return the
        findings it proves."""
        found = self.violations
        before = len(found)
        self._step(ev)
        if self._validate:
            rs = self.state.round
            if rs is not None and rs.desync is None:
                self.invalid.extend((self.index, problem) for problem in rs.validate())
        return found[before:] if len(found) > before else []

    def _step(self, ev: Event) -> None:
        self.index = index = self.index + 1
        ctx = self.ctx
        ctx.index = index
        ctx.event = ev
        kind = type(ev)
        rs = self.state.round
        if rs is None or self.complete or kind is _START_KYOKU or kind is _END_GAME:
            if rs is not None and rs.desync is not None and kind is not _START_KYOKU \
                    and kind is not _END_GAME:
                rs.unchecked += 1  # (the game is over, but the hand was already lost)
                return
            if self.complete:
                self._emit(ctx.violation("log.out-of-order",
                                         f"{kind.__name__} after the end of the game"))
                return
            if kind is _START_KYOKU or kind is _END_GAME:
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
                problem = conservation.seat_problem(ev, players)
                if problem is not None:  # (rs is set: seated events before a hand returned)
                    self._desync("log.out-of-order", problem, None)
                    return
        if before:
            violations = self.violations
            for fn in before:  # (inline, not _run: this runs for every event)
                found = fn(ctx, ev)
                if found:
                    violations.extend(found)
        if kind not in KEEPS_UNDO:
            self._drawn = None
            self._called = None
        apply(self, ev)
        rs = self.state.round
        if rs is not None and rs.desync is None:
            if track is not None:
                track(self._tracker, rs, ev, self.recorder.hand, index)
            if after:
                violations = self.violations
                for fn in after:
                    found = fn(ctx, ev)
                    if found:
                        violations.extend(found)
        elif rs is None and after:
            self._run(after, ev)

    def _run(self, fns: tuple[CheckFn, ...], ev: Event | Settlement) -> None:
        violations = self.violations
        ctx = self.ctx
        for fn in fns:
            found = fn(ctx, ev)
            if found:
                violations.extend(found)

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
            # ctx.event is the last event stepped (a Table's game holds no events)
            stops = [] if self.complete else [
                f"the log stops {where}, after {self.index + 1} events; "
                "replayed as far as it goes"]
            v = self.ctx.violation("log.truncated", "; ".join([d.message for d in cuts] + stops))
            self._emit(dataclasses.replace(v, src=cuts[0].src) if cuts else v)
        self.violations.extend(close_walls(self.ctx.memos, self.state, self.recorder.hands))
        self.violations.sort(key=lambda v: -1 if v.event is None else v.event)
        self.violations = fold_unknown_rules(self.violations, self.rules)
        accounts = self.accounts
        return ReplayResult(
            source=self.game.source, index=self.game.index, format=self.game.format,
            rules=self.rules.name, players=self.game.hints.players,
            names=tuple(p.name for p in self.game.players), log_id=self.game.log_id,
            events=self.index + 1, hands=self.recorder.hands, violations=self.violations,
            complete=self.complete, final_scores=self.final_scores,
            final_points=self.final_points, unchecked=self.unchecked,
            ledger=accounts.ledger, wins_valued=accounts.wins_valued,
            hands_compared=accounts.hands_compared,
            notes=tuple(d for d in self.game.diagnostics if d.level == "info"),
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
        self.recorder.close(self.state, rs, self.index)

    def _check_size(self, p: PlayerState, expected: int, doing: str) -> None:
        problem = conservation.size_problem(p, expected, doing)
        if problem is not None:
            self._emit(self.ctx.violation("tiles.hand-size", problem, seat=p.seat))

    def _conservation(self, problems: list[str]) -> None:
        for message in problems:
            self._emit(self.ctx.violation("tiles.conservation", message))

    def _see(self, rs: RoundState, tiles: Iterable[Tile | None]) -> None:
        """Count tiles whose identity became known; report a fifth copy once per kind."""
        self._conservation(conservation.see(rs.seen37, tiles))

    def _take(self, p: PlayerState, tile: Tile, what: str) -> bool:
        """Take ``tile`` from ``p``'s hand, or report and lose sync."""
        return self._taken(p, what, *conservation.take(p, tile))

    def _take_all(self, p: PlayerState, tiles: tuple[Tile, ...], what: str) -> bool:
        """Take all of ``tiles`` from ``p``'s hand, or report and lose sync."""
        return self._taken(p, what, *conservation.take_all(p, tiles))

    def _taken(self, p: PlayerState, what: str, revealed: tuple[Tile, ...],
               problem: str | None) -> bool:
        if problem is not None:
            self._desync("tiles.not-in-hand", f"seat {p.seat} {what} {problem}", p.seat)
            return False
        if revealed:  # a one-seat log reveals tiles the player held unseen
            self._see(self._rs, revealed)
        return True

    def _out_of_turn(self, rs: RoundState, actor: Seat, what: str) -> bool:
        """Lose sync when ``actor`` acts after the hand's result or on another's turn."""
        if rs.ended or rs.current != actor:
            self._desync("log.out-of-order", f"seat {actor} {what} out of turn", actor)
            return True
        return False

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
        rs = transitions.start_kyoku(st, ev, self.rules)
        self.ctx.wins = []
        self.ctx.memos.new_hand()
        n = self.rules.players
        self.recorder.open(rs, self.index, n)
        for p, tiles in zip(rs.players, ev.tehais, strict=False):
            if len(tiles) != 13:
                p.size_reported = True
                self._emit(self.ctx.violation(
                    "tiles.hand-size", f"seat {p.seat} is dealt {len(tiles)} tiles, not 13",
                    seat=p.seat))
            self._see(rs, tiles)
        self._see(rs, (ev.dora_marker,))
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
        rs = self.state.round  # (not _rs: this runs for every draw)
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
        tile = ev.tile
        self._drawn = None
        if not rinshan and last is not None and last.claimable:
            self._drawn = (actor, tile, rs.current, rs.first_go_around)
        transitions.tsumo(rs, p, tile, rinshan)
        if tile is not None and (problems := conservation.see_one(rs.seen37, tile)):
            self._conservation(problems)

    def _undo_draw(self, rs: RoundState) -> None:
        """A claim right after a wall draw: the drawn tile goes back to the wall."""
        if self._drawn is not None:
            undo_draw(rs, self._drawn)
            self._drawn = None

    def _dahai(self, ev: Dahai) -> None:
        rs = self.state.round  # (not _rs: this runs for every discard)
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
        if (c37 := p.c37)[code := tile.code] > 0:  # PlayerState.remove, inline: every discard
            c37[code] -= 1
            n = p.c34[tile.index] = p.c34[tile.index] - 1
            p.pairs += (n == 2) - (n == 1)
            p.known_count -= 1
        elif not self._take(p, tile, "discards"):
            return
        transitions.dahai(rs, p, ev, self.index)

    def _call(self, ev: Chi | Pon | Daiminkan) -> None:
        rs = self._rs
        p = rs.players[ev.actor]
        name = type(ev).__name__.lower()
        target = rs.players[ev.target] if 0 <= ev.target < len(rs.players) else None
        entry = None
        if not rs.ended and target is not None and ev.target != ev.actor:
            entry, replaces = claimed_entry(target, ev.tile, self._called)
            if replaces:
                assert self._called is not None
                undo_call(rs, self._called)
                self.recorder.call(self._called.seat, -1)
                self._called = None
        if entry is None:
            shown = (f"{target.river[-1].tile}" if target is not None and target.river
                     else "nothing")
            self._desync("log.out-of-order",
                         f"seat {ev.actor} calls {name} on {ev.tile} from seat {ev.target}, "
                         f"whose last discard is {shown}", ev.actor)
            return
        self._undo_draw(rs)  # a claim after the next draw (claim.late judges it)
        self._check_size(p, 13, f"calls {name}")
        if not self._take_all(p, ev.consumed, f"calls {name} with"):
            return
        current, first_go_around = rs.current, rs.first_go_around
        meld = transitions.call(rs, p, ev, entry)
        self._called = CallUndo(seat=ev.actor, meld=meld, consumed=ev.consumed, entry=entry,
                                current=current, first_go_around=first_go_around)
        self.recorder.call(ev.actor)

    def _kakan(self, ev: Kakan) -> None:
        rs = self._rs
        p = rs.players[ev.actor]
        if self._out_of_turn(rs, ev.actor, "calls kakan"):
            return
        at = added_kan_base(p.melds, ev.tile)
        if at is None:
            self._desync("tiles.not-in-hand",
                         f"seat {ev.actor} adds {ev.tile} to a pon it does not have", ev.actor)
            return
        self._check_size(p, 14, "calls kakan")
        if self._take(p, ev.tile, "adds to a kan"):
            transitions.kakan(rs, p, at, ev.tile)

    def _ankan(self, ev: Ankan) -> None:
        rs = self._rs
        p = rs.players[ev.actor]
        if self._out_of_turn(rs, ev.actor, "calls ankan"):
            return
        self._check_size(p, 14, "calls ankan")
        if self._take_all(p, ev.consumed, "calls ankan with"):
            transitions.ankan(rs, p, ev.consumed)

    def _nukidora(self, ev: Nukidora) -> None:
        rs = self._rs
        p = rs.players[ev.actor]
        if self._out_of_turn(rs, ev.actor, "extracts North"):
            return
        if self._take(p, ev.tile, "extracts"):
            transitions.nukidora(rs, p, ev.tile)

    def _reach(self, ev: Reach) -> None:
        p = self._rs.players[ev.actor]
        transitions.reach(p)
        self.recorder.riichi(ev.actor, p.draws, self.index)

    def _reach_accepted(self, ev: ReachAccepted) -> None:
        rs = self._rs
        st = self.state
        p = rs.players[ev.actor]
        transitions.reach_accepted(st, rs, p, ev)
        self.accounts.riichi_deposit(self.recorder.number, self.index, ev.actor)
        if st.scores is not None and ev.scores is not None and tuple(st.scores) != ev.scores:
            self._emit(self.ctx.violation(
                "flow.scores",
                f"after seat {ev.actor}'s riichi stick the log shows scores "
                f"{list(ev.scores)}; the replay has {st.scores}", seat=ev.actor))
            # follow the log from here, unless it shows another number of seats
            st.scores = list(ev.scores) if len(ev.scores) == len(st.scores) else None
        self.recorder.riichi_accepted(p)

    def _dora(self, ev: Dora) -> None:
        rs = self._rs
        transitions.dora(rs, ev.dora_marker)
        self._see(rs, (ev.dora_marker,))

    def _hora(self, ev: Hora) -> None:
        rs = self._rs
        if ev.actor != ev.target:
            self._undo_draw(rs)  # a ron after the next draw (claim.late judges it)
        entry = self.accounts.value_win(self.state, rs, self.ctx.wins, ev, self.index)
        first = not rs.ended
        transitions.hora(rs)
        if first and ev.ura_markers:
            self._see(rs, ev.ura_markers)
        self.accounts.win_scores(self.state, ev, entry)
        self.recorder.win(ev, entry, rs.players[ev.actor].draws)

    def _settle(self) -> None:
        """Settle the hand's wins once all of them are known and run the checks of the
        settlement."""
        rs = self.state.round
        if rs is None:
            return
        settlement = self.accounts.settle_hand(self.state, rs, self.ctx.wins,
                                               self.recorder.number)
        if settlement is not None:
            self._settlement_checks(settlement)

    def _settlement_checks(self, settlement: Settlement) -> None:
        if fns := self._after.get(Settlement):
            self._run(fns, settlement)

    def _ryukyoku(self, ev: Ryukyoku) -> None:
        rs = self._rs
        transitions.ryukyoku(rs, ev)
        settlement = self.accounts.settle_draw(self.state, rs, ev, self.index,
                                               self.recorder.number)
        self._settlement_checks(settlement)
        self.recorder.draw(ev)

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
            self.accounts.final(st.scores, st.kyotaku, self.index)
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
_APPLY: Final[dict[type, _ApplyFn]] = {
    StartKyoku: Replayer._start_kyoku,
    Tsumo: Replayer._tsumo,
    Dahai: Replayer._dahai,
    Chi: Replayer._call, Pon: Replayer._call, Daiminkan: Replayer._call,
    Kakan: Replayer._kakan, Ankan: Replayer._ankan,
    Nukidora: Replayer._nukidora,
    Reach: Replayer._reach, ReachAccepted: Replayer._reach_accepted,
    Dora: Replayer._dora,
    Hora: Replayer._hora,
    Ryukyoku: Replayer._ryukyoku,
    EndKyoku: Replayer._end_kyoku,
    EndGame: Replayer._end_game,
}
"""The state update of each event type, called with the replayer and the event."""
