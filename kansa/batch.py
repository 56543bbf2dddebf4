"""Run :func:`~kansa.runner.audit_file` over many files: in-process, on a process
pool, or on a Dask cluster, always yielding outcomes in file order.

Files are taken from the input iterable as room frees up, and outcomes yielded in
its order whatever order the workers finish in: at most a window of files (eight
per worker) is in flight or waiting for an earlier one, so memory stays flat
however many files there are and the output is the same for every ``jobs`` and
engine.  A worker sends its result back as pickled bytes, unpickled here one file at
a time, so a result that does not travel costs only its file.
"""

from __future__ import annotations

import os
import pickle
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sized
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, TextIO

from kansa.runner import AuditOptions, FileOutcome, audit_file, lost_outcome

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

Task = Callable[[str, AuditOptions], Any]
"""A per-file function run by a worker; must be importable (picklable by reference)."""
Lost = Callable[[str, str], Any]
"""What a task's result is for a file whose worker died or whose result did not travel:
``lost(file, why)``."""


@dataclass(frozen=True, slots=True)
class Engine:
    kind: str = "local"
    """``local`` (processes on this machine) or ``dask``."""
    jobs: int = 1
    scheduler: str | None = None
    """Dask scheduler address (``tcp://host:8786``) for ``kind="dask"``."""


def default_jobs() -> int:
    return len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (
        os.cpu_count() or 1)


class EngineError(Exception):
    """The engine could not start (the Dask extra missing, no scheduler at the address)."""


def run(files: Iterable[str], options: AuditOptions, engine: Engine = Engine(),
        task: Task = audit_file, lost: Lost = lost_outcome) -> Iterator[Any]:
    """Yield ``task(file, options)`` for every file, in input order; ``lost(file,
    why)`` in its place when the worker running it dies or its result cannot be sent
    back (a process pool or Dask; with one job the work runs in this process).

    :raises EngineError: at once, before any file is audited.
    """
    if engine.kind == "dask":
        return _run_dask(files, options, _dask_client(engine), task, lost)
    if engine.jobs <= 1 or (isinstance(files, Sized) and len(files) <= 1):
        return (task(f, options) for f in files)
    return _run_pool(files, options, engine.jobs, task, lost)


def _run_pool(files: Iterable[str], options: AuditOptions, jobs: int,
              task: Task, lost: Lost) -> Iterator[Any]:
    # the process pool's modules (multiprocessing, sockets, ...) only when one is used
    from concurrent.futures import FIRST_COMPLETED, wait  # noqa: PLC0415
    from concurrent.futures.process import BrokenProcessPool  # noqa: PLC0415

    queue = _Window(files, jobs * 8)
    pool = _pool(jobs)
    pending: dict[Future[bytes], int] = {}
    try:
        while not queue.finished:
            for i, path in queue.admit():
                pending[pool.submit(_shipped, task, path, options)] = i
            finished, _ = wait(pending, return_when=FIRST_COMPLETED)
            suspects = []
            for fut in finished:
                i = pending.pop(fut)
                try:
                    queue.done[i] = _unshipped(fut.result(), queue.paths[i], lost)
                except BrokenProcessPool:
                    suspects.append(i)
                except Exception as exc:  # the task raised (a bug): the batch goes on
                    queue.done[i] = lost(queue.paths[i], _why(exc))
            if suspects:  # a worker died: every task in flight failed with it
                for fut, i in pending.items():
                    if fut.done() and fut.exception() is None:
                        queue.done[i] = _unshipped(fut.result(), queue.paths[i], lost)
                    else:
                        suspects.append(i)
                pending.clear()
                pool.shutdown(wait=True, cancel_futures=True)
                for i in sorted(suspects):
                    queue.done[i] = _alone(queue.paths[i], options, task, lost)
                pool = _pool(jobs)
            yield from queue.ready()
    finally:
        pool.shutdown(wait=True, cancel_futures=True)  # the files in hand take ms


class _Window:
    """Files taken from an iterator as room frees up, and their results handed back in
    input order: at most ``size`` files are in flight or waiting for an earlier one,
    so memory stays flat however many files the iterator yields."""

    def __init__(self, files: Iterable[str], size: int) -> None:
        self._source = iter(files)
        self._size = size
        self._exhausted = False
        self.taken = 0
        self.next_out = 0
        self.paths: dict[int, str] = {}
        self.done: dict[int, Any] = {}

    @property
    def finished(self) -> bool:
        return self._exhausted and self.next_out == self.taken

    def admit(self) -> Iterator[tuple[int, str]]:
        """``(index, path)`` for each file there is now room for."""
        while not self._exhausted and self.taken - self.next_out < self._size:
            path = next(self._source, None)
            if path is None:
                self._exhausted = True
                return
            self.paths[self.taken] = path
            yield self.taken, path
            self.taken += 1

    def ready(self) -> Iterator[Any]:
        """The results now complete from the front, in input order."""
        while self.next_out in self.done:
            del self.paths[self.next_out]
            yield self.done.pop(self.next_out)
            self.next_out += 1


class UnsentResult(Exception):
    """A worker's result that could not be pickled to send back (a plain message, so
    that the exception itself always can be)."""


def _shipped(task: Task, path: str, options: AuditOptions) -> bytes:
    """``task(path, options)`` pickled in the worker.  The pool would unpickle a result
    in its own thread, where a failure breaks the whole pool and loses every file in
    flight; as bytes, the result is unpickled by :func:`_unshipped`, for its file alone."""
    result = task(path, options)
    try:
        return pickle.dumps(result, protocol=pickle.HIGHEST_PROTOCOL)
    except Exception as exc:
        raise UnsentResult(f"its result could not be sent back from the worker process "
                           f"({type(exc).__name__}: {exc})") from None


def _why(exc: Exception) -> str:
    """What a task's exception says of its file."""
    return str(exc) if isinstance(exc, UnsentResult) else f"{type(exc).__name__}: {exc}"


def _unshipped(data: bytes, path: str, lost: Lost) -> Any:
    """The result :func:`_shipped` sent for ``path``, or ``lost(path, why)`` when it
    does not unpickle."""
    try:
        return pickle.loads(data)  # bytes from our own worker process
    except Exception as exc:
        return lost(path, f"its result could not be read back from the worker process "
                          f"({type(exc).__name__}: {exc})")


def _pool(jobs: int) -> ProcessPoolExecutor:
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

    return ProcessPoolExecutor(max_workers=jobs, initializer=_leave_ctrl_c_to_the_parent)


@contextmanager
def _ctrl_c_ignored() -> Iterator[None]:
    """Ignore SIGINT while child processes are started, so that they keep ignoring it:
    a terminal's Ctrl-C goes to the whole process group, and a local Dask cluster's
    workers dying of it would leave the parent waiting for them forever.  (A Ctrl-C
    in the second or two this takes is lost; holding it back with the signal mask
    instead does not keep Dask's workers from dying of it.)"""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def _leave_ctrl_c_to_the_parent() -> None:
    """A terminal's Ctrl-C reaches every process of the group; the workers ignore it
    (no traceback from each) and the parent stops the batch (:class:`Interrupt`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _alone(path: str, options: AuditOptions, task: Task, lost: Lost) -> Any:
    """Run one task of a broken pool again in a process of its own, so that the file
    that kills its worker is told from the ones that were in flight beside it."""
    from concurrent.futures.process import BrokenProcessPool  # noqa: PLC0415

    with _pool(1) as pool:
        try:
            return _unshipped(pool.submit(_shipped, task, path, options).result(), path, lost)
        except BrokenProcessPool as exc:
            return lost(path, f"its worker process died, also when it was audited "
                              f"alone ({exc})")
        except Exception as exc:  # the task raised (a bug)
            return lost(path, _why(exc))


def _dask_client(engine: Engine) -> Any:
    try:
        from distributed import Client  # noqa: PLC0415 (optional extra)
    except ImportError:
        raise EngineError("the dask engine needs the dask extra: "
                          "pip install 'kansa[dask]'") from None
    try:
        if engine.scheduler:
            return Client(engine.scheduler)
        with _ctrl_c_ignored():
            return Client(n_workers=max(engine.jobs, 1), threads_per_worker=1)
    except (OSError, ValueError, TypeError) as exc:  # unreachable or malformed address
        where = engine.scheduler or "a local cluster"
        raise EngineError(f"cannot start the dask engine on {where}: {exc}") from None


def _run_dask(files: Iterable[str], options: AuditOptions, client: Any,
              task: Task, lost: Lost) -> Iterator[Any]:
    from distributed import as_completed  # noqa: PLC0415 (optional extra)

    try:
        queue = _Window(files, max(64, 8 * sum(client.nthreads().values())))
        index: dict[Any, int] = {}
        ac = as_completed()
        while not queue.finished:
            for i, path in queue.admit():
                fut = client.submit(_shipped, task, path, options, pure=False)
                index[fut] = i
                ac.add(fut)
            if index:
                fut = next(ac)
                i = index.pop(fut)
                try:
                    queue.done[i] = _unshipped(fut.result(), queue.paths[i], lost)
                except UnsentResult as exc:
                    queue.done[i] = lost(queue.paths[i], str(exc))
                except Exception as exc:  # KilledWorker: Dask retried it and gave up
                    queue.done[i] = lost(queue.paths[i],
                                         f"Dask lost it: {type(exc).__name__}: {exc}")
                fut.release()
            yield from queue.ready()
    finally:
        client.close()


class Interrupt:
    """Ctrl-C taken between files: the first one sets :attr:`requested`, which the
    caller checks after each outcome, so that the batch stops with its output whole;
    a second one raises ``KeyboardInterrupt`` at once.  Only in the main thread (where
    signal handlers can be set); elsewhere Ctrl-C keeps its usual effect."""

    def __init__(self) -> None:
        self.requested = False
        self._previous: Any = None

    def __enter__(self) -> Interrupt:
        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._on_sigint)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
            self._previous = None

    def _on_sigint(self, signum: int, frame: Any) -> None:
        if self.requested:
            raise KeyboardInterrupt
        self.requested = True


class Progress:
    """A one-line progress bar on a terminal; silent otherwise."""

    def __init__(self, total: int, stream: TextIO | None = None,
                 enabled: bool | None = None) -> None:
        self.stream = stream or sys.stderr
        self.enabled = self.stream.isatty() if enabled is None else enabled
        self.total = total
        self.files = self.games = self.findings = 0
        self.start = time.monotonic()
        self._last = 0.0

    def skip(self) -> None:
        """A file with nothing to audit (its results are in the store already)."""
        self.files += 1
        self._tick()

    def update(self, outcome: FileOutcome) -> None:
        self.advance(len(outcome.games), sum(len(g["violations"]) for g in outcome.games))

    def advance(self, games: int, findings: int) -> None:
        """One file done, holding ``games`` games with ``findings`` findings."""
        self.files += 1
        self.games += games
        self.findings += findings
        self._tick()

    def _tick(self) -> None:
        now = time.monotonic()
        if self.enabled and (now - self._last > 0.1 or self.files == self.total):
            self._last = now
            self._draw(now)

    def _draw(self, now: float) -> None:
        elapsed = max(now - self.start, 1e-9)
        rate = self.games / elapsed
        left = (self.total - self.files) * elapsed / max(self.files, 1)
        width = 24
        filled = width * self.files // max(self.total, 1)
        bar = "#" * filled + "." * (width - filled)
        self.stream.write(
            f"\r[{bar}] {self.files}/{self.total} files  {rate:6.1f} games/s  "
            f"{self.findings} findings  {int(left) // 60}:{int(left) % 60:02d} left ")
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self.stream.write("\n")
            self.stream.flush()
