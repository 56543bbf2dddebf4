"""A worker's result that cannot be sent back to the parent (it does not pickle) or
read there (it does not unpickle, as mypyc's frozen dataclasses once did) costs the
batch only its file: that file is an internal error naming the reason, and every
other file is audited as usual, in order.  Runs on the sample logs, without the corpus."""

from __future__ import annotations

import json
import shutil
import threading
from pathlib import Path
from typing import Any

import pytest

import kansa.runner
from kansa.batch import Engine, run
from kansa.discovery import discover
from kansa.problems import FileProblem
from kansa.runner import AuditOptions, FileOutcome, FileResults, audit_file, build_document

ROOT = Path(__file__).resolve().parents[2]
POISON = "poison"
"""Files whose name holds this give a result that does not travel."""


def refuse(why: str) -> None:
    raise AttributeError(why)


class Unreadable:
    """A value that pickles but whose unpickling raises."""

    def __reduce__(self) -> tuple[Any, ...]:
        return refuse, ("cannot assign to field 'name'",)


def unreadable_on_poison(path: str, options: AuditOptions) -> Any:
    """``audit_file``, except that a poisoned file's result does not unpickle."""
    return Unreadable() if POISON in Path(path).name else audit_file(path, options)


def unsendable_on_poison(path: str, options: AuditOptions) -> Any:
    """``audit_file``, except that a poisoned file's result does not pickle."""
    return threading.Lock() if POISON in Path(path).name else audit_file(path, options)


def make_batch(tmp_path: Path, poisoned: tuple[int, ...]) -> list[str]:
    """The sample games copied into ``tmp_path``, the ones at ``poisoned`` renamed."""
    sources = sorted((ROOT / "sample_logs" / "games").iterdir())
    for k, src in enumerate(sources):
        shutil.copy(src, tmp_path / f"{k:02d}-{POISON if k in poisoned else 'log'}{src.suffix}")
    files, _ = discover([str(tmp_path)])
    assert len(files) == len(sources) >= 5
    return files


def as_json(outcome: FileOutcome) -> Any:
    return json.loads(json.dumps(outcome.to_dict()))


@pytest.mark.parametrize(("task", "reason"), [
    (unreadable_on_poison, "could not be read back from the worker process "
                           "(AttributeError: cannot assign to field 'name')"),
    (unsendable_on_poison, "could not be sent back from the worker process (TypeError: "),
])
@pytest.mark.parametrize("poisoned", [(1,), (0, 3, 4)])
def test_a_result_that_does_not_travel_costs_only_its_file(
        tmp_path: Path, poisoned: tuple[int, ...], task: Any, reason: str) -> None:
    files = make_batch(tmp_path, poisoned)
    got = list(run(files, AuditOptions(), Engine(jobs=2), task=task))
    assert [o.file for o in got] == files  # one outcome per file, in order
    for k, o in enumerate(got):
        if k in poisoned:
            assert o.status == "internal_error" and not o.games
            [entry] = o.internal
            assert entry.file == files[k] and entry.kind == "internal"
            assert reason in entry.message, entry.message
            assert "alone" not in entry.message  # no worker died: the pool went on
        else:
            assert o.status in ("clean", "findings")
            assert as_json(o) == as_json(audit_file(files[k]))
    doc = build_document(iter(got), None)
    assert doc["summary"]["files"] == len(files)
    assert doc["summary"]["internal_errors"] == len(poisoned)


def test_the_replays_of_a_report_come_back_whole(tmp_path: Path) -> None:
    """``kansa report -j 2`` replays in workers and takes back the whole results:
    games, hand records, findings with their snapshots, ledger transfers."""
    files = make_batch(tmp_path, ())
    options = AuditOptions()
    here = [kansa.runner.replay_file(f, options) for f in files]
    there: list[FileResults] = list(run(files, options, Engine(jobs=2),
                                        task=kansa.runner.replay_file,
                                        lost=kansa.runner.lost_results))
    assert there == here
    assert sum(len(f.results) for f in there) >= len(files)


def test_a_report_names_the_files_it_lost(capsys: pytest.CaptureFixture[str]) -> None:
    """``stats`` and ``report`` say on standard error (and list in the page) each file
    kansa failed on, not only the unreadable ones."""
    from kansa import reporting  # noqa: PLC0415  (pandas)

    lost = kansa.runner.lost_results("a.mjson", "its worker process died")
    unread = FileResults("b.xml", "unreadable",
                         error=FileProblem.unreadable("b.xml", "not XML", "line 3"))
    clean = FileResults("c.json", "clean")
    assert [(status, p.kind) for f in (lost, unread, clean)
            for status, p in reporting.file_problems(f)] == [
        ("internal_error", "internal"), ("unreadable", "unreadable")]
    assert reporting._said([lost, unread, clean], fmt=None) == reporting.EXIT_INPUT
    first, second = capsys.readouterr().err.splitlines()
    assert first.startswith("kansa: internal_error: a.mjson: ")
    assert first.endswith("its worker process died")
    assert second == "kansa: unreadable: b.xml: not XML"
