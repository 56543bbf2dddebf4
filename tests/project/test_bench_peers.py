"""bench/bench.py's kansa modes and bench/peers.py without peers (fast: three corpus files)."""

from __future__ import annotations

import importlib.util
import sys
import zipfile
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _bench() -> ModuleType:
    """``bench/bench.py`` (``bench/`` is not a package; the script puts itself on the path)."""
    spec = importlib.util.spec_from_file_location("kansa_bench", ROOT / "bench" / "bench.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench = _bench()
peers = sys.modules["peers"]


def test_kansa_modes_on_three_files_without_a_peer_python(
        corpus_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    missing = tmp_path / "no-venv" / "bin" / "python"
    bench.main(["--corpus", str(corpus_dir), "--formats", "tenhou_xml", "--limit", "3",
                "--repeat", "1", "--peers", "--peer-python", str(missing)])
    out = capsys.readouterr().out
    for label in ("parse", "replay (engine only: rule checks off)",
                  "full audit (every check and score verification)"):
        assert any(label in line and " 3 games " in line and "games/s" in line
                   for line in out.splitlines()), (label, out)
    assert f"peers: no peer python at {missing}; nothing to compare" in out


def test_the_same_games_are_timed_in_each_json_format_with_their_ratio(
        corpus_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    peers.FIGURES.clear()
    bench.main(["--corpus", str(corpus_dir), "--formats", "tenhou_xml", "--limit", "2",
                "--repeat", "1", "--same-games"])
    lines = capsys.readouterr().out.splitlines()
    for label in ("tenhou_xml", "tenhou6<xml", "mjai<xml"):
        assert any(line.startswith(f"{label} ") and " parse " in line and " 2 games " in line
                   for line in lines), (label, lines)
    ratio = [line for line in lines if line.startswith("same games, parse per game")]
    build = bench.which_build()  # pure from the source tree, compiled where installed so
    assert len(ratio) == 1 and f"({build}): tenhou6 " in ratio[0] and ", mjai " in ratio[0]
    xml, t6 = (peers.FIGURES[k][build]["parse"] for k in ("tenhou_xml", "tenhou6<xml"))
    shown = float(ratio[0].split("tenhou6 ")[1].split(",")[0])
    assert shown == round((t6[1] / t6[0]) / (xml[1] / xml[0]), 2)
    # the same games hold the same hands: per hand, the ratio is the one per game
    per_hand = [line for line in lines if line.startswith("parse per hand over")]
    assert len(per_hand) == 1 and f"({build}): tenhou6<xml {shown:.2f}" in per_hand[0]
    assert bench.HANDS["tenhou_xml"] == bench.HANDS["mjai<xml"] > 2


def test_archive_members_are_timed_each_as_a_log(tmp_path: Path) -> None:
    games = ROOT / "sample_logs" / "games"
    logs = [games / "ema-23.mjson", games / "tenhou-12.json"]
    with zipfile.ZipFile(tmp_path / "games.zip", "w") as archive:
        for path in [*logs, games / "tenhou-sanma-32.json"]:  # 3-player games are left out
            archive.writestr(path.name, path.read_bytes())
        archive.writestr("notes.txt", b"not a log")
    blobs = bench.load_blobs(tmp_path)
    assert [name for _, name in blobs] == [
        f"{tmp_path / 'games.zip'}!{path.name}" for path in logs]
    assert [data for data, _ in blobs] == [path.read_bytes() for path in logs]


def test_no_peer_python_is_a_message_not_an_error(tmp_path: Path) -> None:
    found, why = peers.available(str(tmp_path / "python"))
    assert found == {}
    assert why.startswith("no peer python at")


def test_a_python_without_peers_is_named(tmp_path: Path) -> None:
    found, why = peers.available(sys.executable)
    if found:
        pytest.skip(f"kansa's own environment has peers installed: {found}")
    assert why.startswith("none of jansou, riichienv, mjai loads in")


def test_worker_counts_errors_failures_and_differing_wins(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A peer that raises on some games is counted, never stops the run."""

    def fake(items: list[dict[str, str]]) -> dict[str, Any]:
        def mode(i: int, t: Any) -> None:
            if i == 0:
                peers._parsed(lambda: int(""))
            if i == 1:
                peers._replayed([].pop)
            t.wins += 2
            if i == 2:
                t.bad.append(("han", "seat 0: 3 han, log 2 han"))

        return {"replay": mode}

    monkeypatch.setitem(peers.LOADERS, "fake", fake)
    items = [{"name": f"g{i}", "kind": "xml", "raw": "", "mjai": ""} for i in range(4)]
    o = peers.time_modes("fake", items, repeat=2)["replay"]
    assert (o.games, o.completed, o.n_errors, o.n_failures) == (4, 2, 1, 2)
    assert (o.wins, o.bad_wins, o.kinds) == (4, 1, {"han": 1})
    assert o.errors[0].startswith("g0: ValueError")
    assert o.failures[0].startswith("g1: IndexError")
    assert "g2: 1 win(s) differ" in o.failures[1]


def test_an_unknown_format_is_refused_by_name(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as info:
        bench.main(["--formats", "majsoul,mahjongsoul"])
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "unknown format mahjongsoul" in err and "majsoul" in err.split("known:")[1]
