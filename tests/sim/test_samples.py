"""The sample logs: each dispute is about one rule, each simulated game is clean, and the
files are what the builders give."""

from __future__ import annotations

from pathlib import Path

import pytest

from kansa.parsers import load
from kansa.replay.engine import replay
from kansa.replay.rules import RuleSet
from kansa.replay.violations import RULES
from kansa.runner import AuditOptions, audit_file
from kansa.sim import samples

FOLDER = Path(__file__).resolve().parents[2] / "sample_logs"
"""The tree's samples (``samples.FOLDER`` is beside the imported package, which is not
the tree when the suite runs on the installed package)."""

NAMES = sorted(samples.SAMPLES)
GAMES = sorted(samples.GAMES)


def test_every_headline_rule_is_in_the_catalog() -> None:
    assert {rule for _, rule in samples.SAMPLES.values()} - set(RULES) == set()


@pytest.mark.parametrize("name", NAMES)
def test_sample_breaks_exactly_its_headline_rule(name: str) -> None:
    build, rule = samples.SAMPLES[name]
    game = build()
    result = replay(game, RuleSet.auto(game.hints))
    assert result.rules == "ema"
    errors = [(v.rule, v.message) for v in result.violations if v.severity.value == "error"]
    assert [r for r, _ in errors] == [rule], errors
    others = {v.rule for v in result.violations if v.severity.value != "error"}
    assert others <= {"log.truncated"}


def test_sample_files_are_what_the_builders_give() -> None:
    files = samples.render()
    assert sorted(files) == sorted([f"disputes/{n}.mjson" for n in NAMES]
                                   + [f"games/{n}" for n in GAMES])
    for file, text in files.items():
        path = FOLDER / file
        assert path.is_file(), f"{path} missing: run python -m kansa.sim.samples"
        assert path.read_text(encoding="utf-8") == text, f"{path}: run python -m kansa.sim.samples"
    assert samples.main(["--check", "--folder", str(FOLDER)]) == 0


@pytest.mark.parametrize("name", NAMES)
def test_auditing_the_file_reports_its_headline_rule(name: str) -> None:
    _, rule = samples.SAMPLES[name]
    outcome = audit_file(str(FOLDER / "disputes" / f"{name}.mjson"), AuditOptions())
    assert outcome.status == "findings"
    (game,) = outcome.games
    assert game["rules"] == "ema"
    assert [v["rule"] for v in game["violations"] if v["severity"] == "error"] == [rule]


def test_regenerating_into_a_fresh_folder_gives_identical_files(tmp_path: Path) -> None:
    assert samples.main(["--folder", str(tmp_path), "--check"]) == 1
    assert samples.main(["--folder", str(tmp_path)]) == 0
    first = {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*") if p.is_file()}
    assert len(first) == len(NAMES) + len(GAMES)
    assert samples.main(["--folder", str(tmp_path), "--check"]) == 0
    assert samples.main(["--folder", str(tmp_path)]) == 0
    assert {p.relative_to(tmp_path): p.read_bytes() for p in tmp_path.rglob("*")
            if p.is_file()} == first
    (tmp_path / "games" / GAMES[0]).write_text("{}\n", encoding="utf-8")
    assert samples.main(["--folder", str(tmp_path), "--check"]) == 1


@pytest.mark.parametrize("name", GAMES)
def test_a_sample_game_is_complete_and_audits_clean(name: str) -> None:
    sample = samples.GAMES[name]
    path = FOLDER / "games" / name
    outcome = audit_file(str(path), AuditOptions())
    assert outcome.status == "clean", outcome.games
    (game,) = outcome.games
    assert game["rules"] == sample.rules and game["violations"] == []
    (read,) = load(path)
    assert read.format == {"mjai": "mjai", "tenhou6": "tenhou6"}[sample.writer]
    assert read.events == sample.build().events
    result = replay(read, RuleSet.auto(read.hints))
    assert result.complete and result.violations == []


@pytest.mark.parametrize("name", GAMES)
def test_a_sample_game_shows_what_the_readme_says(name: str) -> None:
    sample = samples.GAMES[name]
    found = samples.features(sample.build())
    assert {k: found.get(k, 0) for k, _ in sample.expect} == dict(sample.expect)
    # chi only at four players; kita only at three
    three = sample.build().hints.players == 3
    assert found["riichi"] and found.get("pon") and bool(found.get("chi")) is not three
    assert bool(found.get("nukidora")) is three
    assert f"`{name}`" in (FOLDER.parent / "README.md").read_text(encoding="utf-8")
