"""kansa from Python: read a log's games, audit a game or a file.

>>> games = read("sample_logs/disputes/late-claim.mjson")
>>> games
[<Game mjai late-claim.mjson 4p 1 hand>]
>>> result = audit(games[0])
>>> [v.rule for v in result.violations]
['claim.late', 'log.truncated']
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from kansa.parsers import load, load_bytes
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.problems import FileProblem
from kansa.replay.game import Game
from kansa.replay.ledger import Transfer
from kansa.replay.result import HandRecord, ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.violations import Severity, Violation
from kansa.runner import (
    AuditOptions,
    FileResults,
    build_document,
    replay_bytes,
    replay_file,
    replay_games,
)

__all__ = ["Audit", "audit", "read"]

BYTES_SOURCE = "<bytes>"
"""The file name given to a log passed as bytes."""

Source = str | os.PathLike[str] | bytes


def read(source: Source, fmt: str | None = None, *,
         limits: Limits = DEFAULT_LIMITS) -> list[Game]:
    """The games of a log: a path (``str`` or :class:`~pathlib.Path`) or the file's
    bytes; gzip and zip are read transparently, the format is recognised from the
    content unless ``fmt`` names it.

    :raises LogFormatError: for input that cannot be read, naming the file and where.
    :raises UnsupportedLogError: for a log kansa recognises but does not read.
    """
    if isinstance(source, bytes):
        return load_bytes(source, BYTES_SOURCE, fmt, limits)
    return load(Path(source), fmt, limits)


@dataclass(frozen=True, slots=True)
class Audit:
    """The audit of a game or of a file's games.

    :meth:`to_dict` is the document ``kansa audit FILE --json --no-timing`` prints.
    An input that could not be audited has no games; :attr:`status` and
    :attr:`error` say why.
    """

    outcome: FileResults

    @property
    def file(self) -> str:
        return self.outcome.file

    @property
    def status(self) -> str:
        """``clean``, ``findings``, ``unsupported``, ``unreadable`` or ``internal_error``."""
        return self.outcome.status

    @property
    def error(self) -> FileProblem | None:
        """Why the input was not audited (unreadable or unsupported), else ``None``."""
        return self.outcome.error

    @property
    def games(self) -> list[Game]:
        """The games audited, with their events."""
        return self.outcome.games

    @property
    def results(self) -> list[ReplayResult]:
        """One replay result per game, in the order of :attr:`games`."""
        return self.outcome.results

    @property
    def violations(self) -> list[Violation]:
        """Every finding of every game, in game order."""
        return [v for r in self.outcome.results for v in r.violations]

    @property
    def hands(self) -> list[HandRecord]:
        """Every hand of every game, with the facts the replay recorded."""
        return [h for r in self.outcome.results for h in r.hands]

    @property
    def ledger(self) -> list[Transfer]:
        """Every transfer of points of every game, in event order."""
        return [t for r in self.outcome.results for t in r.ledger]

    def to_dict(self) -> dict[str, Any]:
        """The ``kansa audit --json --no-timing`` document of this input."""
        return build_document([self.outcome.outcome()], None)

    def __repr__(self) -> str:
        found = self.violations
        errors = sum(1 for v in found if v.severity is Severity.ERROR)
        return (f"<Audit {self.file} {self.status}: {_count(len(self.games), 'game')}, "
                f"{_count(len(self.hands), 'hand')}, {_count(len(found), 'finding')} "
                f"({_count(errors, 'error')})>")


def audit(source: Game | Source, rules: str | RuleSet = "auto", *, fmt: str | None = None,
          limits: Limits = DEFAULT_LIMITS) -> Audit:
    """Audit a game, or every game of a log (a path or the file's bytes).

    ``rules`` is ``auto`` (each game's own, from its log), a preset's name (``ema``,
    ``tenhou``, ...) or a :class:`RuleSet`.  Never raises for bad input: the result
    says what became of it, as the command's document does.
    """
    options = AuditOptions(rules=rules, limits=limits, fmt=fmt)
    if isinstance(source, Game):
        outcome = replay_games([source], source.source, options, keep_events=True)
    elif isinstance(source, bytes):
        outcome = replay_bytes(source, BYTES_SOURCE, options, keep_events=True)
    else:
        outcome = replay_file(os.fspath(source), options, keep_events=True)
    return Audit(outcome)


def _count(n: int, what: str) -> str:
    return f"{n} {what}{'' if n == 1 else 's'}"
