"""Every rule id in the catalog is documented and exercised by a test."""

from __future__ import annotations

import re
from pathlib import Path

import kansa.replay.engine  # noqa: F401  (registers every check)
from kansa.replay.checks.registry import CHECKS
from kansa.replay.violations import RULES

TESTS = Path(__file__).resolve().parent


def test_every_rule_has_a_title_description_and_citation() -> None:
    for rule_id, spec in RULES.items():
        assert re.fullmatch(r"[a-z]+\.[a-z0-9-]+", rule_id), rule_id
        assert spec.title and spec.description and spec.citation, rule_id


def test_every_rule_id_is_named_in_a_test() -> None:
    """A rule id no test names has no crafted log that triggers it."""
    text = "\n".join(p.read_text(encoding="utf-8") for p in TESTS.rglob("*.py")
                     if p.name != Path(__file__).name)
    untested = [r for r in RULES if f'"{r}"' not in text and f"'{r}'" not in text]
    assert untested == []


def test_every_check_reports_only_catalogued_rules() -> None:
    for c in CHECKS:
        assert set(c.rules) <= set(RULES), c.name
