"""Batches: same results whatever the engine and the number of workers; nothing lost."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from kansa.batch import Engine, Progress, run
from kansa.discovery import discover
from kansa.runner import STATUSES, AuditOptions, build_document

ROOT = Path(__file__).resolve().parents[2]


def document(files: list[str], engine: Engine) -> str:
    doc = build_document(run(files, AuditOptions(), engine), None)
    return json.dumps(doc, ensure_ascii=False, sort_keys=False)


def xml_files(corpus_dir: Path, n: int | None = None) -> list[str]:
    files, _ = discover([str(corpus_dir / "tenhou_xml")])
    return files[:n] if n else files


@pytest.mark.corpus
def test_jobs_1_and_2_give_identical_json(corpus_dir: Path) -> None:
    files = xml_files(corpus_dir)
    assert document(files, Engine(jobs=1)) == document(files, Engine(jobs=2))


@pytest.mark.corpus
def test_dask_cluster_gives_the_local_result(corpus_dir: Path) -> None:
    distributed = pytest.importorskip("distributed")
    files = xml_files(corpus_dir, 40)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None) as cluster:
        remote = document(files, Engine(kind="dask", scheduler=cluster.scheduler_address))
    assert remote == document(files, Engine(jobs=1))


def test_every_file_is_accounted_for(tmp_path: Path, corpus_dir: Path) -> None:
    good = corpus_dir / "tenhou_xml" / "mjx-project__mjx" / "double-ron.mjlog"
    (tmp_path / "good.mjlog").write_bytes(good.read_bytes())
    (tmp_path / "empty.json").write_bytes(b"")
    (tmp_path / "junk.dat").write_text("hello")
    (tmp_path / "cut.mjlog").write_bytes(good.read_bytes()[:500])
    files, _ = discover([str(tmp_path)])
    doc = build_document(run(files, AuditOptions(), Engine(jobs=2)), None)
    s = doc["summary"]
    assert s["files"] == 4
    assert sum(s[k] for k in ("clean", "with_findings", "unreadable", "unsupported",
                              "internal_errors", "not_audited")) == 4
    assert s["unreadable"] == 3 and s["clean"] + s["with_findings"] == 1
    assert set(STATUSES) == {"clean", "findings", "unsupported", "unreadable",
                             "internal_error"}


def test_progress_is_quiet_off_a_terminal(tmp_path: Path) -> None:
    out = (tmp_path / "err.txt").open("w")
    p = Progress(3, stream=out)
    assert not p.enabled
    p.close()


@pytest.mark.corpus
def test_ctrl_c_stops_cleanly_and_still_prints_the_summary(corpus_dir: Path,
                                                           tmp_path: Path) -> None:
    for k in range(6):  # enough work to interrupt
        (tmp_path / f"copy{k}").symlink_to(corpus_dir / "tenhou_xml")
    total = len(discover([str(tmp_path)])[0])
    proc = subprocess.Popen(
        [sys.executable, "-m", "kansa", "audit", str(tmp_path), "--json", "-j", "1",
         "--progress", "always"],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert proc.stderr is not None
    seen = ""
    while "files" not in seen:  # the batch has started: the progress bar is drawn
        ch = proc.stderr.read(1)
        assert ch, "kansa exited before auditing anything"
        seen += ch
    time.sleep(0.5)
    proc.send_signal(signal.SIGINT)
    out, rest = proc.communicate(timeout=60)
    err = seen + rest
    assert proc.returncode == 130, err
    doc = json.loads(out)
    s = doc["summary"]
    assert 0 < s["not_audited"] < total and "interrupted" in err
    assert s["files"] == total
    assert len(doc["games"]) == s["games"] == (total - s["not_audited"] - s["unreadable"]
                                                 - s["unsupported"])


@pytest.mark.corpus
@pytest.mark.parametrize("drained", [True, False], ids=["output read", "output blocked"])
@pytest.mark.parametrize("engine", [["-j", "1"], ["-j", "2"], ["--engine", "dask", "-j", "2"]],
                         ids=["in-process", "process pool", "local dask cluster"])
def test_ctrl_c_at_a_terminal_stops_every_engine_cleanly(corpus_dir: Path, tmp_path: Path,
                                                         engine: list[str],
                                                         drained: bool) -> None:
    """A terminal's Ctrl-C goes to the whole process group, workers included: the
    document must stay valid JSON, also when the output was blocked (piped into a
    pager that is not reading), no worker may print a traceback, and a local
    cluster's workers must not die and leave kansa waiting for them."""
    if "dask" in engine:
        pytest.importorskip("distributed")
    for k in range(6):
        (tmp_path / f"copy{k}").symlink_to(corpus_dir / "tenhou_xml")
    total = len(discover([str(tmp_path)])[0])
    proc = subprocess.Popen(
        [sys.executable, "-m", "kansa", "audit", str(tmp_path), "--json", "--progress",
         "always", *engine],
        cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)}, start_new_session=True)
    assert proc.stdout is not None and proc.stderr is not None
    streams: dict[str, str] = {}
    reader = threading.Thread(target=lambda: streams.update(out=proc.stdout.read()))
    if drained:
        reader.start()
    seen = ""
    while "files" not in seen:  # the batch has started: the progress bar is drawn
        ch = proc.stderr.read(1)
        assert ch, "kansa exited before auditing anything"
        seen += ch
    time.sleep(0.5 if drained else 2.0)  # blocked: the pipe is full, the workers idle
    os.killpg(proc.pid, signal.SIGINT)
    if not drained:
        time.sleep(0.5)  # every idle worker has had the signal
        reader.start()
    rest = proc.stderr.read()
    proc.wait(timeout=60)
    reader.join(60)
    err = seen + rest
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "Exception" not in err, err
    doc = json.loads(streams["out"])
    s = doc["summary"]
    assert 0 < s["not_audited"] < total and s["files"] == total
    assert len(doc["games"]) == s["games"] == (total - s["not_audited"] - s["unreadable"]
                                                 - s["unsupported"])


@pytest.mark.parametrize("address", ["tcp://127.0.0.1:9", "nonsense://x"])
def test_a_scheduler_that_cannot_be_reached_is_a_clear_error_before_any_output(
        address: str, capsys: pytest.CaptureFixture[str]) -> None:
    dask = pytest.importorskip("dask")
    pytest.importorskip("distributed")
    from kansa.cli import main  # noqa: PLC0415

    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        code = main(["audit", "--json", "--engine", "dask", "--scheduler", address,
                     str(ROOT / "sample_logs")])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""  # no half-written JSON document
    assert f"kansa: cannot start the dask engine on {address}: " in err
    assert "Traceback" not in err


@pytest.mark.corpus
def test_files_are_taken_as_room_frees_up(corpus_dir: Path) -> None:
    """run() pulls paths from an iterator only while fewer than a window of files is
    in flight or waiting, so a run over millions of files never lists them all."""
    files = xml_files(corpus_dir, 40)
    pulled: list[str] = []

    def paths() -> Iterator[str]:
        for f in files:
            pulled.append(f)
            yield f

    outcomes = run(paths(), AuditOptions(), Engine(jobs=2))
    first = next(outcomes)
    assert first.file == files[0]
    assert len(pulled) <= 2 * 8  # the window: eight files per worker
    rest = list(outcomes)
    assert [o.file for o in [first, *rest]] == files
    assert document(files, Engine(jobs=1)) == json.dumps(
        build_document(iter([first, *rest]), None), ensure_ascii=False, sort_keys=False)
