"""The replay's state stays consistent after every event of every real game and sample log."""

from __future__ import annotations

from pathlib import Path

import pytest

from kansa.discovery import discover
from kansa.parsers import FORMATS, load
from kansa.replay.table import Table
from kansa.runner import rules_for

pytestmark = pytest.mark.corpus

SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"
FORMAT_DIRS = FORMATS  # the corpus has one folder per format


def log_files(corpus_dir: Path) -> list[Path]:
    folders = [str(corpus_dir / d) for d in FORMAT_DIRS if (corpus_dir / d).is_dir()]
    files, _ = discover([*folders, str(SAMPLES)])
    return sorted(files)


def test_every_state_of_every_game_is_valid(corpus_dir: Path) -> None:
    games = 0
    invalid: list[tuple[str, int, int, str]] = []
    for path in log_files(corpus_dir):
        for game in load(path):
            games += 1
            r = Table(rules_for(game, "auto"), game=game, validate=True)
            for ev in game.events:
                r.push(ev)
            invalid.extend((str(path), game.index, i, problem) for i, problem in r.invalid)
    assert games > 300
    assert invalid == []
