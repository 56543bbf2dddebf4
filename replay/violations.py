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
from typing import Any, Final

from kansa.replay.events import SourceRef
from kansa.replay.frozen import frozen_state, set_frozen_state


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


_RANK: Final = {Severity.WARNING: 1, Severity.ERROR: 2}


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

    def cite(self, *rulesets: str) -> str:
        """The citation of the first of ``rulesets`` (rule-set names, ``tenhou-sanma`` as
        the keyword ``tenhou_sanma``) that has one of its own, else the general one."""
        for name in rulesets:
            found = self.citations.get(name.replace("-", "_"))
            if found is not None:
                return found
        return self.citation

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)


_RULES: Final[dict[str, RuleSpec]] = {}
RULES: Final[Mapping[str, RuleSpec]] = MappingProxyType(_RULES)
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
    state: Snapshot | None = field(default=None, compare=False)
    """The table at the moment of the finding, for reports to draw."""

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
            "state": self.state.to_dict() if self.state is not None else None,
        }

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)


@dataclass(frozen=True, slots=True, kw_only=True)
class Snapshot:
    """What the table showed when a finding was made: enough to draw it.

    Tiles are mpsz strings (``123m406p11z``); river entries carry ``*`` for the
    riichi tile and ``>`` for a tile called away; melds are their tiles with the
    meld type (``pon:555z``).
    """

    hands: tuple[str, ...]
    hidden: tuple[int, ...]
    melds: tuple[tuple[str, ...], ...]
    rivers: tuple[tuple[str, ...], ...]
    dora_markers: tuple[str, ...]
    scores: tuple[int, ...] | None
    live_wall: int
    riichi: tuple[bool, ...]

    @staticmethod
    def from_dict(d: Mapping[str, Any]) -> Snapshot:
        """The inverse of :meth:`to_dict` (for findings read back from a results store)."""
        scores = d.get("scores")
        return Snapshot(
            hands=tuple(d["hands"]), hidden=tuple(d["hidden"]),
            melds=tuple(tuple(m) for m in d["melds"]),
            rivers=tuple(tuple(r) for r in d["rivers"]),
            dora_markers=tuple(d["dora_markers"]),
            scores=tuple(scores) if scores is not None else None,
            live_wall=int(d["live_wall"]), riichi=tuple(d["riichi"]))

    def to_dict(self) -> dict[str, object]:
        return {
            "hands": list(self.hands), "hidden": list(self.hidden),
            "melds": [list(m) for m in self.melds], "rivers": [list(r) for r in self.rivers],
            "dora_markers": list(self.dora_markers),
            "scores": list(self.scores) if self.scores is not None else None,
            "live_wall": self.live_wall, "riichi": list(self.riichi),
        }

    def __getstate__(self) -> tuple[Any, ...]:
        return frozen_state(self)

    def __setstate__(self, state: tuple[Any, ...]) -> None:
        set_frozen_state(self, state)
