"""Every value that crosses a process boundary round-trips through pickle, in whichever
build is installed: a parallel batch sends each file's results back from its worker.
mypyc's frozen dataclasses once pickled but did not unpickle (``FrozenInstanceError``),
so each frozen value class defines its own state (kansa/replay/frozen.py)."""

from __future__ import annotations

import copy
import dataclasses
import importlib
import pickle
from pathlib import Path
from typing import Any

import pytest

from kansa.buildinfo import which_build
from kansa.discovery import discover
from kansa.replay.ledger import Reason, Transfer
from kansa.replay.melds import Meld, MeldType
from kansa.replay.payments import WinInput, WinPayment, final_result, noten_payments
from kansa.replay.rules import PRESETS, RuleSet
from kansa.replay.tiles import Seat, Tile
from kansa.runner import AuditOptions, audit_file, replay_file

ROOT = Path(__file__).resolve().parents[2]
VALUE_MODULES = ("game", "ledger", "melds", "rules", "violations", "payments", "scoring")
"""The engine's modules of values that results, rule sets and options carry."""


def round_trip(value: Any) -> Any:
    return pickle.loads(pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))


def sample_files() -> list[str]:
    files, _ = discover([str(ROOT / "sample_logs")])
    return files


def frozen_classes() -> list[type]:
    found = []
    for name in VALUE_MODULES:
        module = importlib.import_module(f"kansa.replay.{name}")
        for value in vars(module).values():
            if (isinstance(value, type) and value.__module__ == module.__name__
                    and dataclasses.is_dataclass(value)
                    and (value.__dataclass_params__.frozen  # type: ignore[attr-defined]
                         or not value.__dataclass_params__.init)):  # type: ignore[attr-defined]
                found.append(value)  # frozen, or with Final fields set by a written __init__
    return found


@pytest.mark.parametrize("keep_events", [False, True])
def test_the_results_of_every_sample_log_come_back_equal(keep_events: bool) -> None:
    files = sample_files()
    assert len(files) >= 10
    for f in files:
        results = replay_file(f, AuditOptions(), keep_events=keep_events)
        back = round_trip(results)
        assert back == results, f
        assert [r.violations for r in back.results] == [r.violations for r in results.results]
        assert [g.events for g in back.games] == [g.events for g in results.games]
        assert round_trip(audit_file(f)).to_dict() == audit_file(f).to_dict()
    assert which_build() in ("compiled", "pure")


def test_shared_events_keep_their_positions() -> None:
    """A game's runs describe its own events (an identity check): pickle keeps it."""
    for f in sample_files():
        for game in replay_file(f, AuditOptions(), keep_events=True).games:
            back = round_trip(game)
            assert [back.src_of(i) for i in range(len(back.events))] == \
                [game.src_of(i) for i in range(len(game.events))]


@pytest.mark.corpus
def test_the_results_of_every_corpus_format_come_back_equal(corpus_dir: Path) -> None:
    for folder in sorted(p for p in corpus_dir.iterdir() if p.is_dir()):
        files, _ = discover([str(folder)])
        for f in files[:5]:
            results = replay_file(f, AuditOptions())
            assert round_trip(results) == results, f


def test_rule_sets_melds_and_payments_come_back_equal() -> None:
    rules = RuleSet.preset("ema").replace(aka=True)
    values: list[Any] = [
        *PRESETS.values(), rules,
        Meld(MeldType.PON, (Tile.parse("5m"),) * 3, called=Tile.parse("5m"), target=Seat(2)),
        Meld(MeldType.ANKAN, (Tile.parse("1z"),) * 4),
        Transfer(hand=0, event=3, payer=None, payee=Seat(1), amount=1000, reason=Reason.STICKS),
        noten_payments([True, False, False, True], rules=rules, hand=2, event=9),
        final_result([30000, 25000, 25000, 19000], 1, rules=rules),
    ]
    for value in values:
        assert round_trip(value) == value
        assert copy.copy(value) == value and copy.deepcopy(value) == value


def test_every_frozen_value_class_defines_its_pickled_state() -> None:
    """Without its own ``__setstate__`` a compiled frozen class would not unpickle, and
    one with a written ``__init__`` needs its own ``__reduce__``."""
    classes = frozen_classes()
    assert len(classes) >= 15
    missing = [c.__qualname__ for c in classes
               if "__reduce__" not in vars(c)
               and ("__setstate__" not in vars(c) or "__getstate__" not in vars(c))]
    assert missing == []


def test_the_frozen_classes_with_written_inits_round_trip() -> None:
    values: list[Any] = [
        WinInput(winner=Seat(1), target=Seat(2), points=8000, liable=Seat(3),
                 liable_points=32000, riichi=True, event=40),
        WinPayment(winner=Seat(0), deltas=(-1000, 2000, -1000, 0), value=2000, honba=0,
                   sticks=0, transfers=(Transfer(hand=1, event=2, payer=Seat(2),
                                                 payee=Seat(0), amount=1000,
                                                 reason=Reason.RON),)),
    ]
    for value in values:
        assert round_trip(value) == value
        assert copy.copy(value) == value and copy.deepcopy(value) == value
