"""kansa convert: any format in, mjai or tenhou.net/6 out, readable again."""

from __future__ import annotations

from pathlib import Path

import pytest

from kansa.cli import main
from kansa.parsers import load

pytestmark = pytest.mark.corpus


def test_convert_a_folder_to_mjai_files(corpus_dir: Path, tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    src = corpus_dir / "tenhou_xml" / "mjx-project__mjx" / "double-ron.mjlog"
    assert main(["convert", str(src), "--to", "mjai", "-o", str(tmp_path) + "/"]) == 0
    out = tmp_path / "double-ron.mjson"
    assert load(out)[0].events == load(src)[0].events


def test_convert_to_stdout_and_to_a_file(corpus_dir: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str]) -> None:
    src = corpus_dir / "tenhou6" / "Equim-chan__mjai-reviewer" / "double_ron.json"
    assert main(["convert", str(src), "--to", "mjai"]) == 0
    text = capsys.readouterr().out
    assert text.startswith('{"type":"start_game"')
    target = tmp_path / "one.json"
    assert main(["convert", str(src), "--to", "tenhou6", "-o", str(target)]) == 0
    assert load(target)[0].events == load(src)[0].events


def test_unreadable_inputs_are_reported_and_the_rest_converted(
        corpus_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text("{")
    good = corpus_dir / "tenhou6" / "Equim-chan__mjai-reviewer" / "rinshan.json"
    out = tmp_path / "out"
    assert main(["convert", str(bad), str(good), "--to", "mjai", "-o", f"{out}/"]) == 3
    assert "bad.json" in capsys.readouterr().err
    assert [p.name for p in out.iterdir()] == ["rinshan.mjson"]
