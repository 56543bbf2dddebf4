"""Helpers shared by the format tests: corpus files, replay, fuzzing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from kansa.parsers.canonical import canonical
from kansa.parsers.errors import LogFormatError
from kansa.replay.engine import replay
from kansa.replay.game import Game
from kansa.replay.result import ReplayResult
from kansa.replay.rules import RuleSet
from kansa.replay.violations import Severity, Violation


def corpus_files(corpus: Path, fmt_dir: str) -> list[Path]:
    return sorted(p for p in (corpus / fmt_dir).rglob("*") if p.is_file())


def run(game: Game) -> ReplayResult:
    return replay(game, RuleSet.preset("tenhou").with_hints(game.hints))


def errors(result: ReplayResult) -> list[Violation]:
    return [v for v in result.violations if v.severity is Severity.ERROR]


def structural_errors(result: ReplayResult) -> list[Violation]:
    """Errors about the state itself (tiles, order, scores that do not add up).

    Three-player games are listed as unsupported by the audit: their payments
    (2,000-point noten, North extraction) are not modelled, so only the state is
    held to the standing rule for them.
    """
    return [v for v in errors(result)
            if v.rule.startswith(("tiles.", "log.")) or v.rule == "flow.scores"]


def check_error(exc: LogFormatError) -> None:
    """A format error names a position: a line, or a JSON pointer."""
    assert exc.src.line is not None or exc.src.pointer is not None, str(exc)
    assert exc.position != "start of file", str(exc)


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


def built_canonical(game: Game) -> bool:
    """No event of ``game`` changes in canonical form, and none is copied for it: what
    a reader that builds its events canonical gives."""
    evs = game.events
    return all(a is b for a, b in zip(canonical(evs, game.hints.players), evs, strict=True))
