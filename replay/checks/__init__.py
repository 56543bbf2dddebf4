"""The check catalog: importing this package registers every check."""

from kansa.replay.checks import (  # noqa: F401
    claims,
    draw,
    flow,
    kans,
    kita,
    riichi,
    ruleset,
    scoring,
    structure,
    wall,
    win,
)
from kansa.replay.checks.registry import CHECKS, Check, check

__all__ = ["CHECKS", "Check", "check"]
