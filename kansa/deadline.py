"""A time limit on one log: the last guard against input that makes kansa crawl.

Every parser and the replay are linear or budgeted, and the size limits bound
the input, so a real log takes milliseconds; this limit turns anything that
still takes too long into an unreadable file instead of a stalled batch.

In a process's main thread (the command and its process-pool workers) it uses
``SIGALRM``, which also interrupts a blocking read.  In any other thread (a Dask
worker runs tasks in threads) one watchdog thread per process raises the
exception in the late thread with CPython's ``PyThreadState_SetAsyncExc``; like a
signal handler, that takes effect between two bytecodes of the late thread.
"""

from __future__ import annotations

import ctypes
import heapq
import signal
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class TimeLimitExceeded(BaseException):
    """Raised inside the work when the time is up; a ``BaseException`` so that no
    ``except Exception`` on the way turns it into a parse error."""

    def __init__(self, seconds: float | None = None) -> None:
        super().__init__("gave up after the time limit" if seconds is None
                         else f"gave up after {seconds:g} s")
        self.seconds = seconds


class _Expired(TimeLimitExceeded):
    """What the watchdog raises (it can only pass a class); :meth:`_Watchdog.watch`
    gives it the seconds when it arrives inside the block."""


def _signals_usable() -> bool:
    return hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimeLimitExceeded` in the block after ``seconds`` (no limit when
    ``None`` or 0, or off the main thread of a Python without CPython's C API), in
    whichever thread the block runs."""
    if not seconds or seconds <= 0:
        yield
    elif _signals_usable():
        with _alarm(seconds):
            yield
    elif _ASYNC_EXC:
        with _WATCHDOG.watch(seconds):
            yield
    else:
        yield


@contextmanager
def _alarm(seconds: float) -> Iterator[None]:
    def on_alarm(signum: int, frame: FrameType | None) -> None:
        raise TimeLimitExceeded(seconds)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _raise_in(thread_id: int, exc: type[BaseException] | None) -> None:
    """Make ``thread_id`` raise ``exc`` at its next bytecode (``None``: take back a
    pending one)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), ctypes.py_object(exc) if exc else None)


class _Watch:
    __slots__ = ("due", "live", "thread_id")

    def __init__(self, thread_id: int, due: float) -> None:
        self.thread_id = thread_id
        self.due = due
        self.live = True  # cleared, under the watchdog's lock, when the block ends

    def __lt__(self, other: _Watch) -> bool:
        return self.due < other.due


class _Watchdog:
    """One daemon thread that sleeps until the earliest live deadline.  Ending a
    block only marks its watch dead (no wake-up), so a batch of fast logs costs a
    lock and a heap push each, not a thread switch."""

    def __init__(self) -> None:
        self._cond = threading.Condition(threading.Lock())
        self._heap: list[_Watch] = []
        self._thread: threading.Thread | None = None
        self._sleeping_until = float("inf")

    @contextmanager
    def watch(self, seconds: float) -> Iterator[None]:
        w = _Watch(threading.get_ident(), time.monotonic() + seconds)
        with self._cond:
            heapq.heappush(self._heap, w)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="kansa-deadline",
                                                daemon=True)
                self._thread.start()
            elif w.due < self._sleeping_until:
                self._cond.notify()
        try:
            yield
        except _Expired:
            raise TimeLimitExceeded(seconds) from None  # with the seconds in its message
        finally:
            with self._cond:
                fired = not w.live
                w.live = False
                while self._heap and not self._heap[0].live:  # keep the heap short
                    heapq.heappop(self._heap)
            if fired:  # raised already, or still pending: take a pending one back
                _raise_in(w.thread_id, None)

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                while self._heap and (not self._heap[0].live or self._heap[0].due <= now):
                    w = heapq.heappop(self._heap)
                    if w.live:
                        w.live = False
                        _raise_in(w.thread_id, _Expired)
                self._sleeping_until = self._heap[0].due if self._heap else float("inf")
                self._cond.wait(None if not self._heap else self._sleeping_until - now)


_WATCHDOG = _Watchdog()
_ASYNC_EXC = hasattr(ctypes, "pythonapi") and hasattr(ctypes.pythonapi,
                                                       "PyThreadState_SetAsyncExc")
