"""kansa.deadline: the per-log time limit, in the main thread (a signal) and in any
other thread (the watchdog), which is where a Dask worker runs its tasks."""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from kansa import deadline
from kansa.deadline import TimeLimitExceeded, time_limit
from kansa.parsers.source import DEFAULT_LIMITS, Limits
from kansa.runner import AuditOptions, audit_file

MJLOG = (b'<mjloggm ver="2.3"><GO type="169" lobby="0"/>'
         b'<UN n0="a" n1="b" n2="c" n3="d" dan="0,0,0,0" rate="1500,1500,1500,1500" '
         b'sx="M,M,M,M"/><TAIKYOKU oya="0"/></mjloggm>')


def crawl(seconds: float) -> None:
    """Pure Python work that swallows every ``Exception`` (as a buggy reader might)."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        try:
            sum(range(100))
        except Exception:
            continue


def in_thread(work: Callable[[], Any]) -> Any:
    """``work()``'s result, or the exception it raised, from a fresh non-main thread."""
    box: list[Any] = []

    def run() -> None:
        try:
            box.append(work())
        except BaseException as exc:  # handed back to the test
            box.append(exc)

    t = threading.Thread(target=run)
    t.start()
    t.join(30)
    assert not t.is_alive()
    return box[0]


def limited_crawl(limit: float, seconds: float) -> str:
    with time_limit(limit):
        crawl(seconds)
    return "finished"


@pytest.mark.parametrize("where", ["main thread", "other thread"])
def test_a_block_that_runs_late_is_stopped(where: str) -> None:
    start = time.monotonic()
    if where == "main thread":
        with pytest.raises(TimeLimitExceeded) as info:
            limited_crawl(0.2, 10)
        got: Any = info.value
    else:
        got = in_thread(lambda: limited_crawl(0.2, 10))
    took = time.monotonic() - start
    assert isinstance(got, TimeLimitExceeded), got
    assert got.seconds == 0.2 and str(got) == "gave up after 0.2 s"
    assert 0.2 <= took < 3


def test_a_block_that_ends_in_time_is_never_interrupted_later() -> None:
    def work() -> str:
        for _ in range(200):
            with time_limit(0.05):
                pass
        crawl(0.3)  # well past every deadline above, outside their blocks
        return "finished"

    assert in_thread(work) == "finished"


def test_threads_are_timed_each_on_their_own() -> None:
    results: dict[str, Any] = {}

    def run(name: str, limit: float, seconds: float) -> None:
        results[name] = in_thread(lambda: limited_crawl(limit, seconds))

    plans = {"slow": (0.2, 10.0), "quick": (5.0, 0.4), "slow-later": (0.6, 10.0),
             "no limit": (0.0, 0.4)}
    threads = [threading.Thread(target=run, args=(n, *p)) for n, p in plans.items()]
    for t in threads:
        t.start()
    for t in threads:
        t.join(30)
    assert results["quick"] == results["no limit"] == "finished"
    assert isinstance(results["slow"], TimeLimitExceeded) and results["slow"].seconds == 0.2
    assert isinstance(results["slow-later"], TimeLimitExceeded)
    assert results["slow-later"].seconds == 0.6


def test_fast_blocks_in_a_row_keep_the_watch_list_short() -> None:
    def work() -> int:
        for _ in range(1000):
            with time_limit(60):
                pass
        return len(deadline._WATCHDOG._heap)

    assert in_thread(work) == 0


def test_an_audit_in_a_worker_thread_gives_a_slow_log_up(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """As a Dask worker runs it: the slow log is unreadable, the next one audited."""
    import kansa.parsers.tenhou_xml.read as reader  # noqa: PLC0415

    original = reader.parse

    def slow(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> list[Any]:
        if "slow" in source:
            crawl(60)
        return original(data, source, limits)

    for name in ("a-slow.mjlog", "b-fine.mjlog"):
        (tmp_path / name).write_bytes(MJLOG)
    monkeypatch.setattr(reader, "parse", slow)
    options = AuditOptions(limits=dataclasses.replace(DEFAULT_LIMITS, max_seconds=0.3))
    start = time.monotonic()
    outcomes = in_thread(lambda: [audit_file(str(tmp_path / n), options)
                                  for n in ("a-slow.mjlog", "b-fine.mjlog")])
    assert time.monotonic() - start < 10
    slow_outcome, fine_outcome = outcomes
    assert slow_outcome.status == "unreadable"
    assert "longer than the limit of 0.3 s (--max-seconds)" in slow_outcome.error.message
    assert fine_outcome.status != "unreadable" and len(fine_outcome.games) == 1


def test_a_dask_worker_gives_a_slow_log_up(tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """End to end on a Dask cluster whose worker runs in this process (so that the
    stuck reader patched in here is the one it calls): the batch goes on."""
    distributed = pytest.importorskip("distributed")
    import kansa.parsers.tenhou_xml.read as reader  # noqa: PLC0415
    from kansa.batch import Engine, run  # noqa: PLC0415

    original = reader.parse

    def slow(data: bytes, source: str, limits: Limits = DEFAULT_LIMITS) -> list[Any]:
        if "slow" in source:
            crawl(60)
        return original(data, source, limits)

    names = ("a-fine.mjlog", "b-slow.mjlog", "c-fine.mjlog")
    for name in names:
        (tmp_path / name).write_bytes(MJLOG)
    monkeypatch.setattr(reader, "parse", slow)
    options = AuditOptions(limits=dataclasses.replace(DEFAULT_LIMITS, max_seconds=0.5))
    start = time.monotonic()
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                                  dashboard_address=None) as cluster:
        outcomes = list(run([str(tmp_path / n) for n in names], options,
                            Engine(kind="dask", scheduler=cluster.scheduler_address)))
    assert time.monotonic() - start < 30
    assert [o.status for o in outcomes][1] == "unreadable"
    assert "longer than the limit of 0.5 s" in outcomes[1].error.message
    assert [len(o.games) for o in outcomes] == [1, 0, 1]
