"""``kansa stats`` and ``kansa report`` on a few real games."""

from __future__ import annotations

import dataclasses
import io
import sys
from collections.abc import Iterable
from pathlib import Path

import pandas as pd
import pytest

from kansa.cli import main
from kansa.reports import registry
from kansa.reports.plots import PLOTS
from kansa.reports.tables import SCHEMAS

pytestmark = pytest.mark.corpus

GAMES = ("mjx-project__mjx/double-ron.mjlog", "mjx-project__mjx/upd-sutehai-furiten.mjlog",
         "Jim137__Tenhou-Paifu-Logger/2022060222gm-0001-0000-a87679bc&tw=3.mjlog")
TABLES = [*SCHEMAS, "players", "tenpai_by_turn"]


def inputs(corpus_dir: Path) -> list[str]:
    return [str(corpus_dir / "tenhou_xml" / g) for g in GAMES]


def test_stats_writes_every_table_and_plot(corpus_dir: Path, tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "stats"
    assert main(["stats", *inputs(corpus_dir), "-o", str(out)]) == 0
    for name in TABLES:
        csv = pd.read_csv(out / f"{name}.csv")
        parquet = pd.read_parquet(out / f"{name}.parquet")
        assert list(csv.columns) == list(parquet.columns) and len(csv) == len(parquet), name
    assert len(pd.read_parquet(out / "games.parquet")) == 3
    for name in PLOTS:
        assert (out / f"{name}.png").read_bytes().startswith(b"\x89PNG")
        assert b"<svg" in (out / f"{name}.svg").read_bytes()[:2000]
    assert "riichi" in capsys.readouterr().out


def test_player_filter_and_unknown_player(corpus_dir: Path, tmp_path: Path,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mine"
    assert main(["stats", *inputs(corpus_dir), "-o", str(out), "--player", "CLS"]) == 0
    players = pd.read_parquet(out / "players.parquet")
    assert list(players["name"]) == ["CLS"]
    riichi = pd.read_parquet(out / "riichi.parquet")
    assert set(riichi["name"]) <= {"CLS"}
    assert main(["stats", *inputs(corpus_dir), "-o", str(out), "--player", "nobody"]) == 2
    assert "no player named 'nobody'" in capsys.readouterr().err


def test_report_writes_one_html_file(corpus_dir: Path, tmp_path: Path) -> None:
    page = tmp_path / "r.html"
    assert main(["report", *inputs(corpus_dir), "-o", str(page), "--game",
                 "double-ron.mjlog"]) == 0
    text = page.read_text(encoding="utf-8")
    assert text.startswith("<!doctype html>") and "Score progression" not in text[:200]
    assert text.count("data:image/svg+xml;base64,") == len(PLOTS)
    assert main(["report", *inputs(corpus_dir), "-o", str(page), "--game", "nope"]) == 2


def test_unreadable_input_is_reported_and_exits_3(corpus_dir: Path, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.xml"
    bad.write_bytes(b"<mjloggm")
    assert main(["stats", *inputs(corpus_dir), str(bad), "-o", str(tmp_path / "o")]) == 3
    assert "unreadable" in capsys.readouterr().err


def test_a_file_whose_tables_fail_is_left_out_and_named(corpus_dir: Path, tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str],
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A bug in the tables for one file costs that file, not the command."""
    games_table = registry.BASE["games"]

    def failing(game: registry.GameFacts) -> Iterable[registry.Row]:
        if "double-ron" in game.result.source:
            raise RuntimeError("planted")
        return games_table.rows(game)
    monkeypatch.setitem(registry.BASE, "games", dataclasses.replace(games_table, rows=failing))
    out = tmp_path / "stats"
    assert main(["stats", *inputs(corpus_dir), "-o", str(out)]) == 3
    err = capsys.readouterr().err
    assert "internal_error" in err and "double-ron.mjlog" in err and "planted" in err
    games = pd.read_parquet(out / "games.parquet")
    assert len(games) == 2 and not games["file"].str.contains("double-ron").any()
    page = tmp_path / "r.html"
    assert main(["report", *inputs(corpus_dir), "-o", str(page)]) == 3
    text = page.read_text(encoding="utf-8")
    assert "Files not in the statistics" in text and "planted" in text


SAMPLES = Path(__file__).resolve().parents[2] / "sample_logs"


def test_stats_and_report_draw_a_progress_bar_when_asked(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", str(SAMPLES / "disputes"), "-o", str(tmp_path / "s"),
                 "--progress", "always", "-j", "1"]) == 0
    err = capsys.readouterr().err
    assert "6/6 files" in err and "[" + "#" * 24 + "]" in err
    assert main(["report", str(SAMPLES / "disputes"), "-o", str(tmp_path / "r.html"),
                 "--progress", "never"]) == 0
    assert "files" not in capsys.readouterr().err


def test_stats_read_one_log_from_standard_input(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    data = (SAMPLES / "disputes" / "late-claim.mjson").read_bytes()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    assert main(["stats", "-", "-o", str(tmp_path)]) == 0
    games = pd.read_parquet(tmp_path / "games.parquet")
    assert list(games["file"]) == ["<stdin>"]
    found = pd.read_parquet(tmp_path / "findings.parquet")
    assert "claim.late" in set(found["rule"])
