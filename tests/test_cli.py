"""The kansa command: exit status, JSON document, bad input in a batch."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from kansa.cli import main

SUMMARY_KEYS = {"files", "games", "hands", "wins", "events", "unreadable", "unsupported",
                "violations", "errors_by_rule", "seconds"}


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["audit", "--json", *args])
    return code, json.loads(capsys.readouterr().out)


def test_usage_errors_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["audit", str(tmp_path / "missing")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["frobnicate"]) == 2
    assert main(["audit"]) == 2


def test_bad_files_are_listed_and_the_batch_goes_on(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "empty.xml").write_bytes(b"")
    (tmp_path / "garbage.bin").write_bytes(bytes(range(256)) * 4)
    (tmp_path / "cut.mjlog").write_bytes(b'<mjloggm ver="2.3"><GO type="169" lobby="0"/><UN n0')
    code, doc = run_json(capsys, str(tmp_path))
    assert code == 3
    assert set(doc["summary"]) >= SUMMARY_KEYS
    assert doc["summary"]["files"] == 3 and doc["summary"]["unreadable"] == 3
    by_file = {Path(u["file"]).name: u for u in doc["unreadable"]}
    assert set(by_file) == {"empty.xml", "garbage.bin", "cut.mjlog"}
    assert "empty" in by_file["empty.xml"]["error"]
    assert "line 1" in by_file["cut.mjlog"]["position"]


def test_clean_corpus_file_exits_0(capsys: pytest.CaptureFixture[str],
                                   corpus_dir: Path) -> None:
    path = corpus_dir / "tenhou_xml" / "mjx-project__mjx" / "double-ron.mjlog"
    code, doc = run_json(capsys, str(path))
    assert code == 0
    assert doc["summary"]["files"] == 1 and doc["summary"]["games"] == 1
    game = doc["games"][0]
    assert game["format"] == "tenhou_xml" and game["rules"] == "tenhou" and game["players"] == 4
    assert doc["unreadable"] == [] and doc["unsupported"] == []


def test_human_summary(capsys: pytest.CaptureFixture[str], corpus_dir: Path) -> None:
    path = corpus_dir / "tenhou_xml" / "mjx-project__mjx" / "upd-sutehai-furiten.mjlog"
    assert main(["audit", str(path)]) == 0
    out = capsys.readouterr().out
    assert "1 files, 1 games" in out and "log.truncated (warning)" in out
    assert main(["audit", "--fail-on", "warning", str(path)]) == 1


def test_documentation_files_in_a_folder_are_unsupported_not_unreadable(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    (tmp_path / "README.md").write_text("# games of the club\n")
    (tmp_path / "MANIFEST.tsv").write_text("file\tformat\n")
    (tmp_path / "notes.bin").write_bytes(b"\x00\x01not a log")
    code, doc = run_json(capsys, str(tmp_path))
    s = doc["summary"]
    assert (s["files"], s["unsupported"], s["unreadable"]) == (3, 2, 1)
    assert {Path(u["file"]).name for u in doc["unsupported"]} == {"README.md", "MANIFEST.tsv"}
    assert all("not a game log" in u["reason"] for u in doc["unsupported"])
    assert Path(doc["unreadable"][0]["file"]).name == "notes.bin" and code == 3
