"""Pickling for the engine's frozen dataclasses, the same in the compiled and the pure build.

mypyc compiles a dataclass to a native class whose default ``__setstate__`` assigns
each field through the class's ``__setattr__``, which a frozen dataclass refuses
(``FrozenInstanceError``): its values pickle but do not unpickle, so they could not
come back from a worker process.  Each frozen value class of the engine therefore
defines ``__getstate__`` and ``__setstate__`` with the two functions here, which set
the fields as the dataclass's own ``__init__`` does (``object.__setattr__``).  The
pure build's slotted frozen dataclasses would get the same from :mod:`dataclasses`.
A class that writes its own ``__init__`` (frozen or not) gives :func:`frozen_reduce`
as its ``__reduce__`` instead: the compiled class's default recipe would call that
``__init__`` without arguments.

The values made per meld, per win and per payment (``Meld``, ``Transfer``,
``WinInput``, ``WinPayment``, ``WinSituation``) are not frozen dataclasses: each
declares its fields ``Final`` and sets them in a written ``__init__``.  mypy refuses
any later assignment, the compiled build refuses one at run time (the attributes are
read-only), and each field is set by a native store where a frozen dataclass needs a
generic ``object.__setattr__`` call per field (compiled, about 850 instructions each).
Their hash is that of their fields, as a frozen dataclass's is; the pure build does
not refuse an assignment at run time.
"""

from __future__ import annotations

import dataclasses
from typing import Any, Final

__all__ = ["frozen_reduce", "frozen_state", "set_frozen_state"]

_NAMES: Final[dict[type, tuple[str, ...]]] = {}
"""Each class's field names, in their order."""


def _names(cls: type) -> tuple[str, ...]:
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in dataclasses.fields(cls))
    return names


def frozen_state(value: Any) -> tuple[Any, ...]:
    """The values of ``value``'s fields, in their order (its ``__getstate__``)."""
    return tuple(getattr(value, name) for name in _names(type(value)))


def set_frozen_state(value: Any, state: tuple[Any, ...]) -> None:
    """Set ``value``'s fields from :func:`frozen_state` (its ``__setstate__``).

    :raises ValueError: when ``state`` does not have one value per field.
    """
    for name, item in zip(_names(type(value)), state, strict=True):
        object.__setattr__(value, name, item)


def frozen_reduce(value: Any, required: tuple[str, ...] | None = None) -> tuple[Any, ...]:
    """The pickle (and copy) recipe of a class with a written ``__init__`` (its
    ``__reduce__``): call the class with the ``required`` fields as keywords (every
    field when ``None``), then set the others as a frozen dataclass's ``__init__`` does.
    A compiled class's default recipe would call that ``__init__`` with no arguments."""
    return _from_fields, (type(value), frozen_state(value), required)


def _from_fields(cls: Any, state: tuple[Any, ...], required: tuple[str, ...] | None) -> Any:
    fields = dict(zip(_names(cls), state, strict=True))
    if required is None:
        return cls(**fields)
    value = cls(**{name: fields.pop(name) for name in required})
    for name, item in fields.items():
        object.__setattr__(value, name, item)
    return value
