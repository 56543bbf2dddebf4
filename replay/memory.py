"""Working memory that checks keep between events, owned by the check that needs it.

A check module declares what it remembers once, with a factory; every replay has
its own :class:`Memos` (in the check context), which makes the memory at its first
use, and again for each hand when it is kept per hand.

>>> seen = Memory("example.seen", set, per_hand=False)
>>> memos = Memos()
>>> memos.get(seen).add("E1")
>>> memos.new_hand()
>>> memos.get(seen)
{'E1'}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class Memory(Generic[T]):
    """What one check module remembers: made by ``factory``, for the whole game or
    afresh for every hand (``per_hand``).  Compared and hashed by identity."""

    __slots__ = ("factory", "name", "per_hand")

    def __init__(self, name: str, factory: Callable[[], T], per_hand: bool = True) -> None:
        self.name = name
        self.factory = factory
        self.per_hand = per_hand

    def __repr__(self) -> str:
        return f"Memory({self.name!r}, per_hand={self.per_hand})"


class Memos:
    """The memories of one replay, by :class:`Memory`."""

    __slots__ = ("game", "hand")

    def __init__(self) -> None:
        self.game: dict[Memory[Any], Any] = {}
        """The whole game's memories made so far."""
        self.hand: dict[Memory[Any], Any] = {}
        """The hand's memories made so far: ``hand.get(memory)`` is :meth:`peek` without
        its call, for a check that runs at every event."""

    def get(self, memory: Memory[T]) -> T:
        """The memory, made now if this replay (or hand) has none yet."""
        store = self.hand if memory.per_hand else self.game
        value: T | None = store.get(memory)
        if value is None:
            value = store[memory] = memory.factory()
        return value

    def peek(self, memory: Memory[T]) -> T | None:
        """The memory if it was made, else ``None`` (nothing is made)."""
        store = self.hand if memory.per_hand else self.game
        value: T | None = store.get(memory)
        return value

    def new_hand(self) -> None:
        """A hand starts: the per-hand memories start over."""
        self.hand = {}
