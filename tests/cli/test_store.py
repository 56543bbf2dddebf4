"""The results store: append, skip what was audited, and reports read from it."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest

from kansa.cli import main
from kansa.discovery import discover
from kansa.reports.stats import build, complete
from kansa.runner import AuditOptions, replay_file
from kansa.store import ResultStore

pytestmark = pytest.mark.corpus


def audit(capsys: pytest.CaptureFixture[str], *args: str) -> dict:  # type: ignore[type-arg]
    code = main(["audit", "--json", "--no-timing", "-j", "1", *args])
    assert code in (0, 1)
    return json.loads(capsys.readouterr().out)  # type: ignore[no-any-return]


def some_logs(corpus_dir: Path, tmp_path: Path, n: int) -> Path:
    folder = tmp_path / "archive"
    folder.mkdir(exist_ok=True)
    files, _ = discover([str(corpus_dir / "tenhou_xml" / "mjx-project__mjx")])
    for f in files[:n]:
        shutil.copy(f, folder / Path(f).name)
    return folder


def test_a_second_run_audits_only_new_files(corpus_dir: Path, tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    archive = some_logs(corpus_dir, tmp_path, 6)
    store = tmp_path / "store"
    first = audit(capsys, str(archive), "--store", str(store))["summary"]
    assert (first["files"], first["from_store"], first["games"]) == (6, 0, 6)
    again = audit(capsys, str(archive), "--store", str(store))["summary"]
    assert (again["files"], again["from_store"], again["games"]) == (6, 6, 6)
    assert again["clean"] + again["with_findings"] == 6  # counted by their stored outcome
    some_logs(corpus_dir, tmp_path, 8)  # the archive grows by two games
    grown = audit(capsys, str(archive), "--store", str(store))["summary"]
    assert (grown["files"], grown["from_store"], grown["games"]) == (8, 6, 8)
    files = ResultStore(store).tables().games
    assert len(files) == 8 and files["file"].is_unique
    # another rule set is another audit of the same files
    ema = audit(capsys, str(archive), "--store", str(store), "--rules", "ema")["summary"]
    assert (ema["from_store"], ema["games"]) == (0, 8)


def test_store_tables_equal_the_tables_of_the_logs(corpus_dir: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    archive = some_logs(corpus_dir, tmp_path, 5)
    store = tmp_path / "store"
    audit(capsys, str(archive), "--store", str(store))
    files, _ = discover([str(archive)])
    direct = build([r for f in files for r in replay_file(f, AuditOptions()).results])
    stored = complete(ResultStore(store).tables())
    for name, df in direct.items():
        key = [c for c in ("game", "seat", "label", "name", "event") if c in df.columns]
        a = df.sort_values(key).reset_index(drop=True) if key else df
        other = getattr(stored, name, None)
        b = stored.extra[name] if other is None else other
        b = b.sort_values(key).reset_index(drop=True) if key else b
        pd.testing.assert_frame_equal(a, b[a.columns], check_dtype=False, obj=name)


def test_reports_read_the_store(corpus_dir: Path, tmp_path: Path,
                                capsys: pytest.CaptureFixture[str]) -> None:
    archive = some_logs(corpus_dir, tmp_path, 3)
    store = tmp_path / "store"
    audit(capsys, str(archive), "--store", str(store))
    out = tmp_path / "stats"
    assert main(["stats", "--store", str(store), "-o", str(out)]) == 0
    assert (out / "players.parquet").exists() and (out / "score_progression.png").exists()
    page = tmp_path / "r.html"
    assert main(["report", "--store", str(store), "-o", str(page)]) == 0
    assert "kansa report" in page.read_text(encoding="utf-8")
    assert main(["report", str(archive), "--store", str(store), "-o", str(page)]) == 2
