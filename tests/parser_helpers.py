"""Helpers shared by the format tests: corpus files, replay, fuzzing."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from parsers.errors import LogFormatError
from replay.engine import replay
from replay.events import StartKyoku
from replay.game import Game
from replay.result import ReplayResult
from replay.rules import RuleSet
from replay.state import RoundState
from replay.tiles import Seat, Tile
from replay.violations import Severity, Violation


def corpus_files(corpus: Path, fmt_dir: str) -> list[Path]:
    return sorted(p for p in (corpus / fmt_dir).rglob("*") if p.is_file())


def run(game: Game) -> ReplayResult:
    return replay(game, RuleSet.preset("tenhou").with_hints(game.hints))


def errors(result: ReplayResult) -> list[Violation]:
    return [v for v in result.violations if v.severity is Severity.ERROR]


def sanma_wall_ok() -> bool:
    """Whether the engine gives a three-player hand its 55 live tiles (108-tile set)."""
    start = StartKyoku(bakaze=Tile.EAST, kyoku=1, honba=0, kyotaku=0, oya=Seat(0),
                       scores=(35000,) * 3, dora_marker=Tile.EAST,
                       tehais=((Tile.M1,) * 13,) * 3)
    rules = RuleSet.preset("tenhou").replace(players=3)
    return RoundState.initial(start, rules).live_wall == 55


SANMA_SKIP = (
    "engine bug: replay/state.py RoundState.initial gives a three-player hand "
    "136 - 36 - 14 - 39 = 47 live tiles; sanma removes 2m-8m (28 tiles), so 55 are live "
    "and the replay reports 'draws from an empty wall' near the end of long hands")


def check_error(exc: LogFormatError) -> None:
    """A format error names a position: a line, or a JSON pointer."""
    assert exc.src.line is not None or exc.src.pointer is not None, str(exc)
    assert exc.position != "start of file", str(exc)


def dumps(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
