"""The check catalog: importing this package registers every check."""

from replay.checks import flow, scoring, structure  # noqa: F401
from replay.checks.registry import CHECKS, Check, check

__all__ = ["CHECKS", "Check", "check"]
