"""The EMA rule texts a dispute packet shows: one for every section a check cites,
each the seeds' own text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import kansa.replay.checks  # noqa: F401  (registers every rule)
from kansa.replay.violations import RULES
from kansa.reports import rulebook

SEEDS = Path(__file__).resolve().parents[2].parent / "shared" / "seeds"

NOT_IN_THE_SEEDS = {"1.1", "3.3.14", "3.4.9", "3.4.10", "3.6"}
"""Sections a check cites whose text the seeds do not hold (a summary only)."""


def _citations() -> list[tuple[str, str]]:
    return [(spec.id, c) for spec in RULES.values() for c in {spec.citation,
                                                              *spec.citations.values()}]


def test_every_cited_section_is_carried_with_a_summary() -> None:
    for rule, citation in _citations():
        for number in rulebook.sections_cited(citation):
            s = rulebook.section(number)
            assert s is not None, f"{rule}: {citation!r} cites {number}, not carried"
            assert s.summary.strip()
            assert (s.text is None) == (number in NOT_IN_THE_SEEDS), number


def test_every_rule_citing_an_ema_section_has_a_text() -> None:
    missing = set()
    for rule, citation in _citations():
        numbers = rulebook.sections_cited(citation)
        if numbers and not any(s.text for s in rulebook.rule_texts(citation)):
            missing.add(rule)
            assert set(numbers) <= NOT_IN_THE_SEEDS, (rule, numbers)
    # only the rules citing nothing but sections the seeds lack
    assert missing == {"tiles.conservation", "score.payment", "score.final"}


def test_sections_cited_reads_lists_ranges_and_editions() -> None:
    assert rulebook.sections_cited("EMA RCR 3.1, 3.4.10") == ["3.1", "3.4.10"]
    assert rulebook.sections_cited("EMA RCR 3.3.5-3.3.7 (kan dora), scoring chapter") == [
        "3.3.5", "3.3.6", "3.3.7"]
    assert rulebook.sections_cited("EMA RCR 3.3.11 and the scoring chapter") == ["3.3.11"]
    assert rulebook.sections_cited("EMA RCR 2016 3.3.2") == []  # another numbering
    assert rulebook.sections_cited("Tenhou rules: 積み棒") == []
    assert rulebook.sections_cited("Tenhou.net rules (x), furiten; EMA RCR 3.4.5") == ["3.4.5"]


def _plain(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


@pytest.mark.parametrize("number", sorted(n for n, s in rulebook.all_sections().items()
                                          if s.text))
def test_each_carried_text_is_in_its_seed(number: str) -> None:
    if not SEEDS.is_dir():
        pytest.skip(f"the seeds are not at {SEEDS}")
    s = rulebook.section(number)
    assert s is not None and s.text is not None and s.seed is not None
    seed = _plain((SEEDS / s.seed).read_text(encoding="utf-8"))
    at = 0
    if s.note is None:  # a seed with headings: the text follows its section's heading
        at = seed.find(_plain(f"{number} {s.title}"))
        assert at >= 0, f"no heading {number} in {s.seed}"
    for paragraph in s.text.split("\n"):  # each paragraph the seed's, in the seed's order
        found = seed.find(_plain(paragraph), at)
        assert found >= 0, f"{number}: {paragraph[:60]!r} is not in {s.seed}"
        at = found


def test_penalties_say_where_a_rule_set_is_silent() -> None:
    ema = rulebook.penalty("furiten.discard", "ema")
    assert ema["penalty"] is not None and "20,000" in ema["penalty"] and ema["source"]
    assert "30,000" in str(rulebook.penalty("win.no-yaku", "wrc")["penalty"])
    assert rulebook.penalty("tiles.hand-size", "ema")["penalty"].startswith("dead hand")
    silent = rulebook.penalty("claim.late", "ema")
    assert silent["penalty"] is None and "names no penalty" in str(silent["note"])
    online = rulebook.penalty("furiten.discard", "tenhou")
    assert online["penalty"] is None and "online platform" in str(online["note"])
