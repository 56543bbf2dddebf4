"""The standing rule: real games audited under their own rule set give no errors."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from kansa.discovery import discover
from kansa.parsers.tenhou_xml.rules import decode_go
from kansa.runner import AuditOptions, build_document, iter_outcomes
from tests.corpus_counts import (
    check_documented,
    four_player_xml,
    is_documented,
    is_three_player_xml,
    read_text,
    total,
    xml_counts,
)

pytestmark = pytest.mark.corpus


def audit(folder: Path) -> dict[str, Any]:
    files, missing = discover([str(folder)])
    assert not missing and files
    return build_document(iter_outcomes(files, AuditOptions()), 0.0)


@pytest.fixture(scope="module")
def xml_audit(corpus_dir: Path) -> dict[str, Any]:
    return audit(corpus_dir / "tenhou_xml")


def test_tenhou_xml_corpus_is_clean(corpus_dir: Path, xml_audit: dict[str, Any]) -> None:
    summary = xml_audit["summary"]
    assert summary["unreadable"] == 0 and summary["internal_errors"] == 0
    assert summary["errors_by_rule"] == {}
    # the only findings allowed on real games are warnings about logs cut short, and
    # one warning per game whose lobby's rules kansa cannot tell (tenhou_rules.py)
    # and warnings about a value the log's writer named otherwise (same points)
    assert set(summary["violations"]) <= {"log.truncated", "log.assumption", "score.value"}
    for g in xml_audit["games"]:
        for v in g["violations"]:
            assert v["rule"] != "score.value" or "naming slip" in v["message"], v
    lobbies = set()
    for path, text in four_player_xml(corpus_dir / "tenhou_xml").items():
        go = re.search(r"<GO [^>]*>", text)
        assert go is not None, path
        go_type = int(_attr(go.group(0), "type") or 0)
        if decode_go(go_type, lobby=_attr(go.group(0), "lobby"),
                     csrule=_attr(go.group(0), "csrule")).unknown:
            lobbies.add(path)
    for g in xml_audit["games"]:
        assumed = [v for v in g["violations"] if v["rule"] == "log.assumption"]
        assert len(assumed) <= 1
        assert not assumed or g["file"] in lobbies, g["file"]


def _attr(tag: str, name: str) -> str | None:
    found = re.search(rf'\b{name}="([^"]*)"', tag)
    return found.group(1) if found else None


def test_tenhou_xml_corpus_is_fully_counted(corpus_dir: Path,
                                            xml_audit: dict[str, Any]) -> None:
    """Every file audited, three-player ones (``GO type`` bit 0x10) too, each with the
    hands and wins its XML shows."""
    folder = corpus_dir / "tenhou_xml"
    check_documented(four_player_xml(folder))
    xml = {str(p): read_text(p) for p in sorted(folder.rglob("*")) if p.is_file()}
    assert any(is_three_player_xml(text) for text in xml.values())
    summary = xml_audit["summary"]
    assert summary["files"] == len(xml)
    assert summary["unsupported"] == 0 and xml_audit["unsupported"] == []
    whole = total(xml)
    assert (summary["games"], summary["hands"], summary["wins"]) == \
        (whole.files, whole.hands, whole.wins)
    games = {g["file"]: g for g in xml_audit["games"]}
    assert sorted(games) == sorted(xml)
    for path, text in xml.items():
        counts = xml_counts(text)
        assert (games[path]["hands"], games[path]["wins"]) == (counts.hands, counts.wins), path
    documented = [g for path, g in games.items() if is_documented(path)]
    assert sum(g["hands"] for g in documented) == 1811
    assert sum(g["wins"] for g in documented) == 1503
