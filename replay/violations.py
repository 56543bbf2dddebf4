"""Findings and the catalog of rule ids they refer to.

Every rule id kansa can report is a :class:`RuleSpec` in :data:`RULES`.  Check
modules define their specs next to the checks with :func:`define`; the
``kansa rules`` command and the README table are generated from this catalog.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import Enum
from types import MappingProxyType

from replay.events import SourceRef


class Severity(Enum):
    ERROR = "error"
    """The action or result is illegal under the rule set."""
    WARNING = "warning"
    """Suspicious, or legal only under conditions the log cannot show."""

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return _RANK[self] >= _RANK[other]

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, Severity):
            return NotImplemented
        return _RANK[self] > _RANK[other]


_RANK = {Severity.WARNING: 1, Severity.ERROR: 2}


@dataclass(frozen=True, slots=True, kw_only=True)
class RuleSpec:
    id: str
    """Stable slug such as ``riichi.wall``; never reused for another meaning."""
    title: str
    severity: Severity
    citation: str
    """Where the rule is written, for the EMA rules (section of EMA RCR)."""
    description: str = ""
    citations: Mapping[str, str] = field(default_factory=dict)
    """Rule-set specific citations, keyed by rule-set name."""

    def cite(self, ruleset: str) -> str:
        return self.citations.get(ruleset, self.citation)


_RULES: dict[str, RuleSpec] = {}
RULES: Mapping[str, RuleSpec] = MappingProxyType(_RULES)
"""Every rule id kansa can report, keyed by id."""


def define(
    rule_id: str,
    title: str,
    severity: Severity,
    citation: str,
    description: str = "",
    **citations: str,
) -> RuleSpec:
    """Add a rule to the catalog (idempotent for an identical definition).

    Keyword arguments give rule-set specific citations (``tenhou="..."``).
    """
    spec = RuleSpec(id=rule_id, title=title, severity=severity, citation=citation,
                    description=description, citations=dict(citations))
    old = _RULES.get(rule_id)
    if old is not None and old != spec:
        raise ValueError(f"rule id {rule_id!r} defined twice with different content")
    _RULES[rule_id] = spec
    return spec


@dataclass(frozen=True, slots=True, kw_only=True)
class Violation:
    rule: str
    severity: Severity
    message: str
    citation: str
    hand: str | None = None
    """Hand label such as ``E2-1``; ``None`` for game-level findings."""
    turn: int | None = None
    seat: int | None = None
    event: int | None = None
    """Index of the event in the game's event stream."""
    src: SourceRef | None = None

    def to_dict(self) -> dict[str, object]:
        return {
            "rule": self.rule,
            "severity": self.severity.value,
            "hand": self.hand,
            "turn": self.turn,
            "seat": self.seat,
            "event": self.event,
            "source": str(self.src) if self.src is not None else None,
            "message": self.message,
            "citation": self.citation,
        }
