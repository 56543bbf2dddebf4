"""kansa (監査, audit): replay Riichi Mahjong logs and check every action and payment.

>>> import kansa
>>> kansa.read("sample_logs/games/tenhou-12.json")
[<Game tenhou6 kansa-sim-tenhou-12 4p 14 hands>]
>>> kansa.audit("sample_logs/disputes/fifth-kan.mjson")
<Audit sample_logs/disputes/fifth-kan.mjson findings: 1 game, 1 hand, 2 findings (1 error)>

The names are imported on first use, so that ``import kansa`` (and the command) stays
light.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

__all__ = [
    "Ankan", "Audit", "Chi", "Dahai", "Daiminkan", "Dora", "DrawReason", "EndGame",
    "EndKyoku", "Event", "Game", "Hora", "Kakan", "LogFormatError", "Nukidora", "Player",
    "Pon", "Reach", "ReachAccepted", "RuleSet", "Ryukyoku", "Severity", "SourceRef",
    "StartKyoku", "Table", "Tile", "Tsumo", "UnsupportedLogError", "Violation",
    "__version__", "audit", "read",
]

_MODULES = {
    "kansa.api": ("read", "audit", "Audit"),
    "kansa.replay.rules": ("RuleSet",),
    "kansa.replay.table": ("Table",),
    "kansa.replay.tiles": ("Tile",),
    "kansa.replay.game": ("Game", "Player"),
    "kansa.replay.violations": ("Violation", "Severity"),
    "kansa.parsers.errors": ("LogFormatError", "UnsupportedLogError"),
    "kansa.replay.events": (
        "Event", "SourceRef", "StartKyoku", "Tsumo", "Dahai", "Chi", "Pon", "Daiminkan",
        "Kakan", "Ankan", "Nukidora", "Dora", "Reach", "ReachAccepted", "Hora", "Ryukyoku",
        "DrawReason", "EndKyoku", "EndGame"),
}
_HOMES = {name: module for module, names in _MODULES.items() for name in names}
"""The module each public name comes from."""

if TYPE_CHECKING:
    from kansa.api import Audit, audit, read
    from kansa.parsers.errors import LogFormatError, UnsupportedLogError
    from kansa.replay.events import (
        Ankan,
        Chi,
        Dahai,
        Daiminkan,
        Dora,
        DrawReason,
        EndGame,
        EndKyoku,
        Event,
        Hora,
        Kakan,
        Nukidora,
        Pon,
        Reach,
        ReachAccepted,
        Ryukyoku,
        SourceRef,
        StartKyoku,
        Tsumo,
    )
    from kansa.replay.game import Game, Player
    from kansa.replay.rules import RuleSet
    from kansa.replay.table import Table
    from kansa.replay.tiles import Tile
    from kansa.replay.violations import Severity, Violation


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'kansa' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
