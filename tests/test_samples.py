"""The dispute logs: each is about one rule, and the files are what the builders give."""

from __future__ import annotations

from pathlib import Path

import pytest

from kansa import samples
from kansa.runner import AuditOptions, audit_file
from replay.engine import replay
from replay.rules import RuleSet
from replay.violations import RULES

NAMES = sorted(samples.SAMPLES)


@pytest.mark.parametrize("name", NAMES)
def test_sample_breaks_exactly_its_headline_rule(name: str) -> None:
    build, rule = samples.SAMPLES[name]
    if rule not in RULES:
        pytest.skip(f"{rule} is checked on another branch; its finding appears after the merge")
    game = build()
    result = replay(game, RuleSet.auto(game.hints))
    assert result.rules == "ema"
    errors = [(v.rule, v.message) for v in result.violations if v.severity.value == "error"]
    assert [r for r, _ in errors] == [rule], errors
    others = {v.rule for v in result.violations if v.severity.value != "error"}
    assert others <= {"log.truncated"}


def test_sample_files_are_what_the_builders_give() -> None:
    files = samples.render()
    assert sorted(files) == sorted(f"{n}.mjson" for n in NAMES)
    for file, text in files.items():
        path = samples.FOLDER / file
        assert path.is_file(), f"{path} missing: run python -m kansa.samples"
        assert path.read_text(encoding="utf-8") == text, f"{path}: run python -m kansa.samples"
    assert samples.main(["--check"]) == 0


@pytest.mark.parametrize("name", NAMES)
def test_auditing_the_file_reports_its_headline_rule(name: str) -> None:
    _, rule = samples.SAMPLES[name]
    if rule not in RULES:
        pytest.skip(f"{rule} is checked on another branch")
    outcome = audit_file(str(samples.FOLDER / f"{name}.mjson"), AuditOptions())
    assert outcome.status == "findings"
    (game,) = outcome.games
    assert game["rules"] == "ema"
    assert [v["rule"] for v in game["violations"] if v["severity"] == "error"] == [rule]


def test_regenerating_into_a_fresh_folder_gives_identical_files(tmp_path: Path) -> None:
    assert samples.main(["--folder", str(tmp_path)]) == 0
    first = {p.name: p.read_bytes() for p in tmp_path.iterdir()}
    assert samples.main(["--folder", str(tmp_path), "--check"]) == 0
    assert samples.main(["--folder", str(tmp_path)]) == 0
    assert {p.name: p.read_bytes() for p in tmp_path.iterdir()} == first
