"""The standing rule: real games audited under their own rule set give no errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kansa.discovery import discover
from kansa.runner import AuditOptions, build_document, iter_outcomes
from parsers.source import read_log_bytes
from parsers.tenhou_rules import decode_go

pytestmark = pytest.mark.corpus


def audit(folder: Path) -> dict[str, object]:
    files, missing = discover([str(folder)])
    assert not missing and files
    return build_document(iter_outcomes(files, AuditOptions()), 0.0)


def test_tenhou_xml_corpus_is_clean_and_fully_counted(corpus_dir: Path) -> None:
    folder = corpus_dir / "tenhou_xml"
    doc = audit(folder)
    summary = doc["summary"]
    assert isinstance(summary, dict)
    inits = agaris = files = sanma = 0
    lobbies: set[str] = set()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        text = read_log_bytes(path).decode("utf-8")
        go = re.search(r"<GO [^>]*>", text)
        if go is None:
            continue
        go_type = int(re.search(r'type="(\d+)"', go.group(0)).group(1))  # type: ignore[union-attr]
        if go_type & 0x10:
            sanma += 1
            continue  # three-player: listed as unsupported
        files += 1
        inits += len(re.findall(r"<INIT ", text))
        agaris += len(re.findall(r"<AGARI ", text))
        if decode_go(go_type, lobby=_attr(go.group(0), "lobby"),
                     csrule=_attr(go.group(0), "csrule")).unknown:
            lobbies.add(str(path))
    assert summary["unreadable"] == 0 and summary["internal_errors"] == 0
    assert summary["errors_by_rule"] == {}
    assert summary["files"] == files + sanma and summary["unsupported"] == sanma
    assert files >= 184
    assert summary["hands"] == inits
    assert summary["wins"] == agaris
    # the only findings allowed on real games are warnings about logs cut short, and
    # one warning per game whose lobby's rules kansa cannot tell (tenhou_rules.py)
    assert set(summary["violations"]) <= {"log.truncated", "log.assumption"}
    games = doc["games"]
    assert isinstance(games, list)
    for g in games:
        assumed = [v for v in g["violations"] if v["rule"] == "log.assumption"]
        assert len(assumed) <= 1
        assert not assumed or g["file"] in lobbies, g["file"]


def _attr(tag: str, name: str) -> str | None:
    found = re.search(rf'\b{name}="([^"]*)"', tag)
    return found.group(1) if found else None
