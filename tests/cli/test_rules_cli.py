"""Rule sets from the command line: presets, TOML files, ``kansa rules`` and the README."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from kansa import docs
from kansa.cli import main, resolve_rules
from kansa.replay.rules import PRESETS, LateClaim, RuleSet
from kansa.replay.violations import RULES

ROOT = Path(__file__).resolve().parents[2]
CLUB = """\
base = "ema"
aka = true
riichi_min_points = 1000
abortive = ["kyuushu_kyuuhai"]
temp_furiten_clear = "draw_or_any_call"
uma = [20000, 10000, -10000, -20000]
"""


def write(tmp_path: Path, text: str, name: str = "club.toml") -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_toml_rule_set_starts_from_its_base(tmp_path: Path) -> None:
    rules = resolve_rules(write(tmp_path, CLUB))
    assert isinstance(rules, RuleSet)
    assert rules.name == "club" and rules.base == "ema"
    assert rules.aka and rules.riichi_min_points == 1000
    assert [r.value for r in rules.abortive] == ["kyuushu_kyuuhai"]
    assert rules.uma == (20000, 10000, -10000, -20000)
    assert rules.late_claim is LateClaim.WITHIN_SECONDS  # kept from ema
    assert not rules.nagashi


@pytest.mark.parametrize(("text", "message"), [
    ('base = "ema"\nriichi_points = 1000\n', "unknown rule-set field 'riichi_points'"),
    ('base = "ema"\nmulti_ron = "triple"\n', "expected one of all, double, head_bump"),
    ('aka = "yes"\n', "bad value for 'aka': 'yes' (expected true or false)"),
    ('riichi_min_points = "1000"\n', "expected a number"),
    ('uma = [15000, 5000]\n', "expected a list of 3 or 4 whole numbers"),
    ('abortive = ["nine_terminals"]\n', "expected a list drawn from"),
    ('base = "house"\n', "bad value for 'base': 'house' (expected one of ema, tenhou"),
    ("aka = \n", "is not valid TOML"),
])
def test_bad_rules_file_is_a_usage_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                         text: str, message: str) -> None:
    path = write(tmp_path, text)
    assert main(["rules", "--rules", path]) == 2
    err = capsys.readouterr().err
    assert message in err and path in err
    log = tmp_path / "x.mjlog"
    log.write_bytes(b"")
    assert main(["audit", "--rules", path, str(log)]) == 2


def test_unknown_rule_set_name_and_missing_file(capsys: pytest.CaptureFixture[str],
                                               tmp_path: Path) -> None:
    assert main(["rules", "--rules", "house"]) == 2
    assert "unknown rule set 'house'" in capsys.readouterr().err
    assert main(["rules", "--rules", str(tmp_path / "none.toml")]) == 2
    assert "cannot read rules file" in capsys.readouterr().err


def test_audit_under_a_toml_rule_set(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                     corpus_dir: Path) -> None:
    path = write(tmp_path, CLUB)
    log = corpus_dir / "tenhou_xml" / "mjx-project__mjx" / "double-ron.mjlog"
    assert main(["audit", "--json", "--fail-on", "never", "--rules", path, str(log)]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["games"][0]["rules"] == "club"


def test_rules_command_lists_every_rule_with_its_citation(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--json", "--rules", "tenhou"]) == 0
    doc = json.loads(capsys.readouterr().out)
    ids = [c["id"] for c in doc["checks"]]
    assert ids == sorted(RULES) and doc["rules"]["name"] == "tenhou"
    by_id = {c["id"]: c for c in doc["checks"]}
    assert by_id["claim.late"]["severity"] == "error"
    assert "Tenhou settles every claim" in by_id["claim.late"]["citation"]
    assert main(["rules", "--json", "--rules", "ema"]) == 0
    ema = {c["id"]: c for c in json.loads(capsys.readouterr().out)["checks"]}
    assert ema["claim.late"]["citation"] == "EMA RCR 3.3.1"
    assert main(["rules"]) == 0
    text = capsys.readouterr().out
    assert all(rule in text for rule in RULES)
    assert main(["rules", "--markdown"]) == 0
    assert capsys.readouterr().out == docs.as_markdown()


def test_user_rule_set_keeps_its_base_citations(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    path = write(tmp_path, 'base = "tenhou"\nname = "my-room"\n')
    assert main(["rules", "--json", "--rules", path]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["rules"]["name"] == "my-room"
    claim = next(c for c in doc["checks"] if c["id"] == "claim.late")
    assert "Tenhou" in claim["citation"]


def test_readme_table_of_checks_is_up_to_date() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    assert docs.updated_readme(text) == text, "run: python -m kansa.docs"
    start, end = docs.readme_block(text)
    assert all(f"`{rule}`" in text[start:end] for rule in RULES)


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_rules_prints_a_toml_file_that_reads_back_to_the_preset(
        preset: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--rules", preset]) == 0
    text = capsys.readouterr().out
    data = tomllib.loads(text)  # valid TOML
    assert data["base"] == RuleSet.preset(preset).base and "aka" in data
    path = write(tmp_path, text, f"{preset}-copy.toml")
    assert resolve_rules(path) == RuleSet.preset(preset)


def test_a_user_rule_file_printed_reads_back_to_itself(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    club = resolve_rules(write(tmp_path, CLUB))
    assert main(["rules", "--rules", write(tmp_path, CLUB)]) == 0
    printed = write(tmp_path, capsys.readouterr().out, "printed.toml")
    assert resolve_rules(printed) == club


def test_the_catalog_stays_available_under_a_rule_set(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "--catalog", "--rules", "tenhou"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("kansa checks under rule set tenhou")
    assert all(rule in text for rule in RULES)
