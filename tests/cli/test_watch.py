"""``kansa watch``: findings come out as the stream goes in.

The stream is written into ``python -m kansa watch -`` through a pipe one line at a
time, and each finding is read back before the next line is written: a finding that
waited for the end of the game would time out.  The findings are those ``kansa audit
--json`` gives for the same lines in a file.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import IO, Any

import pytest
from conftest import corpus_path

from kansa.cli import EXIT_FINDINGS, EXIT_INPUT, EXIT_INTERRUPTED, EXIT_OK, EXIT_USAGE, main
from kansa.parsers.mjai.write import write
from kansa.parsers.source import DEFAULT_LIMITS
from kansa.runner import audit_file, build_document
from kansa.sim.table import simulate
from kansa.watch import Watch

ROOT = Path(__file__).resolve().parents[2]
DISPUTES = ROOT / "sample_logs" / "disputes"
WAIT = 30.0
"""Seconds to wait for a line kansa should print (the machine may be busy)."""


class Watcher:
    """``kansa watch`` in a subprocess, with its output read line by line."""

    def __init__(self, *args: str) -> None:
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        # A Ctrl-C reaches the watcher as from a terminal however the suite was started:
        # a background job ignores SIGINT, and a child would inherit that (a handler, not)
        ignored = signal.getsignal(signal.SIGINT) is signal.SIG_IGN
        if ignored:
            signal.signal(signal.SIGINT, signal.default_int_handler)
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "kansa", "watch", *args], cwd=ROOT, env=env,
                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        finally:
            if ignored:
                signal.signal(signal.SIGINT, signal.SIG_IGN)
        self.lines: queue.Queue[bytes] = queue.Queue()
        assert self.proc.stdout is not None
        self.pump = threading.Thread(target=self._pump, args=(self.proc.stdout,), daemon=True)
        self.pump.start()

    def _pump(self, out: IO[bytes]) -> None:
        for line in out:
            self.lines.put(line)

    def write(self, line: str) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write(line.encode("utf-8"))
        self.proc.stdin.flush()

    def read(self) -> dict[str, Any]:
        """The next line printed, parsed; fails after :data:`WAIT` seconds."""
        try:
            line = self.lines.get(timeout=WAIT)
        except queue.Empty:
            self.proc.kill()
            raise AssertionError("kansa watch printed nothing in time") from None
        obj = json.loads(line)
        assert isinstance(obj, dict)
        return obj

    def nothing_printed(self) -> bool:
        return self.lines.empty()

    def close(self) -> tuple[int, list[dict[str, Any]], str]:
        """End the input; the exit status, the lines printed since, standard error."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        status = self.proc.wait(timeout=WAIT)
        self.pump.join(timeout=WAIT)  # every line printed is queued
        rest = []
        while not self.lines.empty():
            rest.append(json.loads(self.lines.get()))
        assert self.proc.stderr is not None
        return status, rest, self.proc.stderr.read().decode()


def expected_findings(path: Path) -> list[dict[str, Any]]:
    """``kansa audit --json``'s findings for the file, with standard input's name."""
    outcome = audit_file(str(path))
    assert outcome.status in ("clean", "findings"), outcome.error
    out = []
    for game in outcome.games:
        for v in game["violations"]:
            if v["source"] is not None:
                v["source"] = v["source"].replace(str(path), "<stdin>", 1)
            out.append(v)
    return out


def line_of(finding: dict[str, Any]) -> int | None:
    source = finding["source"]
    return int(source.rsplit(":", 1)[1]) if source else None


def ordered(findings: list[dict[str, Any]]) -> list[str]:
    return sorted(json.dumps(f, sort_keys=True) for f in findings)


def stream_lines(tmp_path: Path) -> tuple[Path, list[str]]:
    """A simulated game (no finding) and then the late-claim dispute, as one stream."""
    text = write(simulate(7)) + (DISPUTES / "late-claim.mjson").read_text(encoding="utf-8")
    path = tmp_path / "stream.mjson"
    path.write_text(text, encoding="utf-8")
    return path, text.splitlines(keepends=True)


def test_each_finding_arrives_before_the_next_line_is_written(tmp_path: Path) -> None:
    path, lines = stream_lines(tmp_path)
    expected = expected_findings(path)
    at_end = [f for f in expected if f["rule"] == "log.truncated"]  # the stream's end
    by_line: dict[int | None, list[dict[str, Any]]] = {}
    for f in expected:
        if f not in at_end:
            by_line.setdefault(line_of(f), []).append(f)
    assert sum(map(len, by_line.values())) >= 1 and at_end  # the claim.late, the cut
    w = Watcher("-")
    got = []
    for number, line in enumerate(lines, 1):
        w.write(line)
        want = by_line.pop(number, [])
        seen = [w.read() for _ in want]
        assert ordered(seen) == ordered(want), f"line {number}"
        got += seen
    assert not by_line  # every finding had its line
    status, rest, stderr = w.close()
    assert "Traceback" not in stderr
    *last_findings, tail = rest
    assert ordered(last_findings) == ordered(at_end)
    assert ordered(got + last_findings) == ordered(expected)
    summary = tail["summary"]
    assert summary["games"] == 2 and summary["violations"] == {"claim.late": 1,
                                                              "log.truncated": 1}
    assert summary["events"] == audit_file(str(path)).to_dict()["games"][0]["events"] + 14
    assert status == EXIT_FINDINGS


def test_a_simulated_game_prints_only_its_summary() -> None:
    w = Watcher("-", "--fail-on", "warning")
    text = write(simulate(3))
    for line in text.splitlines(keepends=True):
        w.write(line)
    time.sleep(0.5)
    assert w.nothing_printed()
    status, rest, _ = w.close()
    tail, = rest
    assert tail["summary"]["games"] == 1 and tail["summary"]["violations"] == {}
    assert tail["summary"]["hands"] == text.count('"start_kyoku"')
    assert status == EXIT_OK


def test_a_bad_line_is_named_and_ends_the_watch() -> None:
    w = Watcher("-")
    w.write('{"type":"start_game","names":["a","b","c","d"]}\n')
    w.write('{"type":"start_kyoku", "bakaze": "E"\n')  # not closed
    error = w.read()
    assert error["file"] == "<stdin>" and error["position"].startswith("line 2")
    assert "JSON" in error["error"] or "json" in error["error"]
    tail = w.read()
    assert tail["unreadable"] == [error] and tail["summary"]["unreadable"] == 1
    status, rest, stderr = w.close()
    assert status == EXIT_INPUT and rest == [] and "Traceback" not in stderr


def test_the_limits_hold_on_a_stream() -> None:
    w = Watcher("-", "--max-json-depth", "3")
    w.write('{"type":"start_game","kansa":{"hints":{"uma":[[[1]]]}}}\n')
    error = w.read()
    assert error["position"].startswith("line 1") and "--max-json-depth" in error["error"]
    w.close()
    w = Watcher("-", "--max-items", "100")
    for line in write(simulate(5)).splitlines(keepends=True):
        w.write(line)
        if not w.nothing_printed():
            break
    error = w.read()
    assert "--max-items" in error["error"] and error["file"] == "<stdin>"
    status, _, _ = w.close()
    assert status == EXIT_INPUT


def test_a_growing_file_is_followed(tmp_path: Path) -> None:
    source = (DISPUTES / "late-claim.mjson").read_text(encoding="utf-8").splitlines(True)
    path = tmp_path / "live.mjson"
    path.write_text("".join(source[:5]), encoding="utf-8")
    w = Watcher(str(path), "--idle-seconds", "3")
    time.sleep(0.5)
    assert w.nothing_printed()
    with path.open("a", encoding="utf-8") as fh:
        for line in source[5:]:
            fh.write(line)
            fh.flush()
            if '"pon"' in line:
                finding = w.read()  # before the rest is written
                assert finding["rule"] == "claim.late"
                assert finding["source"] == f"{path}:7"
    status = w.proc.wait(timeout=WAIT)  # the file stops growing: the watch ends
    truncated, tail = w.read(), w.read()
    assert truncated["rule"] == "log.truncated" and tail["summary"]["games"] == 1
    assert status == EXIT_FINDINGS


def test_a_file_ends_at_its_end_game(tmp_path: Path) -> None:
    path = tmp_path / "done.mjson"
    path.write_text(write(simulate(11)), encoding="utf-8")
    start = time.monotonic()
    w = Watcher(str(path), "--idle-seconds", "120")
    status = w.proc.wait(timeout=WAIT)
    assert time.monotonic() - start < 60  # not the idle time
    assert w.read()["summary"]["games"] == 1 and status == EXIT_OK


def test_ctrl_c_ends_cleanly() -> None:
    w = Watcher("-")
    lines = (DISPUTES / "late-claim.mjson").read_text(encoding="utf-8").splitlines(True)
    for line in lines[:7]:
        w.write(line)
    assert w.read()["rule"] == "claim.late"
    w.proc.send_signal(signal.SIGINT)
    status = w.proc.wait(timeout=WAIT)
    truncated, tail = w.read(), w.read()
    assert truncated["rule"] == "log.truncated" and tail["summary"]["games"] == 1
    assert status == EXIT_INTERRUPTED
    assert w.proc.stderr is not None and "Traceback" not in w.proc.stderr.read().decode()


# -- the same findings as a file's audit, on every mjai file at hand -------------------

def mjai_files() -> list[Path]:
    found = sorted((ROOT / "sample_logs").rglob("*.mjson"))
    corpus = corpus_path() / "mjai"
    if corpus.is_dir():
        found += sorted(p for p in corpus.rglob("*") if p.is_file())
    return found


def watched(path: Path) -> list[dict[str, Any]]:
    """What ``kansa watch`` prints for the file's lines, in this process; its last line
    is checked against the end of the file's ``audit --json`` document."""
    out = io.StringIO()
    w = Watch(str(path), "auto", DEFAULT_LIMITS, out)
    data = path.read_bytes()
    *lines, rest = data.split(b"\n")
    for line in lines:
        if not w.line(line + b"\n"):
            break
    else:
        w.end(rest)
    document = build_document([audit_file(str(path))], None)
    del document["games"]
    assert w.tail() == document
    return [json.loads(line) for line in out.getvalue().splitlines()]


@pytest.mark.parametrize("path", mjai_files(), ids=lambda p: p.name)
def test_watch_finds_what_audit_finds(path: Path) -> None:
    outcome = audit_file(str(path))
    printed = list(watched(path))
    if outcome.status == "unreadable":  # the same error, at the same line
        assert printed[-1] == outcome.error
        return
    if outcome.status == "unsupported":
        assert "reason" in printed[-1] and "player" in printed[-1]["reason"]
        return
    findings = [v for g in outcome.games for v in g["violations"]]
    assert ordered(printed) == ordered(findings)


def findings_of(path: Path) -> list[dict[str, Any]]:
    outcome = audit_file(str(path))
    assert outcome.status in ("clean", "findings"), outcome.error
    return [v for g in outcome.games for v in g["violations"]]


def test_a_header_the_play_contradicts(tmp_path: Path) -> None:
    """A header saying no red fives and no open tanyao, with wins counting both: the
    game is audited again under the rules the play shows, as a file's audit does."""
    text = write(simulate(1)).replace('"aka":true', '"aka":false', 1) \
        .replace('"kuitan":true', '"kuitan":false', 1)
    path = tmp_path / "contradicted.mjson"
    path.write_text(text, encoding="utf-8")
    findings = findings_of(path)
    rules = {v["rule"] for v in findings}
    assert {"log.assumption", "ruleset.mismatch"} <= rules  # the case is exercised
    assert "score.value" not in rules  # folded into the assumption: no false error
    assert ordered(list(watched(path))) == ordered(findings)


def test_hands_without_scores(tmp_path: Path) -> None:
    """Scores the stream leaves out are filled in as for a file, with its warning."""
    lines = write(simulate(2)).splitlines(keepends=True)
    bare = [json.dumps({k: x for k, x in json.loads(line).items() if k != "scores"}) + "\n"
            if '"start_kyoku"' in line else line for line in lines]
    path = tmp_path / "no-scores.mjson"
    path.write_text("".join(bare), encoding="utf-8")
    findings = findings_of(path)
    assert [v["rule"] for v in findings] == ["log.assumption"]  # the first hand's start
    assert ordered(list(watched(path))) == ordered(findings)


def test_output_closed_early() -> None:
    """The reader of the output goes away: kansa stops quietly with 141."""
    proc = subprocess.Popen([sys.executable, "-m", "kansa", "watch", "-"], cwd=ROOT,
                            env={**os.environ, "PYTHONPATH": str(ROOT)},
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    assert proc.stdin is not None and proc.stdout is not None
    proc.stdout.close()
    with contextlib.suppress(BrokenPipeError):  # kansa may have stopped already
        for line in (DISPUTES / "late-claim.mjson").read_bytes().splitlines(True) * 3:
            proc.stdin.write(line)
            proc.stdin.flush()
    with contextlib.suppress(BrokenPipeError):
        proc.stdin.close()
    assert proc.wait(timeout=WAIT) == 141
    assert proc.stderr is not None and "Traceback" not in proc.stderr.read().decode()


def test_a_missing_file_is_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["watch", "no/such/live.mjson"]) == EXIT_USAGE
    assert "no such file: no/such/live.mjson" in capsys.readouterr().err


def test_an_event_after_the_end_of_the_game(tmp_path: Path) -> None:
    text = write(simulate(6)) + '{"type":"dahai","actor":0,"pai":"1m","tsumogiri":false}\n'
    path = tmp_path / "after-end.mjson"
    path.write_text(text, encoding="utf-8")
    findings = findings_of(path)
    assert [v["rule"] for v in findings] == ["log.out-of-order"]
    assert ordered(list(watched(path))) == ordered(findings)
