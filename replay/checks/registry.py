"""How checks plug into the replay engine.

A check is a small function registered for one or more event types with the
rule ids it can report.  It runs before the event is applied (it sees the state
the actor saw) or after it, and returns its findings: an iterable of
:class:`~kansa.replay.violations.Violation`, or ``None`` when there is nothing to say
(the common case, kept cheap because checks run on every event).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal

from kansa.replay.violations import RULES, Violation

if TYPE_CHECKING:
    from kansa.replay.context import CheckContext

Phase = Literal["before", "after"]
CheckFn = Callable[["CheckContext", Any], Iterable[Violation] | None]


@dataclass(frozen=True, slots=True)
class Check:
    fn: CheckFn
    events: tuple[type, ...]
    rules: tuple[str, ...]
    phase: Phase

    @property
    def name(self) -> str:
        return f"{self.fn.__module__}.{self.fn.__name__}"


CHECKS: Final[list[Check]] = []


def check(*events: type, rules: tuple[str, ...], phase: Phase = "before") -> Callable[
        [CheckFn], CheckFn]:
    """Register ``fn`` as a check of ``events`` that may report ``rules``.

    :raises ValueError: if a rule id is not in the catalog.
    """
    for rule in rules:
        if rule not in RULES:
            raise ValueError(f"check reports unknown rule id {rule!r}; define() it first")

    def register(fn: CheckFn) -> CheckFn:
        CHECKS.append(Check(fn=fn, events=events, rules=rules, phase=phase))
        return fn

    return register


def dispatch_table(
    phase: Phase, enabled: Callable[[str], bool] | None = None,
) -> dict[type, tuple[CheckFn, ...]]:
    """Checks of ``phase`` by event type, keeping only those with an enabled rule."""
    table: dict[type, list[CheckFn]] = {}
    for c in CHECKS:
        if c.phase != phase or (enabled is not None and not any(map(enabled, c.rules))):
            continue
        for ev in c.events:
            table.setdefault(ev, []).append(c.fn)
    return {k: tuple(v) for k, v in table.items()}
