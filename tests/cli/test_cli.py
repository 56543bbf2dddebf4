"""The kansa command: exit status, JSON document, bad input in a batch."""

from __future__ import annotations

import gzip
import io
import json
import sys
from pathlib import Path
from typing import Any

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


# --- what a person reads --------------------------------------------------------

ROOT = Path(__file__).resolve().parents[2]
DISPUTES = ROOT / "sample_logs" / "disputes"
LATE_CLAIM = DISPUTES / "late-claim.mjson"


def test_findings_name_the_player_in_text_and_json(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", "-v", str(LATE_CLAIM)]) == 1
    out = capsys.readouterr().out
    assert "E1-0 seat 2 (West, Costa): [claim.late] seat 2 calls pon" in out
    assert "seat None" not in out and "E1-0: warning [log.truncated]" in out
    code, doc = run_json(capsys, str(LATE_CLAIM))
    assert code == 1
    by_rule = {v["rule"]: v for v in doc["games"][0]["violations"]}
    assert by_rule["claim.late"]["player"] == {"seat": 2, "wind": "West", "name": "Costa"}
    assert by_rule["claim.late"]["seat"] == 2  # the old fields stay
    assert by_rule["log.truncated"]["player"] is None


def test_the_seat_wind_follows_the_hand_dealer() -> None:
    from types import SimpleNamespace  # noqa: PLC0415

    from kansa.runner import player_of  # noqa: PLC0415

    hands = [SimpleNamespace(label="E1-0", oya=0, first_event=0),
             SimpleNamespace(label="E2-0", oya=1, first_event=50),
             SimpleNamespace(label="E2-0", oya=2, first_event=90)]  # a label met twice
    game: Any = SimpleNamespace(names=("A", "", "C", "D"), hands=hands, players=4)

    def finding(seat: int | None, hand: str | None, event: int | None = None) -> dict[str, Any]:
        return {"seat": seat, "hand": hand, "event": event}
    assert player_of(game, finding(0, "E2-0", 60)) == {"seat": 0, "wind": "North",
                                                       "name": "A"}
    assert player_of(game, finding(0, "E2-0", 95))["wind"] == "West"
    assert player_of(game, finding(1, "E1-0")) == {"seat": 1, "wind": "South", "name": None}
    assert player_of(game, finding(3, None))["wind"] is None
    assert player_of(game, finding(None, "E1-0")) is None


def test_every_error_is_listed_or_counted_with_the_flag_that_lists_them(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["audit", str(DISPUTES)]) == 1
    lines = [line for line in capsys.readouterr().out.splitlines() if "mjson:" in line]
    assert len(lines) == 6 and all("warning" not in line for line in lines)
    assert main(["audit", "--max-listed", "2", str(DISPUTES)]) == 1
    out = capsys.readouterr().out
    assert sum("mjson:" in line for line in out.splitlines()) == 2
    assert "... and 4 errors more, not listed (--max-listed 0 lists them all" in out
    assert main(["audit", "--show", "warnings", "--max-listed", "0", str(DISPUTES)]) == 1
    out = capsys.readouterr().out
    assert sum("mjson:" in line for line in out.splitlines()) == 12 and "not listed" not in out
    assert main(["audit", "--show", "none", str(DISPUTES)]) == 1
    assert "mjson:" not in capsys.readouterr().out


def test_colour_on_request_or_by_the_environment(capsys: pytest.CaptureFixture[str],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("NO_COLOR", raising=False)
    monkeypatch.delenv("FORCE_COLOR", raising=False)
    main(["audit", str(LATE_CLAIM)])
    assert "\x1b[" not in capsys.readouterr().out  # not a terminal
    main(["audit", "--color", "always", str(LATE_CLAIM)])
    assert "\x1b[36m[claim.late]\x1b[0m" in capsys.readouterr().out
    monkeypatch.setenv("FORCE_COLOR", "1")
    main(["audit", str(LATE_CLAIM)])
    assert "\x1b[" in capsys.readouterr().out
    monkeypatch.setenv("NO_COLOR", "1")
    main(["audit", str(LATE_CLAIM)])
    assert "\x1b[" not in capsys.readouterr().out
    main(["audit", "--color", "never", "--json", str(LATE_CLAIM)])
    assert "\x1b[" not in capsys.readouterr().out


def test_help_lists_the_formats_and_exit_statuses(capsys: pytest.CaptureFixture[str]) -> None:
    from kansa.parsers import FORMATS  # noqa: PLC0415

    assert main(["audit", "--help"]) == 0
    assert "{" + ",".join(FORMATS) + "}" in capsys.readouterr().out
    assert main(["--help"]) == 0
    assert "3 some input could not be audited" in capsys.readouterr().out


def test_old_flag_spellings_still_work_and_say_the_new_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    from kansa.cli import build_parser  # noqa: PLC0415

    args = build_parser().parse_args(["audit", "--out", "S", "x.mjlog"])
    assert args.store == "S"
    assert "--out is deprecated; use --store" in capsys.readouterr().err
    args = build_parser().parse_args(["stats", "x.mjlog", "--out", "D"])
    assert args.output == "D"
    assert "use -o/--output" in capsys.readouterr().err
    assert build_parser().parse_args(["audit", "x"]).store is None


def _stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))


def test_standard_input_is_one_log_under_the_same_limits(
        capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    data = LATE_CLAIM.read_bytes()
    _stdin(monkeypatch, gzip.compress(data))
    code, doc = run_json(capsys, "-")
    assert code == 1 and doc["games"][0]["file"] == "<stdin>"
    assert doc["games"][0]["violations"][0]["source"].startswith("<stdin>:")
    _stdin(monkeypatch, data)
    code, doc = run_json(capsys, "--max-file-bytes", str(len(data) - 1), "-")
    assert code == 3 and doc["unreadable"][0]["file"] == "<stdin>"
    assert "--max-file-bytes" in doc["unreadable"][0]["error"]
    _stdin(monkeypatch, gzip.compress(data))
    code, doc = run_json(capsys, "--max-decompressed-bytes", "100", "-")
    assert code == 3 and "--max-decompressed-bytes" in doc["unreadable"][0]["error"]
    assert main(["audit", "--store", "S", "-"]) == 2


def test_convert_reads_standard_input(capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    _stdin(monkeypatch, LATE_CLAIM.read_bytes())
    assert main(["convert", "-", "--to", "mjai"]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["type"] == "start_game" and first["names"][2] == "Costa"


def test_a_command_is_one_function_in_the_command_table(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """A new subcommand is a function that adds its parser (with the shared options of
    kansa.options) and a line in COMMANDS."""
    from kansa import cli, options  # noqa: PLC0415

    seen: list[Any] = []

    def _echo_command(sub: cli.Subcommands) -> None:
        p = sub.add_parser("echo", help="say which paths and limits were given")
        options.add_input_options(p)
        options.add_rules_option(p)
        p.set_defaults(func=lambda args: seen.append(
            (args.paths, args.rules, options.limits_from(args).max_items)) or options.EXIT_OK)

    assert [c.__name__ for c in cli.COMMANDS] == [
        "_audit_command", "_rules_command", "_stats_command", "_report_command",
        "_convert_command", "_watch_command", "wall_command", "_explain_command"]
    monkeypatch.setattr(cli, "COMMANDS", (*cli.COMMANDS, _echo_command))
    assert main(["echo", "a.json", "--rules", "ema", "--max-items", "7"]) == 0
    assert seen == [(["a.json"], "ema", 7)]
    assert main(["--help"]) == 0
    assert "echo" in capsys.readouterr().out
    assert main(["echo", "a.json", "--max-items", "0"]) == 2
    assert "must be at least 1" in capsys.readouterr().err
