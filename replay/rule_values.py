"""Rule-set values from a TOML rule file's plain data, checked key by key
(:meth:`~kansa.replay.rules.RuleSet.from_mapping`)."""

from __future__ import annotations

from enum import Enum
from typing import Any

from kansa.replay.events import DrawReason
from kansa.replay.yaku import Yaku


def coerce(key: str, current: Any, value: Any) -> Any:
    """``value`` from a rule file as the kind of ``current``, the field's preset value.

    :raises ValueError: naming the key and what it accepts.
    """
    try:
        if isinstance(current, bool):
            if not isinstance(value, bool):
                raise TypeError
            return value
        if isinstance(current, Enum):
            try:
                return type(current)(value)
            except ValueError:
                choices = ", ".join(str(m.value) for m in type(current))
                raise ValueError(f"bad value for {key!r}: {value!r} (expected one of "
                                 f"{choices})") from None
        if isinstance(current, int | float) and not isinstance(current, bool):
            if isinstance(value, bool) or not isinstance(value, int | float):
                raise TypeError
            return type(current)(value)
        if isinstance(current, str):
            return str(value)
        if isinstance(current, tuple) or (key == "uma" and current is None):
            sizes = (3, 4) if current is None or key == "uma" else (len(current),)
            if not isinstance(value, list | tuple) or len(value) not in sizes \
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in value):
                raise ValueError(f"bad value for {key!r}: {value!r} (expected a list of "
                                 f"{' or '.join(map(str, sizes))} whole numbers)")
            return tuple(value)
        if isinstance(current, frozenset):
            if not isinstance(value, list | tuple):
                raise TypeError
            if key == "abortive":
                try:
                    return frozenset(DrawReason(v) for v in value)
                except ValueError:
                    choices = ", ".join(r.value for r in DrawReason if r.is_abortive)
                    raise ValueError(f"bad value for {key!r}: {value!r} (expected a list "
                                     f"drawn from {choices})") from None
            return frozenset(Yaku[str(v).upper()] for v in value)
    except ValueError as exc:
        if str(exc).startswith("bad value"):
            raise
        raise ValueError(f"bad value for {key!r}: {value!r}") from None
    except (TypeError, KeyError):
        raise ValueError(f"bad value for {key!r}: {value!r} (expected "
                         f"{_kind_of(current)})") from None
    raise ValueError(f"field {key!r} cannot be set")


def _kind_of(current: Any) -> str:
    if isinstance(current, bool):
        return "true or false"
    if isinstance(current, int | float):
        return "a number"
    if isinstance(current, frozenset):
        return "a list"
    return "text"
