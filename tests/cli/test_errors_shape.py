"""Errors as data: one family of reading errors, one writing error, one record for a
file's problem with the JSON the README documents, and the readers' notes in the JSON."""

from __future__ import annotations

import dataclasses
import gzip
import io
import json
import re
import zipfile
from pathlib import Path

import pytest

from kansa.cli import main
from kansa.convert import convert
from kansa.parsers import load, load_bytes
from kansa.parsers.errors import (
    CutOffError,
    LimitExceededError,
    LogError,
    LogFormatError,
    LogWriteError,
    UnknownFormatError,
    UnsupportedLogError,
)
from kansa.parsers.mjai import read as mjai
from kansa.parsers.mjai import write as mjai_writer
from kansa.parsers.registry import format_named
from kansa.parsers.source import DEFAULT_LIMITS, Limits, maybe_gunzip, read_file_bytes
from kansa.problems import FileProblem
from kansa.replay.engine import replay
from kansa.replay.events import SourceRef, Tsumo
from kansa.replay.game import Diagnostic
from kansa.replay.rules import RuleSet
from kansa.runner import AuditOptions, FileOutcome, audit_bytes, audit_file, build_document
from kansa.store import outcome_from_dict
from kansa.summary import print_summary

ROOT = Path(__file__).resolve().parents[2]
LATE_CLAIM = ROOT / "sample_logs" / "disputes" / "late-claim.mjson"

# -- one family for reading -------------------------------------------------------


def test_every_reading_error_is_a_log_error_with_a_source_and_a_position() -> None:
    src = SourceRef("f.json", 3, 7)
    for kind in (LogFormatError, UnknownFormatError, LimitExceededError, CutOffError,
                 UnsupportedLogError):
        err = kind("what is wrong", src)
        assert isinstance(err, LogError)
        assert (str(err), err.reason, err.position) == \
            ("f.json:3:7: what is wrong", "what is wrong", "line 3, column 7")
    assert not issubclass(UnsupportedLogError, LogFormatError)  # readable, not audited
    assert issubclass(LogFormatError, ValueError)


def test_the_limits_raise_limit_exceeded(tmp_path: Path) -> None:
    big = tmp_path / "big.mjson"
    big.write_bytes(b"x" * 100)
    with pytest.raises(LimitExceededError, match="--max-file-bytes") as info:
        read_file_bytes(big, Limits(max_file_bytes=10))
    assert info.value.src.file == str(big)
    bomb = gzip.compress(b"0" * 100_000)
    with pytest.raises(LimitExceededError, match="--max-decompressed-bytes"):
        maybe_gunzip(bomb, SourceRef("bomb.gz"), Limits(max_decompressed_bytes=1000))
    archive = io.BytesIO()
    with zipfile.ZipFile(archive, "w") as z:
        for k in range(3):
            z.writestr(f"{k}.mjson", "{}")
    with pytest.raises(LimitExceededError, match="--max-items"):
        load_bytes(archive.getvalue(), "three.zip", None, Limits(max_items=2))


def test_a_cut_compressed_stream_is_cut_off_and_strange_content_unknown() -> None:
    data = gzip.compress(LATE_CLAIM.read_bytes())
    with pytest.raises(CutOffError, match="truncated") as info:
        maybe_gunzip(data[: len(data) // 2], SourceRef("cut.gz"), DEFAULT_LIMITS)
    assert str(info.value).startswith("cut.gz: ")
    with pytest.raises(UnknownFormatError):
        load_bytes(b"\x00\x01 not a log", "odd.bin")


# -- one error for writing ----------------------------------------------------------


def _one_seat_game() -> object:
    game = load(LATE_CLAIM)[0]
    events = list(game.events)
    at = next(i for i, ev in enumerate(events) if isinstance(ev, Tsumo) and ev.actor == 1)
    events[at] = dataclasses.replace(events[at], tile=None)
    return dataclasses.replace(game, events=tuple(events)), at


def test_a_writer_names_the_game_and_the_event_it_cannot_write() -> None:
    game, at = _one_seat_game()
    with pytest.raises(LogWriteError, match="hidden tiles") as info:
        format_named("tenhou6").write(game)  # type: ignore[arg-type]
    err = info.value
    assert (err.fmt, err.source, err.game, err.event) == ("tenhou6", str(LATE_CLAIM), 0, at)
    assert str(err) == (f"cannot write {LATE_CLAIM} game 0 as tenhou6 (event {at}): "
                        f"{err.reason}")
    assert mjai.write(game).count("\n") == len(game.events) + 1  # type: ignore[attr-defined]
    stray = dataclasses.replace(game, events=(*game.events[:3], "not an event"))  # type: ignore[attr-defined]
    with pytest.raises(LogWriteError, match="a str is not an event") as info:
        mjai.write(stray)
    assert (info.value.fmt, info.value.event) == ("mjai", 3)


def test_convert_reports_what_cannot_be_written_and_a_writer_bug_apart(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    game, at = _one_seat_game()
    one_seat = tmp_path / "one-seat.mjson"
    one_seat.write_text(mjai.write(game), encoding="utf-8")  # type: ignore[arg-type]
    err = io.StringIO()
    assert convert([str(one_seat)], "tenhou6", str(tmp_path / "out") + "/", DEFAULT_LIMITS,
                   err) == 1
    assert err.getvalue().startswith(f"kansa convert: cannot write {one_seat} game 0 as "
                                     f"tenhou6 (event {at}): tenhou.net/6 cannot hold hidden")

    def buggy(_: object) -> str:
        raise ValueError("a writer bug")

    monkeypatch.setattr(mjai_writer, "write", buggy)  # the registry's writer of mjai
    err = io.StringIO()
    assert convert([str(LATE_CLAIM)], "mjai", None, DEFAULT_LIMITS, err) == 1
    assert "INTERNAL ERROR (please report) writing" in err.getvalue()
    assert "ValueError: a writer bug" in err.getvalue()


# -- one record for a file's problem ------------------------------------------------


def test_each_problem_keeps_the_json_shape_of_its_list_and_reads_back() -> None:
    try:
        raise ZeroDivisionError("boom")
    except ZeroDivisionError as exc:
        bug = FileProblem.internal("a.xml", exc, "replaying game 1", 1)
    problems = [FileProblem.unreadable("a.xml", "not valid JSON", "line 2, column 3"),
                FileProblem.unsupported("b.json", "3-player game (tenhou6)"),
                bug, FileProblem.lost("c.xml", "its worker died")]
    keys = [list(p.to_dict()) for p in problems]
    assert keys == [["file", "error", "position"], ["file", "reason"],
                    ["file", "game", "error", "traceback"],
                    ["file", "game", "error", "traceback"]]
    assert [FileProblem.from_dict(p.kind, p.to_dict()) for p in problems] == problems
    assert bug.message == "internal error while replaying game 1: ZeroDivisionError: boom"
    assert bug.traceback is not None and "ZeroDivisionError" in bug.traceback
    assert [p.status for p in problems] == ["unreadable", "unsupported", "internal_error",
                                            "internal_error"]
    with pytest.raises(ValueError, match="not a kind"):
        FileProblem.from_dict("lost", {})  # type: ignore[arg-type]


def test_a_reader_error_becomes_the_problem_it_describes() -> None:
    unreadable = FileProblem.of_error(LogFormatError("bad tag", SourceRef("z.zip!m.xml", 4)))
    assert unreadable == FileProblem("unreadable", "z.zip!m.xml", "bad tag", "line 4")
    unsupported = FileProblem.of_error(UnsupportedLogError("no reader", SourceRef("q")))
    assert unsupported == FileProblem("unsupported", "q", "no reader")


def _outcomes(tmp_path: Path) -> list[FileOutcome]:
    (tmp_path / "broken.mjson").write_text('{"type":"start_game"}\n{"type": 5}\n')
    (tmp_path / "notes.md").write_text("# not a log\n")
    archive = tmp_path / "two.zip"
    with zipfile.ZipFile(archive, "w") as z:
        z.writestr("good.mjson", LATE_CLAIM.read_text(encoding="utf-8"))
        z.writestr("bad.mjson", "{")
    files = [tmp_path / "broken.mjson", tmp_path / "notes.md", archive]
    return [audit_file(str(f)) for f in files]


def test_problems_in_the_document_the_store_and_the_summary(tmp_path: Path) -> None:
    outcomes = _outcomes(tmp_path)
    assert [o.status for o in outcomes] == ["unreadable", "unsupported", "unreadable"]
    for o in outcomes:  # the store keeps each outcome as its JSON
        again = outcome_from_dict(json.loads(json.dumps(o.to_dict())))
        assert again == o and again.to_dict() == o.to_dict()
    doc = build_document(iter(outcomes), None)
    [broken, member] = doc["unreadable"]
    assert list(broken) == ["file", "error", "position"] and "line 2" in broken["position"]
    assert member["file"] == f"{tmp_path / 'two.zip'}!bad.mjson"
    assert doc["unsupported"] == [{"file": str(tmp_path / "notes.md"),
                                   "reason": "not a game log (its name and content say "
                                             "documentation or a data table)"}]
    out = io.StringIO()
    print_summary({k: v for k, v in doc.items() if k != "games"}, [], out)
    text = out.getvalue()
    assert f"  unreadable: {tmp_path / 'broken.mjson'}: {broken['error']} " \
           f"({broken['position']})\n" in text
    assert f"  unsupported: {tmp_path / 'notes.md'}: not a game log" in text


# -- the readers' notes -------------------------------------------------------------


def test_info_diagnostics_are_notes_and_warnings_stay_findings() -> None:
    game = load(LATE_CLAIM)[0]
    src = SourceRef(game.source, 2)
    crafted = dataclasses.replace(game, diagnostics=(
        Diagnostic("seat 3 disconnected (BYE)", src),
        Diagnostic("scores assumed", src, "warning"),
        *game.diagnostics))
    doc = replay(crafted, RuleSet.preset("ema")).to_dict()
    assert doc["notes"][0] == {"level": "info", "message": "seat 3 disconnected (BYE)",
                               "source": f"{game.source}:2"}
    assert all(n["level"] == "info" for n in doc["notes"])
    assert "scores assumed" not in {n["message"] for n in doc["notes"]}
    assert [v["message"] for v in doc["violations"] if v["rule"] == "log.assumption"] == \
        ["scores assumed"]
    plain = replay(game, RuleSet.preset("ema")).to_dict()
    assert [n for n in doc["notes"] if n["message"] != "seat 3 disconnected (BYE)"] == \
        plain["notes"]


@pytest.mark.corpus
def test_a_real_bye_and_reconnect_reach_the_json_and_the_summary(
        corpus_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bye = corpus_dir / "tenhou_xml" / "dnovikoff__tenhou" / "bye.xml"
    if not bye.is_file():
        pytest.skip(f"{bye} not in this corpus")
    assert main(["audit", str(bye), "--json", "--no-timing"]) == 0
    doc = json.loads(capsys.readouterr().out)
    [game] = doc["games"]
    notes = [(n["level"], n["message"]) for n in game["notes"]]
    assert ("info", "seat 1 disconnected (BYE)") in notes
    assert ("info", "seat 1 reconnected") in notes
    assert any("<BYE who=\"1\"/>" in n["source"] for n in game["notes"])
    assert doc["summary"]["notes"] == len(game["notes"])
    assert game["violations"] == []  # a disconnection is no finding
    assert main(["audit", str(bye)]) == 0
    assert f"  {len(game['notes'])} notes (disconnections, reconnections, defaults " \
           "taken): not findings; --json lists them\n" in capsys.readouterr().out


@pytest.mark.corpus
def test_a_bye_put_into_a_real_game_adds_notes_and_nothing_else(corpus_dir: Path) -> None:
    path = corpus_dir / "tenhou_xml" / "dnovikoff__tenhou" / "pao.xml"
    if not path.is_file():
        pytest.skip(f"{path} not in this corpus")
    data = path.read_bytes()
    name = re.search(rb'<UN n0="[^"]*" n1="[^"]*" n2="([^"]*)"', data)
    assert name is not None
    draws = [m.start() for m in re.finditer(rb"<[TUVW]\d+/>", data)]
    bye, back = draws[3], draws[9]
    crafted = (data[:bye] + b'<BYE who="2"/>' + data[bye:back]
               + b'<UN n2="' + name.group(1) + b'"/>' + data[back:])
    plain = audit_bytes(data, "pao.xml", AuditOptions())
    got = audit_bytes(crafted, "pao.xml", AuditOptions())
    [before], [after] = plain.games, got.games
    assert [(n["level"], n["message"]) for n in after["notes"]] == \
        [("info", "seat 2 disconnected (BYE)"), ("info", "seat 2 reconnected")]
    assert [re.sub(r":\d+ tag \d+", "", v["source"] or "") for v in after["violations"]] == \
        [re.sub(r":\d+ tag \d+", "", v["source"] or "") for v in before["violations"]]
    same = {k: v for k, v in after.items() if k not in ("notes", "violations")}
    assert same == {k: v for k, v in before.items() if k not in ("notes", "violations")}
    assert len(after["violations"]) == len(before["violations"])
