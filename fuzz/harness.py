"""One fuzz case: parse some bytes, replay what comes out, and judge the outcome.

A case passes when the bytes give games that replay without an exception and
keep the desync invariant, or give a :class:`LogFormatError` (or an
:class:`UnsupportedLogError`) naming the source, all within the time bound.
Anything else is a :class:`Failure`.
"""

from __future__ import annotations

import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from kansa.parsers import LogFormatError, UnsupportedLogError, load_bytes, sniff
from kansa.parsers.source import DEFAULT_LIMITS, Limits, maybe_gunzip
from kansa.replay.engine import replay
from kansa.replay.events import SourceRef
from kansa.replay.game import Game
from kansa.replay.result import ReplayResult
from kansa.runner import AuditOptions, audit_bytes, rules_for

LOST = "the state is lost"
"""Words every desync finding carries."""


@dataclass(frozen=True, slots=True)
class Outcome:
    kind: str
    """``games``, ``format_error`` or ``unsupported``."""
    detail: str
    """The error message (its reason) or the number of games."""
    seconds: float
    games: tuple[Game, ...] = ()


@dataclass(slots=True)
class Failure(Exception):
    """A case that broke a property: the exception, the slowness or the invariant."""

    what: str
    data: bytes = field(repr=False)
    detail: str = ""

    def __str__(self) -> str:
        return f"{self.what}: {self.detail}"


def desync_problems(result: ReplayResult) -> list[str]:
    """Breaches of the out-of-sync contract: at most one desync finding per hand, exactly
    one where events went unchecked, and the game's count equal to the hands' sum."""
    problems = []
    starts = [h.first_event for h in result.hands] + [result.events + 1]
    lost = [v for v in result.violations if LOST in v.message]
    for k, hand in enumerate(result.hands):
        mine = [v for v in lost if v.event is not None and starts[k] <= v.event < starts[k + 1]]
        if len(mine) > 1:
            problems.append(f"hand {k} ({hand.label}) has {len(mine)} desync findings")
        if hand.unchecked and len(mine) != 1:
            problems.append(f"hand {k} ({hand.label}) skipped {hand.unchecked} events "
                            f"with {len(mine)} desync findings")
    if sum(h.unchecked for h in result.hands) != result.unchecked:
        problems.append("unchecked events do not add up over the hands")
    stray = [v for v in lost if v.event is None or (result.hands and v.event < starts[0])]
    if stray:
        problems.append(f"{len(stray)} desync findings outside every hand")
    return problems


def replay_checked(game: Game, data: bytes = b"") -> ReplayResult:
    """Replay ``game`` under its own rules; :class:`Failure` on an exception or a breach."""
    try:
        result = replay(game, rules_for(game, "auto"))
    except Exception as exc:
        raise Failure("replay raised", data, _tb(exc)) from exc
    problems = desync_problems(result)
    if problems:
        raise Failure("desync contract", data, "; ".join(problems))
    return result


def parse_case(data: bytes, source: str = "fuzz.log", limits: Limits = DEFAULT_LIMITS,
               bound: float = 10.0) -> Outcome:
    """Parse ``data`` as a file's content (gzip and zip included) and replay every game.

    :raises Failure: for any other exception, a :class:`LogFormatError` that does not
        name the source, a replay problem, or a case slower than ``bound`` seconds.
    """
    start = time.perf_counter()
    outcome: Outcome
    try:
        content = maybe_gunzip(data, SourceRef(source), limits)
        games = load_bytes(content, source, None, limits)
    except LogFormatError as exc:
        if not str(exc).startswith(source) or not exc.position or not exc.reason:
            raise Failure("error without a position", data, str(exc)) from exc
        outcome = Outcome("format_error", exc.reason, time.perf_counter() - start)
    except UnsupportedLogError as exc:
        outcome = Outcome("unsupported", exc.reason, time.perf_counter() - start)
    except Exception as exc:
        raise Failure("parser raised", data, _tb(exc)) from exc
    else:
        for game in games:
            if game.hints.players in (3, 4):
                replay_checked(game, data)
        outcome = Outcome("games", str(len(games)), time.perf_counter() - start, tuple(games))
    if outcome.seconds > bound:
        raise Failure("too slow", data, f"{outcome.seconds:.1f} s > {bound} s ({outcome.detail})")
    return outcome


def audit_case(data: bytes, source: str = "fuzz.log") -> None:
    """The whole per-file path of the runner: it must never report an internal error."""
    try:
        data = maybe_gunzip(data, SourceRef(source))
    except LogFormatError:
        return
    outcome = audit_bytes(data, source, AuditOptions())
    for leaf in outcome.leaves():
        if leaf.status == "internal_error":
            raise Failure("internal error in the runner", data,
                          "\n".join(e.traceback or e.message for e in leaf.internal))


def corpus_files(corpus: Path) -> dict[str, list[Path]]:
    """Corpus logs by format (sniffed, not by folder); archives under ``zip``."""
    out: dict[str, list[Path]] = {}
    for path in sorted(p for p in corpus.rglob("*") if p.is_file()):
        head = path.read_bytes()[:8192]
        if head.startswith(b"PK"):
            fmt: str | None = "zip"
        elif head.startswith(b"\x1f\x8b"):
            fmt = "gzip"
        else:
            fmt = sniff(head)
        if fmt is not None:
            out.setdefault(fmt, []).append(path)
    return out


def _tb(exc: BaseException) -> str:
    return "".join(traceback.format_exception(exc))[-3000:]
