"""A pytest plugin that records the rule ids each test makes the replay layer report.

``python -m pytest -p tests.rule_recorder NODES`` with ``KANSA_RULES_SEEN=FILE`` writes
``{node id: [rule ids]}`` to FILE at the end of the session.  A finding counts when a
module of :mod:`kansa.replay` creates it (a finding read back from JSON or a store does
not), in this process (not in a batch's worker processes).
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from kansa.replay.violations import Violation

ENV = "KANSA_RULES_SEEN"

_seen: dict[str, set[str]] = {}
_current: list[set[str]] = []
"""The rules of the test running now (one set, or none between tests)."""


def _recording(init: Callable[..., None]) -> Callable[..., None]:
    def __init__(self: Violation, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        caller = sys._getframe(1).f_globals.get("__name__", "")
        if _current and caller.startswith("kansa.replay."):
            _current[0].add(self.rule)

    return __init__


def pytest_configure(config: pytest.Config) -> None:
    if not getattr(Violation.__init__, "_records_rules", False):
        wrapped = _recording(Violation.__init__)
        wrapped._records_rules = True  # type: ignore[attr-defined]
        Violation.__init__ = wrapped  # type: ignore[method-assign]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_protocol(item: pytest.Item) -> Iterator[object]:
    _current.append(_seen.setdefault(item.nodeid, set()))
    try:
        return (yield)
    finally:
        _current.clear()


def pytest_sessionfinish(session: pytest.Session) -> None:
    out = os.environ.get(ENV)
    if out:
        Path(out).write_text(json.dumps({k: sorted(v) for k, v in _seen.items()}, indent=1),
                             encoding="utf-8")
