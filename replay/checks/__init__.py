"""The check catalog: importing this package registers every check."""

from replay.checks import draw, flow, riichi, scoring, structure, win  # noqa: F401
from replay.checks.registry import CHECKS, Check, check

__all__ = ["CHECKS", "Check", "check"]
