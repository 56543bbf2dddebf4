"""The standing rule: real games audited under their own rule set give no errors."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from kansa.discovery import discover
from kansa.runner import AuditOptions, build_document, iter_outcomes
from parsers.source import read_log_bytes

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
    inits = agaris = files = 0
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        text = read_log_bytes(path).decode("utf-8")
        if re.search(r'<GO type="(\d+)"', text) and int(
                re.search(r'<GO type="(\d+)"', text).group(1)) & 0x10:  # type: ignore[union-attr]
            continue  # three-player: listed as unsupported
        files += 1
        inits += len(re.findall(r"<INIT ", text))
        agaris += len(re.findall(r"<AGARI ", text))
    assert summary["unreadable"] == 0 and summary["internal_errors"] == 0
    assert summary["errors_by_rule"] == {}
    assert summary["files"] == files == 184
    assert summary["hands"] == inits == 1811
    assert summary["wins"] == agaris == 1503
    # the only findings allowed on real games are warnings about logs cut short
    assert set(summary["violations"]) <= {"log.truncated"}  # type: ignore[arg-type]
