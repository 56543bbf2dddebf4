"""kansa.replay.collector: the cyclic collector is paused for a block and restored after."""

from __future__ import annotations

import gc

import pytest

from kansa.parsers import parse_bytes
from kansa.replay.collector import collector_paused
from kansa.replay.engine import replay
from kansa.replay.rules import RuleSet


def test_paused_inside_and_enabled_after() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()


def test_enabled_again_after_an_exception() -> None:
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_a_collector_already_off_stays_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # the caller that disabled it decides
    finally:
        gc.enable()


def test_nested_pauses_restore_once() -> None:
    with collector_paused():
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_replaying_never_touches_the_collector(monkeypatch: pytest.MonkeyPatch) -> None:
    """A library call changes no global state: only the application pauses the collector."""
    games = parse_bytes(b'<mjloggm ver="2.3"><GO type="169"/></mjloggm>', "tiny.mjlog")

    def refuse() -> None:
        raise AssertionError("replay() paused the garbage collector")

    monkeypatch.setattr(gc, "disable", refuse)
    replay(games[0], RuleSet.auto(games[0].hints))


def test_parsing_and_replaying_leave_the_collector_on() -> None:
    data = b'<mjloggm ver="2.3"><GO type="169"/></mjloggm>'
    games = parse_bytes(data, "tiny.mjlog")
    assert gc.isenabled()
    replay(games[0], RuleSet.auto(games[0].hints))
    assert gc.isenabled()
