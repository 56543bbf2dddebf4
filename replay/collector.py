"""Pausing the cyclic garbage collector while a game is built or replayed.

Reading and replaying a game allocates a few hundred thousand small objects (events,
source references, river tiles) and makes no reference cycles (``Replayer`` keeps
plain functions, not its own bound methods, for that reason), so reference counting
frees all of it.  The cyclic collector would still walk the young objects every 700
allocations and the whole heap now and then: about 20 % of the time spent parsing the
corpus's Tenhou logs and 6 % of their full audit, measured with the collector off for a
whole pass (pausing it per log, as here, keeps most of the first and about half of the
second).  Anything that does form a cycle
meanwhile stays tracked and is collected once the collector runs again.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["collector_paused"]


@contextmanager
def collector_paused() -> Iterator[None]:
    """Disable the cyclic collector for the block if it is enabled, and enable it after.

    Thread-safe in effect: a thread that finds it already paused leaves it alone, so
    the collector ends enabled once the thread that paused it is done.
    """
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
