"""Audit files: one outcome per input file, never an exception.

:func:`audit_file` is a pure function of a path and :class:`AuditOptions` that
returns a plain, JSON-ready :class:`FileOutcome`, so batches can run it in any
process and still give the same document.
"""

from __future__ import annotations

import dataclasses
import sys
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from kansa.deadline import TimeLimitExceeded, time_limit
from kansa.parsers import LogFormatError, UnknownFormatError, UnsupportedLogError, parse_bytes
from kansa.parsers.archive import is_zip, iter_members
from kansa.parsers.source import DEFAULT_LIMITS, Limits, read_log_bytes, read_stream_bytes
from kansa.parsers.tenhou_xml.rules import lobby_rules
from kansa.problems import FileProblem, ProblemKind
from kansa.replay.checks.ruleset import follow_the_play
from kansa.replay.collector import collector_paused
from kansa.replay.engine import replay
from kansa.replay.events import SourceRef
from kansa.replay.game import Game
from kansa.replay.result import WALL_STATUSES, ReplayResult
from kansa.replay.rules import RuleSet

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
    """What became of one input: a file, or one member of a zip archive.

    ``error`` explains an unreadable or unsupported input; ``internal`` holds one
    problem (with a traceback) per game, or for the whole input, that kansa failed on.
    An archive's outcome lists its ``members`` and carries all their games; its
    status is the worst of theirs.
    """

    file: str
    status: Status
    games: list[dict[str, Any]] = field(default_factory=list)
    error: FileProblem | None = None
    internal: list[FileProblem] = field(default_factory=list)
    members: list[FileOutcome] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "status": self.status, "games": self.games,
                "error": self.error.to_dict() if self.error is not None else None,
                "internal_errors": [p.to_dict() for p in self.internal],
                "members": [m.to_dict() for m in self.members]}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> FileOutcome:
        """The outcome whose :meth:`to_dict` is ``d`` (its error's kind is its status)."""
        status: Status = d["status"]
        error = d["error"]
        return cls(d["file"], status, games=d["games"],
                   error=FileProblem.from_dict(problem_kind(status), error) if error else None,
                   internal=[FileProblem.from_dict("internal", p)
                             for p in d["internal_errors"]],
                   members=[cls.from_dict(m) for m in d["members"]])

    def leaves(self) -> list[FileOutcome]:
        """The outcomes that count: an archive's members, or this outcome itself."""
        return self.members or [self]


def rules_for(game: Game, choice: str | RuleSet) -> RuleSet:
    """The rule set to audit ``game`` under.

    ``auto`` takes the platform's preset adjusted by the log's own rule bits (a
    Tenhou game without red fives is audited without red fives; a Tenhou header is
    decoded by :mod:`kansa.parsers.tenhou_xml.rules`, and what it leaves unknown is kept in
    ``RuleSet.unknown``); a log with no rule metadata gets ``tenhou``.  A rule bit
    the log's own wins contradict (aka dora counted under a header without red fives)
    is taken from the play and named in ``RuleSet.contradicted``.  A named preset is
    used as it is at the log's table: a preset at a table of the other size is its
    counterpart (``tenhou`` on a three-player log is ``tenhou-sanma``; see
    :meth:`RuleSet.for_players`).
    """
    if isinstance(choice, RuleSet):
        base = choice
    elif choice == "auto":
        auto = RuleSet.auto(game.hints)
        lobby = lobby_rules(game.hints)
        return follow_the_play(game.events, lobby.adjust(auto) if lobby else auto)
    else:
        base = RuleSet.preset(choice)
    return base.seated(game.hints)


def audit_game(game: Game, options: AuditOptions) -> dict[str, Any]:
    rules = rules_for(game, options.rules)
    return game_document(replay(game, rules))


WINDS = ("East", "South", "West", "North")


def game_document(result: ReplayResult) -> dict[str, Any]:
    """The game's JSON-ready result, each finding naming its player (``player``)."""
    doc = result.to_dict()
    for v in doc["violations"]:
        v["player"] = player_of(result, v)
    return doc


def player_of(result: ReplayResult, v: dict[str, Any]) -> dict[str, Any] | None:
    """``{"seat", "wind", "name"}`` of a finding's seat, or ``None`` for a game-level one.

    The wind is the seat's wind in the finding's hand (``None`` outside a hand);
    the name is the log's (``None`` where it has none).
    """
    seat = v["seat"]
    if seat is None:
        return None
    name = result.names[seat] if 0 <= seat < len(result.names) else ""
    hands = [h for h in result.hands if v["hand"] is not None and h.label == v["hand"]]
    if v["event"] is not None and len(hands) > 1:
        hands = [h for h in hands if h.first_event <= v["event"]] or hands
    wind = WINDS[(seat - hands[-1].oya) % 4] if hands and result.players == 4 else None
    return {"seat": seat, "wind": wind, "name": name or None}


STDIN = "-"
"""The path that stands for standard input."""
STDIN_NAME = "<stdin>"
"""The file name standard input is given in results."""


def display_name(path: str) -> str:
    return STDIN_NAME if path == STDIN else path


def read_input_bytes(path: str, limits: Limits = DEFAULT_LIMITS) -> bytes:
    """A log's (gunzipped) content from a file, or from standard input for ``-``, under
    the same limits (``--max-file-bytes`` counts the bytes read from the stream).

    :raises LogFormatError: for an unreadable, oversized or corrupt input.
    """
    if path != STDIN:
        return read_log_bytes(path, limits)
    stream = getattr(sys.stdin, "buffer", None)
    if stream is None or stream.closed:
        raise LogFormatError("cannot read standard input: it is closed",
                             SourceRef(STDIN_NAME))
    return read_stream_bytes(stream, STDIN_NAME, limits)


@dataclass(slots=True)
class FileResults:
    """One input replayed: its games with their results, or why there are none.

    The reports take these: :attr:`results` pairs one to one with :attr:`games`
    (whose ``events`` are dropped unless asked for, to keep memory flat on big
    batches).  A game kansa failed on is in neither list but in :attr:`internal`;
    an archive lists its :attr:`members` and carries all their games.
    """

    file: str
    status: Status
    games: list[Game] = field(default_factory=list)
    results: list[ReplayResult] = field(default_factory=list)
    error: FileProblem | None = None
    internal: list[FileProblem] = field(default_factory=list)
    members: list[FileResults] = field(default_factory=list)

    def outcome(self) -> FileOutcome:
        """The JSON-ready outcome :func:`audit_file` returns."""
        return FileOutcome(self.file, self.status,
                           games=[game_document(r) for r in self.results],
                           error=self.error,
                           internal=self.internal,
                           members=[m.outcome() for m in self.members])


def audit_file(path: str, options: AuditOptions = AuditOptions()) -> FileOutcome:
    """Read and audit every game in ``path``; never raises for any input."""
    return replay_file(path, options).outcome()


def audit_bytes(data: bytes, source: str, options: AuditOptions = AuditOptions()
                ) -> FileOutcome:
    """Audit a file's (gunzipped) content; never raises for any input."""
    return replay_bytes(data, source, options).outcome()


def iter_results(files: Iterable[str], options: AuditOptions = AuditOptions(), *,
                 keep_events: bool = False) -> Iterator[FileResults]:
    """Replay each file in turn: the input of ``kansa stats`` and ``kansa report``."""
    for f in files:
        yield replay_file(f, options, keep_events=keep_events)


def replay_file(path: str, options: AuditOptions = AuditOptions(), *,
                keep_events: bool = False) -> FileResults:
    """Read and replay every game in ``path`` (``-``: standard input, named
    ``<stdin>``); never raises for any input."""
    seconds = options.limits.max_seconds
    source = display_name(path)
    try:
        with time_limit(seconds):
            data = read_input_bytes(path, options.limits)
    except TimeLimitExceeded:
        return _problem(FileProblem.unreadable(
            source, f"reading the file took longer than the limit of {seconds:g} s "
                    "(--max-seconds); given up"))
    except LogFormatError as exc:
        return _unreadable(source, exc)
    except Exception as exc:
        return _internal(source, exc, "reading the file")
    return replay_bytes(data, source, options, keep_events=keep_events)


def replay_bytes(data: bytes, source: str, options: AuditOptions = AuditOptions(), *,
                 keep_events: bool = False) -> FileResults:
    """Replay a file's (gunzipped) content: one log, or a zip archive member by member.
    Never raises for any input."""
    try:
        if is_zip(data):
            return _replay_archive(data, source, options, keep_events)
        return _replay_log(data, source, options, keep_events)
    except Exception as exc:  # a bug outside the guarded steps: still one outcome
        return _internal(source, exc, "auditing")


def _replay_archive(data: bytes, source: str, options: AuditOptions,
                    keep_events: bool) -> FileResults:
    members: list[FileResults] = []
    entries = iter_members(data, source, options.limits)
    while True:
        try:
            entry = next(entries, None)
        except LogFormatError as exc:  # the archive's directory is unreadable
            return _unreadable(source, exc)
        except Exception as exc:
            members.append(_internal(source, exc, "reading the archive"))
            break
        if entry is None:
            break
        name, content = entry
        if isinstance(content, LogFormatError):
            members.append(_unreadable(name, content))
        else:
            members.append(_replay_log(content, name, options, keep_events))
    if not members:
        return _problem(FileProblem.unreadable(source, "the zip archive holds no file"))
    status = max((m.status for m in members), key=_SEVERITY.index)
    return FileResults(source, status, games=[g for m in members for g in m.games],
                       results=[r for m in members for r in m.results], members=members)


def _replay_log(data: bytes, source: str, options: AuditOptions,
                keep_events: bool) -> FileResults:
    seconds = options.limits.max_seconds
    try:
        # paused for the whole log, so its events are freed before the collector
        # next runs (see kansa.replay.collector)
        with time_limit(seconds), collector_paused():
            return _replay_log_untimed(data, source, options, keep_events)
    except TimeLimitExceeded:
        return _problem(FileProblem.unreadable(
            source, f"reading and replaying the log took longer than the limit of "
                    f"{seconds:g} s (--max-seconds); given up"))


def _replay_log_untimed(data: bytes, source: str, options: AuditOptions,
                        keep_events: bool) -> FileResults:
    try:
        games = parse_bytes(data, source, options.fmt, options.limits)
    except UnknownFormatError as exc:
        if _looks_like_documentation(source):
            return _problem(FileProblem.unsupported(
                source, "not a game log (its name and content say documentation or a "
                        "data table)"))
        return _unreadable(source, exc)
    except LogFormatError as exc:
        return _unreadable(source, exc)
    except UnsupportedLogError as exc:  # named as the input is, like the other outcomes
        return _problem(FileProblem.unsupported(source, exc.reason))
    except Exception as exc:
        return _internal(source, exc, "parsing")
    return replay_games(games, source, options, keep_events=keep_events)


SUPPORTED_PLAYERS = (3, 4)
"""The table sizes kansa audits."""


def replay_games(games: list[Game], source: str, options: AuditOptions = AuditOptions(), *,
                 keep_events: bool = False) -> FileResults:
    """Replay the games read from ``source``: one outcome for them, as for a file's."""
    if not games:
        return _problem(FileProblem.unreadable(source, "the file holds no game"))
    unsupported = [g for g in games if g.hints.players not in SUPPORTED_PLAYERS]
    if unsupported:
        n = unsupported[0].hints.players
        return _problem(FileProblem.unsupported(
            source, f"{n}-player game ({unsupported[0].format}); kansa audits "
                    "three- and four-player games only"))
    kept: list[Game] = []
    results: list[ReplayResult] = []
    internal: list[FileProblem] = []
    for game in games:
        try:
            results.append(replay(game, rules_for(game, options.rules)))
        except Exception as exc:  # one game's failure never costs the others
            internal.append(FileProblem.internal(source, exc, f"replaying game {game.index}",
                                                 game.index))
            continue
        kept.append(game if keep_events else dataclasses.replace(game, events=()))
    status: Status = ("internal_error" if internal
                      else "findings" if any(r.violations for r in results) else "clean")
    return FileResults(source, status, games=kept, results=results, internal=internal)


_DOC_SUFFIXES = frozenset({".md", ".rst", ".tsv", ".csv", ".txt", ".html", ".htm", ".pdf",
                           ".png", ".jpg", ".jpeg", ".svg", ".py", ".toml", ".yaml", ".yml",
                           ".ini", ".cfg", ".parquet"})
_DOC_NAMES = ("readme", "license", "licence", "manifest", "changelog", "notice", "copying")


def _looks_like_documentation(path: str) -> bool:
    """A file that is plainly not a log: only asked when its content matched no format."""
    p = Path(path)
    return p.suffix.lower() in _DOC_SUFFIXES or p.name.lower().startswith(_DOC_NAMES)


_SEVERITY: tuple[Status, ...] = ("clean", "findings", "unsupported", "unreadable",
                                 "internal_error")
"""Statuses from best to worst: an archive takes its worst member's."""


def problem_kind(status: Status) -> ProblemKind:
    """The kind of problem that gives a file ``status`` (``internal`` for the others)."""
    if status == "unreadable":
        return "unreadable"
    return "unsupported" if status == "unsupported" else "internal"


def _problem(problem: FileProblem) -> FileResults:
    """The results of an input that is unreadable or unsupported."""
    status: Status = "unreadable" if problem.kind == "unreadable" else "unsupported"
    return FileResults(problem.file, status, error=problem)


def _unreadable(source: str, exc: LogFormatError) -> FileResults:
    """An input the reader refused, named as the error names it (an archive's member)."""
    return FileResults(source, "unreadable", error=FileProblem.of_error(exc))


def lost_results(source: str, why: str) -> FileResults:
    """The internal error of a file whose worker process died (no traceback there)."""
    return FileResults(source, "internal_error", internal=[FileProblem.lost(source, why)])


def lost_outcome(source: str, why: str) -> FileOutcome:
    return lost_results(source, why).outcome()


def _internal(source: str, exc: BaseException, doing: str) -> FileResults:
    return FileResults(source, "internal_error",
                       internal=[FileProblem.internal(source, exc, doing)])


def iter_outcomes(files: Iterable[str], options: AuditOptions) -> Iterator[FileOutcome]:
    for f in files:
        yield audit_file(f, options)


@dataclass(slots=True)
class Summary:
    """Counts over a batch; ``files`` always equals the sum of the status counts.

    A zip archive counts as its members, each with its own status, so a zip of 14
    logs with one broken member is 13 audited files and one unreadable one.
    """

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
    notes: int = 0
    """The readers' ``info`` diagnostics over all games (each game's ``notes``)."""
    wall: Counter[str] = field(default_factory=Counter)
    """Hands by wall status (``verified``, ``mismatched``, ``partial``, ``no_seed``)."""
    not_audited: int = 0
    """Files found but not audited because the run was interrupted."""
    from_store: int = 0
    """Files taken from the results store (``--store``) instead of audited again; each
    also counts as its stored outcome, like any other file."""

    def add(self, outcome: FileOutcome) -> None:
        for leaf in outcome.leaves():
            self._add(leaf)

    def _add(self, outcome: FileOutcome) -> None:
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
            self.notes += len(g.get("notes", ()))  # (none in an outcome stored before them)
            self.wall.update(g.get("wall") or {})  # (stored before the field: none)
            for v in g["violations"]:
                self.violations[v["rule"]] += 1
                if v["severity"] == "error":
                    self.errors_by_rule[v["rule"]] += 1

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
            "wall": {status: self.wall[status] for status in WALL_STATUSES},
            "clean": self.status["clean"],
            "with_findings": self.status["findings"],
            "unreadable": self.status["unreadable"],
            "unsupported": self.status["unsupported"],
            "internal_errors": self.status["internal_error"],
            "not_audited": self.not_audited,
            "from_store": self.from_store,
            "notes": self.notes,
            "violations": dict(sorted(self.violations.items())),
            "errors_by_rule": dict(sorted(self.errors_by_rule.items())),
            "seconds": round(seconds, 3) if seconds is not None else 0.0,
        }


@dataclass(slots=True)
class Accumulator:
    """Takes outcomes one at a time; keeps only counts, the (few) failed files and the
    findings to list: those of a severity in :attr:`show`, at most :attr:`cap` of them
    (``None``: all), the rest only counted in :attr:`unlisted`."""

    summary: Summary = field(default_factory=Summary)
    unreadable: list[FileProblem] = field(default_factory=list)
    unsupported: list[FileProblem] = field(default_factory=list)
    internal: list[FileProblem] = field(default_factory=list)
    show: frozenset[str] = frozenset({"error"})
    cap: int | None = 50
    listed: list[tuple[str, dict[str, Any]]] = field(default_factory=list)
    unlisted: Counter[str] = field(default_factory=Counter)
    """Findings of a shown severity past the cap, by severity."""

    def add(self, outcome: FileOutcome) -> None:
        self.summary.add(outcome)
        for o in outcome.leaves():
            if o.status == "unreadable" and o.error:
                self.unreadable.append(o.error)
            elif o.status == "unsupported" and o.error:
                self.unsupported.append(o.error)
            self.internal.extend(o.internal)
        for g in outcome.games:
            for v in g["violations"]:
                if v["severity"] not in self.show:
                    continue
                if self.cap is None or len(self.listed) < self.cap:  # kept without state
                    self.listed.append((g["file"], {k: x for k, x in v.items()
                                                    if k != "state"}))
                else:
                    self.unlisted[v["severity"]] += 1

    def tail(self, seconds: float | None) -> dict[str, Any]:
        """Everything of the document but the games."""
        return {"unreadable": [p.to_dict() for p in self.unreadable],
                "unsupported": [p.to_dict() for p in self.unsupported],
                "internal_errors": [p.to_dict() for p in self.internal],
                "summary": self.summary.to_dict(seconds)}


def build_document(outcomes: Iterable[FileOutcome], seconds: float | None) -> dict[str, Any]:
    """The whole ``--json`` document in memory (the CLI streams it instead)."""
    acc = Accumulator()
    games: list[dict[str, Any]] = []
    for o in outcomes:
        acc.add(o)
        games.extend(o.games)
    return {"games": games, **acc.tail(seconds)}
