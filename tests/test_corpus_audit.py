"""The standing rule: real games audited under their own rule set give no errors."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from kansa.discovery import discover
from kansa.runner import AuditOptions, build_document, iter_outcomes
from tests.corpus_counts import check_documented, four_player_xml, is_documented, total, xml_counts

pytestmark = pytest.mark.corpus


def audit(folder: Path) -> dict[str, Any]:
    files, missing = discover([str(folder)])
    assert not missing and files
    return build_document(iter_outcomes(files, AuditOptions()), 0.0)


@pytest.fixture(scope="module")
def xml_audit(corpus_dir: Path) -> dict[str, Any]:
    return audit(corpus_dir / "tenhou_xml")


def test_tenhou_xml_corpus_is_clean(xml_audit: dict[str, Any]) -> None:
    summary = xml_audit["summary"]
    assert summary["unreadable"] == 0 and summary["internal_errors"] == 0
    assert summary["errors_by_rule"] == {}
    # the only findings allowed on real games are warnings about logs cut short
    assert set(summary["violations"]) <= {"log.truncated"}


def test_tenhou_xml_corpus_is_fully_counted(corpus_dir: Path,
                                            xml_audit: dict[str, Any]) -> None:
    """Every four-player file audited, each with the hands and wins its XML shows;
    three-player files (``GO type`` bit 0x10) listed as unsupported."""
    folder = corpus_dir / "tenhou_xml"
    xml = four_player_xml(folder)
    check_documented(xml)
    every = sorted(str(p) for p in folder.rglob("*") if p.is_file())
    summary = xml_audit["summary"]
    assert summary["files"] == len(every)
    assert summary["unsupported"] == len(every) - len(xml)
    assert sorted(u["file"] for u in xml_audit["unsupported"]) == \
        sorted(set(every) - set(xml))
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
