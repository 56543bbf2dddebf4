"""The README's table of exit statuses, for every command: what a script can rely on.

Built from the project's own ``sample_logs/`` (clean self-play games and dispute logs
with errors on purpose) and files made here, so it runs without the corpus.
"""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from kansa import cli
from kansa.cli import (
    EXIT_FINDINGS,
    EXIT_INPUT,
    EXIT_INTERRUPTED,
    EXIT_NO_INPUT,
    EXIT_OK,
    EXIT_PIPE,
    EXIT_USAGE,
    main,
)

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "sample_logs" / "games"
DISPUTES = ROOT / "sample_logs" / "disputes"
LATE_CLAIM = DISPUTES / "late-claim.mjson"


@pytest.fixture
def clean_game() -> str:
    return str(sorted(GAMES.iterdir())[0])


@pytest.fixture
def garbage(tmp_path: Path) -> str:
    path = tmp_path / "garbage.bin"
    path.write_bytes(bytes(range(256)) * 4)
    return str(path)


@pytest.fixture
def empty_dir(tmp_path: Path) -> str:
    path = tmp_path / "empty"
    path.mkdir()
    return str(path)


def test_the_statuses_are_distinct_and_documented() -> None:
    codes = [EXIT_OK, EXIT_FINDINGS, EXIT_USAGE, EXIT_INPUT, EXIT_NO_INPUT,
             EXIT_INTERRUPTED, EXIT_PIPE]
    assert len(set(codes)) == len(codes)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    table = dict(re.findall(r"^\| (\d+) \| (.+?) \|", readme, re.M))
    assert {int(k) for k in table} == set(codes)


# --- audit -------------------------------------------------------------------

def test_audit_clean_findings_and_fail_on(clean_game: str,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", clean_game]) == EXIT_OK
    assert main(["audit", str(LATE_CLAIM)]) == EXIT_FINDINGS
    assert main(["audit", "--fail-on", "never", str(LATE_CLAIM)]) == EXIT_OK
    assert main(["audit", "--fail-on", "warning", clean_game]) == EXIT_OK


def test_audit_input_problems_win_over_findings(garbage: str, clean_game: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", garbage]) == EXIT_INPUT
    assert main(["audit", garbage, str(LATE_CLAIM)]) == EXIT_INPUT
    assert main(["audit", "--fail-on", "never", garbage, clean_game]) == EXIT_INPUT


def test_audit_unsupported_counts_only_when_the_format_was_asked_for(
        tmp_path: Path, clean_game: str, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "README.md").write_text("# the club's games\n")
    (folder / "game.mjson").write_bytes(Path(clean_game).read_bytes())
    assert main(["audit", str(folder)]) == EXIT_OK  # a README beside the logs is no failure
    assert main(["audit", "--format", "majsoul", clean_game]) == EXIT_INPUT


def test_audit_usage_errors(tmp_path: Path, clean_game: str,
                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "--format", "bogus", clean_game]) == EXIT_USAGE
    assert "invalid choice" in capsys.readouterr().err
    assert main(["audit", str(tmp_path / "missing")]) == EXIT_USAGE
    assert main(["audit", "--rules", "nonsense", clean_game]) == EXIT_USAGE
    assert main(["audit", "-", clean_game]) == EXIT_USAGE
    assert main(["audit", "--max-listed", "-1", clean_game]) == EXIT_USAGE
    assert main(["audit"]) == EXIT_USAGE
    assert main(["frobnicate"]) == EXIT_USAGE


def test_audit_with_no_files_is_not_success(empty_dir: str,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", empty_dir]) == EXIT_NO_INPUT
    assert "no files found" in capsys.readouterr().err
    assert main(["audit", "--json", os.path.join(empty_dir, "*.mjlog")]) == EXIT_NO_INPUT
    captured = capsys.readouterr()
    assert "matches no file" in captured.err and captured.out == ""


def test_audit_a_glob_matching_nothing_beside_real_files_is_said(
        empty_dir: str, clean_game: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", clean_game, os.path.join(empty_dir, "*.mjlog")]) == EXIT_OK
    assert "*.mjlog matches no file" in capsys.readouterr().err


def _interrupted(*args: Any, **kwargs: Any) -> Iterator[Any]:
    raise KeyboardInterrupt
    yield  # a generator, as batch.run's result is


def test_ctrl_c_exits_130_in_every_replaying_command(
        monkeypatch: pytest.MonkeyPatch, tmp_path: Path, clean_game: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    from kansa import reporting  # noqa: PLC0415 (pandas only in this test)

    monkeypatch.setattr(cli, "run", _interrupted)
    monkeypatch.setattr(reporting, "run", _interrupted)
    assert main(["audit", clean_game]) == EXIT_INTERRUPTED
    assert "interrupted; 1 of 1 files not audited" in capsys.readouterr().err
    assert main(["stats", clean_game, "-o", str(tmp_path / "s")]) == EXIT_INTERRUPTED
    assert main(["report", clean_game, "-o", str(tmp_path / "r.html")]) == EXIT_INTERRUPTED
    assert not (tmp_path / "s").exists() and not (tmp_path / "r.html").exists()


def test_a_bug_in_a_command_is_an_input_status_not_a_traceback_of_python(
        monkeypatch: pytest.MonkeyPatch, clean_game: str,
        capsys: pytest.CaptureFixture[str]) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("planted")
    monkeypatch.setattr(cli, "print_summary", broken)
    assert main(["audit", clean_game]) == EXIT_INPUT
    assert "INTERNAL ERROR (please report): RuntimeError: planted" in capsys.readouterr().err


def test_a_closed_pipe_ends_quietly(tmp_path: Path) -> None:
    for k in range(8):  # more JSON than a pipe holds
        (tmp_path / f"copy{k}").symlink_to(DISPUTES)
    proc = subprocess.Popen(
        [sys.executable, "-m", "kansa", "audit", "--json", "-j", "1", str(tmp_path)],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.read(20).startswith(b'{"games": [')
    proc.stdout.close()  # as `| head` does
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=120) == EXIT_PIPE
    assert "Traceback" not in err and "BrokenPipeError" not in err, err


# --- stats and report ----------------------------------------------------------

def test_stats_statuses(tmp_path: Path, clean_game: str, garbage: str, empty_dir: str,
                        capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert main(["stats", str(LATE_CLAIM), "-o", str(out)]) == EXIT_OK  # reports, not verdicts
    assert main(["stats", str(LATE_CLAIM), "--fail-on", "error", "-o", str(out)]) \
        == EXIT_FINDINGS
    assert main(["stats", garbage, str(LATE_CLAIM), "--fail-on", "error", "-o", str(out)]) \
        == EXIT_INPUT
    empty_out = tmp_path / "none"
    assert main(["stats", empty_dir, "-o", str(empty_out)]) == EXIT_NO_INPUT
    assert not empty_out.exists()  # no ten empty tables
    assert main(["stats", clean_game]) == EXIT_USAGE  # no -o
    assert main(["stats", "--format", "bogus", clean_game, "-o", str(out)]) == EXIT_USAGE


def test_report_statuses(tmp_path: Path, clean_game: str, garbage: str, empty_dir: str,
                         capsys: pytest.CaptureFixture[str]) -> None:
    page = tmp_path / "r.html"
    assert main(["report", clean_game, "-o", str(page)]) == EXIT_OK
    assert main(["report", str(LATE_CLAIM), "--fail-on", "warning", "-o", str(page)]) \
        == EXIT_FINDINGS
    assert main(["report", garbage, clean_game, "-o", str(page)]) == EXIT_INPUT
    assert main(["report", empty_dir, "-o", str(tmp_path / "none.html")]) == EXIT_NO_INPUT
    assert not (tmp_path / "none.html").exists()
    assert main(["report", "--player", "nobody", clean_game, "-o", str(page)]) == EXIT_USAGE


# --- convert and rules ---------------------------------------------------------

def test_convert_statuses(tmp_path: Path, clean_game: str, garbage: str, empty_dir: str,
                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "o.mjson"
    assert main(["convert", clean_game, "--to", "mjai", "-o", str(out)]) == EXIT_OK
    assert main(["convert", garbage, clean_game, "--to", "mjai", "-o", str(out)]) == EXIT_INPUT
    assert main(["convert", "--format", "tenhou6", clean_game, "--to", "mjai",
                 "-o", str(out)]) == EXIT_INPUT
    assert main(["convert", empty_dir, "--to", "mjai"]) == EXIT_NO_INPUT
    assert main(["convert", "--format", "bogus", clean_game, "--to", "mjai"]) == EXIT_USAGE
    assert main(["convert", clean_game, "--to", "png"]) == EXIT_USAGE


def test_rules_statuses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == EXIT_OK
    assert main(["rules", "--rules", "wrc"]) == EXIT_OK
    assert main(["rules", "--rules", "auto"]) == EXIT_USAGE
    assert main(["rules", "--rules", str(tmp_path / "none.toml")]) == EXIT_USAGE
    assert main(["rules", "--json", "--markdown"]) == EXIT_USAGE


def test_standard_input_keeps_the_statuses(monkeypatch: pytest.MonkeyPatch,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    def feed(data: bytes) -> None:
        monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    feed(LATE_CLAIM.read_bytes())
    assert main(["audit", "-"]) == EXIT_FINDINGS
    feed(b"not a log")
    assert main(["audit", "-"]) == EXIT_INPUT
    assert "<stdin>" in capsys.readouterr().out
