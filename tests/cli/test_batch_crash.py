"""A worker process that dies (a crash in a compiled library, the out-of-memory
killer) costs the batch only the file it was auditing: that file is an internal
error, every other file is audited as usual, in order, and the summary adds up."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest

import kansa.runner
import kansa.store
from kansa.batch import Engine, run
from kansa.cli import main
from kansa.discovery import discover
from kansa.runner import AuditOptions, FileOutcome, audit_file, build_document

POISON = "poison"
"""Files whose name holds this kill the worker process that audits them."""


def die_on_poison(path: str, options: AuditOptions) -> FileOutcome:
    """``audit_file``, except that a poisoned file ends the process at once."""
    if POISON in Path(path).name:
        os._exit(3)
    return audit_file(path, options)


def raise_on_poison(path: str, options: AuditOptions) -> FileOutcome:
    """``audit_file``, except that a poisoned file raises (a bug in a task)."""
    if POISON in Path(path).name:
        raise ZeroDivisionError("a bug")
    return audit_file(path, options)


def make_batch(corpus_dir: Path, tmp_path: Path, poisoned: tuple[int, ...]) -> list[str]:
    """Eight corpus mjlogs copied into ``tmp_path``, the ones at ``poisoned`` renamed."""
    sources = sorted((corpus_dir / "tenhou_xml").rglob("*.mjlog"))[:8]
    for k, src in enumerate(sources):
        name = f"{k:02d}-{POISON if k in poisoned else 'log'}.mjlog"
        (tmp_path / name).write_bytes(src.read_bytes())
    files, _ = discover([str(tmp_path)])
    return files


def store_audit(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> tuple[int, Any]:
    """``kansa audit --store`` of ``tmp_path/logs`` into ``tmp_path/store``, two workers."""
    code = main(["audit", "--json", "--no-timing", "-j", "2", "--store",
                 str(tmp_path / "store"), str(tmp_path / "logs")])
    return code, json.loads(capsys.readouterr().out)


def as_json(outcomes: list[FileOutcome]) -> list[Any]:
    return [json.loads(json.dumps(o.to_dict())) for o in outcomes]


@pytest.mark.corpus
@pytest.mark.parametrize("poisoned", [(3,), (0, 5, 6)])
def test_a_dead_worker_costs_only_its_file(corpus_dir: Path, tmp_path: Path,
                                           poisoned: tuple[int, ...]) -> None:
    files = make_batch(corpus_dir, tmp_path, poisoned)
    got = list(run(files, AuditOptions(), Engine(jobs=2), task=die_on_poison))
    assert [o.file for o in got] == files  # one outcome per file, in order
    for k, o in enumerate(got):
        if k in poisoned:
            assert o.status == "internal_error" and not o.games
            [entry] = o.internal
            assert entry.file == files[k] and entry.kind == "internal"
            assert "never finished" in entry.message and "alone" in entry.message
        else:
            assert as_json([o]) == as_json([audit_file(files[k])])


@pytest.mark.corpus
@pytest.mark.parametrize("poisoned", [(3,), (0, 5, 6)])
def test_a_task_that_raises_costs_only_its_file(corpus_dir: Path, tmp_path: Path,
                                                poisoned: tuple[int, ...]) -> None:
    files = make_batch(corpus_dir, tmp_path, poisoned)
    got = list(run(files, AuditOptions(), Engine(jobs=2), task=raise_on_poison))
    assert [o.file for o in got] == files
    assert [k for k, o in enumerate(got) if o.status == "internal_error"] == list(poisoned)
    for k in poisoned:
        assert "ZeroDivisionError: a bug" in got[k].internal[0].message


@pytest.mark.corpus
def test_a_bug_in_the_tables_is_an_internal_error_and_not_stored(
        corpus_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "logs").mkdir()
    make_batch(corpus_dir, tmp_path / "logs", (5,))
    original = kansa.store.table_rows

    def tables_or_bug(results: list[Any]) -> Any:
        if any(POISON in r.source for r in results):
            raise KeyError("a bug in the tables")
        return original(results)

    monkeypatch.setattr(kansa.store, "table_rows", tables_or_bug)
    code, doc = store_audit(capsys, tmp_path)
    assert code == 3 and doc["summary"]["internal_errors"] == 1
    [entry] = doc["internal_errors"]
    assert entry["file"].endswith(f"05-{POISON}.mjlog")
    assert "while building the report tables: KeyError" in entry["error"]
    assert "tables_or_bug" in entry["traceback"]
    assert len(doc["games"]) == 8  # its audit still counts

    monkeypatch.undo()
    again = store_audit(capsys, tmp_path)[1]["summary"]
    assert again["from_store"] == 7 and again["internal_errors"] == 0


@pytest.mark.corpus
def test_the_command_counts_the_lost_file_and_the_store_tries_it_again(
        corpus_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "logs").mkdir()
    make_batch(corpus_dir, tmp_path / "logs", (2,))
    original = kansa.runner.replay_file

    def replay_or_die(path: str, options: AuditOptions, **kw: Any) -> Any:
        if POISON in Path(path).name:
            os._exit(3)
        return original(path, options, **kw)

    # the pool's worker processes are forked after this, so they run the patch
    monkeypatch.setattr(kansa.runner, "replay_file", replay_or_die)
    monkeypatch.setattr(kansa.store, "replay_file", replay_or_die)
    code, doc = store_audit(capsys, tmp_path)
    s = doc["summary"]
    assert code == 3
    assert s["files"] == 8 and s["internal_errors"] == 1
    assert s["clean"] + s["with_findings"] == 7
    [entry] = doc["internal_errors"]
    assert entry["file"].endswith(f"02-{POISON}.mjlog") and entry["traceback"] is None

    monkeypatch.undo()
    again = store_audit(capsys, tmp_path)[1]["summary"]
    assert again["from_store"] == 7  # the lost file was not stored as done
    assert again["internal_errors"] == 0 and again["clean"] + again["with_findings"] == 8


@pytest.mark.corpus
def test_a_dask_worker_killed_by_a_file_costs_only_that_file(corpus_dir: Path,
                                                             tmp_path: Path) -> None:
    distributed = pytest.importorskip("distributed")
    import cloudpickle  # noqa: PLC0415 (comes with distributed)
    import dask  # noqa: PLC0415

    files = make_batch(corpus_dir, tmp_path, (4,))
    module = __import__(__name__, fromlist=["die_on_poison"])
    cloudpickle.register_pickle_by_value(module)  # the workers cannot import tests
    try:
        # one death fails the task at once (Dask's default retries it on three more
        # workers), and each worker holds one task at a time, so no other is lost
        with dask.config.set({"distributed.scheduler.allowed-failures": 0,
                              "distributed.scheduler.worker-saturation": 1.0}), \
                distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                         dashboard_address=None) as cluster:
            got = list(run(files, AuditOptions(),
                           Engine(kind="dask", scheduler=cluster.scheduler_address),
                           task=die_on_poison))
    finally:
        cloudpickle.unregister_pickle_by_value(module)
    assert [o.file for o in got] == files
    assert [o.status for o in got].count("internal_error") == 1
    assert got[4].status == "internal_error" and "Dask lost it" in got[4].internal[0].message
    doc = build_document(iter(got), None)
    assert doc["summary"]["files"] == 8 and doc["summary"]["internal_errors"] == 1
