"""A time limit on one log: the last guard against input that makes kansa crawl.

Every parser and the replay are linear or budgeted, and the size limits bound
the input, so a real log takes milliseconds; this limit turns anything that
still takes too long into an unreadable file instead of a stalled batch.  It
uses ``SIGALRM`` and so works in a process's main thread (the command and its
process-pool workers); elsewhere (Dask worker threads) it is not enforced.
"""

from __future__ import annotations

import signal
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType


class TimeLimitExceeded(BaseException):
    """Raised inside the work when the time is up; a ``BaseException`` so that no
    ``except Exception`` on the way turns it into a parse error."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"gave up after {seconds:g} s")
        self.seconds = seconds


def available() -> bool:
    return hasattr(signal, "setitimer") and \
        threading.current_thread() is threading.main_thread()


@contextmanager
def time_limit(seconds: float | None) -> Iterator[None]:
    """Raise :class:`TimeLimitExceeded` in the block after ``seconds`` (no limit when
    ``None``, 0, or where signals cannot be used)."""
    if not seconds or seconds <= 0 or not available():
        yield
        return

    def on_alarm(signum: int, frame: FrameType | None) -> None:
        raise TimeLimitExceeded(seconds)

    previous = signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)
