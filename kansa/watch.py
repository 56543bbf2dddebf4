"""``kansa watch``: audit an mjai stream as it is written, one finding per line.

Each line of the stream is read as it arrives (:mod:`kansa.parsers.mjai.stream`) and
its events pushed into a :class:`~kansa.replay.table.Table`; each finding an event
proves is printed at once, as one JSON line shaped like a ``violations`` entry of
``kansa audit --json``.  A game is closed when the next one starts or the stream ends
(an event after its ``end_game`` is still a finding of it); the stream's end prints one
last line, the tail of ``audit --json`` (``unreadable``, ``unsupported``,
``internal_errors``, ``summary``).  A line that cannot be read is printed as an
``unreadable`` entry (file, error, position) and ends the watch, as it makes a file
unreadable.
"""

from __future__ import annotations

import dataclasses
import json
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import IO, Any, BinaryIO

from kansa.deadline import TimeLimitExceeded, time_limit
from kansa.parsers import LogFormatError
from kansa.parsers.mjai.stream import GameStart, MjaiStream, StreamItem
from kansa.parsers.source import Limits
from kansa.problems import FileProblem
from kansa.replay.context import CheckContext
from kansa.replay.events import EndGame, Event, Hora, StartKyoku
from kansa.replay.game import Diagnostic, Game
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.state import GameState
from kansa.replay.table import Table
from kansa.replay.violations import Severity, Violation
from kansa.runner import (
    STDIN,
    SUPPORTED_PLAYERS,
    Accumulator,
    FileResults,
    Status,
    display_name,
    player_of,
    rules_for,
)

POLL_SECONDS = 0.05
"""How often a growing file is looked at for new lines."""


@dataclass(slots=True)
class _Game:
    """One game of the stream being audited."""

    header: Game
    rules: RuleSet
    table: Table
    events: list[tuple[Event, bool]] = field(default_factory=list)
    """Every event pushed, with whether the stream assumed its scores (a rule set
    taken from the play replays them)."""
    shown: set[tuple[object, ...]] = field(default_factory=set)
    """The findings printed so far."""
    notes: list[Violation] = field(default_factory=list)
    """The warnings the reading noted (a file's game reports them before its events)."""
    info: list[Diagnostic] = field(default_factory=list)
    """The reader's ``info`` diagnostics, the result's ``notes``."""
    unsupported: bool = False


class Watch:
    """Takes a stream's lines one at a time and prints each finding as it is proved."""

    def __init__(self, source: str, rules: str | RuleSet, limits: Limits,
                 out: IO[str]) -> None:
        self.source = source
        self.choice = rules
        self.limits = limits
        self.out = out
        self.stream = MjaiStream(source, limits)
        self.game: _Game | None = None
        self.results: list[ReplayResult] = []
        self.error: FileProblem | None = None
        self.unsupported: FileProblem | None = None
        self.internal: list[FileProblem] = []
        self.ended = False
        """The last event read was an ``end_game``."""

    # -- input -------------------------------------------------------------------

    def line(self, raw: bytes) -> bool:
        """Read one line; False once the stream cannot be read any further."""
        return self._read(lambda: self.stream.feed(raw))

    def end(self, rest: bytes = b"") -> None:
        """The stream has ended (``rest``: its last line, without a newline)."""
        if self.error is None and self._read(lambda: self.stream.end(rest)):
            self._close()

    def _read(self, read: Callable[[], list[StreamItem]]) -> bool:
        try:
            with time_limit(self.limits.max_seconds):
                for item in read():
                    self._take(item)
        except LogFormatError as exc:
            self.error = FileProblem.of_error(exc)
        except TimeLimitExceeded:
            self.error = FileProblem.unreadable(
                self.source, f"reading and replaying the line took longer than the "
                             f"limit of {self.limits.max_seconds:g} s (--max-seconds)",
                f"line {self.stream.line}")
        if self.error is None:
            return True
        self._print(self.error.to_dict())
        self.game = None  # an unreadable input: its game is not finished
        return False

    def _take(self, item: GameStart | Event | Diagnostic) -> None:
        if isinstance(item, GameStart):
            self._close()
            rules = rules_for(item.game, self.choice)
            self.game = _Game(item.game, rules, Table(rules, game=item.game))
            return
        g = self.game
        if g is None or g.unsupported:
            return
        if isinstance(item, Diagnostic):
            self._diagnostic(g, item)
            return
        self.ended = isinstance(item, EndGame)
        if isinstance(item, StartKyoku) and self.stream.players not in SUPPORTED_PLAYERS:
            self._unsupported(g)
            return
        if isinstance(item, StartKyoku) and not g.events \
                and g.header.hints.players != self.stream.players:
            g = self._seated(g)  # the first hand shows the table's size
        assumed = isinstance(item, StartKyoku) and len(g.events) in self.stream.assumed_scores
        g.events.append((item, assumed))
        try:
            rebuilt = isinstance(item, Hora) and self.choice == "auto" and \
                self._follow_the_play(g)
            found = self._push(g.table, item, assumed)
            self._show(g, g.table.violations if rebuilt else found)
        except BrokenPipeError:  # the output's reader went away: not the game's fault
            raise
        except Exception as exc:  # a bug in kansa: this game is lost, not the others
            self._lost(g, exc)

    # -- the game ------------------------------------------------------------------

    @staticmethod
    def _push(table: Table, ev: Event, assumed: bool) -> list[Violation]:
        if assumed and isinstance(ev, StartKyoku):
            # the stream gave no scores: the engine's own, as for a file's game
            st = table.state
            scores = st.scores if st.scores is not None and st.round is not None else \
                [table.rules.start_score] * table.rules.players
            ev = dataclasses.replace(ev, scores=tuple(scores))
        return table.push(ev)

    def _follow_the_play(self, g: _Game) -> bool:
        """Audit again under the rule set the play shows, where the win just read
        contradicts the log's own rules (as ``--rules auto`` does with a whole file);
        True when it does."""
        game = dataclasses.replace(g.header, events=tuple(ev for ev, _ in g.events))
        rules = rules_for(game, "auto")
        if rules == g.rules:
            return False
        table = Table(rules, game=g.header)
        for ev, assumed in g.events[:-1]:
            self._push(table, ev, assumed)
        g.rules, g.table = rules, table
        return True

    def _show(self, g: _Game, found: list[Violation], result: ReplayResult | None = None
              ) -> None:
        """Print the findings not printed yet (errors the rule set's unknown rules fold
        into one warning wait for the game's end, where they are folded)."""
        folded = frozenset().union(*(u.affects for u in g.rules.unknown)) \
            if result is None and g.rules.unknown else frozenset()
        for v in found:
            key = (v.rule, v.event, v.seat, v.message)
            if key in g.shown or (v.rule in folded and v.severity is Severity.ERROR):
                continue
            g.shown.add(key)
            d = v.to_dict()
            d["player"] = player_of(result or self._so_far(g), d)
            self._print(d)

    @staticmethod
    def _so_far(g: _Game) -> ReplayResult:
        """The game's result so far, as far as naming a finding's player needs it."""
        h = g.header
        return ReplayResult(source=h.source, index=h.index, format=h.format,
                            rules=g.rules.name, players=h.hints.players,
                            names=tuple(p.name for p in h.players), log_id=h.log_id,
                            events=len(g.events), hands=g.table.hands, violations=[],
                            complete=False)

    def _diagnostic(self, g: _Game, d: Diagnostic) -> None:
        """A warning the reading noted, reported as a file's are before its events; an
        ``info`` note goes with the game's result, as in ``audit --json``."""
        if d.level == "info":
            g.info.append(d)
            return
        ctx = CheckContext(game=GameState(rules=g.rules), rules=g.rules)
        g.notes.append(dataclasses.replace(ctx.violation(d.rule, d.message), src=d.src))
        self._show(g, g.notes[-1:])

    def _close(self) -> None:
        """Finish the current game: the findings only its end proves, then its result."""
        g, self.game = self.game, None
        if g is None or g.unsupported:
            return
        try:
            result = g.table.finish()
        except BrokenPipeError:
            raise
        except Exception as exc:
            self._lost(g, exc)
            return
        result.violations = [*g.notes, *result.violations]
        result.notes = tuple(g.info)
        self._show(g, result.violations, result)
        self.results.append(result)

    def _seated(self, g: _Game) -> _Game:
        """The game at the table size its first hand shows, before any event is pushed."""
        hints = dataclasses.replace(g.header.hints, players=self.stream.players)
        header = dataclasses.replace(g.header, hints=hints)
        rules = rules_for(header, self.choice)
        self.game = dataclasses.replace(g, header=header, rules=rules,
                                        table=Table(rules, game=header))
        return self.game

    def _unsupported(self, g: _Game) -> None:
        g.unsupported = True
        self.unsupported = FileProblem.unsupported(self.source, (
            f"{self.stream.players}-player game (mjai); kansa audits three- and "
            "four-player games only"))
        self._print(self.unsupported.to_dict())

    def _lost(self, g: _Game, exc: Exception) -> None:
        problem = FileProblem.internal(self.source, exc, f"replaying game {g.header.index}",
                                       g.header.index)
        self.internal.append(problem)
        self._print(problem.to_dict())
        g.unsupported = True  # nothing more of it is read
        if self.game is g:
            self.game = None

    # -- output --------------------------------------------------------------------

    def _print(self, obj: dict[str, Any]) -> None:
        self.out.write(json.dumps(obj, ensure_ascii=False) + "\n")
        self.out.flush()

    def close(self) -> dict[str, Any]:
        """Print the last line (:meth:`tail`) and give it."""
        tail = self.tail()
        self._print(tail)
        return tail

    def tail(self) -> dict[str, Any]:
        """The last line: what ``kansa audit --json`` ends with, for this stream."""
        status: Status = (
            "unreadable" if self.error is not None
            else "internal_error" if self.internal
            else "findings" if any(r.violations for r in self.results)
            else "clean" if self.results
            else "unsupported" if self.unsupported is not None
            else "unreadable")
        error = self.error or (self.unsupported if status == "unsupported" else None)
        if status == "unreadable" and error is None:
            error = FileProblem.unreadable(self.source, "no mjai game in the stream",
                                           f"line {max(self.stream.line, 1)}")
        acc = Accumulator()
        acc.add(FileResults(self.source, status, results=self.results, error=error,
                            internal=self.internal).outcome())
        return acc.tail(None)


def watch(path: str, rules: str | RuleSet, limits: Limits, *, idle_seconds: float,
          out: IO[str] = sys.stdout) -> tuple[dict[str, Any], bool]:
    """Watch ``path`` (``-``: standard input) to its end; print each finding as it is
    proved and the tail last.  Returns the tail and whether Ctrl-C ended it."""
    w = Watch(display_name(path), rules, limits, out)
    interrupted = False
    try:
        if path == STDIN:
            _read_stdin(w, limits)
        else:
            with open(path, "rb") as fh:
                _follow(w, fh, limits, idle_seconds)
    except KeyboardInterrupt:
        interrupted = True
        w.end()
    return w.close(), interrupted


def _read_stdin(w: Watch, limits: Limits) -> None:
    stdin = sys.stdin.buffer
    while True:
        raw = stdin.readline(limits.max_file_bytes + 1)
        if not raw.endswith(b"\n"):
            w.end(raw)
            return
        if not w.line(raw):
            return


def _follow(w: Watch, fh: BinaryIO, limits: Limits, idle_seconds: float) -> None:
    """Read a file as it grows, as ``tail -f`` does: to an ``end_game`` with nothing
    after it, or until it has not grown for ``idle_seconds``."""
    for raw in _lines(fh, limits.max_file_bytes + 1, idle_seconds, lambda: w.ended):
        if not raw.endswith(b"\n"):
            w.end(raw)
            return
        if not w.line(raw):
            return
    w.end()


def _lines(fh: BinaryIO, most: int, idle_seconds: float, done: Callable[[], bool]
           ) -> Iterator[bytes]:
    """The file's lines as they are written; a last piece without a newline when it
    stops growing (after ``done()`` says the stream may end, at once)."""
    part = b""
    quiet_since = time.monotonic()
    while True:
        piece = fh.readline(most - len(part))
        if piece:
            part += piece
            quiet_since = time.monotonic()
            if part.endswith(b"\n") or len(part) >= most:
                yield part
                part = b""
            continue
        if done() or time.monotonic() - quiet_since >= idle_seconds:
            if part:
                yield part
            return
        time.sleep(POLL_SECONDS)
