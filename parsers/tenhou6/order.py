"""Turn order reconstruction for one tenhou.net/6 kyoku (FORMATS.md B.4, D.9).

The log keeps each seat's takes and discards apart; the order of play has to
be found again.  After every discard the next take is either a call of that
discard (a chi/pon/daiminkan naming it and its discarder) or the next seat's
draw.  When one seat discards the same tile twice, a call can belong to either
discard, so this is a depth-first search with backtracking: a wrong choice
soon leaves a seat that must draw holding a call, or a hand that ends with
actions left over.

Kan dora timing (Tenhou): ankan -> Dora -> replacement draw; daiminkan and
kakan -> replacement draw -> Dora -> discard; a kan after a kan first reveals
the earlier kan's indicator (after the chankan chance, before the draw); a
rinshan win or a chankan leaves a pending indicator unrevealed.

An interrupted hand (no result) may stop anywhere once every action is played,
also right after a call or an open kan.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Final

from kansa.parsers.tenhou6.items import (
    ANKAN,
    DRAW,
    KAKAN,
    KAN,
    KITA,
    OP_DAHAI,
    OP_DRAW,
    OP_KAN,
    PON,
    Script,
    Step,
    track,
)
from kansa.parsers.tenhou6.jsontext import Where
from kansa.replay.events import Dora, Event, ReachAccepted, SourceRef
from kansa.replay.game import PEEK_NEXT, SAME_PLACE
from kansa.replay.tiles import Seat, Tile

PEEK_OF_TRACK: Final = tuple([bytes([PEEK_NEXT + t]) for t in range(8)])
"""The order code (one byte) of the element a track gives next, not taken: a riichi
declaration's place, its discard's."""
SAME_PLACE_CODE: Final = bytes([SAME_PLACE])
"""The order code of an event at the place of the one before it."""

SEARCH_BUDGET = 100_000
"""Steps played (over all the orders tried) before the search gives up on a kyoku;
a hand has about 150, so this allows hundreds of tries and bounds a hostile log."""

END_AFTER_TAKE: Final = "take"
"""The hand ended on a seat's draw: tsumo or kyuushu kyuuhai."""
END_AFTER_DISCARD: Final = "discard"
"""The hand ended on a discard: ron, exhaustive or abortive draw."""
END_AFTER_KAN: Final = "kan"
"""The hand ended on a kakan, ankan or nukidora: a robbed kan."""
END_STOP: Final = "stop"
"""An interrupted hand stopped mid-turn: right after a call, or before anyone drew."""


# The values below are made per discard and per kyoku: fields ``Final``, set by a
# written ``__init__`` (as the events' are).

@dataclass(slots=True, init=False)
class Ending:
    kind: Final[str]
    seat: Final[Seat]
    tile: Final[Tile | None]
    """The tile the hand ended on (won on); ``None`` when nothing was played."""
    reach_pending: Final[Seat | None]
    """A riichi whose declaration tile was the last discard (accepted unless ronned)."""

    def __init__(self, kind: str, seat: Seat, tile: Tile | None,
                 reach_pending: Seat | None) -> None:
        self.kind = kind
        self.seat = seat
        self.tile = tile
        self.reach_pending = reach_pending


@dataclass(slots=True, init=False)
class Walk:
    events: Final[list[Event]]
    order: Final[list[bytes]]
    """Where its events without a ``src`` (shared steps' events) were read, one code
    (a byte) each over the seats' tracks (``items.track``, see ``SourceTracks``)."""
    ending: Final[Ending]
    matches_result: Final[bool]
    dora_used: Final[int]
    dora_missing: Final[int]
    riichi: Final[int]
    """Bit mask of the seats whose ReachAccepted is among its events."""

    def __init__(self, events: list[Event], *, order: list[bytes], ending: Ending,
                 matches_result: bool, dora_used: int, dora_missing: int,
                 riichi: int) -> None:
        self.events = events
        self.order = order
        self.ending = ending
        self.matches_result = matches_result
        self.dora_used = dora_used
        self.dora_missing = dora_missing
        self.riichi = riichi


@dataclass(slots=True, init=False)
class _Choice:
    seat: Final[Seat]
    tile: Final[Tile]
    step: Final[int]
    """The discard's place in the seat's script."""

    def __init__(self, seat: Seat, tile: Tile, step: int) -> None:
        self.seat = seat
        self.tile = tile
        self.step = step


@dataclass(slots=True, init=False)
class _Fail:
    message: Final[str]
    src: Final[SourceRef | None]

    def __init__(self, message: str, src: SourceRef | None) -> None:
        self.message = message
        self.src = src


_Snapshot = tuple[tuple[int, ...], Seat | None, int, int, int, int, int, int, int, int]
"""pos, reach_pending, riichi, dora_i, dora_missing, pending, len(events), left,
len(order), calls."""


@dataclass(slots=True, init=False)
class NoOrder:
    """No interleaving of the scripts makes a playable hand: what :meth:`Walker.run`
    answers then.  A value, not an exception: compiled, an ``except`` of an exception
    class defined in a compiled module also catches any exception of its base class."""

    message: Final[str]
    src: Final[SourceRef | None]

    def __init__(self, message: str, src: SourceRef | None) -> None:
        self.message = message
        self.src = src


class _Place:
    """One seat's place in its script: the index of its next step, and that step
    (``None`` past its last)."""

    def __init__(self, steps: list[Step]) -> None:
        self.steps = steps
        self.size = len(steps)
        self.p = 0
        self.head: Step | None = steps[0] if steps else None

    def go(self, p: int) -> None:
        self.p = p
        self.head = self.steps[p] if p < self.size else None


class Walker:
    """Search the order of play of one kyoku."""

    def __init__(self, where: Where, scripts: list[Script], oya: Seat,
                 indicators: list[tuple[Tile, SourceRef]],
                 accepts: Callable[[Ending], bool], *, interrupted: bool = False,
                 events: list[Event] | None = None) -> None:
        self.where = where
        self.scripts = scripts
        self.interrupted = interrupted
        """The hand has no result: it may stop anywhere once every action is played."""
        self.n = len(scripts)
        self.oya = oya
        self.indicators = indicators
        self.accepts = accepts
        self.events: list[Event] = [] if events is None else events
        """The events played, after those ``events`` held (which the walk extends)."""
        self.order: list[bytes] = []
        """Where the events without a ``src`` were read (see :class:`Walk`)."""
        self.places = [_Place(script.steps) for script in scripts]
        """Each seat's place in its script."""
        self.reach_pending: Seat | None = None
        self.riichi = 0
        """Bit mask of seats in riichi (they cannot call)."""
        self.dora_i = 1
        self.dora_missing = 0
        self.pending = 0
        """Open/added kan indicators not revealed yet."""
        left = calls = 0  # (a loop: compiled, sum() of a list is a generic call)
        for script in scripts:
            left += len(script.steps)
            calls += script.calls
        self.left = left
        """Steps not played yet, all seats together."""
        self.total = left
        self.calls = calls
        """Calls (the steps with a target) not played yet."""
        self.undone = 0
        """Steps played and then taken back (see :meth:`work`)."""
        self.budget = SEARCH_BUDGET

    # -- state -----------------------------------------------------------------

    def _snapshot(self) -> _Snapshot:
        return (tuple([place.p for place in self.places]), self.reach_pending, self.riichi,
                self.dora_i, self.dora_missing, self.pending, len(self.events), self.left,
                len(self.order), self.calls)

    def _restore(self, snap: _Snapshot) -> None:
        pos, self.reach_pending, self.riichi, self.dora_i, self.dora_missing, self.pending, \
            n, left, codes, self.calls = snap
        self.undone += left - self.left
        self.left = left
        for place, p in zip(self.places, pos, strict=True):
            place.go(p)
        del self.events[n:]
        del self.order[codes:]

    def _next(self, seat: int) -> Step | None:
        return self.places[seat].head

    def _ref(self, seat: int, p: int) -> SourceRef:
        """Where step ``p`` of seat ``seat``'s script was read."""
        return self.where.ref(self.scripts[seat].pointer(p))

    def work(self) -> int:
        """Steps played so far, backtracked ones included."""
        return self.total - self.left + self.undone

    def _all_done(self) -> bool:
        return self.left == 0

    def _play(self, place: _Place, step: Step) -> None:
        """Play ``step``, the head of ``place``."""
        self.events.append(step.event)
        self.order.append(step.code)
        p = place.p + 1
        place.p = p
        place.head = place.steps[p] if p < place.size else None
        self.left -= 1

    def _dora(self) -> None:
        if self.dora_i < len(self.indicators):
            tile, src = self.indicators[self.dora_i]
            self.events.append(Dora(dora_marker=tile, src=src))
            self.dora_i += 1
        else:
            self.dora_missing += 1

    def _flush(self) -> None:
        while self.pending:
            self.pending -= 1
            self._dora()

    # -- search ----------------------------------------------------------------

    def run(self) -> Walk | NoOrder:
        """The first order of play whose ending matches the result array, or
        :class:`NoOrder` when no order works (or the search budget runs out)."""
        stack: list[tuple[_Snapshot, _Choice, list[tuple[str, Seat]]]] = []
        fallback: Walk | None = None
        best: tuple[int, _Fail] = (-1, _Fail("no playable order", None))
        outcome: _Choice | Ending | _Fail = self._turn(self.oya, via_call=False)
        while True:
            if isinstance(outcome, _Choice):
                options = self._options(outcome)
                if not options:
                    outcome = self._stuck(outcome)
                    continue
                if len(options) > 1:  # only real choices are worth coming back to
                    stack.append((self._snapshot(), outcome, options[1:]))
                outcome = self._apply(options[0], outcome)
                continue
            if isinstance(outcome, Ending):
                if self.accepts(outcome):  # the search ends: its lists are the walk's
                    return Walk(self.events, order=self.order, ending=outcome,
                                matches_result=True, dora_used=self.dora_i - 1,
                                dora_missing=self.dora_missing, riichi=self.riichi)
                if fallback is None:
                    fallback = Walk(list(self.events), order=list(self.order), ending=outcome,
                                    matches_result=False, dora_used=self.dora_i - 1,
                                    dora_missing=self.dora_missing, riichi=self.riichi)
                outcome = _Fail("the hand ends in a way the result array does not describe",
                                None)
            if len(self.events) > best[0]:
                best = (len(self.events), outcome)
            while stack and not stack[-1][2]:
                stack.pop()
            spent = self.work() > self.budget
            if not stack or spent:
                if fallback is not None:
                    return fallback
                if spent:
                    return NoOrder("the order of play is ambiguous beyond the search budget",
                                   best[1].src)
                return NoOrder(best[1].message, best[1].src)
            snap, choice, options = stack[-1]
            self._restore(snap)
            outcome = self._apply(options.pop(0), choice)

    def _options(self, choice: _Choice) -> list[tuple[str, Seat]]:
        a = choice.seat
        if self.left == 0:
            return [("end", a)]
        places = self.places
        s = Seat((a + 1) % self.n)
        step = places[s].head
        draw: list[tuple[str, Seat]] = [("draw", s)] \
            if step is not None and step.take and step.kind == DRAW else []
        pons: list[tuple[str, Seat]] = []
        chis: list[tuple[str, Seat]] = []
        illegal: list[tuple[str, Seat]] = []
        for j in range(self.n):
            # does seat j's next take call the discard (only a call has a target)?
            call = places[j].head
            if j == a or call is None or call.target != a or call.tile is not choice.tile:
                continue
            # a seat in riichi cannot call; tried last, so the replay can report it
            group = illegal if self.riichi >> j & 1 else (
                chis if call.kind not in (PON, KAN) else pons)
            group.append(("call", Seat(j)))
        if not pons and not chis and not illegal:
            return draw  # the usual turn: no call, the next seat draws
        return pons + chis + draw + illegal

    def _drawn_next(self, a: int, tile: Tile) -> bool:
        """Whether the next seat's draw is the only way on after seat ``a``'s discard of
        ``tile``: no seat's next take calls it and actions are left (:meth:`_options`'
        usual answer, found without building it)."""
        if self.left == 0:
            return False
        places = self.places
        if self.calls:  # (no seat's next take can be a call once every call is played)
            for j, place in enumerate(places):
                step = place.head
                if step is not None and step.target == a and j != a and step.tile is tile:
                    return False
        step = places[(a + 1) % self.n].head
        return step is not None and step.op == OP_DRAW

    def _stuck(self, choice: _Choice) -> _Fail:
        a = choice.seat
        s = (a + 1) % self.n
        step = self._next(s)
        if step is None:
            left = [i for i in range(self.n) if self._next(i) is not None]
            return _Fail(f"after seat {a}'s discard of {choice.tile} seat {s} has no take left, "
                         f"but seat {left[0]} still has actions", self._ref(a, choice.step))
        return _Fail(f"after seat {a}'s discard of {choice.tile} seat {s} must draw, but its "
                     f"next action is {step.text!r} and no seat's next take calls that tile",
                     self._ref(s, self.places[s].p))

    def _apply(self, option: tuple[str, Seat], choice: _Choice) -> _Choice | Ending | _Fail:
        what, seat = option
        if what == "end":
            return Ending(END_AFTER_DISCARD, choice.seat, choice.tile, self.reach_pending)
        return self._turn(seat, via_call=what == "call")

    def _accept_reach(self) -> None:
        seat = self.reach_pending
        if seat is not None:
            last = self.events[-1]
            self.events.append(ReachAccepted(actor=seat, src=last.src))
            if last.src is None:  # at the shared discard's place
                self.order.append(SAME_PLACE_CODE)
            self.riichi |= 1 << seat
            self.reach_pending = None

    def _turn(self, a: Seat, *, via_call: bool) -> _Choice | Ending | _Fail:
        """Seat ``a`` takes (draws or calls) and plays on until a discard or the end; while
        no seat can call a discard, the next seat draws and plays on in the same way."""
        events = self.events
        order = self.order
        places = self.places
        while True:  # turn after turn, until a discard gives a choice
            place = places[a]
            step = place.head
            if step is None and self.interrupted and self.left == 0:
                return Ending(END_STOP, a, None, None)  # no one played anything
            if step is None or not step.take:
                return _Fail(f"seat {a} should take a tile but has no take left", None)
            if not via_call and step.op != OP_DRAW:
                return _Fail(f"seat {a} should draw, but its next take is the call {step.text!r}",
                             self._ref(a, place.p))
            if self.reach_pending is not None:
                self._accept_reach()
            if step.target >= 0:
                self.calls -= 1
            # _play, written out here and for the discard below (the usual steps)
            events.append(step.event)
            order.append(step.code)
            p = place.p + 1
            place.p = p
            place.head = place.steps[p] if p < place.size else None
            self.left -= 1
            last = step
            while True:
                if last.op == OP_KAN:
                    self.pending += 1
                    rinshan = place.head
                    if rinshan is None and self.interrupted and self.left == 0:
                        return Ending(END_STOP, a, last.tile, None)
                    if rinshan is None or not rinshan.take or rinshan.kind != DRAW:
                        return _Fail(f"seat {a}'s open kan {last.text!r} is not followed by a "
                                     "replacement draw", self._ref(a, place.p - 1))
                    self._play(place, rinshan)
                    last = rinshan
                step = place.head
                if step is None:
                    if last.kind != DRAW and self.interrupted and self.left == 0:
                        return Ending(END_STOP, a, last.tile, None)
                    if last.kind != DRAW:
                        return _Fail(f"seat {a}'s actions stop right after the call {last.text!r}",
                                     self._ref(a, place.p - 1))
                    if self.left != 0:
                        left = next(i for i in range(self.n) if self._next(i) is not None)
                        return _Fail(f"seat {a}'s actions stop after drawing, but seat {left} "
                                     "still has actions", self._ref(a, place.p - 1))
                    return Ending(END_AFTER_TAKE, a, last.tile, None)
                if step.take:
                    return _Fail(f"seat {a} takes twice in a row", self._ref(a, place.p))
                if step.op == OP_DAHAI:
                    if self.pending:
                        self._flush()
                    reach = step.reach
                    if reach is not None:
                        events.append(reach)
                        order.append(PEEK_OF_TRACK[track(a, False)])  # the riichi discard's place
                    events.append(step.event)
                    order.append(step.code)
                    p = place.p + 1
                    place.p = p
                    place.head = place.steps[p] if p < place.size else None
                    self.left -= 1
                    if reach is not None:
                        self.reach_pending = a
                    if not self._drawn_next(a, step.tile):
                        return _Choice(a, step.tile, p - 1)
                    a = Seat((a + 1) % self.n)  # the usual turn: no call, the next seat draws
                    via_call = False
                    break
                self._play(place, step)
                if self.left == 0:
                    return Ending(END_AFTER_KAN, a, step.tile, None)
                if step.kind == KAKAN:
                    self._flush()
                    self.pending = 1
                elif step.kind == ANKAN:
                    self._flush()
                    self._dora()
                else:
                    assert step.kind == KITA
                rinshan = place.head
                if rinshan is None or not rinshan.take or rinshan.kind != DRAW:
                    return _Fail(f"seat {a}'s {step.kind} {step.text!r} is not followed by a "
                                 "replacement draw", self._ref(a, place.p - 1))
                self._play(place, rinshan)
                last = rinshan
