"""Audit files: one outcome per input file, never an exception.

:func:`audit_file` is a pure function of a path and :class:`AuditOptions` that
returns a plain, JSON-ready :class:`FileOutcome`, so batches can run it in any
process and still give the same document.
"""

from __future__ import annotations

import dataclasses
import glob
import os
import traceback
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from parsers import LogFormatError, UnknownFormatError, UnsupportedLogError, load
from parsers.source import DEFAULT_LIMITS, Limits
from replay.engine import replay
from replay.game import Game
from replay.result import ReplayResult
from replay.rules import RuleSet

Status = Literal["clean", "findings", "unsupported", "unreadable", "internal_error"]
STATUSES: tuple[Status, ...] = ("clean", "findings", "unsupported", "unreadable",
                                "internal_error")


@dataclass(frozen=True, slots=True)
class AuditOptions:
    rules: str | RuleSet = "auto"
    """``auto`` (pick from the log), a preset name, or a rule set."""
    limits: Limits = DEFAULT_LIMITS
    fmt: str | None = None
    """Force a format instead of sniffing."""


@dataclass(slots=True)
class FileOutcome:
    file: str
    status: Status
    games: list[dict[str, Any]] = field(default_factory=list)
    error: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "status": self.status, "games": self.games,
                "error": self.error}


def rules_for(game: Game, choice: str | RuleSet) -> RuleSet:
    """The rule set to audit ``game`` under.

    ``auto`` takes the platform's preset adjusted by the log's own rule bits (a
    Tenhou game without red fives is audited without red fives); a log with no
    rule metadata gets ``tenhou``.  A named preset is used as it is, apart from
    the player count.
    """
    if isinstance(choice, RuleSet):
        base = choice
    elif choice == "auto":
        return RuleSet.auto(game.hints)
    else:
        base = RuleSet.preset(choice)
    if base.players != game.hints.players:
        base = base.replace(players=game.hints.players)
    return base


def audit_game(game: Game, options: AuditOptions) -> dict[str, Any]:
    rules = rules_for(game, options.rules)
    return replay(game, rules).to_dict()


@dataclass(slots=True)
class FileResults:
    """One file replayed: its games with their results, or why there are none.

    The reports take these: :attr:`results` pairs one to one with :attr:`games`
    (whose ``events`` are dropped unless asked for, to keep memory flat on big
    batches).
    """

    file: str
    status: Status
    games: list[Game] = field(default_factory=list)
    results: list[ReplayResult] = field(default_factory=list)
    error: dict[str, Any] | None = None

    def outcome(self) -> FileOutcome:
        """The JSON-ready outcome :func:`audit_file` returns."""
        return FileOutcome(self.file, self.status,
                           games=[r.to_dict() for r in self.results], error=self.error)


def replay_file(path: str, options: AuditOptions = AuditOptions(), *,
                keep_events: bool = False) -> FileResults:
    """Read and replay every game in ``path``; never raises for any input."""
    try:
        games = load(path, options.fmt, options.limits)
    except UnknownFormatError as exc:
        if _looks_like_documentation(path):
            return FileResults(path, "unsupported", error={
                "file": path, "reason": "not a game log (its name and content say "
                                        "documentation or a data table)"})
        return FileResults(path, "unreadable", error={
            "file": path, "error": exc.reason, "position": exc.position})
    except LogFormatError as exc:
        return FileResults(path, "unreadable", error={
            "file": path, "error": exc.reason, "position": exc.position})
    except UnsupportedLogError as exc:
        return FileResults(path, "unsupported", error={"file": path, "reason": exc.reason})
    except Exception as exc:
        return _internal(path, exc, "parsing")
    if not games:
        return FileResults(path, "unreadable", error={
            "file": path, "error": "the file holds no game", "position": "start of file"})
    unsupported = [g for g in games if g.hints.players != 4]
    if unsupported:
        n = unsupported[0].hints.players
        return FileResults(path, "unsupported", error={
            "file": path,
            "reason": f"{n}-player game ({unsupported[0].format}); kansa audits "
                      "four-player games only so far"})
    results: list[ReplayResult] = []
    for game in games:
        try:
            results.append(replay(game, rules_for(game, options.rules)))
        except Exception as exc:
            return _internal(path, exc, f"replaying game {game.index}")
    status: Status = "findings" if any(r.violations for r in results) else "clean"
    kept = games if keep_events else [dataclasses.replace(g, events=()) for g in games]
    return FileResults(path, status, games=kept, results=results)


def audit_file(path: str, options: AuditOptions = AuditOptions()) -> FileOutcome:
    """Read and audit every game in ``path``; never raises for any input."""
    return replay_file(path, options).outcome()


def iter_results(files: Iterable[str], options: AuditOptions = AuditOptions(), *,
                 keep_events: bool = False) -> Iterator[FileResults]:
    """Replay each file in turn: the input of ``kansa stats`` and ``kansa report``."""
    for f in files:
        yield replay_file(f, options, keep_events=keep_events)


_DOC_SUFFIXES = frozenset({".md", ".rst", ".tsv", ".csv", ".txt", ".html", ".htm", ".pdf",
                           ".png", ".jpg", ".jpeg", ".svg", ".py", ".toml", ".yaml", ".yml",
                           ".ini", ".cfg", ".parquet"})
_DOC_NAMES = ("readme", "license", "licence", "manifest", "changelog", "notice", "copying")


def _looks_like_documentation(path: str) -> bool:
    """A file that is plainly not a log: only asked when its content matched no format."""
    p = Path(path)
    return p.suffix.lower() in _DOC_SUFFIXES or p.name.lower().startswith(_DOC_NAMES)


def _internal(path: str, exc: BaseException, doing: str) -> FileResults:
    return FileResults(path, "internal_error", error={
        "file": path,
        "error": f"internal error while {doing}: {type(exc).__name__}: {exc}",
        "traceback": "".join(traceback.format_exception(exc)),
    })


def discover(paths: Iterable[str]) -> tuple[list[str], list[str]]:
    """Expand files, folders (recursively) and globs into a sorted file list.

    Returns ``(files, missing)`` where ``missing`` are arguments that matched nothing.
    """
    found: set[str] = set()
    missing: list[str] = []
    for arg in paths:
        matches = [arg] if os.path.exists(arg) else sorted(glob.glob(arg, recursive=True))
        if not matches:
            missing.append(arg)
        for m in matches:
            p = Path(m)
            if p.is_dir():
                found.update(_walk(p))
            elif p.is_file():
                found.add(str(p))
    return sorted(found), missing


def _walk(top: Path) -> Iterator[str]:
    """Files under ``top``, following symlinked folders but never into a loop, skipping
    hidden names."""
    for dirpath, dirnames, filenames in os.walk(top, followlinks=True):
        if _is_loop(Path(dirpath), top):
            dirnames[:] = []
            continue
        dirnames[:] = sorted(d for d in dirnames if not d.startswith("."))
        for name in filenames:
            if not name.startswith("."):
                path = os.path.join(dirpath, name)
                if os.path.isfile(path):
                    yield path


def _is_loop(path: Path, top: Path) -> bool:
    """True when ``path`` resolves to one of its own ancestors (a symlink loop)."""
    real = os.path.realpath(path)
    parent = path.parent
    while len(parent.parts) >= len(top.parts) and parent != path:
        if os.path.realpath(parent) == real:
            return True
        if parent == top:
            break
        path, parent = parent, parent.parent
    return False


def iter_outcomes(files: Iterable[str], options: AuditOptions) -> Iterator[FileOutcome]:
    for f in files:
        yield audit_file(f, options)


@dataclass(slots=True)
class Summary:
    """Counts over a batch; ``files`` always equals the sum of the status counts."""

    files: int = 0
    games: int = 0
    hands: int = 0
    wins: int = 0
    wins_valued: int = 0
    hands_compared: int = 0
    transfers: int = 0
    events: int = 0
    status: Counter[str] = field(default_factory=Counter)
    violations: Counter[str] = field(default_factory=Counter)
    errors_by_rule: Counter[str] = field(default_factory=Counter)
    not_audited: int = 0
    """Files found but not audited because the run was interrupted."""
    from_store: int = 0
    """Files already in the results store (``--out``): counted by their stored status."""

    def add(self, outcome: FileOutcome) -> None:
        self.files += 1
        self.status[outcome.status] += 1
        for g in outcome.games:
            self.games += 1
            self.hands += g["hands"]
            self.wins += g["wins"]
            self.wins_valued += g["wins_valued"]
            self.hands_compared += g["hands_compared"]
            self.transfers += g["transfers"]
            self.events += g["events"]
            for v in g["violations"]:
                self.violations[v["rule"]] += 1
                if v["severity"] == "error":
                    self.errors_by_rule[v["rule"]] += 1

    def add_stored(self, status: str) -> None:
        """A file audited by an earlier run: its status counts, its games are in the store."""
        self.files += 1
        self.from_store += 1
        self.status[status] += 1

    def to_dict(self, seconds: float | None) -> dict[str, Any]:
        return {
            "files": self.files + self.not_audited,
            "games": self.games,
            "hands": self.hands,
            "wins": self.wins,
            "wins_valued": self.wins_valued,
            "hands_compared": self.hands_compared,
            "transfers": self.transfers,
            "events": self.events,
            "clean": self.status["clean"],
            "with_findings": self.status["findings"],
            "unreadable": self.status["unreadable"],
            "unsupported": self.status["unsupported"],
            "internal_errors": self.status["internal_error"],
            "not_audited": self.not_audited,
            "from_store": self.from_store,
            "violations": dict(sorted(self.violations.items())),
            "errors_by_rule": dict(sorted(self.errors_by_rule.items())),
            "seconds": round(seconds, 3) if seconds is not None else 0.0,
        }


@dataclass(slots=True)
class Accumulator:
    """Takes outcomes one at a time; keeps only counts and the (few) failed files."""

    summary: Summary = field(default_factory=Summary)
    unreadable: list[dict[str, Any]] = field(default_factory=list)
    unsupported: list[dict[str, Any]] = field(default_factory=list)
    internal: list[dict[str, Any]] = field(default_factory=list)
    first_errors: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    def add(self, o: FileOutcome) -> None:
        self.summary.add(o)
        if o.status == "unreadable" and o.error:
            self.unreadable.append(o.error)
        elif o.status == "unsupported" and o.error:
            self.unsupported.append(o.error)
        elif o.status == "internal_error" and o.error:
            self.internal.append(o.error)
        for g in o.games:
            for v in g["violations"]:
                if v["severity"] == "error" and len(self.first_errors) < 20:
                    self.first_errors.append((g["file"], v))

    def tail(self, seconds: float | None) -> dict[str, Any]:
        """Everything of the document but the games."""
        return {"unreadable": self.unreadable, "unsupported": self.unsupported,
                "internal_errors": self.internal, "summary": self.summary.to_dict(seconds)}


def build_document(outcomes: Iterable[FileOutcome], seconds: float | None) -> dict[str, Any]:
    """The whole ``--json`` document in memory (the CLI streams it instead)."""
    acc = Accumulator()
    games: list[dict[str, Any]] = []
    for o in outcomes:
        acc.add(o)
        games.extend(o.games)
    return {"games": games, **acc.tail(seconds)}
