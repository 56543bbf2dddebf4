"""The real three-player games: audited under their own rules with no error finding."""

from __future__ import annotations

from pathlib import Path

import pytest

from kansa.parsers import load
from kansa.replay.engine import replay
from kansa.replay.result import ReplayResult
from kansa.replay.violations import Severity
from kansa.runner import AuditOptions, audit_file, rules_for
from tests.corpus_counts import manifest

pytestmark = pytest.mark.corpus


def three_player_files(corpus: Path) -> list[Path]:
    files = [corpus / row.file for row in manifest(corpus) if row.players == 3]
    assert files, "the manifest lists no three-player game"
    return files


def replayed(path: Path) -> list[ReplayResult]:
    return [replay(g, rules_for(g, "auto")) for g in load(str(path))]


def test_every_three_player_game_audits_with_no_error(corpus_dir: Path) -> None:
    for path in three_player_files(corpus_dir):
        for r in replayed(path):
            assert r.players == 3, path
            assert r.rules in ("tenhou-sanma", "majsoul-sanma"), (path, r.rules)
            errors = [v for v in r.violations if v.severity is Severity.ERROR]
            assert errors == [], (path, errors)


def test_every_three_player_win_is_valued_and_every_hand_compared(corpus_dir: Path) -> None:
    for path in three_player_files(corpus_dir):
        for r in replayed(path):
            assert r.wins == r.wins_valued > 0, path
            assert r.hands_compared == sum(1 for h in r.hands if h.complete), path
            # a win's value differs from the log's in nothing but the writer's names
            for v in r.violations:
                assert v.rule != "score.value" or "naming slip" in v.message, (path, v)


def test_the_runner_audits_three_player_files(corpus_dir: Path) -> None:
    for path in three_player_files(corpus_dir):
        outcome = audit_file(str(path), AuditOptions())
        assert outcome.status in ("clean", "findings"), (path, outcome.status)
